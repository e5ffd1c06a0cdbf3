//! The reply limit: how much mail any one address gets from the daemon
//! because of mail that anybody may send. A `From:` line proves nothing, so
//! a stranger can make us write to anybody: every mail he can cause
//! (refusals, answers to requests, copies of reports, archive files sent
//! on request, alerts about mail that could not be delivered) counts
//! against its recipient's allowance, `replies_per_hour`. What only a
//! player's own key can cause (orders accepted that change what the server
//! holds, a signed command applied) is never held back: forged mail that
//! used up the allowance must not silence the acknowledgement of her real
//! orders.
//!
//! Every caller asks here, and nowhere else, whether a mail may go out.

use crate::server::store::Store;

/// The window the allowance is counted over.
pub const WINDOW_SECONDS: i64 = 3600;

/// What a mail to one address is, as the limit sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mail<'a> {
    /// Orders accepted that changed what the server holds for a side, or a
    /// signed command applied: caused by a key, never held back (it still
    /// counts, so that refusals to the same address are fewer).
    Acknowledgement,
    /// A refusal, an answer to `status` or `report`, orders sent again
    /// unchanged: limited.
    Answer,
    /// A copy of a report (a `report` request), a step's archive files (an
    /// `archive` request), or a message passed on to the game master:
    /// limited, counted as a mail of its own beside the answer that
    /// announces it.
    Copy,
    /// An alert to the game master that a mail of kind `about` was given up.
    /// Limited when strangers can cause the mail (replies, copies); an
    /// alert about a report or a notice is never held back.
    Alert { about: &'a str },
}

impl Mail<'_> {
    /// Whether the allowance can hold this mail back.
    pub fn limited(self) -> bool {
        match self {
            Mail::Acknowledgement => false,
            Mail::Answer | Mail::Copy => true,
            Mail::Alert { about } => {
                matches!(
                    about,
                    "reply" | "report-again" | "archive-again" | "alert" | "pass-on"
                )
            }
        }
    }
}

/// The outbox kinds that count against an address's allowance.
pub const COUNTED: [&str; 5] = ["reply", "report-again", "archive-again", "alert", "pass-on"];

/// How many more limited mails `to` may get now (0 when none).
pub fn left(store: &Store, per_hour: u32, to: &str, now: i64) -> anyhow::Result<u32> {
    let sent = store.mails_to_since(to, &COUNTED, now - WINDOW_SECONDS)?;
    Ok(per_hour.saturating_sub(sent))
}

/// Whether `mails` (queued together, for instance an answer and a copy)
/// may go to `to` now.
pub fn allows(
    store: &Store,
    per_hour: u32,
    to: &str,
    mails: &[Mail],
    now: i64,
) -> anyhow::Result<bool> {
    let limited = mails.iter().filter(|m| m.limited()).count() as u32;
    if limited == 0 {
        return Ok(true);
    }
    Ok(left(store, per_hour, to, now)? >= limited)
}

/// The line an inbox record carries for a reply held back.
pub fn held_back(to: &str, per_hour: u32) -> String {
    format!(
        "not answered: {to} had {per_hour} mails from us in the last hour, the limit (replies_per_hour)"
    )
}

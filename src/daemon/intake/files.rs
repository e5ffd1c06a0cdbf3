//! The orders files of a message, each through the same checks as
//! `galloper submit` (envelope, signature, freshness, rules): checked only
//! when the message asks for a check, else prepared for the store, which
//! takes them with the message's record in one transaction.

use super::Message;
use crate::mail::inbound::Submission;
use crate::server::store::OrdersRow;
use crate::server::{Refusal, Server};
use crate::sig::SigError;

/// What the files of a message came to.
#[derive(Default)]
pub(super) struct Files {
    pub accepted: Vec<OrdersRow>,
    /// Whether an accepted file changed what the server holds: only then
    /// is the acknowledgement beyond the reply limit (`daemon::limit`).
    pub changed: bool,
}

/// Each file answered as `galloper orders check` would; nothing stored.
pub(super) fn check(server: &Server, subs: &[Submission]) -> Vec<String> {
    subs.iter()
        .map(|sub| {
            match server.check_orders(&sub.file_name, &sub.orders, Some(&sub.signature)) {
                Ok(r) => format!(
                    "{}: would be accepted for game {} step {} ({}), sha256 {} (checked only: nothing was stored; send it again without `check` in the subject or text to submit it)",
                    sub.file_name, r.game, r.step, r.side, r.sha256
                ),
                Err(e) => format!(
                    "{}: would be refused: {e} (checked only: nothing was stored)",
                    sub.file_name
                ),
            }
        })
        .collect()
}

/// Each file prepared for the store, in the message's order (a later file
/// of the same message for the same step replaces an earlier one).
pub(super) fn submit(
    server: &Server,
    m: &Message,
    subs: &[Submission],
    lines: &mut Vec<String>,
) -> anyhow::Result<Files> {
    let mut out = Files::default();
    for sub in subs {
        let result =
            server.prepare_after(&sub.file_name, &sub.orders, &sub.signature, &out.accepted);
        match (result, &m.routed) {
            (Ok(row), Some(r)) if r.game() != row.game => {
                lines.push(format!(
                    "{}: refused: the message is for game {} but the orders are for game {}; nothing was changed",
                    sub.file_name,
                    r.game(),
                    row.game
                ));
            }
            (Ok(row), _) => {
                let mut line = format!(
                    "{}: accepted for game {} step {} ({}), sha256 {}",
                    sub.file_name, row.game, row.step, row.side, row.sha256
                );
                match replaced(server, &out.accepted, &row)? {
                    Some(prev) if prev == row.sha256 => line.push_str(
                        "\n  It is the very file accepted before for this step: nothing changed.",
                    ),
                    Some(prev) => {
                        out.changed = true;
                        line.push_str(&format!(
                            "\n  It replaces the orders accepted before for this step (sha256 {prev})."
                        ));
                    }
                    None => out.changed = true,
                }
                lines.push(line);
                out.accepted.push(row);
            }
            (Err(e @ Refusal::AlreadyAccepted { .. }), _) => {
                lines.push(format!("{}: {e}", sub.file_name));
            }
            (Err(e), _) => lines.push(refused(sub, &e)),
        }
    }
    Ok(out)
}

/// A refusal in words, with the advice a file pasted into the text needs.
fn refused(sub: &Submission, e: &Refusal) -> String {
    let mut text = format!("{}: refused: {e}", sub.file_name);
    if sub.from_body
        && matches!(
            e,
            Refusal::Signature(SigError::BadSignature)
                | Refusal::Signature(SigError::MalformedSignature(_))
        )
    {
        text.push_str(
            "\n  Mail programs rewrap text pasted into a message: attach the orders file and its .sig instead.",
        );
    }
    text
}

/// The orders that `row` replaces: an earlier file of this message for the
/// same step and side, else the latest stored one (receipt order, never the
/// sender's `Date:`).
fn replaced(
    server: &Server,
    earlier: &[OrdersRow],
    row: &OrdersRow,
) -> anyhow::Result<Option<String>> {
    if let Some(o) = earlier
        .iter()
        .rev()
        .find(|o| o.game == row.game && o.step == row.step && o.side == row.side)
    {
        return Ok(Some(o.sha256.clone()));
    }
    Ok(server
        .store()
        .latest_sha256(&row.game, row.step, &row.side)?)
}

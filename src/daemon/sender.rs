//! Sending the outbox: every due mail through SMTP; transient failures are
//! retried with backoff, and a mail that cannot go out in time is given up
//! with an alert to the game master.

use super::config::Config;
use crate::game::Server;
use crate::mail::smtp::{SendError, Smtp, backoff, should_give_up};

/// What one pass over the outbox did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sent {
    pub sent: usize,
    pub retrying: usize,
    pub failed: usize,
}

/// Try every due mail once.
pub fn drain(server: &mut Server, smtp: &Smtp, cfg: &Config, now: i64) -> anyhow::Result<Sent> {
    let mut out = Sent::default();
    for m in server.store().due_mails(now)? {
        match smtp.send_raw(&m.sender, &m.recipients, &m.bytes) {
            Ok(()) => {
                // A crash between the server's acceptance and this line sends
                // the mail again, with the same Message-ID (docs/MAIL.md).
                server.store_mut().mark_sent(m.id, now)?;
                out.sent += 1;
                tracing::info!(message_id = %m.message_id, to = %m.recipients.join(","), "sent");
            }
            Err(SendError::Transient(e))
                if !should_give_up((now - m.queued_at).max(0) as u64, cfg.give_up_hours * 3600) =>
            {
                let next = now + backoff(m.attempts + 1).as_secs() as i64;
                server.store_mut().mark_attempt(m.id, Some(next), &e)?;
                out.retrying += 1;
                tracing::warn!(message_id = %m.message_id, error = %e, "will retry");
            }
            Err(SendError::Transient(e)) | Err(SendError::Permanent(e)) => {
                server.store_mut().mark_attempt(m.id, None, &e)?;
                out.failed += 1;
                tracing::error!(message_id = %m.message_id, error = %e, "given up");
            }
        }
    }
    Ok(out)
}

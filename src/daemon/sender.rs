//! Sending the outbox: every due mail through SMTP; transient failures are
//! retried with backoff, and a mail that cannot go out in time is given up
//! with an alert to the game master.

use super::config::Config;
use crate::mail::smtp::{SendError, Smtp, backoff, should_give_up};
use crate::server::Server;

/// What one pass over the outbox did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sent {
    pub sent: usize,
    pub retrying: usize,
    pub failed: usize,
    /// The server refused our login: the operator's message (where, as whom,
    /// what to check). The pass stopped there and every mail stays queued.
    pub login_refused: Option<String>,
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
            Err(SendError::Auth(e)) => {
                // Not the mail's fault, and every other mail would meet the
                // same refusal: keep it queued whatever its age, stop here,
                // and tell the operator.
                let next = now + backoff(m.attempts + 1).as_secs() as i64;
                server.store_mut().mark_attempt(m.id, Some(next), &e)?;
                out.retrying += 1;
                let advice = smtp.login_advice(&e);
                tracing::error!("{advice}; the mail stays queued");
                login_alert(server, cfg, &advice, now)?;
                out.login_refused = Some(advice);
                break;
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
                // One mail's alert failing stays its own: the pass goes on.
                if m.kind != "alert"
                    && let Err(a) = alert(server, cfg, &m, &e, now)
                {
                    tracing::error!(message_id = %m.message_id, error = %format!("{a:#}"), "the game master could not be told");
                }
            }
        }
    }
    Ok(out)
}

/// Tell the game master that the SMTP login is refused, once a day at most
/// (the alert waits in the outbox for the login to work again, like any mail).
fn login_alert(server: &mut Server, cfg: &Config, advice: &str, now: i64) -> anyhow::Result<()> {
    daily_alert(
        server,
        cfg,
        ("club", "smtp-login"),
        "Galloper: the SMTP server refuses the login",
        &format!(
            "Galloper cannot send mail: {advice}.\n\nEvery mail stays queued and goes out once the login works.\n"
        ),
        now,
    )
}

/// Queue an alert for the game master (if the configuration names one),
/// at most once a day for one `(game, what)`: its Message-ID is made of
/// them and the day, and the outbox keeps one mail per Message-ID.
pub fn daily_alert(
    server: &mut Server,
    cfg: &Config,
    (game, what): (&str, &str),
    subject: &str,
    text: &str,
    now: i64,
) -> anyhow::Result<()> {
    use crate::mail::compose::{self, Party, ReplyMail};
    let Some(gm) = &cfg.game_master else {
        return Ok(());
    };
    let (_, domain) = cfg.club_parts();
    let day = now.div_euclid(86_400);
    let message_id = compose::message_id(&domain, game, 0, "gm", &format!("alert-{what}-{day}"));
    let bytes = compose::reply(&ReplyMail {
        from: &cfg.club_party(),
        to: &Party {
            name: None,
            email: gm.clone(),
        },
        subject: subject.into(),
        message_id: message_id.clone(),
        in_reply_to: None,
        thread: None,
        text: text.into(),
        date: Some(crate::mail::date::rfc2822(now)),
    })?;
    let game = (game != "club").then(|| game.to_string());
    server
        .store_mut()
        .queue_mails(&[crate::server::store::OutboxRow {
            game,
            ..crate::server::store::OutboxRow::queued(
                message_id,
                "alert",
                &cfg.club_address,
                gm,
                bytes,
                now,
            )
        }])?;
    Ok(())
}

/// Tell the game master that a mail was given up (if the configuration names one).
fn alert(
    server: &mut Server,
    cfg: &Config,
    m: &crate::server::store::OutboxRow,
    error: &str,
    now: i64,
) -> anyhow::Result<()> {
    use crate::mail::compose::{self, Party, ReplyMail};
    let Some(gm) = &cfg.game_master else {
        return Ok(());
    };
    // Strangers can make replies undeliverable (a forged From: to nowhere):
    // alerts about those are limited like any reply (daemon::limit).
    let about = super::limit::Mail::Alert { about: &m.kind };
    if !super::limit::allows(server.store(), cfg.replies_per_hour, gm, &[about], now)? {
        tracing::warn!(message_id = %m.message_id, to = %gm, "alert to the game master held back: the reply limit is reached; the mail stays in the outbox as failed");
        return Ok(());
    }
    let (_, domain) = cfg.club_parts();
    let message_id = compose::message_id(
        &domain,
        m.game.as_deref().unwrap_or("club"),
        m.step.unwrap_or(0),
        "gm",
        &format!("alert-{}", m.id),
    );
    let text = format!(
        "Galloper gave up sending a mail.\n\nMessage-ID: <{}>\nKind: {}\nTo: {}\nGame: {}\nLast error: {error}\n\nIt stays in the outbox with status `failed`.\n",
        m.message_id,
        m.kind,
        m.recipients.join(", "),
        m.game.as_deref().unwrap_or("-")
    );
    let bytes = compose::reply(&ReplyMail {
        from: &cfg.club_party(),
        to: &Party {
            name: None,
            email: gm.clone(),
        },
        subject: format!("Galloper: a {} mail could not be sent", m.kind),
        message_id: message_id.clone(),
        in_reply_to: None,
        thread: None,
        text,
        date: Some(crate::mail::date::rfc2822(now)),
    })?;
    server
        .store_mut()
        .queue_mails(&[crate::server::store::OutboxRow {
            id: 0,
            message_id,
            game: m.game.clone(),
            step: m.step,
            reader: None,
            kind: "alert".into(),
            sender: cfg.club_address.clone(),
            recipients: vec![gm.clone()],
            bytes,
            status: "queued".into(),
            attempts: 0,
            next_attempt: now,
            queued_at: now,
        }])?;
    Ok(())
}

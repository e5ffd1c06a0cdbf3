//! The last stage: the answer to the sender (within the reply limit), the
//! mail queued beside it, copies to a registered address, and the
//! message's record, with its accepted orders, in one transaction.

use super::asks::Beside;
use super::files::Files;
use super::{Handled, Message};
use crate::archive::sha256_hex;
use crate::daemon::limit::{self, Mail};
use crate::mail::compose::{self, Party, ReplyMail};
use crate::server::Server;
use crate::server::store::{InboxRow, OutboxRow};

/// What every stage said of a message, for the answer and the record.
pub(super) struct Said {
    pub lines: Vec<String>,
    pub outcome: &'static str,
    pub files: Files,
    /// Command files applied.
    pub applied: usize,
    pub beside: Beside,
}

pub(super) fn finish(server: &mut Server, m: &Message, said: Said) -> anyhow::Result<Handled> {
    let Said {
        lines,
        outcome,
        files,
        applied,
        beside,
    } = said;
    let game = files
        .accepted
        .first()
        .map(|r| r.game.clone())
        .or_else(|| m.routed.as_ref().map(|r| r.game().to_string()));
    let class = if files.changed || applied > 0 {
        Mail::Acknowledgement
    } else {
        Mail::Answer
    };
    let mut detail = lines.join("\n");
    let mut mails = Vec::new();
    let answered = match &m.sender {
        Some(to) => limit::allows(server.store(), m.cfg.replies_per_hour, to, &[class], m.now)?,
        None => false,
    };
    match (&m.sender, answered) {
        (Some(to), false) => detail.push_str(&format!(
            "\n({})",
            limit::held_back(to, m.cfg.replies_per_hour)
        )),
        (Some(to), true) => {
            mails.push(answer(m, to, game.as_deref(), &detail, &files)?);
            mails.extend(beside.with_answer);
        }
        (None, _) => {}
    }
    mails.extend(beside.passed_on);
    // The registered address hears of orders accepted from another one,
    // whatever the reply limit: accepted orders are never kept quiet.
    mails.extend(crate::daemon::copies::to_registered(
        server,
        m.cfg,
        &files.accepted,
        m.sender.as_deref(),
        &detail,
        (&m.inb.message_id, &m.key),
        (m.now, m.date),
    )?);
    let row = InboxRow {
        key: m.key.clone(),
        sender: m.sender.clone(),
        game: game.clone(),
        outcome: outcome.into(),
        detail: detail.clone(),
    };
    Ok(
        match server
            .store_mut()
            .record_intake(&row, &files.accepted, &mails)?
        {
            Some(_) => Handled {
                outcome: outcome.into(),
                game,
                sender: m.sender.clone(),
                detail,
            },
            None => Handled {
                outcome: "duplicate".into(),
                game,
                sender: m.sender.clone(),
                detail: "processed before".into(),
            },
        },
    )
}

/// The reply mail to `to`, in the message's thread.
fn answer(
    m: &Message,
    to: &str,
    game: Option<&str>,
    detail: &str,
    files: &Files,
) -> anyhow::Result<OutboxRow> {
    let from = m.cfg.club_party();
    let to_party = Party {
        name: None,
        email: to.to_string(),
    };
    let message_id = compose::message_id(
        &m.domain,
        game.unwrap_or("club"),
        0,
        to,
        // From the message's key: one reply per message, and a new
        // message with the same body (a replay) gets its own reply.
        &format!("reply-{}", &sha256_hex(m.key.as_bytes())[..12]),
    );
    let thread = game.map(|g| compose::Thread {
        root: compose::thread_root(&m.domain, g),
        parent: None,
    });
    let text = format!("{detail}\n\n-- \nGalloper, for {}\n", m.cfg.club_address);
    let bytes = compose::reply(&ReplyMail {
        from: &from,
        to: &to_party,
        subject: compose::reply_subject(&m.inb.subject),
        message_id: message_id.clone(),
        in_reply_to: Some(m.inb.message_id.clone()),
        thread,
        text,
        date: Some(m.date.to_string()),
    })?;
    Ok(OutboxRow {
        game: game.map(str::to_string),
        step: files.accepted.first().map(|r| r.step),
        ..OutboxRow::queued(message_id, "reply", &m.cfg.club_address, to, bytes, m.now)
    })
}

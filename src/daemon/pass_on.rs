//! Mail to the club that is neither orders nor a request ("may I join?",
//! "I am away next week"): passed on to the game master, with the player as
//! its `Reply-To:`, so that a person answers what the program cannot.
//!
//! Anybody can write to the club, so a message is passed on only within
//! both allowances of the reply limit: the sender's (his answer) and the
//! game master's (the message passed on counts as a mail to him).

use super::config::Config;
use super::limit::{self, Mail};
use crate::mail::compose::{self, Party, ReplyMail};
use crate::mail::inbound::Inbound;
use crate::server::store::OutboxRow;
use sha2::{Digest, Sha256};

/// The most of a message's text passed on; the rest is cut, and said so.
pub const MAX_TEXT: usize = 16 * 1024;

/// Pass `inb` on to the game master, queued in `mails`, and say so to the
/// sender; `None` when the club has no game master, the sender is the game
/// master himself, or there is nobody to answer.
pub fn to_game_master(
    store: &crate::server::store::Store,
    cfg: &Config,
    inb: &Inbound,
    sender: &str,
    key: &str,
    (now, date): (i64, &str),
    mails: &mut Vec<OutboxRow>,
) -> anyhow::Result<Option<String>> {
    let Some(gm) = cfg.game_master.as_deref() else {
        return Ok(None);
    };
    if crate::mail::address::mailbox(gm) == crate::mail::address::mailbox(sender) {
        return Ok(None);
    }
    let both = limit::allows(store, cfg.replies_per_hour, gm, &[Mail::Copy], now)?
        && limit::allows(store, cfg.replies_per_hour, sender, &[Mail::Answer], now)?;
    if !both {
        return Ok(Some(
            "Your message is not passed on to the game master now: too much mail went to him or to you in the last hour. Write again later.".into(),
        ));
    }
    let text = passed_text(inb, sender, date);
    let (_, domain) = cfg.club_parts();
    let digest = hex::encode(Sha256::digest(key.as_bytes()));
    let message_id = compose::message_id(
        &domain,
        "club",
        0,
        gm,
        &format!("pass-on-{}", &digest[..12]),
    );
    let bytes = compose::passed_on(
        &ReplyMail {
            from: &cfg.club_party(),
            to: &Party {
                name: None,
                email: gm.to_string(),
            },
            subject: format!("From {sender}: {}", one_line(&inb.subject)),
            message_id: message_id.clone(),
            in_reply_to: None,
            thread: None,
            text,
            date: Some(date.to_string()),
        },
        &Party {
            name: None,
            email: sender.to_string(),
        },
    )?;
    mails.push(OutboxRow::queued(
        message_id,
        "pass-on",
        &cfg.club_address,
        gm,
        bytes,
        now,
    ));
    Ok(Some(format!(
        "It is neither orders nor a request (report, status, check), so it was passed on to the game master ({gm}), who answers in person."
    )))
}

/// What the game master reads: who wrote, when, and the text, bounded.
fn passed_text(inb: &Inbound, sender: &str, date: &str) -> String {
    let body = inb.body_text.as_deref().unwrap_or("");
    let mut cut = body.len().min(MAX_TEXT);
    while !body.is_char_boundary(cut) {
        cut -= 1;
    }
    let mut text = format!(
        "A message to the club that is neither orders nor a request, received {date}.\n\
From: {sender} (answering this mail answers them)\nSubject: {}\n",
        one_line(&inb.subject)
    );
    if !inb.files.is_empty() {
        let names: Vec<&str> = inb.files.iter().map(|f| f.name.as_str()).collect();
        text.push_str(&format!(
            "Attachments (not passed on): {}\n",
            names.join(", ")
        ));
    }
    text.push('\n');
    text.push_str(&body[..cut]);
    if cut < body.len() {
        text.push_str(&format!(
            "\n[... {} more bytes not passed on]",
            body.len() - cut
        ));
    }
    text.push_str("\n\n-- \nGalloper\n");
    text
}

/// A subject fit for one header line, bounded.
fn one_line(s: &str) -> String {
    let s: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(120)
        .collect();
    if s.trim().is_empty() {
        "(no subject)".into()
    } else {
        s.trim().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_text_is_cut_and_the_cut_is_said() {
        let inb = Inbound {
            body_text: Some("é".repeat(MAX_TEXT)),
            subject: "join\r\nBcc: x@y".into(),
            ..Inbound::default()
        };
        let t = passed_text(&inb, "a@b.test", "Sat, 28 Nov 2026 10:00:00 +0000");
        assert!(t.contains("more bytes not passed on"), "{t}");
        assert!(t.contains("Subject: join  Bcc: x@y"), "{t}");
        assert!(t.len() < MAX_TEXT + 400);
    }
}

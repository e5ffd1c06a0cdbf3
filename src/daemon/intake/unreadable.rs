//! A message too large, with too many attachments, or unreadable: recorded,
//! and its sender answered when its headers name one.

use super::{Handled, answerable};
use crate::daemon::config::Config;
use crate::daemon::limit::{self, Mail};
use crate::mail::compose::{self, Party, ReplyMail};
use crate::mail::inbound::{self, InboundError, Limits};
use crate::server::Server;
use crate::server::store::{InboxRow, OutboxRow};

/// Handle a message of `size` bytes, over `max_message_bytes`, from its
/// first bytes (`head`, which should hold its header block) and the SHA-256
/// of all of it: refused as [`handle`] would, without holding it in memory.
pub fn handle_too_large(
    server: &mut Server,
    cfg: &Config,
    head: &[u8],
    size: usize,
    sha: &str,
    now: i64,
    date: &str,
) -> anyhow::Result<Handled> {
    let e = InboundError::TooLarge {
        bytes: size,
        limit: cfg.max_message_bytes,
    };
    refuse_unreadable(server, cfg, head, sha, &e, now, date)
}

/// How much of a message too large to read is read for its headers.
pub const HEAD_BYTES: usize = 64 * 1024;

/// A message too large, with too many attachments, or unreadable: record it
/// and answer the sender if the headers name one. `raw` is the message or
/// at least its first [`HEAD_BYTES`]; `sha` is the SHA-256 of all of it.
pub(super) fn refuse_unreadable(
    server: &mut Server,
    cfg: &Config,
    raw: &[u8],
    sha: &str,
    e: &InboundError,
    now: i64,
    date: &str,
) -> anyhow::Result<Handled> {
    let key = format!("unreadable {sha}");
    let detail = match e {
        InboundError::TooLarge { bytes, limit } => {
            format!("refused: the message is {bytes} bytes; the limit is {limit}")
        }
        InboundError::TooManyAttachments { count, limit } => {
            format!("refused: {count} attachments; the limit is {limit}")
        }
        InboundError::Unparseable => "refused: the message could not be read as mail".to_string(),
    };
    if server.store().inbox_seen(&key)? {
        return Ok(Handled {
            outcome: "duplicate".into(),
            game: None,
            sender: None,
            detail,
        });
    }
    // Read only the header block to find whom to answer.
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .or_else(|| raw.windows(2).position(|w| w == b"\n\n"))
        .unwrap_or(0);
    let head = inbound::parse(&raw[..end.min(HEAD_BYTES)], &Limits::default()).ok();
    let sender = head
        .as_ref()
        .filter(|h| h.auto.is_none())
        .and_then(|h| h.reply_to.clone().or_else(|| h.from.clone()))
        .map(|a| a.email.to_ascii_lowercase())
        .filter(|a| answerable(a));
    let mut mails = Vec::new();
    if let Some(to) = &sender
        && limit::allows(
            server.store(),
            cfg.replies_per_hour,
            to,
            &[Mail::Answer],
            now,
        )?
    {
        let (_, domain) = cfg.club_parts();
        let from = cfg.club_party();
        let message_id = compose::message_id(
            &domain,
            "club",
            0,
            to,
            &format!("reply-{}", sha.get(..8).unwrap_or(sha)),
        );
        let bytes = compose::reply(&ReplyMail {
            from: &from,
            to: &Party {
                name: None,
                email: to.clone(),
            },
            subject: compose::reply_subject(
                head.as_ref()
                    .map(|h| h.subject.as_str())
                    .unwrap_or_default(),
            ),
            message_id: message_id.clone(),
            in_reply_to: head.as_ref().map(|h| h.message_id.clone()),
            thread: None,
            text: format!("{detail}. Nothing was changed.\n"),
            date: Some(date.to_string()),
        })?;
        mails.push(OutboxRow::queued(
            message_id,
            "reply",
            &cfg.club_address,
            to,
            bytes,
            now,
        ));
    }
    let row = InboxRow {
        key,
        sender: sender.clone(),
        game: None,
        outcome: "refused".into(),
        detail: detail.clone(),
    };
    server.store_mut().record_intake(&row, &[], &mails)?;
    Ok(Handled {
        outcome: "refused".into(),
        game: None,
        sender,
        detail,
    })
}

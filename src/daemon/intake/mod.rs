//! One incoming message, from raw bytes to its recorded outcome: orders
//! checked and stored, and the reply queued, in one transaction. A message
//! seen before (same Message-ID and content) changes nothing.
//!
//! [`handle`] is a pipeline of named stages over the message, parsed once
//! ([`read`]): [`screen`] (seen before, automatic mail), the orders files
//! through the server's checks (`files`), command files
//! (`daemon::commands`), requests and mail without orders (`asks`), the
//! [`outcome`], and the answer and record (`reply`).

mod asks;
mod files;
mod reply;
mod unreadable;

pub use unreadable::{HEAD_BYTES, handle_too_large};

use super::config::Config;
use crate::archive::sha256_hex;
use crate::mail::inbound::{self, Inbound, InboundError, Limits, Submission};
use crate::mail::route;
use crate::server::Server;
use crate::server::store::InboxRow;

/// What became of a message, for the log.
#[derive(Clone, Debug, PartialEq)]
pub struct Handled {
    /// `accepted`, `command` (a command file applied), `refused`, `ignored`, `duplicate`.
    pub outcome: String,
    pub game: Option<String>,
    pub sender: Option<String>,
    pub detail: String,
}

/// A message read once, with what every stage asks of it.
pub(super) struct Message<'a> {
    cfg: &'a Config,
    inb: Inbound,
    /// Its Message-ID and content hash: what makes it "seen before".
    key: String,
    /// Whom to answer, when the address can be answered.
    sender: Option<String>,
    /// The game its address or subject names.
    routed: Option<route::Route>,
    club_local: String,
    domain: String,
    now: i64,
    date: &'a str,
}

/// Handle one message. `now` is unix seconds and `date` its RFC 2822 form,
/// both from the caller: nothing here reads the clock.
pub fn handle(
    server: &mut Server,
    cfg: &Config,
    raw: &[u8],
    now: i64,
    date: &str,
) -> anyhow::Result<Handled> {
    // What the message brings is received now: a beacon step's close of
    // orders is judged by this time.
    server.see_time(now);
    let (m, subs) = match read(cfg, raw, now, date) {
        Ok(read) => read,
        Err(e) => {
            return unreadable::refuse_unreadable(
                server,
                cfg,
                raw,
                &sha256_hex(raw),
                &e,
                now,
                date,
            );
        }
    };
    if let Some(done) = screen(server, &m)? {
        return Ok(done);
    }
    // Command files (a `command:` key) go to the game master's module.
    let (commands, subs): (Vec<_>, Vec<_>) = subs
        .into_iter()
        .partition(|s| crate::server::command::looks_like_command(&s.orders));
    let mut lines = routed_to(server, &m)?;
    let checking = route::wants_check(&m.inb);
    let files = if checking {
        lines.extend(files::check(server, &subs));
        files::Files::default()
    } else {
        files::submit(server, &m, &subs, &mut lines)?
    };
    // The deadline in the player's own zone, under what was accepted.
    if let Some(row) = files.accepted.last() {
        let dl = server.open_deadline_lines(&row.game, Some(&row.side))?;
        if !dl.is_empty() {
            lines.push(dl.join("\n"));
        }
    }
    let applied = super::commands::apply_all(
        server,
        cfg,
        &commands,
        m.routed.as_ref(),
        m.sender.as_deref(),
        now,
        &mut lines,
    )?;
    let sent = !subs.is_empty() || !commands.is_empty();
    let request = route::request(&m.inb);
    let mut beside = asks::Beside::default();
    match (sent, &request, &m.routed) {
        (true, _, _) => {}
        (false, Some(req), Some(r)) => {
            lines.push(asks::request(server, &m, req, r.game(), &mut beside)?);
        }
        (false, _, _) => {
            asks::without_orders(server, &m, request.is_some(), &mut beside, &mut lines)?;
        }
    }
    let outcome = outcome(&Tally {
        accepted: !files.accepted.is_empty(),
        applied: applied > 0,
        checked: checking && !subs.is_empty(),
        request: request.is_some() && !sent && m.routed.is_some(),
        passed_on: !beside.passed_on.is_empty(),
    });
    reply::finish(
        server,
        &m,
        reply::Said {
            lines,
            outcome,
            files,
            applied,
            beside,
        },
    )
}

/// Stage 1: the raw mail parsed, once, within the club's limits, with its
/// key, sender, route and files.
fn read<'a>(
    cfg: &'a Config,
    raw: &[u8],
    now: i64,
    date: &'a str,
) -> Result<(Message<'a>, Vec<Submission>), InboundError> {
    let limits = Limits {
        max_bytes: cfg.max_message_bytes,
        max_attachments: cfg.max_attachments,
    };
    let inb = inbound::parse(raw, &limits)?;
    let (club_local, domain) = cfg.club_parts();
    let subs = inbound::submissions(&inb);
    let routed = route::route(&inb, &club_local, &subs);
    let sender = inb
        .reply_to
        .clone()
        .or_else(|| inb.from.clone())
        .map(|a| a.email.to_ascii_lowercase())
        .filter(|a| answerable(a));
    let key = format!("{} {}", inb.message_id, inb.content_sha256);
    Ok((
        Message {
            cfg,
            inb,
            key,
            sender,
            routed,
            club_local,
            domain,
            now,
            date,
        },
        subs,
    ))
}

/// Stage 2: a message seen before changes nothing; automatic mail (an
/// out-of-office, a bounce) is recorded and not answered.
fn screen(server: &mut Server, m: &Message) -> anyhow::Result<Option<Handled>> {
    if server.store().inbox_seen(&m.key)? {
        return Ok(Some(Handled {
            outcome: "duplicate".into(),
            game: None,
            sender: m.sender.clone(),
            detail: "processed before".into(),
        }));
    }
    let Some(auto) = &m.inb.auto else {
        return Ok(None);
    };
    let detail = format!("not answered: {auto:?}");
    let row = InboxRow {
        key: m.key.clone(),
        sender: m.sender.clone(),
        game: None,
        outcome: "ignored".into(),
        detail: detail.clone(),
    };
    server.store_mut().record_intake(&row, &[], &[])?;
    Ok(Some(Handled {
        outcome: "ignored".into(),
        game: None,
        sender: m.sender.clone(),
        detail,
    }))
}

/// The answer's first lines: which game the message went to, and whether
/// this server holds it.
fn routed_to(server: &Server, m: &Message) -> anyhow::Result<Vec<String>> {
    let mut lines = Vec::new();
    if let Some(r) = &m.routed {
        lines.push(format!(
            "This message went to game {} {}.",
            r.game(),
            r.describe()
        ));
        if server.store().game(r.game())?.is_none() {
            lines.push(no_such_game(r.game()));
        }
    }
    Ok(lines)
}

/// What the stages did, for the [`outcome`].
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    accepted: bool,
    applied: bool,
    checked: bool,
    request: bool,
    passed_on: bool,
}

/// The message's outcome in the inbox record and the log, the first that
/// holds: orders accepted, a command applied, files checked, a request
/// answered, words passed on to the game master, else refused.
fn outcome(t: &Tally) -> &'static str {
    if t.accepted {
        "accepted"
    } else if t.applied {
        "command"
    } else if t.checked {
        "checked"
    } else if t.request {
        "request"
    } else if t.passed_on {
        "passed-on"
    } else {
        "refused"
    }
}

/// The answer to a message for a game this server does not hold.
fn no_such_game(game: &str) -> String {
    format!(
        "No such game: there is no game called {game} here. Check the game id in the address (club+GAME@), the [GAME] tag of the subject, or the `game:` line of the orders, against your orders template."
    )
}

/// Whether a reply can be addressed to `email`. The mail parser reads
/// addresses that the mail builder refuses; composing a reply to one would
/// fail the whole message, and the daemon would meet it again on every poll.
/// Such a message is recorded with no sender and not answered.
fn answerable(email: &str) -> bool {
    email.parse::<lettre::Address>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_outcome_is_the_first_thing_the_message_did() {
        let none = Tally::default();
        assert_eq!(outcome(&none), "refused");
        assert_eq!(
            outcome(&Tally {
                passed_on: true,
                ..none
            }),
            "passed-on"
        );
        assert_eq!(
            outcome(&Tally {
                request: true,
                passed_on: true,
                ..none
            }),
            "request"
        );
        assert_eq!(
            outcome(&Tally {
                checked: true,
                request: true,
                ..none
            }),
            "checked"
        );
        assert_eq!(
            outcome(&Tally {
                applied: true,
                checked: true,
                ..none
            }),
            "command"
        );
        assert_eq!(
            outcome(&Tally {
                accepted: true,
                applied: true,
                ..none
            }),
            "accepted"
        );
    }

    #[test]
    fn an_address_the_mail_builder_refuses_is_not_answered() {
        assert!(answerable("general@example.org"));
        assert!(!answerable("not an address"));
    }

    #[test]
    fn a_message_is_parsed_once_with_its_key_sender_and_route() {
        let cfg: Config =
            serde_yaml::from_str("data: /nonexistent\nclub_address: club@example.org\n")
                .expect("a config");
        let raw = b"From: General <General@Example.org>\r\nTo: club+g1@example.org\r\nMessage-ID: <m1@example.org>\r\nSubject: status\r\n\r\nhello\r\n";
        let (m, subs) = read(&cfg, raw, 0, "date").expect("it reads");
        assert_eq!(m.sender.as_deref(), Some("general@example.org"));
        assert!(m.key.starts_with("<m1@example.org> ") || m.key.starts_with("m1@example.org "));
        assert_eq!(
            m.routed.as_ref().map(|r| r.game().to_string()),
            Some("g1".into())
        );
        assert!(subs.is_empty());
        assert!(matches!(
            route::request(&m.inb),
            Some(route::Request::Status)
        ));
    }
}

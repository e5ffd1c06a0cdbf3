//! One incoming message, from raw bytes to its recorded outcome: orders
//! checked and stored, and the reply queued, in one transaction. A message
//! seen before (same Message-ID and content) changes nothing.

use super::config::Config;
use super::limit::{self, Mail};
use crate::archive::sha256_hex;
use crate::mail::compose::{self, Party, ReplyMail};
use crate::mail::inbound::{self, InboundError, Limits};
use crate::mail::route;
use crate::server::store::{GameStatus, InboxRow, OrdersRow, OutboxRow};
use crate::server::{Refusal, Server};
use crate::sig::SigError;

/// What became of a message, for the log.
#[derive(Clone, Debug, PartialEq)]
pub struct Handled {
    /// `accepted`, `command` (a command file applied), `refused`, `ignored`, `duplicate`.
    pub outcome: String,
    pub game: Option<String>,
    pub sender: Option<String>,
    pub detail: String,
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
    let limits = Limits {
        max_bytes: cfg.max_message_bytes,
        max_attachments: cfg.max_attachments,
    };
    let (club_local, domain) = cfg.club_parts();
    let inb = match inbound::parse(raw, &limits) {
        Ok(m) => m,
        Err(e) => return refuse_unreadable(server, cfg, raw, &sha256_hex(raw), &e, now, date),
    };
    let key = format!("{} {}", inb.message_id, inb.content_sha256);
    let sender = inb
        .reply_to
        .clone()
        .or_else(|| inb.from.clone())
        .map(|a| a.email.to_ascii_lowercase())
        .filter(|a| answerable(a));
    if server.store().inbox_seen(&key)? {
        return Ok(Handled {
            outcome: "duplicate".into(),
            game: None,
            sender,
            detail: "processed before".into(),
        });
    }
    if let Some(auto) = &inb.auto {
        let detail = format!("not answered: {auto:?}");
        let row = InboxRow {
            key,
            sender: sender.clone(),
            game: None,
            outcome: "ignored".into(),
            detail: detail.clone(),
        };
        server.store_mut().record_intake(&row, &[], &[])?;
        return Ok(Handled {
            outcome: "ignored".into(),
            game: None,
            sender,
            detail,
        });
    }
    let subs = inbound::submissions(&inb);
    let routed = route::route(&inb, &club_local, &subs);
    let mut lines = Vec::new();
    // Command files (a `command:` key) go to the game master's module.
    let (commands, subs): (Vec<_>, Vec<_>) = subs
        .into_iter()
        .partition(|s| crate::server::command::looks_like_command(&s.orders));
    let mut accepted: Vec<OrdersRow> = Vec::new();
    // Whether an accepted file changed what the server holds: only then is
    // the acknowledgement beyond the reply limit (daemon::limit).
    let mut changed = false;
    if let Some(r) = &routed {
        lines.push(format!(
            "This message went to game {} {}.",
            r.game(),
            r.describe()
        ));
        if server.store().game(r.game())?.is_none() {
            lines.push(no_such_game(r.game()));
        }
    }
    // `check` in the subject (or a `check: true` line): each file answered
    // as `orders check` would, nothing stored; the answer counts against
    // the sender's allowance.
    let checking = route::wants_check(&inb);
    for sub in subs.iter().filter(|_| checking) {
        lines.push(
            match server.check_orders(&sub.file_name, &sub.orders, Some(&sub.signature)) {
                Ok(r) => format!(
                    "{}: would be accepted for game {} step {} ({}), sha256 {} (checked only: nothing was stored; send it again without `check` in the subject or text to submit it)",
                    sub.file_name, r.game, r.step, r.side, r.sha256
                ),
                Err(e) => format!(
                    "{}: would be refused: {e} (checked only: nothing was stored)",
                    sub.file_name
                ),
            },
        );
    }
    for sub in subs.iter().filter(|_| !checking) {
        let result = server.prepare_after(&sub.file_name, &sub.orders, &sub.signature, &accepted);
        match (result, &routed) {
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
                match replaced(server, &accepted, &row)? {
                    Some(prev) if prev == row.sha256 => line.push_str(
                        "\n  It is the very file accepted before for this step: nothing changed.",
                    ),
                    Some(prev) => {
                        changed = true;
                        line.push_str(&format!(
                            "\n  It replaces the orders accepted before for this step (sha256 {prev})."
                        ));
                    }
                    None => changed = true,
                }
                lines.push(line);
                accepted.push(row);
            }
            (Err(e @ Refusal::AlreadyAccepted { .. }), _) => {
                lines.push(format!("{}: {e}", sub.file_name));
            }
            (Err(e), _) => {
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
                lines.push(text);
            }
        }
    }
    // The deadline in the player's own zone, under what was accepted.
    if let Some(row) = accepted.last() {
        let dl = server.open_deadline_lines(&row.game, Some(&row.side))?;
        if !dl.is_empty() {
            lines.push(dl.join("\n"));
        }
    }
    let applied = super::commands::apply_all(
        server,
        cfg,
        &commands,
        routed.as_ref(),
        sender.as_deref(),
        now,
        &mut lines,
    )?;
    let subs_or_commands = !subs.is_empty() || !commands.is_empty();
    let request = route::request(&inb);
    let mut extra_mails = Vec::new();
    // A message passed on to the game master goes whether or not the
    // sender's answer is held back: both allowances were asked first.
    let mut passed_on = Vec::new();
    if let (false, Some(req), Some(r)) = (subs_or_commands, &request, &routed) {
        match req {
            route::Request::Status => lines.push(status_text(server, r.game(), sender.as_deref())?),
            route::Request::Report => {
                lines.push(report_again(
                    server,
                    cfg,
                    r.game(),
                    sender.as_deref(),
                    &key,
                    now,
                    &mut extra_mails,
                )?);
            }
            route::Request::Archive => lines.push(super::archive_request::answer(
                server,
                cfg,
                r.game(),
                sender.as_deref(),
                (&key, &inb.message_id),
                (now, date),
                &mut extra_mails,
            )?),
            route::Request::Check => lines.push(
                "Nothing to check: attach your orders file and its .sig, with `check` in the subject.".into(),
            ),
        }
    } else if !subs_or_commands {
        let (unsigned_commands, unsigned) =
            super::commands::unsigned(&inb, inbound::unsigned_orders(&inb));
        let any_command = unsigned_commands.is_some();
        lines.extend(unsigned_commands);
        let passed = match (
            unsigned.is_empty() && !any_command && request.is_none(),
            &sender,
        ) {
            (true, Some(from)) => super::pass_on::to_game_master(
                server.store(),
                cfg,
                &inb,
                from,
                &key,
                (now, date),
                &mut passed_on,
            )?,
            _ => None,
        };
        if let Some(said) = passed {
            lines.push(format!("Your message has no orders. {said}"));
            if routed.is_none()
                && let Some(from) = sender.as_deref()
            {
                lines.push(your_games(server, from, &club_local, &domain)?);
            }
        } else if unsigned.is_empty() && !any_command {
            lines.push("No orders found: attach your orders file and its .sig (made with `galloper sign` or `ssh-keygen -Y sign -n galloper-orders`).".into());
            // Mail to the bare club address: the sender's games, and how
            // to write to each.
            if routed.is_none()
                && let Some(from) = sender.as_deref()
            {
                lines.push(your_games(server, from, &club_local, &domain)?);
            }
        } else if !unsigned.is_empty() {
            lines.push(format!(
                "{}: refused: unsigned. Sign it with `galloper sign FILE --key KEY` or `ssh-keygen -Y sign -n galloper-orders -f KEY FILE` and attach FILE.sig beside it.",
                unsigned.join(", ")
            ));
        }
    }
    let outcome = if !accepted.is_empty() {
        "accepted"
    } else if applied > 0 {
        "command"
    } else if checking && !subs.is_empty() {
        "checked"
    } else if request.is_some() && !subs_or_commands && routed.is_some() {
        "request"
    } else if !passed_on.is_empty() {
        "passed-on"
    } else {
        "refused"
    };
    let game = accepted
        .first()
        .map(|r| r.game.clone())
        .or_else(|| routed.as_ref().map(|r| r.game().to_string()));
    let class = if changed || applied > 0 {
        Mail::Acknowledgement
    } else {
        Mail::Answer
    };
    let mut detail = lines.join("\n");
    let mut mails = Vec::new();
    let answered = match &sender {
        Some(to) => limit::allows(server.store(), cfg.replies_per_hour, to, &[class], now)?,
        None => false,
    };
    if let (Some(to), false) = (&sender, answered) {
        detail.push_str(&format!(
            "\n({})",
            limit::held_back(to, cfg.replies_per_hour)
        ));
    }
    if let (Some(to), true) = (&sender, answered) {
        let from = cfg.club_party();
        let to_party = Party {
            name: None,
            email: to.clone(),
        };
        let subject = compose::reply_subject(&inb.subject);
        let message_id = compose::message_id(
            &domain,
            game.as_deref().unwrap_or("club"),
            0,
            to,
            // From the message's key: one reply per message, and a new
            // message with the same body (a replay) gets its own reply.
            &format!("reply-{}", &sha256_hex(key.as_bytes())[..12]),
        );
        let thread = game.as_deref().map(|g| compose::Thread {
            root: compose::thread_root(&domain, g),
            parent: None,
        });
        let text = format!("{detail}\n\n-- \nGalloper, for {}\n", cfg.club_address);
        let bytes = compose::reply(&ReplyMail {
            from: &from,
            to: &to_party,
            subject,
            message_id: message_id.clone(),
            in_reply_to: Some(inb.message_id.clone()),
            thread,
            text,
            date: Some(date.to_string()),
        })?;
        mails.push(OutboxRow {
            game: game.clone(),
            step: accepted.first().map(|r| r.step),
            ..OutboxRow::queued(message_id, "reply", &cfg.club_address, to, bytes, now)
        });
    }
    if answered {
        mails.extend(extra_mails);
    }
    mails.extend(passed_on);
    // The registered address hears of orders accepted from another one,
    // whatever the reply limit: accepted orders are never kept quiet.
    mails.extend(super::copies::to_registered(
        server,
        cfg,
        &accepted,
        sender.as_deref(),
        &detail,
        (&inb.message_id, &key),
        (now, date),
    )?);
    let row = InboxRow {
        key,
        sender: sender.clone(),
        game: game.clone(),
        outcome: outcome.into(),
        detail: detail.clone(),
    };
    match server.store_mut().record_intake(&row, &accepted, &mails)? {
        Some(_) => Ok(Handled {
            outcome: outcome.into(),
            game,
            sender,
            detail,
        }),
        None => Ok(Handled {
            outcome: "duplicate".into(),
            game,
            sender,
            detail: "processed before".into(),
        }),
    }
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
fn refuse_unreadable(
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

/// Who owes orders in a game, and the deadline in the asking player's own
/// zone, for a player's `status` request.
/// The games `from` plays on this server, each with its open step and the
/// address that reaches it: the answer to mail sent to the bare club
/// address.
fn your_games(server: &Server, from: &str, local: &str, domain: &str) -> anyhow::Result<String> {
    let mailbox = crate::mail::address::mailbox(from);
    let mut out = Vec::new();
    for g in server.store().games()? {
        let Some(p) = server
            .players(&g.id)?
            .into_iter()
            .find(|p| crate::mail::address::mailbox(&p.email) == mailbox)
        else {
            continue;
        };
        let open = match (g.status, server.due(&g.id)?) {
            (GameStatus::Over, _) | (_, None) => "over".to_string(),
            (_, Some((step, due))) => {
                let owes = due
                    .owed
                    .iter()
                    .find(|o| o.side == p.side)
                    .map_or("nothing asked of you".to_string(), |o| {
                        format!("you owe {}", o.note)
                    });
                format!("step {} open ({}): {owes}", step.step, due.heading)
            }
        };
        out.push(format!(
            "  {} ({}), you play {}: {open}. Write to {local}+{}@{domain}, or put [{}] in the subject.",
            g.id, g.ruleset, p.side, g.id, g.id
        ));
    }
    Ok(if out.is_empty() {
        format!(
            "{from} plays no game on this server: the game master adds players when he creates a game."
        )
    } else {
        format!("Your games on this server:\n{}", out.join("\n"))
    })
}

fn status_text(server: &Server, game: &str, sender: Option<&str>) -> anyhow::Result<String> {
    match server.due(game) {
        Ok(Some((step, due))) => {
            let got = server.store().latest_orders(game, step.step)?;
            let mut t = format!("Game {game}, step {}: {}", step.step, due.heading);
            if server.store().game(game)?.map(|g| g.status) == Some(GameStatus::Paused) {
                t.push_str("\n  The game master has paused the game: nothing resolves until he resumes it.");
            }
            for o in &due.owed {
                let state = if got.contains_key(&o.side) {
                    "received"
                } else {
                    "still owed"
                };
                t.push_str(&format!("\n  {}: {} ({state})", o.side, o.note));
            }
            let reader = sender.and_then(|from| {
                server.players(game).ok().and_then(|ps| {
                    ps.into_iter()
                        .find(|p| p.email.eq_ignore_ascii_case(from))
                        .map(|p| p.side)
                })
            });
            if let Some(d) = server.deadline_text(game, reader.as_ref())? {
                t.push_str(&format!("\n{d}"));
            }
            Ok(t)
        }
        Ok(None) => Ok(format!("Game {game} is over.")),
        Err(_) => Ok(no_such_game(game)),
    }
}

/// Answer a `report` request: a copy of the latest report of `game`
/// mailed to `to`, queued in `mails` under a Message-ID of its own (made
/// from this message's key, so that every request has its own), or why
/// none is sent. A copy counts against the reply limit beside the answer
/// that announces it, and one report is copied to one address at most once
/// an hour: forged requests cannot fill a player's mailbox.
fn report_again(
    server: &Server,
    cfg: &Config,
    game: &str,
    to: Option<&str>,
    key: &str,
    now: i64,
    mails: &mut Vec<OutboxRow>,
) -> anyhow::Result<String> {
    let none = || format!("There is no report of game {game} for this address yet.");
    if server.store().game(game)?.is_none() {
        return Ok(no_such_game(game));
    }
    let Some(to) = to else { return Ok(none()) };
    // Reports go to the address as registered; a player writes from it in
    // whatever case his mail program chose (`Alice+up1@` or `alice+up1@`).
    let registered = server
        .players(game)
        .ok()
        .and_then(|ps| ps.into_iter().find(|p| p.email.eq_ignore_ascii_case(to)))
        .map(|p| p.email);
    let to = registered.as_deref().unwrap_or(to);
    let Some(last) = server.store().latest_report_to(game, to)? else {
        return Ok(none());
    };
    let step = last.step.unwrap_or(0);
    let since = now - limit::WINDOW_SECONDS;
    if let Some(at) = server
        .store()
        .last_queued_to(to, "report-again", game, since)?
    {
        return Ok(format!(
            "A copy of your latest report (step {step}) was already sent at {}; it is not sent again within the hour. Ask again after {}.",
            crate::mail::date::rfc2822(at),
            crate::mail::date::rfc2822(at + limit::WINDOW_SECONDS)
        ));
    }
    if !limit::allows(
        server.store(),
        cfg.replies_per_hour,
        to,
        &[Mail::Answer, Mail::Copy],
        now,
    )? {
        return Ok(format!(
            "Your latest report (step {step}) is not sent again now: this address had as many mails from us in the last hour as the club allows ({}). Ask again later.",
            cfg.replies_per_hour
        ));
    }
    let old = format!("<{}>", last.message_id);
    let text = String::from_utf8_lossy(&last.bytes);
    if !text.contains(&old) {
        return Ok(format!(
            "Your latest report (step {step}) cannot be sent again: ask the game master."
        ));
    }
    let new_id = format!(
        "again-{}-{}",
        &sha256_hex(key.as_bytes())[..12],
        last.message_id
    );
    let bytes = text.replacen(&old, &format!("<{new_id}>"), 1).into_bytes();
    mails.push(OutboxRow {
        id: 0,
        message_id: new_id,
        kind: "report-again".into(),
        bytes,
        status: "queued".into(),
        attempts: 0,
        next_attempt: now,
        queued_at: now,
        ..last
    });
    Ok(format!(
        "Your latest report (step {step}) is sent again in a separate mail."
    ))
}

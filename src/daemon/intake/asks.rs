//! What a message asks besides orders: a request (`status`, `report`,
//! `archive`, `check` with nothing to check), or, with no orders at all,
//! unsigned files, a command without signature, or words for the game
//! master.

use super::{Message, no_such_game};
use crate::archive::sha256_hex;
use crate::daemon::config::Config;
use crate::daemon::limit::{self, Mail};
use crate::mail::{inbound, route};
use crate::server::Server;
use crate::server::store::{GameStatus, OutboxRow};

/// Mail queued beside the answer.
#[derive(Default)]
pub(super) struct Beside {
    /// Sent only when the answer itself is (copies of reports, archives).
    pub with_answer: Vec<OutboxRow>,
    /// Passed on to the game master, whatever becomes of the answer.
    pub passed_on: Vec<OutboxRow>,
}

/// A request in a message with no orders and no command, for a game.
pub(super) fn request(
    server: &mut Server,
    m: &Message,
    req: &route::Request,
    game: &str,
    beside: &mut Beside,
) -> anyhow::Result<String> {
    let sender = m.sender.as_deref();
    Ok(match req {
        route::Request::Status => status_text(server, game, sender)?,
        route::Request::Report => report_again(
            server,
            m.cfg,
            game,
            sender,
            &m.key,
            m.now,
            &mut beside.with_answer,
        )?,
        route::Request::Archive => crate::daemon::archive_request::answer(
            server,
            m.cfg,
            game,
            sender,
            (&m.key, &m.inb.message_id),
            (m.now, m.date),
            &mut beside.with_answer,
        )?,
        route::Request::Check => {
            "Nothing to check: attach your orders file and its .sig, with `check` in the subject."
                .into()
        }
    })
}

/// A message with neither orders, command nor request: unsigned files or
/// commands are refused, words go on to the game master, and mail to the
/// bare club address learns the sender's games.
pub(super) fn without_orders(
    server: &mut Server,
    m: &Message,
    asked: bool,
    beside: &mut Beside,
    lines: &mut Vec<String>,
) -> anyhow::Result<()> {
    let (unsigned_commands, unsigned) =
        crate::daemon::commands::unsigned(&m.inb, inbound::unsigned_orders(&m.inb));
    let any_command = unsigned_commands.is_some();
    lines.extend(unsigned_commands);
    let passed = match (unsigned.is_empty() && !any_command && !asked, &m.sender) {
        (true, Some(from)) => crate::daemon::pass_on::to_game_master(
            server.store(),
            m.cfg,
            &m.inb,
            from,
            &m.key,
            (m.now, m.date),
            &mut beside.passed_on,
        )?,
        _ => None,
    };
    let games = |server: &Server, lines: &mut Vec<String>| -> anyhow::Result<()> {
        // Mail to the bare club address: the sender's games, and how to
        // write to each.
        if m.routed.is_none()
            && let Some(from) = m.sender.as_deref()
        {
            lines.push(your_games(server, from, &m.club_local, &m.domain)?);
        }
        Ok(())
    };
    if let Some(said) = passed {
        lines.push(format!("Your message has no orders. {said}"));
        games(server, lines)?;
    } else if unsigned.is_empty() && !any_command {
        lines.push("No orders found: attach your orders file and its .sig (made with `galloper sign` or `ssh-keygen -Y sign -n galloper-orders`).".into());
        games(server, lines)?;
    } else if !unsigned.is_empty() {
        lines.push(format!(
            "{}: refused: unsigned. Sign it with `galloper sign FILE --key KEY` or `ssh-keygen -Y sign -n galloper-orders -f KEY FILE` and attach FILE.sig beside it.",
            unsigned.join(", ")
        ));
    }
    Ok(())
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

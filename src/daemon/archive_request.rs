//! The `archive` request: a player asks by mail for the archive files of
//! his game's latest resolved step, which report mails no longer carry
//! (they carry the report, its map and the orders template). The files go
//! to the player's registered address only, in a mail of their own, under
//! the same limits as a copy of a report (`intake::report_again`): the
//! mail counts against the reply allowance beside the answer that
//! announces it, and one address gets a game's files once an hour at most,
//! so that forged requests cannot fill a mailbox.

use super::config::Config;
use super::limit::{self, Mail};
use crate::archive::{self, sha256_hex};
use crate::mail::compose::{self, Party, ReplyMail, Thread};
use crate::server::Server;
use crate::server::store::OutboxRow;
use anyhow::Context;

/// The outbox kind of the mail that carries the files.
pub const KIND: &str = "archive-again";

/// Answer an `archive` request for `game` from `to` (the sender, if any):
/// the mail with the files queued in `mails`, and the line for the reply
/// that says what became of the request. `asked` is the request's intake
/// key and Message-ID (the new mail's id is made from the key, so that
/// every request has its own); `when` is the time of the batch, in unix
/// seconds and as an RFC 2822 date.
pub fn answer(
    server: &Server,
    cfg: &Config,
    game: &str,
    to: Option<&str>,
    (key, asked_id): (&str, &str),
    (now, date): (i64, &str),
    mails: &mut Vec<OutboxRow>,
) -> anyhow::Result<String> {
    let none = || format!("There are no archive files of game {game} for this address yet.");
    let Some(to) = to else { return Ok(none()) };
    if server.store().game(game)?.is_none() {
        return Ok(none());
    }
    // Only a registered player of the game, at the address as registered
    // (he writes from it in whatever case his mail program chose).
    let Some(player) = server
        .players(game)?
        .into_iter()
        .find(|p| p.email.eq_ignore_ascii_case(to))
    else {
        return Ok(none());
    };
    let Some(step) = latest_resolved(server, game)? else {
        return Ok(none());
    };
    let since = now - limit::WINDOW_SECONDS;
    if let Some(at) = server
        .store()
        .last_queued_to(&player.email, KIND, game, since)?
    {
        return Ok(format!(
            "The archive files of game {game} were already sent to you at {}; they are not sent again within the hour. Ask again after {}.",
            crate::mail::date::rfc2822(at),
            crate::mail::date::rfc2822(at + limit::WINDOW_SECONDS)
        ));
    }
    if !limit::allows(
        server.store(),
        cfg.replies_per_hour,
        &player.email,
        &[Mail::Answer, Mail::Copy],
        now,
    )? {
        return Ok(format!(
            "The archive files of step {step} are not sent now: this address had as many mails from us in the last hour as the club allows ({}). Ask again later.",
            cfg.replies_per_hour
        ));
    }
    let files = match step_files(&archive::step_dir(&server.archive_dir(game), step)) {
        Ok(files) => files,
        Err(e) => {
            tracing::warn!(game, step, error = %format!("{e:#}"), "the archive files asked for cannot be read");
            return Ok(format!(
                "The archive files of step {step} cannot be sent: ask the game master."
            ));
        }
    };
    let (_, domain) = cfg.club_parts();
    let message_id = compose::message_id(
        &domain,
        game,
        step,
        player.side.as_str(),
        &format!("archive-{}", &sha256_hex(key.as_bytes())[..12]),
    );
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    let text = format!(
        "The archive files of step {step} of game {game}, as you asked, each as the server wrote it ({} files):\n  {}\n\nSave them in a folder step-{step:04}/ beside the game's game.yaml and its other steps, and `galloper audit` checks them with the rest; the server's signatures are among them (manifest.yaml.sig, notice.yaml.sig).{}\n\n-- \nGalloper, for {}\n",
        names.len(),
        names.join("\n  "),
        cfg.site_url
            .as_deref()
            .map_or(String::new(), |site| format!(
                " The whole archive is on the club site, on the game's page: {}",
                crate::server::report::site_page(site, game)
            )),
        cfg.club_address
    );
    let bytes = compose::reply_with_files(
        &ReplyMail {
            from: &cfg.club_party(),
            to: &Party {
                name: None,
                email: player.email.clone(),
            },
            subject: format!("[{game}] Archive files of step {step}"),
            message_id: message_id.clone(),
            in_reply_to: compose::is_message_id(asked_id).then(|| asked_id.to_string()),
            thread: Some(Thread {
                root: compose::thread_root(&domain, game),
                parent: None,
            }),
            text,
            date: Some(date.to_string()),
        },
        &files,
    )?;
    mails.push(OutboxRow {
        game: Some(game.into()),
        step: Some(step),
        reader: Some(player.side.to_string()),
        ..OutboxRow::queued(
            message_id,
            KIND,
            &cfg.club_address,
            &player.email,
            bytes,
            now,
        )
    });
    Ok(format!(
        "The archive files of step {step} are sent in a separate mail."
    ))
}

/// The latest resolved step of `game`: the one before the open step, or
/// the last one when the game is over.
fn latest_resolved(server: &Server, game: &str) -> anyhow::Result<Option<u32>> {
    Ok(match server.store().open_step(game)? {
        Some(open) => open.step.checked_sub(1).filter(|s| *s > 0),
        None => server
            .store()
            .steps(game)?
            .iter()
            .rev()
            .find(|s| s.result.is_some())
            .map(|s| s.step),
    })
}

/// The files of a finished step folder, by name: its own files, not its
/// folders (a rollback's undone run) nor temporaries. A folder without its
/// signed manifest is not finished and is refused.
fn step_files(dir: &std::path::Path) -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    let mut files = Vec::new();
    for e in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let e = e.with_context(|| format!("cannot read {}", dir.display()))?;
        let name = e.file_name().to_string_lossy().into_owned();
        if !e.file_type()?.is_file() || name.starts_with('.') {
            continue;
        }
        let bytes = std::fs::read(e.path())
            .with_context(|| format!("cannot read {}", e.path().display()))?;
        files.push((name, bytes));
    }
    files.sort();
    if !files.iter().any(|(n, _)| n == "manifest.yaml.sig") {
        anyhow::bail!("{} has no signed manifest", dir.display());
    }
    Ok(files)
}

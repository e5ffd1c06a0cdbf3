//! `galloper serve` and `galloper process --config`: one batch, or a loop of
//! batches until SIGTERM (the message in hand is finished first).

use super::config::Config;
use super::{intake, sender};
use crate::mail::imap::Inbox;
use crate::mail::maildir::{Entry, Maildir};
use crate::mail::smtp::{Security, SendError, Smtp, SmtpConfig};
use crate::server::{MailSettings, Server};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The clock, read here at the edge only.
fn now() -> (i64, String) {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    (secs, crate::mail::date::rfc2822(secs))
}

/// Open the server with mail settings from the configuration.
pub fn open(cfg: &Config) -> anyhow::Result<Server> {
    let mut server = Server::open(&cfg.data)?;
    // The data folder is swept as the server opens; a reports folder
    // elsewhere is swept here.
    let reports = cfg.reports_dir();
    if !reports.starts_with(&cfg.data) {
        match crate::archive::folder::sweep(&reports) {
            Ok(0) => {}
            Ok(n) => {
                tracing::info!(folder = %reports.display(), removed = n, "temporary files left by a crash removed")
            }
            Err(e) => {
                tracing::warn!(folder = %reports.display(), error = %e, "could not look for temporary files left by a crash")
            }
        }
    }
    let (_, domain) = cfg.club_parts();
    server.set_mail(Some(MailSettings {
        from: cfg.club_party(),
        domain,
        game_master: cfg.game_master.clone(),
    }));
    server.set_site_url(cfg.site_url.clone());
    server.set_orders_page_in_mail(cfg.orders_page);
    Ok(server)
}

fn smtp(cfg: &Config) -> anyhow::Result<Option<Smtp>> {
    let Some(s) = &cfg.smtp else { return Ok(None) };
    let security = match s.security.as_str() {
        "plain" => Security::Plain,
        "starttls" => Security::StartTls,
        "tls" => Security::Tls,
        other => anyhow::bail!("smtp.security is starttls, tls or plain, not {other:?}"),
    };
    let password = match &s.password_file {
        Some(p) => Some(
            std::fs::read_to_string(p)
                .map_err(|e| {
                    anyhow::anyhow!("cannot read smtp.password_file {}: {e}", p.display())
                })?
                .trim()
                .to_string(),
        ),
        None => None,
    };
    let c = SmtpConfig {
        host: s.host.clone(),
        port: s.port,
        security,
        user: s.user.clone(),
        password,
        timeout_secs: s.timeout_seconds,
    };
    Ok(Some(
        Smtp::new(&c).map_err(|e| anyhow::anyhow!("smtp: {e:?}"))?,
    ))
}

/// What one batch did.
#[derive(Debug, Default)]
pub struct Batch {
    pub messages: usize,
    pub steps: usize,
    pub sent: sender::Sent,
    /// Games whose step failed in this batch (each logged with what to do).
    pub stuck: Vec<String>,
    /// Messages that failed on their own and stay pending.
    pub failed_messages: usize,
}

/// What the log says about a message that failed on its own.
const MESSAGE_TODO: &str =
    "it stays pending and is tried again at the next batch; the other messages go on";

/// One batch: read every pending message, resolve what is ready, send what is due.
pub fn batch(server: &mut Server, cfg: &Config, stop: &AtomicBool) -> anyhow::Result<Batch> {
    let mut inbox = cfg.imap_settings()?.map(Inbox::once);
    batch_with(server, cfg, stop, inbox.as_mut())
}

fn batch_with(
    server: &mut Server,
    cfg: &Config,
    stop: &AtomicBool,
    inbox: Option<&mut Inbox>,
) -> anyhow::Result<Batch> {
    let mut b = Batch::default();
    if let Some(dir) = &cfg.maildir {
        let (handled, failed) = maildir_groups(server, cfg, &Maildir::open(dir)?, stop)?;
        b.messages += handled;
        b.failed_messages += failed;
    }
    if let Some(inbox) = inbox {
        b.messages += inbox.drain(stop, |uid, raw| {
            let (secs, date) = now();
            match intake::handle(server, cfg, raw, secs, &date) {
                Ok(h) => {
                    tracing::info!(outcome = %h.outcome, game = h.game.as_deref().unwrap_or("-"), from = h.sender.as_deref().unwrap_or("-"), uid, "imap message");
                    Ok(true)
                }
                // One message's failure stays its own: the others are read.
                Err(e) => {
                    tracing::error!(uid, error = %format!("{e:#}"), todo = MESSAGE_TODO, "imap message not handled");
                    Ok(false)
                }
            }
        })?;
    }
    if let Some(relay) = &cfg.beacon_relay {
        // A relay that is down delays beacon steps; it stops nothing else.
        if let Err(e) = super::beacon::fetch_due(server, relay, now().0, Duration::from_secs(10)) {
            tracing::warn!(error = %format!("{e:#}"), "beacon rounds not fetched");
        }
    }
    // Deadlines before resolution: a step whose time is up resolves in this batch.
    for e in server.tick(now().0, &cfg.reports_dir())? {
        tracing::info!(event = %e, "game life");
        if matches!(e, crate::server::life::Life::Resolved(_)) {
            b.steps += 1;
        }
    }
    // New games' briefings, once the deadline watch has given their first
    // step its deadline, and before any report of theirs.
    {
        let (secs, date) = now();
        match server.queue_briefings(secs, &date) {
            Ok(0) => {}
            Ok(n) => tracing::info!(games = n, "briefing mails queued"),
            // Tried again at the next batch; the games go on meanwhile.
            Err(e) => {
                tracing::error!(error = %format!("{e:#}"), todo = "fix what the error names; the briefings are tried again at the next batch", "briefing mails not queued")
            }
        }
    }
    // A game that fails is logged there with what to do; the others go on.
    let processed = server.process_games(&cfg.reports_dir())?;
    for r in &processed.resolved {
        tracing::info!(game = %r.game, step = r.step, heading = %r.heading, over = r.over, "step resolved");
        b.steps += 1;
    }
    for s in &processed.stuck {
        // The game master can often fix it (replace_address, pause): he
        // hears of it once a day while it lasts, not at every batch.
        let alerted = sender::daily_alert(
            server,
            cfg,
            (&s.game, "stuck"),
            &format!("Galloper: game {} cannot go on", s.game),
            &format!(
                "The open step of game {} could not be processed:\n\n  {}\n\nWhat to do: {}.\n\nThe other games go on. This alert comes at most once a day while the failure lasts.\n",
                s.game, s.error, s.advice
            ),
            now().0,
        );
        if let Err(e) = alerted {
            tracing::error!(game = %s.game, error = %format!("{e:#}"), "the game master could not be told");
        }
    }
    b.stuck = processed.stuck.into_iter().map(|s| s.game).collect();
    if let Some(smtp) = smtp(cfg)? {
        let (secs, _) = now();
        b.sent = sender::drain(server, &smtp, cfg, secs)?;
    }
    Ok(b)
}

/// A group of Maildir messages is made durable by one commit: a sync costs
/// a few milliseconds (tens on a busy disk), the handling of a message a
/// fraction of one. A group closes at this many messages or after
/// [`GROUP_TIME`], so that a daemon stopped often (or a slow one) still
/// makes progress (`tests/crash.rs` kills it within 110 ms of its start);
/// the time closes a group first unless a message takes under 0.2 ms.
const GROUP: usize = 256;
const GROUP_TIME: Duration = Duration::from_millis(50);

/// Handle every pending message of the Maildir, in groups. A message is
/// marked done only once its group is committed, so a crash at any point
/// leaves it pending (taken, in `cur/`), and the inbox key makes its second
/// handling a no-op if the commit did land.
pub fn maildir_intake(
    server: &mut Server,
    cfg: &Config,
    md: &Maildir,
    stop: &AtomicBool,
) -> anyhow::Result<usize> {
    Ok(maildir_groups(server, cfg, md, stop)?.0)
}

/// [`maildir_intake`], also counting the messages that failed on their own.
fn maildir_groups(
    server: &mut Server,
    cfg: &Config,
    md: &Maildir,
    stop: &AtomicBool,
) -> anyhow::Result<(usize, usize)> {
    let mut pending = md.pending()?.into_iter().peekable();
    let (mut handled, mut failed) = (0, 0);
    while pending.peek().is_some() && !stop.load(Ordering::SeqCst) {
        server.store_mut().begin_group()?;
        let opened = Instant::now();
        let mut taken = Vec::new();
        let mut broken = None;
        loop {
            if taken.len() >= GROUP || opened.elapsed() >= GROUP_TIME || stop.load(Ordering::SeqCst)
            {
                break;
            }
            let Some(entry) = pending.next() else {
                break;
            };
            let Some(t) = take(md, &entry) else { continue };
            let result = intake_one(server, cfg, md, &t);
            taken.push(t);
            if let Err(e) = result {
                broken = Some(e);
                break;
            }
        }
        let Some(e) = broken else {
            server.store_mut().commit_group()?;
            for t in &taken {
                md.done(t)?;
            }
            handled += taken.len();
            continue;
        };
        // One message failed: the group is undone, and each of its
        // messages is handled again in a group of its own, so that the
        // failing one stays pending and the others go through.
        server.store_mut().rollback_group()?;
        tracing::warn!(error = %format!("{e:#}"), "a message failed; its group is handled again one message at a time");
        for t in &taken {
            server.store_mut().begin_group()?;
            match intake_one(server, cfg, md, t) {
                Ok(()) => {
                    server.store_mut().commit_group()?;
                    md.done(t)?;
                    handled += 1;
                }
                Err(e) => {
                    server.store_mut().rollback_group()?;
                    tracing::error!(message = %t.path.display(), error = %format!("{e:#}"), todo = MESSAGE_TODO, "message not handled");
                    failed += 1;
                }
            }
        }
    }
    Ok((handled, failed))
}

/// Take a message of `new/` into `cur/` (a message already in `cur/` was
/// taken before a crash). A message that cannot be taken is left for the
/// next batch.
fn take(md: &Maildir, entry: &Entry) -> Option<Entry> {
    match md.take(entry) {
        Ok(t) => Some(t),
        Err(e) => {
            tracing::error!(message = %entry.path.display(), error = %e, todo = MESSAGE_TODO, "message not taken");
            None
        }
    }
}

/// Handle one taken message of the Maildir.
fn intake_one(
    server: &mut Server,
    cfg: &Config,
    md: &Maildir,
    taken: &Entry,
) -> anyhow::Result<()> {
    let (secs, date) = now();
    let size = md.size(taken)?;
    // A message over the limit is refused from its headers: memory
    // stays bounded whatever the MTA lets through.
    let h = if size > cfg.max_message_bytes as u64 {
        let (head, sha) = md.head_and_sha256(taken, intake::HEAD_BYTES)?;
        let size = usize::try_from(size).unwrap_or(usize::MAX);
        intake::handle_too_large(server, cfg, &head, size, &sha, secs, &date)?
    } else {
        intake::handle(server, cfg, &md.read(taken)?, secs, &date)?
    };
    tracing::info!(outcome = %h.outcome, game = h.game.as_deref().unwrap_or("-"), from = h.sender.as_deref().unwrap_or("-"), file = %taken.key, "message");
    // The high-water mark after each message tells which one made memory
    // grow; reading it costs a file read, so only when asked for.
    if tracing::enabled!(tracing::Level::DEBUG)
        && let Some(kib) = peak_rss_kib()
    {
        tracing::debug!(file = %taken.key, peak_rss_kib = kib, "memory");
    }
    Ok(())
}

/// This process's peak resident set since it started (Linux's `VmHWM`), in KiB.
fn peak_rss_kib() -> Option<u64> {
    std::fs::read_to_string("/proc/self/status")
        .ok()?
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// Try the SMTP login once at start: a refused login stops `serve` with what
/// to check; a server that does not answer now only delays the mail.
fn check_login(smtp: &Smtp) -> anyhow::Result<()> {
    match smtp.check() {
        Ok(()) => Ok(()),
        Err(SendError::Auth(e)) => Err(anyhow::anyhow!(smtp.login_advice(&e))),
        Err(e) => {
            tracing::warn!(error = %e, "SMTP server not reachable at start; mail stays queued");
            Ok(())
        }
    }
}

/// Batches until SIGTERM or SIGINT.
pub fn serve(cfg: &Config) -> anyhow::Result<()> {
    if cfg.maildir.is_none() && cfg.imap.is_none() {
        anyhow::bail!(
            "the configuration names no mailbox to read: add `maildir:` (the folder your mail server delivers the club's mail to) or an `imap:` section (see deploy/galloper.yaml); without one the daemon would never see an order"
        );
    }
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst))
        .map_err(|e| anyhow::anyhow!("cannot catch signals: {e}"))?;
    let mut server = open(cfg)?;
    if let Some(smtp) = smtp(cfg)? {
        check_login(&smtp)?;
    }
    let mut inbox = cfg.imap_settings()?.map(Inbox::persistent);
    tracing::info!(club = %cfg.club_address, "serving");
    while !stop.load(Ordering::SeqCst) {
        let b = batch_with(&mut server, cfg, &stop, inbox.as_mut())?;
        if b.messages + b.steps + b.sent.sent > 0 {
            tracing::info!(
                messages = b.messages,
                steps = b.steps,
                sent = b.sent.sent,
                retrying = b.sent.retrying,
                failed = b.sent.failed,
                "batch"
            );
        }
        if let Some(inbox) = inbox.as_mut() {
            inbox.wait(Duration::from_secs(cfg.poll_seconds), &stop)?;
            continue;
        }
        let mut waited = 0;
        while waited < cfg.poll_seconds * 10 && !stop.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(100));
            waited += 1;
        }
    }
    tracing::info!("stopped");
    Ok(())
}

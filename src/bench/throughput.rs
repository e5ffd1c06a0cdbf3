//! Intake throughput: signed orders mails through the daemon's intake into
//! a real store, Maildir to handled, as `galloper process` reads them. Only
//! the intake is timed; nothing resolves.

use super::play::{self, Played};
use super::scratch::Scratch;
use crate::daemon::serve;
use crate::mail::maildir::Maildir;
use crate::ruleset::DemoPlayer;
use anyhow::{Context, anyhow, bail};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// What the intake did with the mails.
pub struct Throughput {
    pub mails: usize,
    pub accepted: i64,
    pub secs: f64,
    /// The intake's CPU time (its thread's): what other work on a shared
    /// machine does not change, where the wall clock's `secs` also counts
    /// the disk's syncs and the wait for a core.
    pub cpu_secs: Option<f64>,
}

impl Throughput {
    pub fn per_second(&self) -> f64 {
        if self.secs > 0.0 {
            self.mails as f64 / self.secs
        } else {
            0.0
        }
    }
}

/// Deliver `count` orders mails for the open step of the demo game of
/// `author` (each side in turn, every file with fresh entropy) and time the
/// intake of all of them.
pub fn measure(author: &mut dyn DemoPlayer, count: usize) -> anyhow::Result<Throughput> {
    let scratch = Scratch::new("intake")?;
    let (p, _): (Played, _) = play::open_game(scratch, author.scenario(), author.game())?;
    let (step, due) = p
        .server
        .due(&p.game)?
        .context("the game has an open step")?;
    let mut bodies = Vec::new();
    for owed in &due.owed {
        let body = author
            .orders(&step.state_before, owed)
            .map_err(|e| anyhow!("the demo player failed: {e}"))?;
        bodies.push((owed.side.clone(), body));
    }
    if bodies.is_empty() {
        bail!("nobody owes orders at the start of the demo game");
    }
    let dir = p
        .cfg
        .maildir
        .clone()
        .context("the benchmark's club has a Maildir")?;
    let md = Maildir::open(&dir)?;
    for i in 0..count {
        let (side, body) = &bodies[i % bodies.len()];
        let signed = p.sign(step.step, side, body, i as u32 + 10)?;
        md.deliver(&p.mail(&signed, i as u32))?;
    }
    let mut server = p.server;
    let stop = AtomicBool::new(false);
    let cpu = super::stats::thread_cpu();
    let t = Instant::now();
    let mails = serve::maildir_intake(&mut server, &p.cfg, &md, &stop)?;
    let secs = t.elapsed().as_secs_f64();
    let cpu_secs = match (cpu, super::stats::thread_cpu()) {
        (Some(a), Some(b)) => Some(b.saturating_sub(a).as_secs_f64()),
        _ => None,
    };
    let accepted = server.store().inbox_count("accepted")?;
    drop(server);
    drop(p.scratch);
    Ok(Throughput {
        mails,
        accepted,
        secs,
        cpu_secs,
    })
}

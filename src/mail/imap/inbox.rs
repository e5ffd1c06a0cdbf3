//! The IMAP source as the daemon holds it: one batch's connection
//! ([`Inbox::once`]) or `serve`'s that survives a server going away
//! ([`Inbox::persistent`]), with the backoff between reconnections.

use super::{Imap, ImapConfig, ImapError, PENDING_MAX, Result, Wake, sleep_until};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The IMAP source as the daemon uses it: connects when needed, and in
/// `persistent` mode (`serve`) logs a failure as a warning, drops the
/// connection and tries again after a growing pause instead of failing.
#[derive(Debug)]
pub struct Inbox {
    cfg: ImapConfig,
    conn: Option<Imap>,
    persistent: bool,
    failures: u32,
    retry_at: Option<Instant>,
}

/// Pause before reconnecting after `failures` failures in a row: 5 s
/// doubling to 5 minutes.
pub fn reconnect_delay(failures: u32) -> Duration {
    let secs = 5u64.saturating_mul(1 << failures.saturating_sub(1).min(6));
    Duration::from_secs(secs.min(300))
}

impl Inbox {
    /// For one batch: errors are returned.
    pub fn once(cfg: ImapConfig) -> Inbox {
        Inbox::new(cfg, false)
    }

    /// For `serve`: network errors are logged and retried with backoff.
    pub fn persistent(cfg: ImapConfig) -> Inbox {
        Inbox::new(cfg, true)
    }

    fn new(cfg: ImapConfig, persistent: bool) -> Inbox {
        Inbox {
            cfg,
            conn: None,
            persistent,
            failures: 0,
            retry_at: None,
        }
    }

    /// Hands every pending message to `handle` (with its UID) and marks it
    /// done once `handle` returned `true`; stops early when `stop` is set.
    /// Returns how many were handled. `false` leaves the message pending
    /// (it failed on its own: the others go on, and it is tried again at
    /// the next batch); an error of `handle` is returned as is and leaves
    /// the message pending.
    pub fn drain<F>(&mut self, stop: &AtomicBool, mut handle: F) -> anyhow::Result<usize>
    where
        F: FnMut(u32, &[u8]) -> anyhow::Result<bool>,
    {
        let imap = match self.connection() {
            Ok(Some(i)) => i,
            Ok(None) => return Ok(0),
            Err(e) => return self.failed(e, 0),
        };
        let mut n = 0;
        // Rounds of at most PENDING_MAX, until a round comes back short.
        loop {
            let pending = match imap.pending() {
                Ok(p) => p,
                Err(e) => return self.failed(e, n),
            };
            let full = pending.len() == PENDING_MAX;
            let mut left = 0;
            for m in pending {
                if stop.load(Ordering::SeqCst) {
                    return Ok(n);
                }
                if !handle(m.uid, &m.raw)? {
                    left += 1;
                    continue;
                }
                // A failure here leaves it pending: handled again, it is a duplicate.
                if let Err(e) = imap.done(m.uid) {
                    return self.failed(e, n);
                }
                n += 1;
            }
            // A round of messages all left pending would come back whole.
            if !full || left == PENDING_MAX {
                return Ok(n);
            }
        }
    }

    /// Waits for the next batch: IDLE on the open connection when possible,
    /// else a plain sleep; at most `max`, less if `stop` is set.
    pub fn wait(&mut self, max: Duration, stop: &AtomicBool) -> anyhow::Result<Wake> {
        let until = Instant::now() + max;
        let imap = match self.connection() {
            Ok(Some(i)) => i,
            Ok(None) => return Ok(sleep_until(until, stop)),
            Err(e) => {
                self.failed(e, 0)?;
                return Ok(sleep_until(until, stop));
            }
        };
        match imap.wait(max, stop) {
            Ok(Wake::Stopped) => {
                self.conn = None;
                Ok(Wake::Stopped)
            }
            Ok(w) => Ok(w),
            Err(e) => {
                self.failed(e, 0)?;
                Ok(sleep_until(until, stop))
            }
        }
    }

    /// The open connection, or a new one; `None` while waiting to retry.
    fn connection(&mut self) -> Result<Option<&mut Imap>> {
        if self.conn.is_none() {
            if self.retry_at.is_some_and(|t| Instant::now() < t) {
                return Ok(None);
            }
            let imap = Imap::connect(&self.cfg)?;
            if self.failures > 0 {
                tracing::info!(at = %imap.at, "IMAP connected again");
            }
            self.failures = 0;
            self.retry_at = None;
            self.conn = Some(imap);
        }
        Ok(self.conn.as_mut())
    }

    fn failed(&mut self, e: ImapError, handled: usize) -> anyhow::Result<usize> {
        // The session's state is unknown now: no LOGOUT that could wait on a dead server.
        if let Some(mut c) = self.conn.take() {
            c.broken = true;
        }
        if !self.persistent {
            return Err(e.into());
        }
        self.failures = self.failures.saturating_add(1);
        let delay = reconnect_delay(self.failures);
        self.retry_at = Some(Instant::now() + delay);
        tracing::warn!(error = %e, retry_in_secs = delay.as_secs(), "IMAP unavailable; will reconnect");
        Ok(handled)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reconnect_delay_grows_and_is_capped() {
        assert_eq!(reconnect_delay(1), Duration::from_secs(5));
        assert_eq!(reconnect_delay(2), Duration::from_secs(10));
        assert_eq!(reconnect_delay(30), Duration::from_secs(300));
    }
}

//! Timing samples and the process's peak memory.

use std::time::{Duration, Instant};

/// Wall-clock samples of one measured operation.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    secs: Vec<f64>,
}

impl Samples {
    /// Add one sample.
    pub fn push(&mut self, d: Duration) {
        self.secs.push(d.as_secs_f64());
    }

    /// How many samples were taken.
    pub fn len(&self) -> usize {
        self.secs.len()
    }

    /// Whether no sample was taken.
    pub fn is_empty(&self) -> bool {
        self.secs.is_empty()
    }

    /// The `q` quantile (0 to 1) in seconds, nearest rank; 0 without samples.
    pub fn quantile(&self, q: f64) -> f64 {
        if self.secs.is_empty() {
            return 0.0;
        }
        let mut s = self.secs.clone();
        s.sort_by(f64::total_cmp);
        let rank = ((q * s.len() as f64).ceil() as usize).clamp(1, s.len());
        s[rank - 1]
    }

    /// The median in seconds.
    pub fn median(&self) -> f64 {
        self.quantile(0.5)
    }

    /// The 90th percentile in seconds.
    pub fn p90(&self) -> f64 {
        self.quantile(0.9)
    }
}

/// Run `f` `reps` times (at least once), timing each run.
pub fn repeat<T>(
    reps: usize,
    mut f: impl FnMut() -> anyhow::Result<T>,
) -> anyhow::Result<(Samples, T)> {
    let mut samples = Samples::default();
    let mut last = None;
    for _ in 0..reps.max(1) {
        let t = Instant::now();
        let out = std::hint::black_box(f()?);
        samples.push(t.elapsed());
        last = Some(out);
    }
    match last {
        Some(out) => Ok((samples, out)),
        None => anyhow::bail!("nothing was measured"),
    }
}

/// The process's peak resident memory (VmHWM) in KiB, where /proc tells it.
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// The CPU time this thread has used so far; none where the system does
/// not say. Unlike the wall clock, other work on the machine does not
/// count in it.
pub fn thread_cpu() -> Option<Duration> {
    #[cfg(unix)]
    {
        use nix::time::{ClockId, clock_gettime};
        let t = clock_gettime(ClockId::CLOCK_THREAD_CPUTIME_ID).ok()?;
        Some(Duration::new(
            u64::try_from(t.tv_sec()).ok()?,
            u32::try_from(t.tv_nsec()).ok()?,
        ))
    }
    #[cfg(not(unix))]
    None
}

/// Seconds as a short human figure (`412 us`, `3.1 ms`, `1.25 s`).
pub fn human(secs: f64) -> String {
    if secs < 1e-3 {
        format!("{:.0} us", secs * 1e6)
    } else if secs < 1.0 {
        format!("{:.2} ms", secs * 1e3)
    } else {
        format!("{secs:.2} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_by_nearest_rank() {
        let mut s = Samples::default();
        for ms in [5, 1, 4, 2, 3, 6, 7, 8, 9, 10] {
            s.push(Duration::from_millis(ms));
        }
        assert!((s.median() - 0.005).abs() < 1e-9);
        assert!((s.p90() - 0.009).abs() < 1e-9);
        assert_eq!(human(0.0004), "400 us");
        assert_eq!(human(0.0125), "12.50 ms");
    }
}

//! Calendar arithmetic on a schedule, with jiff: a step's deadline in the
//! game's zone across summer time, its grace, the warnings due, and an
//! instant as a reader in his own zone sees it.

use super::{Day, Schedule, ScheduleError};
use jiff::tz::TimeZone;
use jiff::{Timestamp, Zoned};

pub(super) fn ts(secs: i64) -> Result<Timestamp, ScheduleError> {
    Timestamp::from_second(secs).map_err(|e| ScheduleError::Calendar(e.to_string()))
}

pub(super) fn cal(e: jiff::Error) -> ScheduleError {
    ScheduleError::Calendar(e.to_string())
}

/// A zone by IANA name.
pub fn zone(name: &str) -> Result<TimeZone, ScheduleError> {
    TimeZone::get(name).map_err(|_| ScheduleError::Zone(name.to_string()))
}

/// An instant as a reader in `zone_name` sees it: `Tue 17 Mar 2026 20:00 CET`.
/// An unknown zone shows UTC.
pub fn format_instant(secs: i64, zone_name: &str) -> String {
    let tz = zone(zone_name).unwrap_or(TimeZone::UTC);
    match Timestamp::from_second(secs) {
        Ok(t) => t.to_zoned(tz).strftime("%a %d %b %Y %H:%M %Z").to_string(),
        Err(_) => format!("{secs} (unix time)"),
    }
}

/// An instant in a reader's zone, the zone named, and in UTC beside it:
/// `Wed 04 Mar 2026 21:00 CET (Europe/Paris), 20:00 UTC`. A reader in UTC
/// gets one time; another day in UTC is written whole.
pub fn format_zoned(secs: i64, zone_name: &str) -> String {
    let tz = zone(zone_name).unwrap_or(TimeZone::UTC);
    let Ok(t) = Timestamp::from_second(secs) else {
        return format!("{secs} (unix time)");
    };
    let local = t.to_zoned(tz.clone());
    let utc = t.to_zoned(TimeZone::UTC);
    let name = tz.iana_name().unwrap_or("UTC");
    if name == "UTC" || name == "Etc/UTC" {
        return utc.strftime("%a %d %b %Y %H:%M UTC").to_string();
    }
    let utc_text = if local.date() == utc.date() {
        utc.strftime("%H:%M UTC").to_string()
    } else {
        utc.strftime("%a %d %b %Y %H:%M UTC").to_string()
    };
    format!(
        "{} ({name}), {utc_text}",
        local.strftime("%a %d %b %Y %H:%M %Z")
    )
}

impl Schedule {
    /// The deadline of a step opened at `opened`: the first allowed weekday's
    /// deadline time, in the game's zone, at least `min_hours` after `opened`.
    ///
    /// When the clocks go forward and the time of day does not exist that
    /// day, the deadline is as long after the gap as the time was into it
    /// (02:30 in a 02:00-03:00 gap becomes 03:30); when they go back and the
    /// time happens twice, the first one counts.
    pub fn deadline_after(&self, opened: i64) -> Result<i64, ScheduleError> {
        let tz = zone(&self.zone)?;
        let time = self.time_of_day()?;
        let earliest = opened + i64::from(self.min_hours) * 3600;
        let mut day = ts(earliest)?.to_zoned(tz.clone()).date();
        // Any allowed weekday comes round within eight days.
        for _ in 0..9 {
            if self.days.contains(&Day::of(day.weekday())) {
                let at = tz
                    .to_ambiguous_zoned(day.to_datetime(time))
                    .compatible()
                    .map_err(cal)?
                    .timestamp()
                    .as_second();
                if at >= earliest {
                    return Ok(at);
                }
            }
            day = day.tomorrow().map_err(cal)?;
        }
        Err(ScheduleError::NoDays)
    }

    /// When missed orders are dealt with: the deadline plus the grace period.
    pub fn closes_at(&self, deadline: i64) -> i64 {
        deadline + i64::from(self.grace_minutes) * 60
    }

    /// The warnings (hours before the deadline) whose moment has come at
    /// `now`, leaving out those that fell before the step opened (its report
    /// told the players already) and all of them once the deadline is past.
    pub fn warnings_due(&self, opened: i64, deadline: i64, now: i64) -> Vec<u32> {
        if now >= deadline {
            return Vec::new();
        }
        let mut due: Vec<u32> = self
            .warnings
            .iter()
            .copied()
            .filter(|h| {
                let at = deadline - i64::from(*h) * 3600;
                at >= opened && at <= now
            })
            .collect();
        due.sort_unstable();
        due.dedup();
        due
    }
}

/// The zone's current abbreviation and offset, for a confirmation.
pub fn describe_zone(name: &str, now: i64) -> Result<String, ScheduleError> {
    let tz = zone(name)?;
    let z: Zoned = ts(now)?.to_zoned(tz);
    Ok(format!("{name} (now {})", z.strftime("%H:%M %Z, UTC%:z")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::schedule::tests::{at, sched};

    #[test]
    fn a_zoned_time_names_its_zone_and_gives_utc_beside_it() {
        let t = at("2026-03-04T20:00:00Z");
        assert_eq!(
            format_zoned(t, "Europe/Paris"),
            "Wed 04 Mar 2026 21:00 CET (Europe/Paris), 20:00 UTC"
        );
        // Another day in UTC is written whole.
        assert_eq!(
            format_zoned(at("2026-03-04T23:30:00Z"), "Asia/Tokyo"),
            "Thu 05 Mar 2026 08:30 JST (Asia/Tokyo), Wed 04 Mar 2026 23:30 UTC"
        );
        assert_eq!(format_zoned(t, "UTC"), "Wed 04 Mar 2026 20:00 UTC");
    }

    #[test]
    fn the_deadline_is_the_first_allowed_weekday_after_the_minimum() {
        // 2026-03-02 is a Monday.
        let s = sched("zone: UTC\ntime: \"20:00\"\ndays: [wed, sat]\nmin_hours: 48\n");
        // Opened Monday 10:00: earliest Wednesday 10:00, so Wednesday 20:00.
        assert_eq!(
            s.deadline_after(at("2026-03-02T10:00:00Z")).unwrap(),
            at("2026-03-04T20:00:00Z")
        );
        // Opened Monday 21:00: earliest Wednesday 21:00, past 20:00: Saturday.
        assert_eq!(
            s.deadline_after(at("2026-03-02T21:00:00Z")).unwrap(),
            at("2026-03-07T20:00:00Z")
        );
        // Exactly at the minimum counts.
        assert_eq!(
            s.deadline_after(at("2026-03-02T20:00:00Z")).unwrap(),
            at("2026-03-04T20:00:00Z")
        );
    }

    #[test]
    fn the_deadline_is_local_time_in_the_games_zone() {
        let s = sched("zone: America/New_York\ntime: \"21:00\"\nmin_hours: 0\n");
        // 2026-01-10 12:00 UTC is 07:00 in New York (EST, UTC-5).
        assert_eq!(
            s.deadline_after(at("2026-01-10T12:00:00Z")).unwrap(),
            at("2026-01-11T02:00:00Z")
        );
    }

    #[test]
    fn summer_time_keeps_the_local_hour_and_skips_a_missing_one() {
        // Europe/Paris goes to summer time on Sunday 2026-03-29 at 02:00.
        let s = sched("zone: Europe/Paris\ntime: \"20:00\"\ndays: [sat, sun]\nmin_hours: 1\n");
        // Saturday 20:00 CET is 19:00 UTC; Sunday 20:00 CEST is 18:00 UTC.
        assert_eq!(
            s.deadline_after(at("2026-03-28T10:00:00Z")).unwrap(),
            at("2026-03-28T19:00:00Z")
        );
        assert_eq!(
            s.deadline_after(at("2026-03-28T19:30:00Z")).unwrap(),
            at("2026-03-29T18:00:00Z")
        );
        // 02:30 does not exist that Sunday: the deadline is 03:30 CEST.
        let gap = sched("zone: Europe/Paris\ntime: \"02:30\"\nmin_hours: 1\n");
        assert_eq!(
            gap.deadline_after(at("2026-03-28T22:00:00Z")).unwrap(),
            at("2026-03-29T01:30:00Z")
        );
        // 02:30 happens twice on 2026-10-25: the first (CEST, UTC+2) counts.
        assert_eq!(
            gap.deadline_after(at("2026-10-24T22:00:00Z")).unwrap(),
            at("2026-10-25T00:30:00Z")
        );
    }

    #[test]
    fn grace_and_warnings() {
        let s = sched("zone: UTC\ntime: \"20:00\"\ngrace_minutes: 90\nwarnings: [24, 2]\n");
        let d = at("2026-03-10T20:00:00Z");
        assert_eq!(s.closes_at(d), at("2026-03-10T21:30:00Z"));
        let opened = at("2026-03-08T09:00:00Z");
        assert!(
            s.warnings_due(opened, d, at("2026-03-09T19:59:59Z"))
                .is_empty()
        );
        assert_eq!(
            s.warnings_due(opened, d, at("2026-03-09T20:00:00Z")),
            vec![24]
        );
        assert_eq!(
            s.warnings_due(opened, d, at("2026-03-10T19:00:00Z")),
            vec![2, 24]
        );
        assert!(s.warnings_due(opened, d, d).is_empty());
        // A step that opened less than 24 hours before its deadline gets only the later warning.
        let late = at("2026-03-10T06:00:00Z");
        assert_eq!(s.warnings_due(late, d, at("2026-03-10T19:00:00Z")), vec![2]);
    }

    #[test]
    fn each_reader_sees_his_own_zone() {
        let t = at("2026-07-14T18:00:00Z");
        assert_eq!(format_instant(t, "UTC"), "Tue 14 Jul 2026 18:00 UTC");
        assert_eq!(
            format_instant(t, "Europe/Paris"),
            "Tue 14 Jul 2026 20:00 CEST"
        );
        assert_eq!(
            format_instant(t, "Australia/Sydney"),
            "Wed 15 Jul 2026 04:00 AEST"
        );
    }
}

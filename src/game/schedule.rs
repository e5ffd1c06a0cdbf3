//! A game's schedule: when a step's deadline falls, when players are warned,
//! how absences move it and what happens to missed orders.
//!
//! Pure: every function takes the instants it needs (unix seconds, UTC) and
//! reads no clock. Local times are worked out with jiff and its bundled time
//! zone database, so a deadline at 20:00 in `Europe/Paris` stays at 20:00
//! local time across the change to and from summer time.
//!
//! ```yaml
//! zone: Europe/Paris        # the game's zone (IANA name)
//! time: "20:00"             # the deadline's local time of day
//! days: [mon, wed, fri]     # weekdays a deadline may fall on (all when absent)
//! min_hours: 48             # at least this long between a step opening and its deadline
//! grace_minutes: 30         # orders are still taken this long after the deadline
//! warnings: [24, 2]         # hours before the deadline to warn sides still owing
//! missed: standing          # default | standing | wait
//! tell_gm_after: 2          # tell the game master after this many missed steps in a row
//! absence: {max_days: 14, max_per_player: 2}
//! ```

use jiff::civil::{Date, Time, Weekday};
use jiff::tz::TimeZone;
use jiff::{Timestamp, Zoned};
use serde::{Deserialize, Serialize};

/// A game's schedule, as the game master writes it (`galloper new --schedule`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Schedule {
    /// The game's time zone, an IANA name such as `Europe/Paris` or `UTC`.
    pub zone: String,
    /// The deadline's local time of day in the game's zone, `HH:MM`.
    pub time: String,
    /// The weekdays a deadline may fall on; every day when absent.
    #[serde(default = "every_day")]
    pub days: Vec<Day>,
    /// The least time, in hours, between a step opening and its deadline.
    #[serde(default = "default_min_hours")]
    pub min_hours: u32,
    /// Minutes after the deadline during which orders are still taken.
    #[serde(default)]
    pub grace_minutes: u32,
    /// Hours before the deadline at which every side still owing orders is warned.
    #[serde(default = "default_warnings")]
    pub warnings: Vec<u32>,
    /// What happens to a side that sent nothing by the deadline (and grace).
    #[serde(default)]
    pub missed: MissedPolicy,
    /// Tell the game master when a side has missed this many steps in a row
    /// (0: never).
    #[serde(default = "default_tell_gm_after")]
    pub tell_gm_after: u32,
    /// How far a player's declared absence may move deadlines.
    #[serde(default)]
    pub absence: AbsenceLimits,
}

/// A weekday, as `mon` ... `sun` (or in full).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Day {
    #[serde(alias = "monday")]
    Mon,
    #[serde(alias = "tuesday")]
    Tue,
    #[serde(alias = "wednesday")]
    Wed,
    #[serde(alias = "thursday")]
    Thu,
    #[serde(alias = "friday")]
    Fri,
    #[serde(alias = "saturday")]
    Sat,
    #[serde(alias = "sunday")]
    Sun,
}

impl Day {
    fn of(w: Weekday) -> Day {
        match w {
            Weekday::Monday => Day::Mon,
            Weekday::Tuesday => Day::Tue,
            Weekday::Wednesday => Day::Wed,
            Weekday::Thursday => Day::Thu,
            Weekday::Friday => Day::Fri,
            Weekday::Saturday => Day::Sat,
            Weekday::Sunday => Day::Sun,
        }
    }
}

/// What the server does for a side that missed the deadline.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MissedPolicy {
    /// The ruleset's default orders (Maurice Lite: the active side passes);
    /// when the ruleset has none for the step, wait for the game master.
    #[default]
    Default,
    /// The side's latest orders from an earlier step, if they still pass the
    /// rules; else the default; else wait.
    Standing,
    /// Apply nothing: the step waits and the game master is told.
    Wait,
}

impl MissedPolicy {
    pub fn as_str(self) -> &'static str {
        match self {
            MissedPolicy::Default => "default",
            MissedPolicy::Standing => "standing",
            MissedPolicy::Wait => "wait",
        }
    }
}

/// Limits on players' absences.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AbsenceLimits {
    /// The longest absence, in days (both ends counted).
    #[serde(default = "default_max_days")]
    pub max_days: u32,
    /// How many absences each player may declare in one game.
    #[serde(default = "default_max_per_player")]
    pub max_per_player: u32,
}

impl Default for AbsenceLimits {
    fn default() -> Self {
        AbsenceLimits {
            max_days: default_max_days(),
            max_per_player: default_max_per_player(),
        }
    }
}

fn every_day() -> Vec<Day> {
    vec![
        Day::Mon,
        Day::Tue,
        Day::Wed,
        Day::Thu,
        Day::Fri,
        Day::Sat,
        Day::Sun,
    ]
}
fn default_min_hours() -> u32 {
    24
}
fn default_warnings() -> Vec<u32> {
    vec![24]
}
fn default_tell_gm_after() -> u32 {
    2
}
fn default_max_days() -> u32 {
    14
}
fn default_max_per_player() -> u32 {
    2
}

/// A schedule that cannot be used: an operator's error.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ScheduleError {
    #[error("the schedule does not parse: {0} (see deploy/schedule.yaml)")]
    Parse(String),
    #[error("unknown time zone {0:?}: use an IANA name such as Europe/Paris or UTC")]
    Zone(String),
    #[error("time {0:?} is not a time of day: write it as HH:MM, such as \"20:00\"")]
    Time(String),
    #[error("`days` is empty: list the weekdays a deadline may fall on, or leave it out")]
    NoDays,
    #[error("`min_hours` is {0}: at most 8760 (a year)")]
    TooLong(u32),
    #[error("`warnings` must be hours from 1 to the longest step, not {0}")]
    Warning(u32),
    #[error("no deadline can be found: {0}")]
    Calendar(String),
}

/// Why an absence is refused: a player's error, saying what to do.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum AbsenceError {
    #[error("{0:?} is not a date: write it as YYYY-MM-DD, such as 2026-07-14")]
    Date(String),
    #[error("the absence ends ({until}) before it starts ({from})")]
    Backwards { from: String, until: String },
    #[error("the absence ended in the past ({0}): only absences still to come are taken")]
    Past(String),
    #[error(
        "the absence is {days} days long; this game allows at most {max}: declare a shorter one"
    )]
    TooLong { days: i64, max: u32 },
    #[error(
        "you have declared {taken} absences in this game, the most it allows ({max}): ask the game master"
    )]
    TooMany { taken: u32, max: u32 },
    #[error("{0}")]
    Schedule(#[from] ScheduleError),
}

/// An absence as instants: from the start of its first day to the start of
/// the day after its last, in the player's zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Absence {
    pub start: i64,
    pub end: i64,
}

fn ts(secs: i64) -> Result<Timestamp, ScheduleError> {
    Timestamp::from_second(secs).map_err(|e| ScheduleError::Calendar(e.to_string()))
}

fn cal(e: jiff::Error) -> ScheduleError {
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

impl Schedule {
    /// Read and check a schedule file's YAML.
    pub fn parse(text: &str) -> Result<Schedule, ScheduleError> {
        let s: Schedule =
            crate::yaml::from_str(text).map_err(|e| ScheduleError::Parse(e.to_string()))?;
        s.check()?;
        Ok(s)
    }

    /// Everything a deadline needs is there and makes sense.
    pub fn check(&self) -> Result<(), ScheduleError> {
        zone(&self.zone)?;
        self.time_of_day()?;
        if self.days.is_empty() {
            return Err(ScheduleError::NoDays);
        }
        if self.min_hours > 8760 {
            return Err(ScheduleError::TooLong(self.min_hours));
        }
        if let Some(w) = self.warnings.iter().find(|w| **w == 0 || **w > 8760) {
            return Err(ScheduleError::Warning(*w));
        }
        Ok(())
    }

    fn time_of_day(&self) -> Result<Time, ScheduleError> {
        let bad = || ScheduleError::Time(self.time.clone());
        let (h, m) = self.time.trim().split_once(':').ok_or_else(bad)?;
        let h: i8 = h.parse().map_err(|_| bad())?;
        let m: i8 = m.parse().map_err(|_| bad())?;
        Time::new(h, m, 0, 0).map_err(|_| bad())
    }

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

    /// Check a player's absence against the game's limits. `from` and `until`
    /// are `YYYY-MM-DD` in the player's zone, both days included; `taken` is
    /// how many absences he declared in this game before.
    pub fn absence(
        &self,
        from: &str,
        until: &str,
        player_zone: &str,
        now: i64,
        taken: u32,
    ) -> Result<Absence, AbsenceError> {
        let date = |s: &str| -> Result<Date, AbsenceError> {
            s.trim()
                .parse::<Date>()
                .map_err(|_| AbsenceError::Date(s.to_string()))
        };
        let (f, u) = (date(from)?, date(until)?);
        if u < f {
            return Err(AbsenceError::Backwards {
                from: f.to_string(),
                until: u.to_string(),
            });
        }
        let tz = zone(player_zone)?;
        let today = ts(now)?.to_zoned(tz.clone()).date();
        if u < today {
            return Err(AbsenceError::Past(u.to_string()));
        }
        let days = (u - f).get_days() as i64 + 1;
        if days > i64::from(self.absence.max_days) {
            return Err(AbsenceError::TooLong {
                days,
                max: self.absence.max_days,
            });
        }
        if taken >= self.absence.max_per_player {
            return Err(AbsenceError::TooMany {
                taken,
                max: self.absence.max_per_player,
            });
        }
        let start_of = |d: Date| -> Result<i64, ScheduleError> {
            Ok(d.to_zoned(tz.clone()).map_err(cal)?.timestamp().as_second())
        };
        Ok(Absence {
            start: start_of(f)?,
            end: start_of(u.tomorrow().map_err(cal)?)?,
        })
    }

    /// The deadline moved by an absence of a side that owes orders: when the
    /// deadline falls within the absence, the step is treated as opening
    /// when the player is back, so he has the usual time. Never earlier.
    pub fn moved_by(&self, deadline: i64, a: &Absence) -> Result<i64, ScheduleError> {
        if a.start <= deadline && deadline < a.end {
            Ok(deadline.max(self.deadline_after(a.end)?))
        } else {
            Ok(deadline)
        }
    }

    /// The deadline after every absence in `absences` (in any order).
    pub fn moved_by_all(&self, deadline: i64, absences: &[Absence]) -> Result<i64, ScheduleError> {
        let mut sorted = absences.to_vec();
        sorted.sort_by_key(|a| a.start);
        let mut d = deadline;
        // One absence can push the deadline into a later one.
        for _ in 0..=sorted.len() {
            let before = d;
            for a in &sorted {
                d = self.moved_by(d, a)?;
            }
            if d == before {
                break;
            }
        }
        Ok(d)
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

    fn at(s: &str) -> i64 {
        s.parse::<Timestamp>().unwrap().as_second()
    }

    fn sched(yaml: &str) -> Schedule {
        Schedule::parse(yaml).unwrap()
    }

    #[test]
    fn defaults_fill_in_what_is_left_out() {
        let s = sched("zone: UTC\ntime: \"20:00\"\n");
        assert_eq!(s.days.len(), 7);
        assert_eq!(s.warnings, vec![24]);
        assert_eq!(s.min_hours, 24);
        assert_eq!(s.missed, MissedPolicy::Default);
        assert_eq!(s.absence.max_days, 14);
    }

    #[test]
    fn bad_schedules_say_what_to_fix() {
        assert!(matches!(
            Schedule::parse("zone: Mars/Olympus\ntime: \"20:00\"\n"),
            Err(ScheduleError::Zone(_))
        ));
        assert!(matches!(
            Schedule::parse("zone: UTC\ntime: \"25:00\"\n"),
            Err(ScheduleError::Time(_))
        ));
        assert!(matches!(
            Schedule::parse("zone: UTC\ntime: \"20:00\"\ndays: []\n"),
            Err(ScheduleError::NoDays)
        ));
        let e = Schedule::parse("zone: UTC\ntime: \"20:00\"\ndeadline: 3\n").unwrap_err();
        assert!(e.to_string().contains("deadline"), "{e}");
        assert!(matches!(
            Schedule::parse("zone: UTC\ntime: \"20:00\"\nmissed: sometimes\n"),
            Err(ScheduleError::Parse(_))
        ));
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
    fn absences_move_the_deadline_within_the_limits() {
        let s = sched(
            "zone: UTC\ntime: \"20:00\"\nmin_hours: 48\nabsence: {max_days: 7, max_per_player: 1}\n",
        );
        let now = at("2026-03-02T10:00:00Z");
        let d = s.deadline_after(now).unwrap();
        assert_eq!(d, at("2026-03-04T20:00:00Z"));
        let a = s
            .absence("2026-03-03", "2026-03-05", "Europe/Paris", now, 0)
            .unwrap();
        // Paris midnight is 23:00 UTC in winter.
        assert_eq!(a.start, at("2026-03-02T23:00:00Z"));
        assert_eq!(a.end, at("2026-03-05T23:00:00Z"));
        // Back on the 6th (Paris): 48 hours later, the next 20:00 UTC.
        assert_eq!(s.moved_by(d, &a).unwrap(), at("2026-03-08T20:00:00Z"));
        // An absence after the deadline changes nothing.
        let later = s
            .absence("2026-03-05", "2026-03-06", "UTC", now, 0)
            .unwrap();
        assert_eq!(s.moved_by(d, &later).unwrap(), d);
        assert_eq!(
            s.absence("2026-03-03", "2026-03-10", "UTC", now, 0),
            Err(AbsenceError::TooLong { days: 8, max: 7 })
        );
        assert_eq!(
            s.absence("2026-03-03", "2026-03-04", "UTC", now, 1),
            Err(AbsenceError::TooMany { taken: 1, max: 1 })
        );
        assert!(matches!(
            s.absence("2026-03-05", "2026-03-03", "UTC", now, 0),
            Err(AbsenceError::Backwards { .. })
        ));
        assert!(matches!(
            s.absence("2026-02-01", "2026-02-03", "UTC", now, 0),
            Err(AbsenceError::Past(_))
        ));
        assert!(matches!(
            s.absence("tomorrow", "2026-02-03", "UTC", now, 0),
            Err(AbsenceError::Date(_))
        ));
    }

    #[test]
    fn chained_absences_push_the_deadline_on() {
        let s = sched("zone: UTC\ntime: \"12:00\"\nmin_hours: 24\n");
        let now = at("2026-03-02T00:00:00Z");
        let d = s.deadline_after(now).unwrap();
        let a1 = s
            .absence("2026-03-03", "2026-03-03", "UTC", now, 0)
            .unwrap();
        let a2 = s
            .absence("2026-03-05", "2026-03-05", "UTC", now, 0)
            .unwrap();
        // Back on the 4th: deadline the 5th at 12:00, inside the second absence,
        // so back on the 6th: the 7th at 12:00.
        assert_eq!(
            s.moved_by_all(d, &[a2, a1]).unwrap(),
            at("2026-03-07T12:00:00Z")
        );
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

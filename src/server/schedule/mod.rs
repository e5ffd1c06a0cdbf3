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
//!
//! `mod.rs` holds the schedule as written and its checks; `calendar.rs` the
//! calendar arithmetic (deadlines, grace, warnings, instants shown in a
//! reader's zone); `absence.rs` a player's absence and how it moves a
//! deadline.

mod absence;
mod calendar;

pub use absence::{Absence, AbsenceError};
pub use calendar::{describe_zone, format_instant, format_zoned, zone};

use jiff::civil::{Time, Weekday};
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

pub use crate::archive::MissedPolicy;

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
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::Timestamp;

    pub(super) fn at(s: &str) -> i64 {
        s.parse::<Timestamp>().unwrap().as_second()
    }

    pub(super) fn sched(yaml: &str) -> Schedule {
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
}

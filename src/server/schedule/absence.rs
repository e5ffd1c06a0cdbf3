//! A player's declared absence: checked against the game's limits, turned
//! into instants in his zone, and the deadlines it moves.

use super::calendar::{cal, ts, zone};
use super::{Schedule, ScheduleError};
use jiff::civil::Date;

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

impl Schedule {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::schedule::tests::{at, sched};

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
}

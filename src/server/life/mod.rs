//! A game's life between steps: deadlines, warnings, absences, missed orders.
//!
//! `Server::tick` is called by the daemon before each batch resolves what is
//! ready, with the time read at the edge; nothing here reads a clock. The
//! schedule itself (pure) is `schedule/`; the records are `store/life.rs`.
//! docs/GAME-LIFE.md explains it for game masters.
//!
//! `mod.rs` holds what a tick reports ([`Life`]), a game's schedule and its
//! deadline as the game master moves it and the players read it;
//! `tick.rs` runs the clock and passes deadlines; `warnings.rs` writes the
//! warnings and the notices to the game master; `applied.rs` chooses and
//! signs the default or standing orders applied for a silent side;
//! `reopen.rs` opens a beacon step again whose orders closed unanswered;
//! `zones.rs` holds a player's time zone and absences.

mod applied;
mod reopen;
mod tick;
mod warnings;
mod zones;

pub(crate) use warnings::life_mail;

use super::Resolved;
use super::Server;
use super::schedule::{self, MissedPolicy, Schedule};
use super::store::{DeadlineRow, GameRow, GameStatus};
use crate::side::SideId;
use anyhow::{Context, anyhow, bail};
use std::fmt;

/// Namespace in which the server signs orders it applied for a side that
/// sent none: never valid as a player's orders, nor as a report.
pub use crate::archive::inputs::APPLIED_NAMESPACE;

/// Something a tick did, for the daemon's log and the tests.
#[derive(Clone, Debug, PartialEq)]
pub enum Life {
    /// A step got its deadline (unix seconds).
    DeadlineSet {
        game: String,
        step: u32,
        deadline: i64,
    },
    /// A paused game's clock started again: the deadline moved on by the pause.
    ClockResumed {
        game: String,
        step: u32,
        deadline: i64,
    },
    /// A side still owing orders was warned.
    Warned {
        game: String,
        step: u32,
        side: SideId,
        hours: u32,
    },
    /// The server applied orders for a side that sent none.
    Applied {
        game: String,
        step: u32,
        side: SideId,
        policy: MissedPolicy,
        note: String,
    },
    /// Nothing could be applied: the step waits for the game master.
    Waiting {
        game: String,
        step: u32,
        side: SideId,
    },
    /// The game master was told something (mailed when an address is set).
    GameMasterTold { game: String, text: String },
    /// A step resolved at its deadline.
    Resolved(Resolved),
}

impl fmt::Display for Life {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Life::DeadlineSet {
                game,
                step,
                deadline,
            } => write!(
                f,
                "{game} step {step}: deadline {}",
                schedule::format_instant(*deadline, "UTC")
            ),
            Life::ClockResumed {
                game,
                step,
                deadline,
            } => write!(
                f,
                "{game} step {step}: clock resumed, deadline {}",
                schedule::format_instant(*deadline, "UTC")
            ),
            Life::Warned {
                game,
                step,
                side,
                hours,
            } => write!(f, "{game} step {step}: {side} warned ({hours} h)"),
            Life::Applied {
                game, step, note, ..
            } => write!(f, "{game} step {step}: {note}"),
            Life::Waiting { game, step, side } => {
                write!(
                    f,
                    "{game} step {step}: waiting for {side} or the game master"
                )
            }
            Life::GameMasterTold { game, text } => write!(f, "{game}: game master told: {text}"),
            Life::Resolved(r) => write!(f, "{} step {} resolved at its deadline", r.game, r.step),
        }
    }
}

impl Server {
    /// Store a game's schedule (YAML, see deploy/schedule.yaml). A game
    /// without one has no deadline: its steps wait for every side's orders.
    pub fn set_schedule(&mut self, game: &str, yaml: &str) -> anyhow::Result<()> {
        Schedule::parse(yaml)?;
        self.game_row(game)?;
        self.store.set_schedule(game, yaml)?;
        Ok(())
    }

    /// A game's schedule, if it has one.
    pub fn schedule(&self, game: &str) -> anyhow::Result<Option<Schedule>> {
        match self.store.schedule(game)? {
            Some(y) => Ok(Some(Schedule::parse(&y).with_context(|| {
                format!("the stored schedule of game {game} no longer parses")
            })?)),
            None => Ok(None),
        }
    }

    fn game_row(&self, game: &str) -> anyhow::Result<GameRow> {
        self.store.game(game)?.ok_or_else(|| self.no_game(game))
    }

    /// The game master moves the open step's deadline to `until` (unix
    /// seconds). Returns the text every side is told.
    pub fn extend_deadline(&mut self, game: &str, until: i64, now: i64) -> anyhow::Result<String> {
        self.game_row(game)?;
        let sched = self.schedule(game)?.ok_or_else(|| {
            anyhow!("game {game} has no schedule, so no deadline to move (create games with `galloper new --schedule FILE`)")
        })?;
        if until <= now {
            bail!(
                "{} is not in the future: give a deadline still to come",
                schedule::format_instant(until, &sched.zone)
            );
        }
        let (open, _) = self
            .due(game)?
            .ok_or_else(|| anyhow!("game {game} is over: it has no deadline"))?;
        crate::server::beacon::check_new_close(&open.notice, sched.closes_at(until))?;
        let opened = self
            .store
            .deadline(game, open.step)?
            .map(|d| d.opened)
            .unwrap_or(now);
        let d = DeadlineRow {
            step: open.step,
            opened,
            deadline: until,
        };
        let old = self.store.deadline(game, open.step)?.map(|d| d.deadline);
        self.store.set_deadline(game, &d, &[])?;
        self.deadline_moved(game, old, until, None)
    }

    /// The open step's deadline, if it has one (unix seconds).
    pub fn open_deadline(&self, game: &str) -> anyhow::Result<Option<i64>> {
        let Some((open, _)) = self.due(game)? else {
            return Ok(None);
        };
        Ok(self.store.deadline(game, open.step)?.map(|d| d.deadline))
    }

    /// What a reader is told of a deadline moved from `old` to `new`, in
    /// his zone (the game's for the game master) with UTC beside.
    pub(crate) fn deadline_moved(
        &self,
        game: &str,
        old: Option<i64>,
        new: i64,
        reader: Option<&SideId>,
    ) -> anyhow::Result<String> {
        let sched = self
            .schedule(game)?
            .ok_or_else(|| anyhow!("game {game} has no schedule"))?;
        let zone = self.zone_for(game, reader, &sched);
        let step = self.due(game)?.map(|(s, _)| s.step).unwrap_or_default();
        let mut t = format!("Game {game}, step {step}: the game master has moved the deadline");
        if let Some(old) = old {
            t.push_str(&format!(" from {}", schedule::format_zoned(old, &zone)));
        }
        t.push_str(&format!(" to {}", schedule::format_zoned(new, &zone)));
        if sched.grace_minutes > 0 {
            t.push_str(&format!(
                " (orders still taken until {})",
                schedule::format_zoned(sched.closes_at(new), &zone)
            ));
        }
        if old.is_some_and(|o| new < o) {
            t.push_str(": earlier than it was");
        }
        t.push('.');
        Ok(t)
    }

    /// The open step's deadline as `reader` sees it (in his zone), for
    /// status replies; none when the game has no deadline.
    pub fn deadline_text(
        &self,
        game: &str,
        reader: Option<&SideId>,
    ) -> anyhow::Result<Option<String>> {
        let Some(g) = self.store.game(game)? else {
            return Ok(None);
        };
        if g.status != GameStatus::Active {
            return Ok(None);
        }
        let Some(sched) = self.schedule(game)? else {
            return Ok(None);
        };
        let Some((open, _)) = self.due(game)? else {
            return Ok(None);
        };
        let Some(d) = self.store.deadline(game, open.step)? else {
            return Ok(None);
        };
        let zone = self.zone_for(game, reader, &sched);
        let mut t = format!(
            "Deadline for step {}: {}",
            open.step,
            schedule::format_instant(d.deadline, &zone)
        );
        if sched.grace_minutes > 0 {
            t.push_str(&format!(
                " (orders still taken until {})",
                schedule::format_instant(sched.closes_at(d.deadline), &zone)
            ));
        }
        Ok(Some(t))
    }
}

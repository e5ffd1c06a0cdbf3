//! A player's own settings in a game: the time zone his mail shows times
//! in, and his declared absences, which move deadlines within the game's
//! limits.

use crate::server::Server;
use crate::server::schedule::{self, Schedule};
use crate::server::store::{AbsenceRow, DeadlineRow, GameStatus};
use crate::side::SideId;
use anyhow::{anyhow, bail};

impl Server {
    fn check_side(&self, game: &str, side: &SideId) -> anyhow::Result<()> {
        if self.store.players(game)?.iter().any(|p| &p.side == side) {
            Ok(())
        } else {
            bail!("{side} is not a side of game {game}")
        }
    }

    /// The zone a reader sees times in: his own, else the game's.
    pub(super) fn zone_for(&self, game: &str, reader: Option<&SideId>, sched: &Schedule) -> String {
        reader
            .and_then(|s| self.store.zone(game, s).ok().flatten())
            .unwrap_or_else(|| sched.zone.clone())
    }

    /// A step's deadline as `reader` reads it, in his zone (named) and in
    /// UTC, with the grace after it: the lines reports, the creation mail
    /// and acknowledgements show.
    pub(crate) fn deadline_lines(
        &self,
        game: &str,
        step: u32,
        deadline: i64,
        reader: Option<&SideId>,
        sched: &Schedule,
    ) -> Vec<String> {
        let zone = self.zone_for(game, reader, sched);
        let mut lines = vec![format!(
            "Deadline for step {step}: {}",
            schedule::format_zoned(deadline, &zone)
        )];
        if sched.grace_minutes > 0 {
            lines.push(format!(
                "Orders are still taken until {}.",
                schedule::format_zoned(sched.closes_at(deadline), &zone)
            ));
        }
        lines
    }

    /// The open step's deadline as `reader` reads it ([`Server::deadline_lines`]);
    /// none when the game has no deadline or is not running.
    pub fn open_deadline_lines(
        &self,
        game: &str,
        reader: Option<&SideId>,
    ) -> anyhow::Result<Vec<String>> {
        let Some(g) = self.store.game(game)? else {
            return Ok(Vec::new());
        };
        if g.status != GameStatus::Active {
            return Ok(Vec::new());
        }
        let Some(sched) = self.schedule(game)? else {
            return Ok(Vec::new());
        };
        // Only the open step's number: every accepted file's reply asks.
        let Some(step) = self.store.open_step_number(game)? else {
            return Ok(Vec::new());
        };
        let Some(d) = self.store.deadline(game, step)? else {
            return Ok(Vec::new());
        };
        Ok(self.deadline_lines(game, step, d.deadline, reader, &sched))
    }

    /// Set the time zone (IANA name, e.g. `Europe/Paris`) in which a
    /// player's mail shows times. Returns the confirmation for his reply.
    pub fn set_zone(&mut self, game: &str, side: &SideId, zone: &str) -> anyhow::Result<String> {
        self.game_row(game)?;
        self.check_side(game, side)?;
        let tz = schedule::zone(zone.trim())?;
        let name = tz.iana_name().unwrap_or(zone.trim()).to_string();
        self.store.set_zone(game, side, &name)?;
        let mut t = format!("Times in your mail for game {game} are now shown in {name}.");
        if let Some(d) = self.deadline_text(game, Some(side))? {
            t.push(' ');
            t.push_str(&d);
        }
        Ok(t)
    }

    /// A player's declared absence (`from` and `until` as `YYYY-MM-DD` in
    /// his own zone), moving the deadline within the game's limits. `now` is
    /// unix seconds. Returns the confirmation for his reply.
    pub fn declare_absence(
        &mut self,
        game: &str,
        side: &SideId,
        from: &str,
        until: &str,
        now: i64,
    ) -> anyhow::Result<String> {
        let g = self.game_row(game)?;
        self.check_side(game, side)?;
        let sched = self.schedule(game)?.ok_or_else(|| {
            anyhow!("game {game} has no deadlines, so no absence is needed: the game waits for your orders")
        })?;
        let zone = self.zone_for(game, Some(side), &sched);
        let taken = self.store.absences(game, Some(side))?.len() as u32;
        let a = sched.absence(from, until, &zone, now, taken)?;
        let row = AbsenceRow {
            side: side.clone(),
            start: a.start,
            end: a.end,
            from_day: from.trim().to_string(),
            until_day: until.trim().to_string(),
        };
        let mut moved = None;
        let mut current = None;
        if g.status == GameStatus::Active
            && let Some((open, due)) = self.due(game)?
            && let Some(d) = self.store.deadline(game, open.step)?
        {
            current = Some(d);
            let sent = self.store.latest_orders(game, open.step)?;
            if due.owed.iter().any(|o| &o.side == side) && !sent.contains_key(side) {
                let nd = sched.moved_by(d.deadline, &a)?;
                if nd != d.deadline {
                    moved = Some(DeadlineRow { deadline: nd, ..d });
                }
            }
        }
        self.store.add_absence(game, &row, moved.as_ref(), now)?;
        let mut t = format!(
            "Absence of {side} in game {game} from {} to {} recorded ({} of {} allowed in this game).",
            row.from_day,
            row.until_day,
            taken + 1,
            sched.absence.max_per_player
        );
        match (moved, current) {
            (Some(d), _) => t.push_str(&format!(
                " The deadline of step {} moves to {}.",
                d.step,
                schedule::format_instant(d.deadline, &zone)
            )),
            (None, Some(d)) => t.push_str(&format!(
                " The deadline of step {} stays {}.",
                d.step,
                schedule::format_instant(d.deadline, &zone)
            )),
            (None, None) => {}
        }
        t.push_str(" A later deadline that falls within the absence will be moved too.");
        Ok(t)
    }
}

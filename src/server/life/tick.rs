//! The clock of every game: a newly opened step gets its deadline, a paused
//! game's clock stands still, and past the deadline and its grace the
//! game's missed-orders policy is applied and the step resolved.

use super::Life;
use super::warnings::life_mail;
use crate::ruleset::Owed;
use crate::rulesets;
use crate::server::Server;
use crate::server::schedule::{Absence, Schedule};
use crate::server::store::{DeadlinePass, DeadlineRow, GameRow, GameStatus, Mark, StepRow};
use crate::side::SideId;
use anyhow::anyhow;
use std::path::Path;

/// The mark a paused game's open step carries while its clock is stopped.
const PAUSED: &str = "paused";

fn nobody() -> SideId {
    SideId::new("")
}

impl Server {
    /// Run every game's clock to `now` (unix seconds): give a newly opened
    /// step its deadline, warn sides still owing orders, and at the deadline
    /// plus grace apply the game's missed-orders policy and resolve the step.
    /// Paused games' clocks stand still; over games are left alone.
    pub fn tick(&mut self, now: i64, outbox: &Path) -> anyhow::Result<Vec<Life>> {
        let mut out = Vec::new();
        self.see_time(now);
        for g in self.store.games()? {
            if g.status == GameStatus::Over {
                continue;
            }
            // One game's failure stays that game's: logged with what to
            // do, and the other games' clocks go on (Server::process_games).
            let sched = match self.schedule(&g.id) {
                Ok(Some(s)) => s,
                Ok(None) => continue,
                Err(e) => {
                    let stuck = crate::server::Stuck::new(&g.id, e);
                    tracing::error!(game = %stuck.game, error = %stuck.error, todo = %stuck.advice, "game clock not run; the other games go on");
                    continue;
                }
            };
            // A resolution opens a step that needs its own deadline: a
            // few rounds at most, as each new deadline lies ahead of `now`.
            for _ in 0..4 {
                match self.tick_game(&g, &sched, now, outbox, &mut out) {
                    Ok(true) => {}
                    Ok(false) => break,
                    Err(e) => {
                        let stuck = crate::server::Stuck::new(&g.id, e);
                        tracing::error!(game = %stuck.game, error = %stuck.error, todo = %stuck.advice, "game clock not run; the other games go on");
                        break;
                    }
                }
            }
        }
        Ok(out)
    }

    /// One game's clock; true when a step resolved.
    fn tick_game(
        &mut self,
        g: &GameRow,
        sched: &Schedule,
        now: i64,
        outbox: &Path,
        out: &mut Vec<Life>,
    ) -> anyhow::Result<bool> {
        let game = g.id.as_str();
        let Some((open, due)) = self.due(game)? else {
            return Ok(false);
        };
        let existing = self.store.deadline(game, open.step)?;
        let paused_at = self.store.marked_at(game, open.step, &nobody(), PAUSED)?;
        if g.status != GameStatus::Active {
            // The clock stops: remember when, to move the deadline on by
            // as long when the game resumes.
            if existing.is_some() && paused_at.is_none() {
                let m = Mark {
                    step: open.step,
                    side: nobody(),
                    what: PAUSED.into(),
                };
                self.store.record_marks(game, &[m], &[], now)?;
            }
            return Ok(false);
        }
        if due.owed.is_empty() {
            return Ok(false);
        }
        let orders = self.store.latest_orders(game, open.step)?;
        let applied = self.store.applied_orders(game, open.step)?;
        let mut owing: Vec<&Owed> = Vec::new();
        for o in &due.owed {
            match orders.get(&o.side) {
                Some(row) if applied.get(&o.side).map(|a| a.seq) != Some(row.seq) => {
                    self.store.reset_missed(game, &o.side)?;
                }
                Some(_) => {}
                None => owing.push(o),
            }
        }
        let dl = match (existing, paused_at) {
            (Some(d), Some(since)) => {
                let d = DeadlineRow {
                    deadline: d.deadline + (now - since).max(0),
                    ..d
                };
                let m = Mark {
                    step: open.step,
                    side: nobody(),
                    what: PAUSED.into(),
                };
                self.store.set_deadline_unmark(game, &d, &m)?;
                out.push(Life::ClockResumed {
                    game: game.into(),
                    step: open.step,
                    deadline: d.deadline,
                });
                d
            }
            (Some(d), None) => d,
            (None, _) => {
                let deadline = self.opening_deadline(game, &open, &due, sched, now)?;
                let d = DeadlineRow {
                    step: open.step,
                    opened: now,
                    deadline,
                };
                self.store.set_deadline(game, &d, &[])?;
                out.push(Life::DeadlineSet {
                    game: game.into(),
                    step: open.step,
                    deadline,
                });
                d
            }
        };
        if owing.is_empty() {
            return Ok(false);
        }
        if now < sched.closes_at(dl.deadline) {
            self.warn(g, sched, &open, &due, &owing, &dl, now, out)?;
            return Ok(false);
        }
        self.pass_deadline(g, sched, &open, &owing, now, out)?;
        match self.try_resolve(game, outbox)? {
            Some(r) => {
                // The resolution gave the new step its deadline (its
                // reports show it), from this same `now`.
                let set = self.store.deadline(game, r.step + 1)?;
                out.push(Life::Resolved(r));
                if let Some(d) = set {
                    out.push(Life::DeadlineSet {
                        game: game.into(),
                        step: d.step,
                        deadline: d.deadline,
                    });
                }
                Ok(true)
            }
            None => {
                self.reopen_if_closed(g, &open, &due, now, out)?;
                Ok(false)
            }
        }
    }

    /// A beacon step whose orders closed with a side still owing them and
    /// nothing applied for it can never take them: it opens again
    /// (`reopen.rs`). Any other step waits, as the game's rule says.
    fn reopen_if_closed(
        &mut self,
        g: &GameRow,
        open: &StepRow,
        due: &crate::ruleset::Due,
        now: i64,
        out: &mut Vec<Life>,
    ) -> anyhow::Result<()> {
        let Some(b) = crate::server::beacon::notice_beacon(&open.notice) else {
            return Ok(());
        };
        if crate::server::beacon::parse_utc(&b.orders_close).is_none_or(|c| now <= c) {
            return Ok(());
        }
        let orders = self.store.latest_orders(&g.id, open.step)?;
        let missing: Vec<String> = due
            .owed
            .iter()
            .filter(|o| !orders.contains_key(&o.side))
            .map(|o| o.side.to_string())
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        self.reopen_closed(g, open, due, &missing, now, out)
    }

    /// The deadline a step opened at `now` gets: from its notice for a
    /// beacon step, else the schedule's next deadline moved past the
    /// absences of the sides that owe orders.
    pub(crate) fn opening_deadline(
        &self,
        game: &str,
        open: &StepRow,
        due: &crate::ruleset::Due,
        sched: &Schedule,
        now: i64,
    ) -> anyhow::Result<i64> {
        let owed: Vec<&SideId> = due.owed.iter().map(|o| &o.side).collect();
        let absences: Vec<Absence> = self
            .store
            .absences(game, None)?
            .into_iter()
            .filter(|a| owed.contains(&&a.side))
            .map(|a| Absence {
                start: a.start,
                end: a.end,
            })
            .collect();
        // A beacon step's deadline was fixed with its round, in its notice.
        Ok(match crate::server::beacon::notice_deadline(&open.notice) {
            Some(d) => d,
            None => sched.moved_by_all(sched.deadline_after(now)?, &absences)?,
        })
    }

    /// The deadline and grace are past: apply the game's policy to each side
    /// still owing, count its missed step and tell the game master what he
    /// must know, in one transaction.
    fn pass_deadline(
        &mut self,
        g: &GameRow,
        sched: &Schedule,
        open: &StepRow,
        owing: &[&Owed],
        now: i64,
        out: &mut Vec<Life>,
    ) -> anyhow::Result<()> {
        let rules = rulesets::by_name(&g.ruleset)
            .ok_or_else(|| anyhow!("game {} uses unknown ruleset {}", g.id, g.ruleset))?;
        let mut pass = DeadlinePass::default();
        let mut told: Vec<(String, String)> = Vec::new();
        for o in owing {
            let side = &o.side;
            if !self.store.marked(&g.id, open.step, side, "missed")? {
                let count = self.store.missed_count(&g.id, side)? + 1;
                pass.missed.push((side.clone(), count));
                pass.marks.push(Mark {
                    step: open.step,
                    side: side.clone(),
                    what: "missed".into(),
                });
                if sched.tell_gm_after > 0 && count >= sched.tell_gm_after {
                    told.push((
                        format!("missed-{side}"),
                        format!(
                            "{side} has missed {count} deadlines in a row in game {} (step {} now). Perhaps the player needs a word, or a replacement.",
                            g.id, open.step
                        ),
                    ));
                }
            }
            match self.choose_orders(rules, open, side)? {
                Some((policy, body, note)) => {
                    let row = self.applied_row(open, side, policy, &body)?;
                    out.push(Life::Applied {
                        game: g.id.clone(),
                        step: open.step,
                        side: side.clone(),
                        policy,
                        note: note.clone(),
                    });
                    pass.applied.push((row, policy.as_str().into(), note));
                }
                None => {
                    if !self.store.marked(&g.id, open.step, side, "waiting")? {
                        pass.marks.push(Mark {
                            step: open.step,
                            side: side.clone(),
                            what: "waiting".into(),
                        });
                        told.push((
                            format!("waiting-{side}"),
                            format!(
                                "Game {}, step {}: {side} sent no orders by the deadline and the rule for missed orders that the step's notice names ({}) applies none. {}",
                                g.id,
                                open.step,
                                crate::yaml::from_str::<crate::archive::Notice>(&open.notice)
                                    .ok()
                                    .and_then(|n| n.missed)
                                    .map_or("none: the step opened before the game had a schedule", |m| m.as_str()),
                                if crate::server::beacon::notice_beacon(&open.notice).is_some() {
                                    "Its orders are closed (a beacon step): it opens again with a new deadline."
                                } else {
                                    "The step waits: extend the deadline, or act for the side."
                                }
                            ),
                        ));
                        out.push(Life::Waiting {
                            game: g.id.clone(),
                            step: open.step,
                            side: side.clone(),
                        });
                    }
                }
            }
        }
        for (kind, text) in told {
            if let Some(mail) = &self.mail
                && let Some(gm) = &mail.game_master
            {
                pass.mails.push(life_mail(
                    mail,
                    &g.id,
                    open.step,
                    "gm",
                    &kind,
                    "gm",
                    gm,
                    format!("[{}] Step {}: for the game master", g.id, open.step),
                    format!("{text}\n"),
                    now,
                )?);
            }
            out.push(Life::GameMasterTold {
                game: g.id.clone(),
                text,
            });
        }
        self.store.record_deadline_pass(&g.id, &pass, now)?;
        Ok(())
    }
}

//! A game's life between steps: deadlines, warnings, absences, missed orders.
//!
//! `Server::tick` is called by the daemon before each batch resolves what is
//! ready, with the time read at the edge; nothing here reads a clock. The
//! schedule itself (pure) is `schedule.rs`; the records are `store/life.rs`.
//! docs/GAME-LIFE.md explains it for game masters.

use super::archive::sha256_hex;
use super::schedule::{self, Absence, MissedPolicy, Schedule};
use super::store::{
    AbsenceRow, DeadlinePass, DeadlineRow, GameRow, GameStatus, Mark, OrdersRow, OutboxRow, StepRow,
};
use super::{DiceInputs, MailSettings, Resolved, Server};
use crate::envelope;
use crate::mail::compose::{self, Party, ReplyMail, Thread};
use crate::ruleset::{AnyRuleset, Due, Owed};
use crate::rulesets;
use crate::side::SideId;
use anyhow::{Context, anyhow, bail};
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

/// Namespace in which the server signs orders it applied for a side that
/// sent none: never valid as a player's orders, nor as a report.
pub const APPLIED_NAMESPACE: &str = "galloper-applied";

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

/// The mark a paused game's open step carries while its clock is stopped.
const PAUSED: &str = "paused";

fn nobody() -> SideId {
    SideId::new("")
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
        self.store
            .game(game)?
            .ok_or_else(|| anyhow!("no game called {game:?} on this server"))
    }

    fn check_side(&self, game: &str, side: &SideId) -> anyhow::Result<()> {
        if self.store.players(game)?.iter().any(|p| &p.side == side) {
            Ok(())
        } else {
            bail!("{side} is not a side of game {game}")
        }
    }

    /// The zone a reader sees times in: his own, else the game's.
    fn zone_for(&self, game: &str, reader: Option<&SideId>, sched: &Schedule) -> String {
        reader
            .and_then(|s| self.store.zone(game, s).ok().flatten())
            .unwrap_or_else(|| sched.zone.clone())
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
        self.store.set_deadline(game, &d, &[])?;
        let mut t = format!(
            "Game {game}, step {}: the game master has moved the deadline to {}",
            open.step,
            schedule::format_instant(until, &sched.zone)
        );
        if sched.grace_minutes > 0 {
            t.push_str(&format!(
                " (orders still taken until {})",
                schedule::format_instant(sched.closes_at(until), &sched.zone)
            ));
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

    /// Run every game's clock to `now` (unix seconds): give a newly opened
    /// step its deadline, warn sides still owing orders, and at the deadline
    /// plus grace apply the game's missed-orders policy and resolve the step.
    /// Paused games' clocks stand still; over games are left alone.
    pub fn tick(&mut self, now: i64, outbox: &Path) -> anyhow::Result<Vec<Life>> {
        let mut out = Vec::new();
        for g in self.store.games()? {
            if g.status == GameStatus::Over {
                continue;
            }
            let Some(sched) = self.schedule(&g.id)? else {
                continue;
            };
            // A resolution opens a step that needs its own deadline: a
            // few rounds at most, as each new deadline lies ahead of `now`.
            for _ in 0..4 {
                if !self.tick_game(&g, &sched, now, outbox, &mut out)? {
                    break;
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
                let deadline = sched.moved_by_all(sched.deadline_after(now)?, &absences)?;
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
                out.push(Life::Resolved(r));
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Queue the warnings due at `now` to the sides still owing, each once.
    #[allow(clippy::too_many_arguments)]
    fn warn(
        &mut self,
        g: &GameRow,
        sched: &Schedule,
        open: &StepRow,
        due: &Due,
        owing: &[&Owed],
        dl: &DeadlineRow,
        now: i64,
        out: &mut Vec<Life>,
    ) -> anyhow::Result<()> {
        let Some(mail) = self.mail.clone() else {
            return Ok(());
        };
        let hours = sched.warnings_due(dl.opened, dl.deadline, now);
        if hours.is_empty() {
            return Ok(());
        }
        let players = self.store.players(&g.id)?;
        let mut marks = Vec::new();
        let mut mails = Vec::new();
        for o in owing {
            let mut fresh = Vec::new();
            for h in &hours {
                let what = format!("warning-{h}");
                if !self.store.marked(&g.id, open.step, &o.side, &what)? {
                    fresh.push(*h);
                    marks.push(Mark {
                        step: open.step,
                        side: o.side.clone(),
                        what,
                    });
                }
            }
            // Several warnings come due at once after a stop: one mail says it.
            let Some(nearest) = fresh.iter().min().copied() else {
                continue;
            };
            if let Some(p) = players.iter().find(|p| p.side == o.side) {
                let zone = self.zone_for(&g.id, Some(&o.side), sched);
                let left = (dl.deadline - now).max(0);
                let mut text = format!(
                    "Game {}, step {} ({}): {} still owes orders: {}.\n\nDeadline: {}",
                    g.id,
                    open.step,
                    due.heading,
                    o.side,
                    o.note,
                    schedule::format_instant(dl.deadline, &zone)
                );
                if sched.grace_minutes > 0 {
                    text.push_str(&format!(
                        " (orders still taken until {})",
                        schedule::format_instant(sched.closes_at(dl.deadline), &zone)
                    ));
                }
                text.push_str(&format!(
                    ", in about {} hours.\nIf nothing arrives by then, {}\n\nSend `status` for the game's state, or declare an absence if you will be away.\n",
                    (left + 1800) / 3600,
                    policy_words(sched.missed)
                ));
                let kind = format!("warning-{nearest}-{}", dl.deadline);
                mails.push(life_mail(
                    &mail,
                    &g.id,
                    open.step,
                    o.side.as_str(),
                    &kind,
                    "warning",
                    &p.email,
                    format!(
                        "[{}] Step {}: orders due by {}",
                        g.id,
                        open.step,
                        schedule::format_instant(dl.deadline, &zone)
                    ),
                    text,
                    now,
                )?);
            }
            out.push(Life::Warned {
                game: g.id.clone(),
                step: open.step,
                side: o.side.clone(),
                hours: nearest,
            });
        }
        if !marks.is_empty() {
            self.store.record_marks(&g.id, &marks, &mails, now)?;
        }
        Ok(())
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
            match self.choose_orders(rules, sched, open, side)? {
                Some((policy, body, note)) => {
                    let row = self.applied_row(&g.id, open.step, side, &body, &note)?;
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
                                "Game {}, step {}: {side} sent no orders by the deadline and the game's policy ({}) applies none. The step waits: extend the deadline, or act for the side.",
                                g.id,
                                open.step,
                                sched.missed.as_str()
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

    /// The orders the policy gives a side that sent none, with the policy
    /// that gave them and the report's sentence; none means wait.
    fn choose_orders(
        &self,
        rules: &dyn AnyRuleset,
        sched: &Schedule,
        open: &StepRow,
        side: &SideId,
    ) -> anyhow::Result<Option<(MissedPolicy, serde_yaml::Value, String)>> {
        let state = &open.state_before;
        let fits = |body: &serde_yaml::Value| -> bool {
            matches!(rules.check(state, side, body), Ok(v) if v.is_empty())
        };
        if sched.missed == MissedPolicy::Wait {
            return Ok(None);
        }
        if sched.missed == MissedPolicy::Standing
            && let Some(row) = self.store.earlier_own_orders(&open.game, side, open.step)?
            && let Ok(env) = envelope::parse(&row.file_name, &row.text)
            && fits(&env.orders)
        {
            let note = format!(
                "{side} sent no orders by the deadline: standing orders applied (its orders of step {}, sha256 {})",
                row.step,
                &row.sha256[..12.min(row.sha256.len())]
            );
            return Ok(Some((MissedPolicy::Standing, env.orders, note)));
        }
        match rules.default_orders(state, side)? {
            Some(body) if fits(&body) => {
                let note = format!(
                    "{side} sent no orders by the deadline: default orders applied: {}",
                    flow(&body)
                );
                Ok(Some((MissedPolicy::Default, body, note)))
            }
            _ => Ok(None),
        }
    }

    /// An orders file the server writes and signs for a side. Its entropy
    /// follows from the game, step and side, so the server has no say in
    /// what it adds to the dice mix.
    fn applied_row(
        &self,
        game: &str,
        step: u32,
        side: &SideId,
        body: &serde_yaml::Value,
        note: &str,
    ) -> anyhow::Result<OrdersRow> {
        let entropy = sha256_hex(format!("{APPLIED_NAMESPACE}\n{game}\n{step}\n{side}").as_bytes());
        let body_text = crate::yaml::to_string(body)?;
        let text = format!(
            "# {}\n# Applied and signed by the server (namespace {APPLIED_NAMESPACE}).\n{}",
            note.replace(['\n', '\r'], " "),
            envelope::compose(game, step, side, &entropy, &body_text)
        );
        let signature = crate::sig::sign(
            &self.key.private_openssh,
            APPLIED_NAMESPACE,
            text.as_bytes(),
        )?;
        Ok(OrdersRow {
            seq: 0,
            game: game.into(),
            step,
            side: side.clone(),
            file_name: format!("applied-{side}.yaml"),
            sha256: sha256_hex(text.as_bytes()),
            text: text.into_bytes(),
            signature,
        })
    }

    /// Mark the orders the server applied in a step's orders index, so that
    /// the archive, the audit and the report say so.
    pub(super) fn mark_applied(
        &self,
        game: &str,
        step: u32,
        inputs: &mut DiceInputs,
        orders: &BTreeMap<SideId, OrdersRow>,
    ) -> anyhow::Result<()> {
        let applied = self.store.applied_orders(game, step)?;
        if applied.is_empty() {
            return Ok(());
        }
        for e in &mut inputs.index {
            let side = SideId::new(e.side.as_str());
            if let (Some(a), Some(o)) = (applied.get(&side), orders.get(&side))
                && a.seq == o.seq
            {
                e.applied = Some(a.note.clone());
            }
        }
        Ok(())
    }
}

/// What the policy will do, for a warning.
fn policy_words(p: MissedPolicy) -> &'static str {
    match p {
        MissedPolicy::Default => {
            "the rules' default orders are applied for you (where the rules have none, the game waits for the game master)."
        }
        MissedPolicy::Standing => {
            "your latest earlier orders are applied again if they still fit, else the rules' default orders."
        }
        MissedPolicy::Wait => "the game waits and the game master is told.",
    }
}

/// An orders block on one line, for the report: `round: {command: pass}`.
fn flow(v: &serde_yaml::Value) -> String {
    use serde_yaml::Value;
    match v {
        Value::Mapping(m) => m
            .iter()
            .map(|(k, v)| {
                let inner = match v {
                    Value::Mapping(_) => format!("{{{}}}", flow(v)),
                    _ => flow(v),
                };
                format!("{}: {inner}", flow(k))
            })
            .collect::<Vec<_>>()
            .join(", "),
        Value::Sequence(s) => format!("[{}]", s.iter().map(flow).collect::<Vec<_>>().join(", ")),
        Value::String(s) => s.clone(),
        Value::Null => "~".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::Tagged(t) => flow(&t.value),
    }
}

/// A short plain mail from the club (a warning, a notice to the game master).
#[allow(clippy::too_many_arguments)]
fn life_mail(
    mail: &MailSettings,
    game: &str,
    step: u32,
    reader: &str,
    id_kind: &str,
    kind: &str,
    to: &str,
    subject: String,
    text: String,
    now: i64,
) -> anyhow::Result<OutboxRow> {
    let message_id = compose::message_id(&mail.domain, game, step, reader, id_kind);
    let bytes = compose::reply(&ReplyMail {
        from: &mail.from,
        to: &Party {
            name: None,
            email: to.into(),
        },
        subject,
        message_id: message_id.clone(),
        in_reply_to: None,
        thread: Some(Thread {
            root: compose::thread_root(&mail.domain, game),
            parent: None,
        }),
        text,
        date: Some(crate::daemon::serve::rfc2822(now)),
    })?;
    Ok(OutboxRow {
        game: Some(game.into()),
        step: Some(step),
        reader: Some(reader.into()),
        ..OutboxRow::queued(message_id, kind, &mail.from.email, to, bytes, now)
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn orders_read_on_one_line() {
        let v: serde_yaml::Value =
            crate::yaml::from_str("round:\n  command: pass\n  discard: [a, b]\n").unwrap();
        assert_eq!(super::flow(&v), "round: {command: pass, discard: [a, b]}");
    }
}

//! Activation: a unit rolls up to three activation dice (its coloured
//! damage dice first), one action for each die at or above its quality; two
//! failures are a turnover. A 1 on a coloured die is a blunder. Then the
//! script for the number of successes is carried out as far as they pay.

use super::blunder;
use super::combat::{self, can_shoot};
use super::movement::{self, allowance_why, clamp_45, recoil_distance, travel, within_45};
use super::orders::{Action, Activation, AfterBlunder, Goal, Turnover};
use super::scenario::Arm;
use super::state::{Formation, State, Trace, TraceKind};
use super::words::{Said, event};
use crate::dice::Dice;
use crate::event::{Event, Facts};
use crate::geometry::Angle;
use crate::side::SideId;

/// What one activation came to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    /// The dice rolled, the coloured ones first.
    pub rolls: Vec<u32>,
    pub successes: u32,
    pub failures: u32,
    pub turnover: bool,
    pub blunder: Option<blunder::Blunder>,
    /// Whether the unit was activated (one that already had, or an unknown one, is not).
    pub activated: bool,
}

/// The dice and successes of an activation: `n` dice, the first
/// `coloured` of them coloured; the indexes of the dice in the log.
pub fn roll(dice: &mut Dice, unit: &str, n: u32) -> (Vec<u32>, Vec<usize>) {
    let mut rolls = Vec::new();
    let mut idx = Vec::new();
    for _ in 0..n {
        rolls.push(dice.d6(format!("activation: {unit}")));
        idx.push(dice.last_index().unwrap_or(0));
    }
    (rolls, idx)
}

fn refused(s: &State, i: usize, what: &str, why: impl Into<String>) -> Event {
    event(
        Said::Refused,
        Facts {
            unit: Some(s.units[i].refer()),
            mode: Some(what.into()),
            reason: Some(why.into()),
            ..Facts::default()
        },
        Vec::new(),
    )
}

/// Carry out one activation of `side`.
pub fn activate(
    s: &mut State,
    side: &SideId,
    a: &Activation,
    turnover_policy: Turnover,
    after_blunder: AfterBlunder,
    dice: &mut Dice,
) -> (Outcome, Vec<Event>) {
    let mut out = Vec::new();
    let mut res = Outcome::default();
    let Some(i) = s
        .index(&a.unit)
        .filter(|&i| s.units[i].placed() && &s.units[i].side == side)
    else {
        return (res, out);
    };
    if s.units[i].status.sits_out {
        out.push(refused(
            s,
            i,
            "activate",
            "it is petrified and sits out this turn (Critical Event Table 5); the rest of the turn goes on",
        ));
        return (res, out);
    }
    if s.units[i].activated {
        out.push(refused(
            s,
            i,
            "activate",
            "it has already activated this turn",
        ));
        return (res, out);
    }
    res.activated = true;
    s.units[i].activated = true;
    let u = s.units[i].clone();
    let mut n = a.dice.clamp(1, 3);
    if u.status.officer_killed {
        n = 1;
    }
    let coloured = u.disorder.min(n);
    let (mut rolls, mut idx) = roll(dice, &u.id, n);
    let q = u.troop.quality;
    let mut successes = rolls.iter().filter(|r| **r >= q).count() as u32;
    let mut failures = n - successes;
    let blundered = rolls[..coloured as usize].contains(&1);
    let notes = (0..n)
        .map(|k| if k < coloured { "coloured" } else { "white" }.to_string())
        .collect();
    let act_at = out.len();
    out.push(Event::public(""));
    let mut forced: Option<Action> = None;
    let mut forfeit = false;
    let mut moved_by_blunder = false;
    if blundered {
        let (b, bi) = blunder::roll(dice, &u.id);
        res.blunder = Some(b);
        out.push(event(
            Said::Blunder,
            Facts {
                unit: Some(u.refer()),
                rolls: vec![b.face()],
                result: Some(b.word().into()),
                ..Facts::default()
            },
            vec![bi],
        ));
        match b {
            blunder::Blunder::Garbled => {
                if let Some(k) = rolls.iter().position(|r| *r >= q) {
                    let r = dice.d6(format!(
                        "garbled orders: {} rolls a success again, needs {q}+",
                        u.id
                    ));
                    let ri = dice.last_index().unwrap_or(0);
                    // The activation then cites the die that counts.
                    rolls[k] = r;
                    idx[k] = ri;
                    let ok = r >= q;
                    if !ok {
                        successes -= 1;
                        failures += 1;
                    }
                    out.push(event(
                        Said::Reroll,
                        Facts {
                            unit: Some(u.refer()),
                            rolls: vec![r],
                            needed: Some(q),
                            result: Some(
                                if ok {
                                    "still a success"
                                } else {
                                    "now a failure"
                                }
                                .into(),
                            ),
                            ..Facts::default()
                        },
                        vec![ri],
                    ));
                }
            }
            blunder::Blunder::Hesitation => forfeit = true,
            blunder::Blunder::Forward | blunder::Blunder::FallBack => {
                out.extend(blunder::lurch(s, i, b, dice));
                moved_by_blunder = true;
            }
            blunder::Blunder::Charge => {
                forced = blunder::charge_target(s, i).map(|t| Action::Move(Goal::Toward(t)))
            }
            blunder::Blunder::Fire => forced = blunder::fire_target(s, i).map(Action::Fire),
        }
    }
    res.turnover = failures >= 2;
    res.successes = successes;
    res.failures = failures;
    res.rolls = rolls.clone();
    out[act_at] = event(
        Said::Activation,
        Facts {
            unit: Some(u.refer()),
            count: Some(n),
            needed: Some(q),
            rolls: rolls.clone(),
            notes,
            hits: Some(successes),
            result: res.turnover.then(|| "turnover".to_string()),
            ..Facts::default()
        },
        idx,
    );
    if !s.units[i].placed() {
        return (res, out);
    }
    // Rout: only three successes stop it, and they are all it does.
    if s.units[i].status.rout {
        if n == 3 && successes == 3 {
            s.units[i].status.rout = false;
            out.push(event(
                Said::Rallied,
                Facts {
                    unit: Some(u.refer()),
                    ..Facts::default()
                },
                Vec::new(),
            ));
        }
        return (res, out);
    }
    if forfeit || (res.turnover && turnover_policy == Turnover::Hold) {
        return (res, out);
    }
    let mut left = successes;
    if left > 0 && s.units[i].status.broken_line {
        s.units[i].status.broken_line = false;
        left -= 1;
        out.push(event(
            Said::Reform,
            Facts {
                unit: Some(u.refer()),
                ..Facts::default()
            },
            Vec::new(),
        ));
    }
    if let Some(f) = forced
        && left > 0
    {
        match act(s, i, &f, dice) {
            Ok(ev) => {
                left -= 1;
                out.extend(ev);
                moved_by_blunder = true;
            }
            Err(r) => out.push(unspent(s, i, r)),
        }
    }
    if moved_by_blunder && after_blunder == AfterBlunder::Stop {
        return (res, out);
    }
    let mut free_turn = s.units[i].formation == Formation::Column;
    for action in a.script(successes) {
        if !s.units[i].placed() {
            break;
        }
        let mut cost = action.cost();
        if let Action::Pivot(_) = action
            && free_turn
        {
            cost = cost.saturating_sub(1);
            free_turn = false;
        }
        if cost > left {
            out.push(refused(
                s,
                i,
                action.name(),
                format!(
                    "it costs {cost} and {} left",
                    if left == 1 {
                        "1 success is".to_string()
                    } else {
                        format!("{left} successes are")
                    }
                ),
            ));
            break;
        }
        match act(s, i, action, dice) {
            Ok(ev) => {
                left -= cost;
                out.extend(ev);
            }
            Err(r) => {
                // Nothing was done: the successes stay for the rest of
                // the script, and a free turn stays free.
                if let Action::Pivot(_) = action
                    && cost < action.cost()
                {
                    free_turn = true;
                }
                out.push(unspent(s, i, r));
            }
        }
    }
    (res, out)
}

/// The event of an action refused when its turn came, which spent nothing.
fn unspent(s: &State, i: usize, r: Refusal) -> Event {
    refused(s, i, &r.what, format!("{}; no success spent", r.why))
}

/// An action that turned out impossible when its turn came: what it was
/// and why. It spends no success.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    pub what: String,
    pub why: String,
}

fn no(what: &str, why: impl Into<String>) -> Refusal {
    Refusal {
        what: what.into(),
        why: why.into(),
    }
}

/// Carry out one paid action of unit `i`: what it did, or why it could
/// not be done (out of range or arc, a square moving, limbered guns
/// firing, ...), in which case nothing changed.
pub fn act(
    s: &mut State,
    i: usize,
    action: &Action,
    dice: &mut Dice,
) -> Result<Vec<Event>, Refusal> {
    let u = s.units[i].clone();
    let engaged = !s.contacts(&u).is_empty();
    let mut out = Vec::new();
    if engaged
        && !matches!(
            action,
            Action::Seize(_) | Action::Recoil | Action::Formation(_) | Action::Hold
        )
    {
        return Err(no(
            action.name(),
            "it is in melee: it may seize the initiative, recoil or change formation",
        ));
    }
    match action {
        Action::Hold => {}
        Action::Move(g) => out.extend(go(s, i, g, 0.0, action.name(), false, dice)?),
        Action::DoubleTime(g) => {
            let short = s.short();
            out.extend(go(s, i, g, short, action.name(), false, dice)?)
        }
        Action::Pivot(d) => {
            if u.formation == Formation::Square {
                return Err(no("pivot", "a square does not pivot"));
            } else if let Err(why) = movement::pivot(s, i, *d) {
                return Err(no("pivot", why));
            } else {
                out.push(event(
                    Said::Pivot,
                    Facts {
                        unit: Some(u.refer()),
                        facing: Some(s.units[i].facing.normalized().degrees()),
                        count: Some(action.cost()),
                        ..Facts::default()
                    },
                    Vec::new(),
                ));
            }
        }
        Action::Formation(f) => {
            if u.arm() != Arm::Infantry || !f.fits(u.arm()) {
                return Err(no(
                    "change formation",
                    "only infantry change between line, column and square",
                ));
            }
            out.extend(reform(s, i, *f)?);
        }
        Action::Limber | Action::Unlimber => {
            let f = if matches!(action, Action::Limber) {
                Formation::Limbered
            } else {
                Formation::Unlimbered
            };
            if u.arm() != Arm::Artillery {
                return Err(no(action.name(), "only artillery limbers"));
            }
            out.extend(reform(s, i, f)?);
        }
        Action::Canister => {
            if u.arm() != Arm::Artillery {
                return Err(no("load canister", "only artillery loads canister"));
            } else {
                s.units[i].canister = true;
                out.push(event(
                    Said::Formation,
                    Facts {
                        unit: Some(u.refer()),
                        mode: Some("loads canister".into()),
                        ..Facts::default()
                    },
                    Vec::new(),
                ));
            }
        }
        Action::Fire(t) | Action::Aimed(t) => {
            let aimed = matches!(action, Action::Aimed(_));
            let ti = s
                .index(t)
                .ok_or_else(|| no(action.name(), format!("no unit {t}")))?;
            let cm = can_shoot(s, i, ti).map_err(|why| no(action.name(), why))?;
            out.extend(combat::shoot(s, i, ti, cm, aimed, dice));
        }
        Action::Seize(t) => {
            let Some(ti) = s
                .index(t)
                .filter(|&ti| s.units[ti].placed() && s.units[ti].side != u.side)
            else {
                return Err(no(
                    "seize the initiative",
                    format!("{t} is not an enemy on the table"),
                ));
            };
            if u.arm() == Arm::Artillery {
                return Err(no("seize the initiative", "artillery cannot charge"));
            }
            if s.contacts(&u).iter().any(|e| e.id == *t) {
                out.extend(combat::melee(s, i, ti, false, true, dice));
            } else {
                out.extend(go(
                    s,
                    i,
                    &Goal::Toward(t.clone()),
                    0.0,
                    "closes",
                    true,
                    dice,
                )?);
            }
        }
        Action::Recoil => {
            let foes: Vec<usize> = s
                .contacts(&u)
                .iter()
                .filter_map(|e| s.index(&e.id))
                .collect();
            let Some(&foe) = foes.first() else {
                return Err(no("recoil", "it is not in melee"));
            };
            let Some(cm) = recoil_distance(s, &u) else {
                return Err(no("recoil", "artillery cannot recoil from melee"));
            };
            out.extend(combat::recoil(s, i, Some(foe), cm, "recoils from melee"));
            // And faces the unit it was engaged with.
            if let Some(me) = s.units[i].at
                && let Some(face) = crate::geometry::Angle::of_vector(s.centre(&s.units[foe]) - me)
            {
                let turn = s.units[i].facing.difference_to(face);
                // Hemmed in, it recoils without turning.
                let _ = movement::pivot(s, i, turn);
            }
        }
    }
    Ok(out)
}

fn reform(s: &mut State, i: usize, f: Formation) -> Result<Vec<Event>, Refusal> {
    let u = s.units[i].clone();
    let at = u.at.unwrap_or_default();
    if let Some(why) = movement::misfit(s, i, at, u.facing, f) {
        return Err(no("change formation", format!("there is no room: {why}")));
    }
    s.units[i].formation = f;
    Ok(vec![event(
        Said::Formation,
        Facts {
            unit: Some(u.refer()),
            mode: Some(format!("forms {}", f.name())),
            ..Facts::default()
        },
        Vec::new(),
    )])
}

/// A move (or double time, or a seizing unit closing): where it goes,
/// and a melee when it meets an enemy, the mover charging.
fn go(
    s: &mut State,
    i: usize,
    g: &Goal,
    extra: f64,
    what: &str,
    seize: bool,
    dice: &mut Dice,
) -> Result<Vec<Event>, Refusal> {
    let u = s.units[i].clone();
    let at = u.at.unwrap_or_default();
    let (base, why) = allowance_why(s, &u);
    if base <= 0.0 {
        return Err(no(what, why.join(", ")));
    }
    let budget = base + extra;
    let shortened = if why.is_empty() {
        String::new()
    } else {
        format!(" ({})", why.join(", "))
    };
    // What the order asked for and could not have, said beside the move.
    let mut dropped = None;
    let (dir, want) = match g {
        Goal::To(p) => {
            let v = *p - at;
            if !within_45(u.facing, v) {
                let off = Angle::of_vector(v).map_or(0.0, |a| u.facing.difference_to(a).abs());
                return Err(no(
                    what,
                    format!(
                        "the point ({:.1}, {:.1}) is {off:.0} degrees off its front, more than 45: the move is dropped",
                        p.x, p.y
                    ),
                ));
            }
            if v.length() > budget + 0.05 {
                dropped = Some(format!(
                    "its destination ({:.1}, {:.1}) was {:.1} cm away, beyond its move of {budget:.1} cm{shortened}: the destination was dropped",
                    p.x,
                    p.y,
                    v.length()
                ));
            }
            (v, v.length().min(budget))
        }
        Goal::Ahead(d) => (u.facing.unit_vector(), d.max(0.0).min(budget)),
        Goal::Toward(t) => {
            let Some(e) = s.unit(t).filter(|e| e.placed()) else {
                return Err(no(what, format!("{t} is not on the table")));
            };
            let Some(dir) = clamp_45(u.facing, s.centre(e) - at) else {
                return Err(no(what, "it stands on its target"));
            };
            (dir, budget)
        }
    };
    let t = travel(s, i, dir, want);
    let mut said: Vec<String> = Vec::new();
    if let Some(e) = t.contact.as_ref().and_then(|c| s.unit(c)) {
        said.push(format!("charges {}", e.name));
    } else {
        if t.cm < want - 0.05 {
            let by = t
                .stopped
                .clone()
                .or_else(|| {
                    t.slowed
                        .as_ref()
                        .map(|f| format!("{f} (difficult ground, double cost)"))
                })
                .unwrap_or_else(|| "the ground".into());
            said.push(format!(
                "cut short by {by}: {:.1} cm of {want:.1} cm, {:.1} cm short",
                t.cm,
                want - t.cm
            ));
        } else if let Some(f) = &t.slowed {
            said.push(format!("{f} cost double"));
        }
        if let Goal::Toward(target) = g
            && let (Some(me), Some(e)) = (s.unit(&u.id), s.unit(target))
        {
            said.push(format!(
                "{} not reached: {:.1} cm still between them (its move is {budget:.1} cm{shortened})",
                e.name,
                s.gap(me, e)
            ));
        }
    }
    said.extend(dropped);
    let mut out = vec![event(
        Said::Move,
        Facts {
            unit: Some(u.refer()),
            from: Some(t.from),
            to: Some(t.to),
            distance: Some(t.cm / s.short()),
            mode: Some(match what {
                "double time" => "moves at the double".into(),
                "closes" => "closes with the enemy".into(),
                _ => "moves".into(),
            }),
            result: (!said.is_empty()).then(|| said.join("; ")),
            ..Facts::default()
        },
        Vec::new(),
    )];
    s.traces.push(Trace {
        side: u.side.clone(),
        kind: if t.contact.is_some() {
            TraceKind::Charge
        } else {
            TraceKind::Move
        },
        points: vec![t.from, t.to],
    });
    if let Some(c) = t.contact
        && let Some(ci) = s.index(&c)
    {
        if u.arm() == Arm::Artillery {
            // Artillery cannot charge: it stops in contact and fights only
            // when the enemy's melee comes.
            return Ok(out);
        }
        out.extend(combat::melee(s, i, ci, true, seize, dice));
    }
    Ok(out)
}

//! Checking orders on receipt: what could never be carried out is refused
//! with the source's rule it breaks; what the dice may still change (a
//! target out of range after a blunder) is left to the turn.

use super::orders::{Action, Activation, Deployment, Goal, Orders, TurnOrders};
use super::scenario::Arm;
use super::setup::{count, placer, refuse};
use super::state::{Phase, State};
use crate::ruleset::{Violation, did_you_mean};
use crate::side::SideId;
use std::collections::BTreeSet;

pub const SEQUENCE: &str =
    "Activation: a player's turn is theirs alone; the other side sends nothing";
pub const SETUP: &str =
    "Game Setup: attacker half, defender all, attacker the rest, within 1L of their end";
pub const OWN: &str = "Activation: activate only your own units on the table";
pub const ONCE: &str = "Activation: a turn ends when every unit has activated (each once)";
pub const DICE: &str = "Activation: roll up to three activation dice";
pub const SINGLY: &str =
    "Critical Event Table 2-3, Officer Killed: it can only be activated singly";
pub const TARGET: &str =
    "Musketry/Bombardment Attacks: shoot at an enemy unit with a ranged attack";
pub const MELEE: &str = "Actions: seize the initiative closes with an enemy";
pub const ARM: &str =
    "Actions: change formation is for infantry; limber, unlimber and canister for artillery";
pub const PIVOT: &str = "Movement and Turning: pivot 45 degrees per action";
pub const MOVE: &str =
    "Movement and Turning: move forward at up to 45 degrees without changing facing";

fn v(path: &[&str], unit: Option<&str>, rule: &str, msg: impl Into<String>) -> Violation {
    Violation::new(path, unit, rule, msg)
}

pub fn check(s: &State, side: &SideId, o: &Orders) -> Vec<Violation> {
    match (&s.phase, o) {
        (Phase::Over(x), _) => vec![v(
            &[],
            None,
            SEQUENCE,
            format!("the game is over ({})", x.reason),
        )],
        (Phase::Deploy { placement }, Orders::Deploy(d)) if &placer(s, *placement) == side => {
            deployment(s, side, *placement, d)
        }
        (Phase::Deploy { placement }, _) if &placer(s, *placement) == side => vec![v(
            &[],
            None,
            SETUP,
            "this step is a placement: send `deploy:` orders",
        )],
        (Phase::Deploy { .. }, _) => {
            vec![v(&[], None, SETUP, "the other side is placing its troops")]
        }
        (Phase::Turn { side: t, .. } | Phase::Consult { side: t, .. }, Orders::Turn(o))
            if t == side =>
        {
            turn(s, side, o)
        }
        (Phase::Turn { side: t, .. } | Phase::Consult { side: t, .. }, _) if t == side => {
            vec![v(
                &[],
                None,
                SEQUENCE,
                "this is your turn: send `turn:` orders",
            )]
        }
        _ => vec![v(&[], None, SEQUENCE, "it is the other side's turn")],
    }
}

fn deployment(s: &State, side: &SideId, placement: u32, d: &Deployment) -> Vec<Violation> {
    let mut out = Vec::new();
    let (least, most) = count(s, placement);
    let n = d.units.len();
    if n < least || n > most {
        let want = if least == most {
            format!("{least}")
        } else {
            format!("{least} or {most}")
        };
        out.push(v(
            &["deploy", "units"],
            None,
            SETUP,
            format!(
                "placement {placement} puts down {want} units ({}), not {n}",
                if placement == 1 {
                    "half of your force"
                } else {
                    "all your units not yet placed"
                }
            ),
        ));
    }
    let mut seen = BTreeSet::new();
    for (i, p) in d.units.iter().enumerate() {
        let i = i.to_string();
        let path = ["deploy", "units", i.as_str()];
        if !seen.insert(p.unit.clone()) {
            out.push(v(&path, Some(&p.unit), SETUP, "this unit is placed twice"));
            continue;
        }
        let known = s
            .units
            .iter()
            .filter(|u| &u.side == side)
            .map(|u| u.id.as_str());
        if s.unit(&p.unit).is_none() {
            out.push(v(
                &path,
                Some(&p.unit),
                SETUP,
                format!("{} is not a unit{}", p.unit, did_you_mean(&p.unit, known)),
            ));
            continue;
        }
        if let Some(why) = refuse(s, side, p) {
            out.push(v(&path, Some(&p.unit), SETUP, why));
        }
    }
    // Two placements of this order over each other.
    for (a, pa) in d.units.iter().enumerate() {
        for pb in d.units.iter().skip(a + 1) {
            let (Some(ua), Some(ub)) = (s.unit(&pa.unit), s.unit(&pb.unit)) else {
                continue;
            };
            let ba = s.bases_as(
                ua,
                pa.at,
                pa.facing.unwrap_or_else(|| s.forward(side)),
                pa.formation.unwrap_or(ua.formation),
            );
            let bb = s.bases_as(
                ub,
                pb.at,
                pb.facing.unwrap_or_else(|| s.forward(side)),
                pb.formation.unwrap_or(ub.formation),
            );
            if crate::geometry::overlaps(&ba, &bb) {
                let i = (a).to_string();
                out.push(v(
                    &["deploy", "units", i.as_str()],
                    Some(&pa.unit),
                    SETUP,
                    format!("it overlaps {}", pb.unit),
                ));
            }
        }
    }
    out
}

fn turn(s: &State, side: &SideId, t: &TurnOrders) -> Vec<Violation> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for (k, a) in t.activations.iter().enumerate() {
        let k = k.to_string();
        let path = ["turn", "activations", k.as_str()];
        let Some(u) = s.unit(&a.unit).filter(|u| u.placed() && &u.side == side) else {
            let known = s.live(side).map(|u| u.id.as_str());
            out.push(v(
                &path,
                Some(&a.unit),
                OWN,
                format!(
                    "{} is not one of your units on the table{}",
                    a.unit,
                    did_you_mean(&a.unit, known)
                ),
            ));
            continue;
        };
        // A petrified unit's entry is not refused here: the turn refuses
        // that entry alone, saying why, and goes on with the others.
        if !seen.insert(a.unit.clone()) || (u.activated && !u.status.sits_out) {
            out.push(v(
                &path,
                Some(&a.unit),
                ONCE,
                "this unit has already activated this turn",
            ));
        }
        if !(1..=3).contains(&a.dice) {
            let dice = [path[0], path[1], path[2], "dice"];
            out.push(v(
                &dice,
                Some(&a.unit),
                DICE,
                format!("1 to 3 dice, not {}", a.dice),
            ));
        } else if a.dice > 1 && u.status.officer_killed {
            let dice = [path[0], path[1], path[2], "dice"];
            out.push(v(
                &dice,
                Some(&a.unit),
                SINGLY,
                "its officer is dead: one die only",
            ));
        }
        out.extend(scripts(s, side, a, u.arm(), &path));
    }
    out
}

fn scripts(s: &State, side: &SideId, a: &Activation, arm: Arm, path: &[&str]) -> Vec<Violation> {
    let mut out = Vec::new();
    let lists = [
        ("actions", Some(&a.actions)),
        ("one", a.one.as_ref()),
        ("two", a.two.as_ref()),
        ("three", a.three.as_ref()),
    ];
    for (name, list) in lists {
        let Some(list) = list else { continue };
        for (j, act) in list.iter().enumerate() {
            let j = j.to_string();
            let mut p: Vec<&str> = path.to_vec();
            p.push(name);
            p.push(j.as_str());
            let unit = Some(a.unit.as_str());
            let enemy = |t: &str| s.unit(t).is_some_and(|e| e.placed() && &e.side != side);
            match act {
                Action::Fire(t) | Action::Aimed(t) => {
                    if !enemy(t) {
                        out.push(v(
                            &p,
                            unit,
                            TARGET,
                            format!("{t} is not an enemy unit on the table"),
                        ));
                    } else if s.unit(&a.unit).is_some_and(|u| u.troop.range == 0) {
                        out.push(v(&p, unit, TARGET, "this unit has no ranged attack"));
                    }
                }
                Action::Seize(t) => {
                    if !enemy(t) {
                        out.push(v(
                            &p,
                            unit,
                            MELEE,
                            format!("{t} is not an enemy unit on the table"),
                        ));
                    } else if arm == Arm::Artillery {
                        out.push(v(&p, unit, MELEE, "artillery cannot charge"));
                    }
                }
                Action::Move(g) | Action::DoubleTime(g) => match g {
                    Goal::To(pt) if !pt.is_finite() => {
                        out.push(v(&p, unit, MOVE, "the point is not a pair of numbers"))
                    }
                    Goal::Ahead(d) if !d.is_finite() || *d < 0.0 => out.push(v(
                        &p,
                        unit,
                        MOVE,
                        "a distance ahead is a number of cm, 0 or more",
                    )),
                    Goal::Toward(t) if s.unit(t).is_none_or(|x| !x.placed()) => {
                        out.push(v(&p, unit, MOVE, format!("{t} is not a unit on the table")))
                    }
                    _ => {}
                },
                Action::Pivot(d) => {
                    if !d.is_finite() || d.abs() > 180.0 {
                        out.push(v(&p, unit, PIVOT, "a pivot is -180 to 180 degrees"));
                    }
                }
                Action::Formation(f) => {
                    if arm != Arm::Infantry || !f.fits(arm) {
                        out.push(v(
                            &p,
                            unit,
                            ARM,
                            "only infantry change formation, to line, column or square",
                        ));
                    }
                }
                Action::Limber | Action::Unlimber | Action::Canister => {
                    if arm != Arm::Artillery {
                        out.push(v(&p, unit, ARM, "only artillery does this"));
                    }
                }
                Action::Recoil => {
                    if arm == Arm::Artillery {
                        out.push(v(
                            &p,
                            unit,
                            "Artillery: it cannot recoil if engaged in melee",
                            "artillery cannot recoil",
                        ));
                    }
                }
                Action::Hold => {}
            }
        }
    }
    out
}

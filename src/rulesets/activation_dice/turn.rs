//! A side's turn: activations one at a time until a turnover, until every
//! unit has activated, or until the orders end it; consulted, the turn
//! pauses after each activation. At its end the melees that stood when it
//! began are fought (even after a turnover), routing units run, and the
//! house victory terms are looked at.

use super::activation::activate;
use super::combat;
use super::movement::{allowance, travel};
use super::orders::TurnOrders;
use super::state::{Phase, State, Trace, TraceKind, pair};
use super::words::{Said, event};
use crate::dice::Dice;
use crate::event::{Event, Facts};
use crate::ruleset::Outcome;
use crate::side::SideId;

/// Start `side`'s turn: nothing activated yet, petrified units sit it
/// out (and are petrified no longer once it is over), the standing melees
/// noted.
pub fn begin(s: &mut State, turn: u32, side: &SideId) -> Vec<Event> {
    let mut out = vec![event(
        Said::TurnBegins,
        Facts {
            side: Some(side.clone()),
            side_name: Some(s.side_name(side)),
            round: Some(turn),
            ..Facts::default()
        },
        Vec::new(),
    )];
    s.melees = s.melee_pairs();
    s.fought.clear();
    for u in s.units.iter_mut() {
        u.activated = false;
        // The other side's last turn, sat out by its petrified units, is over.
        u.status.sits_out = false;
        if u.placed() && &u.side == side && u.status.petrified {
            u.status.petrified = false;
            u.status.sits_out = true;
            u.activated = true;
            out.push(event(
                Said::Refused,
                Facts {
                    unit: Some(u.refer()),
                    mode: Some("activate".into()),
                    reason: Some("it is petrified and sits out this turn".into()),
                    ..Facts::default()
                },
                Vec::new(),
            ));
        }
    }
    out
}

/// Whether every live unit of `side` has activated (or sat out).
fn all_done(s: &State, side: &SideId) -> bool {
    s.live(side).all(|u| u.activated)
}

/// Resolve a step of `side`'s turn `turn` (begun when it was entered).
pub fn resolve(
    s: &State,
    turn: u32,
    side: &SideId,
    o: &TurnOrders,
    dice: &mut Dice,
) -> (State, Vec<Event>) {
    let mut s = s.clone();
    s.traces.clear();
    let mut out = Vec::new();
    let list: &[_] = if o.consult {
        &o.activations[..o.activations.len().min(1)]
    } else {
        &o.activations
    };
    let mut end: Option<&str> = None;
    if list.is_empty() {
        end = Some("the side ends it");
    }
    for a in list {
        let (res, ev) = activate(&mut s, side, a, o.turnover, o.after_blunder, dice);
        out.extend(ev);
        if res.turnover {
            end = Some("a turnover");
            break;
        }
        if all_done(&s, side) {
            end = Some("every unit has activated");
            break;
        }
    }
    if end.is_none() && all_done(&s, side) {
        end = Some("every unit has activated");
    }
    if end.is_none() && !o.consult {
        end = Some("the orders are done");
    }
    match end {
        None => {
            out.push(event(
                Said::Consulted,
                Facts {
                    side: Some(side.clone()),
                    side_name: Some(s.side_name(side)),
                    ..Facts::default()
                },
                Vec::new(),
            ));
            s.phase = Phase::Consult {
                turn,
                side: side.clone(),
            };
        }
        Some(why) => out.extend(finish(&mut s, turn, side, why, dice)),
    }
    (s, out)
}

/// The end of `side`'s turn.
pub fn finish(s: &mut State, turn: u32, side: &SideId, why: &str, dice: &mut Dice) -> Vec<Event> {
    let mut out = vec![event(
        Said::TurnEnds,
        Facts {
            side: Some(side.clone()),
            side_name: Some(s.side_name(side)),
            reason: Some(why.into()),
            round: Some(turn),
            ..Facts::default()
        },
        Vec::new(),
    )];
    // Existing melees are fought even after a turnover; the side whose
    // turn it is attacks.
    for (a, b) in s.melees.clone() {
        if s.fought.contains(&pair(&a, &b)) {
            continue;
        }
        let (Some(ia), Some(ib)) = (s.index(&a), s.index(&b)) else {
            continue;
        };
        let (ua, ub) = (&s.units[ia], &s.units[ib]);
        if !ua.placed() || !ub.placed() || s.gap(ua, ub) > super::state::CONTACT {
            continue;
        }
        let (att, def) = if &ua.side == side { (ia, ib) } else { (ib, ia) };
        out.extend(combat::melee(s, att, def, false, false, dice));
    }
    // Routing units of the side run for their own edge.
    for i in 0..s.units.len() {
        let u = s.units[i].clone();
        if !u.placed() || &u.side != side || !u.status.rout {
            continue;
        }
        out.extend(rout_move(s, i));
    }
    let next = s.other(side);
    let next_turn = if Some(&next) == s.first.as_ref() {
        turn + 1
    } else {
        turn
    };
    if let Some(o) = victory(s, next_turn) {
        out.push(event(
            Said::Outcome,
            Facts {
                side: o.winner.clone(),
                reason: Some(o.reason.clone()),
                ..Facts::default()
            },
            Vec::new(),
        ));
        s.phase = Phase::Over(o);
        return out;
    }
    s.phase = Phase::Turn {
        turn: next_turn,
        side: next.clone(),
    };
    // The next turn begins as it is entered, so that the map and the
    // template show it.
    out.extend(begin(s, next_turn, &next));
    out
}

/// A routing unit turns its back and moves its full move toward its own
/// edge (house rule: its speed as a column would move); off the table it
/// is removed.
pub fn rout_move(s: &mut State, i: usize) -> Vec<Event> {
    let u = s.units[i].clone();
    let home = s.forward(&u.side).turned(180.0);
    s.units[i].facing = home;
    if u.formation == super::state::Formation::Square
        || u.formation == super::state::Formation::Line
    {
        s.units[i].formation = super::state::Formation::Column;
    }
    if u.formation == super::state::Formation::Unlimbered {
        s.units[i].formation = super::state::Formation::Limbered;
    }
    let cm = allowance(s, &s.units[i].clone()).max(s.short());
    let t = travel(s, i, home.unit_vector(), cm);
    s.traces.push(Trace {
        side: u.side.clone(),
        kind: TraceKind::Retreat,
        points: vec![t.from, t.to],
    });
    let off = t.stopped.as_deref() == Some("the table's edge") && t.cm < cm - 1e-6;
    let mut out = vec![event(
        Said::RoutMove,
        Facts {
            unit: Some(u.refer()),
            from: Some(t.from),
            to: Some(t.to),
            distance: Some(t.cm / s.short()),
            result: off.then(|| "it reaches its edge".to_string()),
            ..Facts::default()
        },
        Vec::new(),
    )];
    if off {
        out.extend(combat::remove(s, i, combat::ROUTED_OFF));
    }
    out
}

/// House rule: a side that has lost `break_at` units loses (both: a
/// draw); when `turn` is past the last, fewer losses win.
pub fn victory(s: &State, turn: u32) -> Option<Outcome> {
    let sides: Vec<SideId> = s.scenario.sides.iter().map(|x| x.id.clone()).collect();
    let v = s.scenario.victory;
    let lost: Vec<u32> = sides
        .iter()
        .map(|x| {
            s.lost(x).max(if s.live(x).next().is_none() {
                v.break_at
            } else {
                0
            })
        })
        .collect();
    let broken: Vec<bool> = lost.iter().map(|l| *l >= v.break_at).collect();
    let name = |k: usize| s.side_name(&sides[k]);
    match (broken[0], broken[1]) {
        (true, true) => {
            return Some(Outcome {
                winner: None,
                reason: format!("both sides broke ({} units lost each or more)", v.break_at),
            });
        }
        (true, false) | (false, true) => {
            let (lose, win) = if broken[0] { (0, 1) } else { (1, 0) };
            return Some(Outcome {
                winner: Some(sides[win].clone()),
                reason: format!(
                    "{} lost {} and {}",
                    crate::words::subject_verb(&name(lose), "has", "have"),
                    crate::words::count(lost[lose] as i64, "unit", "units"),
                    if crate::words::is_plural(&name(lose)) {
                        "break"
                    } else {
                        "breaks"
                    }
                ),
            });
        }
        _ => {}
    }
    if turn > v.turns {
        let o = match lost[0].cmp(&lost[1]) {
            std::cmp::Ordering::Less => Some(0),
            std::cmp::Ordering::Greater => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        return Some(Outcome {
            winner: o.map(|k| sides[k].clone()),
            reason: match o {
                Some(k) => format!(
                    "after {} turns {} lost fewer units ({} to {})",
                    v.turns,
                    crate::words::subject_verb(&name(k), "has", "have"),
                    lost[k],
                    lost[1 - k]
                ),
                None => format!(
                    "after {} turns both sides have lost {} units",
                    v.turns, lost[0]
                ),
            },
        });
    }
    None
}

//! The two fire phases: the non-phasing side's defensive fire (form square
//! or fire, not both) and the phasing side's advancing fire.

use super::fire::{COMBINE, barrier, cannot_combine, fire, max_range};
use super::formation::Formation;
use super::orders::{Decision, FireOrder, Reactions, SquarePolicy};
use super::state::{State, Unit};
use super::tables::Arm;
use super::words::{Said, event};
use crate::dice::Dice;
use crate::event::{Event, Facts};
use crate::side::SideId;
use std::collections::BTreeSet;

/// Enemy cavalry this close (cm) makes infantry form square under the
/// default reaction: a light charge's reach.
pub const SQUARE_TRIGGER: f64 = 14.0;

const SQUARE_RULE: &str = "Defensive Fire Phase: form square if not contacted by cavalry";

/// Why unit `u` may not form square in defensive fire, if it may not:
/// only infantry, and not when contacted by cavalry.
pub fn cannot_square(s: &State, u: &Unit) -> Option<String> {
    if u.arm() != Arm::Infantry {
        return Some("only infantry form square".into());
    }
    if u.shaken() {
        return Some("a disordered unit cannot change formation".into());
    }
    if s.contacts(u).iter().any(|e| e.arm() == Arm::Cavalry) {
        return Some("it is contacted by cavalry: too late to form square".into());
    }
    None
}

/// What one unit does in defensive fire.
enum Choice {
    Square,
    Fire(String),
    Nothing,
}

/// The standing reactions' choice for unit `u`: square when cavalry is
/// near (by the policy), else fire at the nearest enemy it may.
fn standing(s: &State, u: &Unit, r: &Reactions, engaged: &[String]) -> Choice {
    let cav_near = s
        .near_ids(u, SQUARE_TRIGGER)
        .into_iter()
        .map(|i| &s.units[i])
        .filter(|e| e.live() && e.side != u.side)
        .any(|e| e.arm() == Arm::Cavalry && s.within(u, e, SQUARE_TRIGGER));
    if r.square == SquarePolicy::CavalryNear
        && u.formation != Formation::Square
        && cav_near
        && cannot_square(s, u).is_none()
    {
        return Choice::Square;
    }
    if r.hold_fire.contains(&u.id) {
        return Choice::Nothing;
    }
    // A unit farther than the longest range plus the tolerance is out of
    // range whatever `within` rounds.
    let reach = max_range(u) + crate::geometry::WITHIN_TOLERANCE;
    s.near_ids(u, reach)
        .into_iter()
        .map(|i| &s.units[i])
        .filter(|e| e.live() && e.side != u.side)
        .filter(|e| crate::geometry::limit::within(s.gap_at_least(u, e), max_range(u)))
        .filter(|e| barrier(s, u, e, engaged).is_none())
        .min_by(|a, b| s.gap(u, a).total_cmp(&s.gap(u, b)).then(a.id.cmp(&b.id)))
        .map_or(Choice::Nothing, |e| Choice::Fire(e.id.clone()))
}

/// The choice a decision made for unit `u`.
fn decided(u: &Unit, d: &Decision) -> Choice {
    if d.square.contains(&u.id) {
        return Choice::Square;
    }
    d.fire
        .iter()
        .find(|f| f.unit == u.id)
        .map_or(Choice::Nothing, |f| Choice::Fire(f.target.clone()))
}

/// The non-phasing `side`'s defensive fire, by its decision when it was
/// consulted (and decided), else by its standing reactions. `engaged`:
/// units in contact since before the turn (still in melee), which neither
/// fire nor are shot. Two batteries combine as the decision's fire entry or
/// the standing `combine:` pairs say: the second adds its fire mod to the
/// first's shot; a battery named to combine waits until the others have
/// fired, and fires on its own (as the standing reactions or the decision
/// say) only if its partner's shot did not take it.
pub fn defensive(
    s: &mut State,
    side: &SideId,
    engaged: &[String],
    decision: Option<&Decision>,
    dice: &mut Dice,
) -> Vec<Event> {
    let mut out = Vec::new();
    let r = s.reactions.get(side).cloned().unwrap_or_default();
    let decision = decision.filter(|d| !d.standing);
    let pairs: Vec<(String, String)> = match decision {
        Some(d) => d
            .fire
            .iter()
            .filter_map(|f| Some((f.unit.clone(), f.with.clone()?)))
            .collect(),
        None => r
            .combine
            .iter()
            .filter(|c| !r.hold_fire.contains(&c.with))
            .map(|c| (c.unit.clone(), c.with.clone()))
            .collect(),
    };
    let partner = |id: &str| pairs.iter().any(|(_, w)| w == id);
    let ours: Vec<usize> = (0..s.units.len())
        .filter(|&i| s.units[i].live() && &s.units[i].side == side)
        .filter(|&i| !engaged.contains(&s.units[i].id))
        .collect();
    let (later, first): (Vec<usize>, Vec<usize>) =
        ours.into_iter().partition(|&i| partner(&s.units[i].id));
    let mut fired: BTreeSet<String> = BTreeSet::new();
    for i in first.into_iter().chain(later) {
        if !s.units[i].live() || fired.contains(&s.units[i].id) {
            continue;
        }
        let u = s.units[i].clone();
        let choice = match decision {
            Some(d) => decided(&u, d),
            None => standing(s, &u, &r, engaged),
        };
        match choice {
            Choice::Square => {
                if let Some(why) = cannot_square(s, &u) {
                    out.push(refused(&u, None, format!("{SQUARE_RULE}: {why}")));
                    continue;
                }
                s.units[i].formation = Formation::Square;
                out.push(event(
                    Said::Square,
                    Facts {
                        unit: Some(u.refer()),
                        ..Facts::default()
                    },
                    Vec::new(),
                ));
            }
            Choice::Fire(t) => {
                let Some(t) = s.unit_index(&t) else {
                    continue;
                };
                if let Some(why) = barrier(s, &u, &s.units[t], engaged) {
                    let target = s.units[t].clone();
                    out.push(refused(&u, Some(&target), why));
                    continue;
                }
                let with = pairs
                    .iter()
                    .find(|(f, _)| *f == u.id)
                    .and_then(|(_, w)| s.unit_index(w))
                    .filter(|&w| !fired.contains(&s.units[w].id));
                let (w, events) = combine(s, i, t, with, engaged);
                out.extend(events);
                fired.insert(u.id.clone());
                if let Some(w) = w {
                    fired.insert(s.units[w].id.clone());
                }
                out.extend(fire(s, i, t, w, dice));
            }
            Choice::Nothing => {}
        }
    }
    out
}

/// The second battery `with` of `f`'s shot at `t`, if it may combine; if
/// not, `f` fires alone and the refusal says why.
fn combine(
    s: &State,
    f: usize,
    t: usize,
    with: Option<usize>,
    engaged: &[String],
) -> (Option<usize>, Vec<Event>) {
    let Some(w) = with else {
        return (None, Vec::new());
    };
    let (fu, wu, tu) = (&s.units[f], &s.units[w], &s.units[t]);
    match cannot_combine(s, fu, wu, tu, engaged) {
        None => (Some(w), Vec::new()),
        Some(why) => (
            None,
            vec![refused(wu, Some(tu), format!("{COMBINE}: {why}"))],
        ),
    }
}

fn refused(u: &Unit, target: Option<&Unit>, why: impl Into<String>) -> Event {
    event(
        Said::Refused,
        Facts {
            unit: Some(u.refer()),
            target: target.map(Unit::refer),
            reason: Some(why.into()),
            ..Facts::default()
        },
        Vec::new(),
    )
}

/// The phasing side's advancing fire: units not in contact with an enemy.
pub fn advancing(
    s: &mut State,
    side: &SideId,
    orders: &[FireOrder],
    engaged: &[String],
    dice: &mut Dice,
) -> Vec<Event> {
    let mut out = Vec::new();
    for o in orders {
        let (Some(f), Some(t)) = (s.unit_index(&o.unit), s.unit_index(&o.target)) else {
            continue;
        };
        let (fu, tu) = (s.units[f].clone(), s.units[t].clone());
        if &fu.side != side || tu.side == *side {
            continue;
        }
        let why = if !s.contacts(&fu).is_empty() {
            Some("Advancing fire: a unit in contact with an enemy cannot fire".to_string())
        } else {
            barrier(s, &fu, &tu, engaged)
        };
        if let Some(why) = why {
            out.push(refused(&fu, Some(&tu), why));
            continue;
        }
        let with = o.with.as_ref().and_then(|w| s.unit_index(w));
        let (with, events) = combine(s, f, t, with, engaged);
        out.extend(events);
        out.extend(fire(s, f, t, with, dice));
    }
    out
}

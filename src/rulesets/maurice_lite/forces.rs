//! Forces and their activation (chapters 1 and 4): who may act together, and
//! how far they stand from the CinC by a path that keeps clear of the enemy.

pub use super::activation::Paths;
use super::scenario::is_difficult;
use super::state::State;
use super::units::{FORCE_LINK, Unit};
use crate::geometry::{Base, Bounds, BoxIndex};
use crate::ruleset::Violation;
use crate::side::SideId;

pub mod rule {
    pub const FORCE: &str =
        "1. Forces: same arm, same formation, same terrain effect, each within 2 BW of another";
    pub const ACTIVATION: &str = "4. Activating a force: cards whose spans reach the force";
}

fn err(rule: &str, msg: impl Into<String>) -> Violation {
    Violation::new(&["force"], None, rule, msg)
}

/// Whether a unit stands (even partly) in difficult terrain.
pub fn in_difficult(state: &State, unit: &Unit) -> bool {
    let bases = unit.bases(&state.scenario.measure);
    state
        .scenario
        .terrain
        .iter()
        .any(|t| is_difficult(t) && t.touches_bases(&bases))
}

/// Check that `ids` make a legal force of `side`; returns the units.
pub fn check_force<'a>(
    state: &'a State,
    side: &SideId,
    ids: &[String],
) -> Result<Vec<&'a Unit>, Violation> {
    if ids.is_empty() {
        return Err(err(rule::FORCE, "name at least one unit in `force`"));
    }
    let mut units = Vec::new();
    let mut named = std::collections::BTreeSet::new();
    for id in ids {
        let u = state.unit(id).filter(|u| &u.side == side).ok_or_else(|| {
            Violation::new(
                &["force"],
                Some(id),
                rule::FORCE,
                format!(
                    "{id} is not a unit of this side{}",
                    state.unit_hint(id, Some(side))
                ),
            )
        })?;
        if !u.on_table() {
            return Err(Violation::new(
                &["force"],
                Some(id),
                rule::FORCE,
                format!("{} is broken or not on the table", u.short()),
            ));
        }
        if !named.insert(u.id.as_str()) {
            return Err(Violation::new(
                &["force"],
                Some(id),
                rule::FORCE,
                format!("{} is named twice", u.short()),
            ));
        }
        units.push(u);
    }
    let first = units[0];
    let first_difficult = in_difficult(state, first);
    for u in &units[1..] {
        if u.arm != first.arm {
            return Err(Violation::new(
                &["force"],
                Some(&u.id),
                rule::FORCE,
                format!(
                    "a force is all one arm: {} is {}, {} is {}",
                    first.short(),
                    first.arm.label(),
                    u.short(),
                    u.arm.label()
                ),
            ));
        }
        if u.formation != first.formation {
            return Err(Violation::new(
                &["force"],
                Some(&u.id),
                rule::FORCE,
                format!(
                    "a force is all in one formation: {} is in {}, {} in {}",
                    first.short(),
                    first.formation.label(),
                    u.short(),
                    u.formation.label()
                ),
            ));
        }
        if in_difficult(state, u) != first_difficult {
            return Err(Violation::new(
                &["force"],
                Some(&u.id),
                rule::FORCE,
                format!(
                    "a force is all in ground of the same effect: {} and {} are not",
                    first.short(),
                    u.short()
                ),
            ));
        }
    }
    if let Some((out, main)) = unlinked(state, &units) {
        // Blame the units cut off from the largest group, not whoever
        // happens to come first in the list (chapter 1, Forces).
        let names = |ix: &[usize]| {
            ix.iter()
                .map(|&i| units[i].short())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let msg = if out.len() == 1 {
            format!(
                "{} is not within 2 BW of any other unit of the force ({})",
                units[out[0]].short(),
                names(&main)
            )
        } else {
            format!(
                "{} are out of reach of the rest of the force ({}): no chain of units each within 2 BW of another links them",
                names(&out),
                names(&main)
            )
        };
        return Err(Violation::new(
            &["force"],
            Some(&units[out[0]].id),
            rule::FORCE,
            msg,
        ));
    }
    Ok(units)
}

/// When the units do not all link up through steps of 2 BW or less
/// between units: the units outside the largest linked group (in list
/// order), and that group. The largest group is the main body; between
/// groups of the same size, the one with the earliest-listed unit.
fn unlinked(state: &State, units: &[&Unit]) -> Option<(Vec<usize>, Vec<usize>)> {
    let m = state.scenario.measure;
    let bases: Vec<Vec<Base>> = units.iter().map(|u| u.bases(&m)).collect();
    // Only units whose boxes are within the link can be linked: the exact
    // distance is measured for those alone (spatial pruning, same answer).
    let boxes = bases
        .iter()
        .enumerate()
        .filter_map(|(i, b)| Bounds::of_points(b.iter().flat_map(|b| b.corners())).map(|x| (x, i)));
    let index = BoxIndex::new(boxes.collect::<Vec<_>>());
    let link = FORCE_LINK.get() + 1e-9;
    let barriers = super::reach::Barriers::of(state);
    let mut group = vec![usize::MAX; units.len()];
    let mut groups = 0;
    for start in 0..units.len() {
        if group[start] != usize::MAX {
            continue;
        }
        group[start] = groups;
        let mut frontier = vec![start];
        while let Some(i) = frontier.pop() {
            let Some(here) = Bounds::of_points(bases[i].iter().flat_map(|b| b.corners())) else {
                continue;
            };
            for j in index.near(&here, link) {
                if group[j] == usize::MAX && barriers.within(&bases[i], &bases[j], link) {
                    group[j] = groups;
                    frontier.push(j);
                }
            }
        }
        groups += 1;
    }
    if groups <= 1 {
        return None;
    }
    let size = |g: usize| group.iter().filter(|&&x| x == g).count();
    // max_by_key keeps the last of equals: go through groups from the last.
    let main = (0..groups).rev().max_by_key(|&g| size(g)).unwrap_or(0);
    let (inside, outside): (Vec<usize>, Vec<usize>) =
        (0..units.len()).partition(|&i| group[i] == main);
    Some((outside, inside))
}

/// The shortest distance in BW from the CinC to the nearest unit of the force
/// along a path that never passes within 1 BW of an enemy unit; `None` when
/// no such path exists. To ask for several forces of one side, build
/// [`Paths`] once and ask it.
pub fn activation_distance(state: &State, side: &SideId, force: &[&Unit]) -> Option<f64> {
    Paths::new(state, side)?.distance(state, force)
}

/// BW to pay: whole base widths, a fraction counting as a whole (chapter 1),
/// and never below one card's worth.
pub fn cost(distance: f64) -> u32 {
    (distance - 1e-9).ceil().max(0.0) as u32
}

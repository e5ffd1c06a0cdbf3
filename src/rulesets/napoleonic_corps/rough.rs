//! Rough terrain: a unit moving through it tests on the rally table, and
//! becomes unformed if it fails.

use super::formation::Formation;
use super::rally::{RallyResult, test};
use super::state::State;
use super::tables::{Arm, Troop};
use super::words::Said;
use crate::dice::Dice;
use crate::event::{Event, Modifier};
use crate::geometry::path::Route;
use crate::geometry::{Point, TerrainTag};

fn m(why: &str, value: i32) -> Modifier {
    Modifier {
        why: why.into(),
        value,
    }
}

/// The rough-terrain modifiers for unit `u` having moved along `path` (its
/// start, any waypoints, where it stands now), in addition to the usual
/// ones, and the features' names; none if it met no rough ground. Ground
/// counts wherever the unit's footprint passed over it on the way (a belt
/// of woods crossed and left behind included) or where it stands now, and
/// for a linear obstacle that any leg crosses. The source prints the
/// terrain values as bonuses; they are read as printed.
pub fn modifiers(s: &State, u: usize, path: &[Point]) -> Option<(Vec<Modifier>, String)> {
    let unit = &s.units[u];
    let from = path.first().copied().unwrap_or(unit.at);
    let bases = s.bases(unit);
    // The footprint as it moved: in the facing and formation it moved in.
    let route = Route::new(&s.bases_as(unit, from, unit.facing, unit.formation), path);
    let mut names = Vec::new();
    let mut mods = Vec::new();
    for t in &s.scenario.terrain {
        // Only water, woods and hills are rough ground to pass over: roads
        // and other ground are not measured along the route.
        let rough = [TerrainTag::Water, TerrainTag::Woods, TerrainTag::Hill]
            .into_iter()
            .any(|x| t.has(x));
        let touched = rough && (t.touches_bases(&bases) || route.crosses(t));
        let crossed = t.has(TerrainTag::Wall)
            && path
                .windows(2)
                .any(|w| crate::geometry::zone::segment_to_feature(w[0], w[1], t).get() <= 1e-6);
        if !(touched || crossed) {
            continue;
        }
        let mut hit = false;
        if t.has(TerrainTag::Water) {
            mods.push(m("water", 2));
            hit = true;
        }
        if t.has(TerrainTag::Woods) {
            mods.push(m("woods", 3));
            hit = true;
        }
        if t.has(TerrainTag::Hill)
            && !t.contains_bases(&s.bases_as(unit, from, unit.facing, unit.formation))
        {
            mods.push(m("up hill", 5));
            hit = true;
        }
        if crossed {
            mods.push(m("crossing a linear obstacle", 4));
            hit = true;
        }
        if hit {
            names.push(t.name.clone());
        }
    }
    if names.is_empty() {
        return None;
    }
    if unit.formation == Formation::Line {
        mods.push(m("in line", -1));
    }
    match unit.arm() {
        Arm::Cavalry => mods.push(m("cavalry", -1)),
        Arm::Artillery => mods.push(m("artillery", -2)),
        Arm::Infantry if unit.troop == Troop::LightInfantry || unit.troop.light() => {
            mods.push(m("light infantry", 1))
        }
        Arm::Infantry => {}
    }
    Some((mods, names.join(", ")))
}

/// Test unit `u` after its move along `path` (from its start to where it
/// stands now).
pub fn test_move(s: &mut State, u: usize, path: &[Point], dice: &mut Dice) -> Vec<Event> {
    let Some((mods, names)) = modifiers(s, u, path) else {
        return Vec::new();
    };
    let (r, out) = test(s, u, Said::RoughTest, mods, None, &names, dice);
    if r != RallyResult::Rally {
        s.units[u].unformed = true;
    }
    out
}

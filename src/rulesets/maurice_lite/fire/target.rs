//! Choosing one base's target by the source's priorities: straight ahead
//! first, then within 45 degrees, the player's aim deciding among several.

use super::scene::{Eye, Look, Scene, Seen};
use crate::geometry::Distance;
use crate::geometry::zone::Zone;
use std::collections::BTreeMap;

/// Turned zones are tried every this many degrees, up to 45 each way.
/// House rule: a target that only a finer angle would reach is not reached.
pub const ANGLE_STEP: f64 = 0.5;
/// The widest turn of a fire zone.
pub const MAX_TURN: f64 = 45.0;

pub const STRAIGHT: &str = "straight ahead";
pub const AIMED: &str = "player's aim";
pub const RULE_NEAREST: &str =
    "rule: nearest target within 45 degrees, then the one most nearly ahead";
pub const RULE_ONLY: &str = "rule: the only target within 45 degrees";

/// A base's chosen target.
pub struct Choice {
    pub look: Look,
    pub chosen_by: String,
}

/// Pick the target of `eye` with zones `length` long. `aim` is the enemy
/// unit the player named for this base, if any. `Err` says why the base
/// has no target.
pub fn choose(scene: &Scene, eye: &Eye, length: f64, aim: Option<&str>) -> Result<Choice, String> {
    let straight = scene.look(eye, 0.0, length);
    if let Seen::Target { unit, .. } = &straight.seen {
        let chosen_by = match aim {
            Some(a) if a != unit => format!(
                "{STRAIGHT} (the aim at {a} does not apply: a target straight ahead must be shot)"
            ),
            _ => STRAIGHT.to_string(),
        };
        return Ok(Choice {
            look: straight,
            chosen_by,
        });
    }
    let ahead = match (&straight.seen, &straight.obstruction) {
        (Seen::Friend { unit }, _) => format!("friendly {unit} is in the way straight ahead"),
        (_, Some(o)) => format!("nothing in reach straight ahead ({o} obstructs)"),
        _ => "no enemy in reach straight ahead".to_string(),
    };
    // A base with no enemy anywhere near has nothing to turn to: spared
    // the 180 turned zones (most bases behind the front rank).
    if !scene.enemy_around(eye, length) {
        return Err(format!("{ahead}, and no target within 45 degrees"));
    }
    // Best look per enemy unit: nearest, then most nearly ahead, then the
    // left-hand turn (a fixed tie-break so the choice is deterministic).
    let mut best: BTreeMap<String, (f64, Look)> = BTreeMap::new();
    let steps = (MAX_TURN / ANGLE_STEP).round() as u32;
    let turns: Vec<f64> = (1..=steps)
        .flat_map(|k| {
            let t = f64::from(k) * ANGLE_STEP;
            [-t, t]
        })
        .collect();
    // One query of the table serves every turned zone.
    let zones: Vec<Zone> = turns
        .iter()
        .map(|t| Zone::ahead_of(&eye.base, *t, Distance(length)))
        .collect();
    let near = scene.near(&zones);
    // Only a zone that some enemy base enters can show a target: the
    // enemy bases near any of the zones are gathered once, and a turn
    // that none of them enters is not looked along (most bases behind
    // the front rank have no enemy within reach at any angle).
    let enemies = scene.enemies_near(eye, &zones, &near);
    for (turn, zone) in turns.into_iter().zip(&zones) {
        if !scene.any_enters(zone, &enemies) {
            continue;
        }
        {
            let look = scene.look_among(eye, turn, length, &near);
            let Seen::Target { unit, depth, .. } = &look.seen else {
                continue;
            };
            let better = best.get(unit).is_none_or(|(d, _)| *depth < d - 1e-9);
            if better {
                best.insert(unit.clone(), (*depth, look));
            }
        }
    }
    if best.is_empty() {
        return Err(format!("{ahead}, and no target within 45 degrees"));
    }
    if let Some(a) = aim
        && let Some((_, look)) = best.remove(a)
    {
        return Ok(Choice {
            look,
            chosen_by: AIMED.to_string(),
        });
    }
    let only = best.len() == 1;
    let (_, look) = best
        .into_values()
        .min_by(|(da, la), (db, lb)| {
            da.total_cmp(db)
                .then(la.turn.abs().total_cmp(&lb.turn.abs()))
                .then(la.turn.total_cmp(&lb.turn))
        })
        .ok_or_else(|| format!("{ahead}, and no target within 45 degrees"))?;
    let rule = if only { RULE_ONLY } else { RULE_NEAREST };
    let chosen_by = match aim {
        Some(a) => format!("{rule} (this base cannot reach {a})"),
        None => rule.to_string(),
    };
    Ok(Choice { look, chosen_by })
}

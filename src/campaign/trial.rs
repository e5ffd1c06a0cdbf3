//! What an organiser learns before a campaign begins: every battle the map
//! could give, mustered once as a trial, so that a battlefield its ruleset
//! cannot set up from a road's edge, or too small for an army, is told now
//! and not on the day the armies meet.

use super::map::Map;
use super::state::Ledger;
use crate::muster::{Condition, Force};

/// For each road's end, a battle in that area with the campaign's largest
/// army of one side marching in along the road and the other side's
/// largest army holding it: each problem named by area and road.
pub fn trial_battles(l: &Ledger) -> Vec<String> {
    let map = Map::new(&l.campaign);
    let sides: Vec<_> = l.campaign.sides.iter().map(|s| s.id.clone()).collect();
    let largest = |side: &crate::side::SideId| {
        l.armies
            .iter()
            .filter(|a| &a.side == side)
            .max_by_key(|a| (a.units.len(), std::cmp::Reverse(a.id.clone())))
    };
    let mut out = Vec::new();
    for area in &l.campaign.areas {
        let ruleset = l.ruleset_at(&area.id);
        let Some(hook) = crate::rulesets::muster_by_name(ruleset) else {
            out.push(format!(
                "area {}: no ruleset {ruleset} fights campaign battles",
                area.id
            ));
            continue;
        };
        let Some(field) = l.fields.get(&area.battlefield) else {
            out.push(format!(
                "area {}: its battlefield {} was not read",
                area.id, area.battlefield
            ));
            continue;
        };
        for (from, _) in map.next_to(&area.id) {
            let Some(edge) = map.edge_into(from, &area.id) else {
                continue;
            };
            for (attacker, defender) in [(0, 1), (1, 0)] {
                let (Some(a), Some(d)) = (largest(&sides[attacker]), largest(&sides[defender]))
                else {
                    continue;
                };
                let force = |army: &super::state::Army, edge| Force {
                    side: army.side.clone(),
                    edge,
                    units: army
                        .units
                        .iter()
                        .filter(|u| u.condition != Condition::Lost)
                        .cloned()
                        .collect(),
                };
                let forces = [force(a, edge), force(d, edge.opposite())];
                if let Err(e) = hook.muster(field, &forces) {
                    out.push(format!(
                        "area {}, {} marching in from {from} by the {} edge against {}: {e}",
                        area.id,
                        a.name,
                        edge.name(),
                        d.name
                    ));
                }
            }
        }
    }
    out
}

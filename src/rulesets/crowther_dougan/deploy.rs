//! The setup step of a scenario with hidden units: each side that has
//! any places them by secret orders within the zones the scenario allows,
//! before the first move. A stock scenario file is public knowledge, so its
//! places are only suggestions (the default orders and the template's
//! examples): where a hidden unit truly stands is its side's secret.
//!
//! Nothing another side or the public reads depends on the placements:
//! the placing side alone is told where each unit went, the public only
//! that the hidden troops deployed, no die is rolled, and until the step
//! is resolved no enemy or public reader sees a unit to be deployed.

use super::movement::deduction;
use super::orders::{Deployment, Placement};
use super::scenario::{SideSpec, UnitSpec, Zone};
use super::state::{Phase, State, Unit};
use super::tables::KEEP_OFF;
use super::words::{self, Said};
use crate::event::{Event, Facts, Visibility};
use crate::ruleset::{Violation, did_you_mean};
use crate::side::{BySide, SideId, Sides};
use std::collections::BTreeSet;

pub const DEPLOY: &str =
    "Hidden troops (house rule): a side deploys its hidden units in secret, within their zones";

/// The sides that deploy hidden units, in scenario order.
pub fn deployers(s: &State) -> Vec<SideId> {
    s.scenario
        .sides
        .iter()
        .filter(|x| x.units.iter().any(|u| u.hidden))
        .map(|x| x.id.clone())
        .collect()
}

/// The side's hidden units with their specs, in scenario order.
fn hidden<'a>(s: &'a State, side: &SideId) -> Vec<(&'a SideSpec, &'a UnitSpec)> {
    s.scenario
        .side(side)
        .map(|x| {
            x.units
                .iter()
                .filter(|u| u.hidden)
                .map(|u| (x, u))
                .collect()
        })
        .unwrap_or_default()
}

/// Every placement checked: a hidden unit of the side, once, on the table,
/// its centre inside one of its zones, its formation one its troops take,
/// on ground it may stand on. The refusals give the numbers.
pub fn check(s: &State, side: &SideId, d: &Deployment) -> Vec<Violation> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, p) in d.units.iter().enumerate() {
        let i = i.to_string();
        let path = ["deploy", "units", i.as_str()];
        let why = if seen.insert(p.unit.as_str()) {
            refuse(s, side, p)
        } else {
            Some(format!("{} is placed twice", p.unit))
        };
        if let Some(why) = why {
            out.push(Violation::new(&path, Some(&p.unit), DEPLOY, why));
        }
    }
    out
}

/// Why a placement cannot stand, if it cannot.
pub fn refuse(s: &State, side: &SideId, p: &Placement) -> Option<String> {
    let list = hidden(s, side);
    let Some(&(spec, u)) = list.iter().find(|(_, u)| u.id == p.unit) else {
        return Some(not_hidden(s, side, &p.unit, &list));
    };
    if !p.at.is_finite() || p.facing.is_some_and(|f| !f.is_finite()) {
        return Some("the place is not a pair of numbers".into());
    }
    if let Some(why) = off_table(s, p) {
        return Some(why);
    }
    if let Some(f) = p.formation
        && !f.fits(u.troop)
    {
        return Some(format!("{} cannot stand in {}", u.troop.label(), f.name()));
    }
    if let Some(why) = outside(spec, u, p) {
        return Some(why);
    }
    let unit = s.unit(&u.id)?;
    s.ground(p.at)
        .find(|t| deduction(t, unit).is_none())
        .map(|t| format!("{} is closed to {}", t.name, unit.troop.label()))
}

/// Why the place is off the table, if it is: a zone may reach beyond it.
fn off_table(s: &State, p: &Placement) -> Option<String> {
    let (w, h) = (s.scenario.table.width.get(), s.scenario.table.height.get());
    let on = (0.0..=w).contains(&p.at.x) && (0.0..=h).contains(&p.at.y);
    (!on).then(|| {
        format!(
            "({:.1}, {:.1}) is off the table, 0 to {w:.0} by 0 to {h:.0} cm",
            p.at.x, p.at.y
        )
    })
}

/// The refusal of a unit that is not one of the side's hidden units: one
/// of its other units, or none of its units at all.
fn not_hidden(s: &State, side: &SideId, id: &str, list: &[(&SideSpec, &UnitSpec)]) -> String {
    let names = list.iter().map(|(_, u)| u.id.as_str());
    if s.unit(id).is_some_and(|u| &u.side == side) {
        format!(
            "{id} is not a hidden unit: it stands where the scenario puts it; your hidden units: {}",
            names.collect::<Vec<_>>().join(", ")
        )
    } else {
        format!(
            "{id} is not one of your hidden units{}",
            did_you_mean(id, names)
        )
    }
}

/// Why the place is off the table or outside every zone of the unit, with
/// how far it lies from the nearest.
fn outside(spec: &SideSpec, u: &UnitSpec, p: &Placement) -> Option<String> {
    let zones: Vec<_> = spec.zones_of(u).collect();
    if zones.iter().any(|z| z.holds(p.at)) {
        return None;
    }
    let (near, by) = zones
        .iter()
        .map(|z| (z, z.outside_by(p.at)))
        .min_by(|a, b| a.1.total_cmp(&b.1))?;
    Some(format!(
        "({:.1}, {:.1}) is in none of {}'s zones ({}): {:.1} cm outside {}, the nearest",
        p.at.x,
        p.at.y,
        u.id,
        zones
            .iter()
            .map(|z| z.id.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        by,
        near.name
    ))
}

/// The default orders: every hidden unit at its suggested place.
pub fn suggested(s: &State, side: &SideId) -> Deployment {
    Deployment {
        units: hidden(s, side)
            .into_iter()
            .map(|(_, u)| Placement {
                unit: u.id.clone(),
                at: u.at,
                facing: Some(u.facing),
                formation: None,
            })
            .collect(),
    }
}

/// The setup step resolved: each side's placements that stand are made
/// (a unit left out, or refused, stays at its suggested place), each told
/// to its side alone; the public reads only that the hidden troops
/// deployed. Then move 1 is the first side's.
pub fn resolve(s: &State, orders: &BySide<Deployment>) -> (State, Vec<Event>) {
    let mut s = s.clone();
    let mut events = Vec::new();
    for side in deployers(&s) {
        let d = orders.get(&side).cloned().unwrap_or_default();
        let mut placed = BTreeSet::new();
        for p in &d.units {
            // Checked against the scenario's zones, which placing does not
            // change: the first placement of a unit stands, as the check
            // refused any other.
            if refuse(&s, &side, p).is_none() && placed.insert(p.unit.clone()) {
                place(&mut s, p);
            }
        }
        events.push(deployed(&s, &side));
        events.extend(told(&s, &side));
    }
    s.phase = Phase::Move {
        n: 1,
        active: s.scenario.first.clone(),
    };
    (s, events)
}

fn place(s: &mut State, p: &Placement) {
    let Some(u) = s.unit_mut(&p.unit) else { return };
    u.at = p.at;
    if let Some(f) = p.facing {
        u.facing = f;
    }
    if let Some(f) = p.formation {
        u.formation = f;
    }
}

/// The public's line: the same whatever was placed where.
fn deployed(s: &State, side: &SideId) -> Event {
    let f = Facts {
        side: Some(side.clone()),
        side_name: Some(s.side_name(side)),
        ..Facts::default()
    };
    words::to(Visibility::Public, Said::Deployed, f, Vec::new())
}

/// Where each hidden unit of the side now stands, for that side only.
fn told(s: &State, side: &SideId) -> Vec<Event> {
    hidden(s, side)
        .into_iter()
        .filter_map(|(_, spec)| s.unit(&spec.id))
        .map(|u: &Unit| {
            let f = Facts {
                side: Some(side.clone()),
                unit: Some(crate::event::UnitRef {
                    id: u.id.clone(),
                    name: u.name.clone(),
                    side: u.side.clone(),
                }),
                to: Some(u.at),
                facing: Some(u.facing),
                mode: Some(u.formation.name().into()),
                ..Facts::default()
            };
            words::to(Visibility::Side(side.clone()), Said::Placed, f, Vec::new())
        })
        .collect()
}

/// Zones far enough from the enemy that no placement in them can break
/// the 5 cm rule: each at least 5 cm (beyond the unit's own size) from
/// every enemy unit that is not hidden, and clear of the enemy's zones by
/// as much. Checked when the game starts, with the units' sizes.
pub fn zones_clear(s: &State) -> Result<(), String> {
    for side in &s.scenario.sides {
        for z in &side.zones {
            if let Some(e) = s.units.iter().find(|e| {
                e.side != side.id && !s.deploying(e) && z.outside_by(e.at) - e.reach() < KEEP_OFF
            }) {
                return Err(format!(
                    "zone {} of side {}: {} stands within 5 cm of it",
                    z.id, side.id, e.id
                ));
            }
            let theirs = s.scenario.sides.iter().filter(|x| x.id != side.id);
            if let Some(o) = theirs.flat_map(|x| &x.zones).find(|o| too_near(z, o)) {
                return Err(format!(
                    "zones {} and {} of the two sides come within 5 cm of each other",
                    z.id, o.id
                ));
            }
        }
    }
    Ok(())
}

/// Whether two zones overlap or come within 5 cm: one's corner near the
/// other, or their outlines crossing.
fn too_near(a: &Zone, b: &Zone) -> bool {
    let near = |x: &Zone, y: &Zone| x.points.iter().any(|p| y.outside_by(*p) < KEEP_OFF);
    near(a, b) || near(b, a) || a.feature().intersects_area(&b.feature().area())
}

//! The campaign hook: a unit's strength is its men, 25 to a figure, less
//! those lost. A battle begins with each force's units abreast along its
//! edge in their usual formation, the battlefield's personalities each
//! with one of their side's units in turn (a house rule: the campaign's
//! commanders are the battlefield's).

use super::CrowtherDougan;
use super::scenario::{Scenario, UnitSpec};
use super::state::{State, Status};
use super::tables::{MEN_PER_FIGURE, Troop};
use crate::geometry::entry::{self, Footprint};
use crate::geometry::{Distance, Point};
use crate::muster::{self, Carried, Condition, Force, Muster, Mustered, Strength};
use crate::side::SideId;

/// Between units entering abreast, in centimetres.
const GAP: Distance = Distance(4.0);

/// A unit's entry as the ledger holds it: no place, no secrets, its losses
/// counted off its strength.
fn mustered(u: &UnitSpec) -> Mustered {
    let spec = UnitSpec {
        at: Point::new(0.0, 0.0),
        facing: 0.0,
        formation: None,
        hidden: false,
        zones: Vec::new(),
        men_lost: 0,
        ..u.clone()
    };
    let full = u.figures * MEN_PER_FIGURE;
    Mustered {
        id: u.id.clone(),
        spec: muster::unplaced(crate::yaml::to_value(&spec).unwrap_or_default()),
        strength: Strength {
            now: full.saturating_sub(u.men_lost),
            full,
        },
        condition: Condition::Steady,
        scout: u.troop == Troop::Cavalry,
    }
}

/// A campaign's unit entry read as this ruleset's, placed nowhere yet.
fn read(spec: &serde_yaml::Value) -> Result<UnitSpec, String> {
    crate::yaml::from_value(muster::placed_nowhere(spec))
        .map_err(|e| format!("a unit of crowther-dougan: {e}"))
}

impl Muster for CrowtherDougan {
    fn strength_word(&self) -> &'static str {
        "men"
    }

    fn roster(&self, scenario: &Scenario) -> Result<Vec<(SideId, Mustered)>, String> {
        Ok(scenario
            .sides
            .iter()
            .flat_map(|side| side.units.iter().map(|u| (side.id.clone(), mustered(u))))
            .collect())
    }

    fn enlist(&self, _field: &Scenario, spec: &serde_yaml::Value) -> Result<Mustered, String> {
        let u = read(spec)?;
        if !(1..=60).contains(&u.figures) {
            return Err(format!("unit {}: 1 to 60 figures", u.id));
        }
        if u.men_lost >= u.figures * MEN_PER_FIGURE {
            return Err(format!("unit {}: its men lost leave none", u.id));
        }
        Ok(mustered(&u))
    }

    fn muster(&self, field: &Scenario, forces: &[Force]) -> Result<Scenario, String> {
        let mut battle = field.clone();
        for side in &mut battle.sides {
            let force = muster::force_of(forces, &side.id)?;
            side.units = force
                .units
                .iter()
                .filter(|u| u.condition != Condition::Lost)
                .map(|u| {
                    let spec = read(&u.spec).map_err(|e| format!("unit {}: {e}", u.id))?;
                    let full = spec.figures * MEN_PER_FIGURE;
                    Ok(UnitSpec {
                        id: u.id.clone(),
                        facing: force.edge.inward().degrees(),
                        men_lost: full.saturating_sub(u.strength.now.min(full)),
                        ..spec
                    })
                })
                .collect::<Result<_, String>>()?;
            let n = side.units.len();
            for (i, p) in side.personalities.iter_mut().enumerate() {
                if n > 0 {
                    p.with = side.units[i % n].id.clone();
                }
            }
        }
        // Each unit's footprint as the rules lay it out, then its place.
        let laid = State::new(&battle)?;
        for side in &mut battle.sides {
            let force = muster::force_of(forces, &side.id)?;
            let feet: Vec<Footprint> = side
                .units
                .iter()
                .map(|u| {
                    let b = laid.units.iter().find(|x| x.id == u.id).map(|x| x.base());
                    b.map_or(
                        Footprint {
                            frontage: Distance(1.0),
                            depth: Distance(1.0),
                        },
                        |b| Footprint {
                            frontage: b.width,
                            depth: b.depth,
                        },
                    )
                })
                .collect();
            let places = entry::enter(field.table, force.edge, &feet, GAP)
                .map_err(|e| format!("side {}: {e}", side.id))?;
            for ((u, p), f) in side.units.iter_mut().zip(places).zip(&feet) {
                // The scenario places a unit by its centre.
                u.at = p.front - p.facing.unit_vector().scale(f.depth.get() / 2.0);
            }
        }
        Ok(battle)
    }

    fn carry(&self, state: &State) -> Vec<Carried> {
        state
            .units
            .iter()
            .map(|u| {
                let men = u.men();
                let condition = match u.status {
                    Status::Gone if men == 0 => Condition::Lost,
                    Status::Gone | Status::Routing => Condition::Routed,
                    Status::Good | Status::Pursuing if u.under_half() => Condition::Shaken,
                    Status::Good | Status::Pursuing => Condition::Steady,
                };
                Carried {
                    id: u.id.clone(),
                    side: u.side.clone(),
                    strength: Strength {
                        now: if condition == Condition::Lost { 0 } else { men },
                        full: u.start_figures * MEN_PER_FIGURE,
                    },
                    condition,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::muster::TableEdge;

    const FIELD: &str = include_str!("../../../games/crowther-dougan/test-clearing.yaml");

    #[test]
    fn men_lost_in_one_battle_stand_fewer_figures_in_the_next() {
        let field: Scenario = crate::yaml::from_str(FIELD).unwrap();
        let roster = CrowtherDougan.roster(&field).unwrap();
        assert_eq!(
            roster[0].1.strength,
            Strength::fresh(500),
            "20 figures of 25 men"
        );
        let mut red: Vec<Mustered> = roster
            .iter()
            .filter(|(s, _)| s.as_str() == "red")
            .map(|(_, m)| m.clone())
            .collect();
        red[0].strength = red[0].strength.less(130);
        let blue: Vec<Mustered> = roster
            .iter()
            .filter(|(s, _)| s.as_str() == "blue")
            .map(|(_, m)| m.clone())
            .collect();
        let forces = vec![
            Force {
                side: SideId::from("red"),
                edge: TableEdge::West,
                units: red,
            },
            Force {
                side: SideId::from("blue"),
                edge: TableEdge::East,
                units: blue,
            },
        ];
        let battle = CrowtherDougan.muster(&field, &forces).unwrap();
        let state = State::new(&battle).unwrap();
        let line = state.units.iter().find(|u| u.id == "r-line").unwrap();
        assert_eq!(
            (line.men(), line.figures()),
            (370, 15),
            "130 men lost: five figures gone"
        );
        assert!(
            line.at.x < 50.0 && line.facing == 90.0,
            "red enters by the west edge facing east"
        );
        // Every personality is with a unit of his side that is there.
        for p in &state.persons {
            assert!(
                state
                    .units
                    .iter()
                    .any(|u| Some(&u.id) == p.with.as_ref() && u.side == p.side)
            );
        }
        assert_eq!(
            CrowtherDougan.roster(&battle).unwrap()[0].1.strength.now,
            370
        );
    }
}

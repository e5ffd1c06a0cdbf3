//! The campaign hook: a unit's strength is its steadiness, its bases less
//! its disruption (it breaks past its bases). A battle's sides deploy by
//! the source's set-up in their own thirds, the first side's the south:
//! the force that enters by the south edge is made the first side.
//! House rule: a unit that broke came apart but comes back routed, with
//! no steadiness, to rally out of contact.

use super::MauriceLite;
use super::scenario::{Scenario, UnitSpec};
use super::state::State;
use super::units::Arm;
use crate::muster::{self, Carried, Condition, Force, Muster, Mustered, Strength, TableEdge};
use crate::side::SideId;

fn mustered(u: &UnitSpec) -> Mustered {
    let full = u.arm.bases();
    Mustered {
        id: u.id.clone(),
        spec: crate::yaml::to_value(&UnitSpec {
            disruption: 0,
            ..u.clone()
        })
        .unwrap_or_default(),
        strength: Strength {
            now: full - u.disruption.min(full),
            full,
        },
        condition: if u.disruption > 0 {
            Condition::Shaken
        } else {
            Condition::Steady
        },
        scout: u.arm == Arm::Cavalry,
    }
}

impl Muster for MauriceLite {
    fn strength_word(&self) -> &'static str {
        "steadiness (bases less disruption)"
    }

    fn roster(&self, scenario: &Scenario) -> Result<Vec<(SideId, Mustered)>, String> {
        Ok(scenario
            .sides
            .iter()
            .flat_map(|s| s.units.iter().map(|u| (s.id.clone(), mustered(u))))
            .collect())
    }

    fn enlist(&self, _field: &Scenario, spec: &serde_yaml::Value) -> Result<Mustered, String> {
        let u: UnitSpec = crate::yaml::from_value(spec.clone())
            .map_err(|e| format!("a unit of maurice-lite: {e}"))?;
        if u.disruption > u.arm.bases() {
            return Err(format!("unit {}: its disruption would break it", u.id));
        }
        Ok(mustered(&u))
    }

    fn muster(&self, field: &Scenario, forces: &[Force]) -> Result<Scenario, String> {
        let mut battle = field.clone();
        for side in &mut battle.sides {
            let force = muster::force_of(forces, &side.id)?;
            if matches!(force.edge, TableEdge::West | TableEdge::East) {
                return Err(format!(
                    "a maurice-lite battle is set up from the south and north edges: side {} cannot enter by the {}",
                    side.id,
                    force.edge.name()
                ));
            }
            side.units = force
                .units
                .iter()
                .filter(|u| u.condition != Condition::Lost)
                .map(|u| {
                    let spec: UnitSpec = crate::yaml::from_value(u.spec.clone())
                        .map_err(|e| format!("unit {}: {e}", u.id))?;
                    let full = spec.arm.bases();
                    Ok(UnitSpec {
                        id: u.id.clone(),
                        disruption: full - u.strength.now.min(full),
                        ..spec
                    })
                })
                .collect::<Result<_, String>>()?;
        }
        let south = |s: &SideId| {
            forces
                .iter()
                .any(|f| &f.side == s && f.edge == TableEdge::South)
        };
        battle.sides.sort_by_key(|s| !south(&s.id));
        if south(&battle.sides[1].id) || !south(&battle.sides[0].id) {
            return Err("one side enters by the south edge and the other by the north".into());
        }
        Ok(battle)
    }

    fn carry(&self, state: &State) -> Vec<Carried> {
        state
            .units
            .iter()
            .map(|u| {
                let full = u.bases_count();
                let (now, condition) = if u.broken {
                    (0, Condition::Routed)
                } else if u.disruption > 0 {
                    (full - u.disruption.min(full), Condition::Shaken)
                } else {
                    (full, Condition::Steady)
                };
                Carried {
                    id: u.id.clone(),
                    side: u.side.clone(),
                    strength: Strength { now, full },
                    condition,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIELD: &str = include_str!("../../../games/maurice-lite/hollowbrook.yaml");

    #[test]
    fn disruption_carried_in_and_the_south_force_sets_up_first() {
        let field: Scenario = crate::yaml::from_str(FIELD).unwrap();
        let roster = MauriceLite.roster(&field).unwrap();
        let side = |s: &str| -> Vec<Mustered> {
            roster
                .iter()
                .filter(|(x, _)| x.as_str() == s)
                .map(|(_, m)| m.clone())
                .collect()
        };
        let mut french = side("french");
        assert_eq!(french[0].strength, Strength::fresh(4));
        french[0].strength = french[0].strength.less(3);
        let forces = vec![
            Force {
                side: SideId::from("french"),
                edge: TableEdge::North,
                units: french,
            },
            Force {
                side: SideId::from("austrians"),
                edge: TableEdge::South,
                units: side("austrians"),
            },
        ];
        let battle = MauriceLite.muster(&field, &forces).unwrap();
        assert_eq!(
            battle.sides[0].id.as_str(),
            "austrians",
            "the south force deploys first"
        );
        let state = State::new(&battle).unwrap();
        let picardie = state.units.iter().find(|u| u.id == "fr-i1").unwrap();
        assert_eq!(picardie.disruption, 3);
        let c = MauriceLite.carry(&state);
        let back = c.iter().find(|c| c.id == "fr-i1").unwrap();
        assert_eq!((back.strength.now, back.condition), (1, Condition::Shaken));
    }
}

//! The campaign hook: a unit's strength is its white dice, three less its
//! coloured (damage) dice, and a battle begins with each force's units
//! suggested abreast along its own edge, carrying their damage dice in.

use super::ActivationDice;
use super::combat::ROUTED_OFF;
use super::scenario::{Arm, Edge, Scenario, UnitSpec};
use super::state::State;
use crate::geometry::Distance;
use crate::geometry::entry::{self, Footprint, TableEdge};
use crate::muster::{self, Carried, Condition, Force, Muster, Mustered, Strength};
use crate::side::SideId;

/// A unit's dice: three white, each damage turning one coloured.
const DICE: u32 = 3;

/// A unit's entry as the ledger holds it: no place, its damage counted
/// off its strength.
fn mustered(field: &Scenario, u: &UnitSpec) -> Mustered {
    let spec = UnitSpec {
        at: None,
        facing: None,
        disorder: 0,
        ..u.clone()
    };
    Mustered {
        id: u.id.clone(),
        spec: crate::yaml::to_value(&spec).unwrap_or(serde_yaml::Value::Null),
        strength: Strength {
            now: DICE - u.disorder.min(DICE),
            full: DICE,
        },
        condition: if u.disorder > 0 {
            Condition::Shaken
        } else {
            Condition::Steady
        },
        scout: field.troop(&u.troop).is_some_and(|t| t.arm == Arm::Cavalry),
    }
}

impl Muster for ActivationDice {
    fn strength_word(&self) -> &'static str {
        "white dice"
    }

    fn roster(&self, scenario: &Scenario) -> Result<Vec<(SideId, Mustered)>, String> {
        Ok(scenario
            .sides
            .iter()
            .flat_map(|side| {
                side.units
                    .iter()
                    .map(|u| (side.id.clone(), mustered(scenario, u)))
            })
            .collect())
    }

    fn enlist(&self, field: &Scenario, spec: &serde_yaml::Value) -> Result<Mustered, String> {
        let u: UnitSpec = crate::yaml::from_value(spec.clone())
            .map_err(|e| format!("a unit of activation dice: {e}"))?;
        if field.troop(&u.troop).is_none() {
            return Err(format!(
                "unit {}: troop {} is not in the battlefield's troop table{}",
                u.id,
                u.troop,
                crate::ruleset::did_you_mean(&u.troop, field.troops.iter().map(|t| t.id.as_str()))
            ));
        }
        if u.disorder > DICE {
            return Err(format!(
                "unit {}: disorder is 0 to 3 coloured dice, not {}",
                u.id, u.disorder
            ));
        }
        Ok(mustered(field, &u))
    }

    fn muster(&self, field: &Scenario, forces: &[Force]) -> Result<Scenario, String> {
        let mut battle = field.clone();
        for side in &mut battle.sides {
            let force = muster::force_of(forces, &side.id)?;
            side.edge = match force.edge {
                TableEdge::South => Edge::South,
                TableEdge::North => Edge::North,
                e @ (TableEdge::West | TableEdge::East) => {
                    return Err(format!(
                        "an activation-dice battle is fought from the south and north edges: side {} cannot enter by the {}",
                        side.id,
                        e.name()
                    ));
                }
            };
            let foot = Footprint {
                frontage: field.base.width,
                depth: field.base.depth,
            };
            let fighting: Vec<&Mustered> = force
                .units
                .iter()
                .filter(|u| u.condition != Condition::Lost)
                .collect();
            let places = entry::enter(
                field.table,
                force.edge,
                &vec![foot; fighting.len()],
                Distance(field.base.width.get() / 2.0),
            )
            .map_err(|e| format!("side {}: {e}", side.id))?;
            side.units = fighting
                .iter()
                .zip(places)
                .map(|(u, p)| {
                    let spec: UnitSpec = crate::yaml::from_value(u.spec.clone())
                        .map_err(|e| format!("unit {}: {e}", u.id))?;
                    Ok(UnitSpec {
                        id: u.id.clone(),
                        at: Some(p.front),
                        facing: Some(p.facing),
                        disorder: u.strength.full.min(DICE) - u.strength.now.min(DICE),
                        ..spec
                    })
                })
                .collect::<Result<_, String>>()?;
        }
        Ok(battle)
    }

    fn carry(&self, state: &State) -> Vec<Carried> {
        state
            .units
            .iter()
            .map(|u| {
                let now = DICE - u.disorder.min(DICE);
                let (now, condition) = match u.gone.as_deref() {
                    Some(ROUTED_OFF) => (now, Condition::Routed),
                    Some(_) => (0, Condition::Lost),
                    None if u.status.rout => (now, Condition::Routed),
                    None if u.disorder > 0 || u.status != Default::default() => {
                        (now, Condition::Shaken)
                    }
                    None => (now, Condition::Steady),
                };
                Carried {
                    id: u.id.clone(),
                    side: u.side.clone(),
                    strength: Strength { now, full: DICE },
                    condition,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::side::Sides;

    const FIELD: &str = include_str!("../../../games/activation-dice/test-field.yaml");

    fn field() -> Scenario {
        crate::yaml::from_str(FIELD).unwrap()
    }

    #[test]
    fn a_units_strength_is_its_white_dice_and_its_damage_comes_into_the_next_battle() {
        let s = field();
        let roster = ActivationDice.roster(&s).unwrap();
        assert_eq!(roster.len(), 4);
        assert!(roster.iter().all(|(_, m)| m.strength == Strength::fresh(3)));
        let mut forces: Vec<Force> = ["blue", "red"]
            .iter()
            .zip([TableEdge::North, TableEdge::South])
            .map(|(side, edge)| Force {
                side: SideId::from(*side),
                edge,
                units: roster
                    .iter()
                    .filter(|(s, _)| s.as_str() == *side)
                    .map(|(_, m)| m.clone())
                    .collect(),
            })
            .collect();
        forces[0].units[0].strength = forces[0].units[0].strength.less(2);
        let battle = ActivationDice.muster(&s, &forces).unwrap();
        let blue = battle.side(&SideId::from("blue")).unwrap();
        assert_eq!(blue.edge, Edge::North, "blue enters by the edge it came by");
        assert_eq!(blue.units[0].disorder, 2);
        let at = blue.units[0].at.unwrap();
        assert!(at.y > 50.0 && blue.units[0].facing.unwrap().degrees() == 180.0);
        // The battle starts with the damage, and reads back as the ledger held it.
        let state = State::new(&battle).unwrap();
        assert_eq!(state.units[0].disorder, 2);
        let again = ActivationDice.roster(&battle).unwrap();
        assert_eq!(again[0].1.strength, Strength { now: 1, full: 3 });
        assert_eq!(again[1].1.strength, Strength::fresh(3));
        assert_eq!(
            again.iter().map(|(_, m)| m.id.as_str()).collect::<Vec<_>>(),
            roster
                .iter()
                .map(|(_, m)| m.id.as_str())
                .collect::<Vec<_>>()
        );
        // Through the text hook, the battle passes the scenario's checks.
        let text = crate::yaml::to_string(&s).unwrap();
        assert!(crate::muster::AnyMuster::muster(&ActivationDice, &text, &forces).is_ok());
    }

    #[test]
    fn the_end_of_a_battle_says_who_lives_how_strong_and_who_is_gone() {
        let mut state = State::new(&field()).unwrap();
        state.units[0].disorder = 1;
        state.units[1].gone = Some(ROUTED_OFF.into());
        state.units[1].disorder = 2;
        state.units[2].gone = Some("crippled and damaged again".into());
        let c = ActivationDice.carry(&state);
        assert_eq!((c[0].strength.now, c[0].condition), (2, Condition::Shaken));
        assert_eq!((c[1].strength.now, c[1].condition), (1, Condition::Routed));
        assert_eq!((c[2].strength.now, c[2].condition), (0, Condition::Lost));
        assert_eq!((c[3].strength.now, c[3].condition), (3, Condition::Steady));
    }

    #[test]
    fn a_campaigns_unit_is_read_against_the_battlefields_troop_table() {
        let s = field();
        let ok: serde_yaml::Value =
            serde_yaml::from_str("{id: x-1, name: \"1st Line\", troop: line, disorder: 1}")
                .unwrap();
        let m = ActivationDice.enlist(&s, &ok).unwrap();
        assert_eq!(
            (m.strength, m.condition),
            (Strength { now: 2, full: 3 }, Condition::Shaken)
        );
        let bad: serde_yaml::Value =
            serde_yaml::from_str("{id: x-2, name: \"Horse\", troop: hors}").unwrap();
        let e = ActivationDice.enlist(&s, &bad).unwrap_err();
        assert!(
            e.contains("troop hors is not in the battlefield's troop table; did you mean horse?"),
            "{e}"
        );
    }

    #[test]
    fn a_force_by_a_side_edge_is_refused_in_words() {
        let s = field();
        let forces = vec![Force {
            side: SideId::from("blue"),
            edge: TableEdge::West,
            units: Vec::new(),
        }];
        let e = ActivationDice.muster(&s, &forces).unwrap_err();
        assert!(e.contains("south and north edges"), "{e}");
    }
}

//! The Rally action (chapter 9).

use super::forces::in_difficult;
use super::reach::{Barriers, polygons};
use super::state::State;
use super::units::Arm;
use super::words::{self, What};
use crate::dice::Dice;
use crate::event::{Event, Facts, Loss, Modifier};

pub const RULE: &str = "9. Rally";

/// The score each rally die needs before modifiers.
pub fn rally_number(arm: Arm) -> u32 {
    match arm {
        Arm::Infantry => 4,
        Arm::Cavalry | Arm::Artillery => 5,
    }
}

/// Roll one die per DISR for each unit of the force; each success removes one.
pub fn rally(state: &mut State, force: &[String], dice: &mut Dice, events: &mut Vec<Event>) {
    let m = state.scenario.measure;
    let barriers = Barriers::of(state);
    for id in force {
        let Some(unit) = state.unit(id).cloned() else {
            continue;
        };
        if !unit.on_table() {
            continue;
        }
        if unit.disruption == 0 {
            events.push(words::event(
                What::NothingToRally,
                Facts {
                    idle: true,
                    ..words::of(state, &unit)
                },
            ));
            continue;
        }
        let bases = unit.bases(&m);
        // Near the enemy, measured round impassable ground (chapter 1).
        let enemy: Vec<_> = state
            .enemies(&unit.side)
            .flat_map(|e| e.bases(&m))
            .collect();
        let near = barriers.near_enemy(&polygons(&bases), &enemy);
        let bad = in_difficult(state, &unit);
        let mut modifier: i32 = 0;
        let mut why = Vec::new();
        if bad {
            modifier -= 1;
            why.push("-1 bad terrain");
        }
        if !near {
            modifier += 1;
            why.push("+1 not near the enemy");
        }
        let card = state.cards.rally_bonus;
        let card_text = format!("{card:+} card");
        if card != 0 {
            modifier += card;
            why.push(&card_text);
        }
        let need = rally_number(unit.arm);
        let mut modifier_list = Vec::new();
        if bad {
            modifier_list.push(Modifier {
                why: "bad terrain".into(),
                value: -1,
            });
        }
        if !near {
            modifier_list.push(Modifier {
                why: "not near the enemy".into(),
                value: 1,
            });
        }
        if card != 0 {
            modifier_list.push(Modifier {
                why: "card".into(),
                value: card,
            });
        }
        let why = if why.is_empty() {
            String::new()
        } else {
            format!(", {}", why.join(", "))
        };
        let mut removed = 0;
        let mut rolled = Vec::new();
        let mut values = Vec::new();
        for k in 0..unit.disruption {
            let v = dice.d6(format!(
                "{} rally die {} of {}: {}+{}; 1 fails, 6 succeeds",
                unit.short(),
                k + 1,
                unit.disruption,
                need,
                why
            ));
            rolled.extend(dice.last_index());
            values.push(v);
            let ok = v == 6 || (v != 1 && v as i32 + modifier >= need as i32);
            if ok {
                removed += 1;
            }
        }
        if let Some(u) = state.unit_mut(id) {
            u.disruption -= removed;
        }
        events.push(
            words::event(
                What::Rallies,
                Facts {
                    needed: Some(need),
                    modifiers: modifier_list,
                    hits: Some(removed),
                    before: Some(unit.disruption as i64),
                    after: Some((unit.disruption - removed) as i64),
                    rolls: values,
                    losses: vec![Loss {
                        unit: unit.id.clone(),
                        amount: removed,
                        of: "DISR removed".into(),
                    }],
                    ..words::of(state, &unit)
                },
            )
            .with_dice(rolled),
        );
    }
}

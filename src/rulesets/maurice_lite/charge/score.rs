//! Combat scores (chapter 8): basic value, modifiers, never below zero, plus
//! one die per engaged unit.

use super::super::forces::in_difficult;
use super::super::modifiers::{Modifier, describe, total};
use super::super::state::State;
use super::super::units::{Arm, Formation, Unit};
use super::super::words::{self, What};
use super::ChargeRequest;
use super::ground::elevation;
use super::report::{Engagement, Score};
use crate::dice::Dice;
use crate::event::{Event, Facts};
use std::collections::{BTreeMap, BTreeSet};

/// Basic combat value: 6 for infantry and cavalry, 1 for artillery.
pub fn basic_value(arm: Arm) -> i32 {
    match arm {
        Arm::Infantry | Arm::Cavalry => 6,
        Arm::Artillery => 1,
    }
}

/// Each engaged unit's opponents, both ways round.
pub fn opponents(engagements: &[Engagement]) -> BTreeMap<String, Vec<String>> {
    let mut map: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for e in engagements {
        map.entry(e.attacker.clone())
            .or_default()
            .push(e.defender.clone());
        map.entry(e.defender.clone())
            .or_default()
            .push(e.attacker.clone());
    }
    map
}

/// The units that fight, in the order they roll: attackers in charge order,
/// then defenders in scenario order.
pub fn fighters(state: &State, attackers: &[String], engagements: &[Engagement]) -> Vec<String> {
    let attacking: BTreeSet<&str> = engagements.iter().map(|e| e.attacker.as_str()).collect();
    let defending: BTreeSet<&str> = engagements.iter().map(|e| e.defender.as_str()).collect();
    let mut out: Vec<String> = attackers
        .iter()
        .filter(|a| attacking.contains(a.as_str()))
        .cloned()
        .collect();
    out.extend(
        state
            .units
            .iter()
            .filter(|u| defending.contains(u.id.as_str()))
            .map(|u| u.id.clone()),
    );
    out
}

/// Every modifier to one unit's score, before the die.
pub fn modifiers(
    state: &State,
    unit: &Unit,
    attacking: bool,
    engagements: &[Engagement],
    cards: &[Modifier],
) -> Vec<Modifier> {
    modifiers_with(
        state,
        unit,
        attacking,
        engagements,
        &opponents(engagements),
        cards,
    )
}

/// [`modifiers`], with [`opponents`] of the same engagements made once
/// for all the fighters.
pub fn modifiers_with(
    state: &State,
    unit: &Unit,
    attacking: bool,
    engagements: &[Engagement],
    opp: &BTreeMap<String, Vec<String>>,
    cards: &[Modifier],
) -> Vec<Modifier> {
    let mine: Vec<&Unit> = opp
        .get(&unit.id)
        .map(|v| v.iter().filter_map(|id| state.unit(id)).collect())
        .unwrap_or_default();
    let mut mods = Vec::new();
    if unit.arm == Arm::Infantry && !mine.is_empty() {
        let height = elevation(state, unit);
        if mine.iter().all(|e| height > elevation(state, e)) {
            mods.push(Modifier::new(
                "infantry higher than every enemy it engages",
                1,
            ));
        }
    }
    if unit.disruption > 0 {
        mods.push(Modifier::new(
            format!("{} DISR", unit.disruption),
            -(unit.disruption as i32),
        ));
    }
    if in_difficult(state, unit) {
        mods.push(Modifier::new("in bad terrain", -2));
    }
    if attacking
        && let Some(e) = engagements.iter().find(|e| {
            e.attacker == unit.id
                && e.cover
                && state
                    .unit(&e.defender)
                    .is_some_and(|d| matches!(d.arm, Arm::Infantry | Arm::Artillery))
        })
    {
        let name = state
            .unit(&e.defender)
            .map(|d| d.short())
            .unwrap_or_default();
        mods.push(Modifier::new(format!("attacking {name} in cover"), -2));
    }
    let column = unit.arm != Arm::Artillery && unit.formation == Formation::Column;
    let flanked = engagements
        .iter()
        .any(|e| e.defender == unit.id && e.flanked);
    if column || flanked {
        let why = if flanked {
            "vulnerable: attacked on flank or rear"
        } else {
            "vulnerable: in column"
        };
        mods.push(Modifier::new(why, -6));
    }
    // Outnumbered: only enemy infantry and cavalry count, both for "more than
    // one enemy" and for the enemies that engage this unit alone.
    let foot_and_horse: Vec<&&Unit> = mine.iter().filter(|e| e.arm != Arm::Artillery).collect();
    if foot_and_horse.len() > 1 {
        let alone = foot_and_horse
            .iter()
            .filter(|e| opp.get(&e.id).is_some_and(|v| v.len() == 1))
            .count() as i32;
        if alone > 0 {
            mods.push(Modifier::new(
                format!(
                    "outnumbered: {} {} it alone",
                    crate::words::count(alone, "enemy", "enemies"),
                    if alone == 1 { "engages" } else { "engage" }
                ),
                -alone,
            ));
        }
    }
    mods.extend(cards.iter().cloned());
    mods
}

/// Score every fighter with one die each, logging one event per unit. The
/// request's card modifiers go to every attacker, and to the defenders named.
pub fn score_all(
    state: &State,
    order: &[String],
    attackers: &[String],
    engagements: &[Engagement],
    req: &ChargeRequest,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Vec<Score> {
    let mut out = Vec::new();
    let opp = opponents(engagements);
    for id in order {
        let Some(unit) = state.unit(id) else {
            continue;
        };
        let attacking = attackers.contains(id);
        let cards: Vec<Modifier> = if attacking {
            req.attack.clone()
        } else {
            req.defence
                .iter()
                .filter(|(u, _)| u == id)
                .map(|(_, m)| m.clone())
                .collect()
        };
        let basic = basic_value(unit.arm);
        let mods = modifiers_with(state, unit, attacking, engagements, &opp, &cards);
        let floored = (basic + total(&mods)).max(0);
        let why = if mods.is_empty() {
            String::new()
        } else {
            format!(" {}", describe(&mods))
        };
        let die = dice.d6(format!(
            "{} combat score: {basic} basic{why}, never below 0: {floored}, plus this die",
            unit.short()
        ));
        let die_index = dice.last_index().unwrap_or(0);
        let score = floored + die as i32;
        events.push(
            words::event(
                What::Score,
                Facts {
                    before: Some(basic as i64),
                    modifiers: words::modifiers(&mods),
                    after: Some(floored as i64),
                    rolls: vec![die],
                    result: Some(score.to_string()),
                    attacker_total: attacking.then_some(i64::from(score)),
                    defender_total: (!attacking).then_some(i64::from(score)),
                    ..words::of(state, unit)
                },
            )
            .with_dice([die_index]),
        );
        out.push(Score {
            unit: id.clone(),
            side: unit.side.clone(),
            basic,
            modifiers: mods,
            floored,
            die,
            die_index,
            score,
        });
    }
    out
}

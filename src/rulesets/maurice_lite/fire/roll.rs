//! Resolving planned fire: to hit, then to disrupt, then the consequences.

use super::super::modifiers::describe;
use super::super::state::{State, Trace, TraceKind};
use super::super::units::Arm;
use super::super::words::{self, What};
use super::hit::BASIC_TO_HIT;
use super::report::{DisruptRoll, FireMode, FirePlan, FireReport};
use crate::dice::Dice;
use crate::event::{Event, Facts, Loss};

/// Dice each shooting base rolls: two for artillery firing canister.
pub fn dice_per_base(arm: Arm, mode: FireMode) -> u32 {
    match (arm, mode) {
        (Arm::Artillery, FireMode::Volley) => 2,
        _ => 1,
    }
}

/// The score a die to disrupt needs: 4, but 6 against artillery under
/// bombardment.
pub fn disrupt_number(target: Arm, mode: FireMode) -> u32 {
    match (target, mode) {
        (Arm::Artillery, FireMode::Bombard) => 6,
        _ => 4,
    }
}

/// See [`super::resolve`].
pub fn resolve(
    state: &mut State,
    plan: &FirePlan,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> FireReport {
    let mut report = FireReport {
        side: plan.side.clone(),
        mode: plan.mode,
        not_firing: plan.not_firing.clone(),
        ..FireReport::default()
    };
    let m = state.scenario.measure;
    for planned in &plan.shots {
        let (Some(shooter), Some(target)) = (
            state.unit(&planned.shooter).cloned(),
            state.unit(&planned.target).cloned(),
        ) else {
            continue;
        };
        let gone = if !shooter.on_table() {
            Some("no longer on the table".to_string())
        } else if !target.on_table() {
            Some(format!(
                "its target {} is no longer on the table",
                target.short()
            ))
        } else {
            None
        };
        if let Some(why) = gone {
            report
                .not_firing
                .push((shooter.id.clone(), format!("base {}: {why}", planned.base)));
            continue;
        }
        let mut shot = planned.clone();
        let n = dice_per_base(shooter.arm, plan.mode);
        let mods = if shot.modifiers.is_empty() {
            String::new()
        } else {
            format!("{BASIC_TO_HIT}+, {}, so ", describe(&shot.modifiers))
        };
        for k in 0..n {
            let which = if n > 1 {
                format!(" (canister die {} of {n})", k + 1)
            } else {
                String::new()
            };
            let v = dice.d6(format!(
                "{} base {} to hit {}{which}: {mods}needs {}+",
                shooter.short(),
                shot.base,
                target.short(),
                shot.need
            ));
            shot.dice.push(v);
            shot.dice_index.extend(dice.last_index());
        }
        shot.hits = shot.dice.iter().filter(|v| shot.hits_with(**v)).count() as u32;
        events.push(
            words::event(
                What::Shot,
                Facts {
                    target: Some(words::unit(&target)),
                    part: Some(shot.base as u32),
                    notes: vec![shot.range.label().to_string(), shot.chosen_by.clone()],
                    mode: Some(plan.mode.label().to_string()),
                    needed: Some(shot.need),
                    modifiers: words::modifiers(&shot.modifiers),
                    count: Some(n),
                    rolls: shot.dice.clone(),
                    hits: Some(shot.hits),
                    ..words::of(state, &shooter)
                },
            )
            .with_dice(shot.dice_index.clone()),
        );
        let from = shooter
            .bases(&m)
            .get(shot.base - 1)
            .map(|b| b.front_center());
        let to = target.bases(&m).get(shot.target_base - 1).map(|b| b.center);
        if let (Some(from), Some(to)) = (from, to) {
            state.traces.push(Trace {
                unit: shooter.id.clone(),
                side: shooter.side.clone(),
                points: vec![from, to],
                kind: TraceKind::Fire,
            });
        }
        report.shots.push(shot);
    }
    disrupt(state, &mut report, dice, events);
    let fired: Vec<String> = report.shots.iter().map(|s| s.shooter.clone()).collect();
    for id in fired {
        if let Some(u) = state.unit_mut(&id) {
            u.fired = true;
            if u.arm == Arm::Artillery {
                u.smoke = true;
            }
        }
    }
    if !report.not_firing.is_empty() {
        events.push(words::event(
            What::NotFiring,
            Facts {
                units: report
                    .not_firing
                    .iter()
                    .map(|(u, _)| words::unit_id(state, u))
                    .collect(),
                notes: report
                    .not_firing
                    .iter()
                    .map(|(_, why)| why.clone())
                    .collect(),
                idle: true,
                ..words::side(state, &plan.side)
            },
        ));
    }
    report
}

/// Roll to disrupt for each unit hit, in the order they were first hit;
/// place the DISR at once and break the units that exceed their bases.
fn disrupt(state: &mut State, report: &mut FireReport, dice: &mut Dice, events: &mut Vec<Event>) {
    let mut order: Vec<&str> = Vec::new();
    for s in report.shots.iter().filter(|s| s.hits > 0) {
        if !order.contains(&s.target.as_str()) {
            order.push(&s.target);
        }
    }
    let mut rolls = Vec::new();
    let mut broken = Vec::new();
    for id in order {
        let hits: u32 = report
            .shots
            .iter()
            .filter(|s| s.target == id)
            .map(|s| s.hits)
            .sum();
        let Some(target) = state.unit(id).cloned() else {
            continue;
        };
        let need = disrupt_number(target.arm, report.mode);
        let by = match report.mode {
            FireMode::Bombard => "bombardment",
            FireMode::Volley => "musketry or canister",
        };
        let mut roll = DisruptRoll {
            target: id.to_string(),
            hits,
            need,
            ..DisruptRoll::default()
        };
        for k in 0..hits {
            let v = dice.d6(format!(
                "{} to disrupt, hit {} of {hits} from {by}: {need}+ against {}",
                target.short(),
                k + 1,
                target.arm.label()
            ));
            roll.dice.push(v);
            roll.dice_index.extend(dice.last_index());
        }
        roll.disruptions = roll.dice.iter().filter(|v| **v >= need).count() as u32;
        roll.broken = target.would_break_with(roll.disruptions);
        if let Some(u) = state.unit_mut(id) {
            u.disruption += roll.disruptions;
        }
        events.push(
            words::event(
                What::Disrupt,
                Facts {
                    needed: Some(need),
                    count: Some(hits),
                    rolls: roll.dice.clone(),
                    hits: Some(roll.disruptions),
                    before: Some(target.disruption as i64),
                    after: Some((target.disruption + roll.disruptions) as i64),
                    losses: vec![Loss {
                        unit: target.id.clone(),
                        amount: roll.disruptions,
                        of: "DISR".into(),
                    }],
                    result: roll.broken.then(|| words::BREAKS.to_string()),
                    mode: Some(by.to_string()),
                    ..words::of(state, &target)
                },
            )
            .with_dice(roll.dice_index.clone()),
        );
        let before = state.army(&target.side).map_or(0, |a| a.morale);
        if roll.broken && state.break_unit(id).is_some() {
            let morale = state.army(&target.side).map_or(0, |a| a.morale);
            events.push(words::event(
                What::Broken,
                Facts {
                    morale: Some([before as i64, morale as i64]),
                    ..words::of(state, &target)
                },
            ));
            broken.push(id.to_string());
        }
        rolls.push(roll);
    }
    report.disruption = rolls;
    report.broken = broken;
}

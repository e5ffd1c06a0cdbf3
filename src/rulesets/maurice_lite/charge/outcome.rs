//! Combat results (chapter 8): passive units first, then active units.

use super::super::state::State;
use super::super::words::{self, What};
use super::report::{CombatResult, Engagement, Score};
use super::score::opponents;
use crate::event::{Event, Facts, Loss};
use std::collections::BTreeMap;

/// Resolve every engaged unit: defenders in scenario order, then attackers in
/// charge order. DISR are placed at once and may break units (through
/// [`State::break_unit`]); an attacker compares itself only with defenders
/// still on the table.
pub fn resolve_results(
    state: &mut State,
    attackers: &[String],
    engagements: &[Engagement],
    scores: &[Score],
    events: &mut Vec<Event>,
) -> Vec<CombatResult> {
    let score: BTreeMap<&str, i32> = scores.iter().map(|s| (s.unit.as_str(), s.score)).collect();
    let opp = opponents(engagements);
    let mut out = Vec::new();
    let engaged: std::collections::BTreeSet<&str> =
        engagements.iter().map(|e| e.defender.as_str()).collect();
    let defenders: Vec<String> = state
        .units
        .iter()
        .filter(|u| engaged.contains(u.id.as_str()))
        .map(|u| u.id.clone())
        .collect();
    for d in &defenders {
        let Some(&mine) = score.get(d.as_str()) else {
            continue;
        };
        let against = scored(&opp, &score, d, |_| true);
        let doubled = names(state, &against, |s| s >= 2 * mine);
        let beaten = names(state, &against, |s| s > mine);
        let (n, why) = if !doubled.is_empty() {
            (0, format!("broken: doubled by {doubled}"))
        } else if !beaten.is_empty() {
            (2, format!("2 DISR: outscored by {beaten}"))
        } else {
            (1, "1 DISR".to_string())
        };
        out.push(apply(state, d, against, n, why, events));
    }
    for a in attackers {
        let Some(&mine) = score.get(a.as_str()) else {
            continue;
        };
        if !state.unit(a).is_some_and(|u| u.on_table()) {
            continue;
        }
        let standing = |id: &str| state.unit(id).is_some_and(|u| u.on_table());
        let against = scored(&opp, &score, a, standing);
        let matched = names(state, &against, |s| s >= mine);
        let (n, why) = if !matched.is_empty() {
            (2, format!("2 DISR: equalled or outscored by {matched}"))
        } else {
            (1, "1 DISR".to_string())
        };
        out.push(apply(state, a, against, n, why, events));
    }
    out
}

/// The opponents of `id` that pass `keep`, with their scores.
fn scored(
    opp: &BTreeMap<String, Vec<String>>,
    score: &BTreeMap<&str, i32>,
    id: &str,
    keep: impl Fn(&str) -> bool,
) -> Vec<(String, i32)> {
    opp.get(id)
        .map(|v| {
            v.iter()
                .filter(|o| keep(o))
                .filter_map(|o| score.get(o.as_str()).map(|s| (o.clone(), *s)))
                .collect()
        })
        .unwrap_or_default()
}

/// "French B (fr-b) 10, French C (fr-c) 8" for the opponents whose score passes.
fn names(state: &State, against: &[(String, i32)], pass: impl Fn(i32) -> bool) -> String {
    against
        .iter()
        .filter(|(_, s)| pass(*s))
        .map(|(id, s)| {
            let name = state
                .unit(id)
                .map(|u| u.short())
                .unwrap_or_else(|| id.clone());
            format!("{name} {s}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Give `id` its `n` DISR (none and broken outright when `n` is 0).
fn apply(
    state: &mut State,
    id: &str,
    against: Vec<(String, i32)>,
    n: u32,
    why: String,
    events: &mut Vec<Event>,
) -> CombatResult {
    let breaks = n == 0 || state.unit(id).is_some_and(|u| u.would_break_with(n));
    let facts = Facts {
        reason: Some(why.clone()),
        losses: vec![Loss {
            unit: id.to_string(),
            amount: n,
            of: "DISR".into(),
        }],
        result: breaks.then(|| words::BREAKS.to_string()),
        ..state
            .unit(id)
            .map(|u| words::of(state, u))
            .unwrap_or_default()
    };
    let outcome = if breaks && n > 0 {
        format!("{why}, and breaks")
    } else {
        why
    };
    let side = state.unit(id).map(|u| u.side.clone());
    let before = side.as_ref().and_then(|s| words::morale(state, s));
    if breaks {
        state.break_unit(id);
    } else if let Some(u) = state.unit_mut(id) {
        u.disruption += n;
    }
    let mut facts = facts;
    if let Some(side) = &side {
        facts.morale = words::morale_change(state, side, before);
    }
    let what = if breaks {
        What::CombatBreaks
    } else {
        What::CombatResult
    };
    events.push(words::event(what, facts));
    CombatResult {
        unit: id.to_string(),
        against,
        outcome,
        disruptions: n,
        broken: breaks,
    }
}

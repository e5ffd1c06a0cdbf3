//! The campaign hook of every ruleset, played: a battle is fought by the
//! demo generals, its end is carried into a ledger, and the next battle
//! on the same field begins with exactly the ledger's forces.

use galloper::dice::Dice;
use galloper::muster::{AnyMuster, Condition, Force, Mustered, TableEdge};
use galloper::ruleset::AnyRuleset;
use galloper::side::{BySide, SideId};
use std::collections::BTreeMap;

/// A battle of `steps` steps or to its end, by the ruleset's demo player,
/// with dice from `seed`: the last state, as text.
fn fight(rules: &dyn AnyRuleset, scenario: &str, steps: u32, seed: u8) -> String {
    let mut player = galloper::demo::players::player(rules.name(), true)
        .expect("the demo player loads")
        .expect("every ruleset has a demo player");
    let mut state = rules.start(scenario).expect("the battle starts");
    for step in 0..steps {
        let due = rules.due(&state).unwrap();
        if due.owed.is_empty() {
            break;
        }
        let mut orders = BySide::new();
        for owed in &due.owed {
            let mut o = player
                .orders(&state, owed)
                .expect("the demo general writes orders");
            let refused = rules
                .check(&state, &owed.side, &o)
                .map(|v| !v.is_empty())
                .unwrap_or(true);
            if refused {
                o = player.pass(owed);
            }
            orders.insert(owed.side.clone(), o);
        }
        // Each step its own dice, as a game's committed seeds give.
        let mut public = [seed; 32];
        public[..4].copy_from_slice(&step.to_le_bytes());
        let mut hidden = public;
        hidden[31] ^= 0xff;
        let mut dice = Dice::from_seeds(public, hidden);
        let r = rules
            .resolve(&state, &orders, &mut dice)
            .expect("the step resolves");
        state = r.state;
        if r.outcome.is_some() {
            break;
        }
    }
    state
}

/// The hook's forces for a battle on `field`: each side of the ledger
/// enters by the edge given.
fn forces(ledger: &[(SideId, Mustered)], edges: &BTreeMap<SideId, TableEdge>) -> Vec<Force> {
    edges
        .iter()
        .map(|(side, edge)| Force {
            side: side.clone(),
            edge: *edge,
            units: ledger
                .iter()
                .filter(|(s, m)| s == side && m.condition != Condition::Lost)
                .map(|(_, m)| m.clone())
                .collect(),
        })
        .collect()
}

fn carried_into_the_next_battle(hook: &dyn AnyMuster, steps: u32) {
    let rules = galloper::rulesets::by_name(hook.name()).unwrap();
    let player = galloper::demo::players::player(hook.name(), true)
        .unwrap()
        .unwrap();
    let field = player.scenario();
    let ledger = hook
        .roster(field)
        .expect("the scenario's units make a ledger");
    let sides = rules.sides(field).unwrap();
    assert_eq!(sides.len(), 2);
    let edges: BTreeMap<SideId, TableEdge> = sides
        .iter()
        .cloned()
        .zip([TableEdge::South, TableEdge::North])
        .collect();
    // The first battle, fought from the ledger's forces.
    let first = hook
        .muster(field, &forces(&ledger, &edges))
        .expect("the first battle musters");
    let end = fight(rules, &first, steps, 7);
    let carried = hook.carry(&end).expect("the battle's end reads");
    // Every unit that began is accounted for, and some lost something.
    let mut ids: Vec<&str> = carried.iter().map(|c| c.id.as_str()).collect();
    let mut began: Vec<&str> = ledger.iter().map(|(_, m)| m.id.as_str()).collect();
    ids.sort();
    began.sort();
    assert_eq!(
        ids,
        began,
        "{}: every unit comes back from the battle",
        hook.name()
    );
    assert!(
        carried
            .iter()
            .any(|c| c.strength.now < c.strength.full || c.condition != Condition::Steady),
        "{}: {steps} steps of battle cost nobody anything: {carried:?}",
        hook.name()
    );
    // The ledger after the battle, and the next battle from it.
    let after: Vec<(SideId, Mustered)> = ledger
        .iter()
        .map(|(side, m)| {
            let c = carried.iter().find(|c| c.id == m.id).unwrap();
            assert_eq!(&c.side, side);
            (
                side.clone(),
                Mustered {
                    strength: c.strength,
                    condition: c.condition,
                    ..m.clone()
                },
            )
        })
        .collect();
    let swapped: BTreeMap<SideId, TableEdge> = edges
        .iter()
        .map(|(s, e)| (s.clone(), e.opposite()))
        .collect();
    let next = hook
        .muster(field, &forces(&after, &swapped))
        .expect("the next battle musters");
    rules.start(&next).expect("the next battle starts");
    let again = hook.roster(&next).unwrap();
    let want: Vec<(&str, u32, u32)> = after
        .iter()
        .filter(|(_, m)| m.condition != Condition::Lost)
        .map(|(_, m)| (m.id.as_str(), m.strength.now, m.strength.full))
        .collect();
    let got: Vec<(&str, u32, u32)> = again
        .iter()
        .map(|(_, m)| (m.id.as_str(), m.strength.now, m.strength.full))
        .collect();
    // A ruleset may order the sides as its set-up needs (the south first).
    let (mut got, mut want) = (got, want);
    got.sort();
    want.sort();
    assert_eq!(
        got,
        want,
        "{}: the next battle begins with the ledger's forces",
        hook.name()
    );
    // And the start of the next battle carries them unchanged.
    let fresh = rules.start(&next).unwrap();
    let at_start = hook.carry(&fresh).unwrap();
    for (id, now, full) in &want {
        let c = at_start.iter().find(|c| c.id == *id).unwrap();
        assert_eq!(
            (c.strength.now, c.strength.full),
            (*now, *full),
            "{}: {id} at the start",
            hook.name()
        );
    }
}

#[test]
fn every_ruleset_has_a_campaign_hook() {
    let mut hooked: Vec<&str> = galloper::rulesets::musters()
        .iter()
        .map(|m| m.name())
        .collect();
    let mut all = galloper::rulesets::names();
    hooked.sort();
    all.sort();
    assert_eq!(hooked, all);
}

#[test]
fn every_rulesets_losses_are_carried_from_a_battle_into_the_next() {
    for hook in galloper::rulesets::musters() {
        carried_into_the_next_battle(hook, 400);
    }
}

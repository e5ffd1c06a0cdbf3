//! Activation: up to three dice, an action for each die at or above the
//! unit's quality, two failures a turnover; the turn ends on a turnover or
//! when every unit has activated; standing melees are fought even after a
//! turnover. Damage: the coloured dice are among those rolled.

use super::common::*;
use galloper::rulesets::activation_dice::orders::{Action, Goal, Orders, TurnOrders, Turnover};
use galloper::rulesets::activation_dice::state::{Formation, Phase};
use galloper::rulesets::activation_dice::turn::begin;

fn ahead() -> Action {
    Action::Move(Goal::Ahead(100.0))
}

#[test]
fn activation_an_action_for_each_die_at_or_above_quality() {
    let s = table();
    // Line infantry, quality 4: a 4 passes, a 3 fails; one move of 2 S.
    let r = run(
        &s,
        &blue(),
        turn(vec![activation("b-inf", 2, vec![ahead(), ahead()])]),
        vec![4, 3],
    );
    let e = find(&r.events, "activation");
    assert_eq!(e.facts.hits, Some(1));
    assert_eq!(e.facts.result, None, "one failure is no turnover");
    assert!(
        (at(&r.state, "b-inf").y - 20.0).abs() < 1e-6,
        "one move of 10 cm"
    );
    assert!(has(&r.events, "refused"), "the second move is not paid for");
}

#[test]
fn activation_two_failures_are_a_turnover_the_unit_still_acts_no_other_unit_does() {
    let s = table();
    let o = turn(vec![
        activation("b-inf", 3, vec![ahead()]),
        activation("b-cav", 2, vec![ahead()]),
    ]);
    // 1 and 2 fail (white dice: no blunder), 5 succeeds.
    let r = run(&s, &blue(), o.clone(), vec![1, 2, 5, 6, 6]);
    assert_eq!(
        find(&r.events, "activation").facts.result.as_deref(),
        Some("turnover")
    );
    assert!(
        (at(&r.state, "b-inf").y - 20.0).abs() < 1e-6,
        "its success is carried out"
    );
    assert_eq!(at(&r.state, "b-cav").y, 10.0, "no other unit activates");
    assert_eq!(used(&s, &blue(), o, vec![1, 2, 5, 6, 6]), 3);
    assert!(find(&r.events, "turn_ends").text.contains("turnover"));
    assert!(matches!(r.state.phase, Phase::Turn { ref side, .. } if *side == red()));
}

#[test]
fn activation_turnover_policy_hold_gives_up_the_successes() {
    let s = table();
    let o = Orders::Turn(TurnOrders {
        activations: vec![activation("b-inf", 3, vec![ahead()])],
        turnover: Turnover::Hold,
        ..TurnOrders::default()
    });
    let r = run(&s, &blue(), o, vec![1, 2, 5]);
    assert_eq!(at(&r.state, "b-inf").y, 10.0);
}

#[test]
fn activation_the_turn_ends_when_every_unit_has_activated() {
    let s = table();
    let o = turn(vec![
        activation("b-inf", 1, vec![]),
        activation("b-cav", 1, vec![]),
    ]);
    let r = run(&s, &blue(), o, vec![4, 4]);
    assert!(
        find(&r.events, "turn_ends")
            .text
            .contains("every unit has activated")
    );
    // Red's turn 1 follows (Blue moved first), then Blue's turn 2.
    assert_eq!(
        r.state.phase,
        Phase::Turn {
            turn: 1,
            side: red()
        }
    );
}

#[test]
fn melee_attacks_existing_melees_are_fought_even_after_a_turnover() {
    let mut s = table();
    put(&mut s, "b-inf", 20.0, 40.0, 0.0, Formation::Column);
    put(&mut s, "r-inf", 20.0, 40.0, 180.0, Formation::Column);
    begin(&mut s, 1, &blue());
    assert_eq!(s.melees.len(), 1);
    // The horse turns over (quality 3: 1 and 2 fail); then the melee:
    // 6 + 1 = 7 against 1 + 1 = 2, more than triple: 2 disorders and a
    // critical roll of 3 + 4 = 7, a devastating volley (recoil 1 S).
    let o = turn(vec![activation("b-cav", 2, vec![])]);
    let r = run(&s, &blue(), o, vec![1, 2, 6, 1, 3, 4]);
    let m = find(&r.events, "melee");
    assert_eq!(
        m.facts.unit.as_ref().unwrap().id,
        "b-inf",
        "the side whose turn it is attacks"
    );
    assert_eq!(unit(&r.state, "r-inf").disorder, 2);
    assert!(
        (at(&r.state, "r-inf").y - 45.0).abs() < 1e-6,
        "recoiled one short"
    );
}

#[test]
fn damage_coloured_dice_are_rolled_first_and_a_1_on_one_is_a_blunder() {
    let mut s = table();
    unit_mut(&mut s, "b-inf").disorder = 1;
    // The first die is coloured: its 1 is a blunder (table: 2, hesitation).
    let r = run(
        &s,
        &blue(),
        turn(vec![activation("b-inf", 2, vec![ahead()])]),
        vec![1, 5, 2],
    );
    let a = find(&r.events, "activation");
    assert_eq!(a.facts.notes, ["coloured", "white"]);
    assert!(has(&r.events, "blunder"));
    // A 1 on the white die is no blunder.
    let r = run(
        &s,
        &blue(),
        turn(vec![activation("b-inf", 2, vec![ahead()])]),
        vec![5, 1],
    );
    assert!(!has(&r.events, "blunder"));
}

#[test]
fn damage_three_coloured_dice_cripple_and_more_damage_removes() {
    use galloper::rulesets::activation_dice::combat::damage;
    let mut s = table();
    let i = s.index("r-inf").unwrap();
    damage(&mut s, i, 3, "test");
    assert!(s.units[i].crippled());
    let ev = damage(&mut s, i, 1, "test");
    assert!(!s.units[i].live());
    assert!(ev.iter().any(|e| e.what == "removed"));
}

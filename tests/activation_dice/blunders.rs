//! Blunder: a 1 on a coloured die rolls the blunder table. Each test gives
//! Blue's foot one coloured die (one disorder), rolled first.

use super::common::*;
use galloper::rulesets::activation_dice::orders::{Action, AfterBlunder, Goal, Orders, TurnOrders};
use galloper::rulesets::activation_dice::state::{Formation, State};

fn hurt() -> State {
    let mut s = table();
    unit_mut(&mut s, "b-inf").disorder = 1;
    s
}

fn ahead() -> Action {
    Action::Move(Goal::Ahead(100.0))
}

#[test]
fn blunder_1_garbled_orders_rerolls_a_successful_die_and_keeps_it() {
    let s = hurt();
    // 1 (coloured, blunder), 5 (success); table 1; the 5 rerolled as 2:
    // now two failures, a turnover, and nothing to act with.
    let r = run(
        &s,
        &blue(),
        turn(vec![activation("b-inf", 2, vec![ahead()])]),
        vec![1, 5, 1, 2],
    );
    assert_eq!(find(&r.events, "garbled_reroll").facts.rolls, [2]);
    let act = find(&r.events, "activation");
    assert_eq!(act.facts.result.as_deref(), Some("turnover"));
    // The activation quotes and cites the dice that count: the 1 and the
    // re-rolled 2 (the fourth die of the script), not the 5 it replaced.
    assert_eq!(act.facts.rolls, [1, 2]);
    assert_eq!(act.dice, [0, 3]);
    assert_eq!(at(&r.state, "b-inf").y, 10.0);
}

#[test]
fn blunder_2_hesitation_forfeits_the_successes_without_a_turnover() {
    let s = hurt();
    let r = run(
        &s,
        &blue(),
        turn(vec![activation("b-inf", 2, vec![ahead()])]),
        vec![1, 5, 2],
    );
    assert_eq!(find(&r.events, "activation").facts.result, None);
    assert_eq!(at(&r.state, "b-inf").y, 10.0, "the success is forfeit");
}

#[test]
fn blunder_3_forward_moves_the_full_rate_then_the_script() {
    let s = hurt();
    let r = run(
        &s,
        &blue(),
        turn(vec![activation("b-inf", 2, vec![ahead()])]),
        vec![1, 5, 3],
    );
    assert!(
        (at(&r.state, "b-inf").y - 30.0).abs() < 1e-6,
        "10 free and 10 paid"
    );
    let stop = Orders::Turn(TurnOrders {
        activations: vec![activation("b-inf", 2, vec![ahead()])],
        after_blunder: AfterBlunder::Stop,
        ..TurnOrders::default()
    });
    let r = run(&s, &blue(), stop, vec![1, 5, 3]);
    assert!(
        (at(&r.state, "b-inf").y - 20.0).abs() < 1e-6,
        "policy: stop after the blunder"
    );
}

#[test]
fn blunder_4_fall_back_moves_the_full_rate_back_keeping_facing() {
    let mut s = hurt();
    put(&mut s, "b-inf", 20.0, 30.0, 0.0, Formation::Column);
    let stop = Orders::Turn(TurnOrders {
        activations: vec![activation("b-inf", 2, vec![ahead()])],
        after_blunder: AfterBlunder::Stop,
        ..TurnOrders::default()
    });
    let r = run(&s, &blue(), stop, vec![1, 5, 4]);
    assert!((at(&r.state, "b-inf").y - 20.0).abs() < 1e-6);
    assert_eq!(unit(&r.state, "b-inf").facing.degrees(), 0.0);
}

#[test]
fn blunder_5_charge_the_first_action_charges_the_nearest_enemy_within_1m() {
    let mut s = hurt();
    // 8 cm from Red's foot (1 M is 10 cm).
    put(&mut s, "b-inf", 20.0, 42.0, 0.0, Formation::Column);
    // Blunder 5; the charge's melee: 3 + 1 + 1 charging = 5 against 3 + 1 = 4.
    let r = run(
        &s,
        &blue(),
        turn(vec![activation("b-inf", 2, vec![Action::Hold])]),
        vec![1, 5, 5, 3, 3],
    );
    let m = find(&r.events, "melee");
    assert_eq!(m.facts.target.as_ref().unwrap().id, "r-inf");
    // The totals named for what they are (issue 30, item 23).
    assert_eq!(m.facts.attacker_total, Some(5));
    assert_eq!(m.facts.defender_total, Some(4));
    assert!((at(&r.state, "b-inf").y - 50.0).abs() < 1e-6, "in contact");
}

#[test]
fn blunder_6_fire_shoots_the_nearest_unit_in_range_friend_or_foe() {
    let mut s = hurt();
    put(&mut s, "b-inf", 20.0, 30.0, 0.0, Formation::Line);
    put(&mut s, "b-cav", 20.0, 36.0, 0.0, Formation::Mounted);
    put(&mut s, "r-inf", 20.0, 42.0, 180.0, Formation::Line);
    let r = run(
        &s,
        &blue(),
        turn(vec![activation("b-inf", 2, vec![Action::Hold])]),
        vec![1, 5, 6, 1, 2],
    );
    let f = find(&r.events, "fire");
    assert_eq!(
        f.facts.target.as_ref().unwrap().id,
        "b-cav",
        "the friend is nearer"
    );
}

#[test]
fn blunder_4_fall_back_a_unit_locked_in_melee_moves_back_its_full_rate_and_the_melee_ends() {
    let mut s = hurt();
    // Blue's column front to front with Red's: locked in melee.
    put(&mut s, "b-inf", 20.0, 50.0, 0.0, Formation::Column);
    put(&mut s, "r-inf", 20.0, 50.0, 180.0, Formation::Column);
    galloper::rulesets::activation_dice::turn::begin(&mut s, 1, &blue());
    assert_eq!(s.melees.len(), 1, "a standing melee");
    let stop = Orders::Turn(TurnOrders {
        activations: vec![activation("b-inf", 2, vec![ahead()])],
        after_blunder: AfterBlunder::Stop,
        ..TurnOrders::default()
    });
    // 1 (coloured, blunder), 5; the table's 4: fall back 2 S = 10 cm.
    let r = run(&s, &blue(), stop, vec![1, 5, 4]);
    assert!(
        (at(&r.state, "b-inf").y - 40.0).abs() < 1e-6,
        "{:?}",
        texts(&r.events)
    );
    assert_eq!(unit(&r.state, "b-inf").facing.degrees(), 0.0, "facing kept");
    let b = unit(&r.state, "b-inf");
    assert!(r.state.contacts(b).is_empty(), "out of the melee");
    assert!(!has(&r.events, "melee"), "the standing melee is not fought");
    let mv = find(&r.events, "move");
    assert!(mv.text.contains("falls back"), "{}", mv.text);
    assert!(
        mv.text.contains("leaves the melee with Red Foot"),
        "{}",
        mv.text
    );
}

#[test]
fn blunder_3_forward_that_meets_an_enemy_is_a_charge_fought_at_once() {
    let mut s = hurt();
    // 8 cm from Red's foot: the full move of 10 cm meets it.
    put(&mut s, "b-inf", 20.0, 42.0, 0.0, Formation::Column);
    let stop = Orders::Turn(TurnOrders {
        activations: vec![activation("b-inf", 2, vec![Action::Hold])],
        after_blunder: AfterBlunder::Stop,
        ..TurnOrders::default()
    });
    // Blunder 3; the charge's melee at once: 3 + 1 + 1 charging = 5
    // against 3 + 1 = 4.
    let r = run(&s, &blue(), stop, vec![1, 5, 3, 3, 3]);
    assert!((at(&r.state, "b-inf").y - 50.0).abs() < 1e-6, "in contact");
    let m = find(&r.events, "melee");
    assert_eq!(m.facts.target.as_ref().unwrap().id, "r-inf");
    assert_eq!(m.facts.mode.as_deref(), Some("a charge"));
    // The totals named for what they are (issue 30, item 23).
    assert_eq!(m.facts.attacker_total, Some(5));
    assert_eq!(m.facts.defender_total, Some(4));
    assert!(find(&r.events, "move").text.contains("charges Red Foot"));
}

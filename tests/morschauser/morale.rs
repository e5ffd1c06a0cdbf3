//! E.3 brigade morale: tested once when half the brigade is lost.

use crate::advanced::*;
use crate::common::*;
use galloper::rulesets::morschauser_macduff::morale;
use galloper::rulesets::morschauser_macduff::orders::{Action, Sequence};
use galloper::rulesets::morschauser_macduff::state::State;

/// Brigade of b-lt and b-hc under b-gen, b-hc already lost; b-lt at
/// (36, 24) facing Red at (36, 34).
fn broken() -> State {
    let mut s = table();
    only(&mut s, &["b-lt", "b-hc"]);
    s.scenario.options.brigade_morale = true;
    general(&mut s, "b-gen", (60.0, 2.0), &["b-lt", "b-hc"], None);
    place(&mut s, "b-lt", 36.0, 24.0, 0.0);
    place(&mut s, "r-li", 36.0, 34.0, 180.0);
    s.destroy("b-hc");
    s
}

#[test]
fn e3_half_the_brigade_lost_3_or_4_obeys_and_the_test_is_taken_once() {
    let s = broken();
    let r = run(&s, turn(vec![forward("b-lt", 3.0)]), vec![3]);
    assert_eq!(r.dice.len(), 1, "{:?}", r.dice);
    assert!(r.dice[0].1.contains("brigade morale (E.3)"));
    assert!(near(y(r.state(), "b-lt"), 27.0), "{:?}", r.texts);
    assert!(r.state().morale_tested.contains("b-gen"));
    // Next turn: no second test.
    let r2 = run(r.state(), turn(vec![]), vec![]);
    assert!(r2.dice.is_empty());
    // Less than half lost: no test.
    let mut whole = broken();
    whole.company_mut("b-hc").unwrap().destroyed = false;
    assert!(run(&whole, turn(vec![]), vec![]).dice.is_empty());
    // Option off: no test.
    let mut off = broken();
    off.scenario.options.brigade_morale = false;
    assert!(run(&off, turn(vec![]), vec![]).dice.is_empty());
}

#[test]
fn e3_1_or_2_retreats_a_full_move_and_does_not_move_again() {
    let s = broken();
    let r = run(&s, turn(vec![forward("b-lt", 3.0)]), vec![2]);
    // 15" straight away from Red: from y 24 to y 9, facing away.
    let c = r.state().company("b-lt").unwrap();
    assert!(near(c.at.y, 9.0) && near(c.at.x, 36.0), "{:?}", r.texts);
    assert!(near(c.facing.degrees(), 180.0));
    assert!(
        r.has("used its move in its morale retreat"),
        "{:?}",
        r.texts
    );
}

#[test]
fn e3_5_or_6_routs_off_the_table_and_counts_as_lost() {
    let s = broken();
    let shoot = Action {
        sequence: Sequence::MoveThenShoot,
        target: Some("r-li".into()),
        ..forward("b-lt", 3.0)
    };
    let r = run(&s, turn(vec![shoot.clone()]), vec![5]);
    // Straight for the nearest edge (y 0), a full move: front at y 9.
    assert!(morale::is_routing(r.state(), "b-lt"));
    assert!(near(y(r.state(), "b-lt"), 9.0), "{:?}", r.texts);
    assert!(r.has("is routing and ignores its orders"), "{:?}", r.texts);
    assert_eq!(r.dice.len(), 1, "no shooting: {:?}", r.dice);
    // Its next half-turn it reaches the edge and is gone.
    let r2 = run(r.state(), turn(vec![shoot]), vec![]);
    let c = r2.state().company("b-lt").unwrap();
    assert!(c.destroyed, "{:?}", r2.texts);
    assert!(r2.has("leaves the table"));
    assert_eq!(r2.state().losses.get(&blue()), Some(&2));
}

#[test]
fn e3_a_rout_avoids_the_enemy_side_of_the_table() {
    // Red stands between b-lt and the nearest (bottom) edge: it makes for
    // the next nearest edge whose road is clear (the top).
    let mut s = broken();
    place(&mut s, "b-lt", 36.0, 20.0, 0.0);
    place(&mut s, "r-li", 36.0, 10.0, 0.0);
    let r = run(&s, turn(vec![]), vec![6]);
    assert!(y(r.state(), "b-lt") > 20.0, "{:?}", r.texts);
}

#[test]
fn e3_e1_a_formed_regiment_tests_as_one() {
    let mut s = table();
    only(&mut s, &["b-li", "b-li2", "b-lt", "b-hc"]);
    s.scenario.options.brigade_morale = true;
    general(
        &mut s,
        "b-gen",
        (60.0, 2.0),
        &["b-reg", "b-lt", "b-hc"],
        None,
    );
    s.destroy("b-lt");
    s.destroy("b-hc");
    let r = run(&s, turn(vec![]), vec![4]);
    assert_eq!(r.dice.len(), 1, "{:?}", r.dice);
    assert!(r.dice[0].1.contains("formed regiment b-reg"));
}

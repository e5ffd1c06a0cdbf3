//! Chapter 7 in the round: the volley phase, return fire, bombardment, and
//! the cards and reactions that bend them.

use crate::common::*;
use galloper::rulesets::maurice_lite::fire::FireMode;
use galloper::rulesets::maurice_lite::units::Formation;

/// Blue and red foot face each other 2 BW apart.
fn lines() -> galloper::rulesets::maurice_lite::state::State {
    let mut s = table();
    place(&mut s, "b-i1", 10.0, 10.0, 0.0, Formation::Line);
    place(&mut s, "r-i1", 10.0, 12.0, 180.0, Formation::Line);
    hand(&mut s, &blue(), &["c39"]);
    s
}

#[test]
fn the_active_side_fires_then_the_passive_side_returns_fire() {
    let s = lines();
    // Blue: 6 6 1 1 to hit (two hits), 4 3 to disrupt (one DISR).
    // Red: 6 1 1 1 to hit (one hit), 5 to disrupt.
    let r = resolve(
        &s,
        &blue(),
        "round: {volleys: true, command: pass}",
        vec![6, 6, 1, 1, 4, 3, 6, 1, 1, 1, 5],
    );
    assert_eq!(r.state.unit("r-i1").unwrap().disruption, 1, "{}", texts(&r));
    assert_eq!(r.state.unit("b-i1").unwrap().disruption, 1);
    let fire = &r.state.detail.fire;
    assert_eq!(fire.len(), 2);
    assert_eq!(
        (fire[0].side.clone(), fire[1].side.clone()),
        (blue(), red())
    );
    assert_eq!(fire[0].shots.len(), 4, "one die per base");
    assert!(fire.iter().all(|f| f.mode == FireMode::Volley));
}

#[test]
fn no_volley_phase_means_no_return_fire_and_return_fire_can_be_held() {
    let s = lines();
    let r = resolve(&s, &blue(), "round: {command: pass}", vec![]);
    assert!(r.state.detail.fire.is_empty());
    let mut s = lines();
    s.standing.insert(
        red(),
        galloper::yaml::from_str("return_fire: none").unwrap(),
    );
    let r = resolve(
        &s,
        &blue(),
        "round: {volleys: true, command: pass}",
        vec![1, 1, 1, 1],
    );
    assert_eq!(r.state.detail.fire.len(), 2);
    assert!(
        r.state.detail.fire[1].shots.is_empty(),
        "red holds its fire: {}",
        texts(&r)
    );
}

#[test]
fn a_fire_first_interrupt_lets_the_passive_side_shoot_first() {
    let mut s = lines();
    hand(&mut s, &red(), &["c08"]);
    s.standing.insert(
        red(),
        galloper::yaml::from_str("interrupts: [{card: c08, on: volleys}]").unwrap(),
    );
    let r = resolve(
        &s,
        &blue(),
        "round: {volleys: true, command: pass}",
        vec![1; 8],
    );
    assert_eq!(r.state.detail.fire[0].side, red(), "{}", texts(&r));
    assert!(texts(&r).contains("Ready, Present"));
}

#[test]
fn shooting_cards_modify_every_to_hit_die() {
    let mut s = lines();
    hand(&mut s, &blue(), &["c11", "c39"]);
    hand(&mut s, &red(), &["c09"]);
    s.standing.insert(
        red(),
        galloper::yaml::from_str("modifiers: [{card: c09, on: volleys}]").unwrap(),
    );
    let r = resolve(
        &s,
        &blue(),
        "round: {volleys: true, command: pass, modify: [c11]}",
        vec![1; 8],
    );
    let blue_shot = &r.state.detail.fire[0].shots[0];
    let values: Vec<i32> = blue_shot.modifiers.iter().map(|m| m.value).collect();
    assert!(
        values.contains(&1) && values.contains(&-1),
        "{:?}",
        blue_shot.modifiers
    );
    let red_shot = &r.state.detail.fire[1].shots[0];
    assert!(
        red_shot
            .modifiers
            .iter()
            .all(|m| m.value != 1 || !m.reason.contains("card")),
        "Blue's own card does not help Red"
    );
}

#[test]
fn a_bombard_action_fires_the_guns_at_long_range_and_smokes_them() {
    let mut s = table();
    place(&mut s, "b-a1", 10.0, 3.0, 0.0, Formation::Battery);
    place(&mut s, "r-i1", 10.0, 12.0, 180.0, Formation::Line);
    hand(&mut s, &blue(), &["c39"]);
    let o = "round: {command: {bombard: {force: [b-a1], cards: fewest}}}";
    assert!(
        check(&s, &blue(), o).is_empty(),
        "{}",
        rules_of(&check(&s, &blue(), o))
    );
    let r = resolve(&s, &blue(), o, vec![6, 6]);
    let f = &r.state.detail.fire[0];
    assert_eq!(f.mode, FireMode::Bombard, "{}", texts(&r));
    assert_eq!(f.shots.len(), 1);
    assert!(r.state.unit("b-a1").unwrap().smoke);
    // A gun with a target at short range may not bombard.
    place(&mut s, "r-i1", 10.0, 6.0, 180.0, Formation::Line);
    assert!(!check(&s, &blue(), o).is_empty());
}

#[test]
fn guns_that_fired_in_the_volley_phase_may_not_be_activated() {
    // But to march off their smoke: see as_written.rs, item 5.
    let mut s = table();
    place(&mut s, "b-a1", 10.0, 8.0, 0.0, Formation::Battery);
    place(&mut s, "r-i1", 10.0, 11.0, 180.0, Formation::Line);
    hand(&mut s, &blue(), &["c39"]);
    let o = "round: {volleys: true, command: {bombard: {force: [b-a1], cards: fewest}}}";
    let r = resolve(&s, &blue(), o, vec![1; 12]);
    assert!(
        texts(&r).contains("fired in the volley phase and may not be activated"),
        "{}",
        texts(&r)
    );
    assert!(r.state.unit("b-a1").unwrap().smoke, "the smoke stays");
}

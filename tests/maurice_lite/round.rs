//! Chapters 1, 2, 4, 6 and 9: forces, activation, bluffing, rally, the CinC,
//! nightfall and army morale.

use crate::common::*;
use galloper::geometry::Point;
use galloper::ruleset::Ruleset;
use galloper::rulesets::maurice_lite::MauriceLite;
use galloper::rulesets::maurice_lite::forces::{activation_distance, check_force};
use galloper::rulesets::maurice_lite::rally::rally_number;
use galloper::rulesets::maurice_lite::state::Phase;
use galloper::rulesets::maurice_lite::units::{Arm, Formation};

#[test]
fn army_morale_is_half_the_units_rounded_up() {
    let s = table();
    assert_eq!(s.armies[&blue()].morale, 4, "7 units");
    assert_eq!(s.armies[&red()].morale, 2, "3 units");
}

#[test]
fn units_have_four_bases_and_artillery_one() {
    assert_eq!(Arm::Infantry.bases(), 4);
    assert_eq!(Arm::Cavalry.bases(), 4);
    assert_eq!(Arm::Artillery.bases(), 1);
    assert!(Formation::Massed.allowed_for(Arm::Cavalry));
    assert!(!Formation::Massed.allowed_for(Arm::Infantry));
}

#[test]
fn a_unit_breaks_when_disr_exceeds_its_bases() {
    let mut s = table();
    let u = s.unit_mut("b-i1").unwrap();
    u.disruption = 4;
    assert!(!u.would_break_with(0));
    assert!(u.would_break_with(1));
    let a = s.unit_mut("b-a1").unwrap();
    a.disruption = 1;
    assert!(a.would_break_with(1));
}

#[test]
fn a_force_is_one_arm_one_formation_one_ground_and_linked_within_two() {
    let mut s = table();
    place(&mut s, "b-i1", 5.0, 3.0, 0.0, Formation::Line);
    place(&mut s, "b-i2", 10.0, 3.0, 0.0, Formation::Line);
    place(&mut s, "b-i3", 16.0, 3.0, 0.0, Formation::Line);
    place(&mut s, "b-c1", 10.0, 6.0, 0.0, Formation::Line);
    let ids = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(
        check_force(&s, &blue(), &ids(&["b-i1", "b-i2"])).is_ok(),
        "1 BW apart"
    );
    assert!(
        check_force(&s, &blue(), &ids(&["b-i1", "b-i2", "b-i3"])).is_ok(),
        "b-i3 is 2 BW from b-i2"
    );
    assert!(
        check_force(&s, &blue(), &ids(&["b-i1", "b-i3"])).is_err(),
        "7 BW apart"
    );
    assert!(
        check_force(&s, &blue(), &ids(&["b-i2", "b-c1"])).is_err(),
        "two arms"
    );
    place(&mut s, "b-i3", 15.0, 3.0, 90.0, Formation::Column);
    assert!(
        check_force(&s, &blue(), &ids(&["b-i2", "b-i3"])).is_err(),
        "two formations"
    );
    place(&mut s, "b-i3", 31.0, 12.0, 0.0, Formation::Line);
    place(&mut s, "b-i2", 31.0, 9.0, 0.0, Formation::Line);
    assert!(
        check_force(&s, &blue(), &ids(&["b-i2", "b-i3"])).is_err(),
        "one in the wood, one out"
    );
}

#[test]
fn activation_distance_goes_around_the_enemy_by_one_bw() {
    let mut s = table();
    s.armies.get_mut(&blue()).unwrap().cinc = Some(Point::new(20.0, 2.0));
    place(&mut s, "b-i1", 20.0, 12.0, 0.0, Formation::Line);
    let one = ["b-i1".to_string()];
    let straight =
        activation_distance(&s, &blue(), &check_force(&s, &blue(), &one).unwrap()).unwrap();
    assert!(
        (straight - (12.0 - 0.75 - 2.0)).abs() < 1e-6,
        "straight to the rear edge: {straight}"
    );
    // A red unit across the line between them forces a detour.
    place(&mut s, "r-i1", 20.0, 6.0, 180.0, Formation::Line);
    let around =
        activation_distance(&s, &blue(), &check_force(&s, &blue(), &one).unwrap()).unwrap();
    assert!(around > straight + 1.0, "detour {around} vs {straight}");
}

#[test]
fn the_fewest_cards_that_reach_are_played_and_a_bluff_loses_the_hand() {
    let mut s = table();
    s.armies.get_mut(&blue()).unwrap().cinc = Some(Point::new(20.0, 2.0));
    place(&mut s, "b-i1", 20.0, 16.0, 0.0, Formation::Line);
    // 13.25 BW away: needs 14. c33 (14) alone does it.
    hand(&mut s, &blue(), &["c01", "c33", "c02"]);
    s.piles.draw = vec!["c28".into()];
    let r = resolve(
        &s,
        &blue(),
        "round: {command: {march: {force: [b-i1], cards: fewest, moves: [{unit: b-i1, steps: [{forward: 1}]}]}}}",
        vec![],
    );
    let h = &r.state.armies[&blue()].hand;
    assert!(!h.contains(&"c33".to_string()), "{}", texts(&r));
    assert!(h.contains(&"c01".to_string()) && h.contains(&"c02".to_string()));
    // With only small cards, the declared march fails and the hand goes.
    hand(&mut s, &blue(), &["c01"]);
    let r = resolve(
        &s,
        &blue(),
        "round: {command: {march: {force: [b-i1], cards: fewest}}}",
        vec![],
    );
    assert!(r.state.armies[&blue()].hand.is_empty(), "{}", texts(&r));
    assert!(texts(&r).contains("discards all"), "{}", texts(&r));
}

#[test]
fn rally_rolls_a_die_per_disr_with_near_and_terrain_modifiers() {
    assert_eq!(rally_number(Arm::Infantry), 4);
    assert_eq!(rally_number(Arm::Cavalry), 5);
    assert_eq!(rally_number(Arm::Artillery), 5);
    let mut s = table();
    place(&mut s, "b-i1", 10.0, 3.0, 0.0, Formation::Line);
    s.unit_mut("b-i1").unwrap().disruption = 3;
    hand(&mut s, &blue(), &["c39"]);
    let o = "round: {command: {rally: {force: [b-i1], cards: fewest}}}";
    // Not near the enemy: +1, so 3 rallies infantry; 1 always fails.
    let r = resolve(&s, &blue(), o, vec![3, 1, 2]);
    assert_eq!(r.state.unit("b-i1").unwrap().disruption, 2, "{}", texts(&r));
    // Near the enemy: 3 is not enough, 6 always works.
    place(&mut s, "r-i1", 10.0, 6.0, 180.0, Formation::Line);
    let r = resolve(&s, &blue(), o, vec![3, 6, 4]);
    assert_eq!(r.state.unit("b-i1").unwrap().disruption, 1, "{}", texts(&r));
}

#[test]
fn moving_the_cinc_costs_a_card() {
    let mut s = table();
    hand(&mut s, &blue(), &["c01", "c39"]);
    let r = resolve(
        &s,
        &blue(),
        "round: {command: pass, cinc: {to: {x: 10, y: 2}}}",
        vec![],
    );
    assert_eq!(r.state.armies[&blue()].cinc, Some(Point::new(10.0, 2.0)));
    assert!(
        !r.state.armies[&blue()].hand.contains(&"c01".to_string()),
        "the lowest span goes: {}",
        texts(&r)
    );
}

#[test]
fn a_cinc_under_his_own_troops_is_displaced_and_pays_a_card_or_morale() {
    let mut s = table();
    place(&mut s, "b-i1", 20.0, 1.5, 0.0, Formation::Line);
    s.piles.draw.clear();
    hand(&mut s, &blue(), &[]);
    let r = resolve(&s, &blue(), "round: {command: pass}", vec![]);
    let c = r.state.armies[&blue()].cinc.unwrap();
    assert!(
        c.y < 0.76 || (c.x - 20.0).abs() >= 1.0,
        "moved off the troops: {c:?}"
    );
    assert_eq!(
        r.state.armies[&blue()].morale,
        3,
        "no card to give: one morale point: {}",
        texts(&r)
    );
}

#[test]
fn nightfall_comes_with_an_empty_deck_and_two_passes() {
    let mut s = table();
    s.piles.draw.clear();
    let r1 = resolve(&s, &blue(), "round: {command: pass}", vec![]);
    assert!(matches!(r1.state.phase, Phase::Round { .. }));
    let r2 = resolve(&r1.state, &red(), "round: {command: pass}", vec![]);
    assert!(matches!(r2.state.phase, Phase::Over(_)), "{}", texts(&r2));
    assert!(r2.outcome.unwrap().winner.is_none());
}

#[test]
fn the_game_ends_when_army_morale_reaches_zero() {
    let mut s = table();
    s.armies.get_mut(&blue()).unwrap().morale = 1;
    place(&mut s, "b-i1", 20.0, 1.5, 0.0, Formation::Line);
    s.piles.draw.clear();
    let r = resolve(&s, &blue(), "round: {command: pass}", vec![]);
    let o = r.outcome.expect("over");
    assert_eq!(o.winner, Some(red()));
}

#[test]
fn a_consulted_round_pauses_after_the_draw_and_resumes_with_the_decision() {
    let mut s = table();
    place(&mut s, "b-i1", 20.0, 3.0, 0.0, Formation::Line);
    hand(&mut s, &blue(), &["c01"]);
    let r = resolve(
        &s,
        &blue(),
        "round: {command: {march: {consult: true}}}",
        vec![],
    );
    let Phase::Decision { pending, .. } = &r.state.phase else {
        panic!("no pause: {}", texts(&r))
    };
    assert_eq!(pending.drawn.len(), 1);
    let due = MauriceLite.due(&r.state);
    assert_eq!(due.owed[0].side, blue());
    let drawn = pending.drawn[0].clone();
    let decide = format!(
        "decide: {{force: [b-i1], cards: [{drawn}], moves: [{{unit: b-i1, steps: [{{forward: 2}}]}}]}}"
    );
    assert!(
        check(&r.state, &blue(), &decide).is_empty(),
        "{}",
        rules_of(&check(&r.state, &blue(), &decide))
    );
    let r2 = resolve(&r.state, &blue(), &decide, vec![]);
    assert_eq!(
        r2.state.unit("b-i1").unwrap().anchor,
        Some(Point::new(20.0, 5.0)),
        "{}",
        texts(&r2)
    );
    assert!(matches!(&r2.state.phase, Phase::Round { active } if *active == red()));
}

#[test]
fn the_first_round_roll_rerolls_ties() {
    let mut s = table();
    s.phase = Phase::Deployment;
    let deploy_blue = "deploy: {cinc: {x: 20, y: 2}, units: [{unit: b-i1, at: {x: 5, y: 8}}, {unit: b-i2, at: {x: 10, y: 8}}, {unit: b-i3, at: {x: 15, y: 8}}, {unit: b-c1, at: {x: 20, y: 8}}, {unit: b-c2, at: {x: 25, y: 8}}, {unit: b-a1, at: {x: 30, y: 8}}, {unit: b-i4, at: {x: 35, y: 8}}]}";
    let deploy_red = "deploy: {cinc: {x: 20, y: 28}, units: [{unit: r-i1, at: {x: 5, y: 22}}, {unit: r-i2, at: {x: 10, y: 22}}, {unit: r-c1, at: {x: 20, y: 22}}]}";
    assert!(
        check(&s, &blue(), deploy_blue).is_empty(),
        "{}",
        rules_of(&check(&s, &blue(), deploy_blue))
    );
    assert!(
        check(&s, &red(), deploy_red).is_empty(),
        "{}",
        rules_of(&check(&s, &red(), deploy_red))
    );
    let bad = deploy_blue.replace("y: 8}}, {unit: b-i2", "y: 15}}, {unit: b-i2");
    assert!(rules_of(&check(&s, &blue(), &bad)).contains("deployment zone"));
    let mut by = galloper::side::BySide::new();
    by.insert(blue(), orders(deploy_blue));
    by.insert(red(), orders(deploy_red));
    // The shuffles use the hidden dice: 39 + 29 draws (40 action cards, then 28 plus 2 Reshuffles), scripted as 1s; then the roll-off.
    let mut script = vec![1; 39 + 29];
    script.extend([4, 4, 2, 5]);
    let mut d = galloper::dice::Dice::scripted(script);
    let r = MauriceLite.resolve(&s, &by, &mut d);
    assert!(
        matches!(&r.state.phase, Phase::Round { active } if *active == red()),
        "{}",
        texts(&r)
    );
    assert_eq!(r.state.armies[&blue()].hand.len(), 6);
}

#[test]
fn an_interrupt_that_puts_the_force_out_of_reach_foils_the_activation() {
    use galloper::rulesets::maurice_lite::cards::{Payment, pay_after_interrupt};
    let s = table();
    let played = vec!["c31".to_string()]; // span 10
    // 8 BW more: the hand tops up with the fewest cards that still reach.
    let p = pay_after_interrupt(&s, &played, &["c01".into(), "c30".into()], 9, 8);
    assert_eq!(p, Payment::Paid(vec!["c31".into(), "c30".into()]));
    // Nothing in hand reaches: the played card is lost.
    let p = pay_after_interrupt(&s, &played, &["c01".into()], 9, 8);
    assert_eq!(
        p,
        Payment::Foiled {
            lost: vec!["c31".into()]
        }
    );
    // No interrupt: the cards played stand.
    assert_eq!(
        pay_after_interrupt(&s, &played, &[], 9, 0),
        Payment::Paid(played.clone())
    );
}

#[test]
fn a_broken_unit_costs_its_army_a_morale_point() {
    let mut s = table();
    place(&mut s, "b-i1", 10.0, 3.0, 0.0, Formation::Line);
    assert_eq!(s.break_unit("b-i1"), Some(blue()));
    assert_eq!(s.armies[&blue()].morale, 3);
    assert!(!s.unit("b-i1").unwrap().on_table());
    assert_eq!(s.break_unit("b-i1"), None, "a unit breaks once");
}

#[test]
fn a_side_with_no_cards_must_pass() {
    let mut s = table();
    place(&mut s, "b-i1", 10.0, 3.0, 0.0, Formation::Line);
    hand(&mut s, &blue(), &[]);
    let v = check(
        &s,
        &blue(),
        "round: {command: {march: {force: [b-i1], cards: fewest}}}",
    );
    assert!(rules_of(&v).contains("must pass"), "{}", rules_of(&v));
    assert!(check(&s, &blue(), "round: {command: pass}").is_empty());
}

#[test]
fn events_are_played_for_their_effect() {
    let mut s = table();
    hand(&mut s, &blue(), &["c24", "c26"]);
    let v = check(&s, &blue(), "round: {command: {event: c01}}");
    assert!(!v.is_empty(), "a card not in hand");
    let v = check(&s, &blue(), "round: {command: {event: c26}}");
    assert!(v.is_empty(), "{}", rules_of(&v));
    // Fresh Horses: draw two.
    let r = resolve(&s, &blue(), "round: {command: {event: c24}}", vec![]);
    assert_eq!(r.state.armies[&blue()].hand.len(), 3, "{}", texts(&r));
    // The General's Presence: DISR off units near the CinC and away from the enemy.
    place(&mut s, "b-i1", 20.0, 4.0, 0.0, Formation::Line);
    place(&mut s, "b-i2", 5.0, 20.0, 0.0, Formation::Line);
    s.unit_mut("b-i1").unwrap().disruption = 2;
    s.unit_mut("b-i2").unwrap().disruption = 2;
    let r = resolve(&s, &blue(), "round: {command: {event: c26}}", vec![]);
    assert_eq!(r.state.unit("b-i1").unwrap().disruption, 1, "{}", texts(&r));
    assert_eq!(
        r.state.unit("b-i2").unwrap().disruption,
        2,
        "far from the CinC"
    );
}

//! E.1 formed regiments: checked on receipt, moving together, shared hits.

use crate::advanced::*;
use crate::common::*;
use galloper::dice::Dice;
use galloper::rulesets::morschauser_macduff::check as rules;
use galloper::rulesets::morschauser_macduff::orders::{Action, Sequence};
use galloper::rulesets::morschauser_macduff::regiment;
use galloper::rulesets::morschauser_macduff::shooting;
use galloper::rulesets::morschauser_macduff::state::State;

fn regiment_forward(d: f64) -> Action {
    Action {
        company: None,
        regiment: Some("b-reg".into()),
        ..forward("b-li", d)
    }
}

/// b-li and b-li2 side by side at y 5; Red stands ahead and a little to
/// the right of b-li2, so alone b-li2 must stop short of 3" from it (at y
/// 12, 3.01" from Red's corner; B.3: exactly 3" would be within) while b-li
/// could go 12" (Red's base is 3.25" to its side, beyond 3").
fn blocked_on_the_right() -> State {
    let mut s = table();
    only(&mut s, &["b-li", "b-li2"]);
    place(&mut s, "r-li", 16.25, 15.0, 180.0);
    s
}

#[test]
fn e1_a_formed_regiment_moves_together_and_stops_with_its_slowest() {
    let s = blocked_on_the_right();
    assert_eq!(
        regiment::formed(&s, &blue(), "b-reg"),
        Some(vec!["b-li".to_string(), "b-li2".to_string()])
    );
    let r = run(&s, turn(vec![regiment_forward(12.0)]), vec![]);
    assert!(near(y(r.state(), "b-li"), 12.0), "{:?}", r.texts);
    assert!(near(y(r.state(), "b-li2"), 12.0), "{:?}", r.texts);
    // Still touching: still formed.
    assert!(regiment::formed(r.state(), &blue(), "b-reg").is_some());
    // Ordered one by one, b-li goes its full 12".
    let r = run(
        &s,
        turn(vec![forward("b-li", 12.0), forward("b-li2", 12.0)]),
        vec![],
    );
    assert!(near(y(r.state(), "b-li"), 17.0));
    assert!(near(y(r.state(), "b-li2"), 12.0));
}

#[test]
fn e1_a_column_moves_without_the_rear_company_bumping_the_front() {
    // b-li2 directly behind b-li, touching: the rear must not be stopped by
    // its mate's old position.
    let mut s = table();
    only(&mut s, &["b-li", "b-li2"]);
    place(&mut s, "b-li", 10.0, 8.0, 0.0);
    place(&mut s, "b-li2", 10.0, 5.0, 0.0);
    assert!(regiment::formed(&s, &blue(), "b-reg").is_some());
    let r = run(&s, turn(vec![regiment_forward(10.0)]), vec![]);
    assert!(near(y(r.state(), "b-li"), 18.0), "{:?}", r.texts);
    assert!(near(y(r.state(), "b-li2"), 15.0), "{:?}", r.texts);
}

#[test]
fn e1_a_regiment_whose_companies_do_not_touch_is_refused_on_receipt() {
    let mut s = blocked_on_the_right();
    place(&mut s, "b-li2", 16.0, 5.0, 0.0);
    let v = check(&s, &blue(), &turn(vec![regiment_forward(6.0)]));
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].rule, rules::NOT_FORMED);
    // Touching, it is accepted.
    let s = blocked_on_the_right();
    assert_eq!(
        check(&s, &blue(), &turn(vec![regiment_forward(6.0)])),
        vec![]
    );
    // Light infantry never forms a regiment, touching or not.
    let mut s = blocked_on_the_right();
    s.company_mut("b-li2").unwrap().profile = s.company("b-lt").unwrap().profile.clone();
    let v = check(&s, &blue(), &turn(vec![regiment_forward(6.0)]));
    assert_eq!(v[0].rule, rules::NOT_FORMED);
}

#[test]
fn e1_a_regiment_no_longer_formed_at_resolution_acts_one_by_one() {
    let mut s = blocked_on_the_right();
    place(&mut s, "b-li2", 16.0, 5.0, 0.0);
    let r = run(&s, turn(vec![regiment_forward(12.0)]), vec![]);
    assert!(r.has("is not formed"), "{:?}", r.texts);
    assert!(near(y(r.state(), "b-li"), 17.0));
    assert!(near(y(r.state(), "b-li2"), 11.75));
}

fn red_shoots_b_li(s: &State, dice: Vec<u32>) -> (State, Vec<String>) {
    let mut state = s.clone();
    let mut d = Dice::scripted(dice);
    let mut events = Vec::new();
    let a = Action {
        target: Some("b-li".into()),
        sequence: Sequence::ShootOnly,
        ..action("r-li")
    };
    shooting::shoot(&mut state, "r-li", &a, &mut d, &mut events);
    (state, events.into_iter().map(|e| e.text).collect())
}

#[test]
fn e1_shooting_hits_are_shared_so_that_fewest_companies_are_destroyed() {
    let mut s = table();
    only(&mut s, &["b-li", "b-li2"]);
    place(&mut s, "r-li", 10.0, 10.0, 180.0);
    s.company_mut("b-li").unwrap().hits = 3;
    // Two hits on b-li, which has 1 SP left: both go to b-li2 (4 SP).
    let (after, texts) = red_shoots_b_li(&s, vec![6, 6, 1, 1]);
    assert!(!after.company("b-li").unwrap().destroyed, "{texts:?}");
    assert_eq!(after.company("b-li").unwrap().hits, 3);
    assert_eq!(after.company("b-li2").unwrap().hits, 2);
    assert!(
        texts
            .iter()
            .any(|t| t.contains("shares the hits: 2 to b-li2"))
    );
    // Without formed regiments the company shot at takes them and is lost.
    s.scenario.options.formed_regiments = false;
    let (after, _) = red_shoots_b_li(&s, vec![6, 6, 1, 1]);
    assert!(after.company("b-li").unwrap().destroyed);
    assert_eq!(after.company("b-li2").unwrap().hits, 0);
}

#[test]
fn e1_equal_companies_share_hits_the_target_first() {
    let mut s = table();
    only(&mut s, &["b-li", "b-li2"]);
    place(&mut s, "r-li", 10.0, 10.0, 180.0);
    let (after, _) = red_shoots_b_li(&s, vec![6, 6, 6, 1]);
    // 4-4: b-li takes one (3-4), b-li2 one (3-3), b-li the third (2-3).
    assert_eq!(after.company("b-li").unwrap().hits, 2);
    assert_eq!(after.company("b-li2").unwrap().hits, 1);
    // 2 SP and 3 SP left, 4 hits: one company must go, but only one.
    let mut s2 = s.clone();
    s2.company_mut("b-li").unwrap().hits = 2;
    s2.company_mut("b-li2").unwrap().hits = 1;
    let (after, _) = red_shoots_b_li(&s2, vec![6, 6, 6, 6]);
    let lost = ["b-li", "b-li2"]
        .iter()
        .filter(|c| after.company(c).unwrap().destroyed)
        .count();
    assert_eq!(lost, 1);
}

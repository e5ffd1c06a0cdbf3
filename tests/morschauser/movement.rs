//! B.1, B.3 and section C: movement (shooting is in `shooting.rs`).

use crate::common::*;
use galloper::geometry::Distance;
use galloper::rulesets::morschauser_macduff::orders::{Action, PathStep};

fn fwd(id: &str, d: f64) -> Action {
    Action {
        path: vec![PathStep::Forward(Distance(d))],
        ..action(id)
    }
}

#[test]
fn b1_pivots_are_free_and_the_move_is_straight() {
    let mut s = table();
    place(&mut s, "b-li2", 60.0, 40.0, 0.0);
    let a = Action {
        path: vec![
            PathStep::Pivot(90.0),
            PathStep::Forward(Distance(6.0)),
            PathStep::Pivot(-90.0),
            PathStep::Forward(Distance(6.0)),
        ],
        ..action("b-li")
    };
    let r = resolve(&s, turn(vec![a]), vec![]);
    let c = r.state.company("b-li").unwrap();
    assert!(
        (c.at.x - 16.0).abs() < 1e-6 && (c.at.y - 11.0).abs() < 1e-6,
        "{:?}",
        c.at
    );
    assert_eq!(c.facing.degrees(), 0.0);
}

#[test]
fn c1_road_adds_half_when_the_whole_move_is_on_it() {
    // The guns stand on the road: 12" becomes 18".
    let s = table();
    let a = Action {
        road: true,
        ..fwd("b-art", 18.0)
    };
    let r = resolve(&s, turn(vec![a]), vec![]);
    assert!((r.state.company("b-art").unwrap().at.y - 23.0).abs() < 1e-6);
    // Without the claim, it stops at 12".
    let r = resolve(&s, turn(vec![fwd("b-art", 18.0)]), vec![]);
    assert!((r.state.company("b-art").unwrap().at.y - 17.0).abs() < 1e-6);
    assert!(
        texts(&r).iter().any(|t| t.contains("at most 12")),
        "{:?}",
        texts(&r)
    );
}

#[test]
fn c2_cavalry_may_not_enter_woods() {
    let s = table();
    let r = resolve(&s, turn(vec![fwd("b-hc", 10.0)]), vec![]);
    let c = r.state.company("b-hc").unwrap();
    assert!(c.at.y <= 12.0 + 1e-6, "{:?}", c.at);
    assert!(texts(&r).iter().any(|t| t.contains("C.2 Woods")));
}

#[test]
fn c2_line_infantry_in_woods_moves_at_most_6() {
    let mut s = table();
    place(&mut s, "b-li", 30.0, 11.0, 0.0);
    let r = resolve(&s, turn(vec![fwd("b-li", 12.0)]), vec![]);
    let c = r.state.company("b-li").unwrap();
    assert!((c.at.y - 17.0).abs() < 1e-6, "{:?}", c.at);
    // Light infantry is not slowed.
    place(&mut s, "b-lt", 30.0, 11.0, 0.0);
    place(&mut s, "b-li", 10.0, 5.0, 0.0);
    let r = resolve(&s, turn(vec![fwd("b-lt", 12.0)]), vec![]);
    assert!((r.state.company("b-lt").unwrap().at.y - 23.0).abs() < 1e-6);
}

#[test]
fn c4_a_company_halts_on_entering_a_ford() {
    let s = table();
    let r = resolve(&s, turn(vec![fwd("b-eng", 12.0)]), vec![]);
    let c = r.state.company("b-eng").unwrap();
    assert!(c.halted_in_water);
    assert!(c.at.y < 17.0, "{:?}", c.at);
}

#[test]
fn b3_no_company_comes_within_3_inches_without_a_charge() {
    let mut s = table();
    place(&mut s, "r-li", 10.0, 18.0, 180.0);
    let r = resolve(&s, turn(vec![fwd("b-li", 12.0)]), vec![]);
    let c = r.state.company("b-li").unwrap();
    // Red's front edge is at y 18 (its base runs back to 21): Blue's front
    // must stay 3" short, at y 15, though 12" would take it to 17.
    assert!((c.at.y - 15.0).abs() < 0.26, "{:?}", c.at);
    assert!(texts(&r).iter().any(|t| t.contains("within 3 in")));
}

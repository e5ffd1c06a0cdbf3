//! Refusals on receipt: only orders that could never be legal.

use crate::common::*;
use galloper::geometry::Distance;
use galloper::rulesets::morschauser_macduff::check as rules;
use galloper::rulesets::morschauser_macduff::orders::{Action, Orders, PathStep, Sequence};

fn one(v: &[galloper::ruleset::Violation], rule: &str, unit: &str) {
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].rule, rule);
    assert_eq!(v[0].unit.as_deref(), Some(unit));
    assert_eq!(v[0].path[..2], ["turn".to_string(), "actions".to_string()]);
}

#[test]
fn good_orders_pass() {
    let s = table();
    let o = turn(vec![
        Action {
            path: vec![PathStep::Pivot(30.0), PathStep::Forward(Distance(12.0))],
            ..action("b-li")
        },
        charge("b-hc", "r-li"),
    ]);
    assert_eq!(check(&s, &blue(), &o), vec![]);
}

#[test]
fn unknown_company_is_refused() {
    let v = check(&table(), &blue(), &turn(vec![action("b-ghost")]));
    one(&v, rules::UNKNOWN, "b-ghost");
}

#[test]
fn enemy_company_is_refused() {
    let v = check(&table(), &blue(), &turn(vec![action("r-li")]));
    one(&v, rules::UNKNOWN, "r-li");
}

#[test]
fn destroyed_company_is_refused() {
    let mut s = table();
    s.destroy("b-lt");
    let v = check(&s, &blue(), &turn(vec![action("b-lt")]));
    one(&v, rules::UNKNOWN, "b-lt");
    assert!(v[0].message.contains("destroyed"));
}

#[test]
fn company_listed_twice_is_refused() {
    let v = check(
        &table(),
        &blue(),
        &turn(vec![action("b-li"), action("b-li")]),
    );
    one(&v, rules::TWICE, "b-li");
    assert_eq!(v[0].path[2], "1");
}

#[test]
fn company_listed_alone_and_in_its_regiment_is_refused() {
    let o = turn(vec![
        action("b-li2"),
        Action {
            regiment: Some("b-reg".into()),
            ..Action::default()
        },
    ]);
    let v = check(&table(), &blue(), &o);
    one(&v, rules::TWICE, "b-li2");
}

#[test]
fn b3_artillery_cannot_charge() {
    one(
        &check(&table(), &blue(), &turn(vec![charge("b-art", "r-li")])),
        rules::NO_CHARGE,
        "b-art",
    );
}

#[test]
fn b3_engineers_cannot_charge() {
    one(
        &check(&table(), &blue(), &turn(vec![charge("b-eng", "r-li")])),
        rules::NO_CHARGE,
        "b-eng",
    );
}

#[test]
fn b3_wagons_cannot_charge() {
    one(
        &check(&table(), &blue(), &turn(vec![charge("b-wag", "r-li")])),
        rules::NO_CHARGE,
        "b-wag",
    );
}

#[test]
fn b2_shoot_then_move_cannot_charge() {
    let a = Action {
        sequence: Sequence::ShootThenMove,
        ..charge("b-li", "r-li")
    };
    one(
        &check(&table(), &blue(), &turn(vec![a])),
        rules::SHOOT_MOVE_CHARGE,
        "b-li",
    );
}

#[test]
fn b1_a_path_beyond_even_a_road_move_is_refused() {
    // Line infantry: 12", 18" on a road. 18" passes, 18.5" never could.
    let ok = Action {
        path: vec![
            PathStep::Forward(Distance(9.0)),
            PathStep::Pivot(90.0),
            PathStep::Forward(Distance(9.0)),
        ],
        road: true,
        ..action("b-li")
    };
    assert_eq!(check(&table(), &blue(), &turn(vec![ok])), vec![]);
    let far = Action {
        path: vec![
            PathStep::Forward(Distance(9.0)),
            PathStep::Pivot(90.0),
            PathStep::Forward(Distance(9.5)),
        ],
        ..action("b-li")
    };
    let v = check(&table(), &blue(), &turn(vec![far]));
    one(&v, rules::TOO_FAR, "b-li");
    assert!(v[0].message.contains("18.50"), "{}", v[0].message);
}

#[test]
fn b1_a_negative_step_cannot_pay_for_a_longer_one() {
    let sly = Action {
        path: vec![
            PathStep::Forward(Distance(-100.0)),
            PathStep::Pivot(180.0),
            PathStep::Forward(Distance(50.0)),
        ],
        ..action("b-li")
    };
    let v = check(&table(), &blue(), &turn(vec![sly]));
    one(&v, rules::TOO_FAR, "b-li");
    assert!(
        v[0].message.contains("cannot be negative"),
        "{}",
        v[0].message
    );
}

#[test]
fn a_turn_out_of_turn_is_refused() {
    let v = check(&table(), &red(), &turn(vec![]));
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].rule, rules::SEQUENCE);
}

#[test]
fn deployment_outside_the_zone_is_refused() {
    let mut s = table();
    s.phase = galloper::rulesets::morschauser_macduff::state::Phase::Deployment;
    let o: Orders =
        galloper::yaml::from_str("deploy: {companies: [{company: b-li, at: {x: 10, y: 30}}]}")
            .unwrap();
    let v = check(&s, &blue(), &o);
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].rule, rules::DEPLOY);
    // Red's positions are fixed by the scenario.
    let o: Orders =
        galloper::yaml::from_str("deploy: {companies: [{company: r-li, at: {x: 10, y: 40}}]}")
            .unwrap();
    assert_eq!(check(&s, &red(), &o)[0].rule, rules::DEPLOY);
}

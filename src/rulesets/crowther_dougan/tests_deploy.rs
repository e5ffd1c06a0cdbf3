//! Hidden troops deployed by secret orders (issue 28, item 7): the setup
//! step, its check with the numbers, its default and its telling.

use super::CrowtherDougan;
use super::check::check;
use super::deploy::DEPLOY;
use super::orders::{Deployment, MoveOrders, Orders, Placement, Reactions};
use super::scenario::Scenario;
use super::state::{Phase, State};
use super::tables::Formation;
use crate::dice::Dice;
use crate::event::Visibility;
use crate::geometry::Point;
use crate::ruleset::{OrdersKind, Ruleset};
use crate::side::{BySide, SideId};

fn state() -> State {
    let sc: Scenario = crate::yaml::from_str(super::demo::SCENARIO).expect("scenario parses");
    sc.check().expect("scenario is good");
    State::new(&sc).expect("state")
}

fn french() -> SideId {
    SideId::new("french")
}

fn british() -> SideId {
    SideId::new("british")
}

fn at(unit: &str, x: f64, y: f64) -> Placement {
    Placement {
        unit: unit.into(),
        at: Point::new(x, y),
        facing: None,
        formation: None,
    }
}

fn deploy(units: Vec<Placement>) -> Orders {
    Orders::Deploy(Deployment { units })
}

/// The messages of the refusals of `o`, sent by the French.
fn refusals(s: &State, o: &Orders) -> Vec<String> {
    check(s, &french(), o)
        .into_iter()
        .map(|v| v.message)
        .collect()
}

#[test]
fn hidden_troops_deploy_in_a_setup_step_before_the_first_move() {
    let s = state();
    assert_eq!(s.phase, Phase::Setup);
    let due = CrowtherDougan.due(&s);
    assert_eq!(due.owed.len(), 1, "{due:?}");
    assert_eq!(due.owed[0].side, french());
    assert_eq!(due.owed[0].kind, OrdersKind::Deployment);
    // Missed, the French stand at the places the scenario suggests.
    let Some(Orders::Deploy(d)) = CrowtherDougan.default_orders(&s, &french()).expect("ok") else {
        panic!("a default deployment");
    };
    assert_eq!(d.units.len(), 3);
    assert!(check(&s, &french(), &Orders::Deploy(d)).is_empty());
    assert_eq!(CrowtherDougan.default_orders(&s, &british()), Ok(None));
    let mut orders = BySide::new();
    orders.insert(french(), deploy(vec![at("fr-canad", 30.0, 80.0)]));
    let r = CrowtherDougan.resolve(&s, &orders, &mut Dice::scripted(vec![]));
    assert_eq!(
        r.state.phase,
        Phase::Move {
            n: 1,
            active: british()
        }
    );
    let canad = r.state.unit("fr-canad").expect("fr-canad");
    assert_eq!(canad.at, Point::new(30.0, 80.0));
    // Left out, the Ottawas stand at their suggested place.
    let ottawa = r.state.unit("fr-ottawa").expect("fr-ottawa");
    assert_eq!(ottawa.at, Point::new(135.0, 66.0));
    // The public reads that the French deployed; where, the French alone.
    let public: Vec<&str> = r
        .events
        .iter()
        .filter(|e| e.visibility == Visibility::Public)
        .map(|e| e.text.as_str())
        .collect();
    assert_eq!(
        public,
        ["Setup: the French deploy their hidden troops by secret orders"]
    );
    assert!(
        r.events
            .iter()
            .all(|e| e.visibility == Visibility::Public
                || e.visibility == Visibility::Side(french()))
    );
    assert!(
        r.events
            .iter()
            .any(|e| e.text
                == "Canadian militia deployed hidden at (30, 80) facing 90, in open order")
    );
}

#[test]
fn hidden_troops_placed_only_within_their_zones_refused_with_the_numbers() {
    let s = state();
    // Off every zone: how far from the nearest of the unit's own.
    let r = refusals(&s, &deploy(vec![at("fr-canad", 190.0, 60.0)]));
    assert_eq!(
        r,
        ["(190.0, 60.0) is off the table, 0 to 180 by 0 to 120 cm"]
    );
    let r = refusals(&s, &deploy(vec![at("fr-canad", 100.0, 30.0)]));
    assert_eq!(
        r,
        [
            "(100.0, 30.0) is in none of fr-canad's zones (west-wood, east-wood): 21.6 cm outside East wood, the nearest"
        ]
    );
    // The farm is a zone of the side, not of the Canadians.
    let r = refusals(&s, &deploy(vec![at("fr-canad", 90.0, 81.0)]));
    assert_eq!(
        r,
        [
            "(90.0, 81.0) is in none of fr-canad's zones (west-wood, east-wood): 20.0 cm outside West wood, the nearest"
        ]
    );
    // A unit with no zones of its own takes any of the side's.
    for (x, y) in [(90.0, 81.0), (40.0, 60.0), (120.0, 60.0)] {
        assert!(refusals(&s, &deploy(vec![at("fr-marine", x, y)])).is_empty());
    }
    // A unit not hidden stands where the scenario puts it.
    let r = refusals(&s, &deploy(vec![at("fr-sarre", 40.0, 60.0)]));
    assert_eq!(
        r,
        [
            "fr-sarre is not a hidden unit: it stands where the scenario puts it; your hidden units: fr-marine, fr-canad, fr-ottawa"
        ]
    );
    let r = refusals(&s, &deploy(vec![at("br-44", 40.0, 60.0)]));
    assert_eq!(r, ["br-44 is not one of your hidden units"]);
    let r = refusals(
        &s,
        &deploy(vec![at("fr-canad", 40.0, 60.0), at("fr-canad", 41.0, 60.0)]),
    );
    assert_eq!(r, ["fr-canad is placed twice"]);
    // Dense woods are closed to all but skirmishers and irregulars.
    let r = refusals(&s, &deploy(vec![at("fr-marine", 158.0, 77.0)]));
    assert_eq!(r.len(), 1);
    assert!(r[0].starts_with("Alder thicket is closed to"), "{r:?}");
    assert!(refusals(&s, &deploy(vec![at("fr-ottawa", 158.0, 77.0)])).is_empty());
    let mut column = at("fr-ottawa", 130.0, 60.0);
    column.formation = Some(Formation::Column);
    assert_eq!(
        refusals(&s, &deploy(vec![column])),
        ["irregulars cannot stand in column"]
    );
    let v = check(&s, &french(), &deploy(vec![at("fr-canad", 100.0, 30.0)]));
    assert_eq!(v[0].rule, DEPLOY);
    assert_eq!(v[0].path, ["deploy", "units", "0"]);
}

#[test]
fn hidden_troops_deploy_orders_only_in_the_setup_step_and_only_by_their_side() {
    let s = state();
    let british_deploys = check(&s, &british(), &deploy(Vec::new()));
    assert!(
        british_deploys[0]
            .message
            .contains("the enemy is deploying")
    );
    let reactions = check(&s, &british(), &Orders::Reactions(Reactions::default()));
    assert!(reactions[0].message.contains("the enemy is deploying"));
    let moving = check(&s, &french(), &Orders::Move(MoveOrders::default()));
    assert!(moving[0].message.contains("send `deploy:` orders"));
    let mut orders = BySide::new();
    orders.insert(french(), deploy(Vec::new()));
    let r = CrowtherDougan.resolve(&s, &orders, &mut Dice::scripted(vec![]));
    let late = check(&r.state, &french(), &deploy(Vec::new()));
    assert!(late[0].message.contains("setup step only"));
}

/// A scenario's hidden units need zones that hold their suggested places.
#[test]
fn hidden_troops_scenario_zones_hold_the_suggested_places() {
    let text = super::demo::SCENARIO;
    let moved = text.replace("at: {x: 48, y: 70}", "at: {x: 90, y: 60}");
    let sc: Scenario = crate::yaml::from_str(&moved).expect("parses");
    let e = sc.check().expect_err("outside its zones");
    assert!(e.contains("fr-canad") && e.contains("(90.0, 60.0)"), "{e}");
    let stray = text.replace("zones: [west-wood, east-wood]}", "zones: [north-wood]}");
    let sc: Scenario = crate::yaml::from_str(&stray).expect("parses");
    let e = sc.check().expect_err("unknown zone");
    assert!(e.contains("north-wood is not a zone of side french"), "{e}");
    // No placement may break the 5 cm rule: a zone keeps 5 cm from every
    // enemy unit, beyond the unit's size.
    let near = text.replace("at: {x: 55, y: 34}", "at: {x: 55, y: 47}");
    let sc: Scenario = crate::yaml::from_str(&near).expect("parses");
    sc.check().expect("the scenario alone is good");
    let e = State::new(&sc).expect_err("a zone at the rangers");
    assert_eq!(
        e,
        "zone west-wood of side french: br-rang stands within 5 cm of it"
    );
    // A scenario without hidden units begins with the first move.
    let plain = text
        .replace(", hidden: true", "")
        .replace(", zones: [west-wood, east-wood]", "");
    let sc: Scenario = crate::yaml::from_str(&plain).expect("parses");
    sc.check().expect("good");
    assert!(matches!(
        State::new(&sc).expect("state").phase,
        Phase::Move { n: 1, .. }
    ));
}

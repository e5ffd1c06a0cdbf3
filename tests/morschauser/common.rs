//! A bare table for the rule tests.
#![allow(dead_code)]

use galloper::dice::Dice;
use galloper::geometry::{Angle, Distance, Point, Shape};
use galloper::ruleset::{Resolution, Ruleset, Violation};
use galloper::rulesets::morschauser_macduff::MorschauserMacduff;
use galloper::rulesets::morschauser_macduff::orders::{
    Action, Charge, Orders, Sequence, TurnOrders,
};
use galloper::rulesets::morschauser_macduff::scenario::Scenario;
use galloper::rulesets::morschauser_macduff::scenario::{Terrain, TerrainKind};
use galloper::rulesets::morschauser_macduff::state::{Phase, State};
use galloper::side::{BySide, SideId};

pub const SCENARIO: &str = r##"
ruleset: morschauser-macduff
title: test table
table: {width: 72, height: 48}
turns: 3
options: {formed_regiments: true}
sides:
  - id: blue
    name: Blue
    colour: "#2040a0"
    zone: {min: {x: 0, y: 0}, max: {x: 72, y: 12}}
    companies:
      - {id: b-li, name: "Blue Line", troop: line_infantry, at: {x: 10, y: 5}, facing: 0}
      - {id: b-li2, name: "Blue Line 2", troop: line_infantry, at: {x: 13, y: 5}, facing: 0}
      - {id: b-lt, name: "Blue Light", troop: light_infantry, at: {x: 20, y: 5}, facing: 0}
      - {id: b-hc, name: "Blue Heavy Horse", troop: heavy_cavalry, at: {x: 30, y: 5}, facing: 0}
      - {id: b-art, name: "Blue Guns", troop: artillery, at: {x: 40, y: 5}, facing: 0}
      - {id: b-eng, name: "Blue Sappers", troop: engineers, at: {x: 50, y: 5}, facing: 0}
      - {id: b-wag, name: "Blue Wagons", troop: wagons, at: {x: 60, y: 5}, facing: 0}
    regiments:
      - {id: b-reg, name: "Blue Regiment", companies: [b-li, b-li2]}
  - id: red
    name: Red
    colour: "#a02020"
    companies:
      - {id: r-li, name: "Red Line", troop: line_infantry, at: {x: 10, y: 45}, facing: 180}
terrain:
  - id: road
    name: The Road
    kind: road
    outline: {shape: polyline, width: 4, points: [{x: 40, y: 0}, {x: 40, y: 48}]}
  - id: wood
    name: The Wood
    kind: woods
    outline: {shape: polygon, points: [{x: 25, y: 12}, {x: 35, y: 12}, {x: 35, y: 20}, {x: 25, y: 20}]}
  - id: ford
    name: The Ford
    kind: {water: {fordable: true}}
    outline: {shape: polyline, width: 2, points: [{x: 45, y: 14}, {x: 70, y: 14}]}
"##;

pub fn blue() -> SideId {
    SideId::new("blue")
}
pub fn red() -> SideId {
    SideId::new("red")
}

pub fn scenario() -> Scenario {
    let s: Scenario = galloper::yaml::from_str(SCENARIO).expect("test scenario parses");
    s.check().expect("test scenario is valid");
    s
}

/// Turn 1, Blue active and moving first.
pub fn table() -> State {
    let mut s = State::new(&scenario()).expect("state");
    s.phase = Phase::HalfTurn {
        turn: 1,
        active: blue(),
    };
    s.first = Some(blue());
    s
}

pub fn place(s: &mut State, id: &str, x: f64, y: f64, facing: f64) {
    let c = s.company_mut(id).expect("company exists");
    c.at = Point::new(x, y);
    c.facing = Angle(facing);
}

pub fn turn(actions: Vec<Action>) -> Orders {
    Orders::Turn(TurnOrders {
        actions,
        ..TurnOrders::default()
    })
}

pub fn action(company: &str) -> Action {
    Action {
        company: Some(company.into()),
        ..Action::default()
    }
}

/// A charge at `target` with no path (straight at it), moving only.
pub fn charge(company: &str, target: &str) -> Action {
    Action {
        charge: Some(Charge {
            target: target.into(),
            flank: false,
            pursue: false,
        }),
        sequence: Sequence::MoveOnly,
        ..action(company)
    }
}

pub fn check(s: &State, side: &SideId, o: &Orders) -> Vec<Violation> {
    MorschauserMacduff.check(s, side, o)
}

/// Resolve Blue's half-turn with these orders and scripted dice.
pub fn resolve(s: &State, o: Orders, dice: Vec<u32>) -> Resolution<State> {
    let mut orders = BySide::new();
    orders.insert(blue(), o);
    let mut d = Dice::scripted(dice);
    MorschauserMacduff.resolve(s, &orders, &mut d)
}

pub fn texts(r: &Resolution<State>) -> Vec<String> {
    r.events.iter().map(|e| e.text.clone()).collect()
}

/// The table with every Blue company parked out of the way on the left.
pub fn clear() -> State {
    let mut s = table();
    for (i, id) in ["b-li", "b-li2", "b-lt", "b-hc", "b-art", "b-eng", "b-wag"]
        .iter()
        .enumerate()
    {
        place(&mut s, id, 1.5 + 4.0 * i as f64, -100.0, 0.0);
    }
    s
}

pub fn add_red(s: &mut State, id: &str, x: f64, y: f64) {
    let mut c = s.company("r-li").unwrap().clone();
    c.id = id.into();
    c.name = format!("Red {id}");
    s.companies.push(c);
    place(s, id, x, y, 180.0);
}

pub fn terrain(s: &mut State, id: &str, kind: TerrainKind, outline: Shape) {
    s.scenario.terrain.push(Terrain {
        id: id.into(),
        name: format!("The {id}"),
        kind,
        outline,
    });
}

pub fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Shape {
    Shape::Polygon {
        points: vec![
            Point::new(x0, y0),
            Point::new(x1, y0),
            Point::new(x1, y1),
            Point::new(x0, y1),
        ],
    }
}

pub fn line(x0: f64, y0: f64, x1: f64, y1: f64, width: f64) -> Shape {
    Shape::Polyline {
        points: vec![Point::new(x0, y0), Point::new(x1, y1)],
        width: Distance(width),
    }
}

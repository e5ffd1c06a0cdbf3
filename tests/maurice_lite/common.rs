//! Shared set-up for the Maurice Lite rule tests: a bare table with units
//! placed by hand, so that each test shows one rule.
#![allow(dead_code)]

use galloper::dice::Dice;
use galloper::geometry::{Angle, Point};
use galloper::ruleset::{Resolution, Ruleset, Violation};
use galloper::rulesets::maurice_lite::MauriceLite;
use galloper::rulesets::maurice_lite::orders::Orders;
use galloper::rulesets::maurice_lite::scenario::Scenario;
use galloper::rulesets::maurice_lite::state::{Phase, State};
use galloper::rulesets::maurice_lite::units::Formation;
use galloper::side::{BySide, SideId};

pub const SCENARIO: &str = r##"
ruleset: maurice-lite
title: test table
table: {width: 40, height: 30}
measure: {unit: base_width, base_width: 1, base_depth: 0.75}
sides:
  - id: blue
    name: Blue
    colour: "#2040a0"
    units:
      - {id: b-i1, name: "Blue Foot 1", arm: infantry}
      - {id: b-i2, name: "Blue Foot 2", arm: infantry}
      - {id: b-i3, name: "Blue Foot 3", arm: infantry}
      - {id: b-c1, name: "Blue Horse 1", arm: cavalry}
      - {id: b-c2, name: "Blue Horse 2", arm: cavalry}
      - {id: b-a1, name: "Blue Guns", arm: artillery}
      - {id: b-i4, name: "Blue Foot 4", arm: infantry}
  - id: red
    name: Red
    colour: "#a02020"
    units:
      - {id: r-i1, name: "Red Foot 1", arm: infantry}
      - {id: r-i2, name: "Red Foot 2", arm: infantry}
      - {id: r-c1, name: "Red Horse 1", arm: cavalry}
terrain:
  - id: wood
    name: The Wood
    tags: [woods]
    shape: polygon
    points: [{x: 30, y: 10}, {x: 36, y: 10}, {x: 36, y: 16}, {x: 30, y: 16}]
  - id: cliff
    name: The Cliff
    tags: [impassable]
    shape: polygon
    points: [{x: 0, y: 20}, {x: 2, y: 20}, {x: 2, y: 22}, {x: 0, y: 22}]
"##;

pub fn blue() -> SideId {
    SideId::new("blue")
}
pub fn red() -> SideId {
    SideId::new("red")
}

/// A state in round 1 with Blue active, every unit off the table until placed,
/// hands empty and the CinCs at the middle of each table edge.
pub fn table() -> State {
    let scenario: Scenario = galloper::yaml::from_str(SCENARIO).expect("test scenario");
    scenario.check().expect("test scenario is valid");
    let mut s = State::new(&scenario).expect("state");
    s.phase = Phase::Round { active: blue() };
    s.round = 1;
    s.armies.get_mut(&blue()).unwrap().cinc = Some(Point::new(20.0, 1.0));
    s.armies.get_mut(&red()).unwrap().cinc = Some(Point::new(20.0, 29.0));
    let deck = s.deck.clone();
    s.piles.draw = deck.cards.iter().map(|c| c.id.clone()).rev().collect();
    s
}

/// Put a unit on the table: `at` is the centre of its front edge.
pub fn place(s: &mut State, id: &str, x: f64, y: f64, facing: f64, f: Formation) {
    let u = s.unit_mut(id).expect("unit exists");
    u.anchor = Some(Point::new(x, y));
    u.facing = Angle(facing);
    u.formation = f;
}

pub fn hand(s: &mut State, side: &SideId, cards: &[&str]) {
    s.armies.get_mut(side).unwrap().hand = cards.iter().map(|c| c.to_string()).collect();
}

pub fn orders(yaml: &str) -> Orders {
    galloper::yaml::from_str(yaml).unwrap_or_else(|e| panic!("orders do not parse: {e}\n{yaml}"))
}

pub fn check(s: &State, side: &SideId, yaml: &str) -> Vec<Violation> {
    MauriceLite.check(s, side, &orders(yaml))
}

pub fn resolve(s: &State, side: &SideId, yaml: &str, dice: Vec<u32>) -> Resolution<State> {
    let mut by = BySide::new();
    by.insert(side.clone(), orders(yaml));
    let mut d = Dice::scripted(dice);
    MauriceLite.resolve(s, &by, &mut d)
}

pub fn texts(r: &Resolution<State>) -> String {
    r.events
        .iter()
        .map(|e| e.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn rules_of(v: &[Violation]) -> String {
    v.iter()
        .map(|x| format!("{} | {}", x.rule, x.message))
        .collect::<Vec<_>>()
        .join("\n")
}

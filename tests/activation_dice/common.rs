//! A small field for the rule tests, set out by hand.
#![allow(dead_code)]

use galloper::dice::Dice;
use galloper::event::Event;
use galloper::geometry::{Angle, Point};
use galloper::ruleset::{Resolution, Ruleset, Violation};
use galloper::rulesets::activation_dice::ActivationDice;
use galloper::rulesets::activation_dice::orders::{Action, Activation, Orders, TurnOrders};
use galloper::rulesets::activation_dice::scenario::Scenario;
use galloper::rulesets::activation_dice::state::{Formation, Phase, State};
use galloper::side::{BySide, SideId};

pub const FIELD: &str = include_str!("../../games/activation-dice/test-field.yaml");

pub fn blue() -> SideId {
    SideId::new("blue")
}
pub fn red() -> SideId {
    SideId::new("red")
}

pub fn scenario() -> Scenario {
    let s: Scenario = galloper::yaml::from_str(FIELD).expect("test field parses");
    s.check().expect("test field is valid");
    s
}

/// The field before set-up.
pub fn fresh() -> State {
    State::new(&scenario()).expect("state")
}

/// Turn 1, Blue to activate, every unit placed where the scenario
/// suggests (S = 5 cm, Blue facing north from y = 10, Red south from y = 50).
pub fn table() -> State {
    let mut s = fresh();
    for side in s.scenario.sides.clone() {
        for u in &side.units {
            let i = s.index(&u.id).unwrap();
            s.units[i].at = u.at;
            s.units[i].facing = u.facing.unwrap_or(Angle(0.0));
        }
    }
    s.first = Some(blue());
    s.phase = Phase::Turn {
        turn: 1,
        side: blue(),
    };
    s
}

/// Put unit `id` at `(x, y)` facing `facing` in `f`.
pub fn put(s: &mut State, id: &str, x: f64, y: f64, facing: f64, f: Formation) {
    let i = s.index(id).unwrap();
    s.units[i].at = Some(Point::new(x, y));
    s.units[i].facing = Angle(facing);
    s.units[i].formation = f;
}

pub fn unit<'a>(s: &'a State, id: &str) -> &'a galloper::rulesets::activation_dice::state::Unit {
    s.unit(id).unwrap()
}

pub fn unit_mut<'a>(
    s: &'a mut State,
    id: &str,
) -> &'a mut galloper::rulesets::activation_dice::state::Unit {
    let i = s.index(id).unwrap();
    &mut s.units[i]
}

pub fn activation(unit: &str, dice: u32, actions: Vec<Action>) -> Activation {
    Activation {
        unit: unit.into(),
        dice,
        actions,
        one: None,
        two: None,
        three: None,
    }
}

pub fn turn(list: Vec<Activation>) -> Orders {
    Orders::Turn(TurnOrders {
        activations: list,
        ..TurnOrders::default()
    })
}

/// Resolve the open step with `side`'s orders and scripted dice; the
/// script must be enough.
pub fn run(s: &State, side: &SideId, o: Orders, dice: Vec<u32>) -> Resolution<State> {
    let mut orders = BySide::new();
    orders.insert(side.clone(), o);
    let mut d = Dice::scripted(dice.clone());
    let r = ActivationDice.resolve(s, &orders, &mut d);
    assert!(
        d.log().len() <= dice.len(),
        "more dice than scripted ({} of {}): {:#?}",
        d.log().len(),
        dice.len(),
        texts(&r.events)
    );
    r
}

/// How many dice a resolution used, for tests that must use them all.
pub fn used(s: &State, side: &SideId, o: Orders, dice: Vec<u32>) -> usize {
    let mut orders = BySide::new();
    orders.insert(side.clone(), o);
    let mut d = Dice::scripted(dice);
    ActivationDice.resolve(s, &orders, &mut d);
    d.log().len()
}

pub fn check(s: &State, side: &SideId, o: &Orders) -> Vec<Violation> {
    ActivationDice.check(s, side, o)
}

pub fn texts(events: &[Event]) -> Vec<String> {
    events.iter().map(|e| e.text.clone()).collect()
}

pub fn has(events: &[Event], what: &str) -> bool {
    events.iter().any(|e| e.what == what)
}

pub fn find<'a>(events: &'a [Event], what: &str) -> &'a Event {
    events
        .iter()
        .find(|e| e.what == what)
        .unwrap_or_else(|| panic!("no {what} event in {:#?}", texts(events)))
}

pub fn at(s: &State, id: &str) -> Point {
    unit(s, id).at.unwrap()
}

//! The rules as written (issue 28, items 11 to 18): scenario tests with
//! scripted dice, named after the source's passages.

use super::CrowtherDougan;
use super::observe::NOTHING_FOUND_RANGE;
use super::orders::{MoveOrders, Observe, Orders};
use super::scenario::Scenario;
use super::state::State;
use crate::dice::Dice;
use crate::event::Event;
use crate::geometry::Point;
use crate::ruleset::Ruleset;
use crate::side::{BySide, SideId};

const SMALL: &str = include_str!("../../../games/crowther-dougan/test-clearing.yaml");

fn state() -> State {
    let sc: Scenario = crate::yaml::from_str(SMALL).expect("scenario parses");
    sc.check().expect("scenario is good");
    State::new(&sc).expect("state")
}

fn red() -> SideId {
    SideId::new("red")
}

fn blue() -> SideId {
    SideId::new("blue")
}

fn put(s: &mut State, id: &str, x: f64, y: f64) {
    s.unit_mut(id).expect("unit").at = Point::new(x, y);
}

fn resolve(s: &State, side: &SideId, o: MoveOrders, dice: Vec<u32>) -> (State, Vec<Event>, Dice) {
    let mut d = Dice::scripted(dice);
    let mut orders = BySide::new();
    orders.insert(side.clone(), Orders::Move(o));
    let r = CrowtherDougan.resolve(s, &orders, &mut d);
    (r.state, r.events, d)
}

fn said<'a>(ev: &'a [Event], what: &str) -> Vec<&'a Event> {
    ev.iter().filter(|e| e.what == what).collect()
}

/// "The resulting total gives the range in cm at which the target unit can
/// be seen": the range told is the total the test used, modifiers and all.
#[test]
fn observation_the_resulting_total_gives_the_range_at_which_the_target_is_seen() {
    let mut s = state();
    // Red's line (FC 1) looks at the irregulars (FC 4) in the wood, 9 cm off.
    put(&mut s, "r-line", 20.0, 44.0);
    put(&mut s, "r-rang", 90.0, 5.0);
    let o = MoveOrders {
        observe: vec![Observe {
            unit: "r-line".into(),
            at: Point::new(20.0, 55.0),
        }],
        ..MoveOrders::default()
    };
    // d6 6 reads 5 on the average die; 5 - 3 = 2: 10 cm, and it is found.
    let (s1, ev, _) = resolve(&s, &red(), o.clone(), vec![6]);
    assert!(s1.spotted[&red()].contains_key("b-hid"), "{ev:?}");
    let e = said(&ev, "observe")[0];
    assert_eq!(e.facts.distance, Some(10.0), "{}", e.text);
    assert!(e.text.contains("sees 10 cm"), "{}", e.text);
    assert!(e.text.contains("-3 field craft"), "{}", e.text);
    // Nothing found: only the observer's own modifiers, said as such, so
    // nothing tells of the unit that was not found.
    put(&mut s, "b-hid", 20.0, 65.0);
    let (_, ev, _) = resolve(&s, &red(), o, vec![6]);
    let e = said(&ev, "observe")[0];
    assert_eq!(e.facts.result.as_deref(), Some("nothing"));
    assert_eq!(e.facts.distance, Some(25.0), "{}", e.text);
    assert!(e.facts.modifiers.is_empty(), "{}", e.text);
    assert!(e.text.contains(NOTHING_FOUND_RANGE), "{}", e.text);
}

/// "2 CPs enables the personality to issue a new order": the orders'
/// schema says what `recall` does, a new order for a pursuing unit.
#[test]
fn command_points_a_new_order_recall_is_described_for_pursuers() {
    let schema = serde_json::to_value(schemars::schema_for!(Orders)).expect("schema");
    let text = schema.to_string();
    let at = text.find("\"recall\"").expect("recall in the schema");
    let about = &text[at..(at + 400).min(text.len())];
    assert!(about.contains("pursuing"), "{about}");
    assert!(!about.contains("charge under way called off"), "{about}");
}

#[allow(dead_code)]
fn unused(_: &SideId) {
    let _ = blue();
}

//! E.7k engineering: demolishing a bridge, the task this ruleset defines.

use crate::common::*;
use galloper::dice::Dice;
use galloper::geometry::Distance;
use galloper::ruleset::Ruleset;
use galloper::rulesets::morschauser_macduff::MorschauserMacduff;
use galloper::rulesets::morschauser_macduff::check as rules;
use galloper::rulesets::morschauser_macduff::orders::{Action, PathStep, Sequence};
use galloper::rulesets::morschauser_macduff::scenario::TerrainKind;
use galloper::rulesets::morschauser_macduff::state::State;
use galloper::side::BySide;

/// An unfordable river at y = 30 with one bridge; the sappers at the bridge
/// with their wagon beside them.
fn river() -> State {
    let mut s = clear();
    s.scenario.options.engineering = true;
    terrain(
        &mut s,
        "river",
        TerrainKind::Water { fordable: false },
        line(0.0, 30.0, 72.0, 30.0, 2.0),
    );
    terrain(
        &mut s,
        "bridge",
        TerrainKind::Bridge,
        rect(8.0, 28.5, 12.0, 31.5),
    );
    place(&mut s, "b-eng", 10.0, 28.3, 0.0);
    place(&mut s, "b-wag", 14.0, 26.0, 0.0);
    s
}

fn demolish() -> Action {
    Action {
        sequence: Sequence::Hold,
        demolish: Some("bridge".into()),
        ..action("b-eng")
    }
}

fn half_turn(s: &State, a: Vec<Action>, dice: Vec<u32>) -> (State, Vec<String>, usize) {
    let mut orders = BySide::new();
    orders.insert(blue(), turn(a));
    let mut d = Dice::scripted(dice);
    let r = MorschauserMacduff.resolve(s, &orders, &mut d);
    let n = d.log().len();
    (r.state, r.events.into_iter().map(|e| e.text).collect(), n)
}

/// Blue Line tries to cross at the bridge.
fn cross(s: &State) -> f64 {
    let mut s = s.clone();
    place(&mut s, "b-eng", 40.0, 5.0, 0.0);
    place(&mut s, "b-li", 10.0, 27.0, 0.0);
    let a = Action {
        sequence: Sequence::MoveOnly,
        path: vec![PathStep::Forward(Distance(8.0))],
        ..action("b-li")
    };
    half_turn(&s, vec![a], vec![])
        .0
        .company("b-li")
        .expect("company")
        .at
        .y
}

#[test]
fn e7k_engineers_with_a_wagon_bring_down_a_bridge_on_4_to_6() {
    let s = river();
    assert!(cross(&s) > 34.0, "the bridge carries the line across");
    let (after, texts, dice) = half_turn(&s, vec![demolish()], vec![4]);
    assert_eq!(dice, 1);
    assert!(after.demolished.contains("bridge"), "{texts:#?}");
    assert!(texts.iter().any(|t| t.contains("brings down The bridge")));
    assert!(
        cross(&after) < 29.0,
        "with the bridge gone the river stops it"
    );
    let (after, texts, _) = half_turn(&s, vec![demolish()], vec![3]);
    assert!(after.demolished.is_empty());
    assert!(texts.iter().any(|t| t.contains("still stands")));
}

#[test]
fn e7k_without_a_wagon_of_supplies_nothing_is_demolished() {
    let mut s = river();
    place(&mut s, "b-wag", 60.0, 5.0, 0.0);
    let (after, texts, dice) = half_turn(&s, vec![demolish()], vec![]);
    assert_eq!(dice, 0);
    assert!(after.demolished.is_empty());
    assert!(
        texts
            .iter()
            .any(|t| t.contains("no wagon of supplies within 3 in"))
    );
}

#[test]
fn e7k_only_engineers_demolish_and_only_when_engineering_is_played() {
    let s = river();
    let line_demolishes = Action {
        company: Some("b-li".into()),
        ..demolish()
    };
    let v = check(&s, &blue(), &turn(vec![line_demolishes]));
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].rule, rules::DEMOLISH);
    let mut off = river();
    off.scenario.options.engineering = false;
    let v = check(&off, &blue(), &turn(vec![demolish()]));
    assert_eq!(v[0].rule, rules::DEMOLISH);
}

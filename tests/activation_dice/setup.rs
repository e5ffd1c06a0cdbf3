//! Game Setup: attacker half, defender all, attacker the rest, within 1 L
//! of their own end; then the roll for the first move.

use super::common::*;
use galloper::geometry::Point;
use galloper::ruleset::{OrdersKind, Ruleset};
use galloper::rulesets::activation_dice::ActivationDice;
use galloper::rulesets::activation_dice::orders::{Deployment, Orders, Placement};
use galloper::rulesets::activation_dice::setup::{default_deployment, first_move};
use galloper::rulesets::activation_dice::state::Phase;
use galloper::view::Viewer;

fn place(unit: &str, x: f64, y: f64) -> Placement {
    Placement {
        unit: unit.into(),
        at: Point::new(x, y),
        facing: None,
        formation: None,
    }
}

#[test]
fn game_setup_attacker_places_half_then_defender_all_then_attacker_the_rest() {
    let s = fresh();
    let due = ActivationDice.due(&s);
    assert_eq!(due.owed.len(), 1);
    assert_eq!(due.owed[0].side, blue(), "the attacker places first");
    assert_eq!(due.owed[0].kind, OrdersKind::Deployment);
    // Half of two units is one: two are refused.
    let both = Orders::Deploy(Deployment {
        units: vec![place("b-inf", 20.0, 10.0), place("b-cav", 40.0, 10.0)],
    });
    let v = check(&s, &blue(), &both);
    assert!(v.iter().any(|v| v.rule.starts_with("Game Setup")), "{v:?}");
    let half = Orders::Deploy(Deployment {
        units: vec![place("b-inf", 20.0, 10.0)],
    });
    assert!(check(&s, &blue(), &half).is_empty());
    let r = run(&s, &blue(), half, vec![]);
    assert_eq!(r.state.phase, Phase::Deploy { placement: 2 });
    assert_eq!(ActivationDice.due(&r.state).owed[0].side, red());
    let s2 = r.state;
    let all = Orders::Deploy(default_deployment(&s2, 2));
    assert_eq!(
        match &all {
            Orders::Deploy(d) => d.units.len(),
            _ => 0,
        },
        2,
        "the defender places its whole force"
    );
    assert!(check(&s2, &red(), &all).is_empty());
    let s3 = run(&s2, &red(), all, vec![]).state;
    assert_eq!(ActivationDice.due(&s3).owed[0].side, blue());
    let rest = Orders::Deploy(default_deployment(&s3, 3));
    // The rest, then a roll for the first move: 2 against 5, Red first.
    let r = run(&s3, &blue(), rest, vec![2, 5]);
    assert_eq!(
        r.state.phase,
        Phase::Turn {
            turn: 1,
            side: red()
        }
    );
    assert!(r.state.units.iter().all(|u| u.placed()));
}

#[test]
fn game_setup_places_within_1l_of_their_end_of_the_board() {
    let s = fresh();
    // S = 5: 1 L is 15 cm from the south edge; a column 6 deep at y = 20
    // reaches back to 14 but its front is beyond.
    let far = Orders::Deploy(Deployment {
        units: vec![place("b-inf", 20.0, 20.0)],
    });
    let v = check(&s, &blue(), &far);
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].unit.as_deref(), Some("b-inf"));
    assert_eq!(v[0].path, ["deploy", "units", "0"]);
    assert!(v[0].message.contains("within 1 L"), "{}", v[0].message);
    let near = Orders::Deploy(Deployment {
        units: vec![place("b-inf", 20.0, 15.0)],
    });
    assert!(check(&s, &blue(), &near).is_empty());
}

#[test]
fn game_setup_each_placement_is_secret_until_revealed() {
    let s = fresh();
    // While Blue places, nobody sees a unit; once resolved, Red sees
    // Blue's half and nothing of its own not yet placed.
    let red_view = ActivationDice.view(&s, &Viewer::Side(red()));
    assert!(red_view.map.units.is_empty());
    let half = Orders::Deploy(Deployment {
        units: vec![place("b-inf", 20.0, 10.0)],
    });
    let s2 = run(&s, &blue(), half, vec![]).state;
    let red_view = ActivationDice.view(&s2, &Viewer::Side(red()));
    let ids: Vec<&str> = red_view.map.units.iter().map(|u| u.id.as_str()).collect();
    assert_eq!(ids, ["b-inf"]);
    assert_eq!(red_view.map.deployment.len(), 2, "the zones are drawn");
}

#[test]
fn game_setup_roll_for_the_first_move_rolls_again_on_a_tie() {
    let s = table();
    let mut d = galloper::dice::Dice::scripted(vec![3, 3, 6, 2]);
    let (first, rolls, _) = first_move(&s, &mut d);
    assert_eq!(rolls, [3, 3, 6, 2]);
    assert_eq!(first, blue(), "the attacker's 6 beats 2 after a tie");
}

#[test]
fn cavalry_light_and_heavy_cavalry_do_not_have_ranged_attacks() {
    use galloper::ruleset::Ruleset;
    use galloper::rulesets::activation_dice::ActivationDice;
    let mut s = scenario();
    let horse = s.troops.iter_mut().find(|t| t.id == "horse").unwrap();
    horse.range = 2;
    horse.shooting = 1;
    let why = ActivationDice.check_scenario(&s).unwrap_err();
    assert!(
        why.contains("troop horse") && why.contains("Cavalry"),
        "{why}"
    );
    // Without a range it has no ranged attack: its shooting value is
    // only what it rolls with when shot at (Basic Units: range "if
    // applicable").
    let horse = s.troops.iter_mut().find(|t| t.id == "horse").unwrap();
    horse.range = 0;
    assert!(ActivationDice.check_scenario(&s).is_ok());
}

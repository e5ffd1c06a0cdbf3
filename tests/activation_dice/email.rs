//! By email: the turn as a list of gambles, consulted turns, receipt
//! checks, the template and schema, the house victory terms and a whole
//! demo game.

use super::common::*;
use galloper::dice::Dice;
use galloper::ruleset::{AnyRuleset, DemoPlayer, OrdersKind, Ruleset};
use galloper::rulesets::activation_dice::ActivationDice;
use galloper::rulesets::activation_dice::orders::{Action, Goal, Orders, TurnOrders};
use galloper::rulesets::activation_dice::state::Phase;
use galloper::rulesets::activation_dice::turn::victory;
use galloper::side::BySide;

#[test]
fn by_email_activation_scripts_by_number_of_successes() {
    let s = table();
    let mut a = activation("b-inf", 2, vec![Action::Move(Goal::Ahead(100.0))]);
    a.two = Some(vec![Action::DoubleTime(Goal::Ahead(100.0))]);
    let r = run(&s, &blue(), turn(vec![a.clone()]), vec![4, 4]);
    assert!(
        (at(&r.state, "b-inf").y - 25.0).abs() < 1e-6,
        "two successes: double time"
    );
    let r = run(&s, &blue(), turn(vec![a]), vec![4, 3]);
    assert!(
        (at(&r.state, "b-inf").y - 20.0).abs() < 1e-6,
        "one: the plain move"
    );
}

#[test]
fn by_email_a_consulted_turn_pauses_after_each_activation() {
    let s = table();
    let o = Orders::Turn(TurnOrders {
        consult: true,
        activations: vec![
            activation("b-inf", 1, vec![Action::Move(Goal::Ahead(100.0))]),
            activation("b-cav", 1, vec![Action::Move(Goal::Ahead(100.0))]),
        ],
        ..TurnOrders::default()
    });
    let r = run(&s, &blue(), o, vec![4]);
    assert_eq!(
        r.state.phase,
        Phase::Consult {
            turn: 1,
            side: blue()
        }
    );
    assert_eq!(at(&r.state, "b-cav").y, 10.0, "only the first activation");
    let due = Ruleset::due(&ActivationDice, &r.state);
    assert_eq!(due.owed[0].kind, OrdersKind::Decision);
    assert_eq!(due.owed[0].side, blue());
    // The next decision: the horse; then an empty list ends the turn.
    let next = Orders::Turn(TurnOrders {
        consult: true,
        activations: vec![activation("b-cav", 1, vec![])],
        ..TurnOrders::default()
    });
    assert!(check(&r.state, &blue(), &next).is_empty());
    let again = turn(vec![activation("b-inf", 1, vec![])]);
    assert!(
        !check(&r.state, &blue(), &again).is_empty(),
        "b-inf has activated"
    );
    let end = Orders::Turn(TurnOrders {
        consult: true,
        ..TurnOrders::default()
    });
    let r = run(&r.state, &blue(), end, vec![]);
    assert_eq!(
        r.state.phase,
        Phase::Turn {
            turn: 1,
            side: red()
        }
    );
}

#[test]
fn by_email_receipt_checks_name_the_path_unit_and_rule() {
    let s = table();
    let o = turn(vec![
        activation("r-inf", 2, vec![]),
        activation("b-inf", 4, vec![Action::Fire("b-cav".into())]),
        activation(
            "b-cav",
            2,
            vec![Action::Limber, Action::Fire("r-inf".into())],
        ),
    ]);
    let v = check(&s, &blue(), &o);
    let got: Vec<(Vec<String>, Option<String>)> =
        v.iter().map(|v| (v.path.clone(), v.unit.clone())).collect();
    let p = |x: &[&str]| x.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(
        got.contains(&(p(&["turn", "activations", "0"]), Some("r-inf".into()))),
        "{v:?}"
    );
    assert!(got.contains(&(
        p(&["turn", "activations", "1", "dice"]),
        Some("b-inf".into())
    )));
    assert!(got.contains(&(
        p(&["turn", "activations", "1", "actions", "0"]),
        Some("b-inf".into())
    )));
    assert!(got.contains(&(
        p(&["turn", "activations", "2", "actions", "0"]),
        Some("b-cav".into())
    )));
    assert!(
        got.contains(&(
            p(&["turn", "activations", "2", "actions", "1"]),
            Some("b-cav".into())
        )),
        "cavalry have no ranged attack"
    );
    assert!(
        v.iter().all(|v| v.rule.contains(':')),
        "each names the source's section"
    );
    // Red may send nothing in Blue's turn.
    assert!(!check(&s, &red(), &turn(vec![])).is_empty());
}

#[test]
fn by_email_every_template_parses_and_passes_the_check() {
    let text = galloper::yaml::to_string(&fresh()).unwrap();
    let rules: &dyn AnyRuleset = &ActivationDice;
    let mut state = text;
    // Through the three placements and the first turns.
    for step in 0..6 {
        let due = rules.due(&state).unwrap();
        let Some(owed) = due.owed.first() else { break };
        let t = rules
            .orders_template(&state, &owed.side)
            .unwrap()
            .expect("a template");
        let v: serde_yaml::Value =
            galloper::yaml::from_str(&t).unwrap_or_else(|e| panic!("{e}\n{t}"));
        let bad = rules.check(&state, &owed.side, &v).unwrap();
        assert!(bad.is_empty(), "step {step}: {bad:?}\n{t}");
        let mut o = BySide::new();
        o.insert(owed.side.clone(), v);
        let mut d = Dice::from_seeds([step as u8; 32], [9; 32]);
        state = rules.resolve(&state, &o, &mut d).unwrap().state;
    }
    let schema = rules.orders_schema().to_string();
    for word in [
        "activations",
        "consult",
        "turnover",
        "after_blunder",
        "double_time",
        "seize",
    ] {
        assert!(schema.contains(word), "the schema names {word}");
    }
}

#[test]
fn house_rule_victory_a_side_that_loses_break_at_units_loses() {
    let mut s = table();
    assert_eq!(victory(&s, 1), None);
    for id in ["b-inf", "b-cav"] {
        unit_mut(&mut s, id).gone = Some("test".into());
    }
    let o = victory(&s, 1).expect("over");
    assert_eq!(o.winner, Some(red()));
    // At time, fewer losses win.
    let mut s = table();
    unit_mut(&mut s, "r-inf").gone = Some("test".into());
    assert_eq!(victory(&s, 4), None, "turn 4 is still played");
    assert_eq!(victory(&s, 5).and_then(|o| o.winner), Some(blue()));
}

#[test]
fn the_demo_player_plays_a_whole_battle_to_a_result() {
    let mut p = galloper::rulesets::activation_dice::demo::Player;
    let rules: &dyn AnyRuleset = &ActivationDice;
    let mut state = rules.start(p.scenario()).unwrap();
    for step in 0..400u32 {
        if rules.outcome(&state).unwrap().is_some() {
            return;
        }
        let due = rules.due(&state).unwrap();
        let mut o = BySide::new();
        for owed in &due.owed {
            let v = p.orders(&state, owed).unwrap();
            assert!(
                rules.check(&state, &owed.side, &v).unwrap().is_empty(),
                "step {step}"
            );
            o.insert(owed.side.clone(), v);
        }
        let mut seed = [0u8; 32];
        seed[..4].copy_from_slice(&step.to_le_bytes());
        let mut d = Dice::from_seeds(seed, [7; 32]);
        state = rules.resolve(&state, &o, &mut d).unwrap().state;
    }
    panic!("no result in 400 steps");
}

#[test]
fn the_battle_has_six_or_more_units_a_side_and_terrain() {
    let s: galloper::rulesets::activation_dice::scenario::Scenario =
        galloper::yaml::from_str(galloper::rulesets::activation_dice::demo::SCENARIO).unwrap();
    s.check().unwrap();
    assert!(s.sides.iter().all(|x| x.units.len() >= 6));
    assert!(s.terrain.len() >= 3);
    assert_eq!(Ruleset::sides(&ActivationDice, &s).len(), 2);
}

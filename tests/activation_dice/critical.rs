//! The Critical Event Table (2D6) and the lasting statuses it leaves,
//! shown on the map and in the reports.

use super::common::*;
use galloper::dice::Dice;
use galloper::ruleset::Ruleset;
use galloper::rulesets::activation_dice::ActivationDice;
use galloper::rulesets::activation_dice::combat::{Critical, critical};
use galloper::rulesets::activation_dice::orders::{Action, Goal};
use galloper::rulesets::activation_dice::state::{Formation, State};
use galloper::rulesets::activation_dice::turn::begin;
use galloper::view::Viewer;

#[test]
fn critical_event_table_bands() {
    use Critical::*;
    let want = [
        (2, OfficerKilled),
        (3, OfficerKilled),
        (4, BrokenLine),
        (5, Petrified),
        (6, DevastatingVolley),
        (8, DevastatingVolley),
        (9, Panic),
        (10, Wavering),
        (11, Rout),
        (12, Rout),
    ];
    for (t, c) in want {
        assert_eq!(Critical::of(t), c, "total {t}");
    }
}

fn roll(s: &mut State, id: &str, a: u32, b: u32) -> Vec<galloper::event::Event> {
    let i = s.index(id).unwrap();
    critical(s, i, None, &mut Dice::scripted(vec![a, b]))
}

fn note(s: &State, id: &str) -> String {
    let v = ActivationDice.view(s, &Viewer::Public);
    v.map
        .units
        .iter()
        .find(|u| u.id == id)
        .and_then(|u| u.note.clone())
        .unwrap_or_default()
}

#[test]
fn critical_officer_killed_the_unit_is_activated_singly() {
    let mut s = table();
    roll(&mut s, "b-inf", 1, 2);
    assert!(unit(&s, "b-inf").status.officer_killed);
    assert!(note(&s, "b-inf").contains("officer killed"));
    let o = turn(vec![activation("b-inf", 2, vec![])]);
    let v = check(&s, &blue(), &o);
    assert!(v.iter().any(|v| v.rule.contains("Officer Killed")), "{v:?}");
    assert_eq!(v[0].path, ["turn", "activations", "0", "dice"]);
}

#[test]
fn critical_broken_line_reforms_at_the_next_activation_without_formation_modifiers_until_then() {
    let mut s = table();
    roll(&mut s, "b-inf", 2, 2);
    assert!(unit(&s, "b-inf").status.broken_line);
    assert_eq!(unit(&s, "b-inf").modifying_formation(), None);
    assert!(note(&s, "b-inf").contains("broken line"));
    let o = turn(vec![activation(
        "b-inf",
        2,
        vec![Action::Move(Goal::Ahead(100.0))],
    )]);
    let r = run(&s, &blue(), o, vec![4, 4]);
    assert!(has(&r.events, "reform"));
    assert!(!unit(&r.state, "b-inf").status.broken_line);
    assert!(
        (at(&r.state, "b-inf").y - 20.0).abs() < 1e-6,
        "one success left for a move"
    );
}

#[test]
fn critical_petrified_may_not_activate_next_turn() {
    let mut s = table();
    roll(&mut s, "b-inf", 2, 3);
    assert!(note(&s, "b-inf").contains("petrified"));
    begin(&mut s, 1, &blue());
    assert!(unit(&s, "b-inf").activated, "it sits this turn out");
    let r = run(
        &s,
        &blue(),
        turn(vec![activation("b-inf", 2, vec![])]),
        vec![],
    );
    assert!(find(&r.events, "refused").text.contains("petrified"));
    assert!(
        !unit(&r.state, "b-inf").status.petrified,
        "only the one turn"
    );
}

#[test]
fn critical_petrified_its_orders_are_refused_with_the_reason_and_only_its_entry() {
    let mut s = table();
    roll(&mut s, "b-inf", 2, 3);
    begin(&mut s, 1, &blue());
    assert!(
        note(&s, "b-inf").contains("petrified"),
        "shown while it sits out"
    );
    let o = turn(vec![
        activation("b-inf", 2, vec![Action::Move(Goal::Ahead(100.0))]),
        activation("b-cav", 2, vec![Action::Move(Goal::Ahead(100.0))]),
    ]);
    // Not refused on receipt: the turn goes on without that entry.
    assert_eq!(check(&s, &blue(), &o), []);
    let r = run(&s, &blue(), o, vec![5, 5]);
    let no = find(&r.events, "refused");
    assert_eq!(no.facts.unit.as_ref().unwrap().id, "b-inf");
    assert!(no.text.contains("petrified"), "{}", no.text);
    assert_eq!(at(&r.state, "b-inf").y, 10.0);
    assert!(at(&r.state, "b-cav").y > 10.0, "the other unit moves");
    // A unit listed twice is still refused on receipt.
    let twice = turn(vec![
        activation("b-cav", 2, vec![]),
        activation("b-cav", 2, vec![]),
    ]);
    assert!(!check(&s, &blue(), &twice).is_empty());
}

#[test]
fn critical_devastating_volley_recoils_one_short() {
    let mut s = table();
    put(&mut s, "b-inf", 20.0, 30.0, 0.0, Formation::Column);
    roll(&mut s, "b-inf", 3, 4);
    assert!((at(&s, "b-inf").y - 25.0).abs() < 1e-6);
}

#[test]
fn critical_panic_one_more_disorder() {
    let mut s = table();
    roll(&mut s, "b-inf", 4, 5);
    assert_eq!(unit(&s, "b-inf").disorder, 1);
    assert!(note(&s, "b-inf").contains("1 disorder"));
}

#[test]
fn critical_wavering_is_a_lasting_status() {
    let mut s = table();
    roll(&mut s, "b-inf", 5, 5);
    assert!(unit(&s, "b-inf").status.wavering);
    assert!(note(&s, "b-inf").contains("wavering"));
}

#[test]
fn critical_rout_moves_to_its_own_edge_until_three_activations_succeed() {
    let mut s = table();
    put(&mut s, "b-inf", 20.0, 30.0, 0.0, Formation::Column);
    roll(&mut s, "b-inf", 5, 6);
    assert!(note(&s, "b-inf").contains("routing"));
    // Two successes of three do not stop it: at its turn's end it runs
    // its move (2 S) toward the south edge, facing it.
    let o = turn(vec![activation("b-inf", 3, vec![])]);
    let r = run(&s, &blue(), o.clone(), vec![5, 5, 3]);
    assert!(has(&r.events, "rout_move"));
    assert!(
        (at(&r.state, "b-inf").y - 20.0).abs() < 1e-6,
        "{:?}",
        at(&r.state, "b-inf")
    );
    assert_eq!(unit(&r.state, "b-inf").facing.degrees(), 180.0);
    // Three successes stop it.
    let r = run(&s, &blue(), o, vec![5, 5, 5]);
    assert!(has(&r.events, "rallied"));
    assert!(!unit(&r.state, "b-inf").status.rout);
    assert_eq!(at(&r.state, "b-inf").y, 30.0);
}

//! Actions and their costs.

use super::common::*;
use galloper::rulesets::activation_dice::orders::{Action, Goal};
use galloper::rulesets::activation_dice::state::Formation;
use galloper::rulesets::activation_dice::turn::begin;

fn ahead() -> Goal {
    Goal::Ahead(100.0)
}

#[test]
fn actions_move_costs_1_and_double_time_2_for_a_move_and_one_short_more() {
    let s = table();
    let r = run(
        &s,
        &blue(),
        turn(vec![activation(
            "b-inf",
            2,
            vec![Action::DoubleTime(ahead())],
        )]),
        vec![4, 4],
    );
    assert!((at(&r.state, "b-inf").y - 25.0).abs() < 1e-6, "2 S + 1 S");
    let r = run(
        &s,
        &blue(),
        turn(vec![activation(
            "b-inf",
            1,
            vec![Action::DoubleTime(ahead())],
        )]),
        vec![4],
    );
    assert_eq!(
        at(&r.state, "b-inf").y,
        10.0,
        "one success does not pay for it"
    );
}

#[test]
fn actions_change_formation_costs_1() {
    let s = table();
    let r = run(
        &s,
        &blue(),
        turn(vec![activation(
            "b-inf",
            1,
            vec![Action::Formation(Formation::Line)],
        )]),
        vec![6],
    );
    assert_eq!(unit(&r.state, "b-inf").formation, Formation::Line);
}

#[test]
fn actions_seize_the_initiative_closes_with_the_enemy_and_costs_2() {
    let mut s = table();
    put(&mut s, "b-inf", 20.0, 42.0, 0.0, Formation::Column);
    let o = turn(vec![activation(
        "b-inf",
        2,
        vec![Action::Seize("r-inf".into())],
    )]);
    let r = run(&s, &blue(), o, vec![5, 5, 3, 3]);
    let m = find(&r.events, "melee");
    assert_eq!(m.facts.mode.as_deref(), Some("seizing the initiative"));
    assert!(
        m.facts
            .modifiers
            .iter()
            .any(|x| x.value == -1 && x.why.ends_with("seized the initiative"))
    );
    assert!(
        m.facts
            .modifiers
            .iter()
            .any(|x| x.why.ends_with("infantry charging"))
    );
}

#[test]
fn actions_recoil_infantry_1s_cavalry_1m_and_face_the_enemy() {
    let mut s = table();
    put(&mut s, "b-inf", 20.0, 40.0, 0.0, Formation::Column);
    put(&mut s, "r-inf", 20.0, 40.0, 180.0, Formation::Column);
    put(&mut s, "b-cav", 40.0, 40.0, 0.0, Formation::Mounted);
    put(&mut s, "r-gun", 40.0, 40.0, 180.0, Formation::Limbered);
    begin(&mut s, 1, &blue());
    let o = turn(vec![
        activation("b-inf", 2, vec![Action::Recoil]),
        activation("b-cav", 2, vec![Action::Recoil]),
    ]);
    let r = run(&s, &blue(), o, vec![5, 5, 5, 5]);
    assert!((at(&r.state, "b-inf").y - 35.0).abs() < 1e-6);
    assert!((at(&r.state, "b-cav").y - 30.0).abs() < 1e-6);
    assert_eq!(
        unit(&r.state, "b-inf").facing.degrees(),
        0.0,
        "still facing the enemy"
    );
    assert!(
        r.state.melee_pairs().is_empty(),
        "no melee is left to fight"
    );
}

#[test]
fn actions_aimed_shot_costs_2_and_puts_the_target_at_minus_1() {
    let mut s = table();
    put(&mut s, "b-inf", 20.0, 30.0, 0.0, Formation::Line);
    put(&mut s, "r-inf", 20.0, 38.0, 180.0, Formation::Line);
    let o = turn(vec![activation(
        "b-inf",
        2,
        vec![Action::Aimed("r-inf".into())],
    )]);
    let r = run(&s, &blue(), o, vec![5, 5, 3, 3]);
    let f = find(&r.events, "fire");
    assert!(
        f.facts
            .modifiers
            .iter()
            .any(|x| x.why == "Red Foot: aimed shot" && x.value == -1)
    );
}

#[test]
fn artillery_formations_limber_and_unlimber_cost_2_and_only_limbered_guns_move() {
    let mut s = table();
    s.phase = galloper::rulesets::activation_dice::state::Phase::Turn {
        turn: 1,
        side: red(),
    };
    put(&mut s, "r-gun", 40.0, 50.0, 180.0, Formation::Unlimbered);
    let mv = turn(vec![activation("r-gun", 1, vec![Action::Move(ahead())])]);
    let r = run(&s, &red(), mv.clone(), vec![5]);
    assert!(has(&r.events, "refused"));
    assert_eq!(at(&r.state, "r-gun").y, 50.0);
    let r = run(
        &s,
        &red(),
        turn(vec![activation(
            "r-gun",
            3,
            vec![Action::Limber, Action::Move(ahead())],
        )]),
        vec![5, 5, 5],
    );
    assert_eq!(unit(&r.state, "r-gun").formation, Formation::Limbered);
    assert!(
        (at(&r.state, "r-gun").y - 45.0).abs() < 1e-6,
        "a limbered battery moves its 1 S"
    );
}

#[test]
fn actions_load_canister_costs_2() {
    let mut s = table();
    s.phase = galloper::rulesets::activation_dice::state::Phase::Turn {
        turn: 1,
        side: red(),
    };
    put(&mut s, "r-gun", 40.0, 50.0, 180.0, Formation::Unlimbered);
    let r = run(
        &s,
        &red(),
        turn(vec![activation("r-gun", 1, vec![Action::Canister])]),
        vec![6],
    );
    assert!(!unit(&r.state, "r-gun").canister);
    let r = run(
        &s,
        &red(),
        turn(vec![activation("r-gun", 2, vec![Action::Canister])]),
        vec![6, 6],
    );
    assert!(unit(&r.state, "r-gun").canister);
}

#[test]
fn actions_an_action_impossible_when_its_turn_comes_spends_no_success() {
    // Out of range: Red's foot is 40 cm off, the musket reaches 15. The
    // shot is refused and both successes go to the moves.
    let s = table();
    let o = turn(vec![activation(
        "b-inf",
        2,
        vec![
            Action::Fire("r-inf".into()),
            Action::Move(ahead()),
            Action::Move(ahead()),
        ],
    )]);
    let r = run(&s, &blue(), o, vec![5, 5]);
    let no = find(&r.events, "refused");
    assert!(
        no.text.contains("out of range") && no.text.contains("no success spent"),
        "{}",
        no.text
    );
    assert!((at(&r.state, "b-inf").y - 30.0).abs() < 1e-6, "two moves");
    // A square moving: the one success goes to the change of formation.
    let mut s = table();
    put(&mut s, "b-inf", 20.0, 10.0, 0.0, Formation::Square);
    let o = turn(vec![activation(
        "b-inf",
        1,
        vec![Action::Move(ahead()), Action::Formation(Formation::Column)],
    )]);
    let r = run(&s, &blue(), o, vec![5]);
    assert_eq!(unit(&r.state, "b-inf").formation, Formation::Column);
    // Limbered guns firing: both successes go to unlimbering.
    let mut s = table();
    s.phase = galloper::rulesets::activation_dice::state::Phase::Turn {
        turn: 1,
        side: red(),
    };
    put(&mut s, "b-inf", 40.0, 40.0, 0.0, Formation::Column);
    let o = turn(vec![activation(
        "r-gun",
        2,
        vec![Action::Fire("b-inf".into()), Action::Unlimber],
    )]);
    let r = run(&s, &red(), o, vec![5, 5]);
    assert_eq!(unit(&r.state, "r-gun").formation, Formation::Unlimbered);
}

//! Movement and Turning; Infantry Formations' movement; terrain.

use super::common::*;
use galloper::geometry::Point;
use galloper::rulesets::activation_dice::orders::{Action, Goal};
use galloper::rulesets::activation_dice::state::Formation;

#[test]
fn movement_may_be_broken_up_move_pivot_move_is_three_actions() {
    let mut s = table();
    // A line moves 1 S (line -1 movement) and has no free turn.
    put(&mut s, "b-inf", 30.0, 10.0, 0.0, Formation::Line);
    let o = turn(vec![activation(
        "b-inf",
        3,
        vec![
            Action::Move(Goal::Ahead(5.0)),
            Action::Pivot(90.0),
            Action::Move(Goal::Ahead(5.0)),
        ],
    )]);
    let r = run(&s, &blue(), o.clone(), vec![4, 5, 6]);
    assert!(
        has(&r.events, "refused"),
        "the 90-degree pivot costs 2: the last move is not paid"
    );
    let o = turn(vec![activation(
        "b-inf",
        3,
        vec![
            Action::Move(Goal::Ahead(5.0)),
            Action::Pivot(45.0),
            Action::Move(Goal::Ahead(5.0)),
        ],
    )]);
    let r = run(&s, &blue(), o, vec![4, 5, 6]);
    let u = unit(&r.state, "b-inf");
    assert_eq!(u.facing.degrees(), 45.0);
    assert!(!has(&r.events, "refused"));
    // Moved 5 north, pivoted about its centre, then 5 north-east.
    assert!(at(&r.state, "b-inf").y > 15.0 && at(&r.state, "b-inf").x > 30.0);
}

#[test]
fn movement_pivots_45_degrees_per_action_about_the_centre() {
    let mut s = table();
    put(&mut s, "b-inf", 30.0, 20.0, 0.0, Formation::Line);
    let centre = s.centre(unit(&s, "b-inf"));
    let r = run(
        &s,
        &blue(),
        turn(vec![activation("b-inf", 2, vec![Action::Pivot(90.0)])]),
        vec![4, 4],
    );
    let u = unit(&r.state, "b-inf");
    assert_eq!(u.facing.degrees(), 90.0);
    let c = r.state.centre(u);
    assert!((c - centre).length() < 1e-6, "the centre stays put");
}

#[test]
fn infantry_formations_column_turns_one_point_free() {
    let s = table();
    // One success pays for the move; the column's 45-degree turn is free.
    let o = turn(vec![activation(
        "b-inf",
        1,
        vec![Action::Pivot(45.0), Action::Move(Goal::Ahead(100.0))],
    )]);
    let r = run(&s, &blue(), o, vec![4]);
    assert!(!has(&r.events, "refused"));
    assert_eq!(unit(&r.state, "b-inf").facing.degrees(), 45.0);
}

#[test]
fn movement_forward_at_up_to_45_degrees_without_changing_facing() {
    let s = table();
    let o = turn(vec![activation(
        "b-inf",
        1,
        vec![Action::Move(Goal::To(Point::new(25.0, 15.0)))],
    )]);
    let r = run(&s, &blue(), o, vec![4]);
    assert!((at(&r.state, "b-inf") - Point::new(25.0, 15.0)).length() < 1e-6);
    assert_eq!(unit(&r.state, "b-inf").facing.degrees(), 0.0);
    let o = turn(vec![activation(
        "b-inf",
        1,
        vec![Action::Move(Goal::To(Point::new(30.0, 12.0)))],
    )]);
    let r = run(&s, &blue(), o, vec![4]);
    assert!(
        has(&r.events, "refused"),
        "more than 45 degrees off its front"
    );
}

#[test]
fn infantry_formations_line_moves_one_short_less_and_square_not_at_all() {
    let mut s = table();
    put(&mut s, "b-inf", 30.0, 10.0, 0.0, Formation::Line);
    let o = turn(vec![activation(
        "b-inf",
        1,
        vec![Action::Move(Goal::Ahead(100.0))],
    )]);
    let r = run(&s, &blue(), o.clone(), vec![4]);
    assert!((at(&r.state, "b-inf").y - 15.0).abs() < 1e-6);
    put(&mut s, "b-inf", 30.0, 10.0, 0.0, Formation::Square);
    let r = run(&s, &blue(), o, vec![4]);
    assert_eq!(at(&r.state, "b-inf").y, 10.0);
    assert!(has(&r.events, "refused"));
}

#[test]
fn movement_subject_to_terrain_woods_cost_double() {
    let mut s = table();
    // The wood is x 0-10, y 25-35. 5 cm to its edge, then 5 cm of move
    // buys 2.5 cm inside.
    put(&mut s, "b-inf", 5.0, 20.0, 0.0, Formation::Column);
    let o = turn(vec![activation(
        "b-inf",
        1,
        vec![Action::Move(Goal::Ahead(100.0))],
    )]);
    let r = run(&s, &blue(), o, vec![4]);
    assert!(
        (at(&r.state, "b-inf").y - 27.5).abs() < 1e-6,
        "{:?}",
        at(&r.state, "b-inf")
    );
}

#[test]
fn melee_attacks_charges_happen_on_first_meeting_a_move_stops_at_contact() {
    let mut s = table();
    put(&mut s, "b-inf", 20.0, 44.0, 0.0, Formation::Column);
    let o = turn(vec![activation(
        "b-inf",
        1,
        vec![Action::Move(Goal::Ahead(100.0))],
    )]);
    let r = run(&s, &blue(), o, vec![4, 2, 2]);
    assert!(
        (at(&r.state, "b-inf").y - 50.0).abs() < 1e-6,
        "stops at Red's front"
    );
    assert_eq!(
        find(&r.events, "melee").facts.mode.as_deref(),
        Some("a charge")
    );
}

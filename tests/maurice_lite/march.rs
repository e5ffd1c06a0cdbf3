//! Chapter 6: movement.

use crate::common::*;
use galloper::rulesets::maurice_lite::units::Formation;

fn march(unit: &str, steps: &str) -> String {
    format!(
        "round:\n  command:\n    march:\n      force: [{unit}]\n      cards: fewest\n      moves:\n        - unit: {unit}\n          steps: {steps}\n"
    )
}

fn ready() -> galloper::rulesets::maurice_lite::state::State {
    let mut s = table();
    hand(&mut s, &blue(), &["c39", "c33", "c32"]);
    s
}

#[test]
fn infantry_line_moves_four() {
    let mut s = ready();
    place(&mut s, "b-i1", 10.0, 3.0, 0.0, Formation::Line);
    assert!(check(&s, &blue(), &march("b-i1", "[{forward: 4}]")).is_empty());
    let v = check(&s, &blue(), &march("b-i1", "[{forward: 4.5}]"));
    assert!(rules_of(&v).contains("allowance"), "{}", rules_of(&v));
}

#[test]
fn retrograde_is_half_and_never_mixed() {
    let mut s = ready();
    place(&mut s, "b-i1", 10.0, 5.0, 0.0, Formation::Line);
    assert!(check(&s, &blue(), &march("b-i1", "[{back: 2}]")).is_empty());
    assert!(!check(&s, &blue(), &march("b-i1", "[{back: 2.5}]")).is_empty());
    let v = check(&s, &blue(), &march("b-i1", "[{forward: 1}, {back: 1}]"));
    assert!(rules_of(&v).contains("Retrograde"), "{}", rules_of(&v));
}

#[test]
fn a_wheel_spends_the_distance_of_the_outer_corner() {
    let mut s = ready();
    place(&mut s, "b-i1", 10.0, 3.0, 0.0, Formation::Line);
    // A 4 BW line wheeling 45 degrees moves its far corner 4 * pi/4 = 3.14 BW.
    assert!(
        check(
            &s,
            &blue(),
            &march("b-i1", "[{wheel: {pivot: left, degrees: 45}}]")
        )
        .is_empty()
    );
    // 60 degrees is 4.19 BW: over the infantry's 4.
    assert!(
        !check(
            &s,
            &blue(),
            &march("b-i1", "[{wheel: {pivot: left, degrees: 60}}]")
        )
        .is_empty()
    );
}

#[test]
fn columns_move_twelve_but_four_near_the_enemy() {
    let mut s = ready();
    place(&mut s, "b-i1", 5.0, 3.0, 0.0, Formation::Column);
    assert!(check(&s, &blue(), &march("b-i1", "[{forward: 10}]")).is_empty());
    place(&mut s, "r-i1", 5.0, 17.0, 180.0, Formation::Line);
    // Ending 4 BW short of the enemy front is near: the cap of 4 applies.
    let v = check(&s, &blue(), &march("b-i1", "[{forward: 10}]"));
    assert!(rules_of(&v).contains("Near the enemy"), "{}", rules_of(&v));
    assert!(check(&s, &blue(), &march("b-i1", "[{forward: 4}]")).is_empty());
}

#[test]
fn cavalry_line_moves_eight_or_four_near_the_enemy() {
    let mut s = ready();
    place(&mut s, "b-c1", 10.0, 3.0, 0.0, Formation::Line);
    assert!(check(&s, &blue(), &march("b-c1", "[{forward: 8}]")).is_empty());
    place(&mut s, "r-i1", 10.0, 14.0, 180.0, Formation::Line);
    assert!(!check(&s, &blue(), &march("b-c1", "[{forward: 8}]")).is_empty());
    assert!(check(&s, &blue(), &march("b-c1", "[{forward: 4}]")).is_empty());
}

#[test]
fn artillery_ending_near_the_enemy_moves_two() {
    let mut s = ready();
    place(&mut s, "b-a1", 10.0, 5.0, 0.0, Formation::Battery);
    assert!(check(&s, &blue(), &march("b-a1", "[{forward: 8}]")).is_empty());
    place(&mut s, "r-i1", 10.0, 14.0, 180.0, Formation::Line);
    let v = check(&s, &blue(), &march("b-a1", "[{forward: 6}]"));
    assert!(
        rules_of(&v).contains("artillery ending near"),
        "{}",
        rules_of(&v)
    );
    assert!(check(&s, &blue(), &march("b-a1", "[{forward: 2}]")).is_empty());
}

#[test]
fn artillery_with_smoke_does_not_move_but_its_march_clears_the_smoke() {
    let mut s = ready();
    place(&mut s, "b-a1", 10.0, 5.0, 0.0, Formation::Battery);
    s.unit_mut("b-a1").unwrap().smoke = true;
    let v = check(&s, &blue(), &march("b-a1", "[{forward: 1}]"));
    assert!(rules_of(&v).contains("Smoke"), "{}", rules_of(&v));
    let r = resolve(&s, &blue(), &march("b-a1", "[]"), vec![]);
    assert!(!r.state.unit("b-a1").unwrap().smoke);
    assert!(texts(&r).contains("clear its smoke"));
}

#[test]
fn difficult_terrain_costs_one_disr_and_never_breaks() {
    let mut s = ready();
    place(&mut s, "b-i1", 33.0, 8.0, 0.0, Formation::Line);
    let r = resolve(&s, &blue(), &march("b-i1", "[{forward: 3}]"), vec![]);
    assert_eq!(r.state.unit("b-i1").unwrap().disruption, 1, "{}", texts(&r));
    s.unit_mut("b-i1").unwrap().disruption = 4;
    let v = check(&s, &blue(), &march("b-i1", "[{forward: 3}]"));
    assert!(
        rules_of(&v).contains("no unit is broken by moving"),
        "{}",
        rules_of(&v)
    );
}

#[test]
fn interpenetration_disrupts_lines_but_not_columns() {
    let mut s = ready();
    // Foot in line behind horse in column: the line passes through.
    place(&mut s, "b-i1", 10.0, 3.0, 0.0, Formation::Line);
    place(&mut s, "b-c1", 10.0, 4.5, 90.0, Formation::Column);
    let r = resolve(&s, &blue(), &march("b-i1", "[{forward: 4}]"), vec![]);
    assert_eq!(r.state.unit("b-i1").unwrap().disruption, 1, "{}", texts(&r));
    assert_eq!(r.state.unit("b-c1").unwrap().disruption, 0);
}

#[test]
fn no_stacking_and_no_contact_on_a_march() {
    let mut s = ready();
    place(&mut s, "b-i1", 10.0, 3.0, 0.0, Formation::Line);
    place(&mut s, "b-i2", 10.0, 6.0, 0.0, Formation::Line);
    let v = check(&s, &blue(), &march("b-i1", "[{forward: 3}]"));
    assert!(rules_of(&v).contains("no stacking"), "{}", rules_of(&v));
    place(&mut s, "b-i2", 25.0, 6.0, 0.0, Formation::Line);
    place(&mut s, "r-i1", 10.0, 6.0, 180.0, Formation::Line);
    let v = check(&s, &blue(), &march("b-i1", "[{forward: 3}]"));
    assert!(rules_of(&v).contains("no contact"), "{}", rules_of(&v));
}

#[test]
fn formation_change_from_line_takes_the_whole_move_from_column_none() {
    let mut s = ready();
    place(&mut s, "b-i1", 10.0, 3.0, 0.0, Formation::Line);
    let v = check(
        &s,
        &blue(),
        &march(
            "b-i1",
            "[{formation: {to: column, turn: right}}, {path: [{x: 14, y: 8}]}]",
        ),
    );
    assert!(rules_of(&v).contains("formation"), "{}", rules_of(&v));
    assert!(
        check(
            &s,
            &blue(),
            &march("b-i1", "[{formation: {to: column, turn: right}}]")
        )
        .is_empty()
    );
    place(&mut s, "b-i1", 10.0, 8.0, 0.0, Formation::Column);
    assert!(
        check(
            &s,
            &blue(),
            &march(
                "b-i1",
                "[{formation: {to: line, turn: left}}, {forward: 2}]"
            )
        )
        .is_empty()
    );
    // Infantry never forms massed.
    assert!(!check(&s, &blue(), &march("b-i1", "[{formation: {to: massed}}]")).is_empty());
}

#[test]
fn only_cavalry_about_faces_and_must_end_away_from_the_enemy() {
    let mut s = ready();
    place(&mut s, "b-i1", 10.0, 5.0, 0.0, Formation::Line);
    assert!(!check(&s, &blue(), &march("b-i1", "[about_face]")).is_empty());
    place(&mut s, "b-c1", 20.0, 5.0, 0.0, Formation::Massed);
    assert!(check(&s, &blue(), &march("b-c1", "[about_face, {forward: 1}]")).is_empty());
    place(&mut s, "r-i1", 20.0, 8.0, 180.0, Formation::Line);
    assert!(!check(&s, &blue(), &march("b-c1", "[about_face, {forward: 1}]")).is_empty());
}

#[test]
fn no_unit_enters_impassable_ground() {
    let mut s = ready();
    place(&mut s, "b-i1", 1.5, 16.0, 0.0, Formation::Column);
    let v = check(&s, &blue(), &march("b-i1", "[{forward: 5}]"));
    assert!(rules_of(&v).contains("impassable"), "{}", rules_of(&v));
}

#[test]
fn a_column_snakes_along_its_path_and_pays_its_length() {
    let mut s = ready();
    place(&mut s, "b-i1", 10.0, 5.0, 0.0, Formation::Column);
    // 5 BW up, then 5 BW right: 10 of the column's 12.
    let path = "[{path: [{x: 10, y: 10}, {x: 15, y: 10}]}]";
    assert!(check(&s, &blue(), &march("b-i1", path)).is_empty());
    let r = resolve(&s, &blue(), &march("b-i1", path), vec![]);
    let u = r.state.unit("b-i1").unwrap();
    let at = u.anchor.unwrap();
    assert!(
        (at.x - 15.0).abs() < 1e-6 && (at.y - 10.0).abs() < 1e-6,
        "{at:?}"
    );
    assert!(
        (u.facing.degrees() - 90.0).abs() < 1e-6,
        "faces along the last leg"
    );
    assert!(texts(&r).contains("moves 10.0 BW"), "{}", texts(&r));
    // 13 BW is over the allowance.
    let long = "[{path: [{x: 10, y: 13}, {x: 15, y: 13}]}]";
    assert!(!check(&s, &blue(), &march("b-i1", long)).is_empty());
    // Lines do not snake.
    place(&mut s, "b-i1", 10.0, 5.0, 0.0, Formation::Line);
    assert!(!check(&s, &blue(), &march("b-i1", path)).is_empty());
}

#[test]
fn massed_through_line_disrupts_both_and_guns_disrupt_only_the_horse() {
    let mut s = ready();
    hand(&mut s, &blue(), &["c39", "c33"]);
    place(&mut s, "b-c1", 10.0, 3.0, 0.0, Formation::Massed);
    place(&mut s, "b-i1", 10.0, 4.5, 0.0, Formation::Line);
    let r = resolve(&s, &blue(), &march("b-c1", "[{forward: 4}]"), vec![]);
    assert_eq!(r.state.unit("b-c1").unwrap().disruption, 1, "{}", texts(&r));
    assert_eq!(r.state.unit("b-i1").unwrap().disruption, 1);
    let mut s = ready();
    place(&mut s, "b-a1", 10.0, 3.0, 0.0, Formation::Battery);
    place(&mut s, "b-c1", 10.0, 5.0, 0.0, Formation::Massed);
    let r = resolve(&s, &blue(), &march("b-a1", "[{forward: 5}]"), vec![]);
    assert_eq!(r.state.unit("b-a1").unwrap().disruption, 0, "{}", texts(&r));
    assert_eq!(r.state.unit("b-c1").unwrap().disruption, 1);
}

//! E.2 command control, with E.7l impetuous and E.7m cautious troops.

use crate::advanced::*;
use crate::common::*;
use galloper::geometry::{Point, Shape, base_distance};
use galloper::rulesets::morschauser_macduff::command::{Command, command_die};
use galloper::rulesets::morschauser_macduff::orders::{Action, Charge, PathStep, Sequence};
use galloper::rulesets::morschauser_macduff::scenario::{Personality, Terrain, TerrainKind};
use galloper::rulesets::morschauser_macduff::state::State;
use galloper::rulesets::morschauser_macduff::units::Quality;

/// Blue's light infantry at (20, 5) facing Red's line at (20, 15), 10" off;
/// command control on.
fn field() -> State {
    let mut s = table();
    only(&mut s, &["b-lt"]);
    place(&mut s, "r-li", 20.0, 15.0, 180.0);
    s.scenario.options.command_control = true;
    s
}

fn gap(s: &State) -> f64 {
    let sc = &s.scenario;
    base_distance(
        &s.company("b-lt").unwrap().base(sc),
        &s.company("r-li").unwrap().base(sc),
    )
    .get()
}

fn advance_and_shoot() -> Action {
    Action {
        target: Some("r-li".into()),
        ..forward("b-lt", 6.0)
    }
}

fn charge() -> Action {
    Action {
        sequence: Sequence::MoveOnly,
        charge: Some(Charge {
            target: "r-li".into(),
            flank: false,
            pursue: false,
        }),
        path: vec![PathStep::To(Point::new(20.0, 15.0))],
        ..action("b-lt")
    }
}

fn sidestep() -> Action {
    Action {
        sequence: Sequence::MoveOnly,
        path: vec![PathStep::Pivot(90.0)],
        ..action("b-lt")
    }
}

#[test]
fn e2_1_or_2_no_advance_but_it_still_shoots() {
    let s = field();
    let r = run(&s, turn(vec![advance_and_shoot()]), vec![2, 5, 5, 5]);
    assert!(near(y(r.state(), "b-lt"), 5.0), "{:?}", r.texts);
    assert_eq!(r.state().company("r-li").unwrap().hits, 3);
    assert!(r.dice[0].1.contains("command die (E.2)"), "{:?}", r.dice);
    assert!(r.has("makes no advance"));
    // 3 or 4: it obeys.
    let r = run(&s, turn(vec![advance_and_shoot()]), vec![3, 1, 1, 1]);
    assert!(near(y(r.state(), "b-lt"), 11.0), "{:?}", r.texts);
    // Off, no die at all.
    let mut off = s.clone();
    off.scenario.options.command_control = false;
    let r = run(&off, turn(vec![advance_and_shoot()]), vec![1, 1, 1]);
    assert!(near(y(r.state(), "b-lt"), 11.0));
    assert_eq!(r.dice.len(), 3);
}

#[test]
fn e2_units_ordered_to_hold_or_only_shoot_roll_no_command_die() {
    let s = field();
    let a = Action {
        sequence: Sequence::ShootOnly,
        target: Some("r-li".into()),
        ..action("b-lt")
    };
    let r = run(&s, turn(vec![a]), vec![1, 1, 1]);
    assert_eq!(r.dice.len(), 3);
    assert!(r.dice.iter().all(|d| !d.1.contains("command")));
}

#[test]
fn e2_e7l_impetuous_troops_on_5_or_6_must_charge_the_nearest_enemy() {
    let mut s = field();
    qualities(&mut s, "b-lt", &[Quality::Impetuous]);
    // The command die, then the melee its charge brings (3 and 4 dice).
    let r = run(&s, turn(vec![sidestep()]), vec![6, 6, 6, 6, 6, 6, 6, 6]);
    assert!(r.has("is impetuous and must charge r-li"), "{:?}", r.texts);
    assert!(gap(r.state()) < 3.0, "{:?}", r.texts);
    assert!(r.has("Melee: Blue Light (b-lt) attacks Red Line (r-li)"));
    // Ordinary troops obey on a 6: they only turn.
    let mut plain = field();
    qualities(&mut plain, "b-lt", &[]);
    let r = run(&plain, turn(vec![sidestep()]), vec![6]);
    assert!(near(y(r.state(), "b-lt"), 5.0));
    assert_eq!(r.state().company("b-lt").unwrap().facing.degrees(), 90.0);
    // Out of reach (more than a move away), there is no charge to make.
    let mut far = s.clone();
    place(&mut far, "r-li", 20.0, 25.0, 180.0);
    let r = run(&far, turn(vec![sidestep()]), vec![6]);
    assert!(near(y(r.state(), "b-lt"), 5.0), "{:?}", r.texts);
}

#[test]
fn e2_impetuous_troops_in_fortifications_obey() {
    let mut s = field();
    qualities(&mut s, "b-lt", &[Quality::Impetuous]);
    s.scenario.terrain.push(Terrain {
        id: "works".into(),
        name: "The Works".into(),
        kind: TerrainKind::Earthwork,
        outline: Shape::Polygon {
            points: vec![
                Point::new(17.0, 1.0),
                Point::new(23.0, 1.0),
                Point::new(23.0, 6.0),
                Point::new(17.0, 6.0),
            ],
        },
    });
    let r = run(&s, turn(vec![sidestep()]), vec![6]);
    assert!(near(y(r.state(), "b-lt"), 5.0), "{:?}", r.texts);
    assert!(r.has("obeys"));
}

#[test]
fn e2_e7m_cautious_troops_on_5_or_6_drop_their_charge() {
    let mut s = field();
    qualities(&mut s, "b-lt", &[Quality::Cautious]);
    let r = run(&s, turn(vec![charge()]), vec![5]);
    assert!(r.has("drops its charge"), "{:?}", r.texts);
    // It stops short of 3" (B.3: exactly 3" would be within): no charge,
    // no melee range.
    assert!(near(y(r.state(), "b-lt"), 11.75), "{:?}", r.texts);
    // On a 4 the charge goes in, and the melee follows.
    let r = run(&s, turn(vec![charge()]), vec![4, 6, 6, 6, 6, 6, 6, 6]);
    assert!(gap(r.state()) < 3.0, "{:?}", r.texts);
    assert!(r.has("Melee: Blue Light (b-lt) attacks Red Line (r-li)"));
}

/// Roll one command die for b-lt advancing, with a general at `at`.
fn die_with(p: Option<Personality>, at: (f64, f64), dice: Vec<u32>) -> (Command, Vec<String>) {
    let mut s = field();
    general(&mut s, "b-gen", at, &["b-lt"], p);
    let mut d = galloper::dice::Dice::scripted(dice);
    let mut events = Vec::new();
    let c = command_die(
        &mut s,
        &blue(),
        &["b-lt".to_string()],
        &advance_and_shoot(),
        &mut d,
        &mut events,
    );
    (c, events.into_iter().map(|e| e.text).collect())
}

#[test]
fn e2_personalities_shift_the_die_toward_obey() {
    let close = (20.0, 1.0);
    // Rash must add: 2 becomes 3.
    assert_eq!(
        die_with(Some(Personality::Rash), close, vec![2]).0,
        Command::Obey
    );
    // Bold adds to a 2.
    let (c, texts) = die_with(Some(Personality::Bold), close, vec![2]);
    assert_eq!(c, Command::Obey);
    assert!(texts.iter().any(|t| t.contains("adds 1")), "{texts:?}");
    // Indecisive does nothing; cautious may only subtract.
    assert_eq!(
        die_with(Some(Personality::Indecisive), close, vec![2]).0,
        Command::NoAdvance
    );
    assert_eq!(
        die_with(Some(Personality::Cautious), close, vec![2]).0,
        Command::NoAdvance
    );
    // Rash on a 1 still only reaches 2.
    assert_eq!(
        die_with(Some(Personality::Rash), close, vec![1]).0,
        Command::NoAdvance
    );
}

#[test]
fn e2_a_general_beyond_12_inches_or_out_of_sight_cannot_help() {
    let (c, texts) = die_with(Some(Personality::Bold), (40.0, 4.0), vec![2]);
    assert_eq!(c, Command::NoAdvance);
    assert!(
        texts.iter().any(|t| t.contains("not within 12 in")),
        "{texts:?}"
    );
    // 8.5" away but a town stands between.
    let mut s = field();
    general(
        &mut s,
        "b-gen",
        (30.0, 4.0),
        &["b-lt"],
        Some(Personality::Bold),
    );
    s.scenario.terrain.push(Terrain {
        id: "town".into(),
        name: "The Town".into(),
        kind: TerrainKind::Town,
        outline: Shape::Polygon {
            points: vec![
                Point::new(23.0, 0.0),
                Point::new(26.0, 0.0),
                Point::new(26.0, 10.0),
                Point::new(23.0, 10.0),
            ],
        },
    });
    let r = run(&s, turn(vec![advance_and_shoot()]), vec![2, 1, 1, 1]);
    assert!(near(y(r.state(), "b-lt"), 5.0), "{:?}", r.texts);
    // Without the town he helps.
    s.scenario.terrain.retain(|t| t.id != "town");
    let r = run(&s, turn(vec![advance_and_shoot()]), vec![2, 1, 1, 1]);
    assert!(near(y(r.state(), "b-lt"), 11.0), "{:?}", r.texts);
}

#[test]
fn e2_personality_is_rolled_the_first_time_it_matters_and_kept() {
    let mut s = field();
    general(&mut s, "b-gen", (20.0, 1.0), &["b-lt"], None);
    // Command die 2, then his personality: 3 is bold, who adds 1.
    let r = run(&s, turn(vec![advance_and_shoot()]), vec![2, 3, 1, 1, 1]);
    assert!(r.dice[1].1.contains("personality"), "{:?}", r.dice);
    assert!(r.has("proves to be bold"));
    assert_eq!(
        r.state().general("b-gen").unwrap().personality,
        Some(Personality::Bold)
    );
    assert!(near(y(r.state(), "b-lt"), 11.0));
    // Next time no personality die is rolled.
    let r2 = run(r.state(), turn(vec![sidestep()]), vec![2]);
    assert_eq!(r2.dice.len(), 1);
    // A player's general is bold from the start.
    let mut sc = scenario();
    sc.sides[0].generals.push(spec_mut(&mut s, "b-gen").clone());
    sc.sides[0].generals[0].player = true;
    sc.sides[0].generals[0].personality = None;
    let st = State::new(&sc).unwrap();
    assert_eq!(
        st.general("b-gen").unwrap().personality,
        Some(Personality::Bold)
    );
}

#[test]
fn e2_e1_a_formed_regiment_rolls_one_command_die() {
    let mut s = table();
    only(&mut s, &["b-li", "b-li2"]);
    s.scenario.options.command_control = true;
    let a = Action {
        company: None,
        regiment: Some("b-reg".into()),
        ..forward("b-li", 6.0)
    };
    let r = run(&s, turn(vec![a.clone()]), vec![2]);
    assert_eq!(r.dice.len(), 1, "{:?}", r.dice);
    assert!(r.dice[0].1.contains("formed regiment b-reg"));
    assert!(near(y(r.state(), "b-li"), 5.0) && near(y(r.state(), "b-li2"), 5.0));
    let r = run(&s, turn(vec![a]), vec![4]);
    assert!(near(y(r.state(), "b-li"), 11.0) && near(y(r.state(), "b-li2"), 11.0));
}

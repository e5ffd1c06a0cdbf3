//! Issue 28, item 1: what is public, and which stream a die takes, are
//! decided only from facts both sides share, never from what a hidden unit
//! sees or what a side has found. Paired games that differ only in a
//! hidden fact, resolved with the same orders and the same seeds: every
//! byte the other side can read is the same (its telling of the move, its
//! view and template, the public telling, view and dice).

use galloper::dice::{Dice, StreamKind};
use galloper::event::Event;
use galloper::geometry::Point;
use galloper::ruleset::Ruleset;
use galloper::rulesets::crowther_dougan::CrowtherDougan;
use galloper::rulesets::crowther_dougan::orders::{Move, MoveOrders, Observe, Orders};
use galloper::rulesets::crowther_dougan::scenario::Scenario;
use galloper::rulesets::crowther_dougan::state::State;
use galloper::side::{BySide, SideId};
use galloper::view::Viewer;

/// Red's line stands in the open. Blue's irregulars hide in "Near Copse",
/// in sight of Red's line, or in "Far Copse", behind "Screen Wood". Blue
/// has nothing in the open.
const FIELD: &str = r##"
ruleset: crowther-dougan
title: "Paired field"
table: {width: 120, height: 100}
moves: 8
first: red
sides:
  - id: red
    name: Red
    colour: "#b22222"
    units:
      - {id: r-line, name: "Red Line", troop: line_infantry, figures: 20, at: {x: 50, y: 15}, facing: 0}
      - {id: r-scout, name: "Red Scouts", troop: skirmishers, figures: 6, at: {x: 50, y: 34}, facing: 0}
    personalities: []
  - id: blue
    name: Blue
    colour: "#1d4f9e"
    units:
      - {id: b-hid, name: "Blue Hidden", troop: irregulars, figures: 8, at: {x: 50, y: 40}, facing: 180}
    personalities: []
terrain:
  - {id: near, name: "Near Copse", tags: [woods], shape: polygon, points: [{x: 40, y: 36}, {x: 60, y: 36}, {x: 60, y: 46}, {x: 40, y: 46}]}
  - {id: screen, name: "Screen Wood", tags: [woods], shape: polygon, points: [{x: 70, y: 66}, {x: 119, y: 66}, {x: 119, y: 78}, {x: 70, y: 78}]}
  - {id: far, name: "Far Copse", tags: [woods], shape: polygon, points: [{x: 95, y: 85}, {x: 115, y: 85}, {x: 115, y: 95}, {x: 95, y: 95}]}
"##;

fn red() -> SideId {
    SideId::new("red")
}

fn blue() -> SideId {
    SideId::new("blue")
}

fn state() -> State {
    let sc: Scenario = galloper::yaml::from_str(FIELD).expect("scenario parses");
    sc.check().expect("scenario is good");
    State::new(&sc).expect("state")
}

/// The same field with Blue's irregulars in the far copse.
fn far() -> State {
    let mut s = state();
    s.unit_mut("b-hid").expect("b-hid").at = Point::new(105.0, 90.0);
    s
}

/// Everything `viewer` can read of a move resolved from `s`: its telling,
/// its view and template after, and the public dice.
fn reads(s: &State, orders: &Orders, viewer: &Viewer) -> String {
    reads_with(s, orders, viewer, 9)
}

fn reads_with(s: &State, orders: &Orders, viewer: &Viewer, hidden_seed: u8) -> String {
    let mut by = BySide::new();
    by.insert(red(), orders.clone());
    let mut dice = Dice::from_seeds([7; 32], [hidden_seed; 32]);
    let r = CrowtherDougan.resolve(s, &by, &mut dice);
    told_reads(&r.events, &r.state, &dice, viewer)
}

/// What `viewer` reads of a resolution: its telling, the view and template
/// after it, and the public dice.
fn told_reads(events: &[Event], after: &State, dice: &Dice, viewer: &Viewer) -> String {
    let told = CrowtherDougan.tell(events, dice.log(), viewer);
    let public_dice: Vec<String> = dice
        .log()
        .iter()
        .filter(|d| d.stream == StreamKind::Public)
        .map(|d| format!("{} {} {} {}", d.index, d.sides, d.value, d.purpose))
        .collect();
    let template = match viewer {
        Viewer::Side(me) => CrowtherDougan.orders_template(after, me),
        _ => None,
    };
    format!(
        "told: {told:#?}\nview: {:#?}\ntemplate: {template:?}\npublic dice: {public_dice:#?}",
        CrowtherDougan.view(after, viewer)
    )
}

fn red_moves_its_line() -> Orders {
    Orders::Move(MoveOrders {
        moves: vec![Move {
            unit: "r-line".into(),
            to: Some(Point::new(50.0, 22.0)),
            formation: None,
            about: false,
        }],
        ..MoveOrders::default()
    })
}

/// A hidden unit that sees Red's line must not make that line's move
/// public: Red would learn that something hidden looks at it.
#[test]
fn whether_a_hidden_enemy_sees_a_unit_changes_nothing_its_side_or_the_public_reads() {
    let (a, b) = (state(), far());
    let line = a.unit("r-line").expect("r-line");
    assert!(a.sees(&blue(), line), "the hidden unit sees Red's line");
    assert!(!b.sees(&blue(), b.unit("r-line").expect("r-line")));
    assert!(!a.sees(&red(), a.unit("b-hid").expect("b-hid")));
    let o = red_moves_its_line();
    for viewer in [Viewer::Side(red()), Viewer::Public] {
        assert_eq!(reads(&a, &o, &viewer), reads(&b, &o, &viewer), "{viewer:?}");
    }
    // Blue, who sees the line, is told of its move: the equality above is
    // not that of a move nobody is told of.
    let blue_reads = reads(&a, &o, &Viewer::Side(blue()));
    assert!(blue_reads.contains("Red Line"), "{blue_reads}");
}

/// Whether Red found Blue's irregulars, or looked elsewhere, Blue reads
/// the same: observation is secret, and only the observer is told.
#[test]
fn whether_a_side_was_found_changes_nothing_it_or_the_public_reads() {
    let s = state();
    let observe = |x: f64, y: f64| {
        Orders::Move(MoveOrders {
            observe: vec![Observe {
                unit: "r-scout".into(),
                at: Point::new(x, y),
            }],
            ..MoveOrders::default()
        })
    };
    let (there, elsewhere) = (observe(50.0, 41.0), observe(100.0, 90.0));
    // Hidden seeds with which the scouts find the irregulars.
    let found: Vec<u8> = (0..40)
        .filter(|&seed| reads_with(&s, &there, &Viewer::Side(red()), seed).contains("b-hid"))
        .collect();
    assert!(!found.is_empty(), "no seed finds the irregulars");
    for seed in found.into_iter().take(3) {
        for viewer in [Viewer::Side(blue()), Viewer::Public] {
            assert_eq!(
                reads_with(&s, &there, &viewer, seed),
                reads_with(&s, &elsewhere, &viewer, seed),
                "{viewer:?}"
            );
        }
    }
}

/// Two units in the open in sight of each other are public: each side sees
/// the other and knows it is seen.
#[test]
fn units_in_the_open_in_sight_of_each_other_are_public() {
    let mut s = state();
    s.unit_mut("b-hid").expect("b-hid").at = Point::new(25.0, 55.0);
    let (line, hid) = (
        s.unit("r-line").expect("r-line"),
        s.unit("b-hid").expect("b-hid"),
    );
    assert!(s.public(line) && s.public(hid));
    let t = reads(&s, &red_moves_its_line(), &Viewer::Public);
    assert!(t.contains("Red Line"), "{t}");
}

/// Everything `viewer` reads of step `s` resolved with `orders`: the
/// telling, the view and template after it, the public dice; and the state
/// after, to play on.
fn step_reads(s: &State, orders: &BySide<Orders>, viewer: &Viewer, seed: u8) -> (String, State) {
    let mut dice = Dice::from_seeds([seed; 32], [seed.wrapping_add(1); 32]);
    let r = CrowtherDougan.resolve(s, orders, &mut dice);
    let due = CrowtherDougan.due(&r.state);
    let reads = format!(
        "{}\ndue: {due:?}",
        told_reads(&r.events, &r.state, &dice, viewer)
    );
    (reads, r.state)
}

/// Issue 28, item 7: the French deploy their hidden units by secret orders.
/// Two different deployments, the same British orders and seeds: before
/// the setup step, after it, and after the British first move, the British
/// and the public read the same bytes (view, template, told events, public
/// dice, what is owed); the French do not.
#[test]
fn two_secret_deployments_change_nothing_the_other_side_or_the_public_reads() {
    use galloper::rulesets::crowther_dougan::orders::{Deployment, Placement};
    let sc: Scenario =
        galloper::yaml::from_str(galloper::rulesets::crowther_dougan::demo::SCENARIO)
            .expect("scenario");
    let start = State::new(&sc).expect("start");
    let french = SideId::new("french");
    let british = SideId::new("british");
    let placed = |places: [(&str, f64, f64); 3]| {
        let mut by = BySide::new();
        by.insert(
            french.clone(),
            Orders::Deploy(Deployment {
                units: places
                    .iter()
                    .map(|(u, x, y)| Placement {
                        unit: (*u).into(),
                        at: Point::new(*x, *y),
                        facing: None,
                        formation: None,
                    })
                    .collect(),
            }),
        );
        by
    };
    // The stock places, and elsewhere in the zones each unit may use.
    let a = placed([
        ("fr-marine", 90.0, 81.0),
        ("fr-canad", 48.0, 70.0),
        ("fr-ottawa", 135.0, 66.0),
    ]);
    let b = placed([
        ("fr-marine", 30.0, 85.0),
        ("fr-canad", 150.0, 55.0),
        ("fr-ottawa", 60.0, 60.0),
    ]);
    for (side, o) in [(&french, &a), (&french, &b)] {
        let v = CrowtherDougan.check(&start, side, &o[side]);
        assert!(v.is_empty(), "{v:?}");
    }
    // The British move: their line marches, their rangers observe the
    // road ahead, where neither deployment put anyone.
    let mut march = BySide::new();
    march.insert(
        british.clone(),
        Orders::Move(MoveOrders {
            observe: vec![Observe {
                unit: "br-rang".into(),
                at: Point::new(90.0, 60.0),
            }],
            moves: vec![Move {
                unit: "br-44".into(),
                to: Some(Point::new(78.0, 30.0)),
                formation: None,
                about: false,
            }],
            ..MoveOrders::default()
        }),
    );
    for viewer in [Viewer::Side(british.clone()), Viewer::Public] {
        // Before the setup step: the template and view of the waiting side.
        if let Viewer::Side(me) = &viewer {
            assert_eq!(CrowtherDougan.orders_template(&start, me), None);
        }
        let (ra, sa) = step_reads(&start, &a, &viewer, 3);
        let (rb, sb) = step_reads(&start, &b, &viewer, 3);
        assert_eq!(ra, rb, "setup step, {viewer:?}");
        let (ma, _) = step_reads(&sa, &march, &viewer, 4);
        let (mb, _) = step_reads(&sb, &march, &viewer, 4);
        assert_eq!(ma, mb, "the British first move, {viewer:?}");
        assert!(!ra.contains("fr-canad") && !ma.contains("fr-canad"));
    }
    let (fa, _) = step_reads(&start, &a, &Viewer::Side(french.clone()), 3);
    let (fb, _) = step_reads(&start, &b, &Viewer::Side(french.clone()), 3);
    assert_ne!(fa, fb, "the French read where their units went");
    assert!(
        fb.contains("Canadian militia deployed hidden at (150, 55)"),
        "{fb}"
    );
}

//! Issue 27 for crowther-dougan: the side's "What you can do now" panel and
//! its template comments, refusals that give the numbers and the reason,
//! and a hidden enemy that changes none of them.

use galloper::dice::Dice;
use galloper::event::{Event, Kind, Visibility};
use galloper::geometry::Point;
use galloper::ruleset::{Ruleset, Violation};
use galloper::rulesets::crowther_dougan::CrowtherDougan;
use galloper::rulesets::crowther_dougan::check::check;
use galloper::rulesets::crowther_dougan::orders::{FireOrder, Move, MoveOrders, Orders};
use galloper::rulesets::crowther_dougan::scenario::Scenario;
use galloper::rulesets::crowther_dougan::state::{State, Status};
use galloper::side::{BySide, SideId};
use galloper::view::{Panel, Viewer};

/// Red's line faces up the table (+y). Blue has: skirmishers in the open
/// at long range; a line out of range; a line behind Red's line; a line
/// in the open behind "Tall Wood" (seen by Red's scouts, not by Red's
/// line); cavalry far off; and irregulars hidden in "Hidden Copse", in range of Red's line.
const FIELD: &str = r##"
ruleset: crowther-dougan
title: "Options field"
table: {width: 120, height: 100}
moves: 8
first: red
sides:
  - id: red
    name: Red
    colour: "#b22222"
    units:
      - {id: r-line, name: "Red Line", troop: line_infantry, figures: 20, at: {x: 50, y: 15}, facing: 0}
      - {id: r-scout, name: "Red Scouts", troop: skirmishers, figures: 6, at: {x: 10, y: 60}, facing: 0}
    personalities: []
  - id: blue
    name: Blue
    colour: "#1d4f9e"
    units:
      - {id: b-near, name: "Blue Skirmishers", troop: skirmishers, figures: 8, at: {x: 55, y: 45}, facing: 180}
      - {id: b-far, name: "Blue Far Line", troop: line_infantry, figures: 20, at: {x: 60, y: 85}, facing: 180}
      - {id: b-back, name: "Blue Rear Line", troop: line_infantry, figures: 20, at: {x: 50, y: 4}, facing: 0}
      - {id: b-wood, name: "Blue Screened Line", troop: line_infantry, figures: 20, at: {x: 22, y: 45}, facing: 180}
      - {id: b-last, name: "Blue Last", troop: cavalry, figures: 6, at: {x: 110, y: 95}, facing: 180}
      - {id: b-hid, name: "Blue Hidden", troop: irregulars, figures: 8, at: {x: 88, y: 30}, facing: 180}
    personalities: []
terrain:
  - {id: tall, name: "Tall Wood", tags: [woods], shape: polygon, points: [{x: 30, y: 22}, {x: 44, y: 22}, {x: 44, y: 36}, {x: 30, y: 36}]}
  - {id: copse, name: "Hidden Copse", tags: [woods], shape: polygon, points: [{x: 80, y: 20}, {x: 100, y: 20}, {x: 100, y: 50}, {x: 80, y: 50}]}
"##;

fn red() -> SideId {
    SideId::new("red")
}

fn state() -> State {
    let sc: Scenario = galloper::yaml::from_str(FIELD).expect("scenario parses");
    sc.check().expect("scenario is good");
    let mut s = State::new(&sc).expect("state");
    // Past its first volley: the first-fire bonus would hide the long
    // range and open order penalties this test reads.
    s.unit_mut("r-line").expect("r-line").first_fire = false;
    s
}

fn panel(s: &State, side: &SideId) -> Option<Panel> {
    CrowtherDougan
        .view(s, &Viewer::Side(side.clone()))
        .panels
        .into_iter()
        .find(|p| p.title == "What you can do now")
}

fn gap(s: &State, a: &str, b: &str) -> f64 {
    s.gap(s.unit(a).expect("a"), s.unit(b).expect("b"))
}

/// The line of the panel about enemy `name`, under unit `unit`'s heading.
fn line_about<'a>(p: &'a Panel, unit: &str, name: &str) -> &'a str {
    let start = p
        .lines
        .iter()
        .position(|l| l.starts_with(unit))
        .unwrap_or_else(|| panic!("no heading for {unit}: {:#?}", p.lines));
    p.lines[start + 1..]
        .iter()
        .take_while(|l| l.starts_with("  "))
        .find(|l| l.contains(name))
        .unwrap_or_else(|| panic!("no line about {name} under {unit}: {:#?}", p.lines))
}

#[test]
fn the_situation_is_as_the_test_means_it() {
    let s = state();
    let me = red();
    let near = gap(&s, "r-line", "b-near");
    assert!(near > 20.0 && near <= 40.0, "b-near at long range: {near}");
    assert!(gap(&s, "r-line", "b-far") > 40.0);
    assert!(
        gap(&s, "r-line", "b-hid") <= 40.0,
        "the hidden one is in range"
    );
    let seen: Vec<&str> = s.known_enemies(&me).map(|u| u.id.as_str()).collect();
    assert_eq!(seen, ["b-near", "b-far", "b-back", "b-wood", "b-last"]);
}

#[test]
fn an_enemy_in_range_gives_distance_band_and_the_die_needed() {
    let s = state();
    let p = panel(&s, &red()).expect("panel for the side moving");
    let line = line_about(&p, "Red Line [r-line]", "Blue Skirmishers [b-near]");
    let d = gap(&s, "r-line", "b-near");
    assert!(line.contains(&format!("may fire: {d:.1} cm")), "{line}");
    assert!(line.contains("long range (over 20 cm)"), "{line}");
    // Line infantry (fire factor 2, +0) at skirmishers (-1) at long range
    // (-1): an average die of 2 makes 0 (no hits), 3 makes 1 (x0.5: 10 of
    // 20 figures' men), 5 makes 3 (x1: 20 men).
    assert!(line.contains("-1 long range"), "{line}");
    assert!(line.contains("-1 target in open order"), "{line}");
    assert!(
        line.contains("needs 3 or more on the average die to hit, 10.0 to 20.0 men"),
        "{line}"
    );
}

#[test]
fn an_enemy_out_of_range_gives_its_distance_and_the_range() {
    let s = state();
    let p = panel(&s, &red()).expect("panel");
    let d = gap(&s, "r-line", "b-far");
    let line = line_about(&p, "Red Line [r-line]", "Blue Far Line [b-far]");
    assert!(
        line.contains(&format!("out of range: {d:.1} cm, range is 40 cm")),
        "{line}"
    );
}

/// The source sets no arc of fire: an enemy behind the line is a target
/// like any other it sees in range (an "out of arc" line would be a rule
/// the source does not have).
#[test]
fn no_enemy_is_out_of_arc_the_source_has_no_arc_of_fire() {
    let s = state();
    let p = panel(&s, &red()).expect("panel");
    let line = line_about(&p, "Red Line [r-line]", "Blue Rear Line [b-back]");
    assert!(line.contains("may fire:"), "{line}");
    assert!(line.contains("may charge it"), "{line}");
    assert!(!p.lines.iter().any(|l| l.contains("arc")), "{:#?}", p.lines);
}

#[test]
fn an_enemy_behind_a_wood_names_the_wood() {
    let s = state();
    let p = panel(&s, &red()).expect("panel");
    // Red Line shows its four nearest; the screened line is among them.
    let line = line_about(&p, "Red Line [r-line]", "Blue Screened Line [b-wood]");
    assert!(line.contains("sight blocked by Tall Wood"), "{line}");
    assert!(!line.contains("may fire"), "{line}");
    // The scouts see it in the open.
    let scouts = line_about(&p, "Red Scouts [r-scout]", "Blue Screened Line [b-wood]");
    assert!(scouts.contains("may fire:"), "{scouts}");
}

#[test]
fn with_no_enemy_known_one_line_says_so() {
    let mut s = state();
    for id in ["b-near", "b-far", "b-back", "b-wood", "b-last"] {
        s.unit_mut(id).expect("unit").status = Status::Gone;
    }
    let p = panel(&s, &red()).expect("panel");
    let none: Vec<&String> = p
        .lines
        .iter()
        .filter(|l| l.contains("No enemy unit known"))
        .collect();
    assert_eq!(none.len(), 1, "{:#?}", p.lines);
    // Only the two headings and their move lines follow.
    assert_eq!(p.lines.len(), 5, "{:#?}", p.lines);
}

#[test]
fn the_side_not_moving_is_told_it_owes_nothing() {
    let s = state();
    let p = panel(&s, &SideId::new("blue")).expect("panel");
    assert_eq!(p.lines.len(), 1, "{:#?}", p.lines);
    assert!(
        p.lines[0].contains("you owe no orders now"),
        "{:?}",
        p.lines
    );
    assert!(
        CrowtherDougan
            .view(&s, &Viewer::Public)
            .panels
            .iter()
            .all(|p| p.title != "What you can do now")
    );
}

#[test]
fn the_template_carries_the_same_facts_as_comments() {
    let s = state();
    let t = CrowtherDougan
        .orders_template(&s, &red())
        .expect("template");
    assert!(t.contains("# What you can do now:"), "{t}");
    let d = gap(&s, "r-line", "b-far");
    let far =
        format!("\"Blue Far Line\" [b-far]: cannot fire, out of range: {d:.1} cm, range is 40 cm");
    assert!(t.contains(&far), "{t}");
    assert!(t.contains("sight blocked by \"Tall Wood\""), "{t}");
    // Still an orders file: every line added is a comment.
    let parsed: serde_json::Value = galloper::yaml::from_str(&t).expect("template parses");
    assert!(parsed.get("move").is_some());
}

fn fire_at(target: &str) -> Orders {
    Orders::Move(MoveOrders {
        fire: vec![FireOrder {
            unit: "r-line".into(),
            target: target.into(),
        }],
        ..MoveOrders::default()
    })
}

fn only(v: Vec<Violation>) -> Violation {
    assert_eq!(v.len(), 1, "{v:#?}");
    v.into_iter().next().expect("one")
}

#[test]
fn a_refusal_out_of_range_gives_the_distance_and_the_range() {
    let s = state();
    let v = only(check(&s, &red(), &fire_at("b-far")));
    let d = gap(&s, "r-line", "b-far");
    assert_eq!(v.unit.as_deref(), Some("r-line"));
    assert!(v.rule.starts_with("Firing"), "{}", v.rule);
    assert!(
        v.message
            .contains(&format!("out of range: {d:.1} cm, range is 40 cm")),
        "{}",
        v.message
    );
}

#[test]
fn a_refusal_for_blocked_sight_names_the_feature() {
    let s = state();
    let v = only(check(&s, &red(), &fire_at("b-wood")));
    assert_eq!(v.unit.as_deref(), Some("r-line"));
    assert!(
        v.message.contains("sight blocked by Tall Wood"),
        "{}",
        v.message
    );
}

fn refusals(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter(|e| e.kind == Kind::Refused)
        .map(|e| e.text.clone())
        .collect()
}

fn resolve(s: &State, o: Orders, dice: Vec<u32>) -> Vec<Event> {
    let mut orders = BySide::new();
    orders.insert(red(), o);
    CrowtherDougan
        .resolve(s, &orders, &mut Dice::scripted(dice))
        .events
}

#[test]
fn resolution_refuses_with_the_same_numbers_and_names() {
    let s = state();
    let d = gap(&s, "r-line", "b-far");
    let far = refusals(&resolve(&s, fire_at("b-far"), vec![]));
    assert!(
        far.iter()
            .any(|t| t.contains(&format!("{d:.1} cm, range is 40 cm"))
                && t.contains("Blue Far Line")),
        "{far:?}"
    );
    let wood = refusals(&resolve(&s, fire_at("b-wood"), vec![]));
    assert!(
        wood.iter()
            .any(|t| t.contains("sight blocked by Tall Wood")),
        "{wood:?}"
    );
}

#[test]
fn a_move_cut_short_says_by_what_and_by_how_much() {
    let s = state();
    // The scouts (20 cm) head 30 cm up the table over open ground: the way
    // is longer than the move.
    let o = Orders::Move(MoveOrders {
        moves: vec![Move {
            unit: "r-scout".into(),
            to: Some(Point::new(10.0, 90.0)),
            formation: None,
            about: false,
        }],
        ..MoveOrders::default()
    });
    let r = refusals(&resolve(&s, o, vec![]));
    let line = r
        .iter()
        .find(|t| t.contains("Red Scouts"))
        .unwrap_or_else(|| panic!("{r:?}"));
    assert!(
        line.contains("ends 10.0 cm short of (10.0, 90.0)"),
        "{line}"
    );
    assert!(
        line.contains("the way is 30.0 cm and 20.0 cm of move was left"),
        "{line}"
    );
}

#[test]
fn a_move_through_a_wood_names_it_and_the_cm_its_die_took() {
    let s = state();
    // Red Line (15 cm) heads 14.9 cm into Tall Wood; its 1D6 rolls 4.
    let o = Orders::Move(MoveOrders {
        moves: vec![Move {
            unit: "r-line".into(),
            to: Some(Point::new(40.0, 26.0)),
            formation: None,
            about: false,
        }],
        ..MoveOrders::default()
    });
    let events = resolve(&s, o, vec![4]);
    let short: Vec<&Event> = events
        .iter()
        .filter(|e| e.kind == Kind::Refused && e.text.contains("Red Line"))
        .collect();
    assert_eq!(short.len(), 1, "{events:#?}");
    let text = &short[0].text;
    assert!(text.contains("ends 3.9 cm short of (40.0, 26.0)"), "{text}");
    assert!(
        text.contains("deductions of 1 D6 took 4 cm: Tall Wood (1D6)"),
        "{text}"
    );
    // Told to Red alone: Blue, reading it or missing it, could learn of
    // a Red unit it has not seen.
    assert_eq!(short[0].visibility, Visibility::Side(red()));
}

/// Two states that differ only in where a hidden enemy stands give Red
/// the same panel and the same template, byte for byte; and neither
/// names it.
#[test]
fn a_hidden_enemy_changes_nothing_red_reads() {
    let a = state();
    let mut b = state();
    b.unit_mut("b-hid").expect("b-hid").at = Point::new(84.0, 24.0);
    let me = red();
    assert!(!a.sees(&me, a.unit("b-hid").expect("b-hid")));
    assert!(!b.sees(&me, b.unit("b-hid").expect("b-hid")));
    let (pa, pb) = (panel(&a, &me), panel(&b, &me));
    assert_eq!(pa, pb);
    let (ta, tb) = (
        CrowtherDougan.orders_template(&a, &me),
        CrowtherDougan.orders_template(&b, &me),
    );
    assert_eq!(ta, tb);
    let all = format!("{pa:?}{}", ta.unwrap_or_default());
    assert!(!all.contains("b-hid") && !all.contains("Blue Hidden"));
    // And when it leaves the copse for the open, in sight, it shows: the
    // equality above is not that of a panel blind to every enemy.
    let mut c = state();
    c.unit_mut("b-hid").expect("b-hid").at = Point::new(70.0, 45.0);
    assert_ne!(panel(&c, &me), pa);
}

/// A refusal of fire at a hidden enemy reads as fire at no enemy at all,
/// wherever it stands.
#[test]
fn a_refusal_at_a_hidden_enemy_tells_nothing_of_it() {
    let a = state();
    let mut b = state();
    b.unit_mut("b-hid").expect("b-hid").at = Point::new(84.0, 24.0);
    let va = check(&a, &red(), &fire_at("b-hid"));
    let vb = check(&b, &red(), &fire_at("b-hid"));
    assert_eq!(va, vb);
    let none = check(&a, &red(), &fire_at("b-nobody"));
    assert_eq!(va.len(), 1);
    assert_eq!(none.len(), 1);
    assert_eq!(
        va[0].message.replace("b-hid", "X"),
        none[0].message.replace("b-nobody", "X")
    );
}

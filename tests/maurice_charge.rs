//! Chapter 8 of Maurice Lite: charges and combat. The source's worked
//! examples, each built on a bare table in BW with scripted dice, and one
//! test per rule.
//!
//! Coordinates: the French (side `fr`) face +y (facing 0), the Allies (side
//! `al`, standing in for the source's British and Austrians) face -y (facing
//! 180). A unit's anchor is the centre of its front edge; bases are 1 BW wide
//! and 0.75 BW deep, so a French line at (x, y) covers x-2..x+2, y-0.75..y and
//! an Allied line at (x, y) covers x-2..x+2, y..y+0.75.

#[path = "maurice_lite/common.rs"]
mod common;

use common::{place, rules_of};
use galloper::dice::Dice;
use galloper::event::Event;
use galloper::geometry::{Angle, Point};
use galloper::rulesets::maurice_lite::charge::{
    self, ChargeRequest, CombatReport, Engagement, rule,
};
use galloper::rulesets::maurice_lite::modifiers::Modifier;
use galloper::rulesets::maurice_lite::orders::{ChargeOrder, Side2, Step, UnitMove, Wheel};
use galloper::rulesets::maurice_lite::scenario::Scenario;
use galloper::rulesets::maurice_lite::state::{State, TraceKind};
use galloper::rulesets::maurice_lite::units::Formation;
use galloper::side::SideId;

const SCENARIO: &str = r##"
ruleset: maurice-lite
title: charge table
table: {width: 40, height: 30}
measure: {unit: base_width, base_width: 1, base_depth: 0.75}
sides:
  - id: fr
    name: French
    colour: "#2040a0"
    units:
      - {id: fr-i1, name: "French A", arm: infantry}
      - {id: fr-i2, name: "French B", arm: infantry}
      - {id: fr-i3, name: "French C", arm: infantry}
      - {id: fr-i4, name: "French D", arm: infantry}
      - {id: fr-i5, name: "French E", arm: infantry}
      - {id: fr-i6, name: "French F", arm: infantry}
      - {id: fr-c1, name: "French Horse A", arm: cavalry}
      - {id: fr-c2, name: "French Horse B", arm: cavalry}
      - {id: fr-c3, name: "French Horse C", arm: cavalry}
      - {id: fr-c4, name: "French Horse D", arm: cavalry}
      - {id: fr-a1, name: "French Guns", arm: artillery}
  - id: al
    name: Allies
    colour: "#a02020"
    units:
      - {id: al-i1, name: "Allied 1", arm: infantry}
      - {id: al-i2, name: "Allied 2", arm: infantry}
      - {id: al-i3, name: "Allied 3", arm: infantry}
      - {id: al-i4, name: "Allied 4", arm: infantry}
      - {id: al-i5, name: "Allied 5", arm: infantry}
      - {id: al-i6, name: "Allied 6", arm: infantry}
      - {id: al-c1, name: "Allied Horse 1", arm: cavalry}
      - {id: al-c2, name: "Allied Horse 2", arm: cavalry}
      - {id: al-c3, name: "Allied Horse 3", arm: cavalry}
      - {id: al-a1, name: "Allied Guns 4", arm: artillery}
      - {id: al-a2, name: "Allied Guns 5", arm: artillery}
      - {id: al-a3, name: "Allied Guns 6", arm: artillery}
"##;

const LINE: Formation = Formation::Line;

fn fr() -> SideId {
    SideId::new("fr")
}
fn al() -> SideId {
    SideId::new("al")
}

/// A bare table with the given terrain (YAML list items, or empty).
fn table(terrain: &str) -> State {
    let text = if terrain.is_empty() {
        SCENARIO.to_string()
    } else {
        format!("{SCENARIO}terrain:\n{terrain}")
    };
    let scenario: Scenario = galloper::yaml::from_str(&text).expect("scenario parses");
    scenario.check().expect("scenario is valid");
    State::new(&scenario).expect("state")
}

fn straight(unit: &str) -> ChargeOrder {
    ChargeOrder {
        unit: unit.into(),
        wheel: None,
        target: None,
    }
}

fn at(unit: &str, target: &str) -> ChargeOrder {
    ChargeOrder {
        target: Some(target.into()),
        ..straight(unit)
    }
}

fn wheeling(unit: &str, pivot: Side2, degrees: f64) -> ChargeOrder {
    ChargeOrder {
        wheel: Some(Wheel {
            pivot,
            degrees,
            backward: false,
        }),
        ..straight(unit)
    }
}

fn forward(unit: &str, d: f64) -> UnitMove {
    UnitMove {
        unit: unit.into(),
        steps: vec![Step::Forward(galloper::geometry::Distance(d))],
    }
}

fn ids(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn request<'a>(
    side: &'a SideId,
    force: &'a [String],
    charges: &'a [ChargeOrder],
    supports: &'a [UnitMove],
) -> ChargeRequest<'a> {
    ChargeRequest {
        side,
        force,
        charges,
        supports,
        attack: Vec::new(),
        defence: Vec::new(),
    }
}

/// Check, then resolve, a charge of `charges` (with `supports`) by `side`;
/// the force is every unit named. Panics if the orders are refused on
/// receipt or the dice script runs out.
fn fight(
    s: &mut State,
    side: SideId,
    charges: &[ChargeOrder],
    supports: &[UnitMove],
    dice: Vec<u32>,
) -> (CombatReport, Vec<Event>) {
    let mut force: Vec<String> = charges.iter().map(|c| c.unit.clone()).collect();
    force.extend(supports.iter().map(|m| m.unit.clone()));
    let req = request(&side, &force, charges, supports);
    let v = charge::check(s, &req);
    assert!(v.is_empty(), "refused on receipt:\n{}", rules_of(&v));
    let n = dice.len();
    let mut d = Dice::scripted(dice);
    let mut ev = Vec::new();
    let report = charge::resolve(s, &req, &mut d, &mut ev);
    assert_eq!(d.log().len(), n, "dice used: {:?}", d.log());
    (report, ev)
}

fn text(ev: &[Event]) -> String {
    ev.iter()
        .map(|e| e.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

/// (attacker, defender, contact, flanked, cover) for each engagement.
fn pairs(r: &CombatReport) -> Vec<(String, String, bool, bool, bool)> {
    r.engagements
        .iter()
        .map(|e: &Engagement| {
            (
                e.attacker.clone(),
                e.defender.clone(),
                e.contact,
                e.flanked,
                e.cover,
            )
        })
        .collect()
}

fn score_of(r: &CombatReport, unit: &str) -> i32 {
    r.scores
        .iter()
        .find(|s| s.unit == unit)
        .unwrap_or_else(|| panic!("{unit} has no score: {:?}", r.scores))
        .score
}

fn mods_of(r: &CombatReport, unit: &str) -> Vec<Modifier> {
    r.scores
        .iter()
        .find(|s| s.unit == unit)
        .unwrap_or_else(|| panic!("{unit} has no score"))
        .modifiers
        .clone()
}

fn has_mod(r: &CombatReport, unit: &str, value: i32, reason_part: &str) -> bool {
    mods_of(r, unit)
        .iter()
        .any(|m| m.value == value && m.reason.contains(reason_part))
}

fn outcome_of(r: &CombatReport, unit: &str) -> (u32, bool, String) {
    let x = r
        .results
        .iter()
        .find(|x| x.unit == unit)
        .unwrap_or_else(|| panic!("{unit} has no result: {:?}", r.results));
    (x.disruptions, x.broken, x.outcome.clone())
}

fn refusal(s: &State, side: SideId, charges: &[ChargeOrder], supports: &[UnitMove]) -> String {
    let mut force: Vec<String> = charges.iter().map(|c| c.unit.clone()).collect();
    force.extend(supports.iter().map(|m| m.unit.clone()));
    rules_of(&charge::check(
        s,
        &request(&side, &force, charges, supports),
    ))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

fn anchor(s: &State, id: &str) -> Point {
    s.unit(id).and_then(|u| u.anchor).expect("on the table")
}

// ---------------------------------------------------------------------------
// The source's worked examples
// ---------------------------------------------------------------------------

/// Example 1: French cavalry wheels 1 BW and charges British infantry; the
/// whole move is 4 BW and it stops at the moment of contact, at an angle.
#[test]
fn example_charge_move_with_a_one_bw_wheel() {
    let mut s = table("");
    place(&mut s, "fr-c1", 10.0, 5.0, 0.0, LINE);
    // A 4 BW line wheeling 1 BW about its left corner turns 1/4 radian.
    let degrees = 0.25f64.to_degrees();
    let facing = Angle(-degrees);
    let right_corner =
        Point::new(8.0, 5.0) + facing.right_vector().scale(4.0) + facing.unit_vector().scale(3.0);
    place(&mut s, "al-i1", right_corner.x, right_corner.y, 180.0, LINE);
    let (r, ev) = fight(
        &mut s,
        fr(),
        &[wheeling("fr-c1", Side2::Left, degrees)],
        &[],
        vec![3, 3],
    );
    let c = &r.charges[0];
    assert!(c.refused.is_none(), "{}", text(&ev));
    assert!(close(c.distance.get(), 4.0), "{:?}", c.distance);
    assert_eq!(c.contacted, ids(&["al-i1"]));
    assert_eq!(c.path.len(), 3, "start, after the wheel, at contact");
    // No squaring up: it stays at the angle it charged in.
    let u = s.unit("fr-c1").unwrap();
    assert!(
        (u.facing.degrees() - (360.0 - degrees)).abs() < 1e-6,
        "{:?}",
        u.facing
    );
    assert!(
        s.traces
            .iter()
            .any(|t| t.kind == TraceKind::Charge && t.unit == "fr-c1")
    );
    // The same charge from 0.5 BW further back cannot reach.
    let mut far = table("");
    place(&mut far, "fr-c1", 10.0, 4.5, 0.0, LINE);
    place(
        &mut far,
        "al-i1",
        right_corner.x,
        right_corner.y,
        180.0,
        LINE,
    );
    let why = refusal(&far, fr(), &[wheeling("fr-c1", Side2::Left, degrees)], &[]);
    assert!(why.contains(rule::MOVE), "{why}");
}

/// Example 2: six French infantry, four with enemy within reach: A-D
/// charge, E and F move up in support.
#[test]
fn example_large_force_four_charge_two_support() {
    let mut s = table("");
    let xs = [3.0, 7.5, 12.0, 16.5, 21.0, 25.5];
    for (i, x) in xs.iter().enumerate() {
        place(&mut s, &format!("fr-i{}", i + 1), *x, 5.0, 0.0, LINE);
    }
    for (i, x) in xs[..4].iter().enumerate() {
        place(&mut s, &format!("al-i{}", i + 1), *x, 8.0, 180.0, LINE);
    }
    let charges: Vec<ChargeOrder> = (1..=4).map(|i| straight(&format!("fr-i{i}"))).collect();
    let supports = [forward("fr-i5", 2.0), forward("fr-i6", 2.0)];
    // Only two charging out of six is too few.
    let few = refusal(
        &s,
        fr(),
        &charges[..2],
        &[
            forward("fr-i3", 1.0),
            forward("fr-i4", 1.0),
            forward("fr-i5", 1.0),
            forward("fr-i6", 1.0),
        ],
    );
    assert!(
        few.contains(rule::ACTIVATION) && few.contains("2 of the 6"),
        "{few}"
    );
    // E cannot charge: nothing is in front of it.
    let e = refusal(&s, fr(), &[straight("fr-i5")], &[]);
    assert!(e.contains("no enemy straight ahead"), "{e}");
    let (r, ev) = fight(&mut s, fr(), &charges, &supports, vec![3; 8]);
    assert!(
        r.charges.iter().all(|c| c.refused.is_none()),
        "{}",
        text(&ev)
    );
    assert_eq!(r.supports, ids(&["fr-i5", "fr-i6"]));
    assert!(close(anchor(&s, "fr-i5").y, 7.0));
    assert_eq!(r.engagements.len(), 4);
}

/// Example 3: French A-D (cavalry, massed) against British 1-3.
#[test]
fn example_engagement_of_four_cavalry_against_three_units() {
    let mut s = table("");
    for (id, x) in [
        ("fr-c1", 10.0),
        ("fr-c2", 12.0),
        ("fr-c3", 14.0),
        ("fr-c4", 16.5),
    ] {
        place(&mut s, id, x, 7.0, 0.0, Formation::Massed);
    }
    place(&mut s, "al-i1", 8.0, 10.5, 180.0, LINE);
    place(&mut s, "al-i2", 12.0, 10.0, 180.0, LINE);
    place(&mut s, "al-i3", 16.0, 10.5, 180.0, LINE);
    let (r, ev) = fight(
        &mut s,
        fr(),
        &[straight("fr-c1"), straight("fr-c2"), straight("fr-c3")],
        &[forward("fr-c4", 2.7)],
        vec![3; 6],
    );
    let got: Vec<(String, String, bool)> = pairs(&r)
        .into_iter()
        .map(|(a, d, c, _, _)| (a, d, c))
        .collect();
    let want = vec![
        ("fr-c1".to_string(), "al-i1".to_string(), false),
        ("fr-c1".into(), "al-i2".into(), true),
        ("fr-c2".into(), "al-i2".into(), true),
        ("fr-c3".into(), "al-i2".into(), true),
        ("fr-c3".into(), "al-i3".into(), false),
    ];
    assert_eq!(got, want, "{}", text(&ev));
    // D is within 1 BW of British 3 but touches nobody: engaged with nobody.
    assert!(close(anchor(&s, "fr-c4").y, 9.7));
    assert!(r.engagements.iter().all(|e| e.attacker != "fr-c4"));
    assert!(r.scores.iter().all(|x| x.unit != "fr-c4"));
    // From the British side: 1 with A; 2 with A, B, C; 3 with C.
    let of = |d: &str| -> Vec<String> {
        r.engagements
            .iter()
            .filter(|e| e.defender == d)
            .map(|e| e.attacker.clone())
            .collect()
    };
    assert_eq!(of("al-i1"), ids(&["fr-c1"]));
    assert_eq!(of("al-i2"), ids(&["fr-c1", "fr-c2", "fr-c3"]));
    assert_eq!(of("al-i3"), ids(&["fr-c3"]));
}

/// Example 4: a defender packed directly behind the one attacked is not
/// engaged; one that overlaps enough is.
#[test]
fn example_quirks_of_engagement() {
    let mut s = table("");
    place(&mut s, "fr-i1", 10.0, 5.0, 0.0, LINE);
    place(&mut s, "al-i1", 10.0, 8.0, 180.0, LINE);
    place(&mut s, "al-i2", 10.0, 8.75, 180.0, LINE);
    let (r, _) = fight(&mut s, fr(), &[straight("fr-i1")], &[], vec![3, 3]);
    let d: Vec<String> = r.engagements.iter().map(|e| e.defender.clone()).collect();
    assert_eq!(d, ids(&["al-i1"]), "the unit packed behind is not engaged");

    let mut s = table("");
    place(&mut s, "fr-i1", 10.0, 5.0, 0.0, LINE);
    place(&mut s, "al-i1", 9.0, 8.0, 180.0, LINE);
    place(&mut s, "al-i2", 12.5, 8.75, 180.0, LINE);
    let (r, _) = fight(&mut s, fr(), &[straight("fr-i1")], &[], vec![3, 3, 3]);
    let got = pairs(&r);
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!((got[0].1.as_str(), got[0].2), ("al-i1", true));
    assert_eq!((got[1].1.as_str(), got[1].2), ("al-i2", false));
}

/// Example 5: engaged with both Austrian units, neither flanked, although
/// the French stand wholly behind Austrian-1's front line.
#[test]
fn example_flanked_needs_physical_contact() {
    let mut s = table("");
    place(&mut s, "fr-c1", 10.0, 5.0, 0.0, LINE);
    place(&mut s, "al-i2", 9.0, 8.0, 180.0, LINE);
    // Austrian-1 faces east, its front line at x = 12, its bases x 11.25..12.
    place(&mut s, "al-i1", 12.0, 10.2, 90.0, LINE);
    let (r, ev) = fight(&mut s, fr(), &[straight("fr-c1")], &[], vec![3, 3, 3]);
    let got = pairs(&r);
    assert_eq!(
        got,
        vec![
            ("fr-c1".into(), "al-i1".into(), false, false, false),
            ("fr-c1".into(), "al-i2".into(), true, false, false),
        ],
        "{}",
        text(&ev)
    );
    assert!(!has_mod(&r, "al-i1", -6, "vulnerable"));
}

/// Example 6a: a defender partly in woods, all of it in front of the
/// attacker in the woods, has cover; the attacker takes -2.
#[test]
fn example_cover_from_woods_in_front() {
    let woods = |x0: f64| {
        format!(
            "  - {{id: w, name: The Wood, tags: [woods, cover, obstruction], shape: polygon, points: [{{x: {x0}, y: 8}}, {{x: 11.5, y: 8}}, {{x: 11.5, y: 9}}, {{x: {x0}, y: 9}}]}}\n"
        )
    };
    let mut s = table(&woods(9.5));
    place(&mut s, "fr-i1", 12.0, 5.0, 0.0, LINE);
    place(&mut s, "al-i2", 9.0, 8.0, 180.0, LINE);
    let (r, ev) = fight(&mut s, fr(), &[straight("fr-i1")], &[], vec![3, 3]);
    assert_eq!(
        pairs(&r),
        vec![("fr-i1".into(), "al-i2".into(), true, false, true)],
        "{}",
        text(&ev)
    );
    assert!(has_mod(&r, "fr-i1", -2, "in cover"));
    assert!(has_mod(&r, "al-i2", -2, "bad terrain"));

    // With part of what lies in front of the French outside the wood: no cover.
    let mut s = table(&woods(10.5));
    place(&mut s, "fr-i1", 12.0, 5.0, 0.0, LINE);
    place(&mut s, "al-i2", 9.0, 8.0, 180.0, LINE);
    let (r, _) = fight(&mut s, fr(), &[straight("fr-i1")], &[], vec![3, 3]);
    assert!(!r.engagements[0].cover);
    assert!(!has_mod(&r, "fr-i1", -2, "in cover"));
}

/// Example 6b: a stone wall wholly between the attacker's front and a
/// defender engaged within 1 BW gives that defender cover.
#[test]
fn example_cover_from_a_stone_wall_between() {
    let wall = |x0: f64| {
        format!(
            "  - {{id: wall, name: Stone wall, tags: [wall, cover, obstruction], shape: polyline, width: 0.06, points: [{{x: {x0}, y: 8.75}}, {{x: 15, y: 8.75}}]}}\n"
        )
    };
    let set = |s: &mut State| {
        place(s, "fr-i1", 10.0, 5.0, 0.0, LINE);
        // Austrian-2 (x 5.4..9.4) is charged; Austrian-1 (x 11..15) stands
        // 0.8 BW ahead of the French right-hand base, just behind the wall.
        place(s, "al-i2", 7.4, 8.0, 180.0, LINE);
        place(s, "al-i1", 13.0, 8.8, 180.0, LINE);
    };
    let mut s = table(&wall(9.42));
    set(&mut s);
    let (r, ev) = fight(&mut s, fr(), &[straight("fr-i1")], &[], vec![3, 3, 3]);
    assert_eq!(
        pairs(&r),
        vec![
            ("fr-i1".into(), "al-i1".into(), false, false, true),
            ("fr-i1".into(), "al-i2".into(), true, false, false),
        ],
        "{}",
        text(&ev)
    );
    // The French pay for the cover even though Austrian-2 has none.
    assert!(has_mod(&r, "fr-i1", -2, "Allied 1 (al-i1) in cover"));
    // Cavalry there has cover too, but attacking it costs nothing.
    let mut s = table(&wall(9.42));
    set(&mut s);
    s.unit_mut("al-i1").unwrap().anchor = None;
    place(&mut s, "al-c1", 13.0, 8.8, 180.0, LINE);
    let (r, _) = fight(&mut s, fr(), &[straight("fr-i1")], &[], vec![3, 3, 3]);
    assert!(
        r.engagements
            .iter()
            .any(|e| e.defender == "al-c1" && e.cover)
    );
    assert!(!has_mod(&r, "fr-i1", -2, "in cover"));
    // A wall that stops short lets a line through: no cover.
    let mut s = table(&wall(10.6));
    set(&mut s);
    let (r, _) = fight(&mut s, fr(), &[straight("fr-i1")], &[], vec![3, 3, 3]);
    assert!(r.engagements.iter().all(|e| !e.cover), "{:?}", pairs(&r));
}

/// Example 7: the complete combat. French A (partly in woods), B and C
/// against Austrians 1 to 6; final scores A 6, B 10, C 8; Austrians 9, 7, 8,
/// and guns 5, 4, 4.
#[test]
fn example_complete_combat_resolution() {
    let terrain = "  - {id: w, name: The Wood, tags: [woods, cover, obstruction], shape: polygon, points: [{x: 4, y: 9.5}, {x: 8.5, y: 9.5}, {x: 8.5, y: 10.5}, {x: 4, y: 10.5}]}\n  - {id: wall, name: Stone wall, tags: [wall, cover, obstruction], shape: polyline, width: 0.1, points: [{x: 2, y: 10.45}, {x: 6.5, y: 10.45}]}\n";
    let mut s = table(terrain);
    place(&mut s, "fr-i1", 7.0, 7.0, 0.0, LINE);
    place(&mut s, "fr-i2", 11.0, 7.0, 0.0, LINE);
    place(&mut s, "fr-i3", 17.0, 8.5, 0.0, LINE);
    place(&mut s, "al-i1", 5.0, 10.6, 180.0, LINE);
    place(&mut s, "al-i2", 10.0, 10.0, 180.0, LINE);
    place(&mut s, "al-i3", 14.0, 11.5, 180.0, LINE);
    for (id, x) in [("al-a1", 16.5), ("al-a2", 17.5), ("al-a3", 18.5)] {
        place(&mut s, id, x, 12.0, 180.0, Formation::Battery);
    }
    let morale = s.armies[&al()].morale;
    // Dice: French A, B, C, then Austrians 1, 2, 3 and the guns 4, 5, 6.
    let (r, ev) = fight(
        &mut s,
        fr(),
        &[straight("fr-i1"), straight("fr-i2"), straight("fr-i3")],
        &[],
        vec![4, 4, 2, 3, 4, 2, 4, 3, 3],
    );
    let log = text(&ev);
    // French A crossed the wood on its way in: 1 DISR before the combat.
    assert!(r.charges[0].difficult_disr, "{log}");
    let engaged: Vec<(String, String)> = r
        .engagements
        .iter()
        .map(|e| (e.attacker.clone(), e.defender.clone()))
        .collect();
    let want: Vec<(String, String)> = [
        ("fr-i1", "al-i1"),
        ("fr-i1", "al-i2"),
        ("fr-i2", "al-i2"),
        ("fr-i3", "al-i3"),
        ("fr-i3", "al-a1"),
        ("fr-i3", "al-a2"),
        ("fr-i3", "al-a3"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(engaged, want, "{log}");
    // Austrian-1 is mostly behind the wall, but not entirely: no cover; nor
    // has Austrian-2 from the wood.
    assert!(r.engagements.iter().all(|e| !e.cover), "{log}");
    for (unit, want) in [
        ("fr-i1", 6),
        ("fr-i2", 10),
        ("fr-i3", 8),
        ("al-i1", 9),
        ("al-i2", 7),
        ("al-i3", 8),
        ("al-a1", 5),
        ("al-a2", 4),
        ("al-a3", 4),
    ] {
        assert_eq!(
            score_of(&r, unit),
            want,
            "{unit}: {:?}\n{log}",
            mods_of(&r, unit)
        );
    }
    assert!(has_mod(&r, "fr-i1", -2, "bad terrain"));
    assert!(has_mod(&r, "fr-i1", -1, "outnumbered"));
    assert!(has_mod(&r, "al-i2", -2, "bad terrain"));
    assert!(has_mod(&r, "al-i2", -1, "outnumbered"));
    // C engages one infantry unit and three guns: guns never outnumber.
    assert!(!has_mod(&r, "fr-i3", -1, "outnumbered"));
    assert_eq!(mods_of(&r, "fr-i3"), vec![]);
    // The outcomes the source gives.
    assert_eq!(outcome_of(&r, "al-i1").0, 1);
    assert_eq!(outcome_of(&r, "al-i2").0, 2);
    assert_eq!(outcome_of(&r, "al-i3").0, 1);
    for gun in ["al-a2", "al-a3"] {
        let (_, broken, why) = outcome_of(&r, gun);
        assert!(
            broken && why.starts_with("broken: doubled by French C"),
            "{why}"
        );
    }
    let (n, broken, why) = outcome_of(&r, "al-a1");
    assert!(n == 2 && broken && why.contains("outscored"), "{why}");
    assert_eq!(outcome_of(&r, "fr-i1").0, 2);
    assert_eq!(outcome_of(&r, "fr-i2").0, 1);
    let (n, _, why) = outcome_of(&r, "fr-i3");
    assert!(
        n == 2 && why.contains("Allied 3"),
        "C tied Austrian-3: {why}"
    );
    assert_eq!(s.armies[&al()].morale, morale - 3, "three guns lost");
    // Everyone French still touches an enemy and falls back 1 BW; A again
    // through the wood (1 more DISR: 1 + 2 + 1 = 4, not yet broken).
    let fb: Vec<&str> = r.fall_backs.iter().map(|f| f.unit.as_str()).collect();
    assert_eq!(fb, ["fr-i1", "fr-i2", "fr-i3"]);
    assert!(r.fall_backs.iter().all(|f| close(f.distance.get(), 1.0)));
    assert_eq!(s.unit("fr-i1").unwrap().disruption, 4);
    assert_eq!(s.unit("fr-i2").unwrap().disruption, 1);
    assert_eq!(s.unit("fr-i3").unwrap().disruption, 2);
    assert!(close(anchor(&s, "fr-i1").y, 9.0));
    assert_eq!(s.unit("al-i2").unwrap().disruption, 2);
    // Every score event cites its die, and the report survives a round trip.
    for sc in &r.scores {
        assert!(
            ev.iter()
                .any(|e| e.dice == vec![sc.die_index] && e.text.contains(&sc.unit))
        );
    }
    let json = serde_json::to_string(&r).unwrap();
    let back: CombatReport = serde_json::from_str(&json).unwrap();
    assert_eq!(back, r);
}

/// Example 8a: one Austrian cavalry unit contacts one French cavalry unit
/// and engages a second within 1 BW: both engage only it, so -2.
#[test]
fn example_outnumbered_by_two() {
    let mut s = table("");
    place(&mut s, "al-c1", 10.0, 12.0, 180.0, LINE);
    place(&mut s, "fr-c1", 8.0, 9.0, 0.0, LINE);
    place(&mut s, "fr-c2", 12.0, 8.5, 0.0, LINE);
    let (r, ev) = fight(&mut s, al(), &[straight("al-c1")], &[], vec![3, 3, 3]);
    assert_eq!(r.engagements.len(), 2, "{}", text(&ev));
    assert!(has_mod(&r, "al-c1", -2, "outnumbered"));
    assert_eq!(score_of(&r, "al-c1"), 4 + 3);
    assert!(!has_mod(&r, "fr-c1", -1, "outnumbered"));
    assert!(!has_mod(&r, "fr-c2", -1, "outnumbered"));
}

/// Chapter 8, combat scores as data (issue 30): each unit's score event
/// names its final score as the attacker's or the defender's total.
#[test]
fn ch8_each_combat_score_is_named_as_an_attackers_or_a_defenders_total() {
    let mut s = table("");
    place(&mut s, "al-c1", 10.0, 12.0, 180.0, LINE);
    place(&mut s, "fr-c1", 8.0, 9.0, 0.0, LINE);
    place(&mut s, "fr-c2", 12.0, 8.5, 0.0, LINE);
    let (r, ev) = fight(&mut s, al(), &[straight("al-c1")], &[], vec![3, 3, 3]);
    for sc in &r.scores {
        let e = ev
            .iter()
            .find(|e| e.dice == vec![sc.die_index])
            .expect("the score's event");
        let (mine, other) = if sc.unit == "al-c1" {
            (e.facts.attacker_total, e.facts.defender_total)
        } else {
            (e.facts.defender_total, e.facts.attacker_total)
        };
        assert_eq!(mine, Some(i64::from(sc.score)), "{}", text(&ev));
        assert_eq!(other, None);
    }
}

/// Example 8b: three Austrians on two French: each French unit engages two,
/// one of which engages only it: -1 each; no Austrian is outnumbered.
#[test]
fn example_three_on_two_outnumbers_each_by_one() {
    let mut s = table("");
    place(&mut s, "al-i1", 6.0, 12.0, 180.0, LINE);
    place(&mut s, "al-i2", 10.0, 12.0, 180.0, LINE);
    place(&mut s, "al-i3", 14.0, 12.0, 180.0, LINE);
    place(&mut s, "fr-i1", 8.0, 9.0, 0.0, LINE);
    place(&mut s, "fr-i2", 12.0, 9.0, 0.0, LINE);
    let (r, ev) = fight(
        &mut s,
        al(),
        &[straight("al-i1"), straight("al-i2"), straight("al-i3")],
        &[],
        vec![3; 5],
    );
    assert_eq!(
        r.charges[1].contacted,
        ids(&["fr-i1", "fr-i2"]),
        "{}",
        text(&ev)
    );
    for f in ["fr-i1", "fr-i2"] {
        assert!(
            has_mod(&r, f, -1, "outnumbered"),
            "{f}: {:?}",
            mods_of(&r, f)
        );
    }
    for a in ["al-i1", "al-i2", "al-i3"] {
        assert!(mods_of(&r, a).is_empty(), "{a}: {:?}", mods_of(&r, a));
    }
}

/// Example 9: cavalry falling back 2 BW would end on a friend, so it goes on
/// to open ground; 1 DISR to itself and 1 to the friend.
#[test]
fn example_cavalry_falls_back_through_a_friend() {
    let mut s = table("");
    place(&mut s, "al-c1", 10.0, 12.6, 180.0, LINE);
    place(&mut s, "al-c2", 10.0, 14.0, 180.0, LINE);
    place(&mut s, "fr-i1", 10.0, 9.0, 0.0, LINE);
    // A charges 3.6 BW; B moves up 3 BW behind it in support. A scores 12,
    // the French 7: French 2 DISR, A 1 DISR.
    let (r, ev) = fight(
        &mut s,
        al(),
        &[straight("al-c1")],
        &[forward("al-c2", 3.0)],
        vec![6, 1],
    );
    assert_eq!(outcome_of(&r, "fr-i1").0, 2, "{}", text(&ev));
    assert_eq!(outcome_of(&r, "al-c1").0, 1);
    let f = &r.fall_backs[0];
    assert_eq!(f.unit, "al-c1");
    // 2 BW would leave it on B (fronts 11 to 11.75); it goes on to 11.75.
    assert!(close(f.distance.get(), 2.75), "{f:?}");
    assert_eq!(f.through, ids(&["al-c2"]));
    assert_eq!(f.extra_disr, 1);
    assert!(!f.broken);
    assert!(close(anchor(&s, "al-c1").y, 11.75));
    assert_eq!(s.unit("al-c1").unwrap().disruption, 2);
    assert_eq!(s.unit("al-c2").unwrap().disruption, 1);
    assert!(
        s.traces
            .iter()
            .any(|t| t.kind == TraceKind::FallBack && t.unit == "al-c1")
    );
}

// ---------------------------------------------------------------------------
// Rule by rule
// ---------------------------------------------------------------------------

/// A French infantry line at (10, 5) and an Allied line 3 BW ahead.
fn facing_off(terrain: &str) -> State {
    let mut s = table(terrain);
    place(&mut s, "fr-i1", 10.0, 5.0, 0.0, LINE);
    place(&mut s, "al-i1", 10.0, 8.0, 180.0, LINE);
    s
}

#[test]
fn artillery_never_charges() {
    let mut s = table("");
    place(&mut s, "fr-a1", 10.0, 5.0, 0.0, Formation::Battery);
    place(&mut s, "al-i1", 10.0, 7.0, 180.0, LINE);
    assert!(refusal(&s, fr(), &[straight("fr-a1")], &[]).contains(rule::WHO));
}

#[test]
fn no_charge_in_column() {
    let mut s = facing_off("");
    place(&mut s, "fr-i1", 10.0, 5.0, 0.0, Formation::Column);
    assert!(refusal(&s, fr(), &[straight("fr-i1")], &[]).contains(rule::COLUMN));
}

#[test]
fn no_charge_with_four_disr() {
    let mut s = facing_off("");
    s.unit_mut("fr-i1").unwrap().disruption = 4;
    assert!(refusal(&s, fr(), &[straight("fr-i1")], &[]).contains(rule::DISRUPTED));
    s.unit_mut("fr-i1").unwrap().disruption = 3;
    assert_eq!(refusal(&s, fr(), &[straight("fr-i1")], &[]), "");
}

#[test]
fn infantry_may_not_charge_cavalry() {
    let mut s = table("");
    place(&mut s, "fr-i1", 10.0, 5.0, 0.0, LINE);
    place(&mut s, "al-c1", 10.0, 8.0, 180.0, LINE);
    assert!(refusal(&s, fr(), &[straight("fr-i1")], &[]).contains(rule::INFANTRY_V_CAVALRY));
    // Cavalry may.
    place(&mut s, "fr-c1", 10.0, 5.0, 0.0, LINE);
    s.unit_mut("fr-i1").unwrap().anchor = None;
    assert_eq!(refusal(&s, fr(), &[straight("fr-c1")], &[]), "");
}

const WOOD_BETWEEN: &str = "  - {id: w, name: The Wood, tags: [woods, cover, obstruction], shape: polygon, points: [{x: 6, y: 6}, {x: 14, y: 6}, {x: 14, y: 6.5}, {x: 6, y: 6.5}]}\n";

#[test]
fn cavalry_never_charges_into_woods() {
    // A thin belt of wood across the way: infantry go through (1 DISR),
    // cavalry may not. (The belt is thin enough to see through: sight is
    // judged from the whole front to the whole target.)
    let belt = "  - {id: w, name: The Wood, tags: [woods], shape: polygon, points: [{x: 6, y: 6}, {x: 9, y: 6}, {x: 9, y: 6.5}, {x: 6, y: 6.5}]}\n";
    let mut s = table(belt);
    place(&mut s, "fr-c1", 10.0, 5.0, 0.0, LINE);
    place(&mut s, "al-i1", 10.0, 8.0, 180.0, LINE);
    let why = refusal(&s, fr(), &[straight("fr-c1")], &[]);
    assert!(
        why.contains(rule::CAVALRY_WOODS) && why.contains("into The Wood"),
        "{why}"
    );
    let mut s = table(belt);
    place(&mut s, "fr-i1", 10.0, 5.0, 0.0, LINE);
    place(&mut s, "al-i1", 10.0, 8.0, 180.0, LINE);
    let (r, ev) = fight(&mut s, fr(), &[straight("fr-i1")], &[], vec![3, 3]);
    assert!(r.charges[0].difficult_disr, "{}", text(&ev));
    assert!(text(&ev).contains("crossing The Wood costs 1 DISR"));
}

#[test]
fn cavalry_never_charges_a_base_wholly_in_woods() {
    // The wood's edge is the enemy's front edge: the horse would not enter
    // it, but the base it meets stands wholly inside.
    let wood = "  - {id: w, name: The Wood, tags: [woods], shape: polygon, points: [{x: 7, y: 8}, {x: 13, y: 8}, {x: 13, y: 9}, {x: 7, y: 9}]}\n";
    let mut s = table(wood);
    place(&mut s, "fr-c1", 10.0, 5.0, 0.0, LINE);
    place(&mut s, "al-i1", 10.0, 8.0, 180.0, LINE);
    let why = refusal(&s, fr(), &[straight("fr-c1")], &[]);
    assert!(
        why.contains(rule::CAVALRY_WOODS) && why.contains("wholly in"),
        "{why}"
    );
}

#[test]
fn cavalry_never_contacts_an_edge_lying_in_woods() {
    // The wood holds the front half of each enemy base, its edge along their
    // front edges: those edges lie in the wood.
    let wood = |y0: f64| {
        format!(
            "  - {{id: w, name: The Wood, tags: [woods], shape: polygon, points: [{{x: 7, y: {y0}}}, {{x: 13, y: {y0}}}, {{x: 13, y: 8.3}}, {{x: 7, y: 8.3}}]}}\n"
        )
    };
    let mut s = table(&wood(8.0));
    place(&mut s, "fr-c1", 10.0, 5.0, 0.0, LINE);
    place(&mut s, "al-i1", 10.0, 8.0, 180.0, LINE);
    let why = refusal(&s, fr(), &[straight("fr-c1")], &[]);
    assert!(
        why.contains(rule::CAVALRY_WOODS) && why.contains("edge"),
        "{why}"
    );
    // A wood a little behind the front edge leaves it clear.
    let mut s = table(&wood(8.1));
    place(&mut s, "fr-c1", 10.0, 5.0, 0.0, LINE);
    place(&mut s, "al-i1", 10.0, 8.0, 180.0, LINE);
    assert_eq!(refusal(&s, fr(), &[straight("fr-c1")], &[]), "");
}

#[test]
fn only_enemies_visible_at_the_start_of_the_round() {
    // A crest line across the whole table between them hides the enemy.
    let crest = "  - {id: c, name: The Crest, tags: [hill, crest], shape: polyline, width: 0, points: [{x: 0, y: 6.5}, {x: 40, y: 6.5}]}\n";
    let s = facing_off(crest);
    let why = refusal(&s, fr(), &[straight("fr-i1")], &[]);
    assert!(why.contains(rule::VISIBLE), "{why}");
    // A wall there hides nothing.
    let wall = "  - {id: c, name: Wall, tags: [wall, cover, obstruction], shape: polyline, width: 0.1, points: [{x: 0, y: 6.5}, {x: 40, y: 6.5}]}\n";
    assert_eq!(
        refusal(&facing_off(wall), fr(), &[straight("fr-i1")], &[]),
        ""
    );
    // A wood does.
    let why = refusal(&facing_off(WOOD_BETWEEN), fr(), &[straight("fr-i1")], &[]);
    assert!(why.contains(rule::VISIBLE), "{why}");
}

#[test]
fn a_charge_never_interpenetrates() {
    let mut s = facing_off("");
    place(&mut s, "fr-i2", 10.0, 6.5, 0.0, LINE);
    let why = refusal(&s, fr(), &[straight("fr-i1")], &[]);
    assert!(why.contains(rule::INTERPENETRATION), "{why}");
    // A friend flush alongside does not count.
    let mut s = facing_off("");
    place(&mut s, "fr-i2", 14.0, 6.0, 0.0, LINE);
    assert_eq!(refusal(&s, fr(), &[straight("fr-i1")], &[]), "");
}

#[test]
fn a_charge_must_reach_contact_within_four_bw() {
    let mut s = facing_off("");
    place(&mut s, "al-i1", 10.0, 9.0, 180.0, LINE);
    assert_eq!(
        refusal(&s, fr(), &[straight("fr-i1")], &[]),
        "",
        "exactly 4"
    );
    place(&mut s, "al-i1", 10.0, 9.1, 180.0, LINE);
    assert!(refusal(&s, fr(), &[straight("fr-i1")], &[]).contains(rule::MOVE));
    // Cavalry too: it is always near the enemy when it charges.
    let mut s = table("");
    place(&mut s, "fr-c1", 10.0, 5.0, 0.0, LINE);
    place(&mut s, "al-i1", 10.0, 9.5, 180.0, LINE);
    assert!(refusal(&s, fr(), &[straight("fr-c1")], &[]).contains(rule::MOVE));
}

#[test]
fn the_wheel_is_forward_and_at_most_one_bw() {
    let s = facing_off("");
    // 1 BW for a 4 BW line is 14.3 degrees; 20 degrees is too much.
    let why = refusal(&s, fr(), &[wheeling("fr-i1", Side2::Right, 20.0)], &[]);
    assert!(
        why.contains(rule::MOVE) && why.contains("at most 1 BW"),
        "{why}"
    );
    let mut back = wheeling("fr-i1", Side2::Right, 5.0);
    if let Some(w) = back.wheel.as_mut() {
        w.backward = true;
    }
    assert!(refusal(&s, fr(), &[back], &[]).contains("forward only"));
    assert_eq!(
        refusal(&s, fr(), &[wheeling("fr-i1", Side2::Right, 5.0)], &[]),
        ""
    );
}

#[test]
fn no_contact_while_wheeling() {
    // The enemy stands just ahead of the swinging left end.
    let mut s = table("");
    place(&mut s, "fr-i1", 10.0, 5.0, 0.0, LINE);
    place(&mut s, "al-i1", 7.0, 5.3, 180.0, LINE);
    let why = refusal(&s, fr(), &[wheeling("fr-i1", Side2::Right, 14.0)], &[]);
    assert!(why.contains("while wheeling"), "{why}");
}

#[test]
fn contact_with_the_front_edge_only() {
    // An enemy already against the charger's right flank would be touched by
    // its flank first.
    let mut s = facing_off("");
    // Facing west, its front line at x = 12 along the French right flank.
    place(&mut s, "al-i2", 12.0, 6.0, 270.0, LINE);
    let why = refusal(&s, fr(), &[straight("fr-i1")], &[]);
    assert!(
        why.contains(rule::CONTACT) && why.contains("flank"),
        "{why}"
    );
}

#[test]
fn stop_at_the_first_enemy_unless_several_at_once() {
    let mut s = table("");
    place(&mut s, "fr-i1", 10.0, 5.0, 0.0, LINE);
    place(&mut s, "al-i1", 8.0, 7.0, 180.0, LINE);
    place(&mut s, "al-i2", 12.0, 7.5, 180.0, LINE);
    let why = refusal(&s, fr(), &[at("fr-i1", "al-i2")], &[]);
    assert!(
        why.contains(rule::CONTACT) && why.contains("before reaching"),
        "{why}"
    );
    assert_eq!(refusal(&s, fr(), &[at("fr-i1", "al-i1")], &[]), "");
    // Level with each other: both are met at once.
    place(&mut s, "al-i2", 12.0, 7.0, 180.0, LINE);
    let (r, _) = fight(&mut s, fr(), &[at("fr-i1", "al-i2")], &[], vec![3, 3, 3]);
    assert_eq!(r.charges[0].contacted, ids(&["al-i1", "al-i2"]));
}

#[test]
fn half_the_force_must_charge() {
    let mut s = facing_off("");
    place(&mut s, "fr-i2", 14.5, 5.0, 0.0, LINE);
    place(&mut s, "fr-i3", 19.0, 5.0, 0.0, LINE);
    // One charger, one supporter: half. One charger, two others: too few.
    let ok = refusal(&s, fr(), &[straight("fr-i1")], &[forward("fr-i2", 1.0)]);
    assert_eq!(ok, "");
    let why = refusal(
        &s,
        fr(),
        &[straight("fr-i1")],
        &[forward("fr-i2", 1.0), forward("fr-i3", 1.0)],
    );
    assert!(why.contains("1 of the 3"), "{why}");
    // A unit of the force that neither charges nor moves counts too.
    let force = ids(&["fr-i1", "fr-i2", "fr-i3"]);
    let charges = [straight("fr-i1")];
    let v = charge::check(&s, &request(&fr(), &force, &charges, &[]));
    assert!(rules_of(&v).contains(rule::ACTIVATION));
    // A charger outside the force, or also supporting, is refused.
    let force = ids(&["fr-i1"]);
    let charges = [straight("fr-i1"), straight("fr-i2")];
    let v = charge::check(&s, &request(&fr(), &force, &charges, &[]));
    assert!(rules_of(&v).contains("not in the activated force"));
    let supports = [forward("fr-i1", 1.0)];
    let v = charge::check(&s, &request(&fr(), &force, &charges[..1], &supports));
    assert!(rules_of(&v).contains("charges: a charging unit makes no other move"));
}

#[test]
fn supports_move_normally_but_never_back_nor_into_contact() {
    let mut s = facing_off("");
    place(&mut s, "fr-i2", 14.5, 5.0, 0.0, LINE);
    place(&mut s, "al-i2", 14.5, 8.0, 180.0, LINE);
    let back = UnitMove {
        unit: "fr-i2".into(),
        steps: vec![Step::Back(galloper::geometry::Distance(1.0))],
    };
    let why = refusal(&s, fr(), &[straight("fr-i1")], &[back]);
    assert!(
        why.contains(rule::SUPPORT) && why.contains("backward"),
        "{why}"
    );
    let why = refusal(&s, fr(), &[straight("fr-i1")], &[forward("fr-i2", 3.0)]);
    assert!(
        why.contains(rule::SUPPORT) && why.contains("contact"),
        "{why}"
    );
    let turn = UnitMove {
        unit: "fr-i2".into(),
        steps: vec![Step::Formation(
            galloper::rulesets::maurice_lite::orders::FormationChange {
                to: Formation::Column,
                turn: Some(Side2::Left),
            },
        )],
    };
    assert!(refusal(&s, fr(), &[straight("fr-i1")], &[turn]).contains("changes formation"));
    // Normal movement rules still hold: infantry in line moves 4 at most.
    let why = refusal(&s, fr(), &[straight("fr-i1")], &[forward("fr-i2", 4.5)]);
    assert!(why.contains("allowance"), "{why}");
    assert_eq!(
        refusal(&s, fr(), &[straight("fr-i1")], &[forward("fr-i2", 2.0)]),
        ""
    );
}

#[test]
fn an_order_made_impossible_since_receipt_is_refused_with_the_reason() {
    let mut s = facing_off("");
    let force = ids(&["fr-i1"]);
    let charges = [at("fr-i1", "al-i1")];
    let side = fr();
    let req = request(&side, &force, &charges, &[]);
    assert!(charge::check(&s, &req).is_empty());
    // A volley breaks the target before the charge goes in.
    s.break_unit("al-i1");
    let mut d = Dice::scripted(vec![]);
    let mut ev = Vec::new();
    let r = charge::resolve(&mut s, &req, &mut d, &mut ev);
    assert!(
        r.charges[0]
            .refused
            .as_deref()
            .unwrap_or("")
            .contains("not an enemy unit on the table")
    );
    assert!(
        text(&ev).contains("French A (fr-i1) does not charge"),
        "{}",
        text(&ev)
    );
    assert!(r.engagements.is_empty() && d.log().is_empty());
    assert!(close(anchor(&s, "fr-i1").y, 5.0));
}

// Combat scores

#[test]
fn infantry_higher_than_every_enemy_scores_one_more() {
    let hill = "  - {id: h, name: The Hill, tags: [hill], elevation: 1, shape: polygon, points: [{x: 0, y: 0}, {x: 40, y: 0}, {x: 40, y: 9.7}, {x: 0, y: 9.7}]}\n";
    let mut s = table(hill);
    place(&mut s, "fr-i1", 10.0, 7.0, 0.0, LINE);
    place(&mut s, "al-i1", 10.0, 10.0, 180.0, LINE);
    let (r, _) = fight(&mut s, fr(), &[straight("fr-i1")], &[], vec![3, 3]);
    assert!(has_mod(&r, "fr-i1", 1, "higher"));
    assert!(!has_mod(&r, "al-i1", 1, "higher"));
    assert_eq!(score_of(&r, "fr-i1"), 10);
}

#[test]
fn each_disr_costs_one_and_bad_terrain_two() {
    let marsh = "  - {id: m, name: The Marsh, tags: [marsh], shape: polygon, points: [{x: 0, y: 8.5}, {x: 40, y: 8.5}, {x: 40, y: 12}, {x: 0, y: 12}]}\n";
    let mut s = facing_off(marsh);
    s.unit_mut("fr-i1").unwrap().disruption = 2;
    let (r, _) = fight(&mut s, fr(), &[straight("fr-i1")], &[], vec![3, 3]);
    assert!(has_mod(&r, "fr-i1", -2, "2 DISR"));
    assert!(has_mod(&r, "al-i1", -2, "bad terrain"));
    assert_eq!(score_of(&r, "fr-i1"), 6 - 2 + 3);
    assert_eq!(score_of(&r, "al-i1"), 6 - 2 + 3);
}

#[test]
fn a_column_is_vulnerable() {
    let mut s = facing_off("");
    place(&mut s, "al-i1", 10.0, 8.0, 180.0, Formation::Column);
    let (r, _) = fight(&mut s, fr(), &[straight("fr-i1")], &[], vec![3, 3]);
    assert!(has_mod(&r, "al-i1", -6, "in column"));
    assert_eq!(score_of(&r, "al-i1"), 3, "0 never below zero, plus the die");
}

#[test]
fn a_unit_attacked_on_its_flank_is_vulnerable() {
    let mut s = table("");
    place(&mut s, "fr-i1", 9.5, 7.0, 0.0, LINE);
    // Facing east: its south flank edge runs x 9.25..10 at y = 10.
    place(&mut s, "al-i1", 10.0, 12.0, 90.0, LINE);
    let (r, ev) = fight(&mut s, fr(), &[straight("fr-i1")], &[], vec![3, 3]);
    assert_eq!(
        pairs(&r),
        vec![("fr-i1".into(), "al-i1".into(), true, true, false)],
        "{}",
        text(&ev)
    );
    assert!(has_mod(&r, "al-i1", -6, "flank"));
}

#[test]
fn cards_modify_and_the_value_before_the_die_never_drops_below_zero() {
    let marsh = "  - {id: m, name: The Marsh, tags: [marsh], shape: polygon, points: [{x: 0, y: 7.5}, {x: 40, y: 7.5}, {x: 40, y: 12}, {x: 0, y: 12}]}\n";
    let mut s = table(marsh);
    place(&mut s, "fr-i1", 10.0, 5.0, 0.0, LINE);
    place(&mut s, "al-i1", 8.0, 8.0, 180.0, LINE);
    place(&mut s, "al-a1", 10.5, 8.0, 180.0, Formation::Battery);
    let force = ids(&["fr-i1"]);
    let charges = [straight("fr-i1")];
    let side = fr();
    let mut req = request(&side, &force, &charges, &[]);
    req.attack = vec![Modifier::new("Sabres Drawn", 1)];
    req.defence = vec![("al-i1".into(), Modifier::new("Hold the Colours", 2))];
    let mut d = Dice::scripted(vec![3, 3, 3]);
    let mut ev = Vec::new();
    let r = charge::resolve(&mut s, &req, &mut d, &mut ev);
    assert!(has_mod(&r, "fr-i1", 1, "Sabres Drawn"));
    assert!(has_mod(&r, "al-i1", 2, "Hold the Colours"));
    assert!(!has_mod(&r, "al-a1", 2, "Hold the Colours"));
    // The guns: 1 basic, -2 bad terrain: floored at 0, plus the die.
    let gun = r.scores.iter().find(|x| x.unit == "al-a1").unwrap();
    assert_eq!((gun.basic, gun.floored, gun.score), (1, 0, 3));
    assert_eq!(gun.die_index, 2);
    // The French: 6 +1 card, -1 DISR for charging into the marsh, -2 bad
    // terrain.
    assert_eq!(score_of(&r, "fr-i1"), 6 + 1 - 1 - 2 + 3);
}

// Results

#[test]
fn a_defender_with_four_disr_breaks_even_on_a_single_disr() {
    let mut s = facing_off("");
    s.unit_mut("al-i1").unwrap().disruption = 4;
    let morale = s.armies[&al()].morale;
    // Defender 6 - 4 + 6 = 8, attacker 6 + 1 = 7: only 1 DISR, which breaks it.
    let (r, _) = fight(&mut s, fr(), &[straight("fr-i1")], &[], vec![1, 6]);
    let (n, broken, why) = outcome_of(&r, "al-i1");
    assert!(n == 1 && broken && why.contains("breaks"), "{why}");
    assert_eq!(s.armies[&al()].morale, morale - 1);
    // The attacker compares only with defenders still on the table: 1 DISR,
    // and it no longer touches anyone, so it does not fall back.
    assert_eq!(outcome_of(&r, "fr-i1").0, 1);
    assert!(r.fall_backs.is_empty());
    assert!(close(anchor(&s, "fr-i1").y, 8.0));
}

#[test]
fn doubled_breaks_outscored_two_disr_otherwise_one() {
    let run = |dice: Vec<u32>| {
        let mut s = facing_off("");
        let (r, _) = fight(&mut s, fr(), &[straight("fr-i1")], &[], dice);
        (outcome_of(&r, "al-i1"), outcome_of(&r, "fr-i1"))
    };
    // Attacker 6+6 = 12 against a defender in column 0+5 = 5: doubled.
    let mut s = facing_off("");
    place(&mut s, "al-i1", 10.0, 8.0, 180.0, Formation::Column);
    let (r, _) = fight(&mut s, fr(), &[straight("fr-i1")], &[], vec![6, 5]);
    let (n, broken, why) = outcome_of(&r, "al-i1");
    assert!(
        n == 0 && broken && why.starts_with("broken: doubled by French A"),
        "{why}"
    );
    // 8 against 7: outscored, 2 DISR; the attacker beat everyone: 1 DISR.
    let ((dn, db, dw), (an, _, _)) = run(vec![2, 1]);
    assert!(
        dn == 2 && !db && dw.starts_with("2 DISR: outscored by French A"),
        "{dw}"
    );
    assert_eq!(an, 1);
    // A tie: the defender 1 DISR, the attacker 2.
    let ((dn, _, dw), (an, _, aw)) = run(vec![3, 3]);
    assert_eq!((dn, dw.as_str()), (1, "1 DISR"));
    assert!(an == 2 && aw.contains("equalled or outscored"), "{aw}");
    // The defender higher: still 1 DISR to it, 2 to the attacker.
    let ((dn, _, _), (an, _, _)) = run(vec![1, 6]);
    assert_eq!((dn, an), (1, 2));
}

// Fall back

#[test]
fn a_fall_back_blocked_by_the_enemy_breaks_the_unit() {
    let mut s = table("");
    place(&mut s, "al-c1", 10.0, 9.5, 180.0, LINE);
    place(&mut s, "fr-i1", 10.0, 9.0, 0.0, LINE);
    // A French unit stands behind the Allied horse, within its 2 BW.
    place(&mut s, "fr-c1", 10.0, 12.3, 0.0, LINE);
    let morale = s.armies[&al()].morale;
    let (r, ev) = fight(&mut s, al(), &[straight("al-c1")], &[], vec![3, 3]);
    let f = &r.fall_backs[0];
    assert!(f.broken, "{}", text(&ev));
    assert!(
        f.reason.as_deref().unwrap_or("").contains("French Horse A"),
        "{f:?}"
    );
    assert!(s.unit("al-c1").unwrap().broken);
    // A tie gave it 2 DISR; breaking on the fall back costs a morale point.
    assert_eq!(s.armies[&al()].morale, morale - 1);
}

#[test]
fn a_fall_back_blocked_by_impassable_ground_breaks_the_unit() {
    let cliff = "  - {id: c, name: The Cliff, tags: [impassable], shape: polygon, points: [{x: 0, y: 10.5}, {x: 40, y: 10.5}, {x: 40, y: 11}, {x: 0, y: 11}]}\n";
    let mut s = table(cliff);
    place(&mut s, "fr-i1", 10.0, 9.0, 0.0, LINE);
    // The Allies charge 0.3 BW and must fall back 1 BW into the cliff.
    place(&mut s, "al-i1", 10.0, 9.3, 180.0, LINE);
    let (r, ev) = fight(&mut s, al(), &[straight("al-i1")], &[], vec![3, 3]);
    let f = &r.fall_backs[0];
    assert!(
        f.broken && f.reason.as_deref().unwrap_or("").contains("impassable"),
        "{f:?}\n{}",
        text(&ev)
    );
}

#[test]
fn falling_back_through_difficult_terrain_costs_one_disr() {
    let marsh = "  - {id: m, name: The Marsh, tags: [marsh], shape: polygon, points: [{x: 0, y: 2}, {x: 40, y: 2}, {x: 40, y: 4.2}, {x: 0, y: 4.2}]}\n";
    let mut s = facing_off(marsh);
    // Charge from 5 to 8, fall back to 7: the marsh (up to y 4.2) is far
    // behind.
    let (r, _) = fight(&mut s, fr(), &[straight("fr-i1")], &[], vec![3, 3]);
    assert_eq!(r.fall_backs[0].extra_disr, 0);
    assert!(close(r.fall_backs[0].distance.get(), 1.0));
    // Charge 0.5 BW, fall back 1 BW: the rear edge ends at 3.75, in the marsh.
    let mut s = table(marsh);
    place(&mut s, "fr-i1", 10.0, 5.0, 0.0, LINE);
    place(&mut s, "al-i1", 10.0, 5.5, 180.0, LINE);
    let (r, ev) = fight(&mut s, fr(), &[straight("fr-i1")], &[], vec![3, 3]);
    let f = &r.fall_backs[0];
    assert_eq!(f.extra_disr, 1, "{}", text(&ev));
    assert!(f.reason.as_deref().unwrap_or("").contains("The Marsh"));
    // Tie: 2 DISR from the combat, 1 from the marsh.
    assert_eq!(s.unit("fr-i1").unwrap().disruption, 3);
}

//! Maurice Lite chapter 7, volleys and bombardment: the source's worked
//! examples built on a table measured in BW, then one test per rule.
//!
//! Blue stands for the French (first side, facing +y), Red for the British
//! (facing -y). A Blue line at (10, 10) has its front edge from x 8 to 12 at
//! y 10; its bases 1 to 4 (A to D) run left to right, each 1 BW wide.

#[path = "maurice_lite/common.rs"]
mod common;

use common::{blue, place, red};
use galloper::dice::Dice;
use galloper::event::Event;
use galloper::geometry::{Distance, Point, Shape, TerrainFeature, TerrainTag};
use galloper::rulesets::maurice_lite::fire::{
    self, FireMode, FirePlan, FireReport, FireRequest, Range, Shot, can_bombard, check_aims,
    dice_per_base, disrupt_number,
};
use galloper::rulesets::maurice_lite::modifiers::Modifier;
use galloper::rulesets::maurice_lite::orders::{Aim, Sweep};
use galloper::rulesets::maurice_lite::scenario::Scenario;
use galloper::rulesets::maurice_lite::state::{Phase, State, TraceKind};
use galloper::rulesets::maurice_lite::units::{Arm, Formation};
use galloper::side::SideId;

const SCENARIO: &str = r##"
ruleset: maurice-lite
title: fire table
table: {width: 40, height: 30}
measure: {unit: base_width, base_width: 1, base_depth: 0.5}
sides:
  - id: blue
    name: Blue
    colour: "#2040a0"
    units:
      - {id: b-i1, name: "Blue Foot 1", arm: infantry}
      - {id: b-i2, name: "Blue Foot 2", arm: infantry}
      - {id: b-c1, name: "Blue Horse", arm: cavalry}
      - {id: b-a1, name: "Blue Guns 1", arm: artillery}
      - {id: b-a2, name: "Blue Guns 2", arm: artillery}
  - id: red
    name: Red
    colour: "#a02020"
    units:
      - {id: r-i1, name: "Red Foot 1", arm: infantry}
      - {id: r-i2, name: "Red Foot 2", arm: infantry}
      - {id: r-i3, name: "Red Foot 3", arm: infantry}
      - {id: r-c1, name: "Red Horse", arm: cavalry}
      - {id: r-a1, name: "Red Guns", arm: artillery}
"##;

/// Round 1, Blue active, nothing on the table and no terrain.
fn table() -> State {
    let scenario: Scenario = galloper::yaml::from_str(SCENARIO).expect("scenario");
    scenario.check().expect("valid scenario");
    let mut s = State::new(&scenario).expect("state");
    s.phase = Phase::Round { active: blue() };
    s.round = 1;
    s
}

fn line(s: &mut State, id: &str, x: f64, y: f64, facing: f64) {
    place(s, id, x, y, facing, Formation::Line);
}

fn guns(s: &mut State, id: &str, x: f64, y: f64, facing: f64) {
    place(s, id, x, y, facing, Formation::Battery);
}

fn area(id: &str, tags: &[TerrainTag], pts: &[(f64, f64)]) -> TerrainFeature {
    TerrainFeature {
        id: id.into(),
        name: id.into(),
        tags: tags.to_vec(),
        elevation: None,
        shape: Shape::Polygon {
            points: pts.iter().map(|(x, y)| Point::new(*x, *y)).collect(),
        },
    }
}

fn rect(id: &str, tags: &[TerrainTag], x0: f64, y0: f64, x1: f64, y1: f64) -> TerrainFeature {
    area(id, tags, &[(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
}

fn wall(from: (f64, f64), to: (f64, f64)) -> TerrainFeature {
    TerrainFeature {
        id: "wall".into(),
        name: "stone wall".into(),
        tags: vec![TerrainTag::Wall],
        elevation: None,
        shape: Shape::Polyline {
            points: vec![Point::new(from.0, from.1), Point::new(to.0, to.1)],
            width: Distance(0.1),
        },
    }
}

fn aim(unit: &str, base: Option<usize>, at: &str) -> Aim {
    Aim {
        unit: unit.into(),
        base,
        at: at.into(),
    }
}

fn ids(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn plan_with(
    s: &State,
    side: &SideId,
    mode: FireMode,
    shooters: &[&str],
    aims: &[Aim],
    to_hit: Vec<Modifier>,
) -> FirePlan {
    fire::plan(
        s,
        &FireRequest {
            side,
            mode,
            shooters: ids(shooters),
            order: Sweep::LeftToRight,
            aims,
            to_hit,
        },
    )
}

fn volley(s: &State, side: &SideId, shooters: &[&str], aims: &[Aim]) -> FirePlan {
    plan_with(s, side, FireMode::Volley, shooters, aims, Vec::new())
}

fn bombard(s: &State, shooters: &[&str]) -> FirePlan {
    plan_with(s, &blue(), FireMode::Bombard, shooters, &[], Vec::new())
}

fn resolve(s: &mut State, p: &FirePlan, dice: Vec<u32>) -> (FireReport, Vec<Event>) {
    let n = dice.len();
    let mut d = Dice::scripted(dice);
    let mut ev = Vec::new();
    let r = fire::resolve(s, p, &mut d, &mut ev);
    assert_eq!(d.log().len(), n, "the script holds exactly the dice rolled");
    (r, ev)
}

/// The planned shot of `unit`'s base `base`, which must exist.
fn shot<'a>(p: &'a FirePlan, unit: &str, base: usize) -> &'a Shot {
    p.shots
        .iter()
        .find(|s| s.shooter == unit && s.base == base)
        .unwrap_or_else(|| panic!("{unit} base {base} does not fire: {p:#?}"))
}

fn fires(p: &FirePlan, unit: &str, base: usize) -> bool {
    p.shots.iter().any(|s| s.shooter == unit && s.base == base)
}

fn targets(p: &FirePlan, unit: &str) -> Vec<String> {
    p.shots
        .iter()
        .filter(|s| s.shooter == unit)
        .map(|s| s.target.clone())
        .collect()
}

fn has_mod(s: &Shot, reason: &str, value: i32) -> bool {
    s.modifiers
        .iter()
        .any(|m| m.reason.starts_with(reason) && m.value == value)
}

fn why_not(p: &FirePlan, unit: &str) -> String {
    p.not_firing
        .iter()
        .filter(|(u, _)| u == unit)
        .map(|(_, w)| w.clone())
        .collect::<Vec<_>>()
        .join(" | ")
}

// ---------------------------------------------------------------------
// The source's worked examples
// ---------------------------------------------------------------------

/// French A to D against British horse (ahead and to A's left) and foot
/// (ahead of B, C and D, not of A).
fn example_one() -> State {
    let mut s = table();
    line(&mut s, "b-i1", 10.0, 10.0, 0.0);
    // British foot: x 9.2 to 13.2, front edge at y 12.
    line(&mut s, "r-i1", 11.2, 12.0, 180.0);
    // British horse: x 3.5 to 7.5, front edge at y 12.
    line(&mut s, "r-c1", 5.5, 12.0, 180.0);
    s
}

#[test]
fn example_one_b_c_d_shoot_straight_ahead_and_a_may_angle_at_either() {
    let s = example_one();
    let p = volley(&s, &blue(), &["b-i1"], &[]);
    for base in 2..=4 {
        let sh = shot(&p, "b-i1", base);
        assert_eq!(sh.target, "r-i1");
        assert_eq!(sh.chosen_by, "straight ahead");
        assert!(!sh.angled);
        assert_eq!(sh.range, Range::Short);
    }
    let a = shot(&p, "b-i1", 1);
    assert!(a.angled, "nothing straight ahead of A");
    assert!(
        a.chosen_by.starts_with("rule: nearest"),
        "two possible targets, no aim: {}",
        a.chosen_by
    );
    // The player may split the fire: A at the cavalry, the rest at the foot.
    let split = volley(&s, &blue(), &["b-i1"], &[aim("b-i1", Some(1), "r-c1")]);
    assert_eq!(targets(&split, "b-i1"), ["r-c1", "r-i1", "r-i1", "r-i1"]);
    assert_eq!(shot(&split, "b-i1", 1).chosen_by, "player's aim");
    // Or concentrate all four dice on the foot.
    let all = volley(&s, &blue(), &["b-i1"], &[aim("b-i1", None, "r-i1")]);
    assert_eq!(targets(&all, "b-i1"), ["r-i1"; 4]);
}

#[test]
fn example_one_split_fire_rolls_one_die_against_the_horse_and_three_against_the_foot() {
    let mut s = example_one();
    let p = volley(&s, &blue(), &["b-i1"], &[aim("b-i1", Some(1), "r-c1")]);
    // To hit: A 5 (hit), B 4 (hit), C 3 (miss), D 6 (hit). To disrupt: the
    // horse's one hit 4 (DISR); the foot's two hits 2 and 5 (one DISR).
    let (r, ev) = resolve(&mut s, &p, vec![5, 4, 3, 6, 4, 2, 5]);
    assert_eq!(
        r.shots.iter().map(|x| x.hits).collect::<Vec<_>>(),
        [1, 1, 0, 1]
    );
    let horse = r.disruption.iter().find(|d| d.target == "r-c1").unwrap();
    let foot = r.disruption.iter().find(|d| d.target == "r-i1").unwrap();
    assert_eq!((horse.hits, horse.disruptions), (1, 1));
    assert_eq!(
        (foot.hits, foot.dice.clone(), foot.disruptions),
        (2, vec![2, 5], 1)
    );
    assert_eq!(s.unit("r-c1").unwrap().disruption, 1);
    assert_eq!(s.unit("r-i1").unwrap().disruption, 1);
    assert!(s.unit("b-i1").unwrap().fired);
    assert!(ev.iter().any(|e| e.text.contains("player's aim")));
    assert_eq!(r.shots[0].dice_index, [0]);
    assert_eq!(horse.dice_index, [4]);
}

/// French A to D; friendly horse pokes into A's zone nearer than British-1;
/// British-1 (x 6.5 to 10.5) is nearer than British-2 (x 10.8 to 14.8).
fn example_two() -> State {
    let mut s = table();
    line(&mut s, "b-i1", 10.0, 10.0, 0.0);
    // Friendly horse facing the enemy, x 4.2 to 8.2, y 10.75 to 11.25.
    line(&mut s, "b-c1", 6.2, 11.25, 0.0);
    line(&mut s, "r-i1", 8.5, 12.5, 180.0);
    line(&mut s, "r-i2", 12.8, 13.5, 180.0);
    s
}

#[test]
fn example_two_friendly_horse_forces_a_to_angle_and_c_must_take_the_nearer_unit() {
    let s = example_two();
    let p = volley(&s, &blue(), &["b-i1"], &[]);
    let a = shot(&p, "b-i1", 1);
    assert_eq!(a.target, "r-i1");
    assert!(a.angled, "the friendly horse blocks A straight ahead");
    assert!(a.modifiers.is_empty());
    let b = shot(&p, "b-i1", 2);
    assert_eq!((b.target.as_str(), b.angled), ("r-i1", false));
    let c = shot(&p, "b-i1", 3);
    assert_eq!(
        (c.target.as_str(), c.chosen_by.as_str()),
        ("r-i1", "straight ahead"),
        "part of British-1 is nearer than any of British-2"
    );
    let d = shot(&p, "b-i1", 4);
    assert_eq!((d.target.as_str(), d.angled), ("r-i2", false));
    let at = |t: &str| p.shots.iter().filter(|x| x.target == t).count();
    assert_eq!((at("r-i1"), at("r-i2")), (3, 1));
}

#[test]
fn example_two_a_cannot_shoot_through_the_friendly_horse_even_when_aimed_straight() {
    let s = example_two();
    // Base A's straight zone holds the horse first: the aim can only be met
    // by angling, and British-1 is what the angle reaches.
    let p = volley(&s, &blue(), &["b-i1"], &[aim("b-i1", Some(1), "r-i1")]);
    let a = shot(&p, "b-i1", 1);
    assert!(a.angled);
    assert_eq!(a.chosen_by, "player's aim");
}

/// French guns at x 19.5 to 20.5, front y 5; a wood whose corner pokes
/// into their zone at y 7; British foot behind it at y 12.
fn example_three(with_wood: bool) -> State {
    let mut s = table();
    guns(&mut s, "b-a1", 20.0, 5.0, 0.0);
    line(&mut s, "r-i1", 18.0, 12.0, 180.0);
    if with_wood {
        s.scenario.terrain.push(rect(
            "wood",
            &[TerrainTag::Woods, TerrainTag::Difficult],
            10.0,
            7.0,
            19.8,
            11.0,
        ));
    }
    s
}

#[test]
fn example_three_woods_in_the_zone_stop_bombardment_one_bw_further_on() {
    let s = example_three(true);
    let p = bombard(&s, &["b-a1"]);
    assert!(p.shots.is_empty(), "{p:#?}");
    let why = why_not(&p, "b-a1");
    assert!(why.contains("wood obstructs"), "{why}");
    assert!(
        why.contains("no target within 45 degrees"),
        "no angle avoids the wood: {why}"
    );
    let err = can_bombard(&s, "b-a1").unwrap_err();
    assert!(err.contains("no target at long range"), "{err}");
}

#[test]
fn example_three_without_the_wood_the_guns_reach_the_foot_at_long_range() {
    let s = example_three(false);
    assert_eq!(can_bombard(&s, "b-a1"), Ok(()));
    let p = bombard(&s, &["b-a1"]);
    let g = shot(&p, "b-a1", 1);
    assert_eq!((g.target.as_str(), g.range), ("r-i1", Range::Long));
    assert!(!g.angled);
}

/// The stone wall: French foot at y 10 (x 8 to 12), a wall along y 10.5
/// (0.1 thick), British A just behind it (front edge y 10.75, x 7 to 11).
fn example_four() -> State {
    let mut s = table();
    line(&mut s, "b-i1", 10.0, 10.0, 0.0);
    s.scenario.terrain.push(wall((4.0, 10.5), (13.0, 10.5)));
    s
}

#[test]
fn example_four_british_a_behind_the_wall_is_the_target_and_has_cover() {
    let mut s = example_four();
    line(&mut s, "r-i1", 9.0, 10.75, 180.0);
    // British B further back, beyond the wall's reach.
    line(&mut s, "r-i2", 10.0, 11.7, 180.0);
    let p = volley(&s, &blue(), &["b-i1"], &[]);
    for base in 1..=3 {
        let sh = shot(&p, "b-i1", base);
        assert_eq!(
            (sh.target.as_str(), sh.chosen_by.as_str()),
            ("r-i1", "straight ahead")
        );
        assert!(has_mod(sh, "target in cover (stone wall)", -1), "{sh:#?}");
        assert_eq!(sh.need, 5);
    }
    assert!(!targets(&p, "b-i1").contains(&"r-i2".to_string()));
}

#[test]
fn example_four_without_a_the_wall_keeps_b_out_of_reach() {
    let mut s = example_four();
    line(&mut s, "r-i2", 10.0, 11.7, 180.0);
    let p = volley(&s, &blue(), &["b-i1"], &[]);
    assert!(p.shots.is_empty(), "{p:#?}");
    assert!(why_not(&p, "b-i1").contains("stone wall obstructs"));
}

#[test]
fn example_four_b_within_one_bw_of_the_wall_is_reached_and_not_wholly_behind_it() {
    let mut s = table();
    line(&mut s, "b-i1", 10.0, 10.0, 0.0);
    // A shorter wall, ending at x 11.5 inside base D's zone.
    s.scenario.terrain.push(wall((4.0, 10.5), (11.5, 10.5)));
    // British B: x 10.5 to 14.5, front edge 0.7 BW past the wall.
    line(&mut s, "r-i2", 12.5, 11.2, 180.0);
    let p = volley(&s, &blue(), &["b-i1"], &[]);
    let d = shot(&p, "b-i1", 4);
    assert_eq!(
        (d.target.as_str(), d.chosen_by.as_str()),
        ("r-i2", "straight ahead")
    );
    assert!(
        !has_mod(d, "target in cover", -1),
        "the wall does not cover every line from D to B: {d:#?}"
    );
    // Base C sees B only behind the wall: each base's dice stand alone.
    let c = shot(&p, "b-i1", 3);
    assert_eq!(c.target, "r-i2");
    assert!(has_mod(c, "target in cover", -1));
    assert_ne!(c.need, d.need);
}

#[test]
fn example_four_british_shooting_back_from_behind_the_wall() {
    // Not flush: 0.2 BW between the wall and their front edge. Their fire
    // crosses the wall before it reaches the French, who have cover.
    let mut s = example_four();
    line(&mut s, "r-i1", 9.0, 10.75, 180.0);
    let p = volley(&s, &red(), &["r-i1"], &[]);
    assert!(!p.shots.is_empty(), "{p:#?}");
    for sh in &p.shots {
        assert_eq!(sh.target, "b-i1");
        assert!(has_mod(sh, "target in cover (stone wall)", -1), "{sh:#?}");
    }
    // Flush behind the wall: it is their own, so the French lose cover and
    // the British keep theirs.
    line(&mut s, "r-i1", 9.0, 10.55, 180.0);
    let back = volley(&s, &red(), &["r-i1"], &[]);
    assert!(!back.shots.is_empty());
    for sh in &back.shots {
        assert!(!has_mod(sh, "target in cover", -1), "{sh:#?}");
    }
    let forth = volley(&s, &blue(), &["b-i1"], &[]);
    let a = shot(&forth, "b-i1", 1);
    assert_eq!(a.target, "r-i1");
    assert!(has_mod(a, "target in cover (stone wall)", -1));
}

// ---------------------------------------------------------------------
// Who may fire
// ---------------------------------------------------------------------

#[test]
fn only_infantry_and_artillery_of_the_side_out_of_column_fire() {
    let mut s = table();
    line(&mut s, "b-i1", 10.0, 10.0, 0.0);
    line(&mut s, "r-i1", 10.0, 12.0, 180.0);
    line(&mut s, "b-c1", 20.0, 10.0, 0.0);
    line(&mut s, "r-i2", 20.0, 12.0, 180.0);
    place(&mut s, "b-i2", 30.0, 10.0, 0.0, Formation::Column);
    line(&mut s, "r-i3", 30.0, 12.0, 180.0);
    let p = volley(
        &s,
        &blue(),
        &["b-i1", "b-c1", "b-i2", "r-i1", "nobody", "b-a1", "b-i1"],
        &[],
    );
    assert_eq!(targets(&p, "b-i1"), ["r-i1"; 4], "named twice, fires once");
    assert!(why_not(&p, "b-c1").contains("cavalry do not shoot"));
    assert!(why_not(&p, "b-i2").contains("column"));
    assert!(why_not(&p, "r-i1").contains("not a unit of Blue"));
    assert!(why_not(&p, "nobody").contains("no such unit"));
    assert!(why_not(&p, "b-a1").contains("not on the table"));
    assert_eq!(p.shots.len(), 4);
}

#[test]
fn a_unit_fires_once_a_round() {
    let mut s = table();
    line(&mut s, "b-i1", 10.0, 10.0, 0.0);
    line(&mut s, "r-i1", 10.0, 12.0, 180.0);
    let p = volley(&s, &blue(), &["b-i1"], &[]);
    resolve(&mut s, &p, vec![1, 1, 1, 1]);
    assert!(s.unit("b-i1").unwrap().fired);
    let again = volley(&s, &blue(), &["b-i1"], &[]);
    assert!(again.shots.is_empty());
    assert!(why_not(&again, "b-i1").contains("already fired"));
}

#[test]
fn a_base_partly_in_water_does_not_fire_but_the_rest_of_its_unit_does() {
    let mut s = table();
    line(&mut s, "b-i1", 10.0, 10.0, 0.0);
    line(&mut s, "r-i1", 10.0, 12.0, 180.0);
    s.scenario.terrain.push(rect(
        "stream",
        &[TerrainTag::Water, TerrainTag::Difficult],
        6.0,
        9.0,
        8.2,
        9.7,
    ));
    let p = volley(&s, &blue(), &["b-i1"], &[]);
    assert!(!fires(&p, "b-i1", 1));
    assert!((2..=4).all(|b| fires(&p, "b-i1", b)));
    assert!(why_not(&p, "b-i1").contains("base 1: partly in water (stream)"));
    // A bridge is dry.
    s.scenario.terrain[0].tags.push(TerrainTag::Bridge);
    assert!(fires(&volley(&s, &blue(), &["b-i1"], &[]), "b-i1", 1));
}

#[test]
fn artillery_partly_in_woods_may_not_fire_though_infantry_may() {
    let mut s = table();
    guns(&mut s, "b-a1", 20.0, 10.0, 0.0);
    line(&mut s, "r-i1", 20.0, 12.0, 180.0);
    line(&mut s, "b-i1", 10.0, 10.0, 0.0);
    line(&mut s, "r-i2", 10.0, 12.0, 180.0);
    s.scenario.terrain.push(rect(
        "copse",
        &[TerrainTag::Woods, TerrainTag::Difficult],
        19.0,
        9.0,
        19.7,
        10.2,
    ));
    s.scenario.terrain.push(rect(
        "grove",
        &[TerrainTag::Woods, TerrainTag::Difficult],
        7.0,
        9.0,
        8.5,
        10.2,
    ));
    let p = volley(&s, &blue(), &["b-a1", "b-i1"], &[]);
    assert!(why_not(&p, "b-a1").contains("artillery partly in woods (copse)"));
    assert!(p.shots.iter().all(|x| x.shooter != "b-a1"));
    // The foot's base in the grove fires out of it, at -1 for bad terrain;
    // the grove it stands in does not obstruct its own fire.
    let a = shot(&p, "b-i1", 1);
    assert_eq!(a.target, "r-i2");
    assert!(has_mod(a, "shooter in bad terrain (grove)", -1));
    assert!(!has_mod(shot(&p, "b-i1", 2), "shooter in bad terrain", -1));
    assert!(can_bombard(&s, "b-a1").unwrap_err().contains("woods"));
}

// ---------------------------------------------------------------------
// Range
// ---------------------------------------------------------------------

#[test]
fn volleys_reach_four_bw_and_no_further() {
    let mut s = table();
    line(&mut s, "b-i1", 10.0, 10.0, 0.0);
    line(&mut s, "r-i1", 10.0, 13.9, 180.0);
    assert_eq!(volley(&s, &blue(), &["b-i1"], &[]).shots.len(), 4);
    line(&mut s, "r-i1", 10.0, 14.1, 180.0);
    let p = volley(&s, &blue(), &["b-i1"], &[]);
    assert!(p.shots.is_empty());
    assert!(why_not(&p, "b-i1").contains("no enemy in reach straight ahead"));
}

#[test]
fn bombardment_reaches_beyond_four_up_to_sixteen_bw() {
    let mut s = table();
    guns(&mut s, "b-a1", 20.0, 5.0, 0.0);
    line(&mut s, "r-i1", 20.0, 15.0, 180.0);
    let p = bombard(&s, &["b-a1"]);
    assert_eq!(shot(&p, "b-a1", 1).range, Range::Long);
    // Canister does not reach 10 BW.
    assert!(volley(&s, &blue(), &["b-a1"], &[]).shots.is_empty());
    line(&mut s, "r-i1", 20.0, 21.1, 180.0);
    assert!(bombard(&s, &["b-a1"]).shots.is_empty(), "16.1 BW away");
    assert!(can_bombard(&s, "b-a1").is_err());
}

/// Issue 30: "up to 4BW" takes in an enemy whose edge is exactly 4 BW
/// ahead, also facing the other way (second side, its zone laid toward -y).
#[test]
fn ch7_the_range_of_fire_up_to_four_bw_reaches_an_enemy_exactly_four_bw_ahead() {
    let mut s = table();
    line(&mut s, "b-i1", 10.0, 10.0, 0.0);
    line(&mut s, "r-i1", 10.0, 14.0, 180.0);
    let p = volley(&s, &blue(), &["b-i1"], &[]);
    assert_eq!(p.shots.len(), 4, "{p:#?}");
    assert!(p.shots.iter().all(|s| !s.angled && s.target == "r-i1"));
    let back = volley(&s, &red(), &["r-i1"], &[]);
    assert_eq!(back.shots.len(), 4, "{back:#?}");
    // A hair over 4 BW is out of range.
    line(&mut s, "r-i1", 10.0, 14.001, 180.0);
    assert!(volley(&s, &blue(), &["b-i1"], &[]).shots.is_empty());
}

/// Issue 30: bombardment "extends out to 16BW": a gun takes the enemy
/// exactly 16 BW straight ahead, not another one at an angle.
#[test]
fn ch7_the_range_of_fire_bombardment_extends_out_to_sixteen_bw_straight_ahead() {
    let mut s = table();
    guns(&mut s, "b-a1", 20.0, 5.0, 0.0);
    line(&mut s, "r-i1", 20.0, 21.0, 180.0);
    line(&mut s, "r-i2", 28.0, 15.0, 180.0);
    assert_eq!(can_bombard(&s, "b-a1"), Ok(()));
    let p = bombard(&s, &["b-a1"]);
    let sh = shot(&p, "b-a1", 1);
    assert_eq!(sh.target, "r-i1", "{p:#?}");
    assert!(!sh.angled);
    s.unit_mut("r-i2").unwrap().anchor = None;
    assert_eq!(can_bombard(&s, "b-a1"), Ok(()));
    line(&mut s, "r-i1", 20.0, 21.001, 180.0);
    assert!(can_bombard(&s, "b-a1").is_err(), "a hair beyond 16 BW");
}

/// Issue 30: long range "begins after 4BW", so an enemy exactly 4 BW
/// ahead is at short range and the guns may not bombard.
#[test]
fn ch7_the_range_of_fire_a_target_exactly_four_bw_ahead_is_short_range_so_no_bombardment() {
    let mut s = table();
    guns(&mut s, "b-a1", 20.0, 5.0, 0.0);
    line(&mut s, "r-i1", 20.0, 9.0, 180.0);
    let err = can_bombard(&s, "b-a1").unwrap_err();
    assert!(err.contains("short range"), "{err}");
    let p = bombard(&s, &["b-a1"]);
    assert!(p.shots.is_empty());
    assert!(why_not(&p, "b-a1").contains("short range"));
    let canister = volley(&s, &blue(), &["b-a1"], &[]);
    assert_eq!(shot(&canister, "b-a1", 1).range, Range::Short);
}

#[test]
fn infantry_never_bombards() {
    let mut s = table();
    line(&mut s, "b-i1", 10.0, 10.0, 0.0);
    line(&mut s, "r-i1", 10.0, 18.0, 180.0);
    let p = bombard(&s, &["b-i1"]);
    assert!(why_not(&p, "b-i1").contains("only artillery bombards"));
    assert!(
        can_bombard(&s, "b-i1")
            .unwrap_err()
            .contains("only artillery")
    );
}

#[test]
fn artillery_with_a_target_at_short_range_may_not_bombard() {
    let mut s = table();
    guns(&mut s, "b-a1", 20.0, 5.0, 0.0);
    line(&mut s, "r-i2", 20.0, 14.0, 180.0);
    assert_eq!(can_bombard(&s, "b-a1"), Ok(()));
    // Foot at 3 BW, off to one side: reachable by an angled zone.
    line(&mut s, "r-i1", 25.0, 7.5, 180.0);
    let err = can_bombard(&s, "b-a1").unwrap_err();
    assert!(err.contains("short range"), "{err}");
    let p = bombard(&s, &["b-a1"]);
    assert!(p.shots.is_empty());
    assert!(why_not(&p, "b-a1").contains("Red Foot 1 (r-i1)"));
    s.unit_mut("r-i1").unwrap().anchor = None;
    s.unit_mut("b-a1").unwrap().fired = true;
    assert!(
        can_bombard(&s, "b-a1")
            .unwrap_err()
            .contains("already fired")
    );
}

// ---------------------------------------------------------------------
// Priorities
// ---------------------------------------------------------------------

#[test]
fn a_target_straight_ahead_comes_before_a_nearer_one_at_an_angle() {
    let mut s = table();
    guns(&mut s, "b-a1", 20.0, 10.0, 0.0);
    line(&mut s, "r-i1", 20.0, 13.5, 180.0);
    // Horse 1 BW ahead, its left edge flush with the guns' zone.
    line(&mut s, "r-c1", 22.5, 11.0, 180.0);
    let p = volley(&s, &blue(), &["b-a1"], &[aim("b-a1", None, "r-c1")]);
    let g = shot(&p, "b-a1", 1);
    assert_eq!(g.target, "r-i1");
    assert!(g.chosen_by.starts_with("straight ahead"), "{}", g.chosen_by);
    assert!(g.chosen_by.contains("does not apply"), "{}", g.chosen_by);
}

#[test]
fn the_first_base_in_the_zone_decides_friend_or_foe() {
    let mut s = table();
    guns(&mut s, "b-a1", 20.0, 10.0, 0.0);
    // An enemy nearer than a friend is the target.
    line(&mut s, "r-i1", 20.0, 11.0, 180.0);
    guns(&mut s, "b-a2", 20.0, 13.0, 0.0);
    assert_eq!(
        shot(&volley(&s, &blue(), &["b-a1"], &[]), "b-a1", 1).target,
        "r-i1"
    );
    // A friend nearer than the enemy blocks fire straight ahead, at any
    // range; the wide enemy line cannot be reached round the friend either.
    guns(&mut s, "b-a2", 20.0, 11.0, 0.0);
    line(&mut s, "r-i1", 20.0, 13.0, 180.0);
    let p = volley(&s, &blue(), &["b-a1"], &[]);
    assert!(p.shots.is_empty(), "{p:#?}");
    assert!(why_not(&p, "b-a1").contains("friendly b-a2 is in the way"));
    line(&mut s, "r-i1", 20.0, 17.0, 180.0);
    assert!(bombard(&s, &["b-a1"]).shots.is_empty());
}

/// Guns whose straight zone is blocked by a friend 2.5 BW ahead, with
/// enemies reachable by angling left (about 3.2 BW) and right (about 2.1).
fn angled_choice() -> State {
    let mut s = table();
    guns(&mut s, "b-a1", 20.0, 10.0, 0.0);
    guns(&mut s, "b-a2", 20.0, 13.0, 0.0);
    line(&mut s, "r-i1", 15.5, 12.5, 180.0);
    line(&mut s, "r-i2", 24.0, 11.5, 180.0);
    s
}

#[test]
fn without_an_aim_angled_fire_takes_the_nearest_target() {
    let s = angled_choice();
    let g = volley(&s, &blue(), &["b-a1"], &[]);
    let g = shot(&g, "b-a1", 1);
    assert_eq!(g.target, "r-i2");
    assert!(g.angled);
    assert_eq!(g.chosen_by, fire::target::RULE_NEAREST);
    // The zone the map shows is turned to the right of straight ahead.
    assert!(g.zone[3].x > g.zone[0].x + 0.5, "{:?}", g.zone);
}

#[test]
fn an_aim_chooses_among_angled_targets() {
    let s = angled_choice();
    let p = volley(&s, &blue(), &["b-a1"], &[aim("b-a1", Some(1), "r-i1")]);
    let g = shot(&p, "b-a1", 1);
    assert_eq!(
        (g.target.as_str(), g.chosen_by.as_str()),
        ("r-i1", "player's aim")
    );
    // An aim at something out of reach falls back on the rule, and says so.
    let p = volley(&s, &blue(), &["b-a1"], &[aim("b-a1", None, "r-c1")]);
    let g = shot(&p, "b-a1", 1);
    assert_eq!(g.target, "r-i2");
    assert!(g.chosen_by.contains("cannot reach r-c1"), "{}", g.chosen_by);
}

// ---------------------------------------------------------------------
// To hit
// ---------------------------------------------------------------------

#[test]
fn dense_targets_take_plus_one() {
    let mut s = table();
    line(&mut s, "b-i1", 10.0, 10.0, 0.0);
    place(&mut s, "r-i1", 10.5, 12.0, 180.0, Formation::Column);
    place(&mut s, "r-c1", 20.0, 12.0, 180.0, Formation::Massed);
    guns(&mut s, "b-a1", 20.0, 10.0, 0.0);
    let p = volley(&s, &blue(), &["b-i1", "b-a1"], &[aim("b-i1", None, "r-i1")]);
    let c = shot(&p, "b-i1", 3);
    assert_eq!(c.target, "r-i1");
    assert!(has_mod(c, "dense target (column)", 1));
    assert_eq!(c.need, 3);
    assert!(has_mod(shot(&p, "b-a1", 1), "dense target (massed)", 1));
}

#[test]
fn enfilade_when_the_whole_shooting_base_is_behind_the_targets_front_line() {
    let mut s = table();
    line(&mut s, "b-i1", 10.0, 10.0, 0.0);
    // Red foot facing east, its front line along x = 12.
    line(&mut s, "r-i1", 12.0, 13.0, 90.0);
    let p = volley(&s, &blue(), &["b-i1"], &[]);
    let d = shot(&p, "b-i1", 4);
    assert_eq!(d.target, "r-i1");
    assert!(has_mod(d, "enfilade", 1), "{d:#?}");
    // Facing the shooters, no enfilade.
    line(&mut s, "r-i1", 10.0, 12.0, 180.0);
    let p = volley(&s, &blue(), &["b-i1"], &[]);
    assert!(!has_mod(shot(&p, "b-i1", 4), "enfilade", 1));
}

#[test]
fn a_disrupted_shooter_takes_minus_one() {
    let mut s = table();
    line(&mut s, "b-i1", 10.0, 10.0, 0.0);
    line(&mut s, "r-i1", 10.0, 12.0, 180.0);
    guns(&mut s, "b-a1", 20.0, 10.0, 0.0);
    line(&mut s, "r-i2", 20.0, 12.0, 180.0);
    s.unit_mut("b-i1").unwrap().disruption = 1;
    s.unit_mut("b-a1").unwrap().disruption = 1;
    let p = volley(&s, &blue(), &["b-i1", "b-a1"], &[]);
    assert!(!has_mod(shot(&p, "b-i1", 1), "disrupted shooter", -1));
    assert!(has_mod(
        shot(&p, "b-a1", 1),
        "disrupted shooter (1 DISR)",
        -1
    ));
    s.unit_mut("b-i1").unwrap().disruption = 2;
    let p = volley(&s, &blue(), &["b-i1"], &[]);
    assert!(
        p.shots
            .iter()
            .all(|x| has_mod(x, "disrupted shooter (2 DISR)", -1))
    );
}

#[test]
fn a_target_wholly_in_woods_has_cover_one_partly_in_with_nothing_between_has_not() {
    let mut s = table();
    guns(&mut s, "b-a1", 20.0, 10.0, 0.0);
    line(&mut s, "r-i1", 20.0, 12.0, 180.0);
    s.scenario.terrain.push(rect(
        "wood",
        &[TerrainTag::Woods, TerrainTag::Difficult],
        17.0,
        11.9,
        23.0,
        14.0,
    ));
    let p = volley(&s, &blue(), &["b-a1"], &[]);
    let g = shot(&p, "b-a1", 1);
    assert_eq!(g.target, "r-i1");
    assert!(has_mod(g, "target in cover (wood)", -1));
    s.scenario.terrain[0] = rect("wood", &[TerrainTag::Woods], 17.0, 12.2, 23.0, 14.0);
    let p = volley(&s, &blue(), &["b-a1"], &[]);
    assert!(!has_mod(shot(&p, "b-a1", 1), "target in cover", -1));
}

#[test]
fn a_shooting_base_in_bad_terrain_takes_minus_one() {
    let mut s = table();
    line(&mut s, "b-i1", 10.0, 10.0, 0.0);
    line(&mut s, "r-i1", 10.0, 12.0, 180.0);
    s.scenario
        .terrain
        // Rocky ground: a marsh would be water, where no base fires (ch. 5).
        .push(rect("rocks", &[TerrainTag::Difficult], 9.2, 9.0, 9.8, 9.8));
    let p = volley(&s, &blue(), &["b-i1"], &[]);
    assert!(has_mod(
        shot(&p, "b-i1", 2),
        "shooter in bad terrain (rocks)",
        -1
    ));
    assert_eq!(shot(&p, "b-i1", 2).need, 5);
    for b in [1, 3, 4] {
        assert!(shot(&p, "b-i1", b).modifiers.is_empty());
    }
}

#[test]
fn card_modifiers_apply_to_every_die() {
    let mut s = table();
    line(&mut s, "b-i1", 10.0, 10.0, 0.0);
    line(&mut s, "r-i1", 10.0, 12.0, 180.0);
    let cards = vec![
        Modifier::new("Steady Platoons", 1),
        Modifier::new("enemy Powder Smoke", -1),
    ];
    let p = plan_with(&s, &blue(), FireMode::Volley, &["b-i1"], &[], cards.clone());
    for sh in &p.shots {
        assert_eq!(sh.modifiers, cards);
        assert_eq!(sh.need, 4);
    }
    let p = plan_with(
        &s,
        &blue(),
        FireMode::Volley,
        &["b-i1"],
        &[],
        vec![Modifier::new("Steady Platoons", 1)],
    );
    assert!(p.shots.iter().all(|x| x.need == 3));
}

#[test]
fn a_natural_six_always_hits_and_a_natural_one_always_misses() {
    let mut s = table();
    line(&mut s, "b-i1", 10.0, 10.0, 0.0);
    line(&mut s, "r-i1", 10.0, 12.0, 180.0);
    let bad = vec![Modifier::new("test penalty", -5)];
    let p = plan_with(&s, &blue(), FireMode::Volley, &["b-i1"], &[], bad);
    assert!(p.shots.iter().all(|x| x.need == 6), "4+5 needs more than 6");
    let (r, _) = resolve(&mut s.clone(), &p, vec![6, 5, 5, 5, 3]);
    assert_eq!(r.shots.iter().map(|x| x.hits).sum::<u32>(), 1);
    let good = vec![Modifier::new("test bonus", 5)];
    let p = plan_with(&s, &blue(), FireMode::Volley, &["b-i1"], &[], good);
    assert!(p.shots.iter().all(|x| x.need == 2));
    let (r, _) = resolve(&mut s, &p, vec![1, 2, 1, 1, 3]);
    assert_eq!(
        r.shots.iter().map(|x| x.hits).collect::<Vec<_>>(),
        [0, 1, 0, 0]
    );
}

// ---------------------------------------------------------------------
// Dice and their effects
// ---------------------------------------------------------------------

#[test]
fn canister_rolls_two_dice_per_base_and_everything_else_one() {
    assert_eq!(dice_per_base(Arm::Artillery, FireMode::Volley), 2);
    assert_eq!(dice_per_base(Arm::Artillery, FireMode::Bombard), 1);
    assert_eq!(dice_per_base(Arm::Infantry, FireMode::Volley), 1);
    let mut s = table();
    guns(&mut s, "b-a1", 20.0, 10.0, 0.0);
    line(&mut s, "r-i1", 20.0, 12.0, 180.0);
    let p = volley(&s, &blue(), &["b-a1"], &[]);
    // Canister 6 and 1: one hit; to disrupt: 4.
    let (r, ev) = resolve(&mut s, &p, vec![6, 1, 4]);
    assert_eq!(r.shots[0].dice, [6, 1]);
    assert_eq!(r.shots[0].dice_index, [0, 1]);
    assert_eq!(r.shots[0].hits, 1);
    assert_eq!(r.disruption[0].disruptions, 1);
    assert!(ev.iter().any(|e| e.dice == [0, 1]));
}

#[test]
fn disrupt_numbers_by_arm_and_kind_of_fire() {
    for arm in [Arm::Infantry, Arm::Cavalry] {
        assert_eq!(disrupt_number(arm, FireMode::Volley), 4);
        assert_eq!(disrupt_number(arm, FireMode::Bombard), 4);
    }
    assert_eq!(disrupt_number(Arm::Artillery, FireMode::Volley), 4);
    assert_eq!(disrupt_number(Arm::Artillery, FireMode::Bombard), 6);
    // Bombarded guns shrug off a 5; the same 5 from canister disrupts.
    let mut s = table();
    guns(&mut s, "b-a1", 20.0, 5.0, 0.0);
    guns(&mut s, "r-a1", 20.0, 15.0, 180.0);
    let p = bombard(&s, &["b-a1"]);
    let (r, _) = resolve(&mut s, &p, vec![6, 5]);
    assert_eq!((r.disruption[0].need, r.disruption[0].disruptions), (6, 0));
    assert_eq!(s.unit("r-a1").unwrap().disruption, 0);
    let mut s = table();
    guns(&mut s, "b-a1", 20.0, 10.0, 0.0);
    guns(&mut s, "r-a1", 20.0, 12.0, 180.0);
    let p = volley(&s, &blue(), &["b-a1"], &[]);
    let (r, _) = resolve(&mut s, &p, vec![6, 1, 5]);
    assert_eq!((r.disruption[0].need, r.disruption[0].disruptions), (4, 1));
    assert_eq!(s.unit("r-a1").unwrap().disruption, 1);
}

#[test]
fn a_unit_whose_disr_exceeds_its_bases_breaks() {
    let mut s = table();
    line(&mut s, "b-i1", 10.0, 10.0, 0.0);
    line(&mut s, "r-i1", 10.0, 12.0, 180.0);
    s.unit_mut("r-i1").unwrap().disruption = 3;
    let morale = s.armies[&red()].morale;
    let p = volley(&s, &blue(), &["b-i1"], &[]);
    // Four hits; to disrupt 4, 4, 1, 1: two DISR, five in all on four bases.
    let (r, ev) = resolve(&mut s, &p, vec![6, 6, 6, 6, 4, 4, 1, 1]);
    assert_eq!(r.disruption[0].disruptions, 2);
    assert!(r.disruption[0].broken);
    assert_eq!(r.broken, ["r-i1"]);
    assert!(s.unit("r-i1").unwrap().broken);
    assert_eq!(s.armies[&red()].morale, morale - 1);
    assert!(ev.iter().any(|e| e.text.contains("is broken")));
    // Exactly as many DISR as bases does not break.
    let mut s = table();
    line(&mut s, "b-i1", 10.0, 10.0, 0.0);
    line(&mut s, "r-i1", 10.0, 12.0, 180.0);
    s.unit_mut("r-i1").unwrap().disruption = 3;
    let (r, _) = resolve(&mut s, &p, vec![6, 1, 1, 1, 4]);
    assert!(r.broken.is_empty());
    assert_eq!(s.unit("r-i1").unwrap().disruption, 4);
}

#[test]
fn artillery_that_fired_takes_smoke_and_every_shooter_is_marked_fired() {
    let mut s = table();
    line(&mut s, "b-i1", 10.0, 10.0, 0.0);
    line(&mut s, "r-i1", 10.0, 12.0, 180.0);
    guns(&mut s, "b-a1", 20.0, 10.0, 0.0);
    line(&mut s, "r-i2", 20.0, 12.0, 180.0);
    guns(&mut s, "b-a2", 30.0, 10.0, 0.0);
    let p = volley(&s, &blue(), &["b-i1", "b-a1", "b-a2"], &[]);
    let (r, _) = resolve(&mut s, &p, vec![1, 1, 1, 1, 1, 1]);
    assert_eq!(r.shots.len(), 5);
    let u = |id: &str| s.unit(id).unwrap().clone();
    assert!(u("b-a1").smoke && u("b-a1").fired);
    assert!(u("b-i1").fired && !u("b-i1").smoke);
    assert!(!u("b-a2").fired && !u("b-a2").smoke, "nothing to shoot at");
    let traces: Vec<_> = s
        .traces
        .iter()
        .filter(|t| t.kind == TraceKind::Fire)
        .collect();
    assert_eq!(traces.len(), 5);
    assert_eq!(traces[0].points.len(), 2);
}

// ---------------------------------------------------------------------
// Sight and terrain
// ---------------------------------------------------------------------

#[test]
fn a_crest_hides_what_is_beyond_it() {
    let mut s = table();
    guns(&mut s, "b-a1", 20.0, 5.0, 0.0);
    line(&mut s, "r-i1", 20.0, 12.0, 180.0);
    s.scenario.terrain.push(TerrainFeature {
        id: "crest".into(),
        name: "ridge crest".into(),
        tags: vec![TerrainTag::Crest],
        elevation: None,
        shape: Shape::Polyline {
            points: vec![Point::new(0.0, 13.0), Point::new(40.0, 13.0)],
            width: Distance(0.0),
        },
    });
    line(&mut s, "r-i1", 20.0, 15.0, 180.0);
    let p = bombard(&s, &["b-a1"]);
    assert!(p.shots.is_empty(), "{p:#?}");
    // On this side of the crest, the same foot is seen.
    line(&mut s, "r-i1", 20.0, 11.0, 180.0);
    assert_eq!(shot(&bombard(&s, &["b-a1"]), "b-a1", 1).target, "r-i1");
}

#[test]
fn a_unit_on_a_hill_is_seen_over_an_obstruction() {
    let mut s = example_three(true);
    let mut hill = rect("hill", &[TerrainTag::Hill], 12.0, 11.5, 24.0, 15.0);
    hill.elevation = Some(2.0);
    s.scenario.terrain.push(hill);
    let p = bombard(&s, &["b-a1"]);
    let g = shot(&p, "b-a1", 1);
    assert_eq!((g.target.as_str(), g.range), ("r-i1", Range::Long));
    // Guns on the same hill gain nothing: the wood obstructs again.
    let mut s = example_three(true);
    let mut hill = rect("hill", &[TerrainTag::Hill], 0.0, 0.0, 40.0, 15.0);
    hill.elevation = Some(2.0);
    s.scenario.terrain.push(hill);
    assert!(bombard(&s, &["b-a1"]).shots.is_empty());
}

#[test]
fn towns_and_obstruction_tags_obstruct_like_woods() {
    for tag in [TerrainTag::Town, TerrainTag::Obstruction] {
        let mut s = table();
        guns(&mut s, "b-a1", 20.0, 5.0, 0.0);
        line(&mut s, "r-i1", 18.0, 12.0, 180.0);
        s.scenario
            .terrain
            .push(rect("block", &[tag], 10.0, 7.0, 19.8, 11.0));
        assert!(bombard(&s, &["b-a1"]).shots.is_empty(), "{tag:?}");
    }
}

// ---------------------------------------------------------------------
// Orders, order of fire, records
// ---------------------------------------------------------------------

#[test]
fn aims_are_checked_on_receipt() {
    let mut s = table();
    line(&mut s, "b-i1", 10.0, 10.0, 0.0);
    let aims = [
        aim("b-i1", Some(2), "r-i1"),
        aim("r-i1", None, "r-i2"),
        aim("b-i1", None, "b-i2"),
        aim("b-i1", Some(5), "r-i1"),
        aim("b-a1", Some(2), "r-i1"),
        aim("ghost", None, "r-x"),
    ];
    let v = check_aims(&s, &blue(), &aims);
    let msgs: Vec<String> = v.iter().map(|x| x.message.clone()).collect();
    assert_eq!(v.len(), 6, "{msgs:#?}");
    assert!(msgs[0].contains("Red Foot 1 (r-i1) is not your unit"));
    assert!(msgs[1].contains("Blue Foot 2 (b-i2) is not an enemy unit"));
    assert!(msgs[2].contains("numbered 1 to 4"));
    assert!(msgs[3].contains("only 1 base"));
    assert!(msgs[4].contains("no unit ghost"));
    assert!(msgs[5].contains("no unit r-x"));
    assert!(
        v.iter()
            .all(|x| x.path == ["aims"] && x.rule.starts_with("7."))
    );
    assert!(check_aims(&s, &blue(), &aims[..1]).is_empty());
}

#[test]
fn shooters_roll_in_the_requested_order_as_their_side_sees_the_table() {
    let mut s = table();
    line(&mut s, "r-i1", 10.0, 12.0, 180.0);
    line(&mut s, "r-i2", 20.0, 12.0, 180.0);
    line(&mut s, "b-i1", 10.0, 10.0, 0.0);
    line(&mut s, "b-i2", 20.0, 10.0, 0.0);
    let order = |side: SideId, sweep: Sweep| {
        let p = fire::plan(
            &s,
            &FireRequest {
                side: &side,
                mode: FireMode::Volley,
                shooters: ids(&["r-i1", "r-i2", "b-i1", "b-i2"]),
                order: sweep,
                aims: &[],
                to_hit: Vec::new(),
            },
        );
        p.shots
            .iter()
            .map(|x| format!("{}/{}", x.shooter, x.base))
            .collect::<Vec<_>>()
    };
    // Red faces -y: its left is at high x.
    let red_ltr = order(red(), Sweep::LeftToRight);
    assert_eq!(red_ltr[..4], ["r-i2/1", "r-i2/2", "r-i2/3", "r-i2/4"]);
    assert_eq!(red_ltr[4], "r-i1/1");
    let blue_rtl = order(blue(), Sweep::RightToLeft);
    assert_eq!(blue_rtl[..2], ["b-i2/4", "b-i2/3"]);
    assert_eq!(blue_rtl[7], "b-i1/1");
}

#[test]
fn plans_and_reports_are_deterministic_and_serialise() {
    let s = example_two();
    let a = volley(&s, &blue(), &["b-i1"], &[]);
    assert_eq!(a, volley(&s, &blue(), &["b-i1"], &[]));
    let mut s1 = s.clone();
    let (r, _) = resolve(&mut s1, &a, vec![4, 4, 4, 4, 4, 4, 4, 4]);
    let json = serde_json::to_string(&r).unwrap();
    let back: FireReport = serde_json::from_str(&json).unwrap();
    // Zone corners are kept to a millionth of a BW; the text parser may
    // differ in the last bit, so compare them within that.
    let close = |a: &FireReport, b: &FireReport| {
        a.shots.iter().zip(&b.shots).all(|(x, y)| {
            x.zone
                .iter()
                .zip(&y.zone)
                .all(|(p, q)| (p.x - q.x).abs() < 1e-9 && (p.y - q.y).abs() < 1e-9)
        })
    };
    assert!(close(&back, &r));
    let mut back = back;
    for (x, y) in back.shots.iter_mut().zip(&r.shots) {
        x.zone = y.zone;
    }
    assert_eq!(back, r);
    assert!(
        r.shots[0].zone[0].x.to_string().len() <= 10,
        "{:?}",
        r.shots[0].zone
    );
    assert!(json.contains("\"mode\":\"volley\""));
    assert!(json.contains("\"range\":\"short\""));
    let mut s2 = s.clone();
    let (r2, _) = resolve(&mut s2, &a, vec![4, 4, 4, 4, 4, 4, 4, 4]);
    assert_eq!(r, r2);
    assert_eq!(s1, s2);
    assert_eq!(FireReport::default().shots.len(), 0);
}

#[test]
fn fire_at_a_target_gone_before_its_turn_is_skipped_and_said() {
    let mut s = table();
    line(&mut s, "b-i1", 10.0, 10.0, 0.0);
    line(&mut s, "r-i1", 10.0, 12.0, 180.0);
    let p = volley(&s, &blue(), &["b-i1"], &[]);
    s.break_unit("r-i1");
    let (r, _) = resolve(&mut s, &p, vec![]);
    assert!(r.shots.is_empty());
    assert!(
        r.not_firing
            .iter()
            .any(|(_, w)| w.contains("no longer on the table"))
    );
    assert!(!s.unit("b-i1").unwrap().fired);
}

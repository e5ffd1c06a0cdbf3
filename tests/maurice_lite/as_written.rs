//! Issue 14: where the engine played differently from Maurice Lite as
//! written. Each test names the source's chapter and rule it rests on.

use crate::common::*;
use galloper::dice::Dice;
use galloper::geometry::{Point, Shape, TerrainFeature, TerrainTag};
use galloper::ruleset::{AnyRuleset, Ruleset};
use galloper::rulesets::maurice_lite::MauriceLite;
use galloper::rulesets::maurice_lite::fire::{self, FireMode, FirePlan, FireRequest};
use galloper::rulesets::maurice_lite::forces::{activation_distance, check_force};
use galloper::rulesets::maurice_lite::march;
use galloper::rulesets::maurice_lite::orders::{Side2, Step, Sweep, UnitMove, Wheel};
use galloper::rulesets::maurice_lite::state::{Phase, State};
use galloper::rulesets::maurice_lite::units::Formation;
use galloper::side::{BySide, SideId};

fn rect(id: &str, tags: &[TerrainTag], x0: f64, y0: f64, x1: f64, y1: f64) -> TerrainFeature {
    TerrainFeature {
        id: id.into(),
        name: id.into(),
        tags: tags.to_vec(),
        elevation: None,
        shape: Shape::Polygon {
            points: vec![
                Point::new(x0, y0),
                Point::new(x1, y0),
                Point::new(x1, y1),
                Point::new(x0, y1),
            ],
        },
    }
}

fn volley_plan(s: &State, side: &SideId, shooters: &[&str]) -> FirePlan {
    fire::plan(
        s,
        &FireRequest {
            side,
            mode: FireMode::Volley,
            shooters: shooters.iter().map(|x| x.to_string()).collect(),
            order: Sweep::LeftToRight,
            aims: &[],
            to_hit: Vec::new(),
        },
    )
}

fn fires(p: &FirePlan, unit: &str, base: usize) -> bool {
    p.shots.iter().any(|s| s.shooter == unit && s.base == base)
}

/// Resolve and keep the dice, so that a test can read each die's purpose.
fn resolve_logged(s: &State, side: &SideId, yaml: &str, dice: Vec<u32>) -> (State, String, String) {
    let mut by = BySide::new();
    by.insert(side.clone(), orders(yaml));
    let mut d = Dice::scripted(dice);
    let r = Ruleset::resolve(&MauriceLite, s, &by, &mut d);
    let purposes = d
        .log()
        .iter()
        .map(|x| x.purpose.clone())
        .collect::<Vec<_>>()
        .join("\n");
    let text = r
        .events
        .iter()
        .map(|e| e.text.clone())
        .collect::<Vec<_>>()
        .join("\n");
    (r.state, text, purposes)
}

/// A long ravine across the middle of the table, y 14 to 15 from x 5 to
/// 35: going round it from one side to the other takes well over 4 BW.
fn ravine() -> TerrainFeature {
    rect("ravine", &[TerrainTag::Impassable], 5.0, 14.0, 35.0, 15.0)
}

// ---------------------------------------------------------------------
// 1. Marsh is water (chapter 5, "In Water"; chapter 7, Who May Fire)
// ---------------------------------------------------------------------

#[test]
fn ch5_ch7_a_base_partly_in_a_marsh_is_in_water_and_may_not_fire() {
    let mut s = table();
    place(&mut s, "b-i1", 10.0, 10.0, 0.0, Formation::Line);
    place(&mut s, "r-i1", 10.0, 12.0, 180.0, Formation::Line);
    // The marsh reaches under the left end of b-i1's first base only.
    s.scenario
        .terrain
        .push(rect("marsh", &[TerrainTag::Marsh], 6.0, 9.0, 8.2, 9.7));
    let p = volley_plan(&s, &blue(), &["b-i1"]);
    assert!(!fires(&p, "b-i1", 1), "{:?}", p.not_firing);
    assert!((2..=4).all(|b| fires(&p, "b-i1", b)));
    assert!(
        p.not_firing
            .iter()
            .any(|(u, w)| u == "b-i1" && w.contains("partly in water (marsh)")),
        "{:?}",
        p.not_firing
    );
}

#[test]
fn ch5_a_ford_is_water_and_a_base_on_a_bridge_is_dry() {
    let mut s = table();
    place(&mut s, "b-i1", 10.0, 10.0, 0.0, Formation::Line);
    place(&mut s, "r-i1", 10.0, 12.0, 180.0, Formation::Line);
    // A stream under the first base, with a bridge (its own feature) over it.
    s.scenario
        .terrain
        .push(rect("brook", &[TerrainTag::Water], 6.0, 9.0, 8.2, 9.7));
    s.scenario
        .terrain
        .push(rect("bridge", &[TerrainTag::Bridge], 7.5, 8.5, 9.0, 10.3));
    let p = volley_plan(&s, &blue(), &["b-i1"]);
    assert!(fires(&p, "b-i1", 1), "on the bridge: {:?}", p.not_firing);
    // A narrower bridge leaves a strip of the base in the brook.
    s.scenario.terrain[3] = rect("bridge", &[TerrainTag::Bridge], 8.1, 8.5, 9.0, 10.3);
    let p = volley_plan(&s, &blue(), &["b-i1"]);
    assert!(!fires(&p, "b-i1", 1), "partly off the bridge");
}

#[test]
fn ch5_ch6_marsh_is_difficult_ground_for_a_march() {
    let mut s = table();
    place(&mut s, "b-i1", 10.0, 5.0, 0.0, Formation::Line);
    s.scenario
        .terrain
        .push(rect("marsh", &[TerrainTag::Marsh], 9.0, 6.0, 11.0, 7.0));
    let mv = UnitMove {
        unit: "b-i1".into(),
        steps: vec![Step::Forward(galloper::geometry::Distance(3.0))],
    };
    let p = march::plan(&s, &blue(), &mv).expect("the march is legal");
    assert_eq!(p.disruption, 1, "1 DISR for the marsh: {:?}", p.notes);
}

// ---------------------------------------------------------------------
// 2. Distances go round impassable ground (chapter 1, Near the Enemy)
// ---------------------------------------------------------------------

#[test]
fn ch1_ch9_a_unit_across_a_ravine_from_the_enemy_is_not_near_it_for_rally() {
    let mut s = table();
    // Blue's front edge at y 13, Red's at y 16: 3 BW apart straight across
    // the ravine (y 14 to 15), a long way round.
    place(&mut s, "b-i1", 20.0, 13.0, 0.0, Formation::Line);
    place(&mut s, "r-i1", 20.0, 16.0, 180.0, Formation::Line);
    s.unit_mut("b-i1").unwrap().disruption = 1;
    s.armies.get_mut(&blue()).unwrap().cinc = Some(Point::new(20.0, 10.0));
    hand(&mut s, &blue(), &["c39"]);
    let o = "round: {command: {rally: {force: [b-i1], cards: [c39]}}}";
    let (before, _, dice) = resolve_logged(&s, &blue(), o, vec![3, 3, 3]);
    assert!(
        dice.contains("rally die") && !dice.contains("+1 not near the enemy"),
        "without the ravine it is near: {dice}"
    );
    assert_eq!(before.unit("b-i1").unwrap().disruption, 1, "a 3 fails");
    s.scenario.terrain.push(ravine());
    let (after, text, dice) = resolve_logged(&s, &blue(), o, vec![3, 3, 3]);
    assert!(
        dice.contains("+1 not near the enemy"),
        "round the ravine it is far: {dice}\n{text}"
    );
    assert_eq!(
        after.unit("b-i1").unwrap().disruption,
        0,
        "3+1 rallies: {text}"
    );
}

#[test]
fn ch1_ch6_cavalry_keeps_its_eight_bw_when_the_enemy_is_only_near_across_a_ravine() {
    let mut s = table();
    // Cavalry in line facing east, its bases from y 9.5 to 13.5; Red's
    // front at y 16: 2.5 BW away straight across the ravine.
    place(&mut s, "b-c1", 10.0, 11.5, 90.0, Formation::Line);
    place(&mut s, "r-i1", 20.0, 16.0, 180.0, Formation::Line);
    let mv = UnitMove {
        unit: "b-c1".into(),
        steps: vec![Step::Forward(galloper::geometry::Distance(6.0))],
    };
    let e = march::plan(&s, &blue(), &mv).expect_err("near the enemy: 4 BW");
    assert_eq!(e.rule, march::rule::NEAR, "{}", e.message);
    s.scenario.terrain.push(ravine());
    let p = march::plan(&s, &blue(), &mv);
    assert!(p.is_ok(), "round the ravine the enemy is far: {p:?}");
}

#[test]
fn ch1_ch6_artillery_across_a_ravine_does_not_end_near_the_enemy() {
    let mut s = table();
    place(&mut s, "b-a1", 20.0, 10.0, 0.0, Formation::Battery);
    place(&mut s, "r-i1", 20.0, 16.0, 180.0, Formation::Line);
    let mv = UnitMove {
        unit: "b-a1".into(),
        steps: vec![Step::Path(vec![Point::new(20.0, 13.0)])],
    };
    assert!(march::plan(&s, &blue(), &mv).is_err(), "3 BW: ends near");
    s.scenario.terrain.push(ravine());
    assert!(
        march::plan(&s, &blue(), &mv).is_ok(),
        "far round the ravine"
    );
}

#[test]
fn ch1_ch4_the_string_from_the_cinc_goes_round_impassable_ground() {
    let mut s = table();
    place(&mut s, "b-i1", 20.0, 17.0, 0.0, Formation::Line);
    s.armies.get_mut(&blue()).unwrap().cinc = Some(Point::new(20.0, 12.0));
    let d = |s: &State| {
        let f = check_force(s, &blue(), &["b-i1".to_string()]).unwrap();
        activation_distance(s, &blue(), &f).unwrap()
    };
    let straight = d(&s);
    assert!((straight - 4.25).abs() < 1e-6, "{straight}");
    s.scenario.terrain.push(ravine());
    let round = d(&s);
    assert!(round > 15.0, "round the ravine: {round}");
}

#[test]
fn ch1_units_across_a_ravine_are_not_within_two_bw_for_a_force() {
    let mut s = table();
    place(&mut s, "b-i1", 20.0, 13.5, 0.0, Formation::Line);
    place(&mut s, "b-i2", 20.0, 16.0, 0.0, Formation::Line);
    let ids = ["b-i1".to_string(), "b-i2".to_string()];
    assert!(check_force(&s, &blue(), &ids).is_ok(), "1.75 BW apart");
    s.scenario.terrain.push(ravine());
    let e = check_force(&s, &blue(), &ids).expect_err("the ravine parts them");
    assert!(e.message.contains("within 2 BW"), "{}", e.message);
}

// ---------------------------------------------------------------------
// 3. The CinC is displaced when enemy bases move through him (chapter 6)
// ---------------------------------------------------------------------

fn march_through_red_cinc(red_hand: &[&str]) -> (State, String) {
    let mut s = table();
    place(&mut s, "b-i1", 20.0, 12.0, 0.0, Formation::Line);
    s.armies.get_mut(&blue()).unwrap().cinc = Some(Point::new(20.0, 9.0));
    s.armies.get_mut(&red()).unwrap().cinc = Some(Point::new(20.0, 14.0));
    hand(&mut s, &blue(), &["c39"]);
    hand(&mut s, &red(), red_hand);
    let o = "round: {command: {march: {force: [b-i1], cards: [c39], moves: [{unit: b-i1, steps: [{forward: 4}]}]}}}";
    let (after, text, _) = resolve_logged(&s, &blue(), o, vec![]);
    (after, text)
}

#[test]
fn ch6_enemy_bases_marching_through_the_cinc_displace_him_and_cost_a_morale_point_without_cards() {
    let (s, text) = march_through_red_cinc(&[]);
    // Blue's line ends at y 16 with its rear at 15.25: it passed over the
    // marker at y 14 and does not end on him.
    assert!(text.contains("b-i1) moves 4.0 BW"), "{text}");
    let c = s.armies[&red()].cinc.unwrap();
    assert!(
        c.distance_to(Point::new(20.0, 14.0)).get() >= 0.99,
        "{c:?}\n{text}"
    );
    assert!(text.contains("Red's CinC is displaced"), "{text}");
    assert_eq!(
        s.armies[&red()].morale,
        1,
        "no card: a morale point: {text}"
    );
}

#[test]
fn ch6_a_cinc_displaced_by_passing_enemies_costs_one_card_when_there_is_one() {
    let (s, text) = march_through_red_cinc(&["c01", "c39"]);
    assert_eq!(s.armies[&red()].morale, 2, "{text}");
    assert_eq!(
        s.armies[&red()].hand,
        vec!["c39".to_string()],
        "the lowest span goes: {text}"
    );
}

#[test]
fn ch6_ch8_a_charge_through_the_enemy_cinc_displaces_him() {
    let mut s = table();
    place(&mut s, "b-c1", 20.0, 10.0, 0.0, Formation::Line);
    place(&mut s, "r-i1", 20.0, 13.0, 180.0, Formation::Line);
    s.armies.get_mut(&blue()).unwrap().cinc = Some(Point::new(20.0, 8.0));
    // Between the charger and its target.
    s.armies.get_mut(&red()).unwrap().cinc = Some(Point::new(20.0, 11.5));
    hand(&mut s, &blue(), &["c39"]);
    let o = "round: {command: {charge: {force: [b-c1], cards: [c39], charges: [{unit: b-c1, target: r-i1}]}}}";
    assert!(
        check(&s, &blue(), o).is_empty(),
        "{}",
        rules_of(&check(&s, &blue(), o))
    );
    let (after, text, _) = resolve_logged(&s, &blue(), o, vec![6, 1]);
    assert!(
        text.contains("Enemy bases move through Red's CinC"),
        "{text}"
    );
    let c = after.armies[&red()].cinc.unwrap();
    assert!(c.distance_to(Point::new(20.0, 11.5)).get() >= 0.99, "{c:?}");
    assert_eq!(after.armies[&red()].morale, 1, "no card: {text}");
}

// ---------------------------------------------------------------------
// 4. The active side picks and chooses its volleys (chapter 7)
// ---------------------------------------------------------------------

#[test]
fn ch7_the_active_side_picks_which_of_its_units_fire_in_the_volley_phase() {
    let mut s = table();
    place(&mut s, "b-i1", 10.0, 10.0, 0.0, Formation::Line);
    place(&mut s, "b-i2", 20.0, 10.0, 0.0, Formation::Line);
    place(&mut s, "r-i1", 10.0, 12.0, 180.0, Formation::Line);
    place(&mut s, "r-i2", 20.0, 12.0, 180.0, Formation::Line);
    let o = "round: {volleys: [b-i2], command: pass}";
    assert!(
        check(&s, &blue(), o).is_empty(),
        "{}",
        rules_of(&check(&s, &blue(), o))
    );
    let r = resolve(&s, &blue(), o, vec![2; 16]);
    let fire = &r.state.detail.fire;
    assert!(
        fire[0].shots.iter().all(|x| x.shooter == "b-i2"),
        "{fire:?}"
    );
    assert_eq!(fire[0].shots.len(), 4);
    assert!(!r.state.unit("b-i1").unwrap().fired, "b-i1 holds its fire");
    // The passive side still returns fire: the phase was invoked.
    assert_eq!(fire.len(), 2);
    assert!(!fire[1].shots.is_empty());
    // `true` is still every unit, `false` no phase.
    let r = resolve(
        &s,
        &blue(),
        "round: {volleys: true, command: pass}",
        vec![2; 24],
    );
    assert!(r.state.unit("b-i1").unwrap().fired && r.state.unit("b-i2").unwrap().fired);
    let r = resolve(
        &s,
        &blue(),
        "round: {volleys: false, command: pass}",
        vec![],
    );
    assert!(r.state.detail.fire.is_empty());
}

#[test]
fn ch7_a_volley_list_names_only_units_of_ones_own_that_can_shoot() {
    let mut s = table();
    place(&mut s, "b-i1", 10.0, 10.0, 0.0, Formation::Line);
    place(&mut s, "b-c1", 20.0, 10.0, 0.0, Formation::Line);
    place(&mut s, "r-i1", 10.0, 12.0, 180.0, Formation::Line);
    let v = check(
        &s,
        &blue(),
        "round: {volleys: [r-i1, b-c1, b-i1, b-i1], command: pass}",
    );
    let units: Vec<_> = v.iter().filter_map(|x| x.unit.clone()).collect();
    assert_eq!(units, vec!["r-i1", "b-c1", "b-i1"], "{}", rules_of(&v));
    assert!(v.iter().all(|x| x.rule.starts_with("7.")));
    assert!(!check(&s, &blue(), "round: {volleys: [], command: pass}").is_empty());
}

// ---------------------------------------------------------------------
// 5. Smoke (chapters 4, 6 and 7): docs/rulesets/maurice-lite.md, "Smoke"
// ---------------------------------------------------------------------

#[test]
fn ch4_ch6_smoke_a_gun_that_fired_in_the_volleys_may_march_that_round_only_to_clear_it() {
    let mut s = table();
    place(&mut s, "b-a1", 10.0, 8.0, 0.0, Formation::Battery);
    place(&mut s, "r-i1", 10.0, 11.0, 180.0, Formation::Line);
    hand(&mut s, &blue(), &["c39"]);
    let o = "round: {volleys: true, command: {march: {force: [b-a1], cards: fewest, moves: [{unit: b-a1, steps: [{path: [{x: 10, y: 7}]}]}]}}}";
    assert!(
        check(&s, &blue(), o).is_empty(),
        "{}",
        rules_of(&check(&s, &blue(), o))
    );
    let r = resolve(&s, &blue(), o, vec![1; 12]);
    let gun = r.state.unit("b-a1").unwrap();
    assert!(gun.fired, "{}", texts(&r));
    assert!(!gun.smoke, "the March clears the smoke: {}", texts(&r));
    assert_eq!(
        gun.anchor,
        Some(Point::new(10.0, 8.0)),
        "and does not move it"
    );
    assert!(
        texts(&r).contains("marches only to clear its smoke"),
        "{}",
        texts(&r)
    );
}

#[test]
fn ch7_a_gun_that_fired_in_the_volleys_may_not_be_activated_for_anything_else() {
    let mut s = table();
    place(&mut s, "b-a1", 10.0, 8.0, 0.0, Formation::Battery);
    place(&mut s, "r-i1", 10.0, 11.0, 180.0, Formation::Line);
    s.unit_mut("b-a1").unwrap().disruption = 1;
    hand(&mut s, &blue(), &["c39"]);
    let o = "round: {volleys: true, command: {rally: {force: [b-a1], cards: fewest}}}";
    let r = resolve(&s, &blue(), o, vec![1; 12]);
    assert!(
        texts(&r).contains("fired in the volley phase and may not be activated"),
        "{}",
        texts(&r)
    );
    assert!(r.state.unit("b-a1").unwrap().smoke, "the smoke stays");
}

// ---------------------------------------------------------------------
// 6. Refusals name the right thing
// ---------------------------------------------------------------------

#[test]
fn ch1_a_force_refused_for_a_unit_out_of_reach_names_that_unit() {
    let mut s = table();
    place(&mut s, "b-i1", 10.0, 10.0, 0.0, Formation::Line);
    place(&mut s, "b-i2", 15.0, 10.0, 0.0, Formation::Line);
    place(&mut s, "b-i3", 25.0, 10.0, 0.0, Formation::Line);
    // The unit out of reach is listed first.
    let ids: Vec<String> = ["b-i3", "b-i1", "b-i2"]
        .iter()
        .map(|x| x.to_string())
        .collect();
    let e = check_force(&s, &blue(), &ids).expect_err("b-i3 is 6 BW off");
    assert_eq!(e.unit.as_deref(), Some("b-i3"), "{}", e.message);
    assert!(
        e.message
            .starts_with("Blue Foot 3 (b-i3) is not within 2 BW"),
        "{}",
        e.message
    );
}

#[test]
fn ch6_a_gun_ending_near_the_enemy_is_refused_under_the_artillery_rule() {
    let mut s = table();
    place(&mut s, "b-a1", 20.0, 8.0, 0.0, Formation::Battery);
    place(&mut s, "r-i1", 20.0, 14.0, 180.0, Formation::Line);
    let mv = UnitMove {
        unit: "b-a1".into(),
        steps: vec![Step::Path(vec![Point::new(20.0, 11.0)])],
    };
    let e = march::plan(&s, &blue(), &mv).expect_err("3 BW ending near");
    assert_eq!(e.rule, march::rule::ARTILLERY, "{}", e.message);
}

#[test]
fn ch2_the_report_of_the_round_that_ends_the_game_names_that_round() {
    let mut s = table();
    s.round = 6;
    s.armies.get_mut(&blue()).unwrap().morale = 1;
    // Blue's CinC under his own troops with no card: his last morale point.
    place(&mut s, "b-i1", 20.0, 1.5, 0.0, Formation::Line);
    s.piles.draw.clear();
    let r = resolve(&s, &blue(), "round: {command: pass}", vec![]);
    assert!(matches!(r.state.phase, Phase::Over(_)), "{}", texts(&r));
    let heading = Ruleset::due(&MauriceLite, &r.state).heading;
    assert!(heading.starts_with("Game over after round 6:"), "{heading}");
}

// ---------------------------------------------------------------------
// 7. Wheel direction (chapter 6, Wheeling): the schema says what the code does
// ---------------------------------------------------------------------

#[test]
fn ch6_the_wheel_turns_the_way_the_orders_schema_says() {
    // Doc lines reach the schema joined by newlines: read it as prose.
    let schema = AnyRuleset::orders_schema(&MauriceLite)
        .to_string()
        .replace("\\n", " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        schema.contains(
            "the left end comes forward and the unit turns to its right: clockwise seen from above"
        ) && schema.contains("(its facing grows by the degrees)"),
        "the schema states the direction"
    );
    let mut s = table();
    let facing_after = |s: &mut State, pivot: Side2, backward: bool| {
        place(s, "b-i1", 20.0, 10.0, 0.0, Formation::Line);
        let mv = UnitMove {
            unit: "b-i1".into(),
            steps: vec![Step::Wheel(Wheel {
                pivot,
                degrees: 20.0,
                backward,
            })],
        };
        march::plan(s, &blue(), &mv)
            .unwrap()
            .facing
            .normalized()
            .degrees()
    };
    let close = |a: f64, b: f64| (a - b).abs() < 1e-6;
    assert!(
        close(facing_after(&mut s, Side2::Right, false), 20.0),
        "clockwise"
    );
    assert!(
        close(facing_after(&mut s, Side2::Left, false), 340.0),
        "anticlockwise"
    );
    assert!(
        close(facing_after(&mut s, Side2::Right, true), 340.0),
        "backward, right: anticlockwise"
    );
    assert!(
        close(facing_after(&mut s, Side2::Left, true), 20.0),
        "backward, left: clockwise"
    );
}

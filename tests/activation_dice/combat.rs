//! Melee, Musketry and Bombardment Attacks: the bands, the even-roll
//! rules, the modifiers, canister.

use super::common::*;
use galloper::rulesets::activation_dice::combat::{Band, band};
use galloper::rulesets::activation_dice::orders::Action;
use galloper::rulesets::activation_dice::state::Formation;
use galloper::rulesets::activation_dice::turn::begin;

fn why(e: &galloper::event::Event) -> Vec<(String, i32)> {
    e.facts
        .modifiers
        .iter()
        .map(|m| (m.why.clone(), m.value))
        .collect()
}

#[test]
fn melee_attacks_result_bands() {
    assert_eq!(band(2, 5), Band::Repulsed, "defender more than double");
    assert_eq!(
        band(2, 4),
        Band::Held,
        "exactly double is not more than double"
    );
    assert_eq!(band(3, 3), Band::Held, "defender at least the attacker");
    assert_eq!(band(4, 3), Band::Edge);
    assert_eq!(band(4, 2), Band::Edge, "exactly double");
    assert_eq!(band(5, 2), Band::Double);
    assert_eq!(band(6, 2), Band::Double, "exactly triple");
    assert_eq!(band(7, 2), Band::Triple);
    // House rule: a total below 0 counts as 0.
    assert_eq!(band(1, -2), Band::Triple);
    assert_eq!(band(0, 0), Band::Held);
}

/// Blue's foot in column at (20, 40) touching Red's foot face to face.
fn locked() -> galloper::rulesets::activation_dice::state::State {
    let mut s = table();
    put(&mut s, "b-inf", 20.0, 40.0, 0.0, Formation::Column);
    put(&mut s, "r-inf", 20.0, 40.0, 180.0, Formation::Column);
    begin(&mut s, 1, &blue());
    s
}

#[test]
fn melee_attacks_defender_more_than_double_disorders_and_recoils_the_attacker() {
    let s = locked();
    // Blue seizes (defender -1): 1 + 1 = 2 against 6 + 1 - 1 = 6: more than double.
    let o = turn(vec![activation(
        "b-inf",
        2,
        vec![Action::Seize("r-inf".into())],
    )]);
    let r = run(&s, &blue(), o, vec![5, 5, 1, 6]);
    assert_eq!(unit(&r.state, "b-inf").disorder, 1);
    assert!(
        (at(&r.state, "b-inf").y - 35.0).abs() < 1e-6,
        "recoils 1 short"
    );
    let m = find(&r.events, "melee");
    assert!(why(m).contains(&("Red Foot: the enemy seized the initiative".into(), -1)));
}

#[test]
fn melee_attacks_even_rolls_decide_the_close_bands() {
    let s = locked();
    let o = turn(vec![activation(
        "b-inf",
        2,
        vec![Action::Seize("r-inf".into())],
    )]);
    // 3 + 1 = 4 against 4 + 1 - 1 = 4: the defender holds, and rolled even.
    let r = run(&s, &blue(), o.clone(), vec![5, 5, 3, 4]);
    assert_eq!(unit(&r.state, "b-inf").disorder, 1);
    // 3 + 1 = 4 against 3 + 1 - 1 = 3: defender odd holds nothing; attacker
    // higher but odd: no disorder.
    let r = run(&s, &blue(), o.clone(), vec![5, 5, 3, 3]);
    assert_eq!(unit(&r.state, "r-inf").disorder, 0);
    // 4 + 1 = 5 against 3: higher, even: the defender takes 1.
    let r = run(&s, &blue(), o, vec![5, 5, 4, 3]);
    assert_eq!(unit(&r.state, "r-inf").disorder, 1);
}

#[test]
fn melee_attacks_modifiers_charging_cavalry_and_the_rear() {
    let mut s = table();
    // Blue's horse 4 cm behind Red's foot, which faces south.
    put(&mut s, "r-inf", 40.0, 30.0, 180.0, Formation::Line);
    put(&mut s, "b-cav", 40.0, 37.0, 180.0, Formation::Mounted);
    put(&mut s, "r-gun", 10.0, 55.0, 180.0, Formation::Limbered);
    // Horse facing south, away from Blue's edge: it charges Red's rear.
    let o = turn(vec![activation(
        "b-cav",
        1,
        vec![Action::Move(
            galloper::rulesets::activation_dice::orders::Goal::Ahead(100.0),
        )],
    )]);
    let r = run(&s, &blue(), o, vec![5, 1, 1, 3, 3]);
    let m = find(&r.events, "melee");
    let w = why(m);
    assert!(
        w.contains(&("Blue Horse: cavalry charging".into(), 2)),
        "{w:?}"
    );
    assert!(
        w.contains(&("Red Foot: attacked from the rear".into(), -2)),
        "{w:?}"
    );
    assert!(w.contains(&("Red Foot: line".into(), -2)), "{w:?}");
}

#[test]
fn infantry_formations_square_is_plus_3_against_cavalry_in_melee() {
    let mut s = table();
    put(&mut s, "r-inf", 40.0, 30.0, 180.0, Formation::Square);
    put(&mut s, "b-cav", 40.0, 22.0, 0.0, Formation::Mounted);
    let o = turn(vec![activation(
        "b-cav",
        2,
        vec![Action::Seize("r-inf".into())],
    )]);
    // 4 + 1 + 2 charging = 7 against 4 + 1 + 3 - 1 seized = 7.
    let r = run(&s, &blue(), o, vec![5, 4, 4, 4]);
    let w = why(find(&r.events, "melee"));
    assert!(
        w.contains(&("Red Foot: square against cavalry".into(), 3)),
        "{w:?}"
    );
}

#[test]
fn musketry_attacks_short_range_plus_1_long_minus_1_and_cover() {
    let mut s = table();
    put(&mut s, "b-inf", 20.0, 30.0, 0.0, Formation::Line);
    // 4 cm: short range.
    put(&mut s, "r-inf", 20.0, 34.0, 180.0, Formation::Line);
    let fire = turn(vec![activation(
        "b-inf",
        1,
        vec![Action::Fire("r-inf".into())],
    )]);
    let r = run(&s, &blue(), fire.clone(), vec![5, 3, 3]);
    assert!(why(find(&r.events, "fire")).contains(&("Blue Foot: short range".into(), 1)));
    // 14 cm: long range (beyond 1 M, within 1 L).
    put(&mut s, "r-inf", 20.0, 44.0, 180.0, Formation::Line);
    let r = run(&s, &blue(), fire.clone(), vec![5, 3, 3]);
    assert!(why(find(&r.events, "fire")).contains(&("Blue Foot: long range".into(), -1)));
    // Beyond 1 L: no shot.
    put(&mut s, "r-inf", 20.0, 46.0, 180.0, Formation::Line);
    let r = run(&s, &blue(), fire.clone(), vec![5]);
    assert!(has(&r.events, "refused"));
    // In the wood (x 0-10, y 25-35): light cover +1.
    put(&mut s, "b-inf", 12.0, 20.0, 0.0, Formation::Column);
    put(&mut s, "r-inf", 6.0, 30.0, 180.0, Formation::Column);
    let r = run(&s, &blue(), fire, vec![5, 3, 3]);
    let w = why(find(&r.events, "fire"));
    assert!(w.contains(&("Red Foot: light cover".into(), 1)), "{w:?}");
    assert!(
        w.contains(&("Blue Foot: column".into(), -2)),
        "column -2 shooting: {w:?}"
    );
}

#[test]
fn musketry_attacks_a_higher_attacker_disorders_on_an_even_roll_and_double_rolls_critical() {
    let mut s = table();
    put(&mut s, "b-inf", 20.0, 30.0, 0.0, Formation::Line);
    put(&mut s, "r-inf", 20.0, 38.0, 180.0, Formation::Line);
    let fire = turn(vec![activation(
        "b-inf",
        1,
        vec![Action::Fire("r-inf".into())],
    )]);
    // 4 + 2 = 6 against 3 + 2 = 5: higher, even: 1 disorder.
    let r = run(&s, &blue(), fire.clone(), vec![5, 4, 3]);
    assert_eq!(unit(&r.state, "r-inf").disorder, 1);
    assert!(!has(&r.events, "critical"));
    // 5 + 2 = 7 against 3 + 2 = 5: odd, no effect.
    let r = run(&s, &blue(), fire.clone(), vec![5, 5, 3]);
    assert_eq!(unit(&r.state, "r-inf").disorder, 0);
    // Red in column (-2): 6 + 2 = 8 against 1 + 2 - 2 = 1: more than triple.
    put(&mut s, "r-inf", 20.0, 38.0, 180.0, Formation::Column);
    let r = run(&s, &blue(), fire, vec![5, 6, 1, 5, 5]);
    assert_eq!(unit(&r.state, "r-inf").disorder, 2);
    assert_eq!(find(&r.events, "critical").facts.hits, Some(10));
    assert!(unit(&r.state, "r-inf").status.wavering);
}

#[test]
fn bombardment_attacks_ranges_in_mediums_and_heavy_cover_only() {
    let mut s = table();
    put(&mut s, "r-gun", 40.0, 50.0, 180.0, Formation::Unlimbered);
    put(&mut s, "b-inf", 40.0, 42.0, 0.0, Formation::Line);
    let fire = turn(vec![activation(
        "r-gun",
        1,
        vec![Action::Fire("b-inf".into())],
    )]);
    s.phase = galloper::rulesets::activation_dice::state::Phase::Turn {
        turn: 1,
        side: red(),
    };
    // 8 cm: within 1 M, +1.
    let r = run(&s, &red(), fire.clone(), vec![5, 3, 3]);
    assert!(why(find(&r.events, "fire")).contains(&("Red Guns: target within 1 M".into(), 1)));
    // 24 cm: 2 M to 3 M, -1.
    put(&mut s, "b-inf", 40.0, 26.0, 0.0, Formation::Line);
    let r = run(&s, &red(), fire.clone(), vec![5, 3, 3]);
    assert!(why(find(&r.events, "fire")).contains(&("Red Guns: target at 2 M to 3 M".into(), -1)));
    // Limbered guns do not fire.
    put(&mut s, "r-gun", 40.0, 50.0, 180.0, Formation::Limbered);
    let r = run(&s, &red(), fire, vec![5]);
    assert!(has(&r.events, "refused"));
}

#[test]
fn bombardment_attacks_minus_1_from_2m_to_3m_counts_2m_itself() {
    let mut s = table();
    s.phase = galloper::rulesets::activation_dice::state::Phase::Turn {
        turn: 1,
        side: red(),
    };
    put(&mut s, "r-gun", 40.0, 50.0, 180.0, Formation::Unlimbered);
    let fire = turn(vec![activation(
        "r-gun",
        1,
        vec![Action::Fire("b-inf".into())],
    )]);
    // Exactly 2 M (20 cm) edge to edge: the -1 of 2 M to 3 M.
    put(&mut s, "b-inf", 40.0, 30.0, 0.0, Formation::Line);
    let r = run(&s, &red(), fire.clone(), vec![5, 3, 3]);
    let mods = why(find(&r.events, "fire"));
    assert!(
        mods.contains(&("Red Guns: target at 2 M to 3 M".into(), -1)),
        "{mods:?}"
    );
    // Exactly 1 M (10 cm): the +1 of 0 to 1 M.
    put(&mut s, "b-inf", 40.0, 40.0, 0.0, Formation::Line);
    let r = run(&s, &red(), fire, vec![5, 3, 3]);
    let mods = why(find(&r.events, "fire"));
    assert!(
        mods.contains(&("Red Guns: target within 1 M".into(), 1)),
        "{mods:?}"
    );
}

#[test]
fn bombardment_attacks_canister_turns_every_disorder_into_a_critical_roll() {
    let mut s = table();
    s.phase = galloper::rulesets::activation_dice::state::Phase::Turn {
        turn: 1,
        side: red(),
    };
    put(&mut s, "r-gun", 40.0, 50.0, 180.0, Formation::Unlimbered);
    put(&mut s, "b-inf", 40.0, 42.0, 0.0, Formation::Line);
    let o = turn(vec![activation(
        "r-gun",
        3,
        vec![Action::Canister, Action::Fire("b-inf".into())],
    )]);
    // 4 + 3 + 1 = 8 against 5 + 2 = 7: higher, even: 1 disorder, and with
    // canister a critical roll (3 + 3: devastating volley).
    let r = run(&s, &red(), o, vec![5, 5, 5, 4, 5, 3, 3]);
    assert_eq!(
        find(&r.events, "fire").facts.mode.as_deref(),
        Some("canister")
    );
    assert_eq!(unit(&r.state, "b-inf").disorder, 1);
    assert!(has(&r.events, "critical"));
    assert!(!unit(&r.state, "r-gun").canister, "spent");
}

#[test]
fn melee_attacks_modifiers_uphill_and_flank() {
    use galloper::geometry::{Point, Shape, TerrainFeature, TerrainTag};
    let mut s = table();
    // Red's foot faces south at (40, 30); Blue's horse comes at its east
    // flank, from a hill.
    put(&mut s, "r-inf", 40.0, 30.0, 180.0, Formation::Column);
    put(&mut s, "b-cav", 50.0, 31.5, 270.0, Formation::Mounted);
    s.scenario.terrain = vec![TerrainFeature {
        id: "hill".into(),
        name: "hill".into(),
        tags: vec![TerrainTag::Hill],
        elevation: Some(1.0),
        shape: Shape::Polygon {
            points: vec![
                Point::new(43.5, 20.0),
                Point::new(60.0, 20.0),
                Point::new(60.0, 40.0),
                Point::new(43.5, 40.0),
            ],
        },
    }];
    let o = turn(vec![activation(
        "b-cav",
        2,
        vec![Action::Seize("r-inf".into())],
    )]);
    let r = run(&s, &blue(), o, vec![5, 5, 1, 6]);
    let w = why(find(&r.events, "melee"));
    assert!(w.contains(&("Blue Horse: uphill".into(), 1)), "{w:?}");
    assert!(w.contains(&("Red Foot: flanked".into(), -1)), "{w:?}");
}

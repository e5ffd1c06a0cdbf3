//! B.2, B.4, B.5, the terrain effects of section C and E.7: shooting.

use crate::common::*;
use galloper::dice::Dice;
use galloper::geometry::{Distance, Point};
use galloper::rulesets::morschauser_macduff::orders::{Action, Fallback, PathStep, Sequence};
use galloper::rulesets::morschauser_macduff::scenario::TerrainKind;
use galloper::rulesets::morschauser_macduff::shooting::{self, judge};
use galloper::rulesets::morschauser_macduff::state::State;
use galloper::rulesets::morschauser_macduff::units::{
    FireKind, GunVariant, Quality, TroopType, Weapon, apply_qualities, apply_variant, chart,
};

/// What one company's shooting did: the state, the events and the dice log.
struct Shot {
    state: State,
    texts: Vec<String>,
    dice: Vec<(u32, String)>,
}

fn shoot_with(s: &State, a: Action, dice: Vec<u32>) -> Shot {
    let mut state = s.clone();
    let mut d = Dice::scripted(dice);
    let mut events = Vec::new();
    let id = a.company.clone().expect("a company");
    shooting::shoot(&mut state, &id, &a, &mut d, &mut events);
    Shot {
        state,
        texts: events.into_iter().map(|e| e.text).collect(),
        dice: d
            .log()
            .iter()
            .map(|r| (r.value, r.purpose.clone()))
            .collect(),
    }
}

fn at(id: &str, target: &str) -> Action {
    Action {
        target: Some(target.into()),
        sequence: Sequence::ShootOnly,
        ..action(id)
    }
}

fn shoot(s: &State, id: &str, target: &str, dice: Vec<u32>) -> Shot {
    shoot_with(s, at(id, target), dice)
}

fn has(texts: &[String], needle: &str) -> bool {
    texts.iter().any(|t| t.contains(needle))
}

fn set_gun(s: &mut State, id: &str, v: GunVariant) {
    for side in &mut s.scenario.sides {
        for c in side.companies.iter_mut().filter(|c| c.id == id) {
            c.gun = v;
        }
    }
    let c = s.company_mut(id).unwrap();
    c.profile = chart(TroopType::Artillery, Weapon::Cannon).unwrap();
    apply_variant(&mut c.profile, v);
}

#[test]
fn b4_one_die_per_strength_point_musket_hits_on_5_or_6() {
    let mut s = clear();
    place(&mut s, "b-li", 10.0, 5.0, 0.0);
    place(&mut s, "r-li", 10.0, 10.0, 180.0);
    let r = shoot(&s, "b-li", "r-li", vec![5, 4, 6, 1]);
    assert_eq!(r.dice.len(), 4, "{:?}", r.dice);
    assert!(
        r.dice[0]
            .1
            .contains("4 SP, musket at Red Line (r-li) (5.0 in): hits on 5-6")
    );
    let red = r.state.company("r-li").unwrap();
    assert_eq!((red.hits, red.strength()), (2, 2));
    assert!(has(&r.texts, "2 hits"), "{:?}", r.texts);
    // A damaged company rolls fewer dice.
    let mut s2 = s.clone();
    s2.company_mut("b-li").unwrap().hits = 3;
    assert_eq!(shoot(&s2, "b-li", "r-li", vec![6]).dice.len(), 1);
}

#[test]
fn a1_a_company_at_0_strength_is_removed() {
    let mut s = clear();
    place(&mut s, "b-li", 10.0, 5.0, 0.0);
    place(&mut s, "r-li", 10.0, 10.0, 180.0);
    s.company_mut("r-li").unwrap().hits = 3;
    let r = shoot(&s, "b-li", "r-li", vec![6, 1, 1, 1]);
    assert!(r.state.company("r-li").unwrap().destroyed);
    assert_eq!(r.state.losses.get(&red()), Some(&1));
    assert!(has(&r.texts, "destroyed"));
}

#[test]
fn a4_hit_scores_per_weapon_and_quality() {
    let mut s = clear();
    place(&mut s, "b-lt", 10.0, 5.0, 0.0);
    place(&mut s, "r-li", 10.0, 10.0, 180.0);
    let score = |s: &State| {
        let c = s.company("b-lt").unwrap();
        judge(s, c, "r-li").unwrap().hits_on
    };
    let rows = [
        (TroopType::LineInfantry, Weapon::Musket, 5),
        (TroopType::LineInfantry, Weapon::Rifle, 5),
        (TroopType::LightInfantry, Weapon::Musket, 5),
        (TroopType::LightCavalry, Weapon::Carbine, 6),
        (TroopType::Engineers, Weapon::Musket, 6),
        (TroopType::Engineers, Weapon::Rifle, 6),
        (TroopType::Artillery, Weapon::Cannon, 2),
    ];
    for (t, w, want) in rows {
        s.company_mut("b-lt").unwrap().profile = chart(t, w).unwrap();
        assert_eq!(score(&s), want, "{t:?} {w:?}");
    }
    let mut p = chart(TroopType::LightInfantry, Weapon::Rifle).unwrap();
    apply_qualities(&mut p, &[Quality::Sharpshooter]);
    s.company_mut("b-lt").unwrap().profile = p.clone();
    assert_eq!(score(&s), 4);
    apply_qualities(&mut p, &[Quality::InferiorFirepower]);
    s.company_mut("b-lt").unwrap().profile = p;
    assert_eq!(score(&s), 6);
}

#[test]
fn b4_artillery_uses_canister_close_and_shot_beyond() {
    let mut s = clear();
    place(&mut s, "b-art", 40.0, 5.0, 0.0);
    place(&mut s, "r-li", 40.0, 15.0, 180.0);
    let gun = |s: &State| judge(s, s.company("b-art").unwrap(), "r-li");
    let close = gun(&s).unwrap();
    assert_eq!((close.fire.kind, close.hits_on), (FireKind::Canister, 2));
    place(&mut s, "r-li", 40.0, 17.0, 180.0);
    assert_eq!(gun(&s).unwrap().fire.kind, FireKind::Canister);
    place(&mut s, "r-li", 40.0, 17.5, 180.0);
    let far = gun(&s).unwrap();
    assert_eq!((far.fire.kind, far.hits_on), (FireKind::ShotShell, 4));
    let r = shoot(&s, "b-art", "r-li", vec![4, 3]);
    assert!(r.dice[0].1.contains("shot and shell"), "{:?}", r.dice);
    assert_eq!(r.state.company("r-li").unwrap().hits, 1);
    place(&mut s, "r-li", 40.0, 41.5, 180.0);
    assert!(gun(&s).unwrap_err().contains("beyond its 36 in range"));
}

#[test]
fn b4_out_of_range_falls_back_to_holding_fire() {
    let mut s = clear();
    place(&mut s, "b-li", 10.0, 5.0, 0.0);
    place(&mut s, "r-li", 10.0, 11.5, 180.0);
    let r = shoot(&s, "b-li", "r-li", vec![6, 6, 6, 6]);
    assert!(r.dice.is_empty());
    assert!(has(&r.texts, "beyond its 6 in range"), "{:?}", r.texts);
    assert!(has(&r.texts, "holds its fire"));
    assert_eq!(r.state.company("r-li").unwrap().hits, 0);
}

#[test]
fn fallback_nearest_shoots_the_nearest_legal_target() {
    let mut s = clear();
    place(&mut s, "b-li", 10.0, 5.0, 0.0);
    place(&mut s, "r-li", 10.0, 20.0, 180.0);
    add_red(&mut s, "r-near", 14.0, 10.0);
    add_red(&mut s, "r-nearer", 7.0, 9.0);
    let a = Action {
        fallback: Fallback::Nearest,
        ..at("b-li", "r-li")
    };
    let r = shoot_with(&s, a, vec![6, 6, 1, 1]);
    assert!(has(&r.texts, "falls back to the nearest target"));
    assert_eq!(r.state.company("r-nearer").unwrap().hits, 2);
    assert_eq!(r.state.company("r-near").unwrap().hits, 0);
    // With no target named, `nearest` picks one too.
    let a = Action {
        target: None,
        fallback: Fallback::Nearest,
        ..at("b-li", "r-li")
    };
    let r = shoot_with(&s, a, vec![6, 1, 1, 1]);
    assert_eq!(r.state.company("r-nearer").unwrap().hits, 1);
}

#[test]
fn b4_within_3_inches_it_must_melee_instead() {
    let mut s = clear();
    place(&mut s, "b-li", 10.0, 5.0, 0.0);
    place(&mut s, "r-li", 10.0, 7.5, 180.0);
    let r = shoot(&s, "b-li", "r-li", vec![6, 6, 6, 6]);
    assert!(r.dice.is_empty());
    assert!(
        has(&r.texts, "must melee rather than shoot"),
        "{:?}",
        r.texts
    );
}

#[test]
fn b4_a_company_in_melee_cannot_be_targeted() {
    let mut s = clear();
    place(&mut s, "b-art", 40.0, 5.0, 0.0);
    place(&mut s, "r-li", 40.0, 25.0, 180.0);
    // Blue's line infantry is beside the Red company, within 3".
    place(&mut s, "b-li", 45.0, 24.0, 0.0);
    let r = shoot(&s, "b-art", "r-li", vec![6, 6]);
    assert!(r.dice.is_empty());
    assert!(has(&r.texts, "is in melee (B.4)"), "{:?}", r.texts);
    // Without the melee the same shot is taken.
    place(&mut s, "b-li", 60.0, 5.0, 0.0);
    assert_eq!(shoot(&s, "b-art", "r-li", vec![6, 6]).dice.len(), 2);
}

#[test]
fn b5_woods_block_sight_through_them() {
    let mut s = clear();
    place(&mut s, "b-art", 30.0, 8.0, 0.0);
    place(&mut s, "r-li", 30.0, 22.0, 180.0);
    let r = shoot(&s, "b-art", "r-li", vec![6, 6]);
    assert!(r.dice.is_empty());
    assert!(
        has(&r.texts, "The Wood blocks the line of sight"),
        "{:?}",
        r.texts
    );
    // Beside the wood the line is clear.
    place(&mut s, "b-art", 40.0, 8.0, 0.0);
    place(&mut s, "r-li", 40.0, 22.0, 180.0);
    assert_eq!(shoot(&s, "b-art", "r-li", vec![6, 6]).dice.len(), 2);
}

#[test]
fn b5_companies_in_between_block_sight() {
    let mut s = clear();
    place(&mut s, "b-art", 40.0, 5.0, 0.0);
    place(&mut s, "r-li", 40.0, 25.0, 180.0);
    place(&mut s, "b-li2", 40.0, 12.0, 0.0);
    let r = shoot(&s, "b-art", "r-li", vec![6, 6]);
    assert!(r.dice.is_empty());
    assert!(has(&r.texts, "Blue Line 2 (b-li2) blocks"), "{:?}", r.texts);
    place(&mut s, "b-li2", 60.0, 12.0, 0.0);
    add_red(&mut s, "r-screen", 40.0, 15.0);
    let r = shoot(&s, "b-art", "r-li", vec![6, 6]);
    assert!(has(&r.texts, "r-screen) is in the way"), "{:?}", r.texts);
}

#[test]
fn b5_guns_on_a_hill_fire_over_lower_friends_nearer_the_gun() {
    let mut s = clear();
    terrain(
        &mut s,
        "hill",
        TerrainKind::Hill {
            steep: false,
            level: 1,
        },
        rect(35.0, 0.0, 45.0, 8.0),
    );
    place(&mut s, "b-art", 40.0, 6.0, 0.0);
    place(&mut s, "r-li", 40.0, 30.0, 180.0);
    place(&mut s, "b-li2", 40.0, 12.0, 0.0);
    let r = shoot(&s, "b-art", "r-li", vec![6, 6]);
    assert_eq!(r.dice.len(), 2, "{:?}", r.texts);
    assert!(r.dice[0].1.contains("over friends"));
    // Within canister range it must still fire shot over them.
    place(&mut s, "r-li", 40.0, 16.0, 180.0);
    let shot = judge(&s, s.company("b-art").unwrap(), "r-li").unwrap();
    assert_eq!((shot.fire.kind, shot.hits_on), (FireKind::ShotShell, 4));
    place(&mut s, "r-li", 40.0, 30.0, 180.0);
    // Friends nearer the target than the gun still block.
    place(&mut s, "b-li2", 40.0, 24.0, 0.0);
    let r = shoot(&s, "b-art", "r-li", vec![6, 6]);
    assert!(r.dice.is_empty(), "{:?}", r.texts);
    // Off the hill the gun cannot fire over them.
    place(&mut s, "b-li2", 40.0, 14.0, 0.0);
    s.scenario.terrain.retain(|t| t.id != "hill");
    assert!(shoot(&s, "b-art", "r-li", vec![6, 6]).dice.is_empty());
}

#[test]
fn b5_howitzers_fire_overhead_with_shell_hitting_on_6() {
    let mut s = clear();
    set_gun(&mut s, "b-art", GunVariant::Howitzer);
    place(&mut s, "b-art", 30.0, 8.0, 0.0);
    place(&mut s, "r-li", 30.0, 22.0, 180.0);
    let r = shoot(&s, "b-art", "r-li", vec![6, 5]);
    assert!(r.dice[0].1.contains("hits on 6-6"), "{:?}", r.dice);
    assert!(r.dice[0].1.contains("overhead"));
    assert_eq!(r.state.company("r-li").unwrap().hits, 1);
    // Over a friend too, even close in, still shell on 6.
    place(&mut s, "b-art", 40.0, 5.0, 0.0);
    place(&mut s, "b-li2", 40.0, 10.0, 0.0);
    place(&mut s, "r-li", 40.0, 14.0, 180.0);
    let shot = judge(&s, s.company("b-art").unwrap(), "r-li").unwrap();
    assert_eq!((shot.fire.kind, shot.hits_on), (FireKind::ShotShell, 6));
    // No overhead fire beyond 24".
    place(&mut s, "r-li", 40.0, 30.0, 180.0);
    let e = judge(&s, s.company("b-art").unwrap(), "r-li").unwrap_err();
    assert!(e.contains("24 in"), "{e}");
    // A field gun cannot fire over the friend.
    set_gun(&mut s, "b-art", GunVariant::Field);
    place(&mut s, "r-li", 40.0, 14.0, 180.0);
    assert!(judge(&s, s.company("b-art").unwrap(), "r-li").is_err());
}

#[test]
fn c2_target_at_a_woods_edge_is_hit_1_harder_and_deep_inside_is_hidden() {
    let mut s = clear();
    place(&mut s, "b-li", 30.0, 7.0, 0.0);
    place(&mut s, "r-li", 30.0, 11.5, 180.0);
    let r = shoot(&s, "b-li", "r-li", vec![6, 5, 5, 5]);
    assert!(
        r.dice[0].1.contains("hits on 6-6, -1 target in woods"),
        "{:?}",
        r.dice
    );
    assert_eq!(r.state.company("r-li").unwrap().hits, 1);
    // Wholly inside the wood it cannot be seen.
    place(&mut s, "b-lt", 30.0, 8.0, 0.0);
    place(&mut s, "r-li", 30.0, 15.0, 180.0);
    let e = judge(&s, s.company("b-lt").unwrap(), "r-li").unwrap_err();
    assert!(e.contains("blocks the line of sight"), "{e}");
}

#[test]
fn c3_a_target_behind_a_hill_cannot_be_shot() {
    let mut s = clear();
    terrain(
        &mut s,
        "ridge",
        TerrainKind::Hill {
            steep: false,
            level: 1,
        },
        rect(35.0, 15.0, 45.0, 20.0),
    );
    place(&mut s, "b-art", 40.0, 5.0, 0.0);
    place(&mut s, "r-li", 40.0, 25.0, 180.0);
    let e = judge(&s, s.company("b-art").unwrap(), "r-li").unwrap_err();
    assert!(e.contains("reverse slope"), "{e}");
    // From the ridge itself the gun sees it.
    place(&mut s, "b-art", 40.0, 19.0, 0.0);
    place(&mut s, "r-li", 40.0, 35.0, 180.0);
    assert!(judge(&s, s.company("b-art").unwrap(), "r-li").is_ok());
}

#[test]
fn c5_infantry_at_a_town_edge_is_hit_2_harder_1_for_heavy_guns_and_towns_burn() {
    let mut s = clear();
    terrain(
        &mut s,
        "town",
        TerrainKind::Town,
        rect(5.0, 12.0, 15.0, 20.0),
    );
    place(&mut s, "b-art", 10.0, 5.0, 0.0);
    place(&mut s, "r-li", 10.0, 10.5, 180.0);
    // Canister 2 becomes 4; one hit, then the fire die: 5, no fire.
    let r = shoot(&s, "b-art", "r-li", vec![4, 3, 5]);
    assert!(r.dice[0].1.contains("hits on 4-6"), "{:?}", r.dice);
    assert!(r.dice[2].1.contains("catch fire"), "{:?}", r.dice);
    assert!(r.state.burning.is_empty());
    // A 6 sets it burning for the rest of the game.
    let r = shoot(&s, "b-art", "r-li", vec![4, 3, 6]);
    assert!(r.state.burning.contains("town"));
    assert!(has(&r.texts, "catches fire"));
    // No hit, no fire die.
    assert_eq!(shoot(&s, "b-art", "r-li", vec![3, 3]).dice.len(), 2);
    // A heavy gun suffers only -1.
    set_gun(&mut s, "b-art", GunVariant::Heavy);
    let shot = judge(&s, s.company("b-art").unwrap(), "r-li").unwrap();
    assert_eq!(shot.hits_on, 3);
}

#[test]
fn c6_an_earthwork_is_hit_like_a_town_but_never_burns() {
    let mut s = clear();
    terrain(
        &mut s,
        "works",
        TerrainKind::Earthwork,
        rect(5.0, 12.0, 15.0, 20.0),
    );
    place(&mut s, "b-art", 10.0, 5.0, 0.0);
    place(&mut s, "r-li", 10.0, 10.5, 180.0);
    // -2 as for a town (canister 2 becomes 4); two hits and no fire die.
    let r = shoot(&s, "b-art", "r-li", vec![4, 6]);
    assert!(r.dice[0].1.contains("hits on 4-6"), "{:?}", r.dice);
    assert_eq!(r.dice.len(), 2);
    assert!(r.state.burning.is_empty());
}

#[test]
fn c7_a_covering_wall_is_minus_1() {
    let mut s = clear();
    terrain(
        &mut s,
        "wall",
        TerrainKind::LowWall { cover: true },
        line(5.0, 10.0, 15.0, 10.0, 0.5),
    );
    place(&mut s, "b-li", 10.0, 5.0, 0.0);
    place(&mut s, "r-li", 10.0, 10.0, 180.0);
    let r = shoot(&s, "b-li", "r-li", vec![5, 5, 6, 6]);
    assert!(
        r.dice[0].1.contains("hits on 6-6, -1 target behind cover"),
        "{:?}",
        r.dice
    );
    assert_eq!(r.state.company("r-li").unwrap().hits, 2);
}

/// C.7: a target whose front edge lies on the face of a covering wall
/// has the cover (issue 30).
#[test]
fn c7_a_target_flush_against_the_face_of_a_covering_wall_is_minus_1() {
    let mut s = clear();
    // The wall runs along y 9.5 to 10: Red Line's front edge is its face.
    terrain(
        &mut s,
        "wall",
        TerrainKind::LowWall { cover: true },
        line(5.0, 9.75, 15.0, 9.75, 0.5),
    );
    place(&mut s, "b-li", 10.0, 5.0, 0.0);
    place(&mut s, "r-li", 10.0, 10.0, 180.0);
    let r = shoot(&s, "b-li", "r-li", vec![5, 5, 6, 6]);
    assert!(
        r.dice[0].1.contains("hits on 6-6, -1 target behind cover"),
        "{:?}",
        r.dice
    );
    assert_eq!(r.state.company("r-li").unwrap().hits, 2);
}

/// C.6 with house rule 23: the heavy gun's 12" runs to the wall's nearest
/// face, not its centre line (issue 30).
#[test]
fn c6_a_heavy_gun_exactly_12_inches_from_the_face_of_a_wall_may_breach() {
    let mut s = clear();
    // A 1"-thick curtain: faces at y 14.5 and 15.5.
    terrain(
        &mut s,
        "curtain",
        TerrainKind::HighWall,
        line(30.0, 15.0, 50.0, 15.0, 1.0),
    );
    set_gun(&mut s, "b-art", GunVariant::Heavy);
    place(&mut s, "b-art", 40.0, 2.5, 0.0);
    let r = shoot(&s, "b-art", "curtain", vec![6]);
    assert_eq!(r.dice.len(), 1, "{:?}", r.texts);
    assert!(r.dice[0].1.contains("(12.0 in)"), "{:?}", r.dice);
    assert_eq!(r.state.breaches.len(), 1);
    place(&mut s, "b-art", 40.0, 2.4, 0.0);
    let r = shoot(&s, "b-art", "curtain", vec![6]);
    assert!(r.dice.is_empty(), "12.1 in from the face: {:?}", r.texts);
}

#[test]
fn c6_a_heavy_gun_within_12_inches_breaches_a_high_wall_on_6() {
    let mut s = clear();
    terrain(
        &mut s,
        "curtain",
        TerrainKind::HighWall,
        line(30.0, 15.0, 50.0, 15.0, 1.0),
    );
    place(&mut s, "b-art", 40.0, 5.0, 0.0);
    // A field gun cannot.
    let r = shoot(&s, "b-art", "curtain", vec![6]);
    assert!(r.dice.is_empty() && r.state.breaches.is_empty());
    set_gun(&mut s, "b-art", GunVariant::Heavy);
    let r = shoot(&s, "b-art", "curtain", vec![5]);
    assert_eq!(r.dice.len(), 1);
    assert!(r.state.breaches.is_empty());
    let r = shoot(&s, "b-art", "curtain", vec![6]);
    assert_eq!(r.state.breaches.len(), 1);
    assert!((r.state.breaches[0].at.y - 15.0).abs() < 1e-6);
    // Beyond 12" no die is rolled.
    place(&mut s, "b-art", 40.0, 2.0, 0.0);
    let r = shoot(&s, "b-art", "curtain", vec![6]);
    assert!(
        r.dice.is_empty() && r.state.breaches.is_empty(),
        "{:?}",
        r.texts
    );
}

fn fwd(id: &str, d: f64) -> Action {
    Action {
        path: vec![PathStep::Forward(Distance(d))],
        ..action(id)
    }
}

#[test]
fn b2_move_then_shoot_and_shoot_then_move_both_shoot() {
    let mut s = clear();
    place(&mut s, "b-li", 10.0, 5.0, 0.0);
    place(&mut s, "r-li", 10.0, 14.0, 180.0);
    // Out of range before the move, in range after it.
    let a = Action {
        target: Some("r-li".into()),
        ..fwd("b-li", 4.0)
    };
    let r = resolve(&s, turn(vec![a]), vec![6, 6, 1, 1]);
    assert_eq!(r.state.company("r-li").unwrap().hits, 2, "{:?}", texts(&r));
    // Shoot first (in range), then move away.
    place(&mut s, "r-li", 10.0, 10.0, 180.0);
    let a = Action {
        target: Some("r-li".into()),
        sequence: Sequence::ShootThenMove,
        path: vec![PathStep::Pivot(90.0), PathStep::Forward(Distance(6.0))],
        ..action("b-li")
    };
    let r = resolve(&s, turn(vec![a]), vec![6, 1, 1, 1]);
    assert_eq!(r.state.company("r-li").unwrap().hits, 1);
    assert!(
        r.state.company("b-li").unwrap().at.x > 15.0,
        "{:?}",
        texts(&r)
    );
}

#[test]
fn b2_road_moving_and_early_artillery_cannot_shoot_after_moving() {
    let mut s = clear();
    place(&mut s, "b-art", 40.0, 5.0, 0.0);
    place(&mut s, "r-li", 40.0, 30.0, 180.0);
    let a = Action {
        road: true,
        target: Some("r-li".into()),
        ..fwd("b-art", 6.0)
    };
    let r = resolve(&s, turn(vec![a.clone()]), vec![6, 6]);
    assert!(texts(&r).iter().any(|t| t.contains("road move")));
    assert_eq!(r.state.company("r-li").unwrap().hits, 0);
    // Without the road claim it shoots.
    let plain = Action { road: false, ..a };
    let r = resolve(&s, turn(vec![plain.clone()]), vec![6, 6]);
    assert_eq!(r.state.company("r-li").unwrap().hits, 2);
    // Early artillery may not move and shoot.
    s.company_mut("b-art").unwrap().profile.no_move_and_shoot = true;
    let r = resolve(&s, turn(vec![plain]), vec![6, 6]);
    assert!(texts(&r).iter().any(|t| t.contains("early artillery")));
    assert_eq!(r.state.company("r-li").unwrap().hits, 0);
}

fn red_general(s: &mut State, x: f64, y: f64) {
    s.generals
        .push(galloper::rulesets::morschauser_macduff::state::General {
            id: "r-gen".into(),
            name: "Lord Red".into(),
            side: red(),
            at: Point::new(x, y),
            personality: None,
            attached: None,
            killed: false,
        });
}

#[test]
fn e5_a_general_may_be_shot_only_as_the_closest_target() {
    let mut s = clear();
    place(&mut s, "b-li", 10.0, 5.0, 0.0);
    place(&mut s, "r-li", 10.0, 9.0, 180.0);
    red_general(&mut s, 14.0, 10.0);
    // The Red company is nearer: refused, and the fallback holds.
    let r = shoot(&s, "b-li", "r-gen", vec![6, 6, 6, 6]);
    assert!(r.dice.is_empty());
    assert!(has(&r.texts, "not the closest target"), "{:?}", r.texts);
    assert!(!r.state.general("r-gen").unwrap().killed);
    // Once he is the closest, he may be shot; a hit kills him.
    place(&mut s, "r-li", 30.0, 40.0, 180.0);
    let r = shoot(&s, "b-li", "r-gen", vec![1, 1, 5, 1]);
    assert_eq!(r.dice.len(), 4);
    assert!(r.state.general("r-gen").unwrap().killed, "{:?}", r.texts);
    let r = shoot(&s, "b-li", "r-gen", vec![1, 1, 4, 1]);
    assert!(!r.state.general("r-gen").unwrap().killed);
}

#[test]
fn c5_a_company_deep_inside_a_town_cannot_be_shot() {
    let mut s = clear();
    terrain(
        &mut s,
        "town",
        TerrainKind::Town,
        rect(5.0, 12.0, 15.0, 22.0),
    );
    place(&mut s, "b-art", 10.0, 5.0, 0.0);
    place(&mut s, "r-li", 10.0, 15.0, 180.0);
    let e = judge(&s, s.company("b-art").unwrap(), "r-li").unwrap_err();
    assert!(e.contains("inside a town"), "{e}");
}

#[test]
fn c5_towns_block_sight_through_them() {
    let mut s = clear();
    terrain(
        &mut s,
        "town",
        TerrainKind::Town,
        rect(5.0, 12.0, 15.0, 16.0),
    );
    place(&mut s, "b-art", 10.0, 5.0, 0.0);
    place(&mut s, "r-li", 10.0, 20.0, 180.0);
    let e = judge(&s, s.company("b-art").unwrap(), "r-li").unwrap_err();
    assert!(e.contains("The town blocks"), "{e}");
}

#[test]
fn c4_a_company_halted_in_water_cannot_shoot() {
    let mut s = clear();
    place(&mut s, "b-li", 10.0, 5.0, 0.0);
    place(&mut s, "r-li", 10.0, 10.0, 180.0);
    s.company_mut("b-li").unwrap().halted_in_water = true;
    let r = shoot(&s, "b-li", "r-li", vec![6, 6, 6, 6]);
    assert!(r.dice.is_empty());
    assert!(has(&r.texts, "C.4"));
}

#[test]
fn b4_a_target_that_is_not_an_enemy_is_refused_on_receipt() {
    let s = clear();
    let bad = |t: &str| check(&s, &blue(), &turn(vec![at("b-li", t)]));
    for t in ["b-li2", "nobody", "wood"] {
        let v = bad(t);
        assert_eq!(v.len(), 1, "{t}: {v:?}");
        assert_eq!(
            v[0].rule,
            galloper::rulesets::morschauser_macduff::check::TARGET
        );
    }
    assert_eq!(bad("r-li"), vec![]);
}

#[test]
fn b4_no_target_and_hold_is_silent() {
    let mut s = clear();
    place(&mut s, "b-li", 10.0, 5.0, 0.0);
    place(&mut s, "r-li", 10.0, 10.0, 180.0);
    let a = Action {
        target: None,
        ..at("b-li", "r-li")
    };
    let r = shoot_with(&s, a, vec![6, 6, 6, 6]);
    assert!(r.dice.is_empty() && r.texts.is_empty(), "{:?}", r.texts);
}

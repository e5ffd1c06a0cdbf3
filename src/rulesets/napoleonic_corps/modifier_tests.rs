//! One test per modifier of the firing table and the melee modifiers: each
//! builds the plain case and the case with the modifier's condition, and
//! asserts that the condition adds exactly that modifier at that value.

use super::formation::Formation;
use super::state::State;
use super::tables::Troop;
use super::tests::{Setup, ground};
use super::{fire, melee};
use crate::geometry::TerrainTag;

type Mods = Vec<(String, i32)>;

fn pairs(m: Vec<crate::event::Modifier>) -> Mods {
    m.into_iter().map(|m| (m.why, m.value)).collect()
}

/// What `after` has that `before` lacks, and what it lost.
fn delta(before: &Mods, after: &Mods) -> (Mods, Mods) {
    let added = after.iter().filter(|m| !before.contains(m)).cloned();
    let lost = before.iter().filter(|m| !after.contains(m)).cloned();
    (added.collect(), lost.collect())
}

fn one(why: &str, value: i32) -> Mods {
    vec![(why.to_string(), value)]
}

/// The firer's and target's modifiers of `f` firing at `t` (with `w`).
fn fire_mods(s: &State, f: &str, t: &str, w: Option<&str>) -> Mods {
    let (f, t) = (s.unit(f).unwrap(), s.unit(t).unwrap());
    let w = w.map(|w| s.unit(w).unwrap());
    pairs(fire::modifiers(s, f, t, s.gap(f, t), w))
}

/// The French line in column at musket range of the Austrian line, which
/// faces it: only the firer's own fire mod applies.
fn at_musket_range() -> Setup {
    Setup::new()
        .detach_generals()
        .at("fr-line", 40.0, 20.0, 0.0, Formation::Column)
        .at("au-line", 40.0, 24.0, 180.0, Formation::Line)
}

/// What `change` adds to the plain case's fire modifiers (nothing lost).
fn fire_added(change: impl FnOnce(Setup) -> Setup) -> Mods {
    let plain = fire_mods(&at_musket_range().state(), "fr-line", "au-line", None);
    assert_eq!(plain, one("line infantry fire mod", 1));
    let changed = fire_mods(
        &change(at_musket_range()).state(),
        "fr-line",
        "au-line",
        None,
    );
    let (added, lost) = delta(&plain, &changed);
    assert!(lost.is_empty(), "lost {lost:?}");
    added
}

#[test]
fn firing_table_firers_fire_mod_from_the_national_table() {
    // Firing table: "Firer's Fire mod +/-x" (French conscripts -1, Guard 2).
    let s = at_musket_range().troop("fr-line", Troop::Conscript).state();
    assert_eq!(
        fire_mods(&s, "fr-line", "au-line", None),
        one("conscripts fire mod", -1)
    );
    let s = at_musket_range().troop("fr-line", Troop::Guard).state();
    assert_eq!(
        fire_mods(&s, "fr-line", "au-line", None),
        one("Guard infantry fire mod", 2)
    );
}

/// The French medium battery (15 cm) at the Austrian line `gap` cm away.
fn battery_at(gap: f64) -> Mods {
    let s = Setup::new()
        .at("au-line", 60.0, 20.0 + gap, 180.0, Formation::Line)
        .state();
    fire_mods(&s, "fr-bat", "au-line", None)
}

#[test]
fn firing_table_artillery_range_x2_minus_2() {
    let (added, lost) = delta(&battery_at(12.0), &battery_at(25.0));
    assert_eq!((added, lost), (one("artillery range x2", -2), vec![]));
}

#[test]
fn firing_table_artillery_range_x3_minus_4() {
    let (added, lost) = delta(&battery_at(12.0), &battery_at(40.0));
    assert_eq!((added, lost), (one("artillery range x3", -4), vec![]));
}

#[test]
fn firing_table_two_batteries_combine_their_fire_mods() {
    // Fire Combat: a second battery in contact adds its fire mod (a 0 adds
    // 1; the zero case is `two_batteries_in_contact_combine_and_zero_adds_one`).
    let s = Setup::new()
        .copy("fr-bat", "fr-bat2", 68.0, 20.0)
        .troop("fr-bat2", Troop::HeavyBattery)
        .state();
    let alone = fire_mods(&s, "fr-bat", "au-jag", None);
    let both = fire_mods(&s, "fr-bat", "au-jag", Some("fr-bat2"));
    assert_eq!(delta(&alone, &both), (one("fr-bat2 combining", 2), vec![]));
}

#[test]
fn fire_combat_two_batteries_combine_a_zero_adds_one_whichever_is_named_first() {
    // Fire Combat: "a 0 adds 1" for either battery of the pair: a light
    // battery (0) and a medium one (1) make 2, whichever fires and which
    // combines; two light batteries make 2 as well.
    let s = Setup::new()
        .copy("fr-bat", "fr-light", 68.0, 20.0)
        .troop("fr-light", Troop::LightBattery)
        .copy("fr-bat", "fr-light2", 52.0, 20.0)
        .troop("fr-light2", Troop::LightBattery)
        .state();
    let batteries = |f: &str, w: &str| -> i32 {
        fire_mods(&s, f, "au-jag", Some(w))
            .iter()
            .filter(|(why, _)| why.contains("fire mod") || why.contains("combining"))
            .map(|(_, v)| v)
            .sum()
    };
    assert_eq!(batteries("fr-bat", "fr-light"), 2);
    assert_eq!(batteries("fr-light", "fr-bat"), 2);
    assert_eq!(batteries("fr-light", "fr-light2"), 2);
    // Alone, the light battery's 0 stays 0.
    assert_eq!(
        fire_mods(&s, "fr-light", "au-jag", None)[0],
        ("light foot battery fire mod".to_string(), 0)
    );
}

#[test]
fn firing_table_firer_in_square_minus_2() {
    assert_eq!(
        fire_added(|x| x.formation("fr-line", Formation::Square)),
        one("firer in square", -2)
    );
}

#[test]
fn firing_table_firer_deployed_in_area_minus_1() {
    assert_eq!(
        fire_added(|x| x.formation("fr-line", Formation::Deployed)),
        one("firer deployed in area", -1)
    );
}

#[test]
fn firing_table_firer_disordered_minus_1() {
    assert_eq!(
        fire_added(|x| x.disordered("fr-line")),
        one("firer disordered", -1)
    );
}

#[test]
fn firing_table_firer_not_in_square_or_area_with_cavalry_in_contact_minus_2() {
    // The hussars touch the column's right flank.
    assert_eq!(
        fire_added(|x| x.at("au-hus", 44.0, 18.0, 270.0, Formation::Line)),
        one("not in square or area, cavalry in contact", -2)
    );
}

#[test]
fn firing_table_firer_in_line_plus_1() {
    assert_eq!(
        fire_added(|x| x.formation("fr-line", Formation::Line)),
        one("firer in line", 1)
    );
}

#[test]
fn firing_table_firer_in_skirmish_plus_2() {
    assert_eq!(
        fire_added(|x| x.formation("fr-line", Formation::Skirmish)),
        one("firer in skirmish", 2)
    );
}

#[test]
fn firing_table_target_hit_in_flank_plus_2() {
    // The column stands off the Austrian line's left end, facing along it.
    assert_eq!(
        fire_added(|x| x.at("fr-line", 52.0, 30.0, 270.0, Formation::Column)),
        one("hit in flank or rear", 2)
    );
}

#[test]
fn firing_table_target_hit_in_rear_plus_2() {
    // The column stands behind the Austrian line, facing its back.
    assert_eq!(
        fire_added(|x| x.at("fr-line", 40.0, 30.0, 180.0, Formation::Column)),
        one("hit in flank or rear", 2)
    );
}

#[test]
fn firing_table_target_disordered_plus_1() {
    assert_eq!(
        fire_added(|x| x.disordered("au-line")),
        one("target disordered", 1)
    );
}

#[test]
fn firing_table_target_mounted_plus_1() {
    assert_eq!(
        fire_added(|x| x.troop("au-line", Troop::LightCavalry)),
        one("target mounted", 1)
    );
}

#[test]
fn firing_table_target_in_column_plus_1() {
    assert_eq!(
        fire_added(|x| x.formation("au-line", Formation::Column)),
        one("target in column", 1)
    );
}

#[test]
fn firing_table_target_in_square_plus_2() {
    assert_eq!(
        fire_added(|x| x.formation("au-line", Formation::Square)),
        one("target in square", 2)
    );
}

#[test]
fn firing_table_target_in_skirmish_minus_1() {
    assert_eq!(
        fire_added(|x| x.formation("au-line", Formation::Skirmish)),
        one("target in skirmish", -1)
    );
}

#[test]
fn firing_table_target_artillery_minus_1() {
    // Limbered: only the arm counts.
    assert_eq!(
        fire_added(|x| x
            .troop("au-line", Troop::MediumBattery)
            .formation("au-line", Formation::Limbered)),
        one("target artillery", -1)
    );
}

#[test]
fn firing_table_target_unlimbered_minus_1() {
    let limbered = |x: Setup| {
        x.troop("au-line", Troop::MediumBattery)
            .formation("au-line", Formation::Limbered)
    };
    let before = fire_mods(
        &limbered(at_musket_range()).state(),
        "fr-line",
        "au-line",
        None,
    );
    let s = limbered(at_musket_range())
        .formation("au-line", Formation::Unlimbered)
        .state();
    let after = fire_mods(&s, "fr-line", "au-line", None);
    assert_eq!(
        delta(&before, &after),
        (one("target unlimbered", -1), vec![])
    );
}

#[test]
fn firing_table_target_in_soft_cover_minus_1() {
    let wood = ground("wood", vec![TerrainTag::Woods], 30.0, 23.0, 50.0, 30.0);
    assert_eq!(
        fire_added(|x| x.terrain(wood)),
        one("target in soft cover", -1)
    );
}

#[test]
fn firing_table_target_in_hard_cover_minus_2() {
    let town = ground("town", vec![TerrainTag::Town], 30.0, 23.0, 50.0, 30.0);
    assert_eq!(
        fire_added(|x| x.terrain(town)),
        one("target in hard cover", -2)
    );
}

/// The French column and the Austrian line, fronts touching at y 22.
fn in_melee() -> Setup {
    Setup::new()
        .detach_generals()
        .at("fr-line", 40.0, 22.0, 0.0, Formation::Column)
        .at("au-line", 40.0, 22.0, 180.0, Formation::Line)
}

/// The French column's melee factor and modifiers, as defender or not.
fn melee_mods(s: &State, defending: bool) -> (i32, Mods) {
    let (f, m, _) = melee::factors(s, s.unit_index("fr-line").unwrap(), defending);
    (f, pairs(m))
}

/// What `change` does to the plain melee's modifiers: (added, lost).
fn melee_delta(defending: bool, change: impl FnOnce(Setup) -> Setup) -> (Mods, Mods) {
    let (_, plain) = melee_mods(&in_melee().state(), defending);
    assert!(plain.is_empty(), "{plain:?}");
    let (_, changed) = melee_mods(&change(in_melee()).state(), defending);
    delta(&plain, &changed)
}

#[test]
fn melee_factor_from_the_national_table_and_lancers_charging() {
    // Melee: each side's melee factor (French line 4); lancers "(5) 3".
    assert_eq!(melee_mods(&in_melee().state(), false).0, 4);
    let mut s = in_melee().troop("fr-line", Troop::Lancer).state();
    assert_eq!(melee_mods(&s, false).0, 3);
    let i = s.unit_index("fr-line").unwrap();
    s.units[i].charged = true;
    assert_eq!(melee_mods(&s, false).0, 5);
}

#[test]
fn melee_modifier_disordered_minus_2() {
    assert_eq!(
        melee_delta(false, |x| x.disordered("fr-line")),
        (one("disordered", -2), vec![])
    );
}

#[test]
fn melee_modifier_hit_in_flank_or_rear_minus_2() {
    // The Austrian line touches the column's right flank instead.
    assert_eq!(
        melee_delta(false, |x| x.at(
            "au-line",
            44.0,
            14.0,
            270.0,
            Formation::Line
        )),
        (one("hit in flank or rear", -2), vec![])
    );
}

#[test]
fn melee_modifier_infantry_not_in_square_or_area_versus_cavalry_minus_2() {
    let cavalry = |x: Setup| {
        x.at("au-line", 40.0, 45.0, 180.0, Formation::Line).at(
            "au-hus",
            40.0,
            22.0,
            180.0,
            Formation::Line,
        )
    };
    assert_eq!(
        melee_delta(false, cavalry),
        (
            one("infantry not in square or area versus cavalry", -2),
            vec![]
        )
    );
    // Deployed in an area it takes neither.
    assert_eq!(
        melee_delta(false, |x| cavalry(x)
            .formation("fr-line", Formation::Deployed)),
        (vec![], vec![])
    );
}

#[test]
fn melee_modifier_square_versus_cavalry_plus_4() {
    let cavalry = |x: Setup| {
        x.at("au-line", 40.0, 45.0, 180.0, Formation::Line).at(
            "au-hus",
            40.0,
            22.0,
            180.0,
            Formation::Line,
        )
    };
    assert_eq!(
        melee_delta(false, |x| cavalry(x)
            .formation("fr-line", Formation::Square)),
        (one("square versus cavalry", 4), vec![])
    );
}

#[test]
fn melee_modifier_defending_a_wall_or_fortification_plus_1() {
    let wall = ground("wall", vec![TerrainTag::Wall], 30.0, 21.0, 50.0, 22.0);
    assert_eq!(
        melee_delta(true, |x| x.terrain(wall.clone())),
        (one("defending a wall or fortification", 1), vec![])
    );
    // Only for the defender.
    assert_eq!(melee_delta(false, |x| x.terrain(wall)), (vec![], vec![]));
}

#[test]
fn melee_modifier_leader_attached_plus_1() {
    assert_eq!(
        melee_delta(false, |mut x| {
            let g = x.0.generals.iter().position(|g| g.id == "fr-gi").unwrap();
            x.0.generals[g].attached = Some("fr-line".into());
            x
        }),
        (one("Gén. Inf attached", 1), vec![])
    );
}

#[test]
fn melee_modifier_uphill_from_the_enemy_plus_1() {
    let hill = ground("hill", vec![TerrainTag::Hill], 30.0, 10.0, 50.0, 21.0);
    assert_eq!(
        melee_delta(false, |x| x.terrain(hill)),
        (one("uphill from the enemy", 1), vec![])
    );
}

//! Moves, charges and retreats judged along their whole path, not where
//! they end (issue 30): each test names the source's passage it checks.

use super::formation::Formation;
use super::orders::{ChargeOrder, Controlled, Orders, TurnOrders};
use super::tests::{Setup, au, fr, ground, moves, mv, turn};
use super::*;
use crate::geometry::TerrainTag;
use crate::ruleset::Ruleset;

const ALL_AUSTRIANS: [&str; 4] = ["au-line", "au-jag", "au-hus", "au-block"];

fn charge(unit: &str, target: &str) -> TurnOrders {
    TurnOrders {
        charges: vec![ChargeOrder {
            unit: unit.into(),
            target: target.into(),
            if_controlled: Controlled::Stay,
        }],
        ..TurnOrders::default()
    }
}

#[test]
fn rally_retreat_into_an_enemy_surrenders() {
    // Rally table 4-5: move 30 cm directly away from the nearest enemy; if
    // this puts the unit in contact with other enemy units it surrenders.
    // The battery retreats from the Jäger behind it, straight through a
    // line 15 cm ahead, and would end 13 cm beyond it.
    let s = Setup::new()
        .at("au-jag", 60.0, 10.0, 0.0, Formation::Line)
        .copy("au-line", "au-block", 60.0, 35.0)
        .disordered("fr-bat")
        .hold_fire(au(), &ALL_AUSTRIANS)
        .state();
    // 2 + 2 + rally 1 = 5: retreat.
    let (s2, ev) = turn(&s, TurnOrders::default(), vec![2, 2]);
    assert!(ev.iter().any(|e| e.what == "retreat"));
    assert!(ev.iter().any(|e| e.what == "surrender"), "{ev:#?}");
    let bat = s2.unit("fr-bat").unwrap();
    assert!(!bat.live());
    // It stopped where it met the line, not beyond.
    assert!((bat.at.y - 35.0).abs() < 0.1, "{:?}", bat.at);
}

#[test]
fn infantry_may_not_move_into_frontal_contact_with_cavalry_at_a_slant() {
    // Movement special cases: infantry may not move into frontal contact
    // with cavalry, however it comes at the cavalry's front. The column
    // starts off to one side of the hussars and comes in at a slant.
    let s = Setup::new()
        .at("au-hus", 40.0, 30.0, 180.0, Formation::Line)
        .at("au-line", 40.0, 55.0, 180.0, Formation::Line)
        .at("fr-line", 30.0, 20.0, 0.0, Formation::Column)
        .hold_fire(au(), &ALL_AUSTRIANS)
        .state();
    let (s2, ev) = turn(&s, moves(vec![mv("fr-line", 38.0, 30.0)]), vec![]);
    let (l, h) = (s2.unit("fr-line").unwrap(), s2.unit("au-hus").unwrap());
    assert!(s2.gap(l, h) >= 0.5, "stopped short: {}", s2.gap(l, h));
    assert!(ev.iter().any(|e| {
        e.text
            .contains("infantry may not move into frontal contact")
    }));
}

#[test]
fn rough_terrain_crossing_a_belt_of_woods_tests() {
    // Rough Terrain: a unit that moves through rough terrain tests, though
    // it ends beyond it.
    let s = Setup::new()
        .terrain(ground(
            "belt",
            vec![TerrainTag::Woods],
            30.0,
            21.0,
            50.0,
            23.0,
        ))
        .hold_fire(au(), &ALL_AUSTRIANS)
        .state();
    let (s2, ev) = turn(&s, moves(vec![mv("fr-line", 40.0, 32.0)]), vec![6, 6]);
    assert_eq!(
        s2.unit("fr-line").unwrap().at,
        crate::geometry::Point::new(40.0, 32.0)
    );
    let test = ev
        .iter()
        .find(|e| e.what == "rough_terrain")
        .expect("a test");
    assert!(test.facts.modifiers.iter().any(|m| m.why == "woods"));
}

#[test]
fn charge_must_be_straight_at_target_another_enemy_across_the_path_blocks_it() {
    // Movement Factors, Charge Move: must be straight at target. A line
    // squarely across the way, 4 cm ahead, stands between the cuirassiers
    // and the hussars 10 cm ahead.
    let s = Setup::new()
        .at("au-hus", 15.0, 30.0, 180.0, Formation::Line)
        .copy("au-line", "au-block", 15.0, 24.0)
        .hold_fire(au(), &ALL_AUSTRIANS)
        .state();
    let (s2, ev) = turn(&s, charge("fr-cuir", "au-hus"), vec![6, 6, 6, 6]);
    assert!(!ev.iter().any(|e| e.what == "charge"), "{ev:#?}");
    let refused = ev.iter().find(|e| e.what == "refused").expect("refused");
    assert!(refused.text.contains("au-block"), "{}", refused.text);
    assert_eq!(s2.unit("fr-cuir").unwrap().at.y, 20.0);
}

#[test]
fn charge_may_pass_an_enemy_beside_its_path() {
    // Movement Factors, Charge Move: a unit flush beside the path is not
    // across it.
    let s = Setup::new()
        .at("au-hus", 15.0, 30.0, 180.0, Formation::Line)
        .copy("au-line", "au-block", 27.0, 24.0)
        .hold_fire(au(), &ALL_AUSTRIANS)
        .state();
    let (s2, ev) = turn(&s, charge("fr-cuir", "au-hus"), vec![6, 1, 6, 6]);
    assert!(ev.iter().any(|e| e.what == "charge"), "{ev:#?}");
    assert!(s2.unit("fr-cuir").unwrap().at.y > 25.0);
}

#[test]
fn cavalry_control_after_an_eliminated_foe_goes_for_another_enemy_in_range_or_arc() {
    // Cavalry Control Table, 5-7 uncontrolled move: if the defeated foe is
    // eliminated, move straight forward unless another enemy unit is in
    // range or in the 45-degree arc. The cuirassiers destroy the Jäger they
    // touch; the Austrian line stands 8 cm to their left.
    let s = Setup::new()
        .at("fr-cuir", 60.0, 35.0, 0.0, Formation::Line)
        .hold_fire(au(), &ALL_AUSTRIANS)
        .state();
    // Melee: cuirassiers 6, Jäger 1: eliminated. Control 3 + 3 = 6:
    // uncontrolled move.
    let (s2, ev) = turn(&s, TurnOrders::default(), vec![6, 1, 3, 3]);
    assert!(!s2.unit("au-jag").unwrap().live(), "{ev:#?}");
    let c = ev.iter().find(|e| e.what == "cavalry_control").unwrap();
    assert_eq!(c.facts.result.as_deref(), Some("uncontrolled move"));
    let cuir = s2.unit("fr-cuir").unwrap();
    let line = s2.unit("au-line").unwrap();
    assert!(s2.gap(cuir, line) < 0.1, "{:?}", cuir.at);
}

#[test]
fn cavalry_control_after_an_eliminated_foe_moves_straight_forward_with_no_other_enemy_near() {
    // Cavalry Control Table: with no other enemy in range or arc, straight
    // forward 20 cm.
    let s = Setup::new()
        .at("fr-cuir", 60.0, 35.0, 0.0, Formation::Line)
        .at("au-line", 5.0, 58.0, 180.0, Formation::Line)
        .at("au-hus", 5.0, 5.0, 180.0, Formation::Line)
        .hold_fire(au(), &ALL_AUSTRIANS)
        .state();
    let (s2, _) = turn(&s, TurnOrders::default(), vec![6, 1, 3, 3]);
    let cuir = s2.unit("fr-cuir").unwrap();
    assert!(
        (cuir.at.y - 55.0).abs() < 1e-6 && (cuir.at.x - 60.0).abs() < 1e-6,
        "{:?}",
        cuir.at
    );
}

#[test]
fn corps_fatigue_a_spent_corps_may_not_charge_without_a_leader() {
    // Corps Fatigue: with no chips left its units may no longer move
    // towards any known enemy unless a leader is attached; a charge moves
    // towards its target.
    let mut s = Setup::new()
        .at("au-hus", 15.0, 30.0, 180.0, Formation::Line)
        .hold_fire(au(), &ALL_AUSTRIANS)
        .state();
    let c = s.corps.iter().position(|c| c.id == "fr-c").unwrap();
    s.corps[c].chips = 0;
    let o = charge("fr-cuir", "au-hus");
    // On receipt: refused with its path, unit and rule.
    let v = NapoleonicCorps.check(&s, &fr(), &Orders::Turn(o.clone()));
    assert!(
        v.iter().any(|v| v.path == ["turn", "charges", "0"]
            && v.rule == check::SPENT
            && v.unit.as_deref() == Some("fr-cuir")),
        "{v:?}"
    );
    // At resolution (orders not checked first): refused, it stays.
    let (s2, ev) = turn(&s, o.clone(), vec![6, 1, 6, 6]);
    assert!(!ev.iter().any(|e| e.what == "charge"));
    assert_eq!(s2.unit("fr-cuir").unwrap().at.y, 20.0);
    // With the cavalry general attached by the same orders, it may.
    let with = TurnOrders {
        generals: vec![orders::Attach {
            general: "fr-gc".into(),
            unit: "fr-cuir".into(),
        }],
        ..o
    };
    assert!(
        NapoleonicCorps
            .check(&s, &fr(), &Orders::Turn(with.clone()))
            .iter()
            .all(|v| v.rule != check::SPENT)
    );
}

#[test]
fn corps_fatigue_a_spent_corps_may_not_move_towards_any_known_enemy() {
    // Corps Fatigue: no chips left, its units may no longer move towards
    // any known enemy units: the battery edges away from the nearest enemy
    // but closer to the hussars.
    let mut s = Setup::new().hold_fire(au(), &ALL_AUSTRIANS).state();
    let c = s.corps.iter().position(|c| c.id == "fr-c").unwrap();
    s.corps[c].chips = 0;
    let (s2, ev) = turn(&s, moves(vec![mv("fr-bat", 55.0, 17.0)]), vec![]);
    assert_eq!(
        s2.unit("fr-bat").unwrap().at,
        crate::geometry::Point::new(60.0, 20.0)
    );
    assert!(ev.iter().any(|e| e.text.contains("Husaren 1")), "{ev:#?}");
}

#[test]
fn charge_must_be_straight_at_target_the_panel_offers_no_blocked_charge() {
    // Movement Factors, Charge Move: the side's panel offers no charge that
    // another enemy blocks: only the enemy across the way is offered.
    let s = Setup::new()
        .at("au-hus", 15.0, 30.0, 180.0, Formation::Line)
        .copy("au-line", "au-block", 15.0, 24.0)
        .hold_fire(au(), &ALL_AUSTRIANS)
        .state();
    let p = options::panel(&s, &fr());
    let charge = p
        .lines
        .iter()
        .find(|l| l.contains("charge: may charge"))
        .unwrap_or_else(|| panic!("{:#?}", p.lines));
    // The line across the way is offered; the hussars behind it are not.
    assert!(charge.contains("[au-block] at 4.0 cm"), "{charge}");
    assert!(!charge.contains("[au-hus]"), "{charge}");
}

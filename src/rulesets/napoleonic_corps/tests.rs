//! Whole-mechanism tests on the small test field, each naming the source's
//! section it checks.

use super::formation::Formation;
use super::orders::{ChargeOrder, Controlled, FireOrder, Move, Orders, Reactions, TurnOrders};
use super::scenario::Scenario;
use super::state::{Phase, State};
use super::*;
use crate::dice::Dice;
use crate::geometry::{Angle, Point};
use crate::ruleset::{OrdersKind, Ruleset};
use crate::side::{BySide, SideId};

const FIELD: &str = include_str!("../../../games/napoleonic-corps/test-skirmish.yaml");
const BATTLE: &str = include_str!("../../../games/napoleonic-corps/danube-crossroads.yaml");

fn fr() -> SideId {
    "french".into()
}
fn au() -> SideId {
    "austrian".into()
}

/// The test field after setup, chips rolled with no sixes, French phasing.
fn field() -> State {
    let sc: Scenario = crate::yaml::from_str(FIELD).unwrap();
    let s = NapoleonicCorps.start(&sc).unwrap();
    let mut orders = BySide::new();
    orders.insert(fr(), Orders::Deploy(Default::default()));
    orders.insert(au(), Orders::Deploy(Default::default()));
    let r = NapoleonicCorps.resolve(&s, &orders, &mut Dice::scripted(vec![1, 1, 1]));
    r.state
}

fn idx(s: &State, id: &str) -> usize {
    s.unit_index(id).unwrap()
}

fn place(s: &mut State, id: &str, x: f64, y: f64, facing: f64, f: Formation) {
    let i = idx(s, id);
    s.units[i].at = Point::new(x, y);
    s.units[i].facing = Angle(facing);
    s.units[i].formation = f;
}

fn turn(s: &State, o: TurnOrders, dice: Vec<u32>) -> (State, Vec<crate::event::Event>) {
    let Phase::Turn { turn, phasing } = s.phase.clone() else {
        panic!("not a turn")
    };
    turn::resolve(s, turn, &phasing, &o, &mut Dice::scripted(dice))
}

#[test]
fn both_scenarios_load_and_check() {
    for text in [FIELD, BATTLE] {
        let sc: Scenario = crate::yaml::from_str(text).unwrap();
        sc.check().unwrap();
    }
}

#[test]
fn scenario_refuses_passes_out_of_one_to_five() {
    // Rally: each corps commander starts with one to five morale passes.
    let text = FIELD.replace("passes: 2", "passes: 6");
    let sc: Scenario = crate::yaml::from_str(&text).unwrap();
    assert!(sc.check().unwrap_err().contains("1 to 5"));
}

#[test]
fn setup_rolls_chips_per_regiment_and_general_with_exploding_sixes() {
    // Corps Fatigue: 1 per regiment, 1 per divisional general, and a D6 per
    // general adding a chip per 6, rolling again after each 6.
    let sc: Scenario = crate::yaml::from_str(FIELD).unwrap();
    let s = NapoleonicCorps.start(&sc).unwrap();
    // French: two generals: 6, 6, 2 then 3; Austrians have none.
    let (s, ev) = setup::resolve(&s, &BySide::new(), &mut Dice::scripted(vec![6, 6, 2, 3]));
    let fr_c = s.corps_of("fr-c").unwrap();
    assert_eq!(fr_c.chips, 3 + 2 + 2);
    assert_eq!(s.corps_of("au-c").unwrap().chips, 3);
    assert_eq!(ev[0].what, "chips");
    assert_eq!(ev[0].dice.len(), 4);
    assert_eq!(
        s.phase,
        Phase::Turn {
            turn: 1,
            phasing: fr()
        }
    );
}

#[test]
fn whole_turn_alternation() {
    // Sequence of Play: each side has its whole turn; the turn number goes
    // up when the first side is phasing again.
    let s = field();
    let (s, _) = turn(&s, TurnOrders::default(), vec![]);
    assert_eq!(
        s.phase,
        Phase::Turn {
            turn: 1,
            phasing: au()
        }
    );
    let (s, _) = turn(&s, TurnOrders::default(), vec![]);
    assert_eq!(
        s.phase,
        Phase::Turn {
            turn: 2,
            phasing: fr()
        }
    );
    let due = NapoleonicCorps.due(&s);
    assert_eq!(due.owed[0].side, fr());
    assert_eq!(due.optional[0].kind, OrdersKind::Reactions);
}

#[test]
fn a_morale_pass_clears_disorder_within_30_cm_and_is_spent() {
    // Rally: a commander within 30 cm may spend a pass; once spent it is lost.
    let mut s = field();
    let i = idx(&s, "fr-line");
    s.units[i].disordered = true;
    let o = TurnOrders {
        passes: vec!["fr-line".into()],
        ..TurnOrders::default()
    };
    let (s2, ev) = turn(&s, o.clone(), vec![]);
    assert!(!s2.units[i].disordered);
    assert_eq!(s2.corps_of("fr-c").unwrap().passes, 1);
    assert!(ev.iter().any(|e| e.what == "morale_pass"));
    // Beyond 30 cm the pass is refused and the unit rolls instead.
    let c = s.corps.iter().position(|c| c.id == "fr-c").unwrap();
    s.corps[c].at = Point::new(40.0, 59.0);
    // 2D6 = 2 + 3 with rally +1 and the general +1: 7, disordered; general D6 4.
    let (s3, ev) = turn(&s, o, vec![2, 3, 4]);
    assert!(s3.units[i].disordered);
    assert_eq!(s3.corps_of("fr-c").unwrap().passes, 2);
    assert!(ev.iter().any(|e| e.what == "rally_table"));
}

#[test]
fn a_failed_rally_costs_a_chip_and_a_rout_two_more() {
    // Corps Fatigue: -1 chip for a regiment failing to rally, -2 for one
    // leaving the table. Rally table 2-3: rout.
    let mut s = field();
    let i = idx(&s, "fr-cuir");
    s.units[i].disordered = true;
    let before = s.corps_of("fr-c").unwrap().chips;
    // 1 + 1 + rally 1 = 3: rout.
    let (s2, ev) = turn(&s, TurnOrders::default(), vec![1, 1]);
    assert!(!s2.units[i].live());
    assert_eq!(s2.corps_of("fr-c").unwrap().chips, before - 3);
    assert_eq!(s2.dish[&fr()], 3);
    assert!(ev.iter().any(|e| e.what == "rout"));
}

#[test]
fn a_rally_table_retreat_moves_30_cm_from_the_nearest_enemy() {
    // Rally table 4-5: move 30 cm directly away from the nearest enemy.
    let mut s = field();
    place(&mut s, "au-jag", 60.0, 10.0, 0.0, Formation::Line);
    let i = idx(&s, "fr-bat");
    s.units[i].disordered = true;
    // 2 + 2 + rally 1 = 5: retreat, away from the Jäger behind it.
    let (s2, ev) = turn(&s, TurnOrders::default(), vec![2, 2]);
    assert!(ev.iter().any(|e| e.what == "retreat"));
    assert!(
        (s2.units[i].at.y - 50.0).abs() < 0.5,
        "{:?}",
        s2.units[i].at
    );
    assert!(s2.units[i].live() && s2.units[i].disordered);
}

#[test]
fn disordered_units_cannot_move() {
    // Rally table 6-8: the unit stands in place.
    let mut s = field();
    let i = idx(&s, "fr-line");
    s.units[i].disordered = true;
    let o = TurnOrders {
        moves: vec![Move {
            unit: "fr-line".into(),
            to: Some(Point::new(40.0, 25.0)),
            facing: None,
            formation: None,
            road: false,
        }],
        ..TurnOrders::default()
    };
    // Rally roll 3 + 3 + 1 + general 1 = 8: still disordered; general's D6 5.
    let (s2, ev) = turn(&s, o, vec![3, 3, 5]);
    assert_eq!(s2.units[i].at, Point::new(40.0, 20.0));
    assert!(ev.iter().any(|e| e.what == "refused"));
}

#[test]
fn squares_may_not_move_towards_visible_enemies() {
    // Movement special cases.
    let mut s = field();
    place(&mut s, "fr-line", 40.0, 20.0, 0.0, Formation::Square);
    let o = TurnOrders {
        moves: vec![Move {
            unit: "fr-line".into(),
            to: Some(Point::new(40.0, 24.0)),
            facing: None,
            formation: None,
            road: false,
        }],
        ..TurnOrders::default()
    };
    let (s2, ev) = turn(&s, o, vec![]);
    assert_eq!(s2.unit("fr-line").unwrap().at.y, 20.0);
    assert!(
        ev.iter()
            .any(|e| e.text.contains("squares may not move towards"))
    );
}

#[test]
fn infantry_may_not_move_into_frontal_contact_with_cavalry() {
    // Movement special cases.
    let mut s = field();
    place(&mut s, "au-hus", 40.0, 30.0, 180.0, Formation::Line);
    place(&mut s, "au-line", 40.0, 55.0, 180.0, Formation::Line);
    let o = TurnOrders {
        moves: vec![Move {
            unit: "fr-line".into(),
            to: Some(Point::new(40.0, 32.0)),
            facing: None,
            formation: None,
            road: false,
        }],
        ..TurnOrders::default()
    };
    let (s2, _) = turn(&s, o, vec![]);
    let (l, h) = (s2.unit("fr-line").unwrap(), s2.unit("au-hus").unwrap());
    assert!(s2.gap(l, h) >= 0.9, "stopped short: {}", s2.gap(l, h));
}

#[test]
fn an_infantry_column_contacting_infantry_forces_a_contact_check() {
    // Contact Morale check: any infantry contacted by an infantry column.
    let mut s = field();
    place(&mut s, "au-line", 40.0, 30.0, 180.0, Formation::Line);
    let o = TurnOrders {
        moves: vec![Move {
            unit: "fr-line".into(),
            to: Some(Point::new(40.0, 30.0)),
            facing: None,
            formation: None,
            road: false,
        }],
        ..TurnOrders::default()
    };
    // Check: 1 + 2 + rally 1 = 4: retreat (the Austrians fall back).
    let (s2, ev) = turn(&s, o, vec![1, 2, 6, 6, 1, 1]);
    let check = ev
        .iter()
        .find(|e| e.what == "contact_check")
        .expect("a contact check");
    assert_eq!(check.facts.result.as_deref(), Some("retreat"));
    assert!(s2.unit("au-line").unwrap().disordered);
}

#[test]
fn skirmishers_check_at_minus_three() {
    // Contact Morale check: in skirmish formation -3.
    let mut s = field();
    place(&mut s, "au-jag", 40.0, 30.0, 180.0, Formation::Skirmish);
    place(&mut s, "au-line", 70.0, 55.0, 180.0, Formation::Line);
    let o = TurnOrders {
        moves: vec![Move {
            unit: "fr-line".into(),
            to: Some(Point::new(40.0, 30.0)),
            facing: None,
            formation: None,
            road: false,
        }],
        ..TurnOrders::default()
    };
    let (_, ev) = turn(&s, o, vec![6, 3, 6, 6, 1, 1]);
    let check = ev.iter().find(|e| e.what == "contact_check").unwrap();
    assert!(check.facts.modifiers.iter().any(|m| m.value == -3));
    // 9 + rally 1 - 3 = 7: disordered, not a pass.
    assert_eq!(check.facts.result.as_deref(), Some("disordered"));
}

#[test]
fn cavalry_withdraw_when_foot_comes_within_10_cm() {
    // Movement special cases: cavalry withdrawal, 2D6 cm, then the rally table.
    let mut s = field();
    place(&mut s, "au-hus", 40.0, 40.0, 180.0, Formation::Line);
    place(&mut s, "au-line", 70.0, 55.0, 180.0, Formation::Line);
    s.reactions.insert(
        au(),
        Reactions {
            withdraw: vec!["au-hus".into()],
            ..Reactions::default()
        },
    );
    let o = TurnOrders {
        moves: vec![Move {
            unit: "fr-line".into(),
            to: Some(Point::new(40.0, 33.0)),
            facing: None,
            formation: None,
            road: false,
        }],
        ..TurnOrders::default()
    };
    // 2D6 = 4 + 3 = 7 cm, then rally 5 + 4 = 9: pass.
    let (s2, ev) = turn(&s, o, vec![4, 3, 5, 4]);
    assert!(ev.iter().any(|e| e.what == "cavalry_withdrawal"));
    let h = s2.unit("au-hus").unwrap();
    assert!((h.at.y - 47.0).abs() < 0.5, "{:?}", h.at);
}

#[test]
fn rough_terrain_fails_into_unformed_which_clears_if_it_stands() {
    // Rough Terrain: failure makes the unit unformed; removed if it does not move.
    let mut s = field();
    place(&mut s, "fr-cuir", 5.0, 20.0, 0.0, Formation::Line);
    let o = TurnOrders {
        moves: vec![Move {
            unit: "fr-cuir".into(),
            to: Some(Point::new(5.0, 30.0)),
            facing: None,
            formation: None,
            road: false,
        }],
        ..TurnOrders::default()
    };
    // 1 + 1 + rally 1 + woods 3 - line 1 - cavalry 1 = 4: fails.
    let (s2, ev) = turn(&s, o, vec![1, 1]);
    let test = ev.iter().find(|e| e.what == "rough_terrain").unwrap();
    assert!(
        test.facts
            .modifiers
            .iter()
            .any(|m| m.why == "woods" && m.value == 3)
    );
    assert!(s2.unit("fr-cuir").unwrap().unformed);
    // Its next turn it stands still: unformed is gone, and no chip lost
    // for it (Austrian turn in between).
    let (s3, _) = turn(&s2, TurnOrders::default(), vec![]);
    // Its rally roll 3 + 3 + 1 = 7 leaves it as it is (unformed, no chip).
    let (s4, _) = turn(&s3, TurnOrders::default(), vec![3, 3]);
    assert!(!s4.unit("fr-cuir").unwrap().unformed);
    assert_eq!(s4.dish[&fr()], 0);
}

fn fire_at(
    s: &State,
    unit: &str,
    target: &str,
    dice: Vec<u32>,
) -> (State, Vec<crate::event::Event>) {
    let o = TurnOrders {
        fire: vec![FireOrder {
            unit: unit.into(),
            target: target.into(),
            with: None,
        }],
        ..TurnOrders::default()
    };
    turn(s, o, dice)
}

#[test]
fn artillery_fires_at_double_range_at_minus_two() {
    // Fire Combat: medium 15 cm; double range -2, triple -4.
    let mut s = field();
    place(&mut s, "au-jag", 60.0, 45.0, 180.0, Formation::Line);
    s.reactions.insert(
        au(),
        Reactions {
            hold_fire: vec!["au-jag".into(), "au-line".into()],
            ..Reactions::default()
        },
    );
    let (_, ev) = fire_at(&s, "fr-bat", "au-jag", vec![5, 5]);
    let f = ev.iter().find(|e| e.what == "fire").unwrap();
    assert!(
        f.facts
            .modifiers
            .iter()
            .any(|m| m.why == "artillery range x2" && m.value == -2)
    );
    // 10 + fire 1 - 2 = 9: disordered.
    assert_eq!(f.facts.result.as_deref(), Some("target disordered"));
}

#[test]
fn fire_beyond_triple_range_or_outside_the_arc_is_refused() {
    // Fire Combat: within range and 45 degrees of the front face.
    let mut s = field();
    place(&mut s, "fr-bat", 60.0, 5.0, 0.0, Formation::Unlimbered);
    place(&mut s, "au-jag", 60.0, 58.0, 0.0, Formation::Line);
    let (_, ev) = fire_at(&s, "fr-bat", "au-jag", vec![]);
    assert!(
        ev.iter()
            .any(|e| e.what == "refused" && e.text.contains("out of range"))
    );
    let mut s = field();
    place(&mut s, "au-jag", 84.0, 22.0, 180.0, Formation::Line);
    let (_, ev) = fire_at(&s, "fr-bat", "au-jag", vec![]);
    assert!(
        ev.iter()
            .any(|e| e.what == "refused" && e.text.contains("45 degrees"))
    );
}

#[test]
fn firing_modifiers_for_firer_and_target() {
    // Firing table modifiers: firer in line +1, target in column +1,
    // target disordered +1, target mounted +1, target in square +2.
    let mut s = field();
    place(&mut s, "fr-line", 40.0, 20.0, 0.0, Formation::Line);
    place(&mut s, "au-hus", 40.0, 24.0, 180.0, Formation::Column);
    let i = idx(&s, "au-hus");
    s.units[i].disordered = true;
    let firer = s.unit("fr-line").unwrap().clone();
    let target = s.unit("au-hus").unwrap().clone();
    let mods = fire::modifiers(&s, &firer, &target, 4.0, None);
    let has = |why: &str, v: i32| mods.iter().any(|m| m.why == why && m.value == v);
    assert!(has("firer in line", 1));
    assert!(has("target in column", 1));
    assert!(has("target disordered", 1));
    assert!(has("target mounted", 1));
    assert!(has("line infantry fire mod", 1));
}

#[test]
fn two_batteries_in_contact_combine_and_zero_adds_one() {
    // Fire Combat: two artillery units in contact combine (a 0 adds 1).
    let mut s = field();
    let mut b2 = s.unit("fr-bat").unwrap().clone();
    b2.id = "fr-bat2".into();
    b2.name = "Light battery".into();
    b2.troop = tables::Troop::LightBattery;
    b2.at = Point::new(68.0, 20.0);
    s.units.push(b2.clone());
    let f = s.unit("fr-bat").unwrap().clone();
    let t = s.unit("au-jag").unwrap().clone();
    let mods = fire::modifiers(&s, &f, &t, 13.0, Some(&b2));
    assert!(
        mods.iter()
            .any(|m| m.why == "Light battery combining" && m.value == 1)
    );
}

#[test]
fn a_general_with_the_target_must_try_to_downgrade_and_risks_death() {
    // Divisional generals: MUST attempt to downgrade a 7+ result, 5+ on a D6;
    // each use risks death on a 1.
    let mut s = field();
    s.phase = Phase::Turn {
        turn: 1,
        phasing: au(),
    };
    place(&mut s, "au-jag", 40.0, 24.0, 180.0, Formation::Skirmish);
    s.reactions.insert(
        fr(),
        Reactions {
            hold_fire: vec!["fr-line".into(), "fr-bat".into()],
            ..Reactions::default()
        },
    );
    // Fire 6 + 6 = 12 +2 skirmish +2 fire -... = eliminated; downgrade 5: retreat; risk 1: dies.
    let (s2, ev) = fire_at(&s, "au-jag", "fr-line", vec![6, 6, 5, 1]);
    let d = ev.iter().find(|e| e.what == "downgrade").unwrap();
    assert_eq!(
        d.facts.result.as_deref(),
        Some("target retreats 30 cm and is disordered")
    );
    assert!(s2.generals.iter().find(|g| g.id == "fr-gi").unwrap().dead);
}

#[test]
fn generals_serve_only_their_own_corps_and_arm() {
    // Divisional generals: cavalry generals only for cavalry, infantry for infantry.
    let mut s = field();
    let g = s.generals.iter().position(|g| g.id == "fr-gc").unwrap();
    s.generals[g].attached = Some("fr-line".into());
    let line = s.unit("fr-line").unwrap().clone();
    assert!(!s.generals[g].serves(&line));
    let cuir = s.unit("fr-cuir").unwrap().clone();
    assert!(s.generals[g].serves(&cuir));
}

#[test]
fn a_cavalry_charge_goes_straight_and_contacts_then_melee_and_control() {
    // Charge Phase, Melee, Cavalry Control Table.
    let mut s = field();
    place(&mut s, "au-hus", 15.0, 30.0, 180.0, Formation::Line);
    s.reactions.insert(
        au(),
        Reactions {
            hold_fire: vec!["au-hus".into(), "au-line".into(), "au-jag".into()],
            ..Reactions::default()
        },
    );
    let o = TurnOrders {
        charges: vec![ChargeOrder {
            unit: "fr-cuir".into(),
            target: "au-hus".into(),
            if_controlled: Controlled::Stay,
        }],
        ..TurnOrders::default()
    };
    // Melee: cuirassiers 5 + 6 = 11; hussars 2 + 1 = 3: difference 8, cavalry
    // treat 5+ as 4: retreat. Control: 6 + 6 = 12: controlled.
    let (s2, ev) = turn(&s, o, vec![6, 1, 6, 6]);
    assert!(ev.iter().any(|e| e.what == "charge"));
    let m = ev.iter().find(|e| e.what == "melee").unwrap();
    assert_eq!(m.facts.hits, Some(8));
    let h = s2.unit("au-hus").unwrap();
    assert!(h.live() && h.disordered);
    let c = ev.iter().find(|e| e.what == "cavalry_control").unwrap();
    assert_eq!(c.facts.result.as_deref(), Some("controlled"));
}

#[test]
fn a_charge_out_of_reach_is_refused() {
    // Movement Factors: the charge move is 12 cm (+2 light), straight at the target.
    let mut s = field();
    place(&mut s, "au-hus", 15.0, 40.0, 180.0, Formation::Line);
    let o = TurnOrders {
        charges: vec![ChargeOrder {
            unit: "fr-cuir".into(),
            target: "au-hus".into(),
            if_controlled: Controlled::Stay,
        }],
        ..TurnOrders::default()
    };
    let (s2, ev) = turn(&s, o, vec![]);
    assert!(ev.iter().any(|e| e.what == "refused"));
    assert_eq!(s2.unit("fr-cuir").unwrap().at.y, 20.0);
}

#[test]
fn a_drawn_melee_leaves_all_disordered_in_contact_to_fight_again() {
    // Melee table 0: all disordered and stay in contact, roll next melee phase.
    let mut s = field();
    place(&mut s, "au-line", 40.0, 24.0, 180.0, Formation::Line);
    place(&mut s, "fr-line", 40.0, 20.0, 0.0, Formation::Line);
    // Put them exactly in contact: French front at y 20 + 2 (base depth)? Their
    // fronts meet at y 22.
    place(&mut s, "fr-line", 40.0, 22.0, 0.0, Formation::Line);
    place(&mut s, "au-line", 40.0, 22.0, 180.0, Formation::Line);
    s.reactions.insert(
        au(),
        Reactions {
            hold_fire: vec!["au-jag".into()],
            ..Reactions::default()
        },
    );
    // French 4 + general 1 + D6 3 = 8; Austrian 3 + D6 5 = 8: a draw. General risk 6.
    let (s2, ev) = turn(&s, TurnOrders::default(), vec![3, 5, 6]);
    let m = ev.iter().find(|e| e.what == "melee").unwrap();
    assert_eq!(m.facts.hits, Some(0));
    assert!(s2.unit("fr-line").unwrap().disordered && s2.unit("au-line").unwrap().disordered);
    assert!(!s2.contacts(s2.unit("fr-line").unwrap()).is_empty());
}

#[test]
fn army_morale_counts_objectives_and_defeat_comes_when_the_dish_reaches_it() {
    // Winning and losing: base = corps chips; +2 per objective held, -2 per
    // objective lost to the enemy; defeated when the dish equals it.
    let mut s = field();
    assert_eq!(fatigue::army_morale(&s, &au()), 3 + 2);
    s.holders[0].1 = Some(fr());
    assert_eq!(fatigue::army_morale(&s, &au()), 3 - 2);
    assert_eq!(fatigue::army_morale(&s, &fr()), 5 + 2);
    s.dish.insert(au(), 1);
    let o = fatigue::verdict(&s).unwrap();
    assert_eq!(o.winner, Some(fr()));
}

#[test]
fn a_corps_out_of_chips_may_not_advance_without_a_leader() {
    // Corps Fatigue: no chips left, no moving towards known enemies unless a
    // leader is attached.
    let mut s = field();
    let c = s.corps.iter().position(|c| c.id == "fr-c").unwrap();
    s.corps[c].chips = 0;
    let o = TurnOrders {
        moves: vec![
            Move {
                unit: "fr-bat".into(),
                to: Some(Point::new(60.0, 23.0)),
                facing: None,
                formation: None,
                road: false,
            },
            Move {
                unit: "fr-line".into(),
                to: Some(Point::new(40.0, 25.0)),
                facing: None,
                formation: None,
                road: false,
            },
        ],
        ..TurnOrders::default()
    };
    let (s2, _) = turn(&s, o, vec![]);
    assert_eq!(s2.unit("fr-bat").unwrap().at.y, 20.0);
    // The line has Gén. Inf attached: it may go.
    assert_eq!(s2.unit("fr-line").unwrap().at.y, 25.0);
}

#[test]
fn receipt_checks_name_the_path_unit_and_rule() {
    let s = field();
    let o = Orders::Turn(TurnOrders {
        moves: vec![
            Move {
                unit: "fr-line".into(),
                to: Some(Point::new(40.0, 45.0)),
                facing: None,
                formation: Some(Formation::Limbered),
                road: false,
            },
            Move {
                unit: "fr-cuir".into(),
                to: Some(Point::new(15.0, 40.0)),
                facing: None,
                formation: None,
                road: false,
            },
        ],
        charges: vec![ChargeOrder {
            unit: "fr-line".into(),
            target: "au-line".into(),
            if_controlled: Controlled::Stay,
        }],
        ..TurnOrders::default()
    });
    let v = NapoleonicCorps.check(&s, &fr(), &o);
    assert!(
        v.iter()
            .any(|v| v.path == ["turn", "moves", "0"] && v.rule == check::FORMATION)
    );
    assert!(v.iter().any(|v| v.path == ["turn", "moves", "1"]
        && v.rule == check::DISTANCE
        && v.unit.as_deref() == Some("fr-cuir")));
    assert!(
        v.iter()
            .any(|v| v.path == ["turn", "charges", "0"] && v.rule == check::CHARGE)
    );
    // The other side may send only reactions.
    let v = NapoleonicCorps.check(&s, &au(), &o);
    assert_eq!(v[0].rule, check::SEQUENCE);
    assert!(
        NapoleonicCorps
            .check(&s, &au(), &Orders::Reactions(Reactions::default()))
            .is_empty()
    );
}

#[test]
fn template_lists_choices_and_parses_back() {
    let s = field();
    for side in [fr(), au()] {
        let t = NapoleonicCorps.orders_template(&s, &side).unwrap();
        assert!(t.contains("# Your units:"));
        let v: serde_yaml::Value = crate::yaml::from_str(&t).unwrap();
        let o: Orders = crate::yaml::from_value(v).unwrap();
        assert!(NapoleonicCorps.check(&s, &side, &o).is_empty());
    }
}

#[test]
fn the_map_shows_each_formation_distinctly() {
    let mut s = field();
    place(&mut s, "fr-line", 40.0, 20.0, 0.0, Formation::Square);
    let v = NapoleonicCorps.view(&s, &crate::view::Viewer::Public);
    let u = v.map.units.iter().find(|u| u.id == "fr-line").unwrap();
    assert_eq!(u.formation, "square");
    assert_eq!(u.bases.len(), 4);
    let j = v.map.units.iter().find(|u| u.id == "au-jag").unwrap();
    assert_eq!(j.formation, "skirmish");
    assert!(v.panels.iter().any(|p| p.title == "Corps"));
    assert!(v.panels[0].lines.iter().any(|l| l.contains("army morale")));
}

#[test]
fn the_demo_plays_the_battle_to_a_result_by_army_morale() {
    use crate::ruleset::{AnyRuleset, DemoPlayer};
    let r: &dyn AnyRuleset = &NapoleonicCorps;
    let mut p = demo::Player;
    let mut state = r.start(p.scenario()).unwrap();
    for step in 0..400u64 {
        if let Some(o) = r.outcome(&state).unwrap() {
            assert!(o.reason.contains("army morale"), "{}", o.reason);
            return;
        }
        let due = r.due(&state).unwrap();
        let mut orders = BySide::new();
        for owed in due.owed.iter() {
            let o = p.orders(&state, owed).unwrap();
            assert!(r.check(&state, &owed.side, &o).unwrap().is_empty(), "{o:?}");
            orders.insert(owed.side.clone(), o);
        }
        for owed in due.optional.iter() {
            if let Some(o) = p.optional(&state, owed, step as u32).unwrap() {
                orders.insert(owed.side.clone(), o);
            }
        }
        let mut seed = [0u8; 32];
        seed[..8].copy_from_slice(&step.to_le_bytes());
        let res = r
            .resolve(&state, &orders, &mut Dice::from_seeds(seed, seed))
            .unwrap();
        state = res.state;
    }
    panic!("no result in 400 steps");
}

//! B.3 charges, B.6 melee, the melee effects of sections C and E (generals,
//! squares, pursuit) and the engineers' breach, all with scripted dice.
//!
//! The usual set-up: Blue Line's front edge at y = 20 facing Red, Red
//! Line's front edge at y = 22.5 facing Blue, 2.5 in apart.

use crate::common::*;
use galloper::dice::Dice;
use galloper::geometry::{Angle, Point};
use galloper::ruleset::Ruleset;
use galloper::rulesets::morschauser_macduff::MorschauserMacduff;
use galloper::rulesets::morschauser_macduff::orders::{Action, PathStep, Sequence};
use galloper::rulesets::morschauser_macduff::scenario::{Personality, TerrainKind};
use galloper::rulesets::morschauser_macduff::state::{Breach, General, State};
use galloper::side::BySide;

/// What Blue's half-turn did.
struct Out {
    state: State,
    texts: Vec<String>,
    /// Each die as (value, purpose).
    dice: Vec<(u32, String)>,
}

impl Out {
    fn has(&self, needle: &str) -> bool {
        self.texts.iter().any(|t| t.contains(needle))
    }
    fn rolled(&self, needle: &str) -> usize {
        self.dice.iter().filter(|(_, p)| p.contains(needle)).count()
    }
    fn hits(&self, id: &str) -> u32 {
        self.state.company(id).expect("company").hits
    }
    fn at(&self, id: &str) -> Point {
        self.state.company(id).expect("company").at
    }
    fn gone(&self, id: &str) -> bool {
        !self.state.company(id).expect("company").on_table()
    }
}

/// Blue's half-turn; every scripted die must be used.
fn run(s: &State, actions: Vec<Action>, dice: Vec<u32>) -> Out {
    let n = dice.len();
    let mut orders = BySide::new();
    orders.insert(blue(), turn(actions));
    let mut d = Dice::scripted(dice);
    let r = MorschauserMacduff.resolve(s, &orders, &mut d);
    let log: Vec<(u32, String)> = d
        .log()
        .iter()
        .map(|x| (x.value, x.purpose.clone()))
        .collect();
    let texts: Vec<String> = r.events.into_iter().map(|e| e.text).collect();
    assert_eq!(log.len(), n, "dice used: {log:#?}\n{texts:#?}");
    Out {
        state: r.state,
        texts,
        dice: log,
    }
}

/// Blue Line and Red Line 2.5 in apart, face to face.
fn face_to_face() -> State {
    let mut s = clear();
    place(&mut s, "b-li", 10.0, 20.0, 0.0);
    place(&mut s, "r-li", 10.0, 22.5, 180.0);
    s
}

fn general(s: &mut State, side: &str, company: &str, p: Option<Personality>) {
    let at = s.company(company).expect("company").at;
    s.generals.push(General {
        id: format!("{side}-gen"),
        name: format!("{side} General"),
        side: galloper::side::SideId::new(side),
        at,
        personality: p,
        attached: Some(company.into()),
        killed: false,
    });
}

#[test]
fn b6_a_die_per_sp_hits_at_or_under_the_value_and_the_loser_retreats_a_full_move() {
    // Blue (front 3): 1 and 3 hit, 4 and 6 miss. Red (front 3): only 2 hits.
    let out = run(&face_to_face(), vec![], vec![1, 3, 4, 6, 2, 5, 6, 6]);
    assert_eq!(out.rolled("Blue Line (b-li), 4 SP, attacks Red Line"), 4);
    assert_eq!(out.rolled("Red Line (r-li), 4 SP, fights back"), 4);
    assert_eq!(out.hits("r-li"), 2);
    assert_eq!(out.hits("b-li"), 1);
    // Red took more hits: straight back a full 12 in, still facing Blue.
    let red = out.at("r-li");
    assert!(
        (red.y - 34.5).abs() < 1e-6 && (red.x - 10.0).abs() < 1e-6,
        "{red:?}"
    );
    assert!(out.has("retreats 12.0 in away from Blue Line"));
    assert_eq!(out.at("b-li"), Point::new(10.0, 20.0));
}

/// B.6, as data: the melee's events name the hits each side scored as the
/// attacker's and the defender's totals (issue 30: the JSON `galloper
/// resolve` writes says what each number is).
#[test]
fn b6_the_melee_events_name_the_attackers_and_the_defenders_totals() {
    let mut orders = BySide::new();
    orders.insert(blue(), turn(vec![]));
    let mut d = Dice::scripted(vec![1, 3, 4, 6, 2, 5, 6, 6]);
    let r = MorschauserMacduff.resolve(&face_to_face(), &orders, &mut d);
    let json = serde_json::to_value(&r.events).unwrap();
    let melee: Vec<&serde_json::Value> = json
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["what"] == "melee" || e["what"] == "fights_back")
        .collect();
    assert_eq!(melee.len(), 2, "{json:#}");
    for e in melee {
        assert_eq!(e["facts"]["attacker_total"], 2, "{e:#}");
        assert_eq!(e["facts"]["defender_total"], 1, "{e:#}");
    }
}

#[test]
fn b6_equal_hits_are_a_draw_and_nobody_moves() {
    let out = run(&face_to_face(), vec![], vec![1, 4, 4, 4, 1, 4, 4, 4]);
    assert_eq!((out.hits("b-li"), out.hits("r-li")), (1, 1));
    assert!(out.has("is drawn"));
    assert_eq!(out.at("r-li"), Point::new(10.0, 22.5));
}

#[test]
fn b6_hits_to_zero_remove_the_company() {
    let mut s = face_to_face();
    s.company_mut("r-li").unwrap().hits = 3;
    // Red has 1 SP: one die; Blue's 1 destroys it.
    let out = run(&s, vec![], vec![1, 6, 6, 6, 6]);
    assert!(out.gone("r-li"));
    assert_eq!(out.state.losses[&red()], 1);
}

#[test]
fn b3_a_charge_without_a_path_goes_straight_at_its_target_and_melees() {
    let mut s = clear();
    place(&mut s, "b-hc", 10.0, 10.0, 0.0);
    place(&mut s, "r-li", 10.0, 22.0, 180.0);
    // Heavy cavalry front 4: two hits; Red front 3: two hits; drawn.
    let out = run(
        &s,
        vec![charge("b-hc", "r-li")],
        vec![4, 4, 5, 5, 3, 3, 4, 6],
    );
    let y = out.at("b-hc").y;
    assert!(y > 21.7 && y <= 22.0, "it reached Red: {y}");
    assert_eq!(
        out.rolled("Blue Heavy Horse (b-hc), 4 SP, attacks Red Line (r-li): hits on 1-4"),
        4
    );
    assert_eq!((out.hits("b-hc"), out.hits("r-li")), (2, 2));
}

#[test]
fn b3_within_3_inches_a_charge_may_only_halt_or_close() {
    let mut s = clear();
    place(&mut s, "b-hc", 10.0, 10.0, 0.0);
    place(&mut s, "r-li", 10.0, 22.0, 180.0);
    let mut a = charge("b-hc", "r-li");
    // Into 3 in, then off to the right along Red's front and away.
    a.path = vec![
        PathStep::To(Point::new(10.0, 19.5)),
        PathStep::To(Point::new(25.0, 19.5)),
    ];
    let out = run(&s, vec![a], vec![6, 6, 6, 6, 6, 6, 6, 6]);
    assert!(out.has("within 3 in of Red Line (r-li) it may only halt or close"));
    let x = out.at("b-hc").x;
    assert!(x < 15.0, "it slid along Red's front but no further: {x}");
    assert!(out.has("Melee: Blue Heavy Horse (b-hc) attacks Red Line (r-li)"));
}

#[test]
fn b3_a_charge_that_falls_short_fights_no_melee() {
    let mut s = clear();
    place(&mut s, "b-li", 10.0, 10.0, 0.0);
    place(&mut s, "r-li", 10.0, 40.0, 180.0);
    let out = run(&s, vec![charge("b-li", "r-li")], vec![]);
    assert!(out.has("charge at r-li falls short"));
    assert!((out.at("b-li").y - 22.0).abs() < 1e-6);
}

#[test]
fn b3_wholly_behind_the_front_before_3_inches_is_a_flank_attack_on_the_rear_value() {
    let mut s = clear();
    place(&mut s, "r-li", 10.0, 30.0, 180.0);
    // Beside Red, level with its rear: behind the line of its front.
    place(&mut s, "b-hc", 20.0, 31.5, 270.0);
    // Red's 2s would hit on its front 3 but not on its rear 1.
    let out = run(
        &s,
        vec![charge("b-hc", "r-li")],
        vec![5, 5, 5, 5, 2, 2, 2, 2],
    );
    assert!(out.rolled("attacks Red Line (r-li) in the flank") == 4);
    assert!(out.rolled("hits on 1-1 (rear 1)") == 4);
    assert_eq!(out.hits("b-hc"), 0);
}

#[test]
fn b3_a_flank_claimed_from_in_front_is_refused() {
    let mut s = clear();
    place(&mut s, "r-li", 10.0, 30.0, 180.0);
    place(&mut s, "b-hc", 10.0, 15.0, 0.0);
    let mut a = charge("b-hc", "r-li");
    a.charge.as_mut().unwrap().flank = true;
    let out = run(&s, vec![a], vec![5, 5, 5, 5, 2, 2, 2, 2]);
    assert!(out.has("no flank attack (B.3)"));
    assert_eq!(out.rolled("hits on 1-3 (front 3)"), 4);
    assert!(out.gone("b-hc"));
}

#[test]
fn b3_the_first_enemy_within_3_inches_is_the_one_attacked() {
    let mut s = clear();
    add_red(&mut s, "r-2", 10.0, 22.0);
    place(&mut s, "r-li", 10.0, 40.0, 180.0);
    place(&mut s, "b-hc", 10.0, 10.0, 0.0);
    let out = run(
        &s,
        vec![charge("b-hc", "r-li")],
        vec![6, 6, 6, 6, 6, 6, 6, 6],
    );
    assert!(out.has("must attack it instead of r-li (B.3)"));
    assert!(out.has("attacks Red r-2 (r-2)"));
}

#[test]
fn b6_a_bold_general_with_the_company_adds_one() {
    let mut s = face_to_face();
    general(&mut s, "blue", "b-li", Some(Personality::Bold));
    let out = run(&s, vec![], vec![4, 4, 4, 4, 6, 6, 6, 6]);
    assert!(out.rolled("hits on 1-4 (front 3, +1 bold General blue General with it)") == 4);
    assert!(out.gone("r-li"));
}

#[test]
fn b6_an_unknown_general_is_rolled_for_and_an_indecisive_one_adds_nothing() {
    let mut s = face_to_face();
    general(&mut s, "blue", "b-li", None);
    let out = run(&s, vec![], vec![5, 4, 4, 4, 4, 6, 6, 6, 6]);
    assert!(out.has("General blue General proves to be indecisive"));
    assert_eq!(out.hits("r-li"), 0);
    assert_eq!(
        out.state.general("blue-gen").unwrap().personality,
        Some(Personality::Indecisive)
    );
}

#[test]
fn b6_one_melee_initiated_a_turn_but_fighting_back_every_time() {
    let mut s = face_to_face();
    place(&mut s, "b-li2", 13.0, 20.0, 0.0);
    let out = run(&s, vec![action("b-li")], vec![6; 16]);
    assert_eq!(out.rolled("Blue Line (b-li), 4 SP, attacks"), 4);
    assert_eq!(out.rolled("Blue Line 2 (b-li2), 4 SP, attacks"), 4);
    assert_eq!(out.rolled("Red Line (r-li), 4 SP, fights back"), 8);
}

#[test]
fn b6_after_a_forced_melee_it_may_advance_but_not_shoot() {
    let mut s = face_to_face();
    s.company_mut("r-li").unwrap().hits = 3;
    let a = Action {
        sequence: Sequence::MoveThenShoot,
        target: Some("r-li".into()),
        path: vec![PathStep::Forward(galloper::geometry::Distance(2.0))],
        ..action("b-li")
    };
    let out = run(&s, vec![a], vec![1, 6, 6, 6, 6]);
    assert!(out.gone("r-li"));
    assert!(out.has("advances after the melee"));
    assert!((out.at("b-li").y - 22.0).abs() < 1e-6);
    assert!(!out.has("shoots"));
}

#[test]
fn b6_after_a_forced_melee_with_the_enemy_still_close_a_move_is_a_retreat() {
    let a = Action {
        sequence: Sequence::MeleeThenMove,
        path: vec![PathStep::Forward(galloper::geometry::Distance(2.0))],
        ..action("b-li")
    };
    let out = run(&face_to_face(), vec![a], vec![6; 8]);
    assert!(out.has("falls back 12.0 in from Red Line"));
    assert!((out.at("b-li").y - 8.0).abs() < 1e-6);
}

fn penalty(kind: TerrainKind, outline: galloper::geometry::Shape, note: &str) {
    let mut s = face_to_face();
    terrain(&mut s, "ground", kind, outline);
    // Blue's 3s would hit at front 3; with the penalty they miss.
    let out = run(&s, vec![], vec![3, 3, 3, 3, 6, 6, 6, 6]);
    assert_eq!(out.rolled(note), 4, "{:#?}", out.dice);
    assert_eq!(out.hits("r-li"), 0);
}

#[test]
fn c2_attacking_into_woods_is_minus_1() {
    penalty(
        TerrainKind::Woods,
        rect(8.0, 23.0, 12.0, 27.0),
        "-1 attacking into woods",
    );
}

#[test]
fn c5_attacking_into_a_town_is_minus_1() {
    penalty(
        TerrainKind::Town,
        rect(8.0, 23.0, 12.0, 27.0),
        "-1 attacking into a town",
    );
}

#[test]
fn c6_attacking_into_an_earthwork_is_minus_1() {
    penalty(
        TerrainKind::Earthwork,
        rect(8.0, 23.0, 12.0, 27.0),
        "-1 attacking into an earthwork",
    );
}

#[test]
fn c3_attacking_uphill_is_minus_1() {
    penalty(
        TerrainKind::Hill {
            steep: false,
            level: 1,
        },
        rect(0.0, 22.0, 30.0, 40.0),
        "-1 attacking uphill",
    );
}

#[test]
fn c4_attacking_from_the_water_against_the_bank_is_minus_1() {
    penalty(
        TerrainKind::Water { fordable: true },
        line(0.0, 19.0, 30.0, 19.0, 2.0),
        "-1 from the water against the bank",
    );
}

#[test]
fn c7_attacking_a_wall_giving_cover_is_minus_1() {
    penalty(
        TerrainKind::LowWall { cover: true },
        line(0.0, 22.8, 30.0, 22.8, 0.5),
        "-1 against a wall giving cover",
    );
}

#[test]
fn c7_attacking_over_an_abatis_is_minus_1() {
    penalty(
        TerrainKind::Abatis,
        line(0.0, 22.8, 30.0, 22.8, 0.5),
        "-1 against an abatis",
    );
}

// ---- Issue 30: who may attack into woods and towns; cover at the face ----

/// Blue Heavy Horse 2.5 in from Red Line, which stands in `kind`.
fn horse_against_red_in(kind: TerrainKind) -> State {
    let mut s = clear();
    place(&mut s, "b-hc", 10.0, 20.0, 0.0);
    place(&mut s, "r-li", 10.0, 22.5, 180.0);
    terrain(&mut s, "ground", kind, rect(8.0, 23.0, 12.0, 27.0));
    s
}

/// C.2 Woods: only a unit that may enter a wood may melee a unit in it, so
/// horse within 3" of foot in a wood does not fight, forced or charging.
#[test]
fn c2_only_a_unit_that_can_enter_a_wood_may_melee_a_unit_in_it() {
    let s = horse_against_red_in(TerrainKind::Woods);
    let out = run(&s, vec![], vec![]);
    assert!(
        out.has(
            "cannot attack Red Line (r-li) in The ground: heavy cavalry may not enter woods (C.2)"
        ),
        "{:#?}",
        out.texts
    );
    assert_eq!((out.hits("r-li"), out.hits("b-hc")), (0, 0));
    // A charge from afar comes up to the wood and is refused there too.
    let mut s = horse_against_red_in(TerrainKind::Woods);
    place(&mut s, "b-hc", 10.0, 12.0, 0.0);
    let out = run(&s, vec![charge("b-hc", "r-li")], vec![]);
    assert!(out.has("may not enter woods (C.2)"), "{:#?}", out.texts);
    assert_eq!(out.hits("r-li"), 0);
    // Infantry may enter the wood: it attacks, at -1.
    let mut s = horse_against_red_in(TerrainKind::Woods);
    place(&mut s, "b-hc", 30.0, -100.0, 0.0);
    place(&mut s, "b-li", 10.0, 20.0, 0.0);
    let out = run(&s, vec![], vec![3, 3, 3, 3, 6, 6, 6, 6]);
    assert_eq!(out.rolled("-1 attacking into woods"), 4);
}

/// C.5 Towns: only line and light infantry enter a town off the road, so
/// only they may melee a unit in it.
#[test]
fn c5_only_a_unit_that_can_enter_a_town_may_melee_a_unit_in_it() {
    let s = horse_against_red_in(TerrainKind::Town);
    let out = run(&s, vec![], vec![]);
    assert!(
        out.has("cannot attack Red Line (r-li) in The ground: heavy cavalry may not enter a town off the road (C.5)"),
        "{:#?}",
        out.texts
    );
    assert_eq!((out.hits("r-li"), out.hits("b-hc")), (0, 0));
}

/// C.6: earthworks are treated like towns, but guns may stand in them: horse
/// may not melee a company in one.
#[test]
fn c6_horse_may_not_melee_a_company_in_an_earthwork() {
    let s = horse_against_red_in(TerrainKind::Earthwork);
    let out = run(&s, vec![], vec![]);
    assert!(
        out.has("heavy cavalry may not enter an earthwork (C.6)"),
        "{:#?}",
        out.texts
    );
    assert_eq!(out.hits("r-li"), 0);
}

/// B.6 with C.2: a company within 3" of foot in a wood and of foot in the
/// open attacks the one it may reach.
#[test]
fn b6_c2_forced_to_attack_horse_takes_the_enemy_it_may_attack() {
    let mut s = horse_against_red_in(TerrainKind::Woods);
    add_red(&mut s, "r-open", 13.5, 22.8);
    let out = run(&s, vec![], vec![6; 8]);
    assert_eq!(out.rolled("attacks Red r-open"), 4, "{:#?}", out.dice);
    assert!(!out.has("cannot attack"), "{:#?}", out.texts);
}

/// C.7 with the convention "any part of the base touching": a company
/// whose front edge lies on the face of a wall giving cover has the cover.
#[test]
fn c7_a_company_flush_against_the_face_of_a_covering_wall_has_its_cover() {
    // The wall runs along y 22 to 22.5: Red Line's front edge is its face.
    penalty(
        TerrainKind::LowWall { cover: true },
        line(0.0, 22.25, 30.0, 22.25, 0.5),
        "-1 against a wall giving cover",
    );
}

/// C.7: the same for an abatis whose face the defender's front edge lies on.
#[test]
fn c7_a_company_flush_against_the_face_of_an_abatis_has_it() {
    penalty(
        TerrainKind::Abatis,
        line(0.0, 22.25, 30.0, 22.25, 0.5),
        "-1 against an abatis",
    );
}

fn walled() -> State {
    let mut s = face_to_face();
    terrain(
        &mut s,
        "wall",
        TerrainKind::HighWall,
        line(0.0, 21.25, 30.0, 21.25, 0.5),
    );
    s
}

#[test]
fn c6_a_high_wall_cannot_be_attacked_without_ladders_or_a_breach() {
    let out = run(&walled(), vec![], vec![]);
    assert!(out.has("a high wall is attacked only with ladders or through a breach"));
    assert_eq!(out.hits("r-li"), 0);
}

#[test]
fn c6_storming_with_ladders_uses_the_rear_value() {
    let mut s = walled();
    s.company_mut("b-li").unwrap().ladders = true;
    let out = run(&s, vec![], vec![1, 2, 2, 2, 6, 6, 6, 6]);
    assert_eq!(
        out.rolled("hits on 1-1 (rear 1: on ladders against The wall"),
        4
    );
    assert_eq!(out.hits("r-li"), 1);
}

#[test]
fn c6_attacking_through_a_breach_is_minus_1() {
    let mut s = walled();
    s.breaches.push(Breach {
        wall: "wall".into(),
        at: Point::new(10.0, 21.25),
        cause: "test".into(),
    });
    let out = run(&s, vec![], vec![2, 3, 3, 3, 6, 6, 6, 6]);
    assert_eq!(out.rolled("-1 attacking the breach in The wall"), 4);
    assert_eq!(out.hits("r-li"), 1);
}

#[test]
fn c6_engineers_in_contact_blow_a_breach_on_4_to_6() {
    let mut s = clear();
    s.scenario.options.engineering = true;
    terrain(
        &mut s,
        "wall",
        TerrainKind::HighWall,
        line(0.0, 25.0, 30.0, 25.0, 0.5),
    );
    place(&mut s, "b-eng", 10.0, 20.0, 0.0);
    let a = Action {
        sequence: Sequence::MoveOnly,
        path: vec![PathStep::Forward(galloper::geometry::Distance(5.0))],
        breach: Some("wall".into()),
        ..action("b-eng")
    };
    let out = run(&s, vec![a.clone()], vec![4]);
    assert_eq!(out.state.breaches.len(), 1);
    assert_eq!(out.state.breaches[0].cause, "engineers b-eng");
    let out = run(&s, vec![a], vec![3]);
    assert!(out.state.breaches.is_empty());
    assert!(out.has("fails to breach"));
}

#[test]
fn c6_engineers_must_survive_a_round_of_melee_with_the_defenders_first() {
    let mut s = clear();
    s.scenario.options.engineering = true;
    terrain(
        &mut s,
        "wall",
        TerrainKind::HighWall,
        line(0.0, 25.0, 30.0, 25.0, 0.5),
    );
    place(&mut s, "b-eng", 10.0, 20.0, 0.0);
    place(&mut s, "r-li", 10.0, 27.0, 180.0);
    let a = Action {
        sequence: Sequence::MoveOnly,
        path: vec![PathStep::Forward(galloper::geometry::Distance(5.0))],
        breach: Some("wall".into()),
        ..action("b-eng")
    };
    // A drawn round (engineers 3 dice, Red 4), then the breach die.
    let out = run(&s, vec![a.clone()], vec![6, 6, 6, 6, 6, 6, 6, 5]);
    assert!(out.has("must survive a round of melee with r-li"));
    assert_eq!(out.state.breaches.len(), 1);
    // Destroyed in the round (Red's four 1s on 3 SP): no breach die.
    let out = run(&s, vec![a], vec![6, 6, 6, 1, 1, 1, 1]);
    assert!(out.gone("b-eng"));
    assert!(out.state.breaches.is_empty());
}

#[test]
fn c5_companies_leave_a_burning_town_on_their_next_move() {
    let mut s = face_to_face();
    place(&mut s, "r-li", 10.0, 45.0, 180.0);
    terrain(
        &mut s,
        "town",
        TerrainKind::Town,
        rect(0.0, 18.0, 20.0, 30.0),
    );
    s.burning.insert("town".into());
    let a = Action {
        path: vec![PathStep::Forward(galloper::geometry::Distance(5.0))],
        ..action("b-li")
    };
    let out = run(&s, vec![a], vec![]);
    assert!(out.has("leaves the burning The town"));
    assert!(out.has("used its move leaving the burning town"));
    let y = out.at("b-li").y;
    assert!(y <= 18.0 + 1e-9 && y > 17.0, "just outside the town: {y}");
}

#[test]
fn e5_an_enemy_die_of_6_kills_a_general_in_the_melee() {
    let mut s = face_to_face();
    s.scenario.options.risk_to_generals = true;
    general(&mut s, "red", "r-li", Some(Personality::Cautious));
    let out = run(&s, vec![], vec![6, 6, 6, 6, 6, 6, 6, 6, 6]);
    assert!(out.state.general("red-gen").unwrap().killed);
    assert!(out.has("falls in the melee"));
    let out = run(&s, vec![], vec![6, 6, 6, 6, 6, 6, 6, 6, 5]);
    assert!(!out.state.general("red-gen").unwrap().killed);
}

#[test]
fn e6_a_square_has_no_flank_and_cavalry_attack_it_with_their_rear_value() {
    let mut s = clear();
    s.scenario.options.squares = true;
    place(&mut s, "r-li", 10.0, 30.0, 180.0);
    add_red(&mut s, "r-sq", 10.0, 36.0);
    place(&mut s, "r-sq", 10.0, 36.0, 0.0);
    place(&mut s, "b-hc", 20.0, 31.5, 270.0);
    // Cavalry rear 2: two hits (front 4 would give four); Red front 3.
    let out = run(
        &s,
        vec![charge("b-hc", "r-li")],
        vec![2, 2, 3, 3, 3, 3, 3, 3],
    );
    assert_eq!(out.rolled("rear 2: cavalry against a square"), 4);
    assert_eq!(
        out.rolled("fights back against Blue Heavy Horse (b-hc): hits on 1-3 (front 3)"),
        4
    );
    assert_eq!(out.hits("r-li"), 2);
    assert!(out.gone("b-hc"));
    // Without the option it is a plain flank attack.
    s.scenario.options.squares = false;
    let out = run(
        &s,
        vec![charge("b-hc", "r-li")],
        vec![2, 2, 3, 3, 3, 3, 3, 3],
    );
    assert_eq!(out.rolled("in the flank"), 4);
    assert!(out.gone("r-li"));
}

#[test]
fn e8_cavalry_that_wins_may_pursue_3_inches_into_a_second_melee() {
    let mut s = clear();
    s.scenario.options.pursuit = true;
    place(&mut s, "b-hc", 10.0, 10.0, 0.0);
    place(&mut s, "r-li", 10.0, 22.0, 180.0);
    add_red(&mut s, "r-2", 10.0, 27.5);
    let mut a = charge("b-hc", "r-li");
    a.charge.as_mut().unwrap().pursue = true;
    let out = run(
        &s,
        vec![a.clone()],
        vec![1, 1, 1, 1, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6],
    );
    assert!(out.gone("r-li"));
    assert!(out.has("pursues into a second melee with Red r-2"));
    assert_eq!(out.rolled("Red r-2 (r-2), 4 SP, fights back"), 4);
    // Not asked for: no pursuit.
    let out = run(
        &s,
        vec![charge("b-hc", "r-li")],
        vec![1, 1, 1, 1, 6, 6, 6, 6],
    );
    assert!(!out.has("pursues"));
}

#[test]
fn e7j_special_troops_use_their_charging_value_when_they_charge() {
    let mut s = clear();
    place(&mut s, "b-lt", 10.0, 10.0, 0.0);
    place(&mut s, "r-li", 10.0, 22.0, 180.0);
    s.company_mut("b-lt").unwrap().profile.charging_front = Some(4);
    let out = run(&s, vec![charge("b-lt", "r-li")], vec![4, 4, 4, 6, 6, 6, 6]);
    assert_eq!(out.rolled("hits on 1-4 (charging 4 (E.7j))"), 3);
    assert_eq!(out.hits("r-li"), 3);
}

#[test]
fn b2_facing_is_kept_when_retreating() {
    let out = run(&face_to_face(), vec![], vec![1, 1, 6, 6, 6, 6, 6, 6]);
    assert_eq!(out.state.company("r-li").unwrap().facing, Angle(180.0));
}

#[test]
fn e3_a_routing_company_does_not_attack_but_defends() {
    let mut s = face_to_face();
    s.routing.insert("b-li".into());
    let out = run(&s, vec![], vec![]);
    assert!(!out.has("Melee:"));
    // Red's turn: Red attacks, and the routing company fights back.
    let mut s = face_to_face();
    s.routing.insert("r-li".into());
    let out = run(&s, vec![], vec![6; 8]);
    assert_eq!(out.rolled("Red Line (r-li), 4 SP, fights back"), 4);
}

//! Whole-mechanism tests on the small test field, each naming the source's
//! section it checks.

use super::formation::Formation;
use super::orders::{ChargeOrder, Controlled, FireOrder, Move, Orders, Reactions, TurnOrders};
use super::scenario::Scenario;
use super::state::{Phase, State};
use super::*;
use crate::dice::Dice;
use crate::geometry::{Angle, Distance, Point, Shape, TerrainFeature, TerrainTag};
use crate::ruleset::{OrdersKind, Ruleset};
use crate::side::{BySide, SideId};

const FIELD: &str = include_str!("../../../games/napoleonic-corps/test-skirmish.yaml");
const BATTLE: &str = include_str!("../../../games/napoleonic-corps/danube-crossroads.yaml");

pub(super) fn fr() -> SideId {
    "french".into()
}
pub(super) fn au() -> SideId {
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

pub(super) fn idx(s: &State, id: &str) -> usize {
    s.unit_index(id).unwrap()
}

/// A set-up on the test field, built step by step: the one place tests
/// put units where they want them.
pub(super) struct Setup(pub State);

impl Setup {
    /// The test field after setup, French phasing.
    pub fn new() -> Setup {
        Setup(field())
    }
    /// Unit `id` with its front edge centred at (x, y), facing, in `f`.
    pub fn at(mut self, id: &str, x: f64, y: f64, facing: f64, f: Formation) -> Setup {
        let i = idx(&self.0, id);
        let u = &mut self.0.units[i];
        u.at = Point::new(x, y);
        u.facing = Angle(facing);
        u.formation = f;
        self
    }
    pub fn formation(mut self, id: &str, f: Formation) -> Setup {
        let i = idx(&self.0, id);
        self.0.units[i].formation = f;
        self
    }
    pub fn disordered(mut self, id: &str) -> Setup {
        let i = idx(&self.0, id);
        self.0.units[i].disordered = true;
        self
    }
    pub fn troop(mut self, id: &str, troop: tables::Troop) -> Setup {
        let i = idx(&self.0, id);
        self.0.units[i].troop = troop;
        self
    }
    /// A copy of unit `id` as `new`, at (x, y) facing as it does.
    pub fn copy(mut self, id: &str, new: &str, x: f64, y: f64) -> Setup {
        let mut u = self.0.unit(id).unwrap().clone();
        u.id = new.into();
        u.name = new.into();
        u.at = Point::new(x, y);
        self.0.units.push(u);
        self
    }
    pub fn detach_generals(mut self) -> Setup {
        for g in self.0.generals.iter_mut() {
            g.attached = None;
        }
        self
    }
    pub fn reactions(mut self, side: SideId, r: Reactions) -> Setup {
        self.0.reactions.insert(side, r);
        self
    }
    /// `side`'s units named hold their fire in defensive fire.
    pub fn hold_fire(self, side: SideId, ids: &[&str]) -> Setup {
        self.reactions(
            side,
            Reactions {
                hold_fire: ids.iter().map(|x| x.to_string()).collect(),
                ..Reactions::default()
            },
        )
    }
    pub fn terrain(mut self, t: TerrainFeature) -> Setup {
        self.0.scenario.terrain.push(t);
        self
    }
    pub fn phasing(mut self, side: SideId) -> Setup {
        self.0.phase = Phase::Turn {
            turn: 1,
            phasing: side,
        };
        self
    }
    pub fn state(self) -> State {
        self.0
    }
}

/// An upright rectangle of ground with `tags`.
pub(super) fn ground(
    id: &str,
    tags: Vec<TerrainTag>,
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
) -> TerrainFeature {
    TerrainFeature {
        id: id.into(),
        name: id.into(),
        tags,
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

/// A road `width` cm across along `points`.
pub(super) fn road(points: &[(f64, f64)], width: f64) -> TerrainFeature {
    TerrainFeature {
        id: "road".into(),
        name: "road".into(),
        tags: vec![TerrainTag::Road],
        elevation: None,
        shape: Shape::Polyline {
            points: points.iter().map(|&(x, y)| Point::new(x, y)).collect(),
            width: Distance(width),
        },
    }
}

/// A plain move of `unit` straight to (x, y).
pub(super) fn mv(unit: &str, x: f64, y: f64) -> Move {
    Move {
        unit: unit.into(),
        to: Some(Point::new(x, y)),
        facing: None,
        formation: None,
        via: Vec::new(),
        road: false,
    }
}

/// Turn orders of these moves only.
pub(super) fn moves(m: Vec<Move>) -> TurnOrders {
    TurnOrders {
        moves: m,
        ..TurnOrders::default()
    }
}

pub(super) fn turn(s: &State, o: TurnOrders, dice: Vec<u32>) -> (State, Vec<crate::event::Event>) {
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
    let mut s = Setup::new().disordered("fr-line").state();
    let i = idx(&s, "fr-line");
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
    let s = Setup::new().disordered("fr-cuir").state();
    let i = idx(&s, "fr-cuir");
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
    let s = Setup::new()
        .at("au-jag", 60.0, 10.0, 0.0, Formation::Line)
        .disordered("fr-bat")
        .state();
    let i = idx(&s, "fr-bat");
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
    let s = Setup::new().disordered("fr-line").state();
    // Rally roll 3 + 3 + 1 + general 1 = 8: still disordered; general's D6 5.
    let (s2, ev) = turn(&s, moves(vec![mv("fr-line", 40.0, 25.0)]), vec![3, 3, 5]);
    assert_eq!(s2.unit("fr-line").unwrap().at, Point::new(40.0, 20.0));
    assert!(ev.iter().any(|e| e.what == "refused"));
}

#[test]
fn squares_may_not_move_towards_visible_enemies() {
    // Movement special cases: squares may not move towards visible enemy units.
    let s = Setup::new()
        .at("fr-line", 40.0, 20.0, 0.0, Formation::Square)
        .state();
    let (s2, ev) = turn(&s, moves(vec![mv("fr-line", 40.0, 24.0)]), vec![]);
    assert_eq!(s2.unit("fr-line").unwrap().at.y, 20.0);
    assert!(
        ev.iter()
            .any(|e| e.text.contains("squares may not move towards"))
    );
}

#[test]
fn squares_may_move_towards_enemies_that_woods_hide() {
    // Movement special cases: only visible enemies stop a square; line of
    // sight is blocked by woods, towns and hills (house rule). The square
    // stands west of a wood with every enemy east of it.
    let wood = || ground("wood", vec![TerrainTag::Woods], 20.0, 0.0, 30.0, 60.0);
    let s = Setup::new()
        .terrain(wood())
        .at("fr-line", 10.0, 30.0, 90.0, Formation::Square)
        .at("fr-cuir", 5.0, 55.0, 0.0, Formation::Line)
        .at("au-hus", 75.0, 45.0, 270.0, Formation::Line)
        .state();
    let (s2, _) = turn(&s, moves(vec![mv("fr-line", 14.0, 30.0)]), vec![]);
    assert_eq!(s2.unit("fr-line").unwrap().at.x, 14.0);
    // Without the wood the same move is refused.
    let mut open = s.clone();
    open.scenario.terrain.retain(|t| t.id != "wood");
    let (s3, _) = turn(&open, moves(vec![mv("fr-line", 14.0, 30.0)]), vec![]);
    assert_eq!(s3.unit("fr-line").unwrap().at.x, 10.0);
}

#[test]
fn a_road_move_must_keep_to_the_road_for_the_whole_move() {
    // Movement Factors: "On road for entire move": 30 cm for infantry, but
    // only along the scenario's road.
    let s = Setup::new()
        .terrain(road(&[(0.0, 5.0), (80.0, 5.0)], 4.0))
        .at("fr-line", 5.0, 5.0, 90.0, Formation::Column)
        .state();
    let along = Move {
        road: true,
        ..mv("fr-line", 33.0, 5.0)
    };
    let (s2, _) = turn(&s, moves(vec![along.clone()]), vec![]);
    assert_eq!(s2.unit("fr-line").unwrap().at.x, 33.0);
    // 28 cm leaving the road at an angle: refused on receipt and in the turn.
    let off = Move {
        road: true,
        ..mv("fr-line", 30.0, 17.0)
    };
    let v = NapoleonicCorps.check(&s, &fr(), &Orders::Turn(moves(vec![off.clone()])));
    assert!(v.iter().any(|v| v.rule == movement::ROAD));
    let (s3, ev) = turn(&s, moves(vec![off]), vec![]);
    assert_eq!(s3.unit("fr-line").unwrap().at.x, 5.0);
    assert!(ev.iter().any(|e| e.text.contains("entire length")));
    // Without a road anywhere the player's word is not enough.
    let mut bare = s.clone();
    bare.scenario.terrain.clear();
    let v = NapoleonicCorps.check(&bare, &fr(), &Orders::Turn(moves(vec![along])));
    assert!(v.iter().any(|v| v.rule == movement::ROAD));
}

#[test]
fn movement_factors_a_road_move_along_a_bent_road_with_via_gets_the_road_rate() {
    // Movement Factors: "On road for entire move": a road that bends is
    // followed leg by leg; 25 + 5 = 30 cm, the infantry's road rate.
    let s = Setup::new()
        .terrain(road(&[(0.0, 5.0), (40.0, 5.0), (40.0, 45.0)], 4.0))
        .at("fr-line", 15.0, 5.0, 90.0, Formation::Column)
        .state();
    let bent: Move = crate::yaml::from_str(
        "{unit: fr-line, to: {x: 40, y: 10}, via: [{x: 40, y: 5}], road: true}",
    )
    .unwrap();
    assert_eq!(bent.via, vec![Point::new(40.0, 5.0)]);
    let o = moves(vec![bent.clone()]);
    assert!(
        NapoleonicCorps
            .check(&s, &fr(), &Orders::Turn(o.clone()))
            .is_empty()
    );
    let (s2, _) = turn(&s, o, vec![]);
    assert_eq!(s2.unit("fr-line").unwrap().at, Point::new(40.0, 10.0));
    let trace = s2.traces.last().unwrap();
    assert_eq!(trace.points[1], Point::new(40.0, 5.0));
    // The straight line to the same point cuts the corner, off the road.
    let straight = Move {
        via: Vec::new(),
        ..bent
    };
    let v = NapoleonicCorps.check(&s, &fr(), &Orders::Turn(moves(vec![straight])));
    assert!(v.iter().any(|v| v.rule == movement::ROAD));
}

#[test]
fn movement_factors_a_path_leaving_the_road_does_not_get_the_road_rate() {
    // Movement Factors: the road rate is for the entire move on road; a
    // waypoint off the road makes it an ordinary 18 cm column move, and
    // this 26.9 cm path is refused on receipt and in the turn.
    let s = Setup::new()
        .terrain(road(&[(0.0, 5.0), (40.0, 5.0), (40.0, 45.0)], 4.0))
        .at("fr-line", 15.0, 5.0, 90.0, Formation::Column)
        .state();
    let off = Move {
        road: true,
        via: vec![Point::new(28.0, 12.0)],
        ..mv("fr-line", 40.0, 10.0)
    };
    let v = NapoleonicCorps.check(&s, &fr(), &Orders::Turn(moves(vec![off.clone()])));
    assert!(v.iter().any(|v| v.rule == movement::ROAD
        && v.path == ["turn", "moves", "0"]
        && v.message.contains("leg 1")));
    assert!(v.iter().any(|v| v.rule == check::DISTANCE));
    let (s2, ev) = turn(&s, moves(vec![off]), vec![]);
    assert_eq!(s2.unit("fr-line").unwrap().at, Point::new(15.0, 5.0));
    assert!(ev.iter().any(|e| e.text.contains("entire length")));
}

#[test]
fn movement_factors_a_path_longer_than_the_allowance_is_refused_on_receipt() {
    // Movement Factors: infantry column 18 cm. The legs 10 + 10 = 20 cm
    // count, though the straight line between the ends is only 14.1 cm.
    let s = Setup::new()
        .at("fr-line", 20.0, 30.0, 90.0, Formation::Column)
        .state();
    let long = Move {
        via: vec![Point::new(30.0, 30.0)],
        ..mv("fr-line", 30.0, 40.0)
    };
    let v = NapoleonicCorps.check(&s, &fr(), &Orders::Turn(moves(vec![long.clone()])));
    assert!(v.iter().any(|v| v.rule == check::DISTANCE
        && v.path == ["turn", "moves", "0"]
        && v.unit.as_deref() == Some("fr-line")
        && v.message.contains("20.0 cm along the path")));
    let (s2, _) = turn(&s, moves(vec![long]), vec![]);
    assert_eq!(s2.unit("fr-line").unwrap().at, Point::new(20.0, 30.0));
    // A waypoint off the table is refused at its own entry.
    let off = Move {
        via: vec![Point::new(-5.0, 30.0)],
        ..mv("fr-line", 20.0, 31.0)
    };
    let v = NapoleonicCorps.check(&s, &fr(), &Orders::Turn(moves(vec![off])));
    assert!(v.iter().any(|v| v.rule == check::DISTANCE
        && v.path == ["turn", "moves", "0", "via", "0"]
        && v.message.contains("off the table")));
    // The straight one-leg move to the same point is within the allowance.
    assert!(
        NapoleonicCorps
            .check(
                &s,
                &fr(),
                &Orders::Turn(moves(vec![mv("fr-line", 30.0, 40.0)]))
            )
            .is_empty()
    );
}

#[test]
fn rough_terrain_a_path_through_woods_at_a_waypoint_tests() {
    // Rough Terrain: a unit that moves through rough ground tests; a
    // waypoint in the wood is a move through it though the unit ends clear.
    let mut s = Setup::new()
        .at("fr-line", 22.0, 32.0, 90.0, Formation::Column)
        .state();
    s.scenario.terrain = vec![ground(
        "wood",
        vec![TerrainTag::Woods],
        24.0,
        37.0,
        30.0,
        42.0,
    )];
    let straight = mv("fr-line", 28.0, 33.0);
    let (_, ev) = turn(&s, moves(vec![straight.clone()]), vec![]);
    assert!(!ev.iter().any(|e| e.what == "rough_terrain"));
    let through = Move {
        via: vec![Point::new(28.0, 40.0)],
        ..straight
    };
    let (s2, ev) = turn(&s, moves(vec![through]), vec![1, 1]);
    assert_eq!(s2.unit("fr-line").unwrap().at, Point::new(28.0, 33.0));
    let test = ev.iter().find(|e| e.what == "rough_terrain").unwrap();
    assert!(test.facts.modifiers.iter().any(|m| m.why == "woods"));
}

#[test]
fn movement_factors_a_one_leg_move_is_unchanged() {
    // Movement Factors: a move without `via` is one straight leg, written
    // back without a `via` key; a waypoint on that line changes nothing.
    let s = Setup::new()
        .at("fr-line", 20.0, 30.0, 90.0, Formation::Column)
        .state();
    let one = mv("fr-line", 35.0, 30.0);
    assert!(!serde_json::to_string(&one).unwrap().contains("via"));
    let (a, ea) = turn(&s, moves(vec![one.clone()]), vec![]);
    let split = Move {
        via: vec![Point::new(27.5, 30.0)],
        ..one
    };
    let (b, eb) = turn(&s, moves(vec![split]), vec![]);
    assert_eq!(a.unit("fr-line").unwrap().at, Point::new(35.0, 30.0));
    assert_eq!(a.units, b.units);
    let texts = |e: &[crate::event::Event]| e.iter().map(|e| e.text.clone()).collect::<Vec<_>>();
    assert_eq!(texts(&ea), texts(&eb));
    assert_eq!(a.traces.last().unwrap().points.len(), 2);
}

#[test]
fn infantry_may_not_move_into_frontal_contact_with_cavalry() {
    // Movement special cases.
    let s = Setup::new()
        .at("au-hus", 40.0, 30.0, 180.0, Formation::Line)
        .at("au-line", 40.0, 55.0, 180.0, Formation::Line)
        .state();
    let (s2, _) = turn(&s, moves(vec![mv("fr-line", 40.0, 32.0)]), vec![]);
    let (l, h) = (s2.unit("fr-line").unwrap(), s2.unit("au-hus").unwrap());
    assert!(s2.gap(l, h) >= 0.9, "stopped short: {}", s2.gap(l, h));
}

#[test]
fn an_infantry_column_contacting_infantry_forces_a_contact_check() {
    // Contact Morale check: any infantry contacted by an infantry column.
    let s = Setup::new()
        .at("au-line", 40.0, 30.0, 180.0, Formation::Line)
        .state();
    // Check: 1 + 2 + rally 1 = 4: retreat (the Austrians fall back).
    let (s2, ev) = turn(
        &s,
        moves(vec![mv("fr-line", 40.0, 30.0)]),
        vec![1, 2, 6, 6, 1, 1],
    );
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
    let s = Setup::new()
        .at("au-jag", 40.0, 30.0, 180.0, Formation::Skirmish)
        .at("au-line", 70.0, 55.0, 180.0, Formation::Line)
        .state();
    let (_, ev) = turn(
        &s,
        moves(vec![mv("fr-line", 40.0, 30.0)]),
        vec![6, 3, 6, 6, 1, 1],
    );
    let check = ev.iter().find(|e| e.what == "contact_check").unwrap();
    assert!(check.facts.modifiers.iter().any(|m| m.value == -3));
    // 9 + rally 1 - 3 = 7: disordered, not a pass.
    assert_eq!(check.facts.result.as_deref(), Some("disordered"));
}

#[test]
fn cavalry_withdraw_when_foot_comes_within_10_cm() {
    // Movement special cases: cavalry withdrawal, 2D6 cm, then the rally table.
    let s = Setup::new()
        .at("au-hus", 40.0, 40.0, 180.0, Formation::Line)
        .at("au-line", 70.0, 55.0, 180.0, Formation::Line)
        .reactions(
            au(),
            Reactions {
                withdraw: vec!["au-hus".into()],
                ..Reactions::default()
            },
        )
        .state();
    // 2D6 = 4 + 3 = 7 cm, then rally 5 + 4 = 9: pass.
    let (s2, ev) = turn(&s, moves(vec![mv("fr-line", 40.0, 33.0)]), vec![4, 3, 5, 4]);
    assert!(ev.iter().any(|e| e.what == "cavalry_withdrawal"));
    let h = s2.unit("au-hus").unwrap();
    assert!((h.at.y - 47.0).abs() < 0.5, "{:?}", h.at);
}

#[test]
fn rough_terrain_fails_into_unformed_which_clears_if_it_stands() {
    // Rough Terrain: failure makes the unit unformed; removed if it does not move.
    let s = Setup::new()
        .at("fr-cuir", 5.0, 20.0, 0.0, Formation::Line)
        .state();
    // 1 + 1 + rally 1 + woods 3 - line 1 - cavalry 1 = 4: fails.
    let (s2, ev) = turn(&s, moves(vec![mv("fr-cuir", 5.0, 30.0)]), vec![1, 1]);
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

pub(super) fn fire_at(
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
    let s = Setup::new()
        .at("au-jag", 60.0, 45.0, 180.0, Formation::Line)
        .hold_fire(au(), &["au-jag", "au-line"])
        .state();
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
fn advancing_fire_each_unit_fires_once_a_unit_listed_twice_is_refused_on_receipt() {
    // Advancing Fire Phase: the phasing player may fire any unit not in
    // contact, each once; a battery combining its fire mod with another's
    // shot (Fire Combat) has fired too. As a move listed twice, the second
    // listing is refused on receipt, at its own entry.
    let s = Setup::new().copy("fr-bat", "fr-bat2", 68.0, 20.0).state();
    let shot = |unit: &str, target: &str, with: Option<&str>| FireOrder {
        unit: unit.into(),
        target: target.into(),
        with: with.map(str::to_string),
    };
    let refused = |fire: Vec<FireOrder>| {
        NapoleonicCorps.check(
            &s,
            &fr(),
            &Orders::Turn(TurnOrders {
                fire,
                ..TurnOrders::default()
            }),
        )
    };
    let v = refused(vec![
        shot("fr-bat", "au-jag", None),
        shot("fr-bat", "au-line", None),
    ]);
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(
        (v[0].path.clone(), v[0].unit.as_deref(), v[0].rule.as_str()),
        (
            vec!["turn".to_string(), "fire".into(), "1".into()],
            Some("fr-bat"),
            check::FIRE_ONCE
        )
    );
    // The battery that combined fires no shot of its own.
    let v = refused(vec![
        shot("fr-bat", "au-jag", Some("fr-bat2")),
        shot("fr-bat2", "au-jag", None),
    ]);
    assert!(
        v.iter().any(|v| v.path == ["turn", "fire", "1"]
            && v.unit.as_deref() == Some("fr-bat2")
            && v.rule == check::FIRE_ONCE),
        "{v:?}"
    );
    // Nor does a battery combine with itself.
    let v = refused(vec![shot("fr-bat", "au-jag", Some("fr-bat"))]);
    assert!(
        v.iter()
            .any(|v| v.path == ["turn", "fire", "0"] && v.rule == check::FIRE_ONCE),
        "{v:?}"
    );
    // Each once: taken.
    assert!(refused(vec![shot("fr-bat", "au-jag", Some("fr-bat2"))]).is_empty());
}

#[test]
fn fire_beyond_triple_range_or_outside_the_arc_is_refused() {
    // Fire Combat: within range and 45 degrees of the front face.
    let s = Setup::new()
        .at("fr-bat", 60.0, 5.0, 0.0, Formation::Unlimbered)
        .at("au-jag", 60.0, 58.0, 0.0, Formation::Line)
        .state();
    let (_, ev) = fire_at(&s, "fr-bat", "au-jag", vec![]);
    assert!(
        ev.iter()
            .any(|e| e.what == "refused" && e.text.contains("out of range"))
    );
    let s = Setup::new()
        .at("au-jag", 84.0, 22.0, 180.0, Formation::Line)
        .state();
    let (_, ev) = fire_at(&s, "fr-bat", "au-jag", vec![]);
    assert!(
        ev.iter()
            .any(|e| e.what == "refused" && e.text.contains("45 degrees"))
    );
}

#[test]
fn terrain_blocks_the_line_of_fire() {
    // Fire Combat (line of fire): a wood between the battery and its target
    // blocks the shot (house rule: woods, towns and hills block).
    let s = Setup::new()
        .terrain(ground(
            "copse",
            vec![TerrainTag::Woods],
            55.0,
            25.0,
            65.0,
            30.0,
        ))
        .hold_fire(au(), &["au-jag", "au-line"])
        .state();
    let (_, ev) = fire_at(&s, "fr-bat", "au-jag", vec![]);
    assert!(
        ev.iter()
            .any(|e| e.what == "refused" && e.text.contains("copse blocks the line of fire")),
        "{ev:?}"
    );
    // A target inside the wood is seen (and has cover).
    let s = Setup::new()
        .terrain(ground(
            "copse",
            vec![TerrainTag::Woods],
            50.0,
            30.0,
            70.0,
            45.0,
        ))
        .hold_fire(au(), &["au-jag", "au-line"])
        .state();
    let (_, ev) = fire_at(&s, "fr-bat", "au-jag", vec![3, 3]);
    assert!(ev.iter().any(|e| e.what == "fire"));
}

#[test]
fn fire_over_units_only_by_higher_artillery() {
    // Fire Combat: firing over units only for higher artillery, and only if
    // the target is behind a battery or 10 cm behind another unit.
    let hill = || {
        let mut h = ground("ridge", vec![TerrainTag::Hill], 50.0, 10.0, 70.0, 22.0);
        h.elevation = Some(1.0);
        h
    };
    // The French line stands between the battery and the Jäger.
    let base = || {
        Setup::new()
            .at("fr-line", 60.0, 24.0, 0.0, Formation::Line)
            .at("au-jag", 60.0, 38.0, 180.0, Formation::Line)
    };
    let low = base().state();
    let f = low.unit("fr-bat").unwrap();
    let t = low.unit("au-jag").unwrap();
    assert!(
        fire::barrier(&low, f, t, &[])
            .unwrap()
            .contains("in the line of fire")
    );
    let high = base().terrain(hill()).state();
    let f = high.unit("fr-bat").unwrap();
    let t = high.unit("au-jag").unwrap();
    // 12 cm behind the line: the battery on the ridge fires over it.
    assert_eq!(fire::barrier(&high, f, t, &[]), None);
    // 6 cm behind it: too close to the friends in front.
    let close = base()
        .terrain(hill())
        .at("au-jag", 60.0, 30.0, 180.0, Formation::Line)
        .state();
    let f = close.unit("fr-bat").unwrap();
    let t = close.unit("au-jag").unwrap();
    assert!(fire::barrier(&close, f, t, &[]).is_some());
}

#[test]
fn reciprocity_lets_the_target_fire_back_over_the_same_units() {
    // Fire Combat: "Reciprocity applies if in arc": a battery fired on over
    // units by a higher battery may fire back over them when the higher
    // battery has it in its arc; without the higher battery's reach, not.
    let hill = ground("ridge", vec![TerrainTag::Hill], 50.0, 10.0, 70.0, 22.0);
    let s = Setup::new()
        .terrain(hill)
        .at("fr-line", 60.0, 24.0, 0.0, Formation::Line)
        .at("au-jag", 10.0, 50.0, 180.0, Formation::Line)
        .copy("au-line", "au-bat", 60.0, 38.0)
        .troop("au-bat", tables::Troop::MediumBattery)
        .formation("au-bat", Formation::Unlimbered)
        .state();
    let us = s.unit("au-bat").unwrap();
    let them = s.unit("fr-bat").unwrap();
    assert_eq!(fire::barrier(&s, us, them, &[]), None);
    // Turned away, the French battery no longer has the Austrian in its
    // arc: no reciprocity, and the line in between blocks.
    let mut turned = s.clone();
    let i = idx(&turned, "fr-bat");
    turned.units[i].facing = Angle(90.0);
    let us = turned.unit("au-bat").unwrap();
    let them = turned.unit("fr-bat").unwrap();
    assert!(fire::barrier(&turned, us, them, &[]).is_some());
}

#[test]
fn firing_modifiers_for_firer_and_target() {
    // Firing table modifiers together: firer in line +1, target in column
    // +1, target disordered +1, target mounted +1.
    let s = Setup::new()
        .at("fr-line", 40.0, 20.0, 0.0, Formation::Line)
        .at("au-hus", 40.0, 24.0, 180.0, Formation::Column)
        .disordered("au-hus")
        .state();
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
    let s = Setup::new()
        .copy("fr-bat", "fr-bat2", 68.0, 20.0)
        .troop("fr-bat2", tables::Troop::LightBattery)
        .state();
    let f = s.unit("fr-bat").unwrap().clone();
    let t = s.unit("au-jag").unwrap().clone();
    let b2 = s.unit("fr-bat2").unwrap().clone();
    let mods = fire::modifiers(&s, &f, &t, 13.0, Some(&b2));
    assert!(
        mods.iter()
            .any(|m| m.why == "fr-bat2 combining (a 0 adds 1)" && m.value == 1)
    );
}

#[test]
fn a_general_with_the_target_must_try_to_downgrade_and_risks_death() {
    // Divisional generals: MUST attempt to downgrade a 7+ result, 5+ on a D6;
    // each use risks death on a 1.
    let s = Setup::new()
        .phasing(au())
        .at("au-jag", 40.0, 24.0, 180.0, Formation::Skirmish)
        .hold_fire(fr(), &["fr-line", "fr-bat"])
        .state();
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
    let s = Setup::new()
        .at("au-hus", 15.0, 30.0, 180.0, Formation::Line)
        .hold_fire(au(), &["au-hus", "au-line", "au-jag"])
        .state();
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
    let s = Setup::new()
        .at("au-hus", 15.0, 40.0, 180.0, Formation::Line)
        .state();
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
    // The two fronts meet at y 22.
    let s = Setup::new()
        .at("fr-line", 40.0, 22.0, 0.0, Formation::Line)
        .at("au-line", 40.0, 22.0, 180.0, Formation::Line)
        .hold_fire(au(), &["au-jag"])
        .state();
    // French 4 + general 1 + D6 3 = 8; Austrian 3 + D6 5 = 8: a draw. General risk 6.
    let (s2, ev) = turn(&s, TurnOrders::default(), vec![3, 5, 6]);
    let m = ev.iter().find(|e| e.what == "melee").unwrap();
    assert_eq!(m.facts.hits, Some(0));
    // The data names each side's total for what it is (issue 30, item 23).
    assert_eq!(
        (m.facts.attacker_total, m.facts.defender_total),
        (Some(8), Some(8))
    );
    assert_eq!((m.facts.before, m.facts.after), (None, None));
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
    // The result names the loser in good English.
    assert!(
        o.reason
            .starts_with("the army morale of Austrian is broken"),
        "{}",
        o.reason
    );
    s.scenario.sides[1].name = "Austrians".into();
    let o = fatigue::verdict(&s).unwrap();
    assert!(
        o.reason
            .starts_with("the army morale of the Austrians is broken"),
        "{}",
        o.reason
    );
}

#[test]
fn a_corps_out_of_chips_may_not_advance_without_a_leader() {
    // Corps Fatigue: no chips left, no moving towards known enemies unless a
    // leader is attached.
    let mut s = field();
    let c = s.corps.iter().position(|c| c.id == "fr-c").unwrap();
    s.corps[c].chips = 0;
    let o = moves(vec![mv("fr-bat", 60.0, 23.0), mv("fr-line", 40.0, 25.0)]);
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
                formation: Some(Formation::Limbered),
                ..mv("fr-line", 40.0, 45.0)
            },
            mv("fr-cuir", 15.0, 40.0),
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

/// Uncomments each commented example entry of `side`'s template alone and
/// asserts the check takes the orders it gives (issue 27: a template a
/// player cannot break by uncommenting); the number of examples.
fn examples_taken(s: &State, side: &SideId) -> usize {
    let t = NapoleonicCorps.orders_template(s, side).unwrap();
    let lines: Vec<&str> = t.lines().collect();
    let mut n = 0;
    for (i, l) in lines.iter().enumerate() {
        if !l.trim_start().starts_with("# - ") {
            continue;
        }
        let edited: Vec<String> = lines
            .iter()
            .enumerate()
            .map(|(j, x)| {
                if j == i {
                    x.replacen("# ", "", 1)
                } else {
                    x.to_string()
                }
            })
            .collect();
        let edited = edited.join("\n");
        let o: Orders = crate::yaml::from_str(&edited).unwrap_or_else(|e| panic!("{e}\n{edited}"));
        let v = NapoleonicCorps.check(s, side, &o);
        assert!(v.is_empty(), "{v:?}\n{edited}");
        n += 1;
    }
    n
}

#[test]
fn every_template_example_uncommented_alone_is_taken() {
    let sc: Scenario = crate::yaml::from_str(FIELD).unwrap();
    let setup = NapoleonicCorps.start(&sc).unwrap();
    let s = field();
    for side in [fr(), au()] {
        assert!(examples_taken(&setup, &side) > 0, "setup, {side}");
        assert!(examples_taken(&s, &side) > 0, "turn or reactions, {side}");
    }
    // The decision: who forms square, who fires at what.
    let t = NapoleonicCorps.orders_template(&paused(), &au()).unwrap();
    assert!(t.contains("  square:\n    # - "), "{t}");
    assert!(t.contains("  fire:\n    # - {unit: "), "{t}");
    assert!(examples_taken(&paused(), &au()) > 1, "{t}");
}

#[test]
fn the_map_shows_each_formation_distinctly() {
    let s = Setup::new().formation("fr-line", Formation::Square).state();
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

/// The test field before setup.
fn unset() -> State {
    let sc: Scenario = crate::yaml::from_str(FIELD).unwrap();
    NapoleonicCorps.start(&sc).unwrap()
}

#[test]
fn deployment_zones_are_drawn_at_setup_and_hold_every_unit() {
    // House rule (the source has no set-up): each side's units stand, and
    // may be moved in step 1, within its deployment zone.
    let s = unset();
    let v = NapoleonicCorps.view(&s, &crate::view::Viewer::Public);
    assert_eq!(v.map.deployment.len(), 2);
    assert_eq!(v.map.deployment[1].side, 1);
    assert_eq!(v.map.deployment[1].points[0], Point::new(0.0, 33.0));
    // After the setup step the zones are gone from the map.
    let v = NapoleonicCorps.view(&field(), &crate::view::Viewer::Public);
    assert!(v.map.deployment.is_empty());
    // A scenario unit outside its zone is refused.
    let text = FIELD.replace("at: {x: 15, y: 45}", "at: {x: 15, y: 30}");
    let sc: Scenario = crate::yaml::from_str(&text).unwrap();
    assert!(sc.check().unwrap_err().contains("deployment zone"));
}

#[test]
fn setup_may_move_a_unit_within_its_zone_only() {
    let s = unset();
    let place = |y: f64| {
        Orders::Deploy(orders::Deployment {
            formations: vec![orders::FormationChoice {
                unit: "fr-line".into(),
                formation: Formation::Line,
                at: Some(Point::new(30.0, y)),
                facing: None,
            }],
        })
    };
    let v = NapoleonicCorps.check(&s, &fr(), &place(30.0));
    assert!(
        v.iter()
            .any(|v| v.rule == check::ZONE && v.path == ["deploy", "formations", "0"])
    );
    assert!(NapoleonicCorps.check(&s, &fr(), &place(24.0)).is_empty());
    let mut o = BySide::new();
    o.insert(fr(), place(24.0));
    let r = NapoleonicCorps.resolve(&s, &o, &mut Dice::scripted(vec![1, 1, 1]));
    let u = r.state.unit("fr-line").unwrap();
    assert_eq!(
        (u.at, u.formation),
        (Point::new(30.0, 24.0), Formation::Line)
    );
}

/// The French column advances to musket range of the Austrian line, whose
/// side asked to be consulted.
fn paused() -> State {
    let s = Setup::new()
        .reactions(
            au(),
            Reactions {
                consult: true,
                ..Reactions::default()
            },
        )
        .state();
    let (s, ev) = turn(&s, moves(vec![mv("fr-line", 40.0, 30.0)]), vec![]);
    assert!(ev.iter().any(|e| e.what == "consulted"));
    s
}

#[test]
fn a_consulted_side_owes_its_defensive_fire_decision_mid_turn() {
    // Sequence of Play, Defensive Fire Phase: the non-phasing side forms
    // square or fires, not both; by email, when it asked, the turn pauses
    // after the movement phase for its decision.
    let s = paused();
    assert_eq!(s.unit("fr-line").unwrap().at, Point::new(40.0, 30.0));
    let due = NapoleonicCorps.due(&s);
    assert_eq!(due.owed.len(), 1);
    assert_eq!(
        (due.owed[0].side.clone(), due.owed[0].kind),
        (au(), OrdersKind::Decision)
    );
    // The decision is checked against the paused table.
    let bad = Orders::Decide(orders::Decision {
        square: vec!["au-hus".into(), "au-line".into()],
        fire: vec![
            orders::Shot {
                unit: "au-jag".into(),
                target: "fr-bat".into(),
                with: None,
            },
            orders::Shot {
                unit: "au-line".into(),
                target: "fr-line".into(),
                with: None,
            },
        ],
        ..Default::default()
    });
    let v = NapoleonicCorps.check(&s, &au(), &bad);
    let at = |p: &[&str], rule: &str| v.iter().any(|v| v.path == p && v.rule == rule);
    assert!(at(&["decide", "square", "0"], check::SQUARE), "{v:?}");
    assert!(at(&["decide", "square", "1"], check::SQUARE), "not both");
    assert!(at(&["decide", "fire", "0"], check::FIRE), "out of range");
    // The French have nothing to send; the template offers the choices.
    assert_eq!(
        NapoleonicCorps.check(&s, &fr(), &bad)[0].rule,
        check::SEQUENCE
    );
    let t = NapoleonicCorps.orders_template(&s, &au()).unwrap();
    assert!(
        t.contains("au-line: may form square; may fire at fr-line"),
        "{t}"
    );
    // The decision: the line fires. 3 + 3, line +1, column target +1: 8,
    // disordered; Gén. Inf with the column lessens it on a 5, unhurt on 6.
    let fire = Orders::Decide(orders::Decision {
        fire: vec![orders::Shot {
            unit: "au-line".into(),
            target: "fr-line".into(),
            with: None,
        }],
        ..Default::default()
    });
    assert!(NapoleonicCorps.check(&s, &au(), &fire).is_empty());
    let mut o = BySide::new();
    o.insert(au(), fire);
    let r = NapoleonicCorps.resolve(&s, &o, &mut Dice::scripted(vec![3, 3, 5, 6]));
    assert!(r.events.iter().any(|e| e.what == "turn_resumes"));
    let f = r.events.iter().find(|e| e.what == "fire").unwrap();
    assert_eq!(f.facts.unit.as_ref().unwrap().id, "au-line");
    assert_eq!(
        r.state.phase,
        Phase::Turn {
            turn: 1,
            phasing: au()
        }
    );
    // Square instead: the line forms square and does not fire.
    let square = Orders::Decide(orders::Decision {
        square: vec!["au-line".into()],
        ..Default::default()
    });
    let mut o = BySide::new();
    o.insert(au(), square);
    let r = NapoleonicCorps.resolve(&s, &o, &mut Dice::scripted(vec![]));
    assert_eq!(
        r.state.unit("au-line").unwrap().formation,
        Formation::Square
    );
    assert!(!r.events.iter().any(|e| e.what == "fire"));
}

#[test]
fn a_decision_not_sent_is_left_to_the_standing_reactions() {
    // By email: the stated default of the pause is the standing reactions.
    let s = paused();
    let d = NapoleonicCorps.default_orders(&s, &au()).unwrap().unwrap();
    assert!(NapoleonicCorps.check(&s, &au(), &d).is_empty());
    let mut o = BySide::new();
    o.insert(au(), d);
    // Standing: the line fires at the nearest it may, the column.
    let r = NapoleonicCorps.resolve(&s, &o, &mut Dice::scripted(vec![3, 3, 5, 6]));
    assert!(r.events.iter().any(|e| e.what == "fire"));
}

/// The French line comes from 19 cm to 8 cm of the Austrian hussars, whose
/// side asked to be consulted and keeps no standing withdrawals.
fn hussars_set_off() -> State {
    let s = Setup::new()
        .at("au-hus", 15.0, 30.0, 180.0, Formation::Line)
        .reactions(
            au(),
            Reactions {
                consult: true,
                ..Reactions::default()
            },
        )
        .state();
    let o = TurnOrders {
        charges: vec![ChargeOrder {
            unit: "fr-cuir".into(),
            target: "au-hus".into(),
            if_controlled: Controlled::Stay,
        }],
        ..moves(vec![mv("fr-line", 25.0, 22.0)])
    };
    // No die in the movement phase: the withdrawal waits for the decision.
    let (s, ev) = turn(&s, o, vec![]);
    assert!(!ev.iter().any(|e| e.what == "cavalry_withdrawal"));
    assert!(ev.iter().any(|e| e.what == "consulted"));
    s
}

fn decide(d: orders::Decision) -> BySide<Orders> {
    decide_as(Orders::Decide(d))
}

#[test]
fn cavalry_withdrawal_a_consulted_side_owes_and_gets_its_withdrawal_decision() {
    // Movement special cases: cavalry that enemy infantry or artillery move
    // within 10 cm of may withdraw 2D6 cm, then roll on the rally table. By
    // email, a consulted side chooses at the pause (house rule: the end of
    // the movement phase), before defensive fire.
    let s = hussars_set_off();
    let Phase::Decision { pending, .. } = &s.phase else {
        panic!("not paused: {:?}", s.phase)
    };
    assert_eq!(
        pending.withdrawals,
        vec![contact::SetOff {
            unit: "au-hus".into(),
            by: "fr-line".into(),
        }]
    );
    assert_eq!(s.unit("au-hus").unwrap().at, Point::new(15.0, 30.0));
    let due = NapoleonicCorps.due(&s);
    assert_eq!(
        (due.owed[0].side.clone(), due.owed[0].kind),
        (au(), OrdersKind::Decision)
    );
    let t = NapoleonicCorps.orders_template(&s, &au()).unwrap();
    assert!(t.contains("#   au-hus: from fr-line"), "{t}");
    assert!(
        t.contains("  withdraw:\n    # - au-hus   # from fr-line\n"),
        "{t}"
    );
    assert!(examples_taken(&s, &au()) > 1, "{t}");
    let d = orders::Decision {
        withdraw: vec!["au-hus".into()],
        ..Default::default()
    };
    assert!(
        NapoleonicCorps
            .check(&s, &au(), &Orders::Decide(d.clone()))
            .is_empty()
    );
    // 2D6 = 4 + 3: 7 cm away from the line; rally 5 + 4 = 9: steady.
    let r = NapoleonicCorps.resolve(&s, &decide(d), &mut Dice::scripted(vec![4, 3, 5, 4]));
    let w = r
        .events
        .iter()
        .position(|e| e.what == "cavalry_withdrawal")
        .expect("the hussars withdraw");
    let resumed = r.events.iter().position(|e| e.what == "turn_resumes");
    assert!(
        resumed < Some(w),
        "the withdrawal comes as the turn resumes"
    );
    let h = r.state.unit("au-hus").unwrap();
    let moved = h.at.distance_to(Point::new(15.0, 30.0)).get();
    assert!((moved - 7.0).abs() < 1e-6, "{:?}", h.at);
    assert!(
        h.at.x < 15.0 && h.at.y > 30.0,
        "away from the line: {:?}",
        h.at
    );
    assert!(h.live() && !h.disordered);
    // Now out of the cuirassiers' 12 cm: their charge is refused.
    assert!(!r.events.iter().any(|e| e.what == "melee"));
}

#[test]
fn cavalry_withdrawal_a_unit_not_set_off_is_refused_with_its_line_and_rule() {
    // Movement special cases: only cavalry that enemy foot or guns came
    // within 10 cm of may withdraw, each once; `standing: true` names none.
    let s = hussars_set_off();
    let text = "orders:\n  decide:\n    standing: true\n    withdraw:\n      - au-line\n      - au-hus\n      - au-hus\n";
    #[derive(serde::Deserialize)]
    struct File {
        orders: Orders,
    }
    let f: File = crate::yaml::from_str(text).unwrap();
    let v = NapoleonicCorps.check(&s, &au(), &f.orders);
    let line = |unit: Option<&str>, path: &[&str]| {
        let v = v
            .iter()
            .find(|v| v.path == path && v.unit.as_deref() == unit)
            .unwrap_or_else(|| panic!("no refusal at {path:?}: {v:?}"));
        assert_eq!(v.rule, check::WITHDRAWAL);
        let p = crate::envelope::locate("orders.yaml", text, v);
        (p.file, p.line, p.rule)
    };
    let rule = Some(check::WITHDRAWAL.to_string());
    // au-line is not cavalry that was set off.
    assert_eq!(
        line(Some("au-line"), &["decide", "withdraw", "0"]),
        ("orders.yaml".into(), Some(5), rule.clone())
    );
    // au-hus named twice: the second is refused.
    assert_eq!(
        line(Some("au-hus"), &["decide", "withdraw", "2"]),
        ("orders.yaml".into(), Some(7), rule.clone())
    );
    assert!(!v.iter().any(|v| v.path == ["decide", "withdraw", "1"]));
    assert_eq!(
        line(None, &["decide", "standing"]),
        ("orders.yaml".into(), Some(3), rule)
    );
}

#[test]
fn cavalry_withdrawal_a_unit_not_withdrawn_stays_and_can_be_contacted() {
    // Movement special cases: withdrawal is a choice ("may"); hussars the
    // decision does not name stay where they are, and the cuirassiers'
    // charge reaches them. The stated default (standing reactions, none
    // withdraw) keeps them too.
    let s = hussars_set_off();
    for d in [
        orders::Decision::default(),
        NapoleonicCorps
            .default_orders(&s, &au())
            .unwrap()
            .and_then(|o| match o {
                Orders::Decide(d) => Some(d),
                _ => None,
            })
            .unwrap(),
    ] {
        let r = NapoleonicCorps.resolve(&s, &decide(d), &mut Dice::scripted(vec![6, 1, 6, 6]));
        assert!(!r.events.iter().any(|e| e.what == "cavalry_withdrawal"));
        assert!(r.events.iter().any(|e| e.what == "charge"));
        assert!(r.events.iter().any(|e| e.what == "melee"));
    }
    // With the standing list naming them, the default withdraws them.
    let mut s = s;
    s.reactions.get_mut(&au()).unwrap().withdraw = vec!["au-hus".into()];
    let d = NapoleonicCorps.default_orders(&s, &au()).unwrap().unwrap();
    let r = NapoleonicCorps.resolve(&s, &decide_as(d), &mut Dice::scripted(vec![4, 3, 5, 4]));
    assert!(r.events.iter().any(|e| e.what == "cavalry_withdrawal"));
}

fn decide_as(o: Orders) -> BySide<Orders> {
    let mut b = BySide::new();
    b.insert(au(), o);
    b
}

/// The cuirassiers charge the hussars and win (6 against 1: the hussars
/// retreat 20 cm), then roll 6 + 6 on the control table: controlled.
fn controlled_charge(then: Controlled, extra: Vec<u32>) -> (State, Vec<crate::event::Event>) {
    let s = Setup::new()
        .at("au-hus", 15.0, 30.0, 180.0, Formation::Line)
        .copy("au-line", "au-line2", 15.0, 41.0)
        .hold_fire(au(), &["au-hus", "au-line", "au-jag", "au-line2"])
        .state();
    let o = TurnOrders {
        charges: vec![ChargeOrder {
            unit: "fr-cuir".into(),
            target: "au-hus".into(),
            if_controlled: then,
        }],
        ..TurnOrders::default()
    };
    let mut dice = vec![6, 1, 6, 6];
    dice.extend(extra);
    let (s2, ev) = turn(&s, o, dice);
    let c = ev.iter().find(|e| e.what == "cavalry_control").unwrap();
    assert_eq!(c.facts.result.as_deref(), Some("controlled"));
    (s2, ev)
}

#[test]
fn cavalry_control_a_controlled_winner_moves_again_as_ordered() {
    // Cavalry Control Table, 10-12 controlled: may stay in place or make
    // another move; by email the charge order says which ahead.
    let (s, ev) = controlled_charge(
        Controlled::Move(orders::Onward {
            to: Some(Point::new(15.0, 22.0)),
            ..Default::default()
        }),
        vec![],
    );
    let control = ev.iter().position(|e| e.what == "cavalry_control").unwrap();
    assert!(
        ev[control..]
            .iter()
            .any(|e| e.what == "move" && e.facts.unit.as_ref().is_some_and(|u| u.id == "fr-cuir"))
    );
    assert_eq!(s.unit("fr-cuir").unwrap().at, Point::new(15.0, 22.0));
    // Stay (the default) leaves it where the melee left it.
    let (s, _) = controlled_charge(Controlled::Stay, vec![]);
    assert_eq!(s.unit("fr-cuir").unwrap().at, Point::new(15.0, 30.0));
}

#[test]
fn cavalry_control_a_controlled_winner_charges_again_as_ordered() {
    // Cavalry Control Table, 10-12 controlled: or another charge move; the
    // new contact fights in the next melee phase. The infantry it reaches,
    // unsquared, check contact morale (6 + 6: they stand).
    let text = "{unit: fr-cuir, target: au-hus, if_controlled: {charge: au-line2}}";
    let order: ChargeOrder = crate::yaml::from_str(text).unwrap();
    let (s, ev) = controlled_charge(order.if_controlled, vec![6, 6]);
    let charges: Vec<_> = ev.iter().filter(|e| e.what == "charge").collect();
    assert_eq!(charges.len(), 2);
    assert_eq!(charges[1].facts.target.as_ref().unwrap().id, "au-line2");
    assert!(ev.iter().any(|e| e.what == "contact_check"));
    let c = s.unit("fr-cuir").unwrap();
    assert!(s.contacts(c).iter().any(|u| u.id == "au-line2"));
}

#[test]
fn cavalry_control_orders_are_checked_on_receipt() {
    // Cavalry Control Table: another charge goes at an enemy; cavalry stand
    // in line or column.
    let s = field();
    let bad = |then: Controlled| {
        let o = Orders::Turn(TurnOrders {
            charges: vec![ChargeOrder {
                unit: "fr-cuir".into(),
                target: "au-hus".into(),
                if_controlled: then,
            }],
            ..TurnOrders::default()
        });
        NapoleonicCorps.check(&s, &fr(), &o)
    };
    let at = ["turn", "charges", "0", "if_controlled"];
    let v = bad(Controlled::Charge("fr-line".into()));
    assert!(
        v.iter()
            .any(|v| v.path == at && v.rule == check::CONTROLLED),
        "{v:?}"
    );
    let v = bad(Controlled::Move(orders::Onward {
        formation: Some(Formation::Square),
        ..Default::default()
    }));
    assert!(
        v.iter()
            .any(|v| v.path == at && v.rule == check::CONTROLLED),
        "{v:?}"
    );
    assert!(bad(Controlled::Charge("au-line".into())).is_empty());
}

/// An `orders:` block read from YAML text, as a player writes it.
fn orders_text(text: &str) -> Orders {
    #[derive(serde::Deserialize)]
    struct File {
        orders: Orders,
    }
    crate::yaml::from_str::<File>(text).unwrap().orders
}

/// The French, not phasing, with a second medium battery in contact with
/// the first, their reactions as given; the Austrian Jäger stand 15 cm
/// ahead of both. The Austrians' turn is resolved with `dice`.
fn french_batteries(reactions: &str) -> State {
    let Orders::Reactions(r) = orders_text(reactions) else {
        panic!("not reactions")
    };
    Setup::new()
        .copy("fr-bat", "fr-bat2", 68.0, 20.0)
        .phasing(au())
        .reactions(fr(), r)
        .state()
}

/// The one fire event of the defensive fire, fired by `fr-bat` with
/// `fr-bat2` combining, and no shot of `fr-bat2`'s own.
fn combined_once(ev: &[crate::event::Event]) {
    let fire: Vec<_> = ev.iter().filter(|e| e.what == "fire").collect();
    assert_eq!(fire.len(), 1, "{ev:#?}");
    let f = fire[0];
    assert_eq!(f.facts.unit.as_ref().unwrap().id, "fr-bat");
    assert_eq!(f.facts.target.as_ref().unwrap().id, "au-jag");
    assert_eq!(f.facts.units[0].id, "fr-bat2");
    assert!(
        f.facts
            .modifiers
            .iter()
            .any(|m| m.why == "fr-bat2 combining" && m.value == 1),
        "{:?}",
        f.facts.modifiers
    );
}

#[test]
fn defensive_fire_two_batteries_combine_by_a_standing_reaction() {
    // Fire Combat: two artillery units in contact combine their fire mods
    // at one target; in the Defensive Fire Phase by the standing reaction
    // `combine:` (fr-bat2 adds its mod to fr-bat's shot at the nearest).
    let s = french_batteries(
        "orders:\n  reactions:\n    combine:\n      - {unit: fr-bat, with: fr-bat2}\n",
    );
    let (_, ev) = turn(&s, TurnOrders::default(), vec![3, 3]);
    combined_once(&ev);
    // The template offers the pair.
    let t = NapoleonicCorps.orders_template(&s, &fr()).unwrap();
    assert!(t.contains("    # - {unit: fr-bat, with: fr-bat2}"), "{t}");
    // Only batteries pair, each in one pair: refused on receipt.
    let text = "orders:\n  reactions:\n    combine:\n      - {unit: fr-bat, with: fr-line}\n      - {unit: fr-bat2, with: fr-bat}\n";
    let v = NapoleonicCorps.check(&s, &fr(), &orders_text(text));
    assert!(v.iter().any(|v| v.path == ["reactions", "combine", "0"]
        && v.unit.as_deref() == Some("fr-line")
        && v.rule == check::FIRE));
    assert!(v.iter().any(|v| v.path == ["reactions", "combine", "1"]
        && v.unit.as_deref() == Some("fr-bat")
        && v.rule == check::FIRE_ONCE));
    // Without it, each battery fires on its own.
    let s = french_batteries("orders:\n  reactions: {}\n");
    let (_, ev) = turn(&s, TurnOrders::default(), vec![3, 3, 3, 3]);
    assert_eq!(ev.iter().filter(|e| e.what == "fire").count(), 2);
}

#[test]
fn defensive_fire_a_consulted_side_combines_two_batteries_by_its_decision() {
    // Fire Combat: two batteries in contact combine at one target; by
    // email, a consulted side names the pair in its decision's fire entry.
    let s = french_batteries("orders:\n  reactions: {consult: true}\n");
    let (s, ev) = turn(&s, TurnOrders::default(), vec![]);
    assert!(ev.iter().any(|e| e.what == "consulted"));
    let d = orders_text(
        "orders:\n  decide:\n    fire:\n      - {unit: fr-bat, target: au-jag, with: fr-bat2}\n",
    );
    assert_eq!(NapoleonicCorps.check(&s, &fr(), &d), vec![]);
    let t = NapoleonicCorps.orders_template(&s, &fr()).unwrap();
    assert!(
        t.contains("    # - {unit: fr-bat, target: au-jag, with: fr-bat2}"),
        "{t}"
    );
    let mut o = BySide::new();
    o.insert(fr(), d);
    let r = NapoleonicCorps.resolve(&s, &o, &mut Dice::scripted(vec![3, 3]));
    combined_once(&r.events);
    // The battery that combines fires no shot of its own, and only a
    // battery in contact combines: both refused on receipt, at their lines.
    let text = "orders:\n  decide:\n    fire:\n      - {unit: fr-bat, target: au-jag, with: fr-bat2}\n      - {unit: fr-bat2, target: au-jag}\n      - {unit: fr-line, target: au-line, with: fr-cuir}\n";
    let v = NapoleonicCorps.check(&s, &fr(), &orders_text(text));
    let line = |path: &[&str], rule: &str| {
        let v = v
            .iter()
            .find(|v| v.path == path && v.rule == rule)
            .unwrap_or_else(|| panic!("no refusal at {path:?}: {v:?}"));
        crate::envelope::locate("orders.yaml", text, v).line
    };
    assert_eq!(line(&["decide", "fire", "1"], check::FIRE_ONCE), Some(5));
    assert_eq!(line(&["decide", "fire", "2"], check::FIRE), Some(6));
    assert!(v.iter().any(|v| v.path == ["decide", "fire", "2"]
        && v.unit.as_deref() == Some("fr-cuir")
        && v.message.contains("only two batteries")));
}

#[test]
fn rough_terrain_failure_results_in_the_unit_becoming_unformed_and_says_so() {
    // Rough Terrain: "Failure results in the unit becoming unformed": the
    // test's words and result say unformed, whatever the rally table's
    // band (here 4, its retreat band) would say for a rally.
    let s = Setup::new()
        .at("fr-cuir", 5.0, 20.0, 0.0, Formation::Line)
        .state();
    // 1 + 1 + rally 1 + woods 3 - line 1 - cavalry 1 = 4: fails.
    let (_, ev) = turn(&s, moves(vec![mv("fr-cuir", 5.0, 30.0)]), vec![1, 1]);
    let test = ev.iter().find(|e| e.what == "rough_terrain").unwrap();
    assert_eq!(test.facts.result.as_deref(), Some("unformed"));
    assert!(test.text.ends_with("— unformed"), "{}", test.text);
    assert!(!test.text.contains("disordered") && !test.text.contains("retreat"));
}

#[test]
fn fire_combat_distances_near_a_range_band_edge_are_given_to_one_decimal() {
    // Fire Combat: a medium battery's double range ends at 30 cm; at 30.4
    // cm it fires at triple range (-4), and says 30.4 cm, not "30 cm".
    let s = Setup::new()
        .at("au-line", 60.0, 50.4, 180.0, Formation::Line)
        .at("au-jag", 20.0, 45.0, 180.0, Formation::Skirmish)
        .hold_fire(au(), &["au-jag", "au-line"])
        .state();
    let gap = s.gap(s.unit("fr-bat").unwrap(), s.unit("au-line").unwrap());
    assert!((gap - 30.4).abs() < 1e-6, "{gap}");
    let (_, ev) = fire_at(&s, "fr-bat", "au-line", vec![6, 6]);
    let f = ev
        .iter()
        .find(|e| e.what == "fire")
        .unwrap_or_else(|| panic!("{:#?}", ev.iter().map(|e| &e.text).collect::<Vec<_>>()));
    assert!(f.text.contains("at 30.4 cm ("), "{}", f.text);
    assert!(f.text.contains("-4 artillery range x3"), "{}", f.text);
    assert_eq!(f.facts.distance, Some(30.4));
}

#[test]
fn melee_table_cavalry_treat_five_or_more_as_four_named_only_when_cavalry_lose() {
    // Melee table: 5+ eliminated; "Cavalry treat difference of 5+ as a 4".
    // Infantry beaten by 7 are eliminated, and the words name no cavalry.
    let s = Setup::new()
        .at("fr-line", 40.0, 22.0, 0.0, Formation::Line)
        .at("au-line", 40.0, 22.0, 180.0, Formation::Line)
        .hold_fire(au(), &["au-jag"])
        .state();
    // French 4 + general 1 + D6 6 = 11; Austrian 3 + D6 1 = 4; risk 6.
    let (s2, ev) = turn(&s, TurnOrders::default(), vec![6, 1, 6]);
    let m = ev.iter().find(|e| e.what == "melee").unwrap();
    assert_eq!(m.facts.hits, Some(7));
    assert!(!s2.unit("au-line").unwrap().live());
    assert!(!m.text.contains("cavalry"), "{}", m.text);
    // Hussars beaten by 8 retreat, and the words say why.
    let s = Setup::new()
        .at("au-hus", 15.0, 30.0, 180.0, Formation::Line)
        .hold_fire(au(), &["au-hus", "au-line", "au-jag"])
        .state();
    let o = TurnOrders {
        charges: vec![ChargeOrder {
            unit: "fr-cuir".into(),
            target: "au-hus".into(),
            if_controlled: Controlled::Stay,
        }],
        ..TurnOrders::default()
    };
    let (_, ev) = turn(&s, o, vec![6, 1, 6, 6]);
    let m = ev.iter().find(|e| e.what == "melee").unwrap();
    assert!(
        m.text.ends_with(
            "the loser retreats 20 cm, disordered (cavalry treat a difference of 5 or more as 4)"
        ),
        "{}",
        m.text
    );
}

#[test]
fn fire_combat_a_shot_out_of_range_is_refused_on_receipt_as_an_over_long_move_is() {
    // Fire Combat: "may fire at any enemy within range"; Movement Factors:
    // the table's distance. A battery that is ordered no move fires in the
    // advancing fire phase from where it stands, so a target beyond its
    // longest range is known to be out of range when the orders arrive, as
    // a move beyond the allowance is: both are refused on receipt, each at
    // its line with its unit and numbers.
    let s = Setup::new()
        .at("fr-bat", 60.0, 5.0, 0.0, Formation::Unlimbered)
        .at("au-jag", 60.0, 58.0, 0.0, Formation::Line)
        .state();
    let text = "orders:\n  turn:\n    moves:\n      - {unit: fr-line, to: {x: 40.0, y: 40.0}}\n    fire:\n      - {unit: fr-bat, target: au-jag}\n";
    let v = NapoleonicCorps.check(&s, &fr(), &orders_text(text));
    let at = |path: &[&str], rule: &str| {
        let v = v
            .iter()
            .find(|v| v.path == path && v.rule == rule)
            .unwrap_or_else(|| panic!("no refusal at {path:?}: {v:?}"));
        let p = crate::envelope::locate("orders.yaml", text, v);
        (p.line, v.unit.clone().unwrap(), v.message.clone())
    };
    let (line, unit, msg) = at(&["turn", "moves", "0"], check::DISTANCE);
    assert_eq!((line, unit.as_str()), (Some(4), "fr-line"));
    assert!(
        msg.contains("20.0 cm is more than the 18.0 cm it may move"),
        "{msg}"
    );
    assert!(msg.contains("2.0 cm too far"), "{msg}");
    let (line, unit, msg) = at(&["turn", "fire", "0"], check::FIRE);
    assert_eq!((line, unit.as_str()), (Some(6), "fr-bat"));
    assert!(msg.contains("out of range"), "{msg}");
    assert!(
        msg.contains("cm, triple range (the longest) is 45 cm"),
        "{msg}"
    );
    assert!(msg.contains("cm too far"), "{msg}");
    // A battery ordered to move fires from where the move leaves it: its
    // shot is judged in the turn, and refused there with the same numbers.
    let text = "orders:\n  turn:\n    moves:\n      - {unit: fr-bat, to: {x: 60.0, y: 8.0}}\n    fire:\n      - {unit: fr-bat, target: au-jag}\n";
    let v = NapoleonicCorps.check(&s, &fr(), &orders_text(text));
    assert!(!v.iter().any(|v| v.rule == check::FIRE), "{v:?}");
}

/// Every unit's contacts found at once by the sweep along x are the ones
/// asking each unit of every enemy finds, on the bench's battle after its
/// fighting step (units in melee, others near).
#[test]
fn all_contacts_are_each_units_contacts() {
    use crate::ruleset::AnyRuleset;
    let f = crate::bench::scaling::napoleonic_setup(40).expect("set up");
    let mut d = crate::dice::Dice::from_seeds([f.seed; 32], [f.seed.wrapping_add(1); 32]);
    let after = AnyRuleset::resolve(&super::NapoleonicCorps, &f.state, &f.orders, &mut d)
        .expect("resolves")
        .state;
    let s: super::state::State = crate::yaml::from_str(&after).expect("state");
    let all = s.all_contacts();
    let mut pairs = 0;
    for (i, u) in s.units.iter().enumerate() {
        let one: Vec<usize> = if u.live() {
            s.contacts(u)
                .iter()
                .map(|e| s.unit_index(&e.id).expect("a unit"))
                .collect()
        } else {
            Vec::new()
        };
        assert_eq!(all[i], one, "{}", u.id);
        pairs += one.len();
    }
    assert!(pairs > 0, "some units are in contact");
}

//! The rules as written (issue 28, items 11 to 18): scenario tests with
//! scripted dice, named after the source's passages.

use super::CrowtherDougan;
use super::check::check;
use super::morale::{Cause, modifiers};
use super::observe::NOTHING_FOUND_RANGE;
use super::orders::{FireOrder, MoveOrders, Observe, Orders};
use super::state::{Charge, Phase, Spot, State, Status};
use super::step::Step;
use crate::dice::Dice;
use crate::event::Event;
use crate::geometry::{Angle, Distance, Point, Shape, TerrainFeature, TerrainTag};
use crate::ruleset::Ruleset;

use crate::view::Viewer;

use super::tests::{blue, put, red, resolve, state};

fn said<'a>(ev: &'a [Event], what: &str) -> Vec<&'a Event> {
    ev.iter().filter(|e| e.what == what).collect()
}

/// "The resulting total gives the range in cm at which the target unit can
/// be seen": the range told is the total the test used, modifiers and all.
#[test]
fn observation_the_resulting_total_gives_the_range_at_which_the_target_is_seen() {
    let mut s = state();
    // Red's line (FC 1) looks at the irregulars (FC 4) in the wood, 1.75 cm off.
    put(&mut s, "r-line", 20.0, 51.0);
    put(&mut s, "r-rang", 90.0, 5.0);
    let o = MoveOrders {
        observe: vec![Observe {
            unit: "r-line".into(),
            at: Point::new(20.0, 55.0),
        }],
        ..MoveOrders::default()
    };
    // d6 6 reads 5 on the average die; 5 - 3 = 2: 2 cm, and it is found.
    // The umpire's copy (the second) says the range; the observer's does not.
    let (s1, ev, _) = resolve(&s, &red(), o.clone(), vec![6]);
    assert!(s1.spotted[&red()].contains_key("b-hid"), "{ev:?}");
    let e = said(&ev, "observe")[1];
    assert_eq!(e.facts.distance, Some(2.0), "{}", e.text);
    assert!(e.text.contains("sees 2 cm"), "{}", e.text);
    assert!(e.text.contains("-3 field craft"), "{}", e.text);
    // Nothing found: only the observer's own modifiers, said as such, so
    // nothing tells of the unit that was not found.
    put(&mut s, "b-hid", 20.0, 65.0);
    let (_, ev, _) = resolve(&s, &red(), o, vec![6]);
    let e = said(&ev, "observe")[1];
    assert_eq!(e.facts.result.as_deref(), Some("nothing"));
    assert_eq!(e.facts.distance, Some(5.0), "{}", e.text);
    assert!(e.facts.modifiers.is_empty(), "{}", e.text);
    assert!(e.text.contains(NOTHING_FOUND_RANGE), "{}", e.text);
}

/// "2 CPs enables the personality to issue a new order": the orders'
/// schema says what `recall` does, a new order for a pursuing unit.
#[test]
fn command_points_a_new_order_recall_is_described_for_pursuers() {
    let schema = serde_json::to_value(schemars::schema_for!(Orders)).expect("schema");
    let text = schema.to_string();
    let at = text.find("\"recall\"").expect("recall in the schema");
    let about = &text[at..(at + 400).min(text.len())];
    assert!(about.contains("pursuing"), "{about}");
    assert!(!about.contains("charge under way called off"), "{about}");
}

/// A barn between Red's rangers and the wood where Blue's irregulars stand.
fn barn(s: &mut State) {
    s.scenario.terrain.push(TerrainFeature {
        id: "barn".into(),
        name: "The barn".into(),
        tags: vec![TerrainTag::Town],
        elevation: None,
        shape: Shape::Polygon {
            points: vec![
                Point::new(14.0, 36.0),
                Point::new(26.0, 36.0),
                Point::new(26.0, 40.0),
                Point::new(14.0, 40.0),
            ],
        },
    });
}

/// Red's rangers have found Blue's irregulars in the wood.
fn found_by_rangers(s: &mut State) {
    let at = s.unit("b-hid").expect("b-hid").at;
    s.spotted.entry(red()).or_default().insert(
        "b-hid".into(),
        Spot {
            at,
            by: vec!["r-rang".into()],
        },
    );
}

fn fire_at_found() -> MoveOrders {
    MoveOrders {
        fire: vec![FireOrder {
            unit: "r-rang".into(),
            target: "b-hid".into(),
        }],
        ..MoveOrders::default()
    }
}

/// "Visibility for troops in the open is only limited by line of sight.
/// In all other circumstances troops must test to discover their hidden
/// foes", and "may only act upon the result of their own test": a find
/// says where the enemy is, it does not see through a wood or a building.
/// Fire at a found enemy needs a line of sight, on receipt, at resolution
/// and in the options panel.
#[test]
fn observation_act_upon_their_own_test_only_with_a_line_of_sight() {
    let mut s = state();
    found_by_rangers(&mut s);
    let o = fire_at_found();
    assert!(check(&s, &red(), &Orders::Move(o.clone())).is_empty());
    barn(&mut s);
    assert!(
        s.sees(&red(), s.unit("b-hid").expect("b-hid")),
        "still known"
    );
    let v = check(&s, &red(), &Orders::Move(o.clone()));
    assert!(
        v.iter()
            .any(|x| x.message.contains("sight blocked by The barn")),
        "{v:?}"
    );
    let (_, ev, _) = resolve(&s, &red(), o, vec![6, 50]);
    assert!(said(&ev, "fire").is_empty(), "{ev:?}");
    assert!(
        said(&ev, "refused")
            .iter()
            .any(|e| e.text.contains("not in sight")),
        "{ev:?}"
    );
    let panel = CrowtherDougan
        .view(&s, &Viewer::Side(red()))
        .panels
        .into_iter()
        .find(|p| p.title == super::options::TITLE)
        .expect("options panel");
    let line = panel
        .lines
        .iter()
        .skip_while(|l| !l.starts_with("Red Rangers"))
        .find(|l| l.contains("Blue Hidden"))
        .expect("the found enemy listed");
    assert!(
        line.contains("cannot fire") && line.contains("The barn"),
        "{line}"
    );
    assert!(!line.contains("may charge"), "{line}");
}

fn gap(s: &State, a: &str, b: &str) -> f64 {
    s.gap(s.unit(a).expect("a"), s.unit(b).expect("b"))
}

/// Red's line charged Blue's line in move 1; it is Blue's move 2. Blue's
/// line is unloaded, so that standing it does not fire and the dice are
/// the tests' own.
fn charge_under_way(s: &mut State) {
    s.unit_mut("b-line").expect("b-line").loaded = false;
    s.charges.push(Charge {
        unit: "r-line".into(),
        target: "b-line".into(),
        declared: 1,
    });
    s.phase = Phase::Move {
        n: 2,
        active: blue(),
    };
}

/// "Once a unit is reduced below 50% of its original strength it must
/// retire 5cm on failing ANY morale test": a charger below half strength
/// that fails to charge home retires 5 cm and stays there, not carried on
/// to 5 cm short of its target.
#[test]
fn morale_below_50_percent_retire_5cm_on_failing_any_test_even_to_charge_home() {
    let mut s = state();
    put(&mut s, "r-line", 50.0, 27.0);
    put(&mut s, "b-line", 50.0, 42.0);
    s.unit_mut("r-line").expect("r-line").men_lost = 300; // of 500
    charge_under_way(&mut s);
    let before = gap(&s, "r-line", "b-line");
    // Blue's line stands (d10 1); Red's line fails to charge home (d10 10).
    let (s1, ev, d) = resolve(&s, &blue(), MoveOrders::default(), vec![1, 10]);
    assert_eq!(d.log().len(), 2, "{:?}", d.log());
    let after = gap(&s1, "r-line", "b-line");
    assert!((after - before - 5.0).abs() < 1e-6, "{before} -> {after}");
    let home = said(&ev, "charge_home");
    assert_eq!(
        home[0].facts.result.as_deref(),
        Some("retires 5 cm and stays there"),
        "{ev:?}"
    );
    // At full strength the same failure halts it 5 cm from its target.
    s.unit_mut("r-line").expect("r-line").men_lost = 0;
    let (s2, _, _) = resolve(&s, &blue(), MoveOrders::default(), vec![1, 10]);
    assert!((gap(&s2, "r-line", "b-line") - 5.0).abs() < 0.5);
}

/// The events about `unit` of kind `what`.
fn about<'a>(ev: &'a [Event], what: &str, unit: &str) -> Vec<&'a Event> {
    said(ev, what)
        .into_iter()
        .filter(|e| e.facts.unit.as_ref().is_some_and(|u| u.id == unit))
        .collect()
}

/// "Phase 1 ... Take Morale Tests due to being charged ... to rally from
/// rout", and "Phase 4 Make rally moves, other routs": a unit that routs
/// on being charged makes that one rout move in its move, with no rally
/// test in the phase it routed in and no second rout in phase 4.
#[test]
fn sequence_of_play_routed_on_being_charged_no_rally_test_and_no_other_rout() {
    let mut s = state();
    put(&mut s, "r-line", 50.0, 27.0);
    put(&mut s, "b-line", 50.0, 42.0);
    charge_under_way(&mut s);
    // Blue's line fails its test on being charged (d10 10) and routs.
    let (s1, ev, d) = resolve(&s, &blue(), MoveOrders::default(), vec![10, 1, 1, 1]);
    assert_eq!(d.log().len(), 1, "no rally test: {:?}", d.log());
    let tests = about(&ev, "morale", "b-line");
    assert_eq!(tests.len(), 1, "{ev:?}");
    assert_eq!(tests[0].facts.reason.as_deref(), Some("being charged"));
    assert_eq!(about(&ev, "rout", "b-line").len(), 1, "one rout: {ev:?}");
    let b = s1.unit("b-line").expect("b-line");
    assert!(
        (b.at.distance_to(Point::new(50.0, 42.0)).get() - b.mv()).abs() < 1e-6,
        "one normal move: {:?}",
        b.at
    );
}

/// "Phase 3 Both sides fight Hand to Hand. Losers of hand to hand retire
/// 2cm and then take morale tests" and "Phase 4 ... other routs": a unit
/// that loses hand to hand in its own move and routs makes that one rout
/// move, not a second in phase 4.
#[test]
fn sequence_of_play_lost_hand_to_hand_in_its_own_move_routs_once() {
    let mut s = state();
    put(&mut s, "r-line", 50.0, 35.0);
    put(&mut s, "b-line", 50.0, 42.0);
    charge_under_way(&mut s);
    // Blue's line stands (d10 1), Red's line charges home (d10 1); hand to
    // hand: Red 5 +1 charging on 20 figures (40 men), Blue 2 (15 men);
    // Blue loses, is pushed back, fails (d10 10) and routs; the risks to
    // both colonels (d100 99, 99).
    let dice = vec![1, 1, 6, 1, 10, 99, 99, 1, 1, 1];
    let (s1, ev, d) = resolve(&s, &blue(), MoveOrders::default(), dice);
    assert!(!said(&ev, "hand_to_hand").is_empty(), "{ev:?}");
    assert_eq!(d.log().len(), 7, "{:?}", d.log());
    assert_eq!(about(&ev, "rout", "b-line").len(), 1, "one rout: {ev:?}");
    let b = s1.unit("b-line").expect("b-line");
    let pushed = about(&ev, "push_back", "b-line").len();
    assert_eq!(pushed, 1, "{ev:?}");
    let from = Point::new(50.0, 42.0);
    let went = b.at.distance_to(from).get();
    assert!(went < b.mv() + 2.0 + 1e-6, "one rout move: {went}");
}

/// A rail fence (a wall drawn as a line) along Blue's line's front, 0.3 cm
/// ahead of it, its centre well clear of it; Red's line touching Blue's
/// across it.
fn fence_along_blue_front(s: &mut State) {
    put(s, "b-line", 50.0, 42.0);
    let b = s.unit("b-line").expect("b-line").clone();
    let ahead = Angle(b.facing).unit_vector().scale(0.3);
    let (l, r) = b.base().front_edge();
    let along = (r - l).scale(0.5);
    s.scenario.terrain.push(TerrainFeature {
        id: "fence".into(),
        name: "Rail fence".into(),
        tags: vec![TerrainTag::Wall],
        elevation: None,
        shape: Shape::Polyline {
            points: vec![l - along + ahead, r + along + ahead],
            width: Distance(0.0),
        },
    });
    put(s, "r-line", 50.0, 30.0);
    let g = gap(s, "r-line", "b-line");
    put(s, "r-line", 50.0, 30.0 + g);
}

/// "Winners of a melee whose opponents rout ... must pursue (until
/// rallied) unless the winners were defending an obstacle": a unit with a
/// fence along its front defends it, though the fence is not under its
/// centre: it gets the defender's bonus in hand to hand and when charged,
/// and does not pursue the enemy it routed.
#[test]
fn combat_winners_defending_an_obstacle_along_their_front_do_not_pursue() {
    let mut s = state();
    fence_along_blue_front(&mut s);
    let b = s.unit("b-line").expect("b-line").clone();
    assert!(
        s.ground(b.at).all(|t| t.id != "fence"),
        "the fence is not under its centre"
    );
    assert!(gap(&s, "r-line", "b-line") < 0.1);
    // Red 2 +1 charging on 20 figures: 20 men; Blue 5 +1 defending: 40
    // men (30 without the bonus). Red loses and fails its test (d10 10).
    let mut d = Dice::scripted(vec![1, 6, 10, 1, 1, 1]);
    let mut st = Step::new(s, &mut d, 2, blue());
    super::melee::fight(&mut st, "r-line", "b-line");
    let e = said(&st.events, "hand_to_hand")[0];
    assert_eq!(e.facts.losses[0].amount, 40, "{}", e.text);
    assert_eq!(st.s.unit("r-line").expect("r").status, Status::Routing);
    assert_eq!(
        st.s.unit("b-line").expect("b").status,
        Status::Good,
        "defending the fence, it does not pursue"
    );
    let charged = modifiers(&st, "b-line", Cause::Charged);
    assert!(
        charged.iter().any(|m| m.value == 1),
        "the defender's bonus when charged: {charged:?}"
    );
    // A fence meeting its front end-on does not run along it.
    let mut s2 = st.s.clone();
    let fc = b.base().front_center();
    let ahead = Angle(b.facing).unit_vector().scale(10.0);
    if let Some(f) = s2.scenario.terrain.iter_mut().find(|t| t.id == "fence") {
        f.shape = Shape::Polyline {
            points: vec![fc, fc + ahead],
            width: Distance(0.0),
        };
    }
    put(&mut s2, "b-line", b.at.x, b.at.y);
    assert!(!super::melee::defending(&s2, &b));
}

/// A band of ground tagged `tag` across the table between `y0` and `y1`.
fn band(s: &mut State, id: &str, tag: TerrainTag, y0: f64, y1: f64) {
    s.scenario.terrain.push(TerrainFeature {
        id: id.into(),
        name: id.into(),
        tags: vec![tag],
        elevation: None,
        shape: Shape::Polygon {
            points: vec![
                Point::new(38.0, y0),
                Point::new(62.0, y0),
                Point::new(62.0, y1),
                Point::new(38.0, y1),
            ],
        },
    });
}

/// The deduction dice rolled for crossing `what`.
fn crossing_dice(d: &Dice, what: &str) -> usize {
    let words = format!("crossing {what}:");
    d.log()
        .iter()
        .filter(|r| r.purpose.contains(&words))
        .count()
}

/// "Deduct 1D6 cm: Moving through forest, rocks, marsh ...": a deduction
/// is rolled for ground the unit moves through, so only for ground its
/// move reaches, up to where it ends: an ordered move, an initial charge
/// move, a rout and a pursuit.
#[test]
fn move_deductions_deduct_only_for_ground_the_move_reaches() {
    // A move: the marsh lies 20 cm on, the move is 15 cm.
    let mut s = state();
    band(&mut s, "Marsh", TerrainTag::Marsh, 40.0, 50.0);
    put(&mut s, "b-line", 90.0, 75.0);
    let o = MoveOrders {
        moves: vec![super::orders::Move {
            unit: "r-line".into(),
            to: Some(Point::new(50.0, 45.0)),
            formation: None,
            about: false,
        }],
        ..MoveOrders::default()
    };
    let (s1, _, d) = resolve(&s, &red(), o, vec![6, 6]);
    assert_eq!(crossing_dice(&d, "Marsh"), 0, "{:?}", d.log());
    let at = s1.unit("r-line").expect("r-line").at;
    assert!((at.y - 35.0).abs() < 1e-6, "a full move: {at:?}");

    // An initial charge move: 15 cm, the marsh round the target 16 cm on.
    let mut s = state();
    band(&mut s, "Marsh", TerrainTag::Marsh, 36.0, 46.0);
    put(&mut s, "b-line", 50.0, 40.0);
    let o = MoveOrders {
        charges: vec![super::orders::ChargeOrder {
            unit: "r-line".into(),
            target: "b-line".into(),
        }],
        ..MoveOrders::default()
    };
    let (s1, ev, d) = resolve(&s, &red(), o, vec![1, 6, 6]);
    assert_eq!(s1.charges.len(), 1, "{ev:?}");
    assert_eq!(crossing_dice(&d, "Marsh"), 0, "{:?}", d.log());
    let at = s1.unit("r-line").expect("r-line").at;
    assert!((at.y - 35.0).abs() < 1e-6, "a normal move: {at:?}");

    // A rout: the bog 2 cm behind the router costs 6, so the marsh 12 cm
    // on is never reached; its charger's first pursuit stops 2 cm short
    // of the bog and rolls for nothing.
    let mut s = state();
    band(&mut s, "Bog", TerrainTag::Marsh, 44.0, 46.0);
    band(&mut s, "Marsh", TerrainTag::Marsh, 54.0, 56.0);
    put(&mut s, "r-line", 50.0, 27.0);
    put(&mut s, "b-line", 50.0, 42.0);
    charge_under_way(&mut s);
    let (s1, ev, d) = resolve(&s, &blue(), MoveOrders::default(), vec![10, 6, 6, 6]);
    assert_eq!(crossing_dice(&d, "Bog"), 1, "{:?}", d.log());
    assert_eq!(crossing_dice(&d, "Marsh"), 0, "{:?}", d.log());
    let b = s1.unit("b-line").expect("b-line");
    assert!((b.at.y - 51.0).abs() < 1e-6, "15 less 6: {:?}", b.at);
    assert_eq!(about(&ev, "pursue", "r-line").len(), 1, "{ev:?}");
    let r = s1.unit("r-line").expect("r-line");
    assert!((r.at.y - 42.0).abs() < 1e-6, "a full pursuit: {:?}", r.at);

    // A move cut short 5 cm from a hidden enemy pays for the wood it
    // entered, not for the marsh past where it halted.
    let mut s = state();
    s.scenario.terrain.push(TerrainFeature {
        id: "marsh".into(),
        name: "Marsh".into(),
        tags: vec![TerrainTag::Marsh],
        elevation: None,
        shape: Shape::Polygon {
            points: vec![
                Point::new(10.0, 49.0),
                Point::new(30.0, 49.0),
                Point::new(30.0, 50.0),
                Point::new(10.0, 50.0),
            ],
        },
    });
    let o = MoveOrders {
        moves: vec![super::orders::Move {
            unit: "r-rang".into(),
            to: Some(Point::new(20.0, 50.0)),
            formation: None,
            about: false,
        }],
        ..MoveOrders::default()
    };
    let (s1, ev, d) = resolve(&s, &red(), o, vec![1, 1, 1]);
    assert!(!said(&ev, "bump").is_empty(), "{ev:?}");
    assert_eq!(crossing_dice(&d, "The wood"), 1, "{:?}", d.log());
    assert_eq!(crossing_dice(&d, "Marsh"), 0, "{:?}", d.log());
    assert!(s1.spotted[&red()].contains_key("b-hid"));
}

/// Routs "directly away from the enemy", as the routing side knows him:
/// from where it found him or saw his smoke, else from the nearest enemy it
/// sees. Never from where a hidden enemy truly stands (issue 28, item 2):
/// two rout bearings would fix it.
#[test]
fn routs_directly_away_from_the_enemy_where_its_side_last_knew_him() {
    let rout_from = |s: &State| {
        let mut d = Dice::scripted(vec![1; 12]);
        let mut st = Step::new(s.clone(), &mut d, 1, red());
        super::movement::rout(&mut st, "r-rang", Some("b-hid"));
        st.s.unit("r-rang").expect("r-rang").at
    };
    let (mut a, mut b) = (state(), state());
    put(&mut b, "b-hid", 10.0, 60.0);
    for s in [&a, &b] {
        assert!(!s.sees(&red(), s.unit("b-hid").expect("b-hid")));
    }
    // Hidden and never found: the same rout wherever it stands, away from
    // the nearest enemy Red sees (Blue's line).
    let (pa, pb) = (rout_from(&a), rout_from(&b));
    assert_eq!(pa, pb);
    let line = a.unit("b-line").expect("b-line").at;
    let start = Point::new(20.0, 30.0);
    assert!(pa.distance_to(line).get() > start.distance_to(line).get());
    // Found: away from the find, here straight down the table.
    a.spotted.entry(red()).or_default().insert(
        "b-hid".into(),
        Spot {
            at: Point::new(20.0, 55.0),
            by: vec!["r-rang".into()],
        },
    );
    let pa = rout_from(&a);
    assert!((pa.x - 20.0).abs() < 1e-6 && pa.y < 30.0, "{pa:?}");
    // Its smoke, once it fired from the wood and was lost again: away from
    // the smoke, not from where it went since.
    let mut c = b.clone();
    c.smoke.push(super::state::Smoke {
        id: "smoke-1".into(),
        unit: "b-hid".into(),
        side: blue(),
        at: Point::new(20.0, 55.0),
    });
    let pc = rout_from(&c);
    assert!((pc.x - 20.0).abs() < 1e-6 && pc.y < 30.0, "{pc:?}");
}

/// A found unit that slips away leaves the finder only the fact that it is
/// gone (issue 28, item 5): not its move, its dice, its deductions nor its
/// losing its way; and its own side reads the same whether it was found.
#[test]
fn observation_a_found_unit_that_moves_is_lost_and_its_move_stays_its_own() {
    let mut s = state();
    s.phase = Phase::Move {
        n: 1,
        active: blue(),
    };
    // Lost in the forest on a 1: a die told before the move ends.
    s.scenario.options.lost_in_forest = true;
    let mut found = s.clone();
    found.spotted.entry(red()).or_default().insert(
        "b-hid".into(),
        Spot {
            at: Point::new(20.0, 55.0),
            by: vec!["r-rang".into()],
        },
    );
    let o = MoveOrders {
        moves: vec![super::orders::Move {
            unit: "b-hid".into(),
            to: Some(Point::new(20.0, 64.0)),
            formation: None,
            about: false,
        }],
        ..MoveOrders::default()
    };
    let reads = |s: &State, viewer: &Viewer| {
        let (_, ev, _) = resolve(s, &blue(), o.clone(), vec![1, 4, 4, 4, 4, 4, 4, 4]);
        ev.into_iter()
            .filter(|e| e.visible_to(viewer))
            .map(|e| (e.text, e.dice))
            .collect::<Vec<_>>()
    };
    // Red reads what it would have read had it found nothing, and that the
    // unit it found is gone.
    let mut expected = reads(&s, &Viewer::Side(red()));
    assert!(expected.iter().all(|(t, _)| !t.contains("Blue Hidden")));
    expected.push((
        "The enemy unit found at (20, 55) has moved and is lost to view".to_string(),
        Vec::new(),
    ));
    assert_eq!(reads(&found, &Viewer::Side(red())), expected);
    for viewer in [Viewer::Side(blue()), Viewer::Public] {
        assert_eq!(reads(&found, &viewer), reads(&s, &viewer), "{viewer:?}");
    }
    assert!(!reads(&s, &Viewer::Side(blue())).is_empty());
}

/// The finder is told the morale test of a unit it found, as of any unit it
/// sees (issue 28, item 10): the test is about a unit it knows of.
#[test]
fn morale_the_finder_is_told_the_test_of_a_unit_it_found() {
    let mut s = state();
    put(&mut s, "b-hid", 20.0, 47.0);
    s.unit_mut("r-rang").expect("r-rang").first_fire = false;
    s.spotted.entry(red()).or_default().insert(
        "b-hid".into(),
        Spot {
            at: Point::new(20.0, 47.0),
            by: vec!["r-rang".into()],
        },
    );
    assert!(s.unit_sees(
        s.unit("r-rang").expect("r-rang"),
        s.unit("b-hid").expect("b-hid")
    ));
    let o = MoveOrders {
        fire: vec![FireOrder {
            unit: "r-rang".into(),
            target: "b-hid".into(),
        }],
        ..MoveOrders::default()
    };
    let (_, ev, _) = resolve(&s, &red(), o, vec![6; 30]);
    let tests: Vec<&Event> = said(&ev, "morale")
        .into_iter()
        .filter(|e| e.facts.involves("b-hid"))
        .collect();
    // A copy for each side: the finder and the owner.
    for side in [red(), blue()] {
        assert!(
            tests
                .iter()
                .any(|e| e.visible_to(&Viewer::Side(side.clone()))),
            "{side}: {ev:#?}"
        );
    }
}

/// Hand to hand between units in base contact is told to both sides, seen
/// before or not: contact finds both ways, as a bump does (issue 28, item 8).
#[test]
fn hand_to_hand_in_base_contact_is_told_to_both_sides() {
    let mut s = state();
    put(&mut s, "r-rang", 20.0, 50.0);
    put(&mut s, "b-hid", 20.0, 53.0);
    for (side, enemy) in [(red(), "b-hid"), (blue(), "r-rang")] {
        assert!(!s.sees(&side, s.unit(enemy).expect("unit")), "{side}");
    }
    let mut d = Dice::scripted(vec![4; 20]);
    let mut st = Step::new(s, &mut d, 1, red());
    super::melee::fight(&mut st, "r-rang", "b-hid");
    for what in ["hand_to_hand", "push_back"] {
        let told = said(&st.events, what);
        assert!(!told.is_empty(), "{what}: {:#?}", st.events);
        for side in [red(), blue()] {
            assert!(
                told.iter()
                    .any(|e| e.visible_to(&Viewer::Side(side.clone()))),
                "{what} not told to {side}: {:#?}",
                st.events
            );
        }
    }
}

/// "Stands to receive the charge (and may fire if loaded)", seen or not
/// (issue 28, item 9): a charged unit that passes its test fires at its
/// charger in phase 2 even when its side cannot see it, and learns by whom
/// it is charged.
#[test]
fn charge_procedure_the_target_stands_and_fires_if_loaded_at_an_unseen_charger() {
    let mut s = state();
    // Blue's hidden irregulars charged Red's line from the wood's edge.
    put(&mut s, "b-hid", 50.0, 46.0);
    put(&mut s, "r-line", 50.0, 38.0);
    s.charges.push(Charge {
        unit: "b-hid".into(),
        target: "r-line".into(),
        declared: 1,
    });
    s.phase = Phase::Move {
        n: 2,
        active: red(),
    };
    s.unit_mut("r-line").expect("r-line").first_fire = false;
    // Red's line stands (d10 1) and fires at its charger, with no order.
    let (_, ev, _) = resolve(&s, &red(), MoveOrders::default(), vec![1, 6, 6, 6, 6, 6, 6]);
    let shots = about(&ev, "fire", "r-line");
    assert!(
        shots
            .iter()
            .any(|e| e.facts.target.as_ref().is_some_and(|t| t.id == "b-hid")
                && e.visible_to(&Viewer::Side(red()))),
        "{ev:#?}"
    );
    // Unloaded, it stands without firing.
    s.unit_mut("r-line").expect("r-line").loaded = false;
    let (_, ev, _) = resolve(&s, &red(), MoveOrders::default(), vec![1, 6, 6, 6, 6, 6, 6]);
    assert!(about(&ev, "fire", "r-line").is_empty(), "{ev:#?}");
}

/// "Multiple units may observe the same area but may only act upon the
/// result of their own test": an order may name what the unit itself finds
/// in phase 1 (`target: found`), fired at in phase 2 of the same move
/// (issue 28, item 16); it needs the unit to observe, and finding nothing
/// it does not fire.
#[test]
fn observation_a_unit_may_fire_at_what_it_finds_in_the_same_move() {
    let mut s = state();
    put(&mut s, "r-rang", 20.0, 50.0);
    s.unit_mut("r-rang").expect("r-rang").first_fire = false;
    let o = MoveOrders {
        observe: vec![Observe {
            unit: "r-rang".into(),
            at: Point::new(20.0, 55.0),
        }],
        fire: vec![FireOrder {
            unit: "r-rang".into(),
            target: super::orders::FOUND.into(),
        }],
        ..MoveOrders::default()
    };
    assert!(check(&s, &red(), &Orders::Move(o.clone())).is_empty());
    let alone = MoveOrders {
        observe: Vec::new(),
        ..o.clone()
    };
    let v = check(&s, &red(), &Orders::Move(alone));
    assert!(v.len() == 1 && v[0].message.contains("observe"), "{v:?}");
    // d6 6 reads 5: 5 cm, the irregulars 3.5 cm off are found, then shot.
    let (_, ev, _) = resolve(&s, &red(), o.clone(), vec![6, 6, 6, 6, 6, 6]);
    let shot = about(&ev, "fire", "r-rang");
    assert!(
        shot.iter()
            .any(|e| e.facts.target.as_ref().is_some_and(|t| t.id == "b-hid")),
        "{ev:#?}"
    );
    // d6 1 reads 2: nothing found, nothing fired, and Red is told why.
    let (_, ev, _) = resolve(&s, &red(), o, vec![1, 6, 6, 6]);
    assert!(about(&ev, "fire", "r-rang").is_empty(), "{ev:#?}");
    assert!(
        said(&ev, "refused")
            .iter()
            .any(|e| e.text.contains("found nothing to fire at")
                && e.visible_to(&Viewer::Side(red()))),
        "{ev:#?}"
    );
}

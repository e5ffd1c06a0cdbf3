//! The rules as written where play had drifted from the source (issue 14):
//! fords (C.4), attached generals (E.2), the edges of woods and towns (C.2,
//! C.5), exactly 3" (B.3, B.4, B.6), what players may now order (E.1, E.2,
//! E.4, E.5) and the conventions (C.3 contours, C.6 breaches).

use crate::advanced::*;
use crate::common::*;
use galloper::dice::Dice;
use galloper::geometry::{Point, base_distance};
use galloper::rulesets::morschauser_macduff::check::{BREACH, GENERALS, HITS, INTO_LINE};
use galloper::rulesets::morschauser_macduff::orders::{
    Action, Deployment, GeneralOrder, HitsOrder, LineSide, Orders, PathStep, Sequence, TurnOrders,
};
use galloper::rulesets::morschauser_macduff::regiment::take_shooting_hits;
use galloper::rulesets::morschauser_macduff::scenario::{Personality, TerrainKind};
use galloper::rulesets::morschauser_macduff::shooting::judge;
use galloper::rulesets::morschauser_macduff::state::State;
use galloper::rulesets::morschauser_macduff::units::GunVariant;

fn gap(s: &State, a: &str, b: &str) -> f64 {
    let sc = &s.scenario;
    base_distance(
        &s.company(a).unwrap().base(sc),
        &s.company(b).unwrap().base(sc),
    )
    .get()
}

fn orders(t: TurnOrders) -> Orders {
    Orders::Turn(t)
}

// ---- Item 8: C.4 fords ----------------------------------------------------

/// C.4 Streams and rivers: "a company must halt when it enters the water
/// ... On the next turn it may move normally." The brook of the test table
/// runs along y 13 to 15.
#[test]
fn c4_a_company_crosses_a_brook_in_two_turns() {
    let mut s = table();
    only(&mut s, &["b-li"]);
    place(&mut s, "b-li", 55.0, 5.0, 0.0);
    // Turn 1: it halts on entering the water, its front edge on the bank.
    let r = run(&s, turn(vec![forward("b-li", 12.0)]), vec![]);
    let c = r.state().company("b-li").unwrap();
    assert!(c.halted_in_water, "{:?}", r.texts);
    let first = c.at.y;
    assert!((13.0..13.5).contains(&first), "{first} {:?}", r.texts);
    // Turn 2: it moves its full 12" out of the brook, and may shoot again.
    let r = run(r.state(), turn(vec![forward("b-li", 12.0)]), vec![]);
    let c = r.state().company("b-li").unwrap();
    assert!(
        (c.at.y - (first + 12.0)).abs() < 1e-6,
        "{} {:?}",
        c.at.y,
        r.texts
    );
    assert!(!c.halted_in_water);
    assert!(!r.has("C.4"), "{:?}", r.texts);
}

/// C.4: the halt comes each time it enters water: starting in one brook it
/// moves normally, and halts again on reaching the next.
#[test]
fn c4_leaving_one_ford_it_halts_again_entering_the_next() {
    let mut s = table();
    only(&mut s, &["b-li"]);
    terrain(
        &mut s,
        "brook2",
        TerrainKind::Water { fordable: true },
        line(45.0, 22.0, 70.0, 22.0, 1.0),
    );
    place(&mut s, "b-li", 55.0, 13.25, 0.0);
    s.company_mut("b-li").unwrap().halted_in_water = true;
    let r = run(&s, turn(vec![forward("b-li", 12.0)]), vec![]);
    let c = r.state().company("b-li").unwrap();
    assert!(c.halted_in_water, "{:?}", r.texts);
    assert!((21.5..22.0).contains(&c.at.y), "{} {:?}", c.at.y, r.texts);
}

// ---- Item 9: E.2 an attached general goes with his company ----------------

/// E.2 Command control: a general shifts the die "within 12" and in his
/// line of sight". A general who rode 15" with his company is measured
/// from where he is now, where the map draws him.
#[test]
fn e2_an_attached_general_is_measured_from_where_his_company_now_stands() {
    let mut s = table();
    only(&mut s, &["b-lt", "b-li"]);
    s.scenario.options.command_control = true;
    place(&mut s, "b-lt", 20.0, 5.0, 90.0);
    place(&mut s, "b-li", 45.0, 5.0, 0.0);
    general(&mut s, "g", (20.0, 5.0), &["b-li"], Some(Personality::Bold));
    s.generals.last_mut().unwrap().attached = Some("b-lt".into());
    // b-lt rides east 15" with him (die 3: it has no general, obeys); then
    // b-li rolls 2, and its general, now 8.5" off, adds 1: it obeys.
    let o = turn(vec![forward("b-lt", 15.0), forward("b-li", 2.0)]);
    let r = run(&s, o, vec![3, 2]);
    assert!(
        r.has("adds 1 to the command die of Blue Line"),
        "{:?}",
        r.texts
    );
    assert!(r.state().company("b-li").unwrap().at.y > 6.9);
    // The state records him where his company is.
    let g = r.state().general("g").unwrap();
    assert_eq!(g.at, r.state().company("b-lt").unwrap().at);
}

/// E.2, E.4: if his company is destroyed he is left standing alone there.
#[test]
fn e2_a_general_whose_company_is_gone_stands_alone_where_it_was() {
    let mut s = table();
    only(&mut s, &["b-lt"]);
    general(&mut s, "g", (20.0, 5.0), &[], Some(Personality::Bold));
    s.generals.last_mut().unwrap().attached = Some("b-lt".into());
    place(&mut s, "b-lt", 30.0, 6.0, 0.0);
    s.company_mut("b-lt").unwrap().destroyed = true;
    let r = run(&s, turn(vec![]), vec![]);
    let g = r.state().general("g").unwrap();
    assert_eq!(g.attached, None);
    assert_eq!(g.at, Point::new(30.0, 6.0));
}

// ---- Item 10: C.2, C.5 the edge of a wood or town --------------------------

/// C.2 Woods: "A unit on the edge can shoot and be shot at but subtract 1
/// ... when shooting at units in woods." Blue's light infantry stands in
/// the wood (x 25-35, y 12-20) with its front edge on the wood's edge; Red
/// stands 4" off. Each can shoot the other.
#[test]
fn c2_at_the_edge_of_a_wood_it_shoots_out_and_is_shot_back() {
    let mut s = clear();
    place(&mut s, "b-lt", 30.0, 12.0, 180.0);
    place(&mut s, "r-li", 30.0, 8.0, 0.0);
    let out = judge(&s, s.company("b-lt").unwrap(), "r-li");
    let back = judge(&s, s.company("r-li").unwrap(), "b-lt");
    assert!(out.is_ok(), "{out:?}");
    let back = back.expect("Red may shoot back at the company at the edge");
    assert_eq!(back.hits_on, 6, "line musket 5-6, -1 in woods");
    // Its side to the enemy, seen past its own base across the wood:
    // neither way.
    place(&mut s, "r-li", 22.0, 13.5, 90.0);
    assert!(judge(&s, s.company("b-lt").unwrap(), "r-li").is_err());
    assert!(judge(&s, s.company("r-li").unwrap(), "b-lt").is_err());
}

/// C.2: one inch inside the wood it is not at the edge: it neither shoots
/// out nor is shot at.
#[test]
fn c2_wholly_inside_a_wood_it_neither_shoots_out_nor_is_shot() {
    let mut s = clear();
    place(&mut s, "b-lt", 30.0, 13.0, 180.0);
    place(&mut s, "r-li", 30.0, 8.0, 0.0);
    let out = judge(&s, s.company("b-lt").unwrap(), "r-li");
    assert!(out.is_err(), "{out:?}");
    let back = judge(&s, s.company("r-li").unwrap(), "b-lt");
    assert!(back.is_err(), "{back:?}");
}

/// C.5 Towns: "Infantry on the edge of a town may fire out and be shot at
/// but subtract 2 from the score to hit of the unit firing at them."
#[test]
fn c5_at_the_edge_of_a_town_it_fires_out_and_is_shot_back_at_minus_2() {
    let mut s = clear();
    terrain(
        &mut s,
        "town",
        TerrainKind::Town,
        rect(5.0, 12.0, 15.0, 22.0),
    );
    place(&mut s, "b-lt", 10.0, 12.0, 180.0);
    place(&mut s, "r-li", 10.0, 7.0, 0.0);
    assert!(judge(&s, s.company("b-lt").unwrap(), "r-li").is_ok());
    let back = judge(&s, s.company("r-li").unwrap(), "b-lt").expect("seen at the edge");
    assert_eq!(
        back.hits_on, 7,
        "5-6 and -2: no hit possible, but a legal shot"
    );
}

// ---- Item 11: exactly 3 inches ---------------------------------------------

/// B.3 Charges: "A charge is any move to within 3" of an enemy"; B.6: a
/// unit beginning within 3" must attack; B.4: within 3" it melees rather
/// than shoots. One reading: exactly 3" is within. A move that is not a
/// charge therefore stops short of 3".
#[test]
fn b3_a_move_that_is_not_a_charge_stops_short_of_exactly_3_inches() {
    let mut s = table();
    place(&mut s, "r-li", 10.0, 18.0, 180.0);
    // 10" would put Blue's front edge at y 15, exactly 3" from Red's.
    let r = resolve(&s, turn(vec![forward("b-li", 10.0)]), vec![]);
    let g = gap(&r.state, "b-li", "r-li");
    assert!(g > 3.0 + 1e-6 && g < 3.3, "{g} {:?}", texts(&r));
    assert!(texts(&r).iter().any(|t| t.contains("within 3 in")));
}

/// B.6: a company exactly 3" from an enemy when its turn comes must attack;
/// B.4: it may not shoot, and the enemy may not be shot at by others.
#[test]
fn b6_b4_exactly_3_inches_is_within_for_forced_melee_and_shooting() {
    let mut s = clear();
    place(&mut s, "b-li", 10.0, 15.0, 0.0);
    place(&mut s, "r-li", 10.0, 18.0, 180.0);
    assert!((gap(&s, "b-li", "r-li") - 3.0).abs() < 1e-9);
    let a = Action {
        target: Some("r-li".into()),
        sequence: Sequence::ShootOnly,
        ..action("b-li")
    };
    let r = resolve(&s, turn(vec![a]), vec![1, 1, 1, 1, 1, 1, 1, 1]);
    let t = texts(&r);
    assert!(t.iter().any(|x| x.contains("starts within 3 in")), "{t:?}");
    // Another company may not shoot at Red: it is in melee range.
    place(&mut s, "b-art", 20.0, 5.0, 0.0);
    let e = judge(&s, s.company("b-art").unwrap(), "r-li").unwrap_err();
    assert!(e.contains("in melee"), "{e}");
    // A hair further off, nobody is within 3".
    place(&mut s, "b-li", 10.0, 14.99, 0.0);
    assert!(judge(&s, s.company("b-art").unwrap(), "r-li").is_ok());
}

// ---- Item 12: what players may now order -----------------------------------

fn general_order(g: &str) -> GeneralOrder {
    GeneralOrder {
        general: g.into(),
        ..GeneralOrder::default()
    }
}

/// E.2, E.4, E.5 depend on where generals go: a general may ride (up to 24",
/// a house rule), join a company of his side or leave the one he is with.
#[test]
fn e2_generals_ride_join_and_leave_companies_in_their_half_turn() {
    let mut s = table();
    general(&mut s, "g", (20.0, 10.0), &[], Some(Personality::Bold));
    // Join a company: he stands with it and goes with it.
    let o = orders(TurnOrders {
        generals: vec![GeneralOrder {
            attach: Some("b-lt".into()),
            ..general_order("g")
        }],
        actions: vec![forward("b-lt", 6.0)],
        ..TurnOrders::default()
    });
    assert_eq!(check(&s, &blue(), &o), vec![]);
    let r = run(&s, o, vec![]);
    let g = r.state().general("g").unwrap();
    assert_eq!(g.attached.as_deref(), Some("b-lt"));
    assert!((g.at.y - 11.0).abs() < 1e-6, "{:?}", g.at);
    // Leave it, staying where it stands.
    let o = orders(TurnOrders {
        generals: vec![GeneralOrder {
            detach: true,
            ..general_order("g")
        }],
        ..TurnOrders::default()
    });
    let r2 = run(r.state(), o, vec![]);
    let g = r2.state().general("g").unwrap();
    assert_eq!(g.attached, None);
    assert!((g.at.y - 11.0).abs() < 1e-6);
    // Ride to a point.
    let o = orders(TurnOrders {
        generals: vec![GeneralOrder {
            to: Some(Point::new(30.0, 20.0)),
            ..general_order("g")
        }],
        ..TurnOrders::default()
    });
    let r3 = run(r2.state(), o, vec![]);
    assert_eq!(r3.state().general("g").unwrap().at, Point::new(30.0, 20.0));
}

/// E.2: the general rides before any company acts, so the company he rode
/// to is within his 12" for its command die this half-turn.
#[test]
fn e2_a_general_who_rides_up_steadies_the_command_die_that_turn() {
    let mut s = table();
    only(&mut s, &["b-li"]);
    s.scenario.options.command_control = true;
    place(&mut s, "b-li", 45.0, 5.0, 0.0);
    general(&mut s, "g", (20.0, 5.0), &["b-li"], Some(Personality::Bold));
    let o = orders(TurnOrders {
        generals: vec![GeneralOrder {
            to: Point::new(40.0, 6.0).into(),
            ..general_order("g")
        }],
        actions: vec![forward("b-li", 2.0)],
        ..TurnOrders::default()
    });
    let r = run(&s, o, vec![2]);
    assert!(r.has("adds 1 to the command die"), "{:?}", r.texts);
}

/// E.2 generals' orders are checked on receipt, naming the general and rule.
#[test]
fn e2_general_orders_that_could_never_be_carried_out_are_refused() {
    let mut s = table();
    general(&mut s, "g", (20.0, 5.0), &[], Some(Personality::Bold));
    let bad = |g: GeneralOrder| {
        check(
            &s,
            &blue(),
            &orders(TurnOrders {
                generals: vec![g],
                ..TurnOrders::default()
            }),
        )
    };
    // Too far: 30" in one half-turn.
    let v = bad(GeneralOrder {
        to: Some(Point::new(50.0, 5.0)),
        ..general_order("g")
    });
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].rule, GENERALS);
    assert!(v[0].message.contains("24"), "{v:?}");
    // Joining an enemy company.
    let v = bad(GeneralOrder {
        attach: Some("r-li".into()),
        ..general_order("g")
    });
    assert_eq!(v.len(), 1, "{v:?}");
    // Both a point and a company.
    let v = bad(GeneralOrder {
        to: Some(Point::new(21.0, 5.0)),
        attach: Some("b-lt".into()),
        ..general_order("g")
    });
    assert_eq!(v.len(), 1, "{v:?}");
    // Nothing to leave.
    let v = bad(GeneralOrder {
        detach: true,
        ..general_order("g")
    });
    assert_eq!(v.len(), 1, "{v:?}");
    // Not his side's general.
    let v = bad(general_order("nobody"));
    assert_eq!(v.len(), 1, "{v:?}");
}

/// E.1 Formed regiments "may distribute hits from shooting": the owning
/// side chooses. By default each hit goes to the company with the most
/// strength left; a side may name the companies that take them first.
#[test]
fn e1_the_owning_side_chooses_how_its_formed_regiment_shares_hits() {
    let mut s = table();
    // b-li and b-li2 touch side by side: the formed regiment b-reg.
    let mut default = s.clone();
    let mut events = Vec::new();
    take_shooting_hits(&mut default, "b-li", 3, &mut events);
    assert_eq!(default.company("b-li").unwrap().hits, 2);
    assert_eq!(default.company("b-li2").unwrap().hits, 1);
    // Blue orders b-li2 to take them first; it stands from then on.
    let o = orders(TurnOrders {
        hits: vec![HitsOrder {
            regiment: "b-reg".into(),
            first: vec!["b-li2".into()],
        }],
        ..TurnOrders::default()
    });
    assert_eq!(check(&s, &blue(), &o), vec![]);
    s = run(&s, o, vec![]).r.state;
    take_shooting_hits(&mut s, "b-li", 3, &mut events);
    assert_eq!(s.company("b-li").unwrap().hits, 0);
    assert_eq!(s.company("b-li2").unwrap().hits, 3);
    // Once it is gone, the rest fall as by default.
    take_shooting_hits(&mut s, "b-li", 2, &mut events);
    assert!(s.company("b-li2").unwrap().destroyed);
    assert_eq!(s.company("b-li").unwrap().hits, 1);
}

/// E.1: a side moving second chooses in its deployment; a company outside
/// the regiment is refused on receipt.
#[test]
fn e1_hit_shares_are_ordered_at_deployment_and_checked() {
    let mut s = table();
    s.phase = galloper::rulesets::morschauser_macduff::state::Phase::Deployment;
    let good = Orders::Deploy(Deployment {
        hits: vec![HitsOrder {
            regiment: "b-reg".into(),
            first: vec!["b-li".into()],
        }],
        ..Deployment::default()
    });
    assert_eq!(check(&s, &blue(), &good), vec![]);
    let bad = Orders::Deploy(Deployment {
        hits: vec![HitsOrder {
            regiment: "b-reg".into(),
            first: vec!["b-lt".into()],
        }],
        ..Deployment::default()
    });
    let v = check(&s, &blue(), &bad);
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].rule, HITS);
    assert_eq!(v[0].unit.as_deref(), Some("b-lt"));
    let mut o = galloper::side::BySide::new();
    o.insert(blue(), good);
    let r = galloper::ruleset::Ruleset::resolve(
        &galloper::rulesets::morschauser_macduff::MorschauserMacduff,
        &s,
        &o,
        &mut Dice::scripted(vec![6, 1]),
    );
    assert_eq!(
        r.state.hit_shares.get("b-reg"),
        Some(&vec!["b-li".to_string()])
    );
}

/// E.2: on 1-2 "No advance ... If a formed regiment in column, companies
/// in the rear may be brought up into line."
#[test]
fn e2_on_no_advance_a_column_brings_its_rear_companies_up_into_line() {
    let mut s = table();
    only(&mut s, &["b-li", "b-li2"]);
    s.scenario.options.command_control = true;
    // A column: b-li leads at y 8, b-li2 behind it, touching.
    place(&mut s, "b-li", 10.0, 8.0, 0.0);
    place(&mut s, "b-li2", 10.0, 5.0, 0.0);
    let entry = Action {
        company: None,
        regiment: Some("b-reg".into()),
        path: vec![PathStep::Forward(galloper::geometry::Distance(6.0))],
        into_line: Some(LineSide::Right),
        ..Action::default()
    };
    let o = turn(vec![entry.clone()]);
    assert_eq!(check(&s, &blue(), &o), vec![]);
    let r = run(&s, o, vec![1]);
    assert!(r.has("brought up into line"), "{:?}", r.texts);
    let c = r.state().company("b-li2").unwrap();
    assert!((c.at.x - 13.0).abs() < 1e-6 && (c.at.y - 8.0).abs() < 1e-6);
    assert!((r.state().company("b-li").unwrap().at.y - 8.0).abs() < 1e-6);
    // Without `into_line` the column holds as it is.
    let r = run(
        &s,
        turn(vec![Action {
            into_line: None,
            ..entry.clone()
        }]),
        vec![1],
    );
    assert_eq!(
        r.state().company("b-li2").unwrap().at,
        Point::new(10.0, 5.0)
    );
    // On "obey" the regiment moves together and nobody is brought up.
    let r = run(&s, turn(vec![entry]), vec![3]);
    assert!(!r.has("brought up"), "{:?}", r.texts);
    assert!((r.state().company("b-li2").unwrap().at.y - 11.0).abs() < 1e-6);
}

/// E.2: `into_line` belongs to a regiment's entry, under command control.
#[test]
fn e2_into_line_on_a_company_entry_is_refused() {
    let mut s = table();
    s.scenario.options.command_control = true;
    let a = Action {
        into_line: Some(LineSide::Both),
        ..action("b-li")
    };
    let v = check(&s, &blue(), &turn(vec![a]));
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].rule, INTO_LINE);
}

// ---- Item 13: conventions --------------------------------------------------

/// C.6 Fortifications: "A breach may only be created by a heavy gun or by
/// an engineer": one way to order it, `breach: WALL`, for both; the heavy
/// gun's older `target: WALL` is still accepted.
#[test]
fn c6_a_heavy_gun_breaches_by_the_same_breach_order_as_engineers() {
    let mut s = clear();
    terrain(
        &mut s,
        "curtain",
        TerrainKind::HighWall,
        line(30.0, 15.0, 50.0, 15.0, 1.0),
    );
    place(&mut s, "b-art", 40.0, 5.0, 0.0);
    for side in &mut s.scenario.sides {
        for c in side.companies.iter_mut().filter(|c| c.id == "b-art") {
            c.gun = GunVariant::Heavy;
        }
    }
    let breach = Action {
        breach: Some("curtain".into()),
        sequence: Sequence::ShootOnly,
        ..action("b-art")
    };
    let o = turn(vec![breach.clone()]);
    assert_eq!(check(&s, &blue(), &o), vec![]);
    let r = resolve(&s, o, vec![6]);
    assert_eq!(r.state.breaches.len(), 1, "{:?}", texts(&r));
    // The older spelling still works.
    let old = Action {
        breach: None,
        target: Some("curtain".into()),
        ..breach.clone()
    };
    let o = turn(vec![old]);
    assert_eq!(check(&s, &blue(), &o), vec![]);
    assert_eq!(resolve(&s, o, vec![6]).state.breaches.len(), 1);
    // A gun's breach is its shooting: a sequence without shooting is refused.
    let v = check(
        &s,
        &blue(),
        &turn(vec![Action {
            sequence: Sequence::MoveOnly,
            ..breach
        }]),
    );
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].rule, BREACH);
    // Line infantry make no breach.
    let v = check(
        &s,
        &blue(),
        &turn(vec![Action {
            breach: Some("curtain".into()),
            ..action("b-li")
        }]),
    );
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].rule, BREACH);
}

/// C.3 Hills (convention): a stand is on the contour under its base's
/// centre. Its rear edge touching a higher contour does not put it there,
/// for the uphill melee penalty as for the steep climb (see
/// `terrain::c3_a_steep_hill_is_climbed_one_contour_a_turn`).
#[test]
fn c3_a_stand_is_on_the_contour_under_its_base_centre() {
    let mut s = table();
    only(&mut s, &["b-li"]);
    terrain(
        &mut s,
        "rise",
        TerrainKind::Hill {
            steep: false,
            level: 1,
        },
        rect(0.0, 20.0, 72.0, 30.0),
    );
    let uphill = |s: &State| {
        let r = run(s, turn(vec![]), vec![6; 8]);
        r.dice.iter().any(|(_, p)| p.contains("uphill"))
    };
    // Red's base runs from its front edge at y 17 back to y 20: its rear
    // edge touches the rise, its centre (y 18.5) is off it.
    place(&mut s, "r-li", 30.0, 17.0, 180.0);
    place(&mut s, "b-li", 30.0, 15.0, 0.0);
    assert!(!uphill(&s));
    // Two inches further back, its centre (y 20.5) is on the rise: uphill.
    place(&mut s, "r-li", 30.0, 19.0, 180.0);
    place(&mut s, "b-li", 30.0, 17.0, 0.0);
    assert!(uphill(&s));
}

/// E.1, E.2: the new orders read from YAML as the template prints them, and
/// a refusal names its file and line, the general and the rule.
#[test]
fn e2_new_orders_read_from_yaml_and_refusals_point_at_their_line() {
    let mut s = table();
    s.scenario.options.command_control = true;
    general(&mut s, "wolfe", (20.0, 5.0), &[], Some(Personality::Bold));
    let text = "orders:\n  turn:\n    actions:\n      - {regiment: b-reg, path: [{forward: 3}], into_line: both}\n    generals:\n      - {general: wolfe, to: {x: 60, y: 5}}\n    hits:\n      - {regiment: b-reg, first: [b-li2, b-li]}\n";
    let body = text.trim_start_matches("orders:\n");
    let body: String = body
        .lines()
        .map(|l| l.strip_prefix("  ").unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n");
    let o: Orders = galloper::yaml::from_str(&body).expect("orders parse");
    let v = check(&s, &blue(), &o);
    assert_eq!(v.len(), 1, "{v:?}");
    let p = galloper::envelope::locate("orders.yaml", text, &v[0]);
    assert_eq!(p.line, Some(6), "{p}");
    assert_eq!(p.unit.as_deref(), Some("wolfe"));
    assert_eq!(p.rule.as_deref(), Some(GENERALS));
}

/// E.1, E.2: the template offers the new orders, and as printed it is
/// accepted.
#[test]
fn e2_the_template_offers_general_moves_hit_shares_and_into_line() {
    use galloper::ruleset::Ruleset;
    use galloper::rulesets::morschauser_macduff::MorschauserMacduff;
    let mut s = table();
    s.scenario.options.command_control = true;
    general(
        &mut s,
        "wolfe",
        (20.0, 5.0),
        &["b-reg"],
        Some(Personality::Bold),
    );
    let t = MorschauserMacduff
        .orders_template(&s, &blue())
        .expect("a template");
    for choice in [
        "{general: ID, to: {x: X, y: Y}}",
        "{general: ID, attach: COMPANY}",
        "{general: ID, detach: true}",
        "wolfe",
        "{regiment: ID, first: [COMPANY, ...]}",
        "into_line: right | left | both",
        "breach: WALL",
    ] {
        assert!(t.contains(choice), "the template explains {choice:?}:\n{t}");
    }
    let o: Orders = galloper::yaml::from_str(&t).expect("the template parses");
    assert_eq!(check(&s, &blue(), &o), vec![]);
    // Nothing a player uncomments breaks it (issue 27): no bare [] after the
    // examples, and `generals:`, `hits:` with their examples are taken.
    assert!(!t.lines().any(|l| l.trim_end().ends_with(": []")), "{t}");
    let mut after_key = false;
    let uncommented: String = t
        .lines()
        .map(|l| {
            let c = l.trim_start();
            // The key, and the example entry right under it.
            let example = c == "# generals:" || c == "# hits:" || after_key;
            after_key = c == "# generals:" || c == "# hits:";
            if example {
                l.replacen("# ", "", 1)
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let o: Orders =
        galloper::yaml::from_str(&uncommented).unwrap_or_else(|e| panic!("{e}\n{uncommented}"));
    assert_eq!(check(&s, &blue(), &o), vec![], "{uncommented}");
    assert!(
        uncommented.contains("\n  generals:\n    - {general: wolfe"),
        "{uncommented}"
    );
}

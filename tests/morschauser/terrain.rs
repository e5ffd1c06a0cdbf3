//! Section C movement the other files leave out: steep hills (C.3), towns
//! (C.5), earthworks and a mine's breach (C.6), marshes and low walls (C.7).

use crate::advanced::*;
use crate::common::*;
use galloper::geometry::{Distance, Point, Shape};
use galloper::rulesets::morschauser_macduff::orders::{Orders, TurnOrders};
use galloper::rulesets::morschauser_macduff::scenario::{Mine, TerrainKind};
use galloper::rulesets::morschauser_macduff::state::State;

/// The right of the table, clear: Blue's companies named in `keep` only.
fn ground(keep: &[&str]) -> State {
    let mut s = table();
    only(&mut s, keep);
    s
}

fn wall_at(y: f64) -> Shape {
    Shape::Polyline {
        points: vec![Point::new(45.0, y), Point::new(70.0, y)],
        width: Distance(0.5),
    }
}

fn go(s: &State, id: &str, x: f64, d: f64) -> (f64, Vec<String>) {
    let mut s = s.clone();
    place(&mut s, id, x, 22.0, 0.0);
    let r = run(&s, turn(vec![forward(id, d)]), vec![]);
    (y(r.state(), id), r.texts)
}

fn hills(steep: bool) -> State {
    let mut s = ground(&["b-li"]);
    terrain(
        &mut s,
        "h1",
        TerrainKind::Hill { steep, level: 1 },
        rect(45.0, 25.0, 70.0, 40.0),
    );
    terrain(
        &mut s,
        "h2",
        TerrainKind::Hill { steep, level: 2 },
        rect(45.0, 30.0, 70.0, 40.0),
    );
    s
}

#[test]
fn c3_a_steep_hill_is_climbed_one_contour_a_turn() {
    let s = hills(true);
    let (at, texts) = go(&s, "b-li", 55.0, 12.0);
    // Onto the first contour, but not the second: its centre stays below 30.
    assert!(at > 26.5 && at < 31.5, "{at} {texts:?}");
    assert!(texts.iter().any(|t| t.contains("C.3 Hills")), "{texts:?}");
    // Next turn, from the first contour, it climbs the second.
    let mut s2 = s.clone();
    place(&mut s2, "b-li", 55.0, 28.0, 0.0);
    let r = run(&s2, turn(vec![forward("b-li", 6.0)]), vec![]);
    assert!(near(y(r.state(), "b-li"), 34.0), "{:?}", r.texts);
    // A gentle hill does not slow it at all.
    let (at, _) = go(&hills(false), "b-li", 55.0, 12.0);
    assert!(near(at, 34.0));
}

#[test]
fn c5_only_infantry_enter_a_town_off_the_road_and_then_at_6_inches() {
    let mut s = ground(&["b-li", "b-hc"]);
    terrain(
        &mut s,
        "town",
        TerrainKind::Town,
        rect(50.0, 25.0, 60.0, 35.0),
    );
    // Infantry: 3" to the edge, then the whole move is held to 6".
    let (at, texts) = go(&s, "b-li", 55.0, 12.0);
    assert!(near(at, 28.0), "{at} {texts:?}");
    // Cavalry stops at the edge.
    let (at, texts) = go(&s, "b-hc", 55.0, 12.0);
    assert!(at <= 25.0 + 1e-6, "{at}");
    assert!(texts.iter().any(|t| t.contains("C.5 Towns")), "{texts:?}");
    // Along a road through the town cavalry passes at its full pace.
    terrain(
        &mut s,
        "street",
        TerrainKind::Road,
        Shape::Polyline {
            points: vec![Point::new(55.0, 15.0), Point::new(55.0, 45.0)],
            width: Distance(4.0),
        },
    );
    let (at, texts) = go(&s, "b-hc", 55.0, 12.0);
    assert!(near(at, 34.0), "{at} {texts:?}");
}

#[test]
fn c6_earthworks_take_infantry_and_guns_at_6_inches_but_no_horse() {
    let mut s = ground(&["b-li", "b-art", "b-hc"]);
    terrain(
        &mut s,
        "works",
        TerrainKind::Earthwork,
        rect(50.0, 25.0, 60.0, 35.0),
    );
    for id in ["b-li", "b-art"] {
        let (at, texts) = go(&s, id, 55.0, 12.0);
        assert!(near(at, 28.0), "{id}: {at} {texts:?}");
    }
    let (at, texts) = go(&s, "b-hc", 55.0, 12.0);
    assert!(at <= 25.0 + 1e-6, "{at}");
    assert!(
        texts
            .iter()
            .any(|t| t.contains("C.6 Fortifications: heavy cavalry may not enter")),
        "{texts:?}"
    );
}

#[test]
fn c6_a_fired_mine_breaches_the_wall_and_a_company_passes() {
    let mut s = ground(&["b-lt"]);
    terrain(&mut s, "wall", TerrainKind::HighWall, wall_at(30.0));
    s.scenario.mines.push(Mine {
        id: "m1".into(),
        side: blue(),
        wall: "wall".into(),
        at: Point::new(55.0, 30.0),
    });
    let (at, texts) = go(&s, "b-lt", 55.0, 12.0);
    assert!(at < 30.0, "{at}");
    assert!(texts.iter().any(|t| t.contains("C.6 Fortifications")));
    place(&mut s, "b-lt", 55.0, 22.0, 0.0);
    let o = Orders::Turn(TurnOrders {
        actions: vec![forward("b-lt", 12.0)],
        fire_mines: vec!["m1".into()],
        ..TurnOrders::default()
    });
    let r = run(&s, o, vec![]);
    assert!(r.has("The mine m1 explodes"), "{:?}", r.texts);
    assert!(near(y(r.state(), "b-lt"), 34.0), "{:?}", r.texts);
    assert_eq!(r.state().breaches.len(), 1);
    // Away from the breach the wall still stops it.
    let (at, _) = go(r.state(), "b-lt", 65.0, 12.0);
    assert!(at < 30.0);
}

#[test]
fn c7_a_marsh_stops_all_but_light_infantry_when_so_defined() {
    let mut s = ground(&["b-li", "b-lt"]);
    terrain(
        &mut s,
        "marsh",
        TerrainKind::Marsh {
            light_infantry_cross: true,
        },
        rect(50.0, 25.0, 60.0, 35.0),
    );
    let (at, texts) = go(&s, "b-li", 55.0, 12.0);
    assert!(at <= 25.0 + 1e-6, "{at}");
    assert!(texts.iter().any(|t| t.contains("C.7")), "{texts:?}");
    let (at, _) = go(&s, "b-lt", 55.0, 12.0);
    assert!(near(at, 34.0));
    // A marsh nobody may cross stops light infantry too.
    s.scenario.terrain[3].kind = TerrainKind::Marsh {
        light_infantry_cross: false,
    };
    let (at, _) = go(&s, "b-lt", 55.0, 12.0);
    assert!(at <= 25.0 + 1e-6, "{at}");
}

#[test]
fn c7_a_low_wall_holds_the_move_to_6_inches_except_light_infantry() {
    let mut s = ground(&["b-li", "b-lt"]);
    terrain(
        &mut s,
        "fence",
        TerrainKind::LowWall { cover: false },
        wall_at(28.0),
    );
    let (at, texts) = go(&s, "b-li", 55.0, 12.0);
    assert!(near(at, 28.0), "{at} {texts:?}");
    let (at, _) = go(&s, "b-lt", 55.0, 12.0);
    assert!(near(at, 34.0));
}

//! The panel "What you can do now" and the numbers and names in refusals,
//! on a hand-built position: each test names the rule it checks.

use super::formation::Formation;
use super::options::{TITLE, panel};
use super::orders::{ChargeOrder, FireOrder, Move, Orders, Shot, TurnOrders};
use super::state::{Pending, Phase};
use super::tables::Troop;
use super::tests::{Setup, au, fr, ground, turn};
use super::*;
use crate::geometry::{Point, TerrainTag};
use crate::ruleset::Ruleset;
use crate::view::Viewer;

/// The French battery at (60, 5) facing the Austrians, with one enemy in
/// each case: the Jäger at double range, IR 1 beyond triple range, the
/// hussars out of its arc, and a copy of IR 1 behind the Beech wood.
fn position() -> Setup {
    let mut wood = ground("beech", vec![TerrainTag::Woods], 48.0, 13.0, 56.0, 17.0);
    wood.name = "Beech wood".into();
    Setup::new()
        .at("fr-bat", 60.0, 5.0, 0.0, Formation::Unlimbered)
        .at("fr-line", 20.0, 5.0, 0.0, Formation::Column)
        .at("fr-cuir", 5.0, 5.0, 0.0, Formation::Line)
        .at("au-jag", 60.0, 25.0, 180.0, Formation::Skirmish)
        .at("au-line", 60.0, 58.0, 180.0, Formation::Line)
        .at("au-hus", 85.0, 12.0, 180.0, Formation::Line)
        .copy("au-line", "au-blk", 40.0, 25.0)
        .terrain(wood)
        .detach_generals()
        .hold_fire(au(), &["au-jag", "au-line", "au-blk"])
        .phasing(fr())
}

/// The panel's line about `target` under the heading of unit `unit`.
fn line_for(lines: &[String], unit: &str, target: &str) -> String {
    let start = lines
        .iter()
        .position(|l| l.contains(&format!("[{unit}]")) && !l.starts_with("  "))
        .unwrap_or_else(|| panic!("no heading for {unit}: {lines:#?}"));
    lines[start + 1..]
        .iter()
        .take_while(|l| l.starts_with("  "))
        .find(|l| l.contains(&format!("[{target}]")))
        .cloned()
        .unwrap_or_else(|| panic!("no line for {target} under {unit}: {lines:#?}"))
}

#[test]
fn the_panel_gives_each_enemy_ahead_its_band_and_score_or_why_not() {
    // Fire Combat: within range and 45 degrees of the front face; a medium
    // battery's range 15 cm, double at -2, triple at -4; the 2D6 table
    // disorders on 7+. Line of fire: woods block it (house rule).
    let s = position().state();
    let p = panel(&s, &fr());
    assert_eq!(p.title, "What you can do now");
    let l = &p.lines;
    // 20 cm: double range. Fire mod +1, double range -2, skirmish -1: 9+.
    let jag = line_for(l, "fr-bat", "au-jag");
    assert!(jag.contains("fire at Jäger 1"), "{jag}");
    assert!(jag.contains("20.0 cm, double range (30 cm)"), "{jag}");
    assert!(jag.contains("needs 9+ to disorder"), "{jag}");
    assert!(
        jag.contains("12+ to make it retreat, 14+ (beyond 2D6) to eliminate"),
        "{jag}"
    );
    assert!(jag.contains("-2 artillery range x2"), "{jag}");
    // 53 cm: beyond the triple range of 45 cm.
    let far = line_for(l, "fr-bat", "au-line");
    assert!(far.contains("cannot fire at IR 1"), "{far}");
    assert!(far.contains("out of range: 53.0 cm"), "{far}");
    assert!(far.contains("is 45 cm (8.0 cm too far)"), "{far}");
    // In range (about 21 cm), but wide of the front arc.
    let wide = line_for(l, "fr-bat", "au-hus");
    assert!(
        wide.contains("cannot fire at Husaren 1 [au-hus]: out of arc"),
        "{wide}"
    );
    // In range and arc, but the wood is in the way.
    let hid = line_for(l, "fr-bat", "au-blk");
    assert!(
        hid.contains("sight blocked: Beech wood blocks the line of fire"),
        "{hid}"
    );
    // The column's musket reaches 5 cm: its nearest enemy ahead is out of
    // range, and the farther ones are counted in one line.
    let musket = line_for(l, "fr-line", "au-blk");
    assert!(
        musket.contains("out of range: 21.5 cm, musket range is 5 cm"),
        "{musket}"
    );
    assert!(
        l.iter()
            .any(|x| x == "  fire: 3 more enemies ahead, farther off, out of range too"),
        "{l:#?}"
    );
    // Movement factors: column 18 cm, halved with a change; road 30 cm.
    assert!(
        l.iter().any(|x| x
            == "  move: 18 cm (column rate 18 cm); 9 cm with a change of facing or formation; 30 cm on a road the whole way"),
        "{l:#?}"
    );
}

#[test]
fn the_panel_is_the_sides_own_and_in_its_template() {
    let s = position().state();
    let titled = |v: &Viewer| {
        NapoleonicCorps
            .view(&s, v)
            .panels
            .iter()
            .any(|p| p.title == TITLE)
    };
    assert!(titled(&Viewer::Side(fr())));
    assert!(titled(&Viewer::Side(au())));
    assert!(!titled(&Viewer::Public));
    assert!(!titled(&Viewer::Umpire));
    // The side not phasing owes nothing, and is told so.
    let theirs = panel(&s, &au());
    assert!(
        theirs.lines[0].starts_with("You owe nothing now: it is French's turn"),
        "{theirs:?}"
    );
    // A name with a line break stays within its comment.
    let mut odd = s.clone();
    if let Some(i) = odd.unit_index("au-line") {
        odd.units[i].name = "IR 1\nturn: {}".into();
    }
    let t = NapoleonicCorps.orders_template(&odd, &fr()).unwrap();
    assert!(!t.lines().any(|l| l.starts_with("turn: {}")), "{t}");
    // Nothing to do: one line says so.
    let mut setup = s.clone();
    setup.phase = Phase::Setup;
    assert_eq!(panel(&setup, &fr()).lines.len(), 1);
    // The template carries the same facts as comments, the scenario's
    // names quoted.
    let t = NapoleonicCorps.orders_template(&s, &fr()).unwrap();
    assert!(t.contains("# What you can do now:\n"), "{t}");
    assert!(
        t.contains("#     cannot fire at \"IR 1\" [au-line]: out of range: 53.0 cm"),
        "{t}"
    );
    assert!(t.contains("sight blocked: \"Beech wood\" blocks"), "{t}");
    // The template still reads as orders.
    let body: String = t
        .lines()
        .filter(|l| !l.starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(crate::yaml::from_str::<Orders>(&body).is_ok(), "{body}");
}

#[test]
fn the_panel_names_charges_within_reach() {
    // Charge Move 12 cm straight ahead: hussars 8 cm ahead are in reach.
    let s = position()
        .at("au-hus", 5.0, 13.0, 180.0, Formation::Line)
        .state();
    let p = panel(&s, &fr());
    let c = line_for(&p.lines, "fr-cuir", "au-hus");
    assert_eq!(
        c,
        "  charge: may charge Husaren 1 [au-hus] at 8.0 cm (charge move 12 cm straight ahead, no turning)"
    );
    // 18 cm ahead: the refusal says how far it is and how far too far.
    let s = position()
        .at("au-hus", 5.0, 23.0, 180.0, Formation::Line)
        .state();
    let o = TurnOrders {
        charges: vec![ChargeOrder {
            unit: "fr-cuir".into(),
            target: "au-hus".into(),
            if_controlled: Default::default(),
        }],
        ..TurnOrders::default()
    };
    let (_, ev) = turn(&s, o, vec![3; 20]);
    assert!(
        ev.iter().any(|e| e.what == "refused"
            && e.text
                .contains("Husaren 1 is 18.0 cm straight ahead (6.0 cm too far)")),
        "{ev:#?}"
    );
}

#[test]
fn advancing_fire_refusals_give_range_and_the_blocking_feature() {
    // Fire Combat: the refusal says the distance and the range, or which
    // feature blocks the line of fire.
    let s = position().state();
    let fire = |target: &str| TurnOrders {
        fire: vec![FireOrder {
            unit: "fr-bat".into(),
            target: target.into(),
            with: None,
        }],
        ..TurnOrders::default()
    };
    let refused = |target: &str| {
        let (_, ev) = turn(&s, fire(target), vec![3; 20]);
        ev.into_iter()
            .find(|e| e.what == "refused")
            .map(|e| e.text)
            .unwrap_or_default()
    };
    let far = refused("au-line");
    assert!(far.starts_with("Batterie cannot do as ordered: Fire combat: at IR 1: out of range: 53.0 cm, triple range (the longest) is 45 cm"), "{far}");
    let hid = refused("au-blk");
    assert!(
        hid.contains("sight blocked: Beech wood blocks the line of fire"),
        "{hid}"
    );
    let wide = refused("au-hus");
    assert!(wide.contains("out of arc"), "{wide}");
}

#[test]
fn a_decisions_fire_is_refused_with_the_numbers() {
    // Defensive Fire Phase, checked on receipt: the musket's 5 cm, and a
    // battery's line of fire through the wood.
    let mut s = position()
        .troop("au-blk", Troop::MediumBattery)
        .formation("au-blk", Formation::Unlimbered)
        .state();
    s.phase = Phase::Decision {
        turn: 1,
        phasing: fr(),
        pending: Box::new(Pending {
            orders: TurnOrders::default(),
            locked: Vec::new(),
            withdrawals: Vec::new(),
        }),
    };
    let shot = |unit: &str| Shot {
        unit: unit.into(),
        target: "fr-bat".into(),
        with: None,
    };
    let d = Orders::Decide(orders::Decision {
        fire: vec![shot("au-jag"), shot("au-blk")],
        ..Default::default()
    });
    let v = NapoleonicCorps.check(&s, &au(), &d);
    let jag = v
        .iter()
        .find(|v| v.path == ["decide", "fire", "0"])
        .unwrap_or_else(|| panic!("{v:?}"));
    assert_eq!(jag.unit.as_deref(), Some("au-jag"));
    assert_eq!(jag.rule, check::FIRE);
    assert!(
        jag.message
            .contains("at Batterie: out of range: 20.0 cm, musket range is 5 cm"),
        "{jag:?}"
    );
    let blk = v
        .iter()
        .find(|v| v.path == ["decide", "fire", "1"])
        .unwrap_or_else(|| panic!("{v:?}"));
    assert!(
        blk.message.contains("Beech wood blocks the line of fire"),
        "{blk:?}"
    );
    // The deciding side's panel says its decision is owed.
    assert!(panel(&s, &au()).lines[0].starts_with("Your decision is owed"));
}

#[test]
fn moves_cut_short_or_too_long_say_by_how_much() {
    // Movement factors: column 18 cm, halved with the slower rate for a
    // change of formation; a move ends where it meets an enemy.
    let s = Setup::new()
        .detach_generals()
        .hold_fire(au(), &["au-jag", "au-line"])
        .state();
    let long = TurnOrders {
        moves: vec![Move {
            formation: Some(Formation::Line),
            ..super::tests::mv("fr-line", 40.0, 30.0)
        }],
        ..TurnOrders::default()
    };
    let v = NapoleonicCorps.check(&s, &fr(), &Orders::Turn(long));
    assert!(
        v.iter().any(|v| v.message
            == "10.0 cm is more than the 6.0 cm it may move (the slower of column 18 cm and line 12 cm, halved for a change of formation; 4.0 cm too far)"),
        "{v:?}"
    );
    // IR 1's front is 15 cm ahead of the column: ordered 17 cm, it stops.
    let into = TurnOrders {
        moves: vec![super::tests::mv("fr-line", 40.0, 37.0)],
        ..TurnOrders::default()
    };
    let (after, ev) = turn(&s, into, vec![3; 20]);
    let m = ev.iter().find(|e| e.what == "move").expect("a move");
    assert!(
        m.text.contains(
            "stopped on meeting IR 1, after 15.0 of the 17.0 cm ordered (2.0 cm short of (40.0, 37.0); the rest of the move is dropped)"
        ),
        "{}",
        m.text
    );
    assert_eq!(
        after.unit("fr-line").map(|u| u.at),
        Some(Point::new(40.0, 35.0))
    );
}

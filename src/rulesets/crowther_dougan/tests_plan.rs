//! The orders page's plan and writer (issue 32), on the hidden-troops
//! scenario: each unit as it stands with the template's move, targets only
//! among enemies the side knows, nothing of a hidden enemy, and the writer
//! run in node, its file checked and resolved.

use super::CrowtherDougan;
use super::check::check;
use super::orders::{Deployment, FireOrder, Move, MoveOrders, Observe, Orders, Pledge, Reactions};
use super::plan::{plan, word};
use super::scenario::Scenario;
use super::state::{Phase, Smoke, State};
use super::tables::Formation;
use crate::dice::Dice;
use crate::geometry::Point;
use crate::ruleset::Ruleset;
use crate::side::{BySide, SideId};
use crate::view::plan::Plan;
use serde_json::{Value, json};
use std::io::Write;
use std::process::{Command, Stdio};

fn british() -> SideId {
    SideId::new("british")
}

fn french() -> SideId {
    SideId::new("french")
}

/// Beaver Creek before the setup step.
fn setup() -> State {
    let sc: Scenario = crate::yaml::from_str(super::demo::SCENARIO).expect("scenario parses");
    sc.check().expect("scenario is good");
    State::new(&sc).expect("state")
}

/// Beaver Creek at the British move 1, the French deployed where the
/// scenario suggests.
fn move_one() -> State {
    let s = setup();
    let mut orders = BySide::new();
    orders.insert(
        french(),
        Orders::Deploy(super::deploy::suggested(&s, &french())),
    );
    let s = CrowtherDougan
        .resolve(&s, &orders, &mut Dice::scripted(Vec::new()))
        .state;
    assert_eq!(
        s.phase,
        Phase::Move {
            n: 1,
            active: british()
        }
    );
    s
}

fn put(s: &mut State, id: &str, x: f64, y: f64) {
    s.unit_mut(id).expect("unit").at = Point::new(x, y);
}

/// Move 1 with La Sarre in the open within the 44th's musketry, the
/// Canadians somewhere in the west wood, and French smoke the British see
/// away from where its firer stands.
fn contact(canadians: Point) -> State {
    let mut s = move_one();
    put(&mut s, "fr-sarre", 80.0, 55.0);
    put(&mut s, "fr-canad", canadians.x, canadians.y);
    s.smoke.push(Smoke {
        id: "smoke-7".into(),
        unit: "fr-ottawa".into(),
        side: french(),
        at: Point::new(130.0, 60.0),
    });
    s
}

fn text(p: &Plan) -> String {
    serde_json::to_string(p).expect("a plan serialises")
}

#[test]
fn plan_formation_words_are_the_orders_words() {
    for f in [
        Formation::Line,
        Formation::Column,
        Formation::Open,
        Formation::Limbered,
        Formation::Unlimbered,
    ] {
        assert_eq!(json!(word(f)), serde_json::to_value(f).expect("a word"));
    }
}

/// Each live British unit at its centre (what `to:` names), facing and
/// formation; its reach the move the template states, with what the
/// template says takes from it; the formations its troops take.
#[test]
fn plan_each_unit_as_it_stands_with_the_templates_move() {
    let s = move_one();
    let p = plan(&s, &british()).expect("the British owe move 1");
    let t = super::template::template(&s, &british()).expect("template");
    let side = british();
    let live: Vec<_> = s.live(&side).collect();
    assert_eq!(p.units.len(), live.len());
    for (u, x) in live.iter().zip(&p.units) {
        assert_eq!(x.id, u.id);
        assert_eq!(x.label, u.name);
        assert_eq!(x.at, u.at);
        assert_eq!(x.facing, u.facing);
        assert_eq!(
            json!(x.formation),
            serde_json::to_value(u.formation).expect("word")
        );
        let r = x.reach.as_ref().expect("in good order, it moves");
        assert_eq!(r.full, u.mv());
        assert_eq!(r.turned, None, "turning by moving costs nothing");
        // The template's own line: "move 15 cm; forming line takes 15.0 cm; ..."
        let costs: Vec<&str> = r
            .shortened_by
            .iter()
            .map(String::as_str)
            .take_while(|l| !l.starts_with("no closer than 5 cm"))
            .collect();
        let line = format!("move {:.0} cm; {}", r.full, costs.join("; "));
        assert!(t.contains(&line), "{line} not in\n{t}");
    }
    let unit = |id: &str| p.units.iter().find(|u| u.id == id).expect(id);
    assert_eq!(unit("br-44").formations, ["column", "line"]);
    assert_eq!(unit("br-guns").formations, ["limbered", "unlimbered"]);
    assert!(
        unit("br-rang").formations.is_empty(),
        "skirmishers stay open"
    );
    assert!(
        unit("br-44")
            .reach
            .as_ref()
            .expect("reach")
            .shortened_by
            .contains(&"turning about 3.8 cm".to_string())
    );
    // What is left of the move after drill, for the writer's check.
    assert_eq!(
        p.extra["budgets"]["br-44"],
        json!({"column": [15.0, 11.25], "line": [0.0, 0.0]})
    );
    assert_eq!(
        p.extra["budgets"]["br-guns"],
        json!({"limbered": [10.0, 7.5], "unlimbered": [5.0, 2.5]})
    );
    assert_eq!(
        p.extra["persons"],
        json!({"br-burton": "br-44", "br-gates": "br-prov"})
    );
    // No enemy known at the start: nothing to fire at or charge but what
    // a unit finds by its own observation.
    for u in &p.units {
        let kinds: Vec<&str> = u.targets.iter().map(|t| t.kind.as_str()).collect();
        let fires = u.id != "br-guns";
        assert_eq!(
            kinds,
            if fires {
                vec!["fire", "charge"]
            } else {
                vec!["charge"]
            }
        );
        for t in &u.targets {
            let values: Vec<&str> = t.options.iter().map(|o| o.value.as_str()).collect();
            assert_eq!(values, ["found"], "{} {}", u.id, t.kind);
        }
    }
}

/// Hidden troops: the British plan, serialised, holds no id, name or
/// place of a French unit the British do not know; its targets are only
/// the enemy they see and the smoke they see.
#[test]
fn hidden_troops_no_hidden_enemy_in_the_british_plan() {
    let s = contact(Point::new(41.37, 63.91));
    let p = plan(&s, &british()).expect("plan");
    let all = text(&p);
    let known: Vec<String> = s.known_enemies(&british()).map(|u| u.id.clone()).collect();
    assert_eq!(known, ["fr-sarre"], "only La Sarre stands in the open");
    for u in s.live(&french()).filter(|u| u.id != "fr-sarre") {
        assert!(!all.contains(&u.id), "{} in {all}", u.id);
        assert!(!all.contains(&u.name), "{} in {all}", u.name);
        let point = serde_json::to_string(&u.at).expect("point");
        let place = format!("({:.1}, {:.1})", u.at.x, u.at.y);
        assert!(!all.contains(&point), "{point} in {all}");
        assert!(!all.contains(&place), "{place} in {all}");
    }
    for x in [
        "Beaujeu",
        "Langlade",
        "fr-beaujeu",
        "41.37",
        "63.91",
        "41.4",
        "63.9",
    ] {
        assert!(!all.contains(x), "{x} in {all}");
    }
    let mut fire_at_sarre = false;
    for u in &p.units {
        for t in &u.targets {
            for o in &t.options {
                assert!(
                    ["fr-sarre", "smoke-7", "found"].contains(&o.value.as_str()),
                    "{} may {} {}",
                    u.id,
                    t.kind,
                    o.value
                );
                fire_at_sarre |= u.id == "br-44" && t.kind == "fire" && o.value == "fr-sarre";
            }
        }
    }
    assert!(fire_at_sarre, "the 44th may fire at La Sarre");
    assert!(all.contains("smoke-7: gun smoke at (130.0, 60.0)"), "{all}");
}

/// The pair: where a hidden French unit stands changes nothing in the
/// British plan, byte for byte.
#[test]
fn hidden_troops_british_plan_the_same_wherever_the_hidden_french_stand() {
    let a = contact(Point::new(41.37, 63.91));
    let mut b = contact(Point::new(60.2, 80.4));
    put(&mut b, "fr-ottawa", 150.0, 55.0);
    assert_ne!(a, b);
    assert!(!a.sees(&british(), a.unit("fr-canad").expect("canadians")));
    assert!(!b.sees(&british(), b.unit("fr-canad").expect("canadians")));
    let pa = text(&plan(&a, &british()).expect("plan"));
    let pb = text(&plan(&b, &british()).expect("plan"));
    assert_eq!(pa, pb);
}

/// The setup step: the French place their hidden units (at the suggested
/// places to start, with their zones for the writer); the British, with
/// none, owe nothing and get no plan.
#[test]
fn plan_setup_step_places_the_hidden_units_within_their_zones() {
    let s = setup();
    assert!(plan(&s, &british()).is_none());
    let p = plan(&s, &french()).expect("the French deploy");
    let ids: Vec<&str> = p.units.iter().map(|u| u.id.as_str()).collect();
    assert_eq!(ids, ["fr-marine", "fr-canad", "fr-ottawa"]);
    let canad = &p.units[1];
    assert_eq!(canad.at, Point::new(48.0, 70.0));
    assert_eq!(canad.facing, 90.0);
    assert_eq!(p.extra["kind"], "deploy");
    let zones: Vec<&str> = p.extra["zones"]["fr-canad"]
        .as_array()
        .expect("zones")
        .iter()
        .filter_map(|z| z["id"].as_str())
        .collect();
    assert_eq!(zones, ["west-wood", "east-wood"]);
    assert_eq!(
        p.extra["zones"]["fr-marine"].as_array().map(Vec::len),
        Some(3)
    );
}

/// The enemy's move: no unit to order, each personality's standing
/// pledge as it stands.
#[test]
fn plan_enemys_move_offers_the_standing_pledges() {
    let mut s = move_one();
    s.reactions.insert(
        french(),
        Reactions {
            pledges: vec![Pledge {
                personality: "fr-beaujeu".into(),
                unit: "fr-marine".into(),
                points: 2,
            }],
        },
    );
    let p = plan(&s, &french()).expect("reactions");
    assert!(p.units.is_empty());
    assert_eq!(p.extra["kind"], "reactions");
    let f = |n: &str| p.fields.iter().find(|f| f.name == n).expect(n);
    assert_eq!(f("pledge:fr-beaujeu").default, "2");
    assert_eq!(f("pledge:fr-langlade").default, "0");
}

// --- The writer, in node ------------------------------------------------------

const NOTICE: &str = "07ea9bb02280340652ded76cadb1a4bac8f764cefe7cbce628d9b72ed341fec4";

/// The page's data as `galloper orders page` embeds it (the fields of the
/// head that write.js reads).
fn page(s: &State, side: &SideId) -> Value {
    json!({
        "head": {
            "game": "beaver-creek", "step": 2, "side": side.as_str(), "side_name": s.side_name(side),
            "notice": NOTICE, "revision": 1, "ruleset": "crowther-dougan", "fingerprint": "",
            "measure": "cm", "heading": "", "note": "",
        },
        "plan": plan(s, side).expect("a plan"),
        "frame": {}, "outlines": {}, "template": "",
    })
}

/// Runs write.js and page.js in node on each `{page, drawn}`: the orders
/// file and the problems the page shows, for each.
fn node(cases: Value) -> Vec<(String, Vec<Value>)> {
    let out = run_node(
        "const out = cases.map((c) => [GalloperOrders.file(c.page, c.drawn), GalloperOrders.problems(c.page, c.drawn)]);",
        cases,
    );
    serde_json::from_value(out).expect("node's answer")
}

/// Loading back, in node, as the page does it: for each `{page, drawn}`
/// (or `{page, text}`, a file written by hand) the file, and the file the
/// page writes again from what the writer's `read` makes of its `orders:`
/// block as the vendored YAML reader parses it (None when `read` refuses).
fn read_back(cases: Value) -> Vec<(String, Option<String>)> {
    let out = run_node(
        r#"const out = cases.map((c) => {
  const file = c.text != null ? c.text : GalloperOrders.file(c.page, c.drawn);
  const doc = GalloperVendor.parseYaml(file);
  const back = GalloperOrders.writerFor(c.page).read(c.page, doc.orders);
  return [file, back ? GalloperOrders.file(c.page, back) : null];
});"#,
        cases,
    );
    serde_json::from_value(out).expect("node's answer")
}

/// What the writer's `read` makes of the file written from `drawn` (the
/// drawn orders the page shows once the file is loaded back), and `drawn`
/// as the page holds it (both through JSON in node, as the browser test
/// compares them).
fn drawn_back(page: &Value, drawn: &Value) -> (Value, Value) {
    let out = run_node(
        r#"const out = cases.map((c) => [GalloperOrders.writerFor(c.page)
  .read(c.page, GalloperVendor.parseYaml(GalloperOrders.file(c.page, c.drawn)).orders), c.drawn]);"#,
        json!([{"page": page, "drawn": drawn}]),
    );
    (out[0][0].clone(), out[0][1].clone())
}

/// Runs the vendored scripts, write.js and this ruleset's page.js in node,
/// then `body`, which maps `cases` to `out`.
fn run_node(body: &str, cases: Value) -> Value {
    let root = env!("CARGO_MANIFEST_DIR");
    let script = format!(
        r#"
const vm = require('vm');
const fs = require('fs');
vm.runInThisContext(fs.readFileSync(process.env.VENDOR_JS, 'utf8'));
vm.runInThisContext(fs.readFileSync(process.env.WRITE_JS, 'utf8'));
vm.runInThisContext(fs.readFileSync(process.env.PAGE_JS, 'utf8'));
const cases = JSON.parse(fs.readFileSync(0, 'utf8'));
{body}
process.stdout.write(JSON.stringify(out));
"#
    );
    let mut child = Command::new("node")
        .arg("-e")
        .arg(script)
        .env("VENDOR_JS", format!("{root}/site/vendor/orders-vendor.js"))
        .env("WRITE_JS", format!("{root}/site/orders/write.js"))
        .env(
            "PAGE_JS",
            format!("{root}/src/rulesets/crowther_dougan/page.js"),
        )
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node runs (the orders page's writer is tested in node)");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(cases.to_string().as_bytes())
        .expect("cases written");
    let out = child.wait_with_output().expect("node ends");
    assert!(
        out.status.success(),
        "node: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("node's answer")
}

/// The orders of a file the page wrote, through the envelope.
fn orders_of(file: &str) -> Orders {
    let signed = crate::envelope::with_entropy(file, &crate::envelope::notice_sha256(file));
    let env = crate::envelope::parse("orders.yaml", signed.as_bytes())
        .unwrap_or_else(|e| panic!("{e:?}\n{file}"));
    crate::yaml::from_value(env.orders).unwrap_or_else(|e| panic!("{e}\n{file}"))
}

fn bearing(a: Point, b: Point) -> f64 {
    (b.x - a.x).atan2(b.y - a.y).to_degrees().rem_euclid(360.0)
}

fn differ(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(360.0);
    d.min(360.0 - d)
}

/// The orders the end-to-end test draws (the rangers dropped at
/// (65, 38) facing the way they go).
fn drawn_end_to_end(s: &State) -> Value {
    let rang_from = s.unit("br-rang").expect("rangers").at;
    let rang_to = Point::new(65.0, 38.0);
    let rang_facing = bearing(rang_from, rang_to);
    json!({
        "units": {
            "br-rang": {"move": {"x": rang_to.x, "y": rang_to.y, "facing": rang_facing}, "formation": "", "targets": {}, "fields": {}},
            "br-48": {"move": {"x": 102.0, "y": 15.0, "facing": 180.0}, "formation": "", "targets": {}, "fields": {}},
            "br-44": {"move": null, "formation": "", "targets": {"fire": "fr-sarre"}, "fields": {}},
            "br-gren": {"move": null, "formation": "", "targets": {}, "fields": {"observe": "90, 81"}},
            "br-guns": {"move": null, "formation": "unlimbered", "targets": {}, "fields": {}},
        },
        "fields": {"pledge:br-burton": "1", "pledge:br-gates": "0", "join:br-burton": "", "join:br-gates": ""},
    })
}

/// The move the writer's own checks are tried on.
fn drawn_checks(s: &State) -> Value {
    let b44 = s.unit("br-44").expect("44th").at;
    let prov = s.unit("br-prov").expect("provincials").at;
    let gren = s.unit("br-gren").expect("grenadiers").at;
    json!({
        "units": {
            "br-44": {"move": {"x": b44.x, "y": b44.y, "facing": 180.0}, "formation": "", "targets": {}, "fields": {}},
            "br-48": {"move": {"x": 102.0, "y": 26.0, "facing": 0.0}, "formation": "", "targets": {"charge": "found"}, "fields": {}},
            "br-gren": {"move": {"x": gren.x, "y": gren.y + 5.0, "facing": 0.0}, "formation": "line", "targets": {}, "fields": {}},
            "br-rang": {"move": null, "formation": "", "targets": {}, "fields": {"observe": {"x": 48.04, "y": 70.0}}},
            "br-prov": {"move": {"x": prov.x + 5.0, "y": prov.y + 5.0, "facing": 0.0}, "formation": "", "targets": {}, "fields": {}},
        },
        "fields": {},
    })
}

/// The French placements those checks draw (the Ottawas outside their zones).
fn drawn_deploy() -> Value {
    json!({
        "units": {
            "fr-canad": {"move": {"x": 40.0, "y": 60.0, "facing": 90.0}, "formation": "", "targets": {}, "fields": {}},
            "fr-ottawa": {"move": {"x": 100.0, "y": 30.0, "facing": 0.0}, "formation": "", "targets": {}, "fields": {}},
        },
        "fields": {},
    })
}

/// End to end: the rangers dragged forward and turned the way they go,
/// the 48th dragged back and turned round, the guns unlimbered, the 44th
/// firing at La Sarre, the grenadiers observing the farm, Burton pledging
/// a point. The page finds nothing wrong, the file passes the check, and
/// resolving the move puts each unit where it was dropped, facing as drawn.
#[test]
fn page_writer_end_to_end_drawn_orders_pass_the_check_and_resolve_as_drawn() {
    let s = contact(Point::new(41.37, 63.91));
    let rang_from = s.unit("br-rang").expect("rangers").at;
    let rang_to = Point::new(65.0, 38.0);
    let rang_facing = bearing(rang_from, rang_to);
    let drawn = drawn_end_to_end(&s);
    let out = node(json!([{"page": page(&s, &british()), "drawn": drawn}]));
    let (file, problems) = &out[0];
    assert!(problems.is_empty(), "{problems:?}");
    assert!(file.starts_with("galloper: 1\ngame: beaver-creek\nstep: 2\nside: british\n"));
    let o = orders_of(file);
    let expected = MoveOrders {
        observe: vec![Observe {
            unit: "br-gren".into(),
            at: Point::new(90.0, 81.0),
        }],
        pledges: vec![Pledge {
            personality: "br-burton".into(),
            unit: "br-44".into(),
            points: 1,
        }],
        fire: vec![FireOrder {
            unit: "br-44".into(),
            target: "fr-sarre".into(),
        }],
        moves: vec![
            Move {
                unit: "br-48".into(),
                to: Some(Point::new(102.0, 15.0)),
                formation: None,
                about: true,
            },
            Move {
                unit: "br-rang".into(),
                to: Some(rang_to),
                formation: None,
                about: false,
            },
            Move {
                unit: "br-guns".into(),
                to: None,
                formation: Some(Formation::Unlimbered),
                about: false,
            },
        ],
        ..MoveOrders::default()
    };
    assert_eq!(o, Orders::Move(expected), "{file}");
    assert!(check(&s, &british(), &o).is_empty(), "{file}");
    let mut by = BySide::new();
    by.insert(british(), o);
    let r = CrowtherDougan.resolve(&s, &by, &mut Dice::scripted(vec![3; 60]));
    let after = |id: &str| r.state.unit(id).expect(id).clone();
    let rang = after("br-rang");
    assert!(rang.at.distance_to(rang_to).get() < 0.05, "{:?}", rang.at);
    assert!(differ(rang.facing, rang_facing) < 0.5, "{}", rang.facing);
    let b48 = after("br-48");
    assert!(
        b48.at.distance_to(Point::new(102.0, 15.0)).get() < 0.05,
        "{:?}",
        b48.at
    );
    assert!(differ(b48.facing, 180.0) < 0.5, "{}", b48.facing);
    assert_eq!(after("br-guns").formation, Formation::Unlimbered);
    assert!(after("br-44").fired, "the 44th fired");
}

/// The writer's own choices and checks: turning about in place, an area
/// given as a point, a charge beside a move, `found` without an
/// observation, a move longer than drill leaves, a facing no move gives;
/// a placement outside its zones flagged as the server refuses it; the
/// standing pledges kept unless changed.
#[test]
fn page_writer_turns_about_checks_drill_and_zones_and_keeps_pledges() {
    let s = contact(Point::new(41.37, 63.91));
    let mv = drawn_checks(&s);
    let placed = setup();
    let deploy = drawn_deploy();
    let mut waiting = move_one();
    waiting.reactions.insert(
        french(),
        Reactions {
            pledges: vec![Pledge {
                personality: "fr-beaujeu".into(),
                unit: "fr-marine".into(),
                points: 2,
            }],
        },
    );
    let out = node(json!([
        {"page": page(&s, &british()), "drawn": mv},
        {"page": page(&placed, &french()), "drawn": deploy},
        {"page": page(&waiting, &french()), "drawn": {"units": {}, "fields": {}}},
        {"page": page(&waiting, &french()), "drawn": {"units": {}, "fields": {"pledge:fr-beaujeu": "0", "pledge:fr-langlade": "1"}}},
    ]));
    // The move.
    let (file, problems) = &out[0];
    let Orders::Move(m) = orders_of(file) else {
        panic!("{file}")
    };
    let about = m.moves.iter().find(|x| x.unit == "br-44").expect("44th");
    assert!(about.about && about.to.is_none(), "{file}");
    assert_eq!(m.observe[0].at, Point::new(48.0, 70.0));
    let says = |unit: &str, words: &str| says_in(problems, unit, words);
    assert!(
        says("br-48", "`target: found` names what br-48 finds"),
        "{problems:?}"
    );
    assert!(says("br-48", "the ordered move is dropped"), "{problems:?}");
    assert!(
        says(
            "br-gren",
            "more than the 0 cm its move leaves after forming line"
        ),
        "{problems:?}"
    );
    assert!(says("br-prov", "ends facing 45, not 0"), "{problems:?}");
    assert!(
        !says("br-44", ""),
        "turning about in place is fine: {problems:?}"
    );
    // The placements: the Ottawas outside their zones, as the server says.
    let (file, problems) = &out[1];
    let o = orders_of(file);
    let Orders::Deploy(Deployment { units }) = &o else {
        panic!("{file}")
    };
    assert_eq!(units.len(), 2);
    assert_eq!(units[0].facing, Some(90.0));
    let refused: Vec<String> = check(&placed, &french(), &o)
        .into_iter()
        .filter_map(|v| v.unit)
        .collect();
    assert_eq!(refused, ["fr-ottawa"]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(says_in(
        problems,
        "fr-ottawa",
        "(100.0, 30.0) is in none of fr-ottawa's zones (west-wood, east-wood)"
    ));
    // The standing pledges: kept as they stand, or changed.
    let reactions = |i: usize| match orders_of(&out[i].0) {
        Orders::Reactions(r) => r.pledges,
        o => panic!("{o:?}"),
    };
    assert_eq!(reactions(2).len(), 1);
    assert_eq!(reactions(2)[0].points, 2);
    let changed = reactions(3);
    assert_eq!(changed.len(), 1);
    assert_eq!(changed[0].personality, "fr-langlade");
    assert_eq!(changed[0].unit, "fr-ottawa");
    assert!(
        check(
            &waiting,
            &french(),
            &Orders::Reactions(Reactions { pledges: changed })
        )
        .is_empty()
    );
}

/// Loading back: each file the tests above draw (a move with turns, a
/// turn about in place, targets, an observation, pledges; placements;
/// standing pledges kept or changed; a recall and a join) is read back by
/// the writer's `read` into drawn orders that write the same file byte
/// for byte. A file written by hand in a way the page never writes (an
/// `about: false`, a placement with no facing away from where the unit
/// stands, moves out of the plan's order) is refused, so the page offers
/// it as text. Orders drawn as the page draws them come back as drawn.
#[test]
fn page_writer_reads_back_what_it_wrote_and_refuses_what_it_would_not_write() {
    let s = contact(Point::new(41.37, 63.91));
    let placed = setup();
    let waiting = move_one();
    let mv = page(&s, &british());
    let pledges =
        json!({"units": {}, "fields": {"pledge:fr-beaujeu": "0", "pledge:fr-langlade": "1"}});
    let persons =
        json!({"units": {}, "fields": {"recall:br-burton": "true", "join:br-gates": "br-44"}});
    let head = "galloper: 1\ngame: beaver-creek\nstep: 2\nside: british\nrevision: 1\norders:\n";
    let out = read_back(json!([
        {"page": mv, "drawn": drawn_end_to_end(&s)},
        {"page": mv, "drawn": drawn_checks(&s)},
        {"page": mv, "drawn": persons},
        {"page": page(&placed, &french()), "drawn": drawn_deploy()},
        {"page": page(&waiting, &french()), "drawn": {"units": {}, "fields": {}}},
        {"page": page(&waiting, &french()), "drawn": pledges},
        {"page": mv, "text": format!("{head}  move:\n    moves:\n      - {{unit: br-48, to: {{x: 102, y: 15}}, about: false}}\n")},
        {"page": mv, "text": format!("{head}  move:\n    moves:\n      - {{unit: br-rang, to: {{x: 65, \"y\": 38}}}}\n      - {{unit: br-48, to: {{x: 102, y: 15}}, about: true}}\n")},
        {"page": page(&placed, &french()), "text": format!("{head}  deploy:\n    units:\n      - {{unit: fr-canad, at: {{x: 40, y: 60}}}}\n")},
    ]));
    for (file, again) in &out[..6] {
        assert!(file.contains("\norders:\n  "), "{file}");
        assert_eq!(again.as_deref(), Some(file.as_str()), "read back:\n{file}");
    }
    assert!(out[0].0.contains("to: {x: 65, \"y\": 38}") && out[1].0.contains("about: true"));
    for (file, again) in &out[6..] {
        assert_eq!(again, &None, "refused:\n{file}");
    }
    // Drawn as the page draws (a unit dragged keeps its facing, a target,
    // a formation, a point, a pledge changed), the orders come back as
    // they were drawn.
    let rang = s.unit("br-rang").expect("rangers").facing;
    let drawn = json!({
        "units": {
            "br-rang": {"move": {"x": 65.0, "y": 38.0, "facing": rang}, "formation": "", "targets": {}, "fields": {}},
            "br-44": {"move": null, "formation": "", "targets": {"fire": "fr-sarre"}, "fields": {}},
            "br-gren": {"move": null, "formation": "", "targets": {}, "fields": {"observe": "90, 81"}},
            "br-guns": {"move": null, "formation": "unlimbered", "targets": {}, "fields": {}},
        },
        "fields": {"pledge:br-burton": "1"},
    });
    let (back, drawn) = drawn_back(&mv, &drawn);
    assert_eq!(back, drawn);
    // What the hand-written move says the page would write otherwise: a
    // move it can make is read (the same file without `about: false`).
    let fine = read_back(
        json!([{"page": mv, "text": format!("{head}  move:\n    moves:\n      - {{unit: br-48, to: {{x: 102, y: 15}}, about: true}}\n")}]),
    );
    assert!(fine[0].1.is_some(), "{}", fine[0].0);
}

fn says_in(problems: &[Value], unit: &str, words: &str) -> bool {
    problems
        .iter()
        .any(|p| p["unit"] == unit && p["message"].as_str().is_some_and(|t| t.contains(words)))
}

/// The page must stay under 1.5 MB at 30 units a side: the plan, every
/// enemy in range and in reach, is a small share of it.
#[test]
fn plan_size_at_30_units_a_side_is_small() {
    let sc: Scenario =
        crate::yaml::from_str(&crate::bench::generate::crowther(30)).expect("scenario parses");
    let s = State::new(&sc).expect("state");
    let red = SideId::new("red");
    let p = plan(&s, &red).expect("red moves");
    assert_eq!(p.units.len(), 30);
    assert!(
        p.units
            .iter()
            .any(|u| u.targets.iter().any(|t| t.options.len() > 5)),
        "the lines face each other in range"
    );
    let size = text(&p).len();
    assert!(size < 150_000, "{size} bytes");
}

/// The ruleset hands the page its plan with the writer that registers
/// under its own name; a routing unit is offered only an area to observe.
#[test]
fn plan_wired_to_the_ruleset_with_its_writer() {
    let mut s = move_one();
    s.unit_mut("br-prov").expect("provincials").status = super::state::Status::Routing;
    let page = CrowtherDougan
        .orders_plan(&s, &british())
        .expect("the British owe move 1");
    let name = CrowtherDougan.name();
    assert!(
        page.writer.contains(&format!("G.register('{name}', {{")),
        "the writer registers as {name}"
    );
    let prov = page
        .plan
        .units
        .iter()
        .find(|u| u.id == "br-prov")
        .expect("listed");
    assert!(prov.reach.is_none() && prov.targets.is_empty());
    let fields: Vec<&str> = prov.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(fields, ["observe"]);
    assert!(CrowtherDougan.orders_plan(&setup(), &british()).is_none());
}

#[test]
fn plan_ground_closes_the_thicket_to_all_but_skirmishers_and_takes_the_least_dice_elsewhere() {
    let s = move_one();
    let p = plan(&s, &british()).expect("the British move");
    let of = |id: &str, name: &str| {
        let u = p.units.iter().find(|u| u.id == id).expect("unit");
        let r = u.reach.as_ref().expect("it may move");
        let g = r
            .ground
            .iter()
            .find(|g| p.ground[g.outline].name == name)
            .map(|g| (g.most, g.why.clone()));
        (r.full, g)
    };
    // Dense woods: closed to formed foot, militia and guns alike.
    for id in ["br-44", "br-gren", "br-prov", "br-guns"] {
        let (_, g) = of(id, "Alder thicket");
        let (most, why) = g.expect("the thicket is listed");
        assert_eq!(most, None, "{id}");
        assert!(why.contains("closed to all but skirmishers"), "{why}");
    }
    // Skirmishers pay 2D6 there: at least 2 cm of their move.
    let (full, g) = of("br-rang", "Alder thicket");
    let (most, why) = g.expect("listed for the rangers too");
    assert_eq!(most, Some(full - 2.0));
    assert!(why.contains("2D6"), "{why}");
    // Woods, the farm, the creek and the fence take 1D6; the road nothing.
    for name in ["West wood", "Frazer's farm", "Beaver Creek", "Rail fence"] {
        let (full, g) = of("br-44", name);
        assert_eq!(g.map(|g| g.0), Some(Some(full - 1.0)), "{name}");
    }
    assert_eq!(of("br-44", "The road").1, None);
    let creek = p
        .ground
        .iter()
        .find(|o| o.name == "Beaver Creek")
        .expect("creek");
    assert_eq!(creek.line, Some(3.0));
}

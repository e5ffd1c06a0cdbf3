//! The orders page's plan ([`super::plan`]) against the state, the
//! template and the options, and its writer (`page.js`) end to end: run in
//! node on the plan, the file it writes passes the check and, resolved,
//! puts the moved company where it was dropped.

use super::MorschauserMacduff;
use super::demo;
use super::options::{charge_targets, shot_targets};
use super::orders::{Deployment, Orders};
use super::state::{Phase, State};
use crate::dice::Dice;
use crate::geometry::Point;
use crate::ruleset::Ruleset;
use crate::side::{BySide, SideId};
use crate::view::plan::Plan;
use serde_json::{Value, json};
use std::path::Path;
use std::process::Command;

fn british() -> SideId {
    SideId::new("british")
}

fn scenario_state(file: &str) -> State {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("games/morschauser-macduff")
            .join(file),
    )
    .expect("scenario file");
    let scenario = crate::yaml::from_str(&text).expect("scenario");
    MorschauserMacduff.start(&scenario).expect("start")
}

fn plan_of(s: &State, side: &SideId) -> Plan {
    MorschauserMacduff
        .orders_plan(s, side)
        .expect("the side owes orders")
        .plan
}

fn resolve(s: &State, orders: BySide<Orders>, dice: &[u32]) -> State {
    MorschauserMacduff
        .resolve(s, &orders, &mut Dice::scripted(dice.to_vec()))
        .state
}

/// The crossroads played by the demo's generals until the side to move has
/// a company with an enemy to shoot at.
fn state_with_a_target() -> State {
    let mut s = scenario_state("crossroads.yaml");
    let both: BySide<Orders> = s
        .scenario
        .sides
        .iter()
        .map(|x| (x.id.clone(), Orders::Deploy(Deployment::default())))
        .collect();
    s = resolve(&s, both, &[6, 1]);
    for _ in 0..12 {
        let Phase::HalfTurn { active, .. } = s.phase.clone() else {
            panic!("the game ended before any company could shoot");
        };
        if s.live(&active).any(|c| !shot_targets(&s, c).is_empty()) {
            return s;
        }
        let t = demo::turn_orders(&s, &active);
        s = resolve(&s, [(active, Orders::Turn(t))].into(), &[3, 4, 2, 5, 1, 6]);
    }
    panic!("no company came within range in twelve half-turns");
}

fn side_to_move(s: &State) -> SideId {
    match &s.phase {
        Phase::HalfTurn { active, .. } => active.clone(),
        _ => panic!("not a half-turn"),
    }
}

/// The `move N"` the template's line for company `id` states.
fn template_move(s: &State, side: &SideId, id: &str) -> f64 {
    let t = MorschauserMacduff
        .orders_template(s, side)
        .expect("template");
    let line = t
        .lines()
        .find(|l| l.contains(&format!("[{id}]")))
        .expect("the company's line");
    let after = line.split(", move ").nth(1).expect("a move");
    after[..after.find('"').expect("inches")]
        .parse()
        .expect("a number")
}

#[test]
fn each_live_company_stands_in_the_plan_where_the_state_has_it() {
    let s = state_with_a_target();
    let fresh = scenario_state("crossroads.yaml");
    for side in [british(), SideId::new("french")] {
        let deploy = plan_of(&fresh, &side);
        assert_eq!(deploy.extra["phase"], "deploy");
        assert!(deploy.fields.iter().any(|f| f.name == "if_winner"));
        let live: Vec<_> = fresh.live(&side).collect();
        assert_eq!(deploy.units.len(), live.len());
        for (u, c) in deploy.units.iter().zip(live) {
            assert_eq!(
                (u.id.as_str(), u.at, u.facing),
                (c.id.as_str(), c.at, c.facing.degrees())
            );
            assert!(u.reach.is_some(), "the crossroads has zones to redeploy in");
        }
    }
    let side = side_to_move(&s);
    let p = plan_of(&s, &side);
    assert_eq!(p.extra["phase"], "turn");
    let live: Vec<_> = s.live(&side).collect();
    assert_eq!(p.units.len(), live.len());
    for (u, c) in p.units.iter().zip(live) {
        assert_eq!(u.id, c.id);
        assert_eq!(u.at, c.at, "{} stands where the state has it", c.id);
        assert_eq!(u.facing, c.facing.degrees());
        let reach = u
            .reach
            .as_ref()
            .expect("a company that is not routing may move");
        assert_eq!(reach.full, template_move(&s, &side, &c.id));
        assert_eq!(reach.turned, None, "pivots are free (B.1)");
        if let Some(road) = reach.road {
            assert_eq!(road, reach.full * 1.5);
        }
    }
    // The other side owes nothing in this half-turn.
    assert!(
        MorschauserMacduff
            .orders_plan(&s, &s.other(&side))
            .is_none()
    );
}

#[test]
fn a_company_on_the_road_may_go_half_as_far_again_and_one_off_it_may_not() {
    let mut s = scenario_state("crossroads.yaml");
    s.phase = Phase::HalfTurn {
        turn: 1,
        active: british(),
    };
    let p = plan_of(&s, &british());
    let on = |id: &str| {
        let c = s.company(id).expect("company");
        s.scenario
            .terrain
            .iter()
            .filter(|t| {
                use super::scenario::TerrainKind::{Bridge, Road};
                matches!(t.kind, Road | Bridge)
            })
            .any(|t| {
                t.feature()
                    .touches_bases(std::slice::from_ref(&c.base(&s.scenario)))
            })
    };
    assert!(
        p.units.iter().any(|u| on(&u.id)) && p.units.iter().any(|u| !on(&u.id)),
        "the crossroads has companies on and off the road"
    );
    for u in &p.units {
        let reach = u.reach.as_ref().expect("reach");
        assert_eq!(reach.road.is_some(), on(&u.id), "{}", u.id);
        assert_eq!(
            u.fields.iter().any(|f| f.name == "road"),
            on(&u.id),
            "{}",
            u.id
        );
    }
}

#[test]
fn targets_are_the_enemies_the_options_name_and_only_those() {
    let s = state_with_a_target();
    let side = side_to_move(&s);
    let p = plan_of(&s, &side);
    let mut fired = 0;
    for u in &p.units {
        let c = s.company(&u.id).expect("company");
        let of = |kind: &str| -> Vec<String> {
            u.targets
                .iter()
                .find(|t| t.kind == kind)
                .map(|t| t.options.iter().map(|o| o.value.clone()).collect())
                .unwrap_or_default()
        };
        let shots: Vec<String> = shot_targets(&s, c)
            .into_iter()
            .map(|(e, _)| e.id.clone())
            .collect();
        assert_eq!(of("fire"), shots, "{}", u.id);
        fired += shots.len();
        let r = charge_targets(&s, c);
        let charges: Vec<String> = if !c.profile.troop.may_charge() {
            Vec::new()
        } else if !r.must.is_empty() {
            r.must.iter().map(|e| e.id.clone()).collect()
        } else {
            r.could.iter().map(|(e, _)| e.id.clone()).collect()
        };
        assert_eq!(of("charge"), charges, "{}", u.id);
        for t in &u.targets {
            for o in &t.options {
                let e = s.company(&o.value).expect("an enemy company");
                assert!(
                    e.side != side && e.on_table(),
                    "{} is a live enemy",
                    o.value
                );
            }
        }
    }
    assert!(fired > 0, "the position has a target to check");
}

// --- The writer, end to end -------------------------------------------------

/// The page's data as `galloper orders page` embeds it (the fields of the
/// head that write.js reads).
fn page_of(plan: &Plan, s: &State, side: &SideId) -> Value {
    json!({
        "head": {
            "game": "crossroads-test", "step": 7, "side": side.0, "side_name": s.side_name(side),
            "notice": "ab".repeat(32), "revision": 1, "ruleset": "morschauser-macduff",
            "fingerprint": "SHA256:test", "measure": "in", "heading": "test", "note": "",
        },
        "plan": plan, "frame": {}, "outlines": {}, "template": "",
    })
}

/// Run `site/orders/write.js` and `page.js` in node on the page data and
/// what was drawn; the orders file and the page's problems.
fn run_writer(plan: &Plan, s: &State, side: &SideId, drawn: Value) -> (String, Vec<Value>) {
    let v = in_node(
        r#"
const page = input.page, drawn = input.drawn;
const out = {
  file: GalloperOrders.file(page, drawn),
  problems: GalloperOrders.problems(page, drawn),
};"#,
        json!({"page": page_of(plan, s, side), "drawn": drawn}),
    );
    let file = v["file"].as_str().expect("file").to_string();
    let problems = v["problems"].as_array().cloned().unwrap_or_default();
    (file, problems)
}

/// Loading back, in node, as the page does it: the file written from
/// `drawn` (or `text`, a file written by hand, when `drawn` is a string),
/// and the file the page writes again from what the writer's `read`
/// makes of its `orders:` block as the vendored YAML reader parses it
/// (None when `read` refuses it).
fn read_back(plan: &Plan, s: &State, side: &SideId, drawn: Value) -> (String, Option<String>) {
    let v = in_node(
        r#"
const page = input.page;
const file = typeof input.drawn === 'string' ? input.drawn : GalloperOrders.file(page, input.drawn);
const back = GalloperOrders.writerFor(page).read(page, GalloperVendor.parseYaml(file).orders);
const out = { file, again: back ? GalloperOrders.file(page, back) : null, back };"#,
        json!({"page": page_of(plan, s, side), "drawn": drawn}),
    );
    let file = v["file"].as_str().expect("file").to_string();
    (file, v["again"].as_str().map(String::from))
}

/// What the writer's `read` makes of the file written from `drawn` (the
/// drawn orders the page shows once the file is loaded back), and `drawn`
/// as the page holds it (both through JSON in node, as the browser test
/// compares them).
fn drawn_back(plan: &Plan, s: &State, side: &SideId, drawn: &Value) -> (Value, Value) {
    let v = in_node(
        r#"
const page = input.page;
const file = GalloperOrders.file(page, input.drawn);
const out = [GalloperOrders.writerFor(page).read(page, GalloperVendor.parseYaml(file).orders), input.drawn];"#,
        json!({"page": page_of(plan, s, side), "drawn": drawn}),
    );
    (v[0].clone(), v[1].clone())
}

/// Runs the vendored scripts, write.js and this ruleset's page.js in node,
/// then `body`, which reads `input` and sets `out`.
fn in_node(body: &str, input: Value) -> Value {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("input.json"), input.to_string()).expect("input");
    let script = format!(
        r#"
const fs = require('fs'), vm = require('vm');
const [vendor, write, writer, dir] = process.argv.slice(1);
vm.runInThisContext(fs.readFileSync(vendor, 'utf8'), {{filename: vendor}});
vm.runInThisContext(fs.readFileSync(write, 'utf8'), {{filename: write}});
vm.runInThisContext(fs.readFileSync(writer, 'utf8'), {{filename: writer}});
const input = JSON.parse(fs.readFileSync(dir + '/input.json', 'utf8'));
{body}
process.stdout.write(JSON.stringify(out));
"#
    );
    let out = Command::new("node")
        .arg("-e")
        .arg(script)
        .arg(root.join("site/vendor/orders-vendor.js"))
        .arg(root.join("site/orders/write.js"))
        .arg(root.join("src/rulesets/morschauser_macduff/page.js"))
        .arg(dir.path())
        .output()
        .expect("node is needed for this test (apt-get install nodejs)");
    assert!(
        out.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("node's answer")
}

/// The orders in the file, read as the server reads a file it receives.
fn parsed(file: &str) -> Orders {
    let text = crate::envelope::with_entropy(file, "5f1c9a0e7b3d42a8c6e1f09b7d2a4c3e");
    let env = crate::envelope::parse("orders.yaml", text.as_bytes()).expect("the file parses");
    assert_eq!(env.step, 7);
    crate::yaml::from_value(env.orders).expect("the orders block is the ruleset's")
}

/// What the end-to-end test draws: a company with nothing near moved back
/// 2.5" and turned 30 degrees (a move any company may make), another
/// given a target. The drawn orders, the shooter, its target, the mover,
/// where it was dropped and its facing.
fn move_and_target(s: &State, p: &Plan) -> (Value, String, String, String, Point, f64) {
    let shooter = p
        .units
        .iter()
        .find(|u| u.targets.iter().any(|t| t.kind == "fire"))
        .expect("a company with a target");
    let target = shooter
        .targets
        .iter()
        .find(|t| t.kind == "fire")
        .map(|t| t.options[0].value.clone())
        .expect("a target");
    // A company with nothing near, moved back 2.5" and turned 30 degrees:
    // a move any company may make.
    let mover = p
        .units
        .iter()
        .filter(|u| u.id != shooter.id)
        .find(|u| {
            let c = s.company(&u.id).expect("company");
            charge_targets(s, c).must.is_empty() && charge_targets(s, c).could.is_empty()
        })
        .expect("a company out of the fight");
    let c = s.company(&mover.id).expect("company");
    let back = c.facing.turned(180.0).unit_vector().scale(2.5);
    let to = Point::new(
        ((c.at.x + back.x) * 10.0).round() / 10.0,
        ((c.at.y + back.y) * 10.0).round() / 10.0,
    );
    let facing = (c.facing.degrees() + 30.0).rem_euclid(360.0);
    let shooter = shooter.id.clone();
    let mover = mover.id.clone();
    let drawn = json!({
        "units": {
            mover.clone(): {"move": {"x": to.x, "y": to.y, "facing": facing}, "formation": "", "targets": {}, "fields": {}},
            shooter.clone(): {"move": null, "formation": "", "targets": {"fire": target}, "fields": {}},
        },
        "fields": {},
    });
    (drawn, shooter, target, mover, to, facing)
}

#[test]
fn a_drawn_move_and_a_target_resolve_to_where_the_company_was_dropped() {
    let s = state_with_a_target();
    let side = side_to_move(&s);
    let p = plan_of(&s, &side);
    let (drawn, shooter, target, mover, to, facing) = move_and_target(&s, &p);
    let (file, problems) = run_writer(&p, &s, &side, drawn);
    assert!(
        problems.is_empty(),
        "the page sees no problem: {problems:?}\n{file}"
    );
    let orders = parsed(&file);
    let Orders::Turn(t) = &orders else {
        panic!("turn orders: {file}")
    };
    assert_eq!(t.actions.len(), 2, "only the two ordered companies: {file}");
    let shot = t
        .actions
        .iter()
        .find(|a| a.company.as_deref() == Some(shooter.as_str()))
        .expect("the shooter's entry");
    assert_eq!(shot.target.as_deref(), Some(target.as_str()));
    assert_eq!(shot.sequence, super::orders::Sequence::ShootOnly);
    assert!(
        MorschauserMacduff.check(&s, &side, &orders).is_empty(),
        "the file passes the check: {file}"
    );
    let next = resolve(&s, [(side.clone(), orders)].into(), &[4; 64]);
    let moved = next.company(&mover).expect("still there");
    assert!(
        moved.at.distance_to(to).get() < 1e-6,
        "{} ends at {:?}, dropped at {to:?}",
        mover,
        moved.at
    );
    assert!(
        moved
            .facing
            .difference_to(crate::geometry::Angle(facing))
            .abs()
            < 0.1,
        "facing {} for {facing}",
        moved.facing.degrees()
    );
}

#[test]
fn a_drawn_deployment_places_the_company_and_a_point_outside_the_zone_is_a_problem() {
    let s = scenario_state("crossroads.yaml");
    let side = british();
    let p = plan_of(&s, &side);
    let id = p.units[0].id.clone();
    let drawn = |x: f64, y: f64| {
        json!({
            "units": {id.clone(): {"move": {"x": x, "y": y, "facing": 45.0}, "formation": "", "targets": {}, "fields": {}}},
            "fields": {"if_winner": "second"},
        })
    };
    let (file, problems) = run_writer(&p, &s, &side, drawn(10.0, 6.5));
    assert!(problems.is_empty(), "{problems:?}");
    let orders = parsed(&file);
    assert!(
        MorschauserMacduff.check(&s, &side, &orders).is_empty(),
        "{file}"
    );
    let Orders::Deploy(d) = &orders else {
        panic!("deploy orders: {file}")
    };
    assert_eq!(d.if_winner, super::orders::FirstChoice::Second);
    let both: BySide<Orders> = [
        (side.clone(), orders.clone()),
        (SideId::new("french"), Orders::Deploy(Deployment::default())),
    ]
    .into();
    let next = resolve(&s, both, &[6, 1]);
    let c = next.company(&id).expect("placed");
    assert_eq!(c.at, Point::new(10.0, 6.5));
    assert!((c.facing.degrees() - 45.0).abs() < 1e-9);

    let (_, problems) = run_writer(&p, &s, &side, drawn(10.0, 20.0));
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("outside your zone x 0 to 72, y 0 to 12")),
        "{problems:?}"
    );
}

#[test]
fn a_charge_with_shoot_then_move_is_refused_in_the_words_of_the_check() {
    let mut s = scenario_state("crossroads.yaml");
    s.phase = Phase::HalfTurn {
        turn: 1,
        active: british(),
    };
    // A French company brought within a charge of the 1/52nd A Coy.
    let target = {
        let a = s.company("br-1a").expect("br-1a").at;
        let e = s.company_mut("fr-1a").expect("fr-1a");
        e.at = Point::new(a.x, a.y + 8.0);
        e.id.clone()
    };
    let p = plan_of(&s, &british());
    let u = p.units.iter().find(|u| u.id == "br-1a").expect("br-1a");
    assert!(
        u.targets
            .iter()
            .any(|t| t.kind == "charge" && t.options.iter().any(|o| o.value == target)),
        "{:?}",
        u.targets
    );
    let drawn = json!({
        "units": {"br-1a": {"move": null, "formation": "", "targets": {"charge": target},
                            "fields": {"sequence": "shoot_then_move"}}},
        "fields": {},
    });
    let (file, problems) = run_writer(&p, &s, &british(), drawn);
    let orders = parsed(&file);
    let refused = MorschauserMacduff.check(&s, &british(), &orders);
    assert_eq!(refused.len(), 1, "{file}");
    assert_eq!(problems.len(), 1, "{problems:?}");
    let said = problems[0]["message"].as_str().expect("message");
    assert!(
        said.contains(&refused[0].message),
        "{said} / {}",
        refused[0].message
    );
}

#[test]
fn the_fort_assault_offers_the_breach_to_the_siege_gun_and_the_sappers_and_the_mine_to_its_side() {
    let mut s = scenario_state("fort-assault.yaml");
    let allies = SideId::new("allies");
    s.phase = Phase::HalfTurn {
        turn: 1,
        active: allies.clone(),
    };
    let p = plan_of(&s, &allies);
    let fields = |id: &str| -> Vec<String> {
        p.units
            .iter()
            .find(|u| u.id == id)
            .expect("unit")
            .fields
            .iter()
            .map(|f| f.name.clone())
            .collect()
    };
    assert!(
        fields("al-sg").contains(&"breach".to_string()),
        "the heavy gun"
    );
    assert!(
        fields("al-e1").contains(&"breach".to_string()),
        "the engineers"
    );
    assert!(
        !fields("al-a1").contains(&"breach".to_string()),
        "a field battery"
    );
    assert!(
        !fields("al-1a").contains(&"breach".to_string()),
        "line infantry"
    );
    assert_eq!(p.extra["heavy_guns"], json!(["al-sg"]));
    let mines = s.scenario.mines.iter().any(|m| m.side == allies);
    assert_eq!(p.fields.iter().any(|f| f.name == "fire_mines"), mines);
    // A heavy gun given the wall and a target is told what the check says.
    let wall = s
        .scenario
        .terrain
        .iter()
        .find(|t| {
            matches!(
                t.kind,
                super::scenario::TerrainKind::HighWall | super::scenario::TerrainKind::Gate { .. }
            )
        })
        .map(|t| t.id.clone())
        .expect("a wall");
    let enemy = s.enemies(&allies).next().expect("an enemy").id.clone();
    let drawn = json!({
        "units": {"al-sg": {"move": null, "formation": "", "targets": {"fire": enemy}, "fields": {"breach": wall}}},
        "fields": {},
    });
    let (file, problems) = run_writer(&p, &s, &allies, drawn);
    let refused = MorschauserMacduff.check(&s, &allies, &parsed(&file));
    assert_eq!(refused.len(), 1, "{file}");
    assert!(
        problems.iter().any(|x| x["message"]
            .as_str()
            .is_some_and(|m| m.contains(&refused[0].message))),
        "{problems:?} / {}",
        refused[0].message
    );
}

#[test]
fn a_thirty_company_side_s_plan_stays_small() {
    let scenario =
        crate::yaml::from_str(&crate::bench::generate::morschauser(30)).expect("scenario");
    let mut s = MorschauserMacduff.start(&scenario).expect("start");
    let side = SideId::new("blue");
    s.phase = Phase::HalfTurn {
        turn: 1,
        active: side.clone(),
    };
    let p = plan_of(&s, &side);
    assert_eq!(p.units.len(), 30);
    assert!(
        p.units.iter().any(|u| !u.targets.is_empty()),
        "the lines are in range"
    );
    let bytes = serde_json::to_string(&p).expect("json").len();
    assert!(bytes < 100_000, "the plan is {bytes} bytes");
}

#[test]
fn a_turn_on_the_spot_is_a_pivot_alone_and_a_sequence_that_does_not_move_is_a_problem() {
    let mut s = scenario_state("crossroads.yaml");
    s.phase = Phase::HalfTurn {
        turn: 1,
        active: british(),
    };
    let p = plan_of(&s, &british());
    let c = s.company("br-r1").expect("br-r1").clone();
    let facing = (c.facing.degrees() + 300.0).rem_euclid(360.0);
    let drawn = |sequence: &str| {
        json!({
            "units": {"br-r1": {"move": {"x": c.at.x, "y": c.at.y, "facing": facing}, "formation": "",
                                "targets": {}, "fields": {"sequence": sequence}}},
            "fields": {},
        })
    };
    let (file, problems) = run_writer(&p, &s, &british(), drawn("auto"));
    assert!(problems.is_empty(), "{problems:?}");
    let orders = parsed(&file);
    let Orders::Turn(t) = &orders else {
        panic!("{file}")
    };
    assert_eq!(
        t.actions[0].path,
        vec![super::orders::PathStep::Pivot(-60.0)],
        "{file}"
    );
    assert!(MorschauserMacduff.check(&s, &british(), &orders).is_empty());
    let next = resolve(&s, [(british(), orders)].into(), &[4; 16]);
    let r1 = next.company("br-r1").expect("br-r1");
    assert_eq!(r1.at, c.at);
    assert!(
        r1.facing
            .difference_to(crate::geometry::Angle(facing))
            .abs()
            < 1e-9
    );

    let (_, problems) = run_writer(&p, &s, &british(), drawn("shoot_only"));
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("`shoot_only` does not move")),
        "{problems:?}"
    );
}

/// Each regiment's hits to its companies in the reverse of the plan's
/// order.
fn reversed_hits(p: &Plan) -> serde_json::Map<String, Value> {
    let mut fields = serde_json::Map::new();
    for f in p.fields.iter().filter(|f| f.name.starts_with("hits:")) {
        if let crate::view::plan::FieldKind::Many { options } = &f.kind {
            let v: Vec<&str> = options.iter().rev().map(|o| o.value.as_str()).collect();
            fields.insert(f.name.clone(), json!(v.join(",")));
        }
    }
    fields
}

/// Loading back: each file the tests above draw (a move back and turned
/// with a target; a deployment with the dice-off choice and a general
/// attached; a charge given a sequence, a flank, a pursuit and a fallback;
/// a heavy gun's target and breach with the regiments' hits and the mines;
/// a turn on the spot, with and without a sequence) is read back by the
/// writer's `read` into drawn orders that write the same file byte for
/// byte. A file written by hand with a path of waypoints, which the page
/// never writes, is refused, so the page offers it as text. Orders drawn
/// as the page draws them come back as drawn.
#[test]
fn a_file_the_page_wrote_is_read_back_and_one_it_would_not_write_is_refused() {
    let mut cases: Vec<(Plan, State, SideId, Value)> = Vec::new();
    // The move and target, with a general riding a little way.
    let s = state_with_a_target();
    let side = side_to_move(&s);
    let p = plan_of(&s, &side);
    let (mut drawn, ..) = move_and_target(&s, &p);
    if let Some(g) = p.extra["generals"].as_array().and_then(|g| g.first()) {
        let (id, x, y) = (&g["id"], &g["at"]["x"], &g["at"]["y"]);
        let at = format!(
            "{}, {}",
            x.as_f64().expect("x") + 1.0,
            y.as_f64().expect("y")
        );
        drawn["fields"][format!("general_to:{}", id.as_str().expect("id"))] = json!(at);
    }
    cases.push((p, s.clone(), side, drawn));
    // The deployment.
    let s = scenario_state("crossroads.yaml");
    let p = plan_of(&s, &british());
    let first = p.units[0].id.clone();
    let mut drawn = json!({
        "units": {first.clone(): {"move": {"x": 10.0, "y": 6.5, "facing": 45.0}, "formation": "", "targets": {}, "fields": {}}},
        "fields": {"if_winner": "second"},
    });
    for (k, v) in reversed_hits(&p) {
        drawn["fields"][k] = v;
    }
    if let Some(g) = p.extra["generals"].as_array().and_then(|g| g.first()) {
        drawn["fields"][format!("general:{}", g["id"].as_str().expect("id"))] =
            json!(format!("attach:{first}"));
    }
    cases.push((p, s, british(), drawn));
    // The charge.
    let mut s = scenario_state("crossroads.yaml");
    s.phase = Phase::HalfTurn {
        turn: 1,
        active: british(),
    };
    let a = s.company("br-1a").expect("br-1a").at;
    s.company_mut("fr-1a").expect("fr-1a").at = Point::new(a.x, a.y + 8.0);
    let p = plan_of(&s, &british());
    let c = s.company("br-r1").expect("br-r1").clone();
    let facing = (c.facing.degrees() + 300.0).rem_euclid(360.0);
    let turned = |sequence: &str| {
        json!({
            "units": {"br-r1": {"move": {"x": c.at.x, "y": c.at.y, "facing": facing}, "formation": "",
                                "targets": {}, "fields": {"sequence": sequence}}},
            "fields": {},
        })
    };
    let charge = json!({
        "units": {"br-1a": {"move": null, "formation": "", "targets": {"charge": "fr-1a"},
                            "fields": {"sequence": "shoot_then_move", "flank": "true", "pursue": "true", "fallback": "nearest"}}},
        "fields": {},
    });
    cases.push((p.clone(), s.clone(), british(), charge));
    cases.push((p.clone(), s.clone(), british(), turned("auto")));
    cases.push((p.clone(), s.clone(), british(), turned("shoot_only")));
    let hand = (p, s);
    // The fort: the siege gun, the hits turned round, the mines fired.
    let mut s = scenario_state("fort-assault.yaml");
    let allies = SideId::new("allies");
    s.phase = Phase::HalfTurn {
        turn: 1,
        active: allies.clone(),
    };
    let p = plan_of(&s, &allies);
    let enemy = s.enemies(&allies).next().expect("an enemy").id.clone();
    let wall = s
        .scenario
        .terrain
        .iter()
        .find(|t| matches!(t.kind, super::scenario::TerrainKind::HighWall))
        .map(|t| t.id.clone())
        .expect("a wall");
    let mut fields = reversed_hits(&p);
    for f in &p.fields {
        if let (true, crate::view::plan::FieldKind::Many { options }) =
            (f.name == "fire_mines", &f.kind)
        {
            fields.insert(f.name.clone(), json!(options[0].value));
        }
    }
    let fort = json!({
        "units": {"al-sg": {"move": null, "formation": "", "targets": {"fire": enemy}, "fields": {"breach": wall}}},
        "fields": fields,
    });
    cases.push((p, s, allies, fort));

    // Drawn as the page draws them (on its grid, whole degrees, only
    // what was changed), the move and target come back as drawn.
    let (p, s, side, _) = &cases[0];
    let (plain, ..) = move_and_target(s, p);
    let (back, drawn) = drawn_back(p, s, side, &plain);
    assert_eq!(back, drawn);
    let (p, s, side, turn) = &cases[3];
    let mut plain = turn.clone();
    plain["units"]["br-r1"]["fields"] = json!({});
    let (back, drawn) = drawn_back(p, s, side, &plain);
    assert_eq!(back, drawn);
    let (p, s, side, shoot_only) = &cases[4];
    let (back, drawn) = drawn_back(p, s, side, shoot_only);
    assert_eq!(back, drawn);
    for (p, s, side, drawn) in &cases {
        let (file, again) = read_back(p, s, side, drawn.clone());
        assert!(file.contains("\norders:\n  "), "{file}");
        assert_eq!(again.as_deref(), Some(file.as_str()), "read back:\n{file}");
    }
    // What the cases wrote covers each kind of entry `read` takes.
    let all: String = cases
        .iter()
        .map(|(p, s, side, d)| run_writer(p, s, side, d.clone()).0)
        .collect();
    for words in [
        "pivot: ",
        "{to: {x: ",
        "general: ",
        "attach: ",
        "if_winner: second",
        "flank: true",
        "fallback: nearest",
        "breach: ",
        "target: ",
        "hits:",
        "fire_mines:",
    ] {
        assert!(all.contains(words), "no {words} in\n{all}");
    }

    let (p, s) = hand;
    let text = "galloper: 1\ngame: crossroads-test\nstep: 7\nside: british\nrevision: 1\norders:\n  turn:\n    actions:\n      - {company: br-1a, sequence: move_only, path: [{to: {x: 10, \"y\": 5}}, {to: {x: 12, \"y\": 6}}]}\n";
    let (_, again) = read_back(&p, &s, &british(), json!(text));
    assert_eq!(again, None, "a path of waypoints is offered as text");
    let one = text.replace(", {to: {x: 12, \"y\": 6}}", "");
    let (_, again) = read_back(&p, &s, &british(), json!(one));
    assert!(again.is_some(), "a path of one leg is read: {one}");
}

// --- Ground ----------------------------------------------------------------------

/// The crossroads in a half-turn of `side`, as the plan lists it.
fn half_turn_of(side: &SideId) -> State {
    let mut s = scenario_state("crossroads.yaml");
    s.phase = Phase::HalfTurn {
        turn: 1,
        active: side.clone(),
    };
    s
}

/// What the plan says of ground `name` for company `id`: (most, soft,
/// why), or none when it does not list it.
fn ground_of(p: &Plan, id: &str, name: &str) -> Option<(Option<f64>, bool, String)> {
    let u = p.units.iter().find(|u| u.id == id).expect("the company");
    u.reach
        .as_ref()
        .expect("it may move")
        .ground
        .iter()
        .find(|g| p.ground[g.outline].name == name)
        .map(|g| (g.most, g.soft, g.why.clone()))
}

#[test]
fn woods_forbid_guns_cavalry_and_wagons_slow_line_infantry_and_not_rifles() {
    let side = british();
    let p = plan_of(&half_turn_of(&side), &side);
    // C.2: guns, horse and wagons may not enter; line infantry at most 6".
    for id in ["br-a1", "br-h1", "br-h2", "br-w1"] {
        let (most, soft, why) = ground_of(&p, id, "Bois Noir").expect("woods listed");
        assert_eq!((most, soft), (None, false), "{id}");
        assert!(
            why.starts_with("C.2 Woods") && why.contains("may not enter Bois Noir"),
            "{why}"
        );
    }
    let (most, soft, why) = ground_of(&p, "br-1a", "Bois Noir").expect("woods slow it");
    assert_eq!((most, soft), (Some(SLOW), false));
    assert!(why.starts_with("C.2 Woods"), "{why}");
    assert_eq!(
        ground_of(&p, "br-r1", "Bois Noir"),
        None,
        "rifles go freely"
    );
    // C.5: a town slows infantry and forbids horse and guns, but the
    // road through Vieux-Pont is an exception only the server judges.
    let (most, soft, _) = ground_of(&p, "br-1a", "Vieux-Pont village").expect("town");
    assert_eq!((most, soft), (Some(SLOW), true));
    let (most, soft, why) = ground_of(&p, "br-h1", "Vieux-Pont village").expect("town");
    assert_eq!((most, soft), (None, true));
    assert!(why.contains("only along the road"), "{why}");
    // Fordable water halts a company but shortens nothing; hills and the
    // cornfield neither.
    for name in ["Mill stream", "Mont Gentil", "Standing wheat"] {
        assert_eq!(ground_of(&p, "br-1a", name), None, "{name}");
    }
    // One outline each, however many companies it stops.
    let names: Vec<&str> = p.ground.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["Vieux-Pont village", "Bois Noir"]);
}

const SLOW: f64 = super::movement::SLOW_MOVE;

#[test]
fn the_page_refuses_guns_drawn_into_the_woods_and_a_long_move_in_them() {
    let side = british();
    let mut s = half_turn_of(&side);
    // The guns and a line company just south of Bois Noir.
    for (id, x) in [("br-a1", 9.0), ("br-1a", 11.0)] {
        let c = s.companies.iter_mut().find(|c| c.id == id).expect(id);
        c.at = Point::new(x, 24.0);
    }
    let p = plan_of(&s, &side);
    let drawn = json!({"units": {
        "br-a1": {"move": {"x": 9.0, "y": 29.0, "facing": 0.0}, "formation": "", "targets": {}, "fields": {}},
        "br-1a": {"move": {"x": 11.0, "y": 31.0, "facing": 0.0}, "formation": "", "targets": {}, "fields": {}},
    }, "fields": {}});
    let (_, problems) = run_writer(&p, &s, &side, drawn);
    let about = |id: &str| -> Vec<String> {
        problems
            .iter()
            .filter(|v| {
                v["unit"] == id && v["message"].as_str().unwrap_or("").contains("Bois Noir")
            })
            .map(|v| v["message"].as_str().unwrap_or("").to_string())
            .collect()
    };
    let guns = about("br-a1");
    assert_eq!(guns.len(), 1, "{problems:?}");
    assert!(
        guns[0].contains("enters Bois Noir (C.2 Woods: artillery may not enter Bois Noir)"),
        "{}",
        guns[0]
    );
    let line = about("br-1a");
    assert_eq!(line.len(), 1, "{problems:?}");
    assert!(
        line[0].contains("moves 7 in into Bois Noir, more than 6 in"),
        "{}",
        line[0]
    );
    // Stopping short of the wood is no problem of ground.
    let drawn = json!({"units": {
        "br-1a": {"move": {"x": 11.0, "y": 26.0, "facing": 0.0}, "formation": "", "targets": {}, "fields": {}},
    }, "fields": {}});
    let (_, problems) = run_writer(&p, &s, &side, drawn);
    assert!(
        !problems
            .iter()
            .any(|v| v["message"].as_str().unwrap_or("").contains("Bois Noir")),
        "{problems:?}"
    );
}

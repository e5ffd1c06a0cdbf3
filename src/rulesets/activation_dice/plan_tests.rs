//! The orders page's plan and writer for activation dice, on the demo
//! battle (Quatre-Chemins): the plan says what the state and the options
//! say, and what the writer makes of a drawing (run in Node, as the page
//! runs it) passes the check and, resolved with dice that all succeed,
//! puts the unit where it was dropped.

use super::super::ActivationDice;
use super::super::combat::shootable;
use super::super::demo::{SCENARIO, turn_orders};
use super::super::movement::{allowance_why, travel};
use super::super::orders::{Action, Deployment, Goal, Orders};
use super::super::scenario::Scenario;
use super::super::setup::{default_deployment, placer};
use super::super::state::{Formation, Phase, State};
use super::plan;
use crate::dice::Dice;
use crate::geometry::Point;
use crate::ruleset::Ruleset;
use crate::side::{BySide, SideId};
use crate::view::plan::{MoveShape, Plan};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::Command;

fn french() -> SideId {
    SideId::new("french")
}

fn allies() -> SideId {
    SideId::new("allies")
}

fn start() -> State {
    let sc: Scenario = crate::yaml::from_str(SCENARIO).expect("the demo scenario parses");
    State::new(&sc).expect("the demo scenario starts")
}

/// Resolve the open step with `side`'s orders and dice that all roll 6.
fn resolve(s: &State, side: &SideId, o: Orders) -> crate::ruleset::Resolution<State> {
    let mut orders = BySide::new();
    orders.insert(side.clone(), o);
    ActivationDice.resolve(s, &orders, &mut Dice::scripted(vec![6; 400]))
}

/// Set-up as the scenario suggests, then the demo's own turns, until the
/// French are to activate with a unit that has an enemy to shoot at.
fn battle() -> State {
    battle_until(|_, _| true)
}

/// As [`battle`], until `want` also holds of the state and the plan.
fn battle_until(want: impl Fn(&State, &Plan) -> bool) -> State {
    let mut s = start();
    for _ in 0..12 {
        let side = match &s.phase {
            Phase::Deploy { placement } => placer(&s, *placement),
            Phase::Turn { side, .. } | Phase::Consult { side, .. } => side.clone(),
            Phase::Over(o) => panic!("the demo battle ended early: {}", o.reason),
        };
        if side == french()
            && let Some(p) = plan(&s, &side)
            && p.units.iter().any(|u| target(&p, &u.id, "fire").is_some())
            && want(&s, &p)
        {
            return s;
        }
        let o = match &s.phase {
            Phase::Deploy { placement } => Orders::Deploy(default_deployment(&s, *placement)),
            _ => Orders::Turn(turn_orders(&s, &side)),
        };
        s = resolve(&s, &side, o).state;
    }
    panic!("no French turn in 12 steps had what the test wants");
}

/// The first enemy `unit` may name for `kind`.
fn target(p: &Plan, unit: &str, kind: &str) -> Option<String> {
    let u = p.units.iter().find(|u| u.id == unit)?;
    let t = u.targets.iter().find(|t| t.kind == kind)?;
    t.options.first().map(|c| c.value.clone())
}

/// The page data a writer reads (as `galloper orders page` embeds it).
fn page(s: &State, side: &SideId, p: &Plan) -> Value {
    json!({
        "head": {
            "game": "quatre-chemins", "step": 7, "side": side.as_str(),
            "side_name": s.side_name(side),
            "notice": crate::envelope::notice_sha256("the notice"),
            "revision": 1, "ruleset": "activation-dice", "fingerprint": "SHA256:x",
            "measure": "cm", "heading": "", "note": "",
        },
        "plan": p, "frame": {}, "outlines": {}, "template": "",
    })
}

/// Run the writer in Node on each `[page, drawn]` case, as the page runs
/// it: the orders file and the problems for each. Each file is also
/// loaded back as the page loads it (see `read_back`), and must come back
/// byte for byte: every file these tests draw is read back onto the map.
fn write(cases: &[(Value, Value)]) -> Vec<(String, Vec<Value>)> {
    let v = in_node(
        r#"(c) => ({
          file: GalloperOrders.file(c.page, c.drawn),
          problems: GalloperOrders.problems(c.page, c.drawn),
        })"#,
        cases,
    );
    let out: Vec<(String, Vec<Value>)> = v
        .into_iter()
        .map(|c| {
            (
                c["file"].as_str().unwrap().to_string(),
                c["problems"].as_array().unwrap().clone(),
            )
        })
        .collect();
    for (file, again) in read_back(cases) {
        assert_eq!(again.as_deref(), Some(file.as_str()), "read back:\n{file}");
    }
    out
}

/// Loading back, in Node, as the page does it: for each `[page, drawn]`
/// (`drawn` a string: a file written by hand) the file, and the file the
/// page writes again from what the writer's `read` makes of its `orders:`
/// block as the vendored YAML reader parses it (None when `read` refuses).
fn read_back(cases: &[(Value, Value)]) -> Vec<(String, Option<String>)> {
    let v = in_node(
        r#"(c) => {
          const file = typeof c.drawn === 'string' ? c.drawn : GalloperOrders.file(c.page, c.drawn);
          const back = GalloperOrders.writerFor(c.page).read(c.page, GalloperVendor.parseYaml(file).orders);
          return { file, again: back ? GalloperOrders.file(c.page, back) : null };
        }"#,
        cases,
    );
    v.into_iter()
        .map(|c| {
            (
                c["file"].as_str().unwrap().to_string(),
                c["again"].as_str().map(String::from),
            )
        })
        .collect()
}

/// What the writer's `read` makes of the file written from each case's
/// `drawn` (the drawn orders the page shows once the file is loaded
/// back), beside `drawn` as the page holds it (both through JSON in Node,
/// as the browser test compares them).
fn drawn_back(cases: &[(Value, Value)]) -> Vec<(Value, Value)> {
    in_node(
        r#"(c) => [GalloperOrders.writerFor(c.page)
          .read(c.page, GalloperVendor.parseYaml(GalloperOrders.file(c.page, c.drawn)).orders), c.drawn]"#,
        cases,
    )
    .into_iter()
    .map(|v| (v[0].clone(), v[1].clone()))
    .collect()
}

/// Runs the vendored scripts, write.js and this ruleset's page.js in Node,
/// and `each` (a function of one `{page, drawn}` case) over the cases.
fn in_node(each: &str, cases: &[(Value, Value)]) -> Vec<Value> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("a temporary folder");
    let data = dir.path().join("cases.json");
    let list: Vec<Value> = cases
        .iter()
        .map(|(p, d)| json!({"page": p, "drawn": d}))
        .collect();
    std::fs::write(&data, serde_json::to_string(&list).unwrap()).unwrap();
    let script = format!(
        r#"
        const fs = require('fs'), vm = require('vm');
        const [vendor, write, page, data] = process.argv.slice(1);
        vm.runInThisContext(fs.readFileSync(vendor, 'utf8'), {{ filename: vendor }});
        vm.runInThisContext(fs.readFileSync(write, 'utf8'), {{ filename: write }});
        vm.runInThisContext(fs.readFileSync(page, 'utf8'), {{ filename: page }});
        const out = JSON.parse(fs.readFileSync(data, 'utf8')).map({each});
        process.stdout.write(JSON.stringify(out));
    "#
    );
    let out = Command::new("node")
        .arg("-e")
        .arg(script)
        .arg(root.join("site/vendor/orders-vendor.js"))
        .arg(root.join("site/orders/write.js"))
        .arg(root.join("src/rulesets/activation_dice/page.js"))
        .arg(&data)
        .output()
        .expect("node runs (the orders page's tests need node 18 or later)");
    assert!(
        out.status.success(),
        "node: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("node writes JSON")
}

/// The orders of a file the writer made, read as the server reads them.
fn orders_of(file: &str) -> Orders {
    let text = crate::envelope::with_entropy(file, &crate::envelope::notice_sha256("entropy"));
    let env = crate::envelope::parse("orders.yaml", text.as_bytes())
        .unwrap_or_else(|p| panic!("{p}\n{file}"));
    crate::yaml::from_value(env.orders).unwrap_or_else(|e| panic!("{e}\n{file}"))
}

fn near(a: f64, b: f64, by: f64) -> bool {
    (a - b).abs() <= by
}

#[test]
fn the_turn_plan_has_each_ready_unit_as_the_state_has_it() {
    let s = battle();
    let p = plan(&s, &french()).expect("the French owe their turn");
    let ready: Vec<&str> = s
        .units
        .iter()
        .filter(|u| u.placed() && u.side == french() && !u.activated)
        .map(|u| u.id.as_str())
        .collect();
    let listed: Vec<&str> = p.units.iter().map(|u| u.id.as_str()).collect();
    assert_eq!(listed, ready);
    let template = ActivationDice
        .orders_template(&s, &french())
        .expect("a template");
    for up in &p.units {
        let i = s.index(&up.id).unwrap();
        let u = &s.units[i];
        assert_eq!(Some(up.at), u.at, "{}", up.id);
        assert!(near(up.facing, u.facing.normalized().degrees(), 1e-9));
        assert_eq!(up.formation, u.formation.name());
        let (allow, _) = allowance_why(&s, u);
        if s.contacts(u).is_empty() && allow > 0.0 && !u.status.rout {
            // The template's own figure for one move.
            assert!(
                template.contains(&format!("[{}]: move {allow:.1} cm", u.id)),
                "{template}"
            );
            let r = up.reach.as_ref().expect("a unit that moves has a reach");
            assert_eq!(r.shape, MoveShape::Forward45);
            // One move per success, up to the three dice it may roll.
            assert!(near(r.full, 3.0 * allow, 1e-9), "{} {r:?}", up.id);
        }
        // The notes are the options panel's lines for the unit.
        assert!(up.notes[0].starts_with(&format!("{} [{}]: ", u.name, u.id)));
        let fire: Vec<String> = up
            .targets
            .iter()
            .filter(|t| t.kind == "fire")
            .flat_map(|t| t.options.iter().map(|c| c.value.clone()))
            .collect();
        let can: Vec<String> = shootable(&s, i)
            .into_iter()
            .map(|(_, k)| &s.units[k])
            .filter(|e| e.side != u.side)
            .map(|e| e.id.clone())
            .collect();
        if u.formation != Formation::Limbered {
            assert_eq!(fire, can, "{}", up.id);
        }
        for t in &up.targets {
            for c in &t.options {
                let e = s.unit(&c.value).expect("a target is a unit");
                assert!(e.placed() && e.side != u.side, "{} names {}", up.id, e.id);
            }
        }
    }
    assert!(p.units.iter().any(|u| !u.targets.is_empty()));
    let names: Vec<&str> = p.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["sequence", "consult", "turnover", "after_blunder"]);
    // The side that waits owes nothing and is offered nothing.
    assert!(plan(&s, &allies()).is_none());
    assert!(ActivationDice.orders_plan(&s, &allies()).is_none());
    let pp = ActivationDice.orders_plan(&s, &french()).unwrap();
    assert!(
        pp.writer
            .contains("GalloperOrders.register('activation-dice'")
    );
}

fn unit_plan<'a>(p: &'a Plan, id: &str) -> &'a crate::view::plan::UnitPlan {
    p.units.iter().find(|u| u.id == id).unwrap()
}

/// A unit with an enemy to shoot at (and that enemy), and another unit
/// to move and turn 30 degrees, so that the writer must place its move
/// for a pivot about its centre: a column a move and a half (two moves)
/// when its way is clear, else less, and where it is dropped. The
/// movement code finds one whose way is clear of ground and units.
fn pick(s: &State, p: &Plan) -> Option<(String, String, String, Point)> {
    let clear = |id: &str, off: f64, cm: f64| {
        let mut work = s.clone();
        let i = s.index(id).unwrap();
        let dir = s.units[i].facing.turned(off).unit_vector();
        let t = travel(&mut work, i, dir, cm);
        (t.cm >= cm - 1e-6 && t.contact.is_none() && t.slowed.is_none()).then_some(t.to)
    };
    let columns_first = p
        .units
        .iter()
        .filter(|u| u.formation == "column")
        .chain(p.units.iter().filter(|u| u.formation != "column"));
    let (mover, to) = columns_first
        .filter(|u| u.reach.as_ref().is_some_and(|r| r.full > 0.0))
        .flat_map(|u| {
            [
                (1.5, 20.0),
                (1.5, -20.0),
                (0.8, 20.0),
                (0.8, -20.0),
                (0.5, 10.0),
                (0.5, -10.0),
            ]
            .map(|(k, off)| (u, k, off))
        })
        .find_map(|(u, k, off)| {
            let step = u.reach.as_ref().unwrap().full / 3.0;
            // A little farther than the move goes, for the pivot.
            clear(&u.id, off, k * step + 4.0)?;
            clear(&u.id, off, k * step).map(|to| (u, to))
        })?;
    let shooter = p
        .units
        .iter()
        .find(|u| u.id != mover.id && target(p, &u.id, "fire").is_some())?;
    let enemy = target(p, &shooter.id, "fire")?;
    Some((shooter.id.clone(), enemy, mover.id.clone(), to))
}

#[test]
fn drawn_orders_pass_the_check_and_end_where_they_were_dropped() {
    let s = battle_until(|s, p| pick(s, p).is_some());
    let side = french();
    let p = plan(&s, &side).unwrap();
    let (shooter, enemy, mover, to) = pick(&s, &p).unwrap();
    let (shooter, mover) = (unit_plan(&p, &shooter), unit_plan(&p, &mover));
    let facing = (mover.facing + 30.0).rem_euclid(360.0);
    let drawn = json!({
        "units": {
            mover.id.clone(): {"move": {"x": to.x, "y": to.y, "facing": facing}, "formation": "", "targets": {}, "fields": {}},
            shooter.id.clone(): {"move": null, "formation": "", "targets": {"fire": enemy}, "fields": {}},
        },
        "fields": {},
    });
    let out = write(&[(page(&s, &side, &p), drawn)]);
    let (file, problems) = &out[0];
    assert!(problems.is_empty(), "{problems:?}\n{file}");
    let orders = orders_of(file);
    let Orders::Turn(t) = &orders else {
        panic!("turn orders: {file}")
    };
    assert_eq!(t.activations.len(), 2, "{file}");
    let m = t.activations.iter().find(|a| a.unit == mover.id).unwrap();
    assert!(
        matches!(m.actions.first(), Some(Action::Move(Goal::To(_))))
            && m.actions.last() == Some(&Action::Pivot(30.0)),
        "moves to a point, then the pivot: {file}"
    );
    // One success a move, the pivot free for a column.
    let moves = m.actions.len() as u32 - 1;
    let pivot = u32::from(mover.formation != "column");
    assert_eq!(m.dice, moves + pivot, "{file}");
    let v = ActivationDice.check(&s, &side, &orders);
    assert!(v.is_empty(), "{v:?}\n{file}");
    let r = resolve(&s, &side, orders);
    let u = r.state.unit(&mover.id).unwrap();
    let at = u.at.unwrap();
    assert!(
        at.distance_to(to).get() <= 0.15,
        "{} ends at ({:.2}, {:.2}), dropped at ({:.2}, {:.2})\n{file}\n{:#?}",
        mover.id,
        at.x,
        at.y,
        to.x,
        to.y,
        r.events.iter().map(|e| &e.text).collect::<Vec<_>>()
    );
    assert!(
        crate::geometry::Angle(facing).difference_to(u.facing).abs() <= 0.1,
        "facing {} for {facing}",
        u.facing.degrees()
    );
    assert!(
        r.events.iter().any(|e| e.what == "fire"
            && e.facts.unit.as_ref().is_some_and(|x| x.id == shooter.id)
            && e.facts.target.as_ref().is_some_and(|x| x.id == enemy)),
        "{file}"
    );
}

#[test]
fn the_writer_says_what_the_dice_cannot_pay() {
    let s = battle();
    let side = french();
    let p = plan(&s, &side).unwrap();
    let mover = p
        .units
        .iter()
        .find(|u| u.formation == "column" && u.reach.is_some())
        .unwrap();
    let step = mover.reach.as_ref().unwrap().full / 3.0;
    // Three moves and a 90-degree pivot: a column turns 45 free, so four
    // successes, one more than three dice pay.
    let to = mover.at
        + crate::geometry::Angle(mover.facing)
            .unit_vector()
            .scale(2.5 * step);
    let facing = mover.facing + 90.0;
    let drawn = json!({
        "units": {mover.id.clone(): {"move": {"x": to.x, "y": to.y, "facing": facing}, "formation": "", "targets": {}, "fields": {}}},
        "fields": {},
    });
    // The dice risked below what the actions need: a warning.
    let short = json!({
        "units": {mover.id.clone(): {"move": {"x": to.x, "y": to.y, "facing": mover.facing}, "formation": "", "targets": {}, "fields": {"dice": "2"}}},
        "fields": {},
    });
    let out = write(&[(page(&s, &side, &p), drawn), (page(&s, &side, &p), short)]);
    let said: Vec<String> = out[0]
        .1
        .iter()
        .map(|x| x["message"].as_str().unwrap().to_string())
        .collect();
    assert!(
        said.iter()
            .any(|m| m.contains("needs 4 successes") && m.contains("more than the 3 dice")),
        "{said:?}"
    );
    let warned = &out[1].1;
    assert_eq!(warned.len(), 1, "{warned:?}");
    assert_eq!(warned[0]["warning"], json!(true));
    assert!(
        warned[0]["message"]
            .as_str()
            .unwrap()
            .contains("rolls 2 dice for actions that need 3 successes")
    );
}

#[test]
fn set_up_offers_the_suggested_places_and_the_writer_sends_them() {
    let s = start();
    let side = placer(&s, 1);
    let p = plan(&s, &side).expect("the attacker places first");
    let unplaced = s.units.iter().filter(|u| u.side == side).count();
    assert_eq!(p.units.len(), unplaced);
    let default = default_deployment(&s, 1);
    for pl in &default.units {
        let u = p.units.iter().find(|u| u.id == pl.unit).unwrap();
        assert_eq!(u.at, pl.at);
        assert_eq!(Some(u.facing), pl.facing.map(|f| f.normalized().degrees()));
        assert_eq!(u.fields[0].default, "true");
    }
    assert!(p.units.iter().any(|u| u.fields[0].default == "false"));
    // Nothing drawn sends the suggested placement; one unit dragged
    // within the zone goes there; one dragged out of it is refused.
    let nothing = json!({"units": {}, "fields": {}});
    let first = &default.units[0];
    let zone = 3.0 * s.short();
    let inside = json!({
        "units": {first.unit.clone(): {"move": {"x": first.at.x + 5.0, "y": zone - 1.0, "facing": 0.0}, "formation": "line", "targets": {}, "fields": {}}},
        "fields": {},
    });
    let outside = json!({
        "units": {first.unit.clone(): {"move": {"x": first.at.x, "y": zone + 10.0, "facing": 0.0}, "formation": "", "targets": {}, "fields": {}}},
        "fields": {},
    });
    let pg = page(&s, &side, &p);
    let out = write(&[(pg.clone(), nothing), (pg.clone(), inside), (pg, outside)]);
    assert!(out[0].1.is_empty(), "{:?}", out[0].1);
    let Orders::Deploy(d) = orders_of(&out[0].0) else {
        panic!("{}", out[0].0)
    };
    assert_eq!(d, default);
    assert!(out[1].1.is_empty(), "{:?}", out[1].1);
    let o = orders_of(&out[1].0);
    assert!(ActivationDice.check(&s, &side, &o).is_empty());
    let Orders::Deploy(Deployment { units }) = &o else {
        unreachable!()
    };
    assert_eq!(units.len(), default.units.len());
    let placed = resolve(&s, &side, o.clone()).state;
    let u = placed.unit(&first.unit).unwrap();
    assert_eq!(u.formation, Formation::Line);
    assert!(
        u.at.unwrap()
            .distance_to(Point::new(first.at.x + 5.0, zone - 1.0))
            .get()
            < 0.06
    );
    assert!(
        out[2].1.iter().any(|x| x["unit"] == json!(first.unit)
            && x["message"].as_str().unwrap().contains("within 1 L")),
        "{:?}",
        out[2].1
    );
}

/// The test field (games/activation-dice/test-field.yaml), Blue to
/// activate: its foot in melee with Red's, its horse 15 cm (its move)
/// from Red's limbered guns.
fn close_quarters() -> State {
    let text = include_str!("../../../games/activation-dice/test-field.yaml");
    let sc: Scenario = crate::yaml::from_str(text).expect("the test field parses");
    let mut s = State::new(&sc).expect("the test field starts");
    let mut put = |id: &str, x: f64, y: f64, facing: f64| {
        let i = s.index(id).unwrap();
        s.units[i].at = Some(Point::new(x, y));
        s.units[i].facing = crate::geometry::Angle(facing);
    };
    put("b-inf", 20.0, 30.0, 0.0);
    put("r-inf", 20.0, 30.0, 180.0);
    put("b-cav", 40.0, 10.0, 0.0);
    put("r-gun", 40.0, 25.0, 180.0);
    s.first = Some(SideId::new("blue"));
    s.phase = Phase::Turn {
        turn: 1,
        side: SideId::new("blue"),
    };
    s
}

#[test]
fn melee_and_charges_are_offered_and_written_as_the_rules_take_them() {
    let s = close_quarters();
    let blue = SideId::new("blue");
    let p = plan(&s, &blue).unwrap();
    let foot = unit_plan(&p, "b-inf");
    assert!(foot.reach.is_none(), "a unit in melee does not move");
    let kinds: Vec<&str> = foot.targets.iter().map(|t| t.kind.as_str()).collect();
    assert_eq!(kinds, ["seize"]);
    assert_eq!(target(&p, "b-inf", "seize").as_deref(), Some("r-inf"));
    assert!(foot.fields.iter().any(|f| f.name == "recoil"));
    let horse = unit_plan(&p, "b-cav");
    assert_eq!(target(&p, "b-cav", "charge").as_deref(), Some("r-gun"));
    assert_eq!(target(&p, "b-cav", "seize").as_deref(), Some("r-gun"));
    assert!(
        horse.targets.iter().all(|t| t.kind != "fire"),
        "horse has no muskets"
    );
    assert!(horse.formations.is_empty(), "cavalry has one formation");
    let drawn = json!({
        "units": {
            "b-inf": {"move": null, "formation": "", "targets": {"seize": "r-inf"}, "fields": {}},
            "b-cav": {"move": null, "formation": "", "targets": {"charge": "r-gun"}, "fields": {}},
        },
        "fields": {"sequence": "b-cav"},
    });
    let both = json!({
        "units": {"b-inf": {"move": null, "formation": "", "targets": {"seize": "r-inf"}, "fields": {"recoil": "true"}}},
        "fields": {},
    });
    let pg = page(&s, &blue, &p);
    let out = write(&[(pg.clone(), drawn), (pg, both)]);
    let (file, problems) = &out[0];
    assert!(problems.is_empty(), "{problems:?}");
    let o = orders_of(file);
    assert!(ActivationDice.check(&s, &blue, &o).is_empty(), "{file}");
    let Orders::Turn(t) = &o else {
        panic!("{file}")
    };
    let units: Vec<&str> = t.activations.iter().map(|a| a.unit.as_str()).collect();
    assert_eq!(units, ["b-cav", "b-inf"], "the order ticked first");
    assert_eq!(
        t.activations[0].actions,
        [Action::Move(Goal::Toward("r-gun".into()))]
    );
    assert_eq!(t.activations[0].dice, 1);
    assert_eq!(t.activations[1].actions, [Action::Seize("r-inf".into())]);
    assert_eq!(t.activations[1].dice, 2);
    let r = resolve(&s, &blue, o);
    assert!(
        r.events
            .iter()
            .any(|e| e.what == "melee" && e.facts.unit.as_ref().is_some_and(|u| u.id == "b-cav")),
        "{file}"
    );
    assert!(
        out[1].1.iter().any(|x| x["message"]
            .as_str()
            .unwrap()
            .contains("exclude each other")),
        "{:?}",
        out[1].1
    );
}

#[test]
fn a_limbered_battery_is_offered_what_it_may_shoot_once_unlimbered() {
    let mut s = close_quarters();
    let red = SideId::new("red");
    s.phase = Phase::Turn {
        turn: 1,
        side: red.clone(),
    };
    let p = plan(&s, &red).unwrap();
    let guns = unit_plan(&p, "r-gun");
    assert_eq!(guns.formation, "limbered");
    assert_eq!(guns.formations, ["limbered", "unlimbered"]);
    assert_eq!(target(&p, "r-gun", "fire").as_deref(), Some("b-cav"));
    let drawn = |formation: &str| {
        json!({
            "units": {"r-gun": {"move": null, "formation": formation, "targets": {"fire": "b-cav"}, "fields": {}}},
            "fields": {},
        })
    };
    let pg = page(&s, &red, &p);
    let out = write(&[(pg.clone(), drawn("unlimbered")), (pg, drawn(""))]);
    let (file, problems) = &out[0];
    assert!(problems.is_empty(), "{problems:?}");
    let o = orders_of(file);
    assert!(ActivationDice.check(&s, &red, &o).is_empty(), "{file}");
    let Orders::Turn(t) = &o else {
        panic!("{file}")
    };
    assert_eq!(
        t.activations[0].actions,
        [Action::Unlimber, Action::Fire("b-cav".into())]
    );
    assert_eq!(t.activations[0].dice, 3, "unlimber 2, fire 1");
    let r = resolve(&s, &red, o);
    assert!(
        r.events
            .iter()
            .any(|e| e.what == "fire" && e.facts.unit.as_ref().is_some_and(|u| u.id == "r-gun")),
        "{file}"
    );
    assert!(
        out[1].1.iter().any(|x| x["message"]
            .as_str()
            .unwrap()
            .contains("limbered guns cannot fire")),
        "{:?}",
        out[1].1
    );
}

#[test]
fn a_long_move_is_split_into_moves_and_ends_where_dropped() {
    // The test field's lines as the scenario sets them (Blue's foot in
    // column at (20, 10) facing north, 10 cm a move), Blue to activate.
    let mut s = close_quarters();
    for (id, x, y, f) in [("b-inf", 20.0, 10.0, 0.0), ("r-inf", 20.0, 50.0, 180.0)] {
        let i = s.index(id).unwrap();
        s.units[i].at = Some(Point::new(x, y));
        s.units[i].facing = crate::geometry::Angle(f);
    }
    let blue = SideId::new("blue");
    let p = plan(&s, &blue).unwrap();
    let foot = unit_plan(&p, "b-inf");
    assert_eq!(foot.formation, "column");
    assert!(near(foot.reach.as_ref().unwrap().full, 30.0, 1e-9));
    // A move and a half, 20 degrees off its front, turned 60 degrees
    // left: two moves and one success for the pivot past the column's
    // free 45.
    let to = Point::new(20.0, 10.0) + crate::geometry::Angle(-20.0).unit_vector().scale(15.0);
    let drawn = json!({
        "units": {"b-inf": {"move": {"x": to.x, "y": to.y, "facing": 300.0}, "formation": "", "targets": {}, "fields": {}}},
        "fields": {},
    });
    let out = write(&[(page(&s, &blue, &p), drawn)]);
    let (file, problems) = &out[0];
    assert!(problems.is_empty(), "{problems:?}");
    let o = orders_of(file);
    assert!(ActivationDice.check(&s, &blue, &o).is_empty(), "{file}");
    let Orders::Turn(t) = &o else {
        panic!("{file}")
    };
    let a = &t.activations[0];
    assert_eq!(a.actions.len(), 3, "{file}");
    assert_eq!(a.actions[2], Action::Pivot(-60.0));
    assert_eq!(a.dice, 3, "{file}");
    let r = resolve(&s, &blue, o);
    let u = r.state.unit("b-inf").unwrap();
    assert!(
        u.at.unwrap().distance_to(to).get() <= 0.15,
        "ends at {:?}, dropped at {to:?}\n{file}",
        u.at
    );
    assert!(near(u.facing.degrees(), 300.0, 0.1), "{:?}", u.facing);
}

#[test]
fn a_move_at_the_edge_of_its_arc_and_reach_is_written_so_the_rules_take_it() {
    // Three whole moves (30 cm), 45.3 degrees off its front: the page
    // lets it pass (it allows half a degree), the writer turns it onto
    // 45. And one whole move at 45 degrees from (20, 10.04), whose end
    // rounded to the file's 0.1 cm, (27.1, 17.1), would be 45.2 degrees
    // off: the writer takes the nearest point of that grid inside.
    for (from, off, cm, by) in [(10.0, 45.3, 30.0, 0.5), (10.04, 45.0, 10.0, 0.15)] {
        let mut s = close_quarters();
        for (id, x, y, f) in [
            ("b-inf", 20.0, from, 0.0),
            ("r-inf", 20.0, 50.0, 180.0),
            ("r-gun", 55.0, 55.0, 180.0),
        ] {
            let i = s.index(id).unwrap();
            s.units[i].at = Some(Point::new(x, y));
            s.units[i].facing = crate::geometry::Angle(f);
        }
        let blue = SideId::new("blue");
        let p = plan(&s, &blue).unwrap();
        let to = Point::new(20.0, from) + crate::geometry::Angle(off).unit_vector().scale(cm);
        let drawn = json!({
            "units": {"b-inf": {"move": {"x": to.x, "y": to.y, "facing": 0.0}, "formation": "", "targets": {}, "fields": {}}},
            "fields": {},
        });
        let out = write(&[(page(&s, &blue, &p), drawn)]);
        let (file, problems) = &out[0];
        assert!(problems.is_empty(), "{problems:?}");
        let o = orders_of(file);
        assert!(ActivationDice.check(&s, &blue, &o).is_empty(), "{file}");
        let r = resolve(&s, &blue, o);
        let texts: Vec<&str> = r.events.iter().map(|e| e.text.as_str()).collect();
        assert!(
            r.events
                .iter()
                .all(|e| e.what != "refused" && !e.text.contains("dropped")),
            "{texts:#?}\n{file}"
        );
        // Off the drawn point by what 0.3 degrees make over 30 cm (0.16
        // cm) and the grid (under 0.1 cm a move), and no more.
        let at = r.state.unit("b-inf").unwrap().at.unwrap();
        assert!(at.distance_to(to).get() <= by, "{at:?} for {to:?}\n{file}");
    }
}

/// Loading back (every file the tests above write is read back by
/// `write`; these are the choices they leave out): dice risked on a unit
/// with nothing drawn (a `hold`), the order ticked, the side's choices,
/// an aimed shot with canister after unlimbering, a recoil from melee;
/// each comes back byte for byte. What the page never writes is refused,
/// so the page offers it as text: a `one:` script, moves that are not
/// one straight line split evenly, a `hold` among other actions. And
/// orders drawn as the page draws them (a drop on its grid turned a whole
/// number of degrees, a charge) are read back as they were drawn.
#[test]
fn a_file_the_page_wrote_is_read_back_and_one_it_would_not_write_is_refused() {
    let s = close_quarters();
    let blue = SideId::new("blue");
    let pb = page(&s, &blue, &plan(&s, &blue).unwrap());
    let mut red_turn = close_quarters();
    let red = SideId::new("red");
    red_turn.phase = Phase::Turn {
        turn: 1,
        side: red.clone(),
    };
    let pr = page(&red_turn, &red, &plan(&red_turn, &red).unwrap());
    let held = json!({
        "units": {
            "b-cav": {"move": null, "formation": "", "targets": {}, "fields": {"dice": "2"}},
            "b-inf": {"move": null, "formation": "", "targets": {}, "fields": {"recoil": "true"}},
        },
        "fields": {"sequence": "b-cav", "consult": "true", "turnover": "hold", "after_blunder": "stop"},
    });
    let aimed = json!({
        "units": {"r-gun": {"move": null, "formation": "unlimbered", "targets": {"fire": "b-cav"},
                            "fields": {"aimed": "true", "canister": "true", "dice": "3"}}},
        "fields": {},
    });
    let head = "galloper: 1\ngame: quatre-chemins\nstep: 7\nside: blue\nrevision: 1\norders:\n  turn:\n    consult: false\n    turnover: act\n    after_blunder: carry_on\n    activations:\n";
    let hand = |entry: &str| json!(format!("{head}      - {entry}\n"));
    let out = read_back(&[
        (pb.clone(), held),
        (pr, aimed),
        (
            pb.clone(),
            hand("{unit: b-cav, dice: 1, actions: [{move: {to: {x: 40, \"y\": 12}}}]}"),
        ),
        (
            pb.clone(),
            hand("{unit: b-cav, dice: 2, one: [hold], two: [{move: {toward: r-gun}}]}"),
        ),
        (
            pb.clone(),
            hand(
                "{unit: b-cav, dice: 2, actions: [{move: {to: {x: 40, \"y\": 12}}}, {move: {to: {x: 43, \"y\": 18}}}]}",
            ),
        ),
        (
            pb,
            hand("{unit: b-cav, dice: 1, actions: [hold, {move: {toward: r-gun}}]}"),
        ),
    ]);
    for (file, again) in &out[..2] {
        assert_eq!(again.as_deref(), Some(file.as_str()), "read back:\n{file}");
    }
    // A move written by hand as the page writes it is read (its head is
    // the page's own when written again).
    let block = |f: &str| f[f.find("\norders:\n").expect("orders")..].to_string();
    let again = out[2]
        .1
        .as_deref()
        .unwrap_or_else(|| panic!("read:\n{}", out[2].0));
    assert_eq!(block(again), block(&out[2].0));
    assert!(out[0].0.contains("actions: [hold]") && out[0].0.contains("actions: [recoil]"));
    assert!(
        out[0]
            .0
            .contains("consult: true\n    turnover: hold\n    after_blunder: stop")
    );
    assert!(
        out[1]
            .0
            .contains("actions: [unlimber, canister, {aimed: b-cav}]"),
        "{}",
        out[1].0
    );
    for (file, again) in &out[3..] {
        assert_eq!(again, &None, "refused:\n{file}");
    }
    // Drawn as the page draws (a drop on its 0.1 cm grid and a whole
    // degree's facing, so two moves and a pivot; a charge), the orders
    // come back as they were drawn.
    let mut s = close_quarters();
    for (id, x, y, f) in [("b-inf", 20.0, 10.0, 0.0), ("r-inf", 20.0, 50.0, 180.0)] {
        let i = s.index(id).unwrap();
        s.units[i].at = Some(Point::new(x, y));
        s.units[i].facing = crate::geometry::Angle(f);
    }
    let p = plan(&s, &blue).unwrap();
    assert_eq!(target(&p, "b-cav", "charge").as_deref(), Some("r-gun"));
    let drawn = json!({
        "units": {
            "b-inf": {"move": {"x": 14.9, "y": 24.1, "facing": 300}, "formation": "", "targets": {}, "fields": {}},
            "b-cav": {"move": null, "formation": "", "targets": {"charge": "r-gun"}, "fields": {}},
        },
        "fields": {},
    });
    let pg = page(&s, &blue, &p);
    let (file, _) = &write(&[(pg.clone(), drawn.clone())])[0];
    assert!(file.contains("{pivot: -60}"), "{file}");
    // And a placement: one unit of the first half unticked, one of the
    // second ticked and dragged.
    let s = start();
    let side = placer(&s, 1);
    let p = plan(&s, &side).unwrap();
    let first = p
        .units
        .iter()
        .find(|u| u.fields[0].default == "true")
        .unwrap();
    let later = p
        .units
        .iter()
        .find(|u| u.fields[0].default == "false")
        .unwrap();
    let placed = json!({
        "units": {
            first.id.clone(): {"move": null, "formation": "", "targets": {}, "fields": {"place": "false"}},
            later.id.clone(): {"move": {"x": later.at.x + 2.0, "y": later.at.y, "facing": 10}, "formation": "", "targets": {}, "fields": {"place": "true"}},
        },
        "fields": {},
    });
    let pd = page(&s, &side, &p);
    let (file, _) = &write(&[(pd.clone(), placed.clone())])[0];
    assert!(!file.contains(&format!("unit: {},", first.id)), "{file}");
    for (back, drawn) in drawn_back(&[(pg, drawn), (pd, placed)]) {
        assert_eq!(back, drawn);
    }
}

#[test]
fn woods_and_towns_cost_double_and_water_and_impassable_ground_bar_every_arm() {
    let mut s = battle();
    let extra: Vec<crate::geometry::TerrainFeature> = crate::yaml::from_str(
        "- {id: brook, name: Brook, tags: [water], shape: polyline, width: 2, points: [{x: 0, y: 80}, {x: 120, y: 80}]}\n\
         - {id: ford, name: Plank bridge, tags: [bridge, road], shape: polygon, points: [{x: 58, y: 78}, {x: 62, y: 78}, {x: 62, y: 82}, {x: 58, y: 82}]}\n\
         - {id: pond, name: Mill pond, tags: [water], shape: polygon, points: [{x: 5, y: 5}, {x: 10, y: 5}, {x: 10, y: 10}]}\n\
         - {id: quarry, name: Quarry, tags: [impassable], shape: polygon, points: [{x: 70, y: 5}, {x: 80, y: 5}, {x: 80, y: 10}]}\n",
    )
    .expect("terrain");
    s.scenario.terrain.extend(extra);
    let p = plan(&s, &french()).expect("the French plan");
    let mut arms = std::collections::BTreeSet::new();
    for u in &p.units {
        let Some(r) = &u.reach else { continue };
        let arm = s.units.iter().find(|x| x.id == u.id).expect("unit").arm();
        arms.insert(format!("{arm:?}"));
        let of = |name: &str| {
            r.ground
                .iter()
                .find(|g| p.ground[g.outline].name == name)
                .map(|g| (g.most, g.cost, g.soft))
        };
        // Woods and towns: a move that enters goes its reach, each cm in
        // them counting two.
        assert_eq!(
            of("Bois de Hal"),
            Some((Some(r.full), 2.0, false)),
            "{}",
            u.id
        );
        assert_eq!(
            of("Quatre-Chemins"),
            Some((Some(r.full), 2.0, false)),
            "{}",
            u.id
        );
        // No water without a bridge, none ever in impassable ground; the
        // brook's bridge is the server's to judge.
        assert_eq!(of("Mill pond"), Some((None, 1.0, false)), "{}", u.id);
        assert_eq!(of("Quarry"), Some((None, 1.0, false)), "{}", u.id);
        assert_eq!(of("Brook"), Some((None, 1.0, true)), "{}", u.id);
        for free in ["Butte du Moulin", "Tall rye", "Chaussée", "Plank bridge"] {
            assert_eq!(of(free), None, "{free} for {}", u.id);
        }
    }
    assert!(arms.len() >= 2, "units of more than one arm: {arms:?}");
    assert_eq!(
        p.ground
            .iter()
            .find(|o| o.name == "Brook")
            .and_then(|o| o.line),
        Some(2.0),
        "a stream is a line as wide as it is"
    );
}

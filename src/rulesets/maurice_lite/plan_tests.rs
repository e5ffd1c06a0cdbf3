//! The orders page's plan for Maurice Lite, and its writer run in Node on
//! that plan: what it writes passes the rules' check, and resolving it puts
//! each moved unit where it was dropped, facing the way it was turned.

use super::super::MauriceLite;
use super::super::orders::{Deployment, Orders};
use super::super::scenario::Scenario;
use super::super::state::{Phase, State};
use super::super::units::{Formation, allowance};
use super::plan;
use crate::dice::Dice;
use crate::geometry::{Angle, Point};
use crate::ruleset::Ruleset;
use crate::side::{BySide, SideId};
use serde_json::{Value, json};

const HOLLOWBROOK: &str = include_str!("../../../games/maurice-lite/hollowbrook.yaml");

fn au() -> SideId {
    SideId::new("austrians")
}
fn fr() -> SideId {
    SideId::new("french")
}

fn start() -> State {
    let scenario: Scenario = crate::yaml::from_str(HOLLOWBROOK).expect("hollowbrook parses");
    MauriceLite.start(&scenario).expect("hollowbrook starts")
}

fn resolve(s: &State, orders: Vec<(SideId, Orders)>) -> State {
    let mut by = BySide::new();
    for (side, o) in orders {
        by.insert(side, o);
    }
    let mut dice = Dice::from_seeds([7; 32], [9; 32]);
    MauriceLite.resolve(s, &by, &mut dice).state
}

/// Hollowbrook deployed as the template offers, then the Austrians active
/// with a strong hand, their CinC among them, and the table arranged by
/// `place` (id, x, y, facing, formation).
fn round(place: &[(&str, f64, f64, f64, Formation)]) -> State {
    let s = start();
    let d = |side: &SideId| Orders::Deploy(super::super::template::placements(&s, side));
    let mut s = resolve(&s, vec![(au(), d(&au())), (fr(), d(&fr()))]);
    assert!(
        matches!(s.phase, Phase::Round { .. }),
        "the deployment resolves"
    );
    s.phase = Phase::Round { active: au() };
    // Everyone out of the way: the Austrians along their back edge, the
    // French along theirs, then the units the test places.
    for (i, u) in s.units.iter_mut().enumerate() {
        let (y, f) = if u.side == au() {
            (23.0, 180.0)
        } else {
            (1.0, 0.0)
        };
        u.anchor = Some(Point::new(3.0 + 5.0 * (i % 6) as f64, y));
        u.facing = Angle(f);
        u.formation = super::super::scenario::default_formation(u.arm);
    }
    for (id, x, y, f, formation) in place {
        let u = s.unit_mut(id).expect("a unit of hollowbrook");
        u.anchor = Some(Point::new(*x, *y));
        u.facing = Angle(*f);
        u.formation = *formation;
    }
    let mut by_span: Vec<(u32, String)> = s
        .deck
        .cards
        .iter()
        .filter(|c| c.event.is_none() && c.effect.is_none() && !c.interrupt)
        .map(|c| (c.span, c.id.clone()))
        .collect();
    by_span.sort();
    let hand: Vec<String> = by_span
        .iter()
        .rev()
        .take(6)
        .map(|(_, c)| c.clone())
        .collect();
    s.piles.draw.retain(|c| !hand.contains(c));
    for a in s.armies.values_mut() {
        a.hand.retain(|c| !hand.contains(c));
    }
    let army = s.army_mut(&au()).expect("the Austrians");
    army.hand = hand;
    army.cinc = Some(Point::new(18.0, 21.5));
    s
}

/// The page's data as `galloper orders page` embeds it, for the writer.
fn page(s: &State, side: &SideId) -> Value {
    let p = MauriceLite.orders_plan(s, side).expect("a plan");
    json!({
        "head": {"game": "hollowbrook-test", "step": 2, "side": side.as_str(), "side_name": "Austrians",
                 "notice": "0000", "revision": 1, "ruleset": "maurice-lite", "fingerprint": "",
                 "measure": "BW", "heading": "", "note": ""},
        "frame": {}, "outlines": {}, "template": "",
        "plan": serde_json::to_value(&p.plan).expect("the plan serialises"),
    })
}

/// The orders file the writer makes of `drawn`, and the problems the page
/// shows for it, from Node. The file is also loaded back as the page
/// loads it (see `read_back`) and must come back byte for byte: every
/// file these tests draw is read back onto the map.
fn write(page: &Value, drawn: &Value) -> (String, Vec<Value>) {
    let v = in_node(
        "const out = {file: GalloperOrders.file(page, drawn), problems: GalloperOrders.problems(page, drawn)};",
        page,
        drawn,
    );
    let file = v["file"].as_str().expect("a file").to_string();
    let again = read_back(page, &json!(file));
    assert_eq!(again.as_deref(), Some(file.as_str()), "read back:\n{file}");
    (file, v["problems"].as_array().cloned().unwrap_or_default())
}

/// Loading back, in Node, as the page does it: the file `text` parsed by
/// the vendored YAML reader, its `orders:` block given to the writer's
/// `read`, and the file the page writes from what it makes (None when
/// `read` refuses the file).
fn read_back(page: &Value, text: &Value) -> Option<String> {
    let v = in_node(
        "const back = GalloperOrders.writerFor(page).read(page, GalloperVendor.parseYaml(drawn).orders);\n\
         const out = back ? GalloperOrders.file(page, back) : null;",
        page,
        text,
    );
    v.as_str().map(String::from)
}

/// What the writer's `read` makes of the file written from `drawn` (the
/// drawn orders the page shows once the file is loaded back), and `drawn`
/// as the page holds it (both through JSON in Node, as the browser test
/// compares them).
fn drawn_back(page: &Value, drawn: &Value) -> (Value, Value) {
    let v = in_node(
        "const file = GalloperOrders.file(page, drawn);\n\
         const out = [GalloperOrders.writerFor(page).read(page, GalloperVendor.parseYaml(file).orders), drawn];",
        page,
        drawn,
    );
    (v[0].clone(), v[1].clone())
}

/// Runs the vendored scripts, write.js and this ruleset's page.js in Node,
/// then `body`, which reads `page` and `drawn` and sets `out`.
fn in_node(body: &str, page: &Value, drawn: &Value) -> Value {
    let dir = tempfile::tempdir().expect("a temp dir");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::write(dir.path().join("page.json"), page.to_string()).unwrap();
    std::fs::write(dir.path().join("drawn.json"), drawn.to_string()).unwrap();
    let script = format!(
        r#"
const fs = require('fs'); const vm = require('vm'); const [, vendorJs, writeJs, pageJs, dir] = process.argv;
vm.runInThisContext(fs.readFileSync(vendorJs, 'utf8'), {{filename: vendorJs}});
vm.runInThisContext(fs.readFileSync(writeJs, 'utf8'), {{filename: writeJs}});
vm.runInThisContext(fs.readFileSync(pageJs, 'utf8'), {{filename: pageJs}});
const page = JSON.parse(fs.readFileSync(dir + '/page.json', 'utf8'));
const drawn = JSON.parse(fs.readFileSync(dir + '/drawn.json', 'utf8'));
{body}
process.stdout.write(JSON.stringify(out));
"#
    );
    let out = std::process::Command::new("node")
        .arg("-e")
        .arg(script)
        .arg(root.join("site/vendor/orders-vendor.js"))
        .arg(root.join("site/orders/write.js"))
        .arg(root.join("src/rulesets/maurice_lite/page.js"))
        .arg(dir.path())
        .output()
        .expect("node runs (the orders page's writers are tested in Node)");
    assert!(
        out.status.success(),
        "node: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("node prints JSON")
}

/// The `orders:` block of a written file, read as the server reads it.
fn orders_of(file: &str) -> Orders {
    let text = crate::envelope::with_entropy(file, &"ab".repeat(32));
    let env = crate::envelope::parse_stored("orders.yaml", text.as_bytes())
        .unwrap_or_else(|e| panic!("the envelope parses: {e}\n{file}"));
    crate::yaml::from_value(env.orders).unwrap_or_else(|e| panic!("the orders parse: {e}\n{file}"))
}

/// Write `drawn`, check it with no violation and no problem on the page,
/// and resolve it.
fn send(s: &State, side: &SideId, drawn: &Value) -> (String, State) {
    let (file, problems) = write(&page(s, side), drawn);
    assert!(
        problems.is_empty(),
        "the page sees problems: {problems:?}\n{file}"
    );
    let o = orders_of(&file);
    let v = MauriceLite.check(s, side, &o);
    assert!(
        v.is_empty(),
        "the rules refuse the page's orders: {v:?}\n{file}"
    );
    let after = resolve(s, vec![(side.clone(), o)]);
    (file, after)
}

fn assert_at(s: &State, id: &str, x: f64, y: f64, facing: f64, file: &str) {
    let u = s.unit(id).expect("the unit");
    let at = u.anchor.expect("on the table");
    let off = (at - Point::new(x, y)).length();
    let turn = (u.facing.degrees() - facing).rem_euclid(360.0);
    let turn = turn.min(360.0 - turn);
    assert!(
        off <= 0.1 && turn <= 0.1,
        "{id} ends at ({:.3}, {:.3}) facing {:.2}, not where it was dropped ({x}, {y}) facing {facing}\n{file}",
        at.x,
        at.y,
        u.facing.degrees()
    );
}

fn moved(id: &str, x: f64, y: f64, facing: f64) -> Value {
    json!({"units": {id: {"move": {"x": x, "y": y, "facing": facing}, "formation": "", "targets": {}, "fields": {}}}, "fields": {}})
}

#[test]
fn each_own_unit_stands_where_the_state_has_it_with_the_allowance_of_the_rules() {
    let s = round(&[]);
    let p = plan(&s, &au()).expect("a plan for the active side");
    let me = au();
    let own: Vec<_> = s.live_units(&me).collect();
    assert_eq!(p.units.len(), own.len(), "every live unit of the side");
    for (u, up) in own.iter().zip(&p.units) {
        assert_eq!(up.id, u.id);
        assert_eq!(up.at, u.anchor.unwrap(), "{}: at is the front centre", u.id);
        assert_eq!(up.facing, u.facing.degrees());
        assert_eq!(up.formation, u.formation.label());
        let r = up
            .reach
            .as_ref()
            .expect("a unit of the active side may march");
        assert_eq!(
            r.full,
            allowance(u.arm, u.formation).get(),
            "{}: its march allowance (no enemy near)",
            u.id
        );
    }
    // Nothing of the enemy's to order, and the passive side owes only
    // reactions: its units may not move.
    assert!(p.units.iter().all(|u| u.id.starts_with("au-")));
    let passive = plan(&s, &fr()).expect("the passive side's plan");
    assert!(passive.units.iter().all(|u| u.reach.is_none()));
    assert_eq!(passive.extra["step"], "reactions");
}

#[test]
fn charge_targets_are_the_enemies_the_options_say_each_unit_could_reach() {
    let s = round(&[
        ("fr-i1", 14.0, 14.5, 0.0, Formation::Line),
        ("au-i1", 14.0, 17.0, 180.0, Formation::Line),
    ]);
    let p = plan(&s, &au()).unwrap();
    for up in &p.units {
        let expected: Vec<String> = super::super::options::charge_targets(&s, &au())
            .into_iter()
            .find(|(u, _)| u.id == up.id)
            .map(|(_, t)| t.iter().map(|e| e.id.clone()).collect())
            .unwrap_or_default();
        let offered: Vec<String> = up
            .targets
            .iter()
            .filter(|t| t.kind == "charge")
            .flat_map(|t| t.options.iter().map(|c| c.value.clone()))
            .collect();
        assert_eq!(offered, expected, "{}", up.id);
        assert!(offered.iter().all(|e| e.starts_with("fr-")));
    }
    let i1 = p.units.iter().find(|u| u.id == "au-i1").unwrap();
    assert_eq!(i1.targets[0].options[0].value, "fr-i1");
    assert!(
        i1.notes.iter().any(|n| n.starts_with("You can charge")),
        "its options line: {:?}",
        i1.notes
    );
}

#[test]
fn a_charge_and_a_supporting_wheel_drawn_on_the_page_pass_the_check_and_resolve() {
    let s = round(&[
        ("fr-i1", 14.0, 14.5, 0.0, Formation::Line),
        ("au-i1", 14.0, 17.0, 180.0, Formation::Line),
        ("au-i2", 19.0, 17.5, 180.0, Formation::Line),
    ]);
    // au-i2 goes 0.5 forward, wheels 20 degrees to its left (about its left
    // end, at x 21) and goes 0.5 on: the writer finds those steps from the
    // point and facing alone.
    let pivot = Point::new(21.0, 17.0);
    let swung = Point::new(19.0, 17.0).rotated_about(pivot, -20.0);
    let end = swung + Angle(160.0).unit_vector().scale(0.5);
    let mut drawn = moved("au-i2", end.x, end.y, 160.0);
    drawn["units"]["au-i1"] =
        json!({"move": null, "formation": "", "targets": {"charge": "fr-i1"}, "fields": {}});
    let (file, after) = send(&s, &au(), &drawn);
    assert!(
        file.contains("charge:") && file.contains("target: fr-i1"),
        "{file}"
    );
    assert_at(&after, "au-i2", end.x, end.y, 160.0, &file);
    assert_ne!(
        after.unit("au-i1").and_then(|u| u.anchor),
        s.unit("au-i1").and_then(|u| u.anchor),
        "the charge moved au-i1\n{file}"
    );
}

/// Where `steps` (a March's steps, as orders write them) would take `id`:
/// its front centre and facing, for a drop the writer must reach alone.
fn end_of(s: &State, id: &str, steps: &str) -> (f64, f64, f64) {
    let mv: super::super::orders::UnitMove =
        crate::yaml::from_str(&format!("{{unit: {id}, steps: {steps}}}")).expect("steps parse");
    let p = super::super::march::plan(s, &au(), &mv).expect("the rules take the steps");
    (p.anchor.x, p.anchor.y, p.facing.normalized().degrees())
}

/// Drop `id` where `steps` would take it, send what the page writes, and
/// see it end there; the file, for more asserts.
fn drop_as(s: &State, id: &str, steps: &str) -> String {
    drop_formed(s, id, steps, "")
}

/// [`drop_as`], the unit also given a new formation on the page.
fn drop_formed(s: &State, id: &str, steps: &str, formation: &str) -> String {
    let (x, y, f) = end_of(s, id, steps);
    let mut drawn = moved(id, x, y, f);
    drawn["units"][id]["formation"] = json!(formation);
    let (file, after) = send(s, &au(), &drawn);
    assert_at(&after, id, x, y, f, &file);
    if !formation.is_empty() {
        assert_eq!(
            after.unit(id).unwrap().formation.label(),
            formation,
            "{file}"
        );
    }
    file
}

#[test]
fn drawn_marches_of_every_formation_end_where_they_were_dropped() {
    let s = round(&[("au-i3", 24.0, 17.0, 180.0, Formation::Line)]);
    let file = drop_as(
        &s,
        "au-i3",
        "[{forward: 0.5}, {wheel: {pivot: right, degrees: 20}}, {forward: 1}]",
    );
    assert!(file.contains("pivot: right, degrees: 20"), "{file}");
    let file = drop_as(
        &s,
        "au-i3",
        "[{wheel: {pivot: left, degrees: 35}}, {forward: 1.2}]",
    );
    assert!(file.contains("pivot: left, degrees: 35"), "{file}");
    let file = drop_as(
        &s,
        "au-i3",
        "[{back: 0.5}, {wheel: {pivot: right, degrees: 10, backward: true}}, {back: 0.4}]",
    );
    assert!(file.contains("backward: true"), "{file}");
    let file = drop_as(&s, "au-i3", "[{forward: 3}]");
    assert!(file.contains("[{forward: 3}]"), "{file}");
    // Ahead, then turned the way its own wheel would carry it past the
    // point: two wheels, one each way.
    let file = drop_as(
        &s,
        "au-i3",
        "[{wheel: {pivot: left, degrees: 8}}, {forward: 1.5}, {wheel: {pivot: right, degrees: 20}}]",
    );
    assert!(
        file.contains("pivot: left") && file.contains("pivot: right"),
        "{file}"
    );
    // A step sideways: two wheels again, back to its facing.
    drop_as(
        &s,
        "au-i3",
        "[{wheel: {pivot: right, degrees: 15}}, {forward: 0.5}, {wheel: {pivot: left, degrees: 15}}]",
    );
    // Massed cavalry.
    let s = round(&[("au-c1", 5.0, 18.0, 180.0, Formation::Massed)]);
    drop_as(
        &s,
        "au-c1",
        "[{forward: 1}, {wheel: {pivot: left, degrees: 60}}, {forward: 2.5}]",
    );
    // A gun on a path, ending across it: anywhere within its allowance.
    let s = round(&[("au-a1", 17.0, 18.5, 180.0, Formation::Battery)]);
    let (file, after) = send(&s, &au(), &moved("au-a1", 11.0, 16.0, 250.0));
    assert!(file.contains("path:"), "{file}");
    assert_at(&after, "au-a1", 11.0, 16.0, 250.0, &file);
    // A column along a path, and a column forming line then wheeling on.
    let s = round(&[("au-i3", 24.0, 18.0, 180.0, Formation::Column)]);
    let (file, after) = send(&s, &au(), &moved("au-i3", 29.0, 16.0, 45.0));
    assert_at(&after, "au-i3", 29.0, 16.0, 45.0, &file);
    let file = drop_formed(
        &s,
        "au-i3",
        "[{formation: {to: line, turn: right}}, {wheel: {pivot: left, degrees: 30}}, {forward: 1}]",
        "line",
    );
    assert!(
        file.contains("formation: {to: line, turn: right}"),
        "{file}"
    );
}

#[test]
fn the_page_refuses_what_a_line_cannot_reach_and_what_is_too_far() {
    let s = round(&[("au-i3", 24.0, 17.0, 180.0, Formation::Line)]);
    let pg = page(&s, &au());
    // Straight sideways: every forward wheel also carries it forward, and
    // no move mixes forward and back.
    let (_, problems) = write(&pg, &moved("au-i3", 20.0, 17.0, 180.0));
    assert!(
        problems.iter().any(|p| p["message"]
            .as_str()
            .unwrap()
            .contains("cannot reach that point facing that way")),
        "{problems:?}"
    );
    // 3.5 BW ahead and a right angle's wheel: more than its 4 BW.
    let (_, problems) = write(&pg, &moved("au-i3", 20.0, 13.5, 270.0));
    assert!(
        problems.iter().any(|p| p["message"]
            .as_str()
            .unwrap()
            .contains("its allowance is 4 BW")),
        "{problems:?}"
    );
    // A move and a charge for one unit exclude each other.
    let s = round(&[
        ("fr-i1", 14.0, 14.5, 0.0, Formation::Line),
        ("au-i1", 14.0, 17.0, 180.0, Formation::Line),
    ]);
    let mut drawn = moved("au-i1", 14.0, 16.0, 180.0);
    drawn["units"]["au-i1"]["targets"] = json!({"charge": "fr-i1"});
    let (_, problems) = write(&page(&s, &au()), &drawn);
    assert!(
        problems
            .iter()
            .any(|p| p["message"].as_str().unwrap().contains("not both")),
        "{problems:?}"
    );
}

#[test]
fn a_deployment_drawn_on_the_page_puts_the_units_where_they_were_dropped() {
    let s = start();
    let p = plan(&s, &au()).expect("a deployment plan");
    let d = super::super::template::placements(&s, &au());
    for (up, pl) in p.units.iter().zip(&d.units) {
        assert_eq!(up.at, pl.at, "{}: the template's place", up.id);
    }
    let (file, _) = write(&page(&s, &au()), &moved("au-i2", 15.5, 19.0, 200.0));
    let o = orders_of(&file);
    assert!(MauriceLite.check(&s, &au(), &o).is_empty(), "{file}");
    let other = Orders::Deploy(super::super::template::placements(&s, &fr()));
    let after = resolve(&s, vec![(au(), o), (fr(), other)]);
    assert_at(&after, "au-i2", 15.5, 19.0, 200.0, &file);
    let Orders::Deploy(Deployment { units, .. }) = orders_of(&file) else {
        panic!("a deployment")
    };
    assert_eq!(units.len(), d.units.len(), "every unit is placed");
}

#[test]
fn standing_reactions_from_the_page_keep_what_is_in_force() {
    use super::super::reactions::{On, Play, Reactions};
    let mut s = round(&[]);
    let card = s
        .deck
        .cards
        .iter()
        .find(|c| c.interrupt)
        .expect("the deck has an interrupt")
        .id
        .clone();
    let play = Play {
        card,
        on: On::March,
        near: None,
        within: None,
        unit: None,
    };
    s.standing.insert(
        fr(),
        Reactions {
            interrupts: vec![play.clone()],
            ..Reactions::default()
        },
    );
    let pg = page(&s, &fr());
    // Untouched, the form sends back what is in force.
    let (file, problems) = write(&pg, &json!({"units": {}, "fields": {}}));
    assert!(problems.is_empty());
    let Orders::Reactions(r) = orders_of(&file) else {
        panic!("reactions: {file}")
    };
    assert_eq!(r.interrupts, vec![play], "{file}");
    assert!(r.return_fire.includes("fr-i1"), "{file}");
    // Return fire refused, the interrupt unticked.
    let drawn = json!({"units": {}, "fields": {"return_fire": "none", "plays": ""}});
    let (file, _) = write(&pg, &drawn);
    let o = orders_of(&file);
    assert!(MauriceLite.check(&s, &fr(), &o).is_empty(), "{file}");
    let Orders::Reactions(r) = o else {
        panic!("reactions: {file}")
    };
    assert!(
        !r.return_fire.includes("fr-i1") && r.interrupts.is_empty(),
        "{file}"
    );
}

#[test]
fn a_decision_after_consulting_is_drawn_like_a_march() {
    let s = round(&[("au-i3", 24.0, 17.0, 180.0, Formation::Line)]);
    let drawn = json!({"units": {}, "fields": {"command": "march", "consult": "true"}});
    let (file, asked) = send(&s, &au(), &drawn);
    assert!(file.contains("consult: true"), "{file}");
    let Phase::Decision { .. } = &asked.phase else {
        panic!("consulting pauses the round: {:?}\n{file}", asked.phase)
    };
    let p = plan(&asked, &au()).expect("the decision's plan");
    assert_eq!(p.extra["step"], "decide");
    assert!(p.fields.iter().any(|f| f.name == "cards"));
    let (x, y, f) = end_of(
        &asked,
        "au-i3",
        "[{forward: 1}, {wheel: {pivot: right, degrees: 15}}]",
    );
    let (file, after) = send(&asked, &au(), &moved("au-i3", x, y, f));
    assert!(file.contains("decide:"), "{file}");
    assert_at(&after, "au-i3", x, y, f, &file);
}

#[test]
fn the_plan_of_thirty_units_a_side_stays_small() {
    let fight = crate::bench::scaling::maurice_fight_setup(30).expect("the bench battle");
    let s: State = crate::yaml::from_str(&fight.state).expect("its state");
    let Phase::Round { active } = &s.phase else {
        panic!("the bench battle is a round")
    };
    let p = plan(&s, active).expect("a plan");
    assert_eq!(p.units.len(), s.live_units(active).count());
    let bytes = serde_json::to_string(&p).unwrap().len();
    assert!(bytes < 60_000, "the plan weighs {bytes} bytes");
}

#[test]
fn volleys_and_the_cincs_ride_come_from_the_side_form() {
    let s = round(&[
        ("fr-i1", 14.0, 15.5, 0.0, Formation::Line),
        ("au-i1", 14.0, 17.0, 180.0, Formation::Line),
    ]);
    let p = plan(&s, &au()).unwrap();
    let volleys = p.fields.iter().find(|f| f.name == "volleys").unwrap();
    let crate::view::plan::FieldKind::Many { options } = &volleys.kind else {
        panic!("volleys is a Many")
    };
    let shooters: Vec<&str> = options.iter().map(|c| c.value.as_str()).collect();
    let expected: Vec<String> = super::super::options::volley_targets(&s, &au())
        .into_iter()
        .map(|(u, _)| u)
        .collect();
    assert_eq!(
        shooters, expected,
        "the units the fire plan would have shoot"
    );
    assert!(shooters.contains(&"au-i1"), "{shooters:?}");
    let drawn = json!({"units": {}, "fields": {"volleys": "au-i1", "cinc": "18, 20"}});
    let (file, after) = send(&s, &au(), &drawn);
    assert!(file.contains("volleys:\n      - au-i1"), "{file}");
    assert_eq!(
        after.army(&au()).and_then(|a| a.cinc),
        Some(Point::new(18.0, 20.0)),
        "{file}"
    );
}

/// Loading back (every file the tests above write is read back by
/// `write`; these are the choices they leave out): horse about-faced
/// before its march, a unit added to the force, the cards named, the CinC's
/// ride with the card discarded for it, a pass with a
/// volley; each comes back byte for byte. What the page never writes is
/// refused, so the page offers it as text: two straight steps where it
/// writes one, a column's path through two waypoints; what it would write
/// with a map's keys in another order is read. And orders drawn as the
/// page draws them are read back as they were drawn.
#[test]
fn a_file_the_page_wrote_is_read_back_and_one_it_would_not_write_is_refused() {
    let s = round(&[
        ("au-i3", 24.0, 17.0, 180.0, Formation::Line),
        ("au-i2", 20.0, 17.0, 180.0, Formation::Line),
        ("au-i1", 14.0, 17.0, 180.0, Formation::Column),
        ("au-c1", 30.0, 18.0, 180.0, Formation::Massed),
        ("fr-i1", 14.0, 15.5, 0.0, Formation::Line),
    ]);
    let pg = page(&s, &au());
    let p = plan(&s, &au()).unwrap();
    let choices = |name: &str| -> Vec<String> {
        match &p.fields.iter().find(|f| f.name == name).expect(name).kind {
            crate::view::plan::FieldKind::Many { options }
            | crate::view::plan::FieldKind::One { options } => options
                .iter()
                .map(|c| c.value.clone())
                .filter(|v| !v.is_empty())
                .collect(),
            _ => panic!("{name} has choices"),
        }
    };
    let cards = choices("cards");
    let (x, y, f) = end_of(&s, "au-c1", "[about_face, {forward: 1}]");
    let mut drawn = moved("au-c1", x, y, f);
    drawn["units"]["au-c1"]["fields"] = json!({"about_face": "true"});
    drawn["fields"] = json!({
        "command": "march", "force": "au-i2", "cards": cards[0],
        "cinc": "18, 20", "cinc_discard": cards[1],
    });
    let (file, problems) = write(&pg, &drawn);
    assert!(problems.is_empty(), "{problems:?}\n{file}");
    for words in ["about_face", "au-i2", "discard: ", "cinc:"] {
        assert!(file.contains(words), "{words}: {file}");
    }
    let pass = json!({"units": {}, "fields": {"command": "pass", "volleys": "au-i1"}});
    let (file, _) = write(&pg, &pass);
    assert!(file.contains("command: pass"), "{file}");

    let head = "galloper: 1\ngame: hollowbrook-test\nstep: 2\nside: austrians\nrevision: 1\norders:\n  round:\n    volleys: false\n    command:\n      march:\n";
    let by_hand = |unit: &str, steps: &str| {
        let text = format!(
            "{head}        force: [{unit}]\n        cards: fewest\n        moves:\n          - {{unit: {unit}, steps: {steps}}}\n"
        );
        read_back(&pg, &json!(text))
    };
    assert_eq!(by_hand("au-i3", "[{forward: 1}, {forward: 1}]"), None);
    assert_eq!(
        by_hand(
            "au-i1",
            "[{path: [{x: 15, \"y\": 16}, {x: 16, \"y\": 15}, {x: 17, \"y\": 14}]}]"
        ),
        None
    );
    let written = by_hand("au-i3", "[{forward: 2}]").expect("a march the page writes is read");
    // Drawn as the page draws (the browser walk's charge with a neighbour
    // wheeling beside it, dropped on the page's 0.1 BW grid), the orders
    // come back as they were drawn.
    let s = round(&[
        ("fr-i1", 14.0, 14.5, 0.0, Formation::Line),
        ("au-i1", 14.0, 17.0, 180.0, Formation::Line),
        ("au-i2", 19.0, 17.5, 180.0, Formation::Line),
    ]);
    let pivot = Point::new(21.0, 17.0);
    let swung = Point::new(19.0, 17.0).rotated_about(pivot, -20.0);
    let end = swung + Angle(160.0).unit_vector().scale(0.5);
    let r = |v: f64| (v * 10.0).round() / 10.0;
    let mut drawn = moved("au-i2", r(end.x), r(end.y), 160.0);
    drawn["units"]["au-i1"] =
        json!({"move": null, "formation": "", "targets": {"charge": "fr-i1"}, "fields": {}});
    let (file, _) = write(&page(&s, &au()), &drawn);
    assert!(file.contains("wheel:"), "{file}");
    let (back, drawn) = drawn_back(&page(&s, &au()), &drawn);
    assert_eq!(back, drawn);
    // A map's keys in another order are the same orders.
    let reordered = format!(
        "{head}        cards: fewest\n        force: [au-i3]\n        moves:\n          - {{steps: [{{forward: 2}}], unit: au-i3}}\n"
    );
    assert_eq!(
        read_back(&pg, &json!(reordered)).as_deref(),
        Some(written.as_str())
    );
    assert!(written.ends_with("steps: [{forward: 2}]}\n"), "{written}");
}

#[test]
fn difficult_ground_slows_only_guns_and_a_card_or_impassable_ground_bars_every_arm() {
    let mut s = round(&[]);
    let extra: Vec<crate::geometry::TerrainFeature> = crate::yaml::from_str(
        "- {id: gorge, name: Deep gorge, tags: [impassable], shape: polygon, points: [{x: 30, y: 10}, {x: 34, y: 10}, {x: 34, y: 14}]}\n",
    )
    .expect("terrain");
    s.scenario.terrain.extend(extra);
    let listed = |s: &State| {
        let p = plan(s, &au()).expect("a plan for the active side");
        let mut out = Vec::new();
        for u in &p.units {
            let arm = s.unit(&u.id).expect("unit").arm;
            for g in &u.reach.as_ref().expect("it may march").ground {
                out.push((arm, p.ground[g.outline].name.clone(), g.most));
            }
        }
        out
    };
    let now = listed(&s);
    let guns = s
        .live_units(&au())
        .find(|u| u.arm == super::super::units::Arm::Artillery)
        .map(|u| u.arm)
        .expect("the Austrians have guns");
    for (arm, name, most) in &now {
        match name.as_str() {
            "Deep gorge" => assert_eq!(*most, None, "impassable to {arm:?}"),
            // Woods, the brook and the marsh are difficult: 2 BW for guns,
            // and nothing that shortens the others' march.
            "Holl Wood" | "Holl Brook" | "Long Marsh" => {
                assert_eq!(*arm, guns, "{name} listed for {arm:?}");
                assert_eq!(*most, Some(2.0));
            }
            other => panic!("{other} listed for {arm:?}"),
        }
    }
    for name in ["Deep gorge", "Holl Wood", "Holl Brook", "Long Marsh"] {
        assert!(now.iter().any(|(_, n, _)| n == name), "{name} missing");
    }
    assert!(now.iter().filter(|(_, n, _)| n == "Deep gorge").count() > 1);
    // A card that makes difficult ground impassable bars it to every arm.
    s.cards.difficult_impassable = true;
    let barred = listed(&s);
    assert!(
        barred
            .iter()
            .filter(|(_, n, _)| n != "Windmill Rise")
            .all(|(_, _, most)| most.is_none())
    );
    assert!(
        barred
            .iter()
            .any(|(arm, n, _)| n == "Holl Wood" && *arm != guns)
    );
}

#[test]
fn each_sides_panel_is_made_once_for_its_report_and_its_page_and_reads_as_made_alone() {
    use super::super::view;
    use crate::ruleset::Memo;
    use crate::view::Viewer;
    let s = round(&[
        ("fr-i1", 14.0, 14.5, 0.0, Formation::Line),
        ("au-i1", 14.0, 17.0, 180.0, Formation::Line),
    ]);
    let memo = Memo::default();
    let au_sight = view::sight_with(&s, &Viewer::Side(au()), &memo);
    // The Austrians' panel, and both sides' volley plans it shows.
    assert_eq!(memo.len(), 3);
    let panel = au_sight
        .panels
        .iter()
        .find(|p| p.title == "What you can do now")
        .expect("the options panel");
    assert!(panel.lines.iter().any(|l| l.starts_with("You can volley")));
    assert!(
        panel
            .lines
            .iter()
            .any(|l| l.starts_with("The enemy can volley"))
    );
    assert_eq!(au_sight, view::sight(&s, &Viewer::Side(au())));
    // The French panel is new; the volley plans are the ones kept.
    let fr_sight = view::sight_with(&s, &Viewer::Side(fr()), &memo);
    assert_eq!(memo.len(), 4);
    assert_eq!(fr_sight, view::sight(&s, &Viewer::Side(fr())));
    // The page's plan takes the report's panel, and reads the same.
    let shared = super::plan_with(&s, &au(), &memo).expect("a plan");
    assert_eq!(memo.len(), 4);
    assert_eq!(
        format!("{shared:?}"),
        format!("{:?}", plan(&s, &au()).expect("a plan"))
    );
}

#[test]
fn a_loaded_state_shares_its_panels_and_a_resolved_one_makes_its_own() {
    use crate::ruleset::AnyRuleset;
    use crate::view::Viewer;
    let s = round(&[
        ("fr-i1", 14.0, 14.5, 0.0, Formation::Line),
        ("au-i1", 14.0, 17.0, 180.0, Formation::Line),
    ]);
    let text = crate::ruleset::state_to_yaml(&s).unwrap();
    let rules: &dyn AnyRuleset = &MauriceLite;
    let loaded = rules.load(&text).unwrap();
    let fresh = || rules.load(&text).unwrap();
    for side in [au(), fr()] {
        let viewer = Viewer::Side(side.clone());
        assert_eq!(loaded.view(&viewer), fresh().view(&viewer));
        assert_eq!(
            format!("{:?}", loaded.orders_plan(&side)),
            format!("{:?}", fresh().orders_plan(&side))
        );
    }
    // Advanced, the state is another: its panels are its own.
    let mut loaded = loaded;
    let pass = |side: &SideId| {
        crate::demo::players::player("maurice-lite", false)
            .unwrap()
            .unwrap()
            .pass(&crate::ruleset::Owed {
                side: side.clone(),
                kind: crate::ruleset::OrdersKind::Turn,
                note: String::new(),
            })
    };
    let mut orders = BySide::new();
    for o in loaded.due().owed {
        orders.insert(o.side.clone(), pass(&o.side));
    }
    let mut dice = Dice::from_seeds([7; 32], [9; 32]);
    let res = loaded.advance(&orders, &mut dice).unwrap();
    let after = rules.load(&res.state).unwrap();
    let viewer = Viewer::Side(au());
    assert_eq!(loaded.view(&viewer), after.view(&viewer));
}

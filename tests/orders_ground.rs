//! The orders page's check of drawn moves against the ground in a unit's
//! reach (`site/orders/write.js`, issue 32), run in Node on a page built by
//! hand: ground a unit may not enter, ground that caps a move that enters
//! it, ground that counts double, a stream as a line, and a rule with an
//! exception the page leaves to the server (a warning).

use serde_json::{Value, json};
use std::path::Path;
use std::process::Command;

/// A page of one unit, `Xth Foot [foot]` at (0, 0) with a 12 in move,
/// whose reach lists `ground` over the outlines `outlines`.
fn page(outlines: Value, ground: Value) -> Value {
    json!({
        "head": {
            "game": "g", "step": 1, "side": "red", "side_name": "Red", "notice": "ab",
            "revision": 1, "ruleset": "test", "fingerprint": "SHA256:x",
            "measure": "in", "heading": "", "note": "",
        },
        "frame": {}, "outlines": {}, "template": "",
        "plan": {
            "units": [{
                "id": "foot", "label": "Xth Foot", "at": {"x": 0.0, "y": 0.0}, "facing": 0.0,
                "formation": "line",
                "reach": {"full": 12.0, "shape": "free", "ground": ground},
            }],
            "ground": outlines,
        },
    })
}

/// The problems the page finds with the unit dropped at each point, one
/// list per point: run through `GalloperOrders.problems` with a writer
/// that writes and checks nothing of its own.
fn problems(page: &Value, drops: &[(f64, f64)]) -> Vec<Vec<Value>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cases: Vec<Value> = drops
        .iter()
        .map(|(x, y)| {
            json!({"units": {"foot": {"move": {"x": x, "y": y, "facing": 0.0},
                "formation": "", "targets": {}, "fields": {}}}, "fields": {}})
        })
        .collect();
    let script = r#"
const fs = require('fs'), vm = require('vm');
const [write, input] = process.argv.slice(1);
vm.runInThisContext(fs.readFileSync(write, 'utf8'), {filename: write});
GalloperOrders.register('test', { write: () => ({}), check: () => [] });
const { page, cases } = JSON.parse(fs.readFileSync(input, 'utf8'));
process.stdout.write(JSON.stringify(cases.map((d) => GalloperOrders.problems(page, d))));
"#;
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("input.json");
    std::fs::write(&input, json!({"page": page, "cases": cases}).to_string()).expect("input");
    let out = Command::new("node")
        .arg("-e")
        .arg(script)
        .arg(root.join("site/orders/write.js"))
        .arg(&input)
        .output()
        .expect("node is needed for this test (apt-get install nodejs)");
    assert!(
        out.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("node's answer")
}

fn square(name: &str, x0: f64, y0: f64, x1: f64, y1: f64) -> Value {
    json!({"name": name, "points": [
        {"x": x0, "y": y0}, {"x": x1, "y": y0}, {"x": x1, "y": y1}, {"x": x0, "y": y1}]})
}

fn messages(found: &[Value]) -> Vec<String> {
    found
        .iter()
        .map(|p| p["message"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn a_move_through_ground_it_may_not_enter_is_an_error_and_one_round_it_is_not() {
    let p = page(
        json!([square("West wood", -2.0, 4.0, 2.0, 6.0)]),
        json!([{"outline": 0, "most": null, "why": "C.2 Woods: line infantry may not enter West wood"}]),
    );
    // Straight through (both ends outside), into it, round it.
    let got = problems(&p, &[(0.0, 10.0), (1.0, 5.0), (5.0, 10.0)]);
    for found in &got[..2] {
        assert_eq!(
            messages(found),
            ["Xth Foot [foot] enters West wood (C.2 Woods: line infantry may not enter West wood)"]
        );
        assert_eq!(found[0]["warning"], false);
        assert_eq!(found[0]["unit"], "foot");
    }
    assert!(got[2].is_empty(), "{:?}", got[2]);
}

#[test]
fn ground_that_caps_a_move_refuses_only_a_longer_move_that_enters_it() {
    let p = page(
        json!([square("Vieux-Pont", -5.0, 4.0, 5.0, 20.0)]),
        json!([{"outline": 0, "most": 6.0, "why": "C.5 Towns: at most 6\" in a move that enters Vieux-Pont"}]),
    );
    // 8 in into the town; 5 in into it; 10 in beside it, never entering.
    let got = problems(&p, &[(0.0, 8.0), (0.0, 5.0), (8.0, 6.0)]);
    assert_eq!(
        messages(&got[0]),
        [
            "Xth Foot [foot] moves 8 in into Vieux-Pont, more than 6 in (C.5 Towns: at most 6\" in a move that enters Vieux-Pont)"
        ]
    );
    assert!(got[1].is_empty(), "{:?}", got[1]);
    assert!(got[2].is_empty(), "{:?}", got[2]);
}

#[test]
fn ground_that_costs_double_counts_the_part_of_the_move_inside_it_twice() {
    let p = page(
        json!([square("Bois de Hal", -5.0, 6.0, 5.0, 20.0)]),
        json!([{"outline": 0, "most": 12.0, "cost": 2.0, "why": "difficult ground costs double"}]),
    );
    // 10 in with 4 in the wood counts 14; with 1 in it, 11.
    let got = problems(&p, &[(0.0, 10.0), (0.0, 7.0)]);
    assert_eq!(
        messages(&got[0]),
        [
            "Xth Foot [foot] moves 10 in into Bois de Hal, 4 in of it inside, counted 2 times: 14 in, more than 12 in (difficult ground costs double)"
        ]
    );
    assert!(got[1].is_empty(), "{:?}", got[1]);
}

#[test]
fn a_stream_is_crossed_where_the_move_comes_within_half_its_width() {
    let p = page(
        json!([{"name": "Mill stream", "line": 2.0, "points": [{"x": -20.0, "y": 5.0}, {"x": 20.0, "y": 5.0}]}]),
        json!([{"outline": 0, "most": null, "why": "C.4 Rivers: Mill stream is crossed only by a bridge"}]),
    );
    // Across it; to 0.5 in short of its line (inside its width); 1.5 in
    // short (clear of it).
    let got = problems(&p, &[(3.0, 8.0), (0.0, 4.5), (0.0, 3.5)]);
    for found in &got[..2] {
        assert_eq!(
            messages(found),
            [
                "Xth Foot [foot] enters Mill stream (C.4 Rivers: Mill stream is crossed only by a bridge)"
            ]
        );
    }
    assert!(got[2].is_empty(), "{:?}", got[2]);
}

#[test]
fn a_rule_with_an_exception_the_page_cannot_judge_is_a_warning() {
    let p = page(
        json!([square("Vieux-Pont", -2.0, 4.0, 2.0, 6.0)]),
        json!([{"outline": 0, "most": null, "soft": true, "why": "C.5 Towns: light cavalry enter Vieux-Pont only along the road"}]),
    );
    let got = problems(&p, &[(0.0, 10.0)]);
    assert_eq!(got[0].len(), 1, "{:?}", got[0]);
    assert_eq!(got[0][0]["warning"], true);
    assert!(
        messages(&got[0])[0].ends_with("only along the road); checked on receipt"),
        "{:?}",
        got[0]
    );
}

#[test]
fn a_plan_without_ground_checks_no_ground() {
    let mut p = page(json!([]), json!([]));
    p["plan"]["units"][0]["reach"]
        .as_object_mut()
        .expect("reach")
        .remove("ground");
    p["plan"].as_object_mut().expect("plan").remove("ground");
    let got = problems(&p, &[(0.0, 10.0)]);
    assert!(got[0].is_empty(), "{:?}", got[0]);
}

//! Each ruleset's walk through the orders page: what the player draws,
//! chosen from the page's own data, and where its state keeps a unit.

use super::{Case, Moved};
use serde_json::{Value, json};

/// A unit's `point_key` and `facing_key` in a state: the first mapping
/// anywhere in it whose `id` is `unit` and that has both.
pub fn find_unit(
    v: &serde_yaml::Value,
    unit: &str,
    point_key: &str,
    facing_key: &str,
) -> Option<(f64, f64, f64)> {
    use serde_yaml::Value as Y;
    match v {
        Y::Mapping(m) => {
            if m.get("id").and_then(Y::as_str) == Some(unit)
                && let (Some(p), Some(f)) = (m.get(point_key), m.get(facing_key))
            {
                let x = p.get("x").and_then(Y::as_f64)?;
                let y = p.get("y").and_then(Y::as_f64)?;
                return Some((x, y, f.as_f64()?));
            }
            m.values()
                .find_map(|c| find_unit(c, unit, point_key, facing_key))
        }
        Y::Sequence(s) => s
            .iter()
            .find_map(|c| find_unit(c, unit, point_key, facing_key)),
        _ => None,
    }
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or(0.0)
}

/// The common walk: the first unit with a target is given it; another
/// unit that may move, with no target of its own (so no enemy near), goes
/// `share` of its allowance (the shorter one when turning costs) straight
/// ahead and turns `turn` degrees.
pub fn auto(page: &Value, share: f64, turn: f64) -> Option<(Vec<Value>, Moved)> {
    let units = page["plan"]["units"].as_array()?;
    let shooter = units.iter().find(|u| {
        u["targets"].as_array().is_some_and(|t| {
            t.iter()
                .any(|k| !k["options"].as_array().unwrap().is_empty())
        })
    })?;
    let mover = units.iter().rev().find(|u| {
        u["id"] != shooter["id"]
            && u["reach"].is_object()
            && num(&u["reach"]["full"]) > 2.0
            && u["targets"].as_array().is_none_or(|t| t.is_empty())
    })?;
    let r = &mover["reach"];
    let allowance = if turn != 0.0 && r["turned"].is_number() {
        num(&r["turned"])
    } else {
        num(&r["full"])
    };
    let d = (allowance * share * 10.0).floor() / 10.0;
    let facing = num(&mover["facing"]);
    let (x0, y0) = (num(&mover["at"]["x"]), num(&mover["at"]["y"]));
    let rad = facing.to_radians();
    let x = ((x0 + d * rad.sin()) * 10.0).round() / 10.0;
    let y = ((y0 + d * rad.cos()) * 10.0).round() / 10.0;
    let new_facing = ((facing + turn).round() % 360.0 + 360.0) % 360.0;
    let t = &shooter["targets"][0];
    let id = mover["id"].as_str()?.to_string();
    let mut actions = vec![json!({"unit": id, "drag": {"x": x, "y": y}})];
    if turn != 0.0 {
        actions.push(json!({"unit": id, "facing": new_facing}));
    }
    actions.push(json!({"unit": shooter["id"], "target": {"kind": t["kind"], "id": t["options"][0]["value"]}}));
    Some((
        actions,
        Moved {
            unit: id,
            x,
            y,
            facing: if turn != 0.0 { new_facing } else { facing },
        },
    ))
}

pub fn napoleonic_corps() -> Case {
    Case {
        ruleset: "napoleonic-corps",
        steps: &[5, 7, 9, 11, 13],
        build: |page| auto(page, 0.5, 30.0),
        position: |s, u| find_unit(&s["units"], u, "at", "facing"),
        tolerance: 0.15,
        by_dice: false,
    }
}

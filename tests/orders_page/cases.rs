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
    walk(page, share, turn, false, false)
}

/// As [`auto`], with a unit on foot: horse whose move comes near the enemy
/// charges home instead (activation dice), which the page cannot foresee.
pub fn auto_on_foot(page: &Value, share: f64, turn: f64) -> Option<(Vec<Value>, Moved)> {
    walk(page, share, turn, false, true)
}

/// As [`auto`], but the unit moves `turn` degrees off its front and ends
/// facing the way it went (rulesets where a move sets the facing).
pub fn auto_along(page: &Value, share: f64, turn: f64) -> Option<(Vec<Value>, Moved)> {
    walk(page, share, turn, true, false)
}

fn walk(
    page: &Value,
    share: f64,
    turn: f64,
    along: bool,
    on_foot: bool,
) -> Option<(Vec<Value>, Moved)> {
    let units = page["plan"]["units"].as_array()?;
    // A target that needs nothing else drawn (not `found`, which asks
    // for an observation too).
    let aim = |t: &Value| {
        t["options"]
            .as_array()
            .and_then(|o| o.iter().find(|c| c["value"] != "found"))
            .cloned()
    };
    // Limbered guns are offered what they could shoot once unlimbered,
    // which takes an order of its own: a walk aims with a unit ready.
    let ready = |u: &&Value| u["formation"] != "limbered";
    let (shooter, kind, target) = units.iter().filter(ready).find_map(|u| {
        u["targets"]
            .as_array()?
            .iter()
            .find_map(|t| aim(t).map(|c| (u, t["kind"].clone(), c["value"].clone())))
    })?;
    // Of the units free to move with no enemy to aim at, the one whose
    // way ahead is farthest from every other unit of its side.
    let dest = |u: &Value| {
        let r = &u["reach"];
        let allowance = if turn != 0.0 && r["turned"].is_number() {
            num(&r["turned"])
        } else {
            num(&r["full"])
        };
        let d = (allowance * share * 10.0).floor() / 10.0;
        let rad = (num(&u["facing"]) + if along { turn } else { 0.0 }).to_radians();
        let x = ((num(&u["at"]["x"]) + d * rad.sin()) * 10.0).round() / 10.0;
        let y = ((num(&u["at"]["y"]) + d * rad.cos()) * 10.0).round() / 10.0;
        (x, y)
    };
    let clearance = |u: &Value| {
        let (x0, y0) = (num(&u["at"]["x"]), num(&u["at"]["y"]));
        let (x1, y1) = dest(u);
        units
            .iter()
            .filter(|o| o["id"] != u["id"])
            .map(|o| {
                let (px, py) = (num(&o["at"]["x"]), num(&o["at"]["y"]));
                (0..=10)
                    .map(|i| {
                        let t = f64::from(i) / 10.0;
                        (x0 + t * (x1 - x0) - px).hypot(y0 + t * (y1 - y0) - py)
                    })
                    .fold(f64::INFINITY, f64::min)
            })
            .fold(f64::INFINITY, f64::min)
    };
    let mover = units
        .iter()
        .filter(|u| {
            u["id"] != shooter["id"]
                && u["reach"].is_object()
                && num(&u["reach"]["full"]) > 2.0
                // Baggage is stopped by most ground (woods, towns): the
                // walk wants a move that the ground lets through.
                && !u["label"].as_str().unwrap_or("").to_lowercase().contains("baggage")
                && !(on_foot && u["formation"] == "mounted")
        })
        .max_by(|a, b| clearance(a).total_cmp(&clearance(b)))?;
    let facing = num(&mover["facing"]);
    let (x, y) = dest(mover);
    let new_facing = ((facing + turn).round() % 360.0 + 360.0) % 360.0;
    let id = mover["id"].as_str()?.to_string();
    let mut actions = vec![json!({"unit": id, "drag": {"x": x, "y": y}})];
    if turn != 0.0 && !along {
        actions.push(json!({"unit": id, "facing": new_facing}));
    }
    actions.push(json!({"unit": shooter["id"], "target": {"kind": kind, "id": target}}));
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
        // Its turn goes on after the moves: a unit that met an enemy
        // fights, and may be pushed back before the step ends.
        refused_by_ground: None,
        stoppable: true,
    }
}

pub fn morschauser_macduff() -> Case {
    Case {
        ruleset: "morschauser-macduff",
        steps: &[3, 5, 7, 9],
        // A short move: the crossroads' hills and streams stop longer
        // ones, which the page leaves to the server (and the walk would
        // then measure the ground, not the page).
        build: |page| auto(page, 0.2, 30.0),
        position: |s, u| find_unit(&s["companies"], u, "at", "facing"),
        tolerance: 0.15,
        refused_by_ground: None,
        stoppable: true,
    }
}

pub fn crowther_dougan() -> Case {
    Case {
        ruleset: "crowther-dougan",
        steps: &[3, 5, 7, 9, 11],
        build: |page| auto_along(page, 0.4, 30.0),
        position: |s, u| find_unit(&s["units"], u, "at", "facing"),
        tolerance: 0.15,
        refused_by_ground: None,
        stoppable: true,
    }
}

pub fn maurice_lite() -> Case {
    Case {
        ruleset: "maurice-lite",
        steps: &[7, 9, 11, 13],
        build: maurice_walk,
        position: |s, u| find_unit(&s["units"], u, "anchor", "facing"),
        tolerance: 0.15,
        refused_by_ground: Some("a force is all in ground of the same effect"),
        stoppable: true,
    }
}

/// Maurice Lite gives one command a round: a Charge, with a neighbour of
/// the charging unit (the same frame, so the same arm and formation, and
/// within 2 BW: one force) supporting it with a short wheel to its left,
/// a drop the rules' forward, wheel, forward reaches.
fn maurice_walk(page: &Value) -> Option<super::Walk> {
    let units = page["plan"]["units"].as_array()?;
    let frames = &page["plan"]["extra"]["units"];
    let (charger, target) = units.iter().find_map(|u| {
        let t = u["targets"]
            .as_array()?
            .iter()
            .find(|t| t["kind"] == "charge")?;
        Some((u, t["options"][0]["value"].clone()))
    })?;
    let frame = &frames[charger["id"].as_str()?];
    let width = num(&frame["width"]);
    let at = |u: &Value| (num(&u["at"]["x"]), num(&u["at"]["y"]));
    let (cx, cy) = at(charger);
    let mover = units.iter().find(|u| {
        let (x, y) = at(u);
        u["id"] != charger["id"]
            && u["reach"].is_object()
            && frames[u["id"].as_str().unwrap_or("")] == *frame
            && (x - cx).hypot(y - cy) <= width + 2.0
    })?;
    let f = num(&mover["facing"]);
    let (x, y) = at(mover);
    let (s, c) = f.to_radians().sin_cos();
    // 0.5 ahead, then 10 degrees about the left front corner, then 0.5.
    let (ax, ay) = (x + 0.5 * s, y + 0.5 * c);
    let (px, py) = (ax - c * width / 2.0, ay + s * width / 2.0);
    let (dx, dy) = (ax - px, ay - py);
    let (rs, rc) = (-10f64).to_radians().sin_cos();
    let (wx, wy) = (px + dx * rc + dy * rs, py - dx * rs + dy * rc);
    let (s2, c2) = (f - 10.0).to_radians().sin_cos();
    let round = |v: f64| (v * 10.0).round() / 10.0;
    let (ex, ey) = (round(wx + 0.5 * s2), round(wy + 0.5 * c2));
    let facing = ((f - 10.0) % 360.0 + 360.0) % 360.0;
    let id = mover["id"].as_str()?.to_string();
    Some((
        vec![
            json!({"unit": id, "drag": {"x": ex, "y": ey}}),
            json!({"unit": id, "facing": facing}),
            json!({"unit": charger["id"], "target": {"kind": "charge", "id": target}}),
        ],
        Moved {
            unit: id,
            x: ex,
            y: ey,
            facing,
        },
    ))
}

pub fn activation_dice() -> Case {
    Case {
        ruleset: "activation-dice",
        steps: &[3, 5, 7, 9, 11],
        // The mover is ticked to activate first: a turnover of a unit
        // before it would end the side's activations with it unmoved.
        build: |page| {
            let (mut actions, moved) = auto_on_foot(page, 0.3, 30.0)?;
            actions.push(json!({"field": "sequence", "tick": moved.unit}));
            Some((actions, moved))
        },
        position: |s, u| find_unit(&s["units"], u, "at", "facing"),
        tolerance: 0.15,
        // Each success is a die: a failed activation keeps the unit.
        refused_by_ground: None,
        stoppable: true,
    }
}

//! Forces and their activation (chapters 1 and 4): who may act together, and
//! how far they stand from the CinC by a path that keeps clear of the enemy.

use super::scenario::is_difficult;
use super::state::State;
use super::units::{FORCE_LINK, PATH_CLEARANCE, Unit};
use crate::geometry::{Base, Frame, Point, bases_distance};
use crate::ruleset::Violation;
use crate::side::SideId;
use geo::{Contains, Intersects, Line, Polygon, coord};

pub mod rule {
    pub const FORCE: &str =
        "1. Forces: same arm, same formation, same terrain effect, each within 2 BW of another";
    pub const ACTIVATION: &str = "4. Activating a force: cards whose spans reach the force";
}

fn err(rule: &str, msg: impl Into<String>) -> Violation {
    Violation::new(&["force"], None, rule, msg)
}

/// Whether a unit stands (even partly) in difficult terrain.
pub fn in_difficult(state: &State, unit: &Unit) -> bool {
    let bases = unit.bases(&state.scenario.measure);
    state
        .scenario
        .terrain
        .iter()
        .any(|t| is_difficult(t) && t.touches_bases(&bases))
}

/// Check that `ids` make a legal force of `side`; returns the units.
pub fn check_force<'a>(
    state: &'a State,
    side: &SideId,
    ids: &[String],
) -> Result<Vec<&'a Unit>, Violation> {
    if ids.is_empty() {
        return Err(err(rule::FORCE, "name at least one unit in `force`"));
    }
    let mut units = Vec::new();
    for id in ids {
        let u = state.unit(id).filter(|u| &u.side == side).ok_or_else(|| {
            Violation::new(
                &["force"],
                Some(id),
                rule::FORCE,
                format!("{id} is not a unit of this side"),
            )
        })?;
        if !u.on_table() {
            return Err(Violation::new(
                &["force"],
                Some(id),
                rule::FORCE,
                format!("{} is broken or not on the table", u.short()),
            ));
        }
        if units.iter().any(|v: &&Unit| v.id == u.id) {
            return Err(Violation::new(
                &["force"],
                Some(id),
                rule::FORCE,
                format!("{} is named twice", u.short()),
            ));
        }
        units.push(u);
    }
    let first = units[0];
    let first_difficult = in_difficult(state, first);
    for u in &units[1..] {
        if u.arm != first.arm {
            return Err(Violation::new(
                &["force"],
                Some(&u.id),
                rule::FORCE,
                format!(
                    "a force is all one arm: {} is {}, {} is {}",
                    first.short(),
                    first.arm.label(),
                    u.short(),
                    u.arm.label()
                ),
            ));
        }
        if u.formation != first.formation {
            return Err(Violation::new(
                &["force"],
                Some(&u.id),
                rule::FORCE,
                format!(
                    "a force is all in one formation: {} is in {}, {} in {}",
                    first.short(),
                    first.formation.label(),
                    u.short(),
                    u.formation.label()
                ),
            ));
        }
        if in_difficult(state, u) != first_difficult {
            return Err(Violation::new(
                &["force"],
                Some(&u.id),
                rule::FORCE,
                format!(
                    "a force is all in ground of the same effect: {} and {} are not",
                    first.short(),
                    u.short()
                ),
            ));
        }
    }
    // Linked: every unit reachable from the first through steps of 2 BW or less.
    let m = state.scenario.measure;
    let bases: Vec<Vec<Base>> = units.iter().map(|u| u.bases(&m)).collect();
    let mut reached = vec![false; units.len()];
    reached[0] = true;
    let mut frontier = vec![0];
    while let Some(i) = frontier.pop() {
        for j in 0..units.len() {
            if !reached[j] && bases_distance(&bases[i], &bases[j]).get() <= FORCE_LINK.get() + 1e-9
            {
                reached[j] = true;
                frontier.push(j);
            }
        }
    }
    if let Some(j) = reached.iter().position(|r| !r) {
        return Err(Violation::new(
            &["force"],
            Some(&units[j].id),
            rule::FORCE,
            format!(
                "{} is not within 2 BW of any other unit of the force",
                units[j].short()
            ),
        ));
    }
    Ok(units)
}

/// The shortest distance in BW from the CinC to the nearest unit of the force
/// along a path that never passes within 1 BW of an enemy unit; `None` when
/// no such path exists.
pub fn activation_distance(state: &State, side: &SideId, force: &[&Unit]) -> Option<f64> {
    let m = state.scenario.measure;
    let cinc = state.army(side)?.cinc?;
    // Each enemy unit's frame grown by the clearance: the string may run along
    // its edge but not inside (house rule: the margin is square at the corners).
    let c = PATH_CLEARANCE.get();
    let blockers: Vec<Polygon<f64>> = state
        .enemies(side)
        .map(|e| grown(&Frame::of(&e.bases(&m)), c - 1e-6))
        .collect();
    let mut nodes: Vec<Point> = vec![cinc];
    for e in state.enemies(side) {
        nodes.extend(grown_corners(&Frame::of(&e.bases(&m)), c + 1e-4));
    }
    let targets: Vec<Polygon<f64>> = force
        .iter()
        .flat_map(|u| u.bases(&m))
        .map(|b| b.polygon())
        .collect();
    // Blockers that hold the CinC or a target are ignored: the string starts and ends there.
    let ignore: Vec<bool> = blockers
        .iter()
        .map(|b| {
            b.contains(&geo::Point::new(cinc.x, cinc.y)) || targets.iter().any(|t| b.intersects(t))
        })
        .collect();
    let clear = |a: Point, b: Point| -> bool {
        let line = Line::new(coord! {x: a.x, y: a.y}, coord! {x: b.x, y: b.y});
        blockers
            .iter()
            .zip(&ignore)
            .all(|(p, ig)| *ig || !p.intersects(&line))
    };
    let n = nodes.len();
    let mut best = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    best[0] = 0.0;
    let mut answer = f64::INFINITY;
    for _ in 0..n {
        let Some(i) = (0..n)
            .filter(|i| !done[*i])
            .min_by(|a, b| best[*a].total_cmp(&best[*b]))
        else {
            break;
        };
        if !best[i].is_finite() || best[i] >= answer {
            break;
        }
        done[i] = true;
        let here = nodes[i];
        for t in &targets {
            let (d, q) = nearest_on(t, here);
            if best[i] + d < answer && clear(here, q) {
                answer = best[i] + d;
            }
        }
        for j in 0..n {
            if !done[j] {
                let d = here.distance_to(nodes[j]).get();
                if best[i] + d < best[j] && clear(here, nodes[j]) {
                    best[j] = best[i] + d;
                }
            }
        }
    }
    answer.is_finite().then_some(answer)
}

/// BW to pay: whole base widths, a fraction counting as a whole (chapter 1),
/// and never below one card's worth.
pub fn cost(distance: f64) -> u32 {
    (distance - 1e-9).ceil().max(0.0) as u32
}

fn grown_corners(f: &Frame, by: f64) -> [Point; 4] {
    let fwd = f.facing.unit_vector();
    let right = f.facing.right_vector();
    let half = f.width.get() / 2.0 + by;
    let front = f.anchor + fwd.scale(by);
    let rear = f.anchor - fwd.scale(f.depth.get() + by);
    [
        front - right.scale(half),
        front + right.scale(half),
        rear + right.scale(half),
        rear - right.scale(half),
    ]
}

fn grown(f: &Frame, by: f64) -> Polygon<f64> {
    let c = grown_corners(f, by);
    Polygon::new(
        c.iter()
            .chain(c.first())
            .map(|p| coord! {x: p.x, y: p.y})
            .collect::<Vec<_>>()
            .into(),
        vec![],
    )
}

fn nearest_on(poly: &Polygon<f64>, p: Point) -> (f64, Point) {
    use geo::{Closest, ClosestPoint};
    let gp = geo::Point::new(p.x, p.y);
    match poly.closest_point(&gp) {
        Closest::Intersection(q) | Closest::SinglePoint(q) => (
            p.distance_to(Point::new(q.x(), q.y())).get(),
            Point::new(q.x(), q.y()),
        ),
        Closest::Indeterminate => (f64::INFINITY, p),
    }
}

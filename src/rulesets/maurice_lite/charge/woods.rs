//! Cavalry and woods (chapter 8): no charge into woods, at a base wholly in
//! woods, or onto an edge lying wholly in woods.

use super::super::area;
use super::super::state::State;
use super::super::units::Unit;
use super::eligibility::refuse;
use super::ground::{holds_point, is_woods};
use super::{EDGE, TOUCH, rule};
use crate::geometry::contact::contact_points;
use crate::geometry::{Base, Point};
use crate::ruleset::Violation;
use geo::BooleanOps;

/// Cavalry charges neither into woods, nor a base standing wholly in woods,
/// nor onto an edge of a base that lies wholly in woods.
pub fn cavalry_and_woods(
    now: &State,
    unit: &Unit,
    start: &[Base],
    swept: &geo::MultiPolygon<f64>,
    end: &[Base],
    touched: &[&(&Unit, Vec<Base>)],
) -> Result<(), Violation> {
    let id = unit.id.as_str();
    let woods: Vec<_> = now
        .scenario
        .terrain
        .iter()
        .filter(|t| is_woods(t))
        .collect();
    if woods.is_empty() {
        return Ok(());
    }
    // Only ground newly entered counts: cavalry may leave a wood it stands in.
    let new_ground = swept.difference(&area::of_bases(start));
    if let Some(w) = woods.iter().find(|w| w.intersects_area(&new_ground)) {
        return Err(refuse(
            id,
            rule::CAVALRY_WOODS,
            format!("cavalry may not charge into {}", w.name),
        ));
    }
    for (e, eb) in touched {
        for b in eb {
            let meets: Vec<Point> = end
                .iter()
                .flat_map(|a| contact_points(a, b, TOUCH))
                .collect();
            if meets.is_empty() {
                continue;
            }
            if let Some(w) = woods
                .iter()
                .find(|w| w.contains_bases(std::slice::from_ref(b)))
            {
                return Err(refuse(
                    id,
                    rule::CAVALRY_WOODS,
                    format!(
                        "a base of {} stands wholly in {}: cavalry may not charge it",
                        e.short(),
                        w.name
                    ),
                ));
            }
            let c = b.corners();
            for i in 0..4 {
                let (p, q) = (c[i], c[(i + 1) % 4]);
                if !meets.iter().all(|x| on_segment(*x, p, q)) {
                    continue;
                }
                if let Some(w) = woods
                    .iter()
                    .find(|w| (0..=8).all(|k| holds_point(w, p.lerp(q, k as f64 / 8.0))))
                {
                    return Err(refuse(
                        id,
                        rule::CAVALRY_WOODS,
                        format!(
                            "it would meet {} on an edge lying wholly in {}",
                            e.short(),
                            w.name
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

fn on_segment(x: Point, p: Point, q: Point) -> bool {
    let d = q - p;
    let len2 = d.dot(d);
    if len2 < 1e-18 {
        return (x - p).length() < EDGE;
    }
    let t = ((x - p).dot(d) / len2).clamp(0.0, 1.0);
    (p.lerp(q, t) - x).length() < EDGE
}

//! Engagement (chapter 8): who fights whom once the charges are in, who is
//! flanked, and who has cover.

use super::super::state::State;
use super::super::units::Unit;
use super::cover::has_cover;
use super::report::Engagement;
use super::{EDGE, TOUCH};
use crate::geometry::contact::{clip_convex, contact_points, segment_crosses};
use crate::geometry::{Base, Frame, Point, bases_distance};

/// Target points on an enemy are this far apart for the corner-lines test.
const SPACING: f64 = 0.02;
/// The corner lines keep this far inside the flank lines of the base they
/// start from, so that a line grazing a neighbour's edge is not "clear".
const INSET: f64 = 1e-3;

/// How an attacker touches an enemy.
struct Touch {
    /// Some point of contact lies on the attacker's front edge.
    front: bool,
    /// Some point of contact lies on the enemy's flank or rear edge.
    flank: bool,
}

/// The engagements of each attacker, in the order given; defenders of each
/// attacker in scenario order.
///
/// An attacker is engaged with every enemy touching its front edge; if there
/// is at least one, also with every other enemy that passes the corner-lines
/// test: from the front corners of one of its front-rank bases, two lines
/// staying directly in front of that base reach the enemy within 1 BW
/// without first passing through any other unit of either side. (The source
/// gives this test for packed defenders; it also serves as the definition of
/// "directly in front and within 1 BW".)
pub fn engagements(state: &State, attackers: &[String]) -> Vec<Engagement> {
    let m = state.scenario.measure;
    let mut out = Vec::new();
    for id in attackers {
        let Some(a) = state.unit(id).filter(|u| u.on_table()) else {
            continue;
        };
        let ab = a.bases(&m);
        let frame = Frame::of(&ab);
        let enemies: Vec<&Unit> = state.enemies(&a.side).collect();
        let touches: Vec<Option<Touch>> = enemies
            .iter()
            .map(|e| touch(&ab, &frame, &e.bases(&m), &Frame::of(&e.bases(&m))))
            .collect();
        if !touches.iter().flatten().any(|t| t.front) {
            continue;
        }
        for (e, t) in enemies.iter().zip(&touches) {
            let contact = t.as_ref().is_some_and(|t| t.front);
            if !contact && !corner_lines(state, a, &ab, e) {
                continue;
            }
            out.push(Engagement {
                attacker: a.id.clone(),
                defender: e.id.clone(),
                contact,
                flanked: t.as_ref().is_some_and(|t| t.flank),
                cover: has_cover(state, a, e),
            });
        }
    }
    out
}

fn touch(ab: &[Base], af: &Frame, eb: &[Base], ef: &Frame) -> Option<Touch> {
    if bases_distance(ab, eb).get() >= TOUCH {
        return None;
    }
    let points: Vec<Point> = ab
        .iter()
        .flat_map(|a| eb.iter().flat_map(move |b| contact_points(a, b, TOUCH)))
        .collect();
    if points.is_empty() {
        return None;
    }
    Some(Touch {
        front: points.iter().any(|p| af.local(*p).0 >= -EDGE),
        flank: points.iter().any(|p| ef.local(*p).0 < -EDGE),
    })
}

/// The corner-lines test of chapter 8 (quirks of engagement).
fn corner_lines(state: &State, a: &Unit, ab: &[Base], enemy: &Unit) -> bool {
    let m = state.scenario.measure;
    let reach = m.base_width.get() + 1e-6;
    let frame = Frame::of(ab);
    let eb = enemy.bases(&m);
    let blockers: Vec<Base> = state
        .units
        .iter()
        .filter(|u| u.on_table() && u.id != a.id && u.id != enemy.id)
        .flat_map(|u| u.bases(&m))
        .collect();
    let front_rank = ab
        .iter()
        .filter(|b| frame.local(b.front_center()).0.abs() < EDGE);
    for b in front_rank {
        let (fl, fr) = b.front_edge();
        let (u, r) = (b.facing.unit_vector(), b.facing.right_vector());
        let (il, ir) = (fl + r.scale(INSET), fr - r.scale(INSET));
        let strip = [il, ir, ir + u.scale(reach), il + u.scale(reach)];
        let targets: Vec<Point> = eb
            .iter()
            .map(|e| clip_convex(&e.corners(), &strip))
            .filter(|q| q.len() >= 2)
            .flat_map(|q| boundary(&q))
            .collect();
        if targets.is_empty() {
            continue;
        }
        let clear = |c: Point| {
            targets
                .iter()
                .any(|p| blockers.iter().all(|x| !segment_crosses(c, *p, x)))
        };
        if clear(fl) && clear(fr) {
            return true;
        }
    }
    false
}

/// Points every [`SPACING`] round a convex outline.
fn boundary(q: &[Point]) -> Vec<Point> {
    let mut out = Vec::new();
    for i in 0..q.len() {
        let (a, b) = (q[i], q[(i + 1) % q.len()]);
        let n = (((b - a).length() / SPACING).ceil() as usize).max(1);
        out.extend((0..n).map(|k| a.lerp(b, k as f64 / n as f64)));
    }
    out
}

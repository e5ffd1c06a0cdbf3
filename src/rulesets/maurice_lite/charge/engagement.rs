//! Engagement (chapter 8): who fights whom once the charges are in, who is
//! flanked, and who has cover.

use super::super::state::State;
use super::super::units::Unit;
use super::cover::has_cover;
use super::report::Engagement;
use super::{EDGE, TOUCH};
use crate::geometry::contact::{clip_convex, contact_points, segment_crosses};
use crate::geometry::{Base, Bounds, BoxIndex, Frame, Point};

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
    let table = Layout::of(state);
    let reach = state.scenario.measure.base_width.get() + 1e-6;
    let mut out = Vec::new();
    for id in attackers {
        let Some(ai) = table.units.iter().position(|u| &u.id == id) else {
            continue;
        };
        let (a, ab) = (table.units[ai], &table.bases[ai]);
        let Some(abox) = Bounds::of_points(ab.iter().flat_map(|b| b.corners())) else {
            continue;
        };
        let frame = Frame::of(ab);
        // Only an enemy whose box comes within 1 BW can touch the attacker
        // or be reached by its corner lines: the others are never engaged.
        let enemies: Vec<usize> = table
            .boxes
            .near(&abox, reach.max(TOUCH))
            .into_iter()
            .filter(|&i| table.units[i].side != a.side)
            .collect();
        let touches: Vec<Option<Touch>> = enemies
            .iter()
            .map(|&e| touch(ab, &frame, &table.bases[e], &Frame::of(&table.bases[e])))
            .collect();
        if !touches.iter().flatten().any(|t| t.front) {
            continue;
        }
        for (&ei, t) in enemies.iter().zip(&touches) {
            let e = table.units[ei];
            let contact = t.as_ref().is_some_and(|t| t.front);
            if !contact && !corner_lines(&table, reach, ai, ei) {
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

/// The units on the table laid out once for all of a charge's engagements,
/// with their boxes and their bases' boxes indexed (spatial pruning: every
/// answer is the one a scan of the table would give).
struct Layout<'s> {
    /// Units on the table, in table order.
    units: Vec<&'s Unit>,
    /// Each unit's bases, by its place in `units`.
    bases: Vec<Vec<Base>>,
    /// Unit boxes, by place in `units`.
    boxes: BoxIndex,
    /// Every base with the place of its unit.
    every_base: Vec<(Base, usize)>,
    /// Base boxes, by place in `every_base`.
    base_boxes: BoxIndex,
}

impl<'s> Layout<'s> {
    fn of(state: &'s State) -> Layout<'s> {
        let m = state.scenario.measure;
        let units: Vec<&Unit> = state.units.iter().filter(|u| u.on_table()).collect();
        let bases: Vec<Vec<Base>> = units.iter().map(|u| u.bases(&m)).collect();
        let boxes = BoxIndex::new(bases.iter().enumerate().filter_map(|(i, bs)| {
            Bounds::of_points(bs.iter().flat_map(|b| b.corners())).map(|b| (b, i))
        }));
        let every_base: Vec<(Base, usize)> = bases
            .iter()
            .enumerate()
            .flat_map(|(i, bs)| bs.iter().map(move |b| (*b, i)))
            .collect();
        let base_boxes = BoxIndex::new(
            every_base
                .iter()
                .enumerate()
                .map(|(k, (b, _))| (Bounds::of_base(b), k)),
        );
        Layout {
            units,
            bases,
            boxes,
            every_base,
            base_boxes,
        }
    }
}

fn touch(ab: &[Base], af: &Frame, eb: &[Base], ef: &Frame) -> Option<Touch> {
    if !super::super::prune::closer_than(ab, eb, TOUCH) {
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

/// The corner-lines test of chapter 8 (quirks of engagement): attacker and
/// enemy by their places in the layout.
fn corner_lines(table: &Layout, reach: f64, ai: usize, ei: usize) -> bool {
    let ab = &table.bases[ai];
    let frame = Frame::of(ab);
    let eb = &table.bases[ei];
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
        // Every corner line lies in the strip and its two corners: only the
        // bases whose boxes meet that area can stand in the way.
        let Some(area) = Bounds::of_points(strip.into_iter().chain([fl, fr])) else {
            continue;
        };
        let blockers: Vec<&Base> = table
            .base_boxes
            .near(&area, 0.0)
            .into_iter()
            .map(|k| &table.every_base[k])
            .filter(|(_, owner)| *owner != ai && *owner != ei)
            .map(|(x, _)| x)
            .collect();
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

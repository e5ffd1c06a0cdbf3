//! Cheap tests that rule a pair of units out before the exact geometry is
//! worked out, so that a big table is not measured polygon by polygon for
//! every charger. Each test only ever says "surely not": when it lets a pair
//! through, the caller's exact test decides as before, so no rule's answer
//! changes.

use crate::geometry::{Base, Bounds, Point, bases_distance};

/// Far above float rounding, far below any distance the rules measure.
const SLACK: f64 = 1e-3;

/// The box round a group of bases; none for no bases.
pub fn group_box(bases: &[Base]) -> Option<Bounds> {
    Bounds::of_points(bases.iter().flat_map(|b| b.corners()))
}

/// Exactly `bases_distance(a, b) < d`, skipping the polygons when the
/// boxes are already at least `d` apart (the box gap never exceeds the
/// true distance).
pub fn closer_than(a: &[Base], b: &[Base], d: f64) -> bool {
    if let (Some(x), Some(y)) = (group_box(a), group_box(b))
        && x.gap(&y) > d + SLACK
    {
        return false;
    }
    bases_distance(a, b).get() < d
}

/// Exactly `bases_distance(a, b) <= d`, with the same pruning.
pub fn within(a: &[Base], b: &[Base], d: f64) -> bool {
    if let (Some(x), Some(y)) = (group_box(a), group_box(b))
        && x.gap(&y) > d + SLACK
    {
        return false;
    }
    bases_distance(a, b).get() <= d
}

/// Whether two known boxes are surely more than `d` apart.
fn boxes_apart(abox: Option<Bounds>, bbox: Option<Bounds>, d: f64) -> bool {
    matches!((abox, bbox), (Some(x), Some(y)) if x.gap(&y) > d + SLACK)
}

/// [`closer_than`] with both groups' boxes (from [`group_box`]) already
/// known, for callers that keep them.
pub fn closer_than_boxed(
    a: &[Base],
    abox: Option<Bounds>,
    b: &[Base],
    bbox: Option<Bounds>,
    d: f64,
) -> bool {
    !boxes_apart(abox, bbox, d) && bases_distance(a, b).get() < d
}

/// [`within`] with both groups' boxes (from [`group_box`]) already known.
pub fn within_boxed(
    a: &[Base],
    abox: Option<Bounds>,
    b: &[Base],
    bbox: Option<Bounds>,
    d: f64,
) -> bool {
    !boxes_apart(abox, bbox, d) && bases_distance(a, b).get() <= d
}

/// The shadow of a moving group across its direction, worked out once so
/// that many fixed groups can be ruled out by their boxes alone before
/// [`may_meet`] looks at their bases.
pub struct Lane {
    across: Point,
    lo: f64,
    hi: f64,
}

impl Lane {
    /// None when the direction is degenerate or anything is NaN: then
    /// every pair must go to [`may_meet`].
    pub fn new(moving: &[Base], dir: Point) -> Option<Lane> {
        let len = dir.length();
        if len.is_nan() || len <= 1e-12 {
            return None;
        }
        let across = Point::new(-dir.y / len, dir.x / len);
        let (lo, hi) = shadow(moving.iter().flat_map(|b| b.corners()), across);
        (!lo.is_nan() && !hi.is_nan() && lo.is_finite() && hi.is_finite()).then_some(Lane {
            across,
            lo,
            hi,
        })
    }

    /// False only when [`may_meet`] is surely false for any bases inside
    /// `b`: the box's shadow (which holds theirs) is apart from the lane by
    /// twice the slack, so rounding cannot bring them together.
    pub fn may_meet_box(&self, b: Option<Bounds>) -> bool {
        let Some(b) = b else { return true };
        let corners = [
            b.min,
            Point::new(b.max.x, b.min.y),
            b.max,
            Point::new(b.min.x, b.max.y),
        ];
        let (lo, hi) = shadow(corners.into_iter(), self.across);
        if lo.is_nan() || hi.is_nan() {
            return true;
        }
        !(self.hi + 2.0 * SLACK < lo || hi + 2.0 * SLACK < self.lo)
    }
}

fn shadow(points: impl Iterator<Item = Point>, across: Point) -> (f64, f64) {
    points
        .map(|c| c.dot(across))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        })
}

/// False only when `moving`, slid any distance along `dir` (either way),
/// can never come within [`SLACK`] of `fixed`: their shadows across `dir`
/// are apart. Travel intervals of such a pair are all empty, for any of the
/// margins the rules use (all far below the slack).
pub fn may_meet(moving: &[Base], fixed: &[Base], dir: Point) -> bool {
    let len = dir.length();
    if len.is_nan() || len <= 1e-12 {
        return true;
    }
    let across = Point::new(-dir.y / len, dir.x / len);
    let shadow = |bs: &[Base]| {
        bs.iter()
            .flat_map(|b| b.corners())
            .map(|c| c.dot(across))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                (lo.min(v), hi.max(v))
            })
    };
    let (a0, a1) = shadow(moving);
    let (b0, b1) = shadow(fixed);
    // NaN anywhere: let the exact test decide.
    if [a0, a1, b0, b1].iter().any(|v| v.is_nan()) {
        return true;
    }
    !(a1 + SLACK < b0 || b1 + SLACK < a0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::contact::{first_touch, travel_interval};
    use crate::geometry::{Angle, Distance};

    fn base(x: f64, y: f64, turn: f64) -> Base {
        Base::new(Point::new(x, y), Angle(turn), Distance(1.0), Distance(0.75))
    }

    /// Chapter 8 (charge move, falling back): pruning never changes who a
    /// sliding unit meets, nor whether two units are within a distance.
    #[test]
    fn pruning_agrees_with_the_exact_tests() {
        let dir = Point::new(0.0, 1.0);
        let mover = [base(0.0, 0.0, 0.0), base(1.0, 0.0, 0.0)];
        let mut met = 0;
        let mut pruned = 0;
        let mut lane_pruned = 0;
        for i in -12..=12 {
            for turn in [0.0, 30.0, 90.0, 180.0] {
                let other = [base(i as f64 * 0.37, 3.0, turn)];
                let exact_touch = first_touch(&mover, &other, dir);
                let exact_any = mover.iter().any(|a| {
                    other
                        .iter()
                        .any(|b| travel_interval(a, b, dir, -1e-6).is_some())
                });
                if !may_meet(&mover, &other, dir) {
                    pruned += 1;
                    assert_eq!(exact_touch, None, "at {i}, {turn}");
                    assert!(!exact_any, "at {i}, {turn}");
                } else if exact_touch.is_some() {
                    met += 1;
                }
                for d in [0.0, 1e-5, 1.0, 2.25, 4.0] {
                    let exact = bases_distance(&mover, &other).get();
                    assert_eq!(closer_than(&mover, &other, d), exact < d);
                    assert_eq!(within(&mover, &other, d), exact <= d);
                    let (ma, ob) = (group_box(&mover), group_box(&other));
                    assert_eq!(closer_than_boxed(&mover, ma, &other, ob, d), exact < d);
                    assert_eq!(within_boxed(&mover, ma, &other, ob, d), exact <= d);
                }
                let lane = Lane::new(&mover, dir).expect("a lane");
                if !lane.may_meet_box(group_box(&other)) {
                    lane_pruned += 1;
                    assert!(!may_meet(&mover, &other, dir), "at {i}, {turn}");
                }
            }
        }
        assert!(met > 0 && pruned > 0, "both kinds of pair were tried");
        assert!(lane_pruned > 0, "the lane ruled some pairs out");
    }
}

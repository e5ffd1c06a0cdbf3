//! Contact between bases that move in straight lines: how far a base can
//! travel before it meets another, where two touching bases meet, whether a
//! straight segment passes through a base, and clipping one convex outline by
//! another.
//!
//! Travel is worked out exactly on the Minkowski difference of the two
//! rectangles (a convex polygon): a base moved by `t * dir` meets another
//! exactly when `t * dir` lies in that polygon, so the range of `t` is a line
//! clipped by a convex polygon. No sampling, so no contact is stepped over.

use super::base::Base;
use super::convert::EPS;
use super::measure::Point;

/// The range of travel `t` along `dir` (made a unit vector here) over which
/// `moving`, moved by `t * dir`, meets `fixed`. With a positive `margin` the
/// bases count as meeting when closer than `margin` (contact); with a negative
/// one only when they overlap by more than `-margin` (interpenetration).
/// `None` when they never meet, or when `dir` has no length.
pub fn travel_interval(moving: &Base, fixed: &Base, dir: Point, margin: f64) -> Option<(f64, f64)> {
    let len = dir.length();
    if len < 1e-12 {
        return None;
    }
    let dir = dir.scale(1.0 / len);
    let mut diffs = Vec::with_capacity(16);
    for b in fixed.corners() {
        for a in moving.corners() {
            diffs.push(b - a);
        }
    }
    let m = convex_hull(diffs);
    clip_line(&m, Point::new(0.0, 0.0), dir, margin)
}

/// How far `moving` can travel along `dir` before some base of it first
/// touches some base of `fixed`: zero when they already touch, `None` when
/// they never will.
pub fn first_touch(moving: &[Base], fixed: &[Base], dir: Point) -> Option<f64> {
    moving
        .iter()
        .flat_map(|a| fixed.iter().map(move |b| (a, b)))
        .filter_map(|(a, b)| {
            // The tolerance decides whether they meet at all (sliding flush
            // past counts); the exact outline, when it answers, says where.
            let (lo, hi) = travel_interval(a, b, dir, EPS)?;
            if hi < 0.0 {
                return None;
            }
            let at = match travel_interval(a, b, dir, 0.0) {
                Some((exact, _)) => exact,
                None => lo + EPS,
            };
            Some(at.max(0.0))
        })
        .min_by(f64::total_cmp)
}

/// Where two bases that touch meet: the corners of each that lie on the
/// other (within `tol`). The ends of any shared stretch of edge are among
/// them, so they describe the whole contact. Empty when the bases are apart.
pub fn contact_points(a: &Base, b: &Base, tol: f64) -> Vec<Point> {
    let mut out: Vec<Point> = a
        .corners()
        .into_iter()
        .filter(|p| point_to_base(*p, b) <= tol)
        .collect();
    out.extend(
        b.corners()
            .into_iter()
            .filter(|p| point_to_base(*p, a) <= tol),
    );
    out
}

/// Distance from a point to a base (zero inside it).
pub fn point_to_base(p: Point, b: &Base) -> f64 {
    let d = p - b.center;
    let across = d.dot(b.facing.right_vector()).abs() - b.width.0 / 2.0;
    let ahead = d.dot(b.facing.unit_vector()).abs() - b.depth.0 / 2.0;
    across.max(0.0).hypot(ahead.max(0.0))
}

/// Whether the segment from `from` to `to` runs through the inside of `base`
/// for more than the tolerance. Grazing an edge or a corner does not count.
pub fn segment_crosses(from: Point, to: Point, base: &Base) -> bool {
    let poly = convex_hull(base.corners().to_vec());
    let d = to - from;
    let len = d.length();
    if len < EPS {
        return point_to_base(from, base) == 0.0 && inside_by(from, base) > EPS;
    }
    match clip_line(&poly, from, d, -EPS) {
        Some((lo, hi)) => {
            let (lo, hi) = (lo.max(0.0), hi.min(1.0));
            (hi - lo) * len > EPS
        }
        None => false,
    }
}

/// How far inside a base a point lies (negative outside).
fn inside_by(p: Point, b: &Base) -> f64 {
    let d = p - b.center;
    let across = b.width.0 / 2.0 - d.dot(b.facing.right_vector()).abs();
    let ahead = b.depth.0 / 2.0 - d.dot(b.facing.unit_vector()).abs();
    across.min(ahead)
}

/// The part of the convex outline `subject` inside the convex outline `clip`
/// (both as corner lists, in either winding); empty when they do not share
/// ground.
pub fn clip_convex(subject: &[Point], clip: &[Point]) -> Vec<Point> {
    let clip = convex_hull(clip.to_vec());
    let mut out = convex_hull(subject.to_vec());
    if clip.len() < 3 {
        return Vec::new();
    }
    for i in 0..clip.len() {
        let (p, q) = (clip[i], clip[(i + 1) % clip.len()]);
        let e = q - p;
        // Inside a counter-clockwise outline is to the left of each edge.
        let side = |x: Point| e.x * (x.y - p.y) - e.y * (x.x - p.x);
        let input = std::mem::take(&mut out);
        for j in 0..input.len() {
            let (a, b) = (input[j], input[(j + 1) % input.len()]);
            let (sa, sb) = (side(a), side(b));
            if sa >= 0.0 {
                out.push(a);
            }
            if (sa >= 0.0) != (sb >= 0.0) {
                out.push(a.lerp(b, sa / (sa - sb)));
            }
        }
        if out.is_empty() {
            return out;
        }
    }
    out
}

/// Area of a simple outline given by its corners.
pub fn outline_area(points: &[Point]) -> f64 {
    let n = points.len();
    (0..n)
        .map(|i| {
            let (a, b) = (points[i], points[(i + 1) % n]);
            a.x * b.y - b.x * a.y
        })
        .sum::<f64>()
        .abs()
        / 2.0
}

/// Convex hull, counter-clockwise, without repeated or collinear points.
pub fn convex_hull(mut pts: Vec<Point>) -> Vec<Point> {
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    pts.dedup_by(|a, b| (a.x - b.x).abs() < 1e-12 && (a.y - b.y).abs() < 1e-12);
    if pts.len() < 3 {
        return pts;
    }
    let cross =
        |o: Point, a: Point, b: Point| (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
    let mut lower: Vec<Point> = Vec::new();
    for p in &pts {
        while lower.len() >= 2 && cross(lower[lower.len() - 2], lower[lower.len() - 1], *p) <= 1e-12
        {
            lower.pop();
        }
        lower.push(*p);
    }
    let mut upper: Vec<Point> = Vec::new();
    for p in pts.iter().rev() {
        while upper.len() >= 2 && cross(upper[upper.len() - 2], upper[upper.len() - 1], *p) <= 1e-12
        {
            upper.pop();
        }
        upper.push(*p);
    }
    lower.pop();
    upper.pop();
    lower.extend(upper);
    lower
}

/// The range of `t` for which `origin + t * dir` lies inside the convex
/// counter-clockwise outline `poly` grown outward by `margin` (shrunk when
/// negative); the Cyrus-Beck clip of a line.
fn clip_line(poly: &[Point], origin: Point, dir: Point, margin: f64) -> Option<(f64, f64)> {
    if poly.len() < 3 {
        return None;
    }
    let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
    for i in 0..poly.len() {
        let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
        let e = q - p;
        let len = e.length();
        if len < 1e-15 {
            continue;
        }
        // Outward normal of a counter-clockwise edge: to its right.
        let n = Point::new(e.y / len, -e.x / len);
        let room = margin - n.dot(origin - p);
        let rate = n.dot(dir);
        if rate.abs() < 1e-15 {
            if room < 0.0 {
                return None;
            }
        } else if rate > 0.0 {
            hi = hi.min(room / rate);
        } else {
            lo = lo.max(room / rate);
        }
    }
    (lo <= hi).then_some((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::measure::{Angle, Distance};

    fn sq(x: f64, y: f64, facing: f64) -> Base {
        Base::new(
            Point::new(x, y),
            Angle(facing),
            Distance(1.0),
            Distance(1.0),
        )
    }

    #[test]
    fn straight_approach_meets_at_the_gap() {
        let t = first_touch(
            &[sq(0.0, 0.0, 0.0)],
            &[sq(0.0, 3.0, 180.0)],
            Point::new(0.0, 1.0),
        );
        assert!((t.unwrap() - 2.0).abs() < 1e-9);
        // Moving away never meets.
        assert!(
            first_touch(
                &[sq(0.0, 0.0, 0.0)],
                &[sq(0.0, 3.0, 0.0)],
                Point::new(0.0, -1.0)
            )
            .is_none()
        );
        // Passing beside, a whole base width to the side, never meets.
        assert!(
            first_touch(
                &[sq(0.0, 0.0, 0.0)],
                &[sq(1.5, 3.0, 0.0)],
                Point::new(0.0, 1.0)
            )
            .is_none()
        );
    }

    #[test]
    fn a_turned_corner_is_met_first() {
        // A diamond whose lowest corner is at y = 3 - sqrt(0.5).
        let t = first_touch(
            &[sq(0.0, 0.0, 0.0)],
            &[sq(0.0, 3.0, 45.0)],
            Point::new(0.0, 1.0),
        );
        assert!((t.unwrap() - (2.5 - 0.5f64.sqrt())).abs() < 1e-9);
    }

    #[test]
    fn sliding_flush_along_an_edge_is_contact_not_overlap() {
        let a = sq(0.0, 0.0, 0.0);
        let b = sq(1.0, 2.0, 0.0);
        let touch = travel_interval(&a, &b, Point::new(0.0, 1.0), EPS).unwrap();
        assert!((touch.0 - 1.0).abs() < 1e-5 && (touch.1 - 3.0).abs() < 1e-5);
        assert!(travel_interval(&a, &b, Point::new(0.0, 1.0), -EPS).is_none());
    }

    #[test]
    fn contact_points_of_edge_and_corner_contacts() {
        let a = sq(0.0, 0.0, 0.0);
        let pts = contact_points(&a, &sq(0.5, 1.0, 0.0), 1e-9);
        // a's front right corner and b's rear left corner.
        assert_eq!(pts.len(), 2);
        let corner = contact_points(&a, &sq(0.0, 0.5 + 0.5f64.sqrt(), 45.0), 1e-9);
        assert_eq!(corner.len(), 1);
        assert!((corner[0] - Point::new(0.0, 0.5)).length() < 1e-9);
        assert!(contact_points(&a, &sq(0.0, 1.5, 0.0), 1e-9).is_empty());
    }

    #[test]
    fn segments_through_and_past_a_base() {
        let b = sq(0.0, 0.0, 0.0);
        assert!(segment_crosses(
            Point::new(-2.0, 0.0),
            Point::new(2.0, 0.0),
            &b
        ));
        assert!(!segment_crosses(
            Point::new(-2.0, 0.5),
            Point::new(2.0, 0.5),
            &b
        ));
        assert!(!segment_crosses(
            Point::new(-2.0, 0.0),
            Point::new(-0.5, 0.0),
            &b
        ));
        assert!(segment_crosses(
            Point::new(0.0, 0.0),
            Point::new(0.0, 0.0),
            &b
        ));
    }

    #[test]
    fn clipping_a_base_by_a_strip() {
        let strip = [
            Point::new(0.0, 0.0),
            Point::new(1.0, 0.0),
            Point::new(1.0, 5.0),
            Point::new(0.0, 5.0),
        ];
        let part = clip_convex(&sq(0.0, 2.0, 0.0).corners(), &strip);
        assert!((outline_area(&part) - 0.5).abs() < 1e-9);
        assert!(clip_convex(&sq(3.0, 2.0, 0.0).corners(), &strip).is_empty());
    }
}

//! Distances and contact between bases.

use super::base::Base;
use super::convert::{self, EPS};
use super::measure::{Distance, Point};
use geo::{Distance as _, Euclidean};

/// Closest approach, edge to edge, between any base of `a` and any base of
/// `b`; zero when they touch or overlap. Infinite if either is empty.
pub fn bases_distance(a: &[Base], b: &[Base]) -> Distance {
    // The least of `base_distance` over every pair, as folding them all
    // would give; a pair whose centres are farther apart than the nearest
    // found so far plus both half-diagonals (and a margin far above
    // rounding) cannot be nearer, so it is not measured; nothing is
    // nearer than touching.
    let reach = |x: &Base| (x.width.0 / 2.0).hypot(x.depth.0 / 2.0);
    let mut least = f64::INFINITY;
    for x in a {
        let rx = reach(x);
        for y in b {
            if least == 0.0 {
                return Distance(least);
            }
            let apart = x.center.distance_to(y.center).0 - rx - reach(y);
            if apart > least + 1e-6 {
                continue;
            }
            least = least.min(base_distance(x, y).0);
        }
    }
    Distance(least)
}

/// Whether some base of `a` and some base of `b` are at most `d` apart,
/// edge to edge: the same answer as `bases_distance(a, b) <= d`, found
/// without measuring pairs whose centres are too far apart to be that near
/// (a 1e-6 margin above rounding) and stopping at the first near enough.
pub fn bases_within(a: &[Base], b: &[Base], d: f64) -> bool {
    let reach = |x: &Base| (x.width.0 / 2.0).hypot(x.depth.0 / 2.0);
    a.iter().any(|x| {
        let rx = reach(x);
        b.iter().any(|y| {
            x.center.distance_to(y.center).0 - rx - reach(y) <= d + 1e-6
                && base_distance(x, y).0 <= d
        })
    })
}

/// Closest approach between two bases; zero when they touch or overlap.
pub fn base_distance(a: &Base, b: &Base) -> Distance {
    if penetration(a, b) >= 0.0 {
        return Distance::ZERO;
    }
    Distance(Euclidean.distance(&a.polygon(), &b.polygon()))
}

/// Whether some base of `a` and some base of `b` overlap by more than the
/// tolerance. Bases that only touch do not overlap.
pub fn overlaps(a: &[Base], b: &[Base]) -> bool {
    a.iter().any(|x| b.iter().any(|y| penetration(x, y) > EPS))
}

/// Whether the two groups are in contact (closer than the tolerance) without
/// overlapping.
pub fn touching(a: &[Base], b: &[Base]) -> bool {
    bases_distance(a, b).0 < EPS && !overlaps(a, b)
}

/// Distance from a point to the nearest base; zero inside one. Infinite for
/// no bases.
pub fn point_to_bases(p: Point, b: &[Base]) -> Distance {
    let gp = convert::geo_point(p);
    let d = b
        .iter()
        .map(|x| Euclidean.distance(&gp, &x.polygon()))
        .fold(f64::INFINITY, f64::min);
    Distance(d)
}

/// How deeply two bases interpenetrate: the smallest push along any of the
/// rectangles' axes that would part them (separating axis test). Negative
/// when they are apart, zero when touching.
///
/// Overlap is judged by this depth rather than by the area of a `geo`
/// intersection because the tolerance is a length (a sliver of overlap
/// along a long edge is still contact), and because `geo`'s boolean
/// operations snap to a grid that would blur exactly the cases at issue.
fn penetration(a: &Base, b: &Base) -> f64 {
    let (ca, cb) = (a.corners(), b.corners());
    let axes = [
        a.facing.unit_vector(),
        a.facing.right_vector(),
        b.facing.unit_vector(),
        b.facing.right_vector(),
    ];
    axes.iter()
        .map(|axis| {
            let (a_lo, a_hi) = project(&ca, *axis);
            let (b_lo, b_hi) = project(&cb, *axis);
            a_hi.min(b_hi) - a_lo.max(b_lo)
        })
        .fold(f64::INFINITY, f64::min)
}

fn project(corners: &[Point; 4], axis: Point) -> (f64, f64) {
    corners
        .iter()
        .map(|c| c.dot(axis))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::formation::{Layout, lay_out};
    use crate::geometry::measure::Angle;

    /// Bases scattered at many angles and distances, some overlapping.
    fn scattered(n: usize, seed: f64) -> Vec<Base> {
        (0..n)
            .map(|i| {
                let k = i as f64 + seed;
                Base::new(
                    Point::new((k * 7.31).sin() * 6.0, (k * 3.17).cos() * 6.0),
                    Angle((k * 53.0) % 360.0),
                    Distance(0.5 + (k * 1.3).sin().abs() * 2.0),
                    Distance(0.3 + (k * 2.1).cos().abs()),
                )
            })
            .collect()
    }

    #[test]
    fn pruned_distances_are_the_ones_measuring_every_pair_gives() {
        for seed in 0..40 {
            let a = scattered(1 + seed % 4, seed as f64);
            let b = scattered(1 + seed % 3, seed as f64 * 0.37 + 100.0);
            let all = a
                .iter()
                .flat_map(|x| b.iter().map(move |y| base_distance(x, y).0))
                .fold(f64::INFINITY, f64::min);
            let pruned = bases_distance(&a, &b).0;
            assert_eq!(pruned.to_bits(), all.to_bits(), "seed {seed}");
            for d in [0.0, 0.5, all, all - 1e-9, all + 1e-9, 3.0, 20.0] {
                assert_eq!(bases_within(&a, &b, d), all <= d, "seed {seed}, d {d}");
            }
        }
    }

    fn sq(x: f64, y: f64, facing: f64) -> Base {
        Base::new(
            Point::new(x, y),
            Angle(facing),
            Distance(1.0),
            Distance(1.0),
        )
    }

    #[test]
    fn gap_between_aligned_bases() {
        assert!((base_distance(&sq(0.0, 0.0, 0.0), &sq(3.0, 0.0, 0.0)).0 - 2.0).abs() < 1e-9);
        // Diagonal: corner (0.5,0.5) to corner (2.5,3.5).
        let d = base_distance(&sq(0.0, 0.0, 0.0), &sq(3.0, 4.0, 0.0)).0;
        assert!((d - 13f64.sqrt()).abs() < 1e-9);
    }

    #[test]
    fn corner_to_edge_of_a_turned_base() {
        // A square turned 45 degrees: its corner points at the other square.
        let d = base_distance(&sq(0.0, 0.0, 0.0), &sq(2.0 + 0.5f64.sqrt(), 0.0, 45.0)).0;
        assert!((d - 1.5).abs() < 1e-9, "{d}");
    }

    #[test]
    fn touching_is_not_overlapping() {
        let line = lay_out(
            Layout::Line,
            2,
            Point::new(0.0, 0.0),
            Angle(0.0),
            Distance(1.0),
            Distance(1.0),
        );
        let (left, right) = line.split_at(1);
        assert_eq!(bases_distance(left, right), Distance::ZERO);
        assert!(touching(left, right));
        assert!(!overlaps(left, right));
    }

    #[test]
    fn overlap_beyond_tolerance() {
        let a = [sq(0.0, 0.0, 0.0)];
        let b = [sq(0.9, 0.2, 10.0)];
        assert!(overlaps(&a, &b) && overlaps(&b, &a));
        assert!(!touching(&a, &b));
        assert_eq!(bases_distance(&a, &b), Distance::ZERO);
        // Within the tolerance it is still contact.
        let c = [sq(1.0 - 1e-8, 0.0, 0.0)];
        assert!(!overlaps(&a, &c) && touching(&a, &c));
    }

    #[test]
    fn nearest_of_several() {
        let a = lay_out(
            Layout::Line,
            3,
            Point::new(0.0, 0.0),
            Angle(0.0),
            Distance(1.0),
            Distance(0.5),
        );
        let b = lay_out(
            Layout::Line,
            2,
            Point::new(0.0, 3.0),
            Angle(180.0),
            Distance(1.0),
            Distance(0.5),
        );
        assert!((bases_distance(&a, &b).0 - 3.0).abs() < 1e-9);
        assert!(bases_distance(&a, &[]).0.is_infinite());
    }

    #[test]
    fn point_distance() {
        let b = [sq(0.0, 0.0, 0.0)];
        assert!((point_to_bases(Point::new(0.0, 2.5), &b).0 - 2.0).abs() < 1e-9);
        assert_eq!(point_to_bases(Point::new(0.1, 0.1), &b), Distance::ZERO);
    }
}

//! Small area queries on geo shapes that the movement rules need.

use crate::geometry::{Base, Bounds};
use geo::{Area, BooleanOps, MultiPolygon};

/// The bases as one area.
pub fn of_bases(bases: &[Base]) -> MultiPolygon<f64> {
    MultiPolygon(bases.iter().map(|b| b.polygon()).collect())
}

/// Whether two areas share more than a sliver (touching is not overlapping).
pub fn overlap(a: &MultiPolygon<f64>, b: &MultiPolygon<f64>) -> bool {
    if a.0.is_empty() || b.0.is_empty() {
        return false;
    }
    // Areas whose boxes are apart share nothing: skip the clipping.
    if let (Some(x), Some(y)) = (Bounds::of_area(a), Bounds::of_area(b))
        && x.gap(&y) > 0.0
    {
        return false;
    }
    a.intersection(b).unsigned_area() > 1e-6
}

/// Edge-to-edge distance from an area to some bases (0 when they meet).
pub fn distance(a: &MultiPolygon<f64>, bases: &[Base]) -> f64 {
    use geo::{Distance, Euclidean};
    let b = of_bases(bases);
    if a.0.is_empty() || b.0.is_empty() {
        return f64::INFINITY;
    }
    if overlap(a, &b) {
        return 0.0;
    }
    a.0.iter()
        .flat_map(|p| b.0.iter().map(move |q| Euclidean.distance(p, q)))
        .fold(f64::INFINITY, f64::min)
}

//! Conversions between the table's types and `geo`'s, and the tolerances
//! every query shares.

use super::measure::Point;
use geo::orient::{Direction, Orient};
use geo::{
    Area, BooleanOps, ConvexHull, Coord, LineString, MultiPoint, MultiPolygon, Polygon, unary_union,
};

/// Length tolerance: gaps and penetrations smaller than this are treated as
/// contact, so that bases placed flush by arithmetic are not judged apart or
/// overlapping by rounding noise.
pub(crate) const EPS: f64 = 1e-6;

/// Area tolerance for results of boolean operations, which `geo` computes on
/// a snapped integer grid and so may leave slivers where shapes only touch.
pub(crate) const AREA_EPS: f64 = 1e-6;

pub(crate) fn coord(p: Point) -> Coord<f64> {
    Coord { x: p.x, y: p.y }
}

pub(crate) fn point(c: Coord<f64>) -> Point {
    Point::new(c.x, c.y)
}

pub(crate) fn geo_point(p: Point) -> geo::Point<f64> {
    geo::Point(coord(p))
}

/// A simple polygon through `points` (closed automatically).
pub(crate) fn polygon(points: &[Point]) -> Polygon<f64> {
    Polygon::new(line_string(points), vec![])
}

pub(crate) fn line_string(points: &[Point]) -> LineString<f64> {
    LineString::new(points.iter().map(|p| coord(*p)).collect())
}

/// The convex hull of a set of points.
pub(crate) fn hull(points: &[Point]) -> Polygon<f64> {
    MultiPoint::from(points.iter().map(|p| geo_point(*p)).collect::<Vec<_>>()).convex_hull()
}

/// Union of many polygons. `unary_union` needs one winding order throughout,
/// so every polygon is oriented first.
pub(crate) fn union_all(polygons: Vec<Polygon<f64>>) -> MultiPolygon<f64> {
    let oriented: Vec<Polygon<f64>> = polygons
        .into_iter()
        .map(|p| p.orient(Direction::Default))
        .collect();
    unary_union(&oriented)
}

/// Area shared by two regions; tiny values are snapping noise, see [`AREA_EPS`].
pub(crate) fn shared_area(a: &MultiPolygon<f64>, b: &MultiPolygon<f64>) -> f64 {
    a.intersection(b).unsigned_area()
}

//! Line of sight across terrain.

use super::convert::{self, EPS};
use super::measure::Point;
use super::terrain::{Shape, TerrainFeature, TerrainTag};
use geo::coordinate_position::{CoordPos, CoordinatePosition};
use geo::line_intersection::{LineIntersection, line_intersection};
use geo::{
    BooleanOps, Contains, Distance as _, Euclidean, Intersects, Length, Line, LineString,
    MultiLineString, MultiPolygon,
};

/// Whether the straight line from `from` to `to` is clear of every feature
/// carrying one of the `blocking` tags. A feature holding either end (on or
/// inside its edge) does not block: troops in a wood see out of it, and can
/// be seen in it. Grazing a feature's edge or corner does not block either.
pub fn line_of_sight(
    from: Point,
    to: Point,
    terrain: &[TerrainFeature],
    blocking: &[TerrainTag],
) -> bool {
    terrain
        .iter()
        .filter(|f| blocking.iter().any(|t| f.has(*t)))
        .all(|f| !blocks(f, from, to))
}

fn blocks(feature: &TerrainFeature, from: Point, to: Point) -> bool {
    match &feature.shape {
        // A wall drawn as a bare line has no inside: it blocks any sight line
        // crossing it, unless one end stands on it.
        Shape::Polyline { points, width } if width.0 <= 0.0 => {
            let wall = convert::line_string(points);
            let on_wall = |p: Point| Euclidean.distance(&convert::geo_point(p), &wall) < EPS;
            let sight = Line::new(convert::coord(from), convert::coord(to));
            !on_wall(from) && !on_wall(to) && sight.intersects(&wall)
        }
        _ => {
            let area = feature.area();
            let holds = |p: Point| {
                let gp = convert::geo_point(p);
                area.contains(&gp) || Euclidean.distance(&gp, &area) < EPS
            };
            !holds(from) && !holds(to) && segment_hits_area(from, to, &area)
        }
    }
}

/// Whether the segment from `from` to `to` passes through the interior of
/// `area`: some stretch of it longer than the tolerance lies inside, not
/// merely along an edge.
pub fn segment_hits_area(from: Point, to: Point, area: &MultiPolygon<f64>) -> bool {
    if (to - from).length() < EPS {
        return area.coordinate_position(&convert::coord(from)) == CoordPos::Inside;
    }
    let sight = MultiLineString::new(vec![LineString::new(vec![
        convert::coord(from),
        convert::coord(to),
    ])]);
    area.clip(&sight, false).iter().any(|piece| {
        if Euclidean.length(piece) <= EPS {
            return false;
        }
        // Pieces running along an edge have their middle on the boundary.
        let (Some(a), Some(b)) = (piece.0.first(), piece.0.last()) else {
            return false;
        };
        let mid = convert::coord(convert::point(*a).lerp(convert::point(*b), 0.5));
        area.coordinate_position(&mid) == CoordPos::Inside
    })
}

/// How far along the segment from `from` to `to` it first enters the
/// interior of `area`, in the segment's own units: 0 if it starts inside,
/// None if it never enters. The same entering as [`segment_hits_area`]: a
/// stretch inside longer than the tolerance, not a run along an edge.
/// What a path reaches before it stops is what lies nearer than where it
/// stops: a ruleset can charge for ground only when the path gets there.
pub fn segment_entry(from: Point, to: Point, area: &MultiPolygon<f64>) -> Option<f64> {
    if (to - from).length() < EPS {
        let inside = area.coordinate_position(&convert::coord(from)) == CoordPos::Inside;
        return inside.then_some(0.0);
    }
    let path = MultiLineString::new(vec![LineString::new(vec![
        convert::coord(from),
        convert::coord(to),
    ])]);
    area.clip(&path, false)
        .iter()
        .filter(|piece| Euclidean.length(*piece) > EPS)
        .filter_map(|piece| {
            let (a, b) = (piece.0.first()?, piece.0.last()?);
            let (a, b) = (convert::point(*a), convert::point(*b));
            let mid = convert::coord(a.lerp(b, 0.5));
            (area.coordinate_position(&mid) == CoordPos::Inside)
                .then(|| from.distance_to(a).get().min(from.distance_to(b).get()))
        })
        .min_by(f64::total_cmp)
}

/// How far along the segment from `from` to `to` it first meets the line
/// through `points` (a wall drawn with no width): where it crosses or
/// touches it, or where a stretch along it begins. None if it never does.
pub fn segment_meets_line(from: Point, to: Point, points: &[Point]) -> Option<f64> {
    let path = Line::new(convert::coord(from), convert::coord(to));
    let near = |c: geo::Coord<f64>| from.distance_to(convert::point(c)).get();
    convert::line_string(points)
        .lines()
        .filter_map(|piece| line_intersection(path, piece))
        .map(|x| match x {
            LineIntersection::SinglePoint { intersection, .. } => near(intersection),
            LineIntersection::Collinear { intersection } => {
                near(intersection.start).min(near(intersection.end))
            }
        })
        .min_by(f64::total_cmp)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::measure::Distance;

    fn square(id: &str, x0: f64, y0: f64, size: f64, tags: Vec<TerrainTag>) -> TerrainFeature {
        TerrainFeature {
            id: id.into(),
            name: id.into(),
            tags,
            elevation: None,
            shape: Shape::Polygon {
                points: vec![
                    Point::new(x0, y0),
                    Point::new(x0 + size, y0),
                    Point::new(x0 + size, y0 + size),
                    Point::new(x0, y0 + size),
                ],
            },
        }
    }

    fn terrain() -> Vec<TerrainFeature> {
        vec![
            square("wood", 4.0, 4.0, 2.0, vec![TerrainTag::Woods]),
            square("field", 4.0, 10.0, 2.0, vec![TerrainTag::Difficult]),
            TerrainFeature {
                id: "wall".into(),
                name: "wall".into(),
                tags: vec![TerrainTag::Wall],
                elevation: None,
                shape: Shape::Polyline {
                    points: vec![Point::new(0.0, 20.0), Point::new(10.0, 20.0)],
                    width: Distance(0.0),
                },
            },
        ]
    }

    const BLOCK: &[TerrainTag] = &[TerrainTag::Woods, TerrainTag::Wall];

    #[test]
    fn wood_blocks_a_line_through_it() {
        let t = terrain();
        assert!(!line_of_sight(
            Point::new(0.0, 5.0),
            Point::new(10.0, 5.0),
            &t,
            BLOCK
        ));
        assert!(line_of_sight(
            Point::new(0.0, 7.0),
            Point::new(10.0, 7.0),
            &t,
            BLOCK
        ));
        // Only blocking tags count.
        assert!(line_of_sight(
            Point::new(0.0, 11.0),
            Point::new(10.0, 11.0),
            &t,
            BLOCK
        ));
        assert!(!line_of_sight(
            Point::new(0.0, 11.0),
            Point::new(10.0, 11.0),
            &t,
            &[TerrainTag::Difficult]
        ));
    }

    #[test]
    fn ends_inside_or_grazing_do_not_block() {
        let t = terrain();
        assert!(line_of_sight(
            Point::new(5.0, 5.0),
            Point::new(10.0, 5.0),
            &t,
            BLOCK
        ));
        assert!(line_of_sight(
            Point::new(0.0, 5.0),
            Point::new(4.0, 5.0),
            &t,
            BLOCK
        ));
        // Along the wood's top edge.
        assert!(line_of_sight(
            Point::new(0.0, 6.0),
            Point::new(10.0, 6.0),
            &t,
            BLOCK
        ));
        // Through one corner only.
        assert!(line_of_sight(
            Point::new(1.0, 7.0),
            Point::new(7.0, 1.0),
            &t,
            BLOCK
        ));
    }

    #[test]
    fn thin_wall_blocks_crossings() {
        let t = terrain();
        assert!(!line_of_sight(
            Point::new(5.0, 18.0),
            Point::new(5.0, 22.0),
            &t,
            BLOCK
        ));
        assert!(line_of_sight(
            Point::new(5.0, 20.0),
            Point::new(5.0, 22.0),
            &t,
            BLOCK
        ));
        assert!(line_of_sight(
            Point::new(12.0, 18.0),
            Point::new(12.0, 22.0),
            &t,
            BLOCK
        ));
    }

    #[test]
    fn segment_entry_is_where_the_path_first_goes_in() {
        let area = square("a", 10.0, 0.0, 4.0, vec![]).area();
        let at = |a: (f64, f64), b: (f64, f64)| {
            segment_entry(Point::new(a.0, a.1), Point::new(b.0, b.1), &area)
        };
        let near = |x: Option<f64>, want: f64| x.is_some_and(|x| (x - want).abs() < 1e-9);
        assert!(near(at((0.0, 2.0), (20.0, 2.0)), 10.0), "in at its edge");
        assert!(near(at((20.0, 2.0), (0.0, 2.0)), 6.0), "either way along");
        assert!(near(at((12.0, 2.0), (20.0, 2.0)), 0.0), "starting inside");
        assert!(near(at((0.0, 2.0), (11.0, 2.0)), 10.0), "ending inside");
        assert_eq!(at((0.0, 2.0), (9.0, 2.0)), None, "stopping short");
        assert_eq!(at((0.0, 0.0), (20.0, 0.0)), None, "along an edge");
        assert!(near(at((12.0, 2.0), (12.0, 2.0)), 0.0));
        // A second feature further on: the nearer entry of two pieces.
        let two = MultiPolygon::new(
            [
                square("b", 20.0, 0.0, 4.0, vec![]),
                square("c", 30.0, 0.0, 4.0, vec![]),
            ]
            .iter()
            .flat_map(|f| f.area().0)
            .collect(),
        );
        let e = segment_entry(Point::new(40.0, 2.0), Point::new(0.0, 2.0), &two);
        assert!(near(e, 6.0), "{e:?}");
    }

    #[test]
    fn segment_meets_a_thin_line_where_it_crosses_it() {
        let wall = [Point::new(0.0, 20.0), Point::new(10.0, 20.0)];
        let d = segment_meets_line(Point::new(5.0, 10.0), Point::new(5.0, 30.0), &wall);
        assert!(d.is_some_and(|d| (d - 10.0).abs() < 1e-9), "{d:?}");
        let d = segment_meets_line(Point::new(5.0, 10.0), Point::new(5.0, 19.0), &wall);
        assert_eq!(d, None, "stopping short");
        let d = segment_meets_line(Point::new(-5.0, 20.0), Point::new(20.0, 20.0), &wall);
        assert!(d.is_some_and(|d| (d - 5.0).abs() < 1e-9), "along it: {d:?}");
    }

    #[test]
    fn segment_through_area() {
        let area = square("a", 0.0, 0.0, 1.0, vec![]).area();
        assert!(segment_hits_area(
            Point::new(-1.0, 0.5),
            Point::new(2.0, 0.5),
            &area
        ));
        assert!(!segment_hits_area(
            Point::new(-1.0, 1.5),
            Point::new(2.0, 1.5),
            &area
        ));
        assert!(segment_hits_area(
            Point::new(0.5, 0.5),
            Point::new(0.5, 0.5),
            &area
        ));
    }
}

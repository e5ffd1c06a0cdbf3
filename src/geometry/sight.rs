//! Line of sight across terrain.

use super::convert::{self, EPS};
use super::measure::Point;
use super::terrain::{Shape, TerrainFeature, TerrainTag};
use geo::coordinate_position::{CoordPos, CoordinatePosition};
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

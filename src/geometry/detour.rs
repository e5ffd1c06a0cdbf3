//! Distances that go round obstacles: the shortest way from one shape to
//! another that never crosses an obstacle's interior, for rules that
//! measure "as the crow flies" except through ground nothing can cross.
//!
//! The way is a shortest path in a visibility graph: it leaves the first
//! shape, bends only at obstacles' corners and ends on the second shape.
//! Each leg from or to a shape ends at a corner of that shape or at the
//! foot of a perpendicular on one of its edges, so those are the only
//! points tried. Obstacles are shrunk by a hair, so that a way may run
//! along an edge or through a corner of one. The straight distance is a
//! lower bound: beyond the limit nothing is searched, and when the
//! straight line between the nearest points is clear it is the answer.
//! Only obstacles whose boxes lie within the limit of the first shape
//! take part (a way no longer than the limit never leaves that reach).

use super::convert::{coord, point, union_all};
use super::{Bounds, BoxIndex, Point};
use geo::{Buffer, Closest, ClosestPoint, Intersects, Line, MultiPolygon, Polygon};

/// How far obstacles are shrunk: far above float rounding, far below
/// anything a rule measures.
const HAIR: f64 = 1e-6;

/// Obstacles, indexed, ready for [`Detour::distance`].
#[derive(Clone, Debug, Default)]
pub struct Detour {
    /// Each obstacle shrunk by [`HAIR`]: what a way may not cross.
    shrunk: Vec<MultiPolygon<f64>>,
    /// The boxes of the shrunk obstacles.
    index: BoxIndex,
    /// Each obstacle's corners, where a way may bend.
    corners: Vec<Vec<Point>>,
    /// The box of each obstacle as given.
    boxes: Vec<Option<Bounds>>,
}

impl Detour {
    /// Obstacles from their areas. Areas that touch or overlap become one
    /// obstacle first: shrunk apart, they would leave a seam to slip through.
    pub fn new(areas: impl IntoIterator<Item = MultiPolygon<f64>>) -> Detour {
        let mut d = Detour::default();
        let mut entries = Vec::new();
        let pieces: Vec<Polygon<f64>> = areas.into_iter().flat_map(|a| a.0).collect();
        if pieces.is_empty() {
            return d;
        }
        for piece in union_all(pieces).0 {
            let area = MultiPolygon::new(vec![piece]);
            let shrunk = area.buffer(-HAIR);
            let corners: Vec<Point> = area
                .0
                .iter()
                .flat_map(|p| std::iter::once(p.exterior()).chain(p.interiors()))
                .flat_map(|ring| ring.0.iter().copied().map(point))
                .collect();
            let i = d.shrunk.len();
            if let Some(b) = Bounds::of_area(&shrunk) {
                entries.push((b, i));
            }
            d.boxes.push(Bounds::of_points(corners.iter().copied()));
            d.corners.push(corners);
            d.shrunk.push(shrunk);
        }
        d.index = BoxIndex::new(entries);
        d
    }

    /// Whether there are no obstacles at all.
    pub fn is_empty(&self) -> bool {
        self.shrunk.is_empty()
    }

    /// Whether the straight segment from `a` to `b` crosses no obstacle.
    pub fn clear(&self, a: Point, b: Point) -> bool {
        let line = Line::new(coord(a), coord(b));
        !self
            .index
            .any_along(a, b, |i| self.shrunk[i].intersects(&line))
    }

    /// The length of the shortest way from any point of `from` to any point
    /// of `to` that crosses no obstacle, when it is at most `limit`; `None`
    /// when it is longer (or there is none, or a shape is empty). Shapes
    /// that overlap or touch are 0 apart.
    pub fn distance(&self, from: &[Polygon<f64>], to: &[Polygon<f64>], limit: f64) -> Option<f64> {
        let (a, b) = (Outline::of(from), Outline::of(to));
        let box_a = Bounds::of_points(a.vertices.iter().copied())?;
        Bounds::of_points(b.vertices.iter().copied())?;
        let (straight, pa, pb) = nearest_pair(from, to, &a, &b)?;
        if straight > limit {
            return None;
        }
        let reach = self.index.near(&box_a, limit);
        if straight == 0.0 || reach.is_empty() || self.clear(pa, pb) {
            return Some(straight);
        }
        self.around(&a, &b, &reach, limit)
    }

    /// The search round the obstacles numbered in `reach`.
    fn around(&self, a: &Outline, b: &Outline, reach: &[usize], limit: f64) -> Option<f64> {
        let mut best = f64::INFINITY;
        // Straight legs from a corner of one shape to the foot of its
        // perpendicular on an edge of the other, whichever way.
        for (v, edges) in [(&a.vertices, &b.edges), (&b.vertices, &a.edges)] {
            for p in v {
                for e in edges {
                    let q = foot(e, *p);
                    let d = p.distance_to(q).get();
                    if d < best && d <= limit && self.clear(*p, q) {
                        best = d;
                    }
                }
            }
        }
        // Corners of obstacles in reach that lie in no obstacle.
        let nodes: Vec<Point> = reach
            .iter()
            .flat_map(|&i| self.corners[i].iter().copied())
            .filter(|c| {
                let gp = geo::Point(coord(*c));
                !self
                    .index
                    .near(&Bounds { min: *c, max: *c }, 0.0)
                    .into_iter()
                    .any(|i| self.shrunk[i].intersects(&gp))
            })
            .collect();
        let mut dist: Vec<f64> = nodes.iter().map(|n| leg(self, &a.edges, *n)).collect();
        let mut done = vec![false; nodes.len()];
        while let Some(i) = (0..nodes.len())
            .filter(|&i| !done[i] && dist[i].is_finite())
            .min_by(|&i, &j| dist[i].total_cmp(&dist[j]).then(i.cmp(&j)))
        {
            let here = dist[i];
            if here >= best || here > limit {
                break;
            }
            done[i] = true;
            best = best.min(here + leg(self, &b.edges, nodes[i]));
            let from = nodes[i];
            for (j, there) in nodes.iter().enumerate() {
                if done[j] {
                    continue;
                }
                let d = here + from.distance_to(*there).get();
                if d < dist[j] && d <= limit && self.clear(from, *there) {
                    dist[j] = d;
                }
            }
        }
        (best <= limit).then_some(best)
    }
}

/// The shortest clear straight leg from the edges of a shape to `p`.
fn leg(d: &Detour, edges: &[(Point, Point)], p: Point) -> f64 {
    edges
        .iter()
        .map(|e| foot(e, p))
        .map(|q| (p.distance_to(q).get(), q))
        .filter(|(_, q)| d.clear(*q, p))
        .map(|(l, _)| l)
        .fold(f64::INFINITY, f64::min)
}

/// The point of segment `e` nearest `p`.
fn foot(e: &(Point, Point), p: Point) -> Point {
    let (a, b) = *e;
    let ab = b - a;
    let len2 = ab.dot(ab);
    if len2 <= 0.0 {
        return a;
    }
    let t = ((p - a).dot(ab) / len2).clamp(0.0, 1.0);
    a + ab.scale(t)
}

/// A shape's corners and edges.
struct Outline {
    vertices: Vec<Point>,
    edges: Vec<(Point, Point)>,
}

impl Outline {
    fn of(polygons: &[Polygon<f64>]) -> Outline {
        let mut vertices = Vec::new();
        let mut edges = Vec::new();
        for p in polygons {
            for ring in std::iter::once(p.exterior()).chain(p.interiors()) {
                for l in ring.lines() {
                    vertices.push(point(l.start));
                    edges.push((point(l.start), point(l.end)));
                }
            }
        }
        Outline { vertices, edges }
    }
}

/// The straight distance between two shapes and a pair of points that
/// realises it (0 and any shared point when they meet); `None` for an
/// empty shape.
fn nearest_pair(
    from: &[Polygon<f64>],
    to: &[Polygon<f64>],
    a: &Outline,
    b: &Outline,
) -> Option<(f64, Point, Point)> {
    if from.is_empty() || to.is_empty() {
        return None;
    }
    if from.iter().any(|p| to.iter().any(|q| p.intersects(q))) {
        let p = a.vertices.first().copied()?;
        return Some((0.0, p, p));
    }
    // Apart, the nearest points of two polygons always include a corner
    // of one of them.
    let mut best: Option<(f64, Point, Point)> = None;
    for (vs, shapes, flip) in [(&a.vertices, to, false), (&b.vertices, from, true)] {
        for v in vs {
            let gp = geo::Point(coord(*v));
            for s in shapes {
                let q = match s.closest_point(&gp) {
                    Closest::Intersection(q) | Closest::SinglePoint(q) => point(q.0),
                    Closest::Indeterminate => continue,
                };
                let d = v.distance_to(q).get();
                if best.is_none_or(|(bd, _, _)| d < bd) {
                    best = Some(if flip { (d, q, *v) } else { (d, *v, q) });
                }
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::convert::polygon;

    fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Polygon<f64> {
        polygon(&[
            Point::new(x0, y0),
            Point::new(x1, y0),
            Point::new(x1, y1),
            Point::new(x0, y1),
        ])
    }

    fn mp(p: Polygon<f64>) -> MultiPolygon<f64> {
        MultiPolygon::new(vec![p])
    }

    #[test]
    fn without_obstacles_the_distance_is_straight() {
        let d = Detour::new(vec![]);
        let got = d.distance(
            &[rect(0.0, 0.0, 1.0, 1.0)],
            &[rect(4.0, 0.0, 5.0, 1.0)],
            10.0,
        );
        assert!((got.unwrap() - 3.0).abs() < 1e-9);
        assert_eq!(
            d.distance(
                &[rect(0.0, 0.0, 1.0, 1.0)],
                &[rect(4.0, 0.0, 5.0, 1.0)],
                2.9
            ),
            None
        );
    }

    #[test]
    fn an_obstacle_off_the_line_changes_nothing() {
        let d = Detour::new(vec![mp(rect(2.0, 3.0, 3.0, 9.0))]);
        let got = d.distance(
            &[rect(0.0, 0.0, 1.0, 1.0)],
            &[rect(4.0, 0.0, 5.0, 1.0)],
            10.0,
        );
        assert!((got.unwrap() - 3.0).abs() < 1e-9);
    }

    #[test]
    fn a_ravine_between_makes_the_way_go_round_its_end() {
        // A wall of impassable ground from y -5 to y 5 between two squares
        // 3 apart: the way goes round an end, 5 up and 5 down again.
        let d = Detour::new(vec![mp(rect(2.0, -5.0, 3.0, 5.0))]);
        let a = [rect(0.0, 0.0, 1.0, 1.0)];
        let b = [rect(4.0, 0.0, 5.0, 1.0)];
        let got = d.distance(&a, &b, 100.0).unwrap();
        // From (1,1) to the corner (2,5), along the top to (3,5), down to (4,1).
        let want = 2.0 * 17f64.sqrt() + 1.0;
        assert!((got - want).abs() < 1e-6, "{got} against {want}");
        assert_eq!(d.distance(&a, &b, 4.0), None);
        assert!(d.distance(&a, &b, want + 1e-3).is_some());
    }

    #[test]
    fn a_way_may_run_along_an_edge_and_pass_beside_a_gap() {
        // Two obstacles leave a gap at x 2..3: the way through it is straight.
        let d = Detour::new(vec![
            mp(rect(-1.0, 2.0, 2.0, 3.0)),
            mp(rect(3.0, 2.0, 11.0, 3.0)),
        ]);
        let a = [rect(0.0, 0.0, 10.0, 1.0)];
        let b = [rect(0.0, 4.0, 10.0, 5.0)];
        let got = d.distance(&a, &b, 10.0).unwrap();
        assert!((got - 3.0).abs() < 1e-6, "{got}");
    }

    #[test]
    fn a_shape_walled_in_is_out_of_reach() {
        // A ring of obstacles round the first shape.
        let d = Detour::new(vec![
            mp(rect(-2.0, -2.0, 3.0, -1.0)),
            mp(rect(-2.0, 2.0, 3.0, 3.0)),
            mp(rect(-2.0, -1.0, -1.0, 2.0)),
            mp(rect(2.0, -1.0, 3.0, 2.0)),
        ]);
        let got = d.distance(
            &[rect(0.0, 0.0, 1.0, 1.0)],
            &[rect(5.0, 0.0, 6.0, 1.0)],
            50.0,
        );
        assert_eq!(got, None);
    }

    #[test]
    fn touching_or_overlapping_shapes_are_zero_apart() {
        let d = Detour::new(vec![mp(rect(0.5, -3.0, 0.6, 3.0))]);
        let got = d.distance(
            &[rect(0.0, 0.0, 1.0, 1.0)],
            &[rect(1.0, 0.0, 2.0, 1.0)],
            1.0,
        );
        assert_eq!(got, Some(0.0));
    }
}

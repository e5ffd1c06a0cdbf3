//! Fire zones: a strip one base wide laid ahead of a base, straight or
//! angled, and where things first appear in it.
//!
//! "Where something first appears" is the least distance along the strip
//! from its near edge to any part of the thing inside the strip. The strip
//! is shrunk by the shared tolerance at its sides and near edge before
//! testing, so that a base or feature merely touching them is not in it;
//! its far end is a range's end, which counts ([`super::limit`]): a base
//! whose edge lies exactly at the zone's length is in it.

use super::base::Base;
use super::convert::{self, EPS};
use super::limit::{WITHIN_TOLERANCE, within};
use super::measure::{Angle, Distance, Point};
use super::terrain::{Shape, TerrainFeature};
use geo::{Contains, Distance as _, Euclidean, Line};
use serde::{Deserialize, Serialize};

/// A rectangle `width` across and `length` long, its near edge starting at
/// `origin` (the near-left corner) and running toward `facing`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Zone {
    pub origin: Point,
    pub facing: Angle,
    pub width: Distance,
    pub length: Distance,
}

impl Zone {
    /// The zone of `base` reaching `range` from its front edge, turned
    /// `turn` degrees from straight ahead (positive to the right). A turned
    /// zone keeps the base's front corner on the side it turns toward as its
    /// own near corner, so that the whole zone stays ahead of the base's
    /// front line: the template is swung about that corner. It is then
    /// shortened so that no part of it lies farther than `range` from the
    /// base's front edge (a swung template's far outer corner would
    /// otherwise reach a little beyond).
    pub fn ahead_of(base: &Base, turn: f64, range: Distance) -> Zone {
        let facing = base.facing.turned(turn);
        let (fl, fr) = base.front_edge();
        let w = base.width.0;
        let origin = if turn > 0.0 {
            fr - facing.right_vector().scale(w)
        } else {
            fl
        };
        Zone {
            origin,
            facing,
            width: base.width,
            length: Distance(swung_length(w, turn, range.0)),
        }
    }

    /// The same zone ending `length` from its near edge.
    pub fn with_length(&self, length: Distance) -> Zone {
        Zone { length, ..*self }
    }

    /// Corners: near-left, near-right, far-right, far-left.
    pub fn corners(&self) -> [Point; 4] {
        let d = self.facing.unit_vector().scale(self.length.0);
        let r = self.facing.right_vector().scale(self.width.0);
        let nl = self.origin;
        [nl, nl + r, nl + r + d, nl + d]
    }

    /// The middle of the near edge.
    pub fn near_center(&self) -> Point {
        self.origin + self.facing.right_vector().scale(self.width.0 / 2.0)
    }

    /// (distance along the zone from its near edge, distance right of its
    /// left edge) of `p`.
    pub fn local(&self, p: Point) -> (f64, f64) {
        self.local_on(&self.axes(), p)
    }

    /// Whether `p` lies inside the zone shrunk by the tolerance at its sides
    /// and near edge; a point exactly at its far end is inside.
    pub fn holds(&self, p: Point) -> bool {
        self.holds_on(&self.axes(), p)
    }

    /// A measure of distance along the zone, worked out once for many bases.
    pub fn ruler(&self) -> Ruler {
        Ruler {
            origin: self.origin,
            ahead: self.facing.unit_vector(),
        }
    }

    /// The zone's unit vectors ahead and to the right, worked out once for
    /// many points (the same values each time: this only saves the trig).
    fn axes(&self) -> (Point, Point) {
        (self.facing.unit_vector(), self.facing.right_vector())
    }

    fn local_on(&self, (u, r): &(Point, Point), p: Point) -> (f64, f64) {
        let v = p - self.origin;
        (v.dot(*u), v.dot(*r))
    }

    fn holds_on(&self, axes: &(Point, Point), p: Point) -> bool {
        let (a, l) = self.local_on(axes, p);
        a >= EPS && within(a, self.length.0) && l >= EPS && l <= self.width.0 - EPS
    }

    /// The zone shrunk by the tolerance at its sides and near edge, its far
    /// edge just past its length (the end counts), as corners.
    fn inner(&self, (u, r): (Point, Point)) -> [Point; 4] {
        let o = self.origin + u.scale(EPS) + r.scale(EPS);
        let d = u.scale((self.length.0 + WITHIN_TOLERANCE - EPS).max(0.0));
        let w = r.scale((self.width.0 - 2.0 * EPS).max(0.0));
        [o, o + w, o + w + d, o + d]
    }

    /// Where `base` first appears in the zone, if any part of it is in it.
    pub fn entry_of_base(&self, base: &Base) -> Option<Distance> {
        self.entry_of_corners(&base.corners())
    }

    /// [`Zone::entry_of_base`] for a base given by its corners
    /// ([`Base::corners`]), for callers that keep them.
    pub fn entry_of_corners(&self, corners: &[Point; 4]) -> Option<Distance> {
        self.first_along(&[&corners[..]], true, |p| convex_holds(corners, p))
    }

    /// Where the terrain `feature` first appears in the zone, if it does.
    pub fn entry_of_feature(&self, feature: &TerrainFeature) -> Option<Distance> {
        match &feature.shape {
            Shape::Polyline { points, width } if width.0 <= 0.0 => {
                self.first_along(std::slice::from_ref(points), false, |_| false)
            }
            _ => {
                let area = feature.area();
                let rings: Vec<Vec<Point>> = area
                    .0
                    .iter()
                    .flat_map(|poly| std::iter::once(poly.exterior()).chain(poly.interiors()))
                    .map(|ring| ring.coords().map(|c| convert::point(*c)).collect())
                    .collect();
                self.first_along(&rings, true, |p| area.contains(&convert::geo_point(p)))
            }
        }
    }

    /// The part of `base` inside the zone, as a convex polygon (empty when
    /// they do not share ground).
    pub fn clip_base(&self, base: &Base) -> Vec<Point> {
        let mut poly = base.corners().to_vec();
        let c = self.corners();
        for i in 0..4 {
            poly = clip_half_plane(&poly, c[i], c[(i + 1) % 4]);
            if poly.is_empty() {
                break;
            }
        }
        poly
    }

    /// The least distance along the zone of the shape made by `rings`
    /// (closed when `closed`) inside the shrunk zone. The least value of a
    /// linear measure over the intersection of a shape with a convex
    /// rectangle is found at one of: a vertex of the shape inside the
    /// rectangle, a corner of the rectangle inside the shape, or a crossing
    /// of their edges; so only those are tried.
    fn first_along<R: AsRef<[Point]>>(
        &self,
        rings: &[R],
        closed: bool,
        shape_holds: impl Fn(Point) -> bool,
    ) -> Option<Distance> {
        let axes = self.axes();
        let rect = self.inner(axes);
        // The candidates are taken in a fixed order (each ring's vertices
        // inside, then its crossings; then the rectangle's corners inside
        // the shape) and the least kept as they come, with no list built:
        // this runs for every base a zone may reach.
        let mut least: Option<f64> = None;
        let mut take = |p: Point| {
            let a = self.local_on(&axes, p).0;
            least = Some(least.map_or(a, |m| m.min(a)));
        };
        for ring in rings {
            let ring = ring.as_ref();
            ring.iter()
                .copied()
                .filter(|p| self.holds_on(&axes, *p))
                .for_each(&mut take);
            let n = ring.len();
            let edges = if closed { n } else { n.saturating_sub(1) };
            for i in 0..edges {
                let (a, b) = (ring[i], ring[(i + 1) % n]);
                for k in 0..4 {
                    if let Some(p) = crossing(a, b, rect[k], rect[(k + 1) % 4]) {
                        take(p);
                    }
                }
            }
        }
        if closed {
            rect.iter()
                .copied()
                .filter(|p| shape_holds(*p))
                .for_each(&mut take);
        }
        least.map(|a| Distance(a.max(0.0)))
    }
}

/// Distance along a zone from its near edge (see [`Zone::ruler`]).
#[derive(Clone, Copy, Debug)]
pub struct Ruler {
    origin: Point,
    ahead: Point,
}

impl Ruler {
    /// A lower bound on [`Zone::entry_of_corners`] for a base with these
    /// corners: every point of a convex base is at least as far along as
    /// its nearest corner (less a hair for the rounding of the points the
    /// exact test tries).
    pub fn nearest(&self, corners: &[Point; 4]) -> f64 {
        let least = corners
            .iter()
            .map(|p| (*p - self.origin).dot(self.ahead))
            .fold(f64::INFINITY, f64::min);
        least.max(0.0) - 1e-9
    }
}

/// The longest template `w` wide, swung `turn` degrees about a front
/// corner of a base `w` wide, whose every point lies within `range` of the
/// base's front edge. The farthest points are the template's far corners:
/// the one on the pivot side is `length` from the pivot; the other is
/// `w sin t + length cos t` ahead of the front line while it still lies
/// abreast of the front edge, and beyond that its distance is measured to
/// the pivot, `sqrt(w^2 + length^2)`.
fn swung_length(w: f64, turn: f64, range: f64) -> f64 {
    if turn == 0.0 {
        return range;
    }
    let (s, c) = turn.abs().to_radians().sin_cos();
    let abreast = (range - w * s) / c;
    let past_pivot = -w * c + abreast * s;
    let outer = if past_pivot <= 0.0 {
        abreast
    } else {
        (range * range - w * w).max(0.0).sqrt()
    };
    outer.min(range).max(0.0)
}

/// Whether `p` lies inside (or on) the convex polygon `poly`, corners in
/// either winding.
fn convex_holds(poly: &[Point], p: Point) -> bool {
    let n = poly.len();
    let mut sign = 0.0;
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        let c = cross(b - a, p - a);
        if c.abs() <= 1e-12 {
            continue;
        }
        if sign == 0.0 {
            sign = c.signum();
        } else if c.signum() != sign {
            return false;
        }
    }
    true
}

fn cross(a: Point, b: Point) -> f64 {
    a.x * b.y - a.y * b.x
}

/// Where segments `a`-`b` and `c`-`d` cross, if they do (parallel segments
/// never do: their shared ends are found as vertices instead).
fn crossing(a: Point, b: Point, c: Point, d: Point) -> Option<Point> {
    let (r, s) = (b - a, d - c);
    let den = cross(r, s);
    if den.abs() < 1e-15 {
        return None;
    }
    let t = cross(c - a, s) / den;
    let u = cross(c - a, r) / den;
    ((0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u)).then(|| a + r.scale(t))
}

/// One step of Sutherland-Hodgman: keep the part of convex `poly` on the
/// side of the directed line `a`-`b` that the zone's corners wind around
/// (its left: clip regions run counter-clockwise, as `relation.rs`'s arc).
pub(super) fn clip_half_plane(poly: &[Point], a: Point, b: Point) -> Vec<Point> {
    // Zone corners run near-left, near-right, far-right, far-left: with x
    // to the right and y up that is counter-clockwise, so the inside is on
    // the left of each edge.
    let inside = |p: Point| cross(b - a, p - a) >= 0.0;
    let mut out = Vec::new();
    let n = poly.len();
    for i in 0..n {
        let (p, q) = (poly[i], poly[(i + 1) % n]);
        let (pi, qi) = (inside(p), inside(q));
        if pi {
            out.push(p);
        }
        if pi != qi {
            let (dp, dq) = (cross(b - a, p - a), cross(b - a, q - a));
            out.push(p + (q - p).scale(dp / (dp - dq)));
        }
    }
    out
}

/// Where the segment from `from` to `to` first enters `base` (the point
/// itself if `from` is inside), if it reaches the base at all.
pub fn entry_into_base(base: &Base, from: Point, to: Point) -> Option<Point> {
    let corners = base.corners();
    let dir = to - from;
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for i in 0..4 {
        let (a, b) = (corners[i], corners[(i + 1) % 4]);
        // Base corners run front-left, front-right, rear-right, rear-left:
        // clockwise, so the inside is on the right of each edge.
        let edge = b - a;
        let num = -cross(edge, from - a);
        let den = cross(edge, dir);
        if den.abs() < 1e-15 {
            if num < -1e-12 {
                return None;
            }
            continue;
        }
        // Inside this edge where t * den <= num.
        let t = num / den;
        if den > 0.0 {
            t1 = t1.min(t);
        } else {
            t0 = t0.max(t);
        }
    }
    (t0 <= t1 + 1e-12).then(|| from + dir.scale(t0))
}

/// Least distance from the segment `a`-`b` to the ground of `feature` (its
/// centre line for a zero-width line); zero where they meet.
pub fn segment_to_feature(a: Point, b: Point, feature: &TerrainFeature) -> Distance {
    let seg = Line::new(convert::coord(a), convert::coord(b));
    let d = match &feature.shape {
        Shape::Polyline { points, width } if width.0 <= 0.0 => {
            Euclidean.distance(&seg, &convert::line_string(points))
        }
        _ => feature
            .area()
            .0
            .iter()
            .map(|p| Euclidean.distance(&seg, p))
            .fold(f64::INFINITY, f64::min),
    };
    Distance(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::terrain::TerrainTag;

    fn base(x: f64, y: f64, facing: f64) -> Base {
        Base::new(
            Point::new(x, y),
            Angle(facing),
            Distance(1.0),
            Distance(0.5),
        )
    }

    fn close(a: Point, b: Point) -> bool {
        (a - b).length() < 1e-9
    }

    /// A base whose front edge runs from (0,0) to (1,0), facing +y.
    fn shooter() -> Base {
        base(0.5, -0.25, 0.0)
    }

    #[test]
    fn straight_zone_runs_from_the_front_edge() {
        let z = Zone::ahead_of(&shooter(), 0.0, Distance(4.0));
        let [nl, nr, far_r, far_l] = z.corners();
        assert!(close(nl, Point::new(0.0, 0.0)) && close(nr, Point::new(1.0, 0.0)));
        assert!(close(far_r, Point::new(1.0, 4.0)) && close(far_l, Point::new(0.0, 4.0)));
        assert!(close(z.near_center(), Point::new(0.5, 0.0)));
    }

    #[test]
    fn turned_zones_swing_about_the_front_corner_and_stay_ahead() {
        let right = Zone::ahead_of(&shooter(), 45.0, Distance(4.0));
        assert!(close(right.corners()[1], Point::new(1.0, 0.0)));
        let left = Zone::ahead_of(&shooter(), -45.0, Distance(4.0));
        assert!(close(left.corners()[0], Point::new(0.0, 0.0)));
        for z in [right, left] {
            assert!(z.corners().iter().all(|c| c.y >= -1e-9), "{z:?}");
        }
        // No part of a swung zone is beyond the range from the front edge.
        for turn in [-45.0, -30.0, -14.0, -3.0, 3.0, 14.0, 30.0, 45.0] {
            let z = Zone::ahead_of(&shooter(), turn, Distance(4.0));
            let far = z
                .corners()
                .iter()
                .map(|c| Point::new(c.x.clamp(0.0, 1.0), 0.0).distance_to(*c).0)
                .fold(0.0, f64::max);
            assert!((far - 4.0).abs() < 1e-9, "{turn}: {far}");
        }
    }

    #[test]
    fn entry_of_a_base_is_its_nearest_part_inside() {
        let z = Zone::ahead_of(&shooter(), 0.0, Distance(4.0));
        // Facing us, front edge at y = 2, covering x 0.7..1.7.
        let b = base(1.2, 2.25, 180.0);
        assert!((z.entry_of_base(&b).unwrap().0 - 2.0).abs() < 1e-6);
        // Flush beside the zone, or beyond its end: not in it.
        assert!(z.entry_of_base(&base(1.5, 2.0, 0.0)).is_none());
        assert!(z.entry_of_base(&base(0.5, 4.3, 0.0)).is_none());
        // The far end is the range's end, which counts: a base whose edge
        // lies exactly there is in the zone, one a hair beyond is not.
        let at_end = z.entry_of_base(&base(0.5, 4.25, 0.0)).unwrap().0;
        assert!((at_end - 4.0).abs() < 1e-9, "{at_end}");
        assert!(z.entry_of_base(&base(0.5, 4.251, 0.0)).is_none());
        assert!(z.holds(Point::new(0.5, 4.0)) && !z.holds(Point::new(0.5, 4.001)));
        // Turned, with only a corner inside.
        let turned = Base::new(
            Point::new(1.45, 3.0),
            Angle(45.0),
            Distance(1.0),
            Distance(0.5),
        );
        let e = z.entry_of_base(&turned).unwrap().0;
        assert!(e > 3.05 && e < 3.15, "{e}");
    }

    #[test]
    fn entry_of_terrain_areas_and_lines() {
        let z = Zone::ahead_of(&shooter(), 0.0, Distance(4.0));
        let wood = TerrainFeature {
            id: "w".into(),
            name: "w".into(),
            tags: vec![TerrainTag::Woods],
            elevation: None,
            shape: Shape::Polygon {
                points: vec![
                    Point::new(-3.0, 1.5),
                    Point::new(0.2, 1.5),
                    Point::new(0.2, 3.0),
                    Point::new(-3.0, 3.0),
                ],
            },
        };
        assert!((z.entry_of_feature(&wood).unwrap().0 - 1.5).abs() < 1e-6);
        let thin = TerrainFeature {
            shape: Shape::Polyline {
                points: vec![Point::new(-1.0, 3.5), Point::new(5.0, 2.5)],
                width: Distance(0.0),
            },
            ..wood.clone()
        };
        let e = z.entry_of_feature(&thin).unwrap().0;
        // The line falls toward +x: it is lowest at the zone's right edge.
        assert!((e - (3.5 - 2.0 / 6.0)).abs() < 1e-3, "{e}");
        let wide = TerrainFeature {
            shape: Shape::Polygon {
                points: vec![
                    Point::new(-5.0, 2.0),
                    Point::new(5.0, 2.0),
                    Point::new(5.0, 9.0),
                    Point::new(-5.0, 9.0),
                ],
            },
            ..wood.clone()
        };
        // Every corner of the zone's far part lies inside the feature.
        assert!((z.entry_of_feature(&wide).unwrap().0 - 2.0).abs() < 1e-6);
        let away = TerrainFeature {
            shape: Shape::Polygon {
                points: vec![
                    Point::new(1.0, 0.0),
                    Point::new(3.0, 0.0),
                    Point::new(3.0, 3.0),
                ],
            },
            ..wood
        };
        assert!(z.entry_of_feature(&away).is_none(), "flush at the edge");
    }

    #[test]
    fn clipping_a_base_to_the_zone() {
        let z = Zone::ahead_of(&shooter(), 0.0, Distance(4.0));
        let part = z.clip_base(&base(1.2, 2.25, 180.0));
        let xs: Vec<f64> = part.iter().map(|p| p.x).collect();
        assert!(
            xs.iter().all(|x| *x >= 0.7 - 1e-9 && *x <= 1.0 + 1e-9),
            "{part:?}"
        );
        assert!(z.clip_base(&base(3.0, 2.0, 0.0)).is_empty());
    }

    #[test]
    fn segment_entry_into_a_base() {
        let b = base(0.5, 2.25, 0.0); // y 2..2.5, x 0..1
        let e = entry_into_base(&b, Point::new(0.5, 0.0), Point::new(0.5, 2.4)).unwrap();
        assert!(close(e, Point::new(0.5, 2.0)));
        assert!(entry_into_base(&b, Point::new(3.0, 0.0), Point::new(3.0, 5.0)).is_none());
        let inside = Point::new(0.5, 2.3);
        assert!(close(
            entry_into_base(&b, inside, Point::new(0.5, 9.0)).unwrap(),
            inside
        ));
    }

    #[test]
    fn distance_from_an_edge_to_a_wall() {
        let wall = TerrainFeature {
            id: "wall".into(),
            name: "wall".into(),
            tags: vec![TerrainTag::Wall],
            elevation: None,
            shape: Shape::Polyline {
                points: vec![Point::new(-2.0, 0.5), Point::new(3.0, 0.5)],
                width: Distance(0.2),
            },
        };
        let d = segment_to_feature(Point::new(0.0, 0.0), Point::new(1.0, 0.0), &wall);
        assert!((d.0 - 0.4).abs() < 1e-6, "{d:?}");
    }
}

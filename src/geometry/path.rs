//! What a unit's footprint crosses and meets when it is carried along a
//! path of straight legs, facing kept: the terrain it passes through and
//! for how far, and the first other footprint it runs into and where.
//!
//! Rules that judge a move by where it ends miss what lies between (a belt
//! of woods crossed, an enemy passed through): every move, charge and
//! retreat is a [`Route`], asked along its whole length.
//!
//! Both questions are answered exactly, without sampling. Meeting uses the
//! travel intervals of [`super::contact`]. Terrain overlap can change only
//! where a base corner crosses the feature's outline or an outline vertex
//! crosses a base edge; between two such events it is either overlapping
//! throughout or not at all, so one test at the middle of each stretch
//! settles it.

use super::base::Base;
use super::bounds::Bounds;
use super::contact::{contact_points, first_touch, travel_interval};
use super::convert::{self, EPS};
use super::measure::{Distance, Point};
use super::terrain::{Shape, TerrainFeature};
use geo::{Intersects, LineString, MultiPolygon};

/// A footprint (some bases) carried along a path: the reference point goes
/// from `points[0]` (where it stands) through each later point in turn,
/// every base translated with it.
#[derive(Clone, Debug)]
pub struct Route {
    bases: Vec<Base>,
    points: Vec<Point>,
}

/// A stretch of the path, measured along it from its start.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Span {
    pub from: Distance,
    pub to: Distance,
}

impl Span {
    /// How far the footprint travels within the stretch.
    pub fn length(&self) -> Distance {
        Distance(self.to.0 - self.from.0)
    }
}

/// What counts as meeting another footprint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Meet {
    /// Touching it, sliding flush past included (contact).
    Touch,
    /// Running into it: going on would overlap it by more than the
    /// tolerance. Sliding flush past or grazing a corner is not meeting.
    Enter,
}

/// Where a route first meets another footprint.
#[derive(Clone, Debug, PartialEq)]
pub struct Meeting {
    /// Distance along the path to the first touch.
    pub along: Distance,
    /// Where the reference point stands then.
    pub at: Point,
    /// The leg (0 for the first) on which it happens.
    pub leg: usize,
    /// Where the two footprints touch then (corners of each on the other).
    pub contacts: Vec<Point>,
}

/// Tolerance for contact points of footprints placed by arithmetic.
const CONTACT_TOL: f64 = 1e-4;

impl Route {
    /// `bases` carried from `points[0]` through the later points. A route
    /// of one point (or none) does not move.
    pub fn new(bases: &[Base], points: &[Point]) -> Route {
        Route {
            bases: bases.to_vec(),
            points: points.to_vec(),
        }
    }

    /// A straight route: `bases` moved by `by`.
    pub fn straight(bases: &[Base], from: Point, by: Point) -> Route {
        Route::new(bases, &[from, from + by])
    }

    /// The path's whole length.
    pub fn length(&self) -> Distance {
        Distance(self.legs().map(|(_, a, b)| (b - a).length()).sum())
    }

    /// Where the reference point stands `along` the path (clamped to it).
    pub fn at(&self, along: Distance) -> Point {
        let mut left = along.0.max(0.0);
        for (_, a, b) in self.legs() {
            let l = (b - a).length();
            if left <= l {
                return if l > 0.0 { a.lerp(b, left / l) } else { a };
            }
            left -= l;
        }
        self.points.last().copied().unwrap_or(Point::new(0.0, 0.0))
    }

    /// The footprint with the reference point at `p`.
    pub fn bases_at(&self, p: Point) -> Vec<Base> {
        let by = p - self.start();
        self.bases.iter().map(|b| b.translated(by)).collect()
    }

    fn start(&self) -> Point {
        self.points.first().copied().unwrap_or(Point::new(0.0, 0.0))
    }

    /// Each leg with its index, start and end.
    fn legs(&self) -> impl Iterator<Item = (usize, Point, Point)> + '_ {
        self.points
            .windows(2)
            .enumerate()
            .map(|(i, w)| (i, w[0], w[1]))
    }

    /// The box every footprint of a leg lies in.
    fn leg_bounds(&self, a: Point, b: Point) -> Option<Bounds> {
        let (at_a, at_b) = (self.bases_at(a), self.bases_at(b));
        Bounds::of_points(at_a.iter().chain(at_b.iter()).flat_map(|x| x.corners()))
    }

    /// The stretches of the path along which the footprint lies in
    /// `feature` (reaching in by more than the tolerance), in order and
    /// merged where they run on. Standing in it at the start or the end
    /// counts only as far as the path goes there: a route that does not
    /// move crosses nothing.
    pub fn crossings(&self, feature: &TerrainFeature) -> Vec<Span> {
        let ground = Ground::of(feature);
        let Some(fb) = ground.bounds() else {
            return Vec::new();
        };
        let outline = ground.segments();
        let vertices: Vec<Point> = outline.iter().flat_map(|&(p, q)| [p, q]).collect();
        let mut spans: Vec<Span> = Vec::new();
        let mut done = 0.0;
        for (_, a, b) in self.legs() {
            let d = b - a;
            let len = d.length();
            if len < EPS {
                continue;
            }
            if self.leg_bounds(a, b).is_none_or(|lb| lb.gap(&fb) > EPS) {
                done += len;
                continue;
            }
            let start = self.bases_at(a);
            let mut cuts = vec![0.0, 1.0];
            for base in &start {
                let c = base.corners();
                let edges = (0..4).map(|i| (c[i], c[(i + 1) % 4]));
                for corner in c {
                    for &(p, q) in &outline {
                        cuts.extend(cross(corner, corner + d, p, q));
                    }
                }
                for (e0, e1) in edges {
                    for &v in &vertices {
                        cuts.extend(cross(v, v - d, e0, e1));
                    }
                }
            }
            cuts.retain(|t| (0.0..=1.0).contains(t));
            cuts.sort_by(f64::total_cmp);
            cuts.dedup_by(|x, y| (*x - *y).abs() < 1e-12);
            for w in cuts.windows(2) {
                let (t0, t1) = (w[0], w[1]);
                if (t1 - t0) * len < 1e-9 {
                    continue;
                }
                let mid = a + d.scale((t0 + t1) / 2.0);
                if !ground.touches(&self.bases_at(mid)) {
                    continue;
                }
                let (from, to) = (done + t0 * len, done + t1 * len);
                match spans.last_mut() {
                    Some(last) if (from - last.to.0).abs() < 1e-9 => last.to = Distance(to),
                    _ => spans.push(Span {
                        from: Distance(from),
                        to: Distance(to),
                    }),
                }
            }
            done += len;
        }
        spans
    }

    /// Whether the footprint passes through `feature` anywhere along the
    /// path (more than a speck).
    pub fn crosses(&self, feature: &TerrainFeature) -> bool {
        !self.crossings(feature).is_empty()
    }

    /// Where the route first meets `other`, as `how` counts meeting; a
    /// footprint touching it at the start meets it at once (0).
    pub fn meets(&self, other: &[Base], how: Meet) -> Option<Meeting> {
        for (leg, a, b) in self.legs() {
            let d = b - a;
            let len = d.length();
            if len < EPS {
                continue;
            }
            let start = self.bases_at(a);
            let t = match how {
                Meet::Touch => first_touch(&start, other, d),
                Meet::Enter => first_entry(&start, other, d),
            };
            if let Some(t) = t.filter(|t| *t <= len + EPS) {
                let t = t.min(len);
                let at = a + d.scale(t / len);
                let done: f64 = self
                    .legs()
                    .take(leg)
                    .map(|(_, p, q)| (q - p).length())
                    .sum();
                let there = self.bases_at(at);
                let contacts = there
                    .iter()
                    .flat_map(|x| other.iter().flat_map(|y| contact_points(x, y, CONTACT_TOL)))
                    .collect();
                return Some(Meeting {
                    along: Distance(done + t),
                    at,
                    leg,
                    contacts,
                });
            }
        }
        None
    }

    /// The first of `others` the route meets and where, the earliest along
    /// the path (the first listed on a tie). Others whose box lies beyond
    /// the path's reach are passed over without measuring.
    pub fn first_meeting<K, I>(&self, others: I, how: Meet) -> Option<(K, Meeting)>
    where
        I: IntoIterator<Item = (K, Vec<Base>)>,
    {
        let reach = Bounds::of_points(
            self.legs()
                .flat_map(|(_, a, b)| {
                    let mut c: Vec<Point> =
                        self.bases_at(a).iter().flat_map(|x| x.corners()).collect();
                    c.extend(self.bases_at(b).iter().flat_map(|x| x.corners()));
                    c
                })
                .collect::<Vec<_>>(),
        )?;
        let mut best: Option<(K, Meeting)> = None;
        for (k, bases) in others {
            let Some(ob) = Bounds::of_points(bases.iter().flat_map(|x| x.corners())) else {
                continue;
            };
            if reach.gap(&ob) > 10.0 * EPS {
                continue;
            }
            if let Some(m) = self.meets(&bases, how)
                && best
                    .as_ref()
                    .is_none_or(|(_, b)| m.along.0 < b.along.0 - 1e-9)
            {
                best = Some((k, m));
            }
        }
        best
    }
}

/// How far `moving` travels along `dir` before it first touches `fixed`
/// in a way that going on would overlap it; none if it only grazes.
fn first_entry(moving: &[Base], fixed: &[Base], dir: Point) -> Option<f64> {
    moving
        .iter()
        .flat_map(|a| fixed.iter().map(move |b| (a, b)))
        .filter_map(|(a, b)| {
            let (_, hi) = travel_interval(a, b, dir, -EPS)?;
            if hi <= 0.0 {
                return None;
            }
            let (lo, _) = travel_interval(a, b, dir, 0.0)?;
            Some(lo.max(0.0))
        })
        .min_by(f64::total_cmp)
}

/// Where the segment `a`-`b` crosses the segment `p`-`q`, as a fraction of
/// the way from `a` to `b`; none when they are parallel or miss.
fn cross(a: Point, b: Point, p: Point, q: Point) -> Option<f64> {
    let r = b - a;
    let s = q - p;
    let den = r.x * s.y - r.y * s.x;
    if den.abs() < 1e-15 {
        return None;
    }
    let w = p - a;
    let t = (w.x * s.y - w.y * s.x) / den;
    let u = (w.x * r.y - w.y * r.x) / den;
    ((-1e-12..=1.0 + 1e-12).contains(&t) && (-1e-12..=1.0 + 1e-12).contains(&u))
        .then_some(t.clamp(0.0, 1.0))
}

/// A feature's ground in the form the overlap test wants, built once.
enum Ground {
    Area(MultiPolygon<f64>),
    Line(LineString<f64>),
}

impl Ground {
    fn of(f: &TerrainFeature) -> Ground {
        match &f.shape {
            Shape::Polyline { points, width } if width.0 <= 0.0 => {
                Ground::Line(convert::line_string(points))
            }
            _ => Ground::Area(f.area()),
        }
    }

    fn bounds(&self) -> Option<Bounds> {
        Bounds::of_points(self.segments().into_iter().flat_map(|(p, q)| [p, q]))
    }

    /// Every edge of the outline (every ring), or of the line.
    fn segments(&self) -> Vec<(Point, Point)> {
        let of = |l: &LineString<f64>| -> Vec<(Point, Point)> {
            l.lines()
                .map(|x| (convert::point(x.start), convert::point(x.end)))
                .collect()
        };
        match self {
            Ground::Line(l) => of(l),
            Ground::Area(a) => a
                .iter()
                .flat_map(|p| std::iter::once(p.exterior()).chain(p.interiors()))
                .flat_map(of)
                .collect(),
        }
    }

    /// Whether any base reaches into the ground by more than the tolerance,
    /// as [`TerrainFeature::touches_bases`] counts it.
    fn touches(&self, bases: &[Base]) -> bool {
        bases.iter().any(|b| {
            let p = b.shrunk(EPS).polygon();
            match self {
                Ground::Line(l) => p.intersects(l),
                Ground::Area(a) => p.intersects(a),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Angle, TerrainTag};

    fn base(x: f64, y: f64, facing: f64) -> Base {
        Base::from_front_center(
            Point::new(x, y),
            Angle(facing),
            Distance(4.0),
            Distance(2.0),
        )
    }

    fn square(x0: f64, y0: f64, x1: f64, y1: f64) -> TerrainFeature {
        TerrainFeature {
            id: "wood".into(),
            name: "wood".into(),
            tags: vec![TerrainTag::Woods],
            elevation: None,
            shape: Shape::Polygon {
                points: vec![
                    Point::new(x0, y0),
                    Point::new(x1, y0),
                    Point::new(x1, y1),
                    Point::new(x0, y1),
                ],
            },
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    #[test]
    fn a_belt_crossed_and_left_behind_is_crossed_for_its_depth_plus_the_base() {
        // A base 2 deep, front at y 0 facing +y, moves 20 ahead across a
        // belt from y 5 to y 8: its front enters at 5, its rear leaves at
        // 8 + 2 = 10 along.
        let b = [base(0.0, 0.0, 0.0)];
        let r = Route::straight(&b, Point::new(0.0, 0.0), Point::new(0.0, 20.0));
        let spans = r.crossings(&square(-10.0, 5.0, 10.0, 8.0));
        assert_eq!(spans.len(), 1);
        assert!(
            close(spans[0].from.0, 5.0) && close(spans[0].to.0, 10.0),
            "{spans:?}"
        );
        assert!(close(spans[0].length().0, 5.0));
        // Its end alone is clear of the belt.
        assert!(!square(-10.0, 5.0, 10.0, 8.0).touches_bases(&r.bases_at(Point::new(0.0, 20.0))));
    }

    #[test]
    fn crossings_follow_the_legs_and_a_route_that_stands_crosses_nothing() {
        let b = [base(0.0, 0.0, 0.0)];
        // Right 10, then up 10: only the second leg runs through a wood at
        // x 8..12, y 4..6 (the base's front reaches y 4 at 4 along it).
        let r = Route::new(
            &b,
            &[
                Point::new(0.0, 0.0),
                Point::new(10.0, 0.0),
                Point::new(10.0, 10.0),
            ],
        );
        let wood = square(8.0, 4.0, 12.0, 6.0);
        let spans = r.crossings(&wood);
        assert_eq!(spans.len(), 1);
        assert!(
            close(spans[0].from.0, 14.0) && close(spans[0].to.0, 18.0),
            "{spans:?}"
        );
        assert!(r.crosses(&wood));
        assert!(!Route::new(&b, &[Point::new(0.0, 0.0)]).crosses(&square(-5.0, -5.0, 5.0, 5.0)));
        // Sliding flush along a wood's edge is not crossing it.
        let edge = square(2.0, -10.0, 6.0, 30.0);
        assert!(!Route::straight(&b, Point::new(0.0, 0.0), Point::new(0.0, 20.0)).crosses(&edge));
    }

    #[test]
    fn a_thin_wall_is_crossed_where_a_base_passes_it() {
        let b = [base(0.0, 0.0, 0.0)];
        let wall = TerrainFeature {
            id: "wall".into(),
            name: "wall".into(),
            tags: vec![TerrainTag::Wall],
            elevation: None,
            shape: Shape::Polyline {
                points: vec![Point::new(-10.0, 5.0), Point::new(10.0, 5.0)],
                width: Distance(0.0),
            },
        };
        let r = Route::straight(&b, Point::new(0.0, 0.0), Point::new(0.0, 20.0));
        let spans = r.crossings(&wall);
        assert_eq!(spans.len(), 1);
        assert!(
            close(spans[0].from.0, 5.0) && close(spans[0].to.0, 7.0),
            "{spans:?}"
        );
    }

    #[test]
    fn the_first_footprint_met_on_the_way_and_where() {
        let b = [base(0.0, 0.0, 0.0)];
        let r = Route::straight(&b, Point::new(0.0, 0.0), Point::new(0.0, 30.0));
        // One across the path at 10 (its rear edge at y 10), one at 20.
        let near = vec![base(1.0, 12.0, 0.0)];
        let far = vec![base(0.0, 22.0, 0.0)];
        let (k, m) = r
            .first_meeting([("far", far), ("near", near.clone())], Meet::Touch)
            .unwrap();
        assert_eq!(k, "near");
        assert!(close(m.along.0, 10.0) && close(m.at.y, 10.0), "{m:?}");
        assert!(!m.contacts.is_empty());
        // Off to the side by more than the widths: never met.
        assert!(r.meets(&[base(10.0, 12.0, 0.0)], Meet::Touch).is_none());
    }

    #[test]
    fn sliding_flush_past_touches_but_does_not_enter() {
        let b = [base(0.0, 0.0, 0.0)];
        let r = Route::straight(&b, Point::new(0.0, 0.0), Point::new(0.0, 30.0));
        // A base whose left edge is flush with the mover's right edge.
        let beside = [base(4.0, 12.0, 0.0)];
        assert!(r.meets(&beside, Meet::Touch).is_some());
        assert!(r.meets(&beside, Meet::Enter).is_none());
        let across = [base(2.0, 12.0, 0.0)];
        let m = r.meets(&across, Meet::Enter).unwrap();
        assert!(close(m.along.0, 10.0));
    }

    #[test]
    fn a_meeting_on_a_later_leg_counts_the_legs_before() {
        let b = [base(0.0, 0.0, 0.0)];
        let r = Route::new(
            &b,
            &[
                Point::new(0.0, 0.0),
                Point::new(20.0, 0.0),
                Point::new(20.0, 20.0),
            ],
        );
        let m = r.meets(&[base(20.0, 12.0, 0.0)], Meet::Touch).unwrap();
        assert_eq!(m.leg, 1);
        assert!(close(m.along.0, 30.0), "{m:?}");
        assert_eq!(r.at(m.along), m.at);
        assert!(close(r.length().0, 40.0));
    }
}

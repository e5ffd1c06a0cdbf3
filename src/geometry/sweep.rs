//! The ground a unit passes over when it moves, for terrain entry and
//! collision checks, and the moves themselves.

use super::base::Base;
use super::convert::{self, EPS};
use super::frame::Frame;
use super::measure::{Angle, Distance, Point};
use geo::algorithm::buffer::{BufferStyle, LineCap};
use geo::{Buffer, MultiPolygon, Polygon};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The largest turn approximated by one step of a wheel's swept area.
const WHEEL_STEP_DEG: f64 = 5.0;

/// Which front (or rear) corner a unit wheels about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Corner {
    Left,
    Right,
}

/// Every base moved by the vector `by`.
pub fn translate_bases(bases: &[Base], by: Point) -> Vec<Base> {
    bases.iter().map(|b| b.translated(by)).collect()
}

/// The area covered by moving straight ahead by `distance` (backward when
/// negative) along the first base's facing: each base's start and end
/// footprints and the ground between, as the union of per-base hulls.
pub fn sweep_straight(bases: &[Base], distance: Distance) -> MultiPolygon<f64> {
    let Some(first) = bases.first() else {
        return MultiPolygon::new(vec![]);
    };
    let by = first.facing.unit_vector().scale(distance.0);
    let hulls = bases
        .iter()
        .map(|b| {
            let mut pts = b.corners().to_vec();
            pts.extend(b.translated(by).corners());
            convert::hull(&pts)
        })
        .collect();
    convert::union_all(hulls)
}

/// Wheel a unit about a corner of its frame by `degrees` (positive =
/// clockwise): about a front corner when going forward, a rear corner when
/// `backward`. Wheeling forward about the right corner is clockwise (the left
/// end comes forward), about the left corner anticlockwise; the sign is the
/// caller's to choose, so a wheel can be undone by the opposite angle.
///
/// Returns the moved bases, the area swept, and the distance travelled by
/// the outer corner (frame width times the angle in radians).
///
/// The swept area is built in steps of at most 5 degrees: for each base and
/// step, the hull of its footprint at both ends of the step and of its
/// corners at mid-step pushed out from the pivot by 1/cos(half a step). The
/// tangents to each corner's arc at the step's ends meet at that pushed-out
/// point, so every arc, and with it every intermediate footprint, lies
/// inside: the area is a slight over-estimate, never an under-estimate.
/// A non-finite angle is treated as no wheel.
pub fn wheel(
    bases: &[Base],
    corner: Corner,
    backward: bool,
    degrees: f64,
) -> (Vec<Base>, MultiPolygon<f64>, Distance) {
    let degrees = if degrees.is_finite() { degrees } else { 0.0 };
    let frame = Frame::of(bases);
    let [fl, fr, rr, rl] = frame.corners();
    let pivot = match (corner, backward) {
        (Corner::Left, false) => fl,
        (Corner::Right, false) => fr,
        (Corner::Left, true) => rl,
        (Corner::Right, true) => rr,
    };
    // Past a full turn the swept ground no longer grows.
    let swept = degrees.clamp(-360.0, 360.0);
    let steps = ((swept.abs() / WHEEL_STEP_DEG).ceil() as usize).max(1);
    let step = swept / steps as f64;
    let bulge = 1.0 / (step.to_radians() / 2.0).cos();
    let mut pieces: Vec<Polygon<f64>> = Vec::with_capacity(bases.len() * steps);
    for i in 0..steps {
        let a0 = step * i as f64;
        for b in bases {
            let mut pts = Vec::with_capacity(12);
            pts.extend(b.rotated_about(pivot, a0).corners());
            pts.extend(b.rotated_about(pivot, a0 + step).corners());
            let mid = b.rotated_about(pivot, a0 + step / 2.0).corners();
            pts.extend(mid.map(|c| pivot + (c - pivot).scale(bulge)));
            pieces.push(convert::hull(&pts));
        }
    }
    let moved = bases
        .iter()
        .map(|b| b.rotated_about(pivot, degrees))
        .collect();
    let travelled = Distance(frame.width.0 * degrees.abs().to_radians());
    (moved, convert::union_all(pieces), travelled)
}

/// Length of the route from `start` through each waypoint of `path`.
pub fn path_length(start: Point, path: &[Point]) -> Distance {
    let mut total = 0.0;
    let mut at = start;
    for p in path {
        total += (*p - at).length();
        at = *p;
    }
    Distance(total)
}

/// Move a column (or a single base) so that the centre of its head's front
/// edge follows `path` from where it stands now. `bases` are in column order,
/// head first, as [`lay_out`](super::formation::lay_out) gives them.
///
/// Each base keeps the centres of its front and rear edges on the trail
/// (the column's present line of march extended by the path) and faces
/// along the chord between them, so the column snakes round bends.
/// Returns the moved bases, the swept area and the distance the head moved.
///
/// The swept area is the head's route buffered by half the widest base's
/// width (rounded at bends, cut square at the ends) together with every
/// base's start and end footprint. Rear bases cutting a sharp bend may
/// stray slightly outside the band; that is accepted as an approximation.
pub fn follow_path(bases: &[Base], path: &[Point]) -> (Vec<Base>, MultiPolygon<f64>, Distance) {
    let Some(head) = bases.first() else {
        return (vec![], MultiPolygon::new(vec![]), Distance::ZERO);
    };
    let start = head.front_center();
    let mut points: Vec<Point> = Vec::with_capacity(2 * bases.len() + path.len());
    for b in bases.iter().rev() {
        points.push(b.rear_center());
        points.push(b.front_center());
    }
    points.extend_from_slice(path);
    let trail = Trail::new(&points);

    let mut s = trail.length();
    let moved: Vec<Base> = bases
        .iter()
        .map(|b| {
            let front = trail.at(s);
            let rear_s = s - b.depth.0;
            let facing = Angle::of_vector(front - trail.at(rear_s))
                .or_else(|| trail.direction_at(s))
                .unwrap_or(b.facing);
            s = rear_s;
            Base::from_front_center(front, facing, b.width, b.depth)
        })
        .collect();

    let mut pieces: Vec<Polygon<f64>> = bases
        .iter()
        .chain(moved.iter())
        .map(|b| b.polygon())
        .collect();
    let travelled = path_length(start, path);
    let widest = bases.iter().map(|b| b.width.0).fold(0.0, f64::max);
    if travelled.0 > EPS && widest > 0.0 {
        let mut route = vec![start];
        route.extend_from_slice(path);
        let style = BufferStyle::new(widest / 2.0).line_cap(LineCap::Butt);
        pieces.extend(convert::line_string(&route).buffer_with_style(style));
    }
    (moved, convert::union_all(pieces), travelled)
}

/// A polyline measured along its length, for placing things along it.
struct Trail {
    points: Vec<Point>,
    /// Distance along the trail to each point.
    at_point: Vec<f64>,
}

impl Trail {
    /// The trail through `points`, dropping repeats that would make
    /// zero-length legs.
    fn new(points: &[Point]) -> Trail {
        let mut kept: Vec<Point> = Vec::with_capacity(points.len());
        for p in points {
            if kept.last().is_none_or(|q| (*p - *q).length() > 1e-12) {
                kept.push(*p);
            }
        }
        let mut at_point = Vec::with_capacity(kept.len());
        let mut total = 0.0;
        for (i, p) in kept.iter().enumerate() {
            if i > 0 {
                total += (*p - kept[i - 1]).length();
            }
            at_point.push(total);
        }
        Trail {
            points: kept,
            at_point,
        }
    }

    fn length(&self) -> f64 {
        self.at_point.last().copied().unwrap_or(0.0)
    }

    /// The leg holding distance `s` (clamped to the trail), as an index of
    /// its first point.
    fn leg(&self, s: f64) -> usize {
        let legs = self.points.len().saturating_sub(1);
        (0..legs)
            .find(|i| s <= self.at_point[i + 1])
            .unwrap_or(legs.saturating_sub(1))
    }

    /// The point at distance `s` along the trail, clamped to its ends.
    fn at(&self, s: f64) -> Point {
        match self.points.len() {
            0 => Point::default(),
            1 => self.points[0],
            _ => {
                let i = self.leg(s);
                let (a, b) = (self.points[i], self.points[i + 1]);
                let len = self.at_point[i + 1] - self.at_point[i];
                let t = ((s - self.at_point[i]) / len).clamp(0.0, 1.0);
                a.lerp(b, t)
            }
        }
    }

    /// The direction of the leg holding distance `s`.
    fn direction_at(&self, s: f64) -> Option<Angle> {
        if self.points.len() < 2 {
            return None;
        }
        let i = self.leg(s);
        Angle::of_vector(self.points[i + 1] - self.points[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::formation::{Layout, lay_out};
    use crate::geometry::terrain::{Shape, TerrainFeature, TerrainTag};
    use geo::{Area, Contains};
    use std::f64::consts::PI;

    fn close(a: Point, b: Point) -> bool {
        (a - b).length() < 1e-9
    }

    fn line(n: usize) -> Vec<Base> {
        lay_out(
            Layout::Line,
            n,
            Point::new(0.0, 0.0),
            Angle(0.0),
            Distance(1.0),
            Distance(0.5),
        )
    }

    fn wood() -> TerrainFeature {
        TerrainFeature {
            id: "w".into(),
            name: "wood".into(),
            tags: vec![TerrainTag::Woods],
            elevation: None,
            shape: Shape::Polygon {
                points: vec![
                    Point::new(-5.0, 5.0),
                    Point::new(5.0, 5.0),
                    Point::new(5.0, 7.0),
                    Point::new(-5.0, 7.0),
                ],
            },
        }
    }

    #[test]
    fn straight_sweep_into_a_wood() {
        let b = line(2);
        assert!(wood().intersects_area(&sweep_straight(&b, Distance(6.0))));
        assert!(!wood().intersects_area(&sweep_straight(&b, Distance(4.0))));
        // Front edge ends exactly on the wood's edge: not in it.
        assert!(!wood().intersects_area(&sweep_straight(&b, Distance(5.0))));
    }

    #[test]
    fn straight_sweep_area() {
        let b = line(2);
        let fwd = sweep_straight(&b, Distance(3.0));
        // 2 wide, from y = -0.5 to y = 3.
        assert!((fwd.unsigned_area() - 7.0).abs() < 1e-6);
        let back = sweep_straight(&b, Distance(-1.0));
        assert!((back.unsigned_area() - 3.0).abs() < 1e-6);
        assert!(back.contains(&geo::Point::new(0.0, -1.2)));
        assert!(sweep_straight(&[], Distance(1.0)).0.is_empty());
    }

    #[test]
    fn wheel_of_a_four_base_line() {
        let b = lay_out(
            Layout::Line,
            4,
            Point::new(0.0, 0.0),
            Angle(0.0),
            Distance(1.0),
            Distance(0.5),
        );
        // Forward about the right corner (2,0): clockwise, the left end comes forward.
        let (moved, area, travelled) = wheel(&b, Corner::Right, false, 90.0);
        assert!((travelled.0 - 2.0 * PI).abs() < 1e-9);
        let f = Frame::of(&moved);
        assert!((f.facing.degrees() - 90.0).abs() < 1e-9);
        let (fl, fr) = f.front_edge();
        assert!(close(fl, Point::new(2.0, 4.0)) && close(fr, Point::new(2.0, 0.0)));
        // The outer corner's arc, radius 4 about (2,0), lies within the sweep...
        for deg in [10.0f64, 45.0, 80.0] {
            let (s, c) = deg.to_radians().sin_cos();
            let p = Point::new(2.0 - 3.99 * c, 3.99 * s);
            assert!(area.contains(&convert::geo_point(p)), "{deg}");
        }
        // ...and nothing much beyond the rear-left corner's radius does.
        let r = 16.25f64.sqrt();
        assert!(!area.contains(&convert::geo_point(Point::new(
            2.0 - (r + 0.05) * 0.5f64.sqrt(),
            (r + 0.05) * 0.5f64.sqrt()
        ))));
        // Nor ahead of the final position.
        assert!(!area.contains(&convert::geo_point(Point::new(2.5, 2.0))));
    }

    #[test]
    fn backward_wheel_uses_a_rear_corner() {
        let b = line(2);
        let (moved, _, travelled) = wheel(&b, Corner::Left, true, 30.0);
        assert!((travelled.0 - 2.0 * PI / 6.0).abs() < 1e-9);
        // The rear-left corner (-1,-0.5) stays put.
        let [_, _, _, rl] = Frame::of(&moved).corners();
        assert!(close(rl, Point::new(-1.0, -0.5)));
    }

    #[test]
    fn wheel_there_and_back() {
        let b = line(3);
        let (out, _, _) = wheel(&b, Corner::Left, false, -40.0);
        let (back, _, _) = wheel(&out, Corner::Left, false, 40.0);
        for (x, y) in b.iter().zip(&back) {
            assert!(close(x.center, y.center));
            assert!(x.facing.difference_to(y.facing).abs() < 1e-9);
        }
    }

    #[test]
    fn column_follows_a_bent_path() {
        let col = lay_out(
            Layout::Column,
            3,
            Point::new(0.0, 0.0),
            Angle(0.0),
            Distance(1.0),
            Distance(0.5),
        );
        let (moved, area, travelled) =
            follow_path(&col, &[Point::new(0.0, 2.0), Point::new(2.0, 2.0)]);
        assert!((travelled.0 - 4.0).abs() < 1e-9);
        let fronts: Vec<Point> = moved.iter().map(|b| b.front_center()).collect();
        assert!(close(fronts[0], Point::new(2.0, 2.0)));
        assert!(close(fronts[1], Point::new(1.5, 2.0)));
        assert!(close(fronts[2], Point::new(1.0, 2.0)));
        assert!(
            moved
                .iter()
                .all(|b| (b.facing.degrees() - 90.0).abs() < 1e-9)
        );
        // The corner of the route and both footprints are swept.
        assert!(area.contains(&geo::Point::new(0.0, 2.0)));
        assert!(area.contains(&geo::Point::new(0.0, -1.4)));
        assert!(area.contains(&geo::Point::new(1.9, 1.6)));
        assert!(!area.contains(&geo::Point::new(1.5, 0.5)));
    }

    #[test]
    fn base_straddling_a_bend_faces_along_the_chord() {
        let col = lay_out(
            Layout::Column,
            2,
            Point::new(0.0, 0.0),
            Angle(0.0),
            Distance(1.0),
            Distance(0.5),
        );
        let (moved, _, _) = follow_path(&col, &[Point::new(0.0, 1.0), Point::new(0.25, 1.0)]);
        assert!(close(moved[0].front_center(), Point::new(0.25, 1.0)));
        assert!((moved[0].facing.degrees() - 45.0).abs() < 1e-9);
        // The second base is wholly on the first leg.
        assert!(close(moved[1].front_center(), Point::new(0.0, 0.75)));
        assert!(moved[1].facing.degrees().abs() < 1e-9);
    }

    #[test]
    fn straight_path_is_a_plain_advance() {
        let col = lay_out(
            Layout::Column,
            2,
            Point::new(3.0, 3.0),
            Angle(90.0),
            Distance(1.0),
            Distance(0.5),
        );
        let (moved, _, travelled) = follow_path(&col, &[Point::new(5.0, 3.0)]);
        assert!((travelled.0 - 2.0).abs() < 1e-9);
        for (a, b) in col.iter().zip(&moved) {
            assert!(close(a.center + Point::new(2.0, 0.0), b.center));
        }
        assert!(
            (path_length(
                Point::new(0.0, 0.0),
                &[Point::new(3.0, 4.0), Point::new(3.0, 0.0)]
            )
            .0 - 9.0)
                .abs()
                < 1e-12
        );
    }
}

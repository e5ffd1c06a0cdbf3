//! One stand of figures: an oriented rectangle on the table.

use super::convert;
use super::measure::{Angle, Distance, Point};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A base: a rectangle of `width` (along its front edge) by `depth`, centred
/// on `center` and facing `facing`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Base {
    pub center: Point,
    pub facing: Angle,
    pub width: Distance,
    pub depth: Distance,
}

impl Base {
    /// A base from its fields.
    pub fn new(center: Point, facing: Angle, width: Distance, depth: Distance) -> Base {
        Base {
            center,
            facing,
            width,
            depth,
        }
    }

    /// The base whose front edge is centred on `front_center`.
    pub fn from_front_center(
        front_center: Point,
        facing: Angle,
        width: Distance,
        depth: Distance,
    ) -> Base {
        let center = front_center - facing.unit_vector().scale(depth.0 / 2.0);
        Base::new(center, facing, width, depth)
    }

    /// Corners in the order front-left, front-right, rear-right, rear-left.
    pub fn corners(&self) -> [Point; 4] {
        let ahead = self.facing.unit_vector().scale(self.depth.0 / 2.0);
        let right = self.facing.right_vector().scale(self.width.0 / 2.0);
        let c = self.center;
        [
            c + ahead - right,
            c + ahead + right,
            c - ahead + right,
            c - ahead - right,
        ]
    }

    /// The front edge as (front-left, front-right).
    pub fn front_edge(&self) -> (Point, Point) {
        let [fl, fr, _, _] = self.corners();
        (fl, fr)
    }

    /// Middle of the front edge.
    pub fn front_center(&self) -> Point {
        self.center + self.facing.unit_vector().scale(self.depth.0 / 2.0)
    }

    /// Middle of the rear edge.
    pub fn rear_center(&self) -> Point {
        self.center - self.facing.unit_vector().scale(self.depth.0 / 2.0)
    }

    /// The base as a `geo` polygon.
    pub fn polygon(&self) -> geo::Polygon<f64> {
        convert::polygon(&self.corners())
    }

    /// The same base moved by the vector `by`.
    pub fn translated(&self, by: Point) -> Base {
        Base {
            center: self.center + by,
            ..*self
        }
    }

    /// The base turned about `pivot` by `degrees` (positive = clockwise);
    /// its facing turns by the same amount.
    pub fn rotated_about(&self, pivot: Point, degrees: f64) -> Base {
        Base {
            center: self.center.rotated_about(pivot, degrees),
            facing: self.facing.turned(degrees),
            ..*self
        }
    }

    /// The base with every side pulled in by `by` (never below zero size).
    /// Queries that ask whether a base reaches *into* a region test this
    /// shrunken base, so that mere contact along an edge does not count.
    pub(crate) fn shrunk(&self, by: f64) -> Base {
        Base {
            width: Distance((self.width.0 - 2.0 * by).max(0.0)),
            depth: Distance((self.depth.0 - 2.0 * by).max(0.0)),
            ..*self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Point, b: Point) -> bool {
        (a - b).length() < 1e-9
    }

    #[test]
    fn corners_of_base_facing_north() {
        let b = Base::new(
            Point::new(1.0, 2.0),
            Angle(0.0),
            Distance(2.0),
            Distance(1.0),
        );
        let [fl, fr, rr, rl] = b.corners();
        assert!(close(fl, Point::new(0.0, 2.5)));
        assert!(close(fr, Point::new(2.0, 2.5)));
        assert!(close(rr, Point::new(2.0, 1.5)));
        assert!(close(rl, Point::new(0.0, 1.5)));
        assert_eq!(b.front_edge(), (fl, fr));
        assert!(close(b.front_center(), Point::new(1.0, 2.5)));
    }

    #[test]
    fn corners_of_base_facing_east() {
        // Facing +x, the front is at larger x and the left is at larger y.
        let b = Base::new(
            Point::new(0.0, 0.0),
            Angle(90.0),
            Distance(2.0),
            Distance(1.0),
        );
        let [fl, fr, rr, rl] = b.corners();
        assert!(close(fl, Point::new(0.5, 1.0)));
        assert!(close(fr, Point::new(0.5, -1.0)));
        assert!(close(rr, Point::new(-0.5, -1.0)));
        assert!(close(rl, Point::new(-0.5, 1.0)));
    }

    #[test]
    fn rotation_about_a_corner_keeps_that_corner() {
        let b = Base::new(
            Point::new(0.5, -0.25),
            Angle(0.0),
            Distance(1.0),
            Distance(0.5),
        );
        let (fl, _) = b.front_edge();
        let r = b.rotated_about(fl, 90.0);
        assert!(close(r.front_edge().0, fl));
        assert!((r.facing.degrees() - 90.0).abs() < 1e-9);
        // The right end swung clockwise from east of the pivot to south of it.
        assert!(close(r.front_edge().1, Point::new(0.0, -1.0)));
    }

    #[test]
    fn translation_and_front_center_constructor() {
        let b = Base::from_front_center(
            Point::new(3.0, 3.0),
            Angle(180.0),
            Distance(1.0),
            Distance(0.5),
        );
        assert!(close(b.center, Point::new(3.0, 3.25)));
        let t = b.translated(Point::new(1.0, -1.0));
        assert!(close(t.center, Point::new(4.0, 2.25)));
        assert_eq!(t.facing, b.facing);
    }

    #[test]
    fn polygon_has_the_base_area() {
        use geo::Area;
        let b = Base::new(
            Point::new(7.0, 7.0),
            Angle(33.0),
            Distance(2.0),
            Distance(0.75),
        );
        assert!((b.polygon().unsigned_area() - 1.5).abs() < 1e-9);
    }
}

//! A unit's frame: the oriented rectangle around all of its bases.

use super::base::Base;
use super::convert;
use super::measure::{Angle, Distance, Point};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The rectangle enclosing a unit's bases, oriented with the unit.
/// `anchor` is the centre of its front edge.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Frame {
    pub anchor: Point,
    pub facing: Angle,
    pub width: Distance,
    pub depth: Distance,
}

impl Frame {
    /// The frame of a unit, oriented by its first base. Bases at other
    /// facings are still enclosed (by their corners). An empty slice gives a
    /// frame of no size at the origin.
    pub fn of(bases: &[Base]) -> Frame {
        let Some(first) = bases.first() else {
            return Frame {
                anchor: Point::default(),
                facing: Angle(0.0),
                width: Distance::ZERO,
                depth: Distance::ZERO,
            };
        };
        let facing = first.facing;
        let (ahead, right) = (facing.unit_vector(), facing.right_vector());
        // Measure every corner along the unit's own axes, from an arbitrary
        // origin (the first base's centre) to keep the numbers small.
        let origin = first.center;
        let (mut front, mut rear) = (f64::NEG_INFINITY, f64::INFINITY);
        let (mut left, mut rightmost) = (f64::INFINITY, f64::NEG_INFINITY);
        for c in bases.iter().flat_map(|b| b.corners()) {
            let d = c - origin;
            front = front.max(d.dot(ahead));
            rear = rear.min(d.dot(ahead));
            left = left.min(d.dot(right));
            rightmost = rightmost.max(d.dot(right));
        }
        Frame {
            anchor: origin + ahead.scale(front) + right.scale((left + rightmost) / 2.0),
            facing,
            width: Distance(rightmost - left),
            depth: Distance(front - rear),
        }
    }

    /// Corners in the order front-left, front-right, rear-right, rear-left.
    pub fn corners(&self) -> [Point; 4] {
        let back = self.facing.unit_vector().scale(self.depth.0);
        let half = self.facing.right_vector().scale(self.width.0 / 2.0);
        let (fl, fr) = (self.anchor - half, self.anchor + half);
        [fl, fr, fr - back, fl - back]
    }

    /// The front edge as (front-left, front-right).
    pub fn front_edge(&self) -> (Point, Point) {
        let [fl, fr, _, _] = self.corners();
        (fl, fr)
    }

    /// The frame as a `geo` polygon.
    pub fn polygon(&self) -> geo::Polygon<f64> {
        convert::polygon(&self.corners())
    }

    /// Where `p` lies in the frame's own axes: (distance ahead of the front
    /// line, distance right of the centre line). Negative means behind / left.
    pub fn local(&self, p: Point) -> (f64, f64) {
        let d = p - self.anchor;
        (
            d.dot(self.facing.unit_vector()),
            d.dot(self.facing.right_vector()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::formation::{Layout, lay_out};

    fn close(a: Point, b: Point) -> bool {
        (a - b).length() < 1e-9
    }

    #[test]
    fn frame_of_a_line() {
        let b = lay_out(
            Layout::Line,
            4,
            Point::new(10.0, 10.0),
            Angle(0.0),
            Distance(1.0),
            Distance(0.75),
        );
        let f = Frame::of(&b);
        assert!(close(f.anchor, Point::new(10.0, 10.0)));
        assert!((f.width.0 - 4.0).abs() < 1e-9 && (f.depth.0 - 0.75).abs() < 1e-9);
        let [fl, fr, rr, rl] = f.corners();
        assert!(close(fl, Point::new(8.0, 10.0)) && close(fr, Point::new(12.0, 10.0)));
        assert!(close(rr, Point::new(12.0, 9.25)) && close(rl, Point::new(8.0, 9.25)));
    }

    #[test]
    fn frame_of_a_rotated_column() {
        let b = lay_out(
            Layout::Column,
            3,
            Point::new(0.0, 0.0),
            Angle(270.0),
            Distance(1.0),
            Distance(0.5),
        );
        let f = Frame::of(&b);
        assert!(close(f.anchor, Point::new(0.0, 0.0)));
        assert!((f.width.0 - 1.0).abs() < 1e-9 && (f.depth.0 - 1.5).abs() < 1e-9);
        // Facing -x: the rear lies at +x.
        assert!(close(f.corners()[2], Point::new(1.5, 0.5)));
    }

    #[test]
    fn local_axes() {
        let f = Frame {
            anchor: Point::new(1.0, 1.0),
            facing: Angle(90.0),
            width: Distance(2.0),
            depth: Distance(1.0),
        };
        let (ahead, right) = f.local(Point::new(3.0, 0.0));
        assert!((ahead - 2.0).abs() < 1e-9 && (right - 1.0).abs() < 1e-9);
    }

    #[test]
    fn empty_frame_is_zero_sized() {
        let f = Frame::of(&[]);
        assert_eq!(f.width, Distance::ZERO);
        assert_eq!(f.depth, Distance::ZERO);
    }
}

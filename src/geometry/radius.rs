//! Command radius and the common frontal arc: questions many rules ask of a
//! leader's or a unit's reach.

use super::base::Base;
use super::distance::point_to_bases;
use super::frame::Frame;
use super::measure::{Distance, Point};
use super::relation::in_front_arc;

/// The arc most rules give a unit's front: 45 degrees outward from each
/// front corner.
pub const COMMON_ARC_DEG: f64 = 45.0;

/// Whether a leader at `at` is within `radius` of any part of `bases`.
pub fn within_radius(at: Point, bases: &[Base], radius: Distance) -> bool {
    !bases.is_empty() && point_to_bases(at, bases).get() <= radius.get() + 1e-6
}

/// Whether any part of `other` lies in the 45-degree arc of `frame`'s front.
pub fn in_common_arc(frame: &Frame, other: &[Base]) -> bool {
    in_front_arc(frame, other, COMMON_ARC_DEG)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Angle;

    fn base_at(x: f64, y: f64) -> Base {
        Base::from_front_center(Point::new(x, y), Angle(0.0), Distance(4.0), Distance(2.0))
    }

    #[test]
    fn a_leader_reaches_the_nearest_edge_not_the_centre() {
        let b = [base_at(0.0, 0.0)];
        // The front edge is at y = 0; 30 from it is inside, 30.5 is not.
        assert!(within_radius(Point::new(0.0, 30.0), &b, Distance(30.0)));
        assert!(!within_radius(Point::new(0.0, 30.5), &b, Distance(30.0)));
        assert!(!within_radius(Point::new(0.0, 0.0), &[], Distance(30.0)));
    }

    #[test]
    fn the_common_arc_is_45_degrees_off_each_front_corner() {
        let f = Frame::of(&[base_at(0.0, 0.0)]);
        // 10 ahead of the right front corner (x = 2), 9 to the side: inside.
        assert!(in_common_arc(&f, &[base_at(13.0, 12.0)]));
        // 10 ahead, 14 to the side of the corner: outside the 45 degrees.
        assert!(!in_common_arc(&f, &[base_at(20.0, 12.0)]));
    }
}

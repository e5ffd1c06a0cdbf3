//! Where things stand relative to a unit.
//!
//! A unit's front line runs through its front edge and its flank lines
//! through its side edges, all extended without end. Points exactly on a
//! line (within 1e-6) count as behind the front line and as between the
//! flank lines. Questions about bases ask whether a base reaches *into* a
//! region by more than the tolerance, so a base merely touching a boundary
//! line from outside is not in the region.

use super::base::Base;
use super::convert::{self, EPS};
use super::frame::Frame;
use super::measure::{Distance, Point};
use super::zone::clip_half_plane;
use geo::{Distance as _, Euclidean, Intersects, Polygon};
use serde::Serialize;

/// Where a point lies relative to a unit's frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Relation {
    /// Ahead of the front line and between the flank lines.
    DirectlyInFront,
    /// Ahead of the front line but outside the flank lines.
    ToFront,
    /// Not ahead of the front line, outside the flank lines.
    ToFlank,
    /// Not ahead of the front line, between the flank lines (this includes
    /// points within the frame itself).
    DirectlyBehind,
}

/// Which of the four regions around `frame` holds `p`.
pub fn relation_of_point(frame: &Frame, p: Point) -> Relation {
    let (ahead, right) = frame.local(p);
    let between_flanks = right.abs() <= frame.width.0 / 2.0 + EPS;
    match (ahead > EPS, between_flanks) {
        (true, true) => Relation::DirectlyInFront,
        (true, false) => Relation::ToFront,
        (false, false) => Relation::ToFlank,
        (false, true) => Relation::DirectlyBehind,
    }
}

/// Whether another unit is on this unit's flank rather than its front: at
/// least half of its bases lie wholly behind the front line and no part of
/// any of them lies directly in front. An empty unit is nowhere.
pub fn is_to_flank(frame: &Frame, other: &[Base]) -> bool {
    if other.is_empty() {
        return false;
    }
    let behind = other
        .iter()
        .filter(|b| b.corners().iter().all(|c| frame.local(*c).0 <= EPS))
        .count();
    2 * behind >= other.len() && !any_part_directly_in_front(frame, other)
}

/// Whether any part of any of `other`'s bases lies ahead of the front line
/// and between the flank lines.
pub fn any_part_directly_in_front(frame: &Frame, other: &[Base]) -> bool {
    let s = reach(frame, other);
    let (fl, fr) = frame.front_edge();
    let ahead = frame.facing.unit_vector().scale(s);
    let region = convert::polygon(&[fl, fr, fr + ahead, fl + ahead]);
    reaches_into(&region, other)
}

/// Whether every corner of `shooter` is on or behind `target`'s front line,
/// as the enfilade (flank fire) test wants.
pub fn wholly_behind_front_line(target: &Frame, shooter: &Base) -> bool {
    shooter.corners().iter().all(|c| target.local(*c).0 <= EPS)
}

/// Whether any part of `other` lies in the frame's frontal arc: the area
/// ahead of the front line bounded by lines running forward from each front
/// corner, turned outward by `half_angle_deg` from straight ahead (45 for
/// the common arc; 0 gives the strip directly in front, 90 or more the whole
/// half-plane ahead).
pub fn in_front_arc(frame: &Frame, other: &[Base], half_angle_deg: f64) -> bool {
    let region = convert::polygon(&arc_region(frame, other, half_angle_deg));
    reaches_into(&region, other)
}

/// The least distance, edge to edge, from `from` to the part of `other`
/// that lies in the frame's frontal arc (as [`in_front_arc`]): a weapon's
/// reach is measured to what it may aim at, not to a nearer corner outside
/// its arc. None when no base of `other` reaches into the arc.
pub fn distance_into_front_arc(
    frame: &Frame,
    from: &[Base],
    other: &[Base],
    half_angle_deg: f64,
) -> Option<Distance> {
    let ring = arc_region(frame, other, half_angle_deg);
    let region = convert::polygon(&ring);
    other
        .iter()
        .filter(|b| reaches_into(&region, std::slice::from_ref(*b)))
        .map(|b| {
            // The base cut down to the arc: clipped by each side of the
            // convex region in turn.
            let mut part = b.corners().to_vec();
            for i in 0..ring.len() {
                part = clip_half_plane(&part, ring[i], ring[(i + 1) % ring.len()]);
            }
            let part = convert::polygon(&part);
            from.iter()
                .map(|f| {
                    let mine = f.polygon();
                    if mine.intersects(&part) {
                        0.0
                    } else {
                        Euclidean.distance(&mine, &part)
                    }
                })
                .fold(f64::INFINITY, f64::min)
        })
        .fold(None, |m: Option<f64>, d| Some(m.map_or(d, |m| m.min(d))))
        .map(Distance)
}

/// The frontal arc as a convex hexagon, counter-clockwise. The arc is
/// unbounded; this follows its sides for a length `s` and then closes
/// straight ahead. Everything it leaves out is farther than `s` from the
/// front corners, beyond every corner of `other`, so every answer about
/// `other` is the same as for the unbounded arc.
fn arc_region(frame: &Frame, other: &[Base], half_angle_deg: f64) -> [Point; 6] {
    let h = half_angle_deg.clamp(0.0, 90.0).to_radians();
    let s = reach(frame, other);
    let (fl, fr) = frame.front_edge();
    let (u, r) = (frame.facing.unit_vector(), frame.facing.right_vector());
    let out_right = (u.scale(h.cos()) + r.scale(h.sin())).scale(s);
    let out_left = (u.scale(h.cos()) - r.scale(h.sin())).scale(s);
    [
        fl,
        fr,
        fr + out_right,
        fr + out_right + u.scale(s),
        fl + out_left + u.scale(s),
        fl + out_left,
    ]
}

/// A length comfortably beyond every corner of `other` seen from the frame.
fn reach(frame: &Frame, other: &[Base]) -> f64 {
    let far = other
        .iter()
        .flat_map(|b| b.corners())
        .map(|c| (c - frame.anchor).length())
        .fold(0.0, f64::max);
    2.0 * (far + frame.width.0 + 1.0)
}

/// Whether some base pokes into the region by more than the tolerance.
fn reaches_into(region: &Polygon<f64>, other: &[Base]) -> bool {
    other
        .iter()
        .any(|b| b.shrunk(EPS).polygon().intersects(region))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::distance::bases_distance;
    use crate::geometry::formation::{Layout, lay_out};
    use crate::geometry::measure::{Angle, Distance};

    /// A line of 4 bases 1 x 0.75, front edge from (8,10) to (12,10), facing +y.
    fn unit() -> Frame {
        Frame::of(&lay_out(
            Layout::Line,
            4,
            Point::new(10.0, 10.0),
            Angle(0.0),
            Distance(1.0),
            Distance(0.75),
        ))
    }

    fn base_at(x: f64, y: f64, facing: f64) -> Base {
        Base::new(
            Point::new(x, y),
            Angle(facing),
            Distance(1.0),
            Distance(0.75),
        )
    }

    #[test]
    fn points_in_each_region() {
        let f = unit();
        assert_eq!(
            relation_of_point(&f, Point::new(10.0, 15.0)),
            Relation::DirectlyInFront
        );
        assert_eq!(
            relation_of_point(&f, Point::new(12.0, 11.0)),
            Relation::DirectlyInFront
        );
        assert_eq!(
            relation_of_point(&f, Point::new(13.0, 11.0)),
            Relation::ToFront
        );
        assert_eq!(
            relation_of_point(&f, Point::new(5.0, 20.0)),
            Relation::ToFront
        );
        assert_eq!(
            relation_of_point(&f, Point::new(14.0, 9.0)),
            Relation::ToFlank
        );
        assert_eq!(
            relation_of_point(&f, Point::new(6.0, 10.0)),
            Relation::ToFlank
        );
        assert_eq!(
            relation_of_point(&f, Point::new(10.0, 5.0)),
            Relation::DirectlyBehind
        );
        assert_eq!(
            relation_of_point(&f, Point::new(10.0, 9.5)),
            Relation::DirectlyBehind
        );
    }

    #[test]
    fn regions_turn_with_the_unit() {
        // Facing +x from (0,0), width 2: ahead is +x, the flanks at y = +-1.
        let f = Frame {
            anchor: Point::new(0.0, 0.0),
            facing: Angle(90.0),
            width: Distance(2.0),
            depth: Distance(1.0),
        };
        assert_eq!(
            relation_of_point(&f, Point::new(3.0, 0.5)),
            Relation::DirectlyInFront
        );
        assert_eq!(
            relation_of_point(&f, Point::new(3.0, 2.0)),
            Relation::ToFront
        );
        assert_eq!(
            relation_of_point(&f, Point::new(-1.0, -3.0)),
            Relation::ToFlank
        );
        assert_eq!(
            relation_of_point(&f, Point::new(-4.0, 0.0)),
            Relation::DirectlyBehind
        );
    }

    #[test]
    fn half_behind_the_front_line_is_to_the_flank() {
        let f = unit();
        // A two-base column facing west off the right flank: its head base is
        // wholly behind the front line, its rear base straddles it, and
        // neither is between the flank lines.
        let other = vec![base_at(13.0, 9.5, 270.0), base_at(13.0, 10.3, 270.0)];
        assert!(!any_part_directly_in_front(&f, &other));
        assert!(is_to_flank(&f, &other));
    }

    #[test]
    fn less_than_half_behind_is_to_the_front() {
        let f = unit();
        let other = vec![
            base_at(13.0, 9.5, 270.0),
            base_at(13.0, 10.5, 270.0),
            base_at(13.0, 11.5, 270.0),
        ];
        assert!(!is_to_flank(&f, &other));
    }

    #[test]
    fn any_part_in_front_spoils_the_flank() {
        let f = unit();
        // One base wholly behind the line (half the unit), but the other
        // reaches across the right flank line ahead of the front.
        let other = vec![base_at(13.0, 9.0, 270.0), base_at(12.3, 10.5, 270.0)];
        assert!(any_part_directly_in_front(&f, &other));
        assert!(!is_to_flank(&f, &other));
    }

    #[test]
    fn flush_against_the_flank_line_is_not_in_front() {
        let f = unit();
        // Left edge exactly on the right flank line x = 12, ahead of the front.
        let other = vec![base_at(12.5, 12.0, 0.0)];
        assert!(!any_part_directly_in_front(&f, &other));
        // In contact with the front edge, facing it: directly in front.
        let facing_us = vec![base_at(10.0, 10.375, 180.0)];
        assert!(any_part_directly_in_front(&f, &facing_us));
    }

    #[test]
    fn enfilade_needs_every_corner_behind() {
        let f = unit();
        assert!(wholly_behind_front_line(&f, &base_at(14.0, 9.0, 270.0)));
        // Rear corners at y = 10 exactly still count as behind.
        assert!(wholly_behind_front_line(&f, &base_at(14.0, 9.625, 0.0)));
        assert!(!wholly_behind_front_line(&f, &base_at(14.0, 9.8, 0.0)));
    }

    #[test]
    fn frontal_arc_of_45_degrees() {
        let f = unit();
        // Front corners at (8,10) and (12,10). At 4 ahead, the 45 degree arc
        // reaches out to x = 16 on the right.
        let point_base =
            |x: f64, y: f64| Base::new(Point::new(x, y), Angle(0.0), Distance(0.2), Distance(0.2));
        assert!(in_front_arc(&f, &[point_base(15.5, 14.0)], 45.0));
        assert!(!in_front_arc(&f, &[point_base(16.5, 14.0)], 45.0));
        assert!(in_front_arc(&f, &[point_base(4.5, 14.0)], 45.0));
        assert!(!in_front_arc(&f, &[point_base(3.5, 14.0)], 45.0));
        // Behind the front line is never in the arc.
        assert!(!in_front_arc(&f, &[point_base(10.0, 9.0)], 45.0));
        // A narrower arc excludes what the 45 degree one took.
        assert!(!in_front_arc(&f, &[point_base(15.5, 14.0)], 30.0));
        // 90 degrees is the whole half-plane ahead.
        assert!(in_front_arc(&f, &[point_base(40.0, 10.5)], 90.0));
    }

    #[test]
    fn distance_into_the_arc_is_measured_to_the_part_inside_it() {
        let f = unit();
        let me = lay_out(
            Layout::Line,
            4,
            Point::new(10.0, 10.0),
            Angle(0.0),
            Distance(1.0),
            Distance(0.75),
        );
        // Wholly in the arc, straight ahead: its front edge is 3 away.
        let ahead = [base_at(10.0, 13.375, 180.0)];
        let d = distance_into_front_arc(&f, &me, &ahead, 45.0).unwrap();
        assert!((d.get() - 3.0).abs() < 1e-9, "{d:?}");
        // A long base off the right front corner (12, 10), x 16.5 to 17.5
        // and y 10.5 to 22.5: its near end is outside the arc, 4.53 from
        // the corner; it reaches in across the arc's side y = x - 2, and
        // the nearest part inside, (16.5, 14.5), is 4.5 * sqrt 2 = 6.36.
        let long = [Base::new(
            Point::new(17.0, 16.5),
            Angle(270.0),
            Distance(12.0),
            Distance(1.0),
        )];
        assert!(in_front_arc(&f, &long, 45.0));
        assert!(bases_distance(&me, &long).get() < 4.6);
        let d = distance_into_front_arc(&f, &me, &long, 45.0).unwrap();
        assert!((d.get() - 4.5 * 2f64.sqrt()).abs() < 1e-9, "{d:?}");
        // Of several bases, the nearest part in the arc of any of them.
        let both = [long[0], ahead[0]];
        let d = distance_into_front_arc(&f, &me, &both, 45.0).unwrap();
        assert!((d.get() - 3.0).abs() < 1e-9, "{d:?}");
        // Outside the arc, or flush against its side: none.
        let out = [base_at(20.0, 12.0, 0.0)];
        assert!(distance_into_front_arc(&f, &me, &out, 45.0).is_none());
        let flush = [Base::new(
            Point::new(12.0 + 4.0 + 0.5 * 2f64.sqrt(), 14.0),
            Angle(45.0),
            Distance(1.0),
            Distance(1.0),
        )];
        assert!(!in_front_arc(&f, &flush, 45.0));
        assert!(distance_into_front_arc(&f, &me, &flush, 45.0).is_none());
        // A base touching the front edge straight ahead: 0.
        let touching = [base_at(10.0, 10.375, 180.0)];
        let d = distance_into_front_arc(&f, &me, &touching, 45.0).unwrap();
        assert!(d.get() < 1e-9, "{d:?}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        /// The distance into the arc exists exactly when the arc holds some
        /// part, is never less than the plain distance, and turns and moves
        /// with the table.
        #[test]
        fn distance_into_the_arc_agrees_with_the_arc_and_the_plain_distance(
            (n, ax, ay, facing) in (1usize..4, -10.0..10.0, -10.0..10.0, 0.0..360.0),
            (bx, by, bf, bw, bd) in (-20.0..20.0, -20.0..20.0, 0.0..360.0, 0.2..8.0, 0.2..3.0),
            (turn, dx, dy) in (-180.0..180.0, -30.0..30.0, -30.0..30.0),
        ) {
            let me = lay_out(Layout::Line, n, Point::new(ax, ay), Angle(facing), Distance(1.0), Distance(0.75));
            let other = [Base::new(Point::new(bx, by), Angle(bf), Distance(bw), Distance(bd))];
            let f = Frame::of(&me);
            let d = distance_into_front_arc(&f, &me, &other, 45.0);
            proptest::prop_assert_eq!(d.is_some(), in_front_arc(&f, &other, 45.0));
            if let Some(d) = d {
                proptest::prop_assert!(d.get() >= bases_distance(&me, &other).get() - 1e-9);
                let pivot = Point::new(0.0, 0.0);
                let by = Point::new(dx, dy);
                let m = |b: &Base| b.rotated_about(pivot, turn).translated(by);
                let me2: Vec<Base> = me.iter().map(m).collect();
                let other2: Vec<Base> = other.iter().map(m).collect();
                if let Some(d2) = distance_into_front_arc(&Frame::of(&me2), &me2, &other2, 45.0) {
                    proptest::prop_assert!((d.get() - d2.get()).abs() < 1e-6, "{d:?} vs {d2:?}");
                }
            }
        }
    }
}

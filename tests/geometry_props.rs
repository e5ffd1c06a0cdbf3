//! Property tests for the table geometry: symmetry, invariance under moving
//! the whole table, and round trips.

use galloper::geometry::{
    Angle, Base, Corner, Distance, Frame, Layout, Point, Shape, TerrainFeature, TerrainTag,
    bases_distance, follow_path, lay_out, line_of_sight, overlaps, relation_of_point,
    sweep_straight, wheel,
};
use geo::{Area, BooleanOps, MultiPolygon};
use proptest::prelude::*;

/// Moving the whole table: turn about `pivot` by `degrees`, then shift by `by`.
#[derive(Clone, Copy, Debug)]
struct Motion {
    pivot: Point,
    degrees: f64,
    by: Point,
}

impl Motion {
    fn point(&self, p: Point) -> Point {
        p.rotated_about(self.pivot, self.degrees) + self.by
    }
    fn base(&self, b: &Base) -> Base {
        b.rotated_about(self.pivot, self.degrees)
            .translated(self.by)
    }
    fn bases(&self, bs: &[Base]) -> Vec<Base> {
        bs.iter().map(|b| self.base(b)).collect()
    }
    fn feature(&self, f: &TerrainFeature) -> TerrainFeature {
        let shape = match &f.shape {
            Shape::Polygon { points } => Shape::Polygon {
                points: points.iter().map(|p| self.point(*p)).collect(),
            },
            Shape::Polyline { points, width } => Shape::Polyline {
                points: points.iter().map(|p| self.point(*p)).collect(),
                width: *width,
            },
        };
        TerrainFeature { shape, ..f.clone() }
    }
}

fn point(range: f64) -> impl Strategy<Value = Point> {
    (-range..range, -range..range).prop_map(|(x, y)| Point::new(x, y))
}

fn base() -> impl Strategy<Value = Base> {
    (point(15.0), 0.0..360.0, 0.2..3.0, 0.2..3.0)
        .prop_map(|(c, f, w, d)| Base::new(c, Angle(f), Distance(w), Distance(d)))
}

fn group() -> impl Strategy<Value = Vec<Base>> {
    prop::collection::vec(base(), 1..4)
}

fn motion() -> impl Strategy<Value = Motion> {
    (point(30.0), -180.0..180.0, point(30.0)).prop_map(|(pivot, degrees, by)| Motion {
        pivot,
        degrees,
        by,
    })
}

fn layout() -> impl Strategy<Value = Layout> {
    prop_oneof![
        Just(Layout::Line),
        Just(Layout::Column),
        Just(Layout::Massed),
        Just(Layout::Single)
    ]
}

/// A unit laid out in formation: (layout, bases, anchor, facing, width, depth).
fn unit() -> impl Strategy<Value = Vec<Base>> {
    (
        layout(),
        1usize..6,
        point(15.0),
        0.0..360.0,
        0.5..2.0,
        0.3..1.5,
    )
        .prop_map(|(l, n, a, f, w, d)| lay_out(l, n, a, Angle(f), Distance(w), Distance(d)))
}

/// A blocking feature: a square wood, or a thin or wide wall.
fn feature() -> impl Strategy<Value = TerrainFeature> {
    let wood = (point(15.0), 0.5..5.0, 0.0..90.0).prop_map(|(c, size, turn)| {
        let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .map(|(x, y)| (c + Point::new(x * size / 2.0, y * size / 2.0)).rotated_about(c, turn));
        TerrainFeature {
            id: "wood".into(),
            name: "wood".into(),
            tags: vec![TerrainTag::Woods],
            elevation: None,
            shape: Shape::Polygon {
                points: corners.to_vec(),
            },
        }
    });
    let wall =
        (point(15.0), point(15.0), prop_oneof![Just(0.0), 0.1..1.0]).prop_map(|(a, b, w)| {
            TerrainFeature {
                id: "wall".into(),
                name: "wall".into(),
                tags: vec![TerrainTag::Wall],
                elevation: None,
                shape: Shape::Polyline {
                    points: vec![a, b],
                    width: Distance(w),
                },
            }
        });
    prop_oneof![wood, wall]
}

/// Area of `part` outside `whole`.
fn outside(part: &Base, whole: &MultiPolygon<f64>) -> f64 {
    MultiPolygon::new(vec![part.polygon()])
        .difference(whole)
        .unsigned_area()
}

fn same_base(a: &Base, b: &Base) -> bool {
    (a.center - b.center).length() < 1e-9 && a.facing.difference_to(b.facing).abs() < 1e-9
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn distance_is_symmetric_and_non_negative(a in group(), b in group()) {
        let ab = bases_distance(&a, &b).0;
        let ba = bases_distance(&b, &a).0;
        prop_assert!(ab >= 0.0);
        prop_assert!((ab - ba).abs() < 1e-9, "{ab} vs {ba}");
    }

    #[test]
    fn overlap_is_symmetric(a in group(), b in group()) {
        prop_assert_eq!(overlaps(&a, &b), overlaps(&b, &a));
        if overlaps(&a, &b) {
            prop_assert_eq!(bases_distance(&a, &b), Distance::ZERO);
        }
    }

    #[test]
    fn distance_and_overlap_survive_moving_the_table(a in group(), b in group(), m in motion()) {
        let (ma, mb) = (m.bases(&a), m.bases(&b));
        let (before, after) = (bases_distance(&a, &b).0, bases_distance(&ma, &mb).0);
        prop_assert!((before - after).abs() < 1e-6, "{before} vs {after}");
        prop_assert_eq!(overlaps(&a, &b), overlaps(&ma, &mb));
    }

    #[test]
    fn relation_survives_moving_the_table(u in unit(), p in point(25.0), m in motion()) {
        let before = relation_of_point(&Frame::of(&u), p);
        let after = relation_of_point(&Frame::of(&m.bases(&u)), m.point(p));
        prop_assert_eq!(before, after);
    }

    #[test]
    fn line_of_sight_survives_moving_the_table(
        terrain in prop::collection::vec(feature(), 1..4),
        from in point(20.0),
        to in point(20.0),
        m in motion(),
    ) {
        let blocking = [TerrainTag::Woods, TerrainTag::Wall];
        let moved: Vec<TerrainFeature> = terrain.iter().map(|f| m.feature(f)).collect();
        prop_assert_eq!(
            line_of_sight(from, to, &terrain, &blocking),
            line_of_sight(m.point(from), m.point(to), &moved, &blocking)
        );
    }

    #[test]
    fn lay_out_round_trips_through_the_frame(
        l in layout(), n in 1usize..8, anchor in point(20.0), facing in 0.0..360.0,
        w in 0.3..3.0, d in 0.3..3.0,
    ) {
        let bases = lay_out(l, n, anchor, Angle(facing), Distance(w), Distance(d));
        let f = Frame::of(&bases);
        prop_assert!((f.anchor - anchor).length() < 1e-9);
        prop_assert!(f.facing.difference_to(Angle(facing)).abs() < 1e-9);
        let (across, deep) = match l {
            Layout::Line => (n, 1),
            Layout::Column => (1, n),
            Layout::Massed => (n.div_ceil(2), if n > 1 { 2 } else { 1 }),
            Layout::Single => (1, 1),
        };
        prop_assert!((f.width.0 - across as f64 * w).abs() < 1e-9);
        prop_assert!((f.depth.0 - deep as f64 * d).abs() < 1e-9);
    }

    #[test]
    fn wheel_there_and_back_returns_the_bases(
        u in unit(), left in any::<bool>(), backward in any::<bool>(), a in -180.0..180.0,
    ) {
        let corner = if left { Corner::Left } else { Corner::Right };
        let (out, _, gone) = wheel(&u, corner, backward, a);
        let (back, _, returned) = wheel(&out, corner, backward, -a);
        prop_assert!((gone.0 - returned.0).abs() < 1e-9);
        for (x, y) in u.iter().zip(&back) {
            prop_assert!(same_base(x, y), "{x:?} vs {y:?}");
        }
    }

    #[test]
    fn sweeps_cover_start_and_end(
        u in unit(), dist in -10.0..10.0, left in any::<bool>(), a in -120.0..120.0,
        path in prop::collection::vec(point(20.0), 1..4),
    ) {
        let straight = sweep_straight(&u, Distance(dist));
        let ahead = u[0].facing.unit_vector().scale(dist);
        for b in &u {
            prop_assert!(outside(b, &straight) < 1e-6);
            prop_assert!(outside(&b.translated(ahead), &straight) < 1e-6);
        }
        let corner = if left { Corner::Left } else { Corner::Right };
        let (moved, area, _) = wheel(&u, corner, false, a);
        for b in u.iter().chain(&moved) {
            prop_assert!(outside(b, &area) < 1e-6);
        }
        let (moved, area, _) = follow_path(&u, &path);
        for b in u.iter().chain(&moved) {
            prop_assert!(outside(b, &area) < 1e-6);
        }
    }
}

/// A path of one to three legs from the origin.
fn route_points() -> impl Strategy<Value = Vec<Point>> {
    prop::collection::vec(point(20.0), 1..4).prop_map(|mut v| {
        v.insert(0, Point::new(0.0, 0.0));
        v
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Along a path, the footprint lies in a feature exactly within the
    /// stretches `crossings` gives: checked at points along the path away
    /// from the stretches' ends.
    #[test]
    fn path_crossings_agree_with_the_footprint_at_each_point(
        u in group(), pts in route_points(), f in feature()
    ) {
        let r = galloper::geometry::path::Route::new(&u, &pts);
        let spans = r.crossings(&f);
        let len = r.length().get();
        for i in 0..=40 {
            let s = len * i as f64 / 40.0;
            let near_end = spans.iter().any(|x| (s - x.from.get()).abs() < 1e-4 || (s - x.to.get()).abs() < 1e-4);
            if near_end || len < 1e-3 {
                continue;
            }
            let inside = spans.iter().any(|x| x.from.get() < s && s < x.to.get());
            let p = r.at(Distance(s));
            prop_assert_eq!(inside, f.touches_bases(&r.bases_at(p)), "at {} of {}: {:?}", s, len, spans);
        }
    }

    /// The first meeting along a path is where the footprint first touches
    /// the other: touching there, apart a little before.
    #[test]
    fn path_meeting_is_the_first_touch(u in group(), pts in route_points(), other in group()) {
        let r = galloper::geometry::path::Route::new(&u, &pts);
        let start = r.bases_at(pts[0]);
        prop_assume!(!galloper::geometry::touching(&start, &other) && !overlaps(&start, &other));
        if let Some(m) = r.meets(&other, galloper::geometry::path::Meet::Touch) {
            prop_assert!(bases_distance(&r.bases_at(m.at), &other).get() < 1e-4);
            let before = r.at(Distance((m.along.get() - 1e-3).max(0.0)));
            prop_assert!(!overlaps(&r.bases_at(before), &other));
        }
    }
}

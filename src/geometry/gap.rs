//! How far a terrain feature's ground lies from a point or from bases: the
//! measure behind "within 12 inches of the wall" and behind "touching",
//! where a base flush against a feature's face (a gap of nought, give or
//! take rounding, [`super::limit`]) touches it.

use super::base::Base;
use super::convert;
use super::limit::within;
use super::measure::{Distance, Point};
use super::terrain::{Shape, TerrainFeature};
use geo::{Contains, Distance as _, Euclidean, LineString, Polygon};

impl TerrainFeature {
    /// How far `p` lies from the feature's ground: its nearest face for an
    /// area or a line with a width, its centre line for a zero-width line;
    /// nought inside it.
    pub fn gap_to_point(&self, p: Point) -> Distance {
        let p = convert::geo_point(p);
        self.gap(
            |line| Euclidean.distance(&p, line),
            |area| {
                if area.contains(&p) {
                    0.0
                } else {
                    Euclidean.distance(&p, area)
                }
            },
        )
    }

    /// How far the nearest of `bases` lies from the feature's ground (as
    /// [`TerrainFeature::gap_to_point`]); nought where one reaches in or is
    /// flush against it. Infinite for no bases.
    pub fn gap_to_bases(&self, bases: &[Base]) -> Distance {
        bases
            .iter()
            .map(|b| {
                let poly = b.polygon();
                let centre = convert::geo_point(b.center);
                self.gap(
                    |line| Euclidean.distance(&poly, line),
                    // A base wholly inside an area has no edge near its
                    // outline, yet stands on it.
                    |area| {
                        if area.contains(&centre) {
                            0.0
                        } else {
                            Euclidean.distance(&poly, area)
                        }
                    },
                )
            })
            .fold(Distance(f64::INFINITY), Distance::min)
    }

    /// Whether any of `bases` reaches into the feature or lies flush
    /// against its face: "any part of the base touching" where a base
    /// merely meeting the feature's edge counts (unlike
    /// [`TerrainFeature::touches_bases`], which asks it to reach in).
    pub fn touches_or_meets_bases(&self, bases: &[Base]) -> bool {
        self.touches_bases(bases) || within(self.gap_to_bases(bases).get(), 0.0)
    }

    /// The least of `to_line` (a zero-width line's centre line) or of
    /// `to_area` over the polygons of the feature's ground.
    fn gap(
        &self,
        to_line: impl Fn(&LineString<f64>) -> f64,
        to_area: impl Fn(&Polygon<f64>) -> f64,
    ) -> Distance {
        let d = match &self.shape {
            Shape::Polyline { points, width } if width.0 <= 0.0 => {
                to_line(&convert::line_string(points))
            }
            _ => self
                .area()
                .0
                .iter()
                .map(to_area)
                .fold(f64::INFINITY, f64::min),
        };
        Distance(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Angle, TerrainTag};

    fn wall(width: f64) -> TerrainFeature {
        TerrainFeature {
            id: "w".into(),
            name: "w".into(),
            tags: vec![TerrainTag::Wall],
            elevation: None,
            shape: Shape::Polyline {
                points: vec![Point::new(0.0, 10.0), Point::new(20.0, 10.0)],
                width: Distance(width),
            },
        }
    }

    /// A 2 by 1 base facing +y whose front edge is centred on (x, y).
    fn base(x: f64, y: f64) -> Base {
        Base::from_front_center(Point::new(x, y), Angle(0.0), Distance(2.0), Distance(1.0))
    }

    #[test]
    fn a_point_is_measured_to_the_walls_nearest_face() {
        let w = wall(1.0);
        assert!((w.gap_to_point(Point::new(5.0, 2.5)).get() - 7.0).abs() < 1e-9);
        assert!((w.gap_to_point(Point::new(5.0, 16.0)).get() - 5.5).abs() < 1e-9);
        assert_eq!(w.gap_to_point(Point::new(5.0, 10.2)).get(), 0.0);
        // A wall without width is measured to its line.
        assert!((wall(0.0).gap_to_point(Point::new(5.0, 2.5)).get() - 7.5).abs() < 1e-9);
    }

    #[test]
    fn a_base_flush_against_the_face_meets_the_wall_without_reaching_in() {
        let w = wall(1.0);
        // Front edge on the face at y 9.5.
        let flush = [base(5.0, 9.5)];
        assert!(w.gap_to_bases(&flush).get() < 1e-9);
        assert!(!w.touches_bases(&flush));
        assert!(w.touches_or_meets_bases(&flush));
        let apart = [base(5.0, 9.4)];
        assert!((w.gap_to_bases(&apart).get() - 0.1).abs() < 1e-9);
        assert!(!w.touches_or_meets_bases(&apart));
        assert!(w.touches_or_meets_bases(&[base(5.0, 9.8)]));
        assert!(w.gap_to_bases(&[]).get().is_infinite());
    }

    #[test]
    fn a_base_wholly_inside_an_area_is_at_nought() {
        let wood = TerrainFeature {
            shape: Shape::Polygon {
                points: vec![
                    Point::new(0.0, 0.0),
                    Point::new(10.0, 0.0),
                    Point::new(10.0, 10.0),
                    Point::new(0.0, 10.0),
                ],
            },
            ..wall(1.0)
        };
        assert_eq!(wood.gap_to_bases(&[base(5.0, 5.0)]).get(), 0.0);
        assert!((wood.gap_to_bases(&[base(5.0, 13.0)]).get() - 2.0).abs() < 1e-9);
    }
}

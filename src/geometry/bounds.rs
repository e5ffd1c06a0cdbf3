//! Upright bounding boxes: a cheap lower bound on the distance between
//! shapes, so that rules can skip the exact geometry of pieces that are
//! plainly far apart (spatial pruning) without changing any answer.

use super::{Base, Point};
use geo::{BoundingRect, MultiPolygon};

/// An upright rectangle holding a shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    pub min: Point,
    pub max: Point,
}

impl Bounds {
    /// The box of some points; none when there are none.
    pub fn of_points(points: impl IntoIterator<Item = Point>) -> Option<Bounds> {
        points.into_iter().fold(None, |b, p| {
            Some(match b {
                None => Bounds { min: p, max: p },
                Some(Bounds { min, max }) => Bounds {
                    min: Point {
                        x: min.x.min(p.x),
                        y: min.y.min(p.y),
                    },
                    max: Point {
                        x: max.x.max(p.x),
                        y: max.y.max(p.y),
                    },
                },
            })
        })
    }

    /// The box of one base.
    pub fn of_base(b: &Base) -> Bounds {
        // Four corners are never empty.
        Bounds::of_points(b.corners()).unwrap_or(Bounds {
            min: b.center,
            max: b.center,
        })
    }

    /// The box of an area; none when it is empty.
    pub fn of_area(a: &MultiPolygon<f64>) -> Option<Bounds> {
        a.bounding_rect().map(|r| Bounds {
            min: Point {
                x: r.min().x,
                y: r.min().y,
            },
            max: Point {
                x: r.max().x,
                y: r.max().y,
            },
        })
    }

    /// The distance between the boxes (0 when they meet): never more than
    /// the distance between the shapes they hold.
    pub fn gap(&self, other: &Bounds) -> f64 {
        let dx = (other.min.x - self.max.x)
            .max(self.min.x - other.max.x)
            .max(0.0);
        let dy = (other.min.y - self.max.y)
            .max(self.min.y - other.max.y)
            .max(0.0);
        dx.hypot(dy)
    }
}

impl Bounds {
    /// Whether the boxes are at most `d` apart ([`Bounds::gap`] without the root).
    pub fn within(&self, other: &Bounds, d: f64) -> bool {
        let dx = (other.min.x - self.max.x)
            .max(self.min.x - other.max.x)
            .max(0.0);
        let dy = (other.min.y - self.max.y)
            .max(self.min.y - other.max.y)
            .max(0.0);
        dx * dx + dy * dy <= d * d
    }
}

/// Whether bases `a` and `b` are surely more than `d` apart edge to edge.
pub fn bases_beyond(a: &Base, b: &Base, d: f64) -> bool {
    Bounds::of_base(a).gap(&Bounds::of_base(b)) > d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Angle, Distance, base_distance};

    #[test]
    fn the_box_gap_never_exceeds_the_true_distance() {
        for (i, turn) in [0.0, 30.0, 45.0, 90.0, 137.0].into_iter().enumerate() {
            let a = Base::new(
                Point { x: 0.0, y: 0.0 },
                Angle(turn),
                Distance(4.0),
                Distance(0.75),
            );
            let b = Base::new(
                Point {
                    x: 3.0 + i as f64,
                    y: 2.5,
                },
                Angle(turn * 2.0),
                Distance(3.0),
                Distance(3.0),
            );
            let lower = Bounds::of_base(&a).gap(&Bounds::of_base(&b));
            assert!(lower <= base_distance(&a, &b).get() + 1e-9);
        }
        let far = Base::new(
            Point { x: 100.0, y: 0.0 },
            Angle(0.0),
            Distance(1.0),
            Distance(1.0),
        );
        let near = Base::new(
            Point { x: 0.0, y: 0.0 },
            Angle(0.0),
            Distance(1.0),
            Distance(1.0),
        );
        assert!(bases_beyond(&near, &far, 50.0));
        assert!(!bases_beyond(&near, &far, 99.5));
    }
}

//! Distances, angles and points on the table.
//!
//! Coordinates are in the scenario's own measure (base widths, inches or cm):
//! `x` grows to the right along the long edge of the table, `y` grows away
//! from the first side's table edge. Facings are compass-like: 0 degrees faces
//! +y, 90 degrees faces +x.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{Add, Mul, Sub};

/// A length on the table, in the scenario's measure.
#[derive(
    Clone, Copy, Debug, PartialEq, PartialOrd, Default, Serialize, Deserialize, JsonSchema,
)]
#[serde(transparent)]
pub struct Distance(pub f64);

impl Distance {
    pub const ZERO: Distance = Distance(0.0);
    pub fn get(self) -> f64 {
        self.0
    }
    pub fn max(self, other: Distance) -> Distance {
        if self.0 >= other.0 { self } else { other }
    }
    pub fn min(self, other: Distance) -> Distance {
        if self.0 <= other.0 { self } else { other }
    }
}

impl Add for Distance {
    type Output = Distance;
    fn add(self, o: Distance) -> Distance {
        Distance(self.0 + o.0)
    }
}

impl Sub for Distance {
    type Output = Distance;
    fn sub(self, o: Distance) -> Distance {
        Distance(self.0 - o.0)
    }
}

impl Mul<f64> for Distance {
    type Output = Distance;
    fn mul(self, k: f64) -> Distance {
        Distance(self.0 * k)
    }
}

impl fmt::Display for Distance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.2}", self.0)
    }
}

/// An angle in degrees, clockwise from facing +y.
#[derive(
    Clone, Copy, Debug, PartialEq, PartialOrd, Default, Serialize, Deserialize, JsonSchema,
)]
#[serde(transparent)]
pub struct Angle(pub f64);

impl Angle {
    pub fn degrees(self) -> f64 {
        self.0
    }
    pub fn radians(self) -> f64 {
        self.0.to_radians()
    }
    /// The same direction within [0, 360).
    pub fn normalized(self) -> Angle {
        Angle(self.0.rem_euclid(360.0))
    }
    /// Unit vector pointing along this facing.
    pub fn unit_vector(self) -> Point {
        let r = self.radians();
        Point {
            x: r.sin(),
            y: r.cos(),
        }
    }
    /// Unit vector pointing to the right of this facing.
    pub fn right_vector(self) -> Point {
        let r = self.radians();
        Point {
            x: r.cos(),
            y: -r.sin(),
        }
    }
    pub fn turned(self, by: f64) -> Angle {
        Angle(self.0 + by).normalized()
    }
    /// The facing that points along `v` (which need not be of unit length),
    /// or `None` for a (near) zero vector, which points nowhere.
    pub fn of_vector(v: Point) -> Option<Angle> {
        if v.length() < 1e-12 {
            return None;
        }
        Some(Angle(v.x.atan2(v.y).to_degrees()).normalized())
    }
    /// The smallest turn, in degrees within (-180, 180], from `self` to `to`.
    pub fn difference_to(self, to: Angle) -> f64 {
        let d = (to.0 - self.0).rem_euclid(360.0);
        if d > 180.0 { d - 360.0 } else { d }
    }
}

/// A point (or vector) on the table.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

impl Point {
    pub const fn new(x: f64, y: f64) -> Self {
        Point { x, y }
    }
    pub fn dot(self, o: Point) -> f64 {
        self.x * o.x + self.y * o.y
    }
    pub fn length(self) -> f64 {
        self.x.hypot(self.y)
    }
    pub fn distance_to(self, o: Point) -> Distance {
        Distance((self - o).length())
    }
    /// The point of the segment from `a` to `b` nearest to this one.
    pub fn nearest_on_segment(self, a: Point, b: Point) -> Point {
        let ab = b - a;
        let len2 = ab.dot(ab);
        let t = if len2 > 0.0 {
            ((self - a).dot(ab) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        a.lerp(b, t)
    }
    /// Distance to the nearest point of the segment from `a` to `b`.
    pub fn distance_to_segment(self, a: Point, b: Point) -> Distance {
        self.distance_to(self.nearest_on_segment(a, b))
    }
    pub fn scale(self, k: f64) -> Point {
        Point {
            x: self.x * k,
            y: self.y * k,
        }
    }
    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }
}

impl Add for Point {
    type Output = Point;
    fn add(self, o: Point) -> Point {
        Point {
            x: self.x + o.x,
            y: self.y + o.y,
        }
    }
}

impl Sub for Point {
    type Output = Point;
    fn sub(self, o: Point) -> Point {
        Point {
            x: self.x - o.x,
            y: self.y - o.y,
        }
    }
}

/// The unit in which a scenario measures its table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MeasureUnit {
    BaseWidth,
    Inch,
    Cm,
}

impl MeasureUnit {
    pub fn abbrev(self) -> &'static str {
        match self {
            MeasureUnit::BaseWidth => "BW",
            MeasureUnit::Inch => "in",
            MeasureUnit::Cm => "cm",
        }
    }
}

/// A scenario's choice of measure and the size of one base in it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Measure {
    pub unit: MeasureUnit,
    pub base_width: Distance,
    pub base_depth: Distance,
}

impl Point {
    /// This point turned about `pivot` by `degrees`, clockwise for positive
    /// angles (the same sense as [`Angle`]).
    pub fn rotated_about(self, pivot: Point, degrees: f64) -> Point {
        let (s, c) = degrees.to_radians().sin_cos();
        let d = self - pivot;
        pivot + Point::new(d.x * c + d.y * s, -d.x * s + d.y * c)
    }

    /// The point a fraction `t` of the way from `self` to `to`.
    pub fn lerp(self, to: Point, t: f64) -> Point {
        self + (to - self).scale(t)
    }
}

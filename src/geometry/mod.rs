//! Table geometry shared by every ruleset: measures, points, bases, units'
//! footprints, terrain and the queries rules ask of them.

mod measure;

pub use measure::{Angle, Distance, Measure, MeasureUnit, Point};

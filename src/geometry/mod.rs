//! Table geometry shared by every ruleset: measures, points, bases, units'
//! footprints, terrain and the queries rules ask of them.
//!
//! Polygon work (distances, intersections, containment, buffers, unions) is
//! done by the `geo` crate; the private `convert` module holds the small conversions and the
//! tolerances all queries share.

pub mod base;
pub mod bounds;
pub mod contact;
mod convert;
pub mod detour;
pub mod distance;
pub mod entry;
pub mod error;
pub mod formation;
pub mod frame;
pub mod gap;
pub mod index;
pub mod limit;
mod measure;
pub mod nearest;
pub mod path;
pub mod places;
pub mod radius;
pub mod relation;
pub mod sight;
pub mod sweep;
pub mod table;
pub mod terrain;
pub mod zone;

pub use base::Base;
pub use bounds::{Bounds, bases_beyond};
pub use detour::Detour;

/// The union of some polygons, as one area (touching pieces merge).
pub fn union_of(polygons: Vec<geo::Polygon<f64>>) -> geo::MultiPolygon<f64> {
    convert::union_all(polygons)
}
pub use distance::{
    base_distance, bases_distance, bases_within, overlaps, point_to_bases, touching,
};
pub use error::GeometryError;
pub use formation::{Layout, lay_out};
pub use frame::Frame;
pub use index::BoxIndex;
pub use limit::{WITHIN_TOLERANCE, beyond, within};
pub use measure::{Angle, Distance, Measure, MeasureUnit, Point};
pub use places::Places;
pub use radius::{COMMON_ARC_DEG, in_common_arc, within_radius};
pub use relation::{
    Relation, any_part_directly_in_front, in_front_arc, is_to_flank, relation_of_point,
    wholly_behind_front_line,
};
pub use sight::{line_of_sight, segment_entry, segment_hits_area, segment_meets_line};
pub use sweep::{Corner, follow_path, path_length, sweep_straight, translate_bases, wheel};
pub use terrain::{MAX_EXTENT, Shape, TerrainFeature, TerrainTag, segment_within};

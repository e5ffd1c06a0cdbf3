//! Errors raised by geometry: malformed terrain, mostly.

/// Why a piece of geometry was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GeometryError {
    /// A coordinate, width or elevation is NaN or infinite.
    #[error("terrain feature `{id}`: {what} is not a finite number")]
    NotFinite { id: String, what: &'static str },
    /// A polygon with fewer than 3 points or a polyline with fewer than 2.
    #[error("terrain feature `{id}`: a {shape} needs at least {needed} points, found {found}")]
    TooFewPoints {
        id: String,
        shape: &'static str,
        needed: usize,
        found: usize,
    },
    /// A linear feature with a negative width.
    #[error("terrain feature `{id}`: width {width} is negative")]
    NegativeWidth { id: String, width: f64 },
    /// A coordinate or width beyond any plausible table.
    #[error("terrain feature `{id}`: {what} {value} is beyond the limit of {limit}")]
    TooLarge {
        id: String,
        what: &'static str,
        value: f64,
        limit: f64,
    },
    /// A polygon whose outline crosses itself or encloses no area.
    #[error("terrain feature `{id}`: invalid polygon: {reason}")]
    InvalidPolygon { id: String, reason: String },
}

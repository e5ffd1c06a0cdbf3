//! The table and a base's footprint, as every ruleset's scenario gives
//! them, in the table's measure.

use super::Distance;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The table's size: `x` across the first side's edge, `y` away from it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Table {
    pub width: Distance,
    pub height: Distance,
}

/// A base's frontage and depth.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BaseSize {
    pub width: Distance,
    pub depth: Distance,
}

//! Sides of a game and tables indexed by side.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The name of one side, as the scenario spells it (`french`, `british`).
#[derive(
    Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(transparent)]
pub struct SideId(pub String);

impl SideId {
    pub fn new(name: impl Into<String>) -> Self {
        SideId(name.into())
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SideId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for SideId {
    fn from(s: &str) -> Self {
        SideId(s.to_string())
    }
}

/// A value for each side, iterated in name order so that output is stable.
pub type BySide<T> = BTreeMap<SideId, T>;

//! Why a unit does not see an enemy its side knows of, in words a player
//! can act on: which feature stands in the way, or which cover hides the
//! enemy from this unit. Only asked about enemies the side knows of: the
//! answer names where the enemy stands.

use super::state::{BLOCKS_SIGHT, State, Unit};
use crate::geometry::TerrainTag;
use crate::geometry::sight::line_of_sight;

#[derive(Clone, Debug, PartialEq)]
pub enum Unseen {
    /// Destroyed or off the table.
    Gone,
    /// A wood or town between them, by the feature's name.
    Blocked(String),
    /// The enemy stands in this feature (not in the open) and this unit
    /// has not found it: another unit of the side may have.
    Covered(String),
}

/// Why `by` does not see `t`, if it does not.
pub fn why(s: &State, by: &Unit, t: &Unit) -> Option<Unseen> {
    if !t.live() {
        return Some(Unseen::Gone);
    }
    if s.unit_sees(by, t) {
        return None;
    }
    // The same test as the unit's sight, one feature at a time, to name it.
    let blocker = s
        .scenario
        .terrain
        .iter()
        .filter(|f| BLOCKS_SIGHT.iter().any(|tag| f.has(*tag)))
        .find(|f| !line_of_sight(by.at, t.at, std::slice::from_ref(*f), &BLOCKS_SIGHT));
    if let Some(f) = blocker {
        return Some(Unseen::Blocked(f.name.clone()));
    }
    let cover = s
        .ground(t.at)
        .find(|f| f.has(TerrainTag::Woods) || f.has(TerrainTag::Town))
        .map_or_else(|| "cover".to_string(), |f| f.name.clone());
    Some(Unseen::Covered(cover))
}

impl Unseen {
    /// The reason, with feature names as `name` writes them.
    pub fn words(&self, name: impl Fn(&str) -> String) -> String {
        match self {
            Unseen::Gone => "it is no longer on the table".into(),
            Unseen::Blocked(f) => format!("sight blocked by {}", name(f)),
            Unseen::Covered(f) => format!(
                "it stands in {}, out of the open, and this unit has not found it (observe it first)",
                name(f)
            ),
        }
    }
}

//! A named number added to a roll or a score, so reports say why.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modifier {
    pub reason: String,
    pub value: i32,
}

impl Modifier {
    pub fn new(reason: impl Into<String>, value: i32) -> Self {
        Modifier {
            reason: reason.into(),
            value,
        }
    }
}

/// Sum of some modifiers.
pub fn total(mods: &[Modifier]) -> i32 {
    mods.iter().map(|m| m.value).sum()
}

/// "+1 dense target, -1 cover" (empty when there are none).
pub fn describe(mods: &[Modifier]) -> String {
    mods.iter()
        .map(|m| format!("{:+} {}", m.value, m.reason))
        .collect::<Vec<_>>()
        .join(", ")
}

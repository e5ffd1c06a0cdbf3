//! Volleys and bombardment (chapter 7).

use serde::{Deserialize, Serialize};

/// What one side's shooting in one phase did, base by base.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FireReport {}

/// Aims naming units that cannot aim or be aimed at.
pub fn check_aims(
    _state: &super::state::State,
    _side: &crate::side::SideId,
    _aims: &[super::orders::Aim],
) -> Vec<crate::ruleset::Violation> {
    Vec::new()
}

//! Charges and combat (chapter 8).

use serde::{Deserialize, Serialize};

/// A charge action from moves to fall backs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CombatReport {}

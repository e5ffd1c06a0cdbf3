//! Volleys and bombardment (chapter 7).

use serde::{Deserialize, Serialize};

/// What one side's shooting in one phase did, base by base.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FireReport {}

//! The policy for a side that missed its deadline, as a game's archive
//! publishes it (the server applies it; the audit checks what it did).

use serde::{Deserialize, Serialize};

/// What the server does for a side that missed the deadline.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MissedPolicy {
    /// The ruleset's default orders (in a card game, say: the active side passes);
    /// when the ruleset has none for the step, wait for the game master.
    #[default]
    Default,
    /// The side's latest orders from an earlier step, if they still pass the
    /// rules; else the default; else wait.
    Standing,
    /// Apply nothing: the step waits and the game master is told.
    Wait,
}

impl MissedPolicy {
    pub fn as_str(self) -> &'static str {
        match self {
            MissedPolicy::Default => "default",
            MissedPolicy::Standing => "standing",
            MissedPolicy::Wait => "wait",
        }
    }
}

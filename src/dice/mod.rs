//! Dice: the commit-reveal protocol and the streams dice are drawn from.
//!
//! Every step has two random streams. The public stream gives the dice both
//! sides see; the hidden stream gives what one side must not see yet (deck
//! shuffles, secret tests). Each stream's seed mixes a server secret, committed
//! to before orders were due, with the hashes of the orders files, so neither
//! the server nor a player can choose the dice alone. `docs/DICE.md` has the
//! protocol, test vectors and threat model.
//!
//! - [`protocol`]: commitments, order hashes, seeds, fresh secrets.
//! - [`stream`]: a seed's ChaCha20 word stream and the sampling rules.
//! - [`Dice`]: what a ruleset rolls with; it keeps a log of every die.
//! - [`check_stream`]: the audit, replaying a stream against a log.
//! - [`beacon`]: protocol version 2, a drand round mixed into both seeds.

mod audit;
pub mod beacon;
pub mod protocol;
mod roller;
pub mod stream;
pub mod table;

pub use audit::{DiceMismatch, check_stream};
pub use protocol::{Digest, Secret};
pub use roller::Dice;

use serde::{Deserialize, Serialize};
use std::fmt;

/// Which of a step's two streams a die comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StreamKind {
    /// Dice both sides see; its secret is revealed in the step's report.
    Public,
    /// Shuffles and secret tests; its secret is revealed when the game ends.
    Hidden,
}

impl StreamKind {
    /// The lower-case name used in logs and reports (`public`, `hidden`).
    pub fn as_str(self) -> &'static str {
        match self {
            StreamKind::Public => "public",
            StreamKind::Hidden => "hidden",
        }
    }
}

impl fmt::Display for StreamKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One die as rolled, kept so that the report can show it and the audit can
/// replay it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DieRecord {
    pub stream: StreamKind,
    /// Word position in its stream of the first word this die consumed (with
    /// scripted dice: the position in the script).
    pub index: u64,
    pub sides: u32,
    /// The result, `1..=sides`.
    pub value: u32,
    /// What the die was for, in words a player can read.
    pub purpose: String,
}

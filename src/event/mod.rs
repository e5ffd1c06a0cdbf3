//! What happened during a step: its kind and facts as data, and the words
//! a player reads, which each ruleset makes from the facts in one place (its
//! `words.rs`).

mod facts;
pub mod tell;

pub use facts::{Facts, Kind, Loss, Modifier, PLAYED, UnitRef};

use crate::side::SideId;
use serde::{Deserialize, Serialize};

/// Who may read an event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Both sides and the public archive.
    Public,
    /// Only this side (and the umpire).
    Side(SideId),
    /// Only the umpire, until the game ends.
    Umpire,
}

/// One line of a step's log. Dice rolled for it are in the step's dice log,
/// referenced by their index there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub visibility: Visibility,
    /// The shared kind (pages draw and campaigns count by it).
    pub kind: Kind,
    /// The ruleset's own name for this kind of event, in snake_case
    /// ("volley", "declare", "rally_table").
    pub what: String,
    #[serde(default)]
    pub facts: Facts,
    /// The words, made from the kind and facts by the ruleset.
    pub text: String,
    /// Indexes into the step's dice log of the dice this event reports.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dice: Vec<usize>,
}

impl Event {
    /// An event with its facts and the words a ruleset made from them.
    pub fn new(
        visibility: Visibility,
        kind: Kind,
        what: impl Into<String>,
        facts: Facts,
        text: impl Into<String>,
    ) -> Self {
        Event {
            visibility,
            kind,
            what: what.into(),
            facts,
            text: text.into(),
            dice: Vec::new(),
        }
    }
    /// A public note with no facts beyond its words.
    pub fn public(text: impl Into<String>) -> Self {
        Self::new(
            Visibility::Public,
            Kind::Note,
            "note",
            Facts::default(),
            text,
        )
    }
    /// A note for one side only.
    pub fn private(side: &SideId, text: impl Into<String>) -> Self {
        Self::new(
            Visibility::Side(side.clone()),
            Kind::Note,
            "note",
            Facts::default(),
            text,
        )
    }
    pub fn with_dice(mut self, dice: impl IntoIterator<Item = usize>) -> Self {
        self.dice.extend(dice);
        self
    }
    /// Whether `viewer` may read this event.
    pub fn visible_to(&self, viewer: &crate::view::Viewer) -> bool {
        use crate::view::Viewer;
        match (&self.visibility, viewer) {
            (_, Viewer::Umpire) => true,
            (Visibility::Public, _) => true,
            (Visibility::Side(s), Viewer::Side(v)) => s == v,
            _ => false,
        }
    }
}

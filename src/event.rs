//! What happened during a step, in words a player can read.

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
    pub text: String,
    /// Indexes into the step's dice log of the dice this event reports.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dice: Vec<usize>,
}

impl Event {
    pub fn public(text: impl Into<String>) -> Self {
        Event {
            visibility: Visibility::Public,
            text: text.into(),
            dice: Vec::new(),
        }
    }
    pub fn private(side: &SideId, text: impl Into<String>) -> Self {
        Event {
            visibility: Visibility::Side(side.clone()),
            text: text.into(),
            dice: Vec::new(),
        }
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

//! The records of fire: what was planned and what the dice did.

use super::super::modifiers::Modifier;
use crate::geometry::Point;
use crate::side::SideId;
use serde::{Deserialize, Serialize};

/// Which of the two kinds of fire.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FireMode {
    /// The volley phase: musketry and canister at short range.
    #[default]
    Volley,
    /// The Bombard action: activated artillery at long range.
    Bombard,
}

impl FireMode {
    /// How reports name it.
    pub fn label(self) -> &'static str {
        match self {
            FireMode::Volley => "volley",
            FireMode::Bombard => "bombardment",
        }
    }
}

/// How far a shot reaches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Range {
    /// Up to 4 BW: musketry and canister.
    #[default]
    Short,
    /// Beyond 4 up to 16 BW: bombardment.
    Long,
}

impl Range {
    /// How reports name it.
    pub fn label(self) -> &'static str {
        match self {
            Range::Short => "short range",
            Range::Long => "long range",
        }
    }
}

/// One shooting base's fire: its target, why, and its dice.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Shot {
    pub shooter: String,
    /// The shooting base, 1-based from the unit's left.
    pub base: usize,
    pub target: String,
    /// The target base first under the zone, 1-based in the target unit's
    /// layout (front rank first, each rank from its left).
    pub target_base: usize,
    pub range: Range,
    /// Whether the zone was turned from straight ahead.
    pub angled: bool,
    /// How the target was chosen: "straight ahead", "player's aim" or the
    /// rule the engine applied.
    pub chosen_by: String,
    /// The zone as laid, ending where an obstruction cut it short: near-left,
    /// near-right, far-right, far-left. For the map.
    pub zone: [Point; 4],
    /// The score each die needs after modifiers (2 to 6: a natural 6 always
    /// hits and a natural 1 always misses).
    pub need: u32,
    pub modifiers: Vec<Modifier>,
    pub dice: Vec<u32>,
    /// Indexes of `dice` in the step's dice log.
    pub dice_index: Vec<usize>,
    pub hits: u32,
}

impl Shot {
    /// Whether a die of `value` hits.
    pub fn hits_with(&self, value: u32) -> bool {
        value == 6 || (value != 1 && value >= self.need)
    }
}

/// The roll to disrupt one target unit.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DisruptRoll {
    pub target: String,
    pub hits: u32,
    pub need: u32,
    pub dice: Vec<u32>,
    pub dice_index: Vec<usize>,
    pub disruptions: u32,
    pub broken: bool,
}

/// Who fires at what, before any die is rolled.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FirePlan {
    pub side: SideId,
    pub mode: FireMode,
    /// In the order they roll; dice still empty.
    pub shots: Vec<Shot>,
    /// (unit, why it or one of its bases does not fire).
    pub not_firing: Vec<(String, String)>,
}

impl Default for FirePlan {
    fn default() -> Self {
        FirePlan {
            side: SideId::new(""),
            mode: FireMode::Volley,
            shots: Vec::new(),
            not_firing: Vec::new(),
        }
    }
}

/// What one side's shooting in one phase did, base by base.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FireReport {
    pub side: SideId,
    pub mode: FireMode,
    pub shots: Vec<Shot>,
    pub disruption: Vec<DisruptRoll>,
    /// Units broken by this fire, in the order they broke.
    pub broken: Vec<String>,
    /// (unit, why it or one of its bases did not fire).
    pub not_firing: Vec<(String, String)>,
}

impl Default for FireReport {
    fn default() -> Self {
        FireReport {
            side: SideId::new(""),
            mode: FireMode::Volley,
            shots: Vec::new(),
            disruption: Vec::new(),
            broken: Vec::new(),
            not_firing: Vec::new(),
        }
    }
}

//! Forces carried from battle to battle: what a campaign's ledger holds of
//! a unit between two battles, and the hook by which each ruleset reads a
//! unit's strength out of a battle's end and sets it into the next battle.
//!
//! A ruleset counts strength its own way (bases, figures, strength points,
//! disruption, men); the ledger only holds the count and its word, so the
//! core never reads one ruleset's measures.

mod any;

pub use crate::geometry::entry::TableEdge;
pub use any::AnyMuster;

use crate::ruleset::Ruleset;
use crate::side::SideId;
use serde::{Deserialize, Serialize};

/// A unit's strength as its ruleset counts it: `full` when fresh, `now`
/// after its losses. `now` never exceeds `full`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Strength {
    pub now: u32,
    pub full: u32,
}

impl Strength {
    pub fn fresh(full: u32) -> Self {
        Strength { now: full, full }
    }
    /// `lost` taken off, never below nothing.
    pub fn less(self, lost: u32) -> Self {
        Strength {
            now: self.now.saturating_sub(lost),
            full: self.full,
        }
    }
    /// A share (in hundredths) of what it has lost given back, rounded
    /// down: a campaign's recovery out of contact.
    pub fn recovered(self, percent: u32) -> Self {
        let back = (self.full - self.now) * percent.min(100) / 100;
        Strength {
            now: self.now + back,
            full: self.full,
        }
    }
}

/// How a unit left its last battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Condition {
    /// In good order.
    Steady,
    /// Still with its colours, but shaken, disordered or disrupted: it
    /// rallies out of contact.
    Shaken,
    /// Broke and ran, or left the field: it comes back, weaker, if the
    /// campaign's rules let it rally.
    Routed,
    /// Destroyed, captured or dispersed: gone from the ledger.
    Lost,
}

/// One unit as a campaign holds it between battles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mustered {
    pub id: String,
    /// The unit's entry in its ruleset's scenario terms, without a place,
    /// a facing or its losses: what the campaign file wrote for it.
    pub spec: serde_yaml::Value,
    pub strength: Strength,
    pub condition: Condition,
    /// Whether its ruleset counts it as cavalry, which scouts for a
    /// campaign's army.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub scout: bool,
}

/// One side's units entering a battle by one edge of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Force {
    /// The side of the battlefield's scenario it fights as.
    pub side: SideId,
    pub edge: TableEdge,
    pub units: Vec<Mustered>,
}

/// The force of `side`, or why the battle cannot be mustered without one.
pub fn force_of<'a>(forces: &'a [Force], side: &SideId) -> Result<&'a Force, String> {
    forces
        .iter()
        .find(|f| &f.side == side)
        .ok_or_else(|| format!("side {side} of the battlefield has no force"))
}

/// A unit's scenario entry as the ledger keeps it: without the keys that
/// place it on one table (`at`, `facing`).
pub fn unplaced(spec: serde_yaml::Value) -> serde_yaml::Value {
    let mut spec = spec;
    if let serde_yaml::Value::Mapping(m) = &mut spec {
        m.remove("at");
        m.remove("facing");
    }
    spec
}

/// A ledger's unit entry with a place at the origin facing north where it
/// has none, for a ruleset whose scenario requires one: the muster gives
/// its real place.
pub fn placed_nowhere(spec: &serde_yaml::Value) -> serde_yaml::Value {
    let mut spec = spec.clone();
    if let serde_yaml::Value::Mapping(m) = &mut spec {
        if !m.contains_key("at") {
            let origin = crate::yaml::to_value(&crate::geometry::Point::new(0.0, 0.0));
            m.insert("at".into(), origin.unwrap_or_default());
        }
        if !m.contains_key("facing") {
            m.insert("facing".into(), serde_yaml::Value::from(0.0));
        }
    }
    spec
}

/// What a battle's end says of one unit that fought in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Carried {
    pub id: String,
    pub side: SideId,
    pub strength: Strength,
    pub condition: Condition,
}

/// The campaign hook every ruleset implements. Pure, like the rest of a
/// ruleset: the campaign calls it through [`AnyMuster`].
pub trait Muster: Ruleset {
    /// The word for what [`Strength`] counts in this ruleset, plural
    /// ("bases", "figures", "strength points").
    fn strength_word(&self) -> &'static str;
    /// Each unit of `scenario` as a ledger first holds it: its entry with
    /// place and facing left out, at the strength the entry gives it.
    fn roster(&self, scenario: &Self::Scenario) -> Result<Vec<(SideId, Mustered)>, String>;
    /// One unit a campaign file writes in this ruleset's scenario terms,
    /// as a ledger first holds it, read against `field` (whose tables its
    /// entry names): refused in words when `field` does not know it.
    fn enlist(&self, field: &Self::Scenario, spec: &serde_yaml::Value) -> Result<Mustered, String>;
    /// A battle on `field`, a scenario of this ruleset whose units are set
    /// aside, between `forces`: each side's units at their strength now,
    /// entering by their edge. What `roster` reads of the result is the
    /// forces given, unit for unit.
    fn muster(&self, field: &Self::Scenario, forces: &[Force]) -> Result<Self::Scenario, String>;
    /// Every unit that began the battle, as the battle's last state leaves
    /// it.
    fn carry(&self, state: &Self::State) -> Vec<Carried>;
}

//! What a charge action did, record by record, for reports, the sandbox and
//! the audit. Everything is in the order it was worked out, so the same
//! table and dice always give the same report.

use super::super::modifiers::Modifier;
use crate::geometry::{Distance, Point};
use crate::side::SideId;
use serde::{Deserialize, Serialize};

/// A charge action from the moves to the fall backs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CombatReport {
    /// Every charge ordered, in order, whether it went in or was refused.
    pub charges: Vec<ChargeRecord>,
    /// The supporting units that moved.
    pub supports: Vec<String>,
    /// Attacker by attacker, each defender it engages.
    pub engagements: Vec<Engagement>,
    /// Attackers in charge order, then defenders in scenario order.
    pub scores: Vec<Score>,
    /// Defenders first (in scenario order), then attackers (in charge order).
    pub results: Vec<CombatResult>,
    pub fall_backs: Vec<FallBack>,
}

/// One charging unit's move.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ChargeRecord {
    pub unit: String,
    /// The centre of its front edge: at the start, after any wheel, at contact.
    pub path: Vec<Point>,
    /// Wheel and straight move together.
    pub distance: Distance,
    /// Enemy units touched at the moment of contact.
    pub contacted: Vec<String>,
    /// It crossed difficult terrain and took 1 DISR before the combat.
    pub difficult_disr: bool,
    /// Why it did not charge, when it did not.
    pub refused: Option<String>,
}

/// One attacker and one defender it engages.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Engagement {
    pub attacker: String,
    pub defender: String,
    /// In physical contact with the attacker's front edge (else only directly
    /// in front within 1 BW).
    pub contact: bool,
    /// The attacker touches the defender's flank or rear edge.
    pub flanked: bool,
    /// The defender has cover against this attacker.
    pub cover: bool,
}

/// One engaged unit's combat score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Score {
    pub unit: String,
    pub side: SideId,
    /// 6 for infantry and cavalry, 1 for artillery.
    pub basic: i32,
    pub modifiers: Vec<Modifier>,
    /// Basic value plus modifiers, never below zero.
    pub floored: i32,
    pub die: u32,
    /// The die's index in the step's dice log.
    pub die_index: usize,
    pub score: i32,
}

/// What the combat did to one engaged unit.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CombatResult {
    pub unit: String,
    /// The opponents it was compared with, and their scores.
    pub against: Vec<(String, i32)>,
    /// In words: "broken: doubled by X", "2 DISR: outscored by X", "1 DISR".
    pub outcome: String,
    /// DISR the result gave it (also when they broke it).
    pub disruptions: u32,
    pub broken: bool,
}

/// One attacker's fall back.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FallBack {
    pub unit: String,
    /// How far it went back (beyond its 1 or 2 BW when friends were in the way).
    pub distance: Distance,
    /// The centre of its front edge at the start and at the end.
    pub path: Vec<Point>,
    /// Friendly units it fell back through (1 DISR each, and 1 to it for each).
    pub through: Vec<String>,
    /// DISR it took: one per friend passed through, one for difficult terrain.
    pub extra_disr: u32,
    pub broken: bool,
    /// Why it broke, or what the extra DISR were for.
    pub reason: Option<String>,
}

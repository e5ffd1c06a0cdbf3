//! What a side may send: the active side's move, and the other side's
//! standing reactions (command points pledged in advance).

use super::tables::Formation;
use crate::geometry::Point;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The `orders:` block of a crowther-dougan orders file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Orders {
    /// The active side's move.
    Move(MoveOrders),
    /// The other side's standing reactions, kept until replaced.
    Reactions(Reactions),
    /// The setup step: where a side's hidden units stand, secret.
    Deploy(Deployment),
}

/// A side's hidden units placed within their zones; a unit left out
/// stands at the place the scenario suggests.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Deployment {
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<Placement>>")]
    pub units: Vec<Placement>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    pub unit: String,
    /// Its centre, inside one of its zones.
    pub at: Point,
    /// Degrees clockwise from +y; default: the scenario's.
    #[serde(default)]
    pub facing: Option<f64>,
    /// Default: the scenario's.
    #[serde(default)]
    pub formation: Option<Formation>,
}

/// A list key left empty (as the template leaves it, its example entries
/// commented out) reads as no entries.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveOrders {
    /// Phase 1: one area (a circle 20 cm across) per unit to observe.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<Observe>>")]
    pub observe: Vec<Observe>,
    /// Phase 1: charges declared with their targets.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<ChargeOrder>>")]
    pub charges: Vec<ChargeOrder>,
    /// Command points pledged to this move's morale tests (before any
    /// die is rolled), and new orders bought.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<Pledge>>")]
    pub pledges: Vec<Pledge>,
    /// New orders, 2 command points each from the personality with the
    /// unit: a pursuing unit is called back and stops its pursuit. Only
    /// pursuers take it (a charge is not called off this way).
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<Recall>>")]
    pub recall: Vec<Recall>,
    /// Phase 2: fire, one shot per unit.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<FireOrder>>")]
    pub fire: Vec<FireOrder>,
    /// Phase 4: moves, in order.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<Move>>")]
    pub moves: Vec<Move>,
    /// Phase 4: personalities join a unit of their side.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<Join>>")]
    pub personalities: Vec<Join>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Observe {
    pub unit: String,
    /// The centre of the area observed.
    pub at: Point,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChargeOrder {
    pub unit: String,
    /// An enemy unit's id, or `found`: what this unit finds by its own
    /// observation in phase 1 of this move (it must observe).
    pub target: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Pledge {
    pub personality: String,
    pub unit: String,
    pub points: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Recall {
    pub personality: String,
    pub unit: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FireOrder {
    pub unit: String,
    /// An enemy unit's id, or `found`: what this unit finds by its own
    /// observation in phase 1 of this move (it must observe).
    pub target: String,
}

/// The target that names what the unit finds by its own observation in
/// phase 1 of the same move.
pub const FOUND: &str = "found";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Move {
    pub unit: String,
    /// Where its centre goes, straight; it stops short when its move runs
    /// out or 5 cm from an enemy.
    #[serde(default)]
    pub to: Option<Point>,
    /// A new formation: a whole move for close order; limbering or
    /// unlimbering half a move.
    #[serde(default)]
    pub formation: Option<Formation>,
    /// Turn about: a quarter move for close order.
    #[serde(default)]
    pub about: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Join {
    pub personality: String,
    pub unit: String,
}

/// Standing reactions for the enemy's move.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Reactions {
    /// Points pledged in advance to the tests a unit takes in the enemy's
    /// move (shooting casualties, charge home, losing hand to hand), from
    /// what the personality has left. Default: none.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<Pledge>>")]
    pub pledges: Vec<Pledge>,
}

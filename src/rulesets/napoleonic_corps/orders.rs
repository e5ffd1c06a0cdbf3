//! What a side may send: its setup, its whole turn's orders, and the
//! standing reactions its units follow in the other side's turn.

use super::formation::Formation;
use crate::geometry::{Angle, Point};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The `orders:` block of a napoleonic-corps orders file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Orders {
    /// Step 1: starting formations (positions are the scenario's).
    Deploy(Deployment),
    /// The phasing side's whole turn.
    Turn(TurnOrders),
    /// The non-phasing side's standing reactions, kept until replaced.
    Reactions(Reactions),
    /// The non-phasing side's decision when the turn paused for it (its
    /// reactions asked to be consulted): cavalry withdrawals and defensive
    /// fire, unit by unit.
    Decide(Decision),
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Deployment {
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<FormationChoice>>")]
    pub formations: Vec<FormationChoice>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FormationChoice {
    pub unit: String,
    pub formation: Formation,
    /// Where it stands instead of the scenario's place: within the side's
    /// deployment zone, when the scenario gives one.
    #[serde(default)]
    pub at: Option<Point>,
    #[serde(default)]
    pub facing: Option<Angle>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TurnOrders {
    /// Rally phase: disordered units whose corps commander spends a morale
    /// pass on them (he must be within 30 cm). The others roll.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<String>>")]
    pub passes: Vec<String>,
    /// Movement phase, in order.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<Move>>")]
    pub moves: Vec<Move>,
    /// Movement phase: divisional generals join a unit of their corps.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<Attach>>")]
    pub generals: Vec<Attach>,
    /// Movement phase: corps commanders ride to a point.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<Ride>>")]
    pub commanders: Vec<Ride>,
    /// Charge phase: cavalry charges, in order.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<ChargeOrder>>")]
    pub charges: Vec<ChargeOrder>,
    /// Advancing fire phase.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<FireOrder>>")]
    pub fire: Vec<FireOrder>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Move {
    pub unit: String,
    /// New position of the centre of its front edge (straight there, or
    /// through the `via` waypoints in order).
    #[serde(default)]
    pub to: Option<Point>,
    /// Waypoints of the centre of its front edge before `to`: a path of
    /// several straight legs, measured together against the allowance.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub via: Vec<Point>,
    #[serde(default)]
    pub facing: Option<Angle>,
    #[serde(default)]
    pub formation: Option<Formation>,
    /// The whole move is on a road (every leg of it).
    #[serde(default)]
    pub road: bool,
}

impl Move {
    /// The points of the path from `at`: where it stands, each waypoint,
    /// then `to` (where it stands when `to` is absent).
    pub fn path(&self, at: Point) -> Vec<Point> {
        let mut p = vec![at];
        p.extend(self.via.iter().copied());
        p.push(self.to.unwrap_or(at));
        p
    }
}

/// The length of a path of straight legs (cm).
pub fn length(path: &[Point]) -> f64 {
    path.windows(2).map(|w| w[0].distance_to(w[1]).get()).sum()
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Attach {
    pub general: String,
    pub unit: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Ride {
    pub corps: String,
    pub to: Point,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChargeOrder {
    pub unit: String,
    pub target: String,
    /// Cavalry control: what a "controlled" winner, no longer in contact,
    /// does (stay when absent): the phasing side's choice made ahead.
    #[serde(default)]
    pub if_controlled: Controlled,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Controlled {
    /// Stay in place.
    #[default]
    Stay,
    /// Fall back 20 cm straight to its rear (facing unchanged).
    FallBack,
    /// Another move by the movement table, from where the melee left it.
    Move(Onward),
    /// Another charge move, straight ahead into this enemy unit.
    Charge(String),
}

/// A controlled winner's further move: as a `moves:` entry, for this unit.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Onward {
    #[serde(default)]
    pub to: Option<Point>,
    #[serde(default)]
    pub facing: Option<Angle>,
    #[serde(default)]
    pub formation: Option<Formation>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FireOrder {
    pub unit: String,
    pub target: String,
    /// A second battery in contact, combining its fire mod.
    #[serde(default)]
    pub with: Option<String>,
}

/// Standing reactions, with their defaults stated.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Reactions {
    /// Cavalry withdrawal: these cavalry units withdraw when enemy infantry
    /// or artillery move within 10 cm. Default: none withdraw.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<String>>")]
    pub withdraw: Vec<String>,
    /// Defensive fire: when infantry form square instead of firing.
    #[serde(default)]
    pub square: SquarePolicy,
    /// Defensive fire: these units hold their fire. Default: all fire.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<String>>")]
    pub hold_fire: Vec<String>,
    /// Defensive fire: pairs of batteries that combine: `with` adds its
    /// fire mod to `unit`'s shot at the enemy `unit` fires at, when the two
    /// are in contact and `with` may fire at it too; otherwise each fires
    /// on its own. Default: none combine.
    #[serde(
        default,
        deserialize_with = "crate::yaml::list",
        skip_serializing_if = "Vec::is_empty"
    )]
    #[schemars(with = "Option<Vec<Combine>>")]
    pub combine: Vec<Combine>,
    /// Pause the other side's turn after its movement and owe a decision
    /// (`decide:`): which cavalry set off withdraw, and the defensive fire,
    /// instead of the rules above. Default: no.
    #[serde(default)]
    pub consult: bool,
}

/// The decision at the pause, seeing the table as the movement left it.
/// Units named in no list do nothing.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Decision {
    /// Let the standing reactions decide, as if not consulted (and name
    /// nothing below).
    #[serde(default)]
    pub standing: bool,
    /// Cavalry withdrawal: which of the cavalry that enemy foot or guns
    /// came within 10 cm of this movement phase withdraw (2D6 cm, then the
    /// rally table), before defensive fire. Default: none.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<String>>")]
    pub withdraw: Vec<String>,
    /// Infantry that form square (not those contacted by cavalry).
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<String>>")]
    pub square: Vec<String>,
    /// Units that fire, each at one target.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<Shot>>")]
    pub fire: Vec<Shot>,
}

/// Two batteries that combine their defensive fire (standing reaction).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Combine {
    pub unit: String,
    pub with: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Shot {
    pub unit: String,
    pub target: String,
    /// A second battery in contact, combining its fire mod (it fires no
    /// shot of its own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with: Option<String>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SquarePolicy {
    /// Infantry with enemy cavalry within 16 cm (a light charge) form
    /// square, unless already contacted by cavalry.
    #[default]
    CavalryNear,
    Never,
}

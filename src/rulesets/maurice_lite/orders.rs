//! What a Maurice Lite side may order.

use super::units::Formation;
use crate::geometry::{Angle, Distance, Point};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The `orders:` block of a maurice-lite orders file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Orders {
    /// Step 1: where the army stands.
    Deploy(Deployment),
    /// A round in which this side is active.
    Round(RoundOrders),
    /// The answer to a decision request: the force, cards and moves.
    Decide(Activation),
    /// Standing reactions, sent at any time by a side not owing orders.
    Reactions(super::reactions::Reactions),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Deployment {
    /// Where the CinC marker stands.
    pub cinc: Point,
    pub units: Vec<Placement>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    pub unit: String,
    /// Centre of the unit's front edge.
    pub at: Point,
    /// Degrees clockwise from facing the far table edge; toward the enemy when absent.
    #[serde(default)]
    pub facing: Option<Angle>,
    #[serde(default)]
    pub formation: Option<Formation>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RoundOrders {
    /// The volley phase (chapter 7): `false` (none), `true` (every eligible
    /// unit of yours fires), or a list of the unit ids that fire (the
    /// others hold their fire). Any of them but `false` invokes the phase,
    /// so the enemy returns fire.
    #[serde(default)]
    pub volleys: Volleys,
    /// The order in which this side's units shoot.
    #[serde(default)]
    pub fire_order: Sweep,
    /// Where a base may angle its fire and the source leaves the choice to the
    /// player: which enemy unit it aims at. Otherwise the engine picks by the
    /// source's priorities and says so.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<Aim>>")]
    pub aims: Vec<Aim>,
    /// `pass` when left out: a template offers each other command as an
    /// example of its own, which a player uncomments alone. Optional, not
    /// defaulted, so that orders the server writes (a missed deadline's)
    /// still say `command: pass`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<Command>,
    /// Modifying cards to play for this round's volleys and action (one of
    /// each symbol; cards held before the draw).
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<String>>")]
    pub modify: Vec<String>,
    /// Move the CinC at the end of the round, discarding a card.
    #[serde(default)]
    pub cinc: Option<CincMove>,
    /// Cards to discard at the end of the round if the hand is over ten.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<String>>")]
    pub discard: Vec<String>,
    /// The card to give up if the CinC is displaced (else the lowest span).
    #[serde(default)]
    pub if_displaced_discard: Option<String>,
}

impl RoundOrders {
    /// The command given, `pass` when left out.
    pub fn command(&self) -> &Command {
        const PASS: &Command = &Command::Pass;
        self.command.as_ref().unwrap_or(PASS)
    }
}

/// Whether the active side invokes the volley phase, and which of its units
/// fire: chapter 7 lets it pick and choose.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(
    untagged,
    expecting = "`true`, `false`, or a list of the unit ids that fire"
)]
pub enum Volleys {
    /// `true`: the phase, with every eligible unit firing; `false`: no phase.
    All(bool),
    /// The phase, with only these units firing.
    Units(Vec<String>),
}

impl Default for Volleys {
    fn default() -> Self {
        Volleys::All(false)
    }
}

impl From<bool> for Volleys {
    fn from(b: bool) -> Self {
        Volleys::All(b)
    }
}

impl Volleys {
    /// Whether the volley phase is invoked.
    pub fn invoked(&self) -> bool {
        match self {
            Volleys::All(b) => *b,
            Volleys::Units(_) => true,
        }
    }
    /// Whether `unit` of the active side fires in it.
    pub fn fires(&self, unit: &str) -> bool {
        match self {
            Volleys::All(b) => *b,
            Volleys::Units(u) => u.iter().any(|x| x == unit),
        }
    }
}

/// The command choice of the round (chapter 4).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Draw three cards; the round ends. What a round without `command` does.
    #[default]
    Pass,
    /// Play this event card for its effect.
    Event(String),
    March(Activation),
    Rally(Activation),
    Bombard(Activation),
    Charge(Activation),
}

impl Command {
    /// The action declared, with its activation, if the command is one.
    pub fn action(&self) -> Option<(ActionKind, &Activation)> {
        match self {
            Command::March(a) => Some((ActionKind::March, a)),
            Command::Rally(a) => Some((ActionKind::Rally, a)),
            Command::Bombard(a) => Some((ActionKind::Bombard, a)),
            Command::Charge(a) => Some((ActionKind::Charge, a)),
            Command::Pass | Command::Event(_) => None,
        }
    }
}

/// Left to right or right to left across the table, as the shooter sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Sweep {
    #[default]
    LeftToRight,
    RightToLeft,
}

/// A base's choice of target for angled fire.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Aim {
    /// The shooting unit.
    pub unit: String,
    /// Its base, 1 to 4 from the unit's left; every base when absent.
    #[serde(default)]
    pub base: Option<usize>,
    /// The enemy unit aimed at.
    pub at: String,
}

/// One charging unit: an optional wheel of at most 1 BW, then straight ahead.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChargeOrder {
    pub unit: String,
    #[serde(default)]
    pub wheel: Option<Wheel>,
    /// The enemy unit this charge must reach (a check on the geometry).
    #[serde(default)]
    pub target: Option<String>,
}

/// The four actions, by what they draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    March,
    Rally,
    Bombard,
    Charge,
}

impl ActionKind {
    /// Cards drawn after declaring the action.
    pub fn draws(self) -> usize {
        match self {
            ActionKind::March => 1,
            ActionKind::Rally | ActionKind::Bombard => 2,
            ActionKind::Charge => 0,
        }
    }
    pub fn label(self) -> &'static str {
        match self {
            ActionKind::March => "March",
            ActionKind::Rally => "Rally",
            ActionKind::Bombard => "Bombard",
            ActionKind::Charge => "Charge",
        }
    }
}

/// Which force acts, with which cards, and how its units move. The force and
/// cards are chosen after the draw: give them now, or set `consult: true` to
/// be asked once the drawn cards are known.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Activation {
    /// Pause after the draw and ask this side for force, cards and moves.
    #[serde(default)]
    pub consult: bool,
    /// Unit ids of the force.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<String>>")]
    pub force: Vec<String>,
    /// The cards to activate with: a list of card ids, or `fewest`.
    #[serde(default)]
    pub cards: Option<CardChoice>,
    /// For a March, or the supporting units of a Charge: each unit's moves,
    /// in the order they are carried out.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<UnitMove>>")]
    pub moves: Vec<UnitMove>,
    /// For a Charge: the charging units, in the order they move.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<ChargeOrder>>")]
    pub charges: Vec<ChargeOrder>,
    /// For a Bombard: angled-fire choices, as in the volley phase.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<Aim>>")]
    pub aims: Vec<Aim>,
    /// For a Bombard: the order in which the guns fire.
    #[serde(default)]
    pub fire_order: Sweep,
}

/// How to pick activation cards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged, expecting = "a list of card ids, or the word fewest")]
pub enum CardChoice {
    Policy(CardPolicy),
    Listed(Vec<String>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CardPolicy {
    /// The fewest cards whose spans reach the force, drawn cards included.
    Fewest,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitMove {
    pub unit: String,
    pub steps: Vec<Step>,
}

/// One piece of a unit's move (chapter 6).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Step {
    /// Straight ahead this many BW.
    Forward(Distance),
    /// Straight back (retrograde, line or massed): half allowance.
    Back(Distance),
    /// Wheel about a front corner (or a rear corner when `backward`).
    Wheel(Wheel),
    /// Columns and artillery: the head base follows these waypoints.
    Path(Vec<Point>),
    /// Change formation, before any other movement.
    Formation(FormationChange),
    /// Cavalry only: turn every base about before moving.
    AboutFace,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Wheel {
    /// The corner that stays put, as the unit itself faces: `left` or
    /// `right` (a front corner; a rear corner when `backward`).
    pub pivot: Side2,
    /// How far to turn, in degrees: more than 0, at most 180 (a size, never
    /// a direction). The direction comes from the pivot: the named corner
    /// stays put and the other end swings. Forward about the right corner,
    /// the left end comes forward and the unit turns to its right:
    /// clockwise seen from above, on the map with y growing up the page
    /// (its facing grows by the degrees). Forward about the left corner it
    /// turns to its left, anticlockwise (facing shrinks). Backward (a rear
    /// corner stays put and the other end goes back) the turn is the other
    /// way: about the right rear corner anticlockwise, about the left rear
    /// corner clockwise.
    pub degrees: f64,
    #[serde(default)]
    pub backward: bool,
}

/// Left or right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Side2 {
    Left,
    Right,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FormationChange {
    pub to: Formation,
    /// Between line and column: which way the turning base faces.
    #[serde(default)]
    pub turn: Option<Side2>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CincMove {
    pub to: Point,
    /// The card discarded to move him; the lowest span when absent.
    #[serde(default)]
    pub discard: Option<String>,
}

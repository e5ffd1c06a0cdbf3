//! What a side may order: its deployment, then each half-turn the list of
//! companies (or formed regiments) in the order they act.

use crate::geometry::{Angle, Distance, Point};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The `orders:` block of a morschauser-macduff orders file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Orders {
    /// Step 1: redeployment inside the side's zone, and the choice the side
    /// makes if it wins the dice-off.
    Deploy(Deployment),
    /// The half-turn in which this side is active.
    Turn(TurnOrders),
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Deployment {
    /// A.5: if this side wins the dice-off, move first or second.
    #[serde(default)]
    pub if_winner: FirstChoice,
    /// New positions; companies not listed stay where the scenario puts them.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<Placement>>")]
    pub companies: Vec<Placement>,
    /// Generals' positions and the company each joins, if any.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<GeneralPlacement>>")]
    pub generals: Vec<GeneralPlacement>,
    /// E.1: how this side's formed regiments share hits from shooting, from
    /// now on (a side that moves second is shot before its first turn).
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<HitsOrder>>")]
    pub hits: Vec<HitsOrder>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FirstChoice {
    #[default]
    First,
    Second,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    pub company: String,
    /// Centre of the base's front edge.
    pub at: Point,
    /// Degrees clockwise from facing +y; unchanged when absent.
    #[serde(default)]
    pub facing: Option<Angle>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GeneralPlacement {
    pub general: String,
    #[serde(default)]
    pub at: Option<Point>,
    /// A company of his side he joins (his position becomes the company's).
    #[serde(default)]
    pub attach: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TurnOrders {
    /// A.5: companies and formed regiments in the order they act. Companies
    /// not listed hold where they are (and fight if they must).
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<Action>>")]
    pub actions: Vec<Action>,
    /// C.6: mines of this side to fire this turn.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<String>>")]
    pub fire_mines: Vec<String>,
    /// E.2, E.4, E.5: generals who ride, join a company or leave it, before
    /// any company acts.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<GeneralOrder>>")]
    pub generals: Vec<GeneralOrder>,
    /// E.1: how this side's formed regiments share hits from shooting, from
    /// now on.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<HitsOrder>>")]
    pub hits: Vec<HitsOrder>,
}

/// E.2, E.4, E.5: a general's move in his side's half-turn. Give `to`, or
/// `attach`, or `detach` alone. A general with a company goes where it goes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GeneralOrder {
    pub general: String,
    /// Ride to this point (leaving any company he is with).
    #[serde(default)]
    pub to: Option<Point>,
    /// Ride to this company of his side and join it.
    #[serde(default)]
    pub attach: Option<String>,
    /// Leave the company he is with, staying where it stands.
    #[serde(default)]
    pub detach: bool,
}

/// E.1: the owning side's choice of how a formed regiment shares the hits
/// it takes from shooting. It stands until the side orders another.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HitsOrder {
    pub regiment: String,
    /// These companies take the hits first, in this order, each until it is
    /// destroyed; hits left over are shared as by default. Empty: the
    /// default, each hit to the company with the most strength left.
    #[serde(default)]
    pub first: Vec<String>,
}

/// One company's (or one formed regiment's) part of the half-turn.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Action {
    /// The company that acts; or give `regiment`.
    #[serde(default)]
    pub company: Option<String>,
    /// E.1: a formed regiment acting as one.
    #[serde(default)]
    pub regiment: Option<String>,
    #[serde(default)]
    pub sequence: Sequence,
    /// Pivots and straight moves, in order.
    #[serde(default)]
    pub path: Vec<PathStep>,
    /// C.1: claim the road bonus (the whole move must follow the road).
    #[serde(default)]
    pub road: bool,
    /// The enemy company to shoot at.
    #[serde(default)]
    pub target: Option<String>,
    /// B.3: a charge into melee with this enemy.
    #[serde(default)]
    pub charge: Option<Charge>,
    /// C.6: breach this high wall or gate: engineers once in contact with
    /// it, or a heavy gun within 12" as its shooting. (A heavy gun's older
    /// spelling, `target: WALL`, is still accepted.)
    #[serde(default)]
    pub breach: Option<String>,
    /// E.2: if the command die reads "no advance", a formed regiment brings
    /// its companies in the rear up into line beside its head: to the
    /// `right`, the `left`, or `both` in turn.
    #[serde(default)]
    pub into_line: Option<LineSide>,
    /// E.7k: engineers, with a wagon of supplies at hand, demolish this
    /// bridge they stand on or touch.
    #[serde(default)]
    pub demolish: Option<String>,
    /// What to do when the order can no longer be carried out.
    #[serde(default)]
    pub fallback: Fallback,
}

impl Action {
    /// The company or regiment named, for messages.
    pub fn actor(&self) -> String {
        match (&self.company, &self.regiment) {
            (Some(c), _) => c.clone(),
            (None, Some(r)) => r.clone(),
            (None, None) => "(nobody)".into(),
        }
    }
    /// Total straight movement asked for, pivots being free (B.1).
    pub fn path_length(&self, start: Point, facing: Angle) -> Distance {
        let mut at = start;
        let mut total = 0.0;
        let mut facing = facing;
        for step in &self.path {
            match step {
                PathStep::Pivot(d) => facing = facing.turned(*d),
                PathStep::Forward(d) => {
                    total += d.get();
                    at = at + facing.unit_vector().scale(d.get());
                }
                PathStep::To(p) => {
                    total += (*p - at).length();
                    if let Some(f) = Angle::of_vector(*p - at) {
                        facing = f;
                    }
                    at = *p;
                }
            }
        }
        Distance(total)
    }
}

/// E.2: where companies brought up from the rear stand in the line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LineSide {
    Right,
    Left,
    /// Right, then left, then right again.
    Both,
}

/// B.2: in which order a company moves and fights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Sequence {
    #[default]
    MoveThenShoot,
    ShootThenMove,
    MoveOnly,
    ShootOnly,
    /// B.6: fight the melee it must, then retreat or advance.
    MeleeThenMove,
    /// Stay put and do nothing that is not forced.
    Hold,
}

impl Sequence {
    pub fn label(self) -> &'static str {
        match self {
            Sequence::MoveThenShoot => "move then shoot",
            Sequence::ShootThenMove => "shoot then move",
            Sequence::MoveOnly => "move only",
            Sequence::ShootOnly => "shoot only",
            Sequence::MeleeThenMove => "melee then move",
            Sequence::Hold => "hold",
        }
    }
    pub fn moves(self) -> bool {
        !matches!(self, Sequence::ShootOnly | Sequence::Hold)
    }
    pub fn shoots(self) -> bool {
        matches!(
            self,
            Sequence::MoveThenShoot | Sequence::ShootThenMove | Sequence::ShootOnly
        )
    }
}

/// One piece of a path (B.1: any number of pivots).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum PathStep {
    /// Turn on the spot, degrees clockwise (negative: anticlockwise).
    Pivot(f64),
    /// Straight ahead, inches.
    Forward(Distance),
    /// Face this point and move straight to it (front centre ends there).
    To(Point),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Charge {
    /// The enemy company charged.
    pub target: String,
    /// B.3: claim a flank attack (checked before coming within 3").
    #[serde(default)]
    pub flank: bool,
    /// E.8: cavalry that wins may advance 3" into a second melee.
    #[serde(default)]
    pub pursue: bool,
}

/// What a company does when its order has become impossible.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Fallback {
    /// Shoot at the nearest enemy it may shoot at.
    Nearest,
    /// Stay where it is.
    #[default]
    Hold,
}

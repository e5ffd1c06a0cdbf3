//! What a side may send: a placement in set-up, and its turn as an
//! ordered list of gambles: for each activation the unit, how many dice
//! to risk and what to do for each number of successes.

use super::state::Formation;
use crate::geometry::{Angle, Point};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The `orders:` block of an activation-dice orders file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Orders {
    /// Game Setup: the units this placement puts on the table.
    Deploy(Deployment),
    /// The side's turn, or (when consulted) the rest of it.
    Turn(TurnOrders),
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Deployment {
    #[serde(default)]
    pub units: Vec<Placement>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    pub unit: String,
    /// Centre of its front edge, within 1L of the side's edge.
    pub at: Point,
    /// Degrees clockwise from +y; default: facing the enemy's edge.
    #[serde(default)]
    pub facing: Option<Angle>,
    #[serde(default)]
    pub formation: Option<Formation>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TurnOrders {
    /// Pause after each activation for the next one (the turn then owes a
    /// decision after every roll). Default: play the whole list.
    #[serde(default)]
    pub consult: bool,
    /// The gambles, in order. Consulted, only the first is played; an
    /// empty list ends the turn.
    #[serde(default)]
    pub activations: Vec<Activation>,
    /// The unit whose dice make a turnover: carry out its successes
    /// (`act`, the default) or give them up (`hold`).
    #[serde(default)]
    pub turnover: Turnover,
    /// After a blunder that moved or fired the unit, go on with the
    /// script (`carry_on`, the default) or spend nothing more (`stop`).
    #[serde(default)]
    pub after_blunder: AfterBlunder,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Turnover {
    #[default]
    Act,
    Hold,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AfterBlunder {
    #[default]
    CarryOn,
    Stop,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Activation {
    pub unit: String,
    /// Activation dice to roll, 1 to 3.
    pub dice: u32,
    /// What to do, in order, as far as the successes pay.
    #[serde(default)]
    pub actions: Vec<Action>,
    /// With exactly one success: this instead of `actions`.
    #[serde(default)]
    pub one: Option<Vec<Action>>,
    /// With exactly two successes.
    #[serde(default)]
    pub two: Option<Vec<Action>>,
    /// With three successes.
    #[serde(default)]
    pub three: Option<Vec<Action>>,
}

impl Activation {
    /// The script for `successes`.
    pub fn script(&self, successes: u32) -> &[Action] {
        let special = match successes {
            1 => self.one.as_ref(),
            2 => self.two.as_ref(),
            3 => self.three.as_ref(),
            _ => None,
        };
        special.unwrap_or(&self.actions)
    }
}

/// Where a move goes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Goal {
    /// The new centre of its front edge.
    To(Point),
    /// Straight at this unit (within 45 degrees of its facing), until its
    /// move is spent or it meets it: a charge.
    Toward(String),
    /// Straight ahead this far (cm; its whole move when larger).
    Ahead(f64),
}

/// Actions and their costs (in successes).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// 1: one move forward, at up to 45 degrees from its facing.
    Move(Goal),
    /// 2: a move and one short more.
    DoubleTime(Goal),
    /// 1 per 45 degrees, about the centre; a column turns 45 free once
    /// an activation. Positive is clockwise.
    Pivot(f64),
    /// 1: infantry line, column or square.
    Formation(Formation),
    /// 2: close with this enemy and fight, the enemy at -1.
    Seize(String),
    /// 2: withdraw from melee and face the enemy (infantry 1S, cavalry 1M).
    Recoil,
    /// 1: shoot at this enemy.
    Fire(String),
    /// 2: shoot, the target at -1.
    Aimed(String),
    /// 2: artillery limbers (to move).
    Limber,
    /// 2: artillery unlimbers (to fire).
    Unlimber,
    /// 2: load canister for the next shot at short range.
    Canister,
    /// 1: do nothing.
    Hold,
}

impl Action {
    /// Its cost in successes (a pivot's before a column's free turn).
    pub fn cost(&self) -> u32 {
        match self {
            Action::Move(_) | Action::Formation(_) | Action::Fire(_) | Action::Hold => 1,
            Action::Pivot(d) => ((d.abs() / 45.0).ceil() as u32).max(1),
            _ => 2,
        }
    }
    pub fn name(&self) -> &'static str {
        match self {
            Action::Move(_) => "move",
            Action::DoubleTime(_) => "double time",
            Action::Pivot(_) => "pivot",
            Action::Formation(_) => "change formation",
            Action::Seize(_) => "seize the initiative",
            Action::Recoil => "recoil",
            Action::Fire(_) => "fire",
            Action::Aimed(_) => "aimed shot",
            Action::Limber => "limber",
            Action::Unlimber => "unlimber",
            Action::Canister => "load canister",
            Action::Hold => "hold",
        }
    }
}

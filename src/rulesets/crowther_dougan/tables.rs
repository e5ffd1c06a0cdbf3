//! The source's tables, and the house rules that fill those the source
//! lost (troop ratings, casualty rates, the lists of die modifiers). Each
//! house rule is listed with its reason in docs/rulesets/crowther-dougan.md.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Men a figure stands for: a figure goes once 25 casualties are inflicted.
pub const MEN_PER_FIGURE: u32 = 25;
/// The widest area a unit may observe, across (cm).
pub const OBSERVE_ACROSS: f64 = 20.0;
/// House rule: what each of the modifiers the source's cut-off list would
/// give is worth, in cm of observation range (the total is read in cm, as
/// written, so a modifier of 1 cm would be lost in the die's spread).
pub const OBSERVE_MODIFIER: i32 = 2;
/// No unit may come closer than this to an enemy unless charging home (cm).
pub const KEEP_OFF: f64 = 5.0;
/// Losers of hand to hand are pushed back this far (cm).
pub const PUSH_BACK: f64 = 2.0;
/// House rule: the value assumed for each D6 of a move deduction when a
/// charge's reach is checked (the source's figure is cut off).
pub const ASSUMED_D6: f64 = 3.0;
/// House rule (optional rule): forest squares are 2 feet across (cm).
pub const FOREST_SQUARE: f64 = 61.0;

/// The average die's faces, read from a d6.
pub const AVERAGE_FACES: [u32; 6] = [2, 3, 3, 4, 4, 5];

#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Troop {
    /// Close-order regular foot.
    LineInfantry,
    Grenadiers,
    /// Regular light infantry: close order, better marksmen and woodsmen.
    LightInfantry,
    /// Rangers and chasseurs: open order regulars.
    Skirmishers,
    /// Provincials and militia: close order, not regulars.
    Militia,
    /// Indians and Canadian militia in the woods: open order irregulars.
    Irregulars,
    Cavalry,
    /// A battery; figures are gun models.
    Artillery,
}

/// A troop's rating: the source's table is cut off, so every number here
/// is a house rule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// A normal move (cm).
    pub mv: f64,
    /// Fire factor, 1 to 4.
    pub ff: i32,
    /// Field craft, 1 to 4: seeing and not being seen.
    pub fc: i32,
    /// Basic morale factor: a D10 must roll under it.
    pub mf: i32,
    /// Melee factor: men hit per figure in hand to hand.
    pub melee: f64,
    /// Getting lost (optional rule): lost on this score or less of 1D6,
    /// before weather and night.
    pub lost_on: i32,
}

impl Troop {
    pub fn label(self) -> &'static str {
        match self {
            Troop::LineInfantry => "line infantry",
            Troop::Grenadiers => "grenadiers",
            Troop::LightInfantry => "light infantry",
            Troop::Skirmishers => "skirmishers",
            Troop::Militia => "militia",
            Troop::Irregulars => "irregulars",
            Troop::Cavalry => "cavalry",
            Troop::Artillery => "artillery",
        }
    }

    pub fn rating(self) -> Rating {
        let r = |mv, ff, fc, mf, melee, lost_on| Rating {
            mv,
            ff,
            fc,
            mf,
            melee,
            lost_on,
        };
        match self {
            Troop::LineInfantry => r(15.0, 2, 1, 7, 1.0, 3),
            Troop::Grenadiers => r(15.0, 2, 1, 8, 1.5, 3),
            Troop::LightInfantry => r(18.0, 3, 3, 7, 1.0, 2),
            Troop::Skirmishers => r(20.0, 3, 4, 7, 0.5, 1),
            Troop::Militia => r(15.0, 1, 2, 5, 0.75, 3),
            Troop::Irregulars => r(22.0, 2, 4, 6, 1.0, 1),
            Troop::Cavalry => r(30.0, 1, 1, 7, 2.0, 4),
            Troop::Artillery => r(10.0, 2, 1, 7, 0.25, 4),
        }
    }

    /// Open-order troops: skirmishers may pass dense woods.
    pub fn open_order(self) -> bool {
        matches!(self, Troop::Skirmishers | Troop::Irregulars)
    }

    /// Close-order regulars count a supporting second rank in hand to hand.
    pub fn close_order_regular(self) -> bool {
        matches!(
            self,
            Troop::LineInfantry | Troop::Grenadiers | Troop::LightInfantry | Troop::Cavalry
        )
    }

    pub fn usual(self) -> Formation {
        match self {
            Troop::Skirmishers | Troop::Irregulars => Formation::Open,
            Troop::Artillery => Formation::Unlimbered,
            _ => Formation::Line,
        }
    }

    /// House rule: the furthest a unit fires (cm); muskets and carbines,
    /// or guns choosing the right ammunition for the range.
    pub fn range(self) -> f64 {
        match self {
            Troop::Artillery => 120.0,
            Troop::Cavalry => 15.0,
            Troop::Skirmishers => 45.0,
            _ => 40.0,
        }
    }

    /// House rule: the basic casualties per figure (per gun model) at
    /// `distance` cm, before the multiplier.
    pub fn casualties_per_figure(self, distance: f64) -> f64 {
        match self {
            Troop::Artillery if distance <= 30.0 => 20.0,
            Troop::Artillery => 10.0,
            _ => 1.0,
        }
    }

    /// Reloading: the share of its move a unit may make and still be
    /// loaded for its next move (muskets 1/4, as the source; guns do not
    /// move: house rule).
    pub fn reload_share(self) -> f64 {
        match self {
            Troop::Artillery => 0.0,
            _ => 0.25,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Formation {
    /// Two ranks.
    Line,
    /// Four figures wide.
    Column,
    /// One rank, spaced.
    Open,
    Limbered,
    Unlimbered,
}

impl Formation {
    pub fn name(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::Column => "column",
            Formation::Open => "open order",
            Formation::Limbered => "limbered",
            Formation::Unlimbered => "unlimbered",
        }
    }

    pub fn fits(self, t: Troop) -> bool {
        match t {
            Troop::Artillery => matches!(self, Formation::Limbered | Formation::Unlimbered),
            _ if t.open_order() => self == Formation::Open,
            _ => matches!(self, Formation::Line | Formation::Column),
        }
    }

    /// Figures across the front and ranks deep, for `figures`.
    pub fn shape(self, figures: u32) -> (u32, u32) {
        let f = figures.max(1);
        match self {
            Formation::Line => (f.div_ceil(2), 2),
            Formation::Column => (f.min(4), f.div_ceil(4)),
            Formation::Open | Formation::Unlimbered | Formation::Limbered => (f, 1),
        }
    }
}

/// The source's multiplier for a modified average die (fire and combat).
pub fn multiplier(modified: i32) -> f64 {
    match modified {
        i32::MIN..=0 => 0.0,
        1 => 0.5,
        2 => 0.75,
        3 | 4 => 1.0,
        5 => 1.5,
        _ => 2.0,
    }
}

/// The optional rule's table: lost on `lost_on` or less after weather and
/// night; a troop whose `lost_on` is 1 to 4 maps the source's columns 5 to 2.
pub fn is_lost(roll: i32, lost_on: i32) -> bool {
    roll <= lost_on
}

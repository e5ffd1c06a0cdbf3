//! Units, arms and formations (source chapter 1).

use crate::geometry::{Angle, Base, Distance, Layout, Measure, Point, lay_out};
use crate::side::SideId;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Infantry, cavalry or artillery.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Arm {
    Infantry,
    Cavalry,
    Artillery,
}

impl Arm {
    /// Infantry and cavalry units have four bases, artillery one.
    pub fn bases(self) -> u32 {
        match self {
            Arm::Infantry | Arm::Cavalry => 4,
            Arm::Artillery => 1,
        }
    }
    pub fn label(self) -> &'static str {
        match self {
            Arm::Infantry => "infantry",
            Arm::Cavalry => "cavalry",
            Arm::Artillery => "artillery",
        }
    }
}

/// How a unit's bases stand.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Formation {
    Line,
    Column,
    /// Two ranks of two; cavalry only in the Lite rules.
    Massed,
    /// The one formation of a one-base artillery unit.
    Battery,
}

impl Formation {
    pub fn layout(self) -> Layout {
        match self {
            Formation::Line => Layout::Line,
            Formation::Column => Layout::Column,
            Formation::Massed => Layout::Massed,
            Formation::Battery => Layout::Single,
        }
    }
    pub fn label(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::Column => "column",
            Formation::Massed => "massed",
            Formation::Battery => "battery",
        }
    }
    /// Whether `arm` may stand in this formation.
    pub fn allowed_for(self, arm: Arm) -> bool {
        match (arm, self) {
            (Arm::Artillery, Formation::Battery) => true,
            (Arm::Artillery, _) | (_, Formation::Battery) => false,
            (Arm::Infantry, Formation::Massed) => false,
            _ => true,
        }
    }
    /// A dense target takes +1 to be hit (column or massed).
    pub fn is_dense(self) -> bool {
        matches!(self, Formation::Column | Formation::Massed)
    }
}

/// A unit on the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    pub id: String,
    pub name: String,
    pub side: SideId,
    pub arm: Arm,
    pub formation: Formation,
    /// Centre of the unit's front edge; none until deployed.
    pub anchor: Option<Point>,
    pub facing: Angle,
    pub disruption: u32,
    #[serde(default)]
    pub smoke: bool,
    #[serde(default)]
    pub broken: bool,
    /// Shot this round (each unit fires once a round; guns that fired in the
    /// volley phase may not be activated).
    #[serde(default)]
    pub fired: bool,
}

impl Unit {
    pub fn bases_count(&self) -> u32 {
        self.arm.bases()
    }
    /// Whether the unit stands on the table.
    pub fn on_table(&self) -> bool {
        self.anchor.is_some() && !self.broken
    }
    /// Bases where they stand (empty when not on the table).
    pub fn bases(&self, measure: &Measure) -> Vec<Base> {
        match self.anchor {
            Some(a) if !self.broken => self.bases_at(measure, a, self.facing, self.formation),
            _ => Vec::new(),
        }
    }
    pub fn bases_at(&self, m: &Measure, anchor: Point, facing: Angle, f: Formation) -> Vec<Base> {
        lay_out(
            f.layout(),
            self.bases_count() as usize,
            anchor,
            facing,
            m.base_width,
            m.base_depth,
        )
    }
    /// A unit breaks when its disruption exceeds its bases.
    pub fn would_break_with(&self, more: u32) -> bool {
        self.disruption + more > self.bases_count()
    }
    /// Disrupted for shooting: DISR at least half the bases.
    pub fn is_disrupted_shooter(&self) -> bool {
        self.disruption * 2 >= self.bases_count()
    }
    /// Whether line/massed interpenetration costs this unit a DISR.
    pub fn disrupted_by_interpenetration(&self) -> bool {
        matches!(self.formation, Formation::Line | Formation::Massed)
    }
    pub fn short(&self) -> String {
        format!("{} ({})", self.name, self.id)
    }
}

/// Movement allowances in BW (chapter 6).
pub fn allowance(arm: Arm, formation: Formation) -> Distance {
    Distance(match (arm, formation) {
        (Arm::Cavalry, Formation::Column) => 16.0,
        (Arm::Infantry, Formation::Column) => 12.0,
        (Arm::Cavalry, _) => 8.0,
        (Arm::Infantry, _) => 4.0,
        (Arm::Artillery, _) => 8.0,
    })
}

/// Near the enemy: within 4 BW.
pub const NEAR_ENEMY: Distance = Distance(4.0);
/// Columns and line cavalry move at most this far when near the enemy.
pub const NEAR_ENEMY_CAP: Distance = Distance(4.0);
/// Artillery moving in difficult terrain, or ending near the enemy.
pub const ARTILLERY_SLOW_CAP: Distance = Distance(2.0);
/// Units of a force stand within this of another unit of the force.
pub const FORCE_LINK: Distance = Distance(2.0);
/// The activation path keeps this far from every enemy.
pub const PATH_CLEARANCE: Distance = Distance(1.0);

/// Halve a whole number of BW, rounding up (source chapter 1).
pub fn half_round_up(d: Distance) -> Distance {
    Distance((d.0 / 2.0).ceil())
}

//! An activation-dice scenario: the table, the length of one short (S),
//! who attacks, each side's edge and units, and the two tables the source
//! leaves out, both house rules: the troop table and the victory terms.

pub use crate::geometry::table::{BaseSize, Table};
use crate::geometry::{Angle, Distance, Point, TerrainFeature};
use crate::side::{SideId, Sides};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

pub const NAME: &str = "activation-dice";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Must be `activation-dice`.
    pub ruleset: String,
    pub title: String,
    #[serde(default)]
    pub description: String,
    /// The table, in centimetres.
    pub table: Table,
    /// Distances and measurements: one short (S) in cm; M is 2S, L is 3S.
    pub short: Distance,
    /// A battalion's (or a cavalry regiment's, a battery's) base, in cm.
    #[serde(default = "default_base")]
    pub base: BaseSize,
    /// Game Setup: the attacker (the other side defends).
    pub attacker: SideId,
    /// House rule (the source has none): how the game is won.
    pub victory: Victory,
    /// House rule (the source has none): unit statistics by troop type.
    pub troops: Vec<Troop>,
    /// Exactly two sides.
    pub sides: Vec<SideSpec>,
    #[serde(default)]
    pub terrain: Vec<TerrainFeature>,
}

fn default_base() -> BaseSize {
    BaseSize {
        width: Distance(6.0),
        depth: Distance(3.0),
    }
}

/// House rule: a side that has lost `break_at` units (removed or routed
/// off) loses; after `turns` whole turns the side that lost fewer wins.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Victory {
    pub break_at: u32,
    pub turns: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Arm {
    Infantry,
    Cavalry,
    Artillery,
}

/// Basic Units: quality, speed, melee and ranged combat, range. Speeds and
/// ranges are counted in shorts (S).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Troop {
    pub id: String,
    pub name: String,
    pub arm: Arm,
    /// An activation die succeeds at this score or more (2 to 6).
    pub quality: u32,
    /// One move, in S.
    pub speed: u32,
    pub melee: i32,
    /// Ranged (shooting) combat value; 0 for troops without a ranged attack.
    #[serde(default)]
    pub shooting: i32,
    /// Maximum range in S; 0 for none.
    #[serde(default)]
    pub range: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Edge {
    /// The edge at y = 0.
    South,
    /// The edge at y = table height.
    North,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SideSpec {
    pub id: SideId,
    pub name: String,
    pub colour: String,
    /// The side's own end of the board.
    pub edge: Edge,
    pub units: Vec<UnitSpec>,
}

crate::side::scenario_sides!(Scenario, SideSpec);

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitSpec {
    pub id: String,
    pub name: String,
    /// A troop id of the scenario's troop table.
    pub troop: String,
    /// A suggested place (centre of the front edge) for the deployment
    /// template and the default orders; the player places the unit.
    #[serde(default)]
    pub at: Option<Point>,
    #[serde(default)]
    pub facing: Option<Angle>,
    /// Coloured (damage) dice the unit brings from an earlier battle of a
    /// campaign, 0 to 3.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub disorder: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Scenario {
    pub fn troop(&self, id: &str) -> Option<&Troop> {
        self.troops.iter().find(|t| t.id == id)
    }

    pub fn defender(&self) -> SideId {
        self.other(&self.attacker)
    }

    pub fn check(&self) -> Result<(), String> {
        if self.ruleset != NAME {
            return Err(format!("ruleset must be {NAME}, not {:?}", self.ruleset));
        }
        if self.sides.len() != 2 {
            return Err("an activation-dice battle has exactly two sides".into());
        }
        if self.side(&self.attacker).is_none() {
            return Err(format!(
                "`attacker: {}` is not one of the sides",
                self.attacker
            ));
        }
        if self.sides[0].edge == self.sides[1].edge {
            return Err("the two sides need opposite edges (south and north)".into());
        }
        let s = self.short.get();
        if !(s.is_finite() && s > 0.0 && s <= 100.0) {
            return Err("`short` must be a length above 0 and at most 100 cm".into());
        }
        let (w, h) = (self.table.width.get(), self.table.height.get());
        if !(w.is_finite() && h.is_finite() && w > 0.0 && h > 0.0 && w <= 1000.0 && h <= 1000.0) {
            return Err("the table must be between 0 and 1000 cm each way".into());
        }
        let b = self.base;
        if !(b.width.get() > 0.0
            && b.depth.get() > 0.0
            && b.width.get() <= 50.0
            && b.depth.get() <= 50.0)
        {
            return Err("a base must be above 0 and at most 50 cm each way".into());
        }
        if self.victory.turns == 0 || self.victory.turns > 100 {
            return Err("`victory.turns` must be 1 to 100".into());
        }
        if self.victory.break_at == 0 {
            return Err("`victory.break_at` must be at least 1".into());
        }
        let mut ids = BTreeSet::new();
        for t in &self.troops {
            if !ids.insert(t.id.clone()) {
                return Err(format!("troop id {} is used twice", t.id));
            }
            if !(2..=6).contains(&t.quality) {
                return Err(format!("troop {}: quality is 2 to 6", t.id));
            }
            if t.speed > 6 || t.range > 12 || t.melee.abs() > 6 || t.shooting.abs() > 6 {
                return Err(format!(
                    "troop {}: speed at most 6 S, range at most 12 S, values within 6",
                    t.id
                ));
            }
            if t.arm == Arm::Cavalry && t.range > 0 {
                return Err(format!(
                    "troop {}: Cavalry: light and heavy cavalry have no ranged attack, so no range (range: {} S given; 0 or left out)",
                    t.id, t.range
                ));
            }
        }
        let mut ids = BTreeSet::new();
        for side in &self.sides {
            crate::scenario_check::units_a_side(side.id.as_str(), "units", side.units.len())?;
            if side.units.is_empty() {
                return Err(format!("side {} has no units", side.id));
            }
            for u in &side.units {
                if !ids.insert(u.id.clone()) {
                    return Err(format!("unit id {} is used twice", u.id));
                }
                if self.troop(&u.troop).is_none() {
                    return Err(format!(
                        "unit {}: troop {} is not in the troop table",
                        u.id, u.troop
                    ));
                }
                if let Some(p) = u.at
                    && !(p.is_finite() && (0.0..=w).contains(&p.x) && (0.0..=h).contains(&p.y))
                {
                    return Err(format!(
                        "unit {}: its suggested place is off the table",
                        u.id
                    ));
                }
                if u.facing.is_some_and(|f| !f.degrees().is_finite()) {
                    return Err(format!("unit {}: facing is not a number", u.id));
                }
                if u.disorder > 3 {
                    return Err(format!(
                        "unit {}: disorder is 0 to 3 coloured dice, not {}",
                        u.id, u.disorder
                    ));
                }
            }
        }
        crate::scenario_check::terrain(&self.terrain)?;
        Ok(())
    }
}

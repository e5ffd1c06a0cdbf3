//! A napoleonic-corps scenario: the table in centimetres, terrain, terrain
//! objectives, and each side's corps with their commanders, morale passes,
//! divisional generals and units.

use super::formation::Formation;
use super::formation::lay_out;
use super::tables::{Nation, Troop, mods};
pub use crate::geometry::table::{BaseSize, Table};
use crate::geometry::{Angle, Base, Distance, Point, TerrainFeature};
use crate::side::{SideId, Sides};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

pub const NAME: &str = "napoleonic-corps";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Must be `napoleonic-corps`.
    pub ruleset: String,
    pub title: String,
    #[serde(default)]
    pub description: String,
    /// In centimetres.
    pub table: Table,
    /// Every base's size in cm (house rule: one size for all arms).
    #[serde(default = "default_base")]
    pub base: BaseSize,
    /// House rule: the game ends after this many whole turns if no army has
    /// broken.
    pub turns: u32,
    /// House rule: the side that takes the first turn.
    pub first: SideId,
    /// Exactly two sides.
    pub sides: Vec<SideSpec>,
    #[serde(default)]
    pub terrain: Vec<TerrainFeature>,
    #[serde(default)]
    pub objectives: Vec<Objective>,
}

fn default_base() -> BaseSize {
    BaseSize {
        width: Distance(4.0),
        depth: Distance(2.0),
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SideSpec {
    pub id: SideId,
    pub name: String,
    pub colour: String,
    pub nation: Nation,
    /// Where its units set up (house rule: the source gives no set-up;
    /// every unit must stand within it, and step 1 may move them inside it).
    #[serde(default)]
    pub zone: Option<Rect>,
    pub corps: Vec<CorpsSpec>,
}

crate::side::scenario_sides!(Scenario, SideSpec);

/// An upright rectangle on the table, cm.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rect {
    pub min: Point,
    pub max: Point,
}

impl Rect {
    pub fn holds(&self, p: Point) -> bool {
        (self.min.x - 1e-6..=self.max.x + 1e-6).contains(&p.x)
            && (self.min.y - 1e-6..=self.max.y + 1e-6).contains(&p.y)
    }

    /// Whether every corner of every base lies within.
    pub fn holds_bases(&self, bases: &[Base]) -> bool {
        bases
            .iter()
            .flat_map(|b| b.corners())
            .all(|c| self.holds(c))
    }

    /// Its outline, corner by corner.
    pub fn corners(&self) -> Vec<Point> {
        vec![
            self.min,
            Point::new(self.max.x, self.min.y),
            self.max,
            Point::new(self.min.x, self.max.y),
        ]
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CorpsSpec {
    pub id: String,
    pub name: String,
    /// The corps commander's name.
    pub commander: String,
    /// Where the commander stands.
    pub at: Point,
    /// Rally: morale passes, 1 to 5.
    pub passes: u32,
    /// Winning and losing: one commander per side is the CinC.
    #[serde(default)]
    pub cinc: bool,
    #[serde(default)]
    pub generals: Vec<GeneralSpec>,
    pub units: Vec<UnitSpec>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum GeneralArm {
    Infantry,
    Cavalry,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GeneralSpec {
    pub id: String,
    pub name: String,
    pub arm: GeneralArm,
    /// The unit of his corps and arm he is with at the start.
    #[serde(default)]
    pub attached: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitSpec {
    pub id: String,
    pub name: String,
    pub troop: Troop,
    /// French "GD Arty": Guard artillery.
    #[serde(default)]
    pub guard: bool,
    pub bases: u32,
    /// Centre of the unit's front edge.
    pub at: Point,
    /// Degrees clockwise from +y.
    pub facing: Angle,
    pub formation: Formation,
    /// Bases it lost before this battle (a campaign's forced marches):
    /// it fields `bases` less these.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub bases_lost: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A terrain objective: held by a side at the start (or by none).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Objective {
    pub id: String,
    pub name: String,
    pub at: Point,
    #[serde(default)]
    pub held_by: Option<SideId>,
}

impl Scenario {
    pub fn check(&self) -> Result<(), String> {
        if self.ruleset != NAME {
            return Err(format!("ruleset must be {NAME}, not {:?}", self.ruleset));
        }
        if self.sides.len() != 2 {
            return Err("a napoleonic-corps battle has exactly two sides".into());
        }
        if self.side(&self.first).is_none() {
            return Err(format!("`first: {}` is not one of the sides", self.first));
        }
        if self.turns == 0 {
            return Err("`turns` must be at least 1".into());
        }
        let mut ids = BTreeSet::new();
        let on_table = |p: Point| {
            (0.0..=self.table.width.get()).contains(&p.x)
                && (0.0..=self.table.height.get()).contains(&p.y)
        };
        for side in &self.sides {
            let n = side.corps.iter().map(|c| c.units.len()).sum();
            crate::scenario_check::units_a_side(side.id.as_str(), "units", n)?;
            if let Some(z) = side.zone
                && !(on_table(z.min) && on_table(z.max) && z.min.x < z.max.x && z.min.y < z.max.y)
            {
                return Err(format!(
                    "side {}: the zone must be a rectangle on the table with min below max",
                    side.id
                ));
            }
            if side.corps.iter().filter(|c| c.cinc).count() != 1 {
                return Err(format!(
                    "side {}: exactly one corps commander must be the CinC (`cinc: true`)",
                    side.id
                ));
            }
            for corps in &side.corps {
                if !(1..=5).contains(&corps.passes) {
                    return Err(format!(
                        "corps {}: Rally gives a commander 1 to 5 morale passes, not {}",
                        corps.id, corps.passes
                    ));
                }
                if !ids.insert(corps.id.clone()) {
                    return Err(format!("id {} is used twice", corps.id));
                }
                for u in &corps.units {
                    if !ids.insert(u.id.clone()) {
                        return Err(format!("id {} is used twice", u.id));
                    }
                    if mods(side.nation, u.troop, u.guard).is_none() {
                        return Err(format!(
                            "unit {}: the {} table has no {}",
                            u.id,
                            side.nation.label(),
                            u.troop.label()
                        ));
                    }
                    if !u.formation.fits(u.troop.arm()) {
                        return Err(format!(
                            "unit {}: {} cannot stand in {}",
                            u.id,
                            u.troop.label(),
                            u.formation.name()
                        ));
                    }
                    if !(1..=12).contains(&u.bases) {
                        return Err(format!("unit {}: 1 to 12 bases", u.id));
                    }
                    if u.bases_lost >= u.bases {
                        return Err(format!(
                            "unit {}: {} of its {} bases lost leaves none",
                            u.id, u.bases_lost, u.bases
                        ));
                    }
                    if !on_table(u.at) {
                        return Err(format!("unit {} stands off the table", u.id));
                    }
                    let bases = lay_out(
                        u.formation,
                        u.bases - u.bases_lost,
                        u.at,
                        u.facing,
                        self.base.width,
                        self.base.depth,
                    );
                    if let Some(z) = side.zone
                        && !z.holds_bases(&bases)
                    {
                        return Err(format!(
                            "unit {} stands outside side {}'s deployment zone",
                            u.id, side.id
                        ));
                    }
                }
                for g in &corps.generals {
                    if !ids.insert(g.id.clone()) {
                        return Err(format!("id {} is used twice", g.id));
                    }
                    if let Some(a) = &g.attached
                        && !corps.units.iter().any(|u| &u.id == a)
                    {
                        return Err(format!("general {}: {a} is not a unit of his corps", g.id));
                    }
                }
            }
        }
        for o in &self.objectives {
            if let Some(h) = &o.held_by
                && self.side(h).is_none()
            {
                return Err(format!("objective {}: {h} is not a side", o.id));
            }
        }
        crate::scenario_check::terrain(&self.terrain)?;
        Ok(())
    }
}

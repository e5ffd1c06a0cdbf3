//! A crowther-dougan scenario: the table in centimetres, terrain that hides
//! troops (woods, buildings), each side's units and personalities.

use super::tables::{Formation, Troop};
pub use crate::geometry::table::Table;
use crate::geometry::{Angle, Base, Distance, Point, Shape, TerrainFeature};
use crate::side::{SideId, Sides};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

pub const NAME: &str = "crowther-dougan";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Must be `crowther-dougan`.
    pub ruleset: String,
    pub title: String,
    #[serde(default)]
    pub description: String,
    /// In centimetres.
    pub table: Table,
    /// House rule: the game ends after this many moves (one side's move
    /// each) if neither side has broken.
    pub moves: u32,
    /// The side that moves first.
    pub first: SideId,
    /// Exactly two sides.
    pub sides: Vec<SideSpec>,
    #[serde(default)]
    pub terrain: Vec<TerrainFeature>,
    #[serde(default)]
    pub options: Options,
}

/// The source's optional rules and conditions, per scenario.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Optional rule: units crossing from one 2-foot forest square to
    /// another test to see whether they lose their way.
    #[serde(default)]
    pub lost_in_forest: bool,
    /// Mist, snow and the like: 1 off the getting-lost roll.
    #[serde(default)]
    pub severe_weather: bool,
    /// 1 off the getting-lost roll.
    #[serde(default)]
    pub night: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SideSpec {
    pub id: SideId,
    pub name: String,
    pub colour: String,
    pub units: Vec<UnitSpec>,
    /// One per 3 or 4 units.
    #[serde(default)]
    pub personalities: Vec<PersonSpec>,
    /// Where the side's hidden units may be deployed (`hidden: true`):
    /// areas of the table, secret to the side like its units. Left out of
    /// the state's text when empty, so that a game without hidden units
    /// stores (and hashes) its states as before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zones: Vec<Zone>,
}

crate::side::scenario_sides!(Scenario, SideSpec);

/// A deployment area for hidden units: a polygon in centimetres. A unit
/// deployed in it has its centre inside.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Zone {
    pub id: String,
    pub name: String,
    /// The outline, closed automatically.
    pub points: Vec<Point>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitSpec {
    pub id: String,
    pub name: String,
    pub troop: Troop,
    /// Figures (guns for artillery): each stands for 25 men.
    pub figures: u32,
    /// The centre of the unit.
    pub at: Point,
    /// Degrees clockwise from +y.
    #[serde(default)]
    pub facing: f64,
    /// Defaults to the troop's usual formation.
    #[serde(default)]
    pub formation: Option<Formation>,
    /// A hidden unit: its side deploys it by secret orders in the setup
    /// step before the first move, within its zones. `at`, `facing` and
    /// `formation` are then only suggestions: the default orders and the
    /// template's examples. A file's places are public knowledge once the
    /// file is, so they cannot be where a hidden unit must stand.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hidden: bool,
    /// The ids of the side's `zones` this hidden unit may deploy in; empty:
    /// any of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zones: Vec<String>,
    /// Men the unit lost in an earlier battle of a campaign: fewer than
    /// its figures stand for.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub men_lost: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PersonSpec {
    pub id: String,
    pub name: String,
    /// Command points each move: 2 to 5.
    pub points: u32,
    /// The unit he starts with.
    pub with: String,
}

impl Scenario {
    /// What the public archive shows while the game runs: the table, its
    /// terrain and the sides, without a single unit or personality.
    pub fn public(&self) -> Scenario {
        let mut s = self.clone();
        for side in &mut s.sides {
            side.units.clear();
            side.personalities.clear();
            side.zones.clear();
        }
        s
    }

    pub fn check(&self) -> Result<(), String> {
        if self.ruleset != NAME {
            return Err(format!("`ruleset` must be {NAME}"));
        }
        if self.sides.len() != 2 {
            return Err("a crowther-dougan battle has exactly two sides".into());
        }
        if self.side(&self.first).is_none() {
            return Err(format!("`first: {}` is not one of the sides", self.first));
        }
        if self.moves == 0 {
            return Err("`moves` must be at least 1".into());
        }
        let w = self.table.width.get();
        let h = self.table.height.get();
        if !(w > 0.0 && h > 0.0 && w <= 1000.0 && h <= 1000.0) {
            return Err("the table must be 1 to 1000 cm each way".into());
        }
        let mut ids = BTreeSet::new();
        for side in &self.sides {
            crate::scenario_check::units_a_side(side.id.as_str(), "units", side.units.len())?;
            for u in &side.units {
                if !ids.insert(u.id.clone()) {
                    return Err(format!("id {} is used twice", u.id));
                }
                if u.id == super::orders::FOUND {
                    return Err(format!(
                        "unit id `{}` is kept for orders that name what a unit finds: choose another",
                        u.id
                    ));
                }
                if !(1..=60).contains(&u.figures) {
                    return Err(format!("unit {}: 1 to 60 figures", u.id));
                }
                if u.men_lost >= u.figures * super::tables::MEN_PER_FIGURE {
                    return Err(format!(
                        "unit {}: {} men lost of the {} its {} figures stand for leaves none",
                        u.id,
                        u.men_lost,
                        u.figures * super::tables::MEN_PER_FIGURE,
                        u.figures
                    ));
                }
                if !(u.at.is_finite() && (0.0..=w).contains(&u.at.x) && (0.0..=h).contains(&u.at.y))
                {
                    return Err(format!("unit {} stands off the table", u.id));
                }
                if !u.facing.is_finite() {
                    return Err(format!("unit {}: facing is not a number", u.id));
                }
                if let Some(f) = u.formation
                    && !f.fits(u.troop)
                {
                    return Err(format!(
                        "unit {}: {} cannot stand in {}",
                        u.id,
                        u.troop.label(),
                        f.name()
                    ));
                }
            }
            for p in &side.personalities {
                if !ids.insert(p.id.clone()) {
                    return Err(format!("id {} is used twice", p.id));
                }
                if !(2..=5).contains(&p.points) {
                    return Err(format!(
                        "personality {}: Command Points are 2 to 5, not {}",
                        p.id, p.points
                    ));
                }
                if !side.units.iter().any(|u| u.id == p.with) {
                    return Err(format!(
                        "personality {}: {} is not a unit of his side",
                        p.id, p.with
                    ));
                }
            }
        }
        crate::scenario_check::terrain(&self.terrain)?;
        for side in &self.sides {
            side.check_zones()?;
        }
        Ok(())
    }

    /// Whether any side deploys hidden units: the game then opens with a
    /// setup step.
    pub fn has_hidden(&self) -> bool {
        self.sides.iter().any(|s| s.units.iter().any(|u| u.hidden))
    }

    /// The spec of unit `id`.
    pub fn unit(&self, id: &str) -> Option<&UnitSpec> {
        self.sides
            .iter()
            .flat_map(|s| &s.units)
            .find(|u| u.id == id)
    }
}

impl SideSpec {
    /// The zones hidden unit `u` may deploy in.
    pub fn zones_of<'a>(&'a self, u: &'a UnitSpec) -> impl Iterator<Item = &'a Zone> + 'a {
        self.zones
            .iter()
            .filter(move |z| u.zones.is_empty() || u.zones.contains(&z.id))
    }

    /// Zones drawn right, named once, and every hidden unit with a zone
    /// that holds its suggested place (so that the default orders stand).
    fn check_zones(&self) -> Result<(), String> {
        let mut ids = BTreeSet::new();
        for z in &self.zones {
            if !ids.insert(z.id.as_str()) {
                return Err(format!("side {}: zone {} is named twice", self.id, z.id));
            }
            z.feature()
                .validate()
                .map_err(|e| format!("side {}: zone {}: {e}", self.id, z.id))?;
        }
        for u in &self.units {
            if !u.hidden {
                if !u.zones.is_empty() {
                    return Err(format!(
                        "unit {}: only a hidden unit (`hidden: true`) has zones",
                        u.id
                    ));
                }
                continue;
            }
            if let Some(z) = u.zones.iter().find(|z| !ids.contains(z.as_str())) {
                return Err(format!(
                    "unit {}: {z} is not a zone of side {}",
                    u.id, self.id
                ));
            }
            if !self.zones_of(u).any(|z| z.holds(u.at)) {
                return Err(format!(
                    "hidden unit {}: its suggested place ({:.1}, {:.1}) is in none of its zones",
                    u.id, u.at.x, u.at.y
                ));
            }
        }
        Ok(())
    }
}

impl Zone {
    /// The zone as a terrain outline, for its checks and measures.
    pub fn feature(&self) -> TerrainFeature {
        TerrainFeature {
            id: self.id.clone(),
            name: self.name.clone(),
            tags: Vec::new(),
            elevation: None,
            shape: Shape::Polygon {
                points: self.points.clone(),
            },
        }
    }

    /// Whether a unit whose centre is `p` stands in the zone: the test
    /// of [`super::state::State::ground`], a speck at the centre.
    pub fn holds(&self, p: Point) -> bool {
        let speck = Base::new(p, Angle(0.0), Distance(0.2), Distance(0.2));
        p.is_finite() && self.feature().touches_bases(&[speck])
    }

    /// How far `p` lies outside the zone's outline (0 inside).
    pub fn outside_by(&self, p: Point) -> f64 {
        if self.holds(p) {
            return 0.0;
        }
        let n = self.points.len();
        (0..n)
            .map(|i| {
                p.distance_to_segment(self.points[i], self.points[(i + 1) % n])
                    .get()
            })
            .fold(f64::INFINITY, f64::min)
    }
}

//! A Maurice Lite scenario: table, terrain, armies and deployment zones.

use super::deck::{DEFAULT_DECK, DeckFile};
use super::units::{Arm, Formation};
pub use crate::geometry::table::Table;
use crate::geometry::{Base, Measure, MeasureUnit, TerrainFeature, TerrainTag};
use crate::side::SideId;
use geo::{Area, BooleanOps};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Must be `maurice-lite`.
    pub ruleset: String,
    pub title: String,
    #[serde(default)]
    pub description: String,
    pub table: Table,
    pub measure: Measure,
    /// Exactly two sides; the first deploys along the y = 0 edge.
    pub sides: Vec<SideSpec>,
    #[serde(default)]
    pub terrain: Vec<TerrainFeature>,
    /// The action deck; Galloper's own deck when absent.
    #[serde(default)]
    pub deck: Option<DeckFile>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SideSpec {
    pub id: SideId,
    pub name: String,
    /// CSS colour for the map.
    pub colour: String,
    pub units: Vec<UnitSpec>,
}

crate::side::scenario_sides!(Scenario, SideSpec);

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitSpec {
    pub id: String,
    pub name: String,
    pub arm: Arm,
    /// Disruption it brings from an earlier battle of a campaign: at most
    /// one less than breaks it.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub disruption: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Scenario {
    /// The deck in play.
    pub fn deck(&self) -> Result<DeckFile, String> {
        match &self.deck {
            Some(d) => Ok(d.clone()),
            None => DeckFile::parse(DEFAULT_DECK),
        }
    }

    /// The y range of a side's deployment zone: its third of the table.
    pub fn zone(&self, index: usize) -> (f64, f64) {
        let h = self.table.height.get();
        if index == 0 {
            (0.0, h / 3.0)
        } else {
            (2.0 * h / 3.0, h)
        }
    }

    /// Check what the types cannot say.
    pub fn check(&self) -> Result<(), String> {
        if self.ruleset != "maurice-lite" {
            return Err(format!(
                "scenario is for ruleset {:?}, not maurice-lite",
                self.ruleset
            ));
        }
        if self.measure.unit != MeasureUnit::BaseWidth {
            return Err(
                "maurice-lite measures in base widths: set measure.unit to base_width".into(),
            );
        }
        let dims = [
            self.table.width.get(),
            self.table.height.get(),
            self.measure.base_width.get(),
            self.measure.base_depth.get(),
        ];
        if dims
            .iter()
            .any(|d| !d.is_finite() || *d <= 0.0 || *d > 1000.0)
        {
            return Err("table and base sizes must be positive and at most 1000".into());
        }
        if (self.measure.base_width.get() - 1.0).abs() > 1e-9 {
            return Err("in base widths, measure.base_width must be 1".into());
        }
        if self.sides.len() != 2 {
            return Err(format!(
                "maurice-lite is for two sides, the scenario has {}",
                self.sides.len()
            ));
        }
        for side in &self.sides {
            crate::scenario_check::units_a_side(side.id.as_str(), "units", side.units.len())?;
        }
        for side in &self.sides {
            // Side ids name files and folders of reports and archives.
            let id = side.id.as_str();
            let ok = !id.is_empty()
                && id.len() <= 32
                && id
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
            if !ok || id == "public" || id == "umpire" {
                return Err(format!(
                    "side id {id:?}: use 1 to 32 lowercase letters, digits and dashes, not public or umpire"
                ));
            }
        }
        if self.sides[0].id == self.sides[1].id {
            return Err("the two sides need different ids".into());
        }
        let mut ids: Vec<&str> = self
            .sides
            .iter()
            .flat_map(|s| s.units.iter().map(|u| u.id.as_str()))
            .collect();
        ids.sort_unstable();
        if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!("unit id {} is used twice", w[0]));
        }
        for s in &self.sides {
            if s.units.is_empty() {
                return Err(format!("side {} has no units", s.id));
            }
            for u in &s.units {
                if u.disruption > u.arm.bases() {
                    return Err(format!(
                        "unit {}: {} disruption would break a unit of {} bases",
                        u.id,
                        u.disruption,
                        u.arm.bases()
                    ));
                }
            }
        }
        crate::scenario_check::terrain(&self.terrain)?;
        self.deck()?;
        Ok(())
    }
}

/// Terrain that is difficult for movement, and so bad terrain in combat
/// (chapter 5). House rule: the same for every arm. Everything the source
/// counts as water (streams, marshes, fords) is difficult too.
pub fn is_difficult(t: &TerrainFeature) -> bool {
    is_water(t)
        || ([TerrainTag::Difficult, TerrainTag::Woods]
            .iter()
            .any(|tag| t.has(*tag))
            && !t.has(TerrainTag::Bridge))
}

/// Water as chapter 5 defines it ("in water"): a river or stream, a marsh, a
/// pond or any other body of water, a ford included. A feature that is also
/// tagged `bridge` is dry (a base on a bridge is not in water).
pub fn is_water(t: &TerrainFeature) -> bool {
    (t.has(TerrainTag::Water) || t.has(TerrainTag::Marsh)) && !t.has(TerrainTag::Bridge)
}

/// The water feature some part of `base` stands in (chapter 5, "In
/// Water"), if any. The part of the base on a bridge feature does not count:
/// a base whose only wet ground lies under a bridge is dry.
pub fn water_under<'a>(terrain: &'a [TerrainFeature], base: &Base) -> Option<&'a TerrainFeature> {
    let bridges: Vec<&TerrainFeature> = terrain
        .iter()
        .filter(|t| t.has(TerrainTag::Bridge) && t.touches_bases(&[*base]))
        .collect();
    terrain.iter().filter(|t| is_water(t)).find(|t| {
        if !t.touches_bases(&[*base]) {
            return false;
        }
        if bridges.is_empty() {
            return true;
        }
        // What of the base lies in the water, less what lies on a bridge.
        let wet = t
            .area()
            .intersection(&geo::MultiPolygon::new(vec![base.shrunk(1e-6).polygon()]));
        let dry = bridges
            .iter()
            .fold(wet, |left, b| left.difference(&b.area()));
        dry.unsigned_area() > 1e-6
    })
}

/// Terrain no unit may enter.
pub fn is_impassable(t: &TerrainFeature) -> bool {
    t.has(TerrainTag::Impassable)
}

/// The default formation of a newly raised unit.
pub fn default_formation(arm: Arm) -> Formation {
    match arm {
        Arm::Artillery => Formation::Battery,
        _ => Formation::Line,
    }
}

//! The campaign file an organiser writes: the sides, the strategic map of
//! areas joined by roads, the armies and their units in the battles'
//! ruleset's terms, the calendar, and the few strategic rules (marching,
//! recovery, reinforcements), each with its number stated.

use crate::side::SideId;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignFile {
    pub title: String,
    #[serde(default)]
    pub description: String,
    /// The ruleset every battle of the campaign is fought by, unless its
    /// area names another.
    pub ruleset: String,
    /// How many days the campaign lasts; each day is one campaign turn.
    pub days: u32,
    #[serde(default)]
    pub rules: Rules,
    /// Exactly two sides.
    pub sides: Vec<CampaignSide>,
    pub areas: Vec<Area>,
    pub roads: Vec<Road>,
    pub armies: Vec<ArmySpec>,
    #[serde(default)]
    pub reinforcements: Vec<Reinforcement>,
}

/// The strategic rules, with the numbers a club may change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// What a forced march (two roads in a day) costs each unit, in its
    /// ruleset's count of strength.
    pub forced_march_cost: u32,
    /// The share, in hundredths, of its losses that a unit out of contact
    /// recovers each day (rounded down).
    pub recovery_percent: u32,
    /// How far, in roads, an army with cavalry sees; one without sees the
    /// areas next to it.
    pub cavalry_sight: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            forced_march_cost: 1,
            recovery_percent: 50,
            cavalry_sight: 2,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignSide {
    pub id: SideId,
    pub name: String,
    #[serde(default = "grey")]
    pub colour: String,
}

fn grey() -> String {
    "#555555".into()
}

/// One area of the strategic map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Area {
    pub id: String,
    pub name: String,
    /// Where it is drawn on the campaign map (any units; the map scales).
    pub at: MapPoint,
    #[serde(default)]
    pub terrain: AreaTerrain,
    /// The battlefield a battle here is fought on: a scenario of the
    /// battle's ruleset whose sides are the campaign's sides and whose own
    /// units are set aside, as a path from the campaign file's folder.
    pub battlefield: String,
    /// The ruleset of a battle here, when not the campaign's.
    #[serde(default)]
    pub ruleset: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapPoint {
    pub x: f64,
    pub y: f64,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AreaTerrain {
    #[default]
    Open,
    Town,
    Woods,
    Hills,
    Marsh,
}

/// A road between two areas: one day's march. A road that crosses a river
/// takes the whole day, forced march or not.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Road {
    pub between: [String; 2],
    #[serde(default)]
    pub river: bool,
    /// The table edges an army coming along this road enters a battle by,
    /// at each end: `[edge at the first area, edge at the second]`.
    pub edges: [crate::muster::TableEdge; 2],
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmySpec {
    pub id: String,
    pub side: SideId,
    pub name: String,
    pub commander: String,
    /// The area it stands in on the first day.
    pub at: String,
    /// Its units, each in the battles' ruleset's scenario terms.
    pub units: Vec<serde_yaml::Value>,
}

/// An army that reaches the map on a day, at an area of its own side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reinforcement {
    pub day: u32,
    pub army: ArmySpec,
}

/// Most areas, roads and armies a campaign may have: a bound on what an
/// organiser's file makes the server do.
pub const MOST_AREAS: usize = 200;
pub const MOST_ARMIES: usize = 100;
pub const MOST_DAYS: u32 = 365;

impl CampaignFile {
    pub fn area(&self, id: &str) -> Option<&Area> {
        self.areas.iter().find(|a| a.id == id)
    }

    /// What the file says that cannot be: each message names the entry.
    pub fn check(&self) -> Result<(), String> {
        if self.sides.len() != 2 {
            return Err("a campaign has exactly two sides".into());
        }
        if self.sides[0].id == self.sides[1].id {
            return Err(format!("side {} is named twice", self.sides[0].id));
        }
        if self.days == 0 || self.days > MOST_DAYS {
            return Err(format!("`days` is 1 to {MOST_DAYS}, not {}", self.days));
        }
        if self.rules.recovery_percent > 100 {
            return Err("`rules.recovery_percent` is 0 to 100".into());
        }
        if self.areas.is_empty() || self.areas.len() > MOST_AREAS {
            return Err(format!("a campaign has 1 to {MOST_AREAS} areas"));
        }
        let mut ids = BTreeSet::new();
        for a in &self.areas {
            if !ids.insert(a.id.as_str()) {
                return Err(format!("area {} is named twice", a.id));
            }
            if !(a.at.x.is_finite() && a.at.y.is_finite()) {
                return Err(format!(
                    "area {}: its place on the map is not a number",
                    a.id
                ));
            }
        }
        let mut joined = BTreeSet::new();
        for r in &self.roads {
            for end in &r.between {
                if self.area(end).is_none() {
                    return Err(format!(
                        "road {} to {}: there is no area {end}{}",
                        r.between[0],
                        r.between[1],
                        crate::ruleset::did_you_mean(end, self.areas.iter().map(|a| a.id.as_str()))
                    ));
                }
            }
            if r.between[0] == r.between[1] {
                return Err(format!(
                    "road {0} to {0}: a road joins two areas",
                    r.between[0]
                ));
            }
            let mut key = r.between.clone();
            key.sort();
            if !joined.insert(key) {
                return Err(format!(
                    "road {} to {} is given twice",
                    r.between[0], r.between[1]
                ));
            }
        }
        let armies: Vec<&ArmySpec> = self
            .armies
            .iter()
            .chain(self.reinforcements.iter().map(|r| &r.army))
            .collect();
        if armies.len() > MOST_ARMIES {
            return Err(format!("a campaign has at most {MOST_ARMIES} armies"));
        }
        let mut ids = BTreeSet::new();
        for a in &armies {
            if !ids.insert(a.id.as_str()) {
                return Err(format!("army {} is named twice", a.id));
            }
            if !self.sides.iter().any(|s| s.id == a.side) {
                return Err(format!(
                    "army {}: side {} is not one of the campaign's",
                    a.id, a.side
                ));
            }
            if self.area(&a.at).is_none() {
                return Err(format!("army {}: there is no area {}", a.id, a.at));
            }
            if a.units.is_empty() {
                return Err(format!("army {} has no units", a.id));
            }
        }
        for r in &self.reinforcements {
            if r.day < 2 || r.day > self.days {
                return Err(format!(
                    "reinforcement {}: day {} is not one of days 2 to {}",
                    r.army.id, r.day, self.days
                ));
            }
        }
        Ok(())
    }
}

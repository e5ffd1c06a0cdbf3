//! A Morschauser Meets MacDuff scenario: table, terrain, armies, objectives,
//! the turn limit and which advanced rules are in play. Measures in inches.

use super::units::{
    GunVariant, Profile, Quality, TroopType, Weapon, apply_qualities, apply_variant, chart,
    quality_fits,
};
pub use crate::geometry::table::{BaseSize, Table};
use crate::geometry::{Angle, Distance, Point, Shape, TerrainFeature, TerrainTag};
use crate::side::{SideId, Sides};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// The registry name.
pub const NAME: &str = "morschauser-macduff";
/// A.1: at most five companies to a regiment.
pub const MAX_REGIMENT: usize = 5;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Must be `morschauser-macduff`.
    pub ruleset: String,
    pub title: String,
    #[serde(default)]
    pub description: String,
    /// Table size in inches.
    pub table: Table,
    /// Every company's base, in inches (the source recommends 3 by 3).
    #[serde(default = "default_base")]
    pub base: BaseSize,
    /// D: the game ends after this many full turns.
    pub turns: u32,
    /// Advanced rules (section E) and other choices, each on or off.
    #[serde(default)]
    pub options: Options,
    /// E.7j: troop types the scenario defines, used by companies' `special`.
    #[serde(default)]
    pub special_troops: Vec<SpecialTroop>,
    /// Exactly two sides; the first is listed first in the dice mix.
    pub sides: Vec<SideSpec>,
    #[serde(default)]
    pub terrain: Vec<Terrain>,
    #[serde(default)]
    pub objectives: Vec<Objective>,
    /// C.6: mines laid before the game starts.
    #[serde(default)]
    pub mines: Vec<Mine>,
}

fn default_base() -> BaseSize {
    BaseSize {
        width: Distance(3.0),
        depth: Distance(3.0),
    }
}

/// The advanced rules of section E and the optional rules of A and D.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// A.5: dice again for who moves first every turn (both players agreed).
    #[serde(default)]
    pub dice_each_turn: bool,
    /// D: the first side to lose half its companies loses.
    #[serde(default)]
    pub half_losses_lose: bool,
    /// E.1
    #[serde(default)]
    pub formed_regiments: bool,
    /// E.2, with general personalities.
    #[serde(default)]
    pub command_control: bool,
    /// E.3
    #[serde(default)]
    pub brigade_morale: bool,
    /// E.4
    #[serde(default)]
    pub rallying: bool,
    /// E.5
    #[serde(default)]
    pub risk_to_generals: bool,
    /// E.6
    #[serde(default)]
    pub squares: bool,
    /// E.7: the additional troop types and qualities. Off, companies may
    /// not name a gun variant, qualities or a special troop type.
    #[serde(default)]
    pub additional_troops: bool,
    /// E.7k: engineering tasks (and the engineer's breach of C.6).
    #[serde(default)]
    pub engineering: bool,
    /// E.8: cavalry pursuit into a second melee.
    #[serde(default)]
    pub pursuit: bool,
}

/// E.7j: a troop type of the scenario's own, built on a chart row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpecialTroop {
    pub id: String,
    pub name: String,
    /// The chart row it starts from.
    pub like: TroopType,
    #[serde(default)]
    pub weapon: Option<Weapon>,
    #[serde(default)]
    pub movement: Option<Distance>,
    #[serde(default)]
    pub front: Option<u32>,
    #[serde(default)]
    pub rear: Option<u32>,
    #[serde(default)]
    pub strength: Option<u32>,
    /// Every shot hits on this score or more.
    #[serde(default)]
    pub hits_on: Option<u32>,
    /// No shooting at all, only close combat.
    #[serde(default)]
    pub no_shooting: bool,
    /// Front melee value when charging.
    #[serde(default)]
    pub charging_front: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SideSpec {
    pub id: SideId,
    pub name: String,
    /// CSS colour for the map.
    pub colour: String,
    /// Where this side may redeploy its companies in the deployment step;
    /// none: the scenario's positions stand.
    #[serde(default)]
    pub zone: Option<Rect>,
    pub companies: Vec<CompanySpec>,
    #[serde(default)]
    pub regiments: Vec<RegimentSpec>,
    #[serde(default)]
    pub generals: Vec<GeneralSpec>,
}

crate::side::scenario_sides!(Scenario, SideSpec);

/// An upright rectangle.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rect {
    pub min: Point,
    pub max: Point,
}

impl Rect {
    pub fn holds(&self, p: Point) -> bool {
        (self.min.x..=self.max.x).contains(&p.x) && (self.min.y..=self.max.y).contains(&p.y)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CompanySpec {
    pub id: String,
    pub name: String,
    pub troop: TroopType,
    /// The chart's weapon for the type when absent.
    #[serde(default)]
    pub weapon: Option<Weapon>,
    /// Artillery only (advanced).
    #[serde(default)]
    pub gun: GunVariant,
    #[serde(default)]
    pub qualities: Vec<Quality>,
    /// The id of one of the scenario's special troops.
    #[serde(default)]
    pub special: Option<String>,
    /// C.6: storming ladders.
    #[serde(default)]
    pub ladders: bool,
    /// Centre of the base's front edge.
    pub at: Point,
    /// Degrees clockwise from facing +y.
    pub facing: Angle,
    /// Hits it brings from an earlier battle of a campaign, fewer than its
    /// strength points.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hits: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A.1: a regiment of up to five companies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RegimentSpec {
    pub id: String,
    pub name: String,
    pub companies: Vec<String>,
}

/// E.2: how a general uses the command die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Personality {
    /// 6: must add.
    Rash,
    /// 5: does not modify the die.
    Indecisive,
    /// 3-4: may add or subtract.
    Bold,
    /// 1-2: may only subtract.
    Cautious,
}

impl Personality {
    /// E.2: the personality a d6 gives.
    pub fn from_die(d: u32) -> Personality {
        match d {
            6 => Personality::Rash,
            5 => Personality::Indecisive,
            3 | 4 => Personality::Bold,
            _ => Personality::Cautious,
        }
    }
    pub fn label(self) -> &'static str {
        match self {
            Personality::Rash => "rash",
            Personality::Indecisive => "indecisive",
            Personality::Bold => "bold",
            Personality::Cautious => "cautious",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GeneralSpec {
    pub id: String,
    pub name: String,
    pub at: Point,
    /// E.2: a player's own general is always bold.
    #[serde(default)]
    pub player: bool,
    /// Fixed by the scenario; otherwise rolled the first time it matters.
    #[serde(default)]
    pub personality: Option<Personality>,
    /// E.4: a charismatic general rallies with +1.
    #[serde(default)]
    pub charismatic: bool,
    /// Regiments and independent companies under his command (his brigade).
    #[serde(default)]
    pub commands: Vec<String>,
    /// The general he answers to, if any.
    #[serde(default)]
    pub under: Option<String>,
}

/// What a piece of terrain is (section C).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum TerrainKind {
    Road,
    Woods,
    /// One contour of a hill: contours of the same hill stack by `level`.
    Hill {
        steep: bool,
        level: u32,
    },
    /// Streams and rivers.
    Water {
        fordable: bool,
    },
    Bridge,
    Town,
    Earthwork,
    /// A high wall: only ladders or a breach let attackers in.
    HighWall,
    /// A gate in a high wall, which engineers may blow in.
    Gate {
        wall: String,
    },
    /// Low walls and fences; `cover` when they give substantial cover.
    LowWall {
        cover: bool,
    },
    Abatis,
    /// Impassable unless light infantry may cross.
    Marsh {
        light_infantry_cross: bool,
    },
    /// Blocks sight until trampled.
    Cornfield,
    /// Anything else the organiser defines (C.7).
    Other(OtherTerrain),
}

/// C.7: terrain the organiser defines, by its effects.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OtherTerrain {
    pub note: String,
    #[serde(default)]
    pub impassable: bool,
    #[serde(default)]
    pub max_move: Option<Distance>,
    #[serde(default)]
    pub blocks_sight: bool,
    #[serde(default)]
    pub cover: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Terrain {
    pub id: String,
    pub name: String,
    pub kind: TerrainKind,
    /// A polygon for areas; a polyline with a width for roads, streams and walls.
    pub outline: Shape,
}

impl Terrain {
    /// The feature as the shared geometry sees it, for area queries.
    pub fn feature(&self) -> TerrainFeature {
        let tags = match &self.kind {
            TerrainKind::Road => vec![TerrainTag::Road],
            TerrainKind::Woods => vec![TerrainTag::Woods, TerrainTag::Obstruction],
            TerrainKind::Hill { .. } => vec![TerrainTag::Hill],
            TerrainKind::Water { .. } => vec![TerrainTag::Water],
            TerrainKind::Bridge => vec![TerrainTag::Bridge, TerrainTag::Road],
            TerrainKind::Town => vec![TerrainTag::Town, TerrainTag::Obstruction],
            TerrainKind::Earthwork => vec![TerrainTag::Wall, TerrainTag::Cover],
            TerrainKind::HighWall | TerrainKind::Gate { .. } => {
                vec![TerrainTag::Wall, TerrainTag::Obstruction]
            }
            TerrainKind::LowWall { .. } | TerrainKind::Abatis => vec![TerrainTag::Wall],
            TerrainKind::Marsh { .. } => vec![TerrainTag::Marsh],
            TerrainKind::Cornfield => vec![TerrainTag::Obstruction],
            TerrainKind::Other(o) if o.blocks_sight => vec![TerrainTag::Obstruction],
            TerrainKind::Other(_) => vec![TerrainTag::Difficult],
        };
        let elevation = match self.kind {
            TerrainKind::Hill { level, .. } => Some(f64::from(level)),
            _ => None,
        };
        TerrainFeature {
            id: self.id.clone(),
            name: self.name.clone(),
            tags,
            elevation,
            shape: self.outline.clone(),
        }
    }
}

/// Ground a side must hold when the time runs out (D).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Objective {
    pub id: String,
    pub name: String,
    /// The side whose objective it is.
    pub side: SideId,
    pub at: Point,
    /// Held when a company of the side is within this and no enemy is.
    pub radius: Distance,
}

/// C.6: a mine laid under a wall before the game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Mine {
    pub id: String,
    /// The side that laid it and may fire it.
    pub side: SideId,
    /// The high wall or gate it lies under.
    pub wall: String,
    pub at: Point,
}

impl Scenario {
    pub fn terrain(&self, id: &str) -> Option<&Terrain> {
        self.terrain.iter().find(|t| t.id == id)
    }
    pub fn special(&self, id: &str) -> Option<&SpecialTroop> {
        self.special_troops.iter().find(|t| t.id == id)
    }

    /// A company's full profile: chart row, gun variant, qualities, special type.
    pub fn profile(&self, c: &CompanySpec) -> Result<Profile, String> {
        let special = match &c.special {
            Some(id) => Some(self.special(id).ok_or_else(|| {
                format!(
                    "company {}: special troop type {id:?} is not among special_troops",
                    c.id
                )
            })?),
            None => None,
        };
        let troop = special.map_or(c.troop, |s| s.like);
        let weapon = c
            .weapon
            .or(special.and_then(|s| s.weapon))
            .unwrap_or(troop.default_weapon());
        let mut p = chart(troop, weapon).map_err(|e| format!("company {}: {e}", c.id))?;
        apply_variant(&mut p, c.gun);
        apply_qualities(&mut p, &c.qualities);
        if let Some(s) = special {
            if let Some(m) = s.movement {
                p.movement = m;
            }
            if let Some(v) = s.front {
                p.front = v;
            }
            if let Some(v) = s.rear {
                p.rear = v;
            }
            if let Some(v) = s.strength {
                p.strength = v;
            }
            if let Some(h) = s.hits_on {
                for f in &mut p.fires {
                    f.hits_on = h;
                }
            }
            if s.no_shooting {
                p.fires.clear();
            }
            p.charging_front = s.charging_front;
        }
        Ok(p)
    }

    /// Check what the types cannot say, with errors that say what to change.
    pub fn check(&self) -> Result<(), String> {
        if self.ruleset != NAME {
            return Err(format!(
                "scenario is for ruleset {:?}: set `ruleset: {NAME}`",
                self.ruleset
            ));
        }
        let dims = [
            ("table.width", self.table.width.get()),
            ("table.height", self.table.height.get()),
            ("base.width", self.base.width.get()),
            ("base.depth", self.base.depth.get()),
        ];
        for (what, d) in dims {
            if !d.is_finite() || d <= 0.0 || d > 1000.0 {
                return Err(format!(
                    "{what} is {d}: give a size in inches from 0 to 1000"
                ));
            }
        }
        if self.turns == 0 || self.turns > 200 {
            return Err(format!("turns is {}: give 1 to 200", self.turns));
        }
        if self.sides.len() != 2 {
            return Err(format!(
                "{NAME} is for two sides, the scenario has {}",
                self.sides.len()
            ));
        }
        for side in &self.sides {
            crate::scenario_check::units_a_side(
                side.id.as_str(),
                "companies",
                side.companies.len(),
            )?;
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
            if side.companies.is_empty() {
                return Err(format!("side {id} has no companies"));
            }
        }
        if self.sides[0].id == self.sides[1].id {
            return Err("the two sides need different ids".into());
        }
        let mut ids = BTreeSet::new();
        let every_id = self
            .sides
            .iter()
            .flat_map(|s| {
                s.companies
                    .iter()
                    .map(|c| &c.id)
                    .chain(s.regiments.iter().map(|r| &r.id))
                    .chain(s.generals.iter().map(|g| &g.id))
            })
            .chain(self.terrain.iter().map(|t| &t.id))
            .chain(self.objectives.iter().map(|o| &o.id))
            .chain(self.mines.iter().map(|m| &m.id))
            .chain(self.special_troops.iter().map(|t| &t.id));
        for id in every_id {
            if id.is_empty() {
                return Err("an id is empty: give every company, regiment, general, terrain piece, objective and mine an id".into());
            }
            if !ids.insert(id.as_str()) {
                return Err(format!(
                    "id {id} is used twice: ids must be unique across the scenario"
                ));
            }
        }
        for side in &self.sides {
            self.check_side(side)?;
        }
        for t in &self.terrain {
            t.feature()
                .validate()
                .map_err(|e| format!("terrain {}: {e}", t.id))?;
            if let TerrainKind::Gate { wall } = &t.kind
                && !matches!(
                    self.terrain(wall).map(|w| &w.kind),
                    Some(TerrainKind::HighWall)
                )
            {
                return Err(format!(
                    "gate {}: wall {wall:?} is not a high_wall of the scenario",
                    t.id
                ));
            }
        }
        for o in &self.objectives {
            if self.side_index(&o.side).is_none() {
                return Err(format!(
                    "objective {}: side {} is not in the scenario",
                    o.id, o.side
                ));
            }
            if !self.on_table(o.at) {
                return Err(format!("objective {} is off the table", o.id));
            }
        }
        for m in &self.mines {
            if self.side_index(&m.side).is_none() {
                return Err(format!(
                    "mine {}: side {} is not in the scenario",
                    m.id, m.side
                ));
            }
            if !matches!(
                self.terrain(&m.wall).map(|w| &w.kind),
                Some(TerrainKind::HighWall | TerrainKind::Gate { .. })
            ) {
                return Err(format!(
                    "mine {}: {:?} is not a high_wall or gate of the scenario",
                    m.id, m.wall
                ));
            }
        }
        Ok(())
    }

    fn check_side(&self, side: &SideSpec) -> Result<(), String> {
        let advanced = self.options.additional_troops;
        for c in &side.companies {
            if !advanced
                && (c.gun != GunVariant::Field || !c.qualities.is_empty() || c.special.is_some())
            {
                return Err(format!(
                    "company {}: gun variants, qualities and special troops are advanced rules: set options.additional_troops: true, or remove them",
                    c.id
                ));
            }
            if c.gun != GunVariant::Field && c.troop != TroopType::Artillery {
                return Err(format!(
                    "company {}: only artillery has a gun variant",
                    c.id
                ));
            }
            if let Some(q) = c.qualities.iter().find(|q| !quality_fits(**q, c.troop)) {
                return Err(format!(
                    "company {}: quality {q:?} does not apply to {}",
                    c.id,
                    c.troop.label()
                ));
            }
            if c.ladders && !c.troop.is_infantry() && c.troop != TroopType::Engineers {
                return Err(format!(
                    "company {}: only infantry and engineers carry ladders",
                    c.id
                ));
            }
            let profile = self.profile(c)?;
            if c.hits >= profile.strength {
                return Err(format!(
                    "company {}: {} hits leave nothing of its {} strength points",
                    c.id, c.hits, profile.strength
                ));
            }
            if !self.on_table(c.at) || !c.facing.0.is_finite() {
                return Err(format!(
                    "company {} stands at ({}, {}), off the {} by {} inch table",
                    c.id, c.at.x, c.at.y, self.table.width, self.table.height
                ));
            }
        }
        let company = |id: &str| side.companies.iter().any(|c| c.id == id);
        let mut in_regiment = BTreeSet::new();
        for r in &side.regiments {
            if r.companies.is_empty() || r.companies.len() > MAX_REGIMENT {
                return Err(format!(
                    "regiment {} has {} companies: give 1 to {MAX_REGIMENT}",
                    r.id,
                    r.companies.len()
                ));
            }
            for c in &r.companies {
                if !company(c) {
                    return Err(format!(
                        "regiment {}: {c} is not a company of side {}",
                        r.id, side.id
                    ));
                }
                if !in_regiment.insert(c.as_str()) {
                    return Err(format!("company {c} is in two regiments"));
                }
            }
        }
        for g in &side.generals {
            if !self.on_table(g.at) {
                return Err(format!("general {} is off the table", g.id));
            }
            for c in &g.commands {
                if !company(c) && !side.regiments.iter().any(|r| &r.id == c) {
                    return Err(format!(
                        "general {} commands {c}, which is no company or regiment of side {}",
                        g.id, side.id
                    ));
                }
            }
            if let Some(u) = &g.under
                && !side.generals.iter().any(|h| &h.id == u)
            {
                return Err(format!(
                    "general {}: {u} is not a general of side {}",
                    g.id, side.id
                ));
            }
        }
        if let Some(z) = side.zone
            && !(self.on_table(z.min)
                && self.on_table(z.max)
                && z.min.x < z.max.x
                && z.min.y < z.max.y)
        {
            return Err(format!(
                "side {}: the zone must be a rectangle on the table with min below max",
                side.id
            ));
        }
        Ok(())
    }

    /// Whether a point lies on the table.
    pub fn on_table(&self, p: Point) -> bool {
        p.is_finite()
            && (0.0..=self.table.width.get()).contains(&p.x)
            && (0.0..=self.table.height.get()).contains(&p.y)
    }
}

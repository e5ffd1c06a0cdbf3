//! The state of a Morschauser Meets MacDuff game between steps.

use super::scenario::{CompanySpec, Personality, Scenario};
use super::units::Profile;
use crate::geometry::{Angle, Base, Point};
use crate::ruleset::Outcome;
use crate::side::{BySide, SideId, Sides};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub scenario: Scenario,
    pub phase: Phase,
    /// A.5: the side that moves first each turn, once the dice-off is done.
    #[serde(default)]
    pub first: Option<SideId>,
    /// Each side's choice should it win a dice-off (kept for `dice_each_turn`).
    #[serde(default)]
    pub if_winner: BySide<super::orders::FirstChoice>,
    /// Every company in scenario order, destroyed ones included.
    pub companies: Vec<Company>,
    pub generals: Vec<General>,
    /// C.5: towns set on fire by artillery; they burn for the rest of the game.
    #[serde(default)]
    pub burning: BTreeSet<String>,
    /// C.6: breaches made in high walls.
    #[serde(default)]
    pub breaches: Vec<Breach>,
    /// E.7k: bridges demolished by engineers (removed from `scenario`).
    #[serde(default)]
    pub demolished: BTreeSet<String>,
    /// C.6: mines already fired.
    #[serde(default)]
    pub mines_fired: BTreeSet<String>,
    /// E.3: brigades (by general) that have taken their morale test.
    #[serde(default)]
    pub morale_tested: BTreeSet<String>,
    /// E.3: companies routing off the table (no shooting, no charging).
    #[serde(default)]
    pub routing: BTreeSet<String>,
    /// E.3: companies that used this half-turn's move in a morale retreat.
    #[serde(default)]
    pub retreated: BTreeSet<String>,
    /// C.7: cornfields trampled flat.
    #[serde(default)]
    pub trampled: BTreeSet<String>,
    /// Companies lost per side (D).
    #[serde(default)]
    pub losses: BySide<u32>,
    /// B.6: companies that have initiated their one melee this half-turn.
    #[serde(default)]
    pub initiated: BTreeSet<String>,
    /// E.1: each regiment's companies that take shooting hits first, as its
    /// side last ordered (absent: the default share).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub hit_shares: std::collections::BTreeMap<String, Vec<String>>,
    /// What moved in the last step, for the map's arrows.
    #[serde(default)]
    pub traces: Vec<Trace>,
    /// The companies filed by where they stand (a cache, never saved).
    #[serde(skip)]
    pub(super) occupancy: super::occupancy::Occupancy,
}

/// Where the game stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Both sides may redeploy; the dice-off for first move follows.
    Deployment,
    /// `active` owes orders for its half of turn `turn`.
    HalfTurn {
        turn: u32,
        active: SideId,
    },
    Over(Outcome),
}

/// One company on the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Company {
    pub id: String,
    pub name: String,
    pub side: SideId,
    pub profile: Profile,
    /// Hits taken and not rallied; strength is the profile's less these.
    pub hits: u32,
    /// Centre of the base's front edge.
    pub at: Point,
    pub facing: Angle,
    #[serde(default)]
    pub ladders: bool,
    /// C.4: entered fordable water this turn and must halt there.
    #[serde(default)]
    pub halted_in_water: bool,
    /// Removed from play at 0 strength (A.1).
    #[serde(default)]
    pub destroyed: bool,
    /// It moved in its side's latest half-turn (E.6: a square stands still).
    #[serde(default)]
    pub moved: bool,
}

impl Company {
    pub fn from_spec(scenario: &Scenario, side: &SideId, c: &CompanySpec) -> Result<Self, String> {
        Ok(Company {
            id: c.id.clone(),
            name: c.name.clone(),
            side: side.clone(),
            profile: scenario.profile(c)?,
            hits: c.hits,
            at: c.at,
            facing: c.facing,
            ladders: c.ladders,
            halted_in_water: false,
            destroyed: false,
            moved: false,
        })
    }
    /// Strength points left.
    pub fn strength(&self) -> u32 {
        self.profile.strength.saturating_sub(self.hits)
    }
    pub fn on_table(&self) -> bool {
        !self.destroyed
    }
    /// The base where it stands, or would stand at `at` facing `facing`.
    pub fn base_at(&self, s: &Scenario, at: Point, facing: Angle) -> Base {
        Base::from_front_center(at, facing, s.base.width, s.base.depth)
    }
    pub fn base(&self, s: &Scenario) -> Base {
        self.base_at(s, self.at, self.facing)
    }
    pub fn short(&self) -> String {
        format!("{} ({})", self.name, self.id)
    }
}

/// A general and what is known of him.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct General {
    pub id: String,
    pub name: String,
    pub side: SideId,
    pub at: Point,
    /// E.2: none until it first matters (player generals are bold).
    #[serde(default)]
    pub personality: Option<Personality>,
    /// The company he has attached himself to (B.6, E.5).
    #[serde(default)]
    pub attached: Option<String>,
    #[serde(default)]
    pub killed: bool,
}

/// A hole in a high wall (C.6).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Breach {
    pub wall: String,
    pub at: Point,
    /// What made it: heavy gun, engineers or mine, with the company or mine id.
    pub cause: String,
}

/// One company's path this step, for the map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    pub company: String,
    pub side: SideId,
    pub points: Vec<Point>,
}

impl State {
    /// The state before deployment: companies where the scenario puts them.
    pub fn new(scenario: &Scenario) -> Result<State, String> {
        let mut companies = Vec::new();
        let mut generals = Vec::new();
        let mut losses = BySide::new();
        for side in &scenario.sides {
            for c in &side.companies {
                companies.push(Company::from_spec(scenario, &side.id, c)?);
            }
            for g in &side.generals {
                generals.push(General {
                    id: g.id.clone(),
                    name: g.name.clone(),
                    side: side.id.clone(),
                    at: g.at,
                    personality: if g.player {
                        Some(Personality::Bold)
                    } else {
                        g.personality
                    },
                    attached: None,
                    killed: false,
                });
            }
            losses.insert(side.id.clone(), 0);
        }
        Ok(State {
            scenario: scenario.clone(),
            phase: Phase::Deployment,
            first: None,
            if_winner: BySide::new(),
            companies,
            generals,
            burning: BTreeSet::new(),
            breaches: Vec::new(),
            demolished: BTreeSet::new(),
            mines_fired: BTreeSet::new(),
            morale_tested: BTreeSet::new(),
            routing: BTreeSet::new(),
            retreated: BTreeSet::new(),
            trampled: BTreeSet::new(),
            losses,
            initiated: BTreeSet::new(),
            hit_shares: Default::default(),
            traces: Vec::new(),
            occupancy: Default::default(),
        })
    }

    pub fn company(&self, id: &str) -> Option<&Company> {
        self.companies.iter().find(|c| c.id == id)
    }
    /// The company to change. Every move goes through here, so that the
    /// index of where companies stand stays true (`occupancy.rs`).
    pub fn company_mut(&mut self, id: &str) -> Option<&mut Company> {
        let i = self.companies.iter().position(|c| c.id == id)?;
        self.touch(i);
        self.companies.get_mut(i)
    }
    pub fn general(&self, id: &str) -> Option<&General> {
        self.generals.iter().find(|g| g.id == id)
    }
    /// Companies of `side` still on the table.
    pub fn live<'a>(&'a self, side: &'a SideId) -> impl Iterator<Item = &'a Company> + 'a {
        self.companies
            .iter()
            .filter(move |c| &c.side == side && c.on_table())
    }
    /// Enemy companies of `side` still on the table.
    pub fn enemies<'a>(&'a self, side: &'a SideId) -> impl Iterator<Item = &'a Company> + 'a {
        self.companies
            .iter()
            .filter(move |c| &c.side != side && c.on_table())
    }
    pub fn other(&self, side: &SideId) -> SideId {
        self.scenario.other(side)
    }
    pub fn side_name(&self, side: &SideId) -> String {
        self.scenario.side_name(side)
    }
    /// The companies of a regiment of `side`, in the scenario's order.
    pub fn regiment(&self, side: &SideId, id: &str) -> Option<Vec<String>> {
        self.scenario
            .sides
            .iter()
            .find(|s| &s.id == side)?
            .regiments
            .iter()
            .find(|r| r.id == id)
            .map(|r| r.companies.clone())
    }
    /// The side to act after `side`'s half-turn, and whether a new turn begins.
    pub fn after(&self, side: &SideId) -> (SideId, bool) {
        let first = self.first.clone().unwrap_or_else(|| side.clone());
        if side == &first {
            (self.other(side), false)
        } else {
            (first, true)
        }
    }
    /// Put `hits` on company `id`; remove it at 0 strength (A.1). Returns
    /// the strength left.
    pub fn hit(&mut self, id: &str, hits: u32) -> u32 {
        let Some(c) = self.company_mut(id) else {
            return 0;
        };
        c.hits += hits;
        let left = c.strength();
        if left == 0 {
            self.destroy(id);
        }
        left
    }
    /// Where general `g` stands now. A general attached to a company goes
    /// where it goes (E.2, E.4, E.5): he stands at its front centre, where
    /// the map draws him, however far it has moved since he joined it.
    pub fn general_at(&self, g: &General) -> Point {
        g.attached
            .as_deref()
            .and_then(|a| self.company(a))
            .map_or(g.at, |c| c.at)
    }
    /// Bring every attached general's recorded position up to his company,
    /// and leave a general standing alone where his company was destroyed.
    /// Returns the names of the generals so left.
    pub fn follow_companies(&mut self) -> Vec<String> {
        let mut left = Vec::new();
        for i in 0..self.generals.len() {
            let g = &self.generals[i];
            let Some(c) = g.attached.as_deref().and_then(|a| self.company(a)) else {
                continue;
            };
            let (at, gone) = (c.at, c.destroyed);
            let g = &mut self.generals[i];
            g.at = at;
            if gone {
                g.attached = None;
                if !g.killed {
                    left.push(g.name.clone());
                }
            }
        }
        left
    }
    /// E.1: record a side's choice of how its regiments share shooting hits.
    pub fn set_hit_shares(&mut self, orders: &[super::orders::HitsOrder]) {
        for h in orders {
            if h.first.is_empty() {
                self.hit_shares.remove(&h.regiment);
            } else {
                self.hit_shares.insert(h.regiment.clone(), h.first.clone());
            }
        }
    }
    /// The general attached to company `id`, if any is still alive.
    pub fn attached_general(&self, id: &str) -> Option<&General> {
        self.generals
            .iter()
            .find(|g| !g.killed && g.attached.as_deref() == Some(id))
    }
    /// C.6: whether a breach in wall `wall` lies within `reach` of `p`. A
    /// gate belongs to its wall: a breach in either opens both there.
    pub fn breached_near(&self, wall: &str, p: Point, reach: f64) -> bool {
        let gate_of = |id: &str| match self.scenario.terrain(id).map(|t| &t.kind) {
            Some(super::scenario::TerrainKind::Gate { wall }) => Some(wall.clone()),
            _ => None,
        };
        let same = |b: &str| {
            b == wall || gate_of(b).as_deref() == Some(wall) || gate_of(wall).as_deref() == Some(b)
        };
        self.breaches
            .iter()
            .any(|b| same(&b.wall) && p.distance_to(b.at).get() <= reach)
    }
    /// Remove a company at 0 strength and count the loss (A.1, D).
    pub fn destroy(&mut self, id: &str) {
        let Some(c) = self
            .companies
            .iter_mut()
            .find(|c| c.id == id && !c.destroyed)
        else {
            return;
        };
        c.destroyed = true;
        let side = c.side.clone();
        *self.losses.entry(side).or_insert(0) += 1;
    }
}

impl crate::ruleset::RulesetState for State {
    fn outcome(&self) -> Option<&Outcome> {
        match &self.phase {
            Phase::Over(o) => Some(o),
            _ => None,
        }
    }
}

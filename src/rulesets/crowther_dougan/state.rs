//! The game as it stands: units with their men lost, what each side has
//! spotted of the other, charges under way and personalities.

use super::orders::Reactions;
use super::scenario::Scenario;
use super::tables::{Formation, MEN_PER_FIGURE, Troop};
use crate::geometry::sight::line_of_sight;
use crate::geometry::{Angle, Base, Distance, Point, TerrainTag, bases_distance};
use crate::ruleset::Outcome;
use crate::side::{BySide, SideId, Sides};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Before the first move, when a side has hidden units: each such side
    /// deploys them by secret orders (`deploy.rs`).
    Setup,
    /// Move `n` (from 1), `active` moving.
    Move {
        n: u32,
        active: SideId,
    },
    Over(Outcome),
}

/// How a unit moved in its last move, for the casualty test's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Motion {
    Advanced,
    Halted,
    Retired,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Good,
    Routing,
    Pursuing,
    /// Off the table or destroyed.
    Gone,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    pub id: String,
    pub name: String,
    pub side: SideId,
    pub troop: Troop,
    pub start_figures: u32,
    pub men_lost: u32,
    /// Men lost since the start of the current move (for the casualty
    /// test and the risk to personalities).
    pub lost_this_move: u32,
    pub at: Point,
    pub facing: f64,
    pub formation: Formation,
    pub status: Status,
    pub last: Motion,
    pub loaded: bool,
    /// Fired this move (one fire per move).
    pub fired: bool,
    /// Failed a test that forbids advancing toward the enemy this move.
    pub no_advance: bool,
    /// The unit it pursues or routs from.
    #[serde(default)]
    pub from: Option<String>,
    /// Whether it has fired yet this game (the first volley's +1).
    pub first_fire: bool,
}

impl Unit {
    pub fn live(&self) -> bool {
        self.status != Status::Gone
    }
    pub fn men(&self) -> u32 {
        (self.start_figures * MEN_PER_FIGURE).saturating_sub(self.men_lost)
    }
    /// A figure is removed once 25 casualties have been inflicted.
    pub fn figures(&self) -> u32 {
        self.start_figures
            .saturating_sub(self.men_lost / MEN_PER_FIGURE)
    }
    pub fn under_half(&self) -> bool {
        2 * self.men() < self.start_figures * MEN_PER_FIGURE
    }
    pub fn mv(&self) -> f64 {
        self.troop.rating().mv
    }
    /// How far from its centre the unit's base reaches: half its diagonal.
    pub fn reach(&self) -> f64 {
        let base = self.base();
        base.width.get().hypot(base.depth.get()) / 2.0 + 1e-6
    }

    /// Its footprint: figures [`FIGURE`] across in their ranks, in open
    /// order [`OPEN_ORDER_FILE`] apart (horse 2.5 cm, guns 4 cm).
    pub fn base(&self) -> Base {
        let (front, ranks) = self.formation.shape(self.figures());
        let (fw, rd) = match self.troop {
            Troop::Artillery => (4.0, 4.0),
            Troop::Cavalry => (2.5, 3.0),
            t if t.open_order() => (OPEN_ORDER_FILE, FIGURE),
            _ => (FIGURE, FIGURE),
        };
        Base::new(
            self.at,
            Angle(self.facing),
            Distance(front as f64 * fw),
            Distance(ranks as f64 * rd),
        )
    }
}

impl Unit {
    /// The bases the map draws: its footprint, but in open order each
    /// figure on its own, a figure's width, the first and last flush with
    /// the ends of the footprint's front and the rest evenly between. The
    /// drawing spans the frontage the rules measure from (contact, fire,
    /// obstacles) and reads as men spread out, not as a solid bar.
    pub fn drawn(&self) -> Vec<Base> {
        let base = self.base();
        let (front, _) = self.formation.shape(self.figures());
        if self.formation != Formation::Open || front < 2 {
            return vec![base];
        }
        let (left, right) = base.front_edge();
        let width = base.width.get();
        let gap = (width - FIGURE) / f64::from(front - 1);
        (0..front)
            .map(|i| {
                let along = (FIGURE / 2.0 + f64::from(i) * gap) / width;
                Base::from_front_center(
                    left.lerp(right, along),
                    base.facing,
                    Distance(FIGURE),
                    base.depth,
                )
            })
            .collect()
    }
}

/// House rule (the source's "Scales" are cut off): a foot figure stands
/// 1.5 cm across and 1.5 cm deep...
pub const FIGURE: f64 = 1.5;
/// ...and in open order takes twice its width of the front, one rank
/// deep: ten figures of skirmishers hold 30 cm.
pub const OPEN_ORDER_FILE: f64 = 3.0;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Person {
    pub id: String,
    pub name: String,
    pub side: SideId,
    pub points: u32,
    /// Points left this move.
    pub left: u32,
    pub with: Option<String>,
    pub hit: bool,
}

/// A charge under way: declared in the chargers' move, ended in the
/// enemy's next.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Charge {
    pub unit: String,
    pub target: String,
    /// The move it was declared in.
    pub declared: u32,
}

/// Smoke where a unit fired. The enemy sees the smoke, by its `id` (an
/// opaque marker his fire and charge orders may name), never whose it is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Smoke {
    #[serde(default)]
    pub id: String,
    pub unit: String,
    pub side: SideId,
    pub at: Point,
}

/// What a side knows of an enemy unit it found by observation or by
/// bumping into it: where, and which of its units found it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spot {
    pub at: Point,
    pub by: Vec<String>,
}

/// What a trace shows: the map's arrows read it.
pub use crate::view::TraceKind;

/// An arrow of this move, shown to those who see the unit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    pub unit: String,
    pub side: SideId,
    pub kind: TraceKind,
    pub points: Vec<Point>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub scenario: Scenario,
    pub phase: Phase,
    pub units: Vec<Unit>,
    pub persons: Vec<Person>,
    /// Per side: the enemy units it has found, until they move.
    pub spotted: BySide<BTreeMap<String, Spot>>,
    /// Gun smoke of this move and the last: where units fired. The enemy
    /// sees the smoke, not the unit in it.
    #[serde(default)]
    pub smoke: Vec<Smoke>,
    /// Smoke markers made so far, for the next one's id.
    #[serde(default)]
    pub smoke_made: u32,
    pub charges: Vec<Charge>,
    pub reactions: BySide<Reactions>,
    #[serde(default)]
    pub traces: Vec<Trace>,
    /// Where the units stand, filed while a move resolves (`near.rs`).
    #[serde(skip)]
    pub filed: super::near::Filed,
}

/// Terrain that blocks sight.
pub const BLOCKS_SIGHT: [TerrainTag; 2] = [TerrainTag::Woods, TerrainTag::Town];

impl State {
    pub fn new(sc: &Scenario) -> Result<State, String> {
        let mut units = Vec::new();
        let mut persons = Vec::new();
        for side in &sc.sides {
            for u in &side.units {
                units.push(Unit {
                    id: u.id.clone(),
                    name: u.name.clone(),
                    side: side.id.clone(),
                    troop: u.troop,
                    start_figures: u.figures,
                    men_lost: u.men_lost,
                    lost_this_move: 0,
                    at: u.at,
                    facing: u.facing,
                    formation: u.formation.unwrap_or(u.troop.usual()),
                    status: Status::Good,
                    last: Motion::Halted,
                    loaded: true,
                    fired: false,
                    no_advance: false,
                    from: None,
                    first_fire: true,
                });
            }
            for p in &side.personalities {
                persons.push(Person {
                    id: p.id.clone(),
                    name: p.name.clone(),
                    side: side.id.clone(),
                    points: p.points,
                    left: p.points,
                    with: Some(p.with.clone()),
                    hit: false,
                });
            }
        }
        // Hidden units are placed by secret orders before anyone moves, so
        // that the first move is never made against the file's places.
        let phase = if sc.has_hidden() {
            Phase::Setup
        } else {
            Phase::Move {
                n: 1,
                active: sc.first.clone(),
            }
        };
        Ok::<State, String>(State {
            phase,
            units,
            persons,
            spotted: sc
                .sides
                .iter()
                .map(|s| (s.id.clone(), BTreeMap::new()))
                .collect(),
            smoke: Vec::new(),
            smoke_made: 0,
            charges: Vec::new(),
            reactions: BySide::new(),
            traces: Vec::new(),
            scenario: sc.clone(),
            filed: Default::default(),
        })
        .and_then(|s| super::deploy::zones_clear(&s).map(|()| s))
    }

    pub fn other(&self, side: &SideId) -> SideId {
        self.scenario.other(side)
    }

    pub fn side_name(&self, side: &SideId) -> String {
        self.scenario.side_name(side)
    }

    pub fn person(&self, id: &str) -> Option<&Person> {
        self.persons.iter().find(|p| p.id == id)
    }

    pub fn live<'a>(&'a self, side: &'a SideId) -> impl Iterator<Item = &'a Unit> + 'a {
        self.units
            .iter()
            .filter(move |u| u.live() && &u.side == side)
    }

    pub fn gap(&self, a: &Unit, b: &Unit) -> f64 {
        bases_distance(&[a.base()], &[b.base()]).get()
    }

    /// A lower bound of [`State::gap`] from the units' centres and sizes:
    /// the polygons of units plainly apart need not be built.
    pub fn gap_at_least(&self, a: &Unit, b: &Unit) -> f64 {
        a.at.distance_to(b.at).get() - a.reach() - b.reach()
    }

    /// The terrain features under a unit's centre.
    pub fn ground(&self, at: Point) -> impl Iterator<Item = &crate::geometry::TerrainFeature> {
        self.scenario.terrain.iter().filter(move |t| {
            let b = Base::new(at, Angle(0.0), Distance(0.2), Distance(0.2));
            t.touches_bases(&[b])
        })
    }

    /// Troops in the open are seen wherever there is line of sight; all
    /// others (in woods, buildings) must be found.
    pub fn in_open(&self, u: &Unit) -> bool {
        !self
            .ground(u.at)
            .any(|t| t.has(TerrainTag::Woods) || t.has(TerrainTag::Town))
    }

    /// Whether `by` has a clear line of sight to `u`.
    pub fn sight(&self, by: &Unit, u: &Unit) -> bool {
        line_of_sight(by.at, u.at, &self.scenario.terrain, &BLOCKS_SIGHT)
    }

    /// Whether unit `seer` sees enemy `u` by itself: in the open, or found
    /// by it (its smoke shows where it fired, not the unit); and in either
    /// case in sight. A find tells where the enemy is, it does not see
    /// through woods and buildings: a finder that has moved behind a wood
    /// may not fire at or charge what it found.
    pub fn unit_sees(&self, seer: &Unit, u: &Unit) -> bool {
        let found = || {
            self.spotted
                .get(&seer.side)
                .and_then(|m| m.get(&u.id))
                .is_some_and(|s| s.by.contains(&seer.id))
        };
        !self.deploying(u) && (self.in_open(u) || found()) && self.sight(seer, u)
    }

    /// Whether `u` is a hidden unit still to be deployed: until the setup
    /// step is resolved it stands at its suggested place, which no enemy
    /// and no public reader may learn anything from.
    pub fn deploying(&self, u: &Unit) -> bool {
        matches!(self.phase, Phase::Setup) && self.scenario.unit(&u.id).is_some_and(|x| x.hidden)
    }

    /// Whether `side` knows where unit `u` is: its own, in the open and in
    /// sight of one of its units, or found. Its smoke is seen, not the unit.
    pub fn sees(&self, side: &SideId, u: &Unit) -> bool {
        if &u.side == side {
            return true;
        }
        if !u.live() || self.deploying(u) {
            return false;
        }
        self.spotted
            .get(side)
            .is_some_and(|m| m.contains_key(&u.id))
            || (self.in_open(u)
                && self
                    .side_units(side)
                    .any(|m| m.live() && &m.side == side && self.sight(m, u)))
    }

    /// Whether `u` stands in its own gun smoke.
    pub fn smoking(&self, u: &Unit) -> bool {
        self.smoke
            .iter()
            .any(|s| s.unit == u.id && s.at.distance_to(u.at).get() < 0.5)
    }

    /// Whether both sides know where `u` is from facts they already share,
    /// so the public may too: standing in the open in sight of an enemy
    /// unit that is itself in the open (each side then sees the other, and
    /// knows it is seen). Never from what a
    /// hidden unit sees or a side has found: that would tell a side, by
    /// what turns public, where a hidden enemy looks from.
    pub fn public(&self, u: &Unit) -> bool {
        if !u.live() || self.deploying(u) {
            return false;
        }
        // Whether some enemy sees it, in whatever order they are asked.
        self.in_open(u)
            && self.other_units(&u.side).any(|v| {
                v.live()
                    && !self.deploying(v)
                    && v.side != u.side
                    && self.in_open(v)
                    && self.sight(v, u)
            })
    }

    /// The enemy smoke marker `id` that `side` sees, if any.
    pub fn smoke_marker(&self, side: &SideId, id: &str) -> Option<&Smoke> {
        self.smoke.iter().find(|x| x.id == id && &x.side != side)
    }

    /// The unit standing in smoke marker `id` now, if any.
    pub fn in_smoke(&self, id: &str) -> Option<&Unit> {
        let marker = self.smoke.iter().find(|x| x.id == id)?;
        self.unit(&marker.unit)
            .filter(|u| u.live() && u.at.distance_to(marker.at).get() < 0.5)
    }

    /// Where `side` knows enemy unit `id` to be: where it stands if the
    /// side sees it, else where the side found it, else its latest smoke;
    /// none if the side has no idea.
    pub fn known_at(&self, side: &SideId, id: &str) -> Option<Point> {
        let u = self.unit(id)?;
        if self.sees(side, u) {
            return Some(u.at);
        }
        self.spotted
            .get(side)
            .and_then(|m| m.get(id))
            .map(|spot| spot.at)
            .or_else(|| self.smoke.iter().rev().find(|s| s.unit == id).map(|s| s.at))
    }

    /// The live enemies `side` knows of.
    pub fn known_enemies<'a>(&'a self, side: &'a SideId) -> impl Iterator<Item = &'a Unit> + 'a {
        self.units
            .iter()
            .filter(move |u| u.live() && &u.side != side && self.sees(side, u))
    }

    pub fn move_number(&self) -> u32 {
        match &self.phase {
            Phase::Move { n, .. } => *n,
            Phase::Setup | Phase::Over(_) => 0,
        }
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

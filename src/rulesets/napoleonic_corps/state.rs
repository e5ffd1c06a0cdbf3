//! The state between steps: every unit, corps and general as they stand,
//! the army dishes of lost chips, objectives and the turn's traces.

use super::contact::SetOff;
use super::formation::{Formation, lay_out};
use super::orders::{Reactions, TurnOrders};
use super::scenario::{GeneralArm, Scenario};
use super::tables::{Arm, Mods, Nation, Troop, mods};
use crate::event::UnitRef;
use crate::geometry::{Angle, Base, Frame, Point, bases_distance, bases_within};
use crate::ruleset::Outcome;
use crate::side::{BySide, SideId, Sides};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Step 1: formations chosen, corps chips rolled.
    Setup,
    /// One side's whole turn.
    Turn {
        turn: u32,
        phasing: SideId,
    },
    /// A turn paused after its movement phase for the non-phasing side's
    /// decision: its cavalry withdrawals, then its defensive fire.
    Decision {
        turn: u32,
        phasing: SideId,
        pending: Box<Pending>,
    },
    Over(Outcome),
}

/// What a paused turn resumes with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pending {
    /// The phasing side's orders for the rest of its turn.
    pub orders: TurnOrders,
    /// Units in melee since before the turn: they neither fire nor are shot.
    pub locked: Vec<String>,
    /// Cavalry that enemy foot or guns came within 10 cm of in the movement
    /// phase, each with the mover: the decision names those that withdraw.
    #[serde(default)]
    pub withdrawals: Vec<SetOff>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    pub id: String,
    pub name: String,
    pub side: SideId,
    pub corps: String,
    pub nation: Nation,
    pub troop: Troop,
    #[serde(default)]
    pub guard: bool,
    pub bases: u32,
    pub at: Point,
    pub facing: Angle,
    pub formation: Formation,
    #[serde(default)]
    pub disordered: bool,
    /// Rough terrain: disordered until it stays still a movement phase.
    #[serde(default)]
    pub unformed: bool,
    /// Moved in this turn's movement phase.
    #[serde(default)]
    pub moved: bool,
    /// Charged this turn (lancers' bracketed melee).
    #[serde(default)]
    pub charged: bool,
    /// Why it left the table, once it has.
    #[serde(default)]
    pub gone: Option<String>,
}

impl Unit {
    pub fn arm(&self) -> Arm {
        self.troop.arm()
    }
    pub fn live(&self) -> bool {
        self.gone.is_none()
    }
    /// Disordered or unformed: both stop it as disorder does.
    pub fn shaken(&self) -> bool {
        self.disordered || self.unformed
    }
    pub fn mods(&self) -> Mods {
        // The scenario check refused units the table lacks.
        mods(self.nation, self.troop, self.guard).unwrap_or(Mods {
            fire: None,
            rally: 0,
            melee: 0,
            melee_charging: None,
        })
    }
    pub fn refer(&self) -> UnitRef {
        UnitRef {
            id: self.id.clone(),
            name: self.name.clone(),
            side: self.side.clone(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Corps {
    pub id: String,
    pub name: String,
    pub side: SideId,
    pub commander: String,
    pub at: Point,
    pub passes: u32,
    /// Corps fatigue chips left in its dish.
    pub chips: u32,
    /// Chips it started with (the base of army morale).
    pub start_chips: u32,
    pub cinc: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct General {
    pub id: String,
    pub name: String,
    pub side: SideId,
    pub corps: String,
    pub arm: GeneralArm,
    pub attached: Option<String>,
    #[serde(default)]
    pub dead: bool,
}

impl General {
    /// Divisional generals work only for their own corps and arm.
    pub fn serves(&self, u: &Unit) -> bool {
        !self.dead
            && self.corps == u.corps
            && matches!(
                (self.arm, u.arm()),
                (GeneralArm::Infantry, Arm::Infantry) | (GeneralArm::Cavalry, Arm::Cavalry)
            )
    }
}

/// What moved, fired and fought in the last step, for the map's arrows.
pub use crate::view::{Trace, TraceKind};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub scenario: Scenario,
    pub phase: Phase,
    pub units: Vec<Unit>,
    pub corps: Vec<Corps>,
    pub generals: Vec<General>,
    /// Each side's army dish: the chips it has lost.
    pub dish: BySide<u32>,
    /// Who holds each objective now, by objective id.
    pub holders: Vec<(String, Option<SideId>)>,
    /// Standing reactions each side last sent.
    #[serde(default)]
    pub reactions: BySide<Reactions>,
    /// What moved, fired and charged in the last step, for the map.
    #[serde(default)]
    pub traces: Vec<Trace>,
    /// Where the units stand, filed while a turn resolves (`near.rs`).
    #[serde(skip)]
    pub filed: super::near::Filed,
}

impl State {
    pub fn new(s: &Scenario) -> Result<State, String> {
        s.check()?;
        let mut units = Vec::new();
        let mut corps = Vec::new();
        let mut generals = Vec::new();
        for side in &s.sides {
            for c in &side.corps {
                corps.push(Corps {
                    id: c.id.clone(),
                    name: c.name.clone(),
                    side: side.id.clone(),
                    commander: c.commander.clone(),
                    at: c.at,
                    passes: c.passes,
                    chips: 0,
                    start_chips: 0,
                    cinc: c.cinc,
                });
                for u in &c.units {
                    units.push(Unit {
                        id: u.id.clone(),
                        name: u.name.clone(),
                        side: side.id.clone(),
                        corps: c.id.clone(),
                        nation: side.nation,
                        troop: u.troop,
                        guard: u.guard,
                        bases: u.bases.saturating_sub(u.bases_lost),
                        at: u.at,
                        facing: u.facing,
                        formation: u.formation,
                        disordered: false,
                        unformed: false,
                        moved: false,
                        charged: false,
                        gone: None,
                    });
                }
                for g in &c.generals {
                    generals.push(General {
                        id: g.id.clone(),
                        name: g.name.clone(),
                        side: side.id.clone(),
                        corps: c.id.clone(),
                        arm: g.arm,
                        attached: g.attached.clone(),
                        dead: false,
                    });
                }
            }
        }
        Ok(State {
            scenario: s.clone(),
            phase: Phase::Setup,
            units,
            corps,
            generals,
            dish: s.sides.iter().map(|x| (x.id.clone(), 0)).collect(),
            holders: s
                .objectives
                .iter()
                .map(|o| (o.id.clone(), o.held_by.clone()))
                .collect(),
            reactions: BySide::new(),
            traces: Vec::new(),
            filed: Default::default(),
        })
    }

    pub fn side_name(&self, id: &SideId) -> String {
        self.scenario.side_name(id)
    }

    pub fn other(&self, side: &SideId) -> SideId {
        self.scenario.other(side)
    }

    pub fn unit(&self, id: &str) -> Option<&Unit> {
        match self.filed_ids(id) {
            Some(ids) => ids.first().map(|&i| &self.units[i]),
            None => self.units.iter().find(|u| u.id == id),
        }
    }

    pub fn unit_index(&self, id: &str) -> Option<usize> {
        match self.filed_ids(id) {
            Some(ids) => ids.iter().copied().find(|&i| self.units[i].live()),
            None => self.units.iter().position(|u| u.id == id && u.live()),
        }
    }

    pub fn live(&self, side: &SideId) -> impl Iterator<Item = &Unit> {
        let side = side.clone();
        self.units
            .iter()
            .filter(move |u| u.live() && u.side == side)
    }

    pub fn enemies(&self, side: &SideId) -> impl Iterator<Item = &Unit> {
        let side = side.clone();
        self.units
            .iter()
            .filter(move |u| u.live() && u.side != side)
    }

    pub fn corps_of(&self, id: &str) -> Option<&Corps> {
        self.corps.iter().find(|c| c.id == id)
    }

    pub fn bases(&self, u: &Unit) -> Vec<Base> {
        self.bases_as(u, u.at, u.facing, u.formation)
    }

    pub fn bases_as(&self, u: &Unit, at: Point, facing: Angle, f: Formation) -> Vec<Base> {
        let b = self.scenario.base;
        lay_out(f, u.bases, at, facing, b.width, b.depth)
    }

    pub fn frame(&self, u: &Unit) -> Frame {
        Frame::of(&self.bases(u))
    }

    /// Edge-to-edge distance between two units, cm.
    pub fn gap(&self, a: &Unit, b: &Unit) -> f64 {
        bases_distance(&self.bases(a), &self.bases(b)).get()
    }

    /// How far from its `at` any of `u`'s bases may reach, in any
    /// formation (`lay_out`): half its bases side by side across, and a
    /// column's ranks (or a skirmish line's bent wings) back. Loose on
    /// purpose: it only spares laying out units that cannot be near.
    pub fn reach(&self, u: &Unit) -> f64 {
        let b = self.scenario.base;
        let n = f64::from(u.bases.max(1));
        let ranks = f64::from(u.bases.max(1).div_ceil(2) + 2);
        n * b.width.0 / 2.0 + ranks * b.depth.0 + 1e-6
    }

    /// A lower bound of [`State::gap`] from the units' places alone.
    pub fn gap_at_least(&self, a: &Unit, b: &Unit) -> f64 {
        a.at.distance_to(b.at).get() - self.reach(a) - self.reach(b)
    }

    /// Whether `a` and `b` are at most `d` apart, edge to edge; units far
    /// apart are not laid out (a big battle asks this of every pair).
    pub fn within(&self, a: &Unit, b: &Unit, d: f64) -> bool {
        self.gap_at_least(a, b) <= d && bases_within(&self.bases(a), &self.bases(b), d)
    }

    /// Live enemies touching `u` (in contact). `u` is laid out once for
    /// all of them, and only for an enemy near enough to ask.
    pub fn contacts(&self, u: &Unit) -> Vec<&Unit> {
        let mut ub: Option<Vec<Base>> = None;
        self.near_ids(u, CONTACT)
            .into_iter()
            .map(|i| &self.units[i])
            .filter(|e| e.live() && e.side != u.side)
            .filter(|e| {
                self.gap_at_least(u, e) <= CONTACT && {
                    let ub = ub.get_or_insert_with(|| self.bases(u));
                    bases_within(ub, &self.bases(e), CONTACT)
                }
            })
            .collect()
    }

    /// [`State::contacts`] of every unit at once, as unit indexes in unit
    /// order (empty for a unit that is gone): units are swept along x, so
    /// only pairs whose reaches overlap across x are asked, each in the
    /// order `contacts` asks it.
    pub fn all_contacts(&self) -> Vec<Vec<usize>> {
        let n = self.units.len();
        let reach: Vec<f64> = self.units.iter().map(|u| self.reach(u)).collect();
        let lo = |i: usize| self.units[i].at.x - reach[i];
        let mut order: Vec<usize> = (0..n).filter(|&i| self.units[i].live()).collect();
        order.sort_by(|&a, &b| lo(a).total_cmp(&lo(b)).then(a.cmp(&b)));
        let mut laid: Vec<Option<Vec<Base>>> = vec![None; n];
        let mut out = vec![Vec::new(); n];
        for (k, &i) in order.iter().enumerate() {
            // A pair `gap_at_least` lets through is no farther apart
            // across x than both reaches and the contact distance (the
            // margin is far above rounding).
            let hi = self.units[i].at.x + reach[i] + CONTACT + 1e-3;
            for &j in &order[k + 1..] {
                if lo(j) > hi {
                    break;
                }
                let (a, b) = (&self.units[i], &self.units[j]);
                if a.side == b.side {
                    continue;
                }
                for (x, y) in [(i, j), (j, i)] {
                    let (u, e) = (&self.units[x], &self.units[y]);
                    if self.gap_at_least(u, e) > CONTACT {
                        continue;
                    }
                    let ub = laid[x].take().unwrap_or_else(|| self.bases(u));
                    let eb = laid[y].take().unwrap_or_else(|| self.bases(e));
                    if bases_within(&ub, &eb, CONTACT) {
                        out[x].push(y);
                    }
                    laid[x] = Some(ub);
                    laid[y] = Some(eb);
                }
            }
        }
        for v in &mut out {
            v.sort_unstable();
        }
        out
    }

    /// The live enemy nearest to `u`, edge to edge; ties by id.
    pub fn nearest_enemy(&self, u: &Unit) -> Option<&Unit> {
        let among = |ids: &[usize]| {
            crate::geometry::nearest::nearest(
                ids.iter()
                    .map(|&i| &self.units[i])
                    .filter(|e| e.live() && e.side != u.side),
                |e| self.gap_at_least(u, e),
                |e| self.gap(u, e),
                |e| e.id.as_str(),
            )
        };
        self.nearest_ids(u, among)
    }

    /// The live divisional general attached to `u` who serves it.
    pub fn general_with(&self, u: &Unit) -> Option<&General> {
        self.generals
            .iter()
            .find(|g| g.attached.as_deref() == Some(u.id.as_str()) && g.serves(u))
    }

    /// Any live leader (divisional general) attached to `u`.
    pub fn leader_attached(&self, u: &Unit) -> bool {
        self.generals
            .iter()
            .any(|g| !g.dead && g.attached.as_deref() == Some(u.id.as_str()))
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

/// Units this close (cm) are in contact.
pub const CONTACT: f64 = 0.05;

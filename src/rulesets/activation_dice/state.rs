//! The state between steps: every unit as it stands (placed or not yet),
//! its damage dice and lasting statuses, the turn in progress and the
//! traces of the last step for the map.

use super::scenario::{Arm, Edge, Scenario, Troop};
use crate::event::UnitRef;
use crate::geometry::{Angle, Base, Frame, Point, bases_distance};
use crate::ruleset::Outcome;
use crate::side::{SideId, Sides};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Game Setup, placement 1 to 3: the attacker's first half, the
    /// defender's whole force, the attacker's rest.
    Deploy {
        placement: u32,
    },
    /// The side's turn: it owes its ordered list of activations.
    Turn {
        turn: u32,
        side: SideId,
    },
    /// The side asked to be consulted: its turn waits after an activation
    /// for the next one (or for the turn to end).
    Consult {
        turn: u32,
        side: SideId,
    },
    Over(Outcome),
}

/// Infantry formations, cavalry's one, artillery limbered or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Formation {
    Line,
    Column,
    Square,
    /// Cavalry: the colonel keeps the right formation; no modifiers.
    Mounted,
    Limbered,
    Unlimbered,
}

impl Formation {
    pub fn fits(self, arm: Arm) -> bool {
        use Formation::*;
        matches!(
            (arm, self),
            (Arm::Infantry, Line | Column | Square)
                | (Arm::Cavalry, Mounted)
                | (Arm::Artillery, Limbered | Unlimbered)
        )
    }
    pub fn name(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::Column => "column",
            Formation::Square => "square",
            Formation::Mounted => "mounted",
            Formation::Limbered => "limbered",
            Formation::Unlimbered => "unlimbered",
        }
    }
    /// The formation a unit of `arm` stands in when none is given.
    pub fn usual(arm: Arm) -> Formation {
        match arm {
            Arm::Infantry => Formation::Column,
            Arm::Cavalry => Formation::Mounted,
            Arm::Artillery => Formation::Limbered,
        }
    }
}

/// Critical events that last (Critical Event Table).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Status {
    /// 2-3: the unit may be activated with one die only (house reading of
    /// "activated singly"); a line has no officer in the middle any more.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub officer_killed: bool,
    /// 4: the next activation's first action reforms the line; until then
    /// no formation modifiers.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub broken_line: bool,
    /// 5: may not be activated in its side's next turn.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub petrified: bool,
    /// 5, served: petrified at the start of its side's turn, it sits this
    /// turn out; its orders for the turn are refused, the rest go on.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sits_out: bool,
    /// 10: wavering (the source's rally rules are not written yet).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub wavering: bool,
    /// 11-12: routs to its edge until three activation dice succeed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rout: bool,
}

impl Status {
    /// The statuses' words, for the map and the reports.
    pub fn words(&self) -> Vec<&'static str> {
        let mut w = Vec::new();
        if self.officer_killed {
            w.push("officer killed");
        }
        if self.broken_line {
            w.push("broken line");
        }
        if self.petrified {
            w.push("petrified");
        }
        if self.sits_out {
            w.push("petrified: sits out this turn");
        }
        if self.wavering {
            w.push("wavering");
        }
        if self.rout {
            w.push("routing");
        }
        w
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    pub id: String,
    pub name: String,
    pub side: SideId,
    pub troop: Troop,
    /// Centre of the front edge; none until placed.
    pub at: Option<Point>,
    pub facing: Angle,
    pub formation: Formation,
    /// Coloured (damage) dice, 0 to 3; three is crippled.
    #[serde(default)]
    pub disorder: u32,
    #[serde(default)]
    pub status: Status,
    /// Load Canister: the next bombardment at short range is canister.
    #[serde(default)]
    pub canister: bool,
    /// Activated this turn.
    #[serde(default)]
    pub activated: bool,
    /// Why it left the table, once it has.
    #[serde(default)]
    pub gone: Option<String>,
}

impl Unit {
    pub fn arm(&self) -> Arm {
        self.troop.arm
    }
    pub fn live(&self) -> bool {
        self.gone.is_none()
    }
    pub fn placed(&self) -> bool {
        self.live() && self.at.is_some()
    }
    /// Damage: three coloured dice and no white one.
    pub fn crippled(&self) -> bool {
        self.disorder >= 3
    }
    pub fn refer(&self) -> UnitRef {
        UnitRef {
            id: self.id.clone(),
            name: self.name.clone(),
            side: self.side.clone(),
        }
    }
    /// The formation whose modifiers apply: none while the line is broken.
    pub fn modifying_formation(&self) -> Option<Formation> {
        (!self.status.broken_line).then_some(self.formation)
    }
}

/// What moved, fired and fought in the last step, for the map's arrows.
pub use crate::view::{Trace, TraceKind};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub scenario: Scenario,
    pub phase: Phase,
    pub units: Vec<Unit>,
    /// The side that moves first each turn (rolled after set-up).
    #[serde(default)]
    pub first: Option<SideId>,
    /// Melees standing when the turn began, as pairs of unit ids: fought
    /// at the end of the turn even after a turnover.
    #[serde(default)]
    pub melees: Vec<(String, String)>,
    /// Pairs that already fought this turn.
    #[serde(default)]
    pub fought: Vec<(String, String)>,
    #[serde(default)]
    pub traces: Vec<Trace>,
}

/// Units this close (cm) are in contact.
pub const CONTACT: f64 = 0.05;

impl State {
    pub fn new(s: &Scenario) -> Result<State, String> {
        s.check()?;
        let mut units = Vec::new();
        for side in &s.sides {
            for u in &side.units {
                let troop = s
                    .troop(&u.troop)
                    .cloned()
                    .ok_or_else(|| format!("unit {}: no troop {}", u.id, u.troop))?;
                units.push(Unit {
                    id: u.id.clone(),
                    name: u.name.clone(),
                    side: side.id.clone(),
                    formation: Formation::usual(troop.arm),
                    troop,
                    at: None,
                    facing: Angle(0.0),
                    disorder: u.disorder,
                    status: Status::default(),
                    canister: false,
                    activated: false,
                    gone: None,
                });
            }
        }
        Ok(State {
            scenario: s.clone(),
            phase: Phase::Deploy { placement: 1 },
            units,
            first: None,
            melees: Vec::new(),
            fought: Vec::new(),
            traces: Vec::new(),
        })
    }

    pub fn short(&self) -> f64 {
        self.scenario.short.get()
    }

    pub fn side_name(&self, id: &SideId) -> String {
        self.scenario.side_name(id)
    }

    pub fn other(&self, side: &SideId) -> SideId {
        self.scenario.other(side)
    }

    pub fn edge(&self, side: &SideId) -> Edge {
        self.scenario.side(side).map_or(Edge::South, |s| s.edge)
    }

    /// Facing straight at the enemy's edge.
    pub fn forward(&self, side: &SideId) -> Angle {
        match self.edge(side) {
            Edge::South => Angle(0.0),
            Edge::North => Angle(180.0),
        }
    }

    /// How far a point is from the side's own edge.
    pub fn from_edge(&self, side: &SideId, p: Point) -> f64 {
        match self.edge(side) {
            Edge::South => p.y,
            Edge::North => self.scenario.table.height.get() - p.y,
        }
    }

    pub fn unit(&self, id: &str) -> Option<&Unit> {
        self.units.iter().find(|u| u.id == id)
    }

    pub fn index(&self, id: &str) -> Option<usize> {
        self.units.iter().position(|u| u.id == id)
    }

    /// Placed live units of a side.
    pub fn live(&self, side: &SideId) -> impl Iterator<Item = &Unit> {
        let side = side.clone();
        self.units
            .iter()
            .filter(move |u| u.placed() && u.side == side)
    }

    pub fn enemies(&self, side: &SideId) -> impl Iterator<Item = &Unit> {
        let side = side.clone();
        self.units
            .iter()
            .filter(move |u| u.placed() && u.side != side)
    }

    /// A unit's bases: an infantry regiment's two battalions side by side
    /// in line or one behind the other in column, one square block in
    /// square; cavalry and batteries one base.
    pub fn bases(&self, u: &Unit) -> Vec<Base> {
        match u.at {
            Some(at) => self.bases_as(u, at, u.facing, u.formation),
            None => Vec::new(),
        }
    }

    pub fn bases_as(&self, _u: &Unit, at: Point, facing: Angle, f: Formation) -> Vec<Base> {
        let b = self.scenario.base;
        let (w, d) = (b.width, b.depth);
        match f {
            Formation::Line => {
                crate::geometry::lay_out(crate::geometry::Layout::Line, 2, at, facing, w, d)
            }
            Formation::Column => {
                crate::geometry::lay_out(crate::geometry::Layout::Column, 2, at, facing, w, d)
            }
            Formation::Square => vec![Base::from_front_center(at, facing, w, w)],
            _ => vec![Base::from_front_center(at, facing, w, d)],
        }
    }

    pub fn frame(&self, u: &Unit) -> Frame {
        Frame::of(&self.bases(u))
    }

    /// The centre a unit pivots about.
    pub fn centre(&self, u: &Unit) -> Point {
        let f = self.frame(u);
        f.anchor - f.facing.unit_vector().scale(f.depth.get() / 2.0)
    }

    /// Edge-to-edge distance between two placed units, cm.
    pub fn gap(&self, a: &Unit, b: &Unit) -> f64 {
        bases_distance(&self.bases(a), &self.bases(b)).get()
    }

    /// How far from its `at` any of a unit's bases may reach, in any
    /// formation (two bases side by side or one behind the other, or one
    /// square block). Loose on purpose: it only spares laying out units
    /// that cannot be near.
    fn reach(&self) -> f64 {
        let b = self.scenario.base;
        2.0 * (b.width.get() + b.depth.get()) + 1e-6
    }

    /// What [`State::gap_at_least`] takes off the distance between two
    /// units' places: both units' reach.
    pub fn gap_at_least_slack(&self) -> f64 {
        2.0 * self.reach()
    }

    /// A lower bound of [`State::gap`] from the units' places alone.
    pub fn gap_at_least(&self, a: &Unit, b: &Unit) -> f64 {
        match (a.at, b.at) {
            (Some(p), Some(q)) => p.distance_to(q).get() - self.gap_at_least_slack(),
            _ => f64::NEG_INFINITY,
        }
    }

    /// Whether `a` and `b` are at most `d` apart, edge to edge; units far
    /// apart are not laid out (a big battle asks this of every pair).
    pub fn within(&self, a: &Unit, b: &Unit, d: f64) -> bool {
        self.gap_at_least(a, b) <= d && self.gap(a, b) <= d
    }

    /// Enemies in contact: in melee with `u`.
    pub fn contacts(&self, u: &Unit) -> Vec<&Unit> {
        if !u.placed() {
            return Vec::new();
        }
        self.enemies(&u.side)
            .filter(|e| self.within(u, e, CONTACT))
            .collect()
    }

    /// The enemy nearest to `u`, edge to edge; ties by id.
    pub fn nearest_enemy(&self, u: &Unit) -> Option<&Unit> {
        crate::geometry::nearest::nearest(
            self.enemies(&u.side),
            |e| self.gap_at_least(u, e),
            |e| self.gap(u, e),
            |e| e.id.as_str(),
        )
    }

    /// Units lost by a side: removed from play.
    pub fn lost(&self, side: &SideId) -> u32 {
        self.units
            .iter()
            .filter(|u| &u.side == side && !u.live())
            .count() as u32
    }

    /// Every pair of units in contact now, each pair once, sorted.
    ///
    /// A pair is in contact when the unit of the lesser id has the other
    /// among its [`State::contacts`]. Units are swept along x, so only
    /// pairs no farther apart across x than contact and both reaches (a
    /// margin above rounding) are asked: `gap_at_least` lets no other by.
    pub fn melee_pairs(&self) -> Vec<(String, String)> {
        let mut placed: Vec<(&Unit, f64)> = self
            .units
            .iter()
            .filter(|u| u.placed())
            .filter_map(|u| u.at.map(|p| (u, p.x)))
            .collect();
        placed.sort_by(|a, b| a.1.total_cmp(&b.1));
        let reach = self.gap_at_least_slack() + CONTACT + 1e-6;
        let mut out = Vec::new();
        for (k, &(x, xa)) in placed.iter().enumerate() {
            for &(y, ya) in &placed[k + 1..] {
                if ya - xa > reach {
                    break;
                }
                let (a, b) = if x.id < y.id { (x, y) } else { (y, x) };
                if a.side != b.side && a.id < b.id && self.within(a, b, CONTACT) {
                    out.push((a.id.clone(), b.id.clone()));
                }
            }
        }
        out.sort();
        out
    }
}

/// The two ids of a melee as one key, in order.
pub fn pair(a: &str, b: &str) -> (String, String) {
    if a < b {
        (a.into(), b.into())
    } else {
        (b.into(), a.into())
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The melees found by the sweep are the pairs asking every unit's
    /// contacts finds, on the bench battle after its fighting turn.
    #[test]
    fn melee_pairs_are_the_pairs_each_units_contacts_give() {
        use crate::ruleset::AnyRuleset;
        let f = crate::bench::scaling::activation_setup(40).expect("set up");
        let mut d = crate::dice::Dice::from_seeds([f.seed; 32], [f.seed.wrapping_add(1); 32]);
        let mut text = f.state.clone();
        let mut found = 0;
        // The fighting turn and the next few: melees begin, go on and end.
        for _ in 0..4 {
            let s: State = crate::yaml::from_str(&text).expect("state");
            let mut every = Vec::new();
            for a in s.units.iter().filter(|u| u.placed()) {
                for b in s.contacts(a) {
                    if a.id < b.id {
                        every.push((a.id.clone(), b.id.clone()));
                    }
                }
            }
            every.sort();
            assert_eq!(s.melee_pairs(), every);
            found += every.len();
            let Ok(res) = AnyRuleset::resolve(
                &crate::rulesets::activation_dice::ActivationDice,
                &text,
                &f.orders,
                &mut d,
            ) else {
                break;
            };
            text = res.state;
        }
        assert!(found > 0, "some units met in melee");
    }
}

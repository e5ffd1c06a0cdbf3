//! The state of a Maurice Lite game between steps.

use super::deck::{DeckFile, Piles};
use super::orders::{ActionKind, Activation, RoundOrders};
use super::scenario::{Scenario, default_formation};
use super::units::Unit;
use crate::geometry::{Angle, Point};
use crate::ruleset::Outcome;
use crate::side::{BySide, SideId, Sides};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub scenario: Scenario,
    pub deck: DeckFile,
    /// Every unit in scenario order, broken ones included.
    pub units: Vec<Unit>,
    pub armies: BySide<Army>,
    pub piles: Piles,
    pub phase: Phase,
    /// The round being played or about to be played (0 before the first).
    pub round: u32,
    /// Consecutive passes made while the deck was empty (two bring nightfall).
    pub empty_deck_passes: u32,
    /// What moved in the last step, for the map's arrows.
    #[serde(default)]
    pub traces: Vec<Trace>,
    /// The fire and combat of the last step, in full, for reports and the sandbox.
    #[serde(default)]
    pub detail: Detail,
    /// Each side's standing reactions, kept until replaced.
    #[serde(default)]
    pub standing: BySide<super::reactions::Reactions>,
    /// Cards played so far this round.
    #[serde(default)]
    pub cards: super::cardplay::RoundCards,
    /// Sides whose CinC enemy bases moved through during this round: each
    /// pays for it at the end of the round (chapter 6, Displacing the CinC).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub displaced: Vec<SideId>,
}

/// Everything the fire and combat of a step worked out, kept with the state
/// so that reports, the sandbox and the audit all see the same.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Detail {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fire: Vec<super::fire::FireReport>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combat: Option<super::charge::CombatReport>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Army {
    /// Army morale: half the units rounded up, less losses.
    pub morale: i32,
    pub hand: Vec<String>,
    pub cinc: Option<Point>,
}

/// Where the game stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Both sides owe their secret deployment.
    Deployment,
    /// `active` owes the orders for the round.
    Round {
        active: SideId,
    },
    /// The round paused after the draw: `active` decides the force and cards.
    Decision {
        active: SideId,
        pending: Box<Pending>,
    },
    Over(Outcome),
}

/// A round waiting for its active side's decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pending {
    pub action: ActionKind,
    /// Cards drawn after declaring the action.
    pub drawn: Vec<String>,
    /// The rest of the round's orders (CinC move, discards).
    pub orders: RoundOrders,
    /// Filled in by the decision.
    #[serde(default)]
    pub activation: Option<Activation>,
}

/// One unit's path this step, for the map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    pub unit: String,
    pub side: SideId,
    pub points: Vec<Point>,
    #[serde(default)]
    pub kind: TraceKind,
}

/// What a trace shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TraceKind {
    #[default]
    Move,
    Fire,
    Charge,
    FallBack,
}

impl State {
    /// The state before deployment.
    pub fn new(scenario: &Scenario) -> Result<State, String> {
        let deck = scenario.deck()?;
        let mut units = Vec::new();
        let mut armies = BySide::new();
        for (i, side) in scenario.sides.iter().enumerate() {
            for u in &side.units {
                units.push(Unit {
                    id: u.id.clone(),
                    name: u.name.clone(),
                    side: side.id.clone(),
                    arm: u.arm,
                    formation: default_formation(u.arm),
                    anchor: None,
                    facing: Angle(if i == 0 { 0.0 } else { 180.0 }),
                    disruption: u.disruption,
                    smoke: false,
                    fired: false,
                    broken: false,
                });
            }
            let morale = side.units.len().div_ceil(2) as i32;
            armies.insert(
                side.id.clone(),
                Army {
                    morale,
                    hand: Vec::new(),
                    cinc: None,
                },
            );
        }
        Ok(State {
            scenario: scenario.clone(),
            deck,
            units,
            armies,
            piles: Piles::default(),
            phase: Phase::Deployment,
            round: 0,
            empty_deck_passes: 0,
            traces: Vec::new(),
            detail: Detail::default(),
            standing: BySide::new(),
            cards: Default::default(),
            displaced: Vec::new(),
        })
    }

    /// `"; did you mean X?"` for an id that is no unit of `side` (any
    /// side's when none), from that side's unit ids.
    pub fn unit_hint(&self, id: &str, side: Option<&SideId>) -> String {
        crate::ruleset::did_you_mean(
            id,
            self.units
                .iter()
                .filter(|u| side.is_none_or(|s| &u.side == s))
                .map(|u| u.id.as_str()),
        )
    }

    pub fn unit(&self, id: &str) -> Option<&Unit> {
        self.units.iter().find(|u| u.id == id)
    }
    pub fn unit_mut(&mut self, id: &str) -> Option<&mut Unit> {
        self.units.iter_mut().find(|u| u.id == id)
    }
    /// Units of `side` on the table.
    pub fn live_units<'a>(&'a self, side: &'a SideId) -> impl Iterator<Item = &'a Unit> + 'a {
        self.units
            .iter()
            .filter(move |u| &u.side == side && u.on_table())
    }
    /// Enemy units of `side` on the table.
    pub fn enemies<'a>(&'a self, side: &'a SideId) -> impl Iterator<Item = &'a Unit> + 'a {
        self.units
            .iter()
            .filter(move |u| &u.side != side && u.on_table())
    }
    pub fn army(&self, side: &SideId) -> Option<&Army> {
        self.armies.get(side)
    }
    pub fn army_mut(&mut self, side: &SideId) -> Option<&mut Army> {
        self.armies.get_mut(side)
    }
    pub fn other(&self, side: &SideId) -> SideId {
        self.scenario.other(side)
    }
    pub fn side_name(&self, side: &SideId) -> String {
        self.scenario.side_name(side)
    }
    pub fn card_name(&self, id: &str) -> String {
        self.deck
            .card(id)
            .map(|c| format!("{} [{}, span {}]", c.name, c.id, c.span))
            .unwrap_or_else(|| id.to_string())
    }
    pub fn span_of(&self, id: &str) -> u32 {
        self.deck.card(id).map(|c| c.span).unwrap_or(0)
    }
}

impl State {
    /// The end of the game by army morale, if an army's has reached zero.
    pub fn outcome_by_morale(&self) -> Option<Outcome> {
        let loser = self
            .armies
            .iter()
            .find(|(_, a)| a.morale <= 0)
            .map(|(s, _)| s.clone())?;
        let winner = self.other(&loser);
        Some(Outcome {
            winner: Some(winner),
            reason: format!(
                "the army morale of {} is broken",
                crate::words::subject(&self.side_name(&loser))
            ),
        })
    }

    /// Remove a broken unit from the table; its army loses a morale point
    /// (chapter 2). Combat and fire (issue 3) break units through here.
    pub fn break_unit(&mut self, id: &str) -> Option<SideId> {
        let u = self.units.iter_mut().find(|u| u.id == id && !u.broken)?;
        u.broken = true;
        let side = u.side.clone();
        if let Some(a) = self.armies.get_mut(&side) {
            a.morale -= 1;
        }
        Some(side)
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

//! The activation-dice rules of 2018: regiments of two battalions, cavalry
//! and batteries on a table measured in shorts; each unit risks up to
//! three activation dice for as many actions, two failures end the turn;
//! opposed combat dice, damage as coloured dice, a blunder table and a
//! critical event table.
//!
//! Steps 1 to 3 are the set-up placements (attacker half, defender all,
//! attacker the rest); every later step is a side's turn, or, when the
//! side asked to be consulted, one activation of it. See
//! `docs/rulesets/activation-dice.md` for what is done and what is not.

pub mod activation;
pub mod blunder;
pub mod campaign;
pub mod check;
pub mod combat;
pub mod demo;
pub mod distance;
pub mod ground;
pub mod movement;
pub mod options;
pub mod orders;
pub mod plan;
pub mod scenario;
pub mod setup;
pub mod sight;
pub mod state;
mod tell;
mod template;
pub mod turn;
pub mod view;
pub mod words;

use crate::dice::Dice;
use crate::ruleset::{Due, OrdersKind, Owed, Resolution, Ruleset, Sight, Violation};
use crate::side::{BySide, SideId};
use crate::view::Viewer;
use crate::view::plan::PagePlan;
use orders::{Deployment, Orders, TurnOrders};
use scenario::Scenario;
use state::{Phase, State};

/// The `activation-dice` ruleset.
pub struct ActivationDice;

impl Ruleset for ActivationDice {
    type Scenario = Scenario;
    type State = State;
    type Orders = Orders;

    fn name(&self) -> &'static str {
        scenario::NAME
    }

    fn tell(
        &self,
        events: &[crate::event::Event],
        dice: &[crate::dice::DieRecord],
        viewer: &Viewer,
    ) -> crate::event::tell::Told {
        tell::tell(events, dice, viewer)
    }

    fn check_scenario(&self, scenario: &Scenario) -> Result<(), String> {
        scenario.check()
    }

    fn start(&self, scenario: &Scenario) -> Result<State, String> {
        State::new(scenario)
    }

    fn due(&self, s: &State) -> Due {
        let owed = match &s.phase {
            Phase::Deploy { placement } => vec![Owed {
                side: setup::placer(s, *placement),
                kind: OrdersKind::Deployment,
                note: match placement {
                    1 => "place half of your force within 1 L of your edge".into(),
                    2 => "place your whole force within 1 L of your edge".into(),
                    _ => "place the rest of your force within 1 L of your edge".into(),
                },
            }],
            Phase::Turn { turn, side } => vec![Owed {
                side: side.clone(),
                kind: OrdersKind::Turn,
                note: format!("your activations for turn {turn}"),
            }],
            Phase::Consult { turn, side } => vec![Owed {
                side: side.clone(),
                kind: OrdersKind::Decision,
                note: format!("your next activation in turn {turn} (an empty list ends the turn)"),
            }],
            Phase::Over(_) => Vec::new(),
        };
        Due {
            heading: view::heading(s),
            owed,
            optional: Vec::new(),
        }
    }

    fn check(&self, s: &State, side: &SideId, orders: &Orders) -> Vec<Violation> {
        check::check(s, side, orders)
    }

    fn resolve(&self, s: &State, orders: &BySide<Orders>, dice: &mut Dice) -> Resolution<State> {
        let (state, events) = match s.phase.clone() {
            Phase::Deploy { placement } => {
                let side = setup::placer(s, placement);
                let d = match orders.get(&side) {
                    Some(Orders::Deploy(d)) => d.clone(),
                    _ => Deployment::default(),
                };
                setup::resolve(s, placement, &d, dice)
            }
            Phase::Turn { turn, side } | Phase::Consult { turn, side } => {
                let t = match orders.get(&side) {
                    Some(Orders::Turn(t)) => t.clone(),
                    _ => TurnOrders::default(),
                };
                turn::resolve(s, turn, &side, &t, dice)
            }
            Phase::Over(_) => (s.clone(), Vec::new()),
        };
        Resolution::new(state, events)
    }

    fn view(&self, s: &State, viewer: &Viewer) -> Sight {
        view::sight(s, viewer)
    }

    fn orders_template(&self, s: &State, side: &SideId) -> Option<String> {
        template::template(s, side)
    }

    /// The orders page: the plan of what the side may order now and the
    /// writer that turns what is drawn into `deploy:` or `turn:` orders.
    fn orders_plan(&self, s: &State, side: &SideId) -> Option<PagePlan> {
        plan::plan(s, side).map(|p| p.with_writer(include_str!("page.js")))
    }

    /// A side that sent nothing places its units where the scenario
    /// suggests, and in its turn ends the turn without activating.
    fn default_orders(&self, s: &State, side: &SideId) -> Result<Option<Orders>, String> {
        Ok(match &s.phase {
            Phase::Deploy { placement } if &setup::placer(s, *placement) == side => {
                Some(Orders::Deploy(setup::default_deployment(s, *placement)))
            }
            Phase::Turn { side: t, .. } | Phase::Consult { side: t, .. } if t == side => {
                Some(Orders::Turn(TurnOrders::default()))
            }
            _ => None,
        })
    }
}

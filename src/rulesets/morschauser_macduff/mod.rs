//! Morschauser Meets MacDuff (Ross Macfarlane, 2003, after Joseph
//! Morschauser, 1962): companies with strength points, a die per strength
//! point, company-by-company move and fight. Measures in inches.
//!
//! Step 1 is the deployment, whose resolution is the dice-off for who moves
//! first; every later step is one side's half-turn. See
//! `docs/rulesets/morschauser-macduff.md` for what is done and what is not.

mod burning;
pub mod campaign;
pub mod charge;
pub mod check;
pub mod command;
pub mod demo;
mod engineers;
mod general_orders;
mod generals;
mod line;
pub mod melee;
pub mod morale;
pub mod movement;
mod occupancy;
pub mod options;
pub mod orders;
pub mod outcome;
pub mod plan;
#[cfg(test)]
mod plan_tests;
pub mod rally;
pub mod regiment;
mod retreat;
pub mod scenario;
pub mod setup;
pub mod shooting;
mod squares;
pub mod state;
mod tell;
mod template;
mod turn;
pub mod units;
mod view;
pub mod words;

use crate::dice::Dice;
use crate::ruleset::{Due, OrdersKind, Owed, Resolution, Ruleset, Sight, Violation};
use crate::side::{BySide, SideId, each};
use crate::view::Viewer;
use orders::{Deployment, Orders, TurnOrders};
use scenario::Scenario;
use state::{Phase, State};

/// The `morschauser-macduff` ruleset.
pub struct MorschauserMacduff;

impl Ruleset for MorschauserMacduff {
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
            Phase::Deployment => s
                .scenario
                .sides
                .iter()
                .map(|x| Owed {
                    side: x.id.clone(),
                    kind: OrdersKind::Deployment,
                    note: "deployment and your choice if you win the dice-off for first move"
                        .into(),
                })
                .collect(),
            Phase::HalfTurn { turn, active } => vec![Owed {
                side: active.clone(),
                kind: OrdersKind::Turn,
                note: format!("orders for your half of turn {turn}"),
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
        let (state, events) = match &s.phase {
            Phase::Deployment => {
                let deployments = each(orders, |o| match o {
                    Orders::Deploy(d) => Some(d),
                    Orders::Turn(_) => None,
                });
                setup::resolve(s, &deployments, dice)
            }
            Phase::HalfTurn { turn, active } => {
                let t = match orders.get(active) {
                    Some(Orders::Turn(t)) => t.clone(),
                    _ => TurnOrders::default(),
                };
                turn::resolve(s, *turn, active, &t, dice)
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

    fn orders_plan(&self, s: &State, side: &SideId) -> Option<crate::view::plan::PagePlan> {
        plan::plan(s, side).map(|p| p.with_writer(include_str!("page.js")))
    }

    /// House rule: a side that sent nothing keeps the scenario's positions
    /// and would move first if it wins; in its half-turn it holds.
    fn default_orders(&self, s: &State, side: &SideId) -> Result<Option<Orders>, String> {
        Ok(match &s.phase {
            Phase::Deployment => Some(Orders::Deploy(Deployment::default())),
            Phase::HalfTurn { active, .. } if active == side => {
                Some(Orders::Turn(TurnOrders::default()))
            }
            _ => None,
        })
    }
}

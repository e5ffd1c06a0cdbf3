//! Crowther and Dougan's 18th century rules: battalions of figures in
//! centimetres, casualties counted in men, the average die for fire and
//! combat, D10 morale, alternate moves of four phases, and hidden troops
//! found by secret observation tests, with Galloper as the umpire.
//!
//! Every step is one side's move, with the other side's standing
//! reactions. Observation tests roll on the hidden dice stream; an enemy
//! unit a side has not seen or found is absent from everything that side
//! reads. See `docs/rulesets/crowther-dougan.md` for what is done.

pub mod campaign;
pub mod charge;
pub mod check;
pub mod demo;
pub mod deploy;
mod examples;
pub mod fire;
pub mod melee;
pub mod morale;
pub mod movement;
pub mod near;
pub mod observe;
pub mod options;
pub mod orders;
pub mod plan;
pub mod scenario;
pub mod shortfall;
pub mod state;
pub mod step;
pub mod stock;
pub mod tables;
mod tell;
mod template;
pub mod turn;
pub mod unseen;
pub mod view;
pub mod words;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_as_written;
#[cfg(test)]
mod tests_deploy;
#[cfg(test)]
mod tests_plan;

use crate::dice::Dice;
use crate::ruleset::{Due, OrdersKind, Owed, Resolution, Ruleset, Sight, Violation};
use crate::side::{BySide, SideId, each};
use crate::view::Viewer;
use orders::{MoveOrders, Orders};
use scenario::Scenario;
use state::{Phase, State};

/// The `crowther-dougan` ruleset.
pub struct CrowtherDougan;

impl Ruleset for CrowtherDougan {
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

    /// Troops stand hidden from the first move, so no side's units or
    /// personalities are public until the game ends: each side learns the
    /// enemy only by seeing and finding him.
    fn public_scenario(&self, scenario: &Scenario) -> Option<Scenario> {
        Some(scenario.public())
    }

    /// Hidden units at the places of a stock scenario, which the other
    /// side's players may have read.
    fn scenario_warnings(&self, scenario: &Scenario) -> Vec<String> {
        stock::warnings(scenario)
    }

    fn due(&self, s: &State) -> Due {
        let (owed, optional) = match &s.phase {
            Phase::Move { n, active } => (
                vec![Owed {
                    side: active.clone(),
                    kind: OrdersKind::Turn,
                    note: format!("orders for your move {n}: observation, charges, fire, movement"),
                }],
                vec![Owed {
                    side: s.other(active),
                    kind: OrdersKind::Reactions,
                    note: "standing reactions: command points pledged for the enemy's move".into(),
                }],
            ),
            Phase::Setup => (
                deploy::deployers(s)
                    .into_iter()
                    .map(|side| Owed {
                        side,
                        kind: OrdersKind::Deployment,
                        note:
                            "setup: deploy your hidden units by secret orders, within their zones"
                                .into(),
                    })
                    .collect(),
                Vec::new(),
            ),
            Phase::Over(_) => (Vec::new(), Vec::new()),
        };
        Due {
            heading: view::heading(s),
            owed,
            optional,
        }
    }

    fn check(&self, s: &State, side: &SideId, orders: &Orders) -> Vec<Violation> {
        check::check(s, side, orders)
    }

    fn resolve(&self, s: &State, orders: &BySide<Orders>, dice: &mut Dice) -> Resolution<State> {
        let mut s = s.clone();
        s.reactions.extend(each(orders, |o| match o {
            Orders::Reactions(r) => Some(r),
            _ => None,
        }));
        let (state, events) = match s.phase.clone() {
            Phase::Setup => {
                let deployments = each(orders, |o| match o {
                    Orders::Deploy(d) => Some(d),
                    _ => None,
                });
                deploy::resolve(&s, &deployments)
            }
            Phase::Move { n, active } => {
                let m = match orders.get(&active) {
                    Some(Orders::Move(m)) => m.clone(),
                    _ => MoveOrders::default(),
                };
                turn::resolve(&s, n, &active, &m, dice)
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

    /// The orders page: what the side may do now, from what it knows
    /// (`plan.rs`), and the writer that turns the drawing into orders.
    fn orders_plan(&self, s: &State, side: &SideId) -> Option<crate::view::plan::PagePlan> {
        plan::plan(s, side).map(|p| p.with_writer(include_str!("page.js")))
    }

    /// A side that sent nothing in its move stands still (its routers
    /// still rout and its units still reload).
    /// A hidden side that sent no deployment has its units stand at the
    /// places the scenario suggests.
    fn default_orders(&self, s: &State, side: &SideId) -> Result<Option<Orders>, String> {
        Ok(match &s.phase {
            Phase::Move { active, .. } if active == side => {
                Some(Orders::Move(MoveOrders::default()))
            }
            Phase::Setup if deploy::deployers(s).contains(side) => {
                Some(Orders::Deploy(deploy::suggested(s, side)))
            }
            _ => None,
        })
    }
}

//! The Napoleonic corps rules, v1.2: regiments, cavalry and batteries of
//! bases in centimetres, corps with commanders and divisional generals,
//! whole-turn alternation, 2D6 fire and rally tables, D6 melee, corps
//! fatigue chips and army morale.
//!
//! Step 1 sets formations and rolls the corps' chips; every later step is
//! one side's whole turn, with the other side's standing reactions. See
//! `docs/rulesets/napoleonic-corps.md` for what is done and what is not.

pub mod campaign;
pub mod charge;
pub mod check;
pub mod contact;
pub mod control;
pub mod demo;
mod examples;
pub mod fatigue;
pub mod fire;
pub mod fire_bar;
pub mod fire_phases;
pub mod formation;
pub mod generals;
pub mod melee;
pub mod movement;
pub mod near;
pub mod options;
pub mod orders;
mod plan;
pub mod rally;
pub mod retreat;
mod roll;
pub mod rough;
pub mod scenario;
pub mod setup;
pub mod sight;
pub mod state;
pub mod tables;
mod tell;
mod template;
pub mod turn;
pub mod view;
pub mod words;

#[cfg(test)]
mod modifier_tests;
#[cfg(test)]
mod options_tests;
#[cfg(test)]
mod path_tests;
#[cfg(test)]
mod tests;

use crate::dice::Dice;
use crate::ruleset::{Due, OrdersKind, Owed, Resolution, Ruleset, Sight, Violation};
use crate::side::{BySide, SideId, each};
use crate::view::Viewer;
use orders::{Decision, Deployment, Orders, TurnOrders};
use scenario::Scenario;
use state::{Phase, State};

/// The `napoleonic-corps` ruleset.
pub struct NapoleonicCorps;

impl Ruleset for NapoleonicCorps {
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
        let (owed, optional) = match &s.phase {
            Phase::Setup => (
                s.scenario
                    .sides
                    .iter()
                    .map(|x| Owed {
                        side: x.id.clone(),
                        kind: OrdersKind::Deployment,
                        note: "starting formations (the corps' chips are rolled next)".into(),
                    })
                    .collect(),
                Vec::new(),
            ),
            Phase::Turn { turn, phasing } => (
                vec![Owed {
                    side: phasing.clone(),
                    kind: OrdersKind::Turn,
                    note: format!("orders for your whole turn {turn}"),
                }],
                vec![Owed {
                    side: s.other(phasing),
                    kind: OrdersKind::Reactions,
                    note: "standing reactions: cavalry withdrawals, square or fire".into(),
                }],
            ),
            // One file a side a step: reactions sent now instead of a
            // decision replace the standing ones and decide.
            Phase::Decision { phasing, .. } => (
                vec![Owed {
                    side: s.other(phasing),
                    kind: OrdersKind::Decision,
                    note: "your decision: which cavalry withdraw, which units form square and which fire at what"
                        .into(),
                }],
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
                let d = each(orders, |o| match o {
                    Orders::Deploy(d) => Some(d),
                    _ => None,
                });
                setup::resolve(&s, &d, dice)
            }
            Phase::Turn { turn, phasing } => {
                let t = match orders.get(&phasing) {
                    Some(Orders::Turn(t)) => t.clone(),
                    _ => TurnOrders::default(),
                };
                turn::resolve(&s, turn, &phasing, &t, dice)
            }
            Phase::Decision {
                turn,
                phasing,
                pending,
            } => {
                let d = match orders.get(&s.other(&phasing)) {
                    Some(Orders::Decide(d)) => Some(d),
                    _ => None,
                };
                turn::resume(&s, turn, &phasing, &pending, d, dice)
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

    /// A side that sent nothing keeps its formations, and in its turn
    /// holds (disordered units still roll to rally); a decision it owes is
    /// left to its standing reactions.
    fn default_orders(&self, s: &State, side: &SideId) -> Result<Option<Orders>, String> {
        Ok(match &s.phase {
            Phase::Setup => Some(Orders::Deploy(Deployment::default())),
            Phase::Turn { phasing, .. } if phasing == side => {
                Some(Orders::Turn(TurnOrders::default()))
            }
            // The standing reactions decide for a side that did not.
            Phase::Decision { phasing, .. } if phasing != side => Some(Orders::Decide(Decision {
                standing: true,
                ..Decision::default()
            })),
            _ => None,
        })
    }
}

//! Maurice Lite (Sam Mustafa, 2011): cards, forces and base widths.
//!
//! One step is one round; the first step is the secret deployment. A round
//! that the active side asked to be consulted on pauses after the draw, and
//! the decision is a step of its own. See `docs/rulesets/maurice-lite.md`.

pub mod activation;
mod area;
pub mod campaign;
pub mod cardplay;
pub mod cards;
pub mod charge;
mod check;
pub mod cinc;
pub mod deck;
mod examples;
#[cfg(test)]
mod fingerprint;
pub mod fire;
pub mod forces;
pub mod layouts;
pub mod march;
pub mod modifiers;
mod nearby;
pub mod options;
pub mod orders;
pub mod place;
pub mod plan;
pub mod prune;
pub mod rally;
pub mod reach;
pub mod reactions;
mod round;
pub mod scenario;
mod setup;
pub mod state;
mod tell;
mod template;
pub mod units;
mod view;
mod volley;
pub mod words;

use crate::dice::Dice;
use crate::ruleset::{Due, OrdersKind, Owed, Resolution, Ruleset, Sight, Violation};
use crate::side::{BySide, SideId, each};
use crate::view::Viewer;
use orders::Orders;
use scenario::Scenario;
use state::{Phase, State};

/// The `maurice-lite` ruleset.
pub struct MauriceLite;

impl Ruleset for MauriceLite {
    type Scenario = Scenario;
    type State = State;
    type Orders = Orders;

    fn name(&self) -> &'static str {
        "maurice-lite"
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
                    note: "secret deployment in your third of the table".into(),
                })
                .collect(),
            Phase::Round { active } => vec![Owed {
                side: active.clone(),
                kind: OrdersKind::Turn,
                note: format!("orders for round {}: you are active", s.round),
            }],
            Phase::Decision { active, pending } => vec![Owed {
                side: active.clone(),
                kind: OrdersKind::Decision,
                note: format!(
                    "your {} needs a force and cards, now that the draw is known",
                    pending.action.label()
                ),
            }],
            Phase::Over(_) => Vec::new(),
        };
        let optional = match &s.phase {
            Phase::Round { active } | Phase::Decision { active, .. } => vec![Owed {
                side: s.other(active),
                kind: OrdersKind::Reactions,
                note: "standing reactions (optional): return fire, interrupts and modifying cards, kept until replaced".into(),
            }],
            Phase::Deployment | Phase::Over(_) => Vec::new(),
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
        // Standing reactions sent for this step replace the sender's earlier
        // ones before anything else happens.
        let mut renewed = s.clone();
        let mut first = Vec::new();
        for (side, o) in orders {
            if let Orders::Reactions(r) = o {
                renewed.standing.insert(side.clone(), r.clone());
                first.push(words::event(
                    words::What::ReactionsRenewed,
                    words::side(s, side),
                ));
                first.push(words::private(
                    side,
                    words::What::ReactionsInForce,
                    words::side(s, side),
                ));
            }
        }
        let s = &renewed;
        let (state, mut events) = match &s.phase {
            Phase::Deployment => {
                let deployments = each(orders, |o| match o {
                    Orders::Deploy(d) => Some(d),
                    _ => None,
                });
                setup::resolve(s, &deployments, dice)
            }
            Phase::Round { active } => match orders.get(active) {
                Some(Orders::Round(r)) => round::resolve(s, active, r, dice),
                _ => round::resolve(s, active, &default_round(), dice),
            },
            Phase::Decision { active, pending } => match orders.get(active) {
                Some(Orders::Decide(a)) => round::resolve_decision(s, active, pending, a, dice),
                _ => round::resolve_decision(
                    s,
                    active,
                    pending,
                    &orders::Activation::default(),
                    dice,
                ),
            },
            Phase::Over(_) => (s.clone(), Vec::new()),
        };
        first.append(&mut events);
        Resolution::new(state, first)
    }

    fn view(&self, s: &State, viewer: &Viewer) -> Sight {
        view::sight(s, viewer)
    }

    /// Each side's options panel is made once for its report and its
    /// orders page, and each side's volley plan once for both panels.
    fn view_with(&self, s: &State, viewer: &Viewer, memo: &crate::ruleset::Memo) -> Sight {
        view::sight_with(s, viewer, memo)
    }

    /// Every reader sees the whole table; the map is drawn without the
    /// panels, whose options and forces are most of a view's time.
    fn map_view(&self, s: &State, _viewer: &Viewer) -> crate::view::MapView {
        view::map(s)
    }

    fn orders_template(&self, s: &State, side: &SideId) -> Option<String> {
        template::template(s, side)
    }

    /// The orders page's plan (`plan.rs`) and its writer (`page.js`).
    fn orders_plan(&self, s: &State, side: &SideId) -> Option<crate::view::plan::PagePlan> {
        plan::plan(s, side).map(|p| p.with_writer(include_str!("page.js")))
    }

    fn orders_plan_with(
        &self,
        s: &State,
        side: &SideId,
        memo: &crate::ruleset::Memo,
    ) -> Option<crate::view::plan::PagePlan> {
        plan::plan_with(s, side, memo).map(|p| p.with_writer(include_str!("page.js")))
    }

    /// House rule (docs/rulesets/maurice-lite.md): an active side that sent
    /// nothing by the deadline passes. A deployment or a decision has no
    /// default: no placement or force can be chosen for a player.
    fn default_orders(&self, s: &State, side: &SideId) -> Result<Option<Orders>, String> {
        Ok(match &s.phase {
            Phase::Round { active } if active == side => Some(Orders::Round(default_round())),
            _ => None,
        })
    }

    fn place_in_contact(
        &self,
        s: &State,
        unit: &str,
        target: &str,
        edge: crate::ruleset::ContactEdge,
        offset: f64,
    ) -> Result<State, String> {
        place::in_contact(s, unit, target, edge, offset)
    }

    /// The deck's order is the one secret the state keeps beyond the
    /// hands, which no public view shows: it is shuffled again, so that a
    /// preview draws cards that say nothing of the cards to come.
    fn conceal(&self, s: &State, dice: &mut Dice) -> State {
        let mut s = s.clone();
        dice.shuffle(
            crate::dice::StreamKind::Hidden,
            &mut s.piles.draw,
            "conceal the deck's order for a preview",
        );
        s
    }
}

/// What an active side that sent nothing does: it passes.
pub fn default_round() -> orders::RoundOrders {
    orders::RoundOrders {
        volleys: orders::Volleys::All(false),
        fire_order: orders::Sweep::LeftToRight,
        aims: Vec::new(),
        modify: Vec::new(),
        command: Some(orders::Command::Pass),
        cinc: None,
        discard: Vec::new(),
        if_displaced_discard: None,
    }
}

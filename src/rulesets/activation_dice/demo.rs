//! The demo player of `galloper demo --ruleset activation-dice`: a
//! plain-minded general for each side, writing orders from the state
//! alone.
//!
//! Placements are the scenario's suggestions. In its turn a side
//! activates its guns first, then its foot, then its horse, routing units
//! last (three dice, to stop the rout), two dice each: units in melee
//! seize the initiative (or recoil when badly hurt); batteries unlimber
//! and fire at the nearest target; infantry fire when they can (forming
//! line first), else march at the nearest enemy; cavalry charge what they
//! can reach and close otherwise. Every entry is put through the
//! ruleset's own check; a refused entry is dropped.

use super::check;
use super::combat::shootable;
use super::movement::allowance;
use super::orders::{Action, Activation, Goal, Orders, TurnOrders};
use super::scenario::{Arm, NAME};
use super::setup::default_deployment;
use super::state::{Formation, Phase, State, Unit};
use crate::geometry::Angle;
use crate::ruleset::{DemoPlayer, OrdersKind, Owed, demo_orders, demo_state};
use crate::side::SideId;

pub const SCENARIO: &str = include_str!("../../../games/activation-dice/quatre-chemins.yaml");

pub struct Player;

impl DemoPlayer for Player {
    fn ruleset(&self) -> &'static str {
        NAME
    }
    fn scenario(&self) -> &'static str {
        SCENARIO
    }
    fn game(&self) -> &'static str {
        "quatre-chemins-demo"
    }
    fn orders(&mut self, state: &str, owed: &Owed) -> Result<serde_yaml::Value, String> {
        let s: State = demo_state(state)?;
        let o = match (&s.phase, owed.kind) {
            (Phase::Deploy { placement }, OrdersKind::Deployment) => {
                Orders::Deploy(default_deployment(&s, *placement))
            }
            _ => Orders::Turn(turn_orders(&s, &owed.side)),
        };
        demo_orders(&o)
    }
    fn pass(&self, owed: &Owed) -> serde_yaml::Value {
        let text = match owed.kind {
            OrdersKind::Deployment => "deploy: {}",
            _ => "turn: {}",
        };
        crate::yaml::from_str(text).unwrap_or(serde_yaml::Value::Null)
    }
}

/// The nearest enemy unit `i` can shoot at now.
fn target(s: &State, i: usize) -> Option<String> {
    let u = &s.units[i];
    shootable(s, i)
        .into_iter()
        .map(|(_, k)| &s.units[k])
        .find(|e| e.side != u.side)
        .map(|e| e.id.clone())
}

/// A pivot, in whole 45s, that brings `e` within 45 degrees of the front.
fn turn_to(s: &State, u: &Unit, e: &Unit) -> Option<f64> {
    let want = Angle::of_vector(s.centre(e) - s.centre(u))?;
    let d = u.facing.difference_to(want);
    (d.abs() > 45.0).then(|| (d / 45.0).round() * 45.0)
}

fn plan(s: &State, i: usize) -> Option<Activation> {
    let u = &s.units[i];
    let act = |dice: u32, actions: Vec<Action>| {
        Some(Activation {
            unit: u.id.clone(),
            dice,
            actions,
            one: None,
            two: None,
            three: None,
        })
    };
    if u.status.rout {
        return act(3, Vec::new());
    }
    if let Some(e) = s.contacts(u).first() {
        if u.arm() == Arm::Artillery {
            return None;
        }
        if u.disorder >= 2 {
            return act(2, vec![Action::Recoil]);
        }
        return act(2, vec![Action::Seize(e.id.clone())]);
    }
    let e = s.nearest_enemy(u)?;
    match u.arm() {
        Arm::Artillery => {
            if u.formation == Formation::Limbered {
                return act(2, vec![Action::Unlimber]);
            }
            if let Some(t) = target(s, i) {
                return act(2, vec![Action::Fire(t.clone()), Action::Fire(t)]);
            }
            let p = turn_to(s, u, e)?;
            act(2, vec![Action::Pivot(p)])
        }
        Arm::Infantry => {
            if let Some(t) = target(s, i) {
                if u.formation != Formation::Line {
                    return act(2, vec![Action::Formation(Formation::Line), Action::Fire(t)]);
                }
                return act(2, vec![Action::Fire(t.clone()), Action::Fire(t)]);
            }
            let mut a = Vec::new();
            if u.formation != Formation::Column {
                a.push(Action::Formation(Formation::Column));
            }
            if let Some(p) = turn_to(s, u, e) {
                a.push(Action::Pivot(p));
            }
            a.push(Action::Move(Goal::Toward(e.id.clone())));
            a.push(Action::Move(Goal::Toward(e.id.clone())));
            act(2, a)
        }
        Arm::Cavalry => {
            let mut a = Vec::new();
            if let Some(p) = turn_to(s, u, e) {
                a.push(Action::Pivot(p));
            }
            if s.gap(u, e) <= allowance(s, u) && a.is_empty() {
                return act(2, vec![Action::Seize(e.id.clone())]);
            }
            a.push(Action::Move(Goal::Toward(e.id.clone())));
            a.push(Action::Move(Goal::Toward(e.id.clone())));
            act(2, a)
        }
    }
}

pub fn turn_orders(s: &State, side: &SideId) -> TurnOrders {
    let rank = |u: &Unit| match (u.status.rout, u.arm()) {
        (true, _) => 3,
        (_, Arm::Artillery) => 0,
        (_, Arm::Infantry) => 1,
        (_, Arm::Cavalry) => 2,
    };
    let mut order: Vec<usize> = (0..s.units.len())
        .filter(|&i| s.units[i].placed() && &s.units[i].side == side && !s.units[i].activated)
        .collect();
    order.sort_by_key(|&i| rank(&s.units[i]));
    let mut t = TurnOrders {
        activations: order.into_iter().filter_map(|i| plan(s, i)).collect(),
        ..TurnOrders::default()
    };
    // Keep only what the ruleset accepts.
    let bad = check::check(s, side, &Orders::Turn(t.clone()));
    let refused = |k: usize| {
        bad.iter().any(|v| {
            v.path.get(1).map(String::as_str) == Some("activations")
                && v.path.get(2) == Some(&k.to_string())
        })
    };
    t.activations = t
        .activations
        .iter()
        .enumerate()
        .filter(|(k, _)| !refused(*k))
        .map(|(_, a)| a.clone())
        .collect();
    t
}

//! The demo player of `galloper demo --ruleset napoleonic-corps`: a
//! plain-minded general for each side, writing orders from the state alone.
//!
//! Batteries stand and fire at the nearest target; infantry march in column
//! at the nearest enemy and fire when in range; cavalry close to 8 cm and
//! charge what lies straight ahead within reach; commanders follow their
//! corps and spend passes while they have more than two. Its standing
//! reactions are the defaults, with every cavalry unit withdrawing.
//! Every order is put through the ruleset's own check; a refused entry is
//! dropped.

use super::charge::reach;
use super::check;
use super::fire::{barrier, max_range};
use super::formation::Formation;
use super::movement::{allowance, turns};
use super::orders::{
    ChargeOrder, Controlled, Decision, Deployment, FireOrder, Move, Orders, Reactions, Ride,
    TurnOrders,
};
use super::rally::PASS_RADIUS;
use super::scenario::NAME;
use super::state::{State, Unit};
use super::tables::Arm;
use crate::geometry::contact::first_touch;
use crate::geometry::{Angle, Distance, Frame, Point, within_radius};
use crate::ruleset::{DemoPlayer, OrdersKind, Owed, demo_orders, demo_state};
use crate::side::SideId;

pub const SCENARIO: &str = include_str!("../../../games/napoleonic-corps/danube-crossroads.yaml");

/// Cavalry stop this far from the enemy to charge next turn (cm).
const STAND_OFF: f64 = 8.0;

pub struct Player;

impl DemoPlayer for Player {
    fn ruleset(&self) -> &'static str {
        NAME
    }
    fn scenario(&self) -> &'static str {
        SCENARIO
    }
    fn game(&self) -> &'static str {
        "danube-demo"
    }
    fn orders(&mut self, state: &str, owed: &Owed) -> Result<serde_yaml::Value, String> {
        let s: State = demo_state(state)?;
        let o = match owed.kind {
            OrdersKind::Deployment => Orders::Deploy(Deployment::default()),
            OrdersKind::Reactions => Orders::Reactions(reactions(&s, &owed.side)),
            OrdersKind::Decision => Orders::Decide(Decision {
                standing: true,
                ..Decision::default()
            }),
            _ => Orders::Turn(turn_orders(&s, &owed.side)),
        };
        demo_orders(&o)
    }
    fn optional(
        &mut self,
        state: &str,
        owed: &Owed,
        _step: u32,
    ) -> Result<Option<serde_yaml::Value>, String> {
        let s: State = demo_state(state)?;
        if owed.kind != OrdersKind::Reactions || s.reactions.contains_key(&owed.side) {
            return Ok(None);
        }
        demo_orders(&Orders::Reactions(reactions(&s, &owed.side))).map(Some)
    }
    fn pass(&self, owed: &Owed) -> serde_yaml::Value {
        let text = match owed.kind {
            OrdersKind::Deployment => "deploy: {}",
            OrdersKind::Reactions => "reactions: {}",
            OrdersKind::Decision => "decide: {standing: true}",
            _ => "turn: {}",
        };
        crate::yaml::from_str(text).unwrap_or(serde_yaml::Value::Null)
    }
}

pub fn reactions(s: &State, side: &SideId) -> Reactions {
    Reactions {
        withdraw: s
            .live(side)
            .filter(|u| u.arm() == Arm::Cavalry)
            .map(|u| u.id.clone())
            .collect(),
        ..Reactions::default()
    }
}

fn toward(u: &Unit, e: &Unit, s: &State) -> Point {
    Frame::of(&s.bases(e)).anchor - u.at
}

/// A move of `u` toward `e`, ending `keep` cm short of it.
fn advance(s: &State, u: &Unit, e: &Unit, keep: f64, formation: Formation) -> Option<Move> {
    let v = toward(u, e, s);
    let face = Angle::of_vector(v)?;
    let turn = turns(u, Some(face)) && face.difference_to(u.facing).abs() > 10.0;
    let facing = if turn { face } else { u.facing };
    let a = allowance(u, formation, turn, false);
    let gap = s.gap(u, e);
    let go = a.min((gap - keep).max(0.0));
    if go < 1.0 && !turn && formation == u.formation {
        return None;
    }
    let to = u.at + v.scale(go / v.length().max(1e-9));
    let w = s.scenario.table;
    let to = Point::new(
        to.x.clamp(1.0, w.width.get() - 1.0),
        to.y.clamp(1.0, w.height.get() - 1.0),
    );
    Some(Move {
        unit: u.id.clone(),
        to: Some(to),
        facing: turn.then_some(facing),
        formation: (formation != u.formation).then_some(formation),
        via: Vec::new(),
        road: false,
    })
}

pub fn turn_orders(s: &State, side: &SideId) -> TurnOrders {
    let mut t = TurnOrders::default();
    for c in s.corps.iter().filter(|c| &c.side == side) {
        let mine: Vec<&Unit> = s.live(side).filter(|u| u.corps == c.id).collect();
        if mine.is_empty() {
            continue;
        }
        let n = mine.len() as f64;
        let mid = Point::new(
            mine.iter().map(|u| u.at.x).sum::<f64>() / n,
            mine.iter().map(|u| u.at.y).sum::<f64>() / n,
        );
        let d = c.at.distance_to(mid).get();
        let to = if d <= 60.0 {
            mid
        } else {
            c.at + (mid - c.at).scale(60.0 / d)
        };
        t.commanders.push(Ride {
            corps: c.id.clone(),
            to,
        });
        let mut left = c.passes;
        for u in mine.iter().filter(|u| u.shaken()) {
            if left > 2 && within_radius(to, &s.bases(u), Distance(PASS_RADIUS)) {
                t.passes.push(u.id.clone());
                left -= 1;
            }
        }
    }
    let engaged: Vec<String> = Vec::new();
    for u in s.live(side) {
        if u.shaken() || !s.contacts(u).is_empty() {
            continue;
        }
        let Some(e) = s.nearest_enemy(u) else {
            continue;
        };
        match u.arm() {
            Arm::Artillery => {}
            Arm::Infantry => {
                if s.gap(u, e) > 5.0 {
                    let f = if u.formation == Formation::Square {
                        Formation::Column
                    } else {
                        u.formation
                    };
                    t.moves.extend(advance(s, u, e, 0.0, f));
                }
            }
            Arm::Cavalry => {
                let ahead = first_touch(&s.bases(u), &s.bases(e), u.facing.unit_vector());
                if ahead.is_some_and(|d| d <= reach(u.troop.light())) {
                    t.charges.push(ChargeOrder {
                        unit: u.id.clone(),
                        target: e.id.clone(),
                        if_controlled: Controlled::FallBack,
                    });
                } else {
                    t.moves.extend(advance(s, u, e, STAND_OFF, u.formation));
                }
            }
        }
        if u.mods().fire.is_some()
            && let Some(target) = s
                .enemies(side)
                .filter(|x| crate::geometry::limit::within(s.gap_at_least(u, x), max_range(u)))
                .filter(|x| barrier(s, u, x, &engaged).is_none())
                .min_by(|a, b| s.gap(u, a).total_cmp(&s.gap(u, b)).then(a.id.cmp(&b.id)))
        {
            t.fire.push(FireOrder {
                unit: u.id.clone(),
                target: target.id.clone(),
                with: None,
            });
        }
    }
    // Keep only what the ruleset accepts.
    let bad = check::check(s, side, &Orders::Turn(t.clone()));
    let refused = |list: &str, i: usize| {
        bad.iter().any(|v| {
            v.path.get(1).map(String::as_str) == Some(list) && v.path.get(2) == Some(&i.to_string())
        })
    };
    let keep = |list: &str, n: usize| (0..n).filter(|&i| !refused(list, i)).collect::<Vec<_>>();
    let moves = keep("moves", t.moves.len());
    t.moves = moves.into_iter().map(|i| t.moves[i].clone()).collect();
    let fire = keep("fire", t.fire.len());
    t.fire = fire.into_iter().map(|i| t.fire[i].clone()).collect();
    let charges = keep("charges", t.charges.len());
    t.charges = charges.into_iter().map(|i| t.charges[i].clone()).collect();
    let rides = keep("commanders", t.commanders.len());
    t.commanders = rides.into_iter().map(|i| t.commanders[i].clone()).collect();
    t
}

//! Maurice Lite's demo player: the shipped orders taken in turn, or with
//! `--battle` a simple general per side (`bot.rs`) who reads the table.
//! It lives here rather than in the ruleset's folder, which the demo must
//! not change.

use super::bot;
use crate::ruleset::{DemoPlayer, OrdersKind, Owed, Ruleset, demo_orders, demo_state};
use crate::rulesets::maurice_lite::MauriceLite;
use crate::rulesets::maurice_lite::state::State;
use crate::side::{BySide, SideId};
use std::collections::VecDeque;

/// The demonstration scenario and each side's scripted orders.
pub const SCENARIO: &str = include_str!("../../games/maurice-lite/hollowbrook.yaml");
pub const SCRIPTS: [(&str, &str); 2] = [
    (
        "french",
        include_str!("../../games/maurice-lite/demo/french.yaml"),
    ),
    (
        "austrians",
        include_str!("../../games/maurice-lite/demo/austrians.yaml"),
    ),
];

/// Who writes the orders.
enum Author {
    /// The shipped orders, taken in turn.
    Scripts(BySide<VecDeque<serde_yaml::Value>>),
    /// A general per side who reads the table.
    Bots,
}

/// The `maurice-lite` demo player.
pub struct MauricePlayer {
    author: Author,
}

impl MauricePlayer {
    /// The scripted demo, or with `battle` the bots' whole battle.
    pub fn new(battle: bool) -> Result<Self, String> {
        let author = if battle {
            Author::Bots
        } else {
            let mut scripts: BySide<VecDeque<serde_yaml::Value>> = BySide::new();
            for (side, text) in SCRIPTS {
                let list: Vec<serde_yaml::Value> = crate::yaml::from_str(text)
                    .map_err(|e| format!("demo orders for {side}: {e}"))?;
                scripts.insert(SideId::new(side), list.into());
            }
            Author::Scripts(scripts)
        };
        Ok(MauricePlayer { author })
    }
}

impl DemoPlayer for MauricePlayer {
    fn ruleset(&self) -> &'static str {
        Ruleset::name(&MauriceLite)
    }

    fn scenario(&self) -> &'static str {
        SCENARIO
    }

    fn game(&self) -> &'static str {
        match self.author {
            Author::Bots => "hollowbrook-battle",
            Author::Scripts(_) => "hollowbrook-demo",
        }
    }

    fn orders(&mut self, state: &str, owed: &Owed) -> Result<serde_yaml::Value, String> {
        let key = match owed.kind {
            OrdersKind::Deployment => "deploy",
            OrdersKind::Turn => "round",
            OrdersKind::Decision => "decide",
            OrdersKind::Reactions => "reactions",
        };
        match &mut self.author {
            Author::Scripts(scripts) => {
                let queue = scripts
                    .get_mut(&owed.side)
                    .ok_or_else(|| format!("no script for {}", owed.side))?;
                Ok(next_orders(queue, key).unwrap_or_else(pass_orders))
            }
            Author::Bots => {
                let typed: State = demo_state(state)?;
                match owed.kind {
                    OrdersKind::Deployment => {
                        let body = MauriceLite
                            .orders_template(&typed, &owed.side)
                            .ok_or("no deployment template")?;
                        crate::yaml::from_str(&body).map_err(|e| e.to_string())
                    }
                    _ => demo_orders(&bot::round_orders(&typed, &owed.side)),
                }
            }
        }
    }

    /// Standing reactions a bot sends every few steps while passive (two
    /// steps in four, so that each side gets its turn whatever the parity).
    fn optional(
        &mut self,
        state: &str,
        owed: &Owed,
        step: u32,
    ) -> Result<Option<serde_yaml::Value>, String> {
        if !matches!(self.author, Author::Bots)
            || owed.kind != OrdersKind::Reactions
            || step % 4 >= 2
        {
            return Ok(None);
        }
        let typed: State = demo_state(state)?;
        demo_orders(&bot::reactions(&typed, &owed.side)).map(Some)
    }

    fn pass(&self, _owed: &Owed) -> serde_yaml::Value {
        pass_orders()
    }
}

fn next_orders(queue: &mut VecDeque<serde_yaml::Value>, key: &str) -> Option<serde_yaml::Value> {
    let pos = queue.iter().position(|v| v.get(key).is_some())?;
    queue.remove(pos)
}

fn pass_orders() -> serde_yaml::Value {
    crate::yaml::from_str("round: {volleys: false, command: pass}")
        .unwrap_or(serde_yaml::Value::Null)
}

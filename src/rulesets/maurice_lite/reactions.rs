//! Standing reactions: what the passive side plays, and when, in rounds it
//! does not send orders for (chapter 3: interrupts and modifying cards; and
//! its return fire in the volley phase). Kept until replaced.

use super::deck::{Effect, Symbol};
use super::orders::{Aim, Sweep};
use super::state::State;
use crate::geometry::Distance;
use crate::ruleset::Violation;
use crate::side::SideId;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Reactions {
    /// Which units shoot back in the enemy's volley phase: `all` (the
    /// default), `none`, or a list of unit ids.
    #[serde(default)]
    pub return_fire: ReturnFire,
    #[serde(default)]
    pub fire_order: Sweep,
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<Aim>>")]
    pub aims: Vec<Aim>,
    /// Interrupt cards to play, in order of preference; at most one a round.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<Play>>")]
    pub interrupts: Vec<Play>,
    /// Modifying cards to play; at most one of each symbol a round.
    #[serde(default, deserialize_with = "crate::yaml::list")]
    #[schemars(with = "Option<Vec<Play>>")]
    pub modifiers: Vec<Play>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged, expecting = "`all`, `none`, or a list of unit ids")]
pub enum ReturnFire {
    Policy(FirePolicy),
    Units(Vec<String>),
}

impl Default for ReturnFire {
    fn default() -> Self {
        ReturnFire::Policy(FirePolicy::All)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FirePolicy {
    All,
    None,
}

/// One card and the moment to play it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Play {
    pub card: String,
    /// What the enemy does that sets it off.
    pub on: On,
    /// Only when the enemy's force comes within `within` BW of this unit of ours.
    #[serde(default)]
    pub near: Option<String>,
    #[serde(default)]
    pub within: Option<Distance>,
    /// For `on: charged`: the unit of ours that is charged.
    #[serde(default)]
    pub unit: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum On {
    /// The enemy invokes a volley phase.
    Volleys,
    /// The enemy declares a March.
    March,
    /// The enemy declares a Charge.
    Charge,
    /// The enemy declares a Bombard.
    Bombard,
    /// The enemy declares a Rally.
    Rally,
    /// The unit named in `unit` is charged.
    Charged,
}

impl ReturnFire {
    pub fn includes(&self, unit: &str) -> bool {
        match self {
            ReturnFire::Policy(FirePolicy::All) => true,
            ReturnFire::Policy(FirePolicy::None) => false,
            ReturnFire::Units(u) => u.iter().any(|x| x == unit),
        }
    }
}

fn is_interrupt_effect(e: Effect) -> bool {
    matches!(
        e,
        Effect::AddActivationDistance(_) | Effect::DifficultImpassable | Effect::FireFirst
    )
}

/// Which triggers make sense for a modifying card of `symbol`.
fn modifier_fits(symbol: Symbol, on: On) -> bool {
    matches!(
        (symbol, on),
        (Symbol::Volley, On::Volleys)
            | (Symbol::Bombard, On::Bombard)
            | (Symbol::Charge, On::Charge | On::Charged)
    )
}

/// Check standing reactions on receipt. Cards need not be in hand yet: a
/// card not held when its moment comes is skipped, and the report says so.
pub fn check(state: &State, side: &SideId, r: &Reactions) -> Vec<Violation> {
    let rule = "3. Interrupts and modifying cards";
    let mut out = Vec::new();
    let own = |id: &str| state.unit(id).is_some_and(|u| &u.side == side);
    if let ReturnFire::Units(list) = &r.return_fire {
        for u in list.iter().filter(|u| !own(u)) {
            out.push(Violation::new(
                &["return_fire"],
                Some(u),
                "7. The volley phase",
                format!(
                    "{u} is not a unit of yours{}",
                    state.unit_hint(u, Some(side))
                ),
            ));
        }
    }
    for (list, key, want_interrupt) in [
        (&r.interrupts, "interrupts", true),
        (&r.modifiers, "modifiers", false),
    ] {
        for p in list {
            let Some(card) = state.deck.card(&p.card) else {
                out.push(Violation::new(
                    &[key],
                    None,
                    rule,
                    format!("{} is not a card of this deck", p.card),
                ));
                continue;
            };
            let effect_ok = card
                .effect
                .is_some_and(|e| is_interrupt_effect(e) == want_interrupt);
            if want_interrupt && !(card.interrupt && effect_ok) {
                out.push(Violation::new(
                    &[key],
                    None,
                    rule,
                    format!("{} is not an interrupt card", state.card_name(&p.card)),
                ));
            }
            if !want_interrupt {
                match card.symbol {
                    Some(sym) if effect_ok && modifier_fits(sym, p.on) => {}
                    Some(_) if effect_ok => out.push(Violation::new(
                        &[key],
                        None,
                        rule,
                        format!(
                            "{} cannot modify what `on: {:?}` names",
                            state.card_name(&p.card),
                            p.on
                        )
                        .to_lowercase(),
                    )),
                    _ => out.push(Violation::new(
                        &[key],
                        None,
                        rule,
                        format!(
                            "{} is not a modifying card the passive side can use",
                            state.card_name(&p.card)
                        ),
                    )),
                }
            }
            if p.near.is_some() != p.within.is_some() {
                out.push(Violation::new(
                    &[key],
                    None,
                    rule,
                    "give `near` and `within` together",
                ));
            }
            if let Some(n) = &p.near
                && !own(n)
            {
                out.push(Violation::new(
                    &[key],
                    Some(n),
                    rule,
                    format!(
                        "{n} is not a unit of yours{}",
                        state.unit_hint(n, Some(side))
                    ),
                ));
            }
            if p.within
                .is_some_and(|d| !d.get().is_finite() || d.get() < 0.0 || d.get() > 1000.0)
            {
                out.push(Violation::new(
                    &[key],
                    None,
                    rule,
                    "`within` is a distance in BW from 0 to 1000",
                ));
            }
            match (p.on, &p.unit) {
                (On::Charged, Some(u)) if own(u) => {}
                (On::Charged, _) => out.push(Violation::new(
                    &[key],
                    None,
                    rule,
                    "`on: charged` needs `unit:` naming one of your units",
                )),
                (_, Some(_)) => out.push(Violation::new(
                    &[key],
                    None,
                    rule,
                    "`unit:` goes only with `on: charged`",
                )),
                _ => {}
            }
        }
    }
    out
}

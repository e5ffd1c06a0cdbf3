//! Cards played for their effect in a round: the active side's modifying
//! cards (from its orders) and the passive side's interrupts and modifying
//! cards (from its standing reactions), each at the moment the source says,
//! one modifier per symbol per side and one interrupt per round.

use super::deck::{Effect, Symbol};
use super::reactions::{On, Play};
use super::state::State;
use super::words::{self, What};
use crate::event::{Event, Facts, PLAYED};
use crate::geometry::bases_distance;
use crate::side::{BySide, SideId};
use serde::{Deserialize, Serialize};

/// What cards have done so far this round (kept across a decision pause).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RoundCards {
    /// Modifier symbols each side has used.
    #[serde(default)]
    pub symbols: BySide<Vec<Symbol>>,
    /// The passive side has interrupted.
    #[serde(default)]
    pub interrupted: bool,
    /// Difficult terrain is impassable to the active side's units.
    #[serde(default)]
    pub difficult_impassable: bool,
    /// BW added to every marching unit's allowance.
    #[serde(default)]
    pub march_bonus: u32,
    /// Added to every rally die.
    #[serde(default)]
    pub rally_bonus: i32,
}

fn take(s: &mut State, side: &SideId, card: &str) {
    if let Some(a) = s.army_mut(side) {
        a.hand.retain(|c| c != card);
    }
    s.piles.discard.push(card.to_string());
}

fn symbol_free(s: &State, side: &SideId, sym: Symbol) -> bool {
    !s.cards.symbols.get(side).is_some_and(|v| v.contains(&sym))
}

fn mark(s: &mut State, side: &SideId, sym: Symbol) {
    s.cards.symbols.entry(side.clone()).or_default().push(sym);
}

/// The active side plays the first card of `modify` with `symbol`, if it holds it.
pub fn active_modifier(
    s: &mut State,
    side: &SideId,
    modify: &[String],
    symbol: Symbol,
    ev: &mut Vec<Event>,
) -> Option<Effect> {
    if !symbol_free(s, side, symbol) {
        return None;
    }
    let hand = s.army(side).map(|a| a.hand.clone()).unwrap_or_default();
    let card = modify.iter().find(|c| {
        hand.contains(c)
            && s.deck
                .card(c)
                .is_some_and(|k| k.symbol == Some(symbol) && k.effect.is_some())
    })?;
    let effect = s.deck.card(card).and_then(|k| k.effect)?;
    let text = s
        .deck
        .card(card)
        .map(|k| k.text.clone())
        .unwrap_or_default();
    ev.push(words::event(
        What::Modify,
        Facts {
            cards: vec![s.card_name(card)],
            notes: vec![text],
            result: Some(PLAYED.into()),
            ..words::side(s, side)
        },
    ));
    take(s, side, card);
    mark(s, side, symbol);
    Some(effect)
}

/// Whether `play`'s `near` condition holds for an enemy force.
fn near_ok(s: &State, play: &Play, force: &[String]) -> bool {
    let (Some(unit), Some(within)) = (&play.near, play.within) else {
        return true;
    };
    let m = s.scenario.measure;
    let Some(mine) = s.unit(unit).filter(|u| u.on_table()) else {
        return false;
    };
    let mine = mine.bases(&m);
    force
        .iter()
        .filter_map(|id| s.unit(id))
        .filter(|u| u.on_table())
        .any(|u| bases_distance(&u.bases(&m), &mine).get() <= within.get() + 1e-9)
}

fn describe(play: &Play) -> String {
    let mut t = format!("on {:?}", play.on).to_lowercase();
    if let (Some(u), Some(w)) = (&play.near, play.within) {
        t.push_str(&format!(" within {} BW of {u}", w.get()));
    }
    if let Some(u) = &play.unit {
        t.push_str(&format!(" of {u}"));
    }
    t
}

/// The passive side's first standing interrupt for `on`, if it has not
/// interrupted this round and holds the card.
pub fn passive_interrupt(
    s: &mut State,
    passive: &SideId,
    on: On,
    force: &[String],
    ev: &mut Vec<Event>,
) -> Option<Effect> {
    if s.cards.interrupted {
        return None;
    }
    let plays = s
        .standing
        .get(passive)
        .map(|r| r.interrupts.clone())
        .unwrap_or_default();
    for play in plays.iter().filter(|p| p.on == on) {
        if !near_ok(s, play, force) {
            continue;
        }
        let held = s.army(passive).is_some_and(|a| a.hand.contains(&play.card));
        if !held {
            ev.push(words::private(
                passive,
                What::InterruptMissing,
                Facts {
                    cards: vec![play.card.clone()],
                    mode: Some(describe(play)),
                    ..words::side(s, passive)
                },
            ));
            continue;
        }
        let Some(effect) = s.deck.card(&play.card).and_then(|k| k.effect) else {
            continue;
        };
        let text = s
            .deck
            .card(&play.card)
            .map(|k| k.text.clone())
            .unwrap_or_default();
        ev.push(words::event(
            What::Interrupt,
            Facts {
                cards: vec![s.card_name(&play.card)],
                mode: Some(describe(play)),
                notes: vec![text],
                result: Some(PLAYED.into()),
                ..words::side(s, passive)
            },
        ));
        take(s, passive, &play.card);
        s.cards.interrupted = true;
        return Some(effect);
    }
    None
}

/// The passive side's first standing modifier for `on` (and, for
/// `on: charged`, for one of `units`), if it holds it and has not used the symbol.
pub fn passive_modifier(
    s: &mut State,
    passive: &SideId,
    on: On,
    units: &[String],
    ev: &mut Vec<Event>,
) -> Option<(Effect, Option<String>)> {
    let plays = s
        .standing
        .get(passive)
        .map(|r| r.modifiers.clone())
        .unwrap_or_default();
    for play in plays.iter().filter(|p| p.on == on) {
        if on == On::Charged && !play.unit.as_ref().is_some_and(|u| units.contains(u)) {
            continue;
        }
        let Some(card) = s.deck.card(&play.card).cloned() else {
            continue;
        };
        let (Some(symbol), Some(effect)) = (card.symbol, card.effect) else {
            continue;
        };
        if !symbol_free(s, passive, symbol) {
            continue;
        }
        if !s.army(passive).is_some_and(|a| a.hand.contains(&play.card)) {
            ev.push(words::private(
                passive,
                What::ModifierMissing,
                Facts {
                    cards: vec![play.card.clone()],
                    mode: Some(describe(play)),
                    ..words::side(s, passive)
                },
            ));
            continue;
        }
        ev.push(words::event(
            What::StandingModify,
            Facts {
                cards: vec![s.card_name(&play.card)],
                mode: Some(describe(play)),
                notes: vec![card.text.clone()],
                result: Some(PLAYED.into()),
                ..words::side(s, passive)
            },
        ));
        take(s, passive, &play.card);
        mark(s, passive, symbol);
        return Some((effect, play.unit.clone()));
    }
    None
}

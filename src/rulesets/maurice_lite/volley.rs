//! The volley phase and bombardment in the round (chapter 7), with the cards
//! that bend them.

use super::cardplay;
use super::deck::{Effect, Symbol};
use super::fire::{self, FireMode, FireRequest};
use super::modifiers::Modifier;
use super::orders::{Activation, Aim, RoundOrders, Sweep};
use super::reactions::On;
use super::state::State;
use super::words::{self, What};
use crate::dice::Dice;
use crate::event::Event;
use crate::side::SideId;

/// The to-hit modifiers a card gives each side's shooting.
fn card_mods(effect: Option<Effect>, card_owner_shoots: bool) -> Option<Modifier> {
    match effect {
        Some(Effect::OwnToHit(n)) if card_owner_shoots => {
            Some(Modifier::new("card: own shooting", n))
        }
        Some(Effect::EnemyToHit(n)) if !card_owner_shoots => {
            Some(Modifier::new("card: enemy's shooting", n))
        }
        _ => None,
    }
}

/// The volley phase the active side invoked: its units fire, then the
/// passive side's return fire (or the other way round after a fire-first interrupt).
pub fn volley_phase(
    s: &mut State,
    active: &SideId,
    orders: &RoundOrders,
    dice: &mut Dice,
    ev: &mut Vec<Event>,
) {
    let passive = s.other(active);
    ev.push(words::event(What::VolleyPhase, words::side(s, active)));
    let first_passive = matches!(
        cardplay::passive_interrupt(s, &passive, On::Volleys, &[], ev),
        Some(Effect::FireFirst)
    );
    let a_card = cardplay::active_modifier(s, active, &orders.modify, Symbol::Volley, ev);
    let p_card = cardplay::passive_modifier(s, &passive, On::Volleys, &[], ev).map(|(e, _)| e);
    let mods_for = |shooter_is_active: bool| -> Vec<Modifier> {
        let mut m = Vec::new();
        m.extend(card_mods(a_card, shooter_is_active));
        m.extend(card_mods(p_card, !shooter_is_active));
        m
    };
    let reactions = s.standing.get(&passive).cloned().unwrap_or_default();
    let sides = if first_passive {
        [false, true]
    } else {
        [true, false]
    };
    for shooter_is_active in sides {
        let (side, order, aims): (SideId, Sweep, Vec<Aim>) = if shooter_is_active {
            (active.clone(), orders.fire_order, orders.aims.clone())
        } else {
            (
                passive.clone(),
                reactions.fire_order,
                reactions.aims.clone(),
            )
        };
        let shooters: Vec<String> = s
            .live_units(&side)
            .filter(|u| {
                if shooter_is_active {
                    orders.volleys.fires(&u.id)
                } else {
                    reactions.return_fire.includes(&u.id)
                }
            })
            .map(|u| u.id.clone())
            .collect();
        let req = FireRequest {
            side: &side,
            mode: FireMode::Volley,
            shooters,
            order,
            aims: &aims,
            to_hit: mods_for(shooter_is_active),
        };
        let plan = fire::plan(s, &req);
        let report = fire::resolve(s, &plan, dice, ev);
        s.detail.fire.push(report);
    }
}

/// A Bombard action by the activated guns that may fire.
pub fn bombard(
    s: &mut State,
    active: &SideId,
    guns: &[String],
    a: &Activation,
    modify: &[String],
    dice: &mut Dice,
    ev: &mut Vec<Event>,
) {
    let passive = s.other(active);
    let a_card = cardplay::active_modifier(s, active, modify, Symbol::Bombard, ev);
    let p_card = cardplay::passive_modifier(s, &passive, On::Bombard, &[], ev).map(|(e, _)| e);
    let mut to_hit = Vec::new();
    to_hit.extend(card_mods(a_card, true));
    to_hit.extend(card_mods(p_card, false));
    let req = FireRequest {
        side: active,
        mode: FireMode::Bombard,
        shooters: guns.to_vec(),
        order: a.fire_order,
        aims: &a.aims,
        to_hit,
    };
    let plan = fire::plan(s, &req);
    let report = fire::resolve(s, &plan, dice, ev);
    s.detail.fire.push(report);
}

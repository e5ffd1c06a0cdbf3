//! The round (chapter 4): command choice, the draw, the action, the CinC and
//! the end of the round.

use super::cardplay;
use super::cards::{Payment, fewest, lowest, pay_after_interrupt, total_span};
use super::charge;
use super::cinc;
use super::deck::{DrawNote, EventEffect, HAND_LIMIT};
use super::deck::{Effect, Symbol};
use super::fire;
use super::forces::{activation_distance, check_force, cost};
use super::march;
use super::modifiers::Modifier;
use super::orders::{ActionKind, Activation, CardChoice, Command, RoundOrders};
use super::rally::rally;
use super::reach::{Barriers, polygons};
use super::reactions::On;
use super::state::{Pending, Phase, State, Trace, TraceKind};
use super::units::{Arm, NEAR_ENEMY};
use super::volley;
use crate::dice::Dice;
use crate::event::Event;
use crate::geometry::bases_distance;
use crate::ruleset::Outcome;
use crate::side::SideId;

/// Resolve a round from the active side's orders.
pub fn resolve(
    state: &State,
    active: &SideId,
    orders: &RoundOrders,
    dice: &mut Dice,
) -> (State, Vec<Event>) {
    let mut s = state.clone();
    s.traces.clear();
    s.detail = Default::default();
    s.cards = Default::default();
    for u in s.units.iter_mut() {
        u.fired = false;
    }
    let mut ev = vec![Event::public(format!(
        "Round {}: {} is active",
        s.round,
        s.side_name(active)
    ))];
    let name = s.side_name(active);
    if orders.volleys.invoked() {
        volley::volley_phase(&mut s, active, orders, dice, &mut ev);
        if let Some(o) = s.outcome_by_morale() {
            ev.push(Event::public(format!(
                "{}: the battle is decided in the volley phase",
                o.reason
            )));
            s.phase = Phase::Over(o);
            return (s, ev);
        }
    }
    match &orders.command {
        Command::Pass => {
            let deck_was_empty = s.piles.draw.is_empty();
            let got = draw(&mut s, active, 3, dice, &mut ev);
            ev.push(Event::public(format!(
                "{name} passes and draws {}",
                crate::words::count(got as i64, "card", "cards")
            )));
            s.empty_deck_passes = if deck_was_empty {
                s.empty_deck_passes + 1
            } else {
                0
            };
        }
        Command::Event(card) => {
            s.empty_deck_passes = 0;
            play_event(&mut s, active, card, dice, &mut ev);
        }
        Command::March(a) | Command::Rally(a) | Command::Bombard(a) | Command::Charge(a) => {
            s.empty_deck_passes = 0;
            let kind = orders
                .command
                .action()
                .map(|(k, _)| k)
                .unwrap_or(ActionKind::March);
            let n = kind.draws();
            let before = s.army(active).map(|a| a.hand.len()).unwrap_or(0);
            let got = draw(&mut s, active, n, dice, &mut ev);
            ev.push(Event::public(format!(
                "{name} declares a {} and draws {}",
                kind.label(),
                crate::words::count(got as i64, "card", "cards")
            )));
            let drawn: Vec<String> = s
                .army(active)
                .map(|a| a.hand[before..].to_vec())
                .unwrap_or_default();
            if a.consult {
                ev.push(Event::public(format!(
                    "{name} is consulted: the round waits for the choice of force and cards"
                )));
                s.phase = Phase::Decision {
                    active: active.clone(),
                    pending: Box::new(Pending {
                        action: kind,
                        drawn,
                        orders: orders.clone(),
                        activation: None,
                    }),
                };
                return (s, ev);
            }
            carry_out(&mut s, active, kind, a, &orders.modify, dice, &mut ev);
        }
    }
    end_round(&mut s, active, orders, &mut ev);
    (s, ev)
}

/// Resume a paused round with the active side's decision.
pub fn resolve_decision(
    state: &State,
    active: &SideId,
    pending: &Pending,
    act: &Activation,
    dice: &mut Dice,
) -> (State, Vec<Event>) {
    let mut s = state.clone();
    s.traces.clear();
    s.detail = Default::default();
    let mut ev = vec![Event::public(format!(
        "Round {} resumes: {} has chosen",
        s.round,
        s.side_name(active)
    ))];
    s.phase = Phase::Round {
        active: active.clone(),
    };
    carry_out(
        &mut s,
        active,
        pending.action,
        act,
        &pending.orders.modify,
        dice,
        &mut ev,
    );
    end_round(&mut s, active, &pending.orders, &mut ev);
    (s, ev)
}

/// Draw up to `n` cards into `side`'s hand; returns how many came.
pub fn draw(s: &mut State, side: &SideId, n: usize, dice: &mut Dice, ev: &mut Vec<Event>) -> usize {
    let mut got = Vec::new();
    let deck = s.deck.clone();
    for _ in 0..n {
        let mut notes = Vec::new();
        let c = s.piles.draw(&deck, dice, &mut notes);
        for note in notes {
            ev.push(Event::public(match note {
                DrawNote::ReshuffledDiscards { card, recycled } => {
                    format!("{} drawn: {recycled} discards are shuffled back into the deck and the card leaves the game", s.card_name(&card))
                }
                DrawNote::ReshuffledItself { card } => {
                    format!("{} drawn: fewer than 15 discards, so it alone is shuffled back into the deck", s.card_name(&card))
                }
            }));
        }
        match c {
            Some(c) => got.push(c),
            None => break,
        }
    }
    if !got.is_empty() {
        let text = got
            .iter()
            .map(|c| s.card_name(c))
            .collect::<Vec<_>>()
            .join(", ");
        ev.push(Event::private(side, format!("You draw {text}")));
    }
    let count = got.len();
    if let Some(a) = s.army_mut(side) {
        a.hand.extend(got);
    }
    count
}

fn discard(s: &mut State, side: &SideId, cards: &[String]) {
    if let Some(a) = s.army_mut(side) {
        a.hand.retain(|h| !cards.contains(h));
    }
    s.piles.discard.extend(cards.iter().cloned());
}

fn play_event(s: &mut State, side: &SideId, card: &str, dice: &mut Dice, ev: &mut Vec<Event>) {
    let effect = s.deck.card(card).and_then(|c| c.event);
    let in_hand = s
        .army(side)
        .is_some_and(|a| a.hand.iter().any(|h| h == card));
    let (Some(effect), true) = (effect, in_hand) else {
        ev.push(Event::public(format!(
            "{} cannot play {card} as an event; the round ends",
            s.side_name(side)
        )));
        return;
    };
    ev.push(Event::public(format!(
        "{} plays {} as an event",
        s.side_name(side),
        s.card_name(card)
    )));
    discard(s, side, &[card.to_string()]);
    match effect {
        EventEffect::Draw(n) => {
            let got = draw(s, side, n as usize, dice, ev);
            ev.push(Event::public(format!(
                "{} draws {got} card(s)",
                s.side_name(side)
            )));
        }
        EventEffect::RallyAroundCinc => {
            let m = s.scenario.measure;
            let Some(c) = s.army(side).and_then(|a| a.cinc) else {
                return;
            };
            let mark = [cinc::marker(c)];
            // Both distances as chapter 1 measures them: round impassable ground.
            let barriers = Barriers::of(s);
            let enemy: Vec<_> = s.enemies(side).flat_map(|e| e.bases(&m)).collect();
            let lucky: Vec<String> = s
                .live_units(side)
                .filter(|u| u.disruption > 0)
                .filter(|u| barriers.within(&u.bases(&m), &mark, NEAR_ENEMY.get()))
                .filter(|u| !barriers.near_enemy(&polygons(&u.bases(&m)), &enemy))
                .map(|u| u.id.clone())
                .collect();
            for id in &lucky {
                if let Some(u) = s.unit_mut(id) {
                    u.disruption -= 1;
                }
            }
            let names: Vec<String> = lucky
                .iter()
                .filter_map(|id| s.unit(id).map(|u| u.short()))
                .collect();
            ev.push(Event::public(if names.is_empty() {
                "No unit near the CinC has DISR to lose".to_string()
            } else {
                format!("One DISR removed from {}", names.join(", "))
            }));
        }
    }
}

/// The risk of bluffing (chapter 4): a side that cannot pay for its declared
/// action discards its whole hand and the round ends.
fn bluff_fails(s: &mut State, side: &SideId, why: &str, ev: &mut Vec<Event>) {
    let hand = s.army(side).map(|a| a.hand.clone()).unwrap_or_default();
    discard(s, side, &hand);
    ev.push(Event::public(format!(
        "{} cannot activate ({why}) and discards all {} card(s) in hand; the round ends",
        s.side_name(side),
        hand.len()
    )));
}

fn carry_out(
    s: &mut State,
    side: &SideId,
    kind: ActionKind,
    a: &Activation,
    modify: &[String],
    dice: &mut Dice,
    ev: &mut Vec<Event>,
) {
    let name = s.side_name(side);
    let whose = crate::words::possessive(&name);
    let force_ids = a.force.clone();
    // Guns that fired in the volley phase may not be activated (chapter 7),
    // except for the March that only clears their smoke (chapters 4 and 6;
    // docs/rulesets/maurice-lite.md, "Smoke").
    if kind != ActionKind::March
        && let Some(u) = force_ids
            .iter()
            .filter_map(|id| s.unit(id))
            .find(|u| u.arm == Arm::Artillery && u.fired)
    {
        ev.push(Event::public(format!(
            "{whose} force includes {}, which fired in the volley phase and may not be activated but to march off its smoke; the round ends",
            u.short()
        )));
        return;
    }
    let (distance, units_text) = match check_force(s, side, &force_ids) {
        Ok(units) => {
            let text = units
                .iter()
                .map(|u| u.short())
                .collect::<Vec<_>>()
                .join(", ");
            (activation_distance(s, side, &units), text)
        }
        Err(v) => {
            ev.push(Event::public(format!(
                "{whose} force can no longer act together: {}; the round ends",
                v.message
            )));
            return;
        }
    };
    let Some(distance) = distance else {
        bluff_fails(
            s,
            side,
            "no path from the CinC keeps 1 BW from the enemy",
            ev,
        );
        return;
    };
    let need = cost(distance);
    // Cards kept to modify the action are not spent on activating it.
    let hand: Vec<String> = s
        .army(side)
        .map(|a| {
            a.hand
                .iter()
                .filter(|c| !modify.contains(c))
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    let cards = match &a.cards {
        Some(CardChoice::Listed(list))
            if list.iter().all(|c| hand.contains(c)) && total_span(s, list) >= need =>
        {
            Some(list.clone())
        }
        Some(CardChoice::Listed(_)) => None,
        Some(CardChoice::Policy(_)) | None => fewest(s, &hand, need),
    };
    let Some(cards) = cards else {
        bluff_fails(
            s,
            side,
            &format!(
                "the force is {distance:.1} BW from the CinC and the cards in hand do not reach {need} BW"
            ),
            ev,
        );
        return;
    };
    // The passive side's one interrupt of the round may come now (chapter 3).
    let passive = s.other(side);
    let mut extra = 0;
    match cardplay::passive_interrupt(s, &passive, on_action(kind), &force_ids, ev) {
        Some(Effect::AddActivationDistance(n)) => extra = n,
        Some(Effect::DifficultImpassable) => s.cards.difficult_impassable = true,
        _ => {}
    }
    let rest: Vec<String> = hand
        .iter()
        .filter(|c| !cards.contains(c))
        .cloned()
        .collect();
    let cards = match pay_after_interrupt(s, &cards, &rest, need, extra) {
        Payment::Paid(c) => c,
        Payment::Foiled { lost } => {
            let text = lost
                .iter()
                .map(|c| s.card_name(c))
                .collect::<Vec<_>>()
                .join(", ");
            discard(s, side, &lost);
            ev.push(Event::public(format!("{whose} activation is foiled: the force is out of reach, {text} lost; the round ends")));
            return;
        }
    };
    let spans = cards
        .iter()
        .map(|c| s.card_name(c))
        .collect::<Vec<_>>()
        .join(" + ");
    ev.push(Event::public(format!(
        "{name} activates {units_text} to {} with {spans}: total span {} against {distance:.1} BW from the CinC",
        kind.label(),
        total_span(s, &cards)
    )));
    discard(s, side, &cards);
    match kind {
        ActionKind::March => {
            if let Some(Effect::MarchDistance(n)) =
                cardplay::active_modifier(s, side, modify, Symbol::March, ev)
            {
                s.cards.march_bonus = n;
            }
            march_force(s, side, &force_ids, a, ev)
        }
        ActionKind::Rally => {
            if let Some(Effect::RallyDice(n)) =
                cardplay::active_modifier(s, side, modify, Symbol::Rally, ev)
            {
                s.cards.rally_bonus = n;
            }
            rally(s, &force_ids, dice, ev)
        }
        ActionKind::Bombard => {
            let mut guns = Vec::new();
            for id in &force_ids {
                match fire::can_bombard(s, id) {
                    Ok(()) => guns.push(id.clone()),
                    Err(why) => ev.push(Event::public(format!("{id} does not bombard: {why}"))),
                }
            }
            volley::bombard(s, side, &guns, a, modify, dice, ev);
        }
        ActionKind::Charge => charge_force(s, side, a, modify, dice, ev),
    }
}

fn march_force(
    s: &mut State,
    side: &SideId,
    force: &[String],
    a: &Activation,
    ev: &mut Vec<Event>,
) {
    // A gun with smoke marches only to clear it: it does not move this
    // round, whatever its orders say (its smoke may be this round's).
    let mut smoky = Vec::new();
    for id in force {
        if s.unit(id)
            .is_some_and(|u| u.arm == Arm::Artillery && u.smoke)
        {
            if let Some(u) = s.unit_mut(id) {
                u.smoke = false;
            }
            let short = s.unit(id).map(|u| u.short()).unwrap_or_default();
            ev.push(Event::public(format!(
                "{short} marches only to clear its smoke"
            )));
            smoky.push(id.clone());
        }
    }
    let mut near = march::Nearby::new(s, side);
    for mv in &a.moves {
        if smoky.contains(&mv.unit) {
            if !mv.steps.is_empty() {
                let short = s.unit(&mv.unit).map(|u| u.short()).unwrap_or_default();
                ev.push(Event::public(format!(
                    "{short} stays where it is: its March only clears its smoke [{}]",
                    march::rule::SMOKE
                )));
            }
            continue;
        }
        match march::plan_on(s, side, mv, &near) {
            Ok(p) => {
                march::apply(s, &p);
                near.moved(s, &p.unit);
                cinc::passed_over(s, side, &p.swept, ev);
                let short = s.unit(&p.unit).map(|u| u.short()).unwrap_or_default();
                let mut text = format!("{short} moves {:.1} BW", p.distance.get());
                if !p.notes.is_empty() {
                    text.push_str(&format!(" ({})", p.notes.join("; ")));
                }
                ev.push(Event::public(text));
                s.traces.push(Trace {
                    kind: TraceKind::Move,
                    unit: p.unit.clone(),
                    side: side.clone(),
                    points: p.trace.clone(),
                });
            }
            Err(v) => {
                ev.push(Event::public(format!(
                    "{} stays where it is: {} [{}]",
                    mv.unit, v.message, v.rule
                )));
            }
        }
    }
}

fn end_round(s: &mut State, active: &SideId, orders: &RoundOrders, ev: &mut Vec<Event>) {
    // Card effects last for the round only.
    s.cards = Default::default();
    let name = s.side_name(active);
    let whose = crate::words::possessive(&name);
    if let Some(mv) = &orders.cinc {
        let hand = s.army(active).map(|a| a.hand.clone()).unwrap_or_default();
        let card = mv
            .discard
            .clone()
            .filter(|c| hand.contains(c))
            .or_else(|| lowest(s, &hand));
        let from = s.army(active).and_then(|a| a.cinc);
        match (card, from) {
            (None, _) => ev.push(Event::public(format!(
                "{whose} CinC stays: no card left to discard for the move"
            ))),
            (_, None) => {}
            (Some(_), Some(f))
                if cinc::blocked(s, active, f, mv.to) || !cinc::on_table(s, mv.to) =>
            {
                ev.push(Event::public(format!("{whose} CinC stays: the way to ({:.1}, {:.1}) crosses the enemy or leaves the table", mv.to.x, mv.to.y)));
            }
            (Some(c), Some(_)) => {
                let label = s.card_name(&c);
                discard(s, active, &[c]);
                if let Some(a) = s.army_mut(active) {
                    a.cinc = Some(mv.to);
                }
                ev.push(Event::public(format!(
                    "{whose} CinC moves to ({:.1}, {:.1}), discarding {label}",
                    mv.to.x, mv.to.y
                )));
            }
        }
    }
    let sides: Vec<SideId> = s.armies.keys().cloned().collect();
    let moved_through = std::mem::take(&mut s.displaced);
    for side in &sides {
        let at = s.army(side).and_then(|a| a.cinc);
        let covered = at.is_some_and(|p| cinc::covered(s, p, None));
        if covered {
            cinc::displace(s, side, ev);
        }
        // One card (or a morale point) for a round in which he was
        // displaced, however many times.
        if covered || moved_through.contains(side) {
            let named = if side == active {
                orders.if_displaced_discard.clone()
            } else {
                None
            };
            cinc::pay_for_displacement(s, side, named.as_deref(), ev);
        }
    }
    for side in &sides {
        let named = if side == active {
            orders.discard.clone()
        } else {
            Vec::new()
        };
        while s.army(side).is_some_and(|a| a.hand.len() > HAND_LIMIT) {
            let hand = s.army(side).map(|a| a.hand.clone()).unwrap_or_default();
            let Some(c) = named
                .iter()
                .find(|c| hand.contains(c))
                .cloned()
                .or_else(|| lowest(s, &hand))
            else {
                break;
            };
            discard(s, side, std::slice::from_ref(&c));
            ev.push(Event::private(
                side,
                format!("Hand over ten: you discard {}", s.card_name(&c)),
            ));
            ev.push(Event::public(format!(
                "{} discards a card to keep ten in hand",
                s.side_name(side)
            )));
        }
    }
    if let Some(loser) = sides
        .iter()
        .find(|side| s.army(side).is_some_and(|a| a.morale <= 0))
    {
        let winner = s.other(loser);
        let reason = format!(
            "{} army morale is broken",
            crate::words::possessive(&s.side_name(loser))
        );
        ev.push(Event::public(format!(
            "{reason}: {} wins",
            s.side_name(&winner)
        )));
        s.phase = Phase::Over(Outcome {
            winner: Some(winner),
            reason,
        });
        return;
    }
    if s.empty_deck_passes >= 2 {
        ev.push(Event::public("The deck is empty and both sides have passed in turn: night falls and the battle is a draw"));
        s.phase = Phase::Over(Outcome {
            winner: None,
            reason: "nightfall".into(),
        });
        return;
    }
    let next = s.other(active);
    s.round += 1;
    ev.push(Event::public(format!(
        "Round {} goes to {}",
        s.round,
        s.side_name(&next)
    )));
    s.phase = Phase::Round { active: next };
}

/// The reaction trigger for an action.
fn on_action(kind: ActionKind) -> On {
    match kind {
        ActionKind::March => On::March,
        ActionKind::Rally => On::Rally,
        ActionKind::Bombard => On::Bombard,
        ActionKind::Charge => On::Charge,
    }
}

/// A Charge: the cards that bend the combat, then chapter 8 in full.
fn charge_force(
    s: &mut State,
    side: &SideId,
    a: &Activation,
    modify: &[String],
    dice: &mut Dice,
    ev: &mut Vec<Event>,
) {
    let passive = s.other(side);
    let attack = match cardplay::active_modifier(s, side, modify, Symbol::Charge, ev) {
        Some(Effect::AttackScore(n)) => vec![Modifier::new("card: attackers", n)],
        _ => Vec::new(),
    };
    // The units the charges threaten: named targets and whatever stands
    // directly ahead within a charge's reach.
    let m = s.scenario.measure;
    let mut threatened: Vec<String> = a.charges.iter().filter_map(|c| c.target.clone()).collect();
    for c in &a.charges {
        let Some(u) = s.unit(&c.unit).filter(|u| u.on_table()) else {
            continue;
        };
        let frame = crate::geometry::Frame::of(&u.bases(&m));
        for e in s.enemies(side) {
            let eb = e.bases(&m);
            if crate::geometry::any_part_directly_in_front(&frame, &eb)
                && bases_distance(&u.bases(&m), &eb).get() <= 4.0
            {
                threatened.push(e.id.clone());
            }
        }
    }
    let defence = match cardplay::passive_modifier(s, &passive, On::Charged, &threatened, ev) {
        Some((Effect::DefenderScore(n), Some(unit))) => {
            vec![(unit, Modifier::new("card: defender", n))]
        }
        _ => Vec::new(),
    };
    let req = charge::ChargeRequest {
        side,
        force: &a.force,
        charges: &a.charges,
        supports: &a.moves,
        attack,
        defence,
    };
    let report = charge::resolve(s, &req, dice, ev);
    s.detail.combat = Some(report);
}

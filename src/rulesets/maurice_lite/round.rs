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
use super::words::{self, What};
use crate::dice::Dice;
use crate::event::{Event, Facts, PLAYED};
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
    let mut ev = vec![words::event(
        What::RoundBegins,
        Facts {
            round: Some(s.round),
            ..words::side(&s, active)
        },
    )];
    if orders.volleys.invoked() {
        volley::volley_phase(&mut s, active, orders, dice, &mut ev);
        if let Some(o) = s.outcome_by_morale() {
            ev.push(words::event(
                What::DecidedInVolleys,
                Facts {
                    reason: Some(o.reason.clone()),
                    ..o.winner
                        .as_ref()
                        .map(|w| words::side(&s, w))
                        .unwrap_or_default()
                },
            ));
            s.phase = Phase::Over(o);
            return (s, ev);
        }
    }
    match orders.command() {
        Command::Pass => {
            let deck_was_empty = s.piles.draw.is_empty();
            let got = draw(&mut s, active, 3, dice, &mut ev);
            ev.push(words::event(
                What::Pass,
                Facts {
                    count: Some(got as u32),
                    ..words::side(&s, active)
                },
            ));
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
                .command()
                .action()
                .map(|(k, _)| k)
                .unwrap_or(ActionKind::March);
            let n = kind.draws();
            let before = s.army(active).map(|a| a.hand.len()).unwrap_or(0);
            let got = draw(&mut s, active, n, dice, &mut ev);
            ev.push(words::event(
                What::Declare,
                Facts {
                    count: Some(got as u32),
                    mode: Some(kind.label().to_string()),
                    ..words::side(&s, active)
                },
            ));
            let drawn: Vec<String> = s
                .army(active)
                .map(|a| a.hand[before..].to_vec())
                .unwrap_or_default();
            if a.consult {
                ev.push(words::event(What::Consulted, words::side(&s, active)));
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
    let mut ev = vec![words::event(
        What::RoundResumes,
        Facts {
            round: Some(s.round),
            ..words::side(&s, active)
        },
    )];
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
            ev.push(match note {
                DrawNote::ReshuffledDiscards { card, recycled } => words::event(
                    What::Reshuffled,
                    Facts {
                        cards: vec![s.card_name(&card)],
                        count: Some(recycled as u32),
                        ..Facts::default()
                    },
                ),
                DrawNote::ReshuffledItself { card } => words::event(
                    What::ReshuffledItself,
                    Facts {
                        cards: vec![s.card_name(&card)],
                        ..Facts::default()
                    },
                ),
            });
        }
        match c {
            Some(c) => got.push(c),
            None => break,
        }
    }
    if !got.is_empty() {
        let cards = got.iter().map(|c| s.card_name(c)).collect();
        ev.push(words::private(
            side,
            What::Draw,
            Facts {
                cards,
                count: Some(got.len() as u32),
                ..words::side(s, side)
            },
        ));
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
        ev.push(words::event(
            What::EventRefused,
            Facts {
                cards: vec![card.to_string()],
                ..words::side(s, side)
            },
        ));
        return;
    };
    ev.push(words::event(
        What::PlayEvent,
        Facts {
            cards: vec![s.card_name(card)],
            result: Some(PLAYED.into()),
            ..words::side(s, side)
        },
    ));
    discard(s, side, &[card.to_string()]);
    match effect {
        EventEffect::Draw(n) => {
            let got = draw(s, side, n as usize, dice, ev);
            ev.push(words::event(
                What::EventDraws,
                Facts {
                    count: Some(got as u32),
                    ..words::side(s, side)
                },
            ));
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
            let units = lucky
                .iter()
                .filter_map(|id| s.unit(id).map(words::unit))
                .collect();
            ev.push(words::event(
                What::RallyAroundCinc,
                Facts {
                    units,
                    ..words::side(s, side)
                },
            ));
        }
    }
}

/// The risk of bluffing (chapter 4): a side that cannot pay for its declared
/// action discards its whole hand and the round ends.
fn bluff_fails(s: &mut State, side: &SideId, why: &str, ev: &mut Vec<Event>) {
    let hand = s.army(side).map(|a| a.hand.clone()).unwrap_or_default();
    discard(s, side, &hand);
    ev.push(words::event(
        What::Bluff,
        Facts {
            reason: Some(why.to_string()),
            count: Some(hand.len() as u32),
            ..words::side(s, side)
        },
    ));
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
        ev.push(words::event(
            What::GunsFired,
            Facts {
                unit: Some(words::unit(u)),
                ..words::side(s, side)
            },
        ));
        return;
    }
    let (distance, force_units) = match check_force(s, side, &force_ids) {
        Ok(units) => {
            let refs: Vec<_> = units.iter().map(|u| words::unit(u)).collect();
            (activation_distance(s, side, &units), refs)
        }
        Err(v) => {
            ev.push(words::event(
                What::ForceSplit,
                Facts {
                    reason: Some(v.message.clone()),
                    rule: Some(v.rule.to_string()),
                    ..words::side(s, side)
                },
            ));
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
            let cards = lost.iter().map(|c| s.card_name(c)).collect();
            discard(s, side, &lost);
            ev.push(words::event(
                What::Foiled,
                Facts {
                    cards,
                    ..words::side(s, side)
                },
            ));
            return;
        }
    };
    ev.push(words::event(
        What::Activate,
        Facts {
            units: force_units,
            mode: Some(kind.label().to_string()),
            cards: cards.iter().map(|c| s.card_name(c)).collect(),
            count: Some(total_span(s, &cards)),
            distance: Some(distance),
            result: Some(PLAYED.into()),
            ..words::side(s, side)
        },
    ));
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
                    Err(why) => ev.push(words::event(
                        What::NoBombard,
                        Facts {
                            unit: Some(words::unit_id(s, id)),
                            reason: Some(why.to_string()),
                            ..words::side(s, side)
                        },
                    )),
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
            ev.push(words::event(
                What::ClearSmoke,
                Facts {
                    unit: Some(words::unit_id(s, id)),
                    ..words::side(s, side)
                },
            ));
            smoky.push(id.clone());
        }
    }
    let mut near = march::Nearby::new(s, side);
    for mv in &a.moves {
        if smoky.contains(&mv.unit) {
            if !mv.steps.is_empty() {
                ev.push(words::event(
                    What::Stays,
                    Facts {
                        unit: Some(words::unit_id(s, &mv.unit)),
                        reason: Some("its March only clears its smoke".into()),
                        rule: Some(march::rule::SMOKE.to_string()),
                        ..words::side(s, side)
                    },
                ));
            }
            continue;
        }
        match march::plan_on(s, side, mv, &near) {
            Ok(p) => {
                march::apply(s, &p);
                near.moved(s, &p.unit);
                cinc::passed_over(s, side, &p.swept, ev);
                ev.push(words::event(
                    What::March,
                    Facts {
                        unit: Some(words::unit_id(s, &p.unit)),
                        distance: Some(p.distance.get()),
                        notes: p.notes.clone(),
                        from: p.trace.first().copied(),
                        to: p.trace.last().copied(),
                        ..words::side(s, side)
                    },
                ));
                s.traces.push(Trace {
                    kind: TraceKind::Move,
                    unit: p.unit.clone(),
                    side: side.clone(),
                    points: p.trace.clone(),
                });
            }
            Err(v) => {
                ev.push(words::event(
                    What::Stays,
                    Facts {
                        unit: Some(words::unit_id(s, &mv.unit)),
                        reason: Some(v.message.clone()),
                        rule: Some(v.rule.to_string()),
                        ..words::side(s, side)
                    },
                ));
            }
        }
    }
}

fn end_round(s: &mut State, active: &SideId, orders: &RoundOrders, ev: &mut Vec<Event>) {
    // Card effects last for the round only.
    s.cards = Default::default();
    if let Some(mv) = &orders.cinc {
        let hand = s.army(active).map(|a| a.hand.clone()).unwrap_or_default();
        let card = mv
            .discard
            .clone()
            .filter(|c| hand.contains(c))
            .or_else(|| lowest(s, &hand));
        let from = s.army(active).and_then(|a| a.cinc);
        match (card, from) {
            (None, _) => ev.push(words::event(What::CincStays, words::side(s, active))),
            (_, None) => {}
            (Some(_), Some(f))
                if cinc::blocked(s, active, f, mv.to) || !cinc::on_table(s, mv.to) =>
            {
                ev.push(words::event(
                    What::CincBlocked,
                    Facts {
                        to: Some(mv.to),
                        ..words::side(s, active)
                    },
                ));
            }
            (Some(c), Some(_)) => {
                let label = s.card_name(&c);
                discard(s, active, &[c]);
                if let Some(a) = s.army_mut(active) {
                    a.cinc = Some(mv.to);
                }
                ev.push(words::event(
                    What::CincMoves,
                    Facts {
                        from,
                        to: Some(mv.to),
                        cards: vec![label],
                        ..words::side(s, active)
                    },
                ));
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
            ev.push(words::private(
                side,
                What::HandOverTen,
                Facts {
                    cards: vec![s.card_name(&c)],
                    ..words::side(s, side)
                },
            ));
            ev.push(words::event(What::DiscardToTen, words::side(s, side)));
        }
    }
    if let Some(loser) = sides
        .iter()
        .find(|side| s.army(side).is_some_and(|a| a.morale <= 0))
    {
        let winner = s.other(loser);
        let reason = format!(
            "the army morale of {} is broken",
            crate::words::subject(&s.side_name(loser))
        );
        ev.push(words::event(
            What::MoraleBroken,
            Facts {
                reason: Some(reason.clone()),
                ..words::side(s, &winner)
            },
        ));
        s.phase = Phase::Over(Outcome {
            winner: Some(winner),
            reason,
        });
        return;
    }
    if s.empty_deck_passes >= 2 {
        ev.push(words::event(What::Nightfall, Facts::default()));
        s.phase = Phase::Over(Outcome {
            winner: None,
            reason: "nightfall".into(),
        });
        return;
    }
    let next = s.other(active);
    s.round += 1;
    ev.push(words::event(
        What::RoundGoesTo,
        Facts {
            round: Some(s.round),
            ..words::side(s, &next)
        },
    ));
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
    let lay = super::layouts::Layouts::of(s);
    for c in &a.charges {
        let Some(u) = s.unit(&c.unit).filter(|u| u.on_table()) else {
            continue;
        };
        let ub = u.bases(&m);
        let ubox = super::prune::group_box(&ub);
        let frame = crate::geometry::Frame::of(&ub);
        // Both tests are pure: the cheap distance (boxes first) goes first.
        for (i, e) in s.units.iter().enumerate() {
            if &e.side == side || !e.on_table() {
                continue;
            }
            let (eb, ebox) = (lay.bases(i), lay.bounds(i));
            if super::prune::within_boxed(&ub, ubox, eb, ebox, 4.0)
                && crate::geometry::any_part_directly_in_front(&frame, eb)
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

//! One side's half-turn: each listed company (or formed regiment) moves and
//! fights in order (A.5); then the companies not listed that must fight
//! (B.6) do so, in scenario order.

use super::burning;
use super::charge::{self, enemy_in_range};
use super::command;
use super::engineers;
use super::general_orders;
use super::movement::{Moved, carry_out};
use super::orders::{Action, Sequence, TurnOrders};
use super::outcome;
use super::setup::dice_off;
use super::shooting;
use super::state::{Breach, Phase, State, Trace};
use super::units::TroopType;
use super::words::{self, What};
use crate::dice::Dice;
use crate::event::{Event, Facts};
use crate::side::SideId;

/// Resolve `active`'s half-turn of turn `turn`.
pub fn resolve(
    s: &State,
    turn: u32,
    active: &SideId,
    orders: &TurnOrders,
    dice: &mut Dice,
) -> (State, Vec<Event>) {
    let mut next = s.clone();
    next.file_companies();
    next.traces.clear();
    next.initiated.clear();
    let mut events = Vec::new();
    // C.4: a company that halted in the water last turn moves normally now.
    // E.6: whether it stands still is judged on this half-turn's moves.
    for c in next.companies.iter_mut().filter(|c| &c.side == active) {
        c.halted_in_water = false;
        c.moved = false;
    }
    // E.3, E.4: routs, morale tests and rallying come first.
    command::start_of_half_turn(&mut next, active, dice, &mut events);
    let evicted = burning::leave(&mut next, active, &mut events);
    // E.1: the side's choice of how its regiments share hits stands from now.
    next.set_hit_shares(&orders.hits);
    // E.2, E.4, E.5: generals ride before any company acts.
    general_orders::ride(&mut next, active, &orders.generals, &mut events);
    for m in &orders.fire_mines {
        fire_mine(&mut next, m, &mut events);
    }
    let mut acted = std::collections::BTreeSet::new();
    for a in &orders.actions {
        let members = members(&next, active, a);
        if members.is_empty() {
            events.push(words::event(What::NothingLeft, words::actor(&a.actor())));
        }
        // E.1-E.3: formed regiments, command dice and morale shape the order.
        for (id, a) in command::plan(&mut next, active, a, &members, dice, &mut events) {
            acted.insert(id.clone());
            act(&mut next, &id, &a, evicted.contains(&id), dice, &mut events);
        }
    }
    // B.6: a company not listed that is within 3" of an enemy must attack.
    let idle: Vec<String> = next
        .live(active)
        .filter(|c| !acted.contains(&c.id))
        .map(|c| c.id.clone())
        .collect();
    for id in idle {
        charge::forced(&mut next, &id, None, dice, &mut events, apply_move);
    }
    // E.2, E.5: attached generals are recorded where their companies are.
    for name in next.follow_companies() {
        let general = next
            .generals
            .iter()
            .find(|g| g.name == name)
            .map(words::general)
            .unwrap_or_else(|| crate::event::UnitRef {
                id: name.clone(),
                name: name.clone(),
                side: crate::side::SideId(String::new()),
            });
        let facts = Facts {
            side: Some(general.side.clone()).filter(|s| !s.0.is_empty()),
            target: Some(general),
            ..Facts::default()
        };
        events.push(words::event(What::GeneralAlone, facts));
    }
    // The half-turn is over: the other side, or a new turn.
    let (after, new_turn) = next.after(active);
    if !new_turn {
        next.phase = Phase::HalfTurn {
            turn,
            active: after,
        };
    } else if turn >= s.scenario.turns {
        let o = outcome::at_time_limit(&next);
        events.push(words::event(
            What::TimeUp,
            Facts {
                round: Some(turn),
                reason: Some(o.reason.clone()),
                ..o.winner
                    .as_ref()
                    .map(|w| words::side(&next, w))
                    .unwrap_or_default()
            },
        ));
        next.phase = Phase::Over(o);
    } else {
        let mut first = after;
        if s.scenario.options.dice_each_turn {
            let choices = next.if_winner.clone();
            first = dice_off(&next, &choices, dice, &mut events);
            next.first = Some(first.clone());
        }
        next.phase = Phase::HalfTurn {
            turn: turn + 1,
            active: first,
        };
    }
    if let Some(o) = outcome::by_losses(&next)
        && !matches!(next.phase, Phase::Over(_))
    {
        events.push(words::event(
            What::Decided,
            Facts {
                reason: Some(o.reason.clone()),
                ..o.winner
                    .as_ref()
                    .map(|w| words::side(&next, w))
                    .unwrap_or_default()
            },
        ));
        next.phase = Phase::Over(o);
    }
    (next, events)
}

/// The live companies an action commands.
fn members(s: &State, side: &SideId, a: &Action) -> Vec<String> {
    match (&a.company, &a.regiment) {
        (Some(c), _) => vec![c.clone()],
        (None, Some(r)) => s.regiment(side, r).unwrap_or_default(),
        (None, None) => Vec::new(),
    }
}

/// One company's part: shooting, movement and melee in the ordered sequence.
/// `evicted` companies used their move leaving a burning town (C.5).
fn act(
    s: &mut State,
    id: &str,
    a: &Action,
    evicted: bool,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) {
    let Some(c) = s.company(id).cloned() else {
        return;
    };
    if !c.on_table() {
        events.push(words::event(What::DestroyedBefore, words::of(s, &c)));
        return;
    }
    // B.6: starting within 3" of an enemy, it must attack; no shooting.
    if enemy_in_range(s, &c, None).is_some() {
        let a = (!evicted).then_some(a);
        charge::forced(s, id, a, dice, events, apply_move);
        return;
    }
    if a.sequence == Sequence::ShootThenMove || a.sequence == Sequence::ShootOnly {
        shooting::shoot(s, id, a, dice, events);
    }
    let may_move = a.sequence.moves() && !evicted;
    if evicted && a.sequence.moves() && (!a.path.is_empty() || a.charge.is_some()) {
        events.push(words::event(What::LeftBurningTown, words::of(s, &c)));
    }
    let mut moved: Option<Moved> = None;
    if may_move && a.charge.is_some() && c.profile.troop.may_charge() {
        let before = s.initiated.len();
        moved = charge::charge(s, id, a, dice, events, apply_move);
        if s.initiated.len() > before {
            // B.6: once its melee is fought it may not move or shoot again.
            return;
        }
    } else if may_move && !a.path.is_empty() {
        let charging = a.breach.is_some() && c.profile.troop == TroopType::Engineers;
        let m = carry_out(s, &c, a, charging);
        apply_move(s, &c.id, &m, events);
        moved = Some(m);
    }
    // C.6: engineers blow the breach; a heavy gun's `breach` is its shooting.
    if let Some(w) = &a.breach
        && c.profile.troop == TroopType::Engineers
        && s.scenario.options.engineering
    {
        engineers::blow(s, id, w, dice, events);
        return;
    }
    if let Some(b) = &a.demolish
        && s.scenario.options.engineering
    {
        engineers::demolish(s, id, b, dice, events);
        return;
    }
    if a.sequence == Sequence::MoveThenShoot {
        let road_gun =
            c.profile.troop == TroopType::Artillery && moved.as_ref().is_some_and(|m| m.road_move);
        let early =
            c.profile.no_move_and_shoot && moved.as_ref().is_some_and(|m| m.travelled > 0.0);
        if road_gun {
            events.push(words::event(
                What::RoadNoShoot,
                Facts {
                    rule: Some("B.2".into()),
                    ..words::of(s, &c)
                },
            ));
        } else if early {
            events.push(words::event(
                What::EarlyArtillery,
                Facts {
                    rule: Some("E.7f".into()),
                    ..words::of(s, &c)
                },
            ));
        } else {
            shooting::shoot(s, id, a, dice, events);
        }
    }
}

fn apply_move(s: &mut State, id: &str, m: &Moved, events: &mut Vec<Event>) {
    let Some(c) = s.company_mut(id) else {
        return;
    };
    c.at = m.at;
    c.facing = m.facing;
    c.halted_in_water = m.in_water;
    if m.travelled > 0.0 {
        c.moved = true;
    }
    let side = c.side.clone();
    let me = c.clone();
    events.push(words::event(
        What::Moves,
        Facts {
            distance: Some(m.travelled),
            from: m.points.first().copied(),
            to: Some(m.at),
            facing: Some(m.facing.degrees()),
            mode: m.road_move.then(|| "road".to_string()),
            reason: m.stopped.clone(),
            ..words::of(s, &me)
        },
    ));
    for t in &m.trampled {
        if s.trampled.insert(t.clone()) {
            events.push(words::event(
                What::Tramples,
                Facts {
                    place: Some(t.clone()),
                    ..words::of(s, &me)
                },
            ));
        }
    }
    s.traces.push(Trace {
        company: id.to_string(),
        side,
        points: m.points.clone(),
    });
}

/// C.6: a mine laid before the game blows a breach where it lies.
fn fire_mine(s: &mut State, id: &str, events: &mut Vec<Event>) {
    let Some(mine) = s.scenario.mines.iter().find(|m| m.id == id).cloned() else {
        return;
    };
    if !s.mines_fired.insert(mine.id.clone()) {
        return;
    }
    let wall = s
        .scenario
        .terrain(&mine.wall)
        .map(|t| t.name.clone())
        .unwrap_or_else(|| mine.wall.clone());
    s.breaches.push(Breach {
        wall: mine.wall.clone(),
        at: mine.at,
        cause: format!("mine {}", mine.id),
    });
    events.push(words::event(
        What::MineExplodes,
        Facts {
            notes: vec![mine.id.clone()],
            place: Some(wall.to_string()),
            ..Facts::default()
        },
    ));
}

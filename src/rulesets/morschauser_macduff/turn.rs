//! One side's half-turn: each listed company (or formed regiment) moves and
//! fights in order (A.5). Movement and shooting are carried out; melee is
//! reported as resolved in later work.

use super::command;
use super::movement::{Moved, carry_out};
use super::orders::{Action, Sequence, TurnOrders};
use super::outcome;
use super::setup::dice_off;
use super::shooting;
use super::state::{Breach, Phase, State, Trace};
use super::units::TroopType;
use crate::dice::Dice;
use crate::event::Event;
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
    next.traces.clear();
    let mut events = Vec::new();
    // C.4: a company that halted in the water last turn moves normally now.
    for c in next.companies.iter_mut().filter(|c| &c.side == active) {
        c.halted_in_water = false;
    }
    // E.3, E.4: routs, morale tests and rallying come first.
    command::start_of_half_turn(&mut next, active, dice, &mut events);
    for m in &orders.fire_mines {
        fire_mine(&mut next, m, &mut events);
    }
    for a in &orders.actions {
        let members = members(&next, active, a);
        if members.is_empty() {
            events.push(Event::public(format!(
                "{} has no company left on the table: nothing happens",
                a.actor()
            )));
        }
        // E.1-E.3: formed regiments, command dice and morale shape the order.
        for (id, a) in command::plan(&mut next, active, a, &members, dice, &mut events) {
            act(&mut next, &id, &a, dice, &mut events);
        }
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
        events.push(Event::public(format!(
            "Time is up after turn {turn}: {}",
            o.reason
        )));
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
        events.push(Event::public(o.reason.clone()));
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
fn act(s: &mut State, id: &str, a: &Action, dice: &mut Dice, events: &mut Vec<Event>) {
    let Some(c) = s.company(id).cloned() else {
        return;
    };
    if !c.on_table() {
        events.push(Event::public(format!(
            "{} was destroyed before it could act",
            c.short()
        )));
        return;
    }
    if a.sequence == Sequence::ShootThenMove || a.sequence == Sequence::ShootOnly {
        shooting::shoot(s, id, a, dice, events);
    }
    let mut moved: Option<Moved> = None;
    if a.sequence.moves() && !a.path.is_empty() {
        let charging = a.charge.is_some() && c.profile.troop.may_charge();
        let m = carry_out(s, &c, a, charging);
        apply_move(s, &c.id, &m, events);
        moved = Some(m);
    }
    if a.sequence == Sequence::MoveThenShoot {
        let road_gun =
            c.profile.troop == TroopType::Artillery && moved.as_ref().is_some_and(|m| m.road_move);
        let early =
            c.profile.no_move_and_shoot && moved.as_ref().is_some_and(|m| m.travelled > 0.0);
        if road_gun {
            events.push(Event::public(format!(
                "{} made a road move and cannot shoot (B.2)",
                c.short()
            )));
        } else if early {
            events.push(Event::public(format!(
                "{} is early artillery and cannot move and shoot in one turn (E.7f)",
                c.short()
            )));
        } else {
            shooting::shoot(s, id, a, dice, events);
        }
    }
    if let Some(ch) = &a.charge {
        events.push(Event::public(format!(
            "{} charges {}{}: melee is resolved in later work",
            c.short(),
            ch.target,
            if ch.flank { " claiming the flank" } else { "" }
        )));
    } else if a.sequence == Sequence::MeleeThenMove {
        events.push(Event::public(format!(
            "{} fights the melee it must: melee is resolved in later work",
            c.short()
        )));
    }
}

fn apply_move(s: &mut State, id: &str, m: &Moved, events: &mut Vec<Event>) {
    let Some(c) = s.company_mut(id) else {
        return;
    };
    c.at = m.at;
    c.facing = m.facing;
    c.halted_in_water = m.in_water;
    let (name, side) = (c.short(), c.side.clone());
    let mut text = format!(
        "{name} moves {:.1} in to ({:.1}, {:.1}) facing {:.0}{}",
        m.travelled,
        m.at.x,
        m.at.y,
        m.facing.degrees(),
        if m.road_move { " along the road" } else { "" }
    );
    if let Some(why) = &m.stopped {
        text.push_str(&format!(", and stops: {why}"));
    }
    events.push(Event::public(text));
    for t in &m.trampled {
        if s.trampled.insert(t.clone()) {
            events.push(Event::public(format!(
                "{name} tramples the corn of {t} (C.7)"
            )));
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
    events.push(Event::public(format!(
        "The mine {} explodes and breaches {wall} (C.6)",
        mine.id
    )));
}

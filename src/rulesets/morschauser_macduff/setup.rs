//! The deployment step and the dice-off for who moves first (A.5).

use super::orders::{Deployment, FirstChoice};
use super::state::{Phase, State};
use super::words::{self, What};
use crate::dice::Dice;
use crate::event::{Event, Facts};
use crate::side::{BySide, SideId};

/// House rule: after this many tied rolls the first side of the scenario
/// wins the dice-off, so that a step always ends.
pub const MAX_DICE_OFF: usize = 50;

/// Apply both deployments, then dice off; the first half-turn opens.
pub fn resolve(s: &State, orders: &BySide<Deployment>, dice: &mut Dice) -> (State, Vec<Event>) {
    let mut next = s.clone();
    let mut events = Vec::new();
    for (side, d) in orders {
        for p in &d.companies {
            if let Some(c) = next.company_mut(&p.company) {
                c.at = p.at;
                if let Some(f) = p.facing {
                    c.facing = f;
                }
            }
        }
        for g in &d.generals {
            let joined = g.attach.as_ref().and_then(|a| s.company(a).map(|c| c.at));
            if let Some(x) = next.generals.iter_mut().find(|x| x.id == g.general) {
                if let Some(at) = joined.or(g.at) {
                    x.at = at;
                }
                x.attached = g.attach.clone();
            }
        }
        next.set_hit_shares(&d.hits);
        if !d.companies.is_empty() || !d.generals.is_empty() {
            events.push(words::event(What::Deploys, words::side(s, side)));
        }
    }
    let choices: BySide<FirstChoice> = s
        .scenario
        .sides
        .iter()
        .map(|x| {
            (
                x.id.clone(),
                orders.get(&x.id).map(|d| d.if_winner).unwrap_or_default(),
            )
        })
        .collect();
    next.if_winner = choices.clone();
    let first = dice_off(&next, &choices, dice, &mut events);
    next.first = Some(first.clone());
    next.phase = Phase::HalfTurn {
        turn: 1,
        active: first,
    };
    (next, events)
}

/// Each side rolls a die, ties rolled again; the higher chooses to move
/// first or second. Returns the side that moves first.
pub fn dice_off(
    s: &State,
    choices: &BySide<FirstChoice>,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> SideId {
    let a = s.scenario.sides[0].id.clone();
    let b = s.scenario.sides[1].id.clone();
    let mut winner = a.clone();
    for _ in 0..MAX_DICE_OFF {
        let ra = dice.d6(format!("dice-off for first move: {}", s.side_name(&a)));
        let ia = dice.last_index().unwrap_or(0);
        let rb = dice.d6(format!("dice-off for first move: {}", s.side_name(&b)));
        let ib = dice.last_index().unwrap_or(0);
        if ra == rb {
            let facts = Facts {
                rolls: vec![ra, rb],
                ..Facts::default()
            };
            events.push(words::event(What::DiceOffTie, facts).with_dice([ia, ib]));
            continue;
        }
        winner = if ra > rb { a.clone() } else { b.clone() };
        let facts = Facts {
            rolls: vec![ra, rb],
            notes: vec![s.side_name(&a), s.side_name(&b)],
            ..words::side(s, &winner)
        };
        events.push(words::event(What::DiceOff, facts).with_dice([ia, ib]));
        break;
    }
    let choice = choices.get(&winner).copied().unwrap_or_default();
    let first = match choice {
        FirstChoice::First => winner.clone(),
        FirstChoice::Second => s.other(&winner),
    };
    let facts = Facts {
        mode: Some(
            if choice == FirstChoice::First {
                "first"
            } else {
                "second"
            }
            .into(),
        ),
        notes: vec![
            s.side_name(&first),
            if s.scenario.options.dice_each_turn {
                " this turn"
            } else {
                " for the whole game"
            }
            .into(),
        ],
        ..words::side(s, &winner)
    };
    events.push(words::event(What::ChoosesOrder, facts));
    first
}

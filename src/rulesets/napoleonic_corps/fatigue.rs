//! Winning and losing: corps fatigue chips, the army dish, army morale with
//! terrain objectives, and defeat.

use super::roll::d6;
use super::state::{Phase, State};
use super::words::{Said, event};
use crate::dice::Dice;
use crate::event::{Event, Facts};
use crate::ruleset::Outcome;
use crate::side::SideId;

/// Units within this distance of an objective hold it, if no enemy is
/// (house rule: the source does not say how an objective is controlled).
pub const HOLD: f64 = 10.0;

/// Corps fatigue: 1 chip a regiment (house rule: every cavalry unit and
/// battery counts as one), 1 a divisional general, and for each general a
/// D6 that adds a chip on each 6 and rolls again after it.
pub fn roll_chips(s: &mut State, dice: &mut Dice) -> Vec<Event> {
    let mut out = Vec::new();
    for c in 0..s.corps.len() {
        let id = s.corps[c].id.clone();
        let regiments = s.units.iter().filter(|u| u.corps == id).count() as u32;
        let generals: Vec<String> = s
            .generals
            .iter()
            .filter(|g| g.corps == id)
            .map(|g| g.name.clone())
            .collect();
        let mut sixes = 0;
        let mut idx = Vec::new();
        for g in &generals {
            loop {
                let (v, i) = d6(
                    dice,
                    &format!(
                        "{}: corps fatigue die for {g}, a 6 adds a chip and rolls again",
                        s.corps[c].name
                    ),
                );
                idx.push(i);
                if v != 6 {
                    break;
                }
                sixes += 1;
            }
        }
        let chips = regiments + generals.len() as u32 + sixes;
        s.corps[c].chips = chips;
        s.corps[c].start_chips = chips;
        out.push(event(
            Said::Chips,
            Facts {
                side: Some(s.corps[c].side.clone()),
                reason: Some(s.corps[c].name.clone()),
                count: Some(regiments + generals.len() as u32),
                hits: Some(sixes),
                after: Some(chips as i64),
                ..Facts::default()
            },
            idx,
        ));
    }
    out
}

/// `n` chips lost by unit `u`'s corps: out of its dish (not below empty)
/// and into its army's dish.
pub fn lose(s: &mut State, u: usize, n: u32, why: &str) -> Event {
    let side = s.units[u].side.clone();
    let corps = s.units[u].corps.clone();
    let left = match s.corps.iter_mut().find(|c| c.id == corps) {
        Some(c) => {
            c.chips = c.chips.saturating_sub(n);
            c.chips
        }
        None => 0,
    };
    let dish = s.dish.entry(side.clone()).or_insert(0);
    *dish += n;
    event(
        Said::ChipsLost,
        Facts {
            side: Some(side),
            unit: Some(s.units[u].refer()),
            reason: Some(format!("{} ({})", why, s.units[u].name)),
            count: Some(n),
            after: Some(left as i64),
            before: Some(*dish as i64),
            ..Facts::default()
        },
        Vec::new(),
    )
}

/// Whether the unit's corps has no chips left.
pub fn spent(s: &State, corps: &str) -> bool {
    s.corps_of(corps).is_some_and(|c| c.chips == 0)
}

/// Army morale: the corps' starting chips, +2 for each objective held,
/// -2 for each one this side held at the start and the enemy holds now.
pub fn army_morale(s: &State, side: &SideId) -> i64 {
    let base: i64 = s
        .corps
        .iter()
        .filter(|c| &c.side == side)
        .map(|c| c.start_chips as i64)
        .sum();
    let mut m = base;
    for (id, holder) in &s.holders {
        let original = s
            .scenario
            .objectives
            .iter()
            .find(|o| &o.id == id)
            .and_then(|o| o.held_by.clone());
        match holder {
            Some(h) if h == side => m += 2,
            Some(_) if original.as_ref() == Some(side) => m -= 2,
            _ => {}
        }
    }
    m
}

/// Objectives change hands when one side alone is within [`HOLD`].
pub fn update_objectives(s: &mut State) -> Vec<Event> {
    let mut out = Vec::new();
    for i in 0..s.holders.len() {
        let Some(o) = s
            .scenario
            .objectives
            .iter()
            .find(|o| o.id == s.holders[i].0)
        else {
            continue;
        };
        let near: std::collections::BTreeSet<SideId> = s
            .units
            .iter()
            .filter(|u| u.live())
            .filter(|u| {
                crate::geometry::within_radius(o.at, &s.bases(u), crate::geometry::Distance(HOLD))
            })
            .map(|u| u.side.clone())
            .collect();
        if near.len() == 1 {
            let side = near.into_iter().next();
            if side != s.holders[i].1 {
                s.holders[i].1 = side.clone();
                out.push(event(
                    Said::Objective,
                    Facts {
                        side,
                        reason: Some(o.name.clone()),
                        ..Facts::default()
                    },
                    Vec::new(),
                ));
            }
        }
    }
    out
}

/// Defeat: a side whose dish holds as many chips as its army morale. When
/// both break at once, the one further past its morale loses (a draw if
/// equal) — house rule, the source is silent.
pub fn verdict(s: &State) -> Option<Outcome> {
    let over: Vec<(SideId, i64)> = s
        .scenario
        .sides
        .iter()
        .map(|x| {
            let lost = s.dish.get(&x.id).copied().unwrap_or(0) as i64;
            (x.id.clone(), lost - army_morale(s, &x.id))
        })
        .collect();
    let broken: Vec<&(SideId, i64)> = over.iter().filter(|(_, d)| *d >= 0).collect();
    match broken.as_slice() {
        [] => None,
        [(loser, _)] => Some(Outcome {
            winner: Some(s.other(loser)),
            reason: format!(
                "the army morale of {} is broken: the dish holds {} chips of an army morale of {}",
                crate::words::subject(&s.side_name(loser)),
                s.dish.get(loser).copied().unwrap_or(0),
                army_morale(s, loser)
            ),
        }),
        [(a, da), (b, db)] => {
            let winner = match da.cmp(db) {
                std::cmp::Ordering::Greater => Some(b.clone()),
                std::cmp::Ordering::Less => Some(a.clone()),
                std::cmp::Ordering::Equal => None,
            };
            Some(Outcome {
                winner,
                reason: "the army morale of both sides broke in the same turn".into(),
            })
        }
        _ => None,
    }
}

/// House rule: at the turn limit, the side that lost the smaller share of
/// its army morale wins; equal shares draw.
pub fn at_time(s: &State) -> Outcome {
    let share = |side: &SideId| {
        let lost = s.dish.get(side).copied().unwrap_or(0) as f64;
        lost / army_morale(s, side).max(1) as f64
    };
    let [a, b] = [&s.scenario.sides[0].id, &s.scenario.sides[1].id];
    let winner = match share(a).total_cmp(&share(b)) {
        std::cmp::Ordering::Less => Some(a.clone()),
        std::cmp::Ordering::Greater => Some(b.clone()),
        std::cmp::Ordering::Equal => None,
    };
    Outcome {
        winner,
        reason: "the last turn is played: the army that lost the smaller share of its morale wins"
            .into(),
    }
}

/// Whether the game is over now; sets the phase if so.
pub fn settle(s: &mut State) -> Option<Event> {
    let o = verdict(s)?;
    s.phase = Phase::Over(o.clone());
    Some(event(
        Said::Outcome,
        Facts {
            side: o.winner.clone(),
            reason: Some(o.reason.clone()),
            ..Facts::default()
        },
        Vec::new(),
    ))
}

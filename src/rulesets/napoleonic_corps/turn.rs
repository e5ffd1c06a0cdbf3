//! One side's whole turn, phase by phase: rally, movement (with the other
//! side's withdrawals and contact checks), defensive fire, charge,
//! advancing fire, melee; then objectives and army morale.

use super::contact::{may_withdraw, withdraw_one};
use super::orders::{Decision, TurnOrders};
use super::state::{Pending, Phase, State};
use super::words::{Said, event};
use super::{charge, fatigue, fire_phases, melee, movement, rally};
use crate::dice::Dice;
use crate::event::{Event, Facts};
use crate::side::SideId;

/// House rule: a corps commander rides at most this far a turn (cm).
pub const COMMANDER_RIDE: f64 = 60.0;

fn engaged(s: &State) -> Vec<String> {
    let contacts = s.all_contacts();
    s.units
        .iter()
        .zip(&contacts)
        .filter(|(u, c)| u.live() && !c.is_empty())
        .map(|(u, _)| u.id.clone())
        .collect()
}

/// One side's whole turn, unless the other side asked to be consulted: then
/// the turn pauses after the movement phase (the cavalry it set off kept
/// for the decision) and [`resume`] finishes it.
pub fn resolve(
    s: &State,
    turn: u32,
    phasing: &SideId,
    o: &TurnOrders,
    dice: &mut Dice,
) -> (State, Vec<Event>) {
    let mut s = s.clone();
    // Where the units stand, filed for the turn's questions of nearness.
    s.file_places();
    s.traces.clear();
    for u in s.units.iter_mut() {
        u.moved = false;
        u.charged = false;
    }
    let other = s.other(phasing);
    let mut out = vec![event(
        Said::TurnBegins,
        Facts {
            side: Some(phasing.clone()),
            round: Some(turn),
            ..Facts::default()
        },
        Vec::new(),
    )];
    // Melees carried over from the last turn.
    let locked = engaged(&s);
    out.extend(rally::phase(&mut s, phasing, &o.passes, dice));
    for a in &o.generals {
        let unit = s.unit(&a.unit).cloned();
        if let Some(g) = s
            .generals
            .iter_mut()
            .find(|g| g.id == a.general && &g.side == phasing && !g.dead)
            && let Some(u) = unit.filter(|u| u.live() && u.corps == g.corps)
        {
            g.attached = Some(u.id);
        }
    }
    for r in &o.commanders {
        if let Some(c) = s
            .corps
            .iter_mut()
            .find(|c| c.id == r.corps && &c.side == phasing)
            && crate::geometry::limit::within(c.at.distance_to(r.to).get(), COMMANDER_RIDE)
        {
            c.at = r.to;
        }
    }
    let mut owed = Vec::new();
    out.extend(movement::phase(&mut s, phasing, &o.moves, &mut owed, dice));
    let still: Vec<String> = engaged(&s)
        .into_iter()
        .filter(|u| locked.contains(u))
        .collect();
    if s.reactions.get(&other).is_some_and(|r| r.consult) {
        out.push(event(
            Said::Consulted,
            Facts {
                side: Some(other.clone()),
                ..Facts::default()
            },
            Vec::new(),
        ));
        s.phase = Phase::Decision {
            turn,
            phasing: phasing.clone(),
            pending: Box::new(Pending {
                orders: o.clone(),
                locked: still,
                // Cavalry contacted or shaken later in the phase stay.
                withdrawals: owed
                    .into_iter()
                    .filter(|w| s.unit(&w.unit).is_some_and(|u| may_withdraw(&s, u)))
                    .collect(),
            }),
        };
        return (s.unfiled(), out);
    }
    let (s, rest) = finish(s, turn, phasing, o, &still, None, dice);
    out.extend(rest);
    (s.unfiled(), out)
}

/// A paused turn resumed with the non-phasing side's decision (None: its
/// standing reactions decide): its cavalry withdrawals, then the rest from
/// defensive fire on.
pub fn resume(
    s: &State,
    turn: u32,
    phasing: &SideId,
    pending: &Pending,
    decision: Option<&Decision>,
    dice: &mut Dice,
) -> (State, Vec<Event>) {
    let mut s = s.clone();
    // Where the units stand, filed for the turn's questions of nearness.
    s.file_places();
    s.phase = Phase::Turn {
        turn,
        phasing: phasing.clone(),
    };
    let mut out = vec![event(
        Said::TurnResumes,
        Facts {
            side: Some(phasing.clone()),
            round: Some(turn),
            ..Facts::default()
        },
        Vec::new(),
    )];
    out.extend(withdrawals(&mut s, phasing, pending, decision, dice));
    let (s, rest) = finish(
        s,
        turn,
        phasing,
        &pending.orders,
        &pending.locked,
        decision,
        dice,
    );
    out.extend(rest);
    (s.unfiled(), out)
}

/// The withdrawals chosen at the pause, in the order the movement set them
/// off: those the decision names, or with none (or `standing: true`) those
/// on the standing `withdraw` list.
fn withdrawals(
    s: &mut State,
    phasing: &SideId,
    pending: &Pending,
    decision: Option<&Decision>,
    dice: &mut Dice,
) -> Vec<Event> {
    let other = s.other(phasing);
    let chosen = match decision {
        Some(d) if !d.standing => d.withdraw.clone(),
        _ => s
            .reactions
            .get(&other)
            .map(|r| r.withdraw.clone())
            .unwrap_or_default(),
    };
    let mut out = Vec::new();
    for w in pending
        .withdrawals
        .iter()
        .filter(|w| chosen.contains(&w.unit))
    {
        if let (Some(c), Some(m)) = (s.unit_index(&w.unit), s.unit_index(&w.by))
            && may_withdraw(s, &s.units[c])
        {
            out.extend(withdraw_one(s, c, m, dice));
        }
    }
    out
}

/// The turn from defensive fire on: charge, advancing fire, melee, then
/// objectives, army morale and the next turn.
fn finish(
    mut s: State,
    turn: u32,
    phasing: &SideId,
    o: &TurnOrders,
    still: &[String],
    decision: Option<&Decision>,
    dice: &mut Dice,
) -> (State, Vec<Event>) {
    let other = s.other(phasing);
    let mut out = Vec::new();
    out.extend(fire_phases::defensive(
        &mut s, &other, still, decision, dice,
    ));
    out.extend(charge::phase(&mut s, phasing, &o.charges, dice));
    let now = engaged(&s);
    out.extend(fire_phases::advancing(&mut s, phasing, &o.fire, &now, dice));
    out.extend(melee::phase(&mut s, phasing, &o.charges, dice));
    out.extend(fatigue::update_objectives(&mut s));
    for side in s
        .scenario
        .sides
        .iter()
        .map(|x| x.id.clone())
        .collect::<Vec<_>>()
    {
        out.push(event(
            Said::ArmyMorale,
            Facts {
                side: Some(side.clone()),
                before: Some(s.dish.get(&side).copied().unwrap_or(0) as i64),
                after: Some(fatigue::army_morale(&s, &side)),
                ..Facts::default()
            },
            Vec::new(),
        ));
    }
    if let Some(e) = fatigue::settle(&mut s) {
        out.push(e);
        return (s, out);
    }
    let next_turn = if other == s.scenario.first {
        turn + 1
    } else {
        turn
    };
    if next_turn > s.scenario.turns {
        let o = fatigue::at_time(&s);
        out.push(event(
            Said::Outcome,
            Facts {
                side: o.winner.clone(),
                reason: Some(o.reason.clone()),
                ..Facts::default()
            },
            Vec::new(),
        ));
        s.phase = Phase::Over(o);
    } else {
        s.phase = Phase::Turn {
            turn: next_turn,
            phasing: other,
        };
    }
    (s, out)
}

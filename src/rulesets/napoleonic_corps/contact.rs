//! What a move causes in the other side: cavalry withdrawals and contact
//! morale checks (both taken by the non-phasing side in the movement phase).

use super::formation::Formation;
use super::rally::{RallyResult, apply, test};
use super::roll::two_d6;
use super::state::{State, Trace, TraceKind, Unit};
use super::tables::Arm;
use super::words::{Said, event};
use crate::dice::Dice;
use crate::event::{Event, Facts, Modifier};
use crate::geometry::Point;
use serde::{Deserialize, Serialize};

/// Enemy infantry or artillery moving this close (cm) let cavalry withdraw.
pub const WITHDRAW_TRIGGER: f64 = 10.0;
/// Skirmishers check contact morale at -3.
pub const SKIRMISH: i32 = -3;

/// A cavalry unit an enemy move set off, and the mover it would withdraw
/// from: kept for the decision of a side that asked to be consulted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SetOff {
    pub unit: String,
    pub by: String,
}

/// Whether cavalry unit `u` may still withdraw: live, steady, not in contact.
pub fn may_withdraw(s: &State, u: &Unit) -> bool {
    u.live() && u.arm() == Arm::Cavalry && !u.shaken() && s.contacts(u).is_empty()
}

/// After unit `m` moved from `from`: the other side's withdrawals and
/// contact morale checks it set off. A side that asked to be consulted
/// withdraws nothing now: the cavalry set off go into `owed`, for its
/// decision at the pause (house rule: the end of the movement phase).
pub fn after_move(
    s: &mut State,
    m: usize,
    from: Point,
    owed: &mut Vec<SetOff>,
    dice: &mut Dice,
) -> Vec<Event> {
    let mut out = Vec::new();
    let mover = s.units[m].clone();
    if mover.arm() != Arm::Cavalry {
        let before = s.bases_as(&mover, from, mover.facing, mover.formation);
        let now = s.bases(&mover);
        let side = s.other(&mover.side);
        let (withdraw, consult) = s
            .reactions
            .get(&side)
            .map(|r| (r.withdraw.clone(), r.consult))
            .unwrap_or_default();
        // Nearness first: whether a unit may withdraw asks about its contacts.
        let cav: Vec<usize> = s
            .near_ids(&mover, WITHDRAW_TRIGGER)
            .into_iter()
            .filter(|&i| s.units[i].side == side && s.units[i].arm() == Arm::Cavalry)
            .filter(|&i| s.within(&s.units[i], &mover, WITHDRAW_TRIGGER))
            .filter(|&i| {
                let u = &s.units[i];
                may_withdraw(s, u) && (consult || withdraw.contains(&u.id))
            })
            .filter(|&i| {
                let b = s.bases(&s.units[i]);
                crate::geometry::bases_distance(&b, &now).get() <= WITHDRAW_TRIGGER
                    && crate::geometry::bases_distance(&b, &before).get() > WITHDRAW_TRIGGER
            })
            .collect();
        for c in cav {
            if !consult {
                out.extend(withdraw_one(s, c, m, dice));
            } else if !owed.iter().any(|o| o.unit == s.units[c].id) {
                owed.push(SetOff {
                    unit: s.units[c].id.clone(),
                    by: mover.id.clone(),
                });
            }
        }
    }
    // Contact morale checks.
    let contacted: Vec<usize> = s
        .near_ids(&mover, super::state::CONTACT)
        .into_iter()
        .filter(|&i| {
            let u = &s.units[i];
            u.live() && u.side != mover.side && s.within(u, &mover, super::state::CONTACT)
        })
        .collect();
    for t in contacted {
        if must_check(s, t, m) {
            out.extend(check(s, t, m, dice));
        }
    }
    out
}

/// Whether unit `t` contacted by `by` must check morale: unsquared
/// infantry contacted by cavalry, or any infantry by an infantry column.
pub fn must_check(s: &State, t: usize, by: usize) -> bool {
    let (t, by) = (&s.units[t], &s.units[by]);
    t.arm() == Arm::Infantry
        && match by.arm() {
            Arm::Cavalry => t.formation != Formation::Square,
            Arm::Infantry => by.formation == Formation::Column,
            Arm::Artillery => false,
        }
}

/// A contact morale check on the rally table: pass is OK, otherwise the
/// result is carried out.
pub fn check(s: &mut State, t: usize, by: usize, dice: &mut Dice) -> Vec<Event> {
    let mut extra = Vec::new();
    if s.units[t].formation == Formation::Skirmish {
        extra.push(Modifier {
            why: "in skirmish formation".into(),
            value: SKIRMISH,
        });
    }
    let other = Some(s.units[by].refer());
    let (r, mut out) = test(
        s,
        t,
        Said::ContactCheck,
        extra,
        other,
        "contact morale check",
        dice,
    );
    if r != RallyResult::Rally {
        out.extend(apply(s, t, r));
    }
    out
}

/// Cavalry withdrawal: 2D6 cm away from the mover, then the rally table.
pub fn withdraw_one(s: &mut State, c: usize, m: usize, dice: &mut Dice) -> Vec<Event> {
    let (cm, idx) = two_d6(
        dice,
        &format!(
            "{} withdraws from {}: 2D6 cm",
            s.units[c].name, s.units[m].name
        ),
    );
    let from = s.units[c].at;
    let away = {
        let d = from - s.units[m].at;
        if d.length() < 1e-9 {
            s.units[c].facing.unit_vector().scale(-1.0)
        } else {
            d.scale(1.0 / d.length())
        }
    };
    let to = from + away.scale(cm as f64);
    s.units[c].at = to;
    s.placed(c);
    s.traces.push(Trace {
        side: s.units[c].side.clone(),
        kind: TraceKind::Move,
        points: vec![from, to],
    });
    let mut out = vec![event(
        Said::Withdrawal,
        Facts {
            unit: Some(s.units[c].refer()),
            target: Some(s.units[m].refer()),
            count: Some(cm),
            from: Some(from),
            to: Some(to),
            ..Facts::default()
        },
        idx,
    )];
    let (r, ev) = test(
        s,
        c,
        Said::RallyRoll,
        Vec::new(),
        None,
        "after a cavalry withdrawal",
        dice,
    );
    out.extend(ev);
    if r != RallyResult::Rally {
        out.extend(apply(s, c, r));
    }
    out
}

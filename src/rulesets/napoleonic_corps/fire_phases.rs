//! The two fire phases: the non-phasing side's defensive fire (form square
//! or fire, not both) and the phasing side's advancing fire.

use super::fire::{barrier, fire};
use super::formation::Formation;
use super::orders::{FireOrder, SquarePolicy};
use super::state::State;
use super::tables::Arm;
use super::words::{Said, event};
use crate::dice::Dice;
use crate::event::{Event, Facts};
use crate::side::SideId;

/// Enemy cavalry this close (cm) makes infantry form square under the
/// default reaction: a light charge's reach.
pub const SQUARE_TRIGGER: f64 = 14.0;

/// The non-phasing `side`'s defensive fire. `engaged`: units in contact
/// since before the turn (still in melee), which neither fire nor are shot.
pub fn defensive(s: &mut State, side: &SideId, engaged: &[String], dice: &mut Dice) -> Vec<Event> {
    let mut out = Vec::new();
    let r = s.reactions.get(side).cloned().unwrap_or_default();
    let ours: Vec<usize> = (0..s.units.len())
        .filter(|&i| s.units[i].live() && &s.units[i].side == side)
        .filter(|&i| !engaged.contains(&s.units[i].id))
        .collect();
    for i in ours {
        if !s.units[i].live() {
            continue;
        }
        let u = s.units[i].clone();
        let cav_contact = s.contacts(&u).iter().any(|e| e.arm() == Arm::Cavalry);
        let cav_near = s
            .enemies(side)
            .any(|e| e.arm() == Arm::Cavalry && s.gap(&u, e) <= SQUARE_TRIGGER);
        if u.arm() == Arm::Infantry
            && r.square == SquarePolicy::CavalryNear
            && u.formation != Formation::Square
            && !u.shaken()
            && cav_near
            && !cav_contact
        {
            s.units[i].formation = Formation::Square;
            out.push(event(
                Said::Square,
                Facts {
                    unit: Some(u.refer()),
                    ..Facts::default()
                },
                Vec::new(),
            ));
            continue;
        }
        if r.hold_fire.contains(&u.id) {
            continue;
        }
        // Contacts to its front first, then the nearest it may fire at.
        let target = s
            .enemies(side)
            .filter(|e| barrier(s, &u, e, engaged).is_none())
            .min_by(|a, b| s.gap(&u, a).total_cmp(&s.gap(&u, b)).then(a.id.cmp(&b.id)))
            .map(|e| e.id.clone());
        if let Some(t) = target.and_then(|t| s.unit_index(&t)) {
            out.extend(fire(s, i, t, None, dice));
        }
    }
    out
}

/// The phasing side's advancing fire: units not in contact with an enemy.
pub fn advancing(
    s: &mut State,
    side: &SideId,
    orders: &[FireOrder],
    engaged: &[String],
    dice: &mut Dice,
) -> Vec<Event> {
    let mut out = Vec::new();
    for o in orders {
        let (Some(f), Some(t)) = (s.unit_index(&o.unit), s.unit_index(&o.target)) else {
            continue;
        };
        let (fu, tu) = (s.units[f].clone(), s.units[t].clone());
        if &fu.side != side || tu.side == *side {
            continue;
        }
        let why = if !s.contacts(&fu).is_empty() {
            Some("Advancing fire: a unit in contact with an enemy cannot fire".to_string())
        } else {
            barrier(s, &fu, &tu, engaged)
        };
        let with = o.with.as_ref().and_then(|w| s.unit_index(w)).filter(|&w| {
            let wu = &s.units[w];
            wu.side == *side
                && wu.arm() == Arm::Artillery
                && fu.arm() == Arm::Artillery
                && s.gap(&fu, wu) <= super::state::CONTACT
                && barrier(s, wu, &tu, engaged).is_none()
        });
        if let Some(why) = why {
            out.push(event(
                Said::Refused,
                Facts {
                    unit: Some(fu.refer()),
                    target: Some(tu.refer()),
                    reason: Some(why),
                    ..Facts::default()
                },
                Vec::new(),
            ));
            continue;
        }
        out.extend(fire(s, f, t, with, dice));
    }
    out
}

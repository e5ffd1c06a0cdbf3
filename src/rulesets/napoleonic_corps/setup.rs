//! Step 1: starting formations (and places within the deployment zone), then the corps fatigue chips, rolled and
//! shown to both sides.

use super::fatigue;
use super::orders::Deployment;
use super::state::{Phase, State};
use crate::dice::Dice;
use crate::event::Event;
use crate::side::BySide;

pub fn resolve(s: &State, d: &BySide<Deployment>, dice: &mut Dice) -> (State, Vec<Event>) {
    let mut s = s.clone();
    for (side, dep) in d {
        for f in &dep.formations {
            if let Some(u) = s
                .units
                .iter_mut()
                .find(|u| &u.side == side && u.id == f.unit)
                && f.formation.fits(u.arm())
            {
                u.formation = f.formation;
                u.at = f.at.unwrap_or(u.at);
                u.facing = f.facing.unwrap_or(u.facing);
            }
        }
    }
    let events = fatigue::roll_chips(&mut s, dice);
    s.phase = Phase::Turn {
        turn: 1,
        phasing: s.scenario.first.clone(),
    };
    (s, events)
}

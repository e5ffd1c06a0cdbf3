//! A move that ends short of where it was ordered: by how much, and what
//! took the distance (its allowance, a formation change, the deductions
//! of terrain and of friends passed through, an enemy it may come no
//! closer to). Told to the mover's side alone: the enemy reading it, or
//! missing it, could learn of a friend it has not seen.

use super::movement::{Went, dice_of};
use super::step::Step;
use super::words::{self, Said};
use crate::event::Visibility;
use crate::geometry::Point;

/// Below this a move counts as made in full (the 5 cm rule's probe steps).
const NEAR_ENOUGH: f64 = 0.3;

/// Tell how and why the move of `unit` toward `to` ended short.
/// `allowance` is its normal move, `drill` what its formation change or
/// turn took of it.
pub fn tell(st: &mut Step, unit: &str, to: Point, allowance: f64, drill: f64, went: &Went) {
    let short = went.to.distance_to(to).get();
    if short <= NEAR_ENOUGH || went.closed.is_some() {
        return;
    }
    let mut why = Vec::new();
    if drill > 0.0 {
        why.push(format!(
            "its formation change or turn took {drill:.1} cm of its {allowance:.0} cm move"
        ));
    }
    if !went.cross.is_empty() {
        let parts: Vec<String> = went
            .cross
            .iter()
            .map(|c| match c.friend {
                Some(_) => format!("{} in the way (a friend, {}D6)", c.name, c.dice),
                None => format!("{} ({}D6)", c.name, c.dice),
            })
            .collect();
        why.push(format!(
            "deductions of {} D6 took {:.0} cm: {}",
            dice_of(&went.cross),
            went.deducted,
            parts.join(", ")
        ));
    }
    let left = (allowance - drill - went.deducted).max(0.0);
    if went.wanted > left + NEAR_ENOUGH {
        why.push(format!(
            "the way is {:.1} cm and {left:.1} cm of move was left",
            went.wanted
        ));
    }
    let met = went.bumped.clone();
    if let Some(e) = &met {
        let name = st.s.unit(e).map_or_else(|| e.clone(), |x| x.name.clone());
        why.push(format!(
            "it halted 5 cm from {name}, no closer unless charging"
        ));
    }
    let Some(side) = st.s.unit(unit).map(|u| u.side.clone()) else {
        return;
    };
    let mut f = st.facts(unit, met.as_deref());
    f.units = went
        .cross
        .iter()
        .filter_map(|c| c.friend.as_deref())
        .filter_map(|id| st.uref(id))
        .collect();
    f.reason = Some(format!(
        "Movement: it ends {short:.1} cm short of ({:.1}, {:.1}): {}",
        to.x,
        to.y,
        if why.is_empty() {
            "its way was cut".to_string()
        } else {
            why.join("; ")
        }
    ));
    let e = words::to(Visibility::Side(side), Said::Refused, f, Vec::new());
    st.events.push(e);
}

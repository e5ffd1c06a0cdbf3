//! Generals moved, attached and detached in their side's half-turn (E.2
//! command radius, E.4 joined by the brigadier, E.5 risk, B.6 the bold
//! general's +1 all depend on where they are).
//!
//! House rule: the source gives a general no move. He rides up to
//! [`GENERAL_MOVE`] (the light cavalry's move, the fastest on the chart), at
//! the start of his side's half-turn, after morale and rallying and before
//! any company acts. Terrain and troops do not stop him.

use super::orders::GeneralOrder;
use super::state::State;
use super::words::{self, What};
use crate::event::{Event, Facts, UnitRef};
use crate::geometry::Point;
use crate::side::SideId;

/// House rule: how far a general rides in his side's half-turn, in inches.
pub const GENERAL_MOVE: f64 = 24.0;

/// Where the order takes the general, and the company he is then with; or
/// why it cannot be carried out. The same test on receipt and in play.
pub fn destination(
    s: &State,
    side: &SideId,
    o: &GeneralOrder,
) -> Result<(Point, Option<String>), String> {
    let Some(g) = s.general(&o.general).filter(|g| &g.side == side) else {
        return Err(format!("{} is not one of your generals", o.general));
    };
    if g.killed {
        return Err(format!("General {} has fallen", g.name));
    }
    let (to, with) = match (&o.to, &o.attach, o.detach) {
        (Some(p), None, false) => (*p, None),
        (None, Some(c), false) => {
            let Some(x) = s.company(c).filter(|x| &x.side == side && x.on_table()) else {
                return Err(format!("{c} is not one of your companies on the table"));
            };
            (x.at, Some(c.clone()))
        }
        (None, None, true) => {
            if g.attached.is_none() {
                return Err(format!(
                    "General {} is not with a company: nothing to detach from",
                    g.name
                ));
            }
            (s.general_at(g), None)
        }
        _ => {
            return Err("give exactly one of `to`, `attach` or `detach: true`".into());
        }
    };
    if !to.is_finite() || !s.scenario.on_table(to) {
        return Err("that point is off the table".into());
    }
    let from = s.general_at(g);
    let far = from.distance_to(to).get();
    if far > GENERAL_MOVE + 1e-9 {
        return Err(format!(
            "General {} would ride {far:.1} in, but rides at most {GENERAL_MOVE:.0} in",
            g.name
        ));
    }
    Ok((to, with))
}

/// Carry out a side's general orders, in the order given.
pub fn ride(s: &mut State, side: &SideId, orders: &[GeneralOrder], events: &mut Vec<Event>) {
    for o in orders {
        let general = s.general(&o.general).map_or_else(
            || UnitRef {
                id: o.general.clone(),
                name: o.general.clone(),
                side: side.clone(),
            },
            words::general,
        );
        let facts = Facts {
            target: Some(general),
            ..words::side(s, side)
        };
        match destination(s, side, o) {
            Err(why) => events.push(words::event(
                What::GeneralStays,
                Facts {
                    reason: Some(why),
                    ..facts
                },
            )),
            Ok((to, with)) => {
                let Some(g) = s.generals.iter_mut().find(|g| g.id == o.general) else {
                    continue;
                };
                let left = g.attached.take();
                g.at = to;
                g.attached = with.clone();
                let (what, place) = match (with, left) {
                    (Some(c), _) => (What::GeneralJoins, Some(c)),
                    (None, Some(c)) if o.detach => (What::GeneralLeaves, Some(c)),
                    (None, left) => (What::GeneralRides, left),
                };
                events.push(words::event(
                    what,
                    Facts {
                        place,
                        to: Some(to),
                        ..facts
                    },
                ));
            }
        }
    }
}

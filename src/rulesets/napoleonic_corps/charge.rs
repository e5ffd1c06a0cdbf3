//! The charge phase: cavalry move straight ahead, without turning or
//! changing formation, up to the charge move, into contact with their
//! target, unless another enemy stands across the way or their corps is
//! spent with no leader attached; unsquared infantry they reach check
//! contact morale.

use super::check::SPENT;
use super::contact::{check, must_check};
use super::fatigue;
use super::orders::ChargeOrder;
use super::state::{State, Trace, TraceKind, Unit};
use super::tables::Arm;
use super::words::{Said, event};
use crate::dice::Dice;
use crate::event::{Event, Facts};
use crate::geometry::contact::first_touch;
use crate::geometry::path::{Meet, Route};
use crate::side::SideId;

/// The charge move (cm), +2 for light troops. House reading of the
/// garbled row: one charge move for all cavalry.
pub fn reach(light: bool) -> f64 {
    12.0 + if light { 2.0 } else { 0.0 }
}

/// How far `c` would go straight ahead, as it faces, to touch `t`; none
/// when it would pass it by.
pub fn ahead(s: &State, c: &Unit, t: &Unit) -> Option<f64> {
    first_touch(&s.bases(c), &s.bases(t), c.facing.unit_vector())
}

/// The first other enemy that stands across `c`'s straight path to `t`,
/// which `c` would meet `d` cm ahead: one it would run into before it got
/// there (one flush beside the path is not across it).
pub fn across<'a>(s: &'a State, c: &Unit, t: &Unit, d: f64) -> Option<&'a Unit> {
    let route = Route::straight(&s.bases(c), c.at, c.facing.unit_vector().scale(d));
    let near = |e: &&Unit| s.gap_at_least(c, e) <= d;
    let (id, m) = route.first_meeting(
        s.near_ids(c, d)
            .into_iter()
            .map(|i| &s.units[i])
            .filter(|e| e.live() && e.side != c.side)
            .filter(|e| e.id != t.id)
            .filter(near)
            .map(|e| (e.id.clone(), s.bases(e))),
        Meet::Enter,
    )?;
    (m.along.get() < d - 1e-6).then(|| s.unit(&id)).flatten()
}

/// Why `c` cannot reach `t` with its charge move, with the numbers.
pub fn out_of_reach(s: &State, c: &Unit, t: &Unit) -> String {
    let far = reach(c.troop.light());
    match ahead(s, c, t) {
        Some(d) => format!(
            "Movement factors: the charge move is {far:.0} cm straight ahead, and {} is {d:.1} cm straight ahead ({:.1} cm too far)",
            t.name,
            d - far
        ),
        None => format!(
            "Movement factors: the charge goes straight ahead without turning, and {} ({:.1} cm away) is not straight ahead",
            t.name,
            s.gap(c, t)
        ),
    }
}

fn refuse(s: &State, u: usize, why: &str) -> Event {
    event(
        Said::Refused,
        Facts {
            unit: Some(s.units[u].refer()),
            reason: Some(why.into()),
            ..Facts::default()
        },
        Vec::new(),
    )
}

pub fn phase(s: &mut State, side: &SideId, orders: &[ChargeOrder], dice: &mut Dice) -> Vec<Event> {
    let mut out = Vec::new();
    for o in orders {
        let (Some(c), Some(t)) = (s.unit_index(&o.unit), s.unit_index(&o.target)) else {
            continue;
        };
        let (cu, tu) = (s.units[c].clone(), s.units[t].clone());
        if &cu.side != side || tu.side == *side {
            continue;
        }
        if cu.arm() != Arm::Cavalry {
            out.push(refuse(s, c, "Charge phase: only cavalry make charge moves"));
            continue;
        }
        if cu.shaken() || !s.contacts(&cu).is_empty() {
            out.push(refuse(
                s,
                c,
                "Charge phase: disordered units and units in contact cannot charge",
            ));
            continue;
        }
        let dir = cu.facing.unit_vector();
        let far = reach(cu.troop.light());
        let Some(d) = ahead(s, &cu, &tu).filter(|d| crate::geometry::limit::within(*d, far)) else {
            out.push(refuse(s, c, &out_of_reach(s, &cu, &tu)));
            continue;
        };
        if let Some(b) = across(s, &cu, &tu, d) {
            let why = format!(
                "Movement factors: the charge move must be straight at the target, and {} stands across the way to {} ({:.1} cm ahead)",
                b.name,
                tu.name,
                s.gap(&cu, b)
            );
            out.push(refuse(s, c, &why));
            continue;
        }
        if fatigue::spent(s, &cu.corps) && !s.leader_attached(&cu) {
            out.push(refuse(s, c, SPENT));
            continue;
        }
        let from = cu.at;
        let to = from + dir.scale(d);
        s.units[c].at = to;
        s.placed(c);
        s.units[c].charged = true;
        s.traces.push(Trace {
            side: cu.side.clone(),
            kind: TraceKind::Charge,
            points: vec![from, to],
        });
        out.push(event(
            Said::Charge,
            Facts {
                unit: Some(cu.refer()),
                target: Some(tu.refer()),
                from: Some(from),
                to: Some(to),
                ..Facts::default()
            },
            Vec::new(),
        ));
        if must_check(s, t, c) {
            out.extend(check(s, t, c, dice));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn charge_move_is_12_plus_2_light() {
        // Movement factors: Charge Move 12 cm, +2 cm light bonus.
        assert_eq!(super::reach(false), 12.0);
        assert_eq!(super::reach(true), 14.0);
    }
}

//! Retreats: straight away from the nearest enemy, surrendering if the
//! move runs into other enemies anywhere on its way (it stops where it
//! meets them), and leaving the table if it goes off the edge.

use super::fatigue;
use super::state::{CONTACT, State, Trace, TraceKind};
use super::words::{Said, event};
use crate::event::{Event, Facts};
use crate::geometry::path::{Meet, Route};

/// Chips a corps loses for a regiment leaving the table (Corps fatigue).
pub const LEAVES_TABLE: u32 = 2;

/// Move unit `u` `cm` directly away from its nearest enemy.
pub fn retreat(s: &mut State, u: usize, cm: f64, why: &str) -> Vec<Event> {
    let mut out = Vec::new();
    let unit = s.units[u].clone();
    let touching_before: Vec<String> = s.contacts(&unit).iter().map(|e| e.id.clone()).collect();
    let away = match s.nearest_enemy(&unit) {
        Some(e) => {
            let b = s.bases(e);
            let n = b.len().max(1) as f64;
            let from = crate::geometry::Point::new(
                b.iter().map(|b| b.center.x).sum::<f64>() / n,
                b.iter().map(|b| b.center.y).sum::<f64>() / n,
            );
            let d = unit.at - from;
            if d.length() < 1e-9 {
                unit.facing.unit_vector().scale(-1.0)
            } else {
                d.scale(1.0 / d.length())
            }
        }
        None => unit.facing.unit_vector().scale(-1.0),
    };
    // The whole way is judged, not where it ends: the first enemy it runs
    // into (other than those it was touching) stops it there.
    let route = Route::straight(&s.bases(&unit), unit.at, away.scale(cm));
    let met = route.first_meeting(
        s.near_ids(&unit, cm)
            .into_iter()
            .map(|i| &s.units[i])
            .filter(|e| e.live() && e.side != unit.side)
            .filter(|e| !touching_before.contains(&e.id))
            .filter(|e| e.at.distance_to(unit.at).get() <= cm + s.reach(&unit) + s.reach(e))
            .map(|e| (e.name.clone(), s.bases(e))),
        Meet::Touch,
    );
    let to = met.as_ref().map_or(unit.at + away.scale(cm), |(_, m)| m.at);
    s.units[u].at = to;
    s.placed(u);
    s.traces.push(Trace {
        side: unit.side.clone(),
        kind: TraceKind::Retreat,
        points: vec![unit.at, to],
    });
    out.push(event(
        Said::Retreat,
        Facts {
            unit: Some(unit.refer()),
            from: Some(unit.at),
            to: Some(to),
            count: Some(cm as u32),
            reason: Some(why.into()),
            ..Facts::default()
        },
        Vec::new(),
    ));
    if let Some((name, m)) = met {
        out.push(event(
            Said::Surrender,
            Facts {
                unit: Some(unit.refer()),
                reason: Some(format!(
                    "its retreat ran into {name} after {:.1} cm of the {cm:.0}",
                    m.along.get()
                )),
                ..Facts::default()
            },
            Vec::new(),
        ));
        out.extend(remove(s, u, "surrendered"));
        return out;
    }
    let moved = s.units[u].clone();
    let bases = s.bases(&moved);
    let off = bases.iter().flat_map(|b| b.corners()).any(|c| {
        c.x < 0.0
            || c.y < 0.0
            || c.x > s.scenario.table.width.get()
            || c.y > s.scenario.table.height.get()
    });
    if off {
        out.extend(remove(s, u, "retreated off the table"));
        return out;
    }
    let caught = s
        .near_ids(&moved, CONTACT)
        .into_iter()
        .map(|i| &s.units[i])
        .filter(|e| e.live() && e.side != moved.side)
        .filter(|e| !touching_before.contains(&e.id))
        .any(|e| s.within(&moved, e, CONTACT));
    if caught {
        out.push(event(
            Said::Surrender,
            Facts {
                unit: Some(moved.refer()),
                reason: Some("its retreat ended in contact with enemy units".into()),
                ..Facts::default()
            },
            Vec::new(),
        ));
        out.extend(remove(s, u, "surrendered"));
    }
    out
}

/// Unit `u` leaves the table: its corps loses two chips; generals with it
/// are left without a unit.
pub fn remove(s: &mut State, u: usize, why: &str) -> Vec<Event> {
    s.units[u].gone = Some(why.into());
    for g in s.generals.iter_mut() {
        if g.attached.as_deref() == Some(s.units[u].id.as_str()) {
            g.attached = None;
        }
    }
    vec![fatigue::lose(s, u, LEAVES_TABLE, why)]
}

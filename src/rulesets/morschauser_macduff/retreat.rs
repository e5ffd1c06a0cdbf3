//! Moving a company straight back without orders: the loser of a melee
//! (B.6), a company after a forced melee, a company leaving a burning town
//! (C.5). The 3" rule does not stop it, since it starts in melee range;
//! the table edge, other companies and impassable ground do.

use super::movement::{Limit, steep_level, terrain_limits};
use super::state::{State, Trace};
use super::words::{self, What};
use crate::event::{Event, Facts};
use crate::geometry::{Base, Bounds, Point, overlaps};

const STEP: f64 = 0.25;
const EPS: f64 = 1e-9;

/// How far it went and what stopped it early.
#[derive(Clone, Debug, PartialEq)]
pub struct Walked {
    pub travelled: f64,
    pub stopped: Option<String>,
}

/// Move company `id` along `dir` (any length) up to `max` inches, keeping its
/// facing, until `done` holds for its base. Records the move for the map.
pub fn walk(
    s: &mut State,
    id: &str,
    dir: Point,
    max: f64,
    done: impl Fn(&State, &Base) -> bool,
) -> Walked {
    let mut w = Walked {
        travelled: 0.0,
        stopped: None,
    };
    let Some(c) = s.company(id).cloned() else {
        return w;
    };
    let len = dir.length();
    if len < EPS || !len.is_finite() {
        w.stopped = Some("it has no way to go".into());
        return w;
    }
    let unit = dir.scale(1.0 / len);
    let sc = &s.scenario;
    let start_level = steep_level(sc.terrain.as_slice(), &c.base(sc));
    let mut at = c.at;
    let mut cap = max;
    while w.travelled < cap - EPS {
        if done(s, &c.base_at(sc, at, c.facing)) {
            break;
        }
        let d = STEP.min(cap - w.travelled);
        let next = at + unit.scale(d);
        let base = c.base_at(sc, next, c.facing);
        if base.corners().iter().any(|p| !sc.on_table(*p)) {
            w.stopped = Some("it reached the table edge".into());
            break;
        }
        if let Some(o) = s
            .near(&Bounds::of_base(&base), EPS)
            .into_iter()
            .find(|o| o.on_table() && o.id != c.id && overlaps(&[base], &[o.base(sc)]))
        {
            w.stopped = Some(format!("{} is in the way", o.short()));
            break;
        }
        match terrain_limits(s, &c, &base, start_level) {
            Limit::Stop(why) => {
                w.stopped = Some(why);
                break;
            }
            Limit::Cap(v) => cap = cap.min(v.max(w.travelled)),
            Limit::Free => {}
        }
        if w.travelled + d > cap + EPS {
            break;
        }
        at = next;
        w.travelled += d;
    }
    if w.travelled > EPS {
        let side = c.side.clone();
        if let Some(m) = s.company_mut(id) {
            m.at = at;
            m.moved = true;
            m.halted_in_water = false;
        }
        s.traces.push(Trace {
            company: id.to_string(),
            side,
            points: vec![c.at, at],
        });
    }
    w
}

/// B.6: the loser of a melee falls back a full move straight away from
/// `enemy`, still facing it.
pub fn retreat_from(s: &mut State, id: &str, enemy: &str, events: &mut Vec<Event>) {
    let (Some(c), Some(e)) = (s.company(id).cloned(), s.company(enemy).cloned()) else {
        return;
    };
    if !c.on_table() {
        return;
    }
    let sc = &s.scenario;
    let mut dir = c.base(sc).center - e.base(sc).center;
    if dir.length() < EPS {
        dir = Point::new(0.0, 0.0) - c.facing.unit_vector();
    }
    let full = c.profile.movement.get();
    let w = walk(s, id, dir, full, |_, _| false);
    events.push(words::event(
        What::Retreats,
        Facts {
            distance: Some(w.travelled),
            reason: w.stopped.clone(),
            ..words::at(s, &c, &e)
        },
    ));
}

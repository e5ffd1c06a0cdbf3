//! E.2: a formed regiment in column whose command die reads "no advance"
//! may bring its companies in the rear up into line.
//!
//! House rule: the head of the column is the member furthest forward along
//! the first member's facing; members level with it and facing its way are
//! the line already. Each other member, nearest the head first, is set down
//! in the next free place at the end of the line (its front edge level with
//! the head's, base to base, facing the same way), to the side ordered. It
//! goes there only if the place is within its move, on the table, on ground
//! it may enter, clear of every other company and not within 3" of an
//! enemy; otherwise it stays in the rear. Wheeling round the company ahead
//! is not walked step by step: in column the straight way would run over it.

use super::movement::{Limit, steep_level, terrain_limits, within_melee};
use super::orders::LineSide;
use super::state::{State, Trace};
use super::words::{self, What};
use crate::event::{Event, Facts};
use crate::geometry::{Point, base_distance, overlaps};

/// Members this far (in inches) ahead of or behind the head are level with it.
const LEVEL: f64 = 0.5;
/// Members within this many degrees of the head's facing face its way.
const SAME_FACING: f64 = 5.0;
/// How many places out from the head are tried on each side.
const PLACES: i32 = 6;

/// Bring the rear companies of `unit` (a formed regiment, first member
/// first) up into line beside its head.
pub fn bring_up(s: &mut State, unit: &[String], side: LineSide, events: &mut Vec<Event>) {
    let Some(lead) = unit.first().and_then(|id| s.company(id)).cloned() else {
        return;
    };
    let ahead = lead.facing.unit_vector();
    let along = |p: Point| p.dot(ahead);
    let Some(head) = unit
        .iter()
        .filter_map(|id| s.company(id))
        .filter(|c| c.on_table())
        .max_by(|a, b| along(a.at).total_cmp(&along(b.at)))
        .cloned()
    else {
        return;
    };
    let turned = |facing: f64| {
        let d = (facing - head.facing.degrees()).rem_euclid(360.0);
        d.min(360.0 - d)
    };
    let in_line = |at: Point, facing: f64| {
        (along(at) - along(head.at)).abs() <= LEVEL && turned(facing) <= SAME_FACING
    };
    let mut rear: Vec<(f64, String)> = unit
        .iter()
        .filter_map(|id| s.company(id))
        .filter(|c| c.on_table() && !in_line(c.at, c.facing.degrees()))
        .map(|c| (c.at.distance_to(head.at).get(), c.id.clone()))
        .collect();
    if rear.is_empty() {
        events.push(words::event(What::NoRear, words::unit(s, unit)));
        return;
    }
    rear.sort_by(|a, b| a.0.total_cmp(&b.0));
    let right = head
        .facing
        .right_vector()
        .scale(s.scenario.base.width.get());
    let places: Vec<Point> = (1..=PLACES)
        .flat_map(|k| {
            let r = head.at + right.scale(k as f64);
            let l = head.at - right.scale(k as f64);
            match side {
                LineSide::Right => vec![r],
                LineSide::Left => vec![l],
                LineSide::Both => vec![r, l],
            }
        })
        .collect();
    for (_, id) in rear {
        let Some(c) = s.company(&id).cloned() else {
            continue;
        };
        let mut why = String::from("no free place in the line");
        let mut placed = None;
        for p in &places {
            match fits(s, &c, *p, head.facing) {
                Ok(()) => {
                    placed = Some(*p);
                    break;
                }
                Err(w) => why = w,
            }
        }
        let Some(p) = placed else {
            events.push(words::event(
                What::NotBroughtUp,
                Facts {
                    reason: Some(why),
                    ..words::of(s, &c)
                },
            ));
            continue;
        };
        let from = c.at;
        if let Some(x) = s.company_mut(&id) {
            x.at = p;
            x.facing = head.facing;
            x.moved = true;
        }
        s.traces.push(Trace {
            company: id.clone(),
            side: c.side.clone(),
            points: vec![from, p],
        });
        events.push(words::event(
            What::BroughtUp,
            Facts {
                from: Some(from),
                to: Some(p),
                ..words::at(s, &c, &head)
            },
        ));
    }
}

/// Whether company `c` may be set down with its front centre at `p`.
fn fits(
    s: &State,
    c: &super::state::Company,
    p: Point,
    facing: crate::geometry::Angle,
) -> Result<(), String> {
    let sc = &s.scenario;
    let base = c.base_at(sc, p, facing);
    if c.at.distance_to(p).get() > c.profile.movement.get() + 1e-9 {
        return Err("the place is beyond its move".into());
    }
    if base.corners().iter().any(|q| !sc.on_table(*q)) {
        return Err("the place is off the table".into());
    }
    for o in s.companies.iter().filter(|o| o.on_table() && o.id != c.id) {
        let ob = o.base(sc);
        if overlaps(&[base], &[ob]) {
            return Err(format!("{} stands there", o.short()));
        }
        if o.side != c.side && within_melee(base_distance(&base, &ob).get()) {
            return Err(format!("the place is within 3 in of {}", o.short()));
        }
    }
    let level = steep_level(sc.terrain.as_slice(), &c.base(sc));
    if let Limit::Stop(why) = terrain_limits(s, c, &base, level) {
        return Err(why);
    }
    Ok(())
}

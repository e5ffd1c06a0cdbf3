//! C.5: everyone must leave a burning town on their next move.

use super::retreat::walk;
use super::scenario::TerrainKind;
use super::state::State;
use super::words::{self, What};
use crate::event::{Event, Facts};
use crate::geometry::{Point, Shape};
use crate::side::SideId;
use std::collections::BTreeSet;

/// At the start of `side`'s half-turn, each of its companies in a burning
/// town marches straight out of it, away from the town's middle, up to a
/// full move. That is its move for the turn (house rule): the companies
/// moved are returned so that their ordered paths are skipped.
pub fn leave(s: &mut State, side: &SideId, events: &mut Vec<Event>) -> BTreeSet<String> {
    let mut moved = BTreeSet::new();
    let towns: Vec<_> = s
        .scenario
        .terrain
        .iter()
        .filter(|t| matches!(t.kind, TerrainKind::Town) && s.burning.contains(&t.id))
        .cloned()
        .collect();
    for town in towns {
        let middle = middle(&town.outline);
        let inside: Vec<_> = s
            .live(side)
            .filter(|c| {
                town.feature()
                    .touches_bases(std::slice::from_ref(&c.base(&s.scenario)))
            })
            .cloned()
            .collect();
        for c in inside {
            if moved.contains(&c.id) {
                continue;
            }
            let mut dir = c.base(&s.scenario).center - middle;
            if dir.length() < 1e-9 {
                dir = Point::new(0.0, 0.0) - c.facing.unit_vector();
            }
            let feature = town.feature();
            let w = walk(s, &c.id, dir, c.profile.movement.get(), |_, b| {
                !feature.touches_bases(std::slice::from_ref(b))
            });
            let out = s.company(&c.id).is_some_and(|x| {
                !feature.touches_bases(std::slice::from_ref(&x.base(&s.scenario)))
            });
            events.push(words::event(
                What::LeavesBurning,
                Facts {
                    place: Some(town.name.clone()),
                    distance: Some(w.travelled),
                    reason: w.stopped.clone(),
                    result: out.then(|| words::OUT.to_string()),
                    ..words::of(s, &c)
                },
            ));
            moved.insert(c.id.clone());
        }
    }
    moved
}

fn middle(shape: &Shape) -> Point {
    let pts = match shape {
        Shape::Polygon { points } | Shape::Polyline { points, .. } => points,
    };
    let n = pts.len().max(1) as f64;
    let sum = pts.iter().fold(Point::new(0.0, 0.0), |acc, p| acc + *p);
    sum.scale(1.0 / n)
}

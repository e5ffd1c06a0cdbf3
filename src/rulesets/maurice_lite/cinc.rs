//! The army commander (chapter 6, Moving the CinC; Displacing the CinC).

use super::area;
use super::cards::lowest;
use super::state::State;
use super::words::{self, What};
use crate::event::{Event, Facts};
use crate::geometry::{Angle, Base, Distance, Point};
use crate::side::{SideId, Sides};
use geo::{Intersects, Line, coord};

pub const MOVE_RULE: &str =
    "6. Moving the CinC: any distance, not through enemy bases, for one discarded card";
pub const DISPLACE_RULE: &str = "6. Displacing the CinC";

/// The CinC marker: a 1 BW square.
pub fn marker(at: Point) -> Base {
    Base {
        center: at,
        facing: Angle(0.0),
        width: Distance(1.0),
        depth: Distance(1.0),
    }
}

/// Whether the straight line from `from` to `to` crosses an enemy base
/// (house rule: the CinC moves in a straight line).
pub fn blocked(state: &State, side: &SideId, from: Point, to: Point) -> bool {
    let m = state.scenario.measure;
    let line = Line::new(coord! {x: from.x, y: from.y}, coord! {x: to.x, y: to.y});
    state
        .enemies(side)
        .flat_map(|e| e.bases(&m))
        .any(|b| b.polygon().intersects(&line))
}

pub fn on_table(state: &State, p: Point) -> bool {
    let (w, h) = (
        state.scenario.table.width.get(),
        state.scenario.table.height.get(),
    );
    p.is_finite() && p.x >= 0.0 && p.y >= 0.0 && p.x <= w && p.y <= h
}

/// Whether any base (of either side) sits on the marker at `p`.
pub fn covered(state: &State, p: Point, only: Option<&SideId>) -> bool {
    let m = state.scenario.measure;
    let mk = area::of_bases(&[marker(p)]);
    state
        .units
        .iter()
        .filter(|u| u.on_table() && only.is_none_or(|s| &u.side == s))
        .any(|u| area::overlap(&mk, &area::of_bases(&u.bases(&m))))
}

/// Move a displaced CinC 1 BW at a time until no base sits on him. Directions
/// are tried toward his own table edge first (house rule: the source lets the
/// owner choose; the engine chooses the safe way home).
pub fn displace(state: &mut State, side: &SideId, events: &mut Vec<Event>) {
    let Some(start) = state.army(side).and_then(|a| a.cinc) else {
        return;
    };
    let home = if state.scenario.side_index(side) == Some(0) {
        180.0
    } else {
        0.0
    };
    let order = [0.0, 45.0, -45.0, 90.0, -90.0, 135.0, -135.0, 180.0];
    let mut spot = None;
    'search: for ring in 1..=64 {
        for turn in order {
            let p = start + Angle(home + turn).unit_vector().scale(ring as f64);
            if on_table(state, p) && !covered(state, p, None) {
                spot = Some(p);
                break 'search;
            }
        }
    }
    let Some(p) = spot else { return };
    if let Some(a) = state.army_mut(side) {
        a.cinc = Some(p);
    }
    events.push(words::event(
        What::CincDisplaced,
        Facts {
            from: Some(start),
            to: Some(p),
            ..words::side(state, side)
        },
    ));
}

/// Enemy bases of `mover` just passed over `swept`: every CinC of another
/// side under that ground is displaced at once, and his side pays at the
/// end of the round (chapter 6: a CinC is displaced at any time enemy bases
/// move through him, whatever the move: march, charge or fall back).
pub fn passed_over(
    state: &mut State,
    mover: &SideId,
    swept: &geo::MultiPolygon<f64>,
    events: &mut Vec<Event>,
) {
    let sides: Vec<SideId> = state
        .armies
        .iter()
        .filter(|(side, a)| {
            *side != mover
                && a.cinc
                    .is_some_and(|p| area::overlap(&area::of_bases(&[marker(p)]), swept))
        })
        .map(|(side, _)| side.clone())
        .collect();
    for side in sides {
        events.push(words::event(
            What::CincPassedThrough,
            words::side(state, &side),
        ));
        displace(state, &side, events);
        if !state.displaced.contains(&side) {
            state.displaced.push(side);
        }
    }
}

/// The price of a displacement at the end of a round: one card, or one army
/// morale point with an empty hand.
pub fn pay_for_displacement(
    state: &mut State,
    side: &SideId,
    named: Option<&str>,
    events: &mut Vec<Event>,
) {
    let Some(army) = state.army(side) else { return };
    let card = named
        .filter(|c| army.hand.iter().any(|h| h == c))
        .map(str::to_string)
        .or_else(|| lowest(state, &army.hand));
    match card {
        Some(c) => {
            let label = state.card_name(&c);
            if let Some(a) = state.army_mut(side) {
                a.hand.retain(|h| h != &c);
            }
            state.piles.discard.push(c);
            events.push(words::event(
                What::DisplacedDiscard,
                Facts {
                    cards: vec![label],
                    ..words::side(state, side)
                },
            ));
        }
        None => {
            let before = army.morale;
            if let Some(a) = state.army_mut(side) {
                a.morale -= 1;
            }
            events.push(words::event(
                What::DisplacedMorale,
                Facts {
                    morale: Some([before as i64, before as i64 - 1]),
                    ..words::side(state, side)
                },
            ));
        }
    }
}

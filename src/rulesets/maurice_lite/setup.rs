//! Deployment and the start of play (chapter 2): each side places its army in
//! its third of the table in secret, then the cards are dealt and a die
//! decides who plays the first round.

use super::area;
use super::deck::Piles;
use super::orders::Deployment;
use super::scenario::{default_formation, is_impassable};
use super::state::{Phase, State};
use super::words::{self, What};
use crate::dice::Dice;
use crate::event::{Event, Facts};
use crate::geometry::Base;
use crate::ruleset::Violation;
use crate::side::{BySide, SideId, Sides};

pub const RULE: &str = "2. Setup: each army in its third of the table";

fn err(unit: Option<&str>, msg: impl Into<String>) -> Violation {
    let path: Vec<&str> = match unit {
        Some(u) => vec!["units", u],
        None => vec!["units"],
    };
    Violation::new(&path, unit, RULE, msg)
}

/// Check a side's deployment.
pub fn check(state: &State, side: &SideId, d: &Deployment) -> Vec<Violation> {
    let mut out = Vec::new();
    let Some(index) = state.scenario.side_index(side) else {
        return vec![err(None, format!("{side} is not a side of this game"))];
    };
    let (y0, y1) = state.scenario.zone(index);
    let w = state.scenario.table.width.get();
    let in_zone = |b: &Base| {
        b.corners().iter().all(|c| {
            c.is_finite() && c.x >= -1e-9 && c.x <= w + 1e-9 && c.y >= y0 - 1e-9 && c.y <= y1 + 1e-9
        })
    };
    let mut placed: Vec<(String, Vec<Base>)> = Vec::new();
    for p in &d.units {
        let Some(u) = state.unit(&p.unit).filter(|u| &u.side == side) else {
            out.push(err(
                Some(&p.unit),
                format!(
                    "{} is not a unit of this side{}",
                    p.unit,
                    state.unit_hint(&p.unit, Some(side))
                ),
            ));
            continue;
        };
        if placed.iter().any(|(id, _)| id == &p.unit) {
            out.push(err(Some(&p.unit), format!("{} is placed twice", u.short())));
            continue;
        }
        let formation = p.formation.unwrap_or_else(|| default_formation(u.arm));
        if !formation.allowed_for(u.arm) {
            out.push(err(
                Some(&p.unit),
                format!("{} may not stand in {}", u.arm.label(), formation.label()),
            ));
            continue;
        }
        let facing = p.facing.unwrap_or(u.facing);
        if !p.at.is_finite() || !facing.0.is_finite() {
            out.push(err(Some(&p.unit), "coordinates must be finite numbers"));
            continue;
        }
        let bases = u.bases_at(&state.scenario.measure, p.at, facing, formation);
        if !bases.iter().all(in_zone) {
            out.push(err(Some(&p.unit), format!("{} must stand wholly in its deployment zone: y from {:.1} to {:.1}, x from 0 to {:.1}", u.short(), y0, y1, w)));
            continue;
        }
        if let Some(t) = state
            .scenario
            .terrain
            .iter()
            .find(|t| is_impassable(t) && t.touches_bases(&bases))
        {
            out.push(err(
                Some(&p.unit),
                format!("{} may not stand in {}", u.short(), t.name),
            ));
            continue;
        }
        let here = area::of_bases(&bases);
        if let Some((other, _)) = placed
            .iter()
            .find(|(_, b)| area::overlap(&here, &area::of_bases(b)))
        {
            out.push(err(
                Some(&p.unit),
                format!("{} overlaps {}", u.short(), other),
            ));
            continue;
        }
        placed.push((p.unit.clone(), bases));
    }
    for u in state.units.iter().filter(|u| &u.side == side) {
        if !d.units.iter().any(|p| p.unit == u.id) {
            out.push(err(Some(&u.id), format!("{} is not placed", u.short())));
        }
    }
    let c = d.cinc;
    if !c.is_finite() || c.x < 0.0 || c.x > w || c.y < y0 || c.y > y1 {
        out.push(Violation::new(
            &["cinc"],
            None,
            RULE,
            "the CinC must stand in the deployment zone",
        ));
    }
    out
}

/// Reveal both deployments, deal the cards and roll for the first round.
pub fn resolve(state: &State, orders: &BySide<Deployment>, dice: &mut Dice) -> (State, Vec<Event>) {
    let mut s = state.clone();
    let mut events = Vec::new();
    let sides: Vec<SideId> = s.scenario.sides.iter().map(|x| x.id.clone()).collect();
    for side in &sides {
        let Some(d) = orders.get(side) else { continue };
        for p in &d.units {
            if let Some(u) = s.unit_mut(&p.unit).filter(|u| &u.side == side) {
                u.anchor = Some(p.at);
                u.facing = p.facing.unwrap_or(u.facing);
                u.formation = p.formation.unwrap_or(u.formation);
            }
        }
        if let Some(a) = s.army_mut(side) {
            a.cinc = Some(d.cinc);
        }
        events.push(words::event(
            What::Deploys,
            Facts {
                count: Some(d.units.len() as u32),
                ..words::side(&s, side)
            },
        ));
    }
    let (piles, hands): (Piles, Vec<Vec<String>>) = Piles::deal(&s.deck, sides.len(), dice);
    s.piles = piles;
    for (side, hand) in sides.iter().zip(hands) {
        let cards = hand.iter().map(|c| s.card_name(c)).collect();
        events.push(words::private(
            side,
            What::OpeningHand,
            Facts {
                cards,
                ..words::side(&s, side)
            },
        ));
        if let Some(a) = s.army_mut(side) {
            a.hand = hand;
        }
    }
    events.push(words::event(What::Dealt, Facts::default()));
    // Roll for the first round, re-rolling ties.
    let first = loop {
        let a = dice.d6(format!(
            "first round: {} rolls; higher plays first, ties re-roll",
            s.side_name(&sides[0])
        ));
        let ia = dice.last_index();
        let b = dice.d6(format!(
            "first round: {} rolls; higher plays first, ties re-roll",
            s.side_name(&sides[1])
        ));
        let ib = dice.last_index();
        let facts = Facts {
            notes: vec![s.side_name(&sides[0]), s.side_name(&sides[1])],
            rolls: vec![a, b],
            ..Facts::default()
        };
        events.push(words::event(What::FirstRoll, facts).with_dice(ia.into_iter().chain(ib)));
        if a != b {
            break if a > b {
                sides[0].clone()
            } else {
                sides[1].clone()
            };
        }
    };
    events.push(words::event(What::PlaysFirst, words::side(&s, &first)));
    s.phase = Phase::Round { active: first };
    s.round = 1;
    (s, events)
}

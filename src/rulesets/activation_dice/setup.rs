//! Game Setup: the attacker places half its force within 1 L of its end
//! of the board, the defender all of its force, the attacker the rest;
//! each placement is one step, unseen by the other side until it is
//! resolved. Then a roll for the first move.

use super::movement::misfit;
use super::orders::{Deployment, Placement};
use super::state::{Formation, Phase, State};
use super::words::{Said, event};
use crate::dice::Dice;
use crate::event::{Event, Facts};
use crate::geometry::Point;
use crate::side::{SideId, Sides};

/// The side that places at `placement` (1 to 3).
pub fn placer(s: &State, placement: u32) -> SideId {
    if placement == 2 {
        s.scenario.defender()
    } else {
        s.scenario.attacker.clone()
    }
}

/// How many units the placement must put down: (least, most).
pub fn count(s: &State, placement: u32) -> (usize, usize) {
    let side = placer(s, placement);
    let all = s.units.iter().filter(|u| u.side == side).count();
    let unplaced = s
        .units
        .iter()
        .filter(|u| u.side == side && u.at.is_none() && u.live())
        .count();
    match placement {
        1 => (all / 2, all.div_ceil(2)),
        _ => (unplaced, unplaced),
    }
}

/// Why a placement cannot stand, if it cannot: the unit must be the
/// side's own and not yet placed, its formation its arm's, and it must
/// stand within 1 L of its edge, on the table, clear of other units.
pub fn refuse(s: &State, side: &SideId, p: &Placement) -> Option<String> {
    let Some(i) = s.index(&p.unit) else {
        return Some(format!("{} is not a unit", p.unit));
    };
    let u = &s.units[i];
    if &u.side != side {
        return Some(format!("{} is not one of your units", p.unit));
    }
    if u.at.is_some() {
        return Some(format!("{} is already placed", p.unit));
    }
    if !p.at.is_finite() || p.facing.is_some_and(|f| !f.degrees().is_finite()) {
        return Some("the place is not a pair of numbers".into());
    }
    let f = p.formation.unwrap_or(u.formation);
    if !f.fits(u.arm()) {
        return Some(format!(
            "a {} unit cannot stand in {}",
            u.troop.name,
            f.name()
        ));
    }
    let facing = p.facing.unwrap_or_else(|| s.forward(side));
    let bases = s.bases_as(u, p.at, facing, f);
    let l = 3.0 * s.short();
    let reach = bases
        .iter()
        .flat_map(|b| b.corners())
        .map(|c| s.from_edge(side, c))
        .fold(f64::NEG_INFINITY, f64::max);
    if crate::geometry::limit::beyond(reach, l) {
        return Some(format!(
            "it must stand within 1 L ({l:.1} cm) of your edge; its bases reach {reach:.1} cm from it"
        ));
    }
    misfit(s, i, p.at, facing, f).map(|why| {
        format!("it must stand on the table, clear of other units and impassable ground: {why}")
    })
}

/// The placement a scenario suggests for a unit, or a place in a row
/// along the side's edge.
pub fn suggested(s: &State, id: &str) -> Option<Placement> {
    let u = s.unit(id)?;
    let spec = s.scenario.side(&u.side)?;
    let k = spec.units.iter().position(|x| x.id == id)?;
    let us = &spec.units[k];
    let at = us.at.unwrap_or_else(|| {
        let n = spec.units.len() as f64;
        let x = s.scenario.table.width.get() * (k as f64 + 1.0) / (n + 1.0);
        let d = s.short();
        let y = match s.edge(&u.side) {
            super::scenario::Edge::South => 1.5 * d,
            super::scenario::Edge::North => s.scenario.table.height.get() - 1.5 * d,
        };
        Point::new(x, y)
    });
    Some(Placement {
        unit: id.into(),
        at,
        facing: Some(us.facing.unwrap_or_else(|| s.forward(&u.side))),
        formation: Some(Formation::usual(u.arm())),
    })
}

/// The suggested placement for this step: the first half (placement 1)
/// or every unit not yet placed.
pub fn default_deployment(s: &State, placement: u32) -> Deployment {
    let side = placer(s, placement);
    let (_, most) = count(s, placement);
    Deployment {
        units: s
            .units
            .iter()
            .filter(|u| u.side == side && u.at.is_none() && u.live())
            .take(most)
            .filter_map(|u| suggested(s, &u.id))
            .collect(),
    }
}

/// Resolve placement `placement` with the placer's orders.
pub fn resolve(s: &State, placement: u32, d: &Deployment, dice: &mut Dice) -> (State, Vec<Event>) {
    let mut s = s.clone();
    let side = placer(&s, placement);
    let mut out = Vec::new();
    for p in &d.units {
        if refuse(&s, &side, p).is_some() {
            continue;
        }
        let Some(i) = s.index(&p.unit) else { continue };
        let facing = p.facing.unwrap_or_else(|| s.forward(&side));
        let f = p.formation.unwrap_or(s.units[i].formation);
        let u = &mut s.units[i];
        u.at = Some(p.at);
        u.facing = facing;
        u.formation = f;
        out.push(event(
            Said::Placed,
            Facts {
                unit: Some(u.refer()),
                to: Some(p.at),
                facing: Some(facing.degrees()),
                mode: Some(f.name().into()),
                round: Some(placement),
                ..Facts::default()
            },
            Vec::new(),
        ));
    }
    if placement < 3 {
        s.phase = Phase::Deploy {
            placement: placement + 1,
        };
        return (s, out);
    }
    // Units the last placement left out stay off the table, lost.
    for i in 0..s.units.len() {
        if s.units[i].at.is_none() && s.units[i].live() {
            out.extend(super::combat::remove(&mut s, i, "never placed"));
        }
    }
    let (first, rolls, idx) = first_move(&s, dice);
    out.push(event(
        Said::FirstMove,
        Facts {
            side: Some(first.clone()),
            side_name: Some(s.side_name(&first)),
            rolls,
            ..Facts::default()
        },
        idx,
    ));
    s.first = Some(first.clone());
    s.phase = Phase::Turn {
        turn: 1,
        side: first.clone(),
    };
    out.extend(super::turn::begin(&mut s, 1, &first));
    (s, out)
}

/// Roll to determine which player gets the first move: a die each, the
/// attacker's first; the higher moves first, ties roll again (house rule:
/// after ten ties the attacker does).
pub fn first_move(s: &State, dice: &mut Dice) -> (SideId, Vec<u32>, Vec<usize>) {
    let att = s.scenario.attacker.clone();
    let def = s.scenario.defender();
    let mut rolls = Vec::new();
    let mut idx = Vec::new();
    for _ in 0..10 {
        let a = dice.d6(format!("first move: {att}"));
        idx.push(dice.last_index().unwrap_or(0));
        let d = dice.d6(format!("first move: {def}"));
        idx.push(dice.last_index().unwrap_or(0));
        rolls.extend([a, d]);
        if a != d {
            return (if a > d { att } else { def }, rolls, idx);
        }
    }
    (att, rolls, idx)
}

//! Planning one side's fire: who fires, at what, and with which modifiers.

use super::super::orders::{Aim, Sweep};
use super::super::state::State;
use super::super::units::Unit;
use super::cover::cover;
use super::eligibility;
use super::hit::{self, Context};
use super::report::{FireMode, FirePlan, Range, Shot};
use super::scene::{Scene, Seen};
use super::target::{Choice, choose};
use super::{FireRequest, LONG_RANGE, SHORT_RANGE};
use crate::geometry::Point;
use crate::side::{SideId, Sides};
use std::collections::BTreeSet;

/// See [`super::plan`].
pub fn plan(state: &State, req: &FireRequest) -> FirePlan {
    let scene = Scene::new(state);
    let mut not_firing = Vec::new();
    let mut units: Vec<&Unit> = Vec::new();
    let mut asked = BTreeSet::new();
    for id in &req.shooters {
        if !asked.insert(id.as_str()) {
            continue;
        }
        match eligibility::unit(state, req.side, id, req.mode) {
            Ok(u) => units.push(u),
            Err(why) => not_firing.push((id.clone(), why)),
        }
    }
    let axis = across(state, req.side, req.order);
    let m = state.scenario.measure;
    units.sort_by(|a, b| {
        let pa = a.anchor.map_or(0.0, |p| p.dot(axis));
        let pb = b.anchor.map_or(0.0, |p| p.dot(axis));
        pa.total_cmp(&pb).then(a.id.cmp(&b.id))
    });
    let mut shots = Vec::new();
    for u in units {
        if req.mode == FireMode::Bombard
            && let Some(t) = short_range_target(&scene, u)
        {
            not_firing.push((u.id.clone(), bombard_refused(state, &t)));
            continue;
        }
        let bases = u.bases(&m);
        let mut order: Vec<usize> = (0..bases.len()).collect();
        order.sort_by(|a, b| {
            let pa = bases[*a].front_center().dot(axis);
            let pb = bases[*b].front_center().dot(axis);
            pa.total_cmp(&pb).then(a.cmp(b))
        });
        let mut fired = Vec::new();
        let mut why: Vec<(usize, String)> = Vec::new();
        for i in order {
            if let Some(r) = eligibility::base(state, u, &bases[i]) {
                why.push((i, r));
                continue;
            }
            let Some(eye) = scene.eye(u, i) else {
                continue;
            };
            let length = match req.mode {
                FireMode::Volley => SHORT_RANGE,
                FireMode::Bombard => LONG_RANGE,
            };
            match choose(&scene, &eye, length, aim_for(req.aims, &u.id, i)) {
                Ok(c) => fired.extend(shot(&scene, &eye, c, req)),
                Err(r) => why.push((i, r)),
            }
        }
        if fired.is_empty() {
            not_firing.push((u.id.clone(), summarise(&why)));
        } else {
            not_firing.extend(
                why.into_iter()
                    .map(|(i, r)| (u.id.clone(), format!("base {}: {r}", i + 1))),
            );
        }
        shots.extend(fired);
    }
    FirePlan {
        side: req.side.clone(),
        mode: req.mode,
        shots,
        not_firing,
    }
}

/// The shot of `eye` at its chosen target, with its modifiers.
fn shot(scene: &Scene, eye: &super::scene::Eye, c: Choice, req: &FireRequest) -> Option<Shot> {
    let Seen::Target { unit, index, .. } = &c.look.seen else {
        return None;
    };
    let state = scene.state;
    let target = state.unit(unit)?;
    let target_bases = target.bases(&state.scenario.measure);
    let tb = *target_bases.get(*index)?;
    let cover = cover(scene, eye, &c.look.zone, &tb);
    let modifiers = hit::modifiers(&Context {
        shooter: eye.unit,
        shooter_base: &eye.base,
        target,
        target_bases: &target_bases,
        cover,
        terrain: scene.terrain(),
        cards: &req.to_hit,
    });
    Some(Shot {
        shooter: eye.unit.id.clone(),
        base: eye.index + 1,
        target: target.id.clone(),
        target_base: index + 1,
        range: match req.mode {
            FireMode::Volley => Range::Short,
            FireMode::Bombard => Range::Long,
        },
        angled: c.look.turn != 0.0,
        chosen_by: c.chosen_by,
        zone: c.look.zone.corners().map(tidy),
        need: hit::need(&modifiers),
        modifiers,
        dice: Vec::new(),
        dice_index: Vec::new(),
        hits: 0,
    })
}

/// A corner rounded to a millionth of a BW, so that reports do not carry
/// the last bits of floating-point noise.
fn tidy(p: Point) -> Point {
    let r = |v: f64| (v * 1e6).round() / 1e6;
    Point::new(r(p.x), r(p.y))
}

/// The enemy unit some eligible base of `u` could shoot at short range.
pub fn short_range_target(scene: &Scene, u: &Unit) -> Option<String> {
    let bases = u.bases(&scene.state.scenario.measure);
    (0..bases.len())
        .filter(|i| eligibility::base(scene.state, u, &bases[*i]).is_none())
        .filter_map(|i| scene.eye(u, i))
        .find_map(|eye| match choose(scene, &eye, SHORT_RANGE, None) {
            Ok(c) => match c.look.seen {
                Seen::Target { unit, .. } => Some(unit),
                _ => None,
            },
            Err(_) => None,
        })
}

/// Why guns with a short-range target may not bombard.
pub fn bombard_refused(state: &State, target: &str) -> String {
    let name = state.unit(target).map_or(target.to_string(), |t| t.short());
    format!("has a target at short range ({name}): artillery may not bombard while it has one")
}

/// The enemy unit the player named for base `index` (0-based) of `unit`:
/// an aim for that base wins over one for the whole unit.
fn aim_for<'a>(aims: &'a [Aim], unit: &str, index: usize) -> Option<&'a str> {
    aims.iter()
        .find(|a| a.unit == unit && a.base == Some(index + 1))
        .or_else(|| aims.iter().find(|a| a.unit == unit && a.base.is_none()))
        .map(|a| a.at.as_str())
}

/// The direction in which shooters take their turn: across the table to
/// the shooting side's right, or its left.
fn across(state: &State, side: &SideId, order: Sweep) -> Point {
    // Each side faces the far table edge: the first +y, the second -y.
    let right = match state.scenario.side_index(side) {
        Some(1) => Point::new(-1.0, 0.0),
        _ => Point::new(1.0, 0.0),
    };
    match order {
        Sweep::LeftToRight => right,
        Sweep::RightToLeft => right.scale(-1.0),
    }
}

/// One reason for a unit none of whose bases fire.
fn summarise(why: &[(usize, String)]) -> String {
    match why {
        [] => "no base can fire".into(),
        [(_, r)] => r.clone(),
        [(_, first), rest @ ..] if rest.iter().all(|(_, r)| r == first) => first.clone(),
        _ => why
            .iter()
            .map(|(i, r)| format!("base {}: {r}", i + 1))
            .collect::<Vec<_>>()
            .join("; "),
    }
}

//! What a side can do now, for its report: who is in range of whom for a
//! volley (chapter 7, worked out by the fire plan itself, so it says what
//! the volley phase would do), which guns may bombard, which units could
//! reach an enemy with a charge (chapter 8), which units can be activated
//! together as a force and at what cost (chapter 4), and what each card in
//! hand would pay for or do now (chapter 3).

use super::charge::eligibility::may_charge;
use super::charge::ground::visible;
use super::charge::movement::charge_allowance;
use super::fire::{self, FireMode, FireRequest};
use super::forces::{Paths, check_force, cost};
use super::orders::Sweep;
use super::state::{Phase, State};
use super::units::{Arm, Unit};
use crate::ruleset::Memo;
use crate::side::SideId;
use crate::view::Panel;

/// The panel "What you can do now" for `me`; none while the armies deploy
/// or once the game is over.
pub fn panel(s: &State, me: &SideId) -> Option<Panel> {
    panel_with(s, me, &mut Paths::new(s, me))
}

/// [`panel`], asking `paths` (made by [`Paths::new`] for `s` and `me`) for
/// the CinC's distances, so that a view asks one set of searches.
pub fn panel_with(s: &State, me: &SideId, paths: &mut Option<Paths>) -> Option<Panel> {
    panel_of(s, me, paths, &Memo::default())
}

/// [`panel_with`], made once for every reader of `s` that `memo` serves: a
/// step's report for `me` and the plan of `me`'s orders page show the same
/// panel, and each side's volley plan is in both sides' panels. Half of a
/// Maurice Lite step at 1,000 units a side was these panels made again.
pub fn panel_shared(
    s: &State,
    me: &SideId,
    paths: &mut Option<Paths>,
    memo: &Memo,
) -> Option<Panel> {
    memo.get_or(&format!("maurice-lite/panel/{me}"), || {
        panel_of(s, me, paths, memo)
    })
}

fn panel_of(s: &State, me: &SideId, paths: &mut Option<Paths>, memo: &Memo) -> Option<Panel> {
    if matches!(s.phase, Phase::Deployment | Phase::Over(_)) {
        return None;
    }
    // As at the start of the next round: every unit may fire again.
    let mut now = s.clone();
    for u in now.units.iter_mut() {
        u.fired = false;
    }
    let enemy = s.other(me);
    let mut lines = Vec::new();
    lines.extend(volleys(&now, me, "You can volley", memo));
    lines.extend(volleys(&now, &enemy, "The enemy can volley", memo));
    lines.extend(bombards(&now, me));
    lines.extend(charges(&now, me));
    let forces = forces_with(&now, me, paths);
    for f in &forces {
        lines.push(f.line(&now));
    }
    lines.extend(cards(&now, me, &forces));
    if lines.is_empty() {
        lines.push("Nothing in range, no charge within reach".into());
    }
    Some(Panel {
        title: "What you can do now".into(),
        lines,
    })
}

fn name(s: &State, id: &str) -> String {
    s.unit(id)
        .map(|u| format!("{} [{}]", u.name, u.id))
        .unwrap_or_else(|| id.to_string())
}

/// The volley phase as `side` would shoot it now: one line per shooting
/// unit, its targets and the score each die needs. `s` is the state with
/// every unit free to fire again, the same for both sides' panels.
fn volleys(s: &State, side: &SideId, lead: &str, memo: &Memo) -> Vec<String> {
    memo.get_or(&format!("maurice-lite/volleys/{side}"), || {
        volley_targets(s, side)
    })
    .into_iter()
    .map(|(u, t)| {
        let t: Vec<String> = t
            .iter()
            .map(|(e, need)| format!("{} ({need}+)", name(s, e)))
            .collect();
        format!("{lead}: {} at {}", name(s, &u), t.join(", "))
    })
    .collect()
}

/// The volley phase as `side` would shoot it now, worked out by the fire
/// plan itself: each shooting unit with its targets and the score each
/// die needs, in the order they shoot.
pub fn volley_targets(s: &State, side: &SideId) -> Vec<(String, Vec<(String, u32)>)> {
    let shooters: Vec<String> = s.live_units(side).map(|u| u.id.clone()).collect();
    if shooters.is_empty() {
        return Vec::new();
    }
    let plan = fire::plan(
        s,
        &FireRequest {
            side,
            mode: FireMode::Volley,
            shooters,
            order: Sweep::default(),
            aims: &[],
            to_hit: Vec::new(),
        },
    );
    let mut by_shooter: Vec<(String, Vec<(String, u32)>)> = Vec::new();
    for shot in &plan.shots {
        let target = (shot.target.clone(), shot.need);
        match by_shooter.iter_mut().find(|(u, _)| *u == shot.shooter) {
            Some((_, t)) if t.contains(&target) => {}
            Some((_, t)) => t.push(target),
            None => by_shooter.push((shot.shooter.clone(), vec![target])),
        }
    }
    by_shooter
}

/// Guns that could be activated to bombard now.
fn bombards(s: &State, me: &SideId) -> Vec<String> {
    s.live_units(me)
        .filter(|u| u.arm == Arm::Artillery)
        .filter(|u| fire::can_bombard(s, &u.id).is_ok())
        .map(|u| {
            format!(
                "You can bombard: {} has a target at long range",
                name(s, &u.id)
            )
        })
        .collect()
}

/// Units that may charge, with the enemy in sight within their charge
/// allowance, edge to edge. Whether the charge path is clear is checked
/// when the charge is ordered.
fn charges(s: &State, me: &SideId) -> Vec<String> {
    charge_targets(s, me)
        .into_iter()
        .map(|(u, targets)| {
            let reach = charge_allowance(u).get();
            let names: Vec<String> = targets.iter().map(|e| name(s, &e.id)).collect();
            format!(
                "You can charge: {} (reach {reach:.0} BW) could reach {}",
                name(s, &u.id),
                names.join(", ")
            )
        })
        .collect()
}

/// Each unit of `me` that may charge, with the enemies in sight within its
/// charge allowance, edge to edge (units with none are left out).
pub fn charge_targets<'a>(s: &'a State, me: &'a SideId) -> Vec<(&'a Unit, Vec<&'a Unit>)> {
    let m = s.scenario.measure;
    let mut out = Vec::new();
    for u in s.live_units(me) {
        if may_charge(u).is_err() {
            continue;
        }
        let reach = charge_allowance(u).get();
        let bases = u.bases(&m);
        let targets: Vec<&Unit> = s
            .enemies(me)
            .filter(|e| super::prune::within(&bases, &e.bases(&m), reach + 1e-9))
            .filter(|e| visible(s, u, e))
            .collect();
        if !targets.is_empty() {
            out.push((u, targets));
        }
    }
    out
}

/// A legal force of the side: its units and what activating it costs.
pub struct Force {
    pub units: Vec<String>,
    /// BW of card span needed, none when the CinC cannot reach it.
    pub cost: Option<u32>,
}

impl Force {
    fn line(&self, s: &State) -> String {
        let kind = s
            .unit(&self.units[0])
            .map(|u| format!("{} in {}", u.arm.label(), u.formation.label()))
            .unwrap_or_default();
        format!(
            "Force ({kind}): {}; {}",
            self.units
                .iter()
                .map(|u| name(s, u))
                .collect::<Vec<_>>()
                .join(", "),
            match self.cost {
                Some(c) => format!("activation costs cards of span {c} BW or more"),
                None => "the CinC's string cannot reach it round the enemy".into(),
            }
        )
    }
}

/// The side's units split into the largest forces they make: units join
/// when they may march together (same arm, formation and ground, within
/// 2 BW), and a group is kept whole only if the rules take it whole.
pub fn forces(s: &State, me: &SideId) -> Vec<Force> {
    forces_with(s, me, &mut Paths::new(s, me))
}

/// [`forces`], asking `paths` for the costs. The paths round the enemy
/// do not depend on which units have fired, so the view's paths serve the
/// panel's state made ready for the next round.
fn forces_with(s: &State, me: &SideId, paths: &mut Option<Paths>) -> Vec<Force> {
    let units: Vec<&Unit> = s.live_units(me).collect();
    let n = units.len();
    let mut group: Vec<usize> = (0..n).collect();
    fn root(g: &mut [usize], mut i: usize) -> usize {
        while g[i] != i {
            g[i] = g[g[i]];
            i = g[i];
        }
        i
    }
    let anchors: Vec<crate::geometry::Point> =
        units.iter().map(|u| u.anchor.unwrap_or_default()).collect();
    for i in 0..n {
        for j in (i + 1)..n {
            // Units more than a line's width and the 2 BW gap apart never
            // join: the rules' check is spared for the rest.
            if (anchors[i] - anchors[j]).length() > 10.0 {
                continue;
            }
            let pair = [units[i].id.clone(), units[j].id.clone()];
            if check_force(s, me, &pair).is_ok() {
                let (a, b) = (root(&mut group, i), root(&mut group, j));
                group[a] = b;
            }
        }
    }
    let mut sets: std::collections::BTreeMap<usize, Vec<String>> = Default::default();
    for (i, u) in units.iter().enumerate() {
        let r = root(&mut group, i);
        sets.entry(r).or_default().push(u.id.clone());
    }
    let mut out = Vec::new();
    for ids in sets.into_values() {
        let parts: Vec<Vec<String>> = if check_force(s, me, &ids).is_ok() {
            vec![ids]
        } else {
            ids.into_iter().map(|i| vec![i]).collect()
        };
        for ids in parts {
            let cost = check_force(s, me, &ids)
                .ok()
                .and_then(|f| paths.as_mut()?.distance(s, &f))
                .map(|d| cost(d).max(1));
            out.push(Force { units: ids, cost });
        }
    }
    out
}

/// What each card in hand would do now: the forces its span alone pays
/// for, and its event or effect.
fn cards(s: &State, me: &SideId, forces: &[Force]) -> Vec<String> {
    let Some(a) = s.army(me) else {
        return Vec::new();
    };
    a.hand
        .iter()
        .filter_map(|c| s.deck.card(c))
        .map(|c| {
            let paid: Vec<String> = forces
                .iter()
                .filter(|f| f.cost.is_some_and(|k| k <= c.span))
                .map(|f| {
                    f.units
                        .iter()
                        .map(|u| s.unit(u).map(|x| x.name.clone()).unwrap_or(u.clone()))
                        .collect::<Vec<_>>()
                        .join(" + ")
                })
                .collect();
            let mut t = format!("Card {} [{}], span {}: ", c.name, c.id, c.span);
            if paid.is_empty() {
                t.push_str("alone it activates no force now");
            } else {
                t.push_str(&format!("alone it activates {}", paid.join("; ")));
            }
            if c.event.is_some() || c.effect.is_some() || c.interrupt {
                t.push_str(&format!("; or played for itself: {}", c.text));
            }
            t
        })
        .collect()
}

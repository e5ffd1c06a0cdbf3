//! What a side can do now, for its report and as comments in its orders
//! template: for each unit that may still activate this turn, its move and
//! what shortens it, the enemies ahead it may shoot at and what the shot
//! needs, the charges within its reach, and why it cannot shoot at the
//! other enemies ahead. Every fact is asked of the ruleset's own movement,
//! sight and combat code, so the panel says what the turn would do.

use super::combat::{ready_to_shoot, shot_terms};
use super::distance::in_shorts;
use super::movement::{allowance_why, clamp_45, travel};
use super::scenario::Arm;
use super::setup::placer;
use super::sight::shot_at;
use super::state::{Phase, State, Unit};
use crate::event::Modifier;
use crate::side::SideId;
use crate::view::Panel;

pub const TITLE: &str = "What you can do now";

/// Enemies ahead told per unit, nearest first; the rest are counted.
const NEAREST: usize = 4;

/// The panel for `me`, in every phase: outside its own turn it says that
/// the side owes nothing now.
pub fn panel(s: &State, me: &SideId) -> Panel {
    Panel {
        title: TITLE.into(),
        lines: lines(s, me),
    }
}

/// The panel's lines: for each unit a line with its move, then its other
/// lines, indented and tagged with its id.
pub fn lines(s: &State, me: &SideId) -> Vec<String> {
    match &s.phase {
        Phase::Turn { side, .. } | Phase::Consult { side, .. } if side == me => {}
        Phase::Turn { side, .. } | Phase::Consult { side, .. } => {
            return vec![format!(
                "It is {}'s turn: you owe nothing now",
                s.side_name(side)
            )];
        }
        Phase::Deploy { placement } if &placer(s, *placement) == me => {
            return vec![
                "Set-up: place your units; what they can do is told once the turns begin".into(),
            ];
        }
        Phase::Deploy { placement } => {
            return vec![format!(
                "{} is placing its troops: you owe nothing now",
                s.side_name(&placer(s, *placement))
            )];
        }
        Phase::Over(_) => return vec!["The game is over: you owe nothing now".into()],
    }
    // Moves are tried on a copy; each unit is put back after its tries.
    let mut work = s.clone();
    let mut out = Vec::new();
    for i in 0..s.units.len() {
        let u = &s.units[i];
        if u.placed() && &u.side == me && !u.activated {
            out.extend(unit_lines(s, &mut work, i));
        }
    }
    if out.is_empty() {
        out.push("Every unit of yours has activated this turn: nothing is left to do".into());
    }
    out
}

fn name(u: &Unit) -> String {
    format!("{} [{}]", u.name, u.id)
}

fn cm(s: &State, cm: f64) -> String {
    format!("{cm:.1} cm ({:.1} S)", in_shorts(cm, s.short()))
}

fn mods(m: &[Modifier]) -> String {
    m.iter()
        .map(|x| format!("{} {:+}", x.why, x.value))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What unit `i` may do: a first line with its move, then lines tagged
/// with its id. `work` is a copy of `s` to try moves on (put back after).
pub(super) fn unit_lines(s: &State, work: &mut State, i: usize) -> Vec<String> {
    let u = &s.units[i];
    let who = name(u);
    if u.status.rout {
        return vec![format!(
            "{who}: routing; only three successes on three dice rally it, and that is all it does"
        )];
    }
    let foes = s.contacts(u);
    if !foes.is_empty() {
        let with: Vec<String> = foes.iter().map(|e| name(e)).collect();
        return vec![format!(
            "{who}: in melee with {}; it may seize the initiative (2), recoil (2) or change formation (1)",
            with.join(", ")
        )];
    }
    let (allow, why) = allowance_why(s, u);
    let mut first = if allow > 0.0 {
        format!(
            "{who}: move {}, at the double {}",
            cm(s, allow),
            cm(s, allow + s.short())
        )
    } else {
        format!("{who}: no move")
    };
    if !why.is_empty() {
        first.push_str(&format!(" ({})", why.join(", ")));
    }
    if u.status.officer_killed {
        first.push_str("; one die only (officer killed)");
    }
    if u.status.broken_line {
        first.push_str("; its first success reforms the line");
    }
    let mut out = vec![first];
    if allow > 0.0 {
        out.extend(ahead(s, work, i, allow));
    }
    let ready = ready_to_shoot(s, i);
    if let Err(why) = &ready {
        out.push(format!("  cannot fire: {why}"));
    }
    let (near, more) = enemies_ahead(s, u);
    if near.is_empty() {
        out.push("  no enemy ahead".into());
    }
    for (k, gap) in near {
        if ready.is_ok() {
            out.push(fire_line(s, i, k));
        }
        if may_meet(s, gap, allow) {
            out.extend(charge_line(s, work, i, k, allow));
        }
    }
    if more > 0 {
        out.push(format!("  {more} more enemies ahead left out"));
    }
    // Reports list lines flat: each line after the first names its unit.
    let tag = format!("  [{}] ", u.id);
    out.into_iter()
        .enumerate()
        .map(|(k, l)| {
            if k == 0 {
                l
            } else {
                format!("{tag}{}", l.trim_start())
            }
        })
        .collect()
}

/// Straight ahead, how far its move would really go, when less than its
/// allowance or across ground that costs double.
fn ahead(s: &State, work: &mut State, i: usize, allow: f64) -> Option<String> {
    let u = &s.units[i];
    let t = travel(work, i, u.facing.unit_vector(), allow);
    work.units[i].at = u.at;
    if t.contact.is_some() {
        // A charge: told with the enemy.
        return None;
    }
    let by = t.stopped.clone().or_else(|| {
        t.slowed
            .as_ref()
            .map(|f| format!("{f} (difficult ground, double cost)"))
    })?;
    Some(format!(
        "  straight ahead: {} of its {:.1} cm, cut short by {by}",
        cm(s, t.cm),
        allow
    ))
}

/// The enemies whose place (the middle of their front) lies within 90
/// degrees of the unit's facing, seen from its centre: their index and
/// distance edge to edge, nearest first, at most [`NEAREST`]; and how many
/// more there are.
fn enemies_ahead(s: &State, u: &Unit) -> (Vec<(usize, f64)>, usize) {
    let centre = s.centre(u);
    let front = u.facing.unit_vector();
    // Only places are compared first: laying out every enemy for every
    // unit would cost a big battle's report more than its resolution.
    let mut ahead: Vec<(f64, usize)> = (0..s.units.len())
        .filter(|&k| {
            let e = &s.units[k];
            e.placed()
                && e.side != u.side
                && e.at.is_some_and(|p| {
                    let v = p - centre;
                    v.x * front.x + v.y * front.y >= 0.0
                })
        })
        .map(|k| (s.gap_at_least(u, &s.units[k]), k))
        .collect();
    let total = ahead.len();
    if total > NEAREST {
        // The bounds of the nearest few, then every enemy whose bound may
        // still beat the farthest of them, measured exactly.
        ahead.select_nth_unstable_by(NEAREST - 1, |x, y| x.0.total_cmp(&y.0));
        let limit = ahead[..NEAREST]
            .iter()
            .map(|&(_, k)| s.gap(u, &s.units[k]))
            .fold(f64::NEG_INFINITY, f64::max);
        ahead.retain(|&(bound, _)| bound <= limit + 1e-9);
    }
    let mut best: Vec<(f64, usize)> = ahead
        .into_iter()
        .map(|(_, k)| (s.gap(u, &s.units[k]), k))
        .collect();
    best.sort_by(|x, y| {
        x.0.total_cmp(&y.0)
            .then(s.units[x.1].id.cmp(&s.units[y.1].id))
    });
    best.truncate(NEAREST);
    let more = total - best.len();
    (best.into_iter().map(|(d, k)| (k, d)).collect(), more)
}

/// The shot at `e` as the fire code would judge it, or why there is none.
fn fire_line(s: &State, i: usize, ei: usize) -> String {
    let (u, e) = (&s.units[i], &s.units[ei]);
    match shot_at(s, u, e) {
        Err(no) => format!("  cannot fire: {}", no.words(&name(e), s.short())),
        Ok(d) => {
            let t = shot_terms(s, i, ei, d, false);
            let aimed = shot_terms(s, i, ei, d, true);
            format!(
                "  fire at {}: {}, {}; your d6 {:+} ({}) must beat its d6 {:+} ({}): a disorder on {} of 36, aimed {} of 36{}",
                name(e),
                cm(s, d),
                t.band,
                t.shooter_total(),
                mods(&t.shooter),
                t.target_total(),
                mods(&t.target),
                t.disorder_chances(),
                aimed.disorder_chances(),
                if t.canister {
                    "; canister: every disorder rolls a critical event"
                } else {
                    ""
                }
            )
        }
    }
}

/// Whether an enemy `gap` cm away (edge to edge) may be met by a move of
/// `allow` cm or at the double: a move meets nothing farther than it goes.
fn may_meet(s: &State, gap: f64, allow: f64) -> bool {
    crate::geometry::limit::within(gap, allow + s.short())
}

/// The charges unit `i` may make now, as the panel tells them: each enemy
/// ahead (of the nearest told) that a move or double time straight at it
/// meets, with how far it goes to meet it (cm); within `allow` a move
/// does, beyond it only double time. For the orders page.
pub(super) fn charges(s: &State, work: &mut State, i: usize, allow: f64) -> Vec<(usize, f64)> {
    let (near, _) = enemies_ahead(s, &s.units[i]);
    near.into_iter()
        .filter(|&(_, gap)| may_meet(s, gap, allow))
        .filter_map(|(k, _)| charge_met(s, work, i, k, allow).map(|cm| (k, cm)))
        .collect()
}

/// How far a move (or double time) straight at `e` goes before it meets
/// it, when it does, tried with the movement code itself.
fn charge_met(s: &State, work: &mut State, i: usize, ei: usize, allow: f64) -> Option<f64> {
    let (u, e) = (&s.units[i], &s.units[ei]);
    if u.arm() == Arm::Artillery || allow <= 0.0 {
        return None;
    }
    let at = u.at?;
    let dir = clamp_45(u.facing, s.centre(e) - at)?;
    let double = allow + s.short();
    let t = travel(work, i, dir, double);
    work.units[i].at = u.at;
    (t.contact.as_deref() == Some(e.id.as_str())).then_some(t.cm)
}

/// The panel's line for a charge at `e`, when a move or double time
/// straight at it meets it.
fn charge_line(s: &State, work: &mut State, i: usize, ei: usize, allow: f64) -> Option<String> {
    let e = &s.units[ei];
    let met = charge_met(s, work, i, ei, allow)?;
    let double = allow + s.short();
    Some(if crate::geometry::limit::within(met, allow) {
        format!(
            "  charge {}: met after {}, within its move (move or seize the initiative)",
            name(e),
            cm(s, met)
        )
    } else {
        format!(
            "  charge {}: met after {}, at the double only ({:.1} cm)",
            name(e),
            cm(s, met),
            double
        )
    })
}

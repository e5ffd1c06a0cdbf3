//! Movement and Turning: a move goes forward up to the unit's speed, at up
//! to 45 degrees from its facing without turning; pivots turn about the
//! centre; a move stops at the first enemy it meets (a charge), short of
//! friends, impassable ground and the table's edge; difficult ground
//! costs double (house rule, `ground.rs`).

use super::distance::EPS;
use super::ground;
use super::scenario::Arm;
use super::state::{CONTACT, Formation, State, Unit};
use crate::geometry::contact::first_touch;
use crate::geometry::{Angle, Point, overlaps};

/// A unit's one move, cm: its speed; a line one short less (Infantry
/// Formations: line -1 movement, read as -1 S); nothing for a square or
/// unlimbered guns.
pub fn allowance(s: &State, u: &Unit) -> f64 {
    allowance_why(s, u).0
}

/// [`allowance`] with what shortens it, in words, for reports.
pub fn allowance_why(s: &State, u: &Unit) -> (f64, Vec<String>) {
    // A square or an unlimbered battery stays put, broken line or not.
    if matches!(u.formation, Formation::Square | Formation::Unlimbered) {
        return (
            0.0,
            vec![format!("a unit in {} does not move", u.formation.name())],
        );
    }
    let speed = f64::from(u.troop.speed);
    let mut why = Vec::new();
    let shorts = match u.modifying_formation() {
        Some(Formation::Line) => {
            why.push("line: 1 S less".to_string());
            (speed - 1.0).max(0.0)
        }
        _ => speed,
    };
    if u.status.broken_line && u.formation == Formation::Line {
        why.push("broken line: no formation modifier".to_string());
    }
    (shorts * s.short(), why)
}

/// Whether the direction `dir` is forward within 45 degrees of `facing`.
pub fn within_45(facing: Angle, dir: Point) -> bool {
    Angle::of_vector(dir).is_some_and(|a| facing.difference_to(a).abs() <= 45.0 + 1e-6)
}

/// `dir` turned toward `facing` until it is within 45 degrees of it.
pub fn clamp_45(facing: Angle, dir: Point) -> Option<Point> {
    let a = Angle::of_vector(dir)?;
    let d = facing.difference_to(a).clamp(-45.0, 45.0);
    Some(facing.turned(d).unit_vector())
}

/// Where a move ended and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Travel {
    pub from: Point,
    pub to: Point,
    pub cm: f64,
    /// The enemy it met, if any.
    pub contact: Option<String>,
    /// Why it stopped short, if it did.
    pub stopped: Option<String>,
    /// Difficult ground it crossed (at double cost), by name.
    pub slowed: Option<String>,
}

const STEP: f64 = 0.5;

/// Move unit `i` along `dir` (made a unit vector) with `budget` cm to
/// spend, facing kept. Enemies in contact at the start are left out (a
/// recoil moves away from them).
pub fn travel(s: &mut State, i: usize, dir: Point, budget: f64) -> Travel {
    let u = s.units[i].clone();
    let from = u.at.unwrap_or_default();
    let len = dir.length();
    let mut out = Travel {
        from,
        to: from,
        cm: 0.0,
        contact: None,
        stopped: None,
        slowed: None,
    };
    if len < 1e-9 || budget <= EPS {
        return out;
    }
    let dir = dir.scale(1.0 / len);
    let bases = s.bases(&u);
    let engaged: Vec<String> = s.contacts(&u).iter().map(|e| e.id.clone()).collect();
    // The first enemy met, and the first friend not already touching.
    let mut limit = f64::INFINITY;
    let mut met: Option<String> = None;
    // The friend that limits the move, if a friend does.
    let mut friend: Option<String> = None;
    // A unit farther from the path than both units' reach cannot be met
    // within the budget: it is not laid out.
    let end = from + dir.scale(budget);
    let near = |o: &&Unit| {
        o.at.is_some_and(|p| p.distance_to_segment(from, end).get() <= s.gap_at_least_slack() + 1.0)
    };
    for o in s
        .units
        .iter()
        .filter(|o| o.placed() && o.id != u.id)
        .filter(near)
    {
        if engaged.contains(&o.id) {
            continue;
        }
        let ob = s.bases(o);
        if o.side == u.side && s.gap(&u, o) <= CONTACT {
            continue;
        }
        if let Some(t) = first_touch(&bases, &ob, dir) {
            let t = if o.side == u.side {
                (t - 0.1).max(0.0)
            } else {
                t
            };
            if t < limit - 1e-9 {
                limit = t;
                met = (o.side != u.side).then(|| o.id.clone());
                friend = (o.side == u.side).then(|| o.name.clone());
            }
        }
    }
    let (w, h) = (s.scenario.table.width.get(), s.scenario.table.height.get());
    let terrain = s.scenario.terrain.clone();
    let mut gone = 0.0;
    let mut left = budget;
    loop {
        let step = STEP.min(limit - gone);
        if step <= 1e-9 {
            if met.is_some() && gone >= limit - 1e-6 {
                out.contact = met.clone();
            }
            if let Some(f) = &friend {
                out.stopped = Some(format!("{f} in the way"));
            }
            break;
        }
        let next: Vec<_> = bases
            .iter()
            .map(|b| b.translated(dir.scale(gone + step)))
            .collect();
        if next
            .iter()
            .flat_map(|b| b.corners())
            .any(|c| c.x < -EPS || c.y < -EPS || c.x > w + EPS || c.y > h + EPS)
        {
            out.stopped = Some("the table's edge".into());
            break;
        }
        if let Some(f) = ground::impassable_feature(&terrain, &next) {
            out.stopped = Some(format!("impassable ground ({})", f.name));
            break;
        }
        let rough = ground::difficult_feature(&terrain, &next);
        if let Some(f) = rough
            && out.slowed.is_none()
        {
            out.slowed = Some(f.name.clone());
        }
        let cost = if rough.is_some() { 2.0 * step } else { step };
        if cost > left + 1e-9 {
            // Spend what is left at the rate of this ground.
            let part = if cost > step { left / 2.0 } else { left };
            gone += part;
            break;
        }
        left -= cost;
        gone += step;
        if left <= 1e-9 {
            if met.is_some() && gone >= limit - 1e-6 {
                out.contact = met.clone();
            }
            break;
        }
    }
    out.to = from + dir.scale(gone);
    out.cm = gone;
    s.units[i].at = Some(out.to);
    out
}

/// Turn unit `i` by `degrees` about its centre; refused (nothing changed,
/// the reason given) when it would then stand off the table, in impassable
/// ground or over another unit.
pub fn pivot(s: &mut State, i: usize, degrees: f64) -> Result<(), String> {
    let u = s.units[i].clone();
    let Some(at) = u.at else {
        return Err("it is not on the table".into());
    };
    let centre = s.centre(&u);
    let facing = u.facing.turned(degrees);
    let to = at.rotated_about(centre, degrees);
    if let Some(why) = misfit(s, i, to, facing, u.formation) {
        return Err(why);
    }
    s.units[i].at = Some(to);
    s.units[i].facing = facing;
    Ok(())
}

/// Why unit `i` may not stand at `at` facing `facing` in `f`, if it may
/// not: off the table, in impassable ground (named), or over a unit (named).
pub fn misfit(s: &State, i: usize, at: Point, facing: Angle, f: Formation) -> Option<String> {
    let u = &s.units[i];
    let bases = s.bases_as(u, at, facing, f);
    let (w, h) = (s.scenario.table.width.get(), s.scenario.table.height.get());
    let on_table = bases
        .iter()
        .flat_map(|b| b.corners())
        .all(|c| c.x >= -EPS && c.y >= -EPS && c.x <= w + EPS && c.y <= h + EPS);
    if !on_table {
        return Some(format!(
            "it would stand off the table ({w:.0} by {h:.0} cm)"
        ));
    }
    if let Some(t) = ground::impassable_feature(&s.scenario.terrain, &bases) {
        return Some(format!("it would stand in impassable ground ({})", t.name));
    }
    s.units
        .iter()
        .filter(|o| o.placed() && o.id != u.id)
        .find(|o| overlaps(&bases, &s.bases(o)))
        .map(|o| format!("it would overlap {}", o.name))
}

/// How far a unit recoils from melee: infantry 1 S, cavalry 1 M (Actions:
/// recoil); artillery cannot.
pub fn recoil_distance(s: &State, u: &Unit) -> Option<f64> {
    match u.arm() {
        Arm::Infantry => Some(s.short()),
        Arm::Cavalry => Some(2.0 * s.short()),
        Arm::Artillery => None,
    }
}

//! E.1 formed regiments: two or more touching companies of one line
//! infantry or heavy cavalry regiment act as one. They move together, take
//! command and morale tests with one die, and share shooting hits so that
//! as few companies as possible are destroyed.

use super::movement::carry_out;
use super::orders::{Action, PathStep};
use super::state::State;
use super::units::{Quality, TroopType};
use super::words::{self, What};
use crate::event::{Event, Facts};
use crate::geometry::{Angle, Distance, Point, base_distance};
use crate::side::SideId;

/// Bases closer than this touch (E.1).
const TOUCH: f64 = 0.01;

/// The regiment a company belongs to, with its side.
pub fn regiment_of(s: &State, company: &str) -> Option<(SideId, String)> {
    s.scenario.sides.iter().find_map(|side| {
        side.regiments
            .iter()
            .find(|r| r.companies.iter().any(|c| c == company))
            .map(|r| (side.id.clone(), r.id.clone()))
    })
}

/// The qualities the scenario gives a company (E.7).
pub fn qualities(s: &State, company: &str) -> Vec<Quality> {
    s.scenario
        .sides
        .iter()
        .flat_map(|x| &x.companies)
        .find(|c| c.id == company)
        .map(|c| c.qualities.clone())
        .unwrap_or_default()
}

fn formable(t: TroopType) -> bool {
    matches!(t, TroopType::LineInfantry | TroopType::HeavyCavalry)
}

/// E.1: the formed regiment among `members` (companies of one regiment):
/// the largest group of live line infantry or heavy cavalry companies of one
/// type, linked base to base, of at least two. Ties go to the group holding
/// the earliest listed company. `None` when no two such companies touch, or
/// when the scenario does not play formed regiments.
pub fn formed_among(s: &State, members: &[String]) -> Option<Vec<String>> {
    if !s.scenario.options.formed_regiments {
        return None;
    }
    let live: Vec<&super::state::Company> = members
        .iter()
        .filter_map(|m| s.company(m))
        .filter(|c| c.on_table() && formable(c.profile.troop))
        .collect();
    let touch = |a: usize, b: usize| {
        live[a].profile.troop == live[b].profile.troop
            && base_distance(&live[a].base(&s.scenario), &live[b].base(&s.scenario)).get() <= TOUCH
    };
    let mut group_of: Vec<Option<usize>> = vec![None; live.len()];
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for start in 0..live.len() {
        if group_of[start].is_some() {
            continue;
        }
        let g = groups.len();
        let mut todo = vec![start];
        let mut found = Vec::new();
        group_of[start] = Some(g);
        while let Some(i) = todo.pop() {
            found.push(i);
            let joining: Vec<usize> = (0..live.len())
                .filter(|&j| group_of[j].is_none() && touch(i, j))
                .collect();
            for j in joining {
                group_of[j] = Some(g);
                todo.push(j);
            }
        }
        found.sort_unstable();
        groups.push(found);
    }
    // Groups are found in list order, so the first of the largest wins ties.
    let best = groups.into_iter().filter(|g| g.len() >= 2).fold(
        None::<Vec<usize>>,
        |best, g| match best {
            Some(b) if b.len() >= g.len() => Some(b),
            _ => Some(g),
        },
    )?;
    Some(best.into_iter().map(|i| live[i].id.clone()).collect())
}

/// E.1: the formed regiment of a named regiment of `side`, if formed now.
pub fn formed(s: &State, side: &SideId, regiment: &str) -> Option<Vec<String>> {
    formed_among(s, &s.regiment(side, regiment)?)
}

/// The formed regiment a company stands in now, if any.
pub fn formed_with(s: &State, company: &str) -> Option<Vec<String>> {
    let (side, r) = regiment_of(s, company)?;
    formed(s, &side, &r).filter(|g| g.iter().any(|c| c == company))
}

/// Split `ids` (companies of one side) into the units that act and test:
/// each formed regiment is one unit; every other company is its own.
pub fn units(s: &State, ids: &[String]) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    for id in ids {
        if out.iter().any(|u| u.contains(id)) {
            continue;
        }
        match formed_with(s, id) {
            Some(g) => out.push(g.into_iter().filter(|c| ids.contains(c)).collect()),
            None => out.push(vec![id.clone()]),
        }
    }
    out
}

/// E.1: apply `hits` from shooting aimed at `company`. In a formed
/// regiment the hits are shared: first to the companies its side named to
/// take them (`HitsOrder`), each until destroyed; otherwise (the default)
/// each hit in turn goes to the member with the most strength points left,
/// the company shot at first on a tie, then the regiment's order, which
/// destroys the fewest companies. Reports each company's new strength and
/// removes those at 0 (A.1).
pub fn take_shooting_hits(s: &mut State, company: &str, hits: u32, events: &mut Vec<Event>) {
    if hits == 0 {
        return;
    }
    let mut group = formed_with(s, company).unwrap_or_else(|| vec![company.to_string()]);
    // The company shot at first, so that it takes the ties.
    group.retain(|c| c != company);
    group.insert(0, company.to_string());
    let mut strength: Vec<u32> = group
        .iter()
        .map(|c| s.company(c).map_or(0, |x| x.strength()))
        .collect();
    let mut taken = vec![0u32; group.len()];
    // E.1: the owning side's choice first, if it made one.
    let first: Vec<usize> = regiment_of(s, company)
        .and_then(|(_, r)| s.hit_shares.get(&r))
        .map(|ids| {
            ids.iter()
                .filter_map(|id| group.iter().position(|g| g == id))
                .collect()
        })
        .unwrap_or_default();
    for _ in 0..hits {
        if let Some(&i) = first.iter().find(|&&i| strength[i] > 0) {
            strength[i] -= 1;
            taken[i] += 1;
            continue;
        }
        let Some(best) =
            (0..group.len())
                .filter(|&i| strength[i] > 0)
                .fold(None::<usize>, |b, i| match b {
                    Some(b) if strength[b] >= strength[i] => Some(b),
                    _ => Some(i),
                })
        else {
            break;
        };
        strength[best] -= 1;
        taken[best] += 1;
    }
    if group.len() > 1 {
        let losses = group
            .iter()
            .zip(&taken)
            .filter(|(_, t)| **t > 0)
            .map(|(c, t)| words::hits(c, *t))
            .collect();
        events.push(words::event(
            What::SharesHits,
            Facts {
                losses,
                ..words::unit(s, &group)
            },
        ));
    }
    for (i, id) in group.iter().enumerate() {
        if taken[i] == 0 {
            continue;
        }
        let Some(c) = s.company_mut(id) else { continue };
        c.hits += taken[i];
        let me = c.clone();
        let facts = Facts {
            losses: vec![words::hits(id, taken[i])],
            after: Some(strength[i] as i64),
            ..words::of(s, &me)
        };
        if strength[i] == 0 {
            s.destroy(id);
            events.push(words::event(What::Destroyed, facts));
        } else {
            events.push(words::event(What::SpLeft, facts));
        }
    }
}

/// E.1: the per-company orders that make a formed regiment move together.
/// Every member follows the same path (a `to` point is shifted by the
/// member's offset from the first member), all stop after the shortest
/// distance any one of them could go, and the members furthest along the
/// move go first so that none is blocked by a mate still to move.
pub fn move_together(s: &State, group: &[String], a: &Action) -> Vec<(String, Action)> {
    let Some(lead) = group.first().and_then(|g| s.company(g)).cloned() else {
        return Vec::new();
    };
    let mut per: Vec<(String, Action)> = group
        .iter()
        .filter_map(|id| s.company(id).map(|c| (id.clone(), c.at)))
        .map(|(id, at)| {
            let offset = at - lead.at;
            let path = a
                .path
                .iter()
                .map(|p| match p {
                    PathStep::To(q) => PathStep::To(*q + offset),
                    other => other.clone(),
                })
                .collect();
            (id, Action { path, ..a.clone() })
        })
        .collect();
    if a.path.is_empty() {
        return per;
    }
    // Each member's move with its mates lifted off the table.
    let mut ghost = s.clone();
    for id in group {
        if let Some(c) = ghost.company_mut(id) {
            c.destroyed = true;
        }
    }
    let mut shortest = f64::INFINITY;
    let mut shift = Point::new(0.0, 0.0);
    for (id, act) in &per {
        let Some(c) = s.company(id) else { continue };
        let charging = act.charge.is_some() && c.profile.troop.may_charge();
        let m = carry_out(&ghost, c, act, charging);
        if m.travelled < shortest {
            shortest = m.travelled;
        }
        if id == &lead.id {
            shift = m.at - c.at;
        }
    }
    for (id, act) in &mut per {
        if let Some(c) = s.company(id) {
            act.path = truncate(&act.path, c.at, c.facing, shortest);
        }
    }
    let ahead = |id: &str| s.company(id).map_or(0.0, |c| c.at.dot(shift));
    per.sort_by(|x, y| ahead(&y.0).total_cmp(&ahead(&x.0)));
    per
}

/// The path cut off after `limit` inches of straight movement.
fn truncate(path: &[PathStep], start: Point, facing: Angle, limit: f64) -> Vec<PathStep> {
    let mut out = Vec::new();
    let (mut at, mut facing, mut left) = (start, facing, limit);
    for step in path {
        if left <= 1e-9 {
            break;
        }
        match step {
            PathStep::Pivot(d) => {
                facing = facing.turned(*d);
                out.push(step.clone());
            }
            PathStep::Forward(d) => {
                let go = d.get().min(left);
                left -= go;
                at = at + facing.unit_vector().scale(go);
                out.push(PathStep::Forward(Distance(go)));
            }
            PathStep::To(p) => {
                let v = *p - at;
                let len = v.length();
                if let Some(f) = Angle::of_vector(v) {
                    facing = f;
                }
                if len <= left {
                    left -= len;
                    at = *p;
                    out.push(step.clone());
                } else {
                    let q = at + v.scale(left / len);
                    left = 0.0;
                    at = q;
                    out.push(PathStep::To(q));
                }
            }
        }
    }
    out
}

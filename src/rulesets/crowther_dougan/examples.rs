//! The example entries of the orders template: each one an order the side
//! could send now, alone, built from what the side knows (its own units,
//! the enemies it sees or has found, the terrain, the smoke it sees) and
//! kept only if the ruleset's own check takes it. An example the player
//! uncomments is never refused, and a hidden enemy changes none of them:
//! nothing here reads what the side does not know, and the check reads an
//! unseen enemy as no enemy at all.
//!
//! The cost is bounded whatever the size of the battle: at most
//! [`EXAMPLES`] entries a list, from at most [`TRIES`] candidates measured
//! in full, the nearby enemies found without measuring them all.

use super::check::check;
use super::fire::{barred, unit_bar};
use super::movement::{charge_reach, nearest_known};
use super::orders::{ChargeOrder, FireOrder, Join, Move, MoveOrders, Observe, Orders, Pledge};
use super::orders::{Reactions, Recall};
use super::state::{State, Status, Unit};
use crate::geometry::{Angle, Point};
use crate::side::SideId;

/// Entries shown per list: enough to show the form, few enough to read.
pub const EXAMPLES: usize = 8;
/// Candidates measured in full (sight, reach, the check) per list.
const TRIES: usize = 48;
/// Enemies tried per unit, nearest first.
const PER_UNIT: usize = 4;
/// Enemy smoke further than this is not worth a unit's observation (cm).
const SMOKE_NEAR: f64 = 45.0;

/// The examples of one move's orders.
#[derive(Default)]
pub struct Examples {
    pub observe: Vec<Observe>,
    pub charges: Vec<ChargeOrder>,
    pub pledges: Vec<Pledge>,
    pub recall: Vec<Recall>,
    pub fire: Vec<FireOrder>,
    pub moves: Vec<Move>,
    pub personalities: Vec<Join>,
}

pub fn move_examples(s: &State, side: &SideId) -> Examples {
    let known = Known::new(s, side);
    Examples {
        observe: observe(s, side),
        charges: charges(s, side, &known),
        pledges: pledges(s, side, |p| Orders::Move(only(|m| m.pledges = vec![p]))),
        recall: recall(s, side),
        fire: fire(s, side, &known),
        moves: moves(s, side),
        personalities: personalities(s, side),
    }
}

/// The examples of standing reactions: a point pledged by each
/// personality to the unit he is with.
pub fn reaction_examples(s: &State, side: &SideId) -> Vec<Pledge> {
    pledges(s, side, |p| {
        Orders::Reactions(Reactions { pledges: vec![p] })
    })
}

/// Move orders holding nothing but what `fill` puts in.
fn only(fill: impl FnOnce(&mut MoveOrders)) -> MoveOrders {
    let mut m = MoveOrders::default();
    fill(&mut m);
    m
}

/// The first candidates the check takes alone, one per `key` (a unit or
/// a personality: two entries for one unit would be refused together),
/// from at most [`TRIES`] checks.
fn kept<T: Clone>(
    s: &State,
    side: &SideId,
    candidates: impl Iterator<Item = T>,
    key: impl Fn(&T) -> &str,
    wrap: impl Fn(T) -> Orders,
) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    let mut tried = 0;
    for c in candidates {
        if out.len() >= EXAMPLES || tried >= TRIES {
            break;
        }
        if out.iter().any(|o| key(o) == key(&c)) {
            continue;
        }
        tried += 1;
        if check(s, side, &wrap(c.clone())).is_empty() {
            out.push(c);
        }
    }
    out
}

/// A point as the template writes it (one decimal), so that the entry
/// checked is the entry read back.
fn written(p: Point) -> Point {
    Point::new((p.x * 10.0).round() / 10.0, (p.y * 10.0).round() / 10.0)
}

/// The enemies the side knows of, ordered by x, so that those near a unit
/// are found without measuring them all (a big battle asks for every
/// unit).
struct Known<'a> {
    by_x: Vec<&'a Unit>,
    /// The largest reach of any of them from its centre.
    reach: f64,
}

impl<'a> Known<'a> {
    fn new(s: &'a State, side: &'a SideId) -> Known<'a> {
        let mut by_x: Vec<&Unit> = s.known_enemies(side).collect();
        by_x.sort_by(|a, b| a.at.x.total_cmp(&b.at.x));
        let reach = by_x.iter().map(|e| e.reach()).fold(0.0, f64::max);
        Known { by_x, reach }
    }

    /// Those within `d` of `u`, edge to edge, nearest first; at most
    /// [`PER_UNIT`], measured exactly among the nearest by a cheap bound.
    fn near(&self, s: &State, u: &Unit, d: f64) -> Vec<&'a Unit> {
        let band = d + u.reach() + self.reach;
        let lo = self.by_x.partition_point(|e| e.at.x < u.at.x - band);
        let hi = self.by_x.partition_point(|e| e.at.x <= u.at.x + band);
        let mut out: Vec<(f64, &Unit)> = self.by_x[lo..hi]
            .iter()
            .map(|e| (s.gap_at_least(u, e), *e))
            .filter(|(g, _)| *g <= d)
            .collect();
        let by_gap = |a: &(f64, &Unit), b: &(f64, &Unit)| {
            a.0.total_cmp(&b.0).then_with(|| a.1.id.cmp(&b.1.id))
        };
        out.sort_by(by_gap);
        out.truncate(2 * PER_UNIT);
        for x in &mut out {
            x.0 = s.gap(u, x.1);
        }
        out.retain(|(g, _)| *g <= d);
        out.sort_by(by_gap);
        out.into_iter().take(PER_UNIT).map(|(_, e)| e).collect()
    }
}

/// Each unit looks at the nearest enemy smoke it sees within 45 cm, or
/// else into the nearest wood or building, where troops may hide (the
/// demo general's choice).
fn observe(s: &State, side: &SideId) -> Vec<Observe> {
    let candidates = s.live(side).filter_map(|u| {
        let at = smoke_near(s, side, u).or_else(|| super::demo::area(s, u))?;
        Some(Observe {
            unit: u.id.clone(),
            at: written(at),
        })
    });
    kept(
        s,
        side,
        candidates,
        |o| &o.unit,
        |o| Orders::Move(only(|m| m.observe = vec![o])),
    )
}

/// The nearest enemy smoke to `u`: all of it is in the side's report.
fn smoke_near(s: &State, side: &SideId, u: &Unit) -> Option<Point> {
    s.smoke
        .iter()
        .filter(|x| &x.side != side)
        .map(|x| (x.at.distance_to(u.at).get(), x.at))
        .filter(|(d, _)| *d <= SMOKE_NEAR)
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, p)| p)
}

/// A charge of a unit in good order at a known enemy it sees within its
/// reach, nearest first.
fn charges(s: &State, side: &SideId, known: &Known) -> Vec<ChargeOrder> {
    let candidates = s
        .live(side)
        .filter(|u| u.status == Status::Good)
        .flat_map(|u| {
            known
                .near(s, u, 1.5 * u.mv())
                .into_iter()
                .map(move |e| (u, e))
        })
        .take(TRIES)
        .filter(|(u, e)| {
            s.unit_sees(u, e) && charge_reach(s, u, e).is_some_and(|r| s.gap(u, e) <= r)
        })
        .map(|(u, e)| ChargeOrder {
            unit: u.id.clone(),
            target: e.id.clone(),
        });
    kept(
        s,
        side,
        candidates,
        |c| &c.unit,
        |c| Orders::Move(only(|m| m.charges = vec![c])),
    )
}

/// Fire of a unit able to fire at the nearest known enemy it sees in range.
fn fire(s: &State, side: &SideId, known: &Known) -> Vec<FireOrder> {
    let candidates = s
        .live(side)
        // As it will stand when it fires: its own move forgets its last fire.
        .map(|u| u.clone_for_check())
        .filter(|u| unit_bar(u).is_none())
        .flat_map(|u| {
            let near = known.near(s, &u, u.troop.range());
            near.into_iter().map(move |e| (u.clone(), e))
        })
        .take(TRIES)
        .filter(|(u, e)| barred(s, u, e).is_none())
        .map(|(u, e)| FireOrder {
            unit: u.id,
            target: e.id.clone(),
        });
    kept(
        s,
        side,
        candidates,
        |f| &f.unit,
        |f| Orders::Move(only(|m| m.fire = vec![f])),
    )
}

/// The ways a move example tries, turned from the unit's facing: ahead,
/// back, left, right.
const WAYS: [f64; 4] = [0.0, 180.0, 270.0, 90.0];

/// Half a move ahead, else back, left or right: well within its move
/// whatever the ground takes. A unit that may not advance toward the
/// enemy is offered only moves that do not.
fn moves(s: &State, side: &SideId) -> Vec<Move> {
    let candidates = s
        .live(side)
        .filter(|u| u.status == Status::Good)
        .flat_map(|u| {
            WAYS.into_iter().map(move |turn| {
                let way = Angle(u.facing).turned(turn).unit_vector();
                (u, written(u.at + way.scale(u.mv() / 2.0)))
            })
        })
        // Asking whether a move advances measures every known enemy.
        .take(WAYS.len() * TRIES)
        .filter(|(u, to)| !u.no_advance || !advances(s, u, *to))
        .map(|(u, to)| Move {
            unit: u.id.clone(),
            to: Some(to),
            formation: None,
            about: false,
        });
    kept(
        s,
        side,
        candidates,
        |m| &m.unit,
        |mv| Orders::Move(only(|m| m.moves = vec![mv])),
    )
}

/// Whether a move to `to` brings `u` nearer the nearest enemy its side
/// knows of, as the move's resolution judges it.
fn advances(s: &State, u: &Unit, to: Point) -> bool {
    let mut probe = u.clone();
    probe.at = to;
    match (nearest_known(s, u), nearest_known(s, &probe)) {
        (Some(before), Some(after)) => after < before - 0.5,
        _ => false,
    }
}

/// A point pledged by each personality to the unit he is with.
fn pledges(s: &State, side: &SideId, wrap: impl Fn(Pledge) -> Orders) -> Vec<Pledge> {
    let candidates = s
        .persons
        .iter()
        .filter(|p| &p.side == side && !p.hit)
        .filter_map(|p| {
            Some(Pledge {
                personality: p.id.clone(),
                unit: p.with.clone()?,
                points: 1,
            })
        });
    kept(s, side, candidates, |p| &p.personality, wrap)
}

/// A pursuit called off by the personality with the pursuer, if he has
/// the 2 points it costs.
fn recall(s: &State, side: &SideId) -> Vec<Recall> {
    let candidates = s
        .persons
        .iter()
        .filter(|p| &p.side == side && !p.hit && p.points >= 2)
        .filter_map(|p| {
            let u = s.unit(p.with.as_deref()?)?;
            (u.status == Status::Pursuing).then(|| Recall {
                personality: p.id.clone(),
                unit: u.id.clone(),
            })
        });
    kept(
        s,
        side,
        candidates,
        |r| &r.personality,
        |r| Orders::Move(only(|m| m.recall = vec![r])),
    )
}

/// Each personality joins the nearest other unit of his side in good order.
fn personalities(s: &State, side: &SideId) -> Vec<Join> {
    let candidates = s
        .persons
        .iter()
        .filter(|p| &p.side == side && !p.hit)
        .filter_map(|p| {
            let with = p.with.as_deref().and_then(|w| s.unit(w));
            let from = with.map_or(Point::new(0.0, 0.0), |u| u.at);
            let u = s
                .live(side)
                .filter(|u| u.status == Status::Good && Some(u.id.as_str()) != p.with.as_deref())
                .min_by(|a, b| {
                    let d = |x: &Unit| x.at.distance_to(from).get();
                    d(a).total_cmp(&d(b)).then_with(|| a.id.cmp(&b.id))
                })?;
            Some(Join {
                personality: p.id.clone(),
                unit: u.id.clone(),
            })
        });
    kept(
        s,
        side,
        candidates,
        |j| &j.personality,
        |j| Orders::Move(only(|m| m.personalities = vec![j])),
    )
}

//! Checking orders on receipt: what could never be legal is refused with
//! the rule it breaks (the source's section). Nothing here looks at what
//! the side cannot see: an unseen enemy reads as no enemy at all, and an
//! order that would bump into one is accepted, to be stopped at
//! resolution.

use super::fire::barred;
use super::movement::{charge_reach, closed_on_way, crossed};
use super::orders::{FOUND, MoveOrders, Orders, Pledge, Reactions};
use super::state::{Phase, State, Status, Unit};
use super::tables::KEEP_OFF;
use super::unseen;
use crate::ruleset::{Violation, did_you_mean};
use crate::side::SideId;
use std::collections::{BTreeMap, BTreeSet};

pub const SEQUENCE: &str = "Sequence of Play: moves are alternate";
pub const OWN: &str = "Sequence of Play: order only your own units on the table";
pub const ONCE: &str = "Sequence of Play: one entry per unit in each list";
pub const OBSERVE: &str = "Observation: one area, at most 20 cm across, per unit";
pub const SEEN: &str = "Observation: act only on enemies your side can see or has found";
pub const CHARGE: &str =
    "Hand to Hand Combat, Charge Procedure Step 1: a target within 150% of a normal move";
pub const FIRE: &str = "Firing: one fire per move, loaded, in range, at a target the unit sees";
pub const MOVE: &str = "Movement: dense woods and thickets are impassable to all but skirmishers";
pub const KEEP: &str =
    "Charge Procedure N.B.: no closer than 5 cm to an enemy unit unless charging";
pub const FORMATION: &str =
    "Movement: close order line or column, skirmishers open order, guns limbered or unlimbered";
pub const POINTS: &str = "Command Points: 1 per point on a morale test, 2 for a new order, from a personality in contact with the unit";

fn v(path: &[&str], unit: &str, rule: &str, msg: impl Into<String>) -> Violation {
    Violation::new(path, Some(unit), rule, msg)
}

pub fn check(s: &State, side: &SideId, o: &Orders) -> Vec<Violation> {
    match (&s.phase, o) {
        (Phase::Over(x), _) => vec![Violation::new(
            &[],
            None,
            SEQUENCE,
            format!("the game is over ({})", x.reason),
        )],
        (Phase::Setup, Orders::Deploy(d)) if super::deploy::deployers(s).contains(side) => {
            super::deploy::check(s, side, d)
        }
        (Phase::Setup, _) => vec![Violation::new(
            &[],
            None,
            SEQUENCE,
            if super::deploy::deployers(s).contains(side) {
                "this is the setup step: send `deploy:` orders placing your hidden units"
            } else {
                "the enemy is deploying: you owe nothing until the first move"
            },
        )],
        (_, Orders::Deploy(_)) => vec![Violation::new(
            &[],
            None,
            SEQUENCE,
            "hidden units are deployed in the setup step only",
        )],
        (Phase::Move { active, .. }, Orders::Move(m)) if active == side => move_orders(s, side, m),
        (Phase::Move { active, .. }, Orders::Reactions(r)) if active != side => {
            reactions(s, side, r)
        }
        (Phase::Move { active, .. }, _) if active == side => vec![Violation::new(
            &[],
            None,
            SEQUENCE,
            "this is your move: send `move:` orders",
        )],
        (Phase::Move { .. }, _) => vec![Violation::new(
            &[],
            None,
            SEQUENCE,
            "the enemy is moving: you may send only `reactions:`",
        )],
    }
}

fn own<'a>(s: &'a State, side: &SideId, id: &str) -> Option<&'a Unit> {
    s.unit(id).filter(|u| u.live() && &u.side == side)
}

fn not_own(s: &State, side: &SideId, id: &str, path: &[&str]) -> Violation {
    let known = s.live(side).map(|u| u.id.as_str());
    v(
        path,
        id,
        OWN,
        format!(
            "{id} is not one of your units on the table{}",
            did_you_mean(id, known)
        ),
    )
}

/// An enemy the side knows of; the same refusal for one that does not
/// exist and one unseen, so that refusals never tell of hidden troops.
fn known_enemy<'a>(s: &'a State, side: &SideId, id: &str) -> Option<&'a Unit> {
    s.unit(id)
        .filter(|u| u.live() && &u.side != side && s.sees(side, u))
}

fn unseen(s: &State, side: &SideId, id: &str, path: &[&str], unit: &str) -> Violation {
    let known: Vec<&str> = s.known_enemies(side).map(|u| u.id.as_str()).collect();
    v(
        path,
        unit,
        SEEN,
        format!(
            "{id} is no enemy unit your side can see{}",
            did_you_mean(id, known)
        ),
    )
}

fn pledges(s: &State, side: &SideId, list: &[Pledge], top: &str, out: &mut Vec<Violation>) {
    let mut spent: BTreeMap<&str, u32> = BTreeMap::new();
    for (i, p) in list.iter().enumerate() {
        let i = i.to_string();
        let path = [top, "pledges", i.as_str()];
        let Some(person) = s
            .person(&p.personality)
            .filter(|x| &x.side == side && !x.hit)
        else {
            out.push(v(
                &path,
                &p.unit,
                POINTS,
                format!("{} is not one of your personalities in play", p.personality),
            ));
            continue;
        };
        if own(s, side, &p.unit).is_none() {
            out.push(not_own(s, side, &p.unit, &path));
            continue;
        }
        if person.with.as_deref() != Some(p.unit.as_str()) {
            out.push(v(
                &path,
                &p.unit,
                POINTS,
                format!("{} is not with {}", person.name, p.unit),
            ));
        }
        let total = spent.entry(person.id.as_str()).or_default();
        *total += p.points;
        if p.points == 0 || *total > person.points {
            out.push(v(
                &path,
                &p.unit,
                POINTS,
                format!(
                    "{} has {} command points a move",
                    person.name, person.points
                ),
            ));
        }
    }
}

fn move_orders(s: &State, side: &SideId, m: &MoveOrders) -> Vec<Violation> {
    let mut out = Vec::new();
    let w = s.scenario.table;
    let on_table = |p: crate::geometry::Point| {
        p.is_finite()
            && (0.0..=w.width.get()).contains(&p.x)
            && (0.0..=w.height.get()).contains(&p.y)
    };
    let mut seen = BTreeSet::new();
    for (i, ob) in m.observe.iter().enumerate() {
        let i = i.to_string();
        let path = ["move", "observe", i.as_str()];
        if own(s, side, &ob.unit).is_none() {
            out.push(not_own(s, side, &ob.unit, &path));
        } else if !seen.insert(&ob.unit) {
            out.push(v(
                &path,
                &ob.unit,
                OBSERVE,
                "a unit observes one area a move",
            ));
        } else if !on_table(ob.at) {
            out.push(v(
                &path,
                &ob.unit,
                OBSERVE,
                "the area's centre is off the table",
            ));
        }
    }
    let mut seen = BTreeSet::new();
    for (i, c) in m.charges.iter().enumerate() {
        let i = i.to_string();
        let path = ["move", "charges", i.as_str()];
        let Some(u) = own(s, side, &c.unit) else {
            out.push(not_own(s, side, &c.unit, &path));
            continue;
        };
        if !seen.insert(&c.unit) {
            out.push(v(&path, &c.unit, ONCE, "one charge per unit"));
            continue;
        }
        if c.target == FOUND || s.smoke_marker(side, &c.target).is_some() {
            if c.target == FOUND {
                out.extend(observes(m, &c.unit, &path, CHARGE));
            }
            continue;
        }
        let Some(t) = known_enemy(s, side, &c.target) else {
            out.push(unseen(s, side, &c.target, &path, &c.unit));
            continue;
        };
        if u.status != Status::Good {
            out.push(v(
                &path,
                &c.unit,
                CHARGE,
                "routing or pursuing units do not charge",
            ));
        } else if let Some(why) = unseen::why(s, u, t) {
            out.push(v(
                &path,
                &c.unit,
                SEEN,
                format!(
                    "{} does not itself see {}: {}",
                    u.name,
                    t.name,
                    why.words(str::to_string)
                ),
            ));
        } else if charge_reach(s, u, t).is_none() {
            out.push(v(
                &path,
                &c.unit,
                MOVE,
                format!(
                    "{} cannot reach {}: {} is closed to it",
                    u.name,
                    t.name,
                    closed_on_way(s, u, u.at, t.at).unwrap_or_else(|| "the ground".into())
                ),
            ));
        } else {
            let reach = charge_reach(s, u, t).unwrap_or(0.0);
            let gap = s.gap(u, t);
            if !crate::geometry::within(gap, reach) {
                out.push(v(
                    &path,
                    &c.unit,
                    CHARGE,
                    format!(
                        "{} is {gap:.1} cm away; {} reaches {reach:.1} cm, 150% of its {:.0} cm move (deductions assumed at 3 cm a die): {:.1} cm short",
                        t.name,
                        u.name,
                        u.mv(),
                        gap - reach
                    ),
                ));
            }
        }
    }
    pledges(s, side, &m.pledges, "move", &mut out);
    for (i, r) in m.recall.iter().enumerate() {
        let i = i.to_string();
        let path = ["move", "recall", i.as_str()];
        match own(s, side, &r.unit) {
            None => out.push(not_own(s, side, &r.unit, &path)),
            Some(u) if u.status != Status::Pursuing => out.push(v(
                &path,
                &r.unit,
                POINTS,
                format!("{} is not pursuing", u.name),
            )),
            Some(_) => {
                let ok = s.person(&r.personality).is_some_and(|p| {
                    &p.side == side && !p.hit && p.with.as_deref() == Some(r.unit.as_str())
                });
                if !ok {
                    out.push(v(
                        &path,
                        &r.unit,
                        POINTS,
                        format!("{} is not a personality of yours with it", r.personality),
                    ));
                }
            }
        }
    }
    let mut seen = BTreeSet::new();
    for (i, f) in m.fire.iter().enumerate() {
        let i = i.to_string();
        let path = ["move", "fire", i.as_str()];
        let Some(u) = own(s, side, &f.unit) else {
            out.push(not_own(s, side, &f.unit, &path));
            continue;
        };
        if !seen.insert(&f.unit) {
            out.push(v(
                &path,
                &f.unit,
                FIRE,
                "a unit may only fire once per move",
            ));
            continue;
        }
        if f.target == FOUND {
            out.extend(observes(m, &f.unit, &path, FIRE));
            continue;
        }
        if let Some(marker) = s.smoke_marker(side, &f.target) {
            out.extend(into_smoke(s, &u.clone_for_check(), marker, &path));
            continue;
        }
        let Some(t) = known_enemy(s, side, &f.target) else {
            out.push(unseen(s, side, &f.target, &path, &f.unit));
            continue;
        };
        // The unit's own sight is its side's knowledge too.
        if let Some(bar) = barred(s, &u.clone_for_check(), t) {
            out.push(v(
                &path,
                &f.unit,
                FIRE,
                format!(
                    "{} at {}: {}",
                    u.name,
                    t.name,
                    bar.words(true, str::to_string)
                ),
            ));
        }
    }
    let mut seen = BTreeSet::new();
    for (i, mv) in m.moves.iter().enumerate() {
        let i = i.to_string();
        let path = ["move", "moves", i.as_str()];
        let Some(u) = own(s, side, &mv.unit) else {
            out.push(not_own(s, side, &mv.unit, &path));
            continue;
        };
        if !seen.insert(&mv.unit) {
            out.push(v(&path, &mv.unit, ONCE, "a unit makes one move"));
            continue;
        }
        if let Some(f) = mv.formation
            && !f.fits(u.troop)
        {
            out.push(v(
                &path,
                &mv.unit,
                FORMATION,
                format!("{} cannot stand in {}", u.troop.label(), f.name()),
            ));
        }
        let Some(to) = mv.to else { continue };
        if !on_table(to) {
            out.push(v(
                &path,
                &mv.unit,
                MOVE,
                format!(
                    "the move ends off the table: ({:.1}, {:.1}) is outside 0 to {:.0} by 0 to {:.0} cm",
                    to.x,
                    to.y,
                    w.width.get(),
                    w.height.get()
                ),
            ));
            continue;
        }
        if crossed(s, u, u.at, to).is_none() {
            out.push(v(
                &path,
                &mv.unit,
                MOVE,
                format!(
                    "{} cannot pass {} on its way",
                    u.name,
                    closed_on_way(s, u, u.at, to).unwrap_or_else(|| "the dense woods".into())
                ),
            ));
            continue;
        }
        let mut probe = u.clone();
        probe.at = to;
        if let Some(e) = s
            .known_enemies(side)
            .find(|e| s.gap(&probe, e) < KEEP_OFF && s.gap(&probe, e) < s.gap(u, e))
        {
            out.push(v(
                &path,
                &mv.unit,
                KEEP,
                format!(
                    "the move ends {:.1} cm from {}, closer than 5 cm (now {:.1} cm)",
                    s.gap(&probe, e),
                    e.name,
                    s.gap(u, e)
                ),
            ));
        }
    }
    for (i, j) in m.personalities.iter().enumerate() {
        let i = i.to_string();
        let path = ["move", "personalities", i.as_str()];
        if own(s, side, &j.unit).is_none() {
            out.push(not_own(s, side, &j.unit, &path));
        } else if s
            .person(&j.personality)
            .is_none_or(|p| &p.side != side || p.hit)
        {
            out.push(v(
                &path,
                &j.unit,
                POINTS,
                format!("{} is not one of your personalities in play", j.personality),
            ));
        }
    }
    out
}

fn reactions(s: &State, side: &SideId, r: &Reactions) -> Vec<Violation> {
    let mut out = Vec::new();
    pledges(s, side, &r.pledges, "reactions", &mut out);
    out
}

impl Unit {
    /// The unit as it will stand when it fires: its side's own move
    /// starts with the fire of the last move forgotten.
    pub(super) fn clone_for_check(&self) -> Unit {
        let mut u = self.clone();
        u.fired = false;
        u
    }
}

/// An order whose target is `found` needs the unit to observe this move.
fn observes(m: &MoveOrders, unit: &str, path: &[&str], rule: &str) -> Option<Violation> {
    (!m.observe.iter().any(|o| o.unit == unit)).then(|| {
        v(
            path,
            unit,
            rule,
            format!(
                "`target: {FOUND}` names what {unit} finds by its own observation this move: give it an `observe:` entry too"
            ),
        )
    })
}

/// Fire into an enemy smoke marker: the unit may fire now, sees the smoke
/// and has it in range (measured to the smoke: whoever stands in it is
/// unknown).
pub(super) fn into_smoke(
    s: &State,
    u: &super::state::Unit,
    marker: &super::state::Smoke,
    path: &[&str],
) -> Option<Violation> {
    let at = marker.at;
    let bar = super::fire::unit_bar(u).or_else(|| {
        let seen = crate::geometry::sight::line_of_sight(
            u.at,
            at,
            &s.scenario.terrain,
            &super::state::BLOCKS_SIGHT,
        );
        let gap = crate::geometry::point_to_bases(at, &[u.base()]).get();
        if !seen {
            Some(super::fire::Bar::SmokeHidden)
        } else if gap > u.troop.range() {
            Some(super::fire::Bar::OutOfRange {
                gap,
                range: u.troop.range(),
            })
        } else {
            None
        }
    })?;
    Some(v(
        path,
        &u.id,
        FIRE,
        format!(
            "{} into {}: {}",
            u.name,
            super::fire::smoke_place(at),
            bar.words(false, str::to_string)
        ),
    ))
}

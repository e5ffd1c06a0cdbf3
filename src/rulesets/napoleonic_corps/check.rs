//! Checking orders on receipt: what could never be legal is refused with
//! the rule it breaks; what the dice may still change is left to the turn.

use super::movement::{allowance, turns};
use super::orders::{Deployment, Orders, Reactions, TurnOrders};
use super::state::{Phase, State};
use super::tables::Arm;
use crate::ruleset::Violation;
use crate::side::SideId;
use std::collections::BTreeSet;

pub const SEQUENCE: &str = "Sequence of Play: whole turns, one side phasing";
pub const OWN: &str = "Sequence of Play: order only your own live units";
pub const ONCE: &str = "Sequence of Play: a unit moves once in the movement phase";
pub const FORMATION: &str = "Formations: infantry square/skirmish/column/line/deployed, cavalry line/column, artillery limbered/unlimbered";
pub const DISTANCE: &str =
    "Movement Factors: the table's distance, halved for a change of facing or formation";
pub const CHARGE: &str = "Charge Phase: only cavalry make charge moves, at an enemy";
pub const FIRE: &str = "Fire Combat: units with a fire mod fire at an enemy; two batteries combine";
pub const GENERALS: &str = "Divisional generals: they work for units of their own corps";
pub const WITHDRAW: &str = "Movement special cases: cavalry withdrawal is for cavalry";

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
        (Phase::Setup, Orders::Deploy(d)) => deployment(s, side, d),
        (Phase::Setup, _) => vec![Violation::new(
            &[],
            None,
            SEQUENCE,
            "this step is the setup: send `deploy:` orders",
        )],
        (Phase::Turn { phasing, .. }, Orders::Turn(t)) if phasing == side => turn(s, side, t),
        (Phase::Turn { phasing, .. }, Orders::Reactions(r)) if phasing != side => {
            reactions(s, side, r)
        }
        (Phase::Turn { phasing, .. }, _) if phasing == side => {
            vec![Violation::new(
                &[],
                None,
                SEQUENCE,
                "this is your turn: send `turn:` orders",
            )]
        }
        (Phase::Turn { .. }, _) => vec![Violation::new(
            &[],
            None,
            SEQUENCE,
            "the other side is phasing: you may send only `reactions:`",
        )],
    }
}

fn own<'a>(s: &'a State, side: &SideId, id: &str) -> Option<&'a super::state::Unit> {
    s.unit(id).filter(|u| u.live() && &u.side == side)
}

fn deployment(s: &State, side: &SideId, d: &Deployment) -> Vec<Violation> {
    let mut out = Vec::new();
    for (i, f) in d.formations.iter().enumerate() {
        let i = i.to_string();
        let path = ["deploy", "formations", i.as_str()];
        match own(s, side, &f.unit) {
            None => out.push(v(
                &path,
                &f.unit,
                OWN,
                format!("{} is not one of your units", f.unit),
            )),
            Some(u) if !f.formation.fits(u.arm()) => out.push(v(
                &path,
                &f.unit,
                FORMATION,
                format!("{} cannot stand in {}", u.troop.label(), f.formation.name()),
            )),
            _ => {}
        }
    }
    out
}

fn turn(s: &State, side: &SideId, t: &TurnOrders) -> Vec<Violation> {
    let mut out = Vec::new();
    for (i, id) in t.passes.iter().enumerate() {
        let i = i.to_string();
        if own(s, side, id).is_none() {
            out.push(v(
                &["turn", "passes", i.as_str()],
                id,
                OWN,
                format!("{id} is not one of your units"),
            ));
        }
    }
    let mut seen = BTreeSet::new();
    for (i, m) in t.moves.iter().enumerate() {
        let i = i.to_string();
        let path = ["turn", "moves", i.as_str()];
        let Some(u) = own(s, side, &m.unit) else {
            out.push(v(
                &path,
                &m.unit,
                OWN,
                format!("{} is not one of your units", m.unit),
            ));
            continue;
        };
        if !seen.insert(m.unit.clone()) {
            out.push(v(
                &path,
                &m.unit,
                ONCE,
                "this unit is already ordered to move",
            ));
        }
        let f = m.formation.unwrap_or(u.formation);
        if !f.fits(u.arm()) {
            out.push(v(
                &path,
                &m.unit,
                FORMATION,
                format!("{} cannot form {}", u.troop.label(), f.name()),
            ));
            continue;
        }
        let d = m.to.map_or(0.0, |p| u.at.distance_to(p).get());
        let a = allowance(u, f, turns(u, m.facing), m.road);
        if d > a + 1e-6 {
            out.push(v(
                &path,
                &m.unit,
                DISTANCE,
                format!("{d:.1} cm is more than the {a:.1} cm it may move"),
            ));
        }
        if let Some(p) = m.to
            && (p.x < 0.0
                || p.y < 0.0
                || p.x > s.scenario.table.width.get()
                || p.y > s.scenario.table.height.get())
        {
            out.push(v(&path, &m.unit, DISTANCE, "the move ends off the table"));
        }
    }
    for (i, a) in t.generals.iter().enumerate() {
        let i = i.to_string();
        let path = ["turn", "generals", i.as_str()];
        match s
            .generals
            .iter()
            .find(|g| g.id == a.general && &g.side == side && !g.dead)
        {
            None => out.push(v(
                &path,
                &a.general,
                GENERALS,
                "no such live general of yours",
            )),
            Some(g) => {
                if own(s, side, &a.unit).is_none_or(|u| u.corps != g.corps) {
                    out.push(v(
                        &path,
                        &a.general,
                        GENERALS,
                        format!("{} is not a live unit of his corps", a.unit),
                    ));
                }
            }
        }
    }
    for (i, r) in t.commanders.iter().enumerate() {
        let i = i.to_string();
        let path = ["turn", "commanders", i.as_str()];
        match s.corps.iter().find(|c| c.id == r.corps && &c.side == side) {
            None => out.push(v(&path, &r.corps, OWN, "no such corps of yours")),
            Some(c) if c.at.distance_to(r.to).get() > super::turn::COMMANDER_RIDE + 1e-6 => out
                .push(v(
                    &path,
                    &r.corps,
                    "House rule: a corps commander rides at most 60 cm a turn",
                    "too far",
                )),
            _ => {}
        }
    }
    for (i, c) in t.charges.iter().enumerate() {
        let i = i.to_string();
        let path = ["turn", "charges", i.as_str()];
        match own(s, side, &c.unit) {
            None => out.push(v(
                &path,
                &c.unit,
                OWN,
                format!("{} is not one of your units", c.unit),
            )),
            Some(u) if u.arm() != Arm::Cavalry => {
                out.push(v(&path, &c.unit, CHARGE, "only cavalry charge"))
            }
            _ => {}
        }
        if s.unit(&c.target)
            .is_none_or(|e| !e.live() || &e.side == side)
        {
            out.push(v(
                &path,
                &c.unit,
                CHARGE,
                format!("{} is not a live enemy unit", c.target),
            ));
        }
    }
    for (i, f) in t.fire.iter().enumerate() {
        let i = i.to_string();
        let path = ["turn", "fire", i.as_str()];
        match own(s, side, &f.unit) {
            None => out.push(v(
                &path,
                &f.unit,
                OWN,
                format!("{} is not one of your units", f.unit),
            )),
            Some(u) if u.mods().fire.is_none() => {
                out.push(v(&path, &f.unit, FIRE, "this unit does not fire"))
            }
            Some(u) => {
                if let Some(w) = &f.with
                    && (u.arm() != Arm::Artillery
                        || own(s, side, w).is_none_or(|x| x.arm() != Arm::Artillery))
                {
                    out.push(v(
                        &path,
                        &f.unit,
                        FIRE,
                        "only two of your batteries combine their fire",
                    ));
                }
            }
        }
        if s.unit(&f.target)
            .is_none_or(|e| !e.live() || &e.side == side)
        {
            out.push(v(
                &path,
                &f.unit,
                FIRE,
                format!("{} is not a live enemy unit", f.target),
            ));
        }
    }
    out
}

fn reactions(s: &State, side: &SideId, r: &Reactions) -> Vec<Violation> {
    let mut out = Vec::new();
    for (i, id) in r.withdraw.iter().enumerate() {
        let i = i.to_string();
        let path = ["reactions", "withdraw", i.as_str()];
        match own(s, side, id) {
            None => out.push(v(&path, id, OWN, format!("{id} is not one of your units"))),
            Some(u) if u.arm() != Arm::Cavalry => out.push(v(&path, id, WITHDRAW, "not cavalry")),
            _ => {}
        }
    }
    for (i, id) in r.hold_fire.iter().enumerate() {
        let i = i.to_string();
        if own(s, side, id).is_none() {
            out.push(v(
                &["reactions", "hold_fire", i.as_str()],
                id,
                OWN,
                format!("{id} is not one of your units"),
            ));
        }
    }
    out
}

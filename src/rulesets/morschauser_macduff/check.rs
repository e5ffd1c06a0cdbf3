//! Checking orders on receipt: only what could never be legal is refused.
//! Anything the dice may still make impossible is left to resolution, where
//! the company follows its fallback.

use super::orders::{
    Action, Deployment, GeneralOrder, HitsOrder, Orders, PathStep, Sequence, TurnOrders,
};
use super::scenario::TerrainKind;
use super::state::{Phase, State};
use super::units::TroopType;
use crate::geometry::Distance;
use crate::ruleset::Violation;
use crate::side::SideId;
use std::collections::BTreeSet;

pub const SEQUENCE: &str = "A.5 Sequence of play";
pub const UNKNOWN: &str = "A.1 Unit organisation: order only your own companies";
pub const TWICE: &str = "A.5 Sequence of play: each company acts once a turn";
pub const NO_CHARGE: &str = "B.3 Charges: artillery, engineers and wagons cannot charge";
pub const SHOOT_MOVE_CHARGE: &str =
    "B.2 Movement and combat: a unit which shoots then moves may not charge";
pub const TOO_FAR: &str = "B.1 Movement / C.1 Roads: at most the maximum move, +50% on a road";
pub const ACTOR: &str = "A.5 Sequence of play: each entry names one company or one formed regiment";
pub const REGIMENTS: &str = "E.1 Formed regiments";
/// E.1: a regiment is ordered as one only while two of its line infantry or
/// heavy cavalry companies touch.
pub const NOT_FORMED: &str =
    "E.1 Formed regiments: two or more touching line infantry or heavy cavalry companies";
pub const DEPLOY: &str = "A.5 Deployment";
pub const MINES: &str = "C.6 Fortifications: mines";
pub const TARGET: &str = "B.4 Shooting: a target";
pub const BREACH: &str = "C.6 Fortifications: a breach by engineers or a heavy gun";
pub const DEMOLISH: &str = "E.7k Engineering: demolishing a bridge";
pub const GENERALS: &str = "E.2 Command control: moving generals";
pub const HITS: &str = "E.1 Formed regiments: distributing hits from shooting";
pub const INTO_LINE: &str =
    "E.2 Command control: companies in the rear brought up into line on a 1-2";

pub fn check(state: &State, side: &SideId, orders: &Orders) -> Vec<Violation> {
    match (&state.phase, orders) {
        (Phase::Deployment, Orders::Deploy(d)) => check_deployment(state, side, d),
        (Phase::HalfTurn { active, .. }, Orders::Turn(t)) if active == side => {
            check_turn(state, side, t)
        }
        (Phase::Over(o), _) => vec![Violation::new(
            &[],
            None,
            SEQUENCE,
            format!("the game is over ({})", o.reason),
        )],
        (Phase::Deployment, _) => vec![Violation::new(
            &[],
            None,
            SEQUENCE,
            "this step is the deployment: send `deploy:` orders",
        )],
        (Phase::HalfTurn { active, .. }, _) if active == side => vec![Violation::new(
            &[],
            None,
            SEQUENCE,
            "this is your half-turn: send `turn:` orders",
        )],
        (Phase::HalfTurn { active, .. }, _) => vec![Violation::new(
            &[],
            None,
            SEQUENCE,
            format!(
                "this is {} half-turn: you owe nothing now",
                crate::words::possessive(&state.side_name(active))
            ),
        )],
    }
}

fn check_deployment(state: &State, side: &SideId, d: &Deployment) -> Vec<Violation> {
    let mut out = Vec::new();
    let zone = state
        .scenario
        .sides
        .iter()
        .find(|s| &s.id == side)
        .and_then(|s| s.zone);
    let mut seen = BTreeSet::new();
    for (i, p) in d.companies.iter().enumerate() {
        let index = i.to_string();
        let path = ["deploy", "companies", index.as_str()];
        let unit = Some(p.company.as_str());
        match state.company(&p.company) {
            Some(c) if &c.side == side => {}
            _ => {
                out.push(Violation::new(
                    &path,
                    unit,
                    UNKNOWN,
                    format!(
                        "{} is not one of your companies{}",
                        p.company,
                        company_hint(state, side, &p.company)
                    ),
                ));
                continue;
            }
        }
        if !seen.insert(p.company.as_str()) {
            out.push(Violation::new(
                &path,
                unit,
                DEPLOY,
                "placed twice: place it once",
            ));
        }
        if p.facing.is_some_and(|f| !f.0.is_finite()) {
            out.push(Violation::new(
                &path,
                unit,
                DEPLOY,
                "facing must be a finite number of degrees",
            ));
        }
        match zone {
            None => out.push(Violation::new(
                &path,
                unit,
                DEPLOY,
                "the scenario fixes your positions: leave `companies` empty",
            )),
            Some(z) if !z.holds(p.at) => out.push(Violation::new(
                &path,
                unit,
                DEPLOY,
                format!(
                    "({}, {}) is outside your zone x {} to {}, y {} to {}",
                    p.at.x, p.at.y, z.min.x, z.max.x, z.min.y, z.max.y
                ),
            )),
            Some(_) => {}
        }
    }
    for (i, g) in d.generals.iter().enumerate() {
        let index = i.to_string();
        let path = ["deploy", "generals", index.as_str()];
        if state.general(&g.general).is_none_or(|x| &x.side != side) {
            out.push(Violation::new(
                &path,
                Some(&g.general),
                UNKNOWN,
                format!("{} is not one of your generals", g.general),
            ));
        }
        if let Some(a) = &g.attach
            && state.company(a).is_none_or(|c| &c.side != side)
        {
            out.push(Violation::new(
                &path,
                Some(&g.general),
                UNKNOWN,
                format!("{a} is not one of your companies to attach to"),
            ));
        }
        if let Some(at) = g.at
            && !state.scenario.on_table(at)
        {
            out.push(Violation::new(
                &path,
                Some(&g.general),
                DEPLOY,
                "off the table",
            ));
        }
    }
    out.extend(check_hits(state, side, "deploy", &d.hits));
    out
}

/// E.1: each entry names a regiment of the side and companies of it.
fn check_hits(state: &State, side: &SideId, top: &str, hits: &[HitsOrder]) -> Vec<Violation> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, h) in hits.iter().enumerate() {
        let index = i.to_string();
        let path = [top, "hits", index.as_str()];
        let unit = Some(h.regiment.as_str());
        if !state.scenario.options.formed_regiments {
            out.push(Violation::new(
                &path,
                unit,
                HITS,
                "formed regiments are not in play in this scenario: drop `hits`",
            ));
            continue;
        }
        let Some(members) = state.regiment(side, &h.regiment) else {
            out.push(Violation::new(
                &path,
                unit,
                UNKNOWN,
                format!("{} is not one of your regiments", h.regiment),
            ));
            continue;
        };
        if !seen.insert(h.regiment.as_str()) {
            out.push(Violation::new(
                &path,
                unit,
                HITS,
                format!("{} is listed twice: give it one entry", h.regiment),
            ));
        }
        let mut named = BTreeSet::new();
        for c in &h.first {
            if !members.contains(c) {
                out.push(Violation::new(
                    &path,
                    Some(c),
                    HITS,
                    format!("{c} is not a company of {}", h.regiment),
                ));
            } else if !named.insert(c.as_str()) {
                out.push(Violation::new(
                    &path,
                    Some(c),
                    HITS,
                    format!("{c} is named twice: name it once"),
                ));
            }
        }
    }
    out
}

/// E.2, E.4, E.5: each general once, and each move one he can make.
fn check_generals(state: &State, side: &SideId, orders: &[GeneralOrder]) -> Vec<Violation> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, o) in orders.iter().enumerate() {
        let index = i.to_string();
        let path = ["turn", "generals", index.as_str()];
        let unit = Some(o.general.as_str());
        if !seen.insert(o.general.as_str()) {
            out.push(Violation::new(
                &path,
                unit,
                GENERALS,
                format!("{} is already listed: give him one entry", o.general),
            ));
            continue;
        }
        if let Err(why) = super::general_orders::destination(state, side, o) {
            let rule = if state.general(&o.general).is_none_or(|g| &g.side != side) {
                UNKNOWN
            } else {
                GENERALS
            };
            out.push(Violation::new(&path, unit, rule, why));
        }
    }
    out
}

fn check_turn(state: &State, side: &SideId, t: &TurnOrders) -> Vec<Violation> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, a) in t.actions.iter().enumerate() {
        let index = i.to_string();
        let path = ["turn", "actions", index.as_str()];
        let members = match actors(state, side, a) {
            Ok(m) => m,
            Err(v) => {
                out.push(Violation::new(&path, Some(&a.actor()), v.0, v.1));
                continue;
            }
        };
        for id in &members {
            if !seen.insert(id.clone()) {
                out.push(Violation::new(
                    &path,
                    Some(id),
                    TWICE,
                    format!("{id} is already listed: give it one entry"),
                ));
            }
        }
        out.extend(check_action(state, &path, &members, a));
    }
    out.extend(check_generals(state, side, &t.generals));
    out.extend(check_hits(state, side, "turn", &t.hits));
    for (i, m) in t.fire_mines.iter().enumerate() {
        let index = i.to_string();
        let path = ["turn", "fire_mines", index.as_str()];
        let ok = state
            .scenario
            .mines
            .iter()
            .any(|x| &x.id == m && &x.side == side);
        if !ok {
            out.push(Violation::new(
                &path,
                None,
                MINES,
                format!("{m} is not a mine your side laid"),
            ));
        } else if state.mines_fired.contains(m) {
            out.push(Violation::new(
                &path,
                None,
                MINES,
                format!("{m} has already been fired"),
            ));
        }
    }
    out
}

/// `"; did you mean X?"` for an id that is none of `side`'s companies.
fn company_hint(state: &State, side: &SideId, id: &str) -> String {
    crate::ruleset::did_you_mean(
        id,
        state
            .companies
            .iter()
            .filter(|c| &c.side == side)
            .map(|c| c.id.as_str()),
    )
}

/// The companies an entry commands, or the rule it breaks and why.
fn actors(state: &State, side: &SideId, a: &Action) -> Result<Vec<String>, (&'static str, String)> {
    match (&a.company, &a.regiment) {
        (Some(c), None) => match state.company(c) {
            Some(x) if &x.side == side && x.on_table() => Ok(vec![c.clone()]),
            Some(x) if &x.side == side => Err((UNKNOWN, format!("{c} has been destroyed"))),
            _ => Err((
                UNKNOWN,
                format!(
                    "{c} is not one of your companies{}",
                    company_hint(state, side, c)
                ),
            )),
        },
        (None, Some(r)) => {
            if !state.scenario.options.formed_regiments {
                return Err((
                    REGIMENTS,
                    "formed regiments are not in play in this scenario: order each company".into(),
                ));
            }
            let members = state
                .regiment(side, r)
                .ok_or_else(|| (UNKNOWN, format!("{r} is not one of your regiments")))?;
            if super::regiment::formed_among(state, &members).is_none() {
                return Err((
                    NOT_FORMED,
                    format!(
                        "{r} is not formed: no two of its line infantry or heavy cavalry companies touch; order each company, or bring two into contact first"
                    ),
                ));
            }
            Ok(members
                .into_iter()
                .filter(|m| state.company(m).is_some_and(|c| c.on_table()))
                .collect())
        }
        _ => Err((ACTOR, "give exactly one of `company` or `regiment`".into())),
    }
}

fn check_action(state: &State, path: &[&str], members: &[String], a: &Action) -> Vec<Violation> {
    let mut out = Vec::new();
    // NaN compares false with every limit: refuse it before any measure.
    let finite = a.path.iter().all(|s| match s {
        PathStep::Pivot(d) => d.is_finite(),
        PathStep::Forward(d) => d.get().is_finite(),
        PathStep::To(p) => p.is_finite(),
    });
    if !finite {
        out.push(Violation::new(
            path,
            Some(&a.actor()),
            TOO_FAR,
            "every number in `path` must be a finite number",
        ));
        return out;
    }
    // A negative step would shrink the measured length of the whole path.
    if a.path
        .iter()
        .any(|s| matches!(s, PathStep::Forward(d) if d.get() < 0.0))
    {
        out.push(Violation::new(
            path,
            Some(&a.actor()),
            TOO_FAR,
            "a `forward` distance cannot be negative: pivot 180 to go back",
        ));
        return out;
    }
    for id in members {
        let Some(c) = state.company(id) else { continue };
        if a.charge.is_some() && !c.profile.troop.may_charge() {
            out.push(Violation::new(
                path,
                Some(id),
                NO_CHARGE,
                format!(
                    "{} is {} and cannot charge",
                    c.short(),
                    c.profile.troop.label()
                ),
            ));
        }
        // Even a whole move on a road is at most half as much again.
        let limit = c.profile.movement.get() * super::movement::ROAD_BONUS;
        let asked = a.path_length(c.at, c.facing);
        if asked.get() > limit + 1e-9 {
            out.push(Violation::new(
                path,
                Some(id),
                TOO_FAR,
                format!(
                    "the path is {asked} in, but {} moves at most {} in ({} on a road)",
                    c.short(),
                    c.profile.movement,
                    Distance(limit)
                ),
            ));
        }
    }
    if a.charge.is_some() && a.sequence == Sequence::ShootThenMove {
        out.push(Violation::new(
            path,
            Some(&a.actor()),
            SHOOT_MOVE_CHARGE,
            "choose `move_then_shoot` or `move_only` to charge, or drop the charge",
        ));
    }
    if let Some(ch) = &a.charge
        && !state.company(&ch.target).is_some_and(|t| {
            members
                .first()
                .and_then(|m| state.company(m))
                .is_some_and(|c| c.side != t.side)
        })
    {
        out.push(Violation::new(
            path,
            Some(&a.actor()),
            "B.3 Charges: a charge is made against an enemy company",
            format!("{} is not an enemy company", ch.target),
        ));
    }
    if let Some(w) = &a.breach {
        out.extend(check_breach(state, path, members, a, w));
    }
    if a.into_line.is_some() {
        let why = if a.regiment.is_none() {
            Some("only a formed regiment's entry (`regiment:`) brings companies up into line")
        } else if !state.scenario.options.command_control {
            Some(
                "command control is not in play, so no die reads \"no advance\": drop `into_line`, or order each company",
            )
        } else {
            None
        };
        if let Some(why) = why {
            out.push(Violation::new(path, Some(&a.actor()), INTO_LINE, why));
        }
    }
    if let Some(b) = &a.demolish {
        out.extend(check_task(state, path, members, b, &DEMOLISH_TASK));
    }
    if let Some(t) = &a.target {
        let side = members
            .first()
            .and_then(|m| state.company(m))
            .map(|c| c.side.clone());
        let enemy_company = state
            .company(t)
            .is_some_and(|x| Some(&x.side) != side.as_ref());
        let enemy_general = state
            .general(t)
            .is_some_and(|g| Some(&g.side) != side.as_ref());
        let wall = state
            .scenario
            .terrain(t)
            .is_some_and(|w| matches!(w.kind, TerrainKind::HighWall | TerrainKind::Gate { .. }));
        if !(enemy_company || enemy_general || wall) {
            out.push(Violation::new(
                path,
                Some(&a.actor()),
                TARGET,
                format!(
                    "{t} is not an enemy company or general: name one of those as `target` (to breach a high wall, give it as `breach`)"
                ),
            ));
        }
    }
    out
}

/// One engineering order (C.6, E.7k): what it is called, the rule it falls
/// under, what it may be aimed at, and the work in words.
struct Task {
    field: &'static str,
    rule: &'static str,
    aims_at: fn(&TerrainKind) -> bool,
    thing: &'static str,
    work: &'static str,
}

const DEMOLISH_TASK: Task = Task {
    field: "demolish",
    rule: DEMOLISH,
    aims_at: |k| matches!(k, TerrainKind::Bridge),
    thing: "a standing bridge",
    work: "demolish bridges",
};

/// C.6: `breach: WALL` is the one way to order a breach. Engineers blow it
/// (when the scenario plays engineering); a heavy gun fires at the wall, as
/// its shooting for the turn. A heavy gun naming the wall as its `target`
/// (the older spelling) is still accepted.
fn check_breach(
    state: &State,
    path: &[&str],
    members: &[String],
    a: &Action,
    wall: &str,
) -> Vec<Violation> {
    let mut out = Vec::new();
    if !state
        .scenario
        .terrain(wall)
        .is_some_and(|t| matches!(t.kind, TerrainKind::HighWall | TerrainKind::Gate { .. }))
    {
        out.push(Violation::new(
            path,
            Some(&a.actor()),
            BREACH,
            format!("{wall} is not a high wall or gate of the scenario"),
        ));
    }
    for id in members {
        let Some(c) = state.company(id) else { continue };
        let heavy_gun = c.profile.troop == TroopType::Artillery
            && super::shooting::gun_of(state, id) == Some(super::units::GunVariant::Heavy);
        let why = if c.profile.troop == TroopType::Engineers {
            (!state.scenario.options.engineering).then(|| {
                "engineering is not in play in this scenario: engineers cannot blow a breach here; drop `breach`".to_string()
            })
        } else if heavy_gun {
            if !a.sequence.shoots() {
                Some(format!(
                    "a heavy gun's breach is its shooting: choose a sequence that shoots, not `{}`",
                    a.sequence.label()
                ))
            } else if a.target.is_some() {
                Some(
                    "give the wall as `breach` and drop `target`: the breach is its shooting"
                        .into(),
                )
            } else {
                None
            }
        } else {
            Some(format!(
                "{} is {}: only engineers or a heavy gun make a breach",
                c.short(),
                c.profile.troop.label()
            ))
        };
        if let Some(why) = why {
            out.push(Violation::new(path, Some(id), BREACH, why));
        }
    }
    out
}

/// Only engineers do engineering, only at the right terrain, and only when
/// the scenario plays engineering.
fn check_task(
    state: &State,
    path: &[&str],
    members: &[String],
    aim: &str,
    task: &Task,
) -> Vec<Violation> {
    let first = members.first().map(String::as_str);
    if !state.scenario.options.engineering {
        return vec![Violation::new(
            path,
            first,
            task.rule,
            format!(
                "engineering is not in play in this scenario: drop `{}`",
                task.field
            ),
        )];
    }
    let mut out = Vec::new();
    if !state
        .scenario
        .terrain(aim)
        .is_some_and(|t| (task.aims_at)(&t.kind))
    {
        out.push(Violation::new(
            path,
            first,
            task.rule,
            format!("{aim} is not {} of the scenario", task.thing),
        ));
    }
    for id in members {
        if let Some(c) = state.company(id)
            && c.profile.troop != TroopType::Engineers
        {
            out.push(Violation::new(
                path,
                Some(id),
                task.rule,
                format!(
                    "{} is not engineers: only engineers {}",
                    c.short(),
                    task.work
                ),
            ));
        }
    }
    out
}

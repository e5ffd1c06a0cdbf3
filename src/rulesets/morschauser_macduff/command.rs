//! E.2 command control, and the hooks by which the advanced rules of
//! section E reach the half-turn: [`start_of_half_turn`] (E.3 morale, E.4
//! rallying) and [`plan`], which turns one entry of a side's orders into what
//! each company actually does (E.1 formed regiments, E.2, E.3).

use super::generals;
use super::line;
use super::morale;
use super::orders::{Action, Charge, PathStep, Sequence};
use super::rally;
use super::regiment;
use super::scenario::{GeneralSpec, Personality, TerrainKind};
use super::state::{Company, General, State};
use super::units::Quality;
use super::words::{self, What};
use crate::dice::Dice;
use crate::event::{Event, Facts, Modifier};
use crate::geometry::{Distance, TerrainTag, base_distance, line_of_sight, point_to_bases};
use crate::side::SideId;

/// E.2: a general modifies the command die within this of the unit.
pub const COMMAND_RANGE: f64 = 12.0;

/// E.2: what the command die lets a unit do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// 3-4, or 5-6 for troops neither impetuous nor cautious: as ordered.
    Obey,
    /// 1-2: no move toward the enemy (house rule: it holds its ground; it
    /// may still shoot, and melees if it must).
    NoAdvance,
    /// 5-6, impetuous troops: they charge this enemy company, the nearest in
    /// reach, whatever the order said.
    MustCharge(String),
    /// 5-6, cautious troops: any charge ordered is dropped.
    MayNotCharge,
}

/// Called once at the start of `side`'s half-turn, before any entry of its
/// orders is carried out: routing companies flee, brigades at half losses
/// test their morale (E.3), then units joined by a general rally (E.4).
pub fn start_of_half_turn(s: &mut State, side: &SideId, dice: &mut Dice, events: &mut Vec<Event>) {
    s.retreated.clear();
    if s.scenario.options.brigade_morale {
        morale::start_of_half_turn(s, side, dice, events);
    }
    if s.scenario.options.rallying {
        rally::rally(s, side, dice, events);
    }
}

/// What each company of one entry does: `(company, action)` in the order
/// they act. `members` are the live companies the entry names.
///
/// A regiment's entry moves its formed regiment as one (E.1); its other
/// companies act one by one on the same order. Each unit whose order lets
/// it move rolls its command die (E.2); routing units and units that used
/// their move in a morale retreat (E.3) do not move.
pub fn plan(
    s: &mut State,
    side: &SideId,
    a: &Action,
    members: &[String],
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Vec<(String, Action)> {
    let units = if a.regiment.is_some() {
        let u = regiment::units(s, members);
        if s.scenario.options.formed_regiments && u.iter().all(|x| x.len() < 2) && members.len() > 1
        {
            events.push(words::event(What::NotFormed, words::actor(&a.actor())));
        }
        u
    } else {
        members.iter().map(|m| vec![m.clone()]).collect()
    };
    let mut out = Vec::new();
    for unit in units {
        let mut act = a.clone();
        if unit.iter().any(|c| s.routing.contains(c)) {
            events.push(words::event(What::Routing, words::unit(s, &unit)));
            act.sequence = Sequence::Hold;
            strip_move(&mut act);
        } else if unit.iter().any(|c| s.retreated.contains(c)) {
            if !act.path.is_empty() || act.charge.is_some() {
                events.push(words::event(What::RetreatedNoMove, words::unit(s, &unit)));
            }
            strip_move(&mut act);
        } else if s.scenario.options.command_control && act.sequence.moves() {
            let c = command_die(s, side, &unit, &act, dice, events);
            apply(s, &unit, &mut act, &c, events);
            if c == Command::NoAdvance
                && unit.len() > 1
                && let Some(to) = act.into_line
            {
                line::bring_up(s, &unit, to, events);
            }
        }
        if unit.len() > 1 {
            out.extend(regiment::move_together(s, &unit, &act));
        } else {
            out.extend(unit.into_iter().map(|id| (id, act.clone())));
        }
    }
    out
}

fn strip_move(a: &mut Action) {
    a.path.clear();
    a.charge = None;
    a.road = false;
}

/// A unit in words: a company, or a formed regiment and its companies.
pub fn unit_name(s: &State, unit: &[String]) -> String {
    match unit {
        [one] => s.company(one).map_or_else(|| one.clone(), Company::short),
        _ => {
            let r = unit
                .first()
                .and_then(|c| regiment::regiment_of(s, c))
                .map(|(_, r)| r)
                .unwrap_or_default();
            format!("formed regiment {r} ({})", unit.join(", "))
        }
    }
}

/// The scenario's record of the general who commands a company, directly
/// or through its regiment.
pub fn brigadier<'a>(s: &'a State, company: &str) -> Option<&'a GeneralSpec> {
    let regiment = regiment::regiment_of(s, company).map(|(_, r)| r);
    s.scenario.sides.iter().flat_map(|x| &x.generals).find(|g| {
        g.commands
            .iter()
            .any(|c| c == company || Some(c) == regiment.as_ref())
    })
}

/// Whether general `g` can see `c`: no wood, town, wall, standing corn or
/// organiser's sight-blocking terrain between him and its base's centre.
fn sees(s: &State, g: &General, c: &Company) -> bool {
    let to = c.base(&s.scenario).center;
    let blockers: Vec<_> = s
        .scenario
        .terrain
        .iter()
        .filter(|t| !(matches!(t.kind, TerrainKind::Cornfield) && s.trampled.contains(&t.id)))
        .map(|t| t.feature())
        .collect();
    line_of_sight(s.general_at(g), to, &blockers, &[TerrainTag::Obstruction])
}

/// E.2: roll the unit's command die, let its general shift it, and read it.
///
/// House rule for the general's choice: he steers toward "obey" (3-4). A
/// rash general must add 1; an indecisive one does nothing; a bold one adds
/// 1 to a 2 and takes 1 from a 5; a cautious one takes 1 from a 5.
pub fn command_die(
    s: &mut State,
    side: &SideId,
    unit: &[String],
    a: &Action,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Command {
    let name = unit_name(s, unit);
    let die = dice.d6(format!(
        "{name}: command die (E.2): 5-6 impetuous charge / cautious hold back, 3-4 obey, 1-2 no advance"
    ));
    let die_index = dice.last_index();
    let companies: Vec<Company> = unit.iter().filter_map(|c| s.company(c)).cloned().collect();
    let general = unit
        .first()
        .and_then(|c| brigadier(s, c))
        .map(|g| g.id.clone())
        .and_then(|id| s.general(&id).cloned())
        .filter(|g| !g.killed && &g.side == side);
    let mut total = die as i32;
    if let Some(g) = general {
        let near = companies.iter().any(|c| {
            point_to_bases(s.general_at(&g), std::slice::from_ref(&c.base(&s.scenario)))
                .within(Distance(COMMAND_RANGE))
        });
        let seen = companies.iter().any(|c| sees(s, &g, c));
        if near && seen {
            let p =
                generals::personality(s, &g.id, dice, events).unwrap_or(Personality::Indecisive);
            let shift = match (p, die) {
                (Personality::Rash, _) => 1,
                (Personality::Bold, 2) => 1,
                (Personality::Bold | Personality::Cautious, 5) => -1,
                _ => 0,
            };
            if shift != 0 {
                events.push(words::event(
                    What::GeneralShift,
                    Facts {
                        target: Some(words::general(&g)),
                        modifiers: vec![Modifier {
                            why: p.label().to_string(),
                            value: shift,
                        }],
                        ..words::unit(s, unit)
                    },
                ));
            }
            total += shift;
        } else {
            events.push(words::event(
                What::GeneralOutOfReach,
                Facts {
                    target: Some(words::general(&g)),
                    ..words::unit(s, unit)
                },
            ));
        }
    }
    let quality = |q: Quality| unit.iter().any(|c| regiment::qualities(s, c).contains(&q));
    let result = match total {
        ..=2 => Command::NoAdvance,
        3 | 4 => Command::Obey,
        _ if quality(Quality::Impetuous) && !in_fortification(s, &companies) => {
            match (a.charge.as_ref(), nearest_in_reach(s, &companies)) {
                (None, Some(t)) => Command::MustCharge(t),
                _ => Command::Obey,
            }
        }
        _ if quality(Quality::Cautious) => Command::MayNotCharge,
        _ => Command::Obey,
    };
    let read = match &result {
        Command::Obey => "obeys its orders".to_string(),
        Command::NoAdvance => "makes no advance: it holds its ground".to_string(),
        Command::MustCharge(t) => format!("is impetuous and must charge {t}"),
        Command::MayNotCharge => "is cautious and will not charge".to_string(),
    };
    events.push(
        words::event(
            What::CommandDie,
            Facts {
                rolls: vec![die],
                after: Some(total as i64),
                result: Some(read),
                ..words::unit(s, unit)
            },
        )
        .with_dice(die_index),
    );
    result
}

/// Carry the command result into the order, before the unit acts.
pub fn apply(s: &State, unit: &[String], a: &mut Action, c: &Command, events: &mut Vec<Event>) {
    match c {
        Command::Obey => {}
        Command::NoAdvance => strip_move(a),
        Command::MayNotCharge => {
            if a.charge.take().is_some() {
                events.push(words::event(What::DropsCharge, words::unit(s, unit)));
            }
        }
        Command::MustCharge(t) => {
            let Some(target) = s.company(t) else { return };
            a.charge = Some(Charge {
                target: t.clone(),
                flank: false,
                pursue: false,
            });
            a.path = vec![PathStep::To(target.base(&s.scenario).center)];
            a.road = false;
            // B.2: a charge is never made after shooting.
            a.sequence = Sequence::MoveOnly;
        }
    }
}

/// E.2: impetuous troops in fortifications (earthworks, high walls) obey.
fn in_fortification(s: &State, companies: &[Company]) -> bool {
    companies.iter().any(|c| {
        let b = c.base(&s.scenario);
        s.scenario.terrain.iter().any(|t| {
            matches!(
                t.kind,
                TerrainKind::Earthwork | TerrainKind::HighWall | TerrainKind::Gate { .. }
            ) && t.feature().touches_bases(std::slice::from_ref(&b))
        })
    })
}

/// The nearest enemy company whose base is within a move of the unit
/// (ties by id), if the unit may charge at all.
fn nearest_in_reach(s: &State, companies: &[Company]) -> Option<String> {
    let first = companies.first()?;
    if !companies.iter().all(|c| c.profile.troop.may_charge()) {
        return None;
    }
    let reach = companies
        .iter()
        .map(|c| c.profile.movement.get())
        .fold(f64::INFINITY, f64::min);
    let mut best: Option<(f64, String)> = None;
    for e in s.enemies(&first.side) {
        let eb = e.base(&s.scenario);
        let d = companies
            .iter()
            .map(|c| base_distance(&c.base(&s.scenario), &eb).get())
            .fold(f64::INFINITY, f64::min);
        if d <= reach + 1e-9
            && best
                .as_ref()
                .is_none_or(|(bd, bid)| d < *bd || (d == *bd && e.id < *bid))
        {
            best = Some((d, e.id.clone()));
        }
    }
    best.map(|(_, id)| id)
}

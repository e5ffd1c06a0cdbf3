//! The cavalry control table, for cavalry that win a melee.

use super::generals;
use super::orders::{ChargeOrder, Controlled, Move};
use super::retreat::remove;
use super::roll::two_d6;
use super::state::{State, Trace, TraceKind, Unit};
use super::tables::Nation;
use super::words::{Said, event};
use super::{charge, movement};
use crate::dice::Dice;
use crate::dice::table::read;
use crate::event::{Event, Facts, Modifier};
use crate::geometry::path::{Meet, Route};
use crate::geometry::{Frame, Point, in_common_arc, is_to_flank, wholly_behind_front_line};

/// An enemy flank or rear counts as visible within this distance (cm) —
/// house rule, the source gives none.
pub const VISIBLE: f64 = 30.0;
/// How far an uncontrolled charge goes (cm).
pub const CHARGE_CM: f64 = 30.0;
/// How far an uncontrolled move goes (cm).
pub const MOVE_CM: f64 = 20.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ControlResult {
    /// An original 2.
    Removed,
    UncontrolledCharge,
    UncontrolledMove,
    MillAbout,
    Controlled,
}

impl ControlResult {
    pub fn word(self) -> &'static str {
        match self {
            ControlResult::Removed => "an original 2: removed from the field",
            ControlResult::UncontrolledCharge => "uncontrolled charge",
            ControlResult::UncontrolledMove => "uncontrolled move",
            ControlResult::MillAbout => "mill about",
            ControlResult::Controlled => "controlled",
        }
    }
}

/// The table: an original 2 removes the unit; else 2-4, 5-7, 8-9, 10-12.
pub fn table(natural: u32, total: i32) -> ControlResult {
    if natural == 2 {
        return ControlResult::Removed;
    }
    read(
        &[
            (2, ControlResult::UncontrolledCharge),
            (5, ControlResult::UncontrolledMove),
            (8, ControlResult::MillAbout),
            (10, ControlResult::Controlled),
        ],
        total,
    )
}

fn m(why: &str, value: i32) -> Modifier {
    Modifier {
        why: why.into(),
        value,
    }
}

/// The modifiers for cavalry `u`: general +2, British (not KGL) -1,
/// disordered -1, an enemy flank or rear in view -2.
pub fn modifiers(s: &State, u: usize) -> (Vec<Modifier>, Option<usize>) {
    let unit = &s.units[u];
    let mut out = Vec::new();
    let g = generals::serving(s, u);
    if let Some(g) = g {
        out.push(m(&format!("{} attached", s.generals[g].name), 2));
    }
    if unit.nation == Nation::British {
        out.push(m("British, not KGL", -1));
    }
    if unit.shaken() {
        out.push(m("disordered", -1));
    }
    let bases = s.bases(unit);
    let near = s.near_ids(unit, VISIBLE);
    let mut enemies = near
        .iter()
        .map(|&i| &s.units[i])
        .filter(|e| e.live() && e.side != unit.side);
    if enemies.any(|e| {
        s.within(unit, e, VISIBLE) && {
            let f = Frame::of(&s.bases(e));
            is_to_flank(&f, &bases) || bases.iter().all(|b| wholly_behind_front_line(&f, b))
        }
    }) {
        out.push(m("enemy flank or rear visible", -2));
    }
    (out, g)
}

/// Move `u` up to `max` cm along `dir`, stopping at the first enemy its
/// footprint meets on the way.
fn drive(s: &mut State, u: usize, dir: Point, max: f64) -> (Point, Point) {
    let unit: Unit = s.units[u].clone();
    let len = dir.length();
    let dir = if len < 1e-9 {
        unit.facing.unit_vector()
    } else {
        dir.scale(1.0 / len)
    };
    let route = Route::straight(&s.bases(&unit), unit.at, dir.scale(max));
    let met = route.first_meeting(
        s.near_ids(&unit, max)
            .into_iter()
            .map(|i| &s.units[i])
            .filter(|e| e.live() && e.side != unit.side)
            .filter(|e| s.gap_at_least(&unit, e) <= max)
            .map(|e| (e.id.clone(), s.bases(e))),
        Meet::Touch,
    );
    let to = met.map_or(unit.at + dir.scale(max), |(_, m)| m.at);
    s.units[u].at = to;
    s.placed(u);
    s.traces.push(Trace {
        side: unit.side.clone(),
        kind: TraceKind::Charge,
        points: vec![unit.at, to],
    });
    (unit.at, to)
}

/// The enemy uncontrolled cavalry `u` goes for once its foe is eliminated
/// (Cavalry Control Table, the starred note): the nearest other enemy
/// within `range` cm, edge to edge, or else the nearest in its 45-degree
/// frontal arc; none sends it straight forward.
fn another(s: &State, u: usize, range: f64) -> Option<Unit> {
    let unit = &s.units[u];
    let frame = s.frame(unit);
    let mut near: Vec<(f64, &Unit)> = s.enemies(&unit.side).map(|e| (s.gap(unit, e), e)).collect();
    near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.id.cmp(&b.1.id)));
    near.iter()
        .find(|(d, _)| crate::geometry::limit::within(*d, range))
        .or_else(|| {
            near.iter()
                .find(|(_, e)| in_common_arc(&frame, &s.bases(e)))
        })
        .map(|(_, e)| (*e).clone())
}

/// Where and why uncontrolled cavalry `u` goes when its foe was
/// eliminated: at another enemy in range or arc, or straight forward.
fn after_eliminated(s: &State, u: usize, range: f64) -> (Point, String) {
    let unit = &s.units[u];
    match another(s, u, range) {
        Some(e) => (
            s.frame(&e).anchor - unit.at,
            format!("its foe eliminated, it goes for {}, in range or in its 45-degree arc", e.name),
        ),
        None => (
            unit.facing.unit_vector(),
            "its foe eliminated and no other enemy in range or in its 45-degree arc, straight forward".into(),
        ),
    }
}

/// Cavalry `u` won a melee against `foe` (gone: it retreated or died).
pub fn test(
    s: &mut State,
    u: usize,
    foe: Option<&Unit>,
    foe_gone: bool,
    choice: &Controlled,
    dice: &mut Dice,
) -> Vec<Event> {
    let (mods, g) = modifiers(s, u);
    let sum: i32 = mods.iter().map(|x| x.value).sum();
    let (roll, idx) = two_d6(
        dice,
        &format!(
            "{} won a melee: 2D6 on the cavalry control table, {}",
            s.units[u].name,
            super::words::mods(&mods)
        ),
    );
    let r = table(roll, roll as i32 + sum);
    let mut out = vec![event(
        Said::Control,
        Facts {
            unit: Some(s.units[u].refer()),
            modifiers: mods,
            hits: Some((roll as i32 + sum).max(0) as u32),
            result: Some(r.word().into()),
            ..Facts::default()
        },
        idx,
    )];
    if let Some(g) = g {
        out.push(generals::risk(s, g, u, dice));
    }
    let free = s.contacts(&s.units[u]).is_empty();
    // The starred note: a foe that was beaten and is no longer on the field.
    let eliminated = foe.is_some_and(|f| s.unit(&f.id).is_none_or(|x| !x.live()));
    match r {
        ControlResult::Removed => out.extend(remove(s, u, "lost control: removed from the field")),
        ControlResult::UncontrolledCharge => {
            s.units[u].disordered = true;
            if free {
                let unit = s.units[u].clone();
                let (dir, why) = match s.nearest_enemy(&unit) {
                    Some(e) if s.gap(&unit, e) <= CHARGE_CM => (
                        Frame::of(&s.bases(e)).anchor - unit.at,
                        format!("uncontrolled charge at the nearest enemy, {}", e.name),
                    ),
                    _ if eliminated => {
                        let (dir, why) = after_eliminated(s, u, CHARGE_CM);
                        (dir, format!("uncontrolled charge: {why}"))
                    }
                    _ => (unit.facing.unit_vector(), "uncontrolled charge".into()),
                };
                let (from, to) = drive(s, u, dir, CHARGE_CM);
                out.push(moved(s, u, from, to, &why));
            }
        }
        ControlResult::UncontrolledMove => {
            s.units[u].disordered = true;
            if free {
                let unit = s.units[u].clone();
                let (dir, why) = match foe
                    .and_then(|f| s.unit(&f.id))
                    .filter(|f| f.live() && foe_gone)
                {
                    Some(f) => (
                        f.at - unit.at,
                        "uncontrolled move after the beaten foe".to_string(),
                    ),
                    None if eliminated => {
                        let (dir, why) = after_eliminated(s, u, MOVE_CM);
                        (dir, format!("uncontrolled move: {why}"))
                    }
                    None => (
                        unit.facing.unit_vector(),
                        "uncontrolled move after the beaten foe".to_string(),
                    ),
                };
                let (from, to) = drive(s, u, dir, MOVE_CM);
                out.push(moved(s, u, from, to, &why));
            }
        }
        ControlResult::MillAbout => {}
        // Still in contact (the foe stayed), it may not move.
        ControlResult::Controlled if !free => {}
        ControlResult::Controlled => match choice {
            Controlled::Stay => {}
            Controlled::FallBack => {
                let unit = s.units[u].clone();
                let dir = unit.facing.unit_vector().scale(-1.0);
                let to = unit.at + dir.scale(20.0);
                s.units[u].at = to;
                s.placed(u);
                out.push(moved(
                    s,
                    u,
                    unit.at,
                    to,
                    "controlled: falls back as ordered",
                ));
            }
            Controlled::Move(o) => {
                let m = Move {
                    unit: s.units[u].id.clone(),
                    to: o.to,
                    facing: o.facing,
                    formation: o.formation,
                    via: Vec::new(),
                    road: false,
                };
                out.extend(movement::again(s, u, &m, dice));
            }
            Controlled::Charge(target) => {
                let c = ChargeOrder {
                    unit: s.units[u].id.clone(),
                    target: target.clone(),
                    if_controlled: Controlled::Stay,
                };
                let side = s.units[u].side.clone();
                out.extend(charge::phase(s, &side, &[c], dice));
            }
        },
    }
    out
}

fn moved(s: &State, u: usize, from: Point, to: Point, why: &str) -> Event {
    event(
        Said::Move,
        Facts {
            unit: Some(s.units[u].refer()),
            from: Some(from),
            to: Some(to),
            result: Some(why.into()),
            ..Facts::default()
        },
        Vec::new(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cavalry_control_table() {
        // Cavalry Control Table: original 2 removed; 2-4, 5-7, 8-9, 10-12.
        assert_eq!(table(2, 6), ControlResult::Removed);
        assert_eq!(table(3, 4), ControlResult::UncontrolledCharge);
        assert_eq!(table(5, 5), ControlResult::UncontrolledMove);
        assert_eq!(table(8, 7), ControlResult::UncontrolledMove);
        assert_eq!(table(8, 8), ControlResult::MillAbout);
        assert_eq!(table(9, 10), ControlResult::Controlled);
        assert_eq!(table(3, 1), ControlResult::UncontrolledCharge);
    }
}

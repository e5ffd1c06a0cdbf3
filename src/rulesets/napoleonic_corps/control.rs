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
use crate::geometry::contact::first_touch;
use crate::geometry::{Frame, Point, is_to_flank, wholly_behind_front_line};

/// An enemy flank or rear counts as visible within this distance (cm) —
/// house rule, the source gives none.
pub const VISIBLE: f64 = 30.0;

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
    if s.enemies(&unit.side).any(|e| {
        s.within(unit, e, VISIBLE) && {
            let f = Frame::of(&s.bases(e));
            is_to_flank(&f, &bases) || bases.iter().all(|b| wholly_behind_front_line(&f, b))
        }
    }) {
        out.push(m("enemy flank or rear visible", -2));
    }
    (out, g)
}

/// Move `u` up to `max` cm along `dir`, stopping at the first enemy met.
fn drive(s: &mut State, u: usize, dir: Point, max: f64) -> (Point, Point) {
    let unit: Unit = s.units[u].clone();
    let len = dir.length();
    let dir = if len < 1e-9 {
        unit.facing.unit_vector()
    } else {
        dir.scale(1.0 / len)
    };
    let mine = s.bases(&unit);
    let mut go = max;
    for e in s.enemies(&unit.side) {
        if let Some(t) = first_touch(&mine, &s.bases(e), dir) {
            go = go.min(t);
        }
    }
    let to = unit.at + dir.scale(go);
    s.units[u].at = to;
    s.traces.push(Trace {
        side: unit.side.clone(),
        kind: TraceKind::Charge,
        points: vec![unit.at, to],
    });
    (unit.at, to)
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
    match r {
        ControlResult::Removed => out.extend(remove(s, u, "lost control: removed from the field")),
        ControlResult::UncontrolledCharge => {
            s.units[u].disordered = true;
            if free {
                let unit = s.units[u].clone();
                let dir = match s.nearest_enemy(&unit) {
                    Some(e) if s.gap(&unit, e) <= 30.0 => Frame::of(&s.bases(e)).anchor - unit.at,
                    _ => unit.facing.unit_vector(),
                };
                let (from, to) = drive(s, u, dir, 30.0);
                out.push(moved(s, u, from, to, "uncontrolled charge"));
            }
        }
        ControlResult::UncontrolledMove => {
            s.units[u].disordered = true;
            if free {
                let unit = s.units[u].clone();
                let dir = match foe
                    .and_then(|f| s.unit(&f.id))
                    .filter(|f| f.live() && foe_gone)
                {
                    Some(f) => f.at - unit.at,
                    None => unit.facing.unit_vector(),
                };
                let (from, to) = drive(s, u, dir, 20.0);
                out.push(moved(
                    s,
                    u,
                    from,
                    to,
                    "uncontrolled move after the beaten foe",
                ));
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

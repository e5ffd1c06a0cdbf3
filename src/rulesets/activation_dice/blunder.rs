//! Blunder: a 1 on a coloured activation die rolls this table (1 garbled
//! orders, 2 hesitation, 3 forward, 4 fall back, 5 charge, 6 fire).

use super::combat::{melee, shootable};
use super::movement::{Travel, allowance, allowance_why, travel};
use super::scenario::Arm;
use super::state::{State, Trace, TraceKind};
use super::words::{Said, event};
use crate::dice::Dice;
use crate::event::{Event, Facts};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blunder {
    /// Reroll one of the successful dice, and keep it.
    Garbled,
    /// Every success is forfeit; no turnover from it.
    Hesitation,
    /// Moves straight ahead its full move.
    Forward,
    /// Moves its full move straight back, keeping its facing.
    FallBack,
    /// With an enemy within 1 M, its first action charges the nearest.
    Charge,
    /// Its first action fires at the nearest unit in range, friend or foe.
    Fire,
}

impl Blunder {
    pub fn of(face: u32) -> Blunder {
        match face {
            1 => Blunder::Garbled,
            2 => Blunder::Hesitation,
            3 => Blunder::Forward,
            4 => Blunder::FallBack,
            5 => Blunder::Charge,
            _ => Blunder::Fire,
        }
    }
    pub fn face(self) -> u32 {
        match self {
            Blunder::Garbled => 1,
            Blunder::Hesitation => 2,
            Blunder::Forward => 3,
            Blunder::FallBack => 4,
            Blunder::Charge => 5,
            Blunder::Fire => 6,
        }
    }
    pub fn word(self) -> &'static str {
        match self {
            Blunder::Garbled => "garbled orders: one successful die is rolled again",
            Blunder::Hesitation => "hesitation: every success is forfeit",
            Blunder::Forward => "forward: it moves its full move ahead",
            Blunder::FallBack => "fall back: it moves its full move back, facing kept",
            Blunder::Charge => "charge: its first action charges the nearest enemy within 1 M",
            Blunder::Fire => "fire: its first action fires at the nearest unit in range",
        }
    }
}

/// Roll the blunder table: the result and the die's index.
pub fn roll(dice: &mut Dice, unit: &str) -> (Blunder, usize) {
    let face = dice.d6(format!("blunder table: {unit}"));
    (Blunder::of(face), dice.last_index().unwrap_or(0))
}

/// Forward or fall back: the full move, free, straight ahead or back,
/// facing kept. Falling back takes a unit locked in melee out of it (it
/// retreats, so the melee ends); going forward into an enemy is a charge,
/// fought at once (Melee Attacks: charges happen on first meeting), but a
/// unit already locked in melee stays in it.
pub fn lurch(s: &mut State, i: usize, b: Blunder, dice: &mut Dice) -> Vec<Event> {
    let u = s.units[i].clone();
    let (cm, why) = allowance_why(s, &u);
    let engaged: Vec<String> = s.contacts(&u).iter().map(|e| e.name.clone()).collect();
    let mode = if b == Blunder::FallBack {
        "falls back (blunder)"
    } else {
        "lurches forward (blunder)"
    };
    let short = s.short();
    let moved = |t: &Travel, result: Option<String>| {
        event(
            Said::Move,
            Facts {
                unit: Some(u.refer()),
                from: Some(t.from),
                to: Some(t.to),
                distance: Some(t.cm / short),
                mode: Some(mode.into()),
                result,
                ..Facts::default()
            },
            Vec::new(),
        )
    };
    let here = u.at.unwrap_or_default();
    let still = Travel {
        from: here,
        to: here,
        cm: 0.0,
        contact: None,
        stopped: None,
        slowed: None,
    };
    if cm <= 0.0 {
        return vec![moved(
            &still,
            Some(format!("it does not move: {}", why.join(", "))),
        )];
    }
    if b == Blunder::Forward && !engaged.is_empty() {
        return vec![moved(
            &still,
            Some(format!(
                "it is locked in melee with {} and stays in it",
                engaged.join(" and ")
            )),
        )];
    }
    let dir = match b {
        Blunder::FallBack => u.facing.unit_vector().scale(-1.0),
        _ => u.facing.unit_vector(),
    };
    let t = travel(s, i, dir, cm);
    let met = t.contact.as_ref().and_then(|c| s.index(c));
    let charges = b == Blunder::Forward && met.is_some() && u.arm() != Arm::Artillery;
    s.traces.push(Trace {
        side: u.side.clone(),
        kind: if charges {
            TraceKind::Charge
        } else {
            TraceKind::Move
        },
        points: vec![t.from, t.to],
    });
    let mut said = Vec::new();
    if !engaged.is_empty() && t.cm > 0.0 {
        said.push(format!(
            "it leaves the melee with {}",
            engaged.join(" and ")
        ));
    }
    if let Some(e) = met.map(|k| s.units[k].name.clone()) {
        said.push(if charges {
            format!("charges {e}")
        } else if b == Blunder::Forward {
            format!("stops in contact with {e} (artillery cannot charge)")
        } else {
            format!("stops in contact with {e}")
        });
    }
    let mut out = vec![moved(&t, (!said.is_empty()).then(|| said.join("; ")))];
    if charges && let Some(k) = met {
        out.extend(melee(s, i, k, true, false, dice));
    }
    out
}

/// The nearest enemy within 1 M that unit `i` could charge.
pub fn charge_target(s: &State, i: usize) -> Option<String> {
    let u = &s.units[i];
    if u.arm() == Arm::Artillery || allowance(s, u) <= 0.0 {
        return None;
    }
    s.nearest_enemy(u)
        .filter(|e| crate::geometry::limit::within(s.gap(u, e), 2.0 * s.short()))
        .map(|e| e.id.clone())
}

/// The nearest unit, enemy or friend, that unit `i` could shoot at.
pub fn fire_target(s: &State, i: usize) -> Option<String> {
    if !s.units[i].placed() {
        return None;
    }
    shootable(s, i).first().map(|&(_, k)| s.units[k].id.clone())
}

//! Divisional generals: each use risks his life on a D6 of 1.

use super::roll::d6;
use super::state::State;
use super::words::{Said, event};
use crate::dice::Dice;
use crate::event::{Event, Facts};

/// General `g` was used with unit `u`: he rolls a D6 and dies on a 1.
pub fn risk(s: &mut State, g: usize, u: usize, dice: &mut Dice) -> Event {
    let name = s.generals[g].name.clone();
    let (v, i) = d6(
        dice,
        &format!("{name} used with {}: dies on a 1", s.units[u].name),
    );
    let dies = v == 1;
    if dies {
        s.generals[g].dead = true;
        s.generals[g].attached = None;
    }
    event(
        Said::GeneralUse,
        Facts {
            unit: Some(s.units[u].refer()),
            reason: Some(name),
            hits: Some(v),
            result: Some(if dies { "killed" } else { "unhurt" }.into()),
            ..Facts::default()
        },
        vec![i],
    )
}

/// The index of the divisional general who serves unit `u` (own corps and
/// arm, attached, alive).
pub fn serving(s: &State, u: usize) -> Option<usize> {
    let unit = &s.units[u];
    s.generals
        .iter()
        .position(|g| g.attached.as_deref() == Some(unit.id.as_str()) && g.serves(unit))
}

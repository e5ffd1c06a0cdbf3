//! Checking aims on receipt of orders.

use super::super::orders::Aim;
use super::super::state::State;
use super::RULE_TARGETS;
use crate::ruleset::Violation;
use crate::side::SideId;

/// Aims that could never apply: a shooter that is not the side's own unit,
/// a target that is not an enemy unit, a base outside 1 to 4 or beyond the
/// unit's bases.
pub fn check_aims(state: &State, side: &SideId, aims: &[Aim]) -> Vec<Violation> {
    let mut out = Vec::new();
    let mut bad = |a: &Aim, msg: String| {
        out.push(Violation::new(&["aims"], Some(&a.unit), RULE_TARGETS, msg));
    };
    for a in aims {
        let shooter = state.unit(&a.unit);
        match shooter {
            None => bad(
                a,
                format!(
                    "there is no unit {}{}",
                    a.unit,
                    state.unit_hint(&a.unit, Some(side))
                ),
            ),
            Some(u) if &u.side != side => bad(a, format!("{} is not your unit", u.short())),
            Some(_) => {}
        }
        match state.unit(&a.at) {
            None => bad(
                a,
                format!(
                    "there is no unit {} to aim at{}",
                    a.at,
                    state.unit_hint(&a.at, None)
                ),
            ),
            Some(t) if &t.side == side => bad(a, format!("{} is not an enemy unit", t.short())),
            Some(_) => {}
        }
        if let Some(b) = a.base {
            if !(1..=4).contains(&b) {
                bad(
                    a,
                    format!("base {b}: bases are numbered 1 to 4 from the unit's left"),
                );
            } else if let Some(u) = shooter
                && b as u32 > u.bases_count()
            {
                bad(
                    a,
                    format!(
                        "base {b}: {} has only {} base(s)",
                        u.short(),
                        u.bases_count()
                    ),
                );
            }
        }
    }
    out
}

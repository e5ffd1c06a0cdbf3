//! Rally: morale passes and the 2D6 rally table, which also serves the
//! contact morale checks, cavalry withdrawals and rough terrain tests.

use super::fatigue;
use super::generals;
use super::retreat::{remove, retreat};
use super::roll::two_d6;
use super::state::State;
use super::words::{Said, event};
use crate::dice::Dice;
use crate::dice::table::read;
use crate::event::{Event, Facts, Modifier};
use crate::geometry::{Distance, within_radius};

/// A commander spends passes on units within this distance (cm).
pub const PASS_RADIUS: f64 = 30.0;
/// The lowest total that passes (9-12 Rally).
pub const PASS: u32 = 9;
/// Retreat distance on the rally table (cm).
pub const RETREAT_CM: f64 = 30.0;
/// Chips lost for a regiment failing to rally.
pub const FAILED_RALLY: u32 = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RallyResult {
    Rout,
    Retreat,
    Disordered,
    Rally,
}

impl RallyResult {
    pub fn word(self) -> &'static str {
        match self {
            RallyResult::Rout => "rout",
            RallyResult::Retreat => "retreat",
            RallyResult::Disordered => "disordered",
            RallyResult::Rally => "pass",
        }
    }
}

/// The rally table: 2-3 rout, 4-5 retreat, 6-8 disordered, 9-12 rally.
pub fn table(total: i32) -> RallyResult {
    read(
        &[
            (2, RallyResult::Rout),
            (4, RallyResult::Retreat),
            (6, RallyResult::Disordered),
            (9, RallyResult::Rally),
        ],
        total,
    )
}

/// The usual modifiers of a rally-table roll: the unit's rally modifier and
/// +1 for a serving general (who then risks his life).
pub fn usual(s: &State, u: usize) -> (Vec<Modifier>, Option<usize>) {
    let unit = &s.units[u];
    let mut m = vec![Modifier {
        why: format!("{} rally", unit.troop.label()),
        value: unit.mods().rally,
    }];
    let g = generals::serving(s, u);
    if let Some(g) = g {
        m.push(Modifier {
            why: format!("{} attached", s.generals[g].name),
            value: 1,
        });
    }
    (m, g)
}

/// Roll on the rally table for unit `u` with `mods`; `what` says why.
/// Returns the result and the event (and a general's risk, if used).
pub fn test(
    s: &mut State,
    u: usize,
    what: Said,
    extra: Vec<Modifier>,
    other: Option<crate::event::UnitRef>,
    why: &str,
    dice: &mut Dice,
) -> (RallyResult, Vec<Event>) {
    let (mut mods, g) = usual(s, u);
    mods.extend(extra);
    let total_mod: i32 = mods.iter().map(|m| m.value).sum();
    let purpose = format!(
        "{}, 2D6 on the rally table ({why}): needs {}+ with {}",
        s.units[u].name,
        PASS as i32 - total_mod,
        super::words::mods(&mods)
    );
    let (roll, idx) = two_d6(dice, &purpose);
    let total = roll as i32 + total_mod;
    let result = table(total);
    let mut out = vec![event(
        what,
        Facts {
            unit: Some(s.units[u].refer()),
            target: other,
            needed: Some(PASS),
            modifiers: mods,
            hits: Some(total.max(0) as u32),
            result: Some(result.word().into()),
            reason: Some(why.into()),
            ..Facts::default()
        },
        idx,
    )];
    if let Some(g) = g {
        out.push(generals::risk(s, g, u, dice));
    }
    (result, out)
}

/// Carry out a rally-table result other than a pass.
pub fn apply(s: &mut State, u: usize, r: RallyResult) -> Vec<Event> {
    match r {
        RallyResult::Rout => {
            let mut out = vec![event(
                Said::Rout,
                Facts {
                    unit: Some(s.units[u].refer()),
                    ..Facts::default()
                },
                Vec::new(),
            )];
            out.extend(remove(s, u, "routed"));
            out
        }
        RallyResult::Retreat => {
            s.units[u].disordered = true;
            retreat(s, u, RETREAT_CM, "rally table: retreat")
        }
        RallyResult::Disordered => {
            s.units[u].disordered = true;
            Vec::new()
        }
        RallyResult::Rally => Vec::new(),
    }
}

/// The rally phase of `side`: passes first, as ordered, then every other
/// disordered unit must roll. Units in melee cannot rally.
pub fn phase(
    s: &mut State,
    side: &crate::side::SideId,
    passes: &[String],
    dice: &mut Dice,
) -> Vec<Event> {
    let mut out = Vec::new();
    let shaken: Vec<usize> = (0..s.units.len())
        .filter(|&i| {
            let u = &s.units[i];
            u.live() && &u.side == side && u.shaken() && s.contacts(u).is_empty()
        })
        .collect();
    for u in shaken {
        if !s.units[u].live() {
            continue;
        }
        if passes.contains(&s.units[u].id) {
            let unit = s.units[u].clone();
            let bases = s.bases(&unit);
            if let Some(c) = s.corps.iter_mut().find(|c| c.id == unit.corps)
                && c.passes > 0
                && within_radius(c.at, &bases, Distance(PASS_RADIUS))
            {
                c.passes -= 1;
                let (name, left) = (c.commander.clone(), c.passes);
                s.units[u].disordered = false;
                s.units[u].unformed = false;
                out.push(event(
                    Said::Pass,
                    Facts {
                        unit: Some(unit.refer()),
                        reason: Some(name),
                        after: Some(left as i64),
                        ..Facts::default()
                    },
                    Vec::new(),
                ));
                continue;
            }
            out.push(event(
                Said::Refused,
                Facts {
                    unit: Some(unit.refer()),
                    reason: Some(
                        "Rally: no morale pass left, or the commander is beyond 30 cm; it rolls"
                            .into(),
                    ),
                    ..Facts::default()
                },
                Vec::new(),
            ));
        }
        let (r, ev) = test(s, u, Said::RallyRoll, Vec::new(), None, "rally phase", dice);
        out.extend(ev);
        if r == RallyResult::Rally {
            s.units[u].disordered = false;
            s.units[u].unformed = false;
            continue;
        }
        // Unformed units lose no chip for failing (Rough terrain), and an
        // unformed unit that merely stands stays unformed, not disordered.
        let disordered = s.units[u].disordered;
        if disordered {
            out.push(fatigue::lose(s, u, FAILED_RALLY, "failed to rally"));
        }
        if r == RallyResult::Disordered && !disordered {
            continue;
        }
        out.extend(apply(s, u, r));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rally_table_bands() {
        // Rally table: 2-3 rout, 4-5 retreat, 6-8 disordered, 9-12 rally.
        assert_eq!(table(3), RallyResult::Rout);
        assert_eq!(table(4), RallyResult::Retreat);
        assert_eq!(table(5), RallyResult::Retreat);
        assert_eq!(table(6), RallyResult::Disordered);
        assert_eq!(table(8), RallyResult::Disordered);
        assert_eq!(table(9), RallyResult::Rally);
        assert_eq!(table(0), RallyResult::Rout);
        assert_eq!(table(14), RallyResult::Rally);
    }
}

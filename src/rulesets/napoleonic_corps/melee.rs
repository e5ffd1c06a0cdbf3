//! Melee: every group of units left in contact fights; each side adds its
//! units' melee factors and modifiers to a D6, and the lower loses by the
//! difference on the melee table.

use super::control;
use super::formation::Formation;
use super::generals;
use super::orders::ChargeOrder;
use super::retreat::{remove, retreat};
use super::roll::d6;
use super::state::State;
use super::tables::Arm;
use super::words::{Said, event};
use crate::dice::Dice;
use crate::event::{Event, Facts, Modifier};
use crate::geometry::{Frame, TerrainTag, is_to_flank, wholly_behind_front_line};
use crate::side::SideId;

/// Retreat after losing by 2-4 (cm).
pub const RETREAT_CM: f64 = 20.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeleeResult {
    /// 0: all disordered, still in contact, fight again.
    Draw,
    /// 1: loser disordered, stays in contact.
    Disordered,
    /// 2-4: loser retreats 20 cm, disordered.
    Retreat,
    /// 5+: loser eliminated.
    Eliminated,
}

/// The melee table by difference; a cavalry loser treats 5+ as 4 (house
/// reading of "Cavalry treat difference of 5+ as a 4").
pub fn table(diff: u32, loser_cavalry: bool) -> MeleeResult {
    match diff {
        0 => MeleeResult::Draw,
        1 => MeleeResult::Disordered,
        2..=4 => MeleeResult::Retreat,
        _ if loser_cavalry => MeleeResult::Retreat,
        _ => MeleeResult::Eliminated,
    }
}

fn m(why: &str, value: i32) -> Modifier {
    Modifier {
        why: why.into(),
        value,
    }
}

/// Groups of units in contact: each a set of unit indexes.
pub fn groups(s: &State) -> Vec<Vec<usize>> {
    let live: Vec<usize> = (0..s.units.len()).filter(|&i| s.units[i].live()).collect();
    let mut group: Vec<Option<usize>> = vec![None; s.units.len()];
    let mut out: Vec<Vec<usize>> = Vec::new();
    let contacts = s.all_contacts();
    for &i in &live {
        if group[i].is_some() || contacts[i].is_empty() {
            continue;
        }
        let g = out.len();
        let mut members = vec![i];
        group[i] = Some(g);
        let mut k = 0;
        while k < members.len() {
            for &j in &contacts[members[k]] {
                if group[j].is_none() {
                    group[j] = Some(g);
                    members.push(j);
                }
            }
            k += 1;
        }
        members.sort();
        out.push(members);
    }
    out
}

/// Unit `u`'s melee factor and modifiers; a serving general's +1 is
/// returned separately so his risk can be rolled.
pub fn factors(s: &State, u: usize, defending: bool) -> (i32, Vec<Modifier>, Option<usize>) {
    let unit = &s.units[u];
    let mods = unit.mods();
    let factor = match (unit.charged, mods.melee_charging) {
        (true, Some(c)) => c,
        _ => mods.melee,
    };
    let mut out = Vec::new();
    let foes = s.contacts(unit);
    let bases = s.bases(unit);
    let frame = Frame::of(&bases);
    if unit.shaken() {
        out.push(m("disordered", -2));
    }
    if foes.iter().any(|e| {
        let eb = s.bases(e);
        is_to_flank(&frame, &eb) || eb.iter().all(|b| wholly_behind_front_line(&frame, b))
    }) {
        out.push(m("hit in flank or rear", -2));
    }
    let cav = foes.iter().any(|e| e.arm() == Arm::Cavalry);
    if cav && unit.arm() == Arm::Infantry {
        match unit.formation {
            Formation::Square => out.push(m("square versus cavalry", 4)),
            Formation::Deployed => {}
            _ => out.push(m("infantry not in square or area versus cavalry", -2)),
        }
    }
    let on = |tag: TerrainTag, b: &[crate::geometry::Base]| {
        s.scenario
            .terrain
            .iter()
            .any(|t| t.has(tag) && t.touches_bases(b))
    };
    if defending && on(TerrainTag::Wall, &bases) {
        out.push(m("defending a wall or fortification", 1));
    }
    if on(TerrainTag::Hill, &bases) && !foes.iter().any(|e| on(TerrainTag::Hill, &s.bases(e))) {
        out.push(m("uphill from the enemy", 1));
    }
    let g = generals::serving(s, u);
    if let Some(g) = g {
        out.push(m(&format!("{} attached", s.generals[g].name), 1));
    }
    (factor, out, g)
}

/// The melee phase: every group fights; `phasing` attacks.
pub fn phase(
    s: &mut State,
    phasing: &SideId,
    charges: &[ChargeOrder],
    dice: &mut Dice,
) -> Vec<Event> {
    let mut out = Vec::new();
    for g in groups(s) {
        if g.iter().any(|&i| !s.units[i].live()) {
            continue;
        }
        out.extend(fight(s, &g, phasing, charges, dice));
    }
    out
}

fn fight(
    s: &mut State,
    g: &[usize],
    phasing: &SideId,
    charges: &[ChargeOrder],
    dice: &mut Dice,
) -> Vec<Event> {
    let mut out = Vec::new();
    let (att, def): (Vec<usize>, Vec<usize>) = g
        .iter()
        .copied()
        .partition(|&i| &s.units[i].side == phasing);
    let mut totals = [0i32; 2];
    let mut all_mods: Vec<Modifier> = Vec::new();
    let mut dice_idx = Vec::new();
    let mut used = Vec::new();
    for (k, side) in [&att, &def].into_iter().enumerate() {
        let mut sum = 0;
        for &u in side {
            let (f, mods, general) = factors(s, u, k == 1);
            sum += f + mods.iter().map(|x| x.value).sum::<i32>();
            all_mods.push(m(&format!("{} melee factor", s.units[u].name), f));
            all_mods.extend(
                mods.into_iter()
                    .map(|x| m(&format!("{}: {}", s.units[u].name, x.why), x.value)),
            );
            if let Some(general) = general {
                used.push((general, u));
            }
        }
        let names: Vec<String> = side.iter().map(|&u| s.units[u].name.clone()).collect();
        let (v, i) = d6(
            dice,
            &format!(
                "melee D6 for {} (factors and modifiers {sum:+})",
                names.join(" and ")
            ),
        );
        dice_idx.push(i);
        totals[k] = sum + v as i32;
    }
    let diff = (totals[0] - totals[1]).unsigned_abs();
    let (winners, losers) = if totals[0] >= totals[1] {
        (&att, &def)
    } else {
        (&def, &att)
    };
    let first = |v: &[usize]| v.first().map(|&u| s.units[u].refer());
    // Cavalry's retreat for a 5+ is named only when cavalry lost.
    let cavalry = losers
        .iter()
        .filter(|&&l| s.units[l].arm() == Arm::Cavalry)
        .count();
    const AS_FOUR: &str = "(cavalry treat a difference of 5 or more as 4)";
    let result_word = match table(diff, false) {
        MeleeResult::Draw => "a draw: all disordered, still in contact".to_string(),
        MeleeResult::Disordered => "the loser is disordered and stays in contact".into(),
        MeleeResult::Retreat => "the loser retreats 20 cm, disordered".into(),
        MeleeResult::Eliminated if cavalry == 0 => "the loser is eliminated".into(),
        MeleeResult::Eliminated if cavalry == losers.len() => {
            format!("the loser retreats 20 cm, disordered {AS_FOUR}")
        }
        MeleeResult::Eliminated => {
            format!("the loser is eliminated, its cavalry retreat 20 cm, disordered {AS_FOUR}")
        }
    };
    out.push(event(
        Said::Melee,
        Facts {
            unit: first(&att),
            target: first(&def),
            units: g.iter().map(|&u| s.units[u].refer()).collect(),
            modifiers: all_mods,
            hits: Some(diff),
            attacker_total: Some(totals[0] as i64),
            defender_total: Some(totals[1] as i64),
            result: Some(result_word),
            ..Facts::default()
        },
        dice_idx,
    ));
    for (general, u) in used {
        out.push(generals::risk(s, general, u, dice));
    }
    if diff == 0 {
        for &u in g {
            s.units[u].disordered = true;
        }
        return out;
    }
    let mut foe_gone = false;
    for &l in losers.iter() {
        match table(diff, s.units[l].arm() == Arm::Cavalry) {
            MeleeResult::Draw => {}
            MeleeResult::Disordered => s.units[l].disordered = true,
            MeleeResult::Retreat => {
                s.units[l].disordered = true;
                out.extend(retreat(s, l, RETREAT_CM, "lost a melee"));
                foe_gone = true;
            }
            MeleeResult::Eliminated => {
                out.push(event(
                    Said::Eliminated,
                    Facts {
                        unit: Some(s.units[l].refer()),
                        reason: Some("melee".into()),
                        ..Facts::default()
                    },
                    Vec::new(),
                ));
                out.extend(remove(s, l, "eliminated in melee"));
                foe_gone = true;
            }
        }
    }
    let foe = losers.first().map(|&l| s.units[l].clone());
    for &w in winners.iter() {
        if s.units[w].live() && s.units[w].arm() == Arm::Cavalry {
            let choice = charges
                .iter()
                .find(|c| c.unit == s.units[w].id)
                .map(|c| c.if_controlled.clone())
                .unwrap_or_default();
            out.extend(control::test(s, w, foe.as_ref(), foe_gone, &choice, dice));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn melee_table_by_difference() {
        // Melee table: 0 all disordered, 1 disordered, 4-2 retreat 20 cm, 5+ eliminated.
        assert_eq!(table(0, false), MeleeResult::Draw);
        assert_eq!(table(1, false), MeleeResult::Disordered);
        assert_eq!(table(2, false), MeleeResult::Retreat);
        assert_eq!(table(4, false), MeleeResult::Retreat);
        assert_eq!(table(5, false), MeleeResult::Eliminated);
    }

    #[test]
    fn cavalry_treat_five_or_more_as_four() {
        assert_eq!(table(5, true), MeleeResult::Retreat);
        assert_eq!(table(9, true), MeleeResult::Retreat);
    }
}

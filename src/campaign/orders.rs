//! A side's orders for one campaign day, and their checks.

use super::map::Map;
use super::state::Ledger;
use crate::side::SideId;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DayOrders {
    /// Each army's march; an army not named holds where it is.
    #[serde(default)]
    pub march: Vec<March>,
    /// New armies split off from one, before anyone marches.
    #[serde(default)]
    pub split: Vec<Split>,
    /// Armies joined into another in the same area, before anyone marches.
    #[serde(default)]
    pub join: Vec<Join>,
}

/// An army's road for the day: one area next to it, or two (a forced
/// march, which costs each unit the campaign's stated strength).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct March {
    pub army: String,
    pub to: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Split {
    pub army: String,
    pub new: String,
    pub name: String,
    pub commander: String,
    pub units: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Join {
    pub army: String,
    pub into: String,
}

/// Everything wrong with `side`'s orders, each naming the army and rule.
pub fn check(ledger: &Ledger, map: &Map, side: &SideId, o: &DayOrders) -> Vec<String> {
    let mut out = Vec::new();
    let own = |id: &str| ledger.army(id).filter(|a| &a.side == side);
    let mut split_off: Vec<&str> = Vec::new();
    for s in &o.split {
        match own(&s.army) {
            None => out.push(format!("split: {} is not an army of yours", s.army)),
            Some(a) => {
                if a.in_battle.is_some() {
                    out.push(format!(
                        "split: {} is fighting a battle and cannot split",
                        a.id
                    ));
                }
                if s.units.is_empty() || s.units.len() >= a.units.len() {
                    out.push(format!(
                        "split: {} has {} units; a new army takes at least one and leaves at least one",
                        a.id,
                        a.units.len()
                    ));
                }
                for u in &s.units {
                    if !a.units.iter().any(|m| &m.id == u) {
                        out.push(format!("split: unit {u} is not in army {}", a.id));
                    }
                }
            }
        }
        if ledger.army(&s.new).is_some() || split_off.contains(&s.new.as_str()) {
            out.push(format!(
                "split: the name {} is taken by another army",
                s.new
            ));
        }
        split_off.push(&s.new);
    }
    for j in &o.join {
        match (own(&j.army), own(&j.into)) {
            (Some(a), Some(b)) if a.at == b.at && a.id != b.id => {
                if a.in_battle.is_some() || b.in_battle.is_some() {
                    out.push(format!("join: {} or {} is fighting a battle", a.id, b.id));
                }
            }
            (Some(a), Some(b)) => out.push(format!(
                "join: {} at {} and {} at {} are not two armies in one area",
                a.id, a.at, b.id, b.at
            )),
            _ => out.push(format!(
                "join: {} and {} must both be armies of yours",
                j.army, j.into
            )),
        }
    }
    let mut marching: Vec<&str> = Vec::new();
    for m in &o.march {
        if marching.contains(&m.army.as_str()) {
            out.push(format!("march: {} is given two marches", m.army));
        }
        marching.push(&m.army);
        let from = match own(&m.army) {
            Some(a) if a.in_battle.is_some() => {
                out.push(format!("march: {} is fighting a battle and stays", a.id));
                continue;
            }
            Some(a) => a.at.as_str(),
            None if split_off.contains(&m.army.as_str()) => {
                match o
                    .split
                    .iter()
                    .find(|s| s.new == m.army)
                    .and_then(|s| own(&s.army))
                {
                    Some(a) => a.at.as_str(),
                    None => continue,
                }
            }
            None => {
                out.push(format!("march: {} is not an army of yours", m.army));
                continue;
            }
        };
        if m.to.is_empty() || m.to.len() > 2 {
            out.push(format!(
                "march: {} marches one road a day, or two by a forced march, not {}",
                m.army,
                m.to.len()
            ));
            continue;
        }
        let mut here = from;
        for (i, next) in m.to.iter().enumerate() {
            match map.road(here, next) {
                None => {
                    out.push(format!(
                        "march: {}: no road from {here} to {next}{}",
                        m.army,
                        crate::ruleset::did_you_mean(next, map.next_to(here).map(|(a, _)| a))
                    ));
                    break;
                }
                Some(r) if r.river && m.to.len() == 2 => {
                    out.push(format!(
                        "march: {}: the road from {here} to {next} crosses a river, which takes the whole day: no forced march over it",
                        m.army
                    ));
                }
                Some(_) => {}
            }
            if i == 0 && m.to.len() == 2 && m.to[1] == from {
                out.push(format!("march: {} would end where it began", m.army));
            }
            here = next;
        }
    }
    if o.join.iter().any(|j| marching.contains(&j.army.as_str())) {
        out.push("march: an army that joins another marches with it, not on its own".into());
    }
    out
}

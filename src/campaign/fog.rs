//! Strategic fog: what one side knows of the campaign on a day. Its own
//! armies whole; the areas within sight of them (next to each army, and
//! farther for an army with cavalry); the enemy armies standing in those
//! areas, by name and number of units only; and every battle, which both
//! sides fight. Made only from the side's own armies and what stands where
//! they see, so that an enemy out of sight changes nothing a side reads.

use super::map::Map;
use super::state::{Army, Ledger};
use crate::side::SideId;
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CampaignSight {
    pub day: u32,
    pub side: SideId,
    pub own: Vec<Army>,
    /// The areas the side sees today, in name order.
    pub seen: Vec<String>,
    pub enemy: Vec<EnemySeen>,
    pub battles: Vec<BattleSeen>,
    pub over: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EnemySeen {
    pub name: String,
    pub at: String,
    pub units: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BattleSeen {
    pub id: String,
    pub area: String,
    pub day: u32,
    pub ruleset: String,
    pub result: Option<String>,
}

/// What `side` sees of `l`.
pub fn sight(l: &Ledger, side: &SideId) -> CampaignSight {
    let map = Map::new(&l.campaign);
    let own: Vec<Army> = l
        .armies
        .iter()
        .filter(|a| &a.side == side && a.standing())
        .cloned()
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    for a in &own {
        let reach = if a.units.iter().any(|u| u.scout) {
            l.campaign.rules.cavalry_sight.max(1)
        } else {
            1
        };
        seen.extend(map.within(&[a.at.as_str()], reach));
    }
    let mut enemy: Vec<EnemySeen> = l
        .armies
        .iter()
        .filter(|a| &a.side != side && a.standing() && seen.contains(a.at.as_str()))
        .map(|a| EnemySeen {
            name: a.name.clone(),
            at: a.at.clone(),
            units: a
                .units
                .iter()
                .filter(|u| u.condition != crate::muster::Condition::Lost)
                .count(),
        })
        .collect();
    // Listed by place and name, never by the ledger's order, which would
    // tell when an unseen army was raised or split.
    enemy.sort_by(|a, b| (&a.at, &a.name, a.units).cmp(&(&b.at, &b.name, b.units)));
    CampaignSight {
        day: l.day,
        side: side.clone(),
        own,
        seen: seen.into_iter().map(String::from).collect(),
        enemy,
        battles: l
            .battles
            .iter()
            .map(|b| BattleSeen {
                id: b.id.clone(),
                area: b.area.clone(),
                day: b.day,
                ruleset: b.ruleset.clone(),
                result: b.result.as_ref().map(|r| match &r.winner {
                    Some(w) => format!("{w} won: {}", r.reason),
                    None => format!("drawn: {}", r.reason),
                }),
            })
            .collect(),
        over: l.over.clone(),
    }
}

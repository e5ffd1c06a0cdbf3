//! Battles made without an umpire: where armies of both sides stand in
//! one area, the area's battlefield is mustered with their units as the
//! ledger holds them; when the battle's game ends, its units' strengths
//! come back to the ledger, the loser falls back and the winner holds.

use super::day::Dispatch;
use super::map::Map;
use super::state::{Battle, BattleResult, Ledger};
use crate::muster::{Carried, Condition, Force, TableEdge};
use crate::side::SideId;

/// Begin a battle in every area that holds standing armies of both sides
/// not already fighting.
pub fn begin(l: &mut Ledger, news: &mut Vec<Dispatch>) -> Result<(), String> {
    let areas: Vec<String> = l.campaign.areas.iter().map(|a| a.id.clone()).collect();
    for area in areas {
        let here: Vec<usize> = (0..l.armies.len())
            .filter(|&i| {
                let a = &l.armies[i];
                a.at == area && a.in_battle.is_none() && a.standing()
            })
            .collect();
        let sides: Vec<&SideId> = here.iter().map(|&i| &l.armies[i].side).collect();
        if !sides.iter().any(|s| *s != sides[0]) || here.is_empty() {
            continue;
        }
        let b = muster(l, &area, &here)?;
        news.push(Dispatch {
            to: None,
            text: format!(
                "Battle at {}: {}. It is fought as game {}.",
                l.campaign
                    .area(&area)
                    .map_or(area.as_str(), |a| a.name.as_str()),
                here.iter()
                    .map(|&i| format!("{} ({})", l.armies[i].name, l.armies[i].side))
                    .collect::<Vec<_>>()
                    .join(" against "),
                b.id
            ),
        });
        for &i in &here {
            l.armies[i].in_battle = Some(b.id.clone());
        }
        l.battles.push(b);
    }
    Ok(())
}

/// The battle of the armies `here` (indexes into the ledger's) in `area`.
fn muster(l: &Ledger, area: &str, here: &[usize]) -> Result<Battle, String> {
    let map = Map::new(&l.campaign);
    let ruleset = l.ruleset_at(area).to_string();
    let hook = crate::rulesets::muster_by_name(&ruleset)
        .ok_or_else(|| format!("area {area}: no ruleset {ruleset} fights campaign battles"))?;
    let place = l
        .campaign
        .area(area)
        .ok_or_else(|| format!("no area {area}"))?;
    let field = l
        .fields
        .get(&place.battlefield)
        .ok_or_else(|| format!("no battlefield {} in the ledger", place.battlefield))?;
    // The attacker marched in; its first army's road gives its edge, and
    // the defender stands at the opposite one.
    let arrived = here.iter().find(|&&i| l.armies[i].came_from.is_some());
    let (attacker, edge) = match arrived {
        Some(&i) => {
            let a = &l.armies[i];
            let from = a.came_from.as_deref().unwrap_or_default();
            let edge = map.edge_into(from, area).unwrap_or(TableEdge::South);
            (a.side.clone(), edge)
        }
        None => (l.armies[here[0]].side.clone(), TableEdge::South),
    };
    let forces: Vec<Force> = l
        .campaign
        .sides
        .iter()
        .map(|s| Force {
            side: s.id.clone(),
            edge: if s.id == attacker {
                edge
            } else {
                edge.opposite()
            },
            units: here
                .iter()
                .map(|&i| &l.armies[i])
                .filter(|a| a.side == s.id)
                .flat_map(|a| {
                    a.units
                        .iter()
                        .filter(|u| u.condition != Condition::Lost)
                        .cloned()
                })
                .collect(),
        })
        .collect();
    let scenario = hook
        .muster(field, &forces)
        .map_err(|e| format!("the battle at {area} on day {}: {e}", l.day))?;
    Ok(Battle {
        id: format!("day-{}-{area}", l.day),
        area: area.to_string(),
        day: l.day,
        ruleset,
        attacker,
        armies: here.iter().map(|&i| l.armies[i].id.clone()).collect(),
        scenario,
        result: None,
    })
}

/// A battle's end entered in the ledger: each unit as `carried` says, the
/// armies free again, the loser's falling back by the road it came by or
/// to the first area next to it that holds no enemy (its units lost when
/// there is none), the winner holding the field. A draw leaves both.
pub fn finish(
    l: &mut Ledger,
    battle: &str,
    carried: &[Carried],
    winner: Option<SideId>,
    reason: &str,
    end: &str,
) -> Result<Vec<Dispatch>, String> {
    let b = l
        .battles
        .iter()
        .position(|b| b.id == battle && b.result.is_none())
        .ok_or_else(|| format!("no battle {battle} is being fought"))?;
    let area = l.battles[b].area.clone();
    let mut news = Vec::new();
    for a in l
        .armies
        .iter_mut()
        .filter(|a| a.in_battle.as_deref() == Some(battle))
    {
        for u in &mut a.units {
            if let Some(c) = carried.iter().find(|c| c.id == u.id && c.side == a.side) {
                u.strength = c.strength;
                u.condition = c.condition;
            }
        }
        a.in_battle = None;
    }
    if let Some(w) = &winner {
        let file = l.campaign.clone();
        let map = Map::new(&file);
        let losers: Vec<usize> = (0..l.armies.len())
            .filter(|&i| l.armies[i].at == area && &l.armies[i].side != w)
            .collect();
        for i in losers {
            let side = l.armies[i].side.clone();
            let enemy_at = |to: &str| {
                l.armies
                    .iter()
                    .any(|e| e.side != side && e.at == to && e.standing())
            };
            let back = l.armies[i]
                .came_from
                .clone()
                .filter(|from| !enemy_at(from))
                .or_else(|| {
                    map.next_to(&area)
                        .map(|(a, _)| a.to_string())
                        .find(|a| !enemy_at(a))
                });
            let army = &mut l.armies[i];
            match back {
                Some(to) => {
                    news.push(Dispatch {
                        to: None,
                        text: format!("{} fell back from {area} to {to}.", army.name),
                    });
                    army.at = to;
                    army.came_from = None;
                }
                None => {
                    for u in &mut army.units {
                        u.condition = Condition::Lost;
                    }
                    news.push(Dispatch {
                        to: None,
                        text: format!(
                            "{} had no road left open and laid down its arms at {area}.",
                            army.name
                        ),
                    });
                }
            }
        }
    }
    l.battles[b].result = Some(BattleResult {
        winner,
        reason: reason.to_string(),
        end: end.to_string(),
    });
    if l.day > l.campaign.days && l.open_battles().next().is_none() {
        l.over = Some(super::day::verdict(l));
    }
    Ok(news)
}

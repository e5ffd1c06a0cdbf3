//! One campaign day resolved: armies split and join, march one road (two
//! by a forced march) in two half-days, meet, and the battles begin; then
//! units out of contact recover and the day's reinforcements arrive.
//!
//! House rules, stated in `docs/CAMPAIGNS.md`: every road is a day's march;
//! two armies marching into each other's area along one road meet on it,
//! and a die each decides which was caught at home; all of a side's armies
//! in one battle enter by one table edge.

use super::battle;
use super::orders::DayOrders;
use super::state::{Army, Ledger, enlist};
use crate::dice::Dice;
use crate::muster::Condition;
use crate::side::{BySide, SideId};

/// One line of a day's news, for both sides or for one.
#[derive(Clone, Debug, PartialEq)]
pub struct Dispatch {
    /// None: both sides read it (it happened where both can see).
    pub to: Option<SideId>,
    pub text: String,
}

pub struct DayResolution {
    pub ledger: Ledger,
    pub dispatches: Vec<Dispatch>,
}

/// The day of `ledger` resolved with each side's checked orders.
pub fn resolve(
    ledger: &Ledger,
    orders: &BySide<DayOrders>,
    dice: &mut Dice,
) -> Result<DayResolution, String> {
    let mut l = ledger.clone();
    let mut news = Vec::new();
    for a in &mut l.armies {
        if a.in_battle.is_none() {
            a.came_from = None;
        }
    }
    for (side, o) in orders {
        regroup(&mut l, side, o, &mut news);
    }
    let forced = march(&mut l, orders, dice, &mut news);
    for a in &mut l.armies {
        if forced.contains(&a.id) {
            let cost = l.campaign.rules.forced_march_cost;
            for u in &mut a.units {
                u.strength = u.strength.less(cost);
            }
            news.push(Dispatch {
                to: Some(a.side.clone()),
                text: format!("{} made a forced march: each unit lost {cost}.", a.name),
            });
        }
    }
    battle::begin(&mut l, &mut news)?;
    recover(&mut l);
    l.day += 1;
    arrive(&mut l, &mut news)?;
    if l.day > l.campaign.days && l.open_battles().next().is_none() {
        l.over = Some(verdict(&l));
    }
    Ok(DayResolution {
        ledger: l,
        dispatches: news,
    })
}

/// Splits, then joins, of one side's armies.
fn regroup(l: &mut Ledger, side: &SideId, o: &DayOrders, news: &mut Vec<Dispatch>) {
    for s in &o.split {
        let Some(i) = l
            .armies
            .iter()
            .position(|a| a.id == s.army && &a.side == side)
        else {
            continue;
        };
        let (taken, kept): (Vec<_>, Vec<_>) = l.armies[i]
            .units
            .drain(..)
            .partition(|u| s.units.contains(&u.id));
        l.armies[i].units = kept;
        let new = Army {
            id: s.new.clone(),
            name: s.name.clone(),
            commander: s.commander.clone(),
            units: taken,
            came_from: None,
            in_battle: None,
            ..l.armies[i].clone()
        };
        news.push(Dispatch {
            to: Some(side.clone()),
            text: format!(
                "{} split from {} at {}.",
                new.name, l.armies[i].name, new.at
            ),
        });
        l.armies.push(new);
    }
    for j in &o.join {
        let Some(i) = l
            .armies
            .iter()
            .position(|a| a.id == j.army && &a.side == side)
        else {
            continue;
        };
        let gone = l.armies.remove(i);
        if let Some(into) = l.armies.iter_mut().find(|a| a.id == j.into) {
            news.push(Dispatch {
                to: Some(side.clone()),
                text: format!("{} joined {} at {}.", gone.name, into.name, into.at),
            });
            into.units.extend(gone.units);
        }
    }
}

/// Every march, one road at a time for all: returns the armies that made a
/// forced march.
fn march(
    l: &mut Ledger,
    orders: &BySide<DayOrders>,
    dice: &mut Dice,
    news: &mut Vec<Dispatch>,
) -> Vec<String> {
    // Each army's roads still to march, in the ledger's order.
    let mut roads: Vec<(usize, Vec<String>)> = Vec::new();
    for (side, o) in orders {
        for m in &o.march {
            if let Some(i) = l
                .armies
                .iter()
                .position(|a| a.id == m.army && &a.side == side)
            {
                roads.push((i, m.to.clone()));
            }
        }
    }
    roads.sort_by_key(|(i, _)| *i);
    let forced: Vec<String> = roads
        .iter()
        .filter(|(_, r)| r.len() == 2)
        .map(|(i, _)| l.armies[*i].id.clone())
        .collect();
    for half in 0..2 {
        let moving: Vec<(usize, String)> = roads
            .iter()
            .filter_map(|(i, r)| r.get(half).map(|to| (*i, to.clone())))
            .filter(|(i, _)| l.armies[*i].in_battle.is_none())
            .collect();
        let mut stopped: Vec<usize> = Vec::new();
        // Armies of two sides on one road, each bound for the other's area.
        for (n, (a, to_a)) in moving.iter().enumerate() {
            for (b, to_b) in moving.iter().skip(n + 1) {
                let (x, y) = (&l.armies[*a], &l.armies[*b]);
                if x.side == y.side || *to_a != y.at || *to_b != x.at {
                    continue;
                }
                let dx = dice.d6(format!(
                    "on the road between {} and {}: {} ({})",
                    x.at, y.at, x.name, x.side
                ));
                let dy = dice.d6(format!(
                    "on the road between {} and {}: {} ({})",
                    x.at, y.at, y.name, y.side
                ));
                // The lower die was caught before it left home; ties to
                // the army that holds the area it would leave (the first).
                let (caught, catcher) = if dy < dx { (*b, *a) } else { (*a, *b) };
                stopped.push(caught);
                news.push(Dispatch {
                    to: None,
                    text: format!(
                        "{} and {} met on the road: {} ({dx} against {dy}) caught {} at {}.",
                        x.name,
                        y.name,
                        l.armies[catcher].name,
                        l.armies[caught].name,
                        l.armies[caught].at
                    ),
                });
            }
        }
        for (i, to) in &moving {
            if stopped.contains(i) {
                continue;
            }
            let from = l.armies[*i].at.clone();
            l.armies[*i].came_from = Some(from.clone());
            l.armies[*i].at = to.clone();
        }
        // An army in an area that holds an enemy goes no farther today.
        for (i, r) in &mut roads {
            let a = &l.armies[*i];
            let met = stopped.contains(i)
                || l.armies
                    .iter()
                    .any(|e| e.side != a.side && e.at == a.at && e.standing());
            if met {
                r.truncate(half + 1);
                if stopped.contains(i) {
                    r.clear();
                }
            }
        }
    }
    forced
}

/// Units of armies out of contact recover the stated share of their
/// losses, and rally one step: routed to shaken, shaken to steady.
fn recover(l: &mut Ledger) {
    let percent = l.campaign.rules.recovery_percent;
    for a in &mut l.armies {
        if a.in_battle.is_some() {
            continue;
        }
        for u in &mut a.units {
            u.condition = match u.condition {
                Condition::Lost => continue,
                Condition::Routed => Condition::Shaken,
                Condition::Shaken | Condition::Steady => Condition::Steady,
            };
            u.strength = u.strength.recovered(percent);
        }
    }
}

/// The reinforcements of the new day.
fn arrive(l: &mut Ledger, news: &mut Vec<Dispatch>) -> Result<(), String> {
    let due: Vec<_> = l
        .campaign
        .reinforcements
        .iter()
        .filter(|r| r.day == l.day)
        .map(|r| r.army.clone())
        .collect();
    for spec in due {
        let field = |path: &str| {
            l.fields
                .get(path)
                .cloned()
                .ok_or_else(|| format!("no battlefield {path} in the ledger"))
        };
        let army = enlist(&l.campaign, &spec, &field, &crate::rulesets::muster_by_name)?;
        news.push(Dispatch {
            to: Some(army.side.clone()),
            text: format!("{} ({}) reached {}.", army.name, army.commander, army.at),
        });
        l.armies.push(army);
    }
    Ok(())
}

/// Who won the campaign once its days are done: the side that alone holds
/// more areas.
pub(super) fn verdict(l: &Ledger) -> String {
    let sides: Vec<SideId> = l.campaign.sides.iter().map(|s| s.id.clone()).collect();
    let held = |s: &SideId| {
        l.campaign
            .areas
            .iter()
            .filter(|area| {
                let here: Vec<&Army> = l
                    .armies
                    .iter()
                    .filter(|a| a.at == area.id && a.standing())
                    .collect();
                !here.is_empty() && here.iter().all(|a| &a.side == s)
            })
            .count()
    };
    let (a, b) = (held(&sides[0]), held(&sides[1]));
    match a.cmp(&b) {
        std::cmp::Ordering::Greater => format!("{} win: they hold {a} areas to {b}", sides[0]),
        std::cmp::Ordering::Less => format!("{} win: they hold {b} areas to {a}", sides[1]),
        std::cmp::Ordering::Equal => format!("a draw: each side holds {a} areas"),
    }
}

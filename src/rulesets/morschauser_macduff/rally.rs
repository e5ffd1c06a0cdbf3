//! E.4 rallying: a company or formed regiment out of melee distance and
//! joined by its brigadier or a higher general may win back half its hits.

use super::command::{brigadier, unit_name};
use super::movement::within_melee;
use super::regiment;
use super::state::State;
use super::units::Quality;
use super::words::{self, What};
use crate::dice::Dice;
use crate::event::{Event, Facts, Loss};
use crate::geometry::{base_distance, point_to_bases};
use crate::side::SideId;

/// House rule (E.4): a general standing this close to a company's base, or
/// attached to it, has joined it.
pub const JOINED: f64 = 1.0;
/// E.4: the score (after modifiers) that rallies.
pub const RALLIES_ON: i32 = 5;

/// The generals who count as joining company `c` for E.4: its brigadier and
/// every general above him (`under`), alive, attached to it or within
/// [`JOINED`] of its base. Returns `(name, charismatic)`.
fn joining(s: &State, company: &str) -> Vec<(String, bool)> {
    let Some(c) = s.company(company) else {
        return Vec::new();
    };
    let base = c.base(&s.scenario);
    let mut chain = Vec::new();
    let mut next = brigadier(s, company).cloned();
    while let Some(g) = next {
        if chain
            .iter()
            .any(|x: &super::scenario::GeneralSpec| x.id == g.id)
        {
            break;
        }
        next = g.under.as_ref().and_then(|u| {
            s.scenario
                .sides
                .iter()
                .flat_map(|x| &x.generals)
                .find(|h| &h.id == u)
                .cloned()
        });
        chain.push(g);
    }
    chain
        .into_iter()
        .filter(|spec| {
            s.general(&spec.id).is_some_and(|g| {
                !g.killed
                    && (g.attached.as_deref() == Some(company)
                        || point_to_bases(s.general_at(g), std::slice::from_ref(&base)).get()
                            <= JOINED + 1e-9)
            })
        })
        .map(|g| (g.name.clone(), g.charismatic))
        .collect()
}

/// E.4 for every unit of `side` that could win back a hit.
///
/// House rules: a unit rolls only if some company of it has two or more
/// hits (half of one hit, rounded down, is nothing); routing units do not
/// rally; a formed regiment's quality modifier counts when every company in
/// it has the quality, and elite and stubborn together are still +1.
pub fn rally(s: &mut State, side: &SideId, dice: &mut Dice, events: &mut Vec<Event>) {
    let live: Vec<String> = s
        .live(side)
        .filter(|c| !s.routing.contains(&c.id))
        .map(|c| c.id.clone())
        .collect();
    for unit in regiment::units(s, &live) {
        if !unit
            .iter()
            .any(|c| s.company(c).is_some_and(|x| x.hits >= 2))
        {
            continue;
        }
        let close = unit.iter().any(|c| {
            s.company(c).is_some_and(|x| {
                let b = x.base(&s.scenario);
                s.enemies(side)
                    .any(|e| within_melee(base_distance(&b, &e.base(&s.scenario)).get()))
            })
        });
        if close {
            continue;
        }
        let generals: Vec<(String, bool)> = unit.iter().flat_map(|c| joining(s, c)).collect();
        let Some((general, _)) = generals.first().cloned() else {
            continue;
        };
        let all = |q: Quality| unit.iter().all(|c| regiment::qualities(s, c).contains(&q));
        let mut modifiers: Vec<(i32, &str)> = Vec::new();
        if generals.iter().any(|(_, ch)| *ch) {
            modifiers.push((1, "+1 charismatic general"));
        }
        if unit.iter().all(|c| {
            let q = regiment::qualities(s, c);
            q.contains(&Quality::Elite) || q.contains(&Quality::Stubborn)
        }) {
            modifiers.push((1, "+1 elite or stubborn"));
        }
        if all(Quality::Militia) {
            modifiers.push((-1, "-1 militia"));
        }
        let name = unit_name(s, &unit);
        let notes: String = modifiers.iter().map(|(_, t)| format!(", {t}")).collect();
        let die = dice.d6(format!(
            "{name}: rally with General {general} (E.4): 5-6 removes half its hits{notes}"
        ));
        let di = dice.last_index();
        let total = die as i32 + modifiers.iter().map(|(m, _)| m).sum::<i32>();
        if total < RALLIES_ON {
            events.push(
                words::event(
                    What::NoRally,
                    Facts {
                        rolls: vec![die],
                        after: Some(total as i64),
                        ..words::unit(s, &unit)
                    },
                )
                .with_dice(di),
            );
            continue;
        }
        let mut facts = Facts {
            rolls: vec![die],
            after: Some(total as i64),
            ..words::unit(s, &unit)
        };
        facts.units.clear();
        for id in &unit {
            if let Some(c) = s.company_mut(id) {
                let k = c.hits / 2;
                c.hits -= k;
                facts.units.push(words::company(c));
                facts.losses.push(Loss {
                    unit: c.id.clone(),
                    amount: k,
                    of: "SP regained".into(),
                });
                facts.notes.push(format!("now {}", c.strength()));
            }
        }
        events.push(words::event(What::Rallies, facts).with_dice(di));
    }
}

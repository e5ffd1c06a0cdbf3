//! E.3 brigade morale: when a general has lost half the companies of his
//! brigade, each of its remaining units rolls once: 5-6 it routs and leaves
//! the table, 3-4 it obeys, 1-2 it retreats a full move.

use super::command::unit_name;
use super::movement::{Moved, carry_out, within_melee};
use super::orders::{Action, PathStep};
use super::regiment;
use super::state::{Company, State, Trace};
use super::words::{self, What};
use crate::dice::Dice;
use crate::event::{Event, Facts, UnitRef};
use crate::geometry::{Angle, Point, base_distance};
use crate::side::SideId;

/// A routing company this close to the table edge has left it.
const AT_EDGE: f64 = 0.5;

/// Whether a company is routing (E.3): it neither shoots nor charges, and
/// defends itself if meleed.
pub fn is_routing(s: &State, company: &str) -> bool {
    s.routing.contains(company)
}

/// The companies of a general's brigade: those he commands directly and
/// those of the regiments he commands (house rule: generals under him do
/// not add their brigades to his).
pub fn brigade(s: &State, general: &str) -> Vec<String> {
    let Some((side, g)) = s
        .scenario
        .sides
        .iter()
        .find_map(|x| x.generals.iter().find(|g| g.id == general).map(|g| (x, g)))
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for c in &g.commands {
        match side.regiments.iter().find(|r| &r.id == c) {
            Some(r) => out.extend(r.companies.iter().cloned()),
            None => out.push(c.clone()),
        }
    }
    out
}

/// Routing companies of `side` flee; brigades at half losses test once.
pub fn start_of_half_turn(s: &mut State, side: &SideId, dice: &mut Dice, events: &mut Vec<Event>) {
    let fleeing: Vec<String> = s
        .live(side)
        .filter(|c| s.routing.contains(&c.id))
        .map(|c| c.id.clone())
        .collect();
    for id in fleeing {
        flee(s, &id, events);
    }
    let generals: Vec<(String, String)> = s
        .scenario
        .sides
        .iter()
        .filter(|x| &x.id == side)
        .flat_map(|x| &x.generals)
        .map(|g| (g.id.clone(), g.name.clone()))
        .collect();
    for (g, name) in generals {
        if s.morale_tested.contains(&g) {
            continue;
        }
        let all = brigade(s, &g);
        let lost = all
            .iter()
            .filter(|c| s.company(c).is_none_or(|x| !x.on_table()))
            .count();
        if all.is_empty() || lost * 2 < all.len() {
            continue;
        }
        s.morale_tested.insert(g.clone());
        events.push(words::event(
            What::BrigadeTest,
            Facts {
                target: Some(UnitRef {
                    id: g.clone(),
                    name: name.clone(),
                    side: side.clone(),
                }),
                hits: Some(lost as u32),
                count: Some(all.len() as u32),
                ..words::side(s, side)
            },
        ));
        let live: Vec<String> = all
            .into_iter()
            .filter(|c| s.company(c).is_some_and(|x| x.on_table()))
            .filter(|c| !s.routing.contains(c))
            .collect();
        for unit in regiment::units(s, &live) {
            test_unit(s, &unit, dice, events);
        }
    }
}

fn test_unit(s: &mut State, unit: &[String], dice: &mut Dice, events: &mut Vec<Event>) {
    let name = unit_name(s, unit);
    let d = dice.d6(format!(
        "{name}: brigade morale (E.3): 5-6 leave the field, 3-4 obey, 1-2 retreat a move"
    ));
    let di = dice.last_index();
    let facts = Facts {
        rolls: vec![d],
        ..words::unit(s, unit)
    };
    match d {
        5 | 6 => {
            events.push(words::event(What::Flees, facts).with_dice(di));
            for c in unit {
                s.routing.insert(c.clone());
                flee(s, c, events);
            }
        }
        3 | 4 => events.push(words::event(What::Obeys, facts).with_dice(di)),
        _ => {
            events.push(words::event(What::FallsBackMorale, facts).with_dice(di));
            retreat(s, unit, events);
        }
    }
}

/// The enemy company nearest to any of `unit`, if any.
fn nearest_enemy(s: &State, unit: &[Company]) -> Option<Company> {
    let first = unit.first()?;
    s.enemies(&first.side)
        .min_by(|a, b| {
            let d = |e: &Company| {
                unit.iter()
                    .map(|c| base_distance(&c.base(&s.scenario), &e.base(&s.scenario)).get())
                    .fold(f64::INFINITY, f64::min)
            };
            d(a).total_cmp(&d(b)).then(a.id.cmp(&b.id))
        })
        .cloned()
}

/// E.3, 1-2: a full move straight away from the nearest enemy, all members
/// the same way; it counts as the unit's move this half-turn.
fn retreat(s: &mut State, unit: &[String], events: &mut Vec<Event>) {
    let companies: Vec<Company> = unit.iter().filter_map(|c| s.company(c)).cloned().collect();
    let Some(e) = nearest_enemy(s, &companies) else {
        return;
    };
    let Some(first) = companies.first() else {
        return;
    };
    let from = e.base(&s.scenario).center;
    let away = first.base(&s.scenario).center - from;
    let Some(dir) = Angle::of_vector(away) else {
        return;
    };
    let go = first.profile.movement.get();
    let a = Action {
        path: vec![PathStep::To(first.at + dir.unit_vector().scale(go))],
        ..Action::default()
    };
    for (id, act) in regiment::move_together(s, unit, &a) {
        let Some(c) = s.company(&id).cloned() else {
            continue;
        };
        let m = carry_out(s, &c, &act, false);
        apply(s, &c, &m, "retreats", events);
        s.retreated.insert(id);
    }
}

/// E.3, 5-6: a routing company's full move toward the table edge, leaving
/// the table if it gets there.
///
/// House rule: it heads for the nearest table edge whose straight route does
/// not pass within 3" of an enemy (the nearest edge of all if every route
/// does); it leaves the table, and counts as lost (D, E.3), once its base is
/// within half an inch of that edge.
pub fn flee(s: &mut State, id: &str, events: &mut Vec<Event>) {
    let Some(c) = s.company(id).cloned() else {
        return;
    };
    if !c.on_table() {
        return;
    }
    let (w, h) = (s.scenario.table.width.get(), s.scenario.table.height.get());
    let centre = c.base(&s.scenario).center;
    let mut exits = [
        Point::new(centre.x, 0.0),
        Point::new(centre.x, h),
        Point::new(0.0, centre.y),
        Point::new(w, centre.y),
    ];
    exits.sort_by(|a, b| (*a - centre).length().total_cmp(&(*b - centre).length()));
    let exit = exits
        .iter()
        .copied()
        .find(|p| clear_route(s, &c, centre, *p))
        .unwrap_or(exits[0]);
    let Some(dir) = Angle::of_vector(exit - centre) else {
        return;
    };
    let a = Action {
        path: vec![PathStep::To(
            c.at + dir.unit_vector().scale(c.profile.movement.get()),
        )],
        ..Action::default()
    };
    let m = carry_out(s, &c, &a, false);
    apply(s, &c, &m, "flees", events);
    let Some(moved) = s.company(id).cloned() else {
        return;
    };
    // How far the base still is from the edge it makes for.
    let edge_gap = |p: &Point| {
        if exit.y <= 0.0 {
            p.y
        } else if exit.y >= h {
            h - p.y
        } else if exit.x <= 0.0 {
            p.x
        } else {
            w - p.x
        }
    };
    let gone = moved
        .base(&s.scenario)
        .corners()
        .iter()
        .map(edge_gap)
        .fold(f64::INFINITY, f64::min)
        <= AT_EDGE;
    if gone {
        s.destroy(id);
        s.routing.remove(id);
        events.push(words::event(What::LeavesTable, words::of(s, &moved)));
    }
}

/// Whether the straight route from `from` to `to` keeps 3" from every enemy.
fn clear_route(s: &State, c: &Company, from: Point, to: Point) -> bool {
    let Some(dir) = Angle::of_vector(to - from) else {
        return true;
    };
    let len = (to - from).length();
    let steps = len.ceil().max(1.0) as usize;
    (0..=steps).all(|i| {
        let p = from.lerp(to, i as f64 / steps as f64);
        let b = c.base_at(&s.scenario, p, dir);
        s.enemies(&c.side)
            .all(|e| !within_melee(base_distance(&b, &e.base(&s.scenario)).get()))
    })
}

fn apply(s: &mut State, c: &Company, m: &Moved, verb: &str, events: &mut Vec<Event>) {
    let Some(x) = s.company_mut(&c.id) else {
        return;
    };
    x.at = m.at;
    x.facing = m.facing;
    x.halted_in_water = m.in_water;
    events.push(words::event(
        What::MoraleMove,
        Facts {
            mode: Some(verb.to_string()),
            distance: Some(m.travelled),
            from: Some(c.at),
            to: Some(m.at),
            reason: m.stopped.clone(),
            ..words::of(s, c)
        },
    ));
    s.traces.push(Trace {
        company: c.id.clone(),
        side: c.side.clone(),
        points: m.points.clone(),
    });
}

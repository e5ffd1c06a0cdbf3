//! The sequence of play: alternate moves, each of four phases. Phase 1:
//! observation; morale tests of units charged, charging, rallying; initial
//! routs and first pursuits. Phase 2: the active side fires; the opponent
//! tests for shooting casualties and charges home. Phase 3: both sides
//! fight hand to hand. Phase 4: rallies, routs, pursuits, initial charge
//! moves, all other movement, reloading.

use super::charge;
use super::fire;
use super::melee;
use super::morale::{Cause, test};
use super::movement::{drill_cost, motion, nearest_known, rout, travel};
use super::observe;
use super::orders::{MoveOrders, Reactions};
use super::state::{Motion, Phase, State, Status, Trace, TraceKind};
use super::step::Step;
use super::tables::MEN_PER_FIGURE;
use super::words::Said;
use crate::dice::Dice;
use crate::event::{Event, Facts};
use crate::ruleset::Outcome;
use crate::side::SideId;
use std::collections::BTreeMap;

pub fn resolve(
    s: &State,
    n: u32,
    active: &SideId,
    o: &MoveOrders,
    dice: &mut Dice,
) -> (State, Vec<Event>) {
    let mut s = s.clone();
    // Where the units stand, filed for the move's questions of nearness.
    s.file_places();
    let mut st = Step::new(s, dice, n, active.clone());
    begin(&mut st, o);
    phase_one(&mut st, o);
    let contacts = phase_two(&mut st, o);
    phase_three(&mut st, contacts);
    phase_four(&mut st, o);
    observe::forget_moved(&mut st);
    risk_to_personalities(&mut st);
    end(&mut st);
    (st.s.unfiled(), st.events)
}

fn begin(st: &mut Step, o: &MoveOrders) {
    let active = st.active.clone();
    st.s.traces.clear();
    // Smoke lasts through the enemy's move that follows the fire.
    st.s.smoke.retain(|x| x.side != active);
    for u in &mut st.s.units {
        u.lost_this_move = 0;
        if u.side == active {
            u.fired = false;
        }
    }
    for p in st.s.persons.iter_mut().filter(|p| p.side == active) {
        p.left = p.points;
    }
    let other = st.s.other(&active);
    st.pledges = o.pledges.clone();
    st.pledges.extend(
        st.s.reactions
            .get(&other)
            .map(|r: &Reactions| r.pledges.clone())
            .unwrap_or_default(),
    );
    let f = Facts {
        side: Some(active.clone()),
        side_name: Some(st.s.side_name(&active)),
        round: Some(st.n),
        ..Facts::default()
    };
    st.say(Said::MoveBegins, f, Vec::new());
}

fn phase_one(st: &mut Step, o: &MoveOrders) {
    for ob in &o.observe {
        observe::observe(st, &ob.unit, ob.at);
    }
    // New orders (2 CP): a pursuing unit called back.
    for r in &o.recall {
        let ok = st.s.persons.iter().any(|p| {
            p.id == r.personality && !p.hit && p.left >= 2 && p.with.as_deref() == Some(&r.unit)
        }) && st
            .s
            .unit(&r.unit)
            .is_some_and(|u| u.status == Status::Pursuing);
        if !ok {
            st.refuse(
                &r.unit,
                "Command points: a new order needs 2 points of a personality with a pursuing unit",
            );
            continue;
        }
        let mut name = String::new();
        if let Some(p) = st.s.persons.iter_mut().find(|p| p.id == r.personality) {
            p.left -= 2;
            name = p.name.clone();
        }
        if let Some(u) = st.s.unit_mut(&r.unit) {
            u.status = Status::Good;
            u.from = None;
        }
        let mut f = st.facts(&r.unit, None);
        f.group = Some(name);
        st.say(Said::Recall, f, Vec::new());
    }
    charge::targets_test(st);
    let active = st.active.clone();
    // A unit that routed on being charged just now tests to rally in its
    // next move, not in the phase it routed in.
    let rallying: Vec<String> =
        st.s.live(&active)
            .filter(|u| matches!(u.status, Status::Routing | Status::Pursuing))
            .filter(|u| !st.routed.contains(&u.id))
            .map(|u| u.id.clone())
            .collect();
    for id in rallying {
        if test(st, &id, Cause::Rally, None) {
            let was = st.s.unit(&id).map(|u| u.status);
            if let Some(u) = st.s.unit_mut(&id) {
                u.status = Status::Good;
                u.from = None;
                u.last = Motion::Halted;
            }
            let mut f = st.facts(&id, None);
            f.result = Some(if was == Some(Status::Pursuing) {
                "halts its pursuit".into()
            } else {
                "rallies".into()
            });
            st.say(Said::Rally, f, Vec::new());
        }
    }
    for c in &o.charges {
        let Some(mut target) = st.aim(&c.unit, &c.target, "charge") else {
            continue;
        };
        // A charge into a smoke marker finds whoever stands in it.
        if let Some(side) = st.s.unit(&c.unit).map(|u| u.side.clone())
            && st.s.smoke_marker(&side, &target).is_some()
        {
            let Some(t) = st.s.in_smoke(&target).map(|t| t.id.clone()) else {
                let why = format!("Charge procedure: the smoke {target} hides no one now");
                st.refuse(&c.unit, &why);
                continue;
            };
            observe::touch(st, &c.unit, &t);
            target = t;
        }
        charge::declare(st, &c.unit, &target);
    }
}

fn phase_two(st: &mut Step, o: &MoveOrders) -> Vec<(String, String)> {
    let mut hit: Vec<String> = Vec::new();
    let mut shots: Vec<(String, String)> = Vec::new();
    for f in &o.fire {
        if let Some(target) = st.aim(&f.unit, &f.target, "fire at") {
            shots.push((f.unit.clone(), target));
        }
    }
    // House rule: a unit that stood its charge and was given no fire order
    // fires at its charger if loaded, seen or not (its player could not
    // name a hidden charger).
    for (unit, charger) in std::mem::take(&mut st.stood) {
        let loaded = st.s.unit(&unit).is_some_and(|u| u.loaded && !u.fired);
        if loaded && !shots.iter().any(|(u, _)| *u == unit) {
            shots.push((unit, charger));
        }
    }
    // Fire into a smoke marker hits whoever stands in it.
    let mut fired = Vec::new();
    for (unit, target) in shots {
        let into = st.s.in_smoke(&target).map(|t| t.id.clone());
        let men = fire::fire(st, &unit, &target);
        let id = into.unwrap_or(target);
        if men > 0 && !hit.contains(&id) {
            hit.push(id.clone());
        }
        fired.push((unit, id));
    }
    let shots = fired;
    for id in hit {
        if st
            .s
            .unit(&id)
            .is_some_and(|u| u.live() && u.status == Status::Good)
        {
            let from = shots.iter().find(|(_, t)| *t == id).map(|(u, _)| u.clone());
            test(st, &id, Cause::Fire, from.as_deref());
        }
    }
    charge::charge_home(st)
}

/// Both sides fight each contact the charges made, in their order.
fn phase_three(st: &mut Step, contacts: Vec<(String, String)>) {
    for (a, d) in contacts {
        melee::fight(st, &a, &d);
    }
}

fn phase_four(st: &mut Step, o: &MoveOrders) {
    let active = st.active.clone();
    let n = st.n;
    let mut moved: BTreeMap<String, f64> = BTreeMap::new();
    // Other routs, and pursuits.
    let units: Vec<_> = st.s.live(&active).cloned().collect();
    for u in &units {
        match u.status {
            // One rout move a move: a unit that routed earlier in this move
            // (on being charged, or losing hand to hand) has made it.
            Status::Routing if st.routed.contains(&u.id) => {
                moved.insert(u.id.clone(), u.mv());
            }
            Status::Routing => {
                rout(st, &u.id, u.from.clone().as_deref());
                moved.insert(u.id.clone(), u.mv());
            }
            Status::Pursuing => {
                if let Some(r) = u.from.clone() {
                    melee::follow(st, &u.id, &r);
                    moved.insert(u.id.clone(), u.mv());
                }
            }
            _ => {}
        }
    }
    charge::initial_moves(st);
    let charging: Vec<String> =
        st.s.charges
            .iter()
            .filter(|c| c.declared == n)
            .map(|c| c.unit.clone())
            .collect();
    for c in &charging {
        moved.insert(c.clone(), f64::MAX);
    }
    for m in &o.moves {
        let Some(u) = st.s.unit(&m.unit).cloned() else {
            continue;
        };
        if !u.live() {
            continue;
        }
        if u.status != Status::Good {
            st.refuse(
                &u.id,
                "Movement: routing and pursuing units move by themselves; the ordered move is dropped",
            );
            continue;
        }
        if charging.contains(&u.id) {
            st.refuse(
                &u.id,
                "Charge procedure: it made its initial charge move; the ordered move is dropped",
            );
            continue;
        }
        if moved.contains_key(&u.id) {
            st.refuse(
                &u.id,
                "Movement: one move per unit; it has moved already this move, the second order is dropped",
            );
            continue;
        }
        let cost = drill_cost(&u, m.formation, m.about);
        let budget = (u.mv() - cost).max(0.0);
        if let Some(x) = st.s.unit_mut(&u.id) {
            if let Some(f) = m.formation {
                x.formation = f;
            }
            if m.about {
                x.facing = (x.facing + 180.0).rem_euclid(360.0);
            }
        }
        let before = nearest_known(&st.s, &u);
        let mut went_to = u.at;
        let mut dist = 0.0;
        let mut rolls = Vec::new();
        let mut dice = Vec::new();
        let mut went_short = None;
        if let Some(to) = m.to {
            if u.no_advance {
                let mut probe = u.clone();
                probe.at = to;
                let after = nearest_known(&st.s, &probe);
                if let (Some(b), Some(a)) = (before, after)
                    && a < b - 0.5
                {
                    let why = format!(
                        "Morale: it may not advance towards the enemy this move: the move would bring it from {b:.1} cm to {a:.1} cm of the nearest enemy; the move is dropped"
                    );
                    st.refuse(&u.id, &why);
                    continue;
                }
            }
            let went = travel(st, &u.id, to, budget, None);
            went_to = went.to;
            dist = went.moved;
            rolls = went.rolls.clone();
            dice = went.dice.clone();
            went_short = Some((to, went));
        }
        let now = st.s.unit(&u.id).cloned();
        let after = now.as_ref().and_then(|x| nearest_known(&st.s, x));
        if let Some(x) = st.s.unit_mut(&u.id) {
            x.last = motion(before, after, dist);
        }
        moved.insert(u.id.clone(), dist + cost);
        if dist > 0.05 {
            st.s.traces.push(Trace {
                unit: u.id.clone(),
                side: active.clone(),
                kind: TraceKind::Move,
                points: vec![u.at, went_to],
            });
        }
        let mut f = st.facts(&u.id, None);
        f.from = Some(u.at);
        f.to = Some(went_to);
        f.distance = Some(dist);
        f.rolls = rolls;
        if let Some(fm) = m.formation {
            f.notes.push(format!("forms {}", fm.name()));
        }
        if m.about {
            f.notes.push("turns about".into());
        }
        st.say(Said::Move, f, dice);
        if let Some((to, went)) = went_short {
            super::shortfall::tell(st, &u.id, to, u.mv(), cost.min(u.mv()), &went);
        }
    }
    // Reloading: a unit that moved no more than its share of a move is
    // loaded for its next move. Units that did not move stood.
    for u in
        st.s.units
            .iter_mut()
            .filter(|u| u.side == active && u.live())
    {
        let m = moved.get(&u.id).copied().unwrap_or(0.0);
        if !moved.contains_key(&u.id) && u.status == Status::Good {
            u.last = Motion::Halted;
        }
        if !u.loaded && m <= u.troop.reload_share() * u.mv() + 1e-9 {
            u.loaded = true;
        }
        u.no_advance = false;
    }
    for j in &o.personalities {
        let ok =
            st.s.unit(&j.unit)
                .is_some_and(|u| u.live() && u.side == active);
        if let Some(p) = st.s.persons.iter_mut().find(|p| p.id == j.personality)
            && ok
            && !p.hit
        {
            p.with = Some(j.unit.clone());
        }
    }
}

/// The chance a personality is hit is twice the percentage of casualties
/// his unit took this move.
fn risk_to_personalities(st: &mut Step) {
    let persons = st.s.persons.clone();
    for p in persons.iter().filter(|p| !p.hit) {
        let Some(u) = p.with.as_deref().and_then(|w| st.s.unit(w)).cloned() else {
            continue;
        };
        if u.lost_this_move == 0 {
            continue;
        }
        let before = u.men() + u.lost_this_move;
        let pct = (200 * u.lost_this_move).div_ceil(before.max(1)).min(100);
        let r = st.roll(
            &[&u.id],
            100,
            &format!("risk to {} with {}: hit on {pct} or less", p.name, u.name),
        );
        let hit = r.value <= pct;
        let mut f = st.facts(&u.id, None);
        f.group = Some(p.name.clone());
        f.needed = Some(pct);
        f.rolls = vec![r.value];
        f.result = Some(if hit {
            "hit, removed from play".into()
        } else {
            "unhurt".into()
        });
        st.say(Said::PersonHit, f, vec![r.index]);
        if hit && let Some(x) = st.s.persons.iter_mut().find(|x| x.id == p.id) {
            x.hit = true;
            x.with = None;
        }
    }
    for p in st.s.persons.iter_mut() {
        if p.with
            .as_deref()
            .is_some_and(|w| st.s.units.iter().any(|u| u.id == w && !u.live()))
        {
            p.with = None;
        }
    }
}

/// Share of men lost by `side` (in thousandths).
pub fn lost_share(s: &State, side: &SideId) -> u32 {
    let start: u32 = s
        .units
        .iter()
        .filter(|u| &u.side == side)
        .map(|u| u.start_figures * MEN_PER_FIGURE)
        .sum();
    let lost: u32 = s
        .units
        .iter()
        .filter(|u| &u.side == side)
        .map(|u| {
            if u.live() {
                u.men_lost
            } else {
                u.start_figures * MEN_PER_FIGURE
            }
        })
        .sum();
    1000 * lost / start.max(1)
}

/// House rule: a side with no unit left that is neither gone nor routing
/// has lost; after the scenario's moves, the side that lost the smaller
/// share of its men wins (a draw within 5%).
pub fn judge(s: &State, n: u32) -> Option<Outcome> {
    let sides: Vec<SideId> = s.scenario.sides.iter().map(|x| x.id.clone()).collect();
    let broken: Vec<&SideId> = sides
        .iter()
        .filter(|side| !s.live(side).any(|u| u.status != Status::Routing))
        .collect();
    match broken.as_slice() {
        [one] => {
            let w = s.other(one);
            return Some(Outcome {
                reason: format!(
                    "{} no unit left standing",
                    crate::words::subject_verb(&s.side_name(one), "has", "have")
                ),
                winner: Some(w),
            });
        }
        [_, _] => {
            return Some(Outcome {
                winner: None,
                reason: "neither side has a unit left standing".into(),
            });
        }
        _ => {}
    }
    if n < s.scenario.moves {
        return None;
    }
    let a = &sides[0];
    let b = &sides[1];
    let (la, lb) = (lost_share(s, a), lost_share(s, b));
    let words = |x: u32| format!("{:.1}%", x as f64 / 10.0);
    if la.abs_diff(lb) <= 50 {
        return Some(Outcome {
            winner: None,
            reason: format!(
                "after {n} moves, {} lost {} of their men and {} {}",
                crate::words::subject(&s.side_name(a)),
                words(la),
                crate::words::subject(&s.side_name(b)),
                words(lb)
            ),
        });
    }
    let (w, l, lw, ll) = if la < lb {
        (a, b, la, lb)
    } else {
        (b, a, lb, la)
    };
    Some(Outcome {
        winner: Some(w.clone()),
        reason: format!(
            "after {n} moves, {} lost {} of their men and {} {}",
            crate::words::subject(&s.side_name(w)),
            words(lw),
            crate::words::subject(&s.side_name(l)),
            words(ll)
        ),
    })
}

fn end(st: &mut Step) {
    let n = st.n;
    if let Some(o) = judge(&st.s, n) {
        let f = Facts {
            side: o.winner.clone(),
            reason: Some(o.reason.clone()),
            round: Some(n),
            ..Facts::default()
        };
        st.say(Said::Outcome, f, Vec::new());
        st.s.phase = Phase::Over(o);
    } else {
        let next = st.s.other(&st.active);
        st.s.phase = Phase::Move {
            n: n + 1,
            active: next,
        };
    }
}

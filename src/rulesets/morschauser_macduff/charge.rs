//! Charges (B.3), the forced attack of a company that starts within 3" of
//! the enemy (B.6) and cavalry pursuit (E.8).

use super::melee::{Attack, Verdict, barred, fight};
use super::morale;
use super::movement::{Engaged, MELEE_RANGE, Moved, carry_out, within_melee};
use super::orders::{Action, PathStep};
use super::retreat::walk;
use super::state::{Company, State};
use super::words::{self, What};
use crate::dice::Dice;
use crate::event::{Event, Facts};
use crate::geometry::{Base, Bounds, Distance, base_distance};

/// E.8: how far pursuing cavalry may advance.
pub const PURSUIT: f64 = 3.0;
const EPS: f64 = 1e-9;

/// The nearest live enemy within melee range of `c`, preferring `wanted`.
pub fn enemy_in_range(s: &State, c: &Company, wanted: Option<&str>) -> Option<String> {
    let sc = &s.scenario;
    let cb = c.base(sc);
    let mut near: Vec<(f64, &Company)> = s
        .enemies_near(&c.side, &Bounds::of_base(&cb), MELEE_RANGE + EPS)
        .map(|e| (base_distance(&cb, &e.base(sc)).get(), e))
        .filter(|(g, _)| within_melee(*g))
        .collect();
    if let Some(w) = wanted
        && near.iter().any(|(_, e)| e.id == w)
    {
        return Some(w.to_string());
    }
    near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.id.cmp(&b.1.id)));
    near.first().map(|(_, e)| e.id.clone())
}

/// B.6 with C.2, C.5: the enemy within melee range that `c` must attack:
/// `wanted`, else the nearest, among those it may attack (not in ground it
/// may not enter); when it may attack none, the one [`enemy_in_range`]
/// gives, whose melee is then refused with the reason.
pub fn attack_in_range(s: &State, c: &Company, wanted: Option<&str>) -> Option<String> {
    let sc = &s.scenario;
    let cb = c.base(sc);
    let mut open: Vec<(f64, &Company)> = s
        .enemies_near(&c.side, &Bounds::of_base(&cb), MELEE_RANGE + EPS)
        .map(|e| (base_distance(&cb, &e.base(sc)).get(), e))
        .filter(|(g, e)| within_melee(*g) && barred(s, c, e).is_none())
        .collect();
    if let Some(w) = wanted
        && open.iter().any(|(_, e)| e.id == w)
    {
        return Some(w.to_string());
    }
    open.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.id.cmp(&b.1.id)));
    open.first()
        .map(|(_, e)| e.id.clone())
        .or_else(|| enemy_in_range(s, c, wanted))
}

/// B.3: a flank attack needs the attacker wholly behind the line of the
/// defender's front edge.
pub fn behind_front(s: &State, from: &Base, defender: &Company) -> bool {
    let db = defender.base(&s.scenario);
    let f = defender.facing.unit_vector();
    let front = db.front_center();
    from.corners().iter().all(|p| (*p - front).dot(f) <= 1e-6)
}

/// B.3: company `id` charges as `a` orders. Returns the move made, so that
/// the caller knows whether it may still shoot (a charge that falls short
/// is only a move).
pub fn charge(
    s: &mut State,
    id: &str,
    a: &Action,
    dice: &mut Dice,
    events: &mut Vec<Event>,
    apply: impl Fn(&mut State, &str, &Moved, &mut Vec<Event>),
) -> Option<Moved> {
    let c = s.company(id).cloned()?;
    let ch = a.charge.as_ref()?;
    let mut order = a.clone();
    if order.path.is_empty() {
        // House rule: a charge without a path goes straight for its target.
        match s.company(&ch.target).filter(|t| t.on_table()) {
            Some(t) => order.path = vec![PathStep::To(t.base(&s.scenario).center)],
            None => {
                events.push(words::event(
                    What::ChargeCalledOff,
                    Facts {
                        notes: vec![ch.target.clone()],
                        ..words::of(s, &c)
                    },
                ));
                return None;
            }
        }
    }
    let m = carry_out(s, &c, &order, true);
    apply(s, id, &m, events);
    let Some(Engaged { enemy, before }) = m.engaged.clone() else {
        events.push(words::event(
            What::ChargeShort,
            Facts {
                notes: vec![ch.target.clone()],
                ..words::of(s, &c)
            },
        ));
        return Some(m);
    };
    if enemy != ch.target {
        events.push(words::event(
            What::OtherTarget,
            Facts {
                notes: vec![enemy.clone(), ch.target.clone()],
                ..words::of(s, &c)
            },
        ));
    }
    let Some(e) = s.company(&enemy).cloned() else {
        return Some(m);
    };
    let flank = behind_front(s, &before, &e);
    if ch.flank && !flank {
        events.push(words::event(What::NoFlank, words::at(s, &c, &e)));
    }
    s.initiated.insert(id.to_string());
    let verdict = fight(s, id, &enemy, Attack::charge(flank), dice, events);
    if ch.pursue {
        pursue(s, id, &enemy, &verdict, dice, events, &apply);
    }
    Some(m)
}

/// E.8: cavalry that charged and destroyed or drove off its enemy may
/// advance 3" and attack another company.
fn pursue(
    s: &mut State,
    id: &str,
    beaten: &str,
    verdict: &Verdict,
    dice: &mut Dice,
    events: &mut Vec<Event>,
    apply: &impl Fn(&mut State, &str, &Moved, &mut Vec<Event>),
) {
    let Some(c) = s.company(id).cloned() else {
        return;
    };
    let won = matches!(verdict, Verdict::Won { winner, .. } if winner == id);
    if !s.scenario.options.pursuit || !c.profile.troop.is_cavalry() || !won || !c.on_table() {
        return;
    }
    let sc = &s.scenario;
    let cb = c.base(sc);
    let next = s
        .enemies_near(&c.side, &Bounds::of_base(&cb), PURSUIT + MELEE_RANGE + EPS)
        .filter(|e| e.id != beaten)
        .map(|e| (base_distance(&cb, &e.base(sc)).get(), e))
        .filter(|(g, _)| *g <= PURSUIT + MELEE_RANGE + EPS)
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.id.cmp(&b.1.id)))
        .map(|(_, e)| e.clone());
    let Some(t) = next else {
        events.push(words::event(What::NoOneToPursue, words::of(s, &c)));
        return;
    };
    let mut rider = c.clone();
    rider.profile.movement = Distance(PURSUIT);
    let order = Action {
        path: vec![PathStep::To(t.base(sc).center)],
        ..Action::default()
    };
    let m = carry_out(s, &rider, &order, true);
    apply(s, id, &m, events);
    let Some(Engaged { enemy, before }) = m.engaged.clone() else {
        events.push(words::event(What::PursuitShort, words::at(s, &c, &t)));
        return;
    };
    let Some(e) = s.company(&enemy).cloned() else {
        return;
    };
    events.push(words::event(What::PursuesInto, words::at(s, &c, &e)));
    let flank = behind_front(s, &before, &e);
    fight(s, id, &enemy, Attack::charge(flank), dice, events);
}

/// B.6: a company that starts its move within 3" of an enemy must attack
/// it; afterwards it may retreat, or advance if no enemy is left within 3".
/// It never shoots or charges afresh.
pub fn forced(
    s: &mut State,
    id: &str,
    a: Option<&Action>,
    dice: &mut Dice,
    events: &mut Vec<Event>,
    apply: impl Fn(&mut State, &str, &Moved, &mut Vec<Event>),
) {
    let Some(c) = s.company(id).cloned() else {
        return;
    };
    if morale::is_routing(s, id) {
        // E.3: routing troops only defend.
        return;
    }
    let wanted = a
        .and_then(|a| a.charge.as_ref())
        .map(|ch| ch.target.as_str());
    let Some(enemy) = attack_in_range(s, &c, wanted) else {
        return;
    };
    if !s.initiated.insert(id.to_string()) {
        return;
    }
    let Some(e) = s.company(&enemy).cloned() else {
        return;
    };
    events.push(words::event(What::MustAttack, words::at(s, &c, &e)));
    let flank = behind_front(s, &c.base(&s.scenario), &e);
    fight(s, id, &enemy, Attack::standing(flank), dice, events);
    let Some(a) = a.filter(|a| a.sequence.moves() && !a.path.is_empty()) else {
        return;
    };
    let Some(c) = s.company(id).cloned().filter(|c| c.on_table()) else {
        return;
    };
    if c.moved {
        // It lost and has already retreated.
        return;
    }
    match enemy_in_range(s, &c, None) {
        Some(near) => {
            // House rule: with an enemy still within 3", any ordered move is
            // read as a retreat, straight away from the nearest enemy.
            let Some(n) = s.company(&near).cloned() else {
                return;
            };
            let sc = &s.scenario;
            let dir = c.base(sc).center - n.base(sc).center;
            let full = c.profile.movement.get();
            let w = walk(s, id, dir, full, |_, _| false);
            events.push(words::event(
                What::FallsBackAfter,
                Facts {
                    distance: Some(w.travelled),
                    reason: w.stopped.clone(),
                    ..words::at(s, &c, &n)
                },
            ));
        }
        None => {
            let mut order = a.clone();
            order.charge = None;
            let m = carry_out(s, &c, &order, false);
            events.push(words::event(What::AdvancesAfter, words::of(s, &c)));
            apply(s, id, &m, events);
        }
    }
}

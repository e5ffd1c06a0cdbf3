//! The demo player of `galloper demo --ruleset morschauser-macduff`: a
//! plain-minded general for each side who writes orders from the state as a
//! player would. Pure: its orders follow from the state alone.
//!
//! It keeps the scenario's deployment (each general joins his nearest
//! fighting company, so the map shows him with it). In its half-turn the
//! guns fire at the nearest target; infantry and cavalry charge an enemy
//! they can reach within their move, or else advance on the nearest enemy,
//! stopping short of 3", and shoot at the nearest target; baggage holds.
//! Every order is put through the ruleset's own check, and an entry it
//! refuses becomes a hold.

use super::check;
use super::movement::{MELEE_RANGE, carry_out, within_melee};
use super::orders::{
    Action, Charge, Deployment, Fallback, FirstChoice, GeneralPlacement, Orders, PathStep,
    Sequence, TurnOrders,
};
use super::scenario::NAME;
use super::shooting;
use super::state::{Company, State};
use super::units::TroopType;
use crate::geometry::{Angle, Point, base_distance};
use crate::ruleset::{DemoPlayer, OrdersKind, Owed, demo_orders, demo_state};
use crate::side::SideId;

/// The scenario the demo plays.
pub const SCENARIO: &str = include_str!("../../../games/morschauser-macduff/crossroads.yaml");

/// A charge counts as reaching its target when it ends this close (inches).
const CONTACT: f64 = 0.5;
/// Moves shorter than this are not worth ordering (inches).
const MIN_MOVE: f64 = 1.0;
/// Bearings tried, in order, off the straight way when that is blocked
/// (degrees); then straight ahead, which is what a company in a tight line
/// can do before it has room to turn.
const DETOURS: [f64; 5] = [0.0, -30.0, 30.0, -60.0, 60.0];

/// The `morschauser-macduff` demo player.
pub struct Player;

impl DemoPlayer for Player {
    fn ruleset(&self) -> &'static str {
        NAME
    }

    fn scenario(&self) -> &'static str {
        SCENARIO
    }

    fn game(&self) -> &'static str {
        "crossroads-demo"
    }

    fn orders(&mut self, state: &str, owed: &Owed) -> Result<serde_yaml::Value, String> {
        let s: State = demo_state(state)?;
        let orders = match owed.kind {
            OrdersKind::Deployment => Orders::Deploy(deployment(&s, &owed.side)),
            _ => Orders::Turn(turn_orders(&s, &owed.side)),
        };
        demo_orders(&orders)
    }

    fn pass(&self, owed: &Owed) -> serde_yaml::Value {
        let text = match owed.kind {
            OrdersKind::Deployment => "deploy: {}",
            _ => "turn: {actions: []}",
        };
        crate::yaml::from_str(text).unwrap_or(serde_yaml::Value::Null)
    }
}

/// Edge-to-edge distance between two companies.
fn gap(s: &State, a: &Company, b: &Company) -> f64 {
    base_distance(&a.base(&s.scenario), &b.base(&s.scenario)).get()
}

/// The enemy nearest to `c`, ties by id.
fn nearest_enemy<'a>(s: &'a State, c: &'a Company) -> Option<&'a Company> {
    s.enemies(&c.side)
        .min_by(|a, b| gap(s, c, a).total_cmp(&gap(s, c, b)).then(a.id.cmp(&b.id)))
}

/// The scenario's positions; each general joins his nearest company that
/// may charge, and the side moves first if it wins the dice-off.
pub fn deployment(s: &State, side: &SideId) -> Deployment {
    let generals = s
        .generals
        .iter()
        .filter(|g| &g.side == side && !g.killed)
        .filter_map(|g| {
            let company = s
                .live(side)
                .filter(|c| c.profile.troop.may_charge())
                .min_by(|a, b| {
                    let d = |c: &Company| c.base(&s.scenario).center.distance_to(g.at).get();
                    d(a).total_cmp(&d(b)).then(a.id.cmp(&b.id))
                })?;
            Some(GeneralPlacement {
                general: g.id.clone(),
                at: None,
                attach: Some(company.id.clone()),
            })
        })
        .collect();
    Deployment {
        if_winner: FirstChoice::First,
        companies: Vec::new(),
        generals,
        hits: Vec::new(),
    }
}

/// Orders for `side`'s half-turn: guns first, then the companies nearest
/// the enemy, so that the front does not stand in the way of the rear.
pub fn turn_orders(s: &State, side: &SideId) -> TurnOrders {
    let mut order: Vec<(bool, f64, String)> = s
        .live(side)
        .map(|c| {
            let d = nearest_enemy(s, c).map_or(f64::INFINITY, |e| gap(s, c, e));
            (c.profile.troop != TroopType::Artillery, d, c.id.clone())
        })
        .collect();
    order.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)));
    // Each planned move is carried into a scratch table, so that a later
    // company plans around where an earlier one will stand.
    let mut scratch = s.clone();
    scratch.file_companies();
    let mut actions = Vec::new();
    for (_, _, id) in order {
        let Some(c) = scratch.company(&id).cloned() else {
            continue;
        };
        let a = plan(&scratch, &c);
        if a.sequence.moves() && !a.path.is_empty() {
            let m = carry_out(&scratch, &c, &a, a.charge.is_some());
            if let Some(x) = scratch.company_mut(&id) {
                x.at = m.at;
                x.facing = m.facing;
            }
        }
        actions.push(a);
    }
    legal(
        s,
        side,
        TurnOrders {
            actions,
            fire_mines: Vec::new(),
            ..TurnOrders::default()
        },
    )
}

fn hold(id: &str) -> Action {
    Action {
        company: Some(id.to_string()),
        sequence: Sequence::Hold,
        ..Action::default()
    }
}

/// What one company does.
fn plan(s: &State, c: &Company) -> Action {
    let troop = c.profile.troop;
    let shoots = !c.profile.fires.is_empty();
    if troop == TroopType::Artillery {
        return Action {
            company: Some(c.id.clone()),
            sequence: Sequence::ShootOnly,
            target: nearest_target(s, c),
            fallback: Fallback::Nearest,
            ..Action::default()
        };
    }
    if troop == TroopType::Wagons {
        return hold(&c.id);
    }
    // B.6: already within 3", it fights the melee it must.
    if s.enemies(&c.side).any(|e| within_melee(gap(s, c, e))) {
        return Action {
            company: Some(c.id.clone()),
            sequence: Sequence::MeleeThenMove,
            ..Action::default()
        };
    }
    if troop.may_charge()
        && let Some((target, to)) = charge(s, c)
    {
        return Action {
            company: Some(c.id.clone()),
            sequence: Sequence::MoveOnly,
            path: vec![PathStep::To(to)],
            charge: Some(Charge {
                target,
                flank: false,
                pursue: troop.is_cavalry(),
            }),
            fallback: Fallback::Nearest,
            ..Action::default()
        };
    }
    let path = advance(s, c).map(|to| vec![PathStep::To(to)]);
    let mut a = Action {
        company: Some(c.id.clone()),
        path: path.clone().unwrap_or_default(),
        fallback: Fallback::Nearest,
        ..Action::default()
    };
    a.sequence = match (path.is_some(), shoots) {
        (true, true) => Sequence::MoveThenShoot,
        (true, false) => Sequence::MoveOnly,
        (false, true) => Sequence::ShootOnly,
        (false, false) => Sequence::Hold,
    };
    if shoots {
        // Aim from where the move will end.
        let mut after = s.clone();
        if !a.path.is_empty() {
            let m = carry_out(s, c, &a, false);
            if let Some(x) = after.company_mut(&c.id) {
                x.at = m.at;
                x.facing = m.facing;
            }
        }
        a.target = after
            .company(&c.id)
            .and_then(|moved| nearest_target(&after, moved));
    }
    a
}

/// The nearest enemy `c` may legally shoot at, if any.
fn nearest_target(s: &State, c: &Company) -> Option<String> {
    shooting::nearest(s, c).map(|shot| shot.target)
}

/// A point `length` inches from `from` on `bearing`, a little short and on
/// a 0.01" grid so that the orders read cleanly and never ask for more
/// than was tried.
fn point_on(from: Point, bearing: Angle, length: f64) -> Point {
    let p = from + bearing.unit_vector().scale((length - 0.02).max(0.0));
    Point {
        x: (p.x * 100.0).round() / 100.0,
        y: (p.y * 100.0).round() / 100.0,
    }
}

fn toward(c: &Company, bearing: Angle, length: f64) -> Action {
    Action {
        company: Some(c.id.clone()),
        path: vec![PathStep::To(
            c.at + bearing.unit_vector().scale(length.max(0.0)),
        )],
        ..Action::default()
    }
}

/// B.3: the nearest enemy this company reaches within its move, and where
/// its path ends.
fn charge(s: &State, c: &Company) -> Option<(String, Point)> {
    let reach = c.profile.movement.get();
    let mut enemies: Vec<&Company> = s
        .enemies(&c.side)
        .filter(|e| gap(s, c, e) <= reach + MELEE_RANGE)
        // C.2, C.5: not into ground it may not enter, where melee is refused.
        .filter(|e| super::melee::barred(s, c, e).is_none())
        .collect();
    enemies.sort_by(|a, b| gap(s, c, a).total_cmp(&gap(s, c, b)).then(a.id.cmp(&b.id)));
    enemies.into_iter().find_map(|e| {
        let centre = e.base(&s.scenario).center;
        let bearing = Angle::of_vector(centre - c.at)?;
        let length = (centre - c.at).length().min(reach);
        let m = carry_out(s, c, &toward(c, bearing, length), true);
        let mut moved = c.clone();
        moved.at = m.at;
        moved.facing = m.facing;
        (gap(s, &moved, e) <= CONTACT && m.travelled >= MIN_MOVE)
            .then(|| (e.id.clone(), point_on(c.at, bearing, m.travelled)))
    })
}

/// Where an advance on the nearest enemy ends, stopping short of 3": the
/// straight way, or a detour when that is blocked. None when no way gains
/// ground.
fn advance(s: &State, c: &Company) -> Option<Point> {
    let goal = nearest_enemy(s, c)?.base(&s.scenario).center;
    let straight = Angle::of_vector(goal - c.at)?;
    let start = c.base(&s.scenario).center.distance_to(goal).get();
    let reach = c.profile.movement.get();
    let mut best: Option<(f64, Point)> = None;
    let bearings = DETOURS
        .iter()
        .map(|t| straight.turned(*t))
        .chain([c.facing]);
    for bearing in bearings {
        let m = carry_out(s, c, &toward(c, bearing, reach), false);
        if m.travelled < MIN_MOVE {
            continue;
        }
        let mut moved = c.clone();
        moved.at = m.at;
        moved.facing = m.facing;
        let left = moved.base(&s.scenario).center.distance_to(goal).get();
        if left < start - MIN_MOVE && best.is_none_or(|(b, _)| left < b - 1e-9) {
            best = Some((left, point_on(c.at, bearing, m.travelled)));
        }
    }
    best.map(|(_, p)| p)
}

/// The ruleset's own check: an entry it refuses becomes a hold, and if
/// anything is still refused the side holds altogether.
fn legal(s: &State, side: &SideId, mut t: TurnOrders) -> TurnOrders {
    for _ in 0..2 {
        let refused = check::check(s, side, &Orders::Turn(t.clone()));
        if refused.is_empty() {
            return t;
        }
        for v in refused {
            let index = match v.path.as_slice() {
                [_, _, i, ..] => i.parse::<usize>().ok(),
                _ => None,
            };
            if let Some(a) = index.and_then(|i| t.actions.get_mut(i)) {
                *a = hold(&a.actor());
            }
        }
    }
    TurnOrders::default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::Ruleset;
    use crate::rulesets::morschauser_macduff::MorschauserMacduff;

    fn start() -> State {
        let scenario = crate::yaml::from_str(SCENARIO).expect("scenario");
        MorschauserMacduff.start(&scenario).expect("start")
    }

    #[test]
    fn the_deployment_keeps_positions_and_attaches_each_general() {
        let s = start();
        let d = deployment(&s, &SideId::new("british"));
        assert!(d.companies.is_empty());
        assert_eq!(d.generals.len(), 1);
        let joined = d.generals[0].attach.as_deref().expect("attached");
        assert!(
            s.company(joined)
                .is_some_and(|c| c.profile.troop.may_charge())
        );
    }

    #[test]
    fn every_order_passes_the_check_and_guns_only_shoot() {
        let mut s = start();
        let side = SideId::new("british");
        s.phase = super::super::state::Phase::HalfTurn {
            turn: 1,
            active: side.clone(),
        };
        let t = turn_orders(&s, &side);
        assert!(check::check(&s, &side, &Orders::Turn(t.clone())).is_empty());
        assert_eq!(t.actions.len(), s.live(&side).count());
        let gun = t
            .actions
            .iter()
            .find(|a| a.company.as_deref() == Some("br-a1"))
            .expect("gun listed");
        assert_eq!(gun.sequence, Sequence::ShootOnly);
        assert!(gun.path.is_empty() && gun.charge.is_none());
        let baggage = t
            .actions
            .iter()
            .find(|a| a.company.as_deref() == Some("br-w1"))
            .expect("baggage listed");
        assert_eq!(baggage.sequence, Sequence::Hold);
        assert!(
            t.actions
                .iter()
                .any(|a| a.sequence == Sequence::MoveThenShoot && !a.path.is_empty()),
            "the infantry advances"
        );
    }
}

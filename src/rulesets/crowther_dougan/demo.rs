//! The demo player of `galloper demo --ruleset crowther-dougan`: a plain
//! general for each side who acts only on what his side sees (the state's
//! own sight rules), writing orders a player could have written from his
//! report.
//!
//! Every unit observes the nearest wood or building within reach; loaded
//! units fire at the nearest enemy they see; close-order regulars charge a
//! weaker enemy within reach; the British march up the road toward the
//! farm, standing to fire when an enemy is in range; French troops hidden
//! in the woods hold and fire, and slip away inside their wood once found.
//! Personalities pledge a point to their unit's tests. Every order is put
//! through the ruleset's own check; a refused entry is dropped.

use super::check;
use super::movement::charge_reach;
use super::orders::{ChargeOrder, FireOrder, Move, MoveOrders, Observe, Orders, Pledge, Reactions};
use super::scenario::NAME;
use super::state::{State, Status, Unit};
use super::tables::{Formation, KEEP_OFF};
use crate::geometry::{Point, Shape, TerrainTag};
use crate::ruleset::{DemoPlayer, OrdersKind, Owed, demo_orders, demo_state};
use crate::side::SideId;

pub const SCENARIO: &str = include_str!("../../../games/crowther-dougan/beaver-creek.yaml");

/// Where the attacker heads: the farm.
const GOAL: Point = Point::new(90.0, 70.0);

pub struct Player;

impl DemoPlayer for Player {
    fn ruleset(&self) -> &'static str {
        NAME
    }
    fn scenario(&self) -> &'static str {
        SCENARIO
    }
    fn game(&self) -> &'static str {
        "beaver-creek-demo"
    }
    fn orders(&mut self, state: &str, owed: &Owed) -> Result<serde_yaml::Value, String> {
        let s: State = demo_state(state)?;
        let o = match owed.kind {
            // Each hidden unit where the scenario suggests: the secret
            // orders a player sends who keeps the file's places.
            OrdersKind::Deployment => Orders::Deploy(super::deploy::suggested(&s, &owed.side)),
            OrdersKind::Reactions => Orders::Reactions(reactions(&s, &owed.side)),
            _ => Orders::Move(move_orders(&s, &owed.side)),
        };
        demo_orders(&o)
    }
    fn optional(
        &mut self,
        state: &str,
        owed: &Owed,
        _step: u32,
    ) -> Result<Option<serde_yaml::Value>, String> {
        let s: State = demo_state(state)?;
        let r = reactions(&s, &owed.side);
        if owed.kind != OrdersKind::Reactions || s.reactions.get(&owed.side) == Some(&r) {
            return Ok(None);
        }
        demo_orders(&Orders::Reactions(r)).map(Some)
    }
    fn pass(&self, owed: &Owed) -> serde_yaml::Value {
        let text = match owed.kind {
            OrdersKind::Reactions => "reactions: {}",
            OrdersKind::Deployment => "deploy: {}",
            _ => "move: {}",
        };
        crate::yaml::from_str(text).unwrap_or(serde_yaml::Value::Null)
    }
}

/// Each personality pledges one point to the unit he is with.
fn pledges(s: &State, side: &SideId) -> Vec<Pledge> {
    s.persons
        .iter()
        .filter(|p| &p.side == side && !p.hit)
        .filter_map(|p| {
            Some(Pledge {
                personality: p.id.clone(),
                unit: p.with.clone()?,
                points: 1,
            })
        })
        .collect()
}

pub fn reactions(s: &State, side: &SideId) -> Reactions {
    Reactions {
        pledges: pledges(s, side),
    }
}

fn hides(t: &crate::geometry::TerrainFeature) -> bool {
    t.has(TerrainTag::Woods) || t.has(TerrainTag::Town)
}

fn centroid(t: &crate::geometry::TerrainFeature) -> Point {
    let pts = match &t.shape {
        Shape::Polygon { points } | Shape::Polyline { points, .. } => points,
    };
    let n = pts.len().max(1) as f64;
    Point::new(
        pts.iter().map(|p| p.x).sum::<f64>() / n,
        pts.iter().map(|p| p.y).sum::<f64>() / n,
    )
}

/// The area a unit observes: 8 cm inside the nearest wood or building on
/// the way to its middle, if one lies within 40 cm.
pub(super) fn area(s: &State, u: &Unit) -> Option<Point> {
    s.scenario
        .terrain
        .iter()
        .filter(|t| hides(t))
        .filter_map(|t| {
            let c = centroid(t);
            let v = c - u.at;
            let len = v.length();
            if len < 1e-9 {
                return Some((0.0, c));
            }
            // Walk toward the middle until inside.
            let mut d = 0.0;
            while d < len {
                let p = u.at + v.scale(d / len);
                if s.ground(p).any(|g| g.id == t.id) {
                    let at = u.at + v.scale((d + 8.0).min(len) / len);
                    return (d <= 40.0).then_some((d, at));
                }
                d += 1.0;
            }
            None
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, p)| p)
}

fn clamp(s: &State, p: Point) -> Point {
    let w = s.scenario.table;
    Point::new(
        p.x.clamp(1.0, w.width.get() - 1.0),
        p.y.clamp(1.0, w.height.get() - 1.0),
    )
}

/// A move of `u` toward `goal`, stopping short of the enemies it knows.
fn toward(s: &State, side: &SideId, u: &Unit, goal: Point) -> Option<Point> {
    let v = goal - u.at;
    let len = v.length();
    if len < 1.0 {
        return None;
    }
    let mut go = u.mv().min(len);
    let enemy_gap = s
        .known_enemies(side)
        .map(|e| s.gap(u, e))
        .min_by(f64::total_cmp);
    if let Some(g) = enemy_gap {
        go = go.min((g - KEEP_OFF - 1.5).max(0.0));
    }
    (go >= 1.0).then(|| clamp(s, u.at + v.scale(go / len)))
}

/// A new place 5 cm off inside the same wood (a quarter move or less, so
/// it stays loaded), keeping about the same distance from the enemy, to the
/// left or the right by turns.
fn slip(s: &State, side: &SideId, u: &Unit) -> Option<Point> {
    let wood = s.ground(u.at).find(|t| hides(t))?;
    let near = |p: Point| {
        s.units
            .iter()
            .filter(|e| e.live() && &e.side != side)
            .map(|e| e.at.distance_to(p).get())
            .fold(f64::MAX, f64::min)
    };
    let now = near(u.at);
    let mut ways: Vec<(f64, Point)> = (0..8)
        .map(|i| {
            let a = crate::geometry::Angle(45.0 * i as f64);
            u.at + a.unit_vector().scale(5.0)
        })
        .filter(|p| {
            s.ground(*p)
                .any(|g| g.id == wood.id && !g.has(TerrainTag::Impassable))
        })
        .map(|p| ((near(p) - now).abs(), p))
        .collect();
    ways.sort_by(|a, b| a.0.total_cmp(&b.0));
    let pick = (s.move_number() as usize / 2) % ways.len().clamp(1, 2);
    ways.get(pick).map(|w| w.1)
}

/// The nearest enemy smoke within 45 cm whose unit the side does not see.
fn smoke_to_look_at(s: &State, side: &SideId, u: &Unit) -> Option<Point> {
    s.smoke
        .iter()
        .filter(|x| &x.side != side)
        .filter(|x| s.unit(&x.unit).is_some_and(|e| !s.sees(side, e)))
        .map(|x| x.at)
        .filter(|p| p.distance_to(u.at).get() <= 45.0)
        .min_by(|a, b| {
            a.distance_to(u.at)
                .get()
                .total_cmp(&b.distance_to(u.at).get())
        })
}

pub fn move_orders(s: &State, side: &SideId) -> MoveOrders {
    let mut o = MoveOrders {
        pledges: pledges(s, side),
        ..MoveOrders::default()
    };
    let attacker = s.scenario.first == *side;
    let enemy = s.other(side);
    for u in s.live(side) {
        if let Some(at) = smoke_to_look_at(s, side, u).or_else(|| area(s, u)) {
            o.observe.push(Observe {
                unit: u.id.clone(),
                at,
            });
        }
        if u.status != Status::Good {
            continue;
        }
        let seen: Vec<&Unit> = s
            .known_enemies(side)
            .filter(|e| s.unit_sees(u, e))
            .collect();
        let nearest = seen
            .iter()
            .min_by(|a, b| s.gap(u, a).total_cmp(&s.gap(u, b)).then(a.id.cmp(&b.id)))
            .copied();
        // Charge a weaker enemy within reach.
        if u.troop.close_order_regular()
            && let Some(e) = nearest
            && e.men() < u.men()
            && charge_reach(s, u, e).is_some_and(|r| s.gap(u, e) <= r)
        {
            o.charges.push(ChargeOrder {
                unit: u.id.clone(),
                target: e.id.clone(),
            });
            continue;
        }
        let in_range = nearest.filter(|e| s.gap(u, e) <= u.troop.range());
        if let Some(e) = in_range
            && u.loaded
        {
            o.fire.push(FireOrder {
                unit: u.id.clone(),
                target: e.id.clone(),
            });
        }
        let found = s.spotted.get(&enemy).is_some_and(|m| m.contains_key(&u.id));
        let hiding = !s.in_open(u);
        let fires = o.fire.iter().any(|f| f.unit == u.id);
        let mv = if !attacker && hiding && (found || fires) && u.troop.open_order() {
            slip(s, side, u).map(|to| Move {
                unit: u.id.clone(),
                to: Some(to),
                formation: None,
                about: false,
            })
        } else if in_range.is_some_and(|e| s.gap(u, e) <= 25.0) || (!attacker && in_range.is_some())
        {
            // Stand and load.
            None
        } else if u.formation == Formation::Limbered && s.known_enemies(side).next().is_some() {
            Some(Move {
                unit: u.id.clone(),
                to: None,
                formation: Some(Formation::Unlimbered),
                about: false,
            })
        } else if attacker || u.troop.open_order() && s.in_open(u) {
            let goal = seen
                .first()
                .map(|e| e.at)
                .unwrap_or(if attacker { GOAL } else { u.at });
            let goal = if attacker && u.at.y > 60.0 && seen.is_empty() {
                Point::new(90.0, 100.0)
            } else {
                goal
            };
            toward(s, side, u, goal).map(|to| Move {
                unit: u.id.clone(),
                to: Some(to),
                formation: None,
                about: false,
            })
        } else {
            None
        };
        o.moves.extend(mv);
    }
    keep_legal(s, side, o)
}

/// Keep only what the ruleset accepts.
fn keep_legal(s: &State, side: &SideId, mut o: MoveOrders) -> MoveOrders {
    let bad = check::check(s, side, &Orders::Move(o.clone()));
    let refused = |list: &str, i: usize| {
        bad.iter().any(|v| {
            v.path.get(1).map(String::as_str) == Some(list) && v.path.get(2) == Some(&i.to_string())
        })
    };
    fn keep<T: Clone>(v: &[T], list: &str, refused: &dyn Fn(&str, usize) -> bool) -> Vec<T> {
        v.iter()
            .enumerate()
            .filter(|(i, _)| !refused(list, *i))
            .map(|(_, x)| x.clone())
            .collect()
    }
    o.observe = keep(&o.observe, "observe", &refused);
    o.charges = keep(&o.charges, "charges", &refused);
    o.pledges = keep(&o.pledges, "pledges", &refused);
    o.fire = keep(&o.fire, "fire", &refused);
    o.moves = keep(&o.moves, "moves", &refused);
    o
}

//! Movement: the movement table by arm and formation, roads, the light
//! bonus, halving for a change of facing or formation, and the movement
//! phase with its restrictions.

use super::contact::{self, SetOff};
use super::fatigue;
use super::formation::Formation;
use super::orders::{Move, length};
use super::rough;
use super::sight;
use super::state::{State, Trace, TraceKind, Unit};
use super::tables::Arm;
use super::words::{Said, event};
use crate::dice::Dice;
use crate::event::{Event, Facts};
use crate::geometry::path::{Meet, Route};
use crate::geometry::{Angle, Frame, Point};
use crate::side::SideId;

/// The rule a road move breaks when it leaves the road.
pub const ROAD: &str =
    "Movement Factors: the road rate is for a move on a road for its entire length";

/// Stop this far short of enemy cavalry infantry may not contact (cm).
const SHORT: f64 = 1.0;

/// The table's rate for a unit of `u`'s type in `f` (cm), light bonus
/// included, before any halving. House rules: squares and deployed
/// infantry move at the line rate, skirmishers at the column rate.
pub fn rate(u: &Unit, f: Formation) -> f64 {
    let light = u.troop.light();
    let (base, bonus) = match (u.arm(), f) {
        (Arm::Infantry, Formation::Column | Formation::Skirmish) => (18.0, 4.0),
        (Arm::Infantry, _) => (12.0, 4.0),
        (Arm::Cavalry, Formation::Column) => (22.0, 4.0),
        (Arm::Cavalry, _) => (14.0, 4.0),
        (Arm::Artillery, Formation::Limbered) => (
            if u.troop.horse_artillery() {
                30.0
            } else {
                20.0
            },
            4.0,
        ),
        (Arm::Artillery, _) => (6.0, 2.0),
    };
    base + if light { bonus } else { 0.0 }
}

/// On a road for the entire move: infantry 30, cavalry 38, +6 light.
/// House rule: limbered foot batteries take the infantry's road rate,
/// horse batteries the cavalry's; unlimbered guns have none.
pub fn road_rate(u: &Unit, f: Formation) -> Option<f64> {
    let base = match (u.arm(), f) {
        (Arm::Infantry, _) => 30.0,
        (Arm::Cavalry, _) => 38.0,
        (Arm::Artillery, Formation::Limbered) if u.troop.horse_artillery() => 38.0,
        (Arm::Artillery, Formation::Limbered) => 30.0,
        (Arm::Artillery, _) => return None,
    };
    Some(base + if u.troop.light() { 6.0 } else { 0.0 })
}

/// How far `u` may move this phase. A change of facing or formation halves
/// the table's distance (the asterisked rows); house rule: the slower of
/// the old and new formations' rates applies, and a road move allows no
/// change.
pub fn allowance(u: &Unit, to: Formation, turns: bool, road: bool) -> f64 {
    let changes = turns || to != u.formation;
    if road && !changes {
        return road_rate(u, to).unwrap_or_else(|| rate(u, to));
    }
    let r = rate(u, u.formation).min(rate(u, to));
    if changes { r / 2.0 } else { r }
}

/// What [`allowance`] took its distance from, in words: the rate and its
/// formation, the light bonus, the halving and what caused it.
pub fn explain(u: &Unit, to: Formation, turns: bool, road: bool) -> String {
    let light = if u.troop.light() {
        ", light bonus included"
    } else {
        ""
    };
    let changes = turns || to != u.formation;
    if road
        && !changes
        && let Some(r) = road_rate(u, to)
    {
        return format!("road rate {r:.0} cm{light}");
    }
    let (old, new) = (rate(u, u.formation), rate(u, to));
    let base = if to == u.formation || (old - new).abs() < 1e-9 {
        format!("{} rate {:.0} cm{light}", to.name(), old.min(new))
    } else {
        format!(
            "the slower of {} {old:.0} cm and {} {new:.0} cm{light}",
            u.formation.name(),
            to.name()
        )
    };
    let change = match (turns, to != u.formation) {
        (true, true) => ", halved for a change of facing and formation",
        (true, false) => ", halved for a change of facing",
        (false, true) => ", halved for a change of formation",
        (false, false) => "",
    };
    format!("{base}{change}")
}

/// Whether a move turns the unit.
pub fn turns(u: &Unit, facing: Option<Angle>) -> bool {
    facing.is_some_and(|f| f.normalized().difference_to(u.facing.normalized()).abs() > 0.5)
}

fn refused(u: &Unit, why: &str) -> Event {
    event(
        Said::Refused,
        Facts {
            unit: Some(u.refer()),
            reason: Some(why.into()),
            ..Facts::default()
        },
        Vec::new(),
    )
}

/// The first enemy that `u`, where it stands, can see and that `moved`
/// (the unit where its move ends) would be closer to.
pub fn towards_visible(s: &State, u: &Unit, moved: &Unit) -> Option<String> {
    s.enemies(&u.side)
        .find(|e| s.gap(moved, e) < s.gap(u, e) - 1e-6 && sight::sees(s, u, e))
        .map(|e| e.name.clone())
}

/// The first enemy (every enemy is known: the source has no hidden units)
/// that `moved` (the unit where its move ends) would be closer to than
/// `u` is, edge to edge.
pub fn towards_any(s: &State, u: &Unit, moved: &Unit) -> Option<String> {
    s.enemies(&u.side)
        .find(|e| s.gap(moved, e) < s.gap(u, e) - 1e-6)
        .map(|e| e.name.clone())
}

/// The movement phase of `side`.
/// Cavalry set off for a consulted side's decision go into `owed`.
pub fn phase(
    s: &mut State,
    side: &SideId,
    moves: &[Move],
    owed: &mut Vec<SetOff>,
    dice: &mut Dice,
) -> Vec<Event> {
    let mut out = Vec::new();
    for m in moves {
        let Some(i) = s.unit_index(&m.unit) else {
            continue;
        };
        if &s.units[i].side != side {
            continue;
        }
        out.extend(one(s, i, m, owed, dice));
    }
    // Rough terrain: unformed units that stood still are formed again.
    for u in s.units.iter_mut().filter(|u| u.live() && &u.side == side) {
        if u.unformed && !u.moved {
            u.unformed = false;
            out.push(event(
                Said::Steady,
                Facts {
                    unit: Some(u.refer()),
                    ..Facts::default()
                },
                Vec::new(),
            ));
        }
    }
    out
}

/// A controlled cavalry winner's further move after melee: a move as in the
/// movement phase (its cavalry mover sets off no withdrawal).
pub fn again(s: &mut State, i: usize, m: &Move, dice: &mut Dice) -> Vec<Event> {
    one(s, i, m, &mut Vec::new(), dice)
}

/// Where one leg of a move stopped, and why it stopped short of its end.
struct Stop {
    at: Point,
    /// The enemy met, which ends the move there.
    met: Option<String>,
    /// Infantry held back short of the cavalry it met in front.
    held_off: bool,
}

/// One straight leg of `u`'s move from `a` to `b`, in its new facing and
/// formation.
fn leg(s: &State, u: &Unit, a: Point, b: Point, facing: Angle, to_f: Formation) -> Stop {
    let dist = a.distance_to(b).get();
    let start = s.bases_as(u, a, facing, to_f);
    let route = Route::new(&start, &[a, b]);
    // Only enemies within both units' reach of the path can be met.
    let near = |e: &&Unit| e.at.distance_to_segment(a, b).get() <= s.reach(u) + s.reach(e);
    let met = route.first_meeting(
        s.along_ids(a, b, s.reach(u))
            .into_iter()
            .map(|i| &s.units[i])
            .filter(|e| e.live() && e.side != u.side)
            .filter(near)
            .map(|e| (e.id.clone(), s.bases(e))),
        Meet::Touch,
    );
    let Some((id, m)) = met else {
        return Stop {
            at: b,
            met: None,
            held_off: false,
        };
    };
    let mut stop = m.along.get();
    let mut held_off = false;
    if let Some(enemy) = s.unit(&id)
        && u.arm() == Arm::Infantry
        && enemy.arm() == Arm::Cavalry
        && frontal(&s.frame(enemy), &route.bases_at(m.at), &m.contacts)
    {
        // Infantry may not move into frontal contact with cavalry, from
        // whatever direction it comes at the cavalry's front.
        stop = (stop - SHORT).max(0.0);
        held_off = true;
    } else if stop >= dist - 1e-9 {
        // Touching only where the leg ends: it got there.
        return Stop {
            at: b,
            met: None,
            held_off: false,
        };
    }
    Stop {
        at: if dist > 1e-9 {
            a + (b - a).scale(stop / dist)
        } else {
            b
        },
        met: s.unit(&id).map(|x| x.name.clone()),
        held_off,
    }
}

/// Whether a mover whose `bases` touch a unit of frame `f` at `contacts`
/// meets its front: every point of contact lies on the front line, and the
/// mover stands ahead of it (a touch along a flank runs back from the line).
fn frontal(f: &Frame, bases: &[crate::geometry::Base], contacts: &[Point]) -> bool {
    const TOL: f64 = 1e-3;
    let on_front = |p: &Point| {
        let (ahead, right) = f.local(*p);
        ahead.abs() <= TOL && right.abs() <= f.width.get() / 2.0 + TOL
    };
    let ahead = bases
        .iter()
        .flat_map(|b| b.corners())
        .any(|c| f.local(c).0 > TOL);
    !contacts.is_empty() && contacts.iter().all(on_front) && ahead
}

/// Why a move ended short of its `to`, with how far it went of how far it
/// was ordered; empty when it got there.
fn cut_short(walked: &[Point], ordered: f64, to: Point, stop: &Stop) -> String {
    let Some(met) = &stop.met else {
        return String::new();
    };
    let went = length(walked);
    let end = walked.last().copied().unwrap_or(to);
    let why = if stop.held_off {
        format!(
            "held {SHORT:.0} cm short of {met}: infantry may not move into frontal contact with cavalry"
        )
    } else {
        format!("stopped on meeting {met}")
    };
    format!(
        "{why}, after {went:.1} of the {ordered:.1} cm ordered ({:.1} cm short of ({:.1}, {:.1}); the rest of the move is dropped)",
        end.distance_to(to).get(),
        to.x,
        to.y
    )
}

fn one(s: &mut State, i: usize, m: &Move, owed: &mut Vec<SetOff>, dice: &mut Dice) -> Vec<Event> {
    let u = s.units[i].clone();
    // Every refusal says the move is dropped, so the report need not be
    // read against the orders to see where the unit stands.
    let to = m.to.unwrap_or(u.at);
    let drop = |why: &str| {
        vec![refused(
            &u,
            &format!(
                "{why}; its move to ({:.1}, {:.1}) is dropped and it stays at ({:.1}, {:.1})",
                to.x, to.y, u.at.x, u.at.y
            ),
        )]
    };
    if u.shaken() {
        return drop("Rally table: a disordered unit cannot move, change formation or facing");
    }
    if let Some(e) = s.contacts(&u).first() {
        return drop(&format!(
            "Melee: units in contact may not move or change formation (it is in contact with {})",
            e.name
        ));
    }
    let to_f = m.formation.unwrap_or(u.formation);
    let facing = m.facing.unwrap_or(u.facing);
    let turning = turns(&u, m.facing);
    let path = m.path(u.at);
    let dist = length(&path);
    // The road rate only for a move that keeps to the road all the way,
    // every leg of it.
    let road = m.road && path.windows(2).all(|w| sight::on_road(s, w[0], w[1]));
    let allowed = allowance(&u, to_f, turning, road);
    if crate::geometry::limit::beyond(dist, allowed) {
        let why = if m.road && !road {
            format!(
                "{ROAD}; off the road it may move {allowed:.1} cm ({}), not {dist:.1} ({:.1} cm too far)",
                explain(&u, to_f, turning, road),
                dist - allowed
            )
        } else {
            format!(
                "Movement factors: {dist:.1} cm is beyond the {allowed:.1} cm allowed ({}; {:.1} cm too far)",
                explain(&u, to_f, turning, road),
                dist - allowed
            )
        };
        return drop(&why);
    }
    let mut moved = u.clone();
    moved.formation = to_f;
    moved.facing = facing;
    // Where it stops: leg by leg, at the first enemy it meets on the way.
    let mut walked = vec![u.at];
    let mut short = String::new();
    for w in path.windows(2) {
        let stop = leg(s, &u, w[0], w[1], facing, to_f);
        walked.push(stop.at);
        if stop.met.is_some() {
            short = cut_short(&walked, dist, path.last().copied().unwrap_or(u.at), &stop);
            break;
        }
    }
    moved.at = walked.last().copied().unwrap_or(u.at);
    if u.formation == Formation::Square
        && to_f == Formation::Square
        && let Some(e) = towards_visible(s, &u, &moved)
    {
        return drop(&format!(
            "Movement special cases: squares may not move towards visible enemy units ({e} is in sight)"
        ));
    }
    if fatigue::spent(s, &u.corps)
        && !s.leader_attached(&u)
        && let Some(e) = towards_any(s, &u, &moved)
    {
        return drop(&format!(
            "Corps fatigue: a corps with no chips left may not move towards known enemies without a leader attached (this move goes towards {e})"
        ));
    }
    let from = u.at;
    s.units[i] = Unit {
        moved: true,
        ..moved.clone()
    };
    s.placed(i);
    s.traces.push(Trace {
        side: u.side.clone(),
        kind: TraceKind::Move,
        points: walked.clone(),
    });
    let mut out = vec![event(
        Said::Move,
        Facts {
            unit: Some(u.refer()),
            from: Some(from),
            to: Some(moved.at),
            result: Some(if to_f != u.formation || turning {
                format!("now in {} facing {:.0}", to_f.name(), facing.degrees())
            } else {
                String::new()
            }),
            reason: (!short.is_empty()).then_some(short),
            ..Facts::default()
        },
        Vec::new(),
    )];
    out.extend(rough::test_move(s, i, &walked, dice));
    if s.units[i].live() {
        out.extend(contact::after_move(s, i, from, owed, dice));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Point;
    use crate::rulesets::napoleonic_corps::tables::{Nation, Troop};

    fn unit(troop: Troop, f: Formation) -> Unit {
        Unit {
            id: "u".into(),
            name: "u".into(),
            side: "a".into(),
            corps: "c".into(),
            nation: Nation::French,
            troop,
            guard: false,
            bases: 4,
            at: Point::new(0.0, 0.0),
            facing: Angle(0.0),
            formation: f,
            disordered: false,
            unformed: false,
            moved: false,
            charged: false,
            gone: None,
        }
    }

    #[test]
    fn movement_table_by_arm_and_formation() {
        // Movement factors: infantry column 18, line 12; cavalry 22 and 14; +4 light.
        assert_eq!(
            rate(&unit(Troop::Line, Formation::Line), Formation::Column),
            18.0
        );
        assert_eq!(
            rate(&unit(Troop::Line, Formation::Line), Formation::Line),
            12.0
        );
        assert_eq!(
            rate(
                &unit(Troop::LightInfantry, Formation::Line),
                Formation::Line
            ),
            16.0
        );
        assert_eq!(
            rate(
                &unit(Troop::HeavyCavalry, Formation::Line),
                Formation::Column
            ),
            22.0
        );
        assert_eq!(
            rate(&unit(Troop::LightCavalry, Formation::Line), Formation::Line),
            18.0
        );
    }

    #[test]
    fn artillery_limbered_and_unlimbered() {
        // Foot 20 / horse 30 limbered, 6 unlimbered, light +4 / +2.
        let foot = unit(Troop::HeavyBattery, Formation::Limbered);
        assert_eq!(rate(&foot, Formation::Limbered), 20.0);
        let horse = unit(Troop::LightHorseBattery, Formation::Limbered);
        assert_eq!(rate(&horse, Formation::Limbered), 34.0);
        assert_eq!(rate(&horse, Formation::Unlimbered), 8.0);
        // Unlimbering is a change of formation: the slower rate, halved.
        assert_eq!(allowance(&foot, Formation::Unlimbered, false, false), 3.0);
    }

    #[test]
    fn roads_for_the_whole_move() {
        // On road for entire move: 30 infantry, 38 cavalry, +6 light.
        let inf = unit(Troop::Line, Formation::Column);
        assert_eq!(allowance(&inf, Formation::Column, false, true), 30.0);
        let cav = unit(Troop::LightCavalry, Formation::Column);
        assert_eq!(allowance(&cav, Formation::Column, false, true), 44.0);
    }

    #[test]
    fn a_change_of_facing_or_formation_halves_the_move() {
        let inf = unit(Troop::Line, Formation::Column);
        assert_eq!(allowance(&inf, Formation::Column, true, false), 9.0);
        assert_eq!(allowance(&inf, Formation::Line, false, false), 6.0);
        assert_eq!(allowance(&inf, Formation::Column, false, false), 18.0);
    }
}

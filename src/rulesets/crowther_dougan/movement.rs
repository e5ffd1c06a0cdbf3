//! Movement: deductions of 1D6, 2D6 or 3D6 cm by terrain and obstacle
//! (rolled when moving, assumed when a charge's reach is checked), never
//! below zero; formation changes, turning about and limbering; dense woods
//! closed to all but skirmishers; no closer than 5 cm to an enemy unless
//! charging home, the enemy being seen or not; routs; getting lost.

use super::state::{Motion, State, Status, Trace, TraceKind, Unit};
use super::step::Step;
use super::tables::{ASSUMED_D6, FOREST_SQUARE, Formation, KEEP_OFF, is_lost};
use super::words::Said;
use crate::geometry::segment_entry;
use crate::geometry::{Angle, Point, TerrainFeature, TerrainTag};

/// How many D6 a feature deducts from a unit crossing it (None: it may not
/// enter). Tags: woods, marsh, difficult (rocks), water (creeks), hill,
/// town, wall (minor obstacle) 1D6; hill with crest (steep), obstruction
/// (abattis, ditches) 2D6; wall with obstruction (palisade) 3D6; woods
/// with impassable (dense woods, thickets) closed except to skirmishers,
/// who pay 2D6.
pub fn deduction(t: &TerrainFeature, u: &Unit) -> Option<u32> {
    use TerrainTag::*;
    if t.has(Road) || t.has(Bridge) {
        return Some(0);
    }
    if t.has(Woods) && t.has(Impassable) {
        return u.troop.open_order().then_some(2);
    }
    if t.has(Impassable) {
        return None;
    }
    if t.has(Wall) && t.has(Obstruction) {
        return Some(3);
    }
    if t.has(Obstruction) || (t.has(Hill) && t.has(Crest)) {
        return Some(2);
    }
    if [Woods, Marsh, Difficult, Water, Hill, Town, Wall]
        .iter()
        .any(|x| t.has(*x))
    {
        return Some(1);
    }
    Some(0)
}

/// A feature or friend a move crosses, and the D6 it deducts.
#[derive(Clone, Debug, PartialEq)]
pub struct Crossing {
    pub name: String,
    pub dice: u32,
    /// The friendly unit passed through, if it is one (its id).
    pub friend: Option<String>,
    /// How far along the move it is reached (cm; 0 for ground it starts
    /// in): its dice are rolled only if the move gets there.
    pub at: f64,
}

/// The features a straight move from `a` to `b` crosses or ends in, with
/// their D6, in the order the move reaches them; None if one of them is
/// closed to the unit.
pub fn crossed(s: &State, u: &Unit, a: Point, b: Point) -> Option<Vec<Crossing>> {
    let mut out = Vec::new();
    for t in &s.scenario.terrain {
        let Some(at) = t.entered_along(a, b) else {
            continue;
        };
        let n = deduction(t, u)?;
        if n > 0 {
            out.push(Crossing {
                name: t.name.clone(),
                dice: n,
                friend: None,
                at: at.get(),
            });
        }
    }
    // Moving through a friendly unit: 1D6.
    let near = |f: &&Unit| f.at.distance_to_segment(a, b).get() <= f.reach();
    let friends = s
        .along_ids(a, b, 0.0)
        .into_iter()
        .map(|i| &s.units[i])
        .filter(|f| f.live() && f.side == u.side);
    for f in friends.filter(|f| f.id != u.id).filter(near) {
        let area = geo::MultiPolygon::new(vec![f.base().polygon()]);
        if let Some(at) = segment_entry(a, b, &area) {
            out.push(Crossing {
                name: f.name.clone(),
                dice: 1,
                friend: Some(f.id.clone()),
                at,
            });
        }
    }
    out.sort_by(|x, y| x.at.total_cmp(&y.at));
    Some(out)
}

/// The first feature on a straight move from `a` to `b` that is closed
/// to the unit, by name.
pub fn closed_on_way(s: &State, u: &Unit, a: Point, b: Point) -> Option<String> {
    s.scenario
        .terrain
        .iter()
        .filter(|t| deduction(t, u).is_none())
        .find(|t| t.entered_along(a, b).is_some())
        .map(|t| t.name.clone())
}

/// The D6 a list of crossings deducts.
pub fn dice_of(cross: &[Crossing]) -> u32 {
    cross.iter().map(|c| c.dice).sum()
}

/// A charge's reach: 150% of a normal move less the deductions assumed.
pub fn charge_reach(s: &State, u: &Unit, target: &Unit) -> Option<f64> {
    let d = dice_of(&crossed(s, u, u.at, target.at)?);
    Some(1.5 * (u.mv() - d as f64 * ASSUMED_D6).max(0.0))
}

/// Where along a→b the unit first comes within `keep` of an enemy (other
/// than `allow`), and which: the last point short of it.
fn first_block(
    s: &State,
    u: &Unit,
    a: Point,
    b: Point,
    allow: Option<&str>,
    keep: f64,
) -> Option<(f64, String)> {
    let len = (b - a).length();
    if len < 1e-9 {
        return None;
    }
    let steps = (len / 0.25).ceil().max(1.0) as usize;
    let enemies: Vec<&Unit> = s
        .near_ids(a, 0.0, len + keep + 40.0)
        .into_iter()
        .map(|i| &s.units[i])
        .filter(|e| e.live() && e.side != u.side && Some(e.id.as_str()) != allow)
        .filter(|e| e.at.distance_to(a).get() < len + keep + 40.0)
        .collect();
    // Each enemy's gap at the start, measured only for an enemy the path
    // comes near enough to ask about (most never are).
    let mut start_gaps: Vec<Option<f64>> = vec![None; enemies.len()];
    // `gap_at_least` of the probe, its sizes worked out once: the probe
    // only moves, and each enemy stands still.
    let reaches: Vec<f64> = enemies.iter().map(|e| e.reach()).collect();
    let mut probe = u.clone();
    let own = probe.reach();
    let mut prev = 0.0;
    for i in 1..=steps {
        let t = i as f64 / steps as f64;
        probe.at = a.lerp(b, t);
        for ((e, start_gap), &reach) in enemies.iter().zip(start_gaps.iter_mut()).zip(&reaches) {
            if probe.at.distance_to(e.at).get() - own - reach >= keep {
                continue;
            }
            let gap = s.gap(&probe, e);
            let start_gap = *start_gap.get_or_insert_with(|| s.gap(u, e));
            // A unit already closer may stand or move away, not closer.
            if gap < keep && gap < start_gap - 1e-6 {
                return Some((prev * len, e.id.clone()));
            }
        }
        prev = t;
    }
    None
}

/// What a move did, and what cut it short.
#[derive(Default)]
pub struct Went {
    pub to: Point,
    pub moved: f64,
    pub rolls: Vec<u32>,
    /// The deduction dice's places in the step's log.
    pub dice: Vec<usize>,
    pub bumped: Option<String>,
    /// What it crossed, and the cm the dice took off.
    pub cross: Vec<Crossing>,
    pub deducted: f64,
    /// The feature closed to it that stopped the move, by name.
    pub closed: Option<String>,
    /// The distance to where it was heading (after losing its way).
    pub wanted: f64,
}

/// Move `unit` straight toward `to` with `budget` cm less the deductions
/// rolled; stop `KEEP_OFF` from enemies except `contact` (which it may
/// touch). A hidden enemy met on the way is found and the move halts.
/// Deductions are rolled only for the ground and friends the move
/// reaches, in the order it reaches them, up to where it ends.
pub fn travel(st: &mut Step, unit: &str, to: Point, budget: f64, contact: Option<&str>) -> Went {
    let Some(u) = st.s.unit(unit).cloned() else {
        return Went {
            to,
            ..Went::default()
        };
    };
    if (to - u.at).length() > 0.5 {
        super::observe::slip(st, unit);
    }
    let to = lost_way(st, &u, to, budget);
    let wanted = (to - u.at).length();
    let Some(cross) = crossed(&st.s, &u, u.at, to) else {
        return closed_way(st, &u, to, wanted);
    };
    // How far the path goes before deductions: the allowance, an enemy it
    // may come no closer to, the target it touches.
    let reach = wanted.min(budget.max(0.0));
    let end = along(u.at, to, reach);
    let block = first_block(&st.s, &u, u.at, end, contact, KEEP_OFF);
    let touch = contact.and_then(|t| touch_at(&st.s, &u, end, t));
    let ends = [block.as_ref().map(|b| b.0), touch]
        .into_iter()
        .flatten()
        .fold(reach, f64::min);
    let paid = deductions(st, &u, cross, budget, ends);
    let stop = ends.min(paid.allowed);
    let bumped = block.filter(|b| b.0 <= stop + 1e-9).map(|b| b.1);
    let to_now = along(u.at, to, stop);
    let moved = (to_now - u.at).length();
    let facing = Angle::of_vector(to_now - u.at)
        .filter(|f| moved > 0.1 && f.difference_to(Angle(u.facing)).abs() <= 90.0)
        .map_or(u.facing, |f| f.degrees());
    if let Some(x) = st.s.unit_mut(unit) {
        x.at = to_now;
        x.facing = facing;
    }
    super::observe::lose_track(st, unit);
    if let Some(e) = &bumped {
        found_by_bump(st, unit, e);
    }
    Went {
        to: to_now,
        moved,
        rolls: paid.rolls,
        dice: paid.dice,
        bumped,
        cross: paid.cross,
        deducted: paid.deducted,
        closed: None,
        wanted,
    }
}

/// The point `d` cm from `a` toward `b` (`a` itself if they coincide).
fn along(a: Point, b: Point, d: f64) -> Point {
    let len = (b - a).length();
    if len < 1e-9 {
        a
    } else {
        a.lerp(b, (d / len).min(1.0))
    }
}

/// A move whose way runs into ground closed to the unit: it stays.
fn closed_way(st: &mut Step, u: &Unit, to: Point, wanted: f64) -> Went {
    let closed = closed_on_way(&st.s, u, u.at, to);
    let why = format!(
        "Movement: dense woods and thickets are closed to all but skirmishers: {} is in the way; it stays where it is",
        closed.as_deref().unwrap_or("a wood")
    );
    st.refuse(&u.id, &why);
    Went {
        to: u.at,
        closed,
        wanted,
        ..Went::default()
    }
}

/// How far along the way from the unit to `end` it first touches
/// `target` (into contact, not through it), if it does.
fn touch_at(s: &State, u: &Unit, end: Point, target: &str) -> Option<f64> {
    let t = s.unit(target)?;
    let len = (end - u.at).length();
    let steps = (len / 0.1).ceil().max(1.0) as usize;
    (1..=steps).map(|i| i as f64 / steps as f64).find_map(|k| {
        let mut probe = u.clone();
        probe.at = u.at.lerp(end, k);
        (s.gap_at_least(&probe, t) <= 0.05 && s.gap(&probe, t) <= 0.05).then_some(k * len)
    })
}

/// The deductions a move paid, and how far it may go after them.
struct Paid {
    cross: Vec<Crossing>,
    rolls: Vec<u32>,
    dice: Vec<usize>,
    deducted: f64,
    allowed: f64,
}

/// Roll the deductions of each crossing the move reaches, nearest first:
/// one is reached if it lies short of both where the path `ends` and what
/// the dice rolled so far leave of the `budget`. Ground already covered is
/// not given back: a move that rolls more than is left stops where it met
/// the ground that cost it (house rule), never short of it.
fn deductions(st: &mut Step, u: &Unit, cross: Vec<Crossing>, budget: f64, ends: f64) -> Paid {
    let mut paid = Paid {
        cross: Vec::new(),
        rolls: Vec::new(),
        dice: Vec::new(),
        deducted: 0.0,
        allowed: budget.max(0.0),
    };
    for c in cross {
        if c.at >= ends.min(paid.allowed) - 1e-9 {
            break;
        }
        for _ in 0..c.dice {
            let r = st.roll(
                &[&u.id],
                6,
                &format!("{} crossing {}: D6 cm off its move", u.name, c.name),
            );
            paid.rolls.push(r.value);
            paid.dice.push(r.index);
            paid.deducted += r.value as f64;
        }
        paid.allowed = (budget - paid.deducted).max(c.at).max(0.0);
        paid.cross.push(c);
    }
    paid
}

/// A unit that came upon an enemy it had not seen: the enemy is found.
fn found_by_bump(st: &mut Step, unit: &str, enemy: &str) {
    let (Some(u), Some(e)) = (st.s.unit(unit).cloned(), st.s.unit(enemy).cloned()) else {
        return;
    };
    if st.s.sees(&u.side, &e) {
        return;
    }
    super::observe::touch(st, unit, enemy);
    let mut f = st.facts(unit, Some(enemy));
    f.distance = Some(st.s.gap(&u, &e));
    f.to = Some(u.at);
    st.say(Said::Bump, f, Vec::new());
}

/// Optional rule: a unit whose move crosses from one forest square to
/// another (not on a road) tests to lose its way; lost, it turns 90
/// degrees left (1-3) or right (4-6).
fn lost_way(st: &mut Step, u: &Unit, to: Point, budget: f64) -> Point {
    let o = st.s.scenario.options;
    if !o.lost_in_forest || budget <= 0.0 {
        return to;
    }
    let square = |p: Point| {
        (
            (p.x / FOREST_SQUARE).floor() as i64,
            (p.y / FOREST_SQUARE).floor() as i64,
        )
    };
    let in_forest = |p: Point| st.s.ground(p).any(|t| t.has(TerrainTag::Woods));
    let on_road = st.s.ground(u.at).any(|t| t.has(TerrainTag::Road));
    if on_road || square(u.at) == square(to) || !(in_forest(u.at) || in_forest(to)) {
        return to;
    }
    let r = st.roll(
        &[&u.id],
        6,
        &format!("{} in the forest: lost on a low score", u.name),
    );
    let score = r.value as i32 - i32::from(o.severe_weather) - i32::from(o.night);
    if !is_lost(score, u.troop.rating().lost_on) {
        return to;
    }
    let way = st.roll(
        &[&u.id],
        6,
        &format!("{} lost: 1-3 turns left, 4-6 right", u.name),
    );
    let turn = if way.value <= 3 { -90.0 } else { 90.0 };
    let v = to - u.at;
    let p = u.at + v.rotated_about(Point::new(0.0, 0.0), turn);
    let w = st.s.scenario.table;
    let p = Point::new(
        p.x.clamp(0.0, w.width.get()),
        p.y.clamp(0.0, w.height.get()),
    );
    let mut f = st.facts(&u.id, None);
    f.rolls = vec![r.value, way.value];
    f.result = Some(if turn < 0.0 { "left" } else { "right" }.into());
    st.say(Said::Lost, f, vec![r.index, way.index]);
    p
}

/// Straight away from where `u`'s side knows `from` to be (or from the
/// nearest enemy it knows of) by `dist`; straight back when it knows none.
/// Never from where a hidden enemy truly stands: every rout would give its
/// bearing, and two bearings fix it.
fn away_point(s: &State, u: &Unit, from: Option<&str>, dist: f64) -> Point {
    let src = from
        .and_then(|f| s.known_at(&u.side, f))
        .or_else(|| {
            s.known_enemies(&u.side)
                .min_by(|a, b| s.gap(u, a).total_cmp(&s.gap(u, b)))
                .map(|e| e.at)
        })
        .unwrap_or(u.at + Angle(u.facing).unit_vector());
    let v = u.at - src;
    let v = if v.length() < 1e-9 {
        Angle(u.facing).unit_vector().scale(-1.0)
    } else {
        v.scale(1.0 / v.length())
    };
    u.at + v.scale(dist)
}

/// Retire `dist` cm away from `from`, facing it (no deductions: a short
/// step back).
pub fn away(st: &mut Step, unit: &str, from: Option<&str>, dist: f64) {
    let Some(u) = st.s.unit(unit).cloned() else {
        return;
    };
    let p = away_point(&st.s, &u, from, dist);
    if let Some(x) = st.s.unit_mut(unit) {
        x.at = p;
    }
    super::observe::lose_track(st, unit);
    st.s.traces.push(Trace {
        unit: unit.into(),
        side: u.side.clone(),
        kind: TraceKind::Retreat,
        points: vec![u.at, p],
    });
    off_table(st, unit);
}

/// Rout at maximum speed away from `from`; off the table, it is gone.
pub fn rout(st: &mut Step, unit: &str, from: Option<&str>) {
    let Some(u) = st.s.unit(unit).cloned() else {
        return;
    };
    if let Some(x) = st.s.unit_mut(unit) {
        x.status = Status::Routing;
        x.last = Motion::Retired;
        x.from = from.map(str::to_string);
        x.no_advance = true;
    }
    st.s.charges.retain(|c| c.unit != unit);
    st.routed.insert(unit.to_string());
    let p = away_point(&st.s, &u, from, u.mv());
    let went = travel(st, unit, p, u.mv(), None);
    let mut f = st.facts(unit, None);
    f.distance = Some(went.moved);
    f.to = Some(went.to);
    st.s.traces.push(Trace {
        unit: unit.into(),
        side: u.side.clone(),
        kind: TraceKind::Retreat,
        points: vec![u.at, went.to],
    });
    st.say(Said::Rout, f, Vec::new());
    off_table(st, unit);
}

/// A unit whose centre has left the table is gone.
pub fn off_table(st: &mut Step, unit: &str) {
    let w = st.s.scenario.table;
    let Some(u) = st.s.unit(unit) else {
        return;
    };
    let p = u.at;
    if p.x < 0.0 || p.y < 0.0 || p.x > w.width.get() || p.y > w.height.get() {
        let mut f = st.facts(unit, None);
        f.reason = Some("leaves the table".into());
        st.say(Said::Gone, f, Vec::new());
        if let Some(x) = st.s.unit_mut(unit) {
            x.status = Status::Gone;
        }
    }
}

/// What a formation change or turn about costs of a normal move: a whole
/// move to change formation in close order, a quarter to turn about, half
/// to limber or unlimber; open order changes freely.
pub fn drill_cost(u: &Unit, formation: Option<Formation>, about: bool) -> f64 {
    let mut share: f64 = 0.0;
    if let Some(f) = formation
        && f != u.formation
    {
        share += match (u.formation, f) {
            (Formation::Limbered, _) | (_, Formation::Limbered) => 0.5,
            _ if u.troop.open_order() => 0.0,
            _ => 1.0,
        };
    }
    if about && !u.troop.open_order() {
        share += 0.25;
    }
    share.min(1.0) * u.mv()
}

/// The nearest enemy `side` knows of, edge to edge.
pub fn nearest_known(s: &State, u: &Unit) -> Option<f64> {
    // Whether the side sees an enemy is asked only of those near enough
    // to matter: the unseen count as infinitely far.
    let known = |e: &Unit| s.sees(&u.side, e);
    // `gap_at_least`, the unit's own size worked out once.
    let own = u.reach();
    let exact = |e: &Unit| if known(e) { s.gap(u, e) } else { f64::INFINITY };
    let among = |ids: &[usize]| {
        crate::geometry::nearest::nearest(
            ids.iter()
                .map(|&i| &s.units[i])
                .filter(|e| e.live() && e.side != u.side),
            |e| u.at.distance_to(e.at).get() - own - e.reach(),
            exact,
            |e| e.id.as_str(),
        )
        .map(|e| (e, exact(e)))
    };
    s.nearest_ids(u, among)
        .filter(|e| known(e))
        .map(|e| s.gap(u, e))
}

/// Whether the unit ends its move advanced, halted or retired, by the
/// nearest enemy it knows of.
pub fn motion(before: Option<f64>, after: Option<f64>, moved: f64) -> Motion {
    match (before, after) {
        (Some(b), Some(a)) if a < b - 0.5 => Motion::Advanced,
        (Some(b), Some(a)) if a > b + 0.5 => Motion::Retired,
        (None, None) if moved > 0.5 => Motion::Advanced,
        _ => Motion::Halted,
    }
}

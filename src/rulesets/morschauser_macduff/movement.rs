//! Moving one company along its ordered path (B.1, B.3, C.1-C.7).
//!
//! The path is walked in small steps; each step is checked against the
//! table edge, terrain, other companies and the 3" melee distance. The first
//! step that is not allowed ends the move, and the reason is reported.

use super::orders::{Action, PathStep};
use super::scenario::{Terrain, TerrainKind};
use super::state::{Company, State};
use super::units::TroopType;
use crate::geometry::{Angle, Base, Bounds, Distance, Point, base_distance};

/// B.3, B.6: companies within this of each other are in melee range.
pub const MELEE_RANGE: f64 = 3.0;

/// B.3, B.4, B.6: the one reading of "within 3 inches" used everywhere
/// (charges, moves that are not charges, forced melee, no shooting in melee
/// range, targets in melee, rallying): a gap of exactly 3" is within. So a
/// move that is not a charge stops short of 3", and a company left at 3"
/// must melee. A hair of rounding either way counts as exactly 3".
pub fn within_melee(gap: f64) -> bool {
    crate::geometry::within(gap, MELEE_RANGE)
}
/// C.2, C.5, C.7: the move is restricted to this in woods, towns and behind walls.
pub const SLOW_MOVE: f64 = 6.0;
/// How finely a path is walked, in inches.
const STEP: f64 = 0.25;
const EPS: f64 = 1e-9;

/// Where a company ended and why it stopped, if it stopped short.
#[derive(Clone, Debug, PartialEq)]
pub struct Moved {
    pub at: Point,
    pub facing: Angle,
    pub travelled: f64,
    /// The rule that ended the move early, in words.
    pub stopped: Option<String>,
    /// Front-centre positions where the path turned, for the map.
    pub points: Vec<Point>,
    /// C.4: it entered fordable water and must halt there.
    pub in_water: bool,
    /// C.1: it made a road move (artillery may not then shoot).
    pub road_move: bool,
    /// C.7: cornfields it trampled.
    pub trampled: Vec<String>,
    /// B.3: the first enemy a charge came within 3" of, and the base it
    /// stood on just before (where a flank attack is judged).
    pub engaged: Option<Engaged>,
}

/// The enemy a charge closed with (B.3).
#[derive(Clone, Debug, PartialEq)]
pub struct Engaged {
    pub enemy: String,
    pub before: Base,
}

/// Carry out `action`'s path for company `c`. `charging` lets it come within
/// 3" of the enemy (B.3).
pub fn carry_out(state: &State, c: &Company, action: &Action, charging: bool) -> Moved {
    let s = &state.scenario;
    let normal = c.profile.movement.get();
    let start = c.base(s);
    let on_road = |b: &Base| on_road(s.terrain.as_slice(), b);
    let mut road = action.road && on_road(&start);
    let mut allowance = if road { normal * ROAD_BONUS } else { normal };
    let mut cap = f64::INFINITY;
    let start_level = steep_level(s.terrain.as_slice(), &start);
    // C.4: the halt comes on the move that enters the water. A company that
    // starts in it (it halted there last turn) moves normally; it halts
    // again only if it leaves the water and enters some more.
    let mut wet = in_ford(s.terrain.as_slice(), &start);
    let near = around(state, c, if road { normal * ROAD_BONUS } else { normal });
    let mut m = Moved {
        at: c.at,
        facing: c.facing,
        travelled: 0.0,
        stopped: None,
        points: vec![c.at],
        in_water: false,
        road_move: road,
        trampled: Vec::new(),
        engaged: None,
    };
    'path: for step in &action.path {
        let (dir, length) = match step {
            PathStep::Pivot(d) => {
                m.facing = m.facing.turned(*d);
                continue;
            }
            PathStep::Forward(d) => (m.facing, d.get().max(0.0)),
            PathStep::To(p) => {
                let Some(f) = Angle::of_vector(*p - m.at) else {
                    continue;
                };
                m.facing = f;
                (f, (*p - m.at).length())
            }
        };
        let mut done = 0.0;
        while done < length - EPS {
            let room = allowance.min(cap) - m.travelled;
            if room <= EPS {
                m.stopped = Some(limit_reason(allowance, cap));
                break 'path;
            }
            let d = STEP.min(length - done).min(room);
            let next = m.at + dir.unit_vector().scale(d);
            let base = c.base_at(s, next, m.facing);
            if let Err(why) = allowed(state, c, &near, &base, charging) {
                m.stopped = Some(why);
                break 'path;
            }
            if charging && let Err(why) = halt_or_close(state, c, &near, &mut m, &base) {
                m.stopped = Some(why);
                break 'path;
            }
            if road && !on_road(&base) {
                // C.1: the bonus needs the whole move along the road.
                road = false;
                m.road_move = false;
                allowance = normal;
                if m.travelled + d > normal + EPS {
                    m.stopped = Some("C.1 Roads: it left the road after its normal move".into());
                    break 'path;
                }
            }
            match terrain_limits(state, c, &base, start_level) {
                Limit::Stop(why) => {
                    m.stopped = Some(why);
                    break 'path;
                }
                Limit::Cap(v) => cap = cap.min(v),
                Limit::Free => {}
            }
            if m.travelled + d > cap + EPS {
                m.stopped = Some(limit_reason(allowance, cap));
                break 'path;
            }
            m.at = next;
            m.travelled += d;
            done += d;
            for t in &s.terrain {
                if matches!(t.kind, TerrainKind::Cornfield)
                    && !m.trampled.contains(&t.id)
                    && t.feature().touches_bases(std::slice::from_ref(&base))
                {
                    m.trampled.push(t.id.clone());
                }
            }
            let now_wet = in_ford(s.terrain.as_slice(), &base);
            if now_wet && !wet {
                m.in_water = true;
                m.stopped = Some("C.4 Streams: it halts on entering the water".into());
                break 'path;
            }
            wet = now_wet;
        }
        m.points.push(m.at);
    }
    if m.points.last() != Some(&m.at) {
        m.points.push(m.at);
    }
    m
}

fn limit_reason(allowance: f64, cap: f64) -> String {
    if cap < allowance {
        format!("terrain restricts its move to {cap} in")
    } else {
        format!("B.1 Movement: its move is at most {allowance} in")
    }
}

pub(super) enum Limit {
    Free,
    Cap(f64),
    Stop(String),
}

/// Another company a move may meet, with its base and the base's box.
type Other<'a> = (&'a Company, Base, Bounds);

/// The other live companies that a move of at most `allowance` inches by
/// `c` could bring within 3" of it, in the state's order, with their bases:
/// found once for the whole move, not at each of its steps.
fn around<'a>(state: &'a State, c: &Company, allowance: f64) -> Vec<Other<'a>> {
    let s = &state.scenario;
    let reach = if allowance.is_finite() {
        // Every base it tries stands on a front centre at most `allowance`
        // from where it starts, in any facing: within the base's diagonal.
        let (w, d) = (s.base.width.get(), s.base.depth.get());
        allowance.max(0.0) + STEP + (w / 2.0).hypot(d) + 1.0
    } else {
        f64::INFINITY
    };
    let from = Bounds {
        min: c.at,
        max: c.at,
    };
    state
        .near(&from, reach + MELEE_RANGE)
        .into_iter()
        .filter(|o| o.on_table() && o.id != c.id)
        .map(|o| {
            let ob = o.base(s);
            (o, ob, Bounds::of_base(&ob))
        })
        .collect()
}

/// The table edge, other companies and the enemy's 3" (B.3).
fn allowed(
    state: &State,
    c: &Company,
    near: &[Other],
    base: &Base,
    charging: bool,
) -> Result<(), String> {
    let s = &state.scenario;
    if base.corners().iter().any(|p| !s.on_table(*p)) {
        return Err("it reached the table edge".into());
    }
    let area = Bounds::of_base(base);
    for (o, ob, ob_box) in near {
        // Nothing below applies beyond 3": skip the exact distance then.
        if area.gap(ob_box) > MELEE_RANGE + EPS {
            continue;
        }
        let gap = base_distance(base, ob).get();
        if o.side == c.side {
            if gap < EPS && crate::geometry::overlaps(&[*base], &[*ob]) {
                return Err(format!("{} is in the way", o.short()));
            }
        } else if !charging && within_melee(gap) {
            return Err(format!(
                "B.3 Charges: it would come within 3 in of {} without a charge",
                o.short()
            ));
        } else if charging && crate::geometry::overlaps(&[*base], &[*ob]) {
            return Err(format!("it reached {}", o.short()));
        }
    }
    Ok(())
}

/// B.3: once within 3" of an enemy, a charge may only halt or move toward
/// that enemy. The first enemy it comes within 3" of is the one it engages.
fn halt_or_close(
    state: &State,
    c: &Company,
    near: &[Other],
    m: &mut Moved,
    next: &Base,
) -> Result<(), String> {
    let s = &state.scenario;
    let here = c.base_at(s, m.at, m.facing);
    match &m.engaged {
        None => {
            let area = Bounds::of_base(next);
            let first = near
                .iter()
                .filter(|(e, _, _)| e.side != c.side)
                .filter(|(_, _, b)| {
                    let beyond = area.gap(b) > MELEE_RANGE + EPS;
                    !beyond
                })
                .map(|(e, b, _)| (base_distance(next, b).get(), *e))
                .filter(|(g, _)| within_melee(*g))
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.id.cmp(&b.1.id)));
            if let Some((_, e)) = first {
                m.engaged = Some(Engaged {
                    enemy: e.id.clone(),
                    before: here,
                });
            }
            Ok(())
        }
        Some(en) => {
            // The enemy it engaged was found among `near`.
            let found = near.iter().find(|(e, _, _)| e.id == en.enemy);
            let Some(e) = found
                .map(|(e, _, _)| *e)
                .or_else(|| state.company(&en.enemy))
            else {
                return Ok(());
            };
            let eb = e.base(s);
            if base_distance(next, &eb).get() > base_distance(&here, &eb).get() + EPS {
                Err(format!(
                    "B.3 Charges: within 3 in of {} it may only halt or close",
                    e.short()
                ))
            } else {
                Ok(())
            }
        }
    }
}

/// C.1: whether a base touches a road or a bridge. A move claims the road
/// bonus only from such a base (the orders page offers it only there).
pub fn on_road(terrain: &[Terrain], base: &Base) -> bool {
    terrain
        .iter()
        .filter(|t| matches!(t.kind, TerrainKind::Road | TerrainKind::Bridge))
        .any(|t| touches(t, base))
}

/// The road bonus (C.1): half as much again as the normal move.
pub const ROAD_BONUS: f64 = 1.5;

/// Whether an enemy company is within melee range of `base`.
fn enemy_near(state: &State, c: &Company, base: &Base) -> bool {
    state
        .enemies_near(&c.side, &Bounds::of_base(base), MELEE_RANGE + EPS)
        .any(|e| within_melee(base_distance(base, &e.base(&state.scenario)).get()))
}

fn touches(t: &Terrain, base: &Base) -> bool {
    t.feature().touches_bases(std::slice::from_ref(base))
}

/// The contour a base stands on, if on a steep hill (C.3).
pub(super) fn steep_level(terrain: &[Terrain], base: &Base) -> u32 {
    terrain
        .iter()
        .filter_map(|t| match t.kind {
            TerrainKind::Hill { steep: true, level } => {
                let centre = Base {
                    width: Distance(0.01),
                    depth: Distance(0.01),
                    ..*base
                };
                t.feature()
                    .touches_bases(std::slice::from_ref(&centre))
                    .then_some(level)
            }
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

/// C.4: whether a base stands in fordable water (off any bridge).
fn in_ford(terrain: &[Terrain], base: &Base) -> bool {
    let on_bridge = terrain
        .iter()
        .any(|t| matches!(t.kind, TerrainKind::Bridge) && touches(t, base));
    !on_bridge
        && terrain
            .iter()
            .any(|t| matches!(t.kind, TerrainKind::Water { fordable: true }) && touches(t, base))
}

/// What the ground a base would stand on does to the move (section C).
pub(super) fn terrain_limits(state: &State, c: &Company, base: &Base, start_level: u32) -> Limit {
    let s = &state.scenario;
    let troop = c.profile.troop;
    let on_road = s
        .terrain
        .iter()
        .any(|t| matches!(t.kind, TerrainKind::Road | TerrainKind::Bridge) && touches(t, base));
    let on_bridge = s
        .terrain
        .iter()
        .any(|t| matches!(t.kind, TerrainKind::Bridge) && touches(t, base));
    let level = steep_level(s.terrain.as_slice(), base);
    if level.abs_diff(start_level) > 1 {
        return Limit::Stop("C.3 Hills: a steep hill is climbed one contour a turn".into());
    }
    let mut cap = f64::INFINITY;
    for t in s.terrain.iter().filter(|t| touches(t, base)) {
        // C.6: ladders take a company over a wall nobody defends within
        // 3"; a defended wall must be stormed (melee.rs).
        let passes = || {
            state.breached_near(&t.id, base.center, s.base.width.get())
                || (c.ladders && !enemy_near(state, c, base))
        };
        match ground_limit(troop, t, on_road, on_bridge, passes) {
            Limit::Stop(why) => return Limit::Stop(why),
            Limit::Cap(v) => cap = cap.min(v),
            Limit::Free => {}
        }
    }
    if cap.is_finite() {
        Limit::Cap(cap)
    } else {
        Limit::Free
    }
}

/// What one piece of ground does to a move of `troop` that enters it
/// (section C), on or off a road or bridge there; `passes` says whether a
/// wall is breached or climbed where it meets it. The move (above) and
/// the orders page's plan both ask this.
pub(super) fn ground_limit(
    troop: TroopType,
    t: &Terrain,
    on_road: bool,
    on_bridge: bool,
    passes: impl Fn() -> bool,
) -> Limit {
    let name = &t.name;
    match &t.kind {
        TerrainKind::Woods => {
            if matches!(troop, TroopType::Artillery | TroopType::Wagons) || troop.is_cavalry() {
                return Limit::Stop(format!("C.2 Woods: {} may not enter {name}", troop.label()));
            }
            if troop == TroopType::LineInfantry {
                return Limit::Cap(SLOW_MOVE);
            }
        }
        TerrainKind::Town if !on_road => {
            if !troop.is_infantry() {
                return Limit::Stop(format!(
                    "C.5 Towns: {} enter {name} only along the road",
                    troop.label()
                ));
            }
            return Limit::Cap(SLOW_MOVE);
        }
        TerrainKind::Earthwork => {
            if !(troop.is_infantry() || troop == TroopType::Artillery) {
                return Limit::Stop(format!(
                    "C.6 Fortifications: {} may not enter {name}",
                    troop.label()
                ));
            }
            return Limit::Cap(SLOW_MOVE);
        }
        TerrainKind::Water { fordable: false } if !on_bridge => {
            return Limit::Stop(format!("C.4 Rivers: {name} is crossed only by a bridge"));
        }
        TerrainKind::HighWall | TerrainKind::Gate { .. } if !passes() => {
            return Limit::Stop(format!(
                "C.6 Fortifications: {name} is passed only by ladders in an assault or a breach"
            ));
        }
        // House rule: an abatis slows like a low wall.
        TerrainKind::LowWall { .. } | TerrainKind::Abatis if troop != TroopType::LightInfantry => {
            return Limit::Cap(SLOW_MOVE);
        }
        TerrainKind::Marsh {
            light_infantry_cross,
        } if !(*light_infantry_cross && troop == TroopType::LightInfantry) => {
            return Limit::Stop(format!("C.7 Other terrain: {name} is impassable"));
        }
        TerrainKind::Other(o) => {
            if o.impassable {
                return Limit::Stop(format!("C.7 Other terrain: {name} is impassable"));
            }
            if let Some(m) = o.max_move {
                return Limit::Cap(m.get());
            }
        }
        _ => {}
    }
    Limit::Free
}

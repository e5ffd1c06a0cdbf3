//! Shooting (B.2, B.4, B.5, the terrain effects of section C, E.5, E.7).
//!
//! A shot is first judged legal or not (range, sight, melee, cover); a
//! refused order falls back to the nearest legal target or to holding fire.
//! A legal shot rolls one die per strength point against the weapon's score.

use super::movement::{MELEE_RANGE, within_melee};
use super::orders::{Action, Fallback};
use super::scenario::{Terrain, TerrainKind};
use super::state::{Breach, Company, State};
use super::units::{Fire, FireKind, GunVariant, TroopType};
use super::words::{self, What};
use crate::dice::Dice;
use crate::event::{Event, Facts};
use crate::geometry::{
    Angle, Base, Bounds, Distance, Point, Shape, TerrainFeature, TerrainTag, base_distance,
    line_of_sight, point_to_bases, segment_hits_area, within,
};

/// B.5, E.7h: a howitzer's overhead shell hits on a 6 only, out to 24".
pub const OVERHEAD_HITS_ON: u32 = 6;
pub const OVERHEAD_RANGE: f64 = 24.0;
/// C.6: a heavy gun within this of a high wall's nearest face may try for
/// a breach.
pub const BREACH_RANGE: f64 = 12.0;

/// A shot judged legal: what is fired and what it needs.
#[derive(Clone, Debug, PartialEq)]
pub struct Shot {
    pub target: String,
    pub distance: f64,
    pub fire: Fire,
    /// The score needed once every modifier is applied (above 6: no hit).
    pub hits_on: u32,
    /// The modifiers and special fire, in words, for the dice log.
    pub notes: Vec<String>,
}

/// Company `id` shoots as `a` orders, its fallback taking over when the
/// order cannot be carried out.
pub fn shoot(s: &mut State, id: &str, a: &Action, dice: &mut Dice, events: &mut Vec<Event>) {
    let Some(c) = s.company(id).cloned() else {
        return;
    };
    if !c.on_table() || c.profile.fires.is_empty() {
        return;
    }
    // B.4: within 3" it must melee instead; no fallback can change that.
    if let Some(e) = s
        .enemies_near(
            &c.side,
            &Bounds::of_base(&c.base(&s.scenario)),
            MELEE_RANGE + 1e-9,
        )
        .find(|e| within_melee(gap(s, &c, e)))
    {
        let e = e.clone();
        events.push(words::event(What::MustMelee, words::at(s, &c, &e)));
        return;
    }
    if c.halted_in_water {
        events.push(words::event(What::InWater, words::of(s, &c)));
        return;
    }
    // C.6: a heavy gun breaches a high wall by `breach: WALL`, or by naming
    // the wall as its target (the older spelling, still accepted).
    let wall_named = a
        .target
        .as_ref()
        .filter(|t| s.company(t).is_none() && s.general(t).is_none());
    if let Some(wall) = a
        .breach
        .as_ref()
        .filter(|_| c.profile.troop == TroopType::Artillery)
        .or(wall_named)
        .and_then(|t| s.scenario.terrain(t))
        .cloned()
    {
        breach(s, &c, &wall.id, dice, events);
        return;
    }
    if let Some(g) = a.target.as_ref().and_then(|t| s.general(t)).cloned() {
        match judge_general(s, &c, &g.id) {
            Ok(fire) => return shoot_general(s, &c, &g.id, fire, dice, events),
            Err(why) => {
                events.push(words::event(
                    What::CannotShoot,
                    Facts {
                        notes: vec![g.name.clone()],
                        reason: Some(why.to_string()),
                        mode: Some(fallback_label(a.fallback).to_string()),
                        ..words::of(s, &c)
                    },
                ));
                match fallback(s, &c, a.fallback) {
                    Some(shot) => fire(s, &c, &shot, dice, events),
                    None => events.push(holds(s, &c)),
                }
                return;
            }
        }
    }
    let shot = match &a.target {
        Some(t) => match judge(s, &c, t) {
            Ok(shot) => Some(shot),
            Err(why) => {
                events.push(words::event(
                    What::CannotShoot,
                    Facts {
                        notes: vec![t.clone()],
                        reason: Some(why.to_string()),
                        mode: Some(fallback_label(a.fallback).to_string()),
                        ..words::of(s, &c)
                    },
                ));
                fallback(s, &c, a.fallback)
            }
        },
        // Nothing named and nothing to fall back on: no shooting, no event.
        None if a.fallback == Fallback::Hold => return,
        None => fallback(s, &c, a.fallback),
    };
    match shot {
        Some(shot) => fire(s, &c, &shot, dice, events),
        None => events.push(holds(s, &c)),
    }
}

/// A company that holds its fire did nothing: players' reports leave it out.
fn holds(s: &State, c: &Company) -> Event {
    words::event(
        What::HoldsFire,
        Facts {
            idle: true,
            ..words::of(s, c)
        },
    )
}

fn fallback_label(f: Fallback) -> &'static str {
    match f {
        Fallback::Nearest => "the nearest target",
        Fallback::Hold => "holding its fire",
    }
}

/// The fallback's shot, if it has one.
fn fallback(s: &State, c: &Company, f: Fallback) -> Option<Shot> {
    match f {
        Fallback::Hold => None,
        Fallback::Nearest => nearest(s, c),
    }
}

/// The nearest enemy `c` may legally shoot at, ties by id, and the shot.
pub fn nearest(s: &State, c: &Company) -> Option<Shot> {
    // Only enemies within its longest range can be legal targets.
    let reach = c.profile.max_range()?.get() + 1e-9;
    let from = Bounds::of_base(&c.base(&s.scenario));
    // Nearest boxes first: once a box is further than the best shot found,
    // no company from there on can be nearer (a box gap is never more than
    // the distance, but for a hair of rounding).
    let mut by_box: Vec<(f64, &Company)> = s
        .enemies_near(&c.side, &from, reach)
        .map(|e| (from.gap(&Bounds::of_base(&e.base(&s.scenario))), e))
        .collect();
    by_box.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut best: Option<Shot> = None;
    for (lower, e) in by_box {
        if best.as_ref().is_some_and(|b| lower > b.distance + 1e-6) {
            break;
        }
        let Ok(shot) = judge_company(s, c, e) else {
            continue;
        };
        let nearer = best.as_ref().is_none_or(|b| {
            shot.distance
                .total_cmp(&b.distance)
                .then(shot.target.cmp(&b.target))
                .is_lt()
        });
        if nearer {
            best = Some(shot);
        }
    }
    best
}

/// E.5: a general may be shot at only when he is the closest target.
fn judge_general(s: &State, c: &Company, id: &str) -> Result<(f64, Fire), String> {
    let sc = &s.scenario;
    let Some(g) = s.general(id) else {
        return Err("there is no such general".into());
    };
    if g.side == c.side {
        return Err(format!("{} is a friendly general", g.name));
    }
    if g.killed {
        return Err(format!("{} has already fallen", g.name));
    }
    if g.attached.is_some() {
        return Err(format!(
            "{} is with a company and shares its fate (E.5)",
            g.name
        ));
    }
    let cb = c.base(sc);
    let g_at = s.general_at(g);
    let d = point_to_bases(g_at, std::slice::from_ref(&cb)).get();
    let nearer = s
        .enemies_near(&c.side, &Bounds::of_base(&cb), d)
        .map(|e| base_distance(&cb, &e.base(sc)).get())
        .chain(
            s.generals
                .iter()
                .filter(|o| o.side != c.side && !o.killed && o.id != g.id && o.attached.is_none())
                .map(|o| point_to_bases(s.general_at(o), std::slice::from_ref(&cb)).get()),
        )
        .any(|x| x <= d);
    if nearer {
        return Err(format!("{} is not the closest target (E.5)", g.name));
    }
    let from = cb.front_center();
    if let Some(x) = sc
        .terrain
        .iter()
        .filter(|x| blocks_sight(s, &x.kind, &x.id))
        .find(|x| {
            !line_of_sight(
                from,
                g_at,
                &[tagged(x.feature())],
                &[TerrainTag::Obstruction],
            )
        })
    {
        return Err(format!("{} blocks the line of sight (B.5)", x.name));
    }
    c.profile
        .fires
        .iter()
        .find(|f| within(d, f.range.get()))
        .map(|f| (d, *f))
        .ok_or_else(|| format!("{} is {d:.1} in away, out of range", g.name))
}

/// House rule (E.5): any hit on a general standing alone kills him.
fn shoot_general(
    s: &mut State,
    c: &Company,
    id: &str,
    (d, f): (f64, Fire),
    dice: &mut Dice,
    events: &mut Vec<Event>,
) {
    let Some(name) = s.general(id).map(|g| g.name.clone()) else {
        return;
    };
    let sp = c.strength();
    let purpose = format!(
        "{}, {sp} SP, at General {name} ({d:.1} in): hits on {}-6",
        c.short(),
        f.hits_on
    );
    let mut rolls = Vec::new();
    let mut index = Vec::new();
    for _ in 0..sp {
        rolls.push(dice.d6(purpose.clone()));
        index.extend(dice.last_index());
    }
    let hits = rolls.iter().filter(|v| **v >= f.hits_on).count();
    let general = s.general(id).map(words::general);
    let facts = Facts {
        target: general,
        count: Some(sp),
        needed: Some(f.hits_on),
        distance: Some(d),
        rolls,
        hits: Some(hits as u32),
        ..words::of(s, c)
    };
    if hits > 0 {
        if let Some(g) = s.generals.iter_mut().find(|g| g.id == id) {
            g.killed = true;
        }
        events.push(words::event(What::KillsGeneral, facts).with_dice(index));
    } else {
        events.push(words::event(What::MissesGeneral, facts).with_dice(index));
    }
}

/// Edge-to-edge distance between two companies' bases.
fn gap(s: &State, a: &Company, b: &Company) -> f64 {
    base_distance(&a.base(&s.scenario), &b.base(&s.scenario)).get()
}

/// Whether `c` may shoot at `target`, and with what; or why not.
pub fn judge(s: &State, c: &Company, target: &str) -> Result<Shot, String> {
    let Some(t) = s.company(target) else {
        return Err("there is no such company".into());
    };
    judge_company(s, c, t)
}

/// [`judge`] with the target company in hand.
fn judge_company(s: &State, c: &Company, t: &Company) -> Result<Shot, String> {
    let sc = &s.scenario;
    if t.side == c.side {
        return Err(format!("{} is a friendly company", t.short()));
    }
    if !t.on_table() {
        return Err(format!("{} is no longer on the table", t.short()));
    }
    // B.4: a company in melee cannot be targeted.
    if s.enemies_near(&t.side, &Bounds::of_base(&t.base(sc)), MELEE_RANGE + 1e-9)
        .any(|e| within_melee(gap(s, t, e)))
    {
        return Err(format!("{} is in melee (B.4)", t.short()));
    }
    let distance = gap(s, c, t);
    let Some(fire) = c
        .profile
        .fires
        .iter()
        .find(|f| within(distance, f.range.get()))
        .copied()
    else {
        let max = c.profile.max_range().map(Distance::get).unwrap_or(0.0);
        return Err(format!(
            "{} is {distance:.1} in away, beyond its {max:.0} in range",
            t.short()
        ));
    };
    let mut shot = Shot {
        target: t.id.clone(),
        distance,
        fire,
        hits_on: fire.hits_on,
        notes: Vec::new(),
    };
    let from = c.base(sc).front_center();
    let to = t.base(sc).center;
    let (tb, cb) = (t.base(sc), c.base(sc));
    // C.3: reverse slopes and the ground behind a hill are hidden.
    let (shooter_level, target_level) = (level(s, &cb), level(s, &tb));
    let crest = sc.terrain.iter().any(|h| match h.kind {
        TerrainKind::Hill { level, .. } => {
            level > shooter_level
                && level > target_level
                && !line_of_sight(from, to, &[h.feature()], &[TerrainTag::Hill])
        }
        _ => false,
    });
    if crest {
        return Err(format!(
            "{} is behind a hill or on its reverse slope (C.3)",
            t.short()
        ));
    }
    // B.5: terrain and companies in between block sight.
    let blockers: Vec<&Terrain> = sc
        .terrain
        .iter()
        .filter(|x| blocks_sight(s, &x.kind, &x.id))
        .filter(|x| stands_between(x, from, to, &cb, &tb))
        .collect();
    let woods_only = blockers
        .iter()
        .all(|x| matches!(x.kind, TerrainKind::Woods));
    let between: Vec<&Company> = in_line(s, from, to)
        .into_iter()
        .filter(|o| o.on_table() && o.id != c.id && o.id != t.id)
        .filter(|o| segment_hits_area(from, to, &base_area(&o.base(sc))))
        .collect();
    if let Some(e) = between.iter().find(|o| o.side != c.side) {
        return Err(format!("{} is in the way (B.5)", e.short()));
    }
    let friends: Vec<&&Company> = between.iter().filter(|o| o.side == c.side).collect();
    let howitzer = c.profile.overhead;
    // B.5: a gun on a hill fires shot over lower friends nearer to it.
    let over_friends_from_hill = c.profile.troop == TroopType::Artillery
        && friends.iter().all(|o| {
            let ob = o.base(sc);
            level(s, &ob) < shooter_level
                && base_distance(&ob, &cb).get() < base_distance(&ob, &tb).get()
        });
    // C.2, C.5: a company wholly inside a wood or town is hidden, and sees
    // nothing outside; at the edge it is seen and sees (`stands_between`).
    if let Some(x) = blockers
        .iter()
        .find(|x| matches!(x.kind, TerrainKind::Town) && deep_inside(x, &tb))
    {
        return Err(format!(
            "{} is inside a town ({}), not at its edge (C.5)",
            t.short(),
            x.name
        ));
    }
    let mut overhead = false;
    if !blockers.is_empty() || !friends.is_empty() {
        let terrain_clear = blockers.is_empty();
        let shell = c
            .profile
            .fires
            .iter()
            .find(|f| f.kind == FireKind::ShotShell)
            .copied();
        if let (true, true, Some(shell)) = (terrain_clear, over_friends_from_hill, shell) {
            // Over friends it is shot and shell only, even within canister range.
            shot.fire = shell;
            shot.hits_on = shell.hits_on;
            shot.notes
                .push("shot over friends on lower ground (B.5)".into());
        } else if howitzer && woods_only {
            overhead = true;
        } else {
            let why = blockers
                .first()
                .map(|x| x.name.clone())
                .or_else(|| friends.first().map(|o| o.short()))
                .unwrap_or_default();
            return Err(format!("{why} blocks the line of sight (B.5)"));
        }
    }
    let in_woods = touching(s, &tb, |k| matches!(k, TerrainKind::Woods));
    if overhead {
        let Some(shell) = c
            .profile
            .fires
            .iter()
            .find(|f| f.kind == FireKind::ShotShell)
            .copied()
        else {
            return Err("it has no shell for overhead fire".into());
        };
        if !within(distance, OVERHEAD_RANGE) {
            return Err(format!(
                "{} is {distance:.1} in away, beyond the {OVERHEAD_RANGE:.0} in of overhead fire",
                t.short()
            ));
        }
        shot.fire = shell;
        shot.hits_on = OVERHEAD_HITS_ON;
        shot.notes.push("overhead shell, 6 only (B.5)".into());
        return Ok(shot);
    }
    if in_woods {
        shot.hits_on += 1;
        shot.notes.push("-1 target in woods".into());
    }
    let town = touching(s, &tb, |k| {
        matches!(k, TerrainKind::Town | TerrainKind::Earthwork)
    });
    if town && (t.profile.troop.is_infantry() || t.profile.troop == TroopType::Artillery) {
        let p = c.profile.town_penalty;
        shot.hits_on += p;
        shot.notes
            .push(format!("-{p} target in a town or earthwork"));
    }
    let cover = touching_or_flush(s, &tb, |k| match k {
        TerrainKind::LowWall { cover } => *cover,
        TerrainKind::Other(o) => o.cover,
        _ => false,
    });
    if cover {
        shot.hits_on += 1;
        shot.notes.push("-1 target behind cover".into());
    }
    Ok(shot)
}

/// B.5, C.2, C.5: whether terrain `x` stands between a shooter on base
/// `cb` and a target on base `tb`. A wall or gate (a line a company does not
/// stand in) blocks the sight line from the shooter's front centre `from`
/// to the target's centre `to`. A wood, town, cornfield or the organiser's
/// terrain blocks when the stretch of the line joining the two base centres
/// that lies outside both bases runs through it. So a company whose base
/// reaches the edge, on the side facing the other, sees out and is seen
/// alike, whichever of the two shoots; one wholly inside neither sees nor is
/// seen.
fn stands_between(x: &Terrain, from: Point, to: Point, cb: &Base, tb: &Base) -> bool {
    if matches!(x.kind, TerrainKind::HighWall | TerrainKind::Gate { .. }) {
        return !line_of_sight(from, to, &[tagged(x.feature())], &[TerrainTag::Obstruction]);
    }
    let (a, b) = (cb.center, tb.center);
    let out_of_shooter = span(cb, a, b).map_or(0.0, |(_, t1)| t1);
    let into_target = span(tb, a, b).map_or(1.0, |(t0, _)| t0);
    if out_of_shooter >= into_target {
        return false;
    }
    let p = |t: f64| a + (b - a).scale(t);
    segment_hits_area(p(out_of_shooter), p(into_target), &x.feature().area())
}

/// The part of the segment from `a` to `b` (as fractions of its length)
/// that lies on base `base`, if any.
fn span(base: &Base, a: Point, b: Point) -> Option<(f64, f64)> {
    let axes = [
        (base.facing.unit_vector(), base.depth.get() / 2.0),
        (base.facing.right_vector(), base.width.get() / 2.0),
    ];
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    for (u, half) in axes {
        let start = (a - base.center).dot(u);
        let rate = (b - a).dot(u);
        if rate.abs() < 1e-12 {
            if start.abs() > half + 1e-9 {
                return None;
            }
            continue;
        }
        let (x, y) = ((-half - start) / rate, (half - start) / rate);
        t0 = t0.max(x.min(y));
        t1 = t1.min(x.max(y));
    }
    (t0 <= t1).then_some((t0, t1))
}

/// C.2, C.5: a base lying inside `x` and touching nothing of its edge.
fn deep_inside(x: &Terrain, b: &Base) -> bool {
    let f = x.feature();
    f.contains_bases(std::slice::from_ref(b))
        && b.corners().iter().all(|p| {
            let probe = Base::new(*p, Angle(0.0), Distance(0.02), Distance(0.02));
            f.contains_bases(std::slice::from_ref(&probe))
        })
}

fn holds_point(x: &Terrain, p: Point) -> bool {
    let tiny = Base::new(p, Angle(0.0), Distance(0.01), Distance(0.01));
    x.feature().touches_bases(std::slice::from_ref(&tiny))
}

/// Whether a piece of terrain stops a sight line (B.5, C.2, C.5, C.6, C.7).
fn blocks_sight(s: &State, k: &TerrainKind, id: &str) -> bool {
    match k {
        TerrainKind::Woods
        | TerrainKind::Town
        | TerrainKind::HighWall
        | TerrainKind::Gate { .. } => true,
        TerrainKind::Cornfield => !s.trampled.contains(id),
        TerrainKind::Other(o) => o.blocks_sight,
        _ => false,
    }
}

/// The feature tagged as an obstruction, so that one sight test fits all.
pub(super) fn tagged(mut f: TerrainFeature) -> TerrainFeature {
    f.tags = vec![TerrainTag::Obstruction];
    f
}

/// The companies whose bases may lie across the line from `from` to `to`,
/// in the state's order.
fn in_line(s: &State, from: Point, to: Point) -> Vec<&Company> {
    match Bounds::of_points([from, to]) {
        Some(line) => s.near(&line, 1e-6),
        None => s.companies.iter().collect(),
    }
}

fn base_area(b: &Base) -> geo::MultiPolygon<f64> {
    TerrainFeature {
        id: String::new(),
        name: String::new(),
        tags: Vec::new(),
        elevation: None,
        shape: Shape::Polygon {
            points: b.corners().to_vec(),
        },
    }
    .area()
}

/// The highest hill contour under a base's centre (0 off hills).
pub(super) fn level(s: &State, b: &Base) -> u32 {
    s.scenario
        .terrain
        .iter()
        .filter_map(|t| match t.kind {
            TerrainKind::Hill { level, .. } => holds_point(t, b.center).then_some(level),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

pub(super) fn touching(s: &State, b: &Base, kind: impl Fn(&TerrainKind) -> bool) -> bool {
    s.scenario
        .terrain
        .iter()
        .any(|t| kind(&t.kind) && t.feature().touches_bases(std::slice::from_ref(b)))
}

/// [`touching`], and also a base whose edge lies on the feature's face
/// without reaching in: cover walls and abatis (C.7) shelter a company
/// drawn up flush against them, as "any part of the base touching" says.
pub(super) fn touching_or_flush(s: &State, b: &Base, kind: impl Fn(&TerrainKind) -> bool) -> bool {
    s.scenario
        .terrain
        .iter()
        .any(|t| kind(&t.kind) && t.feature().touches_or_meets_bases(std::slice::from_ref(b)))
}

/// Roll the shot and apply its hits.
fn fire(s: &mut State, c: &Company, shot: &Shot, dice: &mut Dice, events: &mut Vec<Event>) {
    let Some(t) = s.company(&shot.target).cloned() else {
        return;
    };
    let weapon = match shot.fire.kind {
        FireKind::Small => c.profile.weapon.label(),
        FireKind::Canister => "canister",
        FireKind::ShotShell => "shot and shell",
    };
    let notes = if shot.notes.is_empty() {
        String::new()
    } else {
        format!(", {}", shot.notes.join(", "))
    };
    let sp = c.strength();
    let facts = Facts {
        mode: Some(weapon.to_string()),
        distance: Some(shot.distance),
        needed: Some(shot.hits_on),
        notes: shot.notes.clone(),
        count: Some(sp),
        ..words::at(s, c, &t)
    };
    if shot.hits_on > 6 {
        events.push(words::event(What::NoHitPossible, facts));
        return;
    }
    let purpose = format!(
        "{}, {sp} SP, {weapon} at {} ({:.1} in): hits on {}-6{notes}",
        c.short(),
        t.short(),
        shot.distance,
        shot.hits_on
    );
    let mut hits = 0;
    let mut rolls = Vec::new();
    let mut index = Vec::new();
    for _ in 0..sp {
        let v = dice.d6(purpose.clone());
        rolls.push(v);
        index.extend(dice.last_index());
        if v >= shot.hits_on {
            hits += 1;
        }
    }
    events.push(
        words::event(
            What::Shoots,
            Facts {
                rolls,
                hits: Some(hits),
                ..facts
            },
        )
        .with_dice(index),
    );
    // E.1: a formed regiment shares the hits.
    super::regiment::take_shooting_hits(s, &t.id, hits, events);
    // C.5: artillery hits on a town may set it on fire.
    if hits > 0 && c.profile.troop == TroopType::Artillery {
        let tb = t.base(&s.scenario);
        let towns: Vec<(String, String)> = s
            .scenario
            .terrain
            .iter()
            .filter(|x| matches!(x.kind, TerrainKind::Town))
            .filter(|x| x.feature().touches_bases(std::slice::from_ref(&tb)))
            .filter(|x| !s.burning.contains(&x.id))
            .map(|x| (x.id.clone(), x.name.clone()))
            .collect();
        for (id, name) in towns {
            let d = dice.d6(format!("{}: does {name} catch fire? (6)", c.short()));
            let di = dice.last_index();
            let what = if d == 6 {
                s.burning.insert(id);
                What::CatchesFire
            } else {
                What::NoFire
            };
            events.push(
                words::event(
                    what,
                    Facts {
                        place: Some(name),
                        rolls: vec![d],
                        ..words::of(s, c)
                    },
                )
                .with_dice(di),
            );
        }
    }
}

/// C.6: a heavy gun within 12" of a high wall rolls for a breach.
fn breach(s: &mut State, c: &Company, wall: &str, dice: &mut Dice, events: &mut Vec<Event>) {
    let Some(w) = s.scenario.terrain(wall).cloned() else {
        return;
    };
    if !matches!(w.kind, TerrainKind::HighWall | TerrainKind::Gate { .. }) {
        events.push(words::event(
            What::NotAWallTarget,
            Facts {
                place: Some(w.name.clone()),
                ..words::of(s, c)
            },
        ));
        return;
    }
    if gun_of(s, &c.id) != Some(GunVariant::Heavy) {
        events.push(words::event(
            What::NotHeavyGun,
            Facts {
                place: Some(w.name.clone()),
                ..words::of(s, c)
            },
        ));
        return;
    }
    let cb = c.base(&s.scenario);
    let Some((_, at)) = nearest_on(&w.outline, &cb) else {
        return;
    };
    // House rule 23: the 12" run from the gun's front centre to the wall's
    // nearest face (its ground, not its centre line); the end counts.
    let d = w.feature().gap_to_point(cb.front_center()).get();
    if !within(d, BREACH_RANGE) {
        events.push(words::event(
            What::WallOutOfRange,
            Facts {
                place: Some(w.name.clone()),
                distance: Some(d),
                ..words::of(s, c)
            },
        ));
        return;
    }
    let roll = dice.d6(format!(
        "{}: heavy gun at {} ({d:.1} in): breach on 6",
        c.short(),
        w.name
    ));
    let di = dice.last_index();
    let facts = Facts {
        place: Some(w.name.clone()),
        distance: Some(d),
        needed: Some(6),
        rolls: vec![roll],
        ..words::of(s, c)
    };
    if roll == 6 {
        s.breaches.push(Breach {
            wall: w.id.clone(),
            at,
            cause: format!("heavy gun {}", c.id),
        });
        events.push(words::event(What::Breaches, facts).with_dice(di));
    } else {
        events.push(words::event(What::NoBreach, facts).with_dice(di));
    }
}

/// The nearest point of an outline's line to the base's front centre.
pub(super) fn nearest_on(shape: &Shape, b: &Base) -> Option<(f64, Point)> {
    let p = b.front_center();
    let pts = match shape {
        Shape::Polyline { points, .. } => points.clone(),
        Shape::Polygon { points } => {
            let mut v = points.clone();
            v.extend(points.first().copied());
            v
        }
    };
    pts.windows(2)
        .map(|w| {
            let q = p.nearest_on_segment(w[0], w[1]);
            ((p - q).length(), q)
        })
        .min_by(|x, y| x.0.total_cmp(&y.0))
}

/// The gun variant the scenario gives a company (field for non-guns).
pub(super) fn gun_of(s: &State, id: &str) -> Option<GunVariant> {
    s.scenario
        .sides
        .iter()
        .flat_map(|x| &x.companies)
        .find(|c| c.id == id)
        .map(|c| c.gun)
}

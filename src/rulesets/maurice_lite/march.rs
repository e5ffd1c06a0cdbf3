//! Moving a unit on a March (chapter 6): allowances, wheels, retrograde,
//! columns, formation changes, about-face, terrain and interpenetration.
//!
//! A move is planned against the table as it stands, then applied; the same
//! planning checks orders on receipt and carries them out at resolution.

use super::area;
pub use super::nearby::Nearby;
use super::orders::{FormationChange, Side2, Step, UnitMove};
use super::scenario::{is_difficult, is_impassable};
use super::state::State;
use super::units::{
    ARTILLERY_SLOW_CAP, Arm, Formation, NEAR_ENEMY, NEAR_ENEMY_CAP, Unit, allowance, half_round_up,
};
use crate::geometry::{
    Angle, Base, Corner, Distance, Frame, Layout, Point, follow_path, lay_out, sweep_straight,
    wheel,
};
use crate::ruleset::Violation;
use geo::BooleanOps;

/// Rule names, as violations and the log cite them.
pub mod rule {
    pub const ALLOWANCE: &str = "6. Movement allowances";
    pub const RETROGRADE: &str = "6. Retrograde: half allowance, never mixed with forward movement";
    pub const WHEEL: &str = "6. Wheeling";
    pub const COLUMN: &str = "6. Moving in columns";
    pub const NEAR: &str = "6. Near the enemy: columns and cavalry move at most 4 BW";
    pub const ARTILLERY: &str = "6. Artillery movement";
    pub const SMOKE: &str = "4. Smoke: artillery with smoke may not move";
    pub const FORMATION: &str = "6. Changing formation";
    pub const ABOUT_FACE: &str = "6. About-face";
    pub const DIFFICULT: &str = "6. Movement and terrain: no unit is broken by moving";
    pub const INTERPENETRATION: &str = "6. Interpenetration";
    pub const CONTACT: &str = "6. The March action: no contact with the enemy";
    pub const TABLE: &str = "House rule: units stay on the table";
    pub const IMPASSABLE: &str = "5. Terrain: impassable ground";
}

/// Whether a march may not enter `t` (chapter 5): impassable ground, and
/// difficult ground while a card makes it impassable. The march check and
/// the orders page's plan both ask.
pub fn barred(state: &State, t: &crate::geometry::TerrainFeature) -> bool {
    is_impassable(t) || (state.cards.difficult_impassable && is_difficult(t))
}

/// A planned move, ready to apply.
#[derive(Clone, Debug, PartialEq)]
pub struct Planned {
    pub unit: String,
    pub anchor: Point,
    pub facing: Angle,
    pub formation: Formation,
    pub distance: Distance,
    /// DISR the moving unit takes.
    pub disruption: u32,
    /// Friendly units it passed through that take a DISR.
    pub disrupted_friends: Vec<String>,
    pub trace: Vec<Point>,
    /// What happened, for the log.
    pub notes: Vec<String>,
    /// The ground the move passed over, start and end included (a CinC
    /// marker of the enemy under it is displaced).
    pub swept: geo::MultiPolygon<f64>,
}

fn err(unit: &str, rule: &str, msg: impl Into<String>) -> Violation {
    Violation::new(&["moves", unit], Some(unit), rule, msg)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    Forward,
    Back,
}

/// Plan `mv` for a unit of `side` on the table as it stands in `state`.
pub fn plan(
    state: &State,
    side: &crate::side::SideId,
    mv: &UnitMove,
) -> Result<Planned, Violation> {
    plan_on(state, side, mv, &Nearby::new(state, side))
}

/// [`plan`] with the table already indexed (and kept up to date with
/// [`Nearby::moved`]), for the moves of a whole force.
pub fn plan_on(
    state: &State,
    side: &crate::side::SideId,
    mv: &UnitMove,
    near: &Nearby,
) -> Result<Planned, Violation> {
    let id = mv.unit.as_str();
    let unit = state.unit(id).filter(|u| &u.side == side).ok_or_else(|| {
        let hint = state.unit_hint(id, Some(side));
        err(
            id,
            "Orders",
            format!("{id} is not a unit of this side{hint}"),
        )
    })?;
    if !unit.on_table() {
        return Err(err(
            id,
            "Orders",
            format!("{} is not on the table", unit.short()),
        ));
    }
    let m = state.scenario.measure;
    let start = unit.bases(&m);
    let start_anchor = unit.anchor.unwrap_or_default();
    if unit.arm == Arm::Artillery && unit.smoke && !mv.steps.is_empty() {
        return Err(err(
            id,
            rule::SMOKE,
            format!(
                "{} has smoke: this March removes it, and it may move in a later round",
                unit.short()
            ),
        ));
    }
    let mut bases = start.clone();
    let mut anchor = start_anchor;
    let mut facing = unit.facing;
    let mut formation = unit.formation;
    let mut used = Distance::ZERO;
    let mut direction: Option<Direction> = None;
    let mut swept = area::of_bases(&start);
    let mut trace = vec![start_anchor];
    let mut spent_all = false;
    let mut changed = false;
    let mut about_faced = false;
    let mut notes = Vec::new();

    for step in &mv.steps {
        if spent_all {
            return Err(err(
                id,
                rule::FORMATION,
                "after this formation change the unit has no movement left",
            ));
        }
        let moved = used.get() > 0.0;
        match step {
            Step::Formation(fc) => {
                if moved || changed || about_faced {
                    return Err(err(
                        id,
                        rule::FORMATION,
                        "a unit changes formation once, before it moves, and not after an about-face",
                    ));
                }
                let new = change_formation(unit, &bases, anchor, facing, formation, fc)?;
                spent_all = formation != Formation::Column;
                notes.push(format!(
                    "changes formation from {} to {}",
                    formation.label(),
                    fc.to.label()
                ));
                formation = fc.to;
                let frame = Frame::of(&new);
                anchor = frame.anchor;
                facing = frame.facing;
                swept = swept.union(&area::of_bases(&new));
                bases = new;
                changed = true;
            }
            Step::AboutFace => {
                if unit.arm != Arm::Cavalry {
                    return Err(err(id, rule::ABOUT_FACE, "only cavalry may about-face"));
                }
                if moved || changed || about_faced {
                    return Err(err(
                        id,
                        rule::ABOUT_FACE,
                        "about-face comes before moving, and never with a formation change",
                    ));
                }
                let depth = Frame::of(&bases).depth;
                anchor = anchor - facing.unit_vector().scale(depth.get());
                facing = facing.turned(180.0);
                bases = unit.bases_at(&m, anchor, facing, formation);
                about_faced = true;
                notes.push("about-faces".into());
            }
            Step::Forward(d) | Step::Back(d) => {
                let back = matches!(step, Step::Back(_));
                check_length(id, *d)?;
                if back && !matches!(formation, Formation::Line | Formation::Massed) {
                    return Err(err(
                        id,
                        rule::RETROGRADE,
                        "only units in line or massed move backward; columns and artillery turn along a path",
                    ));
                }
                set_direction(
                    id,
                    &mut direction,
                    if back {
                        Direction::Back
                    } else {
                        Direction::Forward
                    },
                )?;
                let signed = if back { Distance(-d.get()) } else { *d };
                swept = swept.union(&sweep_straight(&bases, signed));
                let by = facing.unit_vector().scale(signed.get());
                anchor = anchor + by;
                bases = bases.iter().map(|b| b.translated(by)).collect();
                used = used + *d;
                trace.push(anchor);
            }
            Step::Wheel(w) => {
                if !matches!(formation, Formation::Line | Formation::Massed) {
                    return Err(err(
                        id,
                        rule::WHEEL,
                        "only units in line or massed wheel; columns and artillery follow a path",
                    ));
                }
                if !w.degrees.is_finite() || w.degrees <= 0.0 || w.degrees > 180.0 {
                    return Err(err(
                        id,
                        rule::WHEEL,
                        "a wheel turns by more than 0 and at most 180 degrees",
                    ));
                }
                set_direction(
                    id,
                    &mut direction,
                    if w.backward {
                        Direction::Back
                    } else {
                        Direction::Forward
                    },
                )?;
                let corner = match w.pivot {
                    Side2::Left => Corner::Left,
                    Side2::Right => Corner::Right,
                };
                // The free end swings forward (or back): about the left corner
                // forward is anticlockwise.
                let clockwise = matches!(
                    (w.pivot, w.backward),
                    (Side2::Right, false) | (Side2::Left, true)
                );
                let degrees = if clockwise { w.degrees } else { -w.degrees };
                let (new, area, dist) = wheel(&bases, corner, w.backward, degrees);
                swept = swept.union(&area);
                let frame = Frame::of(&new);
                anchor = frame.anchor;
                facing = frame.facing;
                bases = new;
                used = used + dist;
                trace.push(anchor);
            }
            Step::Path(points) => {
                if !matches!(formation, Formation::Column | Formation::Battery) {
                    return Err(err(
                        id,
                        rule::COLUMN,
                        "only columns and artillery move along a path; lines wheel",
                    ));
                }
                if points.is_empty() || points.len() > 64 || points.iter().any(|p| !p.is_finite()) {
                    return Err(err(
                        id,
                        rule::COLUMN,
                        "a path needs 1 to 64 waypoints with finite coordinates",
                    ));
                }
                set_direction(id, &mut direction, Direction::Forward)?;
                let (new, area, dist) = follow_path(&bases, points);
                swept = swept.union(&area);
                // A column straightens behind its head at the end of its move (house rule).
                let head = new.first().copied().unwrap_or(bases[0]);
                facing = head.facing;
                anchor = head.center + facing.unit_vector().scale(m.base_depth.get() / 2.0);
                bases = unit.bases_at(&m, anchor, facing, formation);
                swept = swept.union(&area::of_bases(&bases));
                used = used + dist;
                trace.extend(points.iter().copied());
            }
        }
    }

    // Allowance and its caps.
    // Only enemy bases near the swept area can matter below (the nearest is
    // compared with 4 BW, touching and overlap): the rest are pruned by
    // their boxes before the exact geometry, which changes no answer.
    // The final bases too: a formation change or about-face is not swept.
    let reach = crate::geometry::Bounds::of_points(
        crate::geometry::Bounds::of_area(&swept)
            .into_iter()
            .flat_map(|r| [r.min, r.max])
            .chain(bases.iter().flat_map(|b| b.corners())),
    );
    let enemies: Vec<Base> = near.enemy_bases(reach.as_ref(), NEAR_ENEMY.get() + 1e-6);
    // Near the enemy is measured round impassable ground (chapter 1).
    let begins_near = near
        .barriers
        .near_enemy(&area::of_bases(&start).0, &enemies);
    let comes_near = near.barriers.near_enemy(&swept.0, &enemies);
    let ends_near = near
        .barriers
        .near_enemy(&area::of_bases(&bases).0, &enemies);
    let travelled = used.get() > 0.0 || changed || about_faced;
    let difficult: Vec<_> = if travelled {
        state
            .scenario
            .terrain
            .iter()
            .filter(|t| is_difficult(t) && t.intersects_area(&swept))
            .collect()
    } else {
        Vec::new()
    };
    let mut limit = allowance(unit.arm, unit.formation);
    let mut why = format!(
        "{} in {}: {} BW",
        unit.arm.label(),
        unit.formation.label(),
        limit.get()
    );
    if direction == Some(Direction::Back) {
        limit = half_round_up(limit);
        why = format!("{why}, halved for retrograde: {} BW", limit.get());
    }
    match (unit.arm, unit.formation) {
        (Arm::Artillery, _) => {
            if ends_near && limit > ARTILLERY_SLOW_CAP {
                limit = ARTILLERY_SLOW_CAP;
                why = "artillery ending near the enemy: 2 BW".into();
            }
            if !difficult.is_empty() && limit > ARTILLERY_SLOW_CAP {
                limit = ARTILLERY_SLOW_CAP;
                why = "artillery moving through difficult terrain: 2 BW".into();
            }
        }
        (_, Formation::Column) if comes_near && limit > NEAR_ENEMY_CAP => {
            limit = NEAR_ENEMY_CAP;
            why = "a column that moves near the enemy: 4 BW".into();
        }
        (Arm::Cavalry, _) if (begins_near || comes_near) && limit > NEAR_ENEMY_CAP => {
            limit = NEAR_ENEMY_CAP;
            why = "cavalry in line or massed near the enemy: 4 BW".into();
        }
        _ => {}
    }
    if state.cards.march_bonus > 0 {
        let bonus = state.cards.march_bonus as f64;
        limit = Distance(limit.get() + bonus);
        why = format!("{why}, +{bonus} BW from a card");
    }
    if used.get() > limit.get() + 1e-6 {
        // The rule that set the limit: guns have their own (chapter 6,
        // Artillery Movement), whatever the reason they are slowed.
        let r = if unit.arm == Arm::Artillery {
            rule::ARTILLERY
        } else if why.contains("near") {
            rule::NEAR
        } else {
            rule::ALLOWANCE
        };
        return Err(err(
            id,
            r,
            format!(
                "{} would move {:.2} BW; its allowance is {}",
                unit.short(),
                used.get(),
                why
            ),
        ));
    }
    if about_faced && ends_near {
        return Err(err(
            id,
            rule::ABOUT_FACE,
            "a unit that about-faces must end its move not near the enemy",
        ));
    }

    // The table, the enemy and impassable ground.
    let (w, h) = (
        state.scenario.table.width.get(),
        state.scenario.table.height.get(),
    );
    let off = bases
        .iter()
        .flat_map(|b| b.corners())
        .any(|c| c.x < -1e-6 || c.y < -1e-6 || c.x > w + 1e-6 || c.y > h + 1e-6);
    if off {
        return Err(err(
            id,
            rule::TABLE,
            format!("{} would leave the table", unit.short()),
        ));
    }
    if travelled && area::overlap(&swept, &area::of_bases(&enemies)) {
        return Err(err(
            id,
            rule::INTERPENETRATION,
            "no unit may move through enemy bases",
        ));
    }
    if travelled && area::distance(&area::of_bases(&bases), &enemies) < 0.01 {
        return Err(err(
            id,
            rule::CONTACT,
            format!(
                "{} would touch the enemy: a March may not make contact",
                unit.short()
            ),
        ));
    }
    if let Some(t) = state
        .scenario
        .terrain
        .iter()
        .find(|t| barred(state, t) && t.intersects_area(&swept))
    {
        return Err(err(
            id,
            rule::IMPASSABLE,
            format!("{} may not enter {}", unit.short(), t.name),
        ));
    }

    // Disruption from difficult ground and from friends passed through.
    let mut disruption = 0;
    if unit.arm != Arm::Artillery
        && let Some(t) = difficult.first()
    {
        disruption += 1;
        notes.push(format!(
            "moves through difficult terrain ({}): 1 DISR",
            t.name
        ));
    }
    let mut friends = Vec::new();
    let moving_penalised = matches!(formation, Formation::Line | Formation::Massed);
    let end_box = crate::geometry::Bounds::of_points(bases.iter().flat_map(|b| b.corners()));
    let swept_box = crate::geometry::Bounds::of_area(&swept);
    // Friends whose boxes stand apart from both are skipped below anyway.
    let boxes: Vec<crate::geometry::Bounds> = end_box.iter().chain(&swept_box).copied().collect();
    let friends_near = near.friends_near(&boxes, 1e-6);
    for f in friends_near
        .into_iter()
        .map(|i| &state.units[i])
        .filter(|f| &f.side == side && f.on_table() && f.id != id)
    {
        let fb = f.bases(&m);
        let apart = |eb: &Option<crate::geometry::Bounds>| match eb {
            Some(e) => fb
                .iter()
                .all(|b| crate::geometry::Bounds::of_base(b).gap(e) > 1e-6),
            None => true,
        };
        // Boxes apart: neither overlap below can hold.
        if apart(&end_box) && apart(&swept_box) {
            continue;
        }
        let end = area::of_bases(&bases);
        if area::overlap(&end, &area::of_bases(&fb)) {
            return Err(err(
                id,
                rule::INTERPENETRATION,
                format!(
                    "{} would end on top of {}: no stacking",
                    unit.short(),
                    f.short()
                ),
            ));
        }
        if travelled && area::overlap(&swept, &area::of_bases(&fb)) {
            if moving_penalised {
                disruption += 1;
            }
            if f.disrupted_by_interpenetration() {
                if f.would_break_with(1) {
                    return Err(err(
                        id,
                        rule::INTERPENETRATION,
                        format!("passing through {} would break it", f.short()),
                    ));
                }
                friends.push(f.id.clone());
            }
            notes.push(format!(
                "passes through {}{}{}",
                f.short(),
                if moving_penalised {
                    ": 1 DISR to the mover"
                } else {
                    ""
                },
                if f.disrupted_by_interpenetration() {
                    ", 1 DISR to the unit passed through"
                } else {
                    ""
                }
            ));
        }
    }
    if unit.would_break_with(disruption) {
        return Err(err(
            id,
            rule::DIFFICULT,
            format!(
                "{} has {} DISR: this move would add {} and break it, and no unit is broken by moving",
                unit.short(),
                unit.disruption,
                disruption
            ),
        ));
    }
    Ok(Planned {
        unit: id.to_string(),
        anchor,
        facing,
        formation,
        distance: used,
        disruption,
        disrupted_friends: friends,
        trace,
        notes,
        swept,
    })
}

/// Carry out a planned move.
pub fn apply(state: &mut State, p: &Planned) {
    if let Some(u) = state.unit_mut(&p.unit) {
        u.anchor = Some(p.anchor);
        u.facing = p.facing;
        u.formation = p.formation;
        u.disruption += p.disruption;
    }
    for f in &p.disrupted_friends {
        if let Some(u) = state.unit_mut(f) {
            u.disruption += 1;
        }
    }
}

fn check_length(id: &str, d: Distance) -> Result<(), Violation> {
    if !d.get().is_finite() || d.get() <= 0.0 || d.get() > 100.0 {
        return Err(err(
            id,
            rule::ALLOWANCE,
            "a distance must be more than 0 and at most 100 BW",
        ));
    }
    Ok(())
}

fn set_direction(
    id: &str,
    current: &mut Option<Direction>,
    new: Direction,
) -> Result<(), Violation> {
    match current {
        Some(d) if *d != new => Err(err(
            id,
            rule::RETROGRADE,
            "a unit may not combine forward and backward movement in one round",
        )),
        _ => {
            *current = Some(new);
            Ok(())
        }
    }
}

/// The bases after a formation change, pivoting as the source describes:
/// between line and column one end base turns 90 degrees in place and the
/// others form on it; massed forms on the same front centre.
fn change_formation(
    unit: &Unit,
    bases: &[Base],
    anchor: Point,
    facing: Angle,
    from: Formation,
    fc: &FormationChange,
) -> Result<Vec<Base>, Violation> {
    let id = unit.id.as_str();
    if fc.to == from {
        return Err(err(
            id,
            rule::FORMATION,
            format!("{} is already in {}", unit.short(), from.label()),
        ));
    }
    if !fc.to.allowed_for(unit.arm) {
        return Err(err(
            id,
            rule::FORMATION,
            format!("{} may not form {}", unit.arm.label(), fc.to.label()),
        ));
    }
    let n = bases.len();
    let (w, d) = (bases[0].width, bases[0].depth);
    let offset = (n as f64 - 1.0) / 2.0 * w.get();
    let result = match (from, fc.to) {
        (Formation::Line, Formation::Column) | (Formation::Column, Formation::Line) => {
            let turn = fc.turn.ok_or_else(|| {
                err(
                    id,
                    rule::FORMATION,
                    "between line and column, say `turn: left` or `turn: right`",
                )
            })?;
            let new_facing = facing.turned(if turn == Side2::Right { 90.0 } else { -90.0 });
            // The base that turns: the end of the line on the side of the turn,
            // or the head of the column.
            let pivot = if from == Formation::Line {
                let end = if turn == Side2::Right {
                    bases[n - 1]
                } else {
                    bases[0]
                };
                end.center
            } else {
                bases[0].center
            };
            let head_front = pivot + new_facing.unit_vector().scale(d.get() / 2.0);
            if fc.to == Formation::Column {
                lay_out(Layout::Column, n, head_front, new_facing, w, d)
            } else {
                let shift = if turn == Side2::Left { -offset } else { offset };
                lay_out(
                    Layout::Line,
                    n,
                    head_front + new_facing.right_vector().scale(shift),
                    new_facing,
                    w,
                    d,
                )
            }
        }
        (_, to) => lay_out(to.layout(), n, anchor, facing, w, d),
    };
    Ok(result)
}

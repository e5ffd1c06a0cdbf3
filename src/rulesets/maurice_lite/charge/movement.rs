//! The charge move (chapter 8): an optional wheel forward of at most 1 BW,
//! then straight ahead until the first enemy is touched, front edge first.

use super::super::area;
use super::super::layouts::Layouts;
use super::super::orders::{ChargeOrder, Side2};
use super::super::prune;
use super::super::scenario::{is_difficult, is_impassable};
use super::super::state::State;
use super::super::units::{Arm, NEAR_ENEMY_CAP, Unit, allowance};
use super::eligibility::{may_charge, refuse};
use super::ground::visible;
use super::{EDGE, TOUCH, rule};
use crate::geometry::contact::{contact_points, first_touch, travel_interval};
use crate::geometry::{
    Angle, Base, Bounds, Corner, Distance, Frame, Point, overlaps, sweep_straight, translate_bases,
    wheel,
};
use crate::ruleset::Violation;
use crate::side::SideId;
use geo::BooleanOps;

/// Wheel footprints are checked for contact every this many degrees.
const WHEEL_CHECK_DEG: f64 = 0.25;

/// A charge worked out against the table, ready to apply.
#[derive(Clone, Debug, PartialEq)]
pub struct PlannedCharge {
    pub unit: String,
    pub anchor: Point,
    pub facing: Angle,
    /// Front-edge centre at the start, after any wheel, at contact.
    pub path: Vec<Point>,
    pub wheel: Distance,
    pub distance: Distance,
    /// Enemy units touched at the moment of contact, in scenario order.
    pub contacted: Vec<String>,
    /// The difficult terrain crossed (1 DISR), if any.
    pub difficult: Option<String>,
    /// The ground the charge passed over (an enemy CinC under it is displaced).
    pub swept: geo::MultiPolygon<f64>,
}

/// How far a unit charges. House rule: a charge always ends touching the
/// enemy, so cavalry always moves as cavalry near the enemy (4 BW, chapter
/// 6); infantry in line has 4 BW. Both match the source's examples.
pub fn charge_allowance(unit: &Unit) -> Distance {
    let a = allowance(unit.arm, unit.formation);
    if unit.arm == Arm::Cavalry {
        a.min(NEAR_ENEMY_CAP)
    } else {
        a
    }
}

/// Plan `order` for a unit of `side` on the table `now`; `start` is the table
/// at the start of the round, which decides what the unit could see.
pub fn plan(
    now: &State,
    start: &State,
    side: &SideId,
    order: &ChargeOrder,
) -> Result<PlannedCharge, Violation> {
    plan_on(now, start, side, order, &Layouts::of(now))
}

/// [`plan`], with the units of `now` already laid out (`lay` must be up to
/// date with `now`): a charge action plans many charges on one table.
pub fn plan_on(
    now: &State,
    start: &State,
    side: &SideId,
    order: &ChargeOrder,
    lay: &Layouts,
) -> Result<PlannedCharge, Violation> {
    let id = order.unit.as_str();
    let unit = now.unit(id).filter(|u| &u.side == side).ok_or_else(|| {
        let hint = now.unit_hint(id, Some(side));
        refuse(
            id,
            "Orders",
            format!("{id} is not a unit of this side{hint}"),
        )
    })?;
    if !unit.on_table() {
        return Err(refuse(
            id,
            "Orders",
            format!("{} is not on the table", unit.short()),
        ));
    }
    may_charge(unit)?;
    if let Some(t) = &order.target
        && !now.enemies(side).any(|e| &e.id == t)
    {
        return Err(refuse(
            id,
            rule::MOVE,
            format!("its target {t} is not an enemy unit on the table"),
        ));
    }
    let m = now.scenario.measure;
    let bw = m.base_width.get();
    let start_bases = unit.bases(&m);
    let start_anchor = unit.anchor.unwrap_or_default();
    // Enemies and friends on the table, in scenario order, as `enemies`
    // and `live_units` give them.
    let enemies = placed(now, lay, |u| &u.side != side);
    let friends = placed(now, lay, |u| &u.side == side && u.id != id);
    let full = charge_allowance(unit);
    let mut bases = start_bases.clone();
    let mut swept = area::of_bases(&start_bases);
    let mut path = vec![start_anchor];
    let mut wheeled = 0.0;

    if let Some(w) = &order.wheel {
        if w.backward {
            return Err(refuse(id, rule::MOVE, "a charge wheels forward only"));
        }
        if !w.degrees.is_finite() || w.degrees <= 0.0 || w.degrees > 180.0 {
            return Err(refuse(
                id,
                rule::MOVE,
                "a wheel turns by more than 0 and at most 180 degrees",
            ));
        }
        let frame = Frame::of(&bases);
        let dist = frame.width.get() * w.degrees.to_radians();
        if dist > bw + 1e-6 {
            return Err(refuse(
                id,
                rule::MOVE,
                format!(
                    "a wheel of {:.0} degrees moves the far corner {dist:.2} BW; a charge wheels at most 1 BW",
                    w.degrees
                ),
            ));
        }
        // Wheeling forward about the right corner turns clockwise.
        let (corner, pivot, degrees) = match w.pivot {
            Side2::Right => (Corner::Right, frame.front_edge().1, w.degrees),
            Side2::Left => (Corner::Left, frame.front_edge().0, -w.degrees),
        };
        let (new, ground, _) = wheel(&bases, corner, false, degrees);
        let steps = ((w.degrees / WHEEL_CHECK_DEG).ceil() as usize).max(1);
        for k in 1..=steps {
            let turn = degrees * k as f64 / steps as f64;
            let fp: Vec<Base> = bases.iter().map(|b| b.rotated_about(pivot, turn)).collect();
            let fpbox = prune::group_box(&fp);
            if let Some((e, _, _)) = enemies
                .iter()
                .find(|(_, eb, ebox)| prune::closer_than_boxed(&fp, fpbox, eb, *ebox, TOUCH))
            {
                return Err(refuse(
                    id,
                    rule::CONTACT,
                    format!(
                        "it would touch {} while wheeling: contact comes only from the straight move",
                        e.short()
                    ),
                ));
            }
            if let Some((f, _, _)) = friends.iter().find(|(_, fb, _)| overlaps(&fp, fb)) {
                return Err(refuse(
                    id,
                    rule::INTERPENETRATION,
                    format!("its wheel would pass through {}", f.short()),
                ));
            }
        }
        swept = swept.union(&ground);
        bases = new;
        wheeled = dist;
        path.push(Frame::of(&bases).anchor);
    }

    // Straight ahead to the first enemy touched.
    let dir = bases[0].facing.unit_vector();
    let left = full.get() - wheeled;
    let lane = prune::Lane::new(&bases, dir);
    let in_lane = |b: Option<Bounds>| lane.as_ref().is_none_or(|l| l.may_meet_box(b));
    let first = enemies
        .iter()
        .filter(|(_, eb, ebox)| in_lane(*ebox) && prune::may_meet(&bases, eb, dir))
        .filter_map(|(_, eb, _)| first_touch(&bases, eb, dir))
        .min_by(f64::total_cmp);
    let Some(t) = first else {
        return Err(refuse(
            id,
            rule::MOVE,
            format!("{} has no enemy straight ahead to charge", unit.short()),
        ));
    };
    if t > left + 1e-6 {
        return Err(refuse(
            id,
            rule::MOVE,
            format!(
                "the first enemy straight ahead is {t:.2} BW away and the charge has {left:.2} BW left"
            ),
        ));
    }
    for (f, fb, fbox) in &friends {
        let through = in_lane(*fbox)
            && prune::may_meet(&bases, fb, dir)
            && bases.iter().any(|a| {
                fb.iter().any(|b| {
                    travel_interval(a, b, dir, -1e-6)
                        .is_some_and(|(lo, hi)| lo < t - 1e-6 && hi > 1e-6)
                })
            });
        if through {
            return Err(refuse(
                id,
                rule::INTERPENETRATION,
                format!(
                    "it would pass through {}: a charge never interpenetrates",
                    f.short()
                ),
            ));
        }
    }
    let end = translate_bases(&bases, dir.scale(t));
    swept = swept.union(&sweep_straight(&bases, Distance(t)));
    let frame = Frame::of(&end);
    path.push(frame.anchor);

    // Who is touched, and how.
    let endbox = prune::group_box(&end);
    let touched: Vec<(&Unit, Vec<Base>)> = enemies
        .iter()
        .filter(|(_, eb, ebox)| prune::closer_than_boxed(&end, endbox, eb, *ebox, TOUCH))
        .map(|(e, eb, _)| (*e, eb.to_vec()))
        .collect();
    let mut contacted = Vec::new();
    for (e, eb) in &touched {
        let flank = end.iter().any(|a| {
            eb.iter().any(|b| {
                contact_points(a, b, TOUCH)
                    .iter()
                    .any(|p| frame.local(*p).0 < -EDGE)
            })
        });
        if flank {
            return Err(refuse(
                id,
                rule::CONTACT,
                format!(
                    "its flank or rear would touch {}: a charge contacts with the front edge only",
                    e.short()
                ),
            ));
        }
        contacted.push(e.id.clone());
    }
    let names = touched
        .iter()
        .map(|(e, _)| e.short())
        .collect::<Vec<_>>()
        .join(", ");
    if let Some(tgt) = &order.target
        && !contacted.contains(tgt)
    {
        return Err(refuse(
            id,
            rule::CONTACT,
            format!("it would stop on meeting {names} before reaching its target {tgt}"),
        ));
    }
    if unit.arm == Arm::Infantry
        && let Some((e, _)) = touched.iter().find(|(e, _)| e.arm == Arm::Cavalry)
    {
        return Err(refuse(
            id,
            rule::INFANTRY_V_CAVALRY,
            format!(
                "it would charge {}: infantry may not charge cavalry",
                e.short()
            ),
        ));
    }
    let seer = start.unit(id).filter(|u| u.on_table());
    for (e, _) in &touched {
        let seen = seer.is_some_and(|s| {
            start
                .unit(&e.id)
                .filter(|x| x.on_table())
                .is_some_and(|x| visible(start, s, x))
        });
        if !seen {
            return Err(refuse(
                id,
                rule::VISIBLE,
                format!(
                    "{} could not see {} at the start of the round",
                    unit.short(),
                    e.short()
                ),
            ));
        }
    }
    if unit.arm == Arm::Cavalry {
        let touched: Vec<&(&Unit, Vec<Base>)> = touched.iter().collect();
        super::woods::cavalry_and_woods(now, unit, &start_bases, &swept, &end, &touched)?;
    }
    if let Some(t) = now
        .scenario
        .terrain
        .iter()
        .find(|t| is_impassable(t) && t.intersects_area(&swept))
    {
        return Err(refuse(
            id,
            super::super::march::rule::IMPASSABLE,
            format!("{} may not enter {}", unit.short(), t.name),
        ));
    }
    let (w, h) = (
        now.scenario.table.width.get(),
        now.scenario.table.height.get(),
    );
    let off = end
        .iter()
        .flat_map(|b| b.corners())
        .any(|c| c.x < -1e-6 || c.y < -1e-6 || c.x > w + 1e-6 || c.y > h + 1e-6);
    if off {
        return Err(refuse(
            id,
            super::super::march::rule::TABLE,
            format!("{} would leave the table", unit.short()),
        ));
    }
    // House rule: the 1 DISR for difficult ground is counted as for any move
    // (the ground under the unit at the start counts too). A charger has at
    // most 3 DISR, so this DISR never breaks it.
    let difficult = now
        .scenario
        .terrain
        .iter()
        .find(|t| is_difficult(t) && t.intersects_area(&swept))
        .map(|t| t.name.clone());
    Ok(PlannedCharge {
        unit: id.to_string(),
        anchor: frame.anchor,
        facing: frame.facing,
        path,
        wheel: Distance(wheeled),
        distance: Distance(wheeled + t),
        contacted,
        difficult,
        swept,
    })
}

/// The units on the table that `keep` picks, in scenario order, with their
/// kept layouts and boxes.
fn placed<'a>(
    now: &'a State,
    lay: &'a Layouts,
    keep: impl Fn(&Unit) -> bool,
) -> Vec<(&'a Unit, &'a [Base], Option<Bounds>)> {
    now.units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.on_table() && keep(u))
        .map(|(i, u)| (u, lay.bases(i), lay.bounds(i)))
        .collect()
}

/// Carry out a planned charge.
pub fn apply(state: &mut State, p: &PlannedCharge) {
    if let Some(u) = state.unit_mut(&p.unit) {
        u.anchor = Some(p.anchor);
        u.facing = p.facing;
        if p.difficult.is_some() {
            u.disruption += 1;
        }
    }
}

//! Falling back (chapter 8): every attacker still touching the enemy after
//! the combats goes straight back, infantry 1 BW and cavalry 2 BW.

use super::super::layouts::Layouts;
use super::super::prune;
use super::super::scenario::{is_difficult, is_impassable};
use super::super::state::{State, Trace, TraceKind};
use super::super::units::{Arm, Unit};
use super::super::words::{self, What};
use super::TOUCH;
use super::report::FallBack;
use crate::event::{Event, Facts, Loss};
use crate::geometry::contact::travel_interval;
use crate::geometry::{Base, Bounds, Distance, Point, sweep_straight, translate_bases};
use geo::BooleanOps;

/// Overlap deeper than this is interpenetration.
const DEEP: f64 = 1e-6;

/// Fall back every attacker still in contact, in charge order (the source
/// lets the active player choose; charge order is the house rule), each
/// seeing where the others ended.
pub fn fall_back_all(
    state: &mut State,
    attackers: &[String],
    events: &mut Vec<Event>,
) -> Vec<FallBack> {
    let mut out = Vec::new();
    // Laid out once, and again only for what each fall back changed.
    let mut lay = Layouts::of(state);
    for id in attackers {
        let Some(unit) = state.unit(id).filter(|u| u.on_table()).cloned() else {
            continue;
        };
        lay.refresh(state);
        let m = state.scenario.measure;
        let bases = unit.bases(&m);
        let ubox = prune::group_box(&bases);
        let in_contact = state
            .units
            .iter()
            .enumerate()
            .filter(|(_, e)| e.side != unit.side && e.on_table())
            .any(|(i, _)| {
                prune::closer_than_boxed(&bases, ubox, lay.bases(i), lay.bounds(i), TOUCH)
            });
        if !in_contact {
            continue;
        }
        out.push(fall_back(state, &lay, &unit, &bases, events));
    }
    out
}

/// Along the fall back, where the faller overlaps one base (by more than
/// [`DEEP`]) and where it is exactly clear of it again.
#[derive(Clone, Copy)]
struct Span {
    lo: f64,
    hi: f64,
    clear: f64,
}

impl Span {
    /// Overlapping somewhere between the start and `s`.
    fn within(&self, s: f64) -> bool {
        self.lo < s - 1e-9 && self.hi > 1e-9
    }
    /// Overlapping at `s` itself.
    fn at(&self, s: f64) -> bool {
        self.lo < s - 1e-9 && self.hi > s + 1e-9
    }
}

/// Where a fall back stops, or what stops it.
enum Course {
    Clear { distance: f64, through: Vec<String> },
    Blocked { distance: f64, why: String },
}

fn fall_back(
    state: &mut State,
    lay: &Layouts,
    unit: &Unit,
    bases: &[Base],
    events: &mut Vec<Event>,
) -> FallBack {
    let m = state.scenario.measure;
    let morale_before = words::morale(state, &unit.side);
    let due = match unit.arm {
        Arm::Cavalry => 2.0,
        _ => 1.0,
    } * m.base_width.get();
    let back = unit.facing.unit_vector().scale(-1.0);
    let start = unit.anchor.unwrap_or_default();
    let course = plot(state, lay, unit, bases, back, due);
    let (distance, through, blocked) = match course {
        Course::Clear { distance, through } => (distance, through, None),
        Course::Blocked { distance, why } => (distance, Vec::new(), Some(why)),
    };
    let end = start + back.scale(distance);
    let mut record = FallBack {
        unit: unit.id.clone(),
        distance: Distance(distance),
        path: vec![start, end],
        through: through.clone(),
        extra_disr: 0,
        broken: false,
        reason: None,
    };
    if let Some(why) = blocked {
        state.break_unit(&unit.id);
        events.push(words::event(
            What::CannotFallBack,
            Facts {
                distance: Some(due),
                reason: Some(why.clone()),
                result: Some(words::BREAKS.into()),
                morale: words::morale_change(state, &unit.side, morale_before),
                ..words::of(state, unit)
            },
        ));
        record.broken = true;
        record.reason = Some(why);
        return record;
    }
    let swept = sweep_straight(bases, Distance(-distance));
    let rough = state
        .scenario
        .terrain
        .iter()
        .find(|t| is_difficult(t) && t.intersects_area(&swept))
        .map(|t| t.name.clone());
    let extra = through.len() as u32 + u32::from(rough.is_some());
    let mut notes = Vec::new();
    for f in &through {
        let name = state.unit(f).map(|u| u.short()).unwrap_or_default();
        let breaks = state.unit(f).is_some_and(|u| u.would_break_with(1));
        if breaks {
            state.break_unit(f);
            notes.push(format!("through {name}, which takes 1 DISR and breaks"));
        } else {
            if let Some(u) = state.unit_mut(f) {
                u.disruption += 1;
            }
            notes.push(format!("through {name}, 1 DISR to each"));
        }
    }
    if let Some(r) = &rough {
        notes.push(format!("through {r}: 1 DISR"));
    }
    let breaks = extra > 0 && unit.would_break_with(extra);
    if breaks {
        state.break_unit(&unit.id);
    } else if let Some(u) = state.unit_mut(&unit.id) {
        u.anchor = Some(end);
        u.disruption += extra;
    }
    if distance > 0.0 {
        let ground = super::super::area::of_bases(bases).union(&swept);
        super::super::cinc::passed_over(state, &unit.side, &ground, events);
    }
    state.traces.push(Trace {
        unit: unit.id.clone(),
        side: unit.side.clone(),
        points: vec![start, end],
        kind: TraceKind::FallBack,
    });
    events.push(words::event(
        What::FallsBack,
        Facts {
            distance: Some(distance),
            notes: notes.clone(),
            count: Some(extra),
            losses: vec![Loss {
                unit: unit.id.clone(),
                amount: extra,
                of: "DISR".into(),
            }],
            result: breaks.then(|| words::BREAKS.to_string()),
            from: Some(start),
            to: Some(end),
            morale: words::morale_change(state, &unit.side, morale_before),
            ..words::of(state, unit)
        },
    ));
    record.extra_disr = extra;
    record.broken = breaks;
    record.reason = (!notes.is_empty()).then(|| notes.join("; "));
    record
}

/// How far the unit goes: `due`, then on until it sits on no friend; or what
/// blocks it (enemy bases, impassable terrain, the table edge).
/// `lay` is up to date with `state`.
fn plot(
    state: &State,
    lay: &Layouts,
    unit: &Unit,
    bases: &[Base],
    back: Point,
    due: f64,
) -> Course {
    // Friends and enemies on the table in scenario order, by their places.
    let placed = |friend: bool| {
        state.units.iter().enumerate().filter(move |(_, f)| {
            f.on_table() && (f.side == unit.side) == friend && (!friend || f.id != unit.id)
        })
    };
    let lane = prune::Lane::new(bases, back);
    // For each pair of bases: where they overlap (by more than DEEP), and
    // where the faller is clear again (exactly, so that it ends flush).
    let spans = |other: &[Base], obox: Option<Bounds>| -> Vec<Span> {
        if !lane.as_ref().is_none_or(|l| l.may_meet_box(obox))
            || !prune::may_meet(bases, other, back)
        {
            return Vec::new();
        }
        bases
            .iter()
            .flat_map(|a| {
                other.iter().filter_map(|b| {
                    let (lo, hi) = travel_interval(a, b, back, -DEEP)?;
                    let clear = travel_interval(a, b, back, 0.0).map_or(hi, |x| x.1);
                    Some(Span { lo, hi, clear })
                })
            })
            .collect()
    };
    // A friend the faller never meets has no spans and plays no part.
    let friend_spans: Vec<(String, Vec<Span>)> = placed(true)
        .map(|(i, f)| (f, spans(lay.bases(i), lay.bounds(i))))
        .filter(|(_, v)| !v.is_empty())
        .map(|(f, v)| (f.id.clone(), v))
        .collect();
    let (w, h) = (
        state.scenario.table.width.get(),
        state.scenario.table.height.get(),
    );
    let limit = w.hypot(h);
    let mut s = due;
    // Each pass moves the unit clear of every friend it sits on; a few
    // passes settle any chain of friends.
    for _ in 0..64 {
        let sitting = friend_spans
            .iter()
            .flat_map(|(_, v)| v.iter())
            .filter(|x| x.at(s))
            .map(|x| x.clear)
            .fold(f64::NAN, f64::max);
        if sitting.is_nan() || s > limit {
            break;
        }
        s = sitting;
    }
    let enemy_block = placed(false)
        .filter_map(|(i, e)| {
            spans(lay.bases(i), lay.bounds(i))
                .into_iter()
                .filter(|x| x.within(s))
                .map(|x| x.lo.max(0.0))
                .min_by(f64::total_cmp)
                .map(|at| (at, e.short()))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0));
    if let Some((at, name)) = enemy_block {
        return Course::Blocked {
            distance: at,
            why: format!("{name} is in the way"),
        };
    }
    let swept = sweep_straight(bases, Distance(-s));
    if let Some(t) = state
        .scenario
        .terrain
        .iter()
        .find(|t| is_impassable(t) && t.intersects_area(&swept))
    {
        return Course::Blocked {
            distance: 0.0,
            why: format!("{} is impassable", t.name),
        };
    }
    // House rule: the table edge stops a fall back as impassable ground does.
    let off = translate_bases(bases, back.scale(s))
        .iter()
        .flat_map(|b| b.corners())
        .any(|c| c.x < -1e-6 || c.y < -1e-6 || c.x > w + 1e-6 || c.y > h + 1e-6);
    if off {
        return Course::Blocked {
            distance: 0.0,
            why: "the table edge is in the way".into(),
        };
    }
    let through = friend_spans
        .iter()
        .filter(|(_, v)| v.iter().any(|x| x.within(s)))
        .map(|(id, _)| id.clone())
        .collect();
    Course::Clear {
        distance: s,
        through,
    }
}

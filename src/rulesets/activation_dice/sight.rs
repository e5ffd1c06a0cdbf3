//! Range and Line of Sight: a weapon reaches along 45 degrees out from the
//! unit's front corners; only what can be seen can be hit; sight is mutual;
//! an infantry regiment in line is seen and reached wherever its officer,
//! in the middle of its front, is.

use super::ground::BLOCKS_SIGHT;
use super::state::{Formation, State, Unit};
use crate::geometry::relation::distance_into_front_arc;
use crate::geometry::{Angle, Base, Distance, Point, in_front_arc, line_of_sight, point_to_bases};

/// A part of a unit that can see and be seen: a battalion's (or the
/// unit's) base, or a line regiment's officer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Part {
    Base(Base),
    Officer(Point),
}

impl Part {
    /// The point sight lines are drawn to.
    pub fn point(&self) -> Point {
        match self {
            Part::Base(b) => b.center,
            Part::Officer(p) => *p,
        }
    }
    /// The part as bases, for arcs and distances (the officer a speck).
    pub fn bases(&self) -> Vec<Base> {
        match self {
            Part::Base(b) => vec![*b],
            Part::Officer(p) => vec![Base::new(*p, Angle(0.0), Distance(0.01), Distance(0.01))],
        }
    }
}

/// Whether the officer rule applies: infantry in line whose officer lives.
pub fn has_officer(u: &Unit) -> bool {
    u.formation == Formation::Line && !u.status.officer_killed
}

/// The unit's parts: each base, and the officer of a line.
pub fn parts(s: &State, u: &Unit) -> Vec<Part> {
    let mut out: Vec<Part> = s.bases(u).into_iter().map(Part::Base).collect();
    if has_officer(u)
        && let Some(at) = u.at
    {
        out.push(Part::Officer(at));
    }
    out
}

/// Line of sight between two units: some part of one sees some part of
/// the other. Drawn between the same pairs of points either way, so it is
/// mutual by construction.
pub fn sees(s: &State, a: &Unit, b: &Unit) -> bool {
    let pa = parts(s, a);
    let pb = parts(s, b);
    pa.iter().any(|x| {
        pb.iter()
            .any(|y| line_of_sight(x.point(), y.point(), &s.scenario.terrain, &BLOCKS_SIGHT))
    })
}

/// Whether `b` stands (in some part) in `a`'s arc: ahead of its front,
/// within 45 degrees out from its front corners.
pub fn in_arc(s: &State, a: &Unit, b: &Unit) -> bool {
    let frame = s.frame(a);
    parts(s, b)
        .iter()
        .any(|p| in_front_arc(&frame, &p.bases(), 45.0))
}

/// The parts of `b` in `a`'s arc, each with its distance from `a`
/// measured to the piece of it inside the arc (Range: the arc and the
/// range are one zone, so a corner outside the arc does not bring a part
/// into range); nearest first.
fn in_arc_parts(s: &State, a: &Unit, b: &Unit) -> Vec<(f64, Part)> {
    let frame = s.frame(a);
    let mine = s.bases(a);
    let mut out: Vec<(f64, Part)> = parts(s, b)
        .into_iter()
        .filter_map(|p| {
            let d = distance_into_front_arc(&frame, &mine, &p.bases(), 45.0)?;
            // The officer is a point: measured to it, not to its speck.
            let d = match p {
                Part::Officer(at) => point_to_bases(at, &mine),
                Part::Base(_) => d,
            };
            Some((d.get(), p))
        })
        .collect();
    out.sort_by(|x, y| x.0.total_cmp(&y.0));
    out
}

/// The distance, edge to edge, from `a` to the nearest part of `b` that
/// is in `a`'s arc and in sight, measured to its piece inside the arc;
/// none when no part is.
pub fn reach(s: &State, a: &Unit, b: &Unit) -> Option<f64> {
    let my_parts = parts(s, a);
    in_arc_parts(s, a, b)
        .into_iter()
        .find(|(_, p)| {
            my_parts
                .iter()
                .any(|m| line_of_sight(m.point(), p.point(), &s.scenario.terrain, &BLOCKS_SIGHT))
        })
        .map(|(d, _)| d)
}

/// Whether `a` can shoot at `b`: `b` in arc, in sight and within `a`'s
/// range; the distance when it can.
pub fn in_range(s: &State, a: &Unit, b: &Unit) -> Option<f64> {
    let max = f64::from(a.troop.range) * s.short();
    if a.troop.range == 0 {
        return None;
    }
    reach(s, a, b).filter(|d| crate::geometry::limit::within(*d, max))
}

/// Which of arc, sight and range keeps `a` from shooting at `b`.
#[derive(Clone, Debug, PartialEq)]
pub enum NoShot {
    /// No part of `b` stands within 45 degrees out from `a`'s front corners.
    OutOfArc,
    /// Every part in the arc is hidden; the features that hide the nearest.
    Hidden { by: Vec<String> },
    /// In arc and in sight, but farther (cm, edge to edge) than the range (cm).
    OutOfRange { cm: f64, range: f64 },
}

impl NoShot {
    /// The reason in words, naming `target`; `short` turns cm into shorts.
    pub fn words(&self, target: &str, short: f64) -> String {
        match self {
            NoShot::OutOfArc => {
                format!("{target} is out of its arc (45 degrees out from its front corners)")
            }
            NoShot::Hidden { by } if by.is_empty() => format!("{target} is out of its sight"),
            NoShot::Hidden { by } => {
                format!(
                    "{target} is out of its sight: {} blocks it",
                    by.join(" and ")
                )
            }
            NoShot::OutOfRange { cm, range } => format!(
                "{target} is out of range: {cm:.1} cm ({:.1} S), its range is {range:.1} cm ({:.0} S)",
                super::distance::in_shorts(*cm, short),
                super::distance::in_shorts(*range, short),
            ),
        }
    }
}

/// As [`in_range`], but saying which condition fails when `b` cannot be
/// shot at: arc first, then sight, then range, as the rules ask them.
pub fn shot_at(s: &State, a: &Unit, b: &Unit) -> Result<f64, NoShot> {
    let range = f64::from(a.troop.range) * s.short();
    let my_parts = parts(s, a);
    let terrain = &s.scenario.terrain;
    let in_arc = in_arc_parts(s, a, b);
    if in_arc.is_empty() {
        return Err(NoShot::OutOfArc);
    }
    let seen = in_arc.iter().find(|(_, p)| {
        my_parts
            .iter()
            .any(|m| line_of_sight(m.point(), p.point(), terrain, &BLOCKS_SIGHT))
    });
    match seen {
        None => Err(NoShot::Hidden {
            by: blockers(s, a, in_arc[0].1.point()),
        }),
        Some((cm, _)) if crate::geometry::limit::beyond(*cm, range) => {
            Err(NoShot::OutOfRange { cm: *cm, range })
        }
        Some((cm, _)) => Ok(*cm),
    }
}

/// The names of the features that cut the sight lines from `a`'s parts
/// to `to`, each feature asked alone so that the geometry's own test
/// decides.
pub fn blockers(s: &State, a: &Unit, to: Point) -> Vec<String> {
    let from: Vec<Point> = parts(s, a).iter().map(Part::point).collect();
    s.scenario
        .terrain
        .iter()
        .filter(|f| {
            from.iter()
                .any(|m| !line_of_sight(*m, to, std::slice::from_ref(*f), &BLOCKS_SIGHT))
        })
        .map(|f| f.name.clone())
        .collect()
}

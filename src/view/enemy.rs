//! The enemy as one side sees him: each enemy unit on that side's map, with
//! where it stands, how it faces, its formation and state, and how far it is
//! from the side's nearest unit. Built from the ruleset's [`MapView`] for
//! that side alone, so a ruleset that hides a unit from a side hides it here
//! too, and every ruleset gets the list without code of its own.

use super::{MapView, UnitView};
use crate::geometry::Point;
use crate::side::SideId;
use serde::{Deserialize, Serialize};

/// One enemy unit as a report lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EnemyUnit {
    pub id: String,
    pub name: String,
    /// The enemy side's name.
    pub side: String,
    /// The centre of its bases, in table units.
    pub at: Point,
    /// Degrees clockwise from +y, as orders give facings.
    pub facing: f64,
    pub formation: String,
    /// Bases, then the ruleset's words for its state, smoke and note.
    pub state: String,
    /// Edge to edge to the reader's nearest unit; none when he has none on
    /// the table.
    pub distance: Option<f64>,
    /// The table's unit (`BW`, `in`).
    pub unit: String,
}

impl EnemyUnit {
    /// One line for text reports and panels.
    pub fn line(&self) -> String {
        format!(
            "{} [{}] ({}): {}, {}; centre ({:.1}, {:.1}) facing {:.0}; {}",
            self.name,
            self.id,
            self.side,
            self.formation,
            self.state,
            self.at.x,
            self.at.y,
            self.facing,
            self.range()
        )
    }

    /// "3.2 BW from your nearest unit", or why there is no distance.
    pub fn range(&self) -> String {
        match self.distance {
            Some(d) if d <= 0.0 => "in contact with your units".into(),
            Some(d) => format!("{d:.1} {} from your nearest unit", self.unit),
            None => "none of your units on the table".into(),
        }
    }
}

/// The enemy units on `map`, the map drawn for side `me`, nearest first.
pub fn seen_by(map: &MapView, me: &SideId) -> Vec<EnemyUnit> {
    let Some(mine) = map.sides.iter().position(|s| &s.side == me) else {
        return Vec::new();
    };
    let own: Vec<&UnitView> = map.units.iter().filter(|u| u.side == mine).collect();
    let mut out: Vec<EnemyUnit> = map
        .units
        .iter()
        .filter(|u| u.side != mine)
        .map(|u| {
            let distance = own
                .iter()
                .map(|o| unit_distance(u, o))
                .min_by(|a, b| a.total_cmp(b));
            EnemyUnit {
                id: u.id.clone(),
                name: u.label.clone(),
                side: map
                    .sides
                    .get(u.side)
                    .map(|s| s.name.clone())
                    .unwrap_or_default(),
                at: u.anchor,
                facing: u.facing.rem_euclid(360.0),
                formation: u.formation.clone(),
                state: state(u),
                distance,
                unit: map.unit.clone(),
            }
        })
        .collect();
    out.sort_by(|a, b| {
        let key = |e: &EnemyUnit| e.distance.unwrap_or(f64::INFINITY);
        key(a).total_cmp(&key(b)).then_with(|| a.id.cmp(&b.id))
    });
    out
}

/// The enemy as comments for an orders template: read while writing orders,
/// ignored by the parser. Names go through [`crate::yaml::quoted`], so none
/// can add a line that is not a comment.
pub fn template_comments(enemy: &[EnemyUnit]) -> String {
    let mut t = String::new();
    if enemy.is_empty() {
        return t;
    }
    t.push_str(
        "# The enemy as you see him (centre x, y; facing; state; distance to your nearest unit):\n",
    );
    for e in enemy {
        t.push_str(&format!(
            "#   {:<8} {} - {}, {}, at ({:.1}, {:.1}) facing {:.0}, {}\n",
            crate::yaml::scalar(&e.id),
            crate::yaml::quoted(&e.name),
            e.formation,
            e.state,
            e.at.x,
            e.at.y,
            e.facing,
            e.range()
        ));
    }
    t
}

/// Turn `map` to `me`'s own table edge: the first side's edge is at the
/// bottom of every map, so any other side's map is turned half round.
pub fn turn_to_own_edge(map: &mut MapView, me: &SideId) {
    map.turned = map
        .sides
        .iter()
        .position(|s| &s.side == me)
        .is_some_and(|i| i > 0);
}

/// An orders template's body with the enemy `me` sees on `map` as
/// comments, after the template's own opening comments (the reader's units)
/// and before its first field.
pub fn with_enemy(body: &str, map: &MapView, me: &SideId) -> String {
    let comments = template_comments(&seen_by(map, me));
    if comments.is_empty() {
        return body.to_string();
    }
    let mut out = String::with_capacity(body.len() + comments.len());
    let mut placed = false;
    for line in body.lines() {
        if !placed && !line.trim_start().starts_with('#') {
            out.push_str(&comments);
            placed = true;
        }
        out.push_str(line);
        out.push('\n');
    }
    if !placed {
        out.push_str(&comments);
    }
    out
}

fn state(u: &UnitView) -> String {
    let mut parts = Vec::new();
    match u.bases.len() {
        0 => {}
        1 => parts.push("1 base".to_string()),
        n => parts.push(format!("{n} bases")),
    }
    parts.extend(u.status.iter().cloned());
    if u.smoke {
        parts.push("smoke".into());
    }
    if let Some(n) = &u.note
        && !n.trim().is_empty()
    {
        parts.push(n.clone());
    }
    parts.join(", ")
}

/// Edge to edge between two units: the least distance between any of their
/// bases, zero when they overlap.
pub fn unit_distance(a: &UnitView, b: &UnitView) -> f64 {
    let mut best = f64::INFINITY;
    for x in &a.bases {
        for y in &b.bases {
            best = best.min(quad_distance(&x.corners, &y.corners));
        }
    }
    if best.is_finite() {
        best
    } else {
        (a.anchor - b.anchor).length()
    }
}

/// Distance between two convex quadrilaterals: zero if they overlap (no
/// separating axis), else the least distance from a corner of one to an
/// edge of the other.
fn quad_distance(a: &[Point; 4], b: &[Point; 4]) -> f64 {
    if overlap(a, b) {
        return 0.0;
    }
    let mut best = f64::INFINITY;
    for (p, q) in [(a, b), (b, a)] {
        for c in p {
            for i in 0..4 {
                best = best.min(point_segment(*c, q[i], q[(i + 1) % 4]));
            }
        }
    }
    best
}

fn overlap(a: &[Point; 4], b: &[Point; 4]) -> bool {
    for poly in [a, b] {
        for i in 0..4 {
            let e = poly[(i + 1) % 4] - poly[i];
            let axis = Point::new(-e.y, e.x);
            let proj = |q: &[Point; 4]| {
                q.iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                        let v = p.x * axis.x + p.y * axis.y;
                        (lo.min(v), hi.max(v))
                    })
            };
            let (a0, a1) = proj(a);
            let (b0, b1) = proj(b);
            if a1 < b0 - 1e-9 || b1 < a0 - 1e-9 {
                return false;
            }
        }
    }
    true
}

fn point_segment(p: Point, a: Point, b: Point) -> f64 {
    let ab = b - a;
    let len2 = ab.x * ab.x + ab.y * ab.y;
    let t = if len2 > 0.0 {
        (((p.x - a.x) * ab.x + (p.y - a.y) * ab.y) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let c = Point::new(a.x + ab.x * t, a.y + ab.y * t);
    (p - c).length()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::{BaseView, SideStyle};

    fn square(x: f64, y: f64, side: usize) -> BaseView {
        BaseView {
            corners: [
                Point::new(x, y + 1.0),
                Point::new(x + 1.0, y + 1.0),
                Point::new(x + 1.0, y),
                Point::new(x, y),
            ],
            side,
        }
    }

    fn unit(id: &str, side: usize, bases: Vec<BaseView>, note: Option<&str>) -> UnitView {
        UnitView {
            id: id.into(),
            label: format!("The {id}"),
            side,
            anchor: bases[0].corners[0],
            bases,
            facing: 180.0,
            formation: "line".into(),
            disruption: 2,
            smoke: false,
            note: note.map(String::from),
            status: vec!["shaken".into()],
        }
    }

    fn map(units: Vec<UnitView>) -> MapView {
        MapView {
            title: String::new(),
            width: 30.0,
            height: 20.0,
            unit: "BW".into(),
            sides: ["a", "b"]
                .iter()
                .map(|s| SideStyle {
                    side: SideId::new(*s),
                    name: s.to_uppercase(),
                    colour: "#000".into(),
                })
                .collect(),
            terrain: Vec::new(),
            units,
            markers: Vec::new(),
            arrows: Vec::new(),
            zones: Vec::new(),
            deployment: Vec::new(),
            turned: false,
            counter: None,
            letters: Vec::new(),
        }
    }

    #[test]
    fn each_enemy_unit_with_its_distance_edge_to_edge_to_the_nearest_own_unit() {
        let m = map(vec![
            unit("mine1", 0, vec![square(0.0, 0.0, 0)], None),
            unit("mine2", 0, vec![square(10.0, 0.0, 0)], None),
            // 3 BW right of mine1's right edge, 6 from mine2's left edge.
            unit("far", 1, vec![square(4.0, 0.0, 1)], Some("2/4 SP")),
            // Diagonal: 3 across and 4 up from mine2's corner (10+1, 0+1).
            unit(
                "diag",
                1,
                vec![square(14.0, 5.0, 1), square(15.0, 5.0, 1)],
                None,
            ),
        ]);
        let seen = seen_by(&m, &SideId::new("a"));
        let ids: Vec<&str> = seen.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["far", "diag"], "nearest first, own units left out");
        assert!((seen[0].distance.unwrap() - 3.0).abs() < 1e-9);
        assert!((seen[1].distance.unwrap() - 5.0).abs() < 1e-9);
        // The state in the ruleset's words: the core adds none of its own.
        assert_eq!(seen[0].state, "1 base, shaken, 2/4 SP");
        assert_eq!(seen[1].state, "2 bases, shaken");
        assert_eq!(seen[0].side, "B");
        assert!(seen[0].line().contains("3.0 BW from your nearest unit"));
        let t = template_comments(&seen);
        assert!(t.lines().all(|l| l.starts_with('#')), "{t}");
        assert!(t.contains("far") && t.contains("\"The far\""), "{t}");
    }

    #[test]
    fn overlapping_units_are_in_contact_and_an_unknown_reader_sees_no_list() {
        let m = map(vec![
            unit("mine", 0, vec![square(0.0, 0.0, 0)], None),
            unit("touch", 1, vec![square(0.5, 0.5, 1)], None),
        ]);
        let seen = seen_by(&m, &SideId::new("a"));
        assert_eq!(seen[0].distance, Some(0.0));
        assert!(seen[0].range().contains("contact"));
        assert!(seen_by(&m, &SideId::new("nobody")).is_empty());
    }
}

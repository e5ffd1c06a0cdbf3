//! Cover for a target base: wholly in covering terrain, or behind covering
//! terrain that every line of fire to it must cross.

use super::scene::{COVERING, Eye, Scene};
use crate::geometry::zone::{Zone, entry_into_base};
use crate::geometry::{Base, Point, Shape, segment_hits_area};
use geo::{Intersects, Line, LineString, MultiPolygon};

/// Where on the shooting base's front edge lines of fire start, as
/// fractions of its width (kept off the very corners, where lines would
/// only graze).
const FROM: [f64; 5] = [0.01, 0.25, 0.5, 0.75, 0.99];

enum Ground {
    Area(MultiPolygon<f64>),
    Line(LineString<f64>),
}

impl Ground {
    fn crossed_by(&self, a: Point, b: Point) -> bool {
        match self {
            Ground::Area(area) => segment_hits_area(a, b, area),
            Ground::Line(line) => {
                Line::new(geo::coord! {x: a.x, y: a.y}, geo::coord! {x: b.x, y: b.y})
                    .intersects(line)
            }
        }
    }
}

/// The feature that gives `target` cover against the zone of `eye`, if any.
///
/// A target base wholly inside covering terrain has cover. Otherwise it has
/// cover when every straight line from the shooting base's front edge to
/// the part of the target inside the zone crosses covering terrain before
/// reaching the target: the cover "intervenes completely". (The front edge
/// rather than the zone's near edge: a turned zone's near edge lies a
/// little ahead of the base, and fire starts at the base.) The shooter's own wall and
/// terrain it stands in are left out (see [`Eye::ignored`]). Lines are
/// sampled: five starting points across the near edge, and the corners and
/// edge midpoints of the target's part in the zone.
pub fn cover(scene: &Scene, eye: &Eye, zone: &Zone, target: &Base) -> Option<String> {
    let terrain = scene.terrain();
    let covering = |t: &&crate::geometry::TerrainFeature| COVERING.iter().any(|g| t.has(*g));
    if let Some(t) = terrain
        .iter()
        .filter(covering)
        .find(|t| t.contains_bases(&[*target]))
    {
        return Some(t.name.clone());
    }
    let grounds: Vec<(&str, Ground)> = terrain
        .iter()
        .enumerate()
        .filter(|(i, t)| !eye.ignored.contains(i) && covering(t))
        .map(|(_, t)| {
            let g = match &t.shape {
                Shape::Polyline { points, width } if width.0 <= 0.0 => Ground::Line(
                    LineString::from(points.iter().map(|p| (p.x, p.y)).collect::<Vec<_>>()),
                ),
                _ => Ground::Area(t.area()),
            };
            (t.name.as_str(), g)
        })
        .collect();
    if grounds.is_empty() {
        return None;
    }
    let (fl, fr) = eye.base.front_edge();
    let starts: Vec<Point> = FROM.iter().map(|f| fl.lerp(fr, *f)).collect();
    let part = zone.clip_base(target);
    let part = if part.is_empty() {
        target.corners().to_vec()
    } else {
        part
    };
    let mut ends = part.clone();
    ends.extend((0..part.len()).map(|i| part[i].lerp(part[(i + 1) % part.len()], 0.5)));
    let mut found: Option<&str> = None;
    for s in &starts {
        for t in &ends {
            let reach = entry_into_base(target, *s, *t).unwrap_or(*t);
            if (reach - *s).length() < 1e-9 {
                return None;
            }
            match grounds.iter().find(|(_, g)| g.crossed_by(*s, reach)) {
                Some((name, _)) => {
                    found.get_or_insert(name);
                }
                None => return None,
            }
        }
    }
    found.map(str::to_string)
}

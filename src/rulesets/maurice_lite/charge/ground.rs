//! What terrain means to a charge: sight, cover, woods and height.

use super::super::state::State;
use super::super::units::Unit;
use crate::geometry::{Base, Frame, Point, Shape, TerrainFeature, TerrainTag, line_of_sight};
use geo::{Distance as _, Euclidean};

/// House rule: sight is blocked by crests (drawn as lines or areas), and by
/// woods, towns and other obstructions drawn as areas. Linear obstacles such
/// as walls and hedges are low: they hide nothing, though they may give cover.
pub fn blocks_sight(t: &TerrainFeature) -> bool {
    let area = matches!(t.shape, Shape::Polygon { .. });
    t.has(TerrainTag::Crest)
        || (area
            && (t.has(TerrainTag::Obstruction)
                || t.has(TerrainTag::Woods)
                || t.has(TerrainTag::Town)))
}

/// Terrain that gives cover in combat: what the scenario tags `cover`
/// (chapter 5 leaves the choice to the players; the scenario records it).
pub fn gives_cover(t: &TerrainFeature) -> bool {
    t.has(TerrainTag::Cover)
}

/// Woods, which cavalry may not charge into.
pub fn is_woods(t: &TerrainFeature) -> bool {
    t.has(TerrainTag::Woods)
}

/// Whether `p` lies in or on the edge of the feature's ground.
pub fn holds_point(t: &TerrainFeature, p: Point) -> bool {
    let gp = geo::Point::new(p.x, p.y);
    match &t.shape {
        Shape::Polyline { points, width } if width.0 <= 0.0 => {
            let line = geo::LineString::new(
                points
                    .iter()
                    .map(|q| geo::coord! {x: q.x, y: q.y})
                    .collect(),
            );
            Euclidean.distance(&gp, &line) < 1e-6
        }
        _ => Euclidean.distance(&gp, &t.area()) < 1e-6,
    }
}

/// House rule: the height of a unit is the highest `elevation` among the
/// features holding the centre of its footprint; open ground is 0.
pub fn elevation(state: &State, unit: &Unit) -> f64 {
    let bases = unit.bases(&state.scenario.measure);
    let f = Frame::of(&bases);
    let centre = f.anchor - f.facing.unit_vector().scale(f.depth.get() / 2.0);
    state
        .scenario
        .terrain
        .iter()
        .filter_map(|t| t.elevation.filter(|_| holds_point(t, centre)))
        .fold(0.0, f64::max)
}

/// Whether `enemy` can be seen from `unit` (chapter 8: a unit charges only
/// enemies it could see at the start of the round). House rule: visible when
/// some straight line from a point of the unit's front edge to a point of
/// one of the enemy's bases is not blocked by terrain that [`blocks_sight`].
/// Other units never block sight.
pub fn visible(state: &State, unit: &Unit, enemy: &Unit) -> bool {
    let m = state.scenario.measure;
    let blocking: Vec<TerrainFeature> = state
        .scenario
        .terrain
        .iter()
        .filter(|t| blocks_sight(t))
        .cloned()
        .collect();
    if blocking.is_empty() {
        return true;
    }
    let (fl, fr) = Frame::of(&unit.bases(&m)).front_edge();
    let eyes: Vec<Point> = (0..=8).map(|i| fl.lerp(fr, i as f64 / 8.0)).collect();
    let marks: Vec<Point> = enemy.bases(&m).iter().flat_map(base_marks).collect();
    let tags = [
        TerrainTag::Crest,
        TerrainTag::Obstruction,
        TerrainTag::Woods,
        TerrainTag::Town,
    ];
    eyes.iter().any(|e| {
        marks
            .iter()
            .any(|p| line_of_sight(*e, *p, &blocking, &tags))
    })
}

/// Corners, edge midpoints and centre of a base: where sight lines aim.
fn base_marks(b: &Base) -> Vec<Point> {
    let c = b.corners();
    let mut out = c.to_vec();
    for i in 0..4 {
        out.push(c[i].lerp(c[(i + 1) % 4], 0.5));
    }
    out.push(b.center);
    out
}

//! What the ground hides and what it carries: line of sight (for the square
//! rule and the line of fire), the height a unit stands at (for firing over
//! units), and roads (for the road move).

use super::state::{State, Unit};
use crate::geometry::{Base, Point, TerrainFeature, TerrainTag, line_of_sight, segment_within};

/// House rule (the source names none): woods, towns and hills block sight
/// and fire across them; a unit in or on one sees out and is seen.
pub const BLOCKS_SIGHT: &[TerrainTag] = &[
    TerrainTag::Woods,
    TerrainTag::Town,
    TerrainTag::Hill,
    TerrainTag::Crest,
];

/// The first feature that blocks the straight line from `from` to `to`.
pub fn blocker(s: &State, from: Point, to: Point) -> Option<&TerrainFeature> {
    s.scenario.terrain.iter().find(|f| {
        BLOCKS_SIGHT.iter().any(|t| f.has(*t))
            && !line_of_sight(from, to, std::slice::from_ref(*f), BLOCKS_SIGHT)
    })
}

/// Whether `a` sees `b`: some line from one of `a`'s bases to one of
/// `b`'s is clear of terrain that blocks sight (units do not block it).
pub fn sees(s: &State, a: &Unit, b: &Unit) -> bool {
    let (ab, bb) = (s.bases(a), s.bases(b));
    ab.iter()
        .any(|x| bb.iter().any(|y| blocker(s, x.center, y.center).is_none()))
}

/// The height `bases` stand at: the highest hill under them (a hill with
/// no elevation counts 1), 0 on the flat.
pub fn level(s: &State, bases: &[Base]) -> f64 {
    s.scenario
        .terrain
        .iter()
        .filter(|t| (t.has(TerrainTag::Hill) || t.has(TerrainTag::Crest)) && t.touches_bases(bases))
        .map(|t| t.elevation.unwrap_or(1.0))
        .fold(0.0, f64::max)
}

/// Whether the straight move from `from` to `to` keeps to the scenario's
/// roads (and bridges) the whole way. House rule: the centre of the unit's
/// front edge is what keeps to the road.
pub fn on_road(s: &State, from: Point, to: Point) -> bool {
    segment_within(
        from,
        to,
        s.scenario
            .terrain
            .iter()
            .filter(|t| t.has(TerrainTag::Road) || t.has(TerrainTag::Bridge)),
    )
}

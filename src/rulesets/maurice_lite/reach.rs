//! Distances as the source measures them (chapter 1, Near the Enemy): as
//! the crow flies through any kind of terrain and through other bases, but
//! round impassable ground. A unit 3 BW from the enemy across a ravine that
//! takes 12 BW to go round is not near it.
//!
//! Everything the rules measure between pieces on the table goes through
//! here: near the enemy (march allowances, artillery, about-face, rally,
//! the event that rallies round the CinC) and the 2 BW that links a force.

use super::scenario::is_impassable;
use super::state::State;
use super::units::NEAR_ENEMY;
use crate::geometry::{Base, Detour, Shape, TerrainFeature};
use geo::{Buffer, LineString, MultiPolygon, Polygon};

/// A zero-width impassable line is given this width, so that a way can go
/// round its ends but not across it.
const THIN: f64 = 1e-4;

/// The impassable ground of a table, ready to measure round.
pub struct Barriers(Detour);

impl Barriers {
    /// The scenario's impassable features.
    pub fn of(state: &State) -> Barriers {
        Barriers(Detour::new(
            state
                .scenario
                .terrain
                .iter()
                .filter(|t| is_impassable(t))
                .map(ground),
        ))
    }

    /// Whether some part of `a` is at most `d` from some part of `b`,
    /// measured round impassable ground.
    pub fn within(&self, a: &[Base], b: &[Base], d: f64) -> bool {
        self.distance(&polygons(a), &polygons(b), d).is_some()
    }

    /// The distance from `a` to `b` round impassable ground, when it is at
    /// most `limit`.
    pub fn distance(&self, a: &[Polygon<f64>], b: &[Polygon<f64>], limit: f64) -> Option<f64> {
        self.0.distance(a, b, limit)
    }

    /// Whether any part of `area` is near (within 4 BW of) any of the enemy
    /// bases `enemies`.
    pub fn near_enemy(&self, area: &[Polygon<f64>], enemies: &[Base]) -> bool {
        self.distance(area, &polygons(enemies), NEAR_ENEMY.get())
            .is_some()
    }
}

/// Bases as polygons.
pub fn polygons(bases: &[Base]) -> Vec<Polygon<f64>> {
    bases.iter().map(|b| b.polygon()).collect()
}

/// The ground a feature covers; a line of no width becomes a thin band.
pub(super) fn ground(t: &TerrainFeature) -> MultiPolygon<f64> {
    let area = t.area();
    match &t.shape {
        Shape::Polyline { points, .. } if area.0.is_empty() && points.len() >= 2 => {
            LineString::from(points.iter().map(|p| (p.x, p.y)).collect::<Vec<_>>())
                .buffer(THIN / 2.0)
        }
        _ => area,
    }
}

//! What the terrain does (the source says only "subject to terrain" and
//! names light and heavy cover and ground that blocks sight without giving
//! cover): house rules by terrain tag, in one place.
//!
//! - Sight is blocked by woods, towns, obstructions and crests; only woods
//!   (and features tagged cover) give light cover and towns and walls heavy
//!   cover, so an obstruction or a crest blocks sight without cover.
//! - Woods, towns, marsh and difficult ground cost double to cross; water
//!   without a bridge and impassable ground cannot be entered.
//! - A unit stands on the highest hill under its centre (its elevation).

use crate::geometry::{Base, Point, TerrainFeature, TerrainTag};

/// Tags that block line of sight.
pub const BLOCKS_SIGHT: [TerrainTag; 4] = [
    TerrainTag::Woods,
    TerrainTag::Town,
    TerrainTag::Obstruction,
    TerrainTag::Crest,
];

/// Cover as the musketry and bombardment modifiers know it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cover {
    None,
    Light,
    Heavy,
}

/// The best cover any feature under the bases gives.
pub fn cover(terrain: &[TerrainFeature], bases: &[Base]) -> Cover {
    terrain
        .iter()
        .filter(|t| t.touches_bases(bases))
        .map(|t| {
            if t.has(TerrainTag::Town) || t.has(TerrainTag::Wall) {
                Cover::Heavy
            } else if t.has(TerrainTag::Woods) || t.has(TerrainTag::Cover) {
                Cover::Light
            } else {
                Cover::None
            }
        })
        .max()
        .unwrap_or(Cover::None)
}

/// Whether the bases stand in ground that costs double to cross.
pub fn difficult(terrain: &[TerrainFeature], bases: &[Base]) -> bool {
    difficult_feature(terrain, bases).is_some()
}

/// The first feature under the bases that costs double to cross.
pub fn difficult_feature<'a>(
    terrain: &'a [TerrainFeature],
    bases: &[Base],
) -> Option<&'a TerrainFeature> {
    terrain
        .iter()
        .find(|t| costs_double(t) && t.touches_bases(bases))
}

/// Whether crossing the feature costs double: woods, towns, marsh and
/// difficult ground (the move and the orders page's plan both ask).
pub fn costs_double(t: &TerrainFeature) -> bool {
    t.has(TerrainTag::Woods)
        || t.has(TerrainTag::Town)
        || t.has(TerrainTag::Marsh)
        || t.has(TerrainTag::Difficult)
}

/// Whether troops may not enter the feature, `bridged` where a bridge
/// takes them over it: impassable ground, and water off a bridge.
pub fn bars(t: &TerrainFeature, bridged: bool) -> bool {
    t.has(TerrainTag::Impassable) || (t.has(TerrainTag::Water) && !bridged)
}

/// Whether the bases stand where troops may not go.
pub fn impassable(terrain: &[TerrainFeature], bases: &[Base]) -> bool {
    impassable_feature(terrain, bases).is_some()
}

/// The first feature under the bases that troops may not enter.
pub fn impassable_feature<'a>(
    terrain: &'a [TerrainFeature],
    bases: &[Base],
) -> Option<&'a TerrainFeature> {
    let bridged = terrain
        .iter()
        .any(|t| t.has(TerrainTag::Bridge) && t.touches_bases(bases));
    terrain
        .iter()
        .find(|t| bars(t, bridged) && t.touches_bases(bases))
}

/// The height of the ground at a point: the highest hill holding it.
pub fn elevation(terrain: &[TerrainFeature], p: Point) -> f64 {
    let speck = [Base::new(
        p,
        crate::geometry::Angle(0.0),
        crate::geometry::Distance(0.01),
        crate::geometry::Distance(0.01),
    )];
    terrain
        .iter()
        .filter(|t| t.has(TerrainTag::Hill) && t.touches_bases(&speck))
        .map(|t| t.elevation.unwrap_or(1.0))
        .fold(0.0, f64::max)
}

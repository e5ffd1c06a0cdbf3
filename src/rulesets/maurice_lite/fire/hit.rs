//! The to-hit number of one shooting base and its modifiers.

use super::super::modifiers::{Modifier, total};
use super::super::scenario::is_difficult;
use super::super::units::Unit;
use crate::geometry::{Base, Frame, TerrainFeature, wholly_behind_front_line};

/// The basic score a to-hit die needs.
pub const BASIC_TO_HIT: i32 = 4;

/// What one base's dice are modified by.
pub struct Context<'a> {
    pub shooter: &'a Unit,
    pub shooter_base: &'a Base,
    pub target: &'a Unit,
    pub target_bases: &'a [Base],
    /// The feature giving the target base cover, if any.
    pub cover: Option<String>,
    pub terrain: &'a [TerrainFeature],
    /// From cards, on every die of this fire.
    pub cards: &'a [Modifier],
}

/// Every modifier on the base's dice, in a fixed order.
pub fn modifiers(c: &Context) -> Vec<Modifier> {
    let mut out = Vec::new();
    if c.target.formation.is_dense() {
        out.push(Modifier::new(
            format!("dense target ({})", c.target.formation.label()),
            1,
        ));
    }
    // House rule: the front line is the target unit's (for a line the same
    // as each base's; for a column or massed unit, that of its front rank).
    if !c.target_bases.is_empty()
        && wholly_behind_front_line(&Frame::of(c.target_bases), c.shooter_base)
    {
        out.push(Modifier::new("enfilade", 1));
    }
    if c.shooter.is_disrupted_shooter() {
        out.push(Modifier::new(
            format!("disrupted shooter ({} DISR)", c.shooter.disruption),
            -1,
        ));
    }
    if let Some(name) = &c.cover {
        out.push(Modifier::new(format!("target in cover ({name})"), -1));
    }
    if let Some(t) = c
        .terrain
        .iter()
        .find(|t| is_difficult(t) && t.touches_bases(&[*c.shooter_base]))
    {
        out.push(Modifier::new(
            format!("shooter in bad terrain ({})", t.name),
            -1,
        ));
    }
    out.extend(c.cards.iter().cloned());
    out
}

/// The score a die needs after `mods`, kept within 2 to 6: a natural 6
/// always hits and a natural 1 always misses, so nothing beyond matters.
pub fn need(mods: &[Modifier]) -> u32 {
    (BASIC_TO_HIT - total(mods)).clamp(2, 6) as u32
}

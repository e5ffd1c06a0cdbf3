//! Who may fire (chapter 7): by unit, then by base.

use super::super::scenario::water_under;
use super::super::state::State;
use super::super::units::{Arm, Formation, Unit};
use super::report::FireMode;
use crate::geometry::{Base, TerrainTag};
use crate::side::SideId;

/// The unit `id` if it may fire in `mode` for `side`, or why not. Targets
/// are looked at later, base by base.
pub fn unit<'a>(
    state: &'a State,
    side: &SideId,
    id: &str,
    mode: FireMode,
) -> Result<&'a Unit, String> {
    let u = state.unit(id).ok_or_else(|| "no such unit".to_string())?;
    if &u.side != side {
        return Err(format!("not a unit of {}", state.side_name(side)));
    }
    if !u.on_table() {
        return Err(if u.broken {
            "broken".into()
        } else {
            "not on the table".into()
        });
    }
    match (u.arm, mode) {
        (Arm::Cavalry, _) => return Err("cavalry do not shoot".into()),
        (Arm::Infantry, FireMode::Bombard) => return Err("only artillery bombards".into()),
        _ => {}
    }
    if u.formation == Formation::Column {
        return Err("in column: units in column may not fire".into());
    }
    if u.fired {
        return Err("has already fired this round".into());
    }
    Ok(u)
}

/// Why this base of `unit` may not fire, if it may not: no part of it in
/// water as chapter 5 counts it (streams, marshes, fords; not on a bridge),
/// and for artillery no part of it in woods.
pub fn base(state: &State, unit: &Unit, base: &Base) -> Option<String> {
    let terrain = &state.scenario.terrain;
    if let Some(t) = water_under(terrain, base) {
        return Some(format!("partly in water ({})", t.name));
    }
    if unit.arm == Arm::Artillery
        && let Some(t) = terrain
            .iter()
            .find(|t| t.has(TerrainTag::Woods) && t.touches_bases(&[*base]))
    {
        return Some(format!("artillery partly in woods ({})", t.name));
    }
    None
}

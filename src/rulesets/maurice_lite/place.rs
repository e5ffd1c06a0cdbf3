//! Placing a unit in contact with another, for the sandbox (`galloper
//! resolve --contact`): positions for tests and umpires without
//! trigonometry. Nothing in play calls it.

use super::state::State;
use crate::geometry::Frame;
use crate::ruleset::ContactEdge;

/// `state` with `unit` (in its own formation) standing with its front edge
/// on `edge` of `target`, facing it, centred on that edge and slid
/// `offset` BW to the right as the moved unit faces.
pub fn in_contact(
    state: &State,
    unit: &str,
    target: &str,
    edge: ContactEdge,
    offset: f64,
) -> Result<State, String> {
    if unit == target {
        return Err(format!("{unit} cannot touch itself"));
    }
    if !offset.is_finite() {
        return Err("the offset must be a number of BW".into());
    }
    let m = state.scenario.measure;
    let t = state
        .unit(target)
        .ok_or_else(|| format!("there is no unit {target}"))?;
    if !t.on_table() {
        return Err(format!("{} is not on the table", t.short()));
    }
    if state.unit(unit).is_none_or(|u| u.broken) {
        return Err(format!(
            "there is no unit {unit} that can stand on the table"
        ));
    }
    let f = Frame::of(&t.bases(&m));
    let (ahead, right) = (f.facing.unit_vector(), f.facing.right_vector());
    let (w, d) = (f.width.get(), f.depth.get());
    let (middle, facing) = match edge {
        ContactEdge::Front => (f.anchor, f.facing.turned(180.0)),
        ContactEdge::Rear => (f.anchor - ahead.scale(d), f.facing),
        ContactEdge::Left => (
            f.anchor - right.scale(w / 2.0) - ahead.scale(d / 2.0),
            f.facing.turned(90.0),
        ),
        ContactEdge::Right => (
            f.anchor + right.scale(w / 2.0) - ahead.scale(d / 2.0),
            f.facing.turned(-90.0),
        ),
    };
    let mut s = state.clone();
    if let Some(u) = s.unit_mut(unit) {
        u.anchor = Some(middle + facing.right_vector().scale(offset));
        u.facing = facing;
    }
    Ok(s)
}

//! Who may charge (chapter 8, limitations on charging units) and how a
//! charging force divides into chargers and supports.

use super::super::orders::ChargeOrder;
use super::super::units::{Arm, Formation, Unit};
use super::rule;
use crate::ruleset::Violation;

/// A refusal of one charge order.
pub fn refuse(unit: &str, rule: &str, msg: impl Into<String>) -> Violation {
    Violation::new(&["charges", unit], Some(unit), rule, msg)
}

/// The limitations that depend on the unit alone: its arm, its formation
/// and its disruption. (A charge order has no formation change in it, so the
/// ban on changing formation holds by construction.)
pub fn may_charge(unit: &Unit) -> Result<(), Violation> {
    let id = unit.id.as_str();
    if unit.arm == Arm::Artillery {
        return Err(refuse(
            id,
            rule::WHO,
            format!(
                "{} is artillery: only infantry and cavalry charge",
                unit.short()
            ),
        ));
    }
    if unit.formation == Formation::Column {
        return Err(refuse(
            id,
            rule::COLUMN,
            format!("{} is in column: no unit charges in column", unit.short()),
        ));
    }
    if unit.disruption >= unit.bases_count() {
        return Err(refuse(
            id,
            rule::DISRUPTED,
            format!(
                "{} has {} DISR: a unit with four may not charge",
                unit.short(),
                unit.disruption
            ),
        ));
    }
    Ok(())
}

/// Every charger and supporter is in the force, and named once.
pub fn check_roles(
    force: &[String],
    charges: &[ChargeOrder],
    supports: &[super::super::orders::UnitMove],
) -> Vec<Violation> {
    let mut out = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for c in charges {
        let id = c.unit.as_str();
        if !force.iter().any(|f| f == id) {
            out.push(refuse(
                id,
                rule::ACTIVATION,
                format!("{id} is not in the activated force"),
            ));
        } else if seen.contains(&id) {
            out.push(refuse(id, rule::ACTIVATION, format!("{id} charges twice")));
        }
        seen.push(id);
    }
    let mut moved: Vec<&str> = Vec::new();
    for s in supports {
        let id = s.unit.as_str();
        let v = |msg: String| Violation::new(&["moves", id], Some(id), rule::SUPPORT, msg);
        if !force.iter().any(|f| f == id) {
            out.push(v(format!("{id} is not in the activated force")));
        } else if seen.contains(&id) {
            out.push(v(format!(
                "{id} charges: a charging unit makes no other move"
            )));
        } else if moved.contains(&id) {
            out.push(v(format!("{id} has two moves: give one list of steps")));
        }
        moved.push(id);
    }
    out
}

/// At least half the units of the force must charge; the rest (no more than
/// half) may move in support.
pub fn half_rule(force: usize, charging: usize) -> Option<Violation> {
    (2 * charging < force).then(|| {
        Violation::new(
            &["charges"],
            None,
            rule::ACTIVATION,
            format!(
                "only {charging} of the {force} units of the force can charge; at least half must"
            ),
        )
    })
}

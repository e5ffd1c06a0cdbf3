//! Volleys and bombardment (chapter 7), as a pure module: [`plan`] works out
//! who fires at what without dice, [`resolve`] rolls and applies the result.
//!
//! Each shooting base lays a fire zone one base wide straight ahead. The
//! first base under it (even fractionally) decides: a friend blocks it, an
//! enemy is the target. Obstructions end the zone 1 BW past where they
//! first appear; crests hide what is behind them. When nothing can be shot
//! straight ahead the zone may turn up to 45 degrees either way; the
//! player's aims choose among what it then reaches, else the nearest (then
//! the most nearly ahead) is taken. House rules are marked in the modules:
//! [`scene`], [`cover`], [`hit`], [`target`], [`eligibility`].

mod aims;
pub mod cover;
pub mod eligibility;
pub mod hit;
mod plan;
pub mod report;
pub mod roll;
pub mod scene;
pub mod target;

pub use aims::check_aims;
pub use report::{DisruptRoll, FireMode, FirePlan, FireReport, Range, Shot};
pub use roll::{dice_per_base, disrupt_number};

use super::modifiers::Modifier;
use super::orders::{Aim, Sweep};
use super::state::State;
use crate::dice::Dice;
use crate::event::Event;
use crate::side::SideId;

pub const RULE_WHO: &str = "7. Who may fire";
pub const RULE_TARGETS: &str = "7. Fire zones and prioritising targets";
pub const RULE_BOMBARD: &str = "7. Bombardment";

/// Short range (musketry and canister), in BW from the shooter's front.
pub const SHORT_RANGE: f64 = 4.0;
/// Long range (bombardment) reaches this far, in BW.
pub const LONG_RANGE: f64 = 16.0;

/// One side's fire in one phase, as the round asks for it.
pub struct FireRequest<'a> {
    /// The shooting side.
    pub side: &'a SideId,
    pub mode: FireMode,
    /// Volley: every unit of the side that may fire (the ineligible are
    /// left out, with the reason, in the plan). Bombard: the activated force.
    pub shooters: Vec<String>,
    /// The order in which shooters roll, across the table as the shooting
    /// side sees it.
    pub order: Sweep,
    pub aims: &'a [Aim],
    /// From cards, on every to-hit die of this fire.
    pub to_hit: Vec<Modifier>,
}

/// Who fires, at what, with which zone and modifiers. No dice.
pub fn plan(state: &State, req: &FireRequest) -> FirePlan {
    plan::plan(state, req)
}

/// Roll to hit for every planned shot in order, then to disrupt for each
/// unit hit; place DISR, break units, put smoke on artillery that fired and
/// mark every unit that fired. Fire traces go to `state.traces`, one public
/// event per roll to `events`.
pub fn resolve(
    state: &mut State,
    plan: &FirePlan,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> FireReport {
    roll::resolve(state, plan, dice, events)
}

/// Whether the artillery unit `unit` may be activated to bombard now: it is
/// artillery on the table, has not fired this round, may fire from where it
/// stands, has no target at short range and has one at long range.
pub fn can_bombard(state: &State, unit: &str) -> Result<(), String> {
    let u = state
        .unit(unit)
        .ok_or_else(|| format!("there is no unit {unit}"))?;
    let u = eligibility::unit(state, &u.side, unit, FireMode::Bombard)
        .map_err(|why| format!("{}: {why}", u.short()))?;
    let scene = scene::Scene::new(state);
    let bases = u.bases(&state.scenario.measure);
    if let Some(why) = bases.iter().find_map(|b| eligibility::base(state, u, b)) {
        return Err(format!("{}: {why}", u.short()));
    }
    if let Some(t) = plan::short_range_target(&scene, u) {
        return Err(format!(
            "{}: {}",
            u.short(),
            plan::bombard_refused(state, &t)
        ));
    }
    let mut why = String::new();
    for i in 0..bases.len() {
        let Some(eye) = scene.eye(u, i) else {
            continue;
        };
        match target::choose(&scene, &eye, LONG_RANGE, None) {
            Ok(_) => return Ok(()),
            Err(w) => why = w,
        }
    }
    Err(format!("{}: no target at long range ({why})", u.short()))
}

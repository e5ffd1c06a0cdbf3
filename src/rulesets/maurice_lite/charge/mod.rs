//! Charges and combat (chapter 8), as a pure module: [`check`] judges a
//! charge action's orders, [`resolve`] carries it out, from the moves to the
//! fall backs, and returns a [`CombatReport`].
//!
//! - [`eligibility`]: who may charge, how the force divides.
//! - [`movement`], [`woods`]: the charge move and its contact.
//! - [`support`]: the non-charging units' moves.
//! - [`engagement`], [`cover`]: who fights whom, flanks and cover.
//! - [`score`], [`outcome`]: combat scores and results.
//! - [`fallback`]: attackers falling back.
//! - [`ground`]: sight, cover, woods and height.

pub mod cover;
pub mod eligibility;
pub mod engagement;
pub mod fallback;
pub mod ground;
pub mod movement;
pub mod outcome;
pub mod report;
pub mod score;
pub mod support;
pub mod woods;

pub use report::{ChargeRecord, CombatReport, CombatResult, Engagement, FallBack, Score};

use super::march;
use super::modifiers::Modifier;
use super::orders::{ChargeOrder, UnitMove};
use super::state::{State, Trace, TraceKind};
use super::words::{self, What};
use crate::dice::Dice;
use crate::event::{Event, Facts};
use crate::ruleset::Violation;
use crate::side::SideId;

/// Bases closer than this touch.
pub(crate) const TOUCH: f64 = 1e-5;
/// A point this close to an edge lies on it.
pub(crate) const EDGE: f64 = 1e-4;

/// Rule names, as violations and events cite them.
pub mod rule {
    pub const ACTIVATION: &str =
        "8. Charge: at least half the force charges, the rest may move in support";
    pub const WHO: &str = "8. Limitations on charging units: infantry and cavalry only";
    pub const COLUMN: &str =
        "8. Limitations on charging units: no charge in column, no formation change";
    pub const DISRUPTED: &str = "8. Limitations on charging units: not with four DISR";
    pub const CAVALRY_WOODS: &str = "8. Limitations on charging units: cavalry and woods";
    pub const INFANTRY_V_CAVALRY: &str =
        "8. Limitations on charging units: infantry may not charge cavalry";
    pub const VISIBLE: &str =
        "8. Limitations on charging units: only enemies visible at the start of the round";
    pub const INTERPENETRATION: &str =
        "8. Limitations on charging units: a charge never interpenetrates";
    pub const MOVE: &str = "8. Charge move: full allowance to contact, a forward wheel of at most 1 BW, then straight ahead";
    pub const CONTACT: &str =
        "8. Contacting the enemy: front edge only, stopping at the first enemy met";
    pub const SUPPORT: &str =
        "8. Non-charging units: normal movement, no retrograde, no contact with the enemy";
}

/// A charge action, as the round hands it over.
pub struct ChargeRequest<'a> {
    /// The active side.
    pub side: &'a SideId,
    /// The activated force (already checked as a legal force).
    pub force: &'a [String],
    /// The charging units, in the order they move.
    pub charges: &'a [ChargeOrder],
    /// Moves of the force's non-charging units, after the charges.
    pub supports: &'a [UnitMove],
    /// Card modifiers for every attacking unit's score.
    pub attack: Vec<Modifier>,
    /// Card modifiers for one defending unit each.
    pub defence: Vec<(String, Modifier)>,
}

/// Every refusal of a charge action's orders, with its rule; empty means
/// legal. Charges are planned in order, then supports, each on the table as
/// the earlier moves leave it.
pub fn check(state: &State, req: &ChargeRequest) -> Vec<Violation> {
    let mut out = eligibility::check_roles(req.force, req.charges, req.supports);
    if !out.is_empty() {
        return out;
    }
    let mut scratch = state.clone();
    let mut legal = 0;
    // Laid out once; each charge planned lays out again only what moved.
    let mut lay = super::layouts::Layouts::of(&scratch);
    for c in req.charges {
        lay.refresh(&scratch);
        match movement::plan_on(&scratch, state, req.side, c, &lay) {
            Ok(p) => {
                movement::apply(&mut scratch, &p);
                legal += 1;
            }
            Err(v) => out.push(v),
        }
    }
    for mv in req.supports {
        match support::plan(&scratch, req.side, mv) {
            Ok(p) => march::apply(&mut scratch, &p),
            Err(v) => out.push(v),
        }
    }
    if out.is_empty()
        && let Some(v) = eligibility::half_rule(req.force.len(), legal)
    {
        out.push(v);
    }
    out
}

/// Carry out a charge action: move chargers and supports, find the
/// engagements, score every engaged unit with one die, resolve defenders then
/// attackers, fall back. Orders that became impossible since they were
/// checked are refused one by one and the event says why; the rest go ahead
/// (house rule: the half-the-force rule is judged on receipt only).
pub fn resolve(
    state: &mut State,
    req: &ChargeRequest,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> CombatReport {
    let start = state.clone();
    let mut report = CombatReport::default();
    let mut attackers: Vec<String> = Vec::new();
    // Laid out once, and again only for what each charge moved.
    let mut lay = super::layouts::Layouts::of(state);
    for c in req.charges {
        lay.refresh(state);
        let planned = if !req.force.contains(&c.unit) {
            Err(eligibility::refuse(
                &c.unit,
                rule::ACTIVATION,
                "it is not in the activated force",
            ))
        } else if attackers.contains(&c.unit) {
            Err(eligibility::refuse(
                &c.unit,
                rule::ACTIVATION,
                "it has already charged",
            ))
        } else {
            movement::plan_on(state, &start, req.side, c, &lay)
        };
        match planned {
            Ok(p) => {
                movement::apply(state, &p);
                super::cinc::passed_over(state, req.side, &p.swept, events);
                let units = p
                    .contacted
                    .iter()
                    .filter_map(|id| state.unit(id).map(words::unit))
                    .collect();
                let mut notes = Vec::new();
                if p.wheel.get() > 0.0 {
                    notes.push(format!("wheeling {:.1} BW first", p.wheel.get()));
                }
                events.push(words::event(
                    What::Charges,
                    Facts {
                        unit: Some(words::unit_id(state, &c.unit)),
                        units,
                        distance: Some(p.distance.get()),
                        notes,
                        place: p.difficult.clone(),
                        from: p.path.first().copied(),
                        to: p.path.last().copied(),
                        ..words::side(state, req.side)
                    },
                ));
                state.traces.push(Trace {
                    unit: p.unit.clone(),
                    side: req.side.clone(),
                    points: p.path.clone(),
                    kind: TraceKind::Charge,
                });
                attackers.push(p.unit.clone());
                report.charges.push(ChargeRecord {
                    unit: p.unit,
                    path: p.path,
                    distance: p.distance,
                    contacted: p.contacted,
                    difficult_disr: p.difficult.is_some(),
                    refused: None,
                });
            }
            Err(v) => {
                events.push(words::event(
                    What::NoCharge,
                    Facts {
                        unit: Some(words::unit_id(state, &c.unit)),
                        reason: Some(v.message.clone()),
                        rule: Some(v.rule.to_string()),
                        ..words::side(state, req.side)
                    },
                ));
                report.charges.push(ChargeRecord {
                    unit: c.unit.clone(),
                    refused: Some(format!("{} [{}]", v.message, v.rule)),
                    ..ChargeRecord::default()
                });
            }
        }
    }
    for mv in req.supports {
        let charging = req.charges.iter().any(|c| c.unit == mv.unit);
        let planned = if req.force.contains(&mv.unit) && !charging {
            support::plan(state, req.side, mv)
        } else {
            Err(Violation::new(
                &["moves", &mv.unit],
                Some(&mv.unit),
                rule::SUPPORT,
                "only the force's non-charging units move in support",
            ))
        };
        match planned {
            Ok(p) => {
                march::apply(state, &p);
                super::cinc::passed_over(state, req.side, &p.swept, events);
                events.push(words::event(
                    What::Support,
                    Facts {
                        unit: Some(words::unit_id(state, &mv.unit)),
                        distance: Some(p.distance.get()),
                        notes: p.notes.clone(),
                        from: p.trace.first().copied(),
                        to: p.trace.last().copied(),
                        ..words::side(state, req.side)
                    },
                ));
                state.traces.push(Trace {
                    unit: p.unit.clone(),
                    side: req.side.clone(),
                    points: p.trace.clone(),
                    kind: TraceKind::Move,
                });
                report.supports.push(p.unit);
            }
            Err(v) => events.push(words::event(
                What::Stays,
                Facts {
                    unit: Some(words::unit_id(state, &mv.unit)),
                    reason: Some(v.message.clone()),
                    rule: Some(v.rule.to_string()),
                    ..words::side(state, req.side)
                },
            )),
        }
    }
    report.engagements = engagement::engagements(state, &attackers);
    for a in &attackers {
        let (units, notes): (Vec<_>, Vec<_>) = report
            .engagements
            .iter()
            .filter(|e| &e.attacker == a)
            .map(|e| {
                let defender = words::unit_id(state, &e.defender);
                let mut how = vec![if e.contact {
                    "in contact"
                } else {
                    "within 1 BW"
                }];
                if e.flanked {
                    how.push("on its flank or rear");
                }
                if e.cover {
                    how.push("which has cover");
                }
                (defender, how.join(", "))
            })
            .unzip();
        events.push(words::event(
            What::Engages,
            Facts {
                unit: Some(words::unit_id(state, a)),
                units,
                notes,
                ..words::side(state, req.side)
            },
        ));
    }
    let order = score::fighters(state, &attackers, &report.engagements);
    report.scores = score::score_all(
        state,
        &order,
        &attackers,
        &report.engagements,
        req,
        dice,
        events,
    );
    report.results = outcome::resolve_results(
        state,
        &attackers,
        &report.engagements,
        &report.scores,
        events,
    );
    report.fall_backs = fallback::fall_back_all(state, &attackers, events);
    report
}

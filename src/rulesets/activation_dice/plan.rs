//! What a side may order now, for the orders page (issue 32): in set-up
//! the units it places, where the scenario suggests; in its turn each
//! unit that may still activate, how far it may go for the dice it may
//! risk, the enemies it may shoot at, charge or close with, and its other
//! choices. Every figure is asked of the ruleset's own movement, sight
//! and options code. The page's writer (`page.js`, beside this file)
//! turns what the player drew into `deploy:` or `turn:` orders.

use super::combat::shootable;
use super::ground;
use super::movement::allowance_why;
use super::options;
use super::scenario::{Arm, Edge};
use super::setup::{count, default_deployment, placer, suggested};
use super::state::{Formation, Phase, State, Unit};
use super::view::unit_line;
use crate::geometry::{Frame, TerrainTag};
use crate::side::SideId;
use crate::view::plan::{
    Choice, Field, FieldKind, Ground, MoveShape, Outlines, Plan, Reach, TargetChoice, UnitPlan,
    own_first,
};
use serde_json::{Map, Value, json};

/// Every formation, for the ones an arm may take.
const FORMATIONS: [Formation; 6] = [
    Formation::Line,
    Formation::Column,
    Formation::Square,
    Formation::Mounted,
    Formation::Limbered,
    Formation::Unlimbered,
];

/// The plan for `side`, when it owes orders: a placement or its turn
/// (consulted or not).
pub fn plan(s: &State, side: &SideId) -> Option<Plan> {
    match &s.phase {
        Phase::Deploy { placement } if &placer(s, *placement) == side => {
            Some(deployment(s, side, *placement))
        }
        Phase::Turn { side: t, .. } | Phase::Consult { side: t, .. } if t == side => {
            Some(turn(s, side))
        }
        _ => None,
    }
}

/// The formations `u` may stand in, its own first; none when it has no
/// other (cavalry).
fn formations(u: &Unit) -> Vec<String> {
    own_first(u.formation, FORMATIONS, |f| f.fits(u.arm()))
        .into_iter()
        .map(|f| f.name().to_string())
        .collect()
}

fn edge_word(e: Edge) -> &'static str {
    match e {
        Edge::South => "south",
        Edge::North => "north",
    }
}

/// Set-up: every unit still to place, at the place the scenario suggests
/// (which is what a side that draws nothing sends); placement 1 puts down
/// only half, so each unit there says whether it is placed now.
fn deployment(s: &State, side: &SideId, placement: u32) -> Plan {
    let (least, most) = count(s, placement);
    let want = if least == most {
        least.to_string()
    } else {
        format!("{least} or {most}")
    };
    let chosen: Vec<String> = default_deployment(s, placement)
        .units
        .into_iter()
        .map(|p| p.unit)
        .collect();
    let zone = 3.0 * s.short();
    let (w, h) = (s.scenario.table.width.get(), s.scenario.table.height.get());
    let units = s
        .units
        .iter()
        .filter(|u| &u.side == side && u.at.is_none() && u.live())
        .filter_map(|u| {
            let p = suggested(s, &u.id)?;
            let mut fields = Vec::new();
            if placement == 1 {
                fields.push(
                    Field::new("place", "Place it now", FieldKind::Yes)
                        .default_value(if chosen.contains(&u.id) {
                            "true"
                        } else {
                            "false"
                        })
                        .help(format!(
                            "placement 1 puts down {want} units; the others come in placement 3"
                        )),
                );
            }
            let formation = p.formation.unwrap_or(u.formation);
            Some(UnitPlan {
                id: u.id.clone(),
                label: u.name.clone(),
                at: p.at,
                facing: p
                    .facing
                    .unwrap_or_else(|| s.forward(side))
                    .normalized()
                    .degrees(),
                formation: formation.name().into(),
                reach: Some(Reach {
                    full: w.hypot(h),
                    turned: None,
                    road: None,
                    shape: MoveShape::Free,
                    shortened_by: vec![format!(
                        "placed within 1 L ({zone:.1} cm) of your edge, on the table, clear of other units and impassable ground: checked on receipt"
                    )],
                    ground: Vec::new(),
                }),
                formations: formations(&Unit {
                    formation,
                    ..u.clone()
                }),
                targets: Vec::new(),
                fields,
                notes: vec![unit_line(s, u, &u.name, &u.id)],
            })
        })
        .collect();
    Plan {
        units,
        fields: Vec::new(),
        notes: vec![
            format!(
                "Placement {placement}: put down {want} units within 1 L ({zone:.1} cm) of your edge"
            ),
            "The point you drop a unit on is the centre of its front edge; each unit is placed where the scenario suggests until you move it".into(),
        ],
        extra: json!({
            "phase": "deploy",
            "placement": placement,
            "least": least,
            "most": most,
            "edge": edge_word(s.edge(side)),
            "zone": zone,
            "height": h,
        }),
        ground: Vec::new(),
    }
}

/// The dice unit `u` may roll: one when its officer is dead.
fn most_dice(u: &Unit) -> u32 {
    if u.status.officer_killed { 1 } else { 3 }
}

/// Successes a change of formation costs `u`: a battery limbers or
/// unlimbers for two.
fn change_cost(u: &Unit) -> u32 {
    if u.arm() == Arm::Artillery { 2 } else { 1 }
}

/// Half the depth of `u` standing in `f`: how far behind its front centre
/// the centre it pivots about lies.
fn half_depth(s: &State, u: &Unit, f: Formation) -> f64 {
    let at = u.at.unwrap_or_default();
    Frame::of(&s.bases_as(u, at, u.facing, f)).depth.get() / 2.0
}

/// The side's turn: each unit that may still activate, and the turn's
/// own choices.
fn turn(s: &State, side: &SideId) -> Plan {
    // Moves are tried on a copy, as the options panel does.
    let mut work = s.clone();
    let mut extra = Map::new();
    let mut units = Vec::new();
    let mut outlines = Outlines::default();
    for i in 0..s.units.len() {
        let u = &s.units[i];
        if !(u.placed() && &u.side == side && !u.activated) {
            continue;
        }
        let (p, x) = unit(s, &mut work, i, &mut outlines);
        extra.insert(u.id.clone(), x);
        units.push(p);
    }
    let order: Vec<Choice> = units
        .iter()
        .map(|u| Choice::new(u.id.clone(), format!("{} [{}]", u.label, u.id)))
        .collect();
    let fields = vec![
        Field::new("sequence", "Activation order", FieldKind::Many { options: order }).help(
            "the units ticked activate first, in the order ticked; the others follow in the list's order. A turnover (two failures) ends your turn: the units after it do not activate",
        ),
        Field::new("consult", "Consult me after each activation", FieldKind::Yes)
            .default_value("false")
            .help("only the first activation is played; then you send the next"),
        Field::new(
            "turnover",
            "The unit that turns over",
            FieldKind::One {
                options: vec![
                    Choice::new("act", "still carries out its successes"),
                    Choice::new("hold", "gives them up"),
                ],
            },
        )
        .default_value("act"),
        Field::new(
            "after_blunder",
            "After a blunder moved or fired a unit",
            FieldKind::One {
                options: vec![
                    Choice::new("carry_on", "it goes on with its orders"),
                    Choice::new("stop", "it spends nothing more"),
                ],
            },
        )
        .default_value("carry_on"),
    ];
    let notes = vec![
        "Each unit you order activates once: it rolls its dice (its coloured ones first), a die at or above its quality is a success, and its actions are carried out in order as far as its successes pay. Two failures are a turnover and end your turn. Ordering no unit ends your turn".into(),
        "A drawn move is written as one move per success straight to the point (forward within 45 degrees of its facing), then a pivot to the drawn facing (1 success per 45 degrees; a column turns 45 free), then the change of formation, then the shot or the charge: the unit ends where it was dropped. A turn without a move pivots about its centre".into(),
        "Left to the orders file: scripts for exactly one, two or three successes (`one:`, `two:`, `three:`), moves `ahead:` or at the double to a point, `hold`".into(),
    ];
    Plan {
        units,
        fields,
        notes,
        extra: json!({ "phase": "turn", "short": s.short(), "units": Value::Object(extra) }),
        ground: outlines.list,
    }
}

/// The ground that stops or slows a move of at most `full` cm, by the
/// rules the move obeys ([`ground::bars`], [`ground::costs_double`]):
/// water a bridge crosses is left to the server, with a warning.
fn ground(s: &State, full: f64, outlines: &mut Outlines) -> Vec<Ground> {
    let terrain = &s.scenario.terrain;
    let mut out = Vec::new();
    for t in terrain {
        let g = if ground::bars(t, false) {
            let area = t.area();
            let bridged = terrain
                .iter()
                .any(|b| b.has(TerrainTag::Bridge) && b.intersects_area(&area));
            let why = if ground::bars(t, true) {
                "impassable ground: no unit may enter it"
            } else {
                "water: crossed only by a bridge"
            };
            Ground::forbidden(outlines.index(t), why).soft(bridged && !ground::bars(t, true))
        } else if ground::costs_double(t) {
            Ground::at_most(
                outlines.index(t),
                full,
                format!(
                    "difficult ground costs double: each cm in it counts 2 of its {full:.1} cm"
                ),
            )
            .costing(2.0)
        } else {
            continue;
        };
        out.push(g);
    }
    out
}

/// A unit's plan and what the writer needs to know of it.
fn unit(s: &State, work: &mut State, i: usize, outlines: &mut Outlines) -> (UnitPlan, Value) {
    let u = &s.units[i];
    let most = most_dice(u);
    let notes = options::unit_lines(s, work, i)
        .into_iter()
        .map(|l| {
            let tag = format!("[{}] ", u.id);
            l.trim_start()
                .strip_prefix(&tag)
                .map_or(l.clone(), str::to_string)
        })
        .collect();
    let mut p = UnitPlan {
        id: u.id.clone(),
        label: u.name.clone(),
        at: u.at.unwrap_or_default(),
        facing: u.facing.normalized().degrees(),
        formation: u.formation.name().into(),
        reach: None,
        formations: Vec::new(),
        targets: Vec::new(),
        fields: Vec::new(),
        notes,
    };
    let mut x = json!({
        "dice": most,
        "arm": match u.arm() {
            Arm::Infantry => "infantry",
            Arm::Cavalry => "cavalry",
            Arm::Artillery => "artillery",
        },
        "broken": u.status.broken_line,
    });
    let dice = Field::new(
        "dice",
        "Dice to risk",
        FieldKind::Number {
            min: 1,
            max: i64::from(most),
        },
    )
    .help(if most == 1 {
        "its officer is dead: one die only"
    } else {
        "left empty: as many as the drawn actions need. Two failures end your turn"
    });
    if u.status.rout {
        x["rout"] = json!(true);
        p.fields.push(
            Field::new("rally", "Try to rally it", FieldKind::Yes)
                .default_value("false")
                .help("three dice: three successes stop the rout, and that is all it does"),
        );
        return (p, x);
    }
    let foes = s.contacts(u);
    if !foes.is_empty() {
        // In melee: seize the initiative, recoil or change formation.
        x["melee"] = json!(true);
        if u.arm() == Arm::Infantry {
            p.formations = formations(u);
        }
        if u.arm() != Arm::Artillery {
            p.targets.push(TargetChoice {
                kind: "seize".into(),
                label: "Seize the initiative: fight on (2 successes)".into(),
                options: foes
                    .iter()
                    .map(|e| Choice::new(e.id.clone(), format!("{} [{}]", e.name, e.id)))
                    .collect(),
            });
            p.fields.push(
                Field::new("recoil", "Recoil from the melee", FieldKind::Yes)
                    .default_value("false")
                    .help("2 successes: it falls back and faces the enemy"),
            );
        }
        p.fields.push(dice);
        return (p, x);
    }
    p.formations = formations(u);
    // Its move in each formation it may take, and the centre it pivots
    // about, for the writer to place its moves and pivot.
    let mut allow = Map::new();
    let mut half = Map::new();
    for f in FORMATIONS.iter().filter(|f| f.fits(u.arm())) {
        let v = Unit {
            formation: *f,
            ..u.clone()
        };
        allow.insert(f.name().into(), json!(allowance_why(s, &v).0));
        half.insert(f.name().into(), json!(half_depth(s, u, *f)));
    }
    let (step, why) = allowance_why(s, u);
    let moves = most.saturating_sub(u32::from(u.status.broken_line));
    let full = step * f64::from(moves);
    // The farthest it goes when it also turns or changes formation: a
    // column's first 45 degrees are free; the writer checks each case.
    let mut turned = if u.formation == Formation::Column {
        full
    } else {
        step * f64::from(moves.saturating_sub(1))
    };
    for f in FORMATIONS
        .iter()
        .filter(|f| f.fits(u.arm()) && **f != u.formation)
    {
        let other = allow[f.name()].as_f64().unwrap_or(0.0);
        turned = turned.max(other * f64::from(moves.saturating_sub(change_cost(u))));
    }
    if full > 0.0 || turned > 0.0 {
        let mut shortened_by = why;
        shortened_by.push(if step > 0.0 {
            format!(
                "one move of {step:.1} cm per success, up to {moves}: each move is one die more to risk"
            )
        } else {
            format!(
                "it moves only once it changes formation ({}), one move per success left",
                if u.arm() == Arm::Artillery {
                    "2 successes"
                } else {
                    "1 success"
                }
            )
        });
        if u.status.broken_line {
            shortened_by.push("its first success reforms the line".into());
        }
        shortened_by.push(
            "difficult ground costs double; friends, impassable ground and the table's edge stop it; an enemy met is charged: checked when the turn is played".into(),
        );
        p.reach = Some(Reach {
            full,
            turned: (turned != full).then_some(turned),
            road: None,
            shape: MoveShape::Forward45,
            shortened_by,
            ground: ground(s, full, outlines),
        });
    }
    let label =
        |e: &Unit, cm: f64| Choice::new(e.id.clone(), format!("{} [{}], {cm:.1} cm", e.name, e.id));
    if u.troop.range > 0 {
        // Limbered guns may unlimber first: their targets are the ones
        // they would have unlimbered.
        let limbered = u.formation == Formation::Limbered;
        if limbered {
            work.units[i].formation = Formation::Unlimbered;
        }
        let shots = shootable(work, i);
        work.units[i].formation = u.formation;
        let options: Vec<Choice> = shots
            .into_iter()
            .filter(|&(_, k)| s.units[k].side != u.side)
            .map(|(cm, k)| label(&s.units[k], cm))
            .collect();
        if !options.is_empty() {
            p.targets.push(TargetChoice {
                kind: "fire".into(),
                label: if limbered {
                    "Fire at (once unlimbered)".into()
                } else {
                    "Fire at".into()
                },
                options,
            });
            p.fields.push(
                Field::new("aimed", "An aimed shot", FieldKind::Yes)
                    .default_value("false")
                    .help("2 successes instead of 1: the target at -1"),
            );
        }
    }
    if u.arm() == Arm::Artillery {
        p.fields.push(
            Field::new("canister", "Load canister first", FieldKind::Yes)
                .default_value("false")
                .help("2 successes: a shot within 1 M rolls a critical event for every disorder"),
        );
    }
    let charges = options::charges(s, work, i, step);
    if !charges.is_empty() {
        let within = |cm: f64| crate::geometry::limit::within(cm, step);
        p.targets.push(TargetChoice {
            kind: "charge".into(),
            label: "Charge: a move at it (beyond its move, at the double: 2 successes)".into(),
            options: charges
                .iter()
                .map(|&(k, cm)| label(&s.units[k], cm))
                .collect(),
        });
        let seize: Vec<Choice> = charges
            .iter()
            .filter(|&&(_, cm)| within(cm))
            .map(|&(k, cm)| label(&s.units[k], cm))
            .collect();
        if !seize.is_empty() {
            p.targets.push(TargetChoice {
                kind: "seize".into(),
                label: "Seize the initiative: close and fight, the enemy at -1 (2 successes)"
                    .into(),
                options: seize,
            });
        }
        x["double"] = json!(
            charges
                .iter()
                .filter(|&&(_, cm)| !within(cm))
                .map(|&(k, _)| s.units[k].id.clone())
                .collect::<Vec<_>>()
        );
    }
    p.fields.insert(0, dice);
    x["allow"] = Value::Object(allow);
    x["half"] = Value::Object(half);
    (p, x)
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;

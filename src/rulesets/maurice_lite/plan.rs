//! What a Maurice Lite side can do now, for the orders page (issue 32):
//! the units it may order, how far each may march, its formations and the
//! enemies it may charge, and the round's other choices (command, force,
//! cards, volleys, CinC) as form fields. Everything comes from the rules'
//! own functions (allowances, the options panel, the template's default
//! deployment and standing reactions); the writer, `page.js` beside this
//! file, turns what the player drew into the `orders:` block.
//!
//! A move's point is the unit's front centre, as `deploy:`'s `at` and the
//! template's unit list name it; a march writes steps, so the writer turns
//! a drawn move into them: a line or massed unit goes forward, wheels and
//! goes forward, or wheels, goes forward and wheels back to the drawn
//! facing (or all of it backward), a column or battery
//! follows a path whose last leg sets its facing. `extra.units` gives the
//! writer each unit's frame for that.

use super::forces::Paths;
use super::orders::{ActionKind, FormationChange, Side2, Step, UnitMove};
use super::reach::polygons;
use super::state::{Pending, Phase, State};
use super::units::{
    ARTILLERY_SLOW_CAP, Arm, Formation, NEAR_ENEMY_CAP, Unit, allowance, half_round_up,
};
use crate::geometry::Frame;
use crate::ruleset::Memo;
use crate::side::{SideId, Sides};
use crate::view::plan::{
    Choice, Field, FieldKind, Ground, MoveShape, Outlines, Plan, Reach, TargetChoice, UnitPlan,
    own_first,
};
use serde_json::{Map, Value, json};

/// The plan of `side` for the step `s` stands at; none once the game is over.
pub fn plan(s: &State, side: &SideId) -> Option<Plan> {
    plan_with(s, side, &Memo::default())
}

/// [`plan`], with the options panel the side's report made kept in `memo`
/// ([`super::options::panel_shared`]).
pub fn plan_with(s: &State, side: &SideId, memo: &Memo) -> Option<Plan> {
    match &s.phase {
        Phase::Deployment => Some(deployment(s, side)),
        Phase::Round { active } if active == side => Some(active_plan(s, side, None, memo)),
        Phase::Decision { active, pending } if active == side => {
            Some(active_plan(s, side, Some(pending), memo))
        }
        Phase::Round { .. } | Phase::Decision { .. } => Some(reactions(s, side)),
        Phase::Over(_) => None,
    }
}

/// Words of a number of BW, as the notes give it.
fn bw(d: f64) -> String {
    format!("{} BW", (d * 10.0).round() / 10.0)
}

fn formations_of(u: &Unit) -> Vec<String> {
    let all = [Formation::Line, Formation::Column, Formation::Massed];
    own_first(u.formation, all, |f| f.allowed_for(u.arm))
        .into_iter()
        .map(|f| f.label().to_string())
        .collect()
}

fn hand_choices(
    s: &State,
    side: &SideId,
    keep: impl Fn(&super::deck::Card) -> bool,
) -> Vec<Choice> {
    s.army(side)
        .map(|a| {
            a.hand
                .iter()
                .filter_map(|c| s.deck.card(c))
                .filter(|c| keep(c))
                .map(|c| Choice::new(&c.id, c.describe_as(&c.name)))
                .collect()
        })
        .unwrap_or_default()
}

fn unit_choices<'a>(units: impl Iterator<Item = &'a Unit>) -> Vec<Choice> {
    units
        .map(|u| Choice::new(&u.id, format!("{} [{}]", u.name, u.id)))
        .collect()
}

// --- The secret deployment ---------------------------------------------------

/// Step 1: every unit starts where the template's default deployment puts
/// it, and may be dragged anywhere in the side's zone.
fn deployment(s: &State, side: &SideId) -> Plan {
    let index = s.scenario.side_index(side).unwrap_or(0);
    let (y0, y1) = s.scenario.zone(index);
    let (w, h) = (s.scenario.table.width.get(), s.scenario.table.height.get());
    let d = super::template::placements(s, side);
    let zone = format!("deployed wholly inside y {y0:.1} to {y1:.1}, x 0 to {w:.1}");
    let units = d
        .units
        .iter()
        .filter_map(|p| {
            let u = s.unit(&p.unit)?;
            let formation = p.formation.unwrap_or(u.formation);
            let mut formations: Vec<String> = vec![formation.label().to_string()];
            for f in [Formation::Line, Formation::Column, Formation::Massed] {
                if f != formation && f.allowed_for(u.arm) {
                    formations.push(f.label().to_string());
                }
            }
            if formations.len() == 1 {
                formations.clear();
            }
            Some(UnitPlan {
                id: u.id.clone(),
                label: u.name.clone(),
                at: p.at,
                facing: p.facing.map(|f| f.degrees()).unwrap_or(u.facing.degrees()),
                formation: formation.label().to_string(),
                reach: Some(Reach {
                    full: (w * w + h * h).sqrt(),
                    turned: None,
                    road: None,
                    shape: MoveShape::Free,
                    shortened_by: vec![zone.clone()],
                    ground: Vec::new(),
                }),
                formations,
                targets: Vec::new(),
                fields: Vec::new(),
                notes: vec![format!("{}: {}", u.arm.label(), zone)],
            })
        })
        .collect();
    let cinc = format!("{},{}", d.cinc.x, d.cinc.y);
    Plan {
        units,
        fields: vec![
            Field::new("cinc", "Where the CinC stands", FieldKind::Point)
                .default_value(cinc)
                .help(format!("inside your zone, y {y0:.1} to {y1:.1}")),
        ],
        notes: vec![
            format!(
                "Deploy every unit wholly inside y {y0:.1} to {y1:.1}, x 0 to {w:.1}: units you do not move stand where they are shown"
            ),
            "`at` is the centre of a unit's front edge; facing 0 looks up the table, 180 down"
                .into(),
        ],
        extra: json!({"step": "deploy"}),
        ground: Vec::new(),
    }
}

// --- The active side's round, or its decision ----------------------------------

/// How far `u` may march keeping its formation, with what shortens it.
fn march_reach(
    s: &State,
    side: &SideId,
    u: &Unit,
    near: &super::reach::Barriers,
    outlines: &mut Outlines,
) -> Option<Reach> {
    if u.arm == Arm::Artillery && u.smoke {
        return None;
    }
    let m = s.scenario.measure;
    let mut full = allowance(u.arm, u.formation).get();
    let mut shortened_by = Vec::new();
    let enemies: Vec<crate::geometry::Base> = s.enemies(side).flat_map(|e| e.bases(&m)).collect();
    let begins_near = near.near_enemy(&polygons(&u.bases(&m)), &enemies);
    match (u.arm, u.formation) {
        (Arm::Artillery, _) => {
            shortened_by.push(format!(
                "artillery ending near the enemy or moving through difficult terrain: {}",
                bw(ARTILLERY_SLOW_CAP.get())
            ));
        }
        (_, Formation::Column) if begins_near => {
            full = full.min(NEAR_ENEMY_CAP.get());
            shortened_by.push(format!(
                "a column that moves near the enemy: {} (it stands near him now)",
                bw(NEAR_ENEMY_CAP.get())
            ));
        }
        (_, Formation::Column) => shortened_by.push(format!(
            "a column that moves near the enemy: {}",
            bw(NEAR_ENEMY_CAP.get())
        )),
        (Arm::Cavalry, _) if begins_near => {
            full = full.min(NEAR_ENEMY_CAP.get());
            shortened_by.push(format!(
                "cavalry in line or massed near the enemy: {} (it stands near him now)",
                bw(NEAR_ENEMY_CAP.get())
            ));
        }
        (Arm::Cavalry, _) => shortened_by.push(format!(
            "cavalry in line or massed near the enemy: {}",
            bw(NEAR_ENEMY_CAP.get())
        )),
        _ => {}
    }
    if s.cards.march_bonus > 0 {
        full += s.cards.march_bonus as f64;
        shortened_by.push(format!("+{} from a card", bw(s.cards.march_bonus as f64)));
    }
    if matches!(u.formation, Formation::Line | Formation::Massed) {
        shortened_by.push(format!(
            "straight back: half, {}; a wheel costs the distance its outer end travels",
            bw(half_round_up(crate::geometry::Distance(full)).get())
        ));
    }
    shortened_by.push("difficult ground: 1 DISR (not artillery); friends passed through: 1 DISR to a line or massed mover".into());
    Some(Reach {
        full,
        turned: None,
        road: None,
        shape: MoveShape::Free,
        shortened_by,
        ground: ground(s, u, outlines),
    })
}

/// The ground that bars or slows a march, by the rules the march check
/// applies ([`super::march::barred`]; guns through difficult ground: 2 BW,
/// with any card's bonus). Difficult ground only disorders the rest, which
/// shortens nothing.
fn ground(s: &State, u: &Unit, outlines: &mut Outlines) -> Vec<Ground> {
    let mut out = Vec::new();
    for t in &s.scenario.terrain {
        if super::march::barred(s, t) {
            let why = if super::scenario::is_impassable(t) {
                super::march::rule::IMPASSABLE.to_string()
            } else {
                format!(
                    "{}: a card makes difficult ground impassable this round",
                    super::march::rule::IMPASSABLE
                )
            };
            out.push(Ground::forbidden(outlines.index(t), why));
        } else if u.arm == Arm::Artillery && super::scenario::is_difficult(t) {
            let most = ARTILLERY_SLOW_CAP.get() + s.cards.march_bonus as f64;
            out.push(Ground::at_most(
                outlines.index(t),
                most,
                format!(
                    "{}: artillery moving through difficult terrain: {}",
                    super::march::rule::ARTILLERY,
                    bw(most)
                ),
            ));
        }
    }
    out
}

/// What the writer needs to turn a drawn move into steps: the unit's
/// frame, its allowance back, and where a column stands after forming
/// line or massed (which it may, then move on).
fn frame_of(s: &State, side: &SideId, u: &Unit, full: Option<f64>) -> Value {
    let m = s.scenario.measure;
    let f = Frame::of(&u.bases(&m));
    let kind = match u.formation {
        Formation::Line | Formation::Massed => "wheel",
        Formation::Column | Formation::Battery => "path",
    };
    let mut o = Map::new();
    o.insert("kind".into(), json!(kind));
    o.insert("width".into(), json!(f.width.get()));
    o.insert("depth".into(), json!(f.depth.get()));
    o.insert("base_depth".into(), json!(m.base_depth.get()));
    if let Some(full) = full {
        o.insert(
            "back".into(),
            json!(half_round_up(crate::geometry::Distance(full)).get()),
        );
    }
    if u.formation == Formation::Column {
        let mut after = Map::new();
        for to in [Formation::Line, Formation::Massed] {
            if !to.allowed_for(u.arm) {
                continue;
            }
            let turns: &[Option<Side2>] = if to == Formation::Line {
                &[Some(Side2::Left), Some(Side2::Right)]
            } else {
                &[None]
            };
            for turn in turns {
                let mv = UnitMove {
                    unit: u.id.clone(),
                    steps: vec![Step::Formation(FormationChange { to, turn: *turn })],
                };
                let Ok(p) = super::march::plan(s, side, &mv) else {
                    continue;
                };
                let nf = Frame::of(&u.bases_at(&m, p.anchor, p.facing, to));
                let key = match turn {
                    Some(Side2::Left) => format!("{}_left", to.label()),
                    Some(Side2::Right) => format!("{}_right", to.label()),
                    None => to.label().to_string(),
                };
                after.insert(
                    key,
                    json!({"x": p.anchor.x, "y": p.anchor.y, "facing": p.facing.normalized().degrees(),
                           "width": nf.width.get(), "depth": nf.depth.get()}),
                );
            }
        }
        o.insert("after".into(), Value::Object(after));
    }
    Value::Object(o)
}

/// The options panel's lines, split into each unit's (those that name it
/// first) and the rest.
fn panel_lines(s: &State, side: &SideId, memo: &Memo) -> (Vec<(String, String)>, Vec<String>) {
    let Some(panel) = super::options::panel_shared(s, side, &mut Paths::new(s, side), memo) else {
        return (Vec::new(), Vec::new());
    };
    let mut own = Vec::new();
    let mut rest = Vec::new();
    for line in panel.lines {
        // "You can volley: NAME [ID] at ...": the first id is the unit's.
        let first = line
            .strip_prefix("You can ")
            .and_then(|l| Some(&l[l.find('[')? + 1..l.find(']')?]))
            .filter(|id| s.unit(id).is_some_and(|u| &u.side == side))
            .map(str::to_string);
        match first {
            Some(id) => own.push((id, line)),
            None => rest.push(line),
        }
    }
    (own, rest)
}

fn active_plan(s: &State, side: &SideId, pending: Option<&Pending>, memo: &Memo) -> Plan {
    let action = pending.map(|p| p.action);
    let march = matches!(action, None | Some(ActionKind::March));
    let charge = matches!(action, None | Some(ActionKind::Charge));
    let barriers = super::reach::Barriers::of(s);
    let charges = if charge {
        super::options::charge_targets(s, side)
    } else {
        Vec::new()
    };
    let (own_lines, rest) = panel_lines(s, side, memo);
    let mut frames = Map::new();
    let mut units = Vec::new();
    let mut outlines = Outlines::default();
    for u in s.live_units(side) {
        let reach = if march {
            march_reach(s, side, u, &barriers, &mut outlines)
        } else {
            None
        };
        frames.insert(
            u.id.clone(),
            frame_of(s, side, u, reach.as_ref().map(|r| r.full)),
        );
        let targets = charges
            .iter()
            .find(|(c, _)| c.id == u.id)
            .map(|(_, t)| {
                vec![TargetChoice {
                    kind: "charge".into(),
                    label: "Charge".into(),
                    options: unit_choices(t.iter().copied()),
                }]
            })
            .unwrap_or_default();
        let mut notes: Vec<String> = own_lines
            .iter()
            .filter(|(id, _)| *id == u.id)
            .map(|(_, l)| l.clone())
            .collect();
        if u.arm == Arm::Artillery && u.smoke {
            notes.push("smoke: a March clears it, and the gun may move in a later round".into());
        }
        let mut fields = Vec::new();
        if u.arm == Arm::Cavalry && march {
            fields.push(
                Field::new("about_face", "About-face before moving", FieldKind::Yes)
                    .help("cavalry only; it must end its move not near the enemy"),
            );
        }
        units.push(UnitPlan {
            id: u.id.clone(),
            label: u.name.clone(),
            at: u.anchor.unwrap_or_default(),
            facing: u.facing.degrees(),
            formation: u.formation.label().to_string(),
            reach,
            formations: if march { formations_of(u) } else { Vec::new() },
            targets,
            fields,
            notes,
        });
    }
    let mut fields = Vec::new();
    let own = || unit_choices(s.live_units(side));
    let cards_help =
        "none ticked: the fewest cards whose spans reach the force, drawn cards included";
    match pending {
        None => {
            let mut commands = vec![
                Choice::new(
                    "auto",
                    "As drawn: a Charge if a unit charges, a March if units move, else pass",
                ),
                Choice::new("pass", "Pass: draw three cards"),
                Choice::new("march", "March"),
                Choice::new("charge", "Charge"),
                Choice::new("rally", "Rally"),
                Choice::new("bombard", "Bombard"),
            ];
            for c in hand_choices(s, side, |c| c.event.is_some()) {
                commands.push(Choice::new(
                    format!("event:{}", c.value),
                    format!("Play the event {}", c.label),
                ));
            }
            let shooters: Vec<String> = super::options::volley_targets(s, side)
                .into_iter()
                .map(|(u, _)| u)
                .collect();
            fields.push(
                Field::new(
                    "volleys",
                    "Units that fire in the volley phase",
                    FieldKind::Many {
                        options: unit_choices(
                            s.live_units(side).filter(|u| shooters.contains(&u.id)),
                        ),
                    },
                )
                .help("none ticked: no volley phase; any ticked invokes it, and the enemy returns fire"),
            );
            fields.push(
                Field::new("command", "Command", FieldKind::One { options: commands })
                    .default_value("auto"),
            );
            fields.push(
                Field::new("force", "Also in the force (units that do not move)", FieldKind::Many { options: own() })
                    .help("units given a move or a charge are in the force already; a force is one arm and formation, each unit within 2 BW of another"),
            );
            fields.push(
                Field::new(
                    "cards",
                    "Cards to activate with",
                    FieldKind::Many {
                        options: hand_choices(s, side, |_| true),
                    },
                )
                .help(cards_help),
            );
            fields.push(
                Field::new("consult", "Ask me after the draw (consult)", FieldKind::Yes)
                    .help("for a March, Rally, Bombard or Charge: force, cards and moves are asked once the drawn cards are known; moves drawn now are not sent"),
            );
            fields.push(
                Field::new(
                    "modify",
                    "Modifying cards to play",
                    FieldKind::Many {
                        options: hand_choices(s, side, |c| {
                            c.effect.is_some() && c.symbol.is_some()
                        }),
                    },
                )
                .help("one of each symbol, for the volleys or the action chosen"),
            );
            fields.push(
                Field::new(
                    "cinc",
                    "Move the CinC to (end of round, for one card)",
                    FieldKind::Point,
                )
                .help("empty: he stays"),
            );
            fields.push(Field::new(
                "cinc_discard",
                "Card discarded to move him",
                FieldKind::One {
                    options: std::iter::once(Choice::new("", "the lowest span"))
                        .chain(hand_choices(s, side, |_| true))
                        .collect(),
                },
            ));
        }
        Some(p) => {
            fields.push(
                Field::new(
                    "force",
                    "Also in the force (units that do not move)",
                    FieldKind::Many { options: own() },
                )
                .help(format!(
                    "the force of your {}: units given a move or a charge are in it already",
                    p.action.label()
                )),
            );
            let mut cards = hand_choices(s, side, |_| true);
            for c in &p.drawn {
                if !cards.iter().any(|x| &x.value == c)
                    && let Some(k) = s.deck.card(c)
                {
                    cards.push(Choice::new(
                        c,
                        format!("{} (drawn)", k.describe_as(&k.name)),
                    ));
                }
            }
            fields.push(
                Field::new(
                    "cards",
                    "Cards to activate with",
                    FieldKind::Many { options: cards },
                )
                .help(cards_help),
            );
        }
    }
    let mut notes = rest;
    if let Some(p) = pending {
        notes.insert(
            0,
            format!(
                "You declared a {} and drew {}: name its force and cards",
                p.action.label(),
                if p.drawn.is_empty() {
                    "nothing".to_string()
                } else {
                    p.drawn
                        .iter()
                        .map(|c| s.card_name(c))
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            ),
        );
    }
    notes.push("A move is drawn from the centre of the unit's front edge. A line or massed unit goes straight and wheels, all forward or all back (half its allowance back), each wheel costing its outer end's arc; a column or gun follows a path, its last leg setting its facing".into());
    notes.push(
        "Checked on receipt: the force, the cards' span, ground, friends and the enemy near".into(),
    );
    Plan {
        units,
        fields,
        notes,
        extra: json!({
            "step": if pending.is_some() { "decide" } else { "round" },
            "action": action.map(|a| a.label().to_lowercase()),
            "units": Value::Object(frames),
        }),
        ground: outlines.list,
    }
}

// --- The passive side's standing reactions --------------------------------------

fn reactions(s: &State, side: &SideId) -> Plan {
    use super::reactions::{FirePolicy, Play, ReturnFire};
    let r = s.standing.get(side).cloned().unwrap_or_default();
    let units = s
        .live_units(side)
        .map(|u| UnitPlan {
            id: u.id.clone(),
            label: u.name.clone(),
            at: u.anchor.unwrap_or_default(),
            facing: u.facing.degrees(),
            formation: u.formation.label().to_string(),
            reach: None,
            formations: Vec::new(),
            targets: Vec::new(),
            fields: Vec::new(),
            notes: Vec::new(),
        })
        .collect();
    let (fire_default, listed) = match &r.return_fire {
        ReturnFire::Policy(FirePolicy::All) => ("all", Vec::new()),
        ReturnFire::Policy(FirePolicy::None) => ("none", Vec::new()),
        ReturnFire::Units(u) if u.is_empty() => ("none", Vec::new()),
        ReturnFire::Units(u) => ("listed", u.clone()),
    };
    // The plays in force and those the template offers, each once.
    let (interrupts, modifiers) = super::template::plays(s, side);
    let mut plays: Vec<(&str, Play)> = Vec::new();
    let mut push = |key: &'static str, p: Play| {
        if !plays.iter().any(|(k, q)| *k == key && *q == p) {
            plays.push((key, p));
        }
    };
    for p in &r.interrupts {
        push("interrupts", p.clone());
    }
    for p in &r.modifiers {
        push("modifiers", p.clone());
    }
    for (key, list) in [("interrupts", interrupts), ("modifiers", modifiers)] {
        for text in list {
            if let Ok(p) = crate::yaml::from_str::<Play>(&text) {
                push(key, p);
            }
        }
    }
    let in_force = |key: &str, p: &Play| match key {
        "interrupts" => r.interrupts.contains(p),
        _ => r.modifiers.contains(p),
    };
    let mut options = Vec::new();
    let mut defaults = Vec::new();
    let mut values = Map::new();
    for (i, (key, p)) in plays.iter().enumerate() {
        let value = format!("p{i}");
        let mut label = format!(
            "{} {}: {}",
            if *key == "interrupts" {
                "Interrupt"
            } else {
                "Modifier"
            },
            s.card_name(&p.card),
            super::examples::on_word(p.on)
        );
        if let (Some(n), Some(w)) = (&p.near, p.within) {
            label.push_str(&format!(", within {} of {n}", bw(w.get())));
        }
        if let Some(u) = &p.unit {
            label.push_str(&format!(" ({u})"));
        }
        if in_force(key, p) {
            defaults.push(value.clone());
        }
        values.insert(value.clone(), json!({"key": key, "play": p}));
        options.push(Choice::new(value, label));
    }
    let mut fire = vec![
        Choice::new("all", "All: every unit that can shoots back"),
        Choice::new("none", "None"),
    ];
    if !listed.is_empty() {
        fire.push(Choice::new(
            "listed",
            format!("As now: {}", listed.join(", ")),
        ));
    }
    let fields = vec![
        Field::new(
            "return_fire",
            "Return fire",
            FieldKind::One { options: fire },
        )
        .default_value(fire_default),
        Field::new(
            "plays",
            "Cards to play when the enemy acts",
            FieldKind::Many { options },
        )
        .default_value(defaults.join(","))
        .help(
            "interrupts: the first that fits, one a round; modifiers: one of each symbol a round",
        ),
    ];
    Plan {
        units,
        fields,
        notes: vec![
            "You are passive: you owe nothing, but you may send standing reactions, kept until you replace them".into(),
            "Angled-fire aims and the fire order in force are kept as they are".into(),
        ],
        extra: json!({
            "step": "reactions",
            "listed": listed,
            "plays": Value::Object(values),
            "aims": r.aims,
            "fire_order": r.fire_order,
        }),
        ground: Vec::new(),
    }
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;

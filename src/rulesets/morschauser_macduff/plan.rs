//! What a side can do now, as data for the orders page (issue 32): in the
//! deployment, each company's new place inside the zone, the generals and
//! the choice on winning the dice-off; in its half-turn, each company's
//! path, target, charge and sequence, and the side's generals, hits and
//! mines. Built from the same functions the rules, the options panel and
//! the template use ([`super::options`], [`super::movement`],
//! [`super::general_orders`]); the writer is `page.js` beside it.
//!
//! Everything on this table is open (see `view.rs`), so every live enemy
//! the options name may be a target.

use super::general_orders::{GENERAL_MOVE, destination};
use super::movement::{Limit, ROAD_BONUS, SLOW_MOVE, ground_limit, on_road};
use super::options::{charge_targets, shot_targets};
use super::orders::{GeneralOrder, Sequence};
use super::scenario::{Rect, Terrain, TerrainKind};
use super::state::{Company, General, Phase, State};
use super::units::{GunVariant, TroopType};
use super::view::company_line_as;
use crate::geometry::Point;
use crate::side::SideId;
use crate::view::plan::{
    Choice, Field, FieldKind, Ground, MoveShape, Outlines, Plan, Reach, TargetChoice, UnitPlan,
};
use serde_json::json;

/// The plan for `side` now; none when it owes no orders.
pub fn plan(s: &State, side: &SideId) -> Option<Plan> {
    let spec = s.scenario.sides.iter().find(|x| &x.id == side)?;
    match &s.phase {
        Phase::Deployment => Some(deployment(s, side, spec.zone)),
        Phase::HalfTurn { active, .. } if active == side => Some(turn(s, side)),
        _ => None,
    }
}

fn point(p: Point) -> serde_json::Value {
    json!({"x": p.x, "y": p.y})
}

/// The generals of `side` still in the game.
fn generals<'a>(s: &'a State, side: &'a SideId) -> impl Iterator<Item = &'a General> + 'a {
    s.generals
        .iter()
        .filter(move |g| &g.side == side && !g.killed)
}

fn unit(c: &Company, reach: Option<Reach>) -> UnitPlan {
    UnitPlan {
        id: c.id.clone(),
        label: c.name.clone(),
        // `to:` and `at:` name the centre of the base's front edge, which
        // is where the state keeps a company.
        at: c.at,
        facing: c.facing.degrees(),
        // No formations in these rules: the word is the troop type.
        formation: c.profile.troop.label().into(),
        reach,
        formations: Vec::new(),
        targets: Vec::new(),
        fields: Vec::new(),
        notes: vec![company_line_as(c, &c.name, &c.id)],
    }
}

// --- Deployment ---------------------------------------------------------------

/// A.5: anywhere inside the zone, facing any way; none without a zone.
fn deployment(s: &State, side: &SideId, zone: Option<Rect>) -> Plan {
    let units = s
        .live(side)
        .map(|c| {
            let reach = zone.map(|z| {
                // As far as the zone's farthest corner: the zone, not a
                // move, is the limit, and the page checks the zone itself.
                let corners = [
                    z.min,
                    z.max,
                    Point::new(z.min.x, z.max.y),
                    Point::new(z.max.x, z.min.y),
                ];
                let far = corners
                    .iter()
                    .map(|p| c.at.distance_to(*p).get())
                    .fold(0.0, f64::max);
                Reach {
                    full: far,
                    turned: None,
                    road: None,
                    shape: MoveShape::Free,
                    shortened_by: vec![zone_words(z)],
                    ground: Vec::new(),
                }
            });
            unit(c, reach)
        })
        .collect();
    let mut fields = vec![
        Field::new(
            "if_winner",
            "If you win the dice-off",
            FieldKind::One {
                options: vec![
                    Choice::new("first", "move first"),
                    Choice::new("second", "move second"),
                ],
            },
        )
        .default_value("first")
        .help("A.5: your choice should you win the dice-off for the first move"),
    ];
    for g in generals(s, side) {
        let mut options = vec![Choice::new("", "stays as the scenario places him")];
        options.extend(
            s.live(side)
                .map(|c| Choice::new(format!("attach:{}", c.id), format!("joins {}", c.name))),
        );
        fields.push(
            Field::new(
                &format!("general:{}", g.id),
                &format!("General {}", g.name),
                FieldKind::One { options },
            )
            .help("E.4: the company he joins"),
        );
        fields.push(
            Field::new(
                &format!("general_at:{}", g.id),
                &format!("General {}: stand at", g.name),
                FieldKind::Point,
            )
            .help("a point on the table, when he joins no company"),
        );
    }
    fields.extend(hits_fields(s, side));
    let mut notes = Vec::new();
    match zone {
        Some(z) => notes.push(format!(
            "{}; companies you do not place stay where they are",
            zone_words(z)
        )),
        None => notes.push("The scenario fixes your positions".into()),
    }
    Plan {
        units,
        fields,
        notes,
        extra: json!({
            "phase": "deploy",
            "zone": zone.map(|z| json!({"min": point(z.min), "max": point(z.max)})),
            "generals": generals_extra(s, side),
        }),
        ground: Vec::new(),
    }
}

fn zone_words(z: Rect) -> String {
    format!(
        "A.5 Deployment: anywhere inside your zone x {} to {}, y {} to {}",
        z.min.x, z.max.x, z.min.y, z.max.y
    )
}

fn generals_extra(s: &State, side: &SideId) -> serde_json::Value {
    generals(s, side)
        .map(|g| {
            json!({
                "id": g.id,
                "name": g.name,
                "at": point(s.general_at(g)),
                "attached": g.attached,
            })
        })
        .collect()
}

/// E.1: for each formed regiment, the companies that take its hits first.
fn hits_fields(s: &State, side: &SideId) -> Vec<Field> {
    let Some(spec) = s.scenario.sides.iter().find(|x| &x.id == side) else {
        return Vec::new();
    };
    if !s.scenario.options.formed_regiments {
        return Vec::new();
    }
    spec.regiments
        .iter()
        .map(|r| {
            let options = r
                .companies
                .iter()
                .map(|c| {
                    let name = s.company(c).map_or_else(|| c.clone(), |x| x.name.clone());
                    Choice::new(c.clone(), name)
                })
                .collect();
            let now = s.hit_shares.get(&r.id).cloned().unwrap_or_default();
            Field::new(
                &format!("hits:{}", r.id),
                &format!("{}: hits from shooting go first to", r.name),
                FieldKind::Many { options },
            )
            .default_value(now.join(","))
            .help("E.1: in the order ticked; none ticked: each hit to the company with the most strength left")
        })
        .collect()
}

// --- The half-turn --------------------------------------------------------------

fn turn(s: &State, side: &SideId) -> Plan {
    let mut outlines = Outlines::default();
    let units = s
        .live(side)
        .map(|c| turn_unit(s, c, &mut outlines))
        .collect();
    let mut fields = Vec::new();
    for g in generals(s, side) {
        fields.extend(general_fields(s, side, g));
    }
    fields.extend(hits_fields(s, side));
    let mines: Vec<Choice> = s
        .scenario
        .mines
        .iter()
        .filter(|m| &m.side == side && !s.mines_fired.contains(&m.id))
        .map(|m| Choice::new(m.id.clone(), format!("{} (under {})", m.id, m.wall)))
        .collect();
    if !mines.is_empty() {
        fields.push(
            Field::new(
                "fire_mines",
                "Fire mines",
                FieldKind::Many { options: mines },
            )
            .help("C.6: blow the breach of these mines this turn"),
        );
    }
    let mut notes = vec![
        "A.5: companies act in the order you give them orders; companies without orders hold (and melee if they must)".to_string(),
        "B.1: pivots are free; a drawn move goes straight to its point, then turns to the drawn facing".into(),
    ];
    if s.scenario.options.command_control {
        notes.push(
            "E.2: each company that moves rolls its command die, which may hold it, make it charge or forbid a charge"
                .into(),
        );
    }
    if s.scenario.options.formed_regiments {
        notes.push(
            "E.1: a formed regiment acting as one entry (`regiment:`) and `into_line` are written by hand in the orders file".into(),
        );
    }
    if let Some(panel) = super::options::panel(s, side) {
        notes.extend(
            panel
                .lines
                .into_iter()
                .filter(|l| l.starts_with("The enemy can shoot")),
        );
    }
    let heavy: Vec<&str> = s
        .live(side)
        .filter(|c| heavy_gun(s, c))
        .map(|c| c.id.as_str())
        .collect();
    Plan {
        units,
        fields,
        notes,
        extra: json!({
            "phase": "turn",
            "generals": generals_extra(s, side),
            "general_move": GENERAL_MOVE,
            "heavy_guns": heavy,
        }),
        ground: outlines.list,
    }
}

fn heavy_gun(s: &State, c: &Company) -> bool {
    c.profile.troop == TroopType::Artillery
        && super::shooting::gun_of(s, &c.id) == Some(GunVariant::Heavy)
}

fn turn_unit(s: &State, c: &Company, outlines: &mut Outlines) -> UnitPlan {
    let routing = super::morale::is_routing(s, &c.id);
    let road = on_road(s.scenario.terrain.as_slice(), &c.base(&s.scenario));
    let normal = c.profile.movement.get();
    // E.3: a routing company flees at the start of the half-turn and
    // takes no orders to move (command::plan strips them).
    let reach = (!routing).then(|| Reach {
        full: normal,
        turned: None,
        road: road.then_some(normal * ROAD_BONUS),
        shape: MoveShape::Free,
        shortened_by: shortened_by(c.profile.troop),
        ground: ground(s, c, outlines),
    });
    let mut u = unit(c, reach);
    if routing {
        u.notes
            .push("E.3: routing: it flees, and neither moves by order, shoots nor charges".into());
        return u;
    }
    let fire: Vec<Choice> = shot_targets(s, c)
        .into_iter()
        .map(|(e, shot)| {
            Choice::new(
                e.id.clone(),
                format!(
                    "{} [{}] ({:.1}\", {}+)",
                    e.name, e.id, shot.distance, shot.hits_on
                ),
            )
        })
        .collect();
    if !fire.is_empty() {
        u.targets.push(TargetChoice {
            kind: "fire".into(),
            label: "Shoot at".into(),
            options: fire,
        });
    }
    let reachable = charge_targets(s, c);
    if !reachable.must.is_empty() {
        let names: Vec<String> = reachable
            .must
            .iter()
            .map(|e| format!("{} [{}]", e.name, e.id))
            .collect();
        u.notes.push(format!(
            "B.6 Must melee: within 3\" of {}; it attacks and does not shoot",
            names.join(", ")
        ));
    }
    let charge: Vec<Choice> = if !c.profile.troop.may_charge() {
        Vec::new()
    } else if !reachable.must.is_empty() {
        reachable
            .must
            .iter()
            .map(|e| Choice::new(e.id.clone(), format!("{} [{}] (within 3\")", e.name, e.id)))
            .collect()
    } else {
        reachable
            .could
            .iter()
            .map(|(e, g)| Choice::new(e.id.clone(), format!("{} [{}] ({g:.1}\")", e.name, e.id)))
            .collect()
    };
    let charges = !charge.is_empty();
    if charges {
        u.targets.push(TargetChoice {
            kind: "charge".into(),
            label: "Charge".into(),
            options: charge,
        });
    }
    u.fields = unit_fields(s, c, road, charges);
    u
}

/// The ground that stops or slows this company, by the rule its moves
/// obey ([`ground_limit`], section C), judged off any road or bridge.
/// Where a road through a town, a bridge over a river, a breach or
/// ladders may let it pass, the page only warns.
fn ground(s: &State, c: &Company, outlines: &mut Outlines) -> Vec<Ground> {
    let terrain = &s.scenario.terrain;
    let crosses = |t: &Terrain, kinds: fn(&TerrainKind) -> bool| {
        let area = t.feature().area();
        terrain
            .iter()
            .any(|o| kinds(&o.kind) && o.feature().intersects_area(&area))
    };
    let mut out = Vec::new();
    for t in terrain {
        let rule = ground_limit(c.profile.troop, t, false, false, || false);
        let soft = match &t.kind {
            TerrainKind::Town => {
                crosses(t, |k| matches!(k, TerrainKind::Road | TerrainKind::Bridge))
            }
            TerrainKind::Water { .. } => crosses(t, |k| matches!(k, TerrainKind::Bridge)),
            TerrainKind::HighWall | TerrainKind::Gate { .. } => {
                c.ladders || s.breached_near(&t.id, c.at, f64::INFINITY)
            }
            _ => false,
        };
        let g = match rule {
            Limit::Free => continue,
            Limit::Stop(why) => Ground::forbidden(outlines.index(&t.feature()), why),
            Limit::Cap(most) => Ground::at_most(
                outlines.index(&t.feature()),
                most,
                format!(
                    "{}: at most {most}\" in a move that enters {}",
                    slow_rule(&t.kind),
                    t.name
                ),
            ),
        };
        out.push(g.soft(soft));
    }
    out
}

/// The section of the rules that slows a move in this ground.
fn slow_rule(k: &TerrainKind) -> &'static str {
    match k {
        TerrainKind::Woods => "C.2 Woods",
        TerrainKind::Town => "C.5 Towns",
        TerrainKind::Earthwork | TerrainKind::LowWall { .. } | TerrainKind::Abatis => {
            "C.6 Fortifications"
        }
        _ => "C.7 Other terrain",
    }
}

/// What may cut a company's move short, in the rules' words (section C).
fn shortened_by(troop: TroopType) -> Vec<String> {
    let mut out =
        vec!["B.3: a move that is not a charge stops short of 3\" from the enemy".to_string()];
    let slow = if troop == TroopType::LightInfantry {
        "towns and earthworks"
    } else if troop == TroopType::LineInfantry {
        "woods, towns, earthworks and behind low walls"
    } else {
        "earthworks and behind low walls"
    };
    out.push(format!("C.2-C.7: at most {SLOW_MOVE}\" in {slow}"));
    if matches!(troop, TroopType::Artillery | TroopType::Wagons) || troop.is_cavalry() {
        out.push("C.2, C.5: no woods; towns only along the road".into());
    }
    out.push(
        "C.4: it halts on entering fordable water; C.3: one contour of a steep hill a turn".into(),
    );
    out
}

fn unit_fields(s: &State, c: &Company, road: bool, charges: bool) -> Vec<Field> {
    let mut options = vec![Choice::new(
        "auto",
        "as drawn (move then shoot, move only or shoot only)",
    )];
    options.extend(
        [
            Sequence::MoveThenShoot,
            Sequence::ShootThenMove,
            Sequence::MoveOnly,
            Sequence::ShootOnly,
            Sequence::MeleeThenMove,
            Sequence::Hold,
        ]
        .into_iter()
        .map(|q| Choice::new(sequence_word(q), q.label())),
    );
    let mut out = vec![
        Field::new("sequence", "Sequence", FieldKind::One { options })
            .default_value("auto")
            .help("B.2: in which order it moves and shoots"),
    ];
    if road {
        out.push(
            Field::new("road", "Along the road", FieldKind::Yes).help(
                "C.1: +50% for a move wholly along the road (claimed by itself when the drawn move is longer than the normal move)",
            ),
        );
    }
    if !c.profile.fires.is_empty() {
        out.push(
            Field::new(
                "fallback",
                "If the order becomes impossible",
                FieldKind::One {
                    options: vec![
                        Choice::new("hold", "hold"),
                        Choice::new("nearest", "shoot at the nearest enemy"),
                    ],
                },
            )
            .default_value("hold"),
        );
    }
    if charges {
        out.push(
            Field::new("flank", "Claim a flank attack", FieldKind::Yes)
                .help("B.3: judged before it comes within 3\""),
        );
        if c.profile.troop.is_cavalry() {
            out.push(
                Field::new("pursue", "Pursue", FieldKind::Yes)
                    .help("E.8: if it wins, advance 3\" into a second melee"),
            );
        }
    }
    let engineers = c.profile.troop == TroopType::Engineers && s.scenario.options.engineering;
    if engineers || heavy_gun(s, c) {
        let walls = terrain_choices(s, |k| {
            matches!(k, TerrainKind::HighWall | TerrainKind::Gate { .. })
        });
        if !walls.is_empty() {
            out.push(
                Field::new("breach", "Breach", FieldKind::One { options: walls }).help(
                    "C.6: engineers once in contact with it, or a heavy gun within 12\" as its shooting",
                ),
            );
        }
    }
    if engineers {
        let bridges = terrain_choices(s, |k| matches!(k, TerrainKind::Bridge));
        if !bridges.is_empty() {
            out.push(
                Field::new("demolish", "Demolish", FieldKind::One { options: bridges })
                    .help("E.7k: a bridge it stands on or touches, with a wagon within 3\""),
            );
        }
    }
    out
}

/// "Nothing", then each piece of terrain of a kind, for a field.
fn terrain_choices(s: &State, kind: impl Fn(&TerrainKind) -> bool) -> Vec<Choice> {
    let found: Vec<Choice> = s
        .scenario
        .terrain
        .iter()
        .filter(|t| kind(&t.kind))
        .map(|t| Choice::new(t.id.clone(), format!("{} [{}]", t.name, t.id)))
        .collect();
    if found.is_empty() {
        return found;
    }
    let mut out = vec![Choice::new("", "none")];
    out.extend(found);
    out
}

/// The word orders use for a sequence.
fn sequence_word(q: Sequence) -> String {
    serde_json::to_value(q)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default()
}

/// E.2, E.4, E.5: a general joins a company within his ride, leaves his
/// company, or rides to a point.
fn general_fields(s: &State, side: &SideId, g: &General) -> Vec<Field> {
    let mut options = vec![Choice::new("", "stays where he is")];
    if g.attached.is_some() {
        options.push(Choice::new("detach", "leaves his company"));
    }
    options.extend(
        s.live(side)
            .filter(|c| {
                destination(
                    s,
                    side,
                    &GeneralOrder {
                        general: g.id.clone(),
                        attach: Some(c.id.clone()),
                        ..GeneralOrder::default()
                    },
                )
                .is_ok()
            })
            .map(|c| Choice::new(format!("attach:{}", c.id), format!("joins {}", c.name))),
    );
    vec![
        Field::new(
            &format!("general:{}", g.id),
            &format!("General {}", g.name),
            FieldKind::One { options },
        )
        .help(format!(
            "E.2, E.4: before any company acts; he rides at most {GENERAL_MOVE:.0}\""
        )),
        Field::new(
            &format!("general_to:{}", g.id),
            &format!("General {}: ride to", g.name),
            FieldKind::Point,
        )
        .help(format!(
            "a point within {GENERAL_MOVE:.0}\" (leaving any company he is with)"
        )),
    ]
}

//! What a side can do now, as the orders page's plan (issue 32): in its
//! own move, each unit's move with what takes from it, the formations its
//! troops take, the enemies it may fire at or charge, an area to observe
//! and turning about; the personalities' pledges and joins beside. In the
//! enemy's move, the standing pledges; in the setup step, the hidden units
//! to place within their zones. The page's writer is `page.js`.
//!
//! Built only from what the side knows, as the template is: its own units,
//! the enemies it sees or has found, the enemy smoke it sees (by the
//! marker's id and place, never whose). A hidden enemy changes nothing
//! here, so the plan cannot tell of one.

use super::check::into_smoke;
use super::fire::{barred, unit_bar};
use super::movement::{charge_reach, deduction, drill_cost};
use super::options::{self, PLAIN};
use super::orders::FOUND;
use super::state::{Person, Phase, Smoke, State, Status, Unit};
use super::tables::Formation;
use crate::geometry::{point_to_bases, within};
use crate::side::{SideId, Sides};
use crate::view::plan::{
    Choice, Field, FieldKind, Ground, MoveShape, Outlines, Plan, Reach, TargetChoice, UnitPlan,
    own_first,
};
use serde_json::{Map, Value, json};

/// The formations of the orders, in the order the page lists them.
const FORMATIONS: [Formation; 5] = [
    Formation::Line,
    Formation::Column,
    Formation::Open,
    Formation::Limbered,
    Formation::Unlimbered,
];

/// How a move turns the unit: the resolution's rule, for the page.
const FACING: &str = "A unit ends facing the way it moves when that is within 90 degrees of its front; moving further round, it keeps its facing and steps back. Turning about (a quarter of a close-order unit's move) faces it the other way first: the page turns it about when the facing drawn asks for it.";
/// What only the resolution knows.
const ON_RECEIPT: &str = "Checked when it moves: the D6 for ground and friends the move reaches, no closer than 5 cm to an enemy unless charging (a hidden one stops it too), a unit that failed a test may not advance.";

/// The plan for `side` now; none when it owes nothing and may send
/// nothing (the setup step of a side with no hidden units, the game over).
pub fn plan(s: &State, side: &SideId) -> Option<Plan> {
    s.scenario.side(side)?;
    match &s.phase {
        Phase::Setup => deployment(s, side),
        Phase::Move { active, .. } if active == side => Some(move_plan(s, side)),
        Phase::Move { .. } => Some(reactions(s, side)),
        Phase::Over(_) => None,
    }
}

/// The word the orders use for a formation.
pub fn word(f: Formation) -> &'static str {
    match f {
        Formation::Line => "line",
        Formation::Column => "column",
        Formation::Open => "open",
        Formation::Limbered => "limbered",
        Formation::Unlimbered => "unlimbered",
    }
}

/// The formations the unit's troops take, its own first; none when it has
/// no other.
fn formations(u: &Unit) -> Vec<Formation> {
    own_first(u.formation, FORMATIONS, |f| f.fits(u.troop))
}

/// The side's own move.
fn move_plan(s: &State, side: &SideId) -> Plan {
    let known: Vec<&Unit> = s.known_enemies(side).collect();
    let smoke: Vec<&Smoke> = s.smoke.iter().filter(|x| &x.side != side).collect();
    let mut outlines = Outlines::default();
    let units: Vec<UnitPlan> = s
        .live(side)
        .map(|u| unit_plan(s, &known, &smoke, u, &mut outlines))
        .collect();
    let mut notes = vec![FACING.to_string(), ON_RECEIPT.to_string()];
    if known.is_empty() {
        notes.push(
            "No enemy unit known to your side: nothing to fire at or charge; observe to find them."
                .into(),
        );
    }
    let smoke_seen = super::view::smoke_lines(s, side);
    if !smoke_seen.is_empty() {
        notes.push("Enemy gun smoke seen (fire and charge may name it, observation may look there; whose it is, is not known):".into());
    }
    notes.extend(smoke_seen);
    let persons = persons(s, side);
    let mut fields: Vec<Field> = persons
        .iter()
        .filter_map(|p| {
            pledge(
                s,
                p,
                0,
                "+1 a point on this move's tests of the unit he is with",
            )
        })
        .collect();
    fields.extend(persons.iter().map(|p| join(s, side, p)));
    fields.extend(persons.iter().filter_map(|p| recall(s, p)));
    let budgets: Map<String, Value> = s
        .live(side)
        .filter(|u| u.status == Status::Good)
        .map(|u| (u.id.clone(), budgets(u)))
        .collect();
    Plan {
        units,
        fields,
        notes,
        extra: json!({"kind": "move", "persons": with_whom(&persons), "budgets": budgets}),
        ground: outlines.list,
    }
}

/// One unit of the side in its own move.
fn unit_plan(
    s: &State,
    known: &[&Unit],
    smoke: &[&Smoke],
    u: &Unit,
    outlines: &mut Outlines,
) -> UnitPlan {
    let good = u.status == Status::Good;
    let mut fields = vec![Field::new("observe", "Observe", FieldKind::Point).help(
        "the centre of an area 20 cm across, tested in secret whether or not anything is there",
    )];
    if good {
        let cost = drill_cost(u, None, true);
        fields.push(
            Field::new("about", "Turn about", FieldKind::Yes)
                .default_value("false")
                .help(format!("faces the other way: {cost:.1} cm of its move")),
        );
    }
    let mut targets = Vec::new();
    if good {
        let fire = fire_targets(s, known, smoke, u);
        if !fire.is_empty() {
            targets.push(TargetChoice {
                kind: "fire".into(),
                label: "Fire at".into(),
                options: fire,
            });
        }
        targets.push(TargetChoice {
            kind: "charge".into(),
            label: "Charge".into(),
            options: charge_targets(s, known, smoke, u),
        });
    }
    let notes = options::unit_lines(s, known, u, PLAIN)
        .into_iter()
        .skip(1)
        .map(|l| l.trim_start().to_string())
        .collect();
    UnitPlan {
        id: u.id.clone(),
        label: u.name.clone(),
        at: u.at,
        facing: u.facing,
        formation: word(u.formation).into(),
        reach: good.then(|| reach(s, u, outlines)),
        formations: formations(u).into_iter().map(|f| word(f).into()).collect(),
        targets,
        fields,
        notes,
    }
}

/// Its move and what takes from it: the template's words.
fn reach(s: &State, u: &Unit, outlines: &mut Outlines) -> Reach {
    let mut shortened_by = options::move_costs(s, u, PLAIN);
    shortened_by.push("no closer than 5 cm to an enemy unless charging".into());
    if u.no_advance {
        shortened_by
            .push("it failed a test: it may not advance towards the enemy this move".into());
    }
    Reach {
        full: u.mv(),
        // Turning by moving costs nothing; turning about and forming cost
        // each its own share, which the writer checks from the budgets.
        turned: None,
        road: None,
        shape: MoveShape::Free,
        shortened_by,
        ground: ground(s, u, outlines),
    }
}

/// The ground a move reaches, by the deduction the move pays for it
/// ([`deduction`]): closed ground stops the move, and ground that takes
/// dice takes at least one cm a die, so a move that enters it goes at
/// most its move less that (the dice decide the rest, on receipt).
fn ground(s: &State, u: &Unit, outlines: &mut Outlines) -> Vec<Ground> {
    let mut out = Vec::new();
    for t in &s.scenario.terrain {
        match deduction(t, u) {
            None => out.push(Ground::forbidden(
                outlines.index(t),
                "Movement: dense woods and thickets are closed to all but skirmishers",
            )),
            Some(0) => {}
            Some(d) => out.push(Ground::at_most(
                outlines.index(t),
                (u.mv() - f64::from(d)).max(0.0),
                format!("Movement: ground the move reaches takes {d}D6 cm of it, at least {d} cm"),
            )),
        }
    }
    out
}

/// What is left of its move after each formation it may take, without
/// and with turning about: `{FORMATION: [plain, about]}`.
fn budgets(u: &Unit) -> Value {
    let mut all = formations(u);
    if all.is_empty() {
        all.push(u.formation);
    }
    let left = |f: Formation, about: bool| (u.mv() - drill_cost(u, Some(f), about)).max(0.0);
    all.into_iter()
        .map(|f| (word(f).to_string(), json!([left(f, false), left(f, true)])))
        .collect::<Map<String, Value>>()
        .into()
}

/// The known enemies it may fire at now, the enemy smoke it may fire
/// into, and what it finds by its own observation; none if it may not
/// fire at all.
fn fire_targets(s: &State, known: &[&Unit], smoke: &[&Smoke], u: &Unit) -> Vec<Choice> {
    // As it will stand when it fires: its own move forgets its last fire.
    let firer = u.clone_for_check();
    if unit_bar(&firer).is_some() {
        return Vec::new();
    }
    let range = firer.troop.range();
    let mut out = nearest(s, known, &firer, range)
        .into_iter()
        .filter(|(e, _)| barred(s, &firer, e).is_none())
        .map(|(e, gap)| enemy(e, format!("{gap:.1} cm")))
        .collect::<Vec<_>>();
    out.extend(
        smoke
            .iter()
            .filter(|x| into_smoke(s, &firer, x, &[]).is_none())
            .map(|x| smoke_choice(x)),
    );
    out.push(found());
    out
}

/// The known enemies it sees within its charge reach, the enemy smoke
/// within 150% of its move, and what it finds by its own observation.
fn charge_targets(s: &State, known: &[&Unit], smoke: &[&Smoke], u: &Unit) -> Vec<Choice> {
    let most = 1.5 * u.mv();
    let mut out = nearest(s, known, u, most)
        .into_iter()
        .filter(|(e, _)| s.unit_sees(u, e))
        .filter_map(|(e, gap)| {
            let r = charge_reach(s, u, e)?;
            within(gap, r).then(|| enemy(e, format!("{gap:.1} cm, reach {r:.1} cm")))
        })
        .collect::<Vec<_>>();
    out.extend(
        smoke
            .iter()
            .filter(|x| within(point_to_bases(x.at, &[u.base()]).get(), most))
            .map(|x| smoke_choice(x)),
    );
    out.push(found());
    out
}

/// The known enemies within `d` of `u`, edge to edge, nearest first; a
/// cheap bound spares measuring those plainly further.
fn nearest<'a>(s: &State, known: &[&'a Unit], u: &Unit, d: f64) -> Vec<(&'a Unit, f64)> {
    let mut out: Vec<(&Unit, f64)> = known
        .iter()
        .filter(|e| s.gap_at_least(u, e) <= d)
        .map(|e| (*e, s.gap(u, e)))
        .filter(|(_, gap)| within(*gap, d))
        .collect();
    out.sort_by(|a, b| a.1.total_cmp(&b.1).then_with(|| a.0.id.cmp(&b.0.id)));
    out
}

fn enemy(e: &Unit, how: String) -> Choice {
    Choice::new(e.id.clone(), format!("{} [{}], {how}", e.name, e.id))
}

fn smoke_choice(x: &Smoke) -> Choice {
    Choice::new(
        x.id.clone(),
        format!("gun smoke {} at ({:.1}, {:.1})", x.id, x.at.x, x.at.y),
    )
}

fn found() -> Choice {
    Choice::new(FOUND, "what it finds by its own observation this move")
}

/// The side's personalities in play.
fn persons<'a>(s: &'a State, side: &SideId) -> Vec<&'a Person> {
    s.persons
        .iter()
        .filter(|p| &p.side == side && !p.hit)
        .collect()
}

/// The unit each personality is with, for the writer's pledges.
fn with_whom(persons: &[&Person]) -> Value {
    persons
        .iter()
        .filter_map(|p| Some((p.id.clone(), json!(p.with.clone()?))))
        .collect::<Map<String, Value>>()
        .into()
}

fn unit_name(s: &State, id: &str) -> String {
    s.unit(id)
        .map_or_else(|| id.to_string(), |u| u.name.clone())
}

/// The points a personality pledges to the unit he is with.
fn pledge(s: &State, p: &Person, now: u32, help: &str) -> Option<Field> {
    let with = p.with.as_deref()?;
    Some(
        Field::new(
            &format!("pledge:{}", p.id),
            &format!("{}: points pledged to {}", p.name, unit_name(s, with)),
            FieldKind::Number {
                min: 0,
                max: i64::from(p.points),
            },
        )
        .default_value(now.to_string())
        .help(format!("{help}; {} command points a move", p.points)),
    )
}

/// A personality joins another unit of the side.
fn join(s: &State, side: &SideId, p: &Person) -> Field {
    let stays = p.with.as_deref().map_or("stays with nobody".into(), |w| {
        format!("stays with {}", unit_name(s, w))
    });
    let mut options = vec![Choice::new("", stays)];
    options.extend(
        s.live(side)
            .filter(|u| Some(u.id.as_str()) != p.with.as_deref())
            .map(|u| Choice::new(u.id.clone(), format!("{} [{}]", u.name, u.id))),
    );
    Field::new(
        &format!("join:{}", p.id),
        &format!("{} joins", p.name),
        FieldKind::One { options },
    )
    .help("in phase 4, after the moves")
}

/// A pursuit called back by the personality with the pursuer (2 points).
fn recall(s: &State, p: &Person) -> Option<Field> {
    let u = s.unit(p.with.as_deref()?)?;
    (u.status == Status::Pursuing && p.points >= 2).then(|| {
        Field::new(
            &format!("recall:{}", p.id),
            &format!("{} recalls {}", p.name, u.name),
            FieldKind::Yes,
        )
        .default_value("false")
        .help("a new order, 2 command points: the pursuit stops")
    })
}

/// The enemy's move: the standing pledges, as they stand.
fn reactions(s: &State, side: &SideId) -> Plan {
    let standing = s.reactions.get(side);
    let persons = persons(s, side);
    let fields = persons
        .iter()
        .filter_map(|p| {
            let now = standing
                .map(|r| r.pledges.iter().filter(|x| x.personality == p.id).map(|x| x.points).sum())
                .unwrap_or(0);
            pledge(
                s,
                p,
                now,
                "pledged in advance to the unit's tests in the enemy's move (shooting casualties, charge home, losing hand to hand), kept until replaced",
            )
        })
        .collect();
    Plan {
        units: Vec::new(),
        fields,
        notes: options::lines(s, side, PLAIN).unwrap_or_default(),
        extra: json!({"kind": "reactions", "persons": with_whom(&persons)}),
        ground: Vec::new(),
    }
}

/// The setup step of a side with hidden units: each to place inside one
/// of its zones, from its suggested place.
fn deployment(s: &State, side: &SideId) -> Option<Plan> {
    if !super::deploy::deployers(s).contains(side) {
        return None;
    }
    let spec = s.scenario.side(side)?;
    let table = s.scenario.table;
    let anywhere = table.width.get().hypot(table.height.get());
    let mut units = Vec::new();
    let mut zones = Map::new();
    for x in spec.units.iter().filter(|u| u.hidden) {
        let Some(u) = s.unit(&x.id) else { continue };
        let its: Vec<_> = spec.zones_of(x).collect();
        let names: Vec<&str> = its.iter().map(|z| z.name.as_str()).collect();
        zones.insert(
            u.id.clone(),
            its.iter()
                .map(|z| json!({"id": z.id, "points": z.points}))
                .collect(),
        );
        units.push(UnitPlan {
            id: u.id.clone(),
            label: u.name.clone(),
            at: u.at,
            facing: u.facing,
            formation: word(u.formation).into(),
            reach: Some(Reach {
                full: anywhere,
                turned: None,
                road: None,
                shape: MoveShape::Free,
                shortened_by: vec![format!(
                    "placed with its centre inside one of its zones: {}",
                    names.join(", ")
                )],
                ground: Vec::new(),
            }),
            formations: formations(u).into_iter().map(|f| word(f).into()).collect(),
            targets: Vec::new(),
            fields: Vec::new(),
            notes: vec![format!(
                "{}, {} figures; suggested ({:.1}, {:.1}) facing {:.0}",
                u.troop.label(),
                x.figures,
                x.at.x,
                x.at.y,
                x.facing
            )],
        });
    }
    Some(Plan {
        units,
        fields: Vec::new(),
        notes: options::lines(s, side, PLAIN).unwrap_or_default(),
        extra: json!({"kind": "deploy", "zones": zones}),
        ground: Vec::new(),
    })
}

//! What each reader sees: the whole table once placed (the rules hide
//! nothing but the placements not yet made), each unit's damage dice and
//! lasting statuses, the deployment zones during set-up, and the last
//! step's moves, fire and recoils.

use super::setup::placer;
use super::state::{Phase, State, Unit};
use crate::geometry::{Point, TerrainTag};
use crate::ruleset::Sight;
use crate::side::Sides;
use crate::view::{
    Letter, MapView, Panel, TerrainStyle, UnitView, Viewer, ZoneView, base_views, first_tag_style,
    terrain_views,
};

/// The letter each formation shows on the map, all of them, so the legend
/// reads the same on every map. Formation names from `Formation::name`.
const LETTERS: [(&str, &str); 6] = [
    ("line", "L"),
    ("column", "C"),
    ("square", "Sq"),
    ("mounted", "M"),
    ("unlimbered", "A"),
    ("limbered", "Lb"),
];

pub fn heading(s: &State) -> String {
    use crate::words::subject_verb;
    match &s.phase {
        Phase::Deploy { placement } => format!(
            "Set-up, placement {placement} of 3: {}",
            subject_verb(&s.side_name(&placer(s, *placement)), "places", "place")
        ),
        Phase::Turn { turn, side } => format!(
            "Turn {turn}: {}",
            subject_verb(&s.side_name(side), "activates", "activate")
        ),
        Phase::Consult { turn, side } => {
            let name = s.side_name(side);
            format!(
                "Turn {turn}: {} consulted for {} next activation",
                subject_verb(&name, "is", "are"),
                if crate::words::is_plural(&name) {
                    "their"
                } else {
                    "its"
                }
            )
        }
        Phase::Over(o) => format!("Game over: {}", o.reason),
    }
}

/// A feature's fill: roads first, then towns, woods, water, marsh, walls
/// and hills; an obstruction is a field; any other ground is rough.
fn style(t: &crate::geometry::TerrainFeature) -> TerrainStyle {
    use TerrainTag::*;
    let order = [
        (Road, TerrainStyle::Road),
        (Bridge, TerrainStyle::Road),
        (Town, TerrainStyle::Town),
        (Woods, TerrainStyle::Woods),
        (Water, TerrainStyle::Water),
        (Marsh, TerrainStyle::Marsh),
        (Wall, TerrainStyle::Wall),
        (Hill, TerrainStyle::Hill),
        (Crest, TerrainStyle::Hill),
        (Obstruction, TerrainStyle::Field),
    ];
    first_tag_style(t, &order, TerrainStyle::Rough)
}

/// The map's note for a unit: its damage and lasting statuses.
pub fn note(u: &Unit) -> Option<String> {
    let mut n: Vec<String> = Vec::new();
    if u.disorder > 0 {
        n.push(format!(
            "{} disorder{}",
            u.disorder,
            if u.crippled() { ", crippled" } else { "" }
        ));
    }
    n.extend(u.status.words().into_iter().map(str::to_string));
    if u.canister {
        n.push("canister loaded".into());
    }
    (!n.is_empty()).then(|| n.join(", "))
}

pub fn map(s: &State) -> MapView {
    let index = |u: &Unit| s.scenario.side_index(&u.side).unwrap_or(0);
    let units = s
        .units
        .iter()
        .filter(|u| u.placed())
        .map(|u| {
            let bases = s.bases(u);
            let side = index(u);
            UnitView {
                id: u.id.clone(),
                label: u.name.clone(),
                side,
                bases: base_views(&bases, side),
                anchor: s.centre(u),
                facing: u.facing.degrees(),
                formation: u.formation.name().into(),
                disruption: u.disorder,
                smoke: false,
                note: note(u),
                // For the enemy list: what the unit is, beside where it stands.
                status: vec![troop(s, u)],
            }
        })
        .collect();
    let arrows = s
        .traces
        .iter()
        .map(|t| t.arrow(s.scenario.side_index(&t.side).unwrap_or(0)))
        .collect();
    let (w, h) = (s.scenario.table.width.get(), s.scenario.table.height.get());
    let l = (3.0 * s.short()).min(h);
    let deployment = match s.phase {
        Phase::Deploy { .. } => s
            .scenario
            .sides
            .iter()
            .enumerate()
            .map(|(k, x)| {
                let (y0, y1) = match x.edge {
                    super::scenario::Edge::South => (0.0, l),
                    super::scenario::Edge::North => (h - l, h),
                };
                ZoneView {
                    side: k,
                    points: vec![
                        Point::new(0.0, y0),
                        Point::new(w, y0),
                        Point::new(w, y1),
                        Point::new(0.0, y1),
                    ],
                }
            })
            .collect(),
        _ => Vec::new(),
    };
    MapView {
        terrain: terrain_views(&s.scenario.terrain, style),
        units,
        arrows,
        deployment,
        counter: Some("disorder (coloured dice)".into()),
        letters: Letter::key(&LETTERS),
        ..MapView::blank(&s.scenario.table, "cm", &s.scenario)
    }
}

/// One line for a unit, for panels and templates.
/// A unit's troop type and its ratings.
pub fn troop(s: &State, u: &Unit) -> String {
    let t = &u.troop;
    format!(
        "{}, quality {}+, speed {} S ({:.1} cm), melee {:+}, shooting {:+}, range {} S",
        t.name,
        t.quality,
        t.speed,
        f64::from(t.speed) * s.short(),
        t.melee,
        t.shooting,
        t.range
    )
}

pub fn unit_line(s: &State, u: &Unit, name: &str, id: &str) -> String {
    let place = match u.at {
        Some(p) => format!(
            "{} at ({:.1}, {:.1}) facing {:.0}",
            u.formation.name(),
            p.x,
            p.y,
            u.facing.degrees()
        ),
        None => "not placed".into(),
    };
    format!(
        "{name} [{id}]: {}; {place}; {} white, {} coloured dice{}{}",
        troop(s, u),
        3u32.saturating_sub(u.disorder),
        u.disorder.min(3),
        note(u).map(|n| format!("; {n}")).unwrap_or_default(),
        if u.activated { "; activated" } else { "" }
    )
}

pub fn sight(s: &State, viewer: &Viewer) -> Sight {
    let mut panels = Vec::new();
    let mut lines = vec![
        heading(s),
        format!(
            "Distances: S = {:.1} cm, M = {:.1} cm, L = {:.1} cm",
            s.short(),
            2.0 * s.short(),
            3.0 * s.short()
        ),
        format!(
            "Victory (house rule): {} units lost breaks a side; after {} turns fewer losses win",
            s.scenario.victory.break_at, s.scenario.victory.turns
        ),
    ];
    for x in &s.scenario.sides {
        lines.push(format!(
            "{}{}: {} units lost",
            x.name,
            if x.id == s.scenario.attacker {
                " (attacker)"
            } else {
                " (defender)"
            },
            s.lost(&x.id)
        ));
    }
    panels.push(Panel {
        title: "Battle".into(),
        lines,
    });
    // A side reads the enemy in the report's enemy list, once.
    let (title, mine) = match viewer {
        Viewer::Side(me) => ("Your units on the table", Some(me)),
        _ => ("Units on the table", None),
    };
    let lines = s
        .units
        .iter()
        .filter(|u| u.placed() && mine.is_none_or(|me| &u.side == me))
        .map(|u| unit_line(s, u, &u.name, &u.id))
        .collect();
    panels.push(Panel {
        title: title.into(),
        lines,
    });
    if let Viewer::Side(me) = viewer {
        let waiting: Vec<String> = s
            .units
            .iter()
            .filter(|u| &u.side == me && u.live() && u.at.is_none())
            .map(|u| unit_line(s, u, &u.name, &u.id))
            .collect();
        if !waiting.is_empty() {
            panels.push(Panel {
                title: "Your units still to place".into(),
                lines: waiting,
            });
        }
        panels.push(super::options::panel(s, me));
    }
    Sight {
        heading: heading(s),
        map: map(s),
        panels,
    }
}

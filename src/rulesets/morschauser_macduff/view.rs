//! What each reader sees: everything on the table is open, with strength
//! points, hits and generals.

use super::scenario::TerrainKind;
use super::state::{Company, General, Phase, State};
use super::units::TroopType;
use crate::ruleset::Sight;
use crate::side::{SideId, Sides};
use crate::view::{
    ArrowKind, ArrowView, Letter, MapView, MarkerKind, MarkerView, Panel, TerrainStyle, UnitView,
    Viewer, base_views, terrain_view,
};

/// The letter each formation shows on the map, all of them, so the legend
/// reads the same on every map. A company shows its troop type (`kind`), not a formation.
const LETTERS: [(&str, &str); 7] = [
    ("infantry", "I"),
    ("light infantry", "LI"),
    ("cavalry", "C"),
    ("light cavalry", "LC"),
    ("artillery", "A"),
    ("engineers", "E"),
    ("wagons", "W"),
];

pub fn heading(s: &State) -> String {
    match &s.phase {
        Phase::Deployment => "Deployment".into(),
        Phase::HalfTurn { turn, active } => format!("Turn {turn}, {}", s.side_name(active)),
        Phase::Over(o) => format!("Game over: {}", o.reason),
    }
}

fn style(k: &TerrainKind) -> TerrainStyle {
    match k {
        TerrainKind::Road | TerrainKind::Bridge => TerrainStyle::Road,
        TerrainKind::Woods => TerrainStyle::Woods,
        TerrainKind::Hill { .. } => TerrainStyle::Hill,
        TerrainKind::Water { .. } => TerrainStyle::Water,
        TerrainKind::Town => TerrainStyle::Town,
        TerrainKind::Earthwork
        | TerrainKind::HighWall
        | TerrainKind::Gate { .. }
        | TerrainKind::LowWall { .. } => TerrainStyle::Wall,
        TerrainKind::Abatis | TerrainKind::Other(_) => TerrainStyle::Rough,
        TerrainKind::Marsh { .. } => TerrainStyle::Marsh,
        TerrainKind::Cornfield => TerrainStyle::Field,
    }
}

pub fn map(s: &State) -> MapView {
    let index = |side: &SideId| s.scenario.side_index(side).unwrap_or(0);
    let terrain = s
        .scenario
        .terrain
        .iter()
        .map(|t| {
            let mut name = t.name.clone();
            if s.burning.contains(&t.id) {
                name.push_str(" (burning)");
            }
            let breaches = s.breaches.iter().filter(|b| b.wall == t.id).count();
            if breaches > 0 {
                name.push_str(&format!(
                    " ({breaches} breach{})",
                    if breaches == 1 { "" } else { "es" }
                ));
            }
            terrain_view(name, &t.outline, style(&t.kind))
        })
        .collect();
    let units = s
        .companies
        .iter()
        .filter(|c| c.on_table())
        .map(|c| {
            let b = c.base(&s.scenario);
            UnitView {
                id: c.id.clone(),
                label: c.name.clone(),
                side: index(&c.side),
                bases: base_views(&[b], index(&c.side)),
                anchor: b.center,
                facing: c.facing.degrees(),
                formation: kind(c.profile.troop).into(),
                // Hits go in the note: the map's numbered counter means disruption.
                disruption: 0,
                smoke: false,
                note: Some(strength_note(c)),
                status: Vec::new(),
            }
        })
        .collect();
    let mut markers: Vec<MarkerView> = s
        .generals
        .iter()
        .filter(|g| !g.killed)
        .map(|g| {
            let with = g.attached.as_ref().and_then(|a| s.company(a));
            MarkerView {
                kind: MarkerKind::General,
                side: Some(index(&g.side)),
                at: s.general_at(g),
                label: general_label(g, with),
            }
        })
        .collect();
    markers.extend(s.scenario.objectives.iter().map(|o| MarkerView {
        kind: MarkerKind::Objective,
        side: s.scenario.side_index(&o.side),
        at: o.at,
        label: o.name.clone(),
    }));
    let arrows = s
        .traces
        .iter()
        .filter(|t| t.points.len() > 1)
        .map(|t| ArrowView {
            kind: ArrowKind::Move,
            side: index(&t.side),
            path: t.points.clone(),
        })
        .collect();
    MapView {
        terrain,
        units,
        markers,
        arrows,
        deployment: deployment_zones(s),
        letters: Letter::key(&LETTERS),
        ..MapView::blank(&s.scenario.table, "in", &s.scenario)
    }
}

/// The map's short name of a troop type: the initials of a name of several
/// words are its letter on the map, so each type gets its own.
pub fn kind(t: TroopType) -> &'static str {
    match t {
        TroopType::LineInfantry => "infantry",
        TroopType::LightInfantry => "light infantry",
        TroopType::HeavyCavalry => "cavalry",
        TroopType::LightCavalry => "light cavalry",
        TroopType::Artillery => "artillery",
        TroopType::Engineers => "engineers",
        TroopType::Wagons => "wagons",
    }
}

/// Strength points left of full, and hits taken: "2/4 SP, 2 hits".
pub fn strength_note(c: &Company) -> String {
    let mut note = format!("{}/{} SP", c.strength(), c.profile.strength);
    match c.hits {
        0 => {}
        1 => note.push_str(", 1 hit"),
        n => note.push_str(&format!(", {n} hits")),
    }
    note
}

/// A general on the map: name, character once known, the company he is with.
pub fn general_label(g: &General, with: Option<&Company>) -> String {
    let mut label = g.name.clone();
    let mut about = Vec::new();
    if let Some(p) = g.personality {
        about.push(p.label().to_string());
    }
    if let Some(c) = with {
        about.push(format!("with {}", c.name));
    }
    if !about.is_empty() {
        label.push_str(&format!(" ({})", about.join(", ")));
    }
    label
}

/// One line describing a company, for panels and templates.
pub fn company_line(c: &Company) -> String {
    company_line_as(c, &c.name, &c.id)
}

/// [`company_line`] with the name and id written as given (quoted, in a
/// template).
pub fn company_line_as(c: &Company, name: &str, id: &str) -> String {
    let p = &c.profile;
    let fires: Vec<String> = p
        .fires
        .iter()
        .map(|f| format!("{}\" on {}+", f.range.get(), f.hits_on))
        .collect();
    format!(
        "{} [{}]: {}, SP {}/{} ({} hits), at ({:.1}, {:.1}) facing {:.0}, move {}\", fire {}, melee {}/{}{}",
        name,
        id,
        p.troop.label(),
        c.strength(),
        p.strength,
        c.hits,
        c.at.x,
        c.at.y,
        c.facing.degrees(),
        p.movement.get(),
        if fires.is_empty() {
            "none".into()
        } else {
            fires.join(", ")
        },
        p.front,
        p.rear,
        if c.halted_in_water {
            ", halted in water"
        } else {
            ""
        }
    )
}

pub fn sight(s: &State, viewer: &Viewer) -> Sight {
    let mut status = vec![heading(s)];
    if let Some(f) = &s.first {
        status.push(format!(
            "{} first",
            crate::words::subject_verb(&s.side_name(f), "moves", "move")
        ));
    }
    for side in &s.scenario.sides {
        status.push(format!(
            "{}: {} of {} companies lost",
            side.name,
            s.losses.get(&side.id).copied().unwrap_or(0),
            side.companies.len()
        ));
    }
    for t in &s.burning {
        status.push(format!("{t} is burning"));
    }
    for b in &s.breaches {
        status.push(format!("{} is breached ({})", b.wall, b.cause));
    }
    let mut panels = briefing(s);
    panels.push(Panel {
        title: "The battle".into(),
        lines: status,
    });
    let generals: Vec<String> = s
        .generals
        .iter()
        .map(|g| {
            format!(
                "{} [{}] of {}: {}{}{}",
                g.name,
                g.id,
                s.side_name(&g.side),
                g.personality
                    .map_or("personality not yet known", |p| p.label()),
                g.attached
                    .as_ref()
                    .map(|a| format!(", with {a}"))
                    .unwrap_or_default(),
                if g.killed { ", killed" } else { "" }
            )
        })
        .collect();
    if !generals.is_empty() {
        panels.push(Panel {
            title: "Generals".into(),
            lines: generals,
        });
    }
    if let Viewer::Side(me) = viewer {
        // The options look at the companies near each one: filed, they
        // cost n log n rather than n squared (a state just read has no index).
        let mut filed = s.clone();
        filed.file_companies();
        panels.extend(super::options::panel(&filed, me));
        panels.push(Panel {
            title: "Your companies".into(),
            lines: s.live(me).map(company_line).collect(),
        });
    }
    Sight {
        heading: heading(s),
        map: map(s),
        panels,
    }
}

/// Each side's deployment zone, when the scenario gives one, while the
/// armies deploy.
fn deployment_zones(s: &State) -> Vec<crate::view::ZoneView> {
    if !matches!(s.phase, Phase::Deployment) {
        return Vec::new();
    }
    s.scenario
        .sides
        .iter()
        .enumerate()
        .filter_map(|(side, spec)| {
            let z = spec.zone?;
            Some(crate::view::rect_zone(side, z.min, z.max))
        })
        .collect()
}

/// Before the first move: the scenario's title and description, and how the
/// battle is won (section D: objectives held at the time limit; with the
/// optional rule, the first side to lose half its companies loses).
fn briefing(s: &State) -> Vec<Panel> {
    if !matches!(s.phase, Phase::Deployment) {
        return Vec::new();
    }
    let mut victory = vec![format!(
        "The game lasts {} turns. At the end, a side that alone holds all of its objectives wins; otherwise it is a draw",
        s.scenario.turns
    )];
    for o in &s.scenario.objectives {
        victory.push(format!(
            "Objective of {}: {} at ({:.1}, {:.1}), held with a company within {:.1}\" and no enemy within it",
            s.side_name(&o.side),
            o.name,
            o.at.x,
            o.at.y,
            o.radius.get()
        ));
    }
    if s.scenario.options.half_losses_lose {
        victory.push("The first side to lose half its companies loses at once".into());
    }
    crate::view::briefing(&s.scenario.title, &s.scenario.description, victory)
}

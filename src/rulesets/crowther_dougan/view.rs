//! What each reader sees. A side sees its own units, the enemy units in the
//! open within its line of sight, those it has found, and smoke; every
//! other enemy unit is absent (not greyed) from its map, panels and
//! template. The public sees only what both sides know from facts they share
//! ([`State::public`]); the umpire all.

use super::state::{Phase, State, Status, Unit};
use super::tables::Troop;
use crate::geometry::TerrainTag;
use crate::ruleset::Sight;
use crate::side::{SideId, Sides};
use crate::view::{
    ArrowView, Letter, MapView, MarkerKind, MarkerView, Panel, TerrainStyle, UnitView, Viewer,
    base_views, first_tag_style, terrain_views,
};

/// The letter each formation shows on the map, all of them, so the legend
/// reads the same on every map. Formation names from `Formation::name`.
const LETTERS: [(&str, &str); 5] = [
    ("line", "L"),
    ("column", "C"),
    ("open order", "O"),
    ("unlimbered", "A"),
    ("limbered", "Lb"),
];

pub fn heading(s: &State) -> String {
    match &s.phase {
        Phase::Setup => "Setup: the hidden troops deploy".into(),
        Phase::Move { n, active } => format!("Move {n}, {} moving", s.side_name(active)),
        Phase::Over(o) => format!("Game over: {}", o.reason),
    }
}

/// Whether `viewer` may see unit `u` now.
pub fn shows(s: &State, viewer: &Viewer, u: &Unit) -> bool {
    if !u.live() {
        return false;
    }
    match viewer {
        Viewer::Umpire => true,
        Viewer::Side(me) => s.sees(me, u),
        Viewer::Public => s.public(u),
    }
}

/// A feature's fill: roads first, then towns, woods, water, marsh, walls
/// and hills; any other ground is rough.
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
    ];
    first_tag_style(t, &order, TerrainStyle::Rough)
}

pub fn note(u: &Unit) -> String {
    let mut n = vec![format!("{} men", u.men())];
    match u.status {
        Status::Routing => n.push("routing".into()),
        Status::Pursuing => n.push("pursuing".into()),
        _ => {}
    }
    if !u.loaded {
        n.push("unloaded".into());
    }
    n.join(", ")
}

pub fn map(s: &State, viewer: &Viewer) -> MapView {
    let index = |side: &SideId| s.scenario.side_index(side).unwrap_or(0);
    let units = s
        .units
        .iter()
        .filter(|u| shows(s, viewer, u))
        .map(|u| {
            let side = index(&u.side);
            UnitView {
                id: u.id.clone(),
                label: u.name.clone(),
                side,
                bases: base_views(&u.drawn(), side),
                anchor: u.at,
                facing: u.facing,
                formation: u.formation.name().into(),
                disruption: u32::from(u.status == Status::Routing),
                smoke: s.smoking(u),
                note: Some(note(u)),
                status: match viewer {
                    Viewer::Side(me) if &u.side != me => enemy_status(s, me, u),
                    _ => Vec::new(),
                },
            }
        })
        .collect();
    let mut markers: Vec<MarkerView> = s
        .persons
        .iter()
        .filter(|p| !p.hit)
        .filter_map(|p| {
            let u = s.unit(p.with.as_deref()?)?;
            shows(s, viewer, u).then(|| MarkerView {
                kind: MarkerKind::General,
                side: Some(index(&p.side)),
                at: u.at,
                label: format!("{} (with {})", p.name, u.name),
            })
        })
        .collect();
    // Smoke is seen by all: the enemy's, by its marker, where its unit is
    // not seen (a unit seen shows its own smoke).
    markers.extend(
        s.smoke
            .iter()
            .filter(|x| {
                s.unit(&x.unit)
                    .is_none_or(|u| !shows(s, viewer, u) || u.at.distance_to(x.at).get() >= 0.5)
            })
            .map(|x| MarkerView {
                kind: MarkerKind::Smoke,
                side: Some(index(&x.side)),
                at: x.at,
                label: x.id.clone(),
            }),
    );
    let arrows = s
        .traces
        .iter()
        .filter(|t| s.unit(&t.unit).is_some_and(|u| shows(s, viewer, u)))
        .map(|t| ArrowView {
            kind: t.kind.into(),
            side: index(&t.side),
            path: t.points.clone(),
        })
        .collect();
    MapView {
        terrain: terrain_views(&s.scenario.terrain, style),
        units,
        markers,
        arrows,
        deployment: zones(s, viewer),
        counter: Some("routing".into()),
        letters: Letter::key(&LETTERS),
        ..MapView::blank(&s.scenario.table, "cm", &s.scenario)
    }
}

/// The deployment zones of hidden units, while they deploy, to their own
/// side (and the umpire) only: they are part of the side's secret.
fn zones(s: &State, viewer: &Viewer) -> Vec<crate::view::ZoneView> {
    if !matches!(s.phase, Phase::Setup) {
        return Vec::new();
    }
    s.scenario
        .sides
        .iter()
        .enumerate()
        .filter(|(_, x)| match viewer {
            Viewer::Umpire => true,
            Viewer::Side(me) => &x.id == me,
            Viewer::Public => false,
        })
        .flat_map(|(i, x)| {
            x.zones.iter().map(move |z| crate::view::ZoneView {
                side: i,
                points: z.points.clone(),
            })
        })
        .collect()
}

/// One line for a unit of the reader's own side.
pub fn unit_line(u: &Unit, name: &str, id: &str) -> String {
    let r = u.troop.rating();
    format!(
        "{name} [{id}]: {}, {} {} ({} men), {} at ({:.1}, {:.1}) facing {:.0}; move {:.0} cm, FF {}, FC {}, MF {}{}",
        u.troop.label(),
        u.figures(),
        if u.troop == Troop::Artillery {
            "guns"
        } else {
            "figures"
        },
        u.men(),
        u.formation.name(),
        u.at.x,
        u.at.y,
        u.facing,
        r.mv,
        r.ff,
        r.fc,
        r.mf,
        match (u.status, u.loaded) {
            (Status::Routing, _) => ", routing",
            (Status::Pursuing, _) => ", pursuing",
            (_, false) => ", unloaded",
            _ => "",
        }
    )
}

/// The abbreviations of a unit's line, said once before the lines.
pub const FACTORS: &str = "FF fire factor, FC field craft (seeing and not being seen), MF morale factor (a D10 under it passes)";

/// What a side's enemy list says of an enemy unit it sees, beside where
/// it stands: its troops and figures, and how the side knows of it. The
/// list itself is the report's one enemy list.
pub fn enemy_status(s: &State, me: &SideId, u: &Unit) -> Vec<String> {
    let how = match s.spotted.get(me).and_then(|m| m.get(&u.id)) {
        Some(spot) => format!("found by {}", spot.by.join(", ")),
        None => "in sight".into(),
    };
    vec![format!("{}, {} figures", u.troop.label(), u.figures()), how]
}

/// Enemy gun smoke the side sees, by its marker's id, without saying
/// whose: the smoke is always seen, never the unit in it. Fire and charge
/// orders may name the id.
pub fn smoke_lines(s: &State, me: &SideId) -> Vec<String> {
    s.smoke
        .iter()
        .filter(|x| &x.side != me)
        .map(|x| format!("{}: gun smoke at ({:.1}, {:.1})", x.id, x.at.x, x.at.y))
        .collect()
}

/// How the battle is won (house rule: the source sets no victory terms),
/// for the reports of the first move and the briefings.
fn victory(s: &State) -> Panel {
    Panel {
        title: "Victory conditions (house rule)".into(),
        lines: vec![
            "A side with no unit left that is neither gone nor routing has lost".into(),
            format!(
                "After move {}, the side that lost the smaller share of its men wins; within 5 percentage points of each other it is a draw",
                s.scenario.moves
            ),
        ],
    }
}

pub fn sight(s: &State, viewer: &Viewer) -> Sight {
    let mut panels = Vec::new();
    if matches!(s.phase, Phase::Setup | Phase::Move { n: 1, .. }) {
        panels.push(victory(s));
    }
    let mut lost = Vec::new();
    for side in &s.scenario.sides {
        let men: u32 = s
            .units
            .iter()
            .filter(|u| u.side == side.id && shows(s, viewer, u))
            .map(|u| u.men_lost)
            .sum();
        lost.push(format!("{}: {men} men lost by the units shown", side.name));
    }
    panels.push(Panel {
        title: "Casualties".into(),
        lines: lost,
    });
    if let Viewer::Side(me) = viewer {
        panels.push(Panel {
            title: "Your units".into(),
            lines: std::iter::once(FACTORS.to_string())
                .chain(s.live(me).map(|u| unit_line(u, &u.name, &u.id)))
                .collect(),
        });
        panels.push(Panel {
            title: "Your personalities".into(),
            lines: s
                .persons
                .iter()
                .filter(|p| &p.side == me)
                .map(|p| {
                    format!(
                        "{} [{}]: {} command points a move, {} left{}",
                        p.name,
                        p.id,
                        p.points,
                        p.left,
                        if p.hit {
                            ", hit and out of play".to_string()
                        } else {
                            p.with
                                .as_ref()
                                .map(|w| format!(", with {w}"))
                                .unwrap_or_default()
                        }
                    )
                })
                .collect(),
        });
        // The enemy units are in the report's enemy list; the smoke alone
        // says nothing of whose it is.
        let smoke = smoke_lines(s, me);
        if !smoke.is_empty() {
            panels.push(Panel {
                title: "Enemy gun smoke seen".into(),
                lines: smoke,
            });
        }
        panels.extend(super::options::panel(s, me));
    }
    Sight {
        heading: heading(s),
        map: map(s, viewer),
        panels,
    }
}

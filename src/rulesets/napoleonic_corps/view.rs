//! What each reader sees: the whole table (the rules hide nothing), each
//! unit's bases laid out in its formation, the corps' chips and passes, the
//! army morale, and this turn's moves, fire and charges.

use super::fatigue::army_morale;
use super::state::{Phase, State, Unit};
use crate::ruleset::Sight;
use crate::side::{SideId, Sides};
use crate::view::{
    Letter, MapView, MarkerKind, MarkerView, Panel, UnitView, Viewer, ZoneView, base_views,
    rect_zone, tag_style, terrain_views,
};

/// The letter each formation shows on the map, all of them, so the legend
/// reads the same on every map. Formation names from `Formation::name`.
const LETTERS: [(&str, &str); 7] = [
    ("line", "L"),
    ("column", "C"),
    ("square", "Sq"),
    ("skirmish", "Sk"),
    ("deployed", "D"),
    ("unlimbered", "A"),
    ("limbered", "Lb"),
];

pub fn heading(s: &State) -> String {
    match &s.phase {
        Phase::Setup => "Setup: formations and corps fatigue".into(),
        Phase::Turn { turn, phasing } => format!("Turn {turn}, {} phasing", s.side_name(phasing)),
        Phase::Decision { turn, phasing, .. } => format!(
            "Turn {turn}, {} phasing: waiting for {} defensive fire decision",
            s.side_name(phasing),
            crate::words::possessive(&s.side_name(&s.other(phasing)))
        ),
        Phase::Over(o) => format!("Game over: {}", o.reason),
    }
}

/// The map's note for a unit: its state beyond the formation.
pub fn note(u: &Unit) -> Option<String> {
    let mut n = Vec::new();
    if u.disordered {
        n.push("disordered");
    }
    if u.unformed {
        n.push("unformed");
    }
    (!n.is_empty()).then(|| n.join(", "))
}

pub fn map(s: &State) -> MapView {
    let index = |side: &SideId| s.scenario.side_index(side).unwrap_or(0);
    let units = s
        .units
        .iter()
        .filter(|u| u.live())
        .map(|u| {
            let bases = s.bases(u);
            let side = index(&u.side);
            let n = bases.len() as f64;
            let cx = bases.iter().map(|b| b.center.x).sum::<f64>() / n;
            let cy = bases.iter().map(|b| b.center.y).sum::<f64>() / n;
            UnitView {
                id: u.id.clone(),
                label: u.name.clone(),
                side,
                bases: base_views(&bases, side),
                anchor: crate::geometry::Point::new(cx, cy),
                facing: u.facing.degrees(),
                formation: u.formation.name().into(),
                disruption: u32::from(u.shaken()),
                smoke: false,
                note: note(u),
                status: Vec::new(),
            }
        })
        .collect();
    let mut markers: Vec<MarkerView> = s
        .corps
        .iter()
        .map(|c| MarkerView {
            kind: if c.cinc {
                MarkerKind::Commander
            } else {
                MarkerKind::General
            },
            side: Some(index(&c.side)),
            at: c.at,
            label: c.commander.clone(),
        })
        .collect();
    markers.extend(s.generals.iter().filter(|g| !g.dead).filter_map(|g| {
        let u = s.unit(g.attached.as_deref()?)?;
        Some(MarkerView {
            kind: MarkerKind::General,
            side: Some(index(&g.side)),
            at: u.at,
            label: format!("{} (with {})", g.name, u.name),
        })
    }));
    markers.extend(s.scenario.objectives.iter().map(|o| {
        let holder = s
            .holders
            .iter()
            .find(|(id, _)| id == &o.id)
            .and_then(|(_, h)| h.as_ref());
        MarkerView {
            kind: MarkerKind::Objective,
            side: holder.and_then(|h| s.scenario.side_index(h)),
            at: o.at,
            label: o.name.clone(),
        }
    }));
    let arrows = s.traces.iter().map(|t| t.arrow(index(&t.side))).collect();
    MapView {
        terrain: terrain_views(&s.scenario.terrain, tag_style),
        units,
        markers,
        arrows,
        deployment: deployment_zones(s),
        counter: Some("disordered or unformed".into()),
        letters: Letter::key(&LETTERS),
        ..MapView::blank(&s.scenario.table, "cm", &s.scenario)
    }
}

/// Each side's deployment zone, when the scenario gives one, during the
/// setup step.
fn deployment_zones(s: &State) -> Vec<ZoneView> {
    if !matches!(s.phase, Phase::Setup) {
        return Vec::new();
    }
    s.scenario
        .sides
        .iter()
        .enumerate()
        .filter_map(|(i, x)| x.zone.map(|z| rect_zone(i, z.min, z.max)))
        .collect()
}

/// One line for a unit, for panels and templates.
pub fn unit_line(u: &Unit, name: &str, id: &str) -> String {
    let m = u.mods();
    format!(
        "{name} [{id}]: {} of {}, {} bases, {} at ({:.1}, {:.1}) facing {:.0}; fire {}, rally {:+}, melee {}{}",
        u.troop.label(),
        u.corps,
        u.bases,
        u.formation.name(),
        u.at.x,
        u.at.y,
        u.facing.degrees(),
        m.fire.map_or("-".to_string(), |f| format!("{f:+}")),
        m.rally,
        m.melee,
        note(u).map(|n| format!(", {n}")).unwrap_or_default()
    )
}

/// How the battle is won, for the setup step's reports and briefings.
fn victory(s: &State) -> Panel {
    Panel {
        title: "Victory conditions".into(),
        lines: vec![
            "An army breaks when the chips it has lost reach its army morale: the other side wins".into(),
            "Army morale: the chips its corps start with, 2 more for each objective it holds, 2 fewer for each of its own the enemy has taken".into(),
            "Chips are lost when a unit fails to rally (one) or leaves the table by rout, surrender or elimination (two)".into(),
            format!(
                "After turn {}, the army that lost the smaller share of its morale wins (house rule)",
                s.scenario.turns
            ),
        ],
    }
}

pub fn sight(s: &State, viewer: &Viewer) -> Sight {
    let mut panels = Vec::new();
    let setup = matches!(s.phase, Phase::Setup);
    if setup {
        panels.push(victory(s));
    }
    let mut army = vec![heading(s)];
    for side in &s.scenario.sides {
        // Chips are drawn, some by dice, in the first step: no number yet.
        army.push(if setup {
            format!(
                "{}: army morale is counted in the first step, when the corps draw their chips",
                side.name
            )
        } else {
            format!(
                "{}: {} chips lost of an army morale of {}",
                side.name,
                s.dish.get(&side.id).copied().unwrap_or(0),
                army_morale(s, &side.id)
            )
        });
    }
    for (id, h) in &s.holders {
        army.push(format!(
            "Objective {id}: held by {}",
            h.as_ref().map_or("nobody".into(), |h| s.side_name(h))
        ));
    }
    panels.push(Panel {
        title: "Army morale".into(),
        lines: army,
    });
    panels.push(Panel {
        title: "Corps".into(),
        lines: s
            .corps
            .iter()
            .map(|c| {
                let chips = if setup {
                    "chips drawn in the first step".to_string()
                } else {
                    format!("{} of {} chips", c.chips, c.start_chips)
                };
                format!(
                    "{} ({}){}: {chips}, {} morale passes, commander {} at ({:.0}, {:.0})",
                    c.name,
                    s.side_name(&c.side),
                    if c.cinc { ", CinC" } else { "" },
                    c.passes,
                    c.commander,
                    c.at.x,
                    c.at.y
                )
            })
            .collect(),
    });
    panels.push(Panel {
        title: "Divisional generals".into(),
        lines: s
            .generals
            .iter()
            .map(|g| {
                format!(
                    "{} [{}] ({:?}, {}){}",
                    g.name,
                    g.id,
                    g.arm,
                    g.corps,
                    if g.dead {
                        ", killed".to_string()
                    } else {
                        g.attached
                            .as_ref()
                            .map(|a| format!(", with {a}"))
                            .unwrap_or_default()
                    }
                )
            })
            .collect(),
    });
    if let Viewer::Side(me) = viewer {
        panels.push(Panel {
            title: "Your units".into(),
            lines: s.live(me).map(|u| unit_line(u, &u.name, &u.id)).collect(),
        });
        // Only a side's own view: what it can do is its own business.
        panels.push(super::options::panel(s, me));
    }
    Sight {
        heading: heading(s),
        map: map(s),
        panels,
    }
}

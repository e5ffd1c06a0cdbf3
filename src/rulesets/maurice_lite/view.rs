//! What each reader sees (hands are secret; everything on the table is open).

use super::forces::{Paths, check_force};
use super::state::{Phase, State, TraceKind};
use crate::geometry::TerrainFeature;
use crate::ruleset::Sight;
use crate::side::{SideId, Sides};
use crate::view::{
    ArrowKind, ArrowView, Letter, MapView, MarkerKind, MarkerView, Panel, TerrainStyle, UnitView,
    Viewer, base_views, terrain_views,
};

/// The letter each formation shows on the map, all of them, so the legend
/// reads the same on every map. Formation names from `Formation::label`.
const LETTERS: [(&str, &str); 4] = [
    ("line", "L"),
    ("column", "C"),
    ("massed", "M"),
    ("battery", "A"),
];

pub fn heading(s: &State) -> String {
    match &s.phase {
        Phase::Deployment => "Deployment".into(),
        Phase::Round { active } => format!("Round {}, {} active", s.round, s.side_name(active)),
        Phase::Decision { active, .. } => format!(
            "Round {}, waiting for {} decision",
            s.round,
            crate::words::possessive(&s.side_name(active))
        ),
        // The round that ended the game is still `s.round`: the count moves
        // on only when a round hands over to the next.
        Phase::Over(o) => format!("Game over after round {}: {}", s.round, o.reason),
    }
}

/// The fill for a feature (the shared reading of its tags).
pub fn terrain_style(t: &TerrainFeature) -> TerrainStyle {
    crate::view::tag_style(t)
}

pub fn map(s: &State) -> MapView {
    let m = s.scenario.measure;
    let index = |side: &SideId| s.scenario.side_index(side).unwrap_or(0);
    let units = s
        .units
        .iter()
        .filter(|u| u.on_table())
        .map(|u| {
            let bases = u.bases(&m);
            let n = bases.len().max(1) as f64;
            let centre = bases
                .iter()
                .fold(crate::geometry::Point::default(), |acc, b| acc + b.center)
                .scale(1.0 / n);
            UnitView {
                id: u.id.clone(),
                label: u.name.clone(),
                side: index(&u.side),
                bases: base_views(&bases, index(&u.side)),
                anchor: centre,
                facing: u.facing.degrees(),
                formation: u.formation.label().into(),
                disruption: u.disruption,
                smoke: u.smoke,
                note: None,
                // The counter on the map; its words for lists.
                status: vec![if u.disruption > 0 {
                    format!("DISR {}", u.disruption)
                } else {
                    "no DISR".into()
                }],
            }
        })
        .collect();
    let markers = s
        .armies
        .iter()
        .filter_map(|(side, a)| {
            a.cinc.map(|at| MarkerView {
                kind: MarkerKind::Commander,
                side: Some(index(side)),
                at,
                label: "CinC".into(),
            })
        })
        .collect();
    let mut arrows: Vec<ArrowView> = s
        .traces
        .iter()
        .filter(|t| t.points.len() > 1)
        .map(|t| ArrowView {
            kind: match t.kind {
                TraceKind::Move => ArrowKind::Move,
                TraceKind::Fire => ArrowKind::Fire,
                TraceKind::Charge => ArrowKind::Charge,
                TraceKind::FallBack => ArrowKind::FallBack,
            },
            side: index(&t.side),
            path: t.points.clone(),
        })
        .collect();
    arrows.extend(engagement_arrows(s));
    MapView {
        terrain: terrain_views(&s.scenario.terrain, terrain_style),
        units,
        markers,
        arrows,
        zones: fire_zones(s),
        deployment: deployment_zones(s),
        counter: Some("disruption (DISR)".into()),
        letters: Letter::key(&LETTERS),
        ..MapView::blank(&s.scenario.table, m.unit.abbrev(), &s.scenario)
    }
}

pub fn sight(s: &State, viewer: &Viewer) -> Sight {
    sight_with(s, viewer, &crate::ruleset::Memo::default())
}

/// [`sight`], with the options panel kept in `memo` for the other readers
/// of `s` ([`super::options::panel_shared`]).
pub fn sight_with(s: &State, viewer: &Viewer, memo: &crate::ruleset::Memo) -> Sight {
    let mut panels = briefing(s);
    panels.extend(combat_panel(s));
    let mut status = vec![heading(s)];
    for (side, a) in &s.armies {
        let broken = s
            .units
            .iter()
            .filter(|u| &u.side == side && u.broken)
            .count();
        status.push(format!(
            "{}: army morale {}, {} broken, {} in hand",
            s.side_name(side),
            a.morale,
            crate::words::count(broken as i64, "unit", "units"),
            crate::words::count(a.hand.len() as i64, "card", "cards")
        ));
    }
    status.push(format!(
        "Deck: {} to draw, {} discarded",
        crate::words::count(s.piles.draw.len() as i64, "card", "cards"),
        s.piles.discard.len()
    ));
    panels.push(Panel {
        title: "The battle".into(),
        lines: status,
    });
    let hands: Vec<&SideId> = match viewer {
        Viewer::Side(me) => s.armies.keys().filter(|k| *k == me).collect(),
        Viewer::Umpire => s.armies.keys().collect(),
        Viewer::Public => Vec::new(),
    };
    for side in hands {
        let a = &s.armies[side];
        let mut lines: Vec<String> = a
            .hand
            .iter()
            .filter_map(|c| s.deck.card(c))
            .map(|c| format!("{}: {}", c.describe(), c.text))
            .collect();
        if lines.is_empty() {
            lines.push("(no cards)".into());
        }
        panels.push(Panel {
            title: format!("{} hand (secret)", s.side_name(side)),
            lines,
        });
    }
    if let Viewer::Side(me) = viewer {
        // One set of paths round the enemy serves the options panel's
        // forces and every unit below (the searches it has made are kept).
        let mut paths = Paths::new(s, me);
        panels.extend(super::options::panel_shared(s, me, &mut paths, memo));
        panels.push(Panel {
            title: "Your standing reactions (in force until you replace them)".into(),
            lines: standing_lines(s, me),
        });
        let lines = s
            .live_units(me)
            .map(|u| {
                let dist = check_force(s, me, std::slice::from_ref(&u.id)).ok().and_then(|f| paths.as_mut()?.distance(s, &f));
                let at = u.anchor.unwrap_or_default();
                format!(
                    "{} [{}]: {} in {}, front centre ({:.1}, {:.1}) facing {:.0}, DISR {}{}, {} from the CinC",
                    u.name,
                    u.id,
                    u.arm.label(),
                    u.formation.label(),
                    at.x,
                    at.y,
                    u.facing.degrees(),
                    u.disruption,
                    if u.smoke { ", smoke" } else { "" },
                    dist.map(|d| format!("{d:.1} BW")).unwrap_or_else(|| "cut off".into())
                )
            })
            .collect();
        panels.push(Panel {
            title: "Your units".into(),
            lines,
        });
    }
    Sight {
        heading: heading(s),
        map: map(s),
        panels,
    }
}

/// The fire zones used this step, for the map.
fn fire_zones(s: &State) -> Vec<crate::view::ZoneView> {
    s.detail
        .fire
        .iter()
        .flat_map(|r| {
            let side = s.scenario.side_index(&r.side).unwrap_or(0);
            r.shots.iter().map(move |shot| crate::view::ZoneView {
                side,
                points: shot.zone.to_vec(),
            })
        })
        .collect()
}

/// A line from each attacker to each unit it engaged.
fn engagement_arrows(s: &State) -> Vec<ArrowView> {
    let Some(c) = &s.detail.combat else {
        return Vec::new();
    };
    let at = |id: &str| s.unit(id).and_then(|u| u.anchor);
    c.engagements
        .iter()
        .filter_map(|e| {
            let (a, d) = (at(&e.attacker)?, at(&e.defender)?);
            let side = s
                .unit(&e.attacker)
                .and_then(|u| s.scenario.side_index(&u.side))
                .unwrap_or(0);
            Some(ArrowView {
                kind: ArrowKind::Engaged,
                side,
                path: vec![a, d],
            })
        })
        .collect()
}

/// Each combat of the step: every score with its modifiers, and the results.
fn combat_panel(s: &State) -> Option<Panel> {
    let c = s.detail.combat.as_ref()?;
    if c.scores.is_empty() && c.charges.is_empty() {
        return None;
    }
    let name = |id: &str| {
        s.unit(id)
            .map(|u| u.short())
            .unwrap_or_else(|| id.to_string())
    };
    let mut lines = Vec::new();
    for e in &c.engagements {
        let mut flags = Vec::new();
        if e.contact {
            flags.push("in contact");
        } else {
            flags.push("within 1 BW");
        }
        if e.flanked {
            flags.push("flanked");
        }
        if e.cover {
            flags.push("defender has cover");
        }
        lines.push(format!(
            "{} engages {} ({})",
            name(&e.attacker),
            name(&e.defender),
            flags.join(", ")
        ));
    }
    for sc in &c.scores {
        let mods = super::modifiers::describe(&sc.modifiers);
        lines.push(format!(
            "{} [{}]: basic {}{}{} = {}, die {} : score {}",
            name(&sc.unit),
            s.side_name(&sc.side),
            sc.basic,
            if mods.is_empty() { "" } else { ", " },
            mods,
            sc.floored,
            sc.die,
            sc.score
        ));
    }
    for r in &c.results {
        lines.push(format!("{}: {}", name(&r.unit), r.outcome));
    }
    for f in &c.fall_backs {
        lines.push(format!(
            "{} falls back {:.1} BW{}{}",
            name(&f.unit),
            f.distance.get(),
            if f.broken { ", and breaks" } else { "" },
            f.reason
                .as_ref()
                .map(|r| format!(" ({r})"))
                .unwrap_or_default()
        ));
    }
    Some(Panel {
        title: "Combat this step".into(),
        lines,
    })
}

/// Each side's deployment zone (its third of the table), while the armies
/// deploy.
fn deployment_zones(s: &State) -> Vec<crate::view::ZoneView> {
    if !matches!(s.phase, Phase::Deployment) {
        return Vec::new();
    }
    let w = s.scenario.table.width.get();
    (0..s.scenario.sides.len())
        .map(|side| {
            let (y0, y1) = s.scenario.zone(side);
            crate::view::rect_zone(
                side,
                crate::geometry::Point::new(0.0, y0),
                crate::geometry::Point::new(w, y1),
            )
        })
        .collect()
}

/// A side's standing reactions in words, for its own report only.
pub fn standing_lines(s: &State, side: &SideId) -> Vec<String> {
    use super::reactions::{FirePolicy, Play, ReturnFire};
    let r = s.standing.get(side).cloned().unwrap_or_default();
    let name = |id: &str| {
        s.unit(id)
            .map(|u| u.short())
            .unwrap_or_else(|| id.to_string())
    };
    let mut lines = vec![match &r.return_fire {
        ReturnFire::Policy(FirePolicy::All) => "Return fire: every unit that can".to_string(),
        ReturnFire::Policy(FirePolicy::None) => "Return fire: none".to_string(),
        ReturnFire::Units(u) => format!(
            "Return fire: only {}",
            u.iter().map(|x| name(x)).collect::<Vec<_>>().join(", ")
        ),
    }];
    for a in &r.aims {
        lines.push(format!(
            "Aim: {}{} at {}",
            name(&a.unit),
            a.base.map(|b| format!(" base {b}")).unwrap_or_default(),
            name(&a.at)
        ));
    }
    let play = |kind: &str, p: &Play| {
        let mut t = format!(
            "{kind}: {} on {}",
            s.card_name(&p.card),
            crate::yaml::to_string(&p.on)
                .map(|y| y.trim().trim_start_matches("---").trim().to_string())
                .unwrap_or_default()
        );
        if let Some(u) = &p.unit {
            t.push_str(&format!(" ({})", name(u)));
        }
        if let Some(n) = &p.near {
            t.push_str(&format!(", when the enemy force comes near {}", name(n)));
            if let Some(w) = p.within {
                t.push_str(&format!(" (within {:.1} BW)", w.get()));
            }
        }
        t
    };
    lines.extend(r.interrupts.iter().map(|p| play("Interrupt", p)));
    lines.extend(r.modifiers.iter().map(|p| play("Modifier", p)));
    if r.interrupts.is_empty() && r.modifiers.is_empty() {
        lines.push("No interrupt or modifying card set to play".into());
    }
    lines
}

/// Before the first move: the scenario's title and description, and how the
/// battle is won (chapter 9: an army whose morale reaches zero breaks;
/// nightfall when the deck is spent and both sides pass).
fn briefing(s: &State) -> Vec<Panel> {
    if !matches!(s.phase, Phase::Deployment) {
        return Vec::new();
    }
    let mut victory = Vec::new();
    for (side, a) in &s.armies {
        victory.push(format!(
            "{} starts with army morale {}; it falls as its units break",
            s.side_name(side),
            a.morale
        ));
    }
    victory.push("The first army whose morale falls to 0 breaks: the other side wins".into());
    victory.push("When the deck is spent and both sides pass in turn, night falls: a draw".into());
    crate::view::briefing(&s.scenario.title, &s.scenario.description, victory)
}

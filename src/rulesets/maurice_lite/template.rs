//! Ready-to-edit orders for the side that owes them: choices as comments.
//! Every name from the scenario is printed quoted and every id as a YAML
//! scalar ([`crate::yaml::quoted`], [`crate::yaml::scalar`]): nothing a
//! scenario says can add a line to a file that players sign.

use super::forces::{Paths, check_force};
use super::reactions::Reactions;
use super::state::{Phase, State};
use crate::side::SideId;
use crate::yaml::{quoted, scalar};
use std::fmt::Write;

pub fn template(s: &State, side: &SideId) -> Option<String> {
    match &s.phase {
        Phase::Deployment => Some(deployment(s, side)),
        Phase::Round { active } if active == side => Some(round(s, side)),
        Phase::Decision { active, pending } if active == side => {
            let mut t = header(s, side);
            let drawn: Vec<String> = pending
                .drawn
                .iter()
                .map(|c| quoted(&s.card_name(c)))
                .collect();
            let _ = writeln!(
                t,
                "# You declared a {} and drew: {}",
                pending.action.label(),
                if drawn.is_empty() {
                    "nothing".into()
                } else {
                    drawn.join(", ")
                }
            );
            t.push_str("decide:\n  force: []            # unit ids of one legal force\n  cards: fewest        # or a list of card ids from your hand\n  moves: []            # for a March: - {unit: ID, steps: [{forward: 2}]}\n");
            Some(t)
        }
        Phase::Round { .. } | Phase::Decision { .. } => Some(reactions(s, side)),
        _ => None,
    }
}

fn header(s: &State, side: &SideId) -> String {
    let mut t = String::new();
    if let Some(a) = s.army(side) {
        let _ = writeln!(t, "# Your hand:");
        for c in a.hand.iter().filter_map(|c| s.deck.card(c)) {
            let _ = writeln!(t, "#   {}", c.describe_as(&quoted(&c.name)));
        }
        if let Some(c) = a.cinc {
            let _ = writeln!(t, "# CinC at x {:.1}, y {:.1}", c.x, c.y);
        }
    }
    let _ = writeln!(
        t,
        "# Your units (front centre, facing in degrees, DISR, BW from the CinC):"
    );
    // One set of paths round the enemy serves every unit.
    let mut paths = Paths::new(s, side);
    for u in s.live_units(side) {
        let at = u.anchor.unwrap_or_default();
        let d = check_force(s, side, std::slice::from_ref(&u.id))
            .ok()
            .and_then(|f| paths.as_mut()?.distance(s, &f));
        let _ = writeln!(
            t,
            "#   {:<8} {} - {} in {}, at ({:.1}, {:.1}) facing {:.0}, DISR {}{}, {}",
            scalar(&u.id),
            quoted(&u.name),
            u.arm.label(),
            u.formation.label(),
            at.x,
            at.y,
            u.facing.degrees(),
            u.disruption,
            if u.smoke { ", smoke" } else { "" },
            d.map(|d| format!("{d:.1} BW"))
                .unwrap_or_else(|| "cut off".into())
        );
    }
    t
}

fn round(s: &State, side: &SideId) -> String {
    let mut t = header(s, side);
    t.push_str(
        "# volleys: true invokes the volley phase (your infantry and guns fire, then the enemy's);\n\
         #   or list the units that fire: volleys: [UNIT, UNIT] (the others hold their fire).\n\
         # command: pass | event: CARD | march: {...} | rally: {...} | bombard: {...} | charge: {...}\n\
         # A force (same arm, formation and ground, each within 2 BW of another) and its\n\
         # cards: a list of ids, or `fewest` (drawn cards allowed); or `consult: true`.\n\
         # March steps: forward: N | back: N | wheel: {pivot: left, degrees: 30}\n\
         #   wheel: the pivot corner stays put, degrees (0 to 180) is only the size of the turn:\n\
         #   pivot right turns the unit to its right (clockwise on the map), pivot left to its\n\
         #   left (anticlockwise); with backward: true the other way round.\n\
         #   | path: [{x: 1, y: 2}] (columns, artillery) | formation: {to: column, turn: right}\n\
         #   | about_face (cavalry)\n\
         # Charge: charges: [{unit: ID, wheel: {pivot: left, degrees: 10}, target: ENEMY}],\n\
         #   the rest of the force may move in `moves` (no retrograde, no contact).\n\
         # modify: [CARD] plays modifying cards you hold, one of each symbol.\n\
         round:\n  volleys: false\n  command: pass\n  # command:\n  #   march:\n  #     force: [UNIT, UNIT]\n  #     cards: fewest\n  #     moves:\n  #       - unit: UNIT\n  #         steps: [{forward: 2}]\n  # modify: []\n  # cinc: {to: {x: 0, y: 0}}   # costs one card\n",
    );
    t
}

/// Standing reactions for a side that is passive.
fn reactions(s: &State, side: &SideId) -> String {
    let mut t = header(s, side);
    t.push_str(
        "# You are passive: you owe nothing, but you may send standing reactions,\n\
         # kept until you replace them.\n\
         # return_fire: all | none | [UNIT, ...]\n\
         # interrupts: [{card: CARD, on: volleys|march|charge|bombard|rally, near: UNIT, within: 6}]\n\
         # modifiers: [{card: CARD, on: volleys|bombard}, {card: CARD, on: charged, unit: UNIT}]\n",
    );
    t.push_str(&standing(s, side));
    t
}

/// The `reactions:` block a side has in force, so that the template sent
/// back as it is keeps them; the defaults for a side that has sent none.
/// Written by the YAML writer: ids and card names come back quoted as
/// needed and cannot add a line of their own.
pub fn standing(s: &State, side: &SideId) -> String {
    let Some(r) = s.standing.get(side).filter(|r| **r != Reactions::default()) else {
        return "reactions:\n  return_fire: all\n  interrupts: []\n  modifiers: []\n".into();
    };
    let mut t =
        String::from("# These reactions are in force; send them back as they are to keep them.\n");
    match crate::yaml::to_string(&Standing { reactions: r }) {
        Ok(y) => t.push_str(y.trim_start_matches("---\n")),
        // Cannot fail for these plain types; the defaults are still a valid file.
        Err(_) => t.push_str("reactions:\n  return_fire: all\n  interrupts: []\n  modifiers: []\n"),
    }
    t
}

#[derive(serde::Serialize)]
struct Standing<'a> {
    reactions: &'a Reactions,
}

fn deployment(s: &State, side: &SideId) -> String {
    let mut t = String::new();
    let index = s.scenario.side_index(side).unwrap_or(0);
    let (y0, y1) = s.scenario.zone(index);
    let w = s.scenario.table.width.get();
    let _ = writeln!(
        t,
        "# Deploy every unit wholly inside y {y0:.1} to {y1:.1}, x 0 to {w:.1}."
    );
    let _ = writeln!(
        t,
        "# `at` is the centre of the unit's front edge; facing 0 looks up the table, 180 down."
    );
    // A legal default: rows of units abreast with a 1 BW gap, the front row
    // toward the enemy, cavalry massed, wrapping to a new row 2 BW behind.
    let toward = if index == 0 { -1.0 } else { 1.0 };
    let mut y = if index == 0 { y1 - 0.5 } else { y0 + 0.5 };
    let facing = if index == 0 { 0.0 } else { 180.0 };
    let mut x = 1.0;
    t.push_str("deploy:\n");
    let _ = writeln!(
        t,
        "  cinc: {{x: {:.1}, y: {:.1}}}",
        w / 2.0,
        if index == 0 { y0 + 0.5 } else { y1 - 0.5 }
    );
    t.push_str("  units:\n");
    for u in s.units.iter().filter(|u| &u.side == side) {
        let formation = match u.arm {
            super::units::Arm::Cavalry => super::units::Formation::Massed,
            _ => u.formation,
        };
        let (width, depth) = match formation {
            super::units::Formation::Line => (4.0, 0.75),
            super::units::Formation::Massed => (2.0, 1.5),
            super::units::Formation::Column => (1.0, 3.0),
            super::units::Formation::Battery => (1.0, 0.75),
        };
        if x + width > w - 1.0 {
            x = 1.0;
            y += toward * 2.5;
        }
        let _ = depth;
        let _ = writeln!(
            t,
            "    - {{unit: {}, at: {{x: {:.1}, y: {:.1}}}, facing: {facing}, formation: {}}}   # {}, {}",
            scalar(&u.id),
            x + width / 2.0,
            y,
            formation.label(),
            quoted(&u.name),
            u.arm.label()
        );
        x += width + 1.0;
    }
    t
}

//! Ready-to-edit orders with each unit's choices as comments. Names are
//! quoted and ids written as YAML scalars, so nothing a scenario says can
//! add a line to a signed file.

use super::examples;
use super::fire::barrier;
use super::fire_phases::cannot_square;
use super::formation::Formation;
use super::movement::allowance;
use super::options::{Names, TITLE, lines};
use super::state::{Pending, Phase, State};
use super::tables::Arm;
use super::view::unit_line;
use crate::side::SideId;
use crate::yaml::{quoted, scalar};
use std::fmt::Write;

pub fn template(s: &State, side: &SideId) -> Option<String> {
    let mut t = String::new();
    let _ = writeln!(t, "# Your units:");
    for u in s.live(side) {
        let _ = writeln!(t, "#   {}", unit_line(u, &quoted(&u.name), &scalar(&u.id)));
    }
    let names = Names {
        name: quoted,
        id: scalar,
    };
    let _ = writeln!(t, "# {TITLE}:");
    for line in lines(s, side, &names) {
        let _ = writeln!(t, "#   {line}");
    }
    match &s.phase {
        Phase::Setup => {
            t.push_str(
                "# Formations: infantry line | column | square | skirmish | deployed;\n\
                 # cavalry line | column; artillery limbered | unlimbered.\n\
                 # Each entry: {unit: ID, formation: column, at: {x: 0, y: 0}, facing: 0}\n\
                 #   (at and facing are optional: the unit's bases must stay in your deployment zone)\n",
            );
            t.push_str(UNCOMMENT);
            t.push_str("deploy:\n");
            list(&mut t, "formations", &examples::formations(s, side));
            Some(t)
        }
        Phase::Turn { phasing, .. } if phasing == side => {
            turn(&mut t, s, side);
            Some(t)
        }
        Phase::Turn { .. } => {
            t.push_str("# Standing reactions for the other side's turn (kept until replaced).\n");
            t.push_str(UNCOMMENT);
            t.push_str(
                "reactions:\n  \
                 # Cavalry that withdraw 2D6 cm when enemy foot or guns come within 10 cm (default: none)\n",
            );
            list(&mut t, "withdraw", &examples::reactions(s, side, true));
            t.push_str(
                "  # square: cavalry_near (the default: form square when enemy cavalry is within 14 cm) or never\n  \
                 square: cavalry_near\n  \
                 # Units that hold their defensive fire (default: every unit fires)\n",
            );
            list(&mut t, "hold_fire", &examples::reactions(s, side, false));
            t.push_str(
                "  # Batteries that combine their defensive fire: {unit: BATTERY, with: SECOND_BATTERY}\n  \
                 #   (when in contact, the second adds its fire mod to the first's shot, a 0 adding 1,\n  \
                 #   and fires no shot of its own; default: each battery fires on its own)\n",
            );
            list(&mut t, "combine", &examples::combines(s, side));
            t.push_str(
                "  # consult: true pauses the other side's turn after its movement for your own\n  \
                 #   decision: which cavalry withdraw, and defensive fire (square or fire, unit\n  \
                 #   by unit), instead of the lines above; default false\n  \
                 consult: false\n",
            );
            Some(t)
        }
        Phase::Decision {
            phasing, pending, ..
        } if phasing != side => {
            decision_notes(&mut t, s, side, pending);
            t.push_str(UNCOMMENT);
            t.push_str(
                "decide:\n  \
                 # standing: true lets your standing reactions decide instead (and name no units)\n  \
                 # Cavalry that withdraw (default: none withdraw)\n",
            );
            list(&mut t, "withdraw", &examples::withdrawals(s, side));
            t.push_str("  # Infantry that form square\n");
            list(&mut t, "square", &examples::squares(s, side));
            t.push_str(
                "  # Units that fire, each at one target: {unit: ID, target: ENEMY}; a battery may\n  \
                 #   add with: SECOND_BATTERY, a battery in contact that combines its fire mod (a 0\n  \
                 #   adding 1) and fires no shot of its own\n",
            );
            list(&mut t, "fire", &examples::shots(s, side));
            Some(t)
        }
        Phase::Decision { .. } | Phase::Over(_) => None,
    }
}

/// Said once above the orders: how the list keys are meant to be used.
const UNCOMMENT: &str = "\
# Under each list key, uncomment (delete the `# ` of) the entries you want and
# keep the key: a key with no entry orders nothing. Each example is an order
# your units could be given now.
";

/// A live list key at two spaces with its example entries commented right
/// under it, each one line that uncommented is an entry of that list.
fn list(t: &mut String, key: &str, entries: &[String]) {
    let _ = writeln!(t, "  {key}:");
    if entries.is_empty() {
        t.push_str("    # (no example now)\n");
    }
    for e in entries {
        let _ = writeln!(t, "    # - {e}");
    }
}

/// The phasing side's turn: what each unit may move and each corps'
/// passes as notes, then each phase's list with its examples.
fn turn(t: &mut String, s: &State, side: &SideId) {
    let _ = writeln!(
        t,
        "# Moves (cm; halved with a change of facing or formation; road: true for a whole road move):"
    );
    for u in s.live(side) {
        let _ = writeln!(
            t,
            "#   {}: {:.0} cm as it stands, {:.0} cm if it turns{}",
            scalar(&u.id),
            allowance(u, u.formation, false, false),
            allowance(u, u.formation, true, false),
            if u.arm() == Arm::Cavalry {
                "; may charge 12 cm straight ahead"
            } else {
                ""
            }
        );
    }
    for c in s.corps.iter().filter(|c| &c.side == side) {
        let _ = writeln!(
            t,
            "# {} ({}): {} morale passes, within 30 cm",
            quoted(&c.commander),
            scalar(&c.id),
            c.passes
        );
    }
    t.push_str(UNCOMMENT);
    t.push_str(
        "turn:\n  # Rally: disordered units on which their corps commander spends a morale pass\n",
    );
    list(t, "passes", &examples::passes(s, side));
    t.push_str(
        "  # Movement, in order: {unit: ID, to: {x: 0, y: 0}, facing: 0, formation: column, road: false}\n  \
         #   optional via: [{x: 0, y: 0}, ...] waypoints before `to`; the legs' total\n  \
         #   counts against the allowance, and a road move keeps to the road every leg\n",
    );
    list(t, "moves", &examples::moves(s, side));
    t.push_str("  # Divisional generals join a unit of their corps: {general: ID, unit: ID}\n");
    list(t, "generals", &examples::generals(s, side));
    t.push_str("  # Corps commanders ride at most 60 cm: {corps: ID, to: {x: 0, y: 0}}\n");
    list(t, "commanders", &examples::commanders(s, side));
    t.push_str(
        "  # Charges, in order: {unit: CAVALRY, target: ENEMY, if_controlled: stay | fall_back\n  \
         #   | {move: {to: {x: 0, y: 0}, facing: 0, formation: line}} | {charge: ENEMY}}\n  \
         #   (if_controlled: what it does on a \"controlled\" cavalry control result)\n",
    );
    list(t, "charges", &examples::charges(s, side));
    t.push_str("  # Advancing fire: {unit: ID, target: ENEMY, with: SECOND_BATTERY}\n");
    list(t, "fire", &examples::fire(s, side));
}

/// The decision's notes: the cavalry that may withdraw, and each unit's
/// defensive fire or square.
fn decision_notes(t: &mut String, s: &State, side: &SideId, pending: &Pending) {
    t.push_str(
        "# Cavalry withdrawal: enemy foot or guns came within 10 cm of these; each named\n\
         # withdraws 2D6 cm away from that enemy, then rolls on the rally table:\n",
    );
    if pending.withdrawals.is_empty() {
        t.push_str("#   (none)\n");
    }
    for w in &pending.withdrawals {
        let _ = writeln!(t, "#   {}: from {}", scalar(&w.unit), scalar(&w.by));
    }
    t.push_str("# Defensive fire: each unit forms square or fires, not both.\n");
    for u in s.live(side) {
        if pending.locked.contains(&u.id) {
            continue;
        }
        let targets: Vec<String> = s
            .enemies(side)
            .filter(|e| barrier(s, u, e, &pending.locked).is_none())
            .map(|e| scalar(&e.id))
            .collect();
        let square = cannot_square(s, u).is_none() && u.formation != Formation::Square;
        if targets.is_empty() && !square {
            continue;
        }
        let _ = writeln!(
            t,
            "#   {}:{}{}",
            scalar(&u.id),
            if square { " may form square;" } else { "" },
            if targets.is_empty() {
                String::new()
            } else {
                format!(" may fire at {}", targets.join(", "))
            }
        );
    }
}

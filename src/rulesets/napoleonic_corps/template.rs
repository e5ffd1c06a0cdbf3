//! Ready-to-edit orders with each unit's choices as comments. Names are
//! quoted and ids written as YAML scalars, so nothing a scenario says can
//! add a line to a signed file.

use super::fire::barrier;
use super::fire_phases::cannot_square;
use super::formation::Formation;
use super::movement::allowance;
use super::options::{Names, TITLE, lines};
use super::state::{Phase, State};
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
                 # formations: [{unit: ID, formation: column, at: {x: 0, y: 0}, facing: 0}]\n\
                 # (at and facing are optional: the unit's bases must stay in your deployment zone)\n\
                 deploy:\n  formations: []\n",
            );
            Some(t)
        }
        Phase::Turn { phasing, .. } if phasing == side => {
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
            t.push_str(
                "# passes: [UNIT]  spends a morale pass on a disordered unit\n\
                 # moves: [{unit: ID, to: {x: 0, y: 0}, facing: 0, formation: column, road: false}]\n\
                 #   optional via: [{x: 0, y: 0}, ...]  waypoints before `to`; the legs' total\n\
                 #   counts against the allowance, and a road move keeps to the road every leg\n\
                 # generals: [{general: ID, unit: ID}]   commanders: [{corps: ID, to: {x: 0, y: 0}}]\n\
                 # charges: [{unit: CAVALRY, target: ENEMY, if_controlled: stay | fall_back\n\
                 #   | {move: {to: {x: 0, y: 0}, facing: 0, formation: line}} | {charge: ENEMY}}]\n\
                 #   (if_controlled: what it does on a \"controlled\" cavalry control result)\n\
                 # fire: [{unit: ID, target: ENEMY, with: SECOND_BATTERY}]\n\
                 turn:\n  passes: []\n  moves: []\n  charges: []\n  fire: []\n",
            );
            Some(t)
        }
        Phase::Turn { .. } => {
            t.push_str(
                "# Standing reactions for the other side's turn (kept until replaced):\n\
                 # withdraw: [CAVALRY]  withdraw 2D6 cm when enemy foot or guns come within 10 cm (default: none)\n\
                 # square: cavalry_near | never  (default cavalry_near: form square when enemy cavalry is within 14 cm)\n\
                 # hold_fire: [UNIT]  (default: every unit fires in defensive fire)\n\
                 # consult: true  pause the other side's turn after its movement for your own\n\
                 #   decision: which cavalry withdraw, and defensive fire (square or fire, unit\n\
                 #   by unit), instead of the lines above; default false\n\
                 reactions:\n  withdraw: []\n  square: cavalry_near\n  hold_fire: []\n  consult: false\n",
            );
            Some(t)
        }
        Phase::Decision {
            phasing, pending, ..
        } if phasing != side => {
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
            t.push_str("# withdraw: [CAVALRY]  (default: none withdraw)\n");
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
            t.push_str(
                "# square: [INFANTRY]   fire: [{unit: ID, target: ENEMY}]\n\
                 # standing: true  lets your standing reactions decide instead\n\
                 decide:\n  withdraw: []\n  square: []\n  fire: []\n",
            );
            Some(t)
        }
        Phase::Decision { .. } | Phase::Over(_) => None,
    }
}

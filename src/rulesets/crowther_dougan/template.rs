//! Ready-to-edit orders with each unit's choices as comments. Names are
//! quoted and ids written as YAML scalars, so nothing a scenario says can
//! add a line to a signed file. Only enemies the side sees are named.

use super::movement::charge_reach;
use super::state::{Phase, State, Status};
use super::view::unit_line;
use crate::side::SideId;
use crate::yaml::{quoted, scalar};
use std::fmt::Write;

pub fn template(s: &State, side: &SideId) -> Option<String> {
    let Phase::Move { n, active } = &s.phase else {
        return None;
    };
    let mut t = String::new();
    let _ = writeln!(t, "# Move {n}. Your units ({}):", super::view::FACTORS);
    for u in s.live(side) {
        let _ = writeln!(t, "#   {}", unit_line(u, &quoted(&u.name), &scalar(&u.id)));
    }
    // The enemy units are listed once, below, as the side sees them.
    let enemies: Vec<_> = s.known_enemies(side).collect();
    let smoke = super::view::smoke_lines(s, side);
    if !smoke.is_empty() {
        let _ = writeln!(t, "# Enemy gun smoke seen:");
    }
    for line in smoke {
        let _ = writeln!(t, "#   {line}");
    }
    if let Some(lines) = super::options::lines(s, side, super::options::YAML) {
        let _ = writeln!(t, "# {}:", super::options::TITLE);
        for line in lines {
            let _ = writeln!(t, "#   {line}");
        }
    }
    for p in s.persons.iter().filter(|p| &p.side == side && !p.hit) {
        let _ = writeln!(
            t,
            "# Personality {} ({}): {} command points, with {}",
            quoted(&p.name),
            scalar(&p.id),
            p.points,
            p.with.as_deref().map_or("nobody".into(), scalar)
        );
    }
    if active != side {
        t.push_str(
            "# Standing reactions for the enemy's move (kept until replaced):\n\
             # pledges: [{personality: ID, unit: ID, points: 1}]  command points pledged in\n\
             #   advance to that unit's tests in the enemy's move (shooting casualties,\n\
             #   charge home, losing hand to hand); default: none\n\
             reactions:\n  pledges: []\n",
        );
        return Some(t);
    }
    let _ = writeln!(
        t,
        "# Charges possible (target within 150% of a normal move):"
    );
    for u in s.live(side).filter(|u| u.status == Status::Good) {
        for e in enemies.iter().filter(|e| s.unit_sees(u, e)) {
            if charge_reach(s, u, e).is_some_and(|r| s.gap(u, e) <= r) {
                let _ = writeln!(
                    t,
                    "#   {{unit: {}, target: {}}}  {:.1} cm",
                    scalar(&u.id),
                    scalar(&e.id),
                    s.gap(u, e)
                );
            }
        }
    }
    t.push_str(
        "# observe: [{unit: ID, at: {x: 0, y: 0}}]  one area 20 cm across per unit, tested\n\
         #   in secret whether or not anything is there\n\
         # charges: [{unit: ID, target: ENEMY}]\n\
         # pledges: [{personality: ID, unit: ID, points: 1}]  +1 a point on this move's tests\n\
         # recall: [{personality: ID, unit: PURSUER}]  2 points: a new order, the pursuit stops\n\
         # fire: [{unit: ID, target: ENEMY}]  loaded units, once a move\n\
         # moves: [{unit: ID, to: {x: 0, y: 0}, formation: line | column | open | limbered | unlimbered, about: false}]\n\
         #   a formation change costs a close-order unit its move, turning about a quarter,\n\
         #   limbering half; no closer than 5 cm to an enemy unless charging\n\
         # personalities: [{personality: ID, unit: ID}]\n\
         move:\n  observe: []\n  charges: []\n  pledges: []\n  fire: []\n  moves: []\n",
    );
    Some(t)
}

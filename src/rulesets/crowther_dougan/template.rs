//! Ready-to-edit orders with each unit's choices as comments. Names are
//! quoted and ids written as YAML scalars, so nothing a scenario says can
//! add a line to a signed file. Only enemies the side sees are named.
//!
//! Every list key is live and left empty, its example entries commented
//! right under it (`examples.rs`: each one an order the check takes now),
//! so that deleting a `# ` gives a valid entry at the right indentation;
//! the rarer lists (`recall`, `personalities`) have their key commented
//! too. The explanation of a key stands above it.

use super::examples::{Examples, move_examples, reaction_examples};
use super::movement::charge_reach;
use super::orders::{ChargeOrder, FireOrder, Join, Move, Observe, Pledge, Recall};
use super::state::{Phase, State};
use super::view::unit_line;
use crate::geometry::Point;
use crate::side::{SideId, Sides};
use crate::yaml::{quoted, scalar};
use std::fmt::Write;

pub fn template(s: &State, side: &SideId) -> Option<String> {
    if matches!(s.phase, Phase::Setup) {
        return deployment(s, side);
    }
    let Phase::Move { n, active } = &s.phase else {
        return None;
    };
    let mut t = String::new();
    header(&mut t, s, side, *n);
    if active != side {
        reactions(&mut t, s, side);
    } else {
        move_orders(&mut t, s, side);
    }
    Some(t)
}

/// The side's units, the enemy smoke it sees, what it can do now and its
/// personalities, as comments. The enemy units are listed once, in what
/// it can do now, as the side sees them.
fn header(t: &mut String, s: &State, side: &SideId, n: u32) {
    let _ = writeln!(t, "# Move {n}. Your units ({}):", super::view::FACTORS);
    for u in s.live(side) {
        let _ = writeln!(t, "#   {}", unit_line(u, &quoted(&u.name), &scalar(&u.id)));
    }
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
}

fn reactions(t: &mut String, s: &State, side: &SideId) {
    t.push_str("# Standing reactions for the enemy's move (kept until replaced):\nreactions:\n");
    let entries: Vec<String> = reaction_examples(s, side).iter().map(pledge).collect();
    live_list(
        t,
        "pledges",
        &[
            "command points pledged in advance to the unit's tests in the",
            "enemy's move (shooting casualties, charge home, losing hand to hand),",
            "each {personality: ID, unit: ID, points: 1}; default: none",
        ],
        &entries,
    );
}

fn move_orders(t: &mut String, s: &State, side: &SideId) {
    let x = move_examples(s, side);
    t.push_str("move:\n");
    live_list(
        t,
        "observe",
        &[
            "one area 20 cm across per unit, tested in secret whether or not",
            "anything is there; each {unit: ID, at: {x: X, y: Y}}",
        ],
        &x.observe.iter().map(observe).collect::<Vec<_>>(),
    );
    live_list(
        t,
        "charges",
        &[
            "a known enemy the unit sees within 150% of its normal move (less",
            "3 cm a die of ground crossed); each {unit: ID, target: ENEMY};",
            "target: found charges what the unit finds by its own observe entry",
        ],
        &x.charges.iter().map(|c| charge(s, c)).collect::<Vec<_>>(),
    );
    live_list(
        t,
        "pledges",
        &[
            "+1 a point on this move's tests of the unit the personality is",
            "with; each {personality: ID, unit: ID, points: 1}",
        ],
        &x.pledges.iter().map(pledge).collect::<Vec<_>>(),
    );
    commented_list(
        t,
        "recall",
        &[
            "2 points of the personality with a pursuing unit: a new order,",
            "the pursuit stops; each {personality: ID, unit: PURSUER}",
        ],
        &x.recall.iter().map(recall).collect::<Vec<_>>(),
    );
    rest(t, &x);
}

/// The setup step's orders, for a side with hidden units: its zones and
/// hidden units as comments, then the placements, each suggested place
/// an example (the scenario's, which the other side may know too).
fn deployment(s: &State, side: &SideId) -> Option<String> {
    if !super::deploy::deployers(s).contains(side) {
        return None;
    }
    let spec = s.scenario.side(side)?;
    let mut t = String::from(
        "# Setup: place your hidden units, in secret: the enemy never reads these orders.\n# Your deployment zones:\n",
    );
    for z in &spec.zones {
        let corners: Vec<String> = z.points.iter().map(|p| point(*p)).collect();
        let _ = writeln!(
            t,
            "#   {} ({}): {}",
            quoted(&z.name),
            scalar(&z.id),
            corners.join(" ")
        );
    }
    let _ = writeln!(
        t,
        "# Your hidden units (a unit left out stands at its suggested place):"
    );
    for u in spec.units.iter().filter(|u| u.hidden) {
        let zones: Vec<String> = spec.zones_of(u).map(|z| scalar(&z.id)).collect();
        let _ = writeln!(
            t,
            "#   {} ({}): {}, {} figures; zones {}; suggested {} facing {:.0}",
            quoted(&u.name),
            scalar(&u.id),
            u.troop.label(),
            u.figures,
            zones.join(", "),
            point(u.at),
            u.facing
        );
    }
    t.push_str("deploy:\n");
    let entries: Vec<String> = super::deploy::suggested(s, side)
        .units
        .iter()
        .map(placement)
        .collect();
    live_list(
        &mut t,
        "units",
        &[
            "each {unit: ID, at: {x: X, y: Y}, facing: DEGREES, formation: F}",
            "(facing and formation optional), the centre inside one of the",
            "unit's zones; the suggestions below are the scenario's places",
        ],
        &entries,
    );
    Some(t)
}

fn placement(p: &super::orders::Placement) -> String {
    let facing = p
        .facing
        .map(|f| format!(", facing: {f:.0}"))
        .unwrap_or_default();
    format!("{{unit: {}, at: {}{facing}}}", scalar(&p.unit), point(p.at))
}

/// Fire, moves and personalities joining units: phases 2 and 4.
fn rest(t: &mut String, x: &Examples) {
    live_list(
        t,
        "fire",
        &[
            "loaded units, once a move, at a known enemy the unit sees in",
            "range; each {unit: ID, target: ENEMY}; target: found fires at what",
            "the unit finds by its own observe entry this move",
        ],
        &x.fire.iter().map(fire).collect::<Vec<_>>(),
    );
    live_list(
        t,
        "moves",
        &[
            "each {unit: ID, to: {x: X, y: Y}, formation: line | column | open |",
            "limbered | unlimbered, about: true} (all but unit optional);",
            "a formation change costs a close-order unit its move, turning about",
            "a quarter, limbering half; no closer than 5 cm to an enemy unless",
            "charging",
        ],
        &x.moves.iter().map(movement).collect::<Vec<_>>(),
    );
    commented_list(
        t,
        "personalities",
        &["a personality joins a unit; each {personality: ID, unit: ID}"],
        &x.personalities.iter().map(join).collect::<Vec<_>>(),
    );
}

/// The key's explanation, then the key itself, left empty (it reads as
/// no entries), then its examples commented at the entries' indentation.
fn live_list(t: &mut String, key: &str, help: &[&str], entries: &[String]) {
    explain(t, key, help);
    let _ = writeln!(t, "  {key}:");
    for e in entries {
        let _ = writeln!(t, "    # - {e}");
    }
}

/// As [`live_list`], the key commented too; written only with examples,
/// so that uncommenting the key and one entry gives a list.
fn commented_list(t: &mut String, key: &str, help: &[&str], entries: &[String]) {
    explain(t, key, help);
    if entries.is_empty() {
        return;
    }
    let _ = writeln!(t, "  # {key}:");
    for e in entries {
        let _ = writeln!(t, "  #   - {e}");
    }
}

/// What a key means, above it: no line of it reads as an entry.
fn explain(t: &mut String, key: &str, help: &[&str]) {
    for (i, line) in help.iter().enumerate() {
        if i == 0 {
            let _ = writeln!(t, "  # {key}: {line}");
        } else {
            let _ = writeln!(t, "  #   {line}");
        }
    }
}

fn point(p: Point) -> String {
    format!("{{x: {:.1}, y: {:.1}}}", p.x, p.y)
}

fn observe(o: &Observe) -> String {
    format!("{{unit: {}, at: {}}}", scalar(&o.unit), point(o.at))
}

/// A charge, with the distance and the reach after it as a YAML comment
/// (uncommented, the entry keeps it as a comment).
fn charge(s: &State, c: &ChargeOrder) -> String {
    let entry = format!(
        "{{unit: {}, target: {}}}",
        scalar(&c.unit),
        scalar(&c.target)
    );
    let (Some(u), Some(e)) = (s.unit(&c.unit), s.unit(&c.target)) else {
        return entry;
    };
    match charge_reach(s, u, e) {
        Some(r) => format!("{entry}  # {:.1} cm, reach {r:.1} cm", s.gap(u, e)),
        None => entry,
    }
}

fn pledge(p: &Pledge) -> String {
    format!(
        "{{personality: {}, unit: {}, points: {}}}",
        scalar(&p.personality),
        scalar(&p.unit),
        p.points
    )
}

fn recall(r: &Recall) -> String {
    format!(
        "{{personality: {}, unit: {}}}",
        scalar(&r.personality),
        scalar(&r.unit)
    )
}

fn fire(f: &FireOrder) -> String {
    format!(
        "{{unit: {}, target: {}}}",
        scalar(&f.unit),
        scalar(&f.target)
    )
}

/// A move example: where to (the examples change no formation).
fn movement(m: &Move) -> String {
    match m.to {
        Some(to) => format!("{{unit: {}, to: {}}}", scalar(&m.unit), point(to)),
        None => format!("{{unit: {}}}", scalar(&m.unit)),
    }
}

fn join(j: &Join) -> String {
    format!(
        "{{personality: {}, unit: {}}}",
        scalar(&j.personality),
        scalar(&j.unit)
    )
}

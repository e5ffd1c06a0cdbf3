//! Ready-to-edit orders for the side that owes them, with each company's
//! choices as comments. Names are printed quoted and ids as YAML scalars
//! ([`crate::yaml::quoted`], [`crate::yaml::scalar`]), so nothing a
//! scenario says can add a line to a file that players sign.

use super::state::{Phase, State};
use super::view::company_line_as;
use crate::side::SideId;
use crate::yaml::{quoted, scalar};
use std::fmt::Write;

pub fn template(s: &State, side: &SideId) -> Option<String> {
    match &s.phase {
        Phase::Deployment => Some(deployment(s, side)),
        Phase::HalfTurn { active, .. } if active == side => Some(turn(s, side)),
        _ => None,
    }
}

fn companies(s: &State, side: &SideId, t: &mut String) {
    let _ = writeln!(t, "# Your companies:");
    for c in s.live(side) {
        let _ = writeln!(
            t,
            "#   {}",
            company_line_as(c, &quoted(&c.name), &scalar(&c.id))
        );
    }
}

fn deployment(s: &State, side: &SideId) -> String {
    let mut t = String::new();
    companies(s, side, &mut t);
    let zone = s
        .scenario
        .sides
        .iter()
        .find(|x| &x.id == side)
        .and_then(|x| x.zone);
    match zone {
        Some(z) => {
            let _ = writeln!(
                t,
                "# You may redeploy inside x {} to {}, y {} to {}:\n#   companies: [{{company: ID, at: {{x: 0, y: 0}}, facing: 0}}]",
                z.min.x, z.max.x, z.min.y, z.max.y
            );
        }
        None => t.push_str("# The scenario fixes your positions.\n"),
    }
    t.push_str(
        "# generals: [{general: ID, attach: COMPANY}] joins a general to a company.\n\
         # if_winner: first | second - your choice should you win the dice-off.\n\
         deploy:\n  if_winner: first\n  companies: []\n  generals: []\n",
    );
    hits(s, side, &mut t);
    t
}

/// E.2, E.4, E.5: the side's generals and how to move them.
fn generals(s: &State, side: &SideId, t: &mut String) {
    let mine: Vec<&super::state::General> = s
        .generals
        .iter()
        .filter(|g| &g.side == side && !g.killed)
        .collect();
    if mine.is_empty() {
        return;
    }
    let _ = writeln!(
        t,
        "  # Generals ride up to {} in before any company acts; one with a company goes where it goes:",
        super::general_orders::GENERAL_MOVE
    );
    for g in &mine {
        let at = s.general_at(g);
        let _ = writeln!(
            t,
            "  #   {} {} at ({:.1}, {:.1}){}",
            scalar(&g.id),
            quoted(&g.name),
            at.x,
            at.y,
            g.attached
                .as_ref()
                .map(|a| format!(", with {}", scalar(a)))
                .unwrap_or_default()
        );
    }
    t.push_str(
        "  # Each: {general: ID, to: {x: X, y: Y}} | {general: ID, attach: COMPANY} | {general: ID, detach: true}\n\
         \x20 # To give any, uncomment `generals:` and an entry (this one leaves him where he is):\n\
         \x20 # generals:\n",
    );
    let g = mine[0];
    let _ = match &g.attached {
        Some(c) => writeln!(
            t,
            "  #   - {{general: {}, attach: {}}}",
            scalar(&g.id),
            scalar(c)
        ),
        None => {
            let at = s.general_at(g);
            writeln!(
                t,
                "  #   - {{general: {}, to: {{x: {:.1}, y: {:.1}}}}}",
                scalar(&g.id),
                at.x,
                at.y
            )
        }
    };
}

/// E.1: how the side's formed regiments share hits from shooting.
fn hits(s: &State, side: &SideId, t: &mut String) {
    let Some(spec) = s.scenario.sides.iter().find(|x| &x.id == side) else {
        return;
    };
    if !s.scenario.options.formed_regiments || spec.regiments.is_empty() {
        return;
    }
    t.push_str(
        "  # Hits from shooting on a formed regiment go, by default, each to its company\n\
         \x20 # with the most strength left. To choose, name the companies that take them first\n\
         \x20 # ({regiment: ID, first: [COMPANY, ...]}; first: [] returns to the default).\n",
    );
    for r in &spec.regiments {
        if let Some(first) = s.hit_shares.get(&r.id) {
            let names: Vec<String> = first.iter().map(|c| scalar(c)).collect();
            let _ = writeln!(
                t,
                "  #   now {}: hits go first to {}",
                scalar(&r.id),
                names.join(", ")
            );
        }
    }
    t.push_str("  # To choose, uncomment `hits:` and an entry:\n  # hits:\n");
    if let Some(r) = spec.regiments.first() {
        let _ = writeln!(
            t,
            "  #   - {{regiment: {}, first: [{}]}}",
            scalar(&r.id),
            r.companies.first().map(|c| scalar(c)).unwrap_or_default()
        );
    }
}

fn turn(s: &State, side: &SideId) -> String {
    let mut t = String::new();
    companies(s, side, &mut t);
    t.push_str(
        "# List companies in the order they act. For each:\n\
         #   sequence: move_then_shoot | shoot_then_move | move_only | shoot_only | melee_then_move | hold\n\
         #   path: [{pivot: 45}, {forward: 6}, {to: {x: 10, y: 20}}]   (pivots are free)\n\
         #   road: true claims +50% for a move wholly along a road\n\
         #   target: ENEMY   charge: {target: ENEMY, flank: false, pursue: false}\n\
         #   (a charge without a path goes straight at its target; `flank`\n\
         #   claims a flank attack; cavalry with `pursue` may follow up 3 in)\n\
         #   breach: WALL   breach a high wall or gate (C.6): engineers that reach it,\n\
         #   or a heavy gun within 12 in as its shooting (`target: WALL`, the older\n\
         #   spelling for a gun, is still accepted)\n\
         #   demolish: BRIDGE   engineers, with a wagon within 3 in, bring it down\n\
         #   (a target may be a lone enemy general if he is the closest)\n\
         #   fallback: nearest | hold   (if the order becomes impossible)\n\
         # \"Within 3 in\" includes exactly 3 in: a move that is not a charge stops short of it.\n\
         turn:\n  actions:\n",
    );
    let spec = s.scenario.sides.iter().find(|x| &x.id == side);
    if s.scenario.options.formed_regiments
        && let Some(spec) = spec
        && !spec.regiments.is_empty()
    {
        let ids: Vec<String> = spec.regiments.iter().map(|r| scalar(&r.id)).collect();
        let _ = writeln!(
            t,
            "    # A formed regiment (companies touching) may act as one entry:\n    #   - {{regiment: ID, ...}}  one of: {}",
            ids.join(", ")
        );
        if s.scenario.options.command_control {
            t.push_str(
                "    #   into_line: right | left | both   on a command die of 1-2, bring its\n    #   companies in the rear up into line beside its head (E.2)\n",
            );
        }
    }
    for c in s.live(side) {
        let charge = match (c.profile.troop.may_charge(), c.profile.troop) {
            (true, _) => "",
            (false, super::units::TroopType::Engineers) if s.scenario.options.engineering => {
                "   # may not charge; may breach"
            }
            (false, _) => "   # may not charge",
        };
        let _ = writeln!(
            t,
            "    - {{company: {}, sequence: hold, path: [], fallback: hold}}{charge}",
            scalar(&c.id)
        );
    }
    let mines: Vec<String> = s
        .scenario
        .mines
        .iter()
        .filter(|m| &m.side == side && !s.mines_fired.contains(&m.id))
        .map(|m| scalar(&m.id))
        .collect();
    generals(s, side, &mut t);
    hits(s, side, &mut t);
    if !mines.is_empty() {
        let _ = writeln!(
            t,
            "  # Uncomment to blow the mine's breach this turn (C.6):\n  # fire_mines: [{}]",
            mines.join(", ")
        );
    }
    t
}

//! Ready-to-edit orders for the side that owes them, with each company's
//! choices as comments. Names are printed quoted and ids as YAML scalars
//! ([`crate::yaml::quoted`], [`crate::yaml::scalar`]), so nothing a
//! scenario says can add a line to a file that players sign.

use super::orders::{Deployment, HitsOrder, Orders, TurnOrders};
use super::state::{Company, General, Phase, State};
use super::units::TroopType;
use super::view::company_line_as;
use crate::geometry::Point;
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
                "# You may redeploy inside x {} to {}, y {} to {}: under `companies`, a company's\n\
                 # new front centre `at` and its `facing` (degrees clockwise from +y).\n\
                 # Companies not listed stay where they are.",
                z.min.x, z.max.x, z.min.y, z.max.y
            );
        }
        None => t.push_str("# The scenario fixes your positions.\n"),
    }
    let generals = deploy_generals(s, side);
    if generals.is_some() {
        t.push_str(
            "# Under `generals`, a general joins a company ({general: ID, attach: COMPANY})\n\
             # or stands at a point ({general: ID, at: {x: X, y: Y}}).\n",
        );
    }
    t.push_str(
        "# if_winner: first or second, your choice should you win the dice-off.\n\
         deploy:\n  if_winner: first\n",
    );
    if zone.is_some() {
        t.push_str("  companies:\n");
        for e in placements(s, side) {
            let _ = writeln!(t, "    # - {e}");
        }
    }
    if let Some(examples) = generals {
        t.push_str("  generals:\n");
        for e in examples {
            let _ = writeln!(t, "    # - {e}");
        }
    }
    hits(s, side, &mut t, deploy_hits);
    t
}

/// At most this many examples under one key: a template goes out with
/// every report, at a thousand companies a side too.
const EXAMPLES: usize = 6;

/// Whether `entry`, read as the orders' own type and put alone in orders
/// by `wrap`, passes the rules' check: an example offers only what would
/// be accepted now.
fn taken<T: serde::de::DeserializeOwned>(
    s: &State,
    side: &SideId,
    entry: &str,
    wrap: impl Fn(T) -> Orders,
) -> bool {
    crate::yaml::from_str::<T>(entry)
        .is_ok_and(|e| super::check::check(s, side, &wrap(e)).is_empty())
}

/// A number as a template writes it: to a tenth, as the reports do.
fn num(x: f64) -> String {
    format!("{}", (x * 10.0).round() / 10.0)
}

fn point(p: Point) -> String {
    format!("{{x: {}, y: {}}}", num(p.x), num(p.y))
}

/// A.4: each of the first companies where it stands, or the nearest point
/// of the zone: a placement the player moves from.
fn placements(s: &State, side: &SideId) -> Vec<String> {
    let Some(z) = s
        .scenario
        .sides
        .iter()
        .find(|x| &x.id == side)
        .and_then(|x| x.zone)
    else {
        return Vec::new();
    };
    s.live(side)
        .map(|c| {
            let at = Point::new(
                c.at.x.clamp(z.min.x, z.max.x),
                c.at.y.clamp(z.min.y, z.max.y),
            );
            format!(
                "{{company: {}, at: {}, facing: {}}}",
                scalar(&c.id),
                point(at),
                num(c.facing.degrees())
            )
        })
        .filter(|e| {
            taken(s, side, e, |p| {
                Orders::Deploy(Deployment {
                    companies: vec![p],
                    ..Deployment::default()
                })
            })
        })
        .take(EXAMPLES)
        .collect()
}

/// E.4: each of the first generals joining his company, or the company
/// nearest him; `None` when the side has no general.
fn deploy_generals(s: &State, side: &SideId) -> Option<Vec<String>> {
    let mine: Vec<&General> = s.generals.iter().filter(|g| &g.side == side).collect();
    if mine.is_empty() {
        return None;
    }
    let examples = mine
        .iter()
        .filter_map(|g| {
            let company = g.attached.clone().or_else(|| nearest(s, side, g))?;
            Some(format!(
                "{{general: {}, attach: {}}}",
                scalar(&g.id),
                scalar(&company)
            ))
        })
        .filter(|e| {
            taken(s, side, e, |g| {
                Orders::Deploy(Deployment {
                    generals: vec![g],
                    ..Deployment::default()
                })
            })
        })
        .take(EXAMPLES)
        .collect();
    Some(examples)
}

/// The company of `side` nearest general `g`: a fighting company before
/// the baggage, which a general joins only when nothing else is left.
fn nearest(s: &State, side: &SideId, g: &General) -> Option<String> {
    let at = s.general_at(g);
    let key = |c: &Company| {
        (
            c.profile.troop == TroopType::Wagons,
            at.distance_to(c.at).get(),
        )
    };
    s.live(side)
        .min_by(|a, b| {
            let ((wa, da), (wb, db)) = (key(a), key(b));
            wa.cmp(&wb).then(da.total_cmp(&db))
        })
        .map(|c| c.id.clone())
}

/// E.2, E.4, E.5: the side's generals and how to move them.
fn generals(s: &State, side: &SideId, t: &mut String) {
    let mine: Vec<&General> = s
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
         \x20 # To give any, uncomment `generals:` and an entry (these leave each where he is):\n\
         \x20 # generals:\n",
    );
    for e in turn_generals(s, side, &mine) {
        let _ = writeln!(t, "  #   - {e}");
    }
}

/// Each of the first generals staying where he is: with his company, or
/// at his point.
fn turn_generals(s: &State, side: &SideId, mine: &[&General]) -> Vec<String> {
    mine.iter()
        .map(|g| match &g.attached {
            Some(c) => format!("{{general: {}, attach: {}}}", scalar(&g.id), scalar(c)),
            None => format!(
                "{{general: {}, to: {}}}",
                scalar(&g.id),
                point(s.general_at(g))
            ),
        })
        .filter(|e| {
            taken(s, side, e, |g| {
                Orders::Turn(TurnOrders {
                    generals: vec![g],
                    ..TurnOrders::default()
                })
            })
        })
        .take(EXAMPLES)
        .collect()
}

/// E.1: how the side's formed regiments share hits from shooting.
/// `wrap` puts an entry in orders of the step's kind, to check it alone.
fn hits(s: &State, side: &SideId, t: &mut String, wrap: fn(HitsOrder) -> Orders) {
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
    let examples = spec
        .regiments
        .iter()
        .filter_map(|r| {
            let first = r.companies.first()?;
            Some(format!(
                "{{regiment: {}, first: [{}]}}",
                scalar(&r.id),
                scalar(first)
            ))
        })
        .filter(|e| taken(s, side, e, wrap))
        .take(EXAMPLES);
    for e in examples {
        let _ = writeln!(t, "  #   - {e}");
    }
}

fn deploy_hits(h: HitsOrder) -> Orders {
    Orders::Deploy(Deployment {
        hits: vec![h],
        ..Deployment::default()
    })
}

fn turn_hits(h: HitsOrder) -> Orders {
    Orders::Turn(TurnOrders {
        hits: vec![h],
        ..TurnOrders::default()
    })
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
        // Not an example to uncomment: its companies have entries of their own.
        let _ = writeln!(
            t,
            "    # A formed regiment (companies touching) may act as one entry,\n    # {{regiment: ID, ...}} in place of its companies' entries; one of: {}",
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
    hits(s, side, &mut t, turn_hits);
    if !mines.is_empty() {
        t.push_str(
            "  # To blow a mine's breach this turn (C.6), uncomment `fire_mines:` and the mine:\n  # fire_mines:\n",
        );
        for m in mines.iter().take(EXAMPLES) {
            let _ = writeln!(t, "  #   - {m}");
        }
    }
    t
}

//! Ready-to-edit orders for the side that owes them: choices as comments.
//! Every name from the scenario is printed quoted and every id as a YAML
//! scalar ([`crate::yaml::quoted`], [`crate::yaml::scalar`]): nothing a
//! scenario says can add a line to a file that players sign.

use super::deck::Symbol;
use super::examples;
use super::forces::{Paths, check_force};
use super::orders::{ActionKind, Sweep};
use super::reactions::{FirePolicy, On, Play, Reactions, ReturnFire};
use super::state::{Pending, Phase, State};
use crate::side::{SideId, Sides};
use crate::yaml::{quoted, scalar};
use std::fmt::Write;

pub fn template(s: &State, side: &SideId) -> Option<String> {
    match &s.phase {
        Phase::Deployment => Some(deployment(s, side)),
        Phase::Round { active } if active == side => Some(round(s, side)),
        Phase::Decision { active, pending } if active == side => Some(decision(s, side, pending)),
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
        "# volleys: false holds your fire; true invokes the volley phase (your infantry and\n\
         #   guns fire, then the enemy's); or list the units that fire, [UNIT, UNIT] (the others\n\
         #   hold their fire).\n\
         # command: pass when left out (draw three cards). Or uncomment one command below:\n\
         #   event, march, rally, bombard or charge, with a force (same arm, formation and\n\
         #   ground, each within 2 BW of another) and its cards: a list of ids, or `fewest`\n\
         #   (drawn cards allowed); or `consult: true` instead, to be asked after the draw.\n\
         # March steps: forward: N | back: N | wheel: {pivot: left, degrees: 30}\n\
         #   wheel: the pivot corner stays put, degrees (0 to 180) is only the size of the turn:\n\
         #   pivot right turns the unit to its right (clockwise on the map), pivot left to its\n\
         #   left (anticlockwise); with backward: true the other way round.\n\
         #   | path: [{x: 1, y: 2}] (columns, artillery) | formation: {to: column, turn: right}\n\
         #   | about_face (cavalry)\n\
         # Charge: charges: [{unit: ID, wheel: {pivot: left, degrees: 10}, target: ENEMY}],\n\
         #   the rest of the force may move in `moves` (no retrograde, no contact).\n\
         # modify: [CARD] plays modifying cards you hold, one of each symbol, for the volleys\n\
         #   or the action chosen.\n",
    );
    for card in modifiers_held(s, side) {
        let _ = writeln!(t, "#   You hold {card}");
    }
    t.push_str("round:\n  volleys: false\n");
    for (title, lines) in commands(s, side) {
        let _ = writeln!(t, "  # {title}");
        for l in lines {
            let _ = writeln!(t, "  # {l}");
        }
    }
    if let Some(to) = cinc_example(s, side) {
        let _ = writeln!(
            t,
            "  # cinc: {{to: {}}}   # moves the CinC at the end of the round, for one card",
            examples::point(to)
        );
    }
    t
}

/// The modifying cards in hand, as `"Name" [id], for a symbol`.
fn modifiers_held(s: &State, side: &SideId) -> Vec<String> {
    examples::hand(s, side)
        .into_iter()
        .filter(|c| c.effect.is_some())
        .filter_map(|c| {
            let sym = c.symbol?;
            Some(format!(
                "{} [{}], for a {}",
                quoted(&c.name),
                scalar(&c.id),
                format!("{sym:?}").to_lowercase()
            ))
        })
        .collect()
}

/// Each command the side could give now, as a titled block of lines
/// (relative to `round:`'s keys), each taken alone by the rules: marches,
/// rallies, bombards and charges of real forces with their fewest cards
/// (and a modifying card held for the action), and the events held.
fn commands(s: &State, side: &SideId) -> Vec<(String, Vec<String>)> {
    if examples::hand(s, side).is_empty() {
        return Vec::new();
    }
    let mut paths = Paths::new(s, side);
    let forces = examples::forces(s, side);
    let mut out = Vec::new();
    let marches = forces.iter().filter_map(|f| march(s, side, &mut paths, f));
    out.extend(titled(
        "A March (its fewest cards from your hand):",
        marches,
    ));
    let disrupted = forces.iter().filter(|f| {
        f.iter()
            .any(|u| s.unit(u).is_some_and(|u| u.disruption > 0))
    });
    let rallies =
        disrupted.filter_map(|f| action(s, side, &mut paths, Action::Rally, f, Vec::new()));
    out.extend(titled("A Rally:", rallies));
    let guns = examples::bombards(s, side);
    let bombards = guns
        .iter()
        .filter_map(|f| action(s, side, &mut paths, Action::Bombard, f, Vec::new()));
    out.extend(titled("A Bombard:", bombards));
    let chargers = examples::charges(s, side);
    let charges = chargers.iter().filter_map(|(u, e)| {
        let line = format!(
            "    charges: [{{unit: {}, target: {}}}]",
            scalar(u),
            scalar(e)
        );
        let force = [u.clone()];
        action(s, side, &mut paths, Action::Charge, &force, vec![line])
    });
    out.extend(titled("A Charge:", charges));
    let events = examples::hand(s, side)
        .into_iter()
        .filter(|c| c.event.is_some())
        .map(|c| {
            vec![
                "command:".to_string(),
                format!("  event: {}", scalar(&c.id)),
            ]
        })
        .filter(|b| examples::taken(s, side, &examples::under("round", b)));
    out.extend(titled("An event card played for its effect:", events));
    out
}

/// The first [`examples::EXAMPLES`] blocks, the first under `title`, the
/// others under "Or:".
fn titled(
    title: &str,
    blocks: impl Iterator<Item = Vec<String>>,
) -> impl Iterator<Item = (String, Vec<String>)> {
    blocks
        .take(examples::EXAMPLES)
        .enumerate()
        .map(move |(i, b)| (if i == 0 { title } else { "Or:" }.to_string(), b))
}

/// The actions a command block may declare.
#[derive(Clone, Copy)]
enum Action {
    March,
    Rally,
    Bombard,
    Charge,
}

impl Action {
    fn word(self) -> &'static str {
        match self {
            Action::March => "march",
            Action::Rally => "rally",
            Action::Bombard => "bombard",
            Action::Charge => "charge",
        }
    }
    fn symbol(self) -> Symbol {
        match self {
            Action::March => Symbol::March,
            Action::Rally => Symbol::Rally,
            Action::Bombard => Symbol::Bombard,
            Action::Charge => Symbol::Charge,
        }
    }
}

/// A March of `force`: its first unit takes a short step, forward or else
/// back, whichever the rules take.
fn march(
    s: &State,
    side: &SideId,
    paths: &mut Option<Paths>,
    force: &[String],
) -> Option<Vec<String>> {
    let first = scalar(force.first()?);
    ["{forward: 1}", "{back: 0.5}"].iter().find_map(|step| {
        let moves = format!("    moves: [{{unit: {first}, steps: [{step}]}}]");
        action(s, side, paths, Action::March, force, vec![moves])
    })
}

/// The block declaring `kind` with `force`, paid with the fewest cards of
/// the hand, with `more` lines under the action; with a modifying card for
/// it when one is held and the rules take both. `None` when the hand cannot
/// pay or the rules refuse it.
fn action(
    s: &State,
    side: &SideId,
    paths: &mut Option<Paths>,
    kind: Action,
    force: &[String],
    more: Vec<String>,
) -> Option<Vec<String>> {
    let card = examples::modifier(s, side, kind.symbol());
    let cards = examples::payment(s, side, paths, force, card.as_deref())?;
    let mut lines = vec![
        "command:".to_string(),
        format!("  {}:", kind.word()),
        format!("    force: {}", examples::list(force)),
        format!("    cards: {}", examples::list(&cards)),
    ];
    lines.extend(more);
    let ok = |l: &[String]| examples::taken(s, side, &examples::under("round", l));
    if let Some(c) = card {
        let mut with = lines.clone();
        let name = s.deck.card(&c).map(|k| quoted(&k.name)).unwrap_or_default();
        with.push(format!(
            "modify: [{}]   # optional: {name} with it",
            scalar(&c)
        ));
        if ok(&with) {
            return Some(with);
        }
    }
    ok(&lines).then_some(lines)
}

/// How far the CinC of the example rides toward his army, at most (BW):
/// an example a player can read on the map, however wide the table.
const CINC_RIDE: f64 = 4.0;

/// Where the CinC might ride: toward the middle of his army, halfway or
/// [`CINC_RIDE`] at most.
fn cinc_example(s: &State, side: &SideId) -> Option<crate::geometry::Point> {
    let cinc = s.army(side)?.cinc?;
    let anchors: Vec<_> = s.live_units(side).filter_map(|u| u.anchor).collect();
    let n = anchors.len() as f64;
    if n == 0.0 {
        return None;
    }
    let (x, y) = anchors
        .iter()
        .fold((0.0, 0.0), |(x, y), p| (x + p.x, y + p.y));
    let way = crate::geometry::Point::new(x / n, y / n) - cinc;
    let ride = (way.length() / 2.0).min(CINC_RIDE);
    if ride < 0.1 {
        return None;
    }
    let to = cinc + way.scale(ride / way.length());
    let yaml = format!("round: {{cinc: {{to: {}}}}}", examples::point(to));
    examples::taken(s, side, &yaml).then_some(to)
}

/// The answer to a decision request: a force that the rules take for the
/// action declared, live, so that the template sent as it is is an answer;
/// for a March, a short step for each unit as an example.
fn decision(s: &State, side: &SideId, pending: &Pending) -> String {
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
    t.push_str(
        "# force: the unit ids of one legal force (same arm, formation and ground, each\n\
         #   within 2 BW of another). cards: fewest, or a list of card ids from your hand.\n",
    );
    let candidates = decision_forces(s, side, pending.action);
    let others: Vec<String> = candidates
        .iter()
        .skip(1)
        .map(|(f, _)| examples::list(f))
        .collect();
    if !others.is_empty() {
        let _ = writeln!(t, "#   Other forces: {}", others.join("; "));
    }
    let Some((force, charges)) = candidates.into_iter().next() else {
        t.push_str(
            "# No force of yours can carry out this action now: name one, and the action fails.\n",
        );
        let first: Vec<String> = s.live_units(side).take(1).map(|u| u.id.clone()).collect();
        let _ = writeln!(
            t,
            "decide:\n  force: {}\n  cards: fewest",
            examples::list(&first)
        );
        return t;
    };
    let _ = writeln!(
        t,
        "decide:\n  force: {}\n  cards: fewest",
        examples::list(&force)
    );
    if let Some(c) = charges {
        let _ = writeln!(t, "  charges: [{c}]");
    }
    if pending.action == ActionKind::March {
        t.push_str("  moves:\n");
        for m in decision_moves(s, side, &force) {
            let _ = writeln!(t, "    # - {m}");
        }
    }
    t
}

/// Forces the rules take, as the answer to `action` (with the charge of a
/// Charge), the likeliest first: for a Rally, forces with DISR.
fn decision_forces(
    s: &State,
    side: &SideId,
    action: ActionKind,
) -> Vec<(Vec<String>, Option<String>)> {
    let candidates: Vec<(Vec<String>, Option<String>)> = match action {
        ActionKind::March => examples::forces(s, side)
            .into_iter()
            .map(|f| (f, None))
            .collect(),
        ActionKind::Rally => {
            let mut f = examples::forces(s, side);
            // Forces with DISR first: a rally of none does nothing.
            f.sort_by_key(|f| {
                !f.iter()
                    .any(|u| s.unit(u).is_some_and(|u| u.disruption > 0))
            });
            f.into_iter().map(|f| (f, None)).collect()
        }
        ActionKind::Bombard => examples::bombards(s, side)
            .into_iter()
            .map(|f| (f, None))
            .collect(),
        ActionKind::Charge => examples::charges(s, side)
            .into_iter()
            .map(|(u, e)| {
                let c = format!("{{unit: {}, target: {}}}", scalar(&u), scalar(&e));
                (vec![u], Some(c))
            })
            .collect(),
    };
    examples::keep(candidates.into_iter(), |(f, c)| {
        let mut yaml = format!("decide:\n  force: {}\n  cards: fewest\n", examples::list(f));
        if let Some(c) = c {
            let _ = writeln!(yaml, "  charges: [{c}]");
        }
        examples::taken(s, side, &yaml)
    })
}

/// A short step forward, or else back, for each of the first units of
/// the force, each taken alone.
fn decision_moves(s: &State, side: &SideId, force: &[String]) -> Vec<String> {
    let head = format!(
        "decide:\n  force: {}\n  cards: fewest\n  moves:\n",
        examples::list(force)
    );
    force
        .iter()
        .take(examples::EXAMPLES * 2)
        .filter_map(|u| {
            ["{forward: 1}", "{back: 0.5}"].iter().find_map(|step| {
                let m = format!("{{unit: {}, steps: [{step}]}}", scalar(u));
                examples::taken(s, side, &format!("{head}    - {m}\n")).then_some(m)
            })
        })
        .collect()
}

/// Standing reactions for a side that is passive.
fn reactions(s: &State, side: &SideId) -> String {
    let mut t = header(s, side);
    t.push_str(
        "# You are passive: you owe nothing, but you may send standing reactions,\n\
         # kept until you replace them.\n\
         # return_fire: all, none, or a list of the units that shoot back, [UNIT, UNIT].\n\
         # interrupts: cards played when the enemy does what `on` names (volleys, march,\n\
         #   charge, bombard or rally); with `near: UNIT` and `within: BW`, only when his\n\
         #   force comes that close to that unit of yours. The first that fits, one a round.\n\
         # modifiers: {card, on: volleys | bombard | charge} or {card, on: charged, unit: UNIT},\n\
         #   one of each symbol a round.\n",
    );
    t.push_str(&standing(s, side));
    t
}

/// The `reactions:` block a side has in force, so that the template sent
/// back as it is keeps them; the defaults for a side that has sent none.
/// Under `interrupts` and `modifiers`, commented examples of the cards in
/// hand, each taken alone by the rules. Ids are written as YAML scalars and
/// card names never: nothing can add a line of its own.
pub fn standing(s: &State, side: &SideId) -> String {
    let r = s.standing.get(side).cloned().unwrap_or_default();
    let mut t = String::new();
    if r != Reactions::default() {
        t.push_str("# These reactions are in force; send them back as they are to keep them.\n");
    }
    t.push_str("reactions:\n");
    let fire = match &r.return_fire {
        ReturnFire::Policy(FirePolicy::All) => "all".to_string(),
        // An empty list fires no more than `none`, and `[]` left live
        // would take no entry under it.
        ReturnFire::Policy(FirePolicy::None) => "none".to_string(),
        ReturnFire::Units(u) if u.is_empty() => "none".to_string(),
        ReturnFire::Units(u) => examples::list(u),
    };
    let _ = writeln!(t, "  return_fire: {fire}");
    if r.fire_order == Sweep::RightToLeft {
        t.push_str("  fire_order: right_to_left\n");
    }
    if !r.aims.is_empty() {
        t.push_str("  aims:\n");
        for a in &r.aims {
            let base = a.base.map(|b| format!(", base: {b}")).unwrap_or_default();
            let _ = writeln!(
                t,
                "    - {{unit: {}{base}, at: {}}}",
                scalar(&a.unit),
                scalar(&a.at)
            );
        }
    }
    let (interrupts, modifiers) = plays(s, side);
    for (key, live, offered) in [
        ("interrupts", &r.interrupts, interrupts),
        ("modifiers", &r.modifiers, modifiers),
    ] {
        let _ = writeln!(t, "  {key}:");
        let written: Vec<String> = live.iter().map(play).collect();
        for p in &written {
            let _ = writeln!(t, "    - {p}");
        }
        for p in offered.iter().filter(|p| !written.contains(p)) {
            let _ = writeln!(t, "    # - {p}");
        }
    }
    t
}

/// One standing play as a flow mapping.
fn play(p: &Play) -> String {
    let mut t = format!(
        "{{card: {}, on: {}",
        scalar(&p.card),
        examples::on_word(p.on)
    );
    if let Some(n) = &p.near {
        let _ = write!(t, ", near: {}", scalar(n));
    }
    if let Some(w) = p.within {
        let _ = write!(t, ", within: {}", w.get());
    }
    if let Some(u) = &p.unit {
        let _ = write!(t, ", unit: {}", scalar(u));
    }
    t.push('}');
    t
}

/// Interrupts and modifiers the side could stand by now, from the cards in
/// its hand, each taken alone by the rules.
pub(super) fn plays(s: &State, side: &SideId) -> (Vec<String>, Vec<String>) {
    let first = s.live_units(side).next().map(|u| u.id.clone());
    let mut interrupts = Vec::new();
    let mut modifiers = Vec::new();
    for c in examples::hand(s, side) {
        if c.interrupt {
            let on = examples::interrupt_moment(c.effect);
            interrupts.push(Play {
                card: c.id.clone(),
                on,
                near: None,
                within: None,
                unit: None,
            });
            // The same card, kept for a force coming close to a unit.
            if let (On::March, Some(u)) = (on, &first) {
                interrupts.push(Play {
                    card: c.id.clone(),
                    on,
                    near: Some(u.clone()),
                    within: Some(crate::geometry::Distance(6.0)),
                    unit: None,
                });
            }
        }
        if let Some(on) = examples::modifier_moment(c) {
            modifiers.push(Play {
                card: c.id.clone(),
                on,
                near: None,
                within: None,
                unit: (on == On::Charged).then(|| first.clone()).flatten(),
            });
        }
    }
    let ok = |key: &str, p: &String| {
        examples::taken(s, side, &format!("reactions:\n  {key}:\n    - {p}\n"))
    };
    let keep = |key: &str, list: Vec<Play>| examples::keep(list.iter().map(play), |p| ok(key, p));
    (keep("interrupts", interrupts), keep("modifiers", modifiers))
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
    let d = placements(s, side);
    t.push_str("deploy:\n");
    let _ = writeln!(t, "  cinc: {{x: {:.1}, y: {:.1}}}", d.cinc.x, d.cinc.y);
    t.push_str("  units:\n");
    for p in &d.units {
        let Some(u) = s.unit(&p.unit) else { continue };
        let _ = writeln!(
            t,
            "    - {{unit: {}, at: {{x: {:.1}, y: {:.1}}}, facing: {}, formation: {}}}   # {}, {}",
            scalar(&u.id),
            p.at.x,
            p.at.y,
            p.facing.map(|f| f.degrees()).unwrap_or_default(),
            p.formation.map(|f| f.label()).unwrap_or_default(),
            quoted(&u.name),
            u.arm.label()
        );
    }
    t
}

/// A legal default deployment for `side`, as the template offers it (and
/// the orders page starts from): rows of units abreast with a 1 BW gap, the
/// front row toward the enemy, cavalry massed, wrapping to a new row 2 BW
/// behind; the CinC in the middle of the zone's back edge. Every placement
/// has its facing and formation.
pub fn placements(s: &State, side: &SideId) -> super::orders::Deployment {
    let index = s.scenario.side_index(side).unwrap_or(0);
    let (y0, y1) = s.scenario.zone(index);
    let w = s.scenario.table.width.get();
    let toward = if index == 0 { -1.0 } else { 1.0 };
    let mut y = if index == 0 { y1 - 0.5 } else { y0 + 0.5 };
    let facing = if index == 0 { 0.0 } else { 180.0 };
    let mut x = 1.0;
    // To a tenth, as the template prints it.
    let tenth = |v: f64| (v * 10.0).round() / 10.0;
    let cinc = crate::geometry::Point::new(
        tenth(w / 2.0),
        tenth(if index == 0 { y0 + 0.5 } else { y1 - 0.5 }),
    );
    let mut units = Vec::new();
    for u in s.units.iter().filter(|u| &u.side == side) {
        let formation = match u.arm {
            super::units::Arm::Cavalry => super::units::Formation::Massed,
            _ => u.formation,
        };
        let width = match formation {
            super::units::Formation::Line => 4.0,
            super::units::Formation::Massed => 2.0,
            super::units::Formation::Column | super::units::Formation::Battery => 1.0,
        };
        if x + width > w - 1.0 {
            x = 1.0;
            y += toward * 2.5;
        }
        units.push(super::orders::Placement {
            unit: u.id.clone(),
            at: crate::geometry::Point::new(tenth(x + width / 2.0), tenth(y)),
            facing: Some(crate::geometry::Angle(facing)),
            formation: Some(formation),
        });
        x += width + 1.0;
    }
    super::orders::Deployment { cinc, units }
}

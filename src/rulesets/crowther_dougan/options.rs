//! What a side can do now, for its report and as comments in its orders
//! template: for each unit of the side that moves, its move and what
//! shortens it, the known enemies nearest it with whether it may fire at
//! them (the die it needs and the men it would hit, by the fire code's own
//! modifiers) or why not, and the charges within its reach.
//!
//! Only enemies the side knows of are measured, named or counted: a hidden
//! unit changes nothing here. The source sets no arc of fire: a unit fires
//! at any enemy it sees within range, so no enemy is ever out of arc.

use super::fire::{Bar, barred, long_range, modifiers, unit_bar};
use super::movement::{charge_reach, deduction, drill_cost};
use super::state::{Phase, State, Status, Unit};
use super::tables::{AVERAGE_FACES, Formation, multiplier};
use crate::side::SideId;
use crate::view::Panel;

pub const TITLE: &str = "What you can do now";

/// Enemies shown per unit, nearest first.
const NEAREST: usize = 4;

/// How names and ids are written: as they are in the report, quoted in the
/// template (so that no scenario text can add a line to an orders file).
#[derive(Clone, Copy)]
pub struct Names {
    pub name: fn(&str) -> String,
    pub id: fn(&str) -> String,
}

fn plain(s: &str) -> String {
    s.to_string()
}

pub const PLAIN: Names = Names {
    name: plain,
    id: plain,
};

pub const YAML: Names = Names {
    name: crate::yaml::quoted,
    id: crate::yaml::scalar,
};

impl Names {
    fn unit(&self, u: &Unit) -> String {
        format!("{} [{}]", (self.name)(&u.name), (self.id)(&u.id))
    }
}

/// The panel for side `me`; none once the game is over.
pub fn panel(s: &State, me: &SideId) -> Option<Panel> {
    Some(Panel {
        title: TITLE.into(),
        lines: lines(s, me, PLAIN)?,
    })
}

/// The setup step's one line: from the scenario alone (which sides have
/// hidden units), never from where they go.
fn setup_line(s: &State, me: &SideId) -> &'static str {
    if super::deploy::deployers(s).contains(me) {
        "Setup: place your hidden units within their zones by secret orders (`deploy:`); a unit left out stands at its suggested place. Move 1 follows."
    } else {
        "Setup: the enemy deploys his hidden troops in secret; you owe no orders until move 1."
    }
}

/// The panel's lines, names written by `names`.
pub fn lines(s: &State, me: &SideId, names: Names) -> Option<Vec<String>> {
    if matches!(s.phase, Phase::Setup) {
        return Some(vec![setup_line(s, me).into()]);
    }
    let Phase::Move { n, active } = &s.phase else {
        return None;
    };
    if active != me {
        return Some(vec![format!(
            "It is the enemy's move {n}: you owe no orders now. You may send standing reactions: command points pledged to your units' tests in the enemy's move."
        )]);
    }
    let mut out = Vec::new();
    // Asked once: whether a side knows an enemy costs lines of sight.
    let known: Vec<&Unit> = s.known_enemies(me).collect();
    let any = !known.is_empty();
    if !any {
        out.push(
            "No enemy unit known to your side: nothing to fire at or charge; observe to find them."
                .into(),
        );
    }
    for u in s.live(me) {
        out.extend(unit_lines(s, &known, u, names));
    }
    if out.is_empty() {
        out.push("No unit of yours can act this move.".into());
    }
    Some(out)
}

/// One unit's lines: a header, its move, its fire at the nearest known
/// enemies and the charges within its reach.
pub(super) fn unit_lines(s: &State, known: &[&Unit], u: &Unit, names: Names) -> Vec<String> {
    let mut out = vec![format!(
        "{}: {}, {}",
        names.unit(u),
        u.troop.label(),
        u.formation.name()
    )];
    match u.status {
        Status::Routing => {
            out.push(
                "  routing: it tests to rally in phase 1, else routs on a full move; it takes no orders to fire, charge or move"
                    .into(),
            );
            return out;
        }
        Status::Pursuing => {
            out.push(
                "  pursuing: it tests to halt in phase 1, else follows its enemy; a personality with it may recall it for 2 command points"
                    .into(),
            );
            return out;
        }
        Status::Good | Status::Gone => {}
    }
    out.push(move_line(s, u, names));
    if u.no_advance {
        out.push("  it failed a test: it may not advance towards the enemy this move".into());
    }
    // As it will stand when it fires: its own move forgets its last fire.
    let firer = u.clone_for_check();
    let enemies = nearest(s, known, u);
    let whole = unit_bar(&firer);
    if let Some(bar) = &whole {
        out.push(format!("  fire: none ({})", bar.words(true, names.name)));
    }
    if known.is_empty() {
        return out;
    }
    for (e, gap) in enemies.iter().take(NEAREST) {
        out.push(enemy_line(s, &firer, e, *gap, whole.is_none(), names));
    }
    let more = enemies.len().saturating_sub(NEAREST);
    if more > 0 {
        out.push(format!(
            "  and {more} more known enemy unit{} further off",
            if more == 1 { "" } else { "s" }
        ));
    }
    out
}

/// Its move, and what takes from it.
fn move_line(s: &State, u: &Unit, names: Names) -> String {
    let mut parts = vec![format!("  move {:.0} cm", u.mv())];
    parts.extend(move_costs(s, u, names));
    parts.join("; ")
}

/// What takes from its move: drill, ground it leaves, what the move
/// reaches, and firing's share (the orders page's `shortened_by`).
pub(super) fn move_costs(s: &State, u: &Unit, names: Names) -> Vec<String> {
    let mut parts = Vec::new();
    let other = match u.formation {
        Formation::Line => Some(Formation::Column),
        Formation::Column => Some(Formation::Line),
        Formation::Limbered => Some(Formation::Unlimbered),
        Formation::Unlimbered => Some(Formation::Limbered),
        Formation::Open => None,
    };
    if let Some(f) = other {
        parts.push(format!(
            "forming {} takes {:.1} cm",
            f.name(),
            drill_cost(u, Some(f), false)
        ));
    }
    let about = drill_cost(u, None, true);
    if about > 0.0 {
        parts.push(format!("turning about {about:.1} cm"));
    }
    for t in s.ground(u.at) {
        match deduction(t, u) {
            Some(d) if d > 0 => {
                parts.push(format!("leaving {} takes {d}D6 cm", (names.name)(&t.name)))
            }
            _ => {}
        }
    }
    parts.push("ground or a friend the move reaches takes 1D6 to 3D6 cm each".into());
    if u.loaded && u.troop.reload_share() > 0.0 {
        parts.push(format!(
            "after firing, moving over {:.1} cm leaves it unloaded",
            u.troop.reload_share() * u.mv()
        ));
    }
    parts
}

/// One known enemy: the fire at it, or why there is none, and a charge.
fn enemy_line(s: &State, u: &Unit, e: &Unit, gap: f64, may_fire: bool, names: Names) -> String {
    let who = names.unit(e);
    let mut words = match barred(s, u, e) {
        None => fire_words(s, u, e, gap),
        Some(_) if !may_fire => format!("{gap:.1} cm"),
        Some(Bar::OutOfRange { gap, range }) => format!(
            "cannot fire, out of range: {gap:.1} cm, range is {range:.0} cm ({:.1} cm too far)",
            gap - range
        ),
        Some(Bar::Unseen(why)) => format!("{gap:.1} cm, cannot fire: {}", why.words(names.name)),
        Some(bar) => format!("{gap:.1} cm, cannot fire: {}", bar.words(true, names.name)),
    };
    if u.status == Status::Good && s.unit_sees(u, e) {
        match charge_reach(s, u, e) {
            Some(r) if crate::geometry::within(gap, r) => {
                words.push_str(&format!("; may charge it (reach {r:.1} cm)"))
            }
            Some(r) => words.push_str(&format!("; beyond charge reach ({r:.1} cm)")),
            None => words.push_str("; no charge: closed ground in the way"),
        }
    }
    format!("  {who}: {words}")
}

/// Distance, band, the die needed and the men it would hit.
fn fire_words(s: &State, u: &Unit, e: &Unit, gap: f64) -> String {
    let long = long_range(u);
    let band = if gap > long {
        format!("long range (over {long:.0} cm)")
    } else {
        format!("short range (up to {long:.0} cm)")
    };
    let mods = modifiers(s, u, e);
    let sum: i32 = mods.iter().map(|m| m.value).sum();
    let per = u.figures() as f64 * u.troop.casualties_per_figure(gap);
    let men = |face: u32| per * multiplier(face as i32 + sum);
    let need = AVERAGE_FACES
        .iter()
        .copied()
        .filter(|f| multiplier(*f as i32 + sum) > 0.0)
        .min();
    let best = AVERAGE_FACES.iter().copied().max().unwrap_or(0);
    let score = match need {
        Some(f) => format!(
            "needs {f} or more on the average die to hit, {:.1} to {:.1} men",
            men(f),
            men(best)
        ),
        None => "cannot hit whatever the die".into(),
    };
    format!(
        "may fire: {gap:.1} cm, {band}, modifiers {sum:+}{}; {score}",
        super::words::mods(&mods)
    )
}

/// The enemies the side knows of, nearest `u` first, with their gaps;
/// a cheap bound spares measuring those plainly further than the nearest.
fn nearest<'a>(s: &State, known: &[&'a Unit], u: &Unit) -> Vec<(&'a Unit, f64)> {
    let mut known: Vec<(&Unit, f64)> = known.iter().map(|e| (*e, s.gap_at_least(u, e))).collect();
    known.sort_by(|a, b| a.1.total_cmp(&b.1).then_with(|| a.0.id.cmp(&b.0.id)));
    let mut exact: Vec<(&Unit, f64)> = Vec::new();
    let mut rest = Vec::new();
    for (e, bound) in known {
        let kth = exact.get(NEAREST.saturating_sub(1)).map(|x| x.1);
        if exact.len() >= NEAREST && kth.is_some_and(|k| bound > k) {
            rest.push((e, bound));
            continue;
        }
        exact.push((e, s.gap(u, e)));
        exact.sort_by(|a, b| a.1.total_cmp(&b.1).then_with(|| a.0.id.cmp(&b.0.id)));
    }
    exact.extend(rest);
    exact
}

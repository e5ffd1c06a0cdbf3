//! What a side can do now, for its report and as comments in its orders
//! template: unit by unit, how far it may move and what shortens it, the
//! charges within reach, each enemy ahead it may fire at (range band and
//! the 2D6 score it needs, from the fire code's own modifiers) and, for
//! those it may not, why (from the same checks the fire phases make).

use super::charge::{across, ahead, reach};
use super::fatigue;
use super::fire::modifiers;
use super::fire_bar::{Bar, band, bar};
use super::formation::Formation;
use super::movement::{allowance, explain, road_rate};
use super::state::{Phase, State, Unit};
use super::tables::Arm;
use crate::geometry::{Frame, Point};
use crate::side::SideId;
use crate::view::Panel;

/// The panel's title, as Maurice Lite's.
pub const TITLE: &str = "What you can do now";

/// Enemies listed for one unit, nearest first; the others are counted.
pub const SHOWN: usize = 4;

/// How names and ids are written: as they are in a report, quoted in an
/// orders template (so no scenario text can add a line to a signed file).
pub struct Names {
    pub name: fn(&str) -> String,
    pub id: fn(&str) -> String,
}

fn plain(x: &str) -> String {
    x.to_string()
}

impl Names {
    pub const PLAIN: Names = Names {
        name: plain,
        id: plain,
    };

    fn unit(&self, u: &Unit) -> String {
        format!("{} [{}]", (self.name)(&u.name), (self.id)(&u.id))
    }
}

/// The panel "What you can do now" for side `me`.
pub fn panel(s: &State, me: &SideId) -> Panel {
    Panel {
        title: TITLE.into(),
        lines: lines(s, me, &Names::PLAIN),
    }
}

/// What the coming step lets a unit do.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Act {
    /// Its own turn: move, charge, then advancing fire.
    Turn,
    /// The enemy's turn: defensive fire only.
    Defend,
}

/// The panel's lines for side `me`, names written by `n`.
pub fn lines(s: &State, me: &SideId, n: &Names) -> Vec<String> {
    let other = (n.name)(&s.side_name(&s.other(me)));
    let (head, act, engaged) = match &s.phase {
        Phase::Setup => {
            return vec![
                "Setup: choose each unit's starting formation; moves, fire and charges begin with the first turn".into(),
            ];
        }
        Phase::Over(_) => return vec!["The game is over: nothing to order".into()],
        Phase::Decision { phasing, .. } if phasing == me => {
            return vec![format!(
                "You owe nothing now: your turn waits for {other}'s defensive fire decision"
            )];
        }
        Phase::Turn { turn, phasing } if phasing == me => (
            format!(
                "Your turn {turn}: you owe orders for the whole turn. Fire is reckoned from where the units stand now (advancing fire comes after the moves and charges)"
            ),
            Act::Turn,
            Vec::new(),
        ),
        Phase::Turn { .. } => (
            format!(
                "You owe nothing now: it is {other}'s turn (you may send standing reactions). Your defensive fire, from where your units stand now:"
            ),
            Act::Defend,
            in_contact(s),
        ),
        Phase::Decision { pending, .. } => (
            format!(
                "Your decision is owed: which cavalry withdraw ({}), which infantry form square, and who fires at what:",
                if pending.withdrawals.is_empty() {
                    "none may".to_string()
                } else {
                    pending
                        .withdrawals
                        .iter()
                        .map(|w| (n.id)(&w.unit))
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            ),
            Act::Defend,
            pending.locked.clone(),
        ),
    };
    let mut out = vec![head];
    if act == Act::Turn {
        // Said once: what would otherwise repeat on every unit's line.
        out.push(
            "Moves: rough ground (water, woods, up hill, a linear obstacle) shortens no move but costs a rally-table test; friends do not block; an enemy met ends the move there"
                .into(),
        );
    }
    let before = out.len();
    for u in s.live(me) {
        out.extend(unit(s, u, act, &engaged, n));
    }
    if out.len() == before {
        out.push(match act {
            Act::Turn => "Nothing: no unit of yours can move, charge or fire now".into(),
            Act::Defend => "Nothing: no unit of yours has an enemy ahead to fire at".into(),
        });
    }
    out
}

/// Units in contact with an enemy: a melee that goes on, neither firing
/// nor fired upon.
fn in_contact(s: &State) -> Vec<String> {
    s.units
        .iter()
        .filter(|u| u.live() && !s.contacts(u).is_empty())
        .map(|u| u.id.clone())
        .collect()
}

/// One unit's lines: a heading, then one line per fact; none when it can
/// do nothing worth a line.
fn unit(s: &State, u: &Unit, act: Act, engaged: &[String], n: &Names) -> Vec<String> {
    let mut facts = Vec::new();
    if act == Act::Turn {
        facts.push(movement(s, u, n));
        facts.extend(charges(s, u, n));
    }
    if act == Act::Defend && engaged.contains(&u.id) {
        facts.push("fire: none, it stays in melee".into());
    } else {
        facts.extend(fire(s, u, act, engaged, n));
    }
    if facts.is_empty() {
        return Vec::new();
    }
    let mut state = vec![u.formation.name().to_string()];
    if u.disordered {
        state.push("disordered".into());
    }
    if u.unformed {
        state.push("unformed".into());
    }
    let mut out = vec![format!(
        "{} ({}, {}):",
        n.unit(u),
        u.troop.label(),
        state.join(", ")
    )];
    out.extend(facts.into_iter().map(|f| format!("  {f}")));
    out
}

/// How far it may move, and what shortens or forbids it.
fn movement(s: &State, u: &Unit, n: &Names) -> String {
    if u.shaken() {
        return format!(
            "move: none while {} (a morale pass or the rally roll may clear it first)",
            if u.disordered {
                "disordered"
            } else {
                "unformed"
            }
        );
    }
    if let Some(e) = s.contacts(u).first() {
        return format!("move: none, in contact with {} (melee)", n.unit(e));
    }
    let f = u.formation;
    let mut line = format!(
        "move: {:.0} cm ({}); {:.0} cm with a change of facing or formation",
        allowance(u, f, false, false),
        explain(u, f, false, false),
        allowance(u, f, true, false),
    );
    if let Some(r) = road_rate(u, f) {
        line.push_str(&format!("; {r:.0} cm on a road the whole way"));
    }
    if f == Formation::Square {
        line.push_str("; a square may not move towards an enemy it sees");
    }
    if fatigue::spent(s, &u.corps) && !s.leader_attached(u) {
        line.push_str("; its corps has no chips left: not towards the enemy without a leader");
    }
    line
}

/// Cavalry's charges: the enemies its charge move reaches straight ahead,
/// as the charge phase measures them.
fn charges(s: &State, u: &Unit, n: &Names) -> Vec<String> {
    if u.arm() != Arm::Cavalry {
        return Vec::new();
    }
    let far = reach(u.troop.light());
    if u.shaken() || !s.contacts(u).is_empty() {
        return vec![format!(
            "charge: none while disordered or in contact (charge move {far:.0} cm)"
        )];
    }
    if fatigue::spent(s, &u.corps) && !s.leader_attached(u) {
        return vec![
            "charge: none, its corps has no chips left and no leader is attached".to_string(),
        ];
    }
    let near = charge_targets(s, u);
    if near.is_empty() {
        return vec![format!(
            "charge: no enemy within its {far:.0} cm charge move straight ahead"
        )];
    }
    vec![format!(
        "charge: may charge {} (charge move {far:.0} cm straight ahead, no turning)",
        near.iter()
            .map(|(d, e)| format!("{} at {d:.1} cm", n.unit(e)))
            .collect::<Vec<_>>()
            .join(", ")
    )]
}

/// The enemies a cavalry unit free to charge may charge now, nearest
/// first: within its charge move straight ahead, none across the way.
pub(super) fn charge_targets<'a>(s: &'a State, u: &Unit) -> Vec<(f64, &'a Unit)> {
    let far = reach(u.troop.light());
    // Beyond this no charge reaches: spares measuring far enemies.
    let mut near: Vec<(f64, &Unit)> = s
        .enemies(&u.side)
        .filter(|e| s.gap_at_least(u, e) <= far)
        .filter_map(|e| ahead(s, u, e).map(|d| (d, e)))
        .filter(|(d, _)| crate::geometry::limit::within(*d, far))
        // A charge must be straight at its target: one with another enemy
        // across the way is no charge (that enemy, nearer, is offered).
        .filter(|(d, e)| across(s, u, e, *d).is_none())
        .collect();
    near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.id.cmp(&b.1.id)));
    near
}

/// The enemies ahead of `u`, nearest first (edge to edge), the first
/// [`SHOWN`] measured, with how many there are in all.
pub(super) fn ahead_of<'a>(s: &'a State, u: &Unit) -> (Vec<(f64, &'a Unit)>, usize) {
    let frame = Frame::of(&s.bases(u));
    // Its general direction: the enemy's front centre ahead of its front
    // line. A cheap test, so that a big battle lays out only the nearest.
    let mut cands: Vec<(f64, &Unit)> = s
        .enemies(&u.side)
        .filter(|e| frame.local(centre(s, e)).0 > 0.0)
        .map(|e| (s.gap_at_least(u, e), e))
        .collect();
    let total = cands.len();
    cands.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.id.cmp(&b.1.id)));
    let mut best: Vec<(f64, &Unit)> = Vec::new();
    for (bound, e) in cands {
        if best.len() >= SHOWN && best.last().is_some_and(|(d, _)| bound > *d) {
            break;
        }
        best.push((s.gap(u, e), e));
        best.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.id.cmp(&b.1.id)));
        best.truncate(SHOWN);
    }
    (best, total)
}

/// The middle of a unit's bases.
fn centre(s: &State, u: &Unit) -> Point {
    let b = s.bases(u);
    let n = b.len().max(1) as f64;
    b.iter()
        .fold(Point::new(0.0, 0.0), |a, x| a + x.center)
        .scale(1.0 / n)
}

/// Its fire: each enemy ahead, nearest first, with what it needs or why not.
fn fire(s: &State, u: &Unit, act: Act, engaged: &[String], n: &Names) -> Vec<String> {
    if u.mods().fire.is_none() {
        return Vec::new();
    }
    if u.formation == Formation::Limbered {
        return vec!["fire: none while limbered (unlimbering is a change of formation)".into()];
    }
    if act == Act::Turn && !s.contacts(u).is_empty() {
        return vec!["fire: none, a unit in contact with an enemy does not fire".into()];
    }
    let (near, total) = ahead_of(s, u);
    if near.is_empty() {
        return vec!["fire: no enemy ahead".into()];
    }
    let mut out = Vec::new();
    let mut out_of_range = false;
    for (d, e) in &near {
        match bar(s, u, e, engaged) {
            None => out.push(can_fire(s, u, e, *d, n)),
            Some(b) => {
                out_of_range = matches!(b, Bar::Range { .. });
                out.push(cannot_fire(&b, e, n));
            }
        }
        // Nearest first: every enemy after one out of range is out of
        // range too, and one line says so.
        if out_of_range {
            break;
        }
    }
    let left = total - out.len();
    if left > 0 {
        out.push(format!(
            "fire: {left} more enem{} ahead, farther off, {}",
            if left == 1 { "y" } else { "ies" },
            if out_of_range {
                "out of range too"
            } else {
                "left out"
            }
        ));
    }
    out
}

/// The score 2D6 must make for a result needing `total` with `m` added.
fn needs(total: i32, m: i32) -> String {
    match total - m {
        x if x <= 2 => "any roll".into(),
        x if x > 12 => format!("{x}+ (beyond 2D6)"),
        x => format!("{x}+"),
    }
}

fn can_fire(s: &State, u: &Unit, e: &Unit, d: f64, n: &Names) -> String {
    let mods = modifiers(s, u, e, d, None);
    let m: i32 = mods.iter().map(|x| x.value).sum();
    let (name, r) = band(u, d).unwrap_or(("in range", d));
    format!(
        "fire at {}: {d:.1} cm, {name} ({r:.0} cm); 2D6 needs {} to disorder, {} to make it retreat, {} to eliminate ({})",
        n.unit(e),
        needs(7, m),
        needs(10, m),
        needs(12, m),
        super::words::mods(&mods)
    )
}

fn cannot_fire(b: &Bar, e: &Unit, n: &Names) -> String {
    format!("cannot fire at {}: {}", n.unit(e), b.reason_as(&n.name))
}

/// A unit's facts for its own turn, without its heading: its lines on
/// the orders page.
pub(super) fn turn_facts(s: &State, u: &Unit) -> Vec<String> {
    unit(s, u, Act::Turn, &[], &Names::PLAIN)
        .into_iter()
        .skip(1)
        .map(|l| l.trim().to_string())
        .collect()
}

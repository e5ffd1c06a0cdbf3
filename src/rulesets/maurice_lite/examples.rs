//! Example orders for the templates (issue 27): each built from the state
//! as it stands, written as the player would write it, read back and kept
//! only if the rules' own check takes it alone. An example suggests only
//! what would be accepted now.
//!
//! Templates go out with every report, at a thousand units a side too: the
//! candidates are few and bounded (the first units, forces grown from a few
//! seeds among their neighbours), never every pair of units.

use super::cards::fewest;
use super::charge::eligibility::may_charge;
use super::charge::ground::visible;
use super::charge::movement::charge_allowance;
use super::deck::{Card, Effect, Symbol};
use super::forces::{Paths, check_force, cost};
use super::orders::Orders;
use super::reactions::On;
use super::state::State;
use super::units::{Arm, Unit};
use crate::geometry::{Base, Bounds, BoxIndex, Point};
use crate::side::SideId;
use crate::yaml::scalar;

/// At most this many examples of one kind (of a command, of an entry).
pub const EXAMPLES: usize = 3;
/// At most this many candidates of one kind are checked.
const TRIES: usize = 8;
/// Forces grown from at most this many seeds, of at most this many units.
const SEEDS: usize = 8;
const FORCE_MAX: usize = 6;
/// Units farther apart than this (anchor to anchor) never join a force: a
/// line's width and the 2 BW gap, as `options::forces` prunes.
const LINK_PRUNE: f64 = 10.0;

/// Whether `yaml` (a whole `orders:` block) is read as Maurice Lite orders
/// and passes the rules' check for `side` now.
pub fn taken(s: &State, side: &SideId, yaml: &str) -> bool {
    crate::yaml::from_str::<Orders>(yaml).is_ok_and(|o| super::check::check(s, side, &o).is_empty())
}

/// `lines` (relative to the key's indentation) under `top:`, as a block.
pub fn under(top: &str, lines: &[String]) -> String {
    let mut t = format!("{top}:\n");
    for l in lines {
        t.push_str("  ");
        t.push_str(l);
        t.push('\n');
    }
    t
}

/// Ids as a YAML flow list.
pub fn list(ids: &[String]) -> String {
    let ids: Vec<String> = ids.iter().map(|i| scalar(i)).collect();
    format!("[{}]", ids.join(", "))
}

/// A number as a template writes it: to a tenth.
pub fn num(x: f64) -> String {
    format!("{}", (x * 10.0).round() / 10.0)
}

pub fn point(p: Point) -> String {
    format!("{{x: {}, y: {}}}", num(p.x), num(p.y))
}

/// Legal forces of `side`, few and small: each grown from one of the first
/// seeds by the seed's neighbours that keep it legal.
pub fn forces(s: &State, side: &SideId) -> Vec<Vec<String>> {
    let units: Vec<&Unit> = s.live_units(side).collect();
    let mut used: std::collections::BTreeSet<String> = Default::default();
    let mut out = Vec::new();
    for seed in units.iter().take(SEEDS * 2) {
        if out.len() == SEEDS {
            break;
        }
        if used.contains(seed.id.as_str()) {
            continue;
        }
        let group = grow(s, side, seed, &units, &used);
        used.extend(group.iter().cloned());
        out.push(group);
    }
    out
}

/// `seed` and those of its neighbours that keep the force legal, in order,
/// leaving out units already in another force (the examples differ).
fn grow(
    s: &State,
    side: &SideId,
    seed: &Unit,
    units: &[&Unit],
    used: &std::collections::BTreeSet<String>,
) -> Vec<String> {
    let at = seed.anchor.unwrap_or_default();
    let mut group = vec![seed.id.clone()];
    for u in units {
        if group.len() == FORCE_MAX {
            break;
        }
        let far = (u.anchor.unwrap_or_default() - at).length() > LINK_PRUNE;
        if u.id == seed.id || far || used.contains(&u.id) {
            continue;
        }
        group.push(u.id.clone());
        if check_force(s, side, &group).is_err() {
            group.pop();
        }
    }
    group
}

/// The cards of `side`'s hand that pay for activating `force` (the fewest,
/// keeping `keep` back for a modifier); none when the hand cannot pay.
pub fn payment(
    s: &State,
    side: &SideId,
    paths: &mut Option<Paths>,
    force: &[String],
    keep: Option<&str>,
) -> Option<Vec<String>> {
    let units = check_force(s, side, force).ok()?;
    let d = paths.as_mut()?.distance(s, &units)?;
    let hand: Vec<String> = s
        .army(side)?
        .hand
        .iter()
        .filter(|c| Some(c.as_str()) != keep)
        .cloned()
        .collect();
    fewest(s, &hand, cost(d))
}

/// The cards of `side`'s hand.
pub fn hand<'a>(s: &'a State, side: &SideId) -> Vec<&'a Card> {
    s.army(side)
        .map(|a| a.hand.iter().filter_map(|c| s.deck.card(c)).collect())
        .unwrap_or_default()
}

/// A modifying card held for the active side's action of `symbol`, if any,
/// one whose effect does something for it (a defender's card does nothing
/// for a charge, the rules' check takes it all the same).
pub fn modifier(s: &State, side: &SideId, symbol: Symbol) -> Option<String> {
    hand(s, side)
        .into_iter()
        .find(|c| c.symbol == Some(symbol) && c.effect.is_some_and(|e| serves_active(symbol, e)))
        .map(|c| c.id.clone())
}

/// Whether a card of `symbol` with `effect` changes the active side's
/// action or volleys (`round.rs`, `volley.rs`).
fn serves_active(symbol: Symbol, effect: Effect) -> bool {
    matches!(
        (symbol, effect),
        (Symbol::March, Effect::MarchDistance(_))
            | (Symbol::Rally, Effect::RallyDice(_))
            | (Symbol::Bombard, Effect::OwnToHit(_))
            | (Symbol::Charge, Effect::AttackScore(_))
            | (Symbol::Volley, Effect::OwnToHit(_) | Effect::EnemyToHit(_))
    )
}

/// Guns of `side` that could bombard now, each a force of its own.
pub fn bombards(s: &State, side: &SideId) -> Vec<Vec<String>> {
    s.live_units(side)
        .filter(|u| u.arm == Arm::Artillery)
        .filter(|u| super::fire::can_bombard(s, &u.id).is_ok())
        .take(TRIES)
        .map(|u| vec![u.id.clone()])
        .collect()
}

/// Units of `side` that may charge, each with an enemy in sight within its
/// charge allowance: (unit, target).
pub fn charges(s: &State, side: &SideId) -> Vec<(String, String)> {
    let m = s.scenario.measure;
    let enemy = s.other(side);
    let enemies: Vec<(&Unit, Vec<Base>)> = s.live_units(&enemy).map(|e| (e, e.bases(&m))).collect();
    // The enemy's boxes, indexed once: each unit asks only of those near it.
    let index = BoxIndex::new(
        enemies
            .iter()
            .enumerate()
            .filter_map(|(i, (_, b))| Some((boxed(b)?, i))),
    );
    let mut out = Vec::new();
    for u in s.live_units(side).filter(|u| may_charge(u).is_ok()) {
        let reach = charge_allowance(u).get();
        let bases = u.bases(&m);
        let Some(here) = boxed(&bases) else { continue };
        let target = index.near(&here, reach).into_iter().find_map(|i| {
            let (e, eb) = enemies.get(i)?;
            let ok = super::prune::within(&bases, eb, reach + 1e-9) && visible(s, u, e);
            ok.then_some(*e)
        });
        if let Some(e) = target {
            out.push((u.id.clone(), e.id.clone()));
            if out.len() == TRIES {
                break;
            }
        }
    }
    out
}

/// The box round some bases.
fn boxed(bases: &[Base]) -> Option<Bounds> {
    Bounds::of_points(bases.iter().flat_map(|b| b.corners()))
}

/// The moment a passive side would play an interrupt card with `effect`.
pub fn interrupt_moment(effect: Option<Effect>) -> On {
    match effect {
        Some(Effect::FireFirst) => On::Volleys,
        _ => On::March,
    }
}

/// The moment a modifying card serves the passive side, if one does
/// (`volley.rs`, `round.rs`): its volleys' cards in the enemy's volley
/// phase, a defender's card when a unit of its is charged. Its own
/// bombard and attack cards change nothing while the enemy acts.
pub fn modifier_moment(card: &Card) -> Option<On> {
    match (card.symbol?, card.effect?) {
        (Symbol::Volley, Effect::OwnToHit(_) | Effect::EnemyToHit(_)) => Some(On::Volleys),
        (Symbol::Charge, Effect::DefenderScore(_)) => Some(On::Charged),
        _ => None,
    }
}

/// `on:` as the orders spell it.
pub fn on_word(on: On) -> &'static str {
    match on {
        On::Volleys => "volleys",
        On::March => "march",
        On::Charge => "charge",
        On::Bombard => "bombard",
        On::Rally => "rally",
        On::Charged => "charged",
    }
}

/// At most [`TRIES`] of `candidates`, each checked, the first
/// [`EXAMPLES`] taken kept.
pub fn keep<T>(candidates: impl Iterator<Item = T>, taken: impl Fn(&T) -> bool) -> Vec<T> {
    candidates
        .take(TRIES)
        .filter(|c| taken(c))
        .take(EXAMPLES)
        .collect()
}

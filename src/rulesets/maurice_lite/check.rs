//! Checking orders on receipt: anything that could never be carried out is
//! refused with the rule it breaks.

use super::cards::total_span;
use super::charge;
use super::cinc;
use super::deck::Symbol;
use super::fire;
use super::forces::{activation_distance, check_force, cost};
use super::march;
use super::orders::{ActionKind, Activation, CardChoice, Command, Orders, RoundOrders, Volleys};
use super::setup;
use super::state::{Phase, State};
use super::units::Arm;
use crate::ruleset::Violation;
use crate::side::SideId;

const SEQUENCE: &str = "4. The sequence of a round";

fn v(path: &[&str], rule: &str, msg: impl Into<String>) -> Violation {
    Violation::new(path, None, rule, msg)
}

pub fn check(state: &State, side: &SideId, orders: &Orders) -> Vec<Violation> {
    match (&state.phase, orders) {
        (Phase::Deployment, Orders::Deploy(d)) => setup::check(state, side, d),
        (Phase::Round { active }, Orders::Round(r)) if active == side => {
            check_round(state, side, r)
        }
        (Phase::Decision { active, pending }, Orders::Decide(a)) if active == side => {
            if a.consult {
                return vec![v(
                    &["decide", "consult"],
                    SEQUENCE,
                    "this is the decision itself: name the force and cards, without `consult`",
                )];
            }
            check_activation(state, side, pending.action, a, &pending.orders)
        }
        (Phase::Round { active } | Phase::Decision { active, .. }, Orders::Reactions(r))
            if active != side =>
        {
            let mut v = super::reactions::check(state, side, r);
            v.extend(super::fire::check_aims(state, side, &r.aims));
            v
        }
        (Phase::Over(o), _) => vec![v(&[], SEQUENCE, format!("the game is over ({})", o.reason))],
        (phase, _) => vec![v(
            &[],
            SEQUENCE,
            format!("this step expects {}", expected(phase, side)),
        )],
    }
}

fn expected(phase: &Phase, side: &SideId) -> String {
    match phase {
        Phase::Deployment => "`deploy:` orders from each side".into(),
        Phase::Round { active } if active == side => {
            "`round:` orders from you, the active side".into()
        }
        Phase::Round { active } => format!("orders from {active} only: you are passive this round"),
        Phase::Decision { active, .. } if active == side => {
            "a `decide:` answer to the decision request".into()
        }
        Phase::Decision { active, .. } => format!("a decision from {active} only"),
        Phase::Over(_) => "nothing: the game is over".into(),
    }
}

fn check_round(state: &State, side: &SideId, r: &RoundOrders) -> Vec<Violation> {
    let mut out = Vec::new();
    out.extend(fire::check_aims(state, side, &r.aims));
    out.extend(check_volleys(state, side, &r.volleys));
    let hand = state.army(side).map(|a| a.hand.clone()).unwrap_or_default();
    if hand.is_empty() && !matches!(r.command(), Command::Pass) {
        out.push(v(
            &["round", "command"],
            "4. No cards: a side with no cards must pass",
            "you have no cards: the command must be `pass`",
        ));
        return out;
    }
    match r.command() {
        Command::Pass => {}
        Command::Event(card) => {
            if !hand.contains(card) {
                out.push(v(
                    &["round", "command", "event"],
                    "4. Play an event",
                    format!(
                        "{card} is not in your hand{}",
                        crate::ruleset::did_you_mean(card, hand.iter().map(String::as_str))
                    ),
                ));
            } else if state.deck.card(card).and_then(|c| c.event).is_none() {
                out.push(v(
                    &["round", "command", "event"],
                    "4. Play an event",
                    format!("{} is not an event card", state.card_name(card)),
                ));
            }
        }
        Command::March(a) | Command::Rally(a) | Command::Bombard(a) | Command::Charge(a) => {
            let kind = r
                .command()
                .action()
                .map(|(k, _)| k)
                .unwrap_or(ActionKind::March);
            if a.consult {
                if !a.force.is_empty() || a.cards.is_some() || !a.moves.is_empty() {
                    out.push(v(&["round", "command"], SEQUENCE, "with `consult: true` leave out force, cards and moves: you will be asked after the draw"));
                }
            } else {
                out.extend(check_activation(state, side, kind, a, r));
            }
        }
    }
    let used: Vec<String> = match r.command() {
        Command::March(a) | Command::Rally(a) | Command::Bombard(a) | Command::Charge(a) => {
            match &a.cards {
                Some(CardChoice::Listed(l)) => l.clone(),
                _ => Vec::new(),
            }
        }
        Command::Event(c) => vec![c.clone()],
        Command::Pass => Vec::new(),
    };
    if let Some(mv) = &r.cinc {
        if !cinc::on_table(state, mv.to) {
            out.push(v(
                &["cinc"],
                cinc::MOVE_RULE,
                "the CinC must stay on the table",
            ));
        }
        if let Some(c) = &mv.discard {
            if !hand.contains(c) {
                out.push(v(
                    &["cinc", "discard"],
                    cinc::MOVE_RULE,
                    format!(
                        "{c} is not in your hand{}",
                        crate::ruleset::did_you_mean(c, hand.iter().map(String::as_str))
                    ),
                ));
            } else if used.contains(c) {
                out.push(v(
                    &["cinc", "discard"],
                    cinc::MOVE_RULE,
                    format!("{c} is already played this round"),
                ));
            }
        }
    }
    let mut symbols = Vec::new();
    for c in &r.modify {
        let rule = "3. Modifying cards: one of each symbol a round, for the action chosen";
        let Some(card) = state.deck.card(c) else {
            out.push(v(
                &["modify"],
                rule,
                format!(
                    "{c} is not a card of this deck{}",
                    crate::ruleset::did_you_mean(c, state.deck.cards.iter().map(|k| k.id.as_str()))
                ),
            ));
            continue;
        };
        if !hand.contains(c) {
            out.push(v(
                &["modify"],
                rule,
                format!(
                    "{c} is not in your hand (cards drawn this round cannot modify){}",
                    crate::ruleset::did_you_mean(c, hand.iter().map(String::as_str))
                ),
            ));
        }
        if used.contains(c) {
            out.push(v(
                &["modify"],
                rule,
                format!("{c} is already played this round"),
            ));
        }
        let wanted = match (card.symbol, r.command()) {
            (Some(Symbol::Volley), _) => r.volleys.invoked(),
            (Some(Symbol::March), Command::March(_)) | (Some(Symbol::Rally), Command::Rally(_)) => {
                true
            }
            (Some(Symbol::Bombard), Command::Bombard(_))
            | (Some(Symbol::Charge), Command::Charge(_)) => true,
            _ => false,
        };
        if !wanted || card.effect.is_none() {
            out.push(v(
                &["modify"],
                rule,
                format!(
                    "{} cannot modify anything in these orders",
                    state.card_name(c)
                ),
            ));
        }
        if let Some(sym) = card.symbol {
            if symbols.contains(&sym) {
                out.push(v(
                    &["modify"],
                    rule,
                    format!("two modifying cards with the {sym:?} symbol").to_lowercase(),
                ));
            }
            symbols.push(sym);
        }
    }
    for c in &r.discard {
        if !hand.contains(c) {
            out.push(v(
                &["discard"],
                "3. Hand limit of ten",
                format!(
                    "{c} is not in your hand{}",
                    crate::ruleset::did_you_mean(c, hand.iter().map(String::as_str))
                ),
            ));
        }
    }
    out
}

/// The units picked to fire in the volley phase (chapter 7: the active
/// side picks and chooses): each one of the side's infantry or guns on the
/// table, named once.
fn check_volleys(state: &State, side: &SideId, volleys: &Volleys) -> Vec<Violation> {
    const RULE: &str = "7. The volley phase: the active side picks which units fire";
    let Volleys::Units(list) = volleys else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if list.is_empty() {
        out.push(v(
            &["round", "volleys"],
            RULE,
            "an empty list fires nobody: write `volleys: false` for no volley phase, or name the units that fire",
        ));
    }
    for (i, id) in list.iter().enumerate() {
        let why = match state.unit(id).filter(|u| &u.side == side) {
            None => Some(format!("{id} is not a unit of yours")),
            Some(u) if !u.on_table() => Some(format!("{} is not on the table", u.short())),
            Some(u) if u.arm == Arm::Cavalry => {
                Some(format!("{} is cavalry: cavalry do not shoot", u.short()))
            }
            Some(u) if list[..i].contains(id) => Some(format!("{} is named twice", u.short())),
            Some(_) => None,
        };
        if let Some(why) = why {
            out.push(Violation::new(&["round", "volleys"], Some(id), RULE, why));
        }
    }
    out
}

fn check_activation(
    state: &State,
    side: &SideId,
    kind: ActionKind,
    a: &Activation,
    r: &RoundOrders,
) -> Vec<Violation> {
    let mut out = Vec::new();
    let units = match check_force(state, side, &a.force) {
        Ok(u) => u,
        Err(e) => return vec![e],
    };
    let hand = state.army(side).map(|x| x.hand.clone()).unwrap_or_default();
    match activation_distance(state, side, &units) {
        None => out.push(v(
            &["force"],
            super::forces::rule::ACTIVATION,
            "no path from the CinC to this force keeps 1 BW from every enemy unit",
        )),
        Some(d) => {
            if let Some(CardChoice::Listed(list)) = &a.cards {
                let mut seen = Vec::new();
                for c in list {
                    if !hand.contains(c) {
                        out.push(v(&["cards"], super::forces::rule::ACTIVATION, format!("{c} is not in your hand (name cards you hold, or use `cards: fewest` to include the cards you draw)")));
                    }
                    if seen.contains(&c) {
                        out.push(v(
                            &["cards"],
                            super::forces::rule::ACTIVATION,
                            format!("{c} is named twice"),
                        ));
                    }
                    seen.push(c);
                }
                let total = total_span(state, list);
                if list.is_empty() {
                    out.push(v(
                        &["cards"],
                        super::forces::rule::ACTIVATION,
                        "an activation costs at least one card",
                    ));
                } else if total < cost(d) {
                    out.push(v(&["cards"], super::forces::rule::ACTIVATION, format!("the force is {d:.1} BW from the CinC (counts as {}); these cards span only {total}", cost(d))));
                }
            }
        }
    }
    let _ = r;
    match kind {
        ActionKind::March => {
            let mut scratch = state.clone();
            let mut near = march::Nearby::new(&scratch, side);
            let mut moved = std::collections::BTreeSet::new();
            let force: std::collections::BTreeSet<&String> = a.force.iter().collect();
            for mv in &a.moves {
                if !force.contains(&mv.unit) {
                    out.push(Violation::new(
                        &["moves", &mv.unit],
                        Some(&mv.unit),
                        march::rule::ALLOWANCE,
                        format!("{} is not in the activated force", mv.unit),
                    ));
                    continue;
                }
                if !moved.insert(mv.unit.as_str()) {
                    out.push(Violation::new(
                        &["moves", &mv.unit],
                        Some(&mv.unit),
                        march::rule::ALLOWANCE,
                        format!("{} has two moves: give one list of steps", mv.unit),
                    ));
                    continue;
                }
                match march::plan_on(&scratch, side, mv, &near) {
                    Ok(p) => {
                        march::apply(&mut scratch, &p);
                        near.moved(&scratch, &p.unit);
                    }
                    Err(e) => out.push(e),
                }
            }
        }
        ActionKind::Charge => {
            let req = charge::ChargeRequest {
                side,
                force: &a.force,
                charges: &a.charges,
                supports: &a.moves,
                attack: Vec::new(),
                defence: Vec::new(),
            };
            out.extend(charge::check(state, &req));
        }
        ActionKind::Bombard => {
            for id in &a.force {
                if let Err(why) = fire::can_bombard(state, id) {
                    out.push(Violation::new(
                        &["force"],
                        Some(id),
                        fire::RULE_BOMBARD,
                        why,
                    ));
                }
            }
            out.extend(fire::check_aims(state, side, &a.aims));
            if !a.moves.is_empty() {
                out.push(v(&["moves"], SEQUENCE, "a Bombard has no moves"));
            }
        }
        _ => {
            if !a.moves.is_empty() {
                out.push(v(
                    &["moves"],
                    SEQUENCE,
                    format!("a {} has no moves", kind.label()),
                ));
            }
        }
    }
    out
}

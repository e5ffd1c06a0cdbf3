//! Every word the ruleset says of its events, made from the facts alone,
//! and the one place events are built, with who may read them.

use super::state::State;
use crate::dice::StreamKind;
use crate::event::{Event, Facts, Kind, Modifier, Visibility};

/// The ruleset's own kinds of event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Said {
    Deployed,
    Placed,
    MoveBegins,
    Observe,
    LostToView,
    Bump,
    Morale,
    Fire,
    Charge,
    ChargeHome,
    Melee,
    PushBack,
    Rout,
    Pursue,
    Rally,
    Move,
    Lost,
    Refused,
    Pledge,
    Recall,
    PersonHit,
    Gone,
    Outcome,
}

impl Said {
    pub const ALL: [Said; 23] = [
        Said::Deployed,
        Said::Placed,
        Said::MoveBegins,
        Said::Observe,
        Said::LostToView,
        Said::Bump,
        Said::Morale,
        Said::Fire,
        Said::Charge,
        Said::ChargeHome,
        Said::Melee,
        Said::PushBack,
        Said::Rout,
        Said::Pursue,
        Said::Rally,
        Said::Move,
        Said::Lost,
        Said::Refused,
        Said::Pledge,
        Said::Recall,
        Said::PersonHit,
        Said::Gone,
        Said::Outcome,
    ];

    pub fn kind(self) -> Kind {
        use Said::*;
        match self {
            Deployed | Placed => Kind::Setup,
            MoveBegins => Kind::Sequence,
            Observe | LostToView | Bump => Kind::Observation,
            Morale => Kind::Morale,
            Fire => Kind::Fire,
            Charge | ChargeHome => Kind::Charge,
            Melee => Kind::Combat,
            PushBack | Rout => Kind::Retreat,
            Pursue => Kind::Pursuit,
            Rally => Kind::Rally,
            Move | Lost => Kind::Move,
            Refused => Kind::Refused,
            Pledge | Recall | PersonHit => Kind::Command,
            Gone => Kind::Removed,
            Outcome => Kind::Outcome,
        }
    }

    pub fn name(self) -> &'static str {
        use Said::*;
        match self {
            Deployed => "deployed",
            Placed => "placed",
            MoveBegins => "move_begins",
            Observe => "observe",
            LostToView => "lost_to_view",
            Bump => "bump",
            Morale => "morale",
            Fire => "fire",
            Charge => "charge",
            ChargeHome => "charge_home",
            Melee => "hand_to_hand",
            PushBack => "push_back",
            Rout => "rout",
            Pursue => "pursue",
            Rally => "rally",
            Move => "move",
            Lost => "lost_in_forest",
            Refused => "refused",
            Pledge => "pledge",
            Recall => "recall",
            PersonHit => "personality_hit",
            Gone => "gone",
            Outcome => "outcome",
        }
    }

    pub fn by_name(name: &str) -> Option<Said> {
        Said::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// The ids of every unit an event names.
fn named(f: &Facts) -> Vec<String> {
    f.unit
        .iter()
        .chain(&f.target)
        .chain(&f.units)
        .map(|u| u.id.clone())
        .chain(f.losses.iter().map(|l| l.unit.clone()))
        .collect()
}

/// Who may read an event naming these units: the public when every one of
/// them is public ([`State::public`]); else each side that knows where
/// every one of them is gets its own copy, so whether a side is told never
/// shows whether the other side was (a found unit's owner reads the same
/// copy, found or not); the umpire alone when no side knows them all.
pub fn audience(s: &State, ids: &[String]) -> Vec<Visibility> {
    if ids.iter().all(|id| s.unit(id).is_none_or(|u| s.public(u))) {
        return vec![Visibility::Public];
    }
    let readers: Vec<Visibility> = s
        .scenario
        .sides
        .iter()
        .map(|x| &x.id)
        .filter(|side| {
            ids.iter().all(|id| {
                s.unit(id)
                    .is_none_or(|u| u.side == **side || s.sees(side, u))
            })
        })
        .map(|side| Visibility::Side(side.clone()))
        .collect();
    if readers.is_empty() {
        vec![Visibility::Umpire]
    } else {
        readers
    }
}

/// The stream for dice about these units: public only when every one of
/// them is public, so no public die tells of a hidden unit, and which
/// stream a die takes depends on nothing a side may not know.
pub fn stream(s: &State, ids: &[&str]) -> StreamKind {
    if ids.iter().all(|id| s.unit(id).is_none_or(|u| s.public(u))) {
        StreamKind::Public
    } else {
        StreamKind::Hidden
    }
}

/// An event with its words, one copy for each audience of
/// [`audience`]. A public event whose dice are not all public goes to the
/// sides instead: nobody may read a die he cannot check.
pub fn event(
    s: &State,
    what: Said,
    facts: Facts,
    dice: Vec<usize>,
    rolled: &[crate::dice::DieRecord],
) -> Vec<Event> {
    let mut audience = audience(s, &named(&facts));
    let hidden_die = dice.iter().any(|i| {
        rolled
            .get(*i)
            .is_some_and(|d| d.stream != StreamKind::Public)
    });
    if audience == [Visibility::Public] && hidden_die {
        audience = s
            .scenario
            .sides
            .iter()
            .map(|x| Visibility::Side(x.id.clone()))
            .collect();
    }
    audience
        .into_iter()
        .map(|vis| to(vis, what, facts.clone(), dice.clone()))
        .collect()
}

/// An event for `vis` alone (observation tests: only the observer).
pub fn to(vis: Visibility, what: Said, facts: Facts, dice: Vec<usize>) -> Event {
    let text = say(what, &facts);
    Event::new(vis, what.kind(), what.name(), facts, text).with_dice(dice)
}

pub fn mods(m: &[Modifier]) -> String {
    if m.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = m
        .iter()
        .map(|x| format!("{:+} {}", x.value, x.why))
        .collect();
    format!(" ({})", parts.join(", "))
}

fn name(u: &Option<crate::event::UnitRef>) -> String {
    u.as_ref().map_or_else(|| "?".into(), |u| u.name.clone())
}

fn list(f: &Facts) -> String {
    f.units
        .iter()
        .map(|u| u.name.clone())
        .collect::<Vec<_>>()
        .join(", ")
}

fn rolls(f: &Facts) -> String {
    f.rolls
        .iter()
        .map(|r| r.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn men(f: &Facts) -> u32 {
    f.losses.iter().map(|l| l.amount).sum()
}

fn at(p: &Option<crate::geometry::Point>) -> String {
    p.map_or_else(String::new, |p| format!("({:.0}, {:.0})", p.x, p.y))
}

/// The words of an event, from its facts alone.
pub fn say(what: Said, f: &Facts) -> String {
    let u = name(&f.unit);
    let t = name(&f.target);
    let result = f.result.clone().unwrap_or_default();
    let reason = f.reason.clone().unwrap_or_default();
    match what {
        Said::Deployed => format!(
            "Setup: the {} deploy their hidden troops by secret orders",
            f.side_name.clone().unwrap_or_default()
        ),
        Said::Placed => format!(
            "{u} deployed hidden at {} facing {:.0}, in {}",
            at(&f.to),
            f.facing.unwrap_or(0.0),
            f.mode.clone().unwrap_or_default()
        ),
        Said::MoveBegins => format!(
            "Move {}: {} move",
            f.round.unwrap_or(0),
            f.side_name.clone().unwrap_or_default()
        ),
        // The observer's own copy: the result only.
        Said::Observe if f.rolls.is_empty() => format!(
            "{u} observes the area round {}: {}",
            at(&f.to),
            if f.units.is_empty() {
                "nothing found".to_string()
            } else {
                format!("found {}", list(f))
            }
        ),
        Said::Observe => format!(
            "{u} observes the area round {}: average die {}{}, sees {:.0} cm{}: {}",
            at(&f.to),
            rolls(f),
            mods(&f.modifiers),
            f.distance.unwrap_or(0.0),
            f.notes
                .first()
                .map(|n| format!(" ({n})"))
                .unwrap_or_default(),
            if f.units.is_empty() {
                "nothing found".to_string()
            } else {
                format!("found {}", list(f))
            }
        ),
        Said::LostToView => format!(
            "The enemy unit found at {} has moved and is lost to view",
            at(&f.to)
        ),
        Said::Bump => format!(
            "{u} comes upon {t}, unseen until now, and halts {:.0} cm short at {}",
            f.distance.unwrap_or(0.0),
            at(&f.to)
        ),
        Said::Morale => format!(
            "{u} tests morale ({reason}): D10 {}, needs under {}{}: {result}",
            rolls(f),
            f.needed.unwrap_or(0),
            mods(&f.modifiers),
        ),
        // Told to the side that sees only the target: fire from the smoke.
        Said::Fire if f.unit.is_none() => format!(
            "Fire from {} at {t} ({:.0} cm): {} men hit",
            f.place.as_deref().unwrap_or("the smoke"),
            f.distance.unwrap_or(0.0),
            men(f)
        ),
        // Told to the side that sees only the firer: fire into the smoke.
        Said::Fire if f.target.is_none() => format!(
            "{u} fires into {} ({:.0} cm)",
            f.place.as_deref().unwrap_or("the smoke"),
            f.distance.unwrap_or(0.0)
        ),
        Said::Fire => format!(
            "{u} fires at {t} ({:.0} cm, {} figures): average die {}{}, multiplier {}: {} men hit{}",
            f.distance.unwrap_or(0.0),
            f.count.unwrap_or(0),
            f.rolls.first().copied().unwrap_or(0),
            mods(&f.modifiers),
            result,
            men(f),
            f.notes
                .first()
                .map(|n| format!(" ({n})"))
                .unwrap_or_default()
        ),
        Said::Charge => format!("{u} charges {t}: {result}"),
        Said::ChargeHome => format!("{u} charges home on {t}: {result}"),
        Said::Melee => format!(
            "Hand to hand: {u} against {t}: {} men lost by {u}, {} by {t}{}: {result}",
            f.losses.first().map_or(0, |l| l.amount),
            f.losses.get(1).map_or(0, |l| l.amount),
            if f.rolls.is_empty() {
                String::new()
            } else {
                format!(" (average dice {})", rolls(f))
            }
        ),
        Said::PushBack => format!("{u} is pushed back {:.0} cm", f.distance.unwrap_or(0.0)),
        Said::Rout => format!(
            "{u} routs {:.0} cm to {}",
            f.distance.unwrap_or(0.0),
            at(&f.to)
        ),
        Said::Pursue => format!(
            "{u} pursues {t} {:.0} cm to {}",
            f.distance.unwrap_or(0.0),
            at(&f.to)
        ),
        Said::Rally => format!("{u}: {result}"),
        Said::Move => format!(
            "{u} moves {:.1} cm to {}{}{}",
            f.distance.unwrap_or(0.0),
            at(&f.to),
            if f.rolls.is_empty() {
                String::new()
            } else {
                format!(", deductions rolled {}", rolls(f))
            },
            if f.notes.is_empty() {
                String::new()
            } else {
                format!(" ({})", f.notes.join("; "))
            }
        ),
        Said::Lost => format!(
            "{u} loses its way in the forest (D6 {}): it turns {result}",
            rolls(f)
        ),
        Said::Refused if f.target.is_some() => format!("{u}, against {t}: {reason}"),
        Said::Refused => format!("{u}: {reason}"),
        Said::Pledge => format!(
            "{} pledges {} to {u}",
            f.group.clone().unwrap_or_default(),
            crate::words::count(f.count.unwrap_or(0), "command point", "command points")
        ),
        Said::Recall => format!(
            "{} spends 2 command points on a new order: {u} stops its pursuit",
            f.group.clone().unwrap_or_default()
        ),
        Said::PersonHit => format!(
            "{} with {u}: {}% chance of a hit, d100 {}: {result}",
            f.group.clone().unwrap_or_default(),
            f.needed.unwrap_or(0),
            rolls(f)
        ),
        Said::Gone => format!("{u} {reason}"),
        Said::Outcome => reason,
    }
}

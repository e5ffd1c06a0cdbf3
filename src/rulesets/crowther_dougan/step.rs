//! One move being resolved: the state, the events told so far, the dice,
//! and the small helpers every phase uses (rolls on the right stream, units
//! as events name them).

use super::orders::Pledge;
use super::state::State;
use super::tables::AVERAGE_FACES;
use super::words::{self, Said};
use crate::dice::{Dice, StreamKind};
use crate::event::{Event, Facts, UnitRef};
use crate::side::SideId;
use std::collections::BTreeSet;

pub struct Step<'a> {
    pub s: State,
    pub events: Vec<Event>,
    pub dice: &'a mut Dice,
    pub n: u32,
    pub active: SideId,
    /// Command points pledged and not yet used: the active side's for its
    /// move, the other side's standing pledges for tests in this move.
    pub pledges: Vec<Pledge>,
    /// Units that have made their rout move in this move: one a move, and
    /// no rally test in the phase they routed in.
    pub routed: BTreeSet<String>,
    /// Units that stood their charge in phase 1 of this move, each with
    /// the charger it stands to receive: they fire at it in phase 2 if
    /// loaded, seen or not.
    pub stood: Vec<(String, String)>,
    /// What each unit found by its own observation this move (the first
    /// unit found), for orders whose target is `found`.
    pub found: std::collections::BTreeMap<String, String>,
}

/// A die rolled: its value and its index in the step's log.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rolled {
    pub value: u32,
    pub index: usize,
}

impl<'a> Step<'a> {
    pub fn new(s: State, dice: &'a mut Dice, n: u32, active: SideId) -> Self {
        Step {
            s,
            events: Vec::new(),
            dice,
            n,
            active,
            pledges: Vec::new(),
            routed: BTreeSet::new(),
            stood: Vec::new(),
            found: std::collections::BTreeMap::new(),
        }
    }

    /// A die about `ids`, on the public stream only if every side knows
    /// where each of them is.
    pub fn roll(&mut self, ids: &[&str], sides: u32, purpose: &str) -> Rolled {
        let kind = words::stream(&self.s, ids);
        self.roll_on(kind, sides, purpose)
    }

    pub fn roll_on(&mut self, kind: StreamKind, sides: u32, purpose: &str) -> Rolled {
        let value = self.dice.roll(kind, sides, purpose);
        Rolled {
            value,
            index: self.dice.last_index().unwrap_or(0),
        }
    }

    /// The average die (2, 3, 3, 4, 4, 5), rolled as a d6 on `kind`.
    pub fn average_on(&mut self, kind: StreamKind, purpose: &str) -> Rolled {
        let r = self.roll_on(kind, 6, purpose);
        Rolled {
            value: AVERAGE_FACES[(r.value.clamp(1, 6) - 1) as usize],
            index: r.index,
        }
    }

    pub fn average(&mut self, ids: &[&str], purpose: &str) -> Rolled {
        let kind = words::stream(&self.s, ids);
        self.average_on(kind, purpose)
    }

    /// Whole men for `raw` casualties: the fraction of a man is diced for
    /// as a percentage (4.7 is 4 and a 70% chance of a fifth).
    pub fn whole_men(&mut self, raw: f64, ids: &[&str]) -> (u32, Vec<Rolled>) {
        let raw = raw.max(0.0);
        let whole = raw.floor();
        let pct = ((raw - whole) * 100.0).round() as u32;
        let mut men = whole as u32;
        let mut rolls = Vec::new();
        if pct > 0 {
            let r = self.roll(
                ids,
                100,
                &format!("fraction of a man: one more on {pct} or less"),
            );
            if r.value <= pct {
                men += 1;
            }
            rolls.push(r);
        }
        (men, rolls)
    }

    pub fn uref(&self, id: &str) -> Option<UnitRef> {
        self.s.unit(id).map(|u| UnitRef {
            id: u.id.clone(),
            name: u.name.clone(),
            side: u.side.clone(),
        })
    }

    pub fn facts(&self, unit: &str, target: Option<&str>) -> Facts {
        Facts {
            side: self.s.unit(unit).map(|u| u.side.clone()),
            unit: self.uref(unit),
            target: target.and_then(|t| self.uref(t)),
            round: Some(self.n),
            ..Facts::default()
        }
    }

    /// Tell an event to whoever knows every unit it names.
    pub fn say(&mut self, what: Said, facts: Facts, dice: Vec<usize>) {
        let told = words::event(&self.s, what, facts, dice, self.dice.log());
        self.events.extend(told);
    }

    /// The enemy an order names: its id, or for `found` what `unit`
    /// found by its own observation this move (none if it found nothing,
    /// which is then told to its side).
    pub fn aim(&mut self, unit: &str, target: &str, what: &str) -> Option<String> {
        if target != super::orders::FOUND {
            return Some(target.to_string());
        }
        let found = self.found.get(unit).cloned();
        if found.is_none() {
            self.refuse(
                unit,
                &format!("Observation: it found nothing to {what} this move"),
            );
        }
        found
    }

    pub fn refuse(&mut self, unit: &str, why: &str) {
        let mut f = self.facts(unit, None);
        f.reason = Some(why.to_string());
        self.say(Said::Refused, f, Vec::new());
    }
}

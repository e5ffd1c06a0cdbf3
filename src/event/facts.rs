//! What an event is about, as data: the shared vocabulary every ruleset
//! speaks, so that a report can be brief, a replay page can draw a volley and
//! a campaign can count losses without reading sentences.

use crate::geometry::Point;
use crate::side::SideId;
use serde::{Deserialize, Serialize};

/// The shared kind of an event. A ruleset names its own finer kind in
/// [`super::Event::what`]; this is what pages draw and campaigns count by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Deployment, the deal, the roll for the first move.
    Setup,
    /// A turn, round, half-turn or phase begins or ends.
    Sequence,
    /// Cards drawn, played, discarded or shuffled.
    Card,
    /// A unit or force is activated, or fails to be.
    Activation,
    /// A unit moves on the table (march, wheel, withdrawal).
    Move,
    /// A unit changes formation or facing without moving.
    Formation,
    /// A unit fires at another (volley, bombardment, musketry).
    Fire,
    /// A unit charges or is charged.
    Charge,
    /// Close combat, melee, hand to hand.
    Combat,
    /// A unit loses strength: bases, hits, men.
    Loss,
    /// A unit gains or loses disorder.
    Disorder,
    /// A morale test or a change of army morale.
    Morale,
    /// A rally attempt or a rally that clears disorder.
    Rally,
    /// A unit falls back, recoils, retreats or routs.
    Retreat,
    /// A unit pursues.
    Pursuit,
    /// A unit breaks, surrenders or leaves the table.
    Removed,
    /// Generals and commanders: moved, displaced, killed, their points.
    Command,
    /// Observation of hidden troops.
    Observation,
    /// An order could not be carried out as written.
    Refused,
    /// The game's result.
    Outcome,
    /// Anything else worth telling.
    Note,
}

/// A unit as an event names it: its id for machines, its name for people.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitRef {
    pub id: String,
    pub name: String,
    pub side: SideId,
}

/// One modifier to a roll, as the rules name it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modifier {
    pub why: String,
    pub value: i32,
}

/// A loss suffered by a unit, in the ruleset's measure of strength.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Loss {
    pub unit: String,
    /// How much: bases, hits, men, ...
    pub amount: u32,
    /// The measure ("base", "hit", "man", "DISR").
    pub of: String,
}

/// The facts of an event. Every field is optional: an event states those
/// that belong to it. Dice are not here: the event refers to them by index
/// in the step's dice log ([`super::Event::dice`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Facts {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<SideId>,
    /// The unit that acts (fires, moves, charges, rallies).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<UnitRef>,
    /// The unit acted upon (fired at, charged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<UnitRef>,
    /// Other units involved (a force, supports, units near a general).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub units: Vec<UnitRef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<Point>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<Point>,
    /// Turn, round or move number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// Cards named by the event.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cards: Vec<String>,
    /// A count the event is about: cards drawn, bases firing, dice rolled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
    /// The score each die needed, after modifiers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub needed: Option<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modifiers: Vec<Modifier>,
    /// Successes: hits scored, dice passed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hits: Option<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub losses: Vec<Loss>,
    /// The result in the ruleset's own word ("disrupted", "recoil", "pass").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// A value before and after (army morale, chips, command points).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<i64>,
    /// Why, when the rules give a reason (a refusal, a rule that applied).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The name of [`Facts::side`] as the scenario gives it ("Austrians").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side_name: Option<String>,
    /// The values the event's dice showed, in the order of
    /// [`super::Event::dice`] (which refers to them in the step's dice log,
    /// the record the audit checks): kept here so that the words can be
    /// made again from the facts alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rolls: Vec<u32>,
    /// Which part of the unit acts, when the rules count its parts (a
    /// base, 1 for the first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part: Option<u32>,
    /// A distance, in the ruleset's measure (BW, inches).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance: Option<f64>,
    /// The rule or chapter that applied, as the source numbers it ("B.4", "8.3").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// A named place that is not a unit: a town, a wall, a terrain feature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<String>,
    /// How: the weapon or fire mode ("musketry", "bombardment"), the action
    /// declared ("march"), the formation taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// Short qualifiers the rules attach, each a phrase (a march's terrain
    /// notes, special fire, a card's printed effect).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The formed group the units act as, by its name (a formed regiment),
    /// its members in [`Facts::units`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// A facing, in degrees as the ruleset measures them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facing: Option<f64>,
    /// The army morale of [`Facts::side`] before and after the event, when
    /// the event changed it (reports sum these up at the top).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub morale: Option<[i64; 2]>,
    /// In a fight, the totals the rules compare: the attacker's and the
    /// defender's (a melee's scores, the hits each side scored), so that a
    /// reader of the data need not know which field a ruleset put them in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attacker_total: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defender_total: Option<i64>,
    /// The units named did nothing (held their fire, had nothing to
    /// rally): players' reports leave such events out, the umpire's keeps them.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub idle: bool,
}

/// The word [`Facts::result`] holds for a card played (for an event, to
/// modify, as an interrupt): the reports' summary counts these.
pub const PLAYED: &str = "played";

impl Facts {
    /// Whether the event concerns this unit, as actor, target or other.
    pub fn involves(&self, unit: &str) -> bool {
        self.unit
            .iter()
            .chain(&self.target)
            .chain(&self.units)
            .any(|u| u.id == unit)
            || self.losses.iter().any(|l| l.unit == unit)
    }
}

//! Where Maurice Lite's events get their words: each kind of event the
//! ruleset tells (`What`), its shared kind, and its sentence made from the
//! event's facts alone, so that the archive's facts make the text again.

use super::state::State;
use super::units::Unit;
use crate::event::{Event, Facts, Kind, Modifier, UnitRef, Visibility};
use crate::geometry::Point;
use crate::side::SideId;

/// Every kind of event Maurice Lite tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum What {
    // Setup (chapter 2).
    Deploys,
    OpeningHand,
    Dealt,
    FirstRoll,
    PlaysFirst,
    // The round (chapter 4).
    RoundBegins,
    RoundResumes,
    RoundGoesTo,
    Pass,
    Declare,
    Consulted,
    Reshuffled,
    ReshuffledItself,
    Draw,
    EventDraws,
    EventRefused,
    PlayEvent,
    RallyAroundCinc,
    Bluff,
    GunsFired,
    ForceSplit,
    Foiled,
    Activate,
    HandOverTen,
    DiscardToTen,
    ReactionsRenewed,
    ReactionsInForce,
    // Cards at their moment (chapter 3).
    Modify,
    StandingModify,
    Interrupt,
    InterruptMissing,
    ModifierMissing,
    // Movement (chapter 6) and the CinC (chapter 5).
    March,
    ClearSmoke,
    Stays,
    CincMoves,
    CincStays,
    CincBlocked,
    CincDisplaced,
    CincPassedThrough,
    DisplacedDiscard,
    DisplacedMorale,
    // Fire (chapter 7).
    VolleyPhase,
    NoBombard,
    Shot,
    NotFiring,
    Disrupt,
    Broken,
    // Rally (chapter 9).
    Rallies,
    NothingToRally,
    // Charges and combat (chapter 8).
    Charges,
    NoCharge,
    Support,
    Engages,
    Score,
    CombatResult,
    CombatBreaks,
    FallsBack,
    CannotFallBack,
    // The end.
    DecidedInVolleys,
    MoraleBroken,
    Nightfall,
}

impl What {
    /// Every name, for tests and pages that list them.
    pub const ALL: [What; 62] = [
        What::Deploys,
        What::OpeningHand,
        What::Dealt,
        What::FirstRoll,
        What::PlaysFirst,
        What::RoundBegins,
        What::RoundResumes,
        What::RoundGoesTo,
        What::Pass,
        What::Declare,
        What::Consulted,
        What::Reshuffled,
        What::ReshuffledItself,
        What::Draw,
        What::EventDraws,
        What::EventRefused,
        What::PlayEvent,
        What::RallyAroundCinc,
        What::Bluff,
        What::GunsFired,
        What::ForceSplit,
        What::Foiled,
        What::Activate,
        What::HandOverTen,
        What::DiscardToTen,
        What::ReactionsRenewed,
        What::ReactionsInForce,
        What::Modify,
        What::StandingModify,
        What::Interrupt,
        What::InterruptMissing,
        What::ModifierMissing,
        What::March,
        What::ClearSmoke,
        What::Stays,
        What::CincMoves,
        What::CincStays,
        What::CincBlocked,
        What::CincDisplaced,
        What::CincPassedThrough,
        What::DisplacedDiscard,
        What::DisplacedMorale,
        What::VolleyPhase,
        What::NoBombard,
        What::Shot,
        What::NotFiring,
        What::Disrupt,
        What::Broken,
        What::Rallies,
        What::NothingToRally,
        What::Charges,
        What::NoCharge,
        What::Support,
        What::Engages,
        What::Score,
        What::CombatResult,
        What::CombatBreaks,
        What::FallsBack,
        What::CannotFallBack,
        What::DecidedInVolleys,
        What::MoraleBroken,
        What::Nightfall,
    ];

    /// The shared kind.
    pub fn kind(self) -> Kind {
        use What::*;
        match self {
            Deploys | OpeningHand | Dealt | FirstRoll | PlaysFirst => Kind::Setup,
            RoundBegins | RoundResumes | RoundGoesTo | Consulted | VolleyPhase => Kind::Sequence,
            Pass | Reshuffled | ReshuffledItself | Draw | EventDraws | PlayEvent | HandOverTen
            | DiscardToTen | Modify | StandingModify | Interrupt | InterruptMissing
            | ModifierMissing => Kind::Card,
            Declare | Foiled | Activate => Kind::Activation,
            EventRefused | Bluff | GunsFired | ForceSplit | Stays | NoBombard | NoCharge
            | CincStays | CincBlocked => Kind::Refused,
            // Standing reactions are neither cards played nor orders carried
            // out: a note is what they are.
            ReactionsRenewed | ReactionsInForce => Kind::Note,
            March | ClearSmoke | Support => Kind::Move,
            CincMoves | CincDisplaced | CincPassedThrough | DisplacedDiscard => Kind::Command,
            DisplacedMorale => Kind::Morale,
            Shot | NotFiring => Kind::Fire,
            Disrupt => Kind::Disorder,
            Broken | CombatBreaks | CannotFallBack => Kind::Removed,
            Rallies | NothingToRally | RallyAroundCinc => Kind::Rally,
            Charges => Kind::Charge,
            Engages | Score | CombatResult => Kind::Combat,
            FallsBack => Kind::Retreat,
            DecidedInVolleys | MoraleBroken | Nightfall => Kind::Outcome,
        }
    }

    /// The name the archive keeps, in snake_case.
    pub fn name(self) -> &'static str {
        use What::*;
        match self {
            Deploys => "deploys",
            OpeningHand => "opening_hand",
            Dealt => "dealt",
            FirstRoll => "first_roll",
            PlaysFirst => "plays_first",
            RoundBegins => "round_begins",
            RoundResumes => "round_resumes",
            RoundGoesTo => "round_goes_to",
            Pass => "pass",
            Declare => "declare",
            Consulted => "consulted",
            Reshuffled => "reshuffled",
            ReshuffledItself => "reshuffled_itself",
            Draw => "draw",
            EventDraws => "event_draws",
            EventRefused => "event_refused",
            PlayEvent => "play_event",
            RallyAroundCinc => "rally_around_cinc",
            Bluff => "bluff",
            GunsFired => "guns_fired",
            ForceSplit => "force_split",
            Foiled => "foiled",
            Activate => "activate",
            HandOverTen => "hand_over_ten",
            DiscardToTen => "discard_to_ten",
            ReactionsRenewed => "reactions_renewed",
            ReactionsInForce => "reactions_in_force",
            Modify => "modify",
            StandingModify => "standing_modify",
            Interrupt => "interrupt",
            InterruptMissing => "interrupt_missing",
            ModifierMissing => "modifier_missing",
            March => "march",
            ClearSmoke => "clear_smoke",
            Stays => "stays",
            CincMoves => "cinc_moves",
            CincStays => "cinc_stays",
            CincBlocked => "cinc_blocked",
            CincDisplaced => "cinc_displaced",
            CincPassedThrough => "cinc_passed_through",
            DisplacedDiscard => "displaced_discard",
            DisplacedMorale => "displaced_morale",
            VolleyPhase => "volley_phase",
            NoBombard => "no_bombard",
            Shot => "shot",
            NotFiring => "not_firing",
            Disrupt => "disrupt",
            Broken => "broken",
            Rallies => "rallies",
            NothingToRally => "nothing_to_rally",
            Charges => "charges",
            NoCharge => "no_charge",
            Support => "support",
            Engages => "engages",
            Score => "score",
            CombatResult => "combat_result",
            CombatBreaks => "combat_breaks",
            FallsBack => "falls_back",
            CannotFallBack => "cannot_fall_back",
            DecidedInVolleys => "decided_in_volleys",
            MoraleBroken => "morale_broken",
            Nightfall => "nightfall",
        }
    }

    /// The `What` the archive names, if any.
    pub fn from_name(name: &str) -> Option<What> {
        What::ALL.into_iter().find(|w| w.name() == name)
    }
}

/// A unit as "Name (id)".
fn short(u: &Option<UnitRef>) -> String {
    u.as_ref()
        .map(|u| format!("{} ({})", u.name, u.id))
        .unwrap_or_default()
}

fn shorts(units: &[UnitRef]) -> Vec<String> {
    units
        .iter()
        .map(|u| format!("{} ({})", u.name, u.id))
        .collect()
}

fn join(v: &[String], sep: &str) -> String {
    v.join(sep)
}

fn at(p: &Option<Point>) -> String {
    let p = p.unwrap_or_default();
    format!("({:.1}, {:.1})", p.x, p.y)
}

fn mods(m: &[Modifier]) -> String {
    m.iter()
        .map(|m| format!("{:+} {}", m.value, m.why))
        .collect::<Vec<_>>()
        .join(", ")
}

fn rolls(f: &Facts, sep: &str) -> String {
    f.rolls
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

/// The words for `what`, from its facts alone.
pub fn say(what: What, f: &Facts) -> String {
    use What::*;
    let name = f.side_name.clone().unwrap_or_default();
    let whose = crate::words::possessive(&name);
    let cards = |n: u32| crate::words::count(n, "card", "cards");
    let unit = short(&f.unit);
    let target = short(&f.target);
    let count = f.count.unwrap_or(0);
    let reason = f.reason.clone().unwrap_or_default();
    let rule = f.rule.clone().unwrap_or_default();
    let mode = f.mode.clone().unwrap_or_default();
    let card = f.cards.first().cloned().unwrap_or_default();
    let note = f.notes.first().cloned().unwrap_or_default();
    let dist = f.distance.unwrap_or(0.0);
    let notes_in_brackets = if f.notes.is_empty() {
        String::new()
    } else {
        format!(" ({})", f.notes.join("; "))
    };
    match what {
        Deploys => format!("{name} deploys {count} units"),
        OpeningHand => format!("Your opening hand: {}", join(&f.cards, ", ")),
        Dealt => {
            "Six cards dealt to each side; the two Reshuffle cards go back into the deck".into()
        }
        FirstRoll => {
            let n = |i: usize| f.notes.get(i).cloned().unwrap_or_default();
            let r = |i: usize| f.rolls.get(i).copied().unwrap_or(0);
            format!(
                "First-round roll: {} {} against {} {}",
                n(0),
                r(0),
                n(1),
                r(1)
            )
        }
        PlaysFirst => format!("{name} plays the first round"),
        RoundBegins => format!("Round {}: {name} to act", f.round.unwrap_or(0)),
        RoundResumes => format!("Round {} resumes: {name} has chosen", f.round.unwrap_or(0)),
        RoundGoesTo => format!("Round {} goes to {name}", f.round.unwrap_or(0)),
        Pass => format!("{name} passes and draws {}", cards(count)),
        Declare => format!("{name} declares a {mode} and draws {}", cards(count)),
        Consulted => {
            format!("{name} is consulted: the round waits for the choice of force and cards")
        }
        Reshuffled => format!(
            "{card} drawn: {count} discards are shuffled back into the deck and the card leaves the game"
        ),
        ReshuffledItself => format!(
            "{card} drawn: fewer than 15 discards, so it alone is shuffled back into the deck"
        ),
        Draw => format!("You draw {}", join(&f.cards, ", ")),
        EventDraws => format!("{name} draws {}", cards(count)),
        EventRefused => format!("{name} cannot play {card} as an event; the round ends"),
        PlayEvent => format!("{name} plays {card} as an event"),
        RallyAroundCinc => {
            if f.units.is_empty() {
                "No unit near the CinC has DISR to lose".to_string()
            } else {
                format!("One DISR removed from {}", shorts(&f.units).join(", "))
            }
        }
        Bluff => format!(
            "{name} cannot activate ({reason}) and discards all {} in hand; the round ends",
                cards(count)
        ),
        GunsFired => format!(
            "{whose} force includes {unit}, which fired in the volley phase and may not be activated but to march off its smoke; the round ends"
        ),
        ForceSplit => {
            format!("{whose} force can no longer act together: {reason}; the round ends")
        }
        Foiled => format!(
            "{whose} activation is foiled: the force is out of reach, {} lost; the round ends",
            join(&f.cards, ", ")
        ),
        Activate => format!(
            "{name} activates {} to {mode} with {}: total span {count} against {dist:.1} BW from the CinC",
            shorts(&f.units).join(", "),
            join(&f.cards, " + ")
        ),
        HandOverTen => format!("Hand over ten: you discard {card}"),
        DiscardToTen => format!("{name} discards a card to keep ten in hand"),
        ReactionsRenewed => format!("{name} renews its standing reactions"),
        ReactionsInForce => {
            "Your new standing reactions are in force until you replace them".into()
        }
        Modify => format!("{name} plays {card} to modify: {note}"),
        StandingModify => {
            format!("{name} plays {card} to modify (standing reaction {mode}): {note}")
        }
        Interrupt => {
            format!("{name} interrupts with {card} (standing reaction {mode}): {note}")
        }
        InterruptMissing => format!(
            "Your standing interrupt {card} ({mode}) was due but the card is not in your hand"
        ),
        ModifierMissing => format!(
            "Your standing modifier {card} ({mode}) was due but the card is not in your hand"
        ),
        March => format!("{unit} moves {dist:.1} BW{notes_in_brackets}"),
        ClearSmoke => format!("{unit} marches only to clear its smoke"),
        Stays => format!("{unit} stays where it is: {reason} [{rule}]"),
        CincMoves => format!("{whose} CinC moves to {}, discarding {card}", at(&f.to)),
        CincStays => format!("{whose} CinC stays: no card left to discard for the move"),
        CincBlocked => format!(
            "{whose} CinC stays: the way to {} crosses the enemy or leaves the table",
            at(&f.to)
        ),
        CincDisplaced => format!("{whose} CinC is displaced to {}", at(&f.to)),
        CincPassedThrough => format!("Enemy bases move through {whose} CinC"),
        DisplacedDiscard => format!("{name} discards {card} for the displaced CinC"),
        DisplacedMorale => format!(
            "{name} has no card to give up for the displaced CinC and loses one army morale point"
        ),
        VolleyPhase => format!("{name} invokes a volley phase"),
        NoBombard => format!("{} does not bombard: {reason}", id(&f.unit)),
        Shot => format!(
            "{unit} base {} fires at {target} ({}, {}): needs {}+{}; rolled {}: {} hit(s)",
            f.part.unwrap_or(0),
            f.notes.first().cloned().unwrap_or_default(),
            f.notes.get(1).cloned().unwrap_or_default(),
            f.needed.unwrap_or(0),
            if f.modifiers.is_empty() {
                String::new()
            } else {
                format!(" ({})", mods(&f.modifiers))
            },
            rolls(f, ", "),
            f.hits.unwrap_or(0)
        ),
        NotFiring => format!(
            "Not firing: {}",
            f.units
                .iter()
                .zip(&f.notes)
                .map(|(u, why)| format!("{} ({why})", u.id))
                .collect::<Vec<_>>()
                .join("; ")
        ),
        Disrupt => format!(
            "{unit} rolls {} to disrupt ({}+): {} DISR, now {}{}",
            rolls(f, ", "),
            f.needed.unwrap_or(0),
            f.hits.unwrap_or(0),
            f.after.unwrap_or(0),
            if f.result.as_deref() == Some(BREAKS) {
                ": it breaks"
            } else {
                ""
            }
        ),
        Broken => format!(
            "{unit} is broken and leaves the table; {name} army morale is now {}",
            f.morale.map_or(0, |m| m[1])
        ),
        Rallies => format!(
            "{unit} rallies: {} of {} DISR removed, {} left",
            f.hits.unwrap_or(0),
            f.before.unwrap_or(0),
            f.after.unwrap_or(0)
        ),
        NothingToRally => format!("{unit} has no DISR to rally"),
        Charges => {
            let mut t = format!("{unit} charges {dist:.1} BW");
            if !note.is_empty() {
                t.push_str(&format!(" ({note})"));
            }
            t.push_str(&format!(
                " into contact with {}",
                shorts(&f.units).join(", ")
            ));
            if let Some(p) = &f.place {
                t.push_str(&format!("; crossing {p} costs 1 DISR"));
            }
            t
        }
        NoCharge => format!("{unit} does not charge: {reason} [{rule}]"),
        Support => format!("{unit} moves {dist:.1} BW in support{notes_in_brackets}"),
        Engages => format!(
            "{unit} engages {}",
            shorts(&f.units)
                .iter()
                .zip(&f.notes)
                .map(|(u, how)| format!("{u} ({how})"))
                .collect::<Vec<_>>()
                .join("; ")
        ),
        Score => {
            let basic = f.before.unwrap_or(0);
            let floored = f.after.unwrap_or(0);
            let die = f.rolls.first().copied().unwrap_or(0) as i64;
            let why = if f.modifiers.is_empty() {
                String::new()
            } else {
                format!(" {}", mods(&f.modifiers))
            };
            format!(
                "{unit} scores {}: {basic}{why} = {floored}, rolls {die}",
                floored + die
            )
        }
        CombatResult => format!("{unit}: {reason}"),
        CombatBreaks => {
            if f.losses.iter().any(|l| l.amount > 0) {
                format!("{unit}: {reason}, and breaks")
            } else {
                format!("{unit}: {reason}")
            }
        }
        FallsBack => {
            let mut t = format!("{unit} falls back {dist:.1} BW{notes_in_brackets}");
            if f.result.as_deref() == Some(BREAKS) {
                t.push_str(&format!(": {count} DISR break it"));
            }
            t
        }
        CannotFallBack => format!("{unit} cannot fall back {dist:.0} BW: {reason}; it breaks"),
        DecidedInVolleys => format!("{reason}: the battle is decided in the volley phase"),
        MoraleBroken => format!(
            "{reason}: {}",
            crate::words::subject_verb(&name, "wins", "win")
        ),
        Nightfall => "The deck is empty and both sides have passed in turn: night falls and the battle is a draw".into(),
    }
}

fn id(u: &Option<UnitRef>) -> String {
    u.as_ref().map(|u| u.id.clone()).unwrap_or_default()
}

/// [`Facts::result`] for a unit that breaks.
pub const BREAKS: &str = "breaks";

/// A public event with its words.
pub fn event(what: What, facts: Facts) -> Event {
    with(Visibility::Public, what, facts)
}

/// An event only `side` (and the umpire) reads.
pub fn private(side: &SideId, what: What, facts: Facts) -> Event {
    with(Visibility::Side(side.clone()), what, facts)
}

fn with(visibility: Visibility, what: What, facts: Facts) -> Event {
    let text = say(what, &facts);
    Event::new(visibility, what.kind(), what.name(), facts, text)
}

/// A unit as events name it.
pub fn unit(u: &Unit) -> UnitRef {
    UnitRef {
        id: u.id.clone(),
        name: u.name.clone(),
        side: u.side.clone(),
    }
}

/// A unit by id, as events name it (its id alone when it is unknown).
pub fn unit_id(s: &State, id: &str) -> UnitRef {
    s.unit(id).map(unit).unwrap_or_else(|| UnitRef {
        id: id.to_string(),
        name: id.to_string(),
        side: SideId(String::new()),
    })
}

/// Facts naming a side.
pub fn side(s: &State, side: &SideId) -> Facts {
    Facts {
        side: Some(side.clone()),
        side_name: Some(s.side_name(side)),
        ..Facts::default()
    }
}

/// Facts naming a unit (and its side).
pub fn of(s: &State, u: &Unit) -> Facts {
    Facts {
        unit: Some(unit(u)),
        ..side(s, &u.side)
    }
}

/// A side's army morale now.
pub fn morale(s: &State, side: &SideId) -> Option<i64> {
    s.army(side).map(|a| a.morale as i64)
}

/// [`Facts::morale`]: the side's army morale from `before` to now, if it changed.
pub fn morale_change(s: &State, side: &SideId, before: Option<i64>) -> Option<[i64; 2]> {
    match (before, morale(s, side)) {
        (Some(b), Some(a)) if a != b => Some([b, a]),
        _ => None,
    }
}

/// The ruleset's modifiers as events carry them.
pub fn modifiers(m: &[super::modifiers::Modifier]) -> Vec<Modifier> {
    m.iter()
        .map(|m| Modifier {
            why: m.reason.clone(),
            value: m.value,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_and_read_back() {
        let mut seen = std::collections::BTreeSet::new();
        for w in What::ALL {
            assert_eq!(What::from_name(w.name()), Some(w));
            seen.insert(w.name());
        }
        assert_eq!(seen.len(), What::ALL.len());
    }

    #[test]
    fn a_plural_side_reads_as_english_when_its_round_begins() {
        let f = Facts {
            side_name: Some("Austrians".into()),
            round: Some(3),
            ..Facts::default()
        };
        assert_eq!(say(What::RoundBegins, &f), "Round 3: Austrians to act");
    }
}

//! Where Morschauser-MacDuff's events get their words: each kind of event
//! the ruleset tells (`What`), its shared kind, and its sentence made from the
//! event's facts alone, so that the archive's facts make the text again.

use super::state::{Company, General, State};
use crate::event::{Event, Facts, Kind, Loss, UnitRef, Visibility};
use crate::side::SideId;

macro_rules! whats {
    ($($v:ident => $name:literal, $kind:ident;)*) => {
        /// Every kind of event Morschauser-MacDuff tells.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum What { $($v,)* }
        impl What {
            /// Every name, for tests and pages that list them.
            pub const ALL: &'static [What] = &[$(What::$v,)*];
            /// The name the archive keeps, in snake_case.
            pub fn name(self) -> &'static str {
                match self { $(What::$v => $name,)* }
            }
            /// The shared kind.
            pub fn kind(self) -> Kind {
                match self { $(What::$v => Kind::$kind,)* }
            }
        }
    };
}

whats! {
    // Setup (A.3).
    Deploys => "deploys", Setup;
    DiceOffTie => "dice_off_tie", Setup;
    DiceOff => "dice_off", Setup;
    ChoosesOrder => "chooses_order", Setup;
    // The turn.
    NothingLeft => "nothing_left", Refused;
    DestroyedBefore => "destroyed_before", Refused;
    LeftBurningTown => "left_burning_town", Move;
    RoadNoShoot => "road_no_shoot", Refused;
    EarlyArtillery => "early_artillery", Refused;
    Moves => "moves", Move;
    Tramples => "tramples", Note;
    MineExplodes => "mine_explodes", Note;
    TimeUp => "time_up", Outcome;
    Decided => "decided", Outcome;
    // Command (E.1, E.2).
    NotFormed => "not_formed", Formation;
    Routing => "routing", Morale;
    RetreatedNoMove => "retreated_no_move", Refused;
    GeneralShift => "general_shift", Command;
    GeneralOutOfReach => "general_out_of_reach", Command;
    CommandDie => "command_die", Command;
    DropsCharge => "drops_charge", Command;
    Personality => "personality", Command;
    GeneralAlone => "general_alone", Command;
    // General orders (E.2, house rule: generals ride).
    GeneralStays => "general_stays", Refused;
    GeneralJoins => "general_joins", Command;
    GeneralLeaves => "general_leaves", Command;
    GeneralRides => "general_rides", Command;
    // Into line (E.2).
    NoRear => "no_rear", Formation;
    NotBroughtUp => "not_brought_up", Refused;
    BroughtUp => "brought_up", Formation;
    // Shooting (B.2, B.4, B.5, C, E.5, E.7).
    MustMelee => "must_melee", Refused;
    InWater => "in_water", Refused;
    CannotShoot => "cannot_shoot", Refused;
    HoldsFire => "holds_fire", Fire;
    KillsGeneral => "kills_general", Command;
    MissesGeneral => "misses_general", Fire;
    NoHitPossible => "no_hit_possible", Fire;
    Shoots => "shoots", Fire;
    CatchesFire => "catches_fire", Note;
    NoFire => "no_fire", Note;
    NotAWallTarget => "not_a_wall_target", Refused;
    NotHeavyGun => "not_heavy_gun", Refused;
    WallOutOfRange => "wall_out_of_range", Refused;
    Breaches => "breaches", Fire;
    NoBreach => "no_breach", Fire;
    // Hits (A.1, E.1).
    SharesHits => "shares_hits", Loss;
    Destroyed => "destroyed", Removed;
    SpLeft => "sp_left", Loss;
    // Charges and melee (B.3, B.6, E.8).
    ChargeCalledOff => "charge_called_off", Refused;
    ChargeShort => "charge_short", Charge;
    OtherTarget => "other_target", Charge;
    NoFlank => "no_flank", Charge;
    NoOneToPursue => "no_one_to_pursue", Pursuit;
    PursuitShort => "pursuit_short", Pursuit;
    PursuesInto => "pursues_into", Pursuit;
    MustAttack => "must_attack", Charge;
    FallsBackAfter => "falls_back_after", Retreat;
    AdvancesAfter => "advances_after", Move;
    NoLadders => "no_ladders", Refused;
    CannotAttackInto => "cannot_attack_into", Refused;
    Melee => "melee", Combat;
    FightsBack => "fights_back", Combat;
    MeleeDrawn => "melee_drawn", Combat;
    GeneralFalls => "general_falls", Command;
    Unharmed => "unharmed", Command;
    ClimbsOver => "climbs_over", Move;
    StaysAtFoot => "stays_at_foot", Move;
    Retreats => "retreats", Retreat;
    // Morale and rally (E.3, E.4).
    BrigadeTest => "brigade_test", Morale;
    Flees => "flees", Morale;
    Obeys => "obeys", Morale;
    FallsBackMorale => "falls_back_morale", Morale;
    LeavesTable => "leaves_table", Removed;
    MoraleMove => "morale_move", Retreat;
    NoRally => "no_rally", Rally;
    Rallies => "rallies", Rally;
    // Engineers and fire (C.5, C.6, E.7k).
    NotInContact => "not_in_contact", Refused;
    MeleeFirst => "melee_first", Combat;
    BlowsBreach => "blows_breach", Note;
    BreachFails => "breach_fails", Note;
    NoBridge => "no_bridge", Refused;
    CannotDemolish => "cannot_demolish", Refused;
    BringsDown => "brings_down", Note;
    StillStands => "still_stands", Note;
    LeavesBurning => "leaves_burning", Move;
}

impl What {
    /// The `What` the archive names, if any.
    pub fn from_name(name: &str) -> Option<What> {
        What::ALL.iter().copied().find(|w| w.name() == name)
    }
}

fn short(u: &Option<UnitRef>) -> String {
    u.as_ref()
        .map(|u| format!("{} ({})", u.name, u.id))
        .unwrap_or_default()
}

/// The actor: a company, a formed regiment, or an order's actor by id.
fn who(f: &Facts) -> String {
    match (&f.unit, &f.group) {
        (Some(_), _) => short(&f.unit),
        (None, Some(g)) if !f.units.is_empty() => format!(
            "formed regiment {g} ({})",
            f.units
                .iter()
                .map(|u| u.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        (None, Some(g)) => g.clone(),
        (None, None) => String::new(),
    }
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// "; it stops because {why}" or nothing.
fn stops(f: &Facts, lead: &str) -> String {
    f.reason
        .as_ref()
        .map(|why| format!("{lead}{why}"))
        .unwrap_or_default()
}

/// The words for `what`, from its facts alone.
pub fn say(what: What, f: &Facts) -> String {
    use What::*;
    let name = f.side_name.clone().unwrap_or_default();
    let me = who(f);
    let mine = crate::words::possessive(&me);
    let target = short(&f.target);
    let theirs = crate::words::possessive(&target);
    let place = f.place.clone().unwrap_or_default();
    let reason = f.reason.clone().unwrap_or_default();
    let dist = f.distance.unwrap_or(0.0);
    // A general, when the event is about one, is its target.
    let general = f
        .target
        .as_ref()
        .map(|g| g.name.clone())
        .unwrap_or_default();
    let die = f.rolls.first().copied().unwrap_or(0);
    let note = |i: usize| f.notes.get(i).cloned().unwrap_or_default();
    let to = f.to.unwrap_or_default();
    match what {
        Deploys => format!("{name} deploys"),
        DiceOffTie => format!("Dice-off: both roll {die}, a tie: roll again"),
        DiceOff => format!(
            "Dice-off: {} {}, {} {}: {name} wins",
            note(0),
            die,
            note(1),
            f.rolls.get(1).copied().unwrap_or(0)
        ),
        ChoosesOrder => format!(
            "{name} chooses to move {}: {} first{}",
            f.mode.clone().unwrap_or_default(),
            crate::words::subject_verb(&note(0), "moves", "move"),
            note(1)
        ),
        NothingLeft => format!("{me} has no company left on the table: nothing happens"),
        DestroyedBefore => format!("{me} was destroyed before it could act"),
        LeftBurningTown => format!("{me} used its move leaving the burning town (C.5)"),
        RoadNoShoot => format!("{me} made a road move and cannot shoot (B.2)"),
        EarlyArtillery => {
            format!("{me} is early artillery and cannot move and shoot in one turn (E.7f)")
        }
        Moves => format!(
            "{me} moves {dist:.1} in to ({:.1}, {:.1}) facing {:.0}{}{}",
            to.x,
            to.y,
            f.facing.unwrap_or(0.0),
            if f.mode.is_some() {
                " along the road"
            } else {
                ""
            },
            stops(f, ", and stops: ")
        ),
        Tramples => format!("{me} tramples the corn of {place} (C.7)"),
        MineExplodes => format!("The mine {} explodes and breaches {place} (C.6)", note(0)),
        TimeUp => format!("Time is up after turn {}: {reason}", f.round.unwrap_or(0)),
        Decided => reason,
        NotFormed => format!(
            "{me} is not formed (its companies do not touch): they act one by one on the same order (E.1)"
        ),
        Routing => {
            format!("{me} is routing and ignores its orders: no shooting, no charge (E.3)")
        }
        RetreatedNoMove => {
            format!("{me} used its move in its morale retreat and does not move again (E.3)")
        }
        GeneralShift => {
            let m = f.modifiers.first();
            format!(
                "General {general} ({}) {} 1 to the command die of {me}",
                m.map(|m| m.why.clone()).unwrap_or_default(),
                if m.is_some_and(|m| m.value > 0) {
                    "adds"
                } else {
                    "takes"
                }
            )
        }
        GeneralOutOfReach => {
            format!("General {general} is not within 12 in and in sight of {me}: the die stands")
        }
        CommandDie => {
            let total = f.after.unwrap_or(die as i64);
            format!(
                "{me} rolls {die} for command{}: it {} (E.2)",
                if total != die as i64 {
                    format!(", {total} with its general")
                } else {
                    String::new()
                },
                f.result.clone().unwrap_or_default()
            )
        }
        DropsCharge => format!("{me} drops its charge and stops short of the enemy (E.7m)"),
        Personality => format!(
            "General {general} proves to be {} (E.2)",
            f.result.clone().unwrap_or_default()
        ),
        GeneralAlone => {
            format!("General {general} is left standing alone: the company he was with is gone")
        }
        GeneralStays => format!("General {general} stays where he is: {reason}"),
        GeneralJoins => format!("General {general} joins {place}"),
        GeneralLeaves => format!("General {general} leaves {place}"),
        GeneralRides => match &f.place {
            Some(left) => format!(
                "General {general} leaves {left} and rides to ({:.1}, {:.1})",
                to.x, to.y
            ),
            None => format!("General {general} rides to ({:.1}, {:.1})", to.x, to.y),
        },
        NoRear => format!("{me} has no companies in the rear to bring up into line (E.2)"),
        NotBroughtUp => format!("{me} cannot be brought up into line: {reason} (E.2)"),
        BroughtUp => format!(
            "{me} is brought up into line beside {target} at ({:.1}, {:.1}) (E.2)",
            to.x, to.y
        ),
        MustMelee => {
            format!("{me} is within 3 in of {target} and must melee rather than shoot (B.4)")
        }
        InWater => format!("{me} is crossing water and cannot shoot (C.4)"),
        CannotShoot => format!(
            "{me} cannot shoot at {}: {reason}; it falls back to {}",
            note(0),
            f.mode.clone().unwrap_or_default()
        ),
        HoldsFire => format!("{me} holds its fire"),
        KillsGeneral => format!("{me} shoots at {general} and kills him (E.5)"),
        MissesGeneral => format!("{me} shoots at {general} and misses"),
        NoHitPossible => format!(
            "{me} shoots {} at {target} ({dist:.1} in) but would need {}: no hit is possible{}",
            f.mode.clone().unwrap_or_default(),
            f.needed.unwrap_or(0),
            notes(f)
        ),
        Shoots => {
            let hits = f.hits.unwrap_or(0);
            format!(
                "{me} shoots {} at {target} ({dist:.1} in) with {} dice needing {}+{}: {hits} hit{}",
                f.mode.clone().unwrap_or_default(),
                f.count.unwrap_or(0),
                f.needed.unwrap_or(0),
                notes(f),
                plural(hits)
            )
        }
        NoFire => format!("{place} does not catch fire (C.5)"),
        CatchesFire => format!(
            "{place} catches fire and will burn for the rest of the game; its occupants must leave on their next move (C.5)"
        ),
        NotAWallTarget => format!(
            "{me} cannot shoot at {place}: only companies, or a high wall for a heavy gun, are targets; it holds its fire"
        ),
        NotHeavyGun => {
            format!("{me} cannot breach {place}: only a heavy gun can (C.6); it holds its fire")
        }
        WallOutOfRange => format!(
            "{me} is {dist:.1} in from {place}, beyond the 12 in a breach needs (C.6); it holds its fire"
        ),
        Breaches => format!("{me} breaches {place} (C.6)"),
        NoBreach => format!("{me} pounds {place} but makes no breach"),
        SharesHits => format!(
            "The formed regiment shares the hits: {} (E.1)",
            f.losses
                .iter()
                .map(|l| format!("{} to {}", l.amount, l.unit))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Destroyed => format!("{me} is destroyed and removed (A.1)"),
        SpLeft => format!("{me} has {} SP left", f.after.unwrap_or(0)),
        ChargeCalledOff => format!(
            "{me} has no path and its target {} is gone: the charge is called off",
            note(0)
        ),
        ChargeShort => format!("{mine} charge at {} falls short of 3 in", note(0)),
        OtherTarget => format!(
            "{me} came within 3 in of {} first and must attack it instead of {} (B.3)",
            note(0),
            note(1)
        ),
        NoFlank => format!(
            "{me} was not wholly behind {theirs} front before coming within 3 in: no flank attack (B.3)"
        ),
        NoOneToPursue => format!("{me} finds no one within reach to pursue into (E.8)"),
        PursuitShort => format!("{me} pursues but does not reach {target} (E.8)"),
        PursuesInto => format!("{me} pursues into a second melee with {target} (E.8)"),
        MustAttack => format!("{me} starts within 3 in of {target} and must attack it (B.6)"),
        FallsBackAfter => format!(
            "{me} falls back {dist:.1} in from {target} after the melee (B.6){}",
            stops(f, "; it stops because ")
        ),
        AdvancesAfter => format!("{me} advances after the melee; it may not charge afresh (B.6)"),
        NoLadders => format!(
            "{me} cannot attack {target} behind {place}: a high wall is attacked only with ladders or through a breach (C.6)"
        ),
        CannotAttackInto => format!(
            "{me} cannot attack {target} in {place}: {}",
            f.reason.clone().unwrap_or_default()
        ),
        Melee => {
            let hits = f.hits.unwrap_or(0);
            format!(
                "Melee: {me} attacks {target}{}, {} dice needing 1-{} score {hits} hit{} (B.6)",
                f.mode.clone().unwrap_or_default(),
                f.count.unwrap_or(0),
                f.needed.unwrap_or(0),
                plural(hits)
            )
        }
        FightsBack => {
            let hits = f.hits.unwrap_or(0);
            format!(
                "{me} fights back against {target}, {} dice needing 1-{} score {hits} hit{} (B.6)",
                f.count.unwrap_or(0),
                f.needed.unwrap_or(0),
                plural(hits)
            )
        }
        MeleeDrawn => format!("The melee between {me} and {target} is drawn"),
        Unharmed => format!("General {general} comes through the melee with {me} unharmed (E.5)"),
        GeneralFalls => format!("General {general} falls in the melee with {me} (E.5)"),
        ClimbsOver => format!("{me} climbs over {place} ({dist:.1} in, C.6)"),
        StaysAtFoot => format!("{me} stays at the foot of {place}: {reason} (C.6)"),
        Retreats => format!(
            "{me} retreats {dist:.1} in away from {target} (B.6){}",
            stops(f, "; it stops because ")
        ),
        BrigadeTest => format!(
            "General {general}'s brigade has lost {} of its {} companies: each remaining unit tests its morale once (E.3)",
            f.hits.unwrap_or(0),
            f.count.unwrap_or(0)
        ),
        Flees => format!("{me} rolls {die}: it about-faces and makes for the table edge (E.3)"),
        Obeys => format!("{me} rolls {die}: it stands and obeys its orders (E.3)"),
        FallsBackMorale => {
            format!("{me} rolls {die}: it retreats a full move from the nearest enemy (E.3)")
        }
        LeavesTable => format!("{me} leaves the table and is lost (E.3)"),
        MoraleMove => format!(
            "{me} {} {dist:.1} in to ({:.1}, {:.1}){}",
            f.mode.clone().unwrap_or_default(),
            to.x,
            to.y,
            stops(f, ", and stops: ")
        ),
        NoRally => format!(
            "{me} rolls {die} (total {}) and does not rally (E.4)",
            f.after.unwrap_or(0)
        ),
        Rallies => format!(
            "{me} rolls {die} (total {}) and rallies: {} (E.4)",
            f.after.unwrap_or(0),
            f.units
                .iter()
                .zip(&f.losses)
                .zip(&f.notes)
                .map(|((u, l), now)| format!(
                    "{} ({}) regains {} SP, {now}",
                    u.name, u.id, l.amount
                ))
                .collect::<Vec<_>>()
                .join("; ")
        ),
        NotInContact => {
            format!("{me} is not in contact with {place} and cannot blow a breach (C.6)")
        }
        MeleeFirst => format!(
            "{me} must survive a round of melee with {} before blowing {place} (C.6)",
            note(0)
        ),
        BlowsBreach => format!("{me} blows a breach in {place} (C.6)"),
        BreachFails => format!("{mine} charge fails to breach {place}"),
        NoBridge => format!("{me} finds no bridge {place} standing to demolish"),
        CannotDemolish => format!("{me} cannot demolish {place}: {reason} (E.7k)"),
        BringsDown => format!("{me} brings down {place} (E.7k)"),
        StillStands => format!("{me} works at {place} but it still stands"),
        LeavesBurning => format!(
            "{me} leaves the burning {place}: {dist:.1} in{} (C.5)",
            match (&f.reason, f.result.as_deref()) {
                (_, Some(OUT)) => String::new(),
                (Some(why), _) => format!(", still inside because {why}"),
                (None, _) => ", still inside".into(),
            }
        ),
    }
}

/// ", note, note" or nothing.
fn notes(f: &Facts) -> String {
    if f.notes.is_empty() {
        String::new()
    } else {
        format!(", {}", f.notes.join(", "))
    }
}

/// [`Facts::result`] for a company that got out of a burning town.
pub const OUT: &str = "out";

/// A public event with its words.
pub fn event(what: What, facts: Facts) -> Event {
    let text = say(what, &facts);
    Event::new(Visibility::Public, what.kind(), what.name(), facts, text)
}

/// A company as events name it.
pub fn company(c: &Company) -> UnitRef {
    UnitRef {
        id: c.id.clone(),
        name: c.name.clone(),
        side: c.side.clone(),
    }
}

/// A general as events name him.
pub fn general(g: &General) -> UnitRef {
    UnitRef {
        id: g.id.clone(),
        name: g.name.clone(),
        side: g.side.clone(),
    }
}

/// Facts naming a side.
pub fn side(s: &State, side: &SideId) -> Facts {
    Facts {
        side: Some(side.clone()),
        side_name: Some(s.side_name(side)),
        ..Facts::default()
    }
}

/// Facts naming a company (and its side).
pub fn of(s: &State, c: &Company) -> Facts {
    Facts {
        unit: Some(company(c)),
        ..side(s, &c.side)
    }
}

/// Facts naming a company and the company it acts on.
pub fn at(s: &State, c: &Company, t: &Company) -> Facts {
    Facts {
        target: Some(company(t)),
        ..of(s, c)
    }
}

/// Facts naming what acts: one company, or a formed regiment of several
/// (as `command::unit_name` names them).
pub fn unit(s: &State, unit: &[String]) -> Facts {
    match unit {
        [one] => match s.company(one) {
            Some(c) => of(s, c),
            None => actor(one),
        },
        _ => {
            let r = unit
                .first()
                .and_then(|c| super::regiment::regiment_of(s, c))
                .map(|(_, r)| r)
                .unwrap_or_default();
            let units: Vec<UnitRef> = unit
                .iter()
                .map(|id| {
                    s.company(id).map(company).unwrap_or_else(|| UnitRef {
                        id: id.clone(),
                        name: id.clone(),
                        side: SideId(String::new()),
                    })
                })
                .collect();
            let side_facts = units
                .first()
                .filter(|u| !u.side.0.is_empty())
                .map(|u| side(s, &u.side))
                .unwrap_or_default();
            Facts {
                group: Some(r),
                units,
                ..side_facts
            }
        }
    }
}

/// Facts naming an order's actor by the id it gave.
pub fn actor(id: &str) -> Facts {
    Facts {
        group: Some(id.to_string()),
        ..Facts::default()
    }
}

/// Hits taken, as a loss.
pub fn hits(unit: &str, amount: u32) -> Loss {
    Loss {
        unit: unit.to_string(),
        amount,
        of: "SP".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_and_read_back() {
        let mut seen = std::collections::BTreeSet::new();
        for w in What::ALL {
            assert_eq!(What::from_name(w.name()), Some(*w));
            seen.insert(w.name());
        }
        assert_eq!(seen.len(), What::ALL.len());
    }
}

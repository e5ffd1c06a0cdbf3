//! Every word the ruleset says of its events, made from the facts alone,
//! and the one place events are built.

use super::rally::RallyResult;
use crate::event::{Event, Facts, Kind, Modifier, Visibility};

/// The ruleset's own kinds of event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Said {
    Chips,
    TurnBegins,
    Consulted,
    TurnResumes,
    Pass,
    RallyRoll,
    Rout,
    Retreat,
    Surrender,
    ChipsLost,
    Move,
    Refused,
    RoughTest,
    Steady,
    Withdrawal,
    ContactCheck,
    Square,
    Fire,
    Downgrade,
    GeneralUse,
    Charge,
    Melee,
    Eliminated,
    Control,
    Objective,
    ArmyMorale,
    Outcome,
}

impl Said {
    pub fn kind(self) -> Kind {
        use Said::*;
        match self {
            Chips => Kind::Setup,
            TurnBegins | Consulted | TurnResumes => Kind::Sequence,
            Pass | RallyRoll | Steady => Kind::Rally,
            Rout | Surrender | Eliminated => Kind::Removed,
            Retreat => Kind::Retreat,
            ChipsLost | RoughTest | ContactCheck | Objective | ArmyMorale => Kind::Morale,
            Move | Withdrawal => Kind::Move,
            Refused => Kind::Refused,
            Square => Kind::Formation,
            Fire => Kind::Fire,
            Downgrade | GeneralUse => Kind::Command,
            Charge => Kind::Charge,
            Melee => Kind::Combat,
            Control => Kind::Pursuit,
            Outcome => Kind::Outcome,
        }
    }

    pub fn name(self) -> &'static str {
        use Said::*;
        match self {
            Chips => "chips",
            TurnBegins => "turn",
            Consulted => "consulted",
            TurnResumes => "turn_resumes",
            Pass => "morale_pass",
            RallyRoll => "rally_table",
            Rout => "rout",
            Retreat => "retreat",
            Surrender => "surrender",
            ChipsLost => "chips_lost",
            Move => "move",
            Refused => "refused",
            RoughTest => "rough_terrain",
            Steady => "unformed_cleared",
            Withdrawal => "cavalry_withdrawal",
            ContactCheck => "contact_check",
            Square => "form_square",
            Fire => "fire",
            Downgrade => "downgrade",
            GeneralUse => "general_risk",
            Charge => "charge",
            Melee => "melee",
            Eliminated => "eliminated",
            Control => "cavalry_control",
            Objective => "objective",
            ArmyMorale => "army_morale",
            Outcome => "outcome",
        }
    }

    /// Every kind, for a replay that makes the words again from the name.
    pub const ALL: [Said; 27] = {
        use Said::*;
        [
            Chips,
            TurnBegins,
            Consulted,
            TurnResumes,
            Pass,
            RallyRoll,
            Rout,
            Retreat,
            Surrender,
            ChipsLost,
            Move,
            Refused,
            RoughTest,
            Steady,
            Withdrawal,
            ContactCheck,
            Square,
            Fire,
            Downgrade,
            GeneralUse,
            Charge,
            Melee,
            Eliminated,
            Control,
            Objective,
            ArmyMorale,
            Outcome,
        ]
    };

    /// The kind named `name`.
    pub fn from_name(name: &str) -> Option<Said> {
        Said::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// The rough-terrain test's own result: it is rolled on the rally table,
/// but any failure there makes the unit unformed ("no other penalty").
const UNFORMED: &str = "unformed";

/// A public event with its words and dice.
pub fn event(what: Said, mut facts: Facts, dice: Vec<usize>) -> Event {
    if what == Said::RoughTest && facts.result.as_deref() != Some(RallyResult::Rally.word()) {
        facts.result = Some(UNFORMED.into());
    }
    let text = say(what, &facts);
    Event::new(Visibility::Public, what.kind(), what.name(), facts, text).with_dice(dice)
}

fn name(u: &Option<crate::event::UnitRef>) -> String {
    u.as_ref().map_or_else(|| "?".into(), |u| u.name.clone())
}

/// Modifiers as "+1 line target, -2 hard cover".
pub fn mods(m: &[Modifier]) -> String {
    if m.is_empty() {
        return "no modifiers".into();
    }
    m.iter()
        .map(|m| format!("{:+} {}", m.value, m.why))
        .collect::<Vec<_>>()
        .join(", ")
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map_or_else(|| "?".into(), |v| v.to_string())
}

/// A distance in cm as [`super::fire::shown`] gives it: one decimal, or
/// two where it was kept to the hundredth.
pub fn cm(x: f64) -> String {
    if ((x * 10.0).round() - x * 10.0).abs() < 1e-6 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

fn at(p: Option<crate::geometry::Point>) -> String {
    p.map_or_else(|| "?".into(), |p| format!("({:.1}, {:.1})", p.x, p.y))
}

/// The words for an event, from its facts.
pub fn say(what: Said, f: &Facts) -> String {
    let unit = name(&f.unit);
    let target = name(&f.target);
    let result = f.result.clone().unwrap_or_default();
    let reason = f.reason.clone().unwrap_or_default();
    match what {
        Said::Chips => format!(
            "{reason}: {} chips for regiments and generals, {} more from sixes: {} chips",
            opt(f.count),
            opt(f.hits),
            opt(f.after)
        ),
        Said::TurnBegins => format!(
            "Turn {}: {} is the phasing side",
            opt(f.round),
            f.side.as_ref().map_or("?", |s| s.as_str())
        ),
        Said::Consulted => format!(
            "{} is consulted: the turn waits after the movement phase for its defensive fire decision",
            f.side.as_ref().map_or("?", |s| s.as_str())
        ),
        Said::TurnResumes => format!(
            "Turn {} resumes with defensive fire: {} is the phasing side",
            opt(f.round),
            f.side.as_ref().map_or("?", |s| s.as_str())
        ),
        Said::Pass => format!(
            "{reason} spends a morale pass on {unit}: disorder cleared ({} passes left)",
            opt(f.after)
        ),
        Said::RallyRoll => format!(
            "{unit} rolls on the rally table ({}), needs {}+: {} — {result}",
            mods(&f.modifiers),
            opt(f.needed),
            opt(f.hits)
        ),
        Said::Rout => format!("{unit} routs and is removed from the table"),
        Said::Retreat => format!(
            "{unit} retreats {} cm from {} to {}{}",
            opt(f.count),
            at(f.from),
            at(f.to),
            if reason.is_empty() {
                String::new()
            } else {
                format!(" ({reason})")
            }
        ),
        Said::Surrender => format!("{unit} surrenders: {reason}"),
        Said::ChipsLost => format!(
            "{reason}: {} chip(s) lost; the corps has {} left, the army dish holds {}",
            opt(f.count),
            opt(f.after),
            opt(f.before)
        ),
        Said::Move => format!(
            "{unit} moves from {} to {}{}{}",
            at(f.from),
            at(f.to),
            if result.is_empty() {
                String::new()
            } else {
                format!(", {result}")
            },
            if reason.is_empty() {
                String::new()
            } else {
                format!("; {reason}")
            }
        ),
        Said::Refused => format!("{unit} cannot do as ordered: {reason}"),
        Said::RoughTest => format!(
            "{unit} tests for rough terrain ({reason}; {}), needs {}+: {} — {result}",
            mods(&f.modifiers),
            opt(f.needed),
            opt(f.hits)
        ),
        Said::Steady => format!("{unit} stood still and is no longer unformed"),
        Said::Withdrawal => format!(
            "{unit} withdraws {} cm from {target}, to {}",
            opt(f.count),
            at(f.to)
        ),
        Said::ContactCheck => format!(
            "{unit}, contacted by {target}, checks morale ({}), needs {}+: {} — {result}",
            mods(&f.modifiers),
            opt(f.needed),
            opt(f.hits)
        ),
        Said::Square => format!("{unit} forms square instead of firing"),
        Said::Fire => format!(
            "{unit} fires at {target} at {} cm ({}): {} — {result}",
            f.distance.map_or_else(|| "?".into(), cm),
            mods(&f.modifiers),
            opt(f.hits)
        ),
        Said::Downgrade => format!(
            "{reason}, with {unit}, tries to lessen the result (needs {}+): {} — {result}",
            opt(f.needed),
            opt(f.hits)
        ),
        Said::GeneralUse => format!(
            "{reason} risks his life with {unit}: {} — {result}",
            opt(f.hits)
        ),
        Said::Charge => format!(
            "{unit} charges {target} from {} to {}{}",
            at(f.from),
            at(f.to),
            if result.is_empty() {
                String::new()
            } else {
                format!(": {result}")
            }
        ),
        Said::Melee => format!(
            "Melee: {} against {}: difference {} — {result}",
            unit,
            target,
            opt(f.hits)
        ),
        Said::Eliminated => format!("{unit} is eliminated ({reason})"),
        Said::Control => format!(
            "{unit} tests control after winning ({}): {} — {result}",
            mods(&f.modifiers),
            opt(f.hits)
        ),
        Said::Objective => format!(
            "{reason} is now held by {}",
            f.side.as_ref().map_or("nobody", |s| s.as_str())
        ),
        Said::ArmyMorale => format!(
            "{}: {} chips lost of an army morale of {}",
            f.side.as_ref().map_or("?", |s| s.as_str()),
            opt(f.before),
            opt(f.after)
        ),
        Said::Outcome => reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::UnitRef;

    #[test]
    fn fire_words_come_from_the_facts() {
        let f = Facts {
            unit: Some(UnitRef {
                id: "a".into(),
                name: "2nd Line".into(),
                side: "french".into(),
            }),
            target: Some(UnitRef {
                id: "b".into(),
                name: "IR 4".into(),
                side: "austrian".into(),
            }),
            distance: Some(5.0),
            modifiers: vec![Modifier {
                why: "skirmish target".into(),
                value: -1,
            }],
            hits: Some(8),
            result: Some("target disordered".into()),
            ..Facts::default()
        };
        let e = event(Said::Fire, f, vec![3, 4]);
        assert_eq!(e.kind, Kind::Fire);
        assert_eq!(e.what, "fire");
        assert_eq!(
            e.text,
            "2nd Line fires at IR 4 at 5.0 cm (-1 skirmish target): 8 — target disordered"
        );
        assert_eq!(e.dice, vec![3, 4]);
    }
}

#[cfg(test)]
mod names {
    use super::Said;

    #[test]
    fn every_name_reads_back_to_its_kind() {
        let mut seen = std::collections::BTreeSet::new();
        for s in Said::ALL {
            assert_eq!(Said::from_name(s.name()), Some(s));
            seen.insert(s.name());
        }
        assert_eq!(seen.len(), Said::ALL.len());
    }
}

//! Every word the ruleset says of its events, made from the facts alone,
//! and the one place its events are built.

use crate::event::{Event, Facts, Kind, Modifier, UnitRef, Visibility};

/// The ruleset's own kinds of event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Said {
    Placed,
    FirstMove,
    TurnBegins,
    Activation,
    Blunder,
    Reroll,
    Consulted,
    TurnEnds,
    Move,
    Pivot,
    Formation,
    Reform,
    Refused,
    Fire,
    Melee,
    Disorder,
    Critical,
    Recoil,
    RoutMove,
    Rallied,
    Removed,
    Outcome,
}

impl Said {
    pub fn kind(self) -> Kind {
        use Said::*;
        match self {
            Placed | FirstMove => Kind::Setup,
            TurnBegins | Consulted | TurnEnds => Kind::Sequence,
            Activation | Blunder | Reroll => Kind::Activation,
            Move => Kind::Move,
            Pivot | Formation | Reform => Kind::Formation,
            Refused => Kind::Refused,
            Fire => Kind::Fire,
            Melee => Kind::Combat,
            Disorder => Kind::Disorder,
            Critical => Kind::Morale,
            Recoil | RoutMove => Kind::Retreat,
            Rallied => Kind::Rally,
            Removed => Kind::Removed,
            Outcome => Kind::Outcome,
        }
    }

    pub fn name(self) -> &'static str {
        use Said::*;
        match self {
            Placed => "placed",
            FirstMove => "first_move",
            TurnBegins => "turn",
            Activation => "activation",
            Blunder => "blunder",
            Reroll => "garbled_reroll",
            Consulted => "consulted",
            TurnEnds => "turn_ends",
            Move => "move",
            Pivot => "pivot",
            Formation => "formation",
            Reform => "reform",
            Refused => "refused",
            Fire => "fire",
            Melee => "melee",
            Disorder => "disorder",
            Critical => "critical",
            Recoil => "recoil",
            RoutMove => "rout_move",
            Rallied => "rallied",
            Removed => "removed",
            Outcome => "outcome",
        }
    }

    /// The kind named `name`, for a replay that makes the words again.
    pub fn from_name(name: &str) -> Option<Said> {
        use Said::*;
        [
            Placed, FirstMove, TurnBegins, Activation, Blunder, Reroll, Consulted, TurnEnds, Move,
            Pivot, Formation, Reform, Refused, Fire, Melee, Disorder, Critical, Recoil, RoutMove,
            Rallied, Removed, Outcome,
        ]
        .into_iter()
        .find(|s| s.name() == name)
    }
}

/// A public event with its words and dice.
pub fn event(what: Said, facts: Facts, dice: Vec<usize>) -> Event {
    let text = say(what, &facts);
    Event::new(Visibility::Public, what.kind(), what.name(), facts, text).with_dice(dice)
}

fn name(u: &Option<UnitRef>) -> String {
    u.as_ref().map_or_else(|| "?".into(), |u| u.name.clone())
}

/// Modifiers as "+1 short range, -2 heavy cover".
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

fn at(p: Option<crate::geometry::Point>) -> String {
    p.map_or_else(|| "?".into(), |p| format!("({:.1}, {:.1})", p.x, p.y))
}

fn tail(s: &str, sep: &str) -> String {
    if s.is_empty() {
        String::new()
    } else {
        format!("{sep}{s}")
    }
}

/// The dice as "5 6 1*" (a star for a coloured die).
fn dice(f: &Facts) -> String {
    f.rolls
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let star = if f.notes.get(i).is_some_and(|n| n == "coloured") {
                "*"
            } else {
                ""
            };
            format!("{r}{star}")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The words for an event, from its facts.
pub fn say(what: Said, f: &Facts) -> String {
    let unit = name(&f.unit);
    let target = name(&f.target);
    let result = f.result.clone().unwrap_or_default();
    let reason = f.reason.clone().unwrap_or_default();
    let mode = f.mode.clone().unwrap_or_default();
    let side = f
        .side_name
        .clone()
        .or_else(|| f.side.as_ref().map(|s| s.to_string()))
        .unwrap_or_else(|| "?".into());
    match what {
        Said::Placed => format!(
            "{unit} is placed at {} facing {}, {} (placement {})",
            at(f.to),
            opt(f.facing.map(|x| format!("{x:.0}"))),
            standing(&mode),
            opt(f.round)
        ),
        Said::FirstMove => format!(
            "Roll for the first move: {}: {} first",
            f.rolls
                .chunks(2)
                .map(|c| c
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(" against "))
                .collect::<Vec<_>>()
                .join(", then "),
            crate::words::subject_verb(&side, "moves", "move"),
        ),
        Said::TurnBegins => format!(
            "Turn {}: {}",
            opt(f.round),
            crate::words::subject_verb(&side, "activates", "activate")
        ),
        Said::Activation => format!(
            "{unit} rolls {} activation dice needing {}+: {} — {}{}",
            opt(f.count),
            opt(f.needed),
            dice(f),
            crate::words::count(f.hits.unwrap_or(0), "success", "successes"),
            tail(&result, ", ")
        ),
        Said::Blunder => format!(
            "{unit} blunders (a 1 on a coloured die); blunder table: {} — {result}",
            opt(f.rolls.first())
        ),
        Said::Reroll => format!(
            "{unit} rerolls a successful die (garbled orders): {} — {result}",
            opt(f.rolls.first())
        ),
        Said::Consulted => format!("{side} is consulted: the turn waits for the next activation"),
        Said::TurnEnds => format!("{} turn ends: {reason}", crate::words::possessive(&side)),
        Said::Move => format!(
            "{unit} {mode} from {} to {} ({:.2} S){}",
            at(f.from),
            at(f.to),
            f.distance.unwrap_or(0.0),
            tail(&result, ", ")
        ),
        Said::Pivot => format!(
            "{unit} pivots to face {} ({})",
            opt(f.facing.map(|x| format!("{x:.0}"))),
            crate::words::count(f.count.unwrap_or(0), "action", "actions")
        ),
        Said::Formation => format!("{unit}: {mode}"),
        Said::Reform => format!("{unit} spends its first action reforming its lines"),
        Said::Refused => format!("{unit} cannot {}: {reason}", act(&mode)),
        Said::Fire => format!(
            "{unit} fires at {target} ({mode}, {:.1} S): {} + ... = {} against {} = {} ({}) — {result}",
            f.distance.unwrap_or(0.0),
            opt(f.rolls.first()),
            opt(f.attacker_total),
            opt(f.rolls.get(1)),
            opt(f.defender_total),
            mods(&f.modifiers)
        ),
        Said::Melee => format!(
            "Melee{}: {unit} {} + ... = {} against {target} {} = {} ({}) — {result}",
            tail(&mode, ", "),
            opt(f.rolls.first()),
            opt(f.attacker_total),
            opt(f.rolls.get(1)),
            opt(f.defender_total),
            mods(&f.modifiers)
        ),
        Said::Disorder => format!(
            "{unit} takes {} disorder: {} coloured dice{}",
            f.after.unwrap_or(0) - f.before.unwrap_or(0),
            opt(f.after),
            if f.after.unwrap_or(0) >= 3 {
                ", crippled"
            } else {
                ""
            }
        ),
        Said::Critical => format!(
            "{unit} rolls on the critical event table: {} = {} — {result}",
            dice(f),
            opt(f.hits)
        ),
        Said::Recoil => format!(
            "{unit} recoils from {} to {}{}",
            at(f.from),
            at(f.to),
            tail(&reason, ": ")
        ),
        Said::RoutMove => format!(
            "{unit} routs toward its edge, from {} to {}{}",
            at(f.from),
            at(f.to),
            tail(&result, ", ")
        ),
        Said::Rallied => format!("{unit} stops routing: three activation dice succeeded"),
        Said::Removed => format!("{unit} is removed from play ({reason})"),
        Said::Outcome => reason,
    }
}

/// A formation as a unit stands in it: "in line", but "mounted".
fn standing(formation: &str) -> String {
    match formation {
        "mounted" | "limbered" | "unlimbered" => formation.to_string(),
        "" => "in its formation".into(),
        f => format!("in {f}"),
    }
}

/// An action as what a unit cannot do: "take an aimed shot", not
/// "aimed shot".
fn act(action: &str) -> &str {
    match action {
        "aimed shot" => "take an aimed shot",
        "double time" => "move at the double",
        a => a,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn activation_words_come_from_the_facts() {
        let f = Facts {
            unit: Some(UnitRef {
                id: "a".into(),
                name: "1st Foot".into(),
                side: "red".into(),
            }),
            count: Some(3),
            needed: Some(4),
            rolls: vec![5, 1, 2],
            notes: vec!["white".into(), "coloured".into(), "white".into()],
            hits: Some(1),
            result: Some("turnover".into()),
            ..Facts::default()
        };
        let e = event(Said::Activation, f, vec![0, 1, 2]);
        assert_eq!(e.kind, Kind::Activation);
        assert_eq!(
            e.text,
            "1st Foot rolls 3 activation dice needing 4+: 5 1* 2 — 1 success, turnover"
        );
        assert_eq!(Said::from_name("activation"), Some(Said::Activation));
    }

    /// Issue 31, item 14: the words read as English: a plural side moves,
    /// a count takes its noun's number, an action is something done, a
    /// formation is stood in.
    #[test]
    fn activation_words_read_as_english() {
        let unit = Some(UnitRef {
            id: "a".into(),
            name: "1st Foot".into(),
            side: "red".into(),
        });
        let first = Facts {
            side_name: Some("Allies".into()),
            rolls: vec![5, 2],
            ..Facts::default()
        };
        let said = event(Said::FirstMove, first, vec![]).text;
        assert!(said.ends_with("the Allies move first"), "{said}");
        let two = Facts {
            unit: unit.clone(),
            count: Some(2),
            needed: Some(4),
            rolls: vec![5, 6],
            hits: Some(2),
            ..Facts::default()
        };
        let said = event(Said::Activation, two, vec![0, 1]).text;
        assert!(said.contains("— 2 successes"), "{said}");
        let refused = Facts {
            unit: unit.clone(),
            mode: Some("aimed shot".into()),
            reason: Some("out of range".into()),
            ..Facts::default()
        };
        let said = event(Said::Refused, refused, vec![]).text;
        assert_eq!(said, "1st Foot cannot take an aimed shot: out of range");
        let placed = Facts {
            unit,
            mode: Some("mounted".into()),
            round: Some(1),
            ..Facts::default()
        };
        let said = event(Said::Placed, placed, vec![]).text;
        assert!(said.contains(", mounted (placement 1)"), "{said}");
    }
}

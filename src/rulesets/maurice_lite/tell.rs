//! A round told to one reader. Each base of a volley rolls its own die as
//! an event of its own; the report joins a unit's volley at one target into
//! one line with each die printed once. "What changed" sums DISR per unit,
//! and names the cards played and army morale lost.

use crate::dice::DieRecord;
use crate::event::tell::{self, Told};
use crate::event::{Event, Kind, PLAYED};
use crate::view::{EventLine, Viewer};

pub fn tell(events: &[Event], dice: &[DieRecord], viewer: &Viewer) -> Told {
    let seen = tell::seen(events, viewer);
    Told {
        changed: changed(&seen),
        lines: tell::runs(&seen, volley_key)
            .into_iter()
            .map(|run| match run.as_slice() {
                [one] if volley_key(one).is_none() => tell::line(one, dice, viewer),
                _ => volley_line(&run, dice, viewer),
            })
            .collect(),
    }
}

fn changed(seen: &[&Event]) -> Vec<String> {
    let mut out: Vec<String> = tell::removed(seen, "Broken or lost").into_iter().collect();
    out.extend(tell::sums(seen, "DISR gained", |of| of == "DISR"));
    let played: Vec<String> = seen
        .iter()
        .filter(|e| e.facts.result.as_deref() == Some(PLAYED))
        .map(|e| format!("{}: {}", tell::side_of(e), e.facts.cards.join(" + ")))
        .collect();
    if !played.is_empty() {
        out.push(format!("Cards played: {}", played.join("; ")));
    }
    // From the first value before to the last after, per side.
    let mut morale: Vec<(String, i64, i64)> = Vec::new();
    for e in seen {
        let Some([before, after]) = e.facts.morale else {
            continue;
        };
        let side = tell::side_of(e);
        match morale.iter_mut().find(|(s, _, _)| *s == side) {
            Some(m) => m.2 = after,
            None => morale.push((side, before, after)),
        }
    }
    let lost: Vec<String> = morale
        .iter()
        .filter(|(_, b, a)| b != a)
        .map(|(s, b, a)| format!("{s} {b} -> {a}"))
        .collect();
    if !lost.is_empty() {
        out.push(format!("Army morale: {}", lost.join(", ")));
    }
    for e in seen
        .iter()
        .filter(|e| e.kind == Kind::Morale && e.facts.morale.is_none())
    {
        out.push(format!("Morale: {}", e.text));
    }
    out
}

/// A base's volley die: who fired at what, needing what.
fn volley_key(e: &Event) -> Option<(String, String, Option<u32>)> {
    if e.kind != Kind::Fire || e.dice.is_empty() {
        return None;
    }
    let unit = e.facts.unit.as_ref()?;
    let target = e.facts.target.as_ref()?;
    Some((unit.id.clone(), target.id.clone(), e.facts.needed))
}

/// "Picardie 4d at Kaiser, 3+: 5 6 1 4, 3 hits (dice public #12-#15)".
fn volley_line(run: &[&Event], dice: &[DieRecord], viewer: &Viewer) -> EventLine {
    let first = run[0];
    let rolled: Vec<&DieRecord> = run
        .iter()
        .flat_map(|e| tell::dice_of(e, dice, viewer))
        .collect();
    let hits: u32 = run.iter().filter_map(|e| e.facts.hits).sum();
    let name =
        |u: &Option<crate::event::UnitRef>| u.as_ref().map(|u| u.name.clone()).unwrap_or_default();
    let needed = first
        .facts
        .needed
        .map(|n| format!(", {n}+"))
        .unwrap_or_default();
    let values = rolled
        .iter()
        .map(|d| d.value.to_string())
        .collect::<Vec<_>>()
        .join(" ");
    let mut text = format!(
        "{} {}d at {}{needed}: {values}, {hits} hit{}",
        name(&first.facts.unit),
        rolled.len(),
        name(&first.facts.target),
        if hits == 1 { "" } else { "s" }
    );
    if !rolled.is_empty() {
        text.push_str(&format!(" (dice {})", tell::positions(&rolled)));
    }
    EventLine {
        text,
        dice: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::StreamKind;
    use crate::event::{Facts, Loss, UnitRef, Visibility};
    use crate::side::SideId;

    fn unit(id: &str, name: &str, side: &str) -> UnitRef {
        UnitRef {
            id: id.into(),
            name: name.into(),
            side: SideId(side.into()),
        }
    }

    fn die(index: u64, value: u32) -> DieRecord {
        DieRecord {
            stream: StreamKind::Public,
            index,
            sides: 6,
            value,
            purpose: format!("die {index}"),
        }
    }

    fn ev(kind: Kind, what: &str, facts: Facts, text: &str) -> Event {
        Event::new(Visibility::Public, kind, what, facts, text)
    }

    /// A known round: Picardie fires two bases at Kaiser (dice 5 6, then
    /// 1 4), Kaiser takes DISR and breaks, a card is played, a unit idles.
    fn round() -> (Vec<Event>, Vec<DieRecord>) {
        let picardie = unit("fr-i1", "Picardie", "french");
        let kaiser = unit("au-i1", "Kaiser", "austrians");
        let shot = |dice: Vec<usize>, rolls: Vec<u32>, hits: u32| {
            ev(
                Kind::Fire,
                "shot",
                Facts {
                    unit: Some(picardie.clone()),
                    target: Some(kaiser.clone()),
                    needed: Some(3),
                    rolls,
                    hits: Some(hits),
                    ..Facts::default()
                },
                "a base fires",
            )
            .with_dice(dice)
        };
        let events = vec![
            ev(
                Kind::Card,
                "modify",
                Facts {
                    side_name: Some("French".into()),
                    cards: vec!["Bold Stroke".into()],
                    result: Some(PLAYED.into()),
                    ..Facts::default()
                },
                "French plays Bold Stroke",
            ),
            shot(vec![0, 1], vec![5, 6], 2),
            shot(vec![2, 3], vec![1, 4], 1),
            ev(
                Kind::Fire,
                "not_firing",
                Facts {
                    units: vec![unit("fr-a1", "Guns", "french")],
                    idle: true,
                    ..Facts::default()
                },
                "Not firing: fr-a1 (no target)",
            ),
            ev(
                Kind::Disorder,
                "disrupt",
                Facts {
                    unit: Some(kaiser.clone()),
                    losses: vec![Loss {
                        unit: "au-i1".into(),
                        amount: 2,
                        of: "DISR".into(),
                    }],
                    rolls: vec![4, 5],
                    ..Facts::default()
                },
                "Kaiser rolls 4, 5 to disrupt",
            )
            .with_dice([4, 5]),
            ev(
                Kind::Removed,
                "broken",
                Facts {
                    unit: Some(kaiser.clone()),
                    side_name: Some("Austrians".into()),
                    morale: Some([12, 11]),
                    ..Facts::default()
                },
                "Kaiser is broken",
            ),
            ev(
                Kind::Note,
                "morale_unchanged",
                Facts {
                    side_name: Some("French".into()),
                    morale: Some([9, 9]),
                    ..Facts::default()
                },
                "French army morale stays 9",
            ),
        ];
        let dice = vec![
            die(0, 5),
            die(1, 6),
            die(2, 1),
            die(3, 4),
            die(4, 4),
            die(5, 5),
        ];
        (events, dice)
    }

    #[test]
    fn what_changed_sums_up_a_known_round_and_leaves_out_what_did_not() {
        let (events, dice) = round();
        let told = tell(&events, &dice, &Viewer::Side(SideId("french".into())));
        assert_eq!(
            told.changed,
            vec![
                "Broken or lost: Kaiser (au-i1)".to_string(),
                "DISR gained: Kaiser (au-i1) +2".to_string(),
                "Cards played: French: Bold Stroke".to_string(),
                "Army morale: Austrians 12 -> 11".to_string(),
            ]
        );
        assert!(tell(&[], &[], &Viewer::Umpire).changed.is_empty());
    }

    #[test]
    fn a_volley_is_one_line_per_unit_with_each_die_once() {
        let (events, dice) = round();
        let player = tell(&events, &dice, &Viewer::Side(SideId("french".into()))).lines;
        let texts: Vec<&str> = player.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            texts,
            vec![
                "French plays Bold Stroke",
                "Picardie 4d at Kaiser, 3+: 5 6 1 4, 3 hits (dice public #0-#3)",
                "Kaiser rolls 4, 5 to disrupt",
                "Kaiser is broken",
                "French army morale stays 9",
            ]
        );
        // The volley's dice are not listed again beneath it.
        assert!(player[1].dice.is_empty());
        assert_eq!(player[2].dice.len(), 2);
        // The umpire keeps the unit that did nothing.
        let umpire = tell(&events, &dice, &Viewer::Umpire).lines;
        assert!(umpire.iter().any(|l| l.text.starts_with("Not firing")));
    }
}

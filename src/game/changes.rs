//! What a report says first and how it tells fire, made from the events'
//! kinds and facts whatever the ruleset: "What changed" (units broken, DISR
//! gained, hits taken, cards played, army morale), and fire as one line per
//! firing unit with each die printed once.

use crate::dice::{DieRecord, StreamKind};
use crate::event::{Event, Kind, PLAYED, UnitRef};
use crate::view::{DieLine, EventLine, Viewer};
use std::collections::BTreeMap;

fn short(u: &UnitRef) -> String {
    format!("{} ({})", u.name, u.id)
}

/// The few lines at the top of a report: what changed in the step, as
/// `viewer` may know it. Empty when nothing did.
pub fn changed(events: &[Event], viewer: &Viewer) -> Vec<String> {
    let seen: Vec<&Event> = events.iter().filter(|e| e.visible_to(viewer)).collect();
    let mut out = Vec::new();
    // Units that left the table, in the order they went.
    let mut gone: Vec<String> = Vec::new();
    for e in seen.iter().filter(|e| e.kind == Kind::Removed) {
        if let Some(u) = &e.facts.unit {
            let name = short(u);
            if !gone.contains(&name) {
                gone.push(name);
            }
        }
    }
    if !gone.is_empty() {
        out.push(format!("Broken or lost: {}", gone.join(", ")));
    }
    // DISR and hits, summed per unit in the order first suffered.
    for (measure, label) in [("DISR", "DISR gained"), ("SP", "Hits taken")] {
        let mut order: Vec<String> = Vec::new();
        let mut sum: BTreeMap<String, u32> = BTreeMap::new();
        for e in &seen {
            for l in e.facts.losses.iter().filter(|l| l.of == measure) {
                if l.amount == 0 {
                    continue;
                }
                if !order.contains(&l.unit) {
                    order.push(l.unit.clone());
                }
                *sum.entry(l.unit.clone()).or_default() += l.amount;
            }
        }
        if !order.is_empty() {
            let names = unit_names(&seen);
            let parts: Vec<String> = order
                .iter()
                .map(|id| {
                    let name = names.get(id).cloned().unwrap_or_else(|| id.clone());
                    format!("{name} +{}", sum.get(id).copied().unwrap_or(0))
                })
                .collect();
            out.push(format!("{label}: {}", parts.join(", ")));
        }
    }
    // Cards played, by side.
    let mut played: Vec<String> = Vec::new();
    for e in seen
        .iter()
        .filter(|e| e.facts.result.as_deref() == Some(PLAYED))
    {
        let side = e
            .facts
            .side_name
            .clone()
            .or_else(|| e.facts.side.as_ref().map(|s| s.to_string()))
            .unwrap_or_default();
        played.push(format!("{side}: {}", e.facts.cards.join(" + ")));
    }
    if !played.is_empty() {
        out.push(format!("Cards played: {}", played.join("; ")));
    }
    // Army morale from the first value before to the last after, per side.
    let mut morale: Vec<(String, i64, i64)> = Vec::new();
    for e in &seen {
        let Some([before, after]) = e.facts.morale else {
            continue;
        };
        let side = e
            .facts
            .side_name
            .clone()
            .or_else(|| e.facts.side.as_ref().map(|s| s.to_string()))
            .unwrap_or_default();
        match morale.iter_mut().find(|(s, _, _)| *s == side) {
            Some(m) => m.2 = after,
            None => morale.push((side, before, after)),
        }
    }
    if !morale.is_empty() {
        let parts: Vec<String> = morale
            .iter()
            .map(|(s, b, a)| format!("{s} {b} -> {a}"))
            .collect();
        out.push(format!("Army morale: {}", parts.join(", ")));
    }
    // Morale tests of units, as told.
    for e in seen
        .iter()
        .filter(|e| e.kind == Kind::Morale && e.facts.morale.is_none())
    {
        out.push(format!("Morale: {}", e.text));
    }
    out
}

/// Every unit an event names, by id, as "Name (id)".
fn unit_names(events: &[&Event]) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for e in events {
        for u in e
            .facts
            .unit
            .iter()
            .chain(&e.facts.target)
            .chain(&e.facts.units)
        {
            names.entry(u.id.clone()).or_insert_with(|| short(u));
        }
    }
    names
}

/// The dice of one event that `viewer` may see.
fn dice_of<'a>(e: &Event, dice: &'a [DieRecord], viewer: &Viewer) -> Vec<&'a DieRecord> {
    e.dice
        .iter()
        .filter_map(|i| dice.get(*i))
        .filter(|d| d.stream == StreamKind::Public || *viewer == Viewer::Umpire)
        .collect()
}

fn die_line(d: &DieRecord) -> DieLine {
    DieLine {
        position: position(d),
        sides: d.sides,
        value: d.value,
        purpose: d.purpose.clone(),
    }
}

fn position(d: &DieRecord) -> String {
    format!(
        "{} #{}",
        if d.stream == StreamKind::Public {
            "public"
        } else {
            "hidden"
        },
        d.index
    )
}

/// Where dice sit in their streams, runs joined: "public #12-#15, #18".
fn positions(dice: &[&DieRecord]) -> String {
    let mut runs: Vec<(StreamKind, u64, u64)> = Vec::new();
    for d in dice {
        let i = d.index;
        match runs.last_mut() {
            Some((s, _, hi)) if *s == d.stream && *hi + 1 == i => *hi = i,
            _ => runs.push((d.stream, i, i)),
        }
    }
    let mut out = Vec::new();
    let mut last: Option<StreamKind> = None;
    for (s, lo, hi) in runs {
        let stream = if last == Some(s) {
            String::new()
        } else if s == StreamKind::Public {
            "public ".to_string()
        } else {
            "hidden ".to_string()
        };
        last = Some(s);
        out.push(if lo == hi {
            format!("{stream}#{lo}")
        } else {
            format!("{stream}#{lo}-#{hi}")
        });
    }
    out.join(", ")
}

/// A fire event that rolled dice, keyed by who fired at what needing what.
fn fire_key(e: &Event) -> Option<(String, String, Option<u32>)> {
    if e.kind != Kind::Fire || e.dice.is_empty() {
        return None;
    }
    let unit = e.facts.unit.as_ref()?;
    let target = e.facts.target.as_ref()?;
    Some((unit.id.clone(), target.id.clone(), e.facts.needed))
}

/// The event lines `viewer` reads: fire as one line per firing unit and
/// target, its dice printed once; and, for players, no line for units that
/// did nothing (the umpire's report keeps them).
pub fn event_lines(events: &[Event], dice: &[DieRecord], viewer: &Viewer) -> Vec<EventLine> {
    let seen: Vec<&Event> = events
        .iter()
        .filter(|e| e.visible_to(viewer))
        .filter(|e| !e.facts.idle || *viewer == Viewer::Umpire)
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < seen.len() {
        let e = seen[i];
        let Some(key) = fire_key(e) else {
            out.push(EventLine {
                text: e.text.clone(),
                dice: dice_of(e, dice, viewer).into_iter().map(die_line).collect(),
            });
            i += 1;
            continue;
        };
        let mut group = vec![e];
        while let Some(next) = seen.get(i + group.len()) {
            if fire_key(next).as_ref() != Some(&key) {
                break;
            }
            group.push(next);
        }
        i += group.len();
        out.push(fire_line(&group, dice, viewer));
    }
    out
}

/// "Picardie 4d at Kaiser, 3+: 5 6 1 4, 3 hits (dice public #12-#15)".
fn fire_line(group: &[&Event], dice: &[DieRecord], viewer: &Viewer) -> EventLine {
    let first = group[0];
    let rolled: Vec<&DieRecord> = group
        .iter()
        .flat_map(|e| dice_of(e, dice, viewer))
        .collect();
    let hits: u32 = group.iter().filter_map(|e| e.facts.hits).sum();
    let name = |u: &Option<UnitRef>| u.as_ref().map(|u| u.name.clone()).unwrap_or_default();
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
        text.push_str(&format!(" (dice {})", positions(&rolled)));
    }
    EventLine {
        text,
        dice: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Facts, Loss, Visibility};
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

    /// A known step: Picardie fires two bases at Kaiser (dice 5 6, then
    /// 1 4), Kaiser takes DISR and breaks, a card is played, a unit idles.
    fn step() -> (Vec<Event>, Vec<DieRecord>) {
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
    fn what_changed_sums_up_a_known_step() {
        let (events, _) = step();
        let lines = changed(&events, &Viewer::Side(SideId("french".into())));
        assert_eq!(
            lines,
            vec![
                "Broken or lost: Kaiser (au-i1)".to_string(),
                "DISR gained: Kaiser (au-i1) +2".to_string(),
                "Cards played: French: Bold Stroke".to_string(),
                "Army morale: Austrians 12 -> 11".to_string(),
            ]
        );
        assert!(changed(&[], &Viewer::Umpire).is_empty());
    }

    #[test]
    fn fire_is_one_line_per_unit_with_each_die_once() {
        let (events, dice) = step();
        let player = event_lines(&events, &dice, &Viewer::Side(SideId("french".into())));
        let texts: Vec<&str> = player.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            texts,
            vec![
                "French plays Bold Stroke",
                "Picardie 4d at Kaiser, 3+: 5 6 1 4, 3 hits (dice public #0-#3)",
                "Kaiser rolls 4, 5 to disrupt",
                "Kaiser is broken",
            ]
        );
        // The fire line's dice are not listed again beneath it.
        assert!(player[1].dice.is_empty());
        assert_eq!(player[2].dice.len(), 2);
        // The umpire keeps the unit that did nothing.
        let umpire = event_lines(&events, &dice, &Viewer::Umpire);
        assert!(umpire.iter().any(|l| l.text.starts_with("Not firing")));
    }

    #[test]
    fn positions_join_runs_of_one_stream() {
        let d = [die(3, 1), die(4, 1), die(9, 1)];
        let refs: Vec<&DieRecord> = d.iter().collect();
        assert_eq!(positions(&refs), "public #3-#4, #9");
    }
}

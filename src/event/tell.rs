//! How a step is told to one reader: "What changed" first, then the event
//! lines with their dice. Each ruleset chooses its words and groupings
//! ([`crate::ruleset::Ruleset::tell`]); what is here knows no ruleset's
//! measures and serves them all: which events and dice a reader may see,
//! an event told in its own words with its dice beneath, runs of events to
//! group, and the units that left the table.

use super::{Event, Kind, UnitRef};
use crate::dice::{DieRecord, StreamKind};
use crate::view::{DieLine, EventLine, Viewer};

/// A step as one reader is told it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Told {
    /// A few lines of what changed, empty when nothing did: only changes,
    /// never a state that stayed as it was.
    pub changed: Vec<String>,
    /// Every event the reader may know of, in the order it happened.
    pub lines: Vec<EventLine>,
}

/// The events `viewer` reads, in order: those he may see and, for players,
/// none for units that did nothing (the umpire's report keeps them).
pub fn seen<'a>(events: &'a [Event], viewer: &Viewer) -> Vec<&'a Event> {
    events
        .iter()
        .enumerate()
        .filter(|(_, e)| e.visible_to(viewer))
        .filter(|(_, e)| !e.facts.idle || *viewer == Viewer::Umpire)
        .filter(|(i, e)| {
            *i == 0 || !(events[i - 1].visible_to(viewer) && copy_of(&events[i - 1], e))
        })
        .map(|(_, e)| e)
        .collect()
}

/// Whether `e` is `before` told to another side: a ruleset that tells an
/// event to each side apart (so that neither learns whether the other was
/// told) sends one copy per side, and the umpire reads it once.
fn copy_of(before: &Event, e: &Event) -> bool {
    use super::Visibility::Side;
    matches!((&before.visibility, &e.visibility), (Side(a), Side(b)) if a != b)
        && before.text == e.text
        && before.what == e.what
        && before.dice == e.dice
}

/// The telling a ruleset gets unless it has its own: each event in its
/// ruleset's words with its dice beneath, and what changed as the units
/// that left the table.
pub fn plain(events: &[Event], dice: &[DieRecord], viewer: &Viewer) -> Told {
    own_words_and(events, dice, viewer, |seen| {
        removed(seen, "Broken or lost").into_iter().collect()
    })
}

/// A telling in the events' own words with the ruleset's "What changed",
/// made by `changed` from the events the reader sees.
pub fn own_words_and(
    events: &[Event],
    dice: &[DieRecord],
    viewer: &Viewer,
    changed: impl FnOnce(&[&Event]) -> Vec<String>,
) -> Told {
    Told {
        changed: changed(&seen(events, viewer)),
        lines: own_words(events, dice, viewer),
    }
}

/// Each event `viewer` reads in its own words, its dice beneath.
pub fn own_words(events: &[Event], dice: &[DieRecord], viewer: &Viewer) -> Vec<EventLine> {
    seen(events, viewer)
        .into_iter()
        .map(|e| line(e, dice, viewer))
        .collect()
}

/// One event in its own words, its dice beneath.
pub fn line(e: &Event, dice: &[DieRecord], viewer: &Viewer) -> EventLine {
    EventLine {
        text: e.text.clone(),
        dice: dice_of(e, dice, viewer).into_iter().map(die_line).collect(),
    }
}

/// The dice of one event that `viewer` may see.
pub fn dice_of<'a>(e: &Event, dice: &'a [DieRecord], viewer: &Viewer) -> Vec<&'a DieRecord> {
    e.dice
        .iter()
        .filter_map(|i| dice.get(*i))
        .filter(|d| d.stream == StreamKind::Public || *viewer == Viewer::Umpire)
        .collect()
}

/// A die as a report lists it.
pub fn die_line(d: &DieRecord) -> DieLine {
    DieLine {
        position: format!("{} #{}", d.stream.as_str(), d.index),
        sides: d.sides,
        value: d.value,
        purpose: d.purpose.clone(),
    }
}

/// Where dice sit in their streams, runs joined: "public #12-#15, #18".
pub fn positions(dice: &[&DieRecord]) -> String {
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
        } else {
            format!("{} ", s.as_str())
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

/// The events in runs: consecutive events with the same key (`Some`) form
/// one run; an event without a key stands alone.
pub fn runs<'a, K: PartialEq>(
    events: &[&'a Event],
    key: impl Fn(&Event) -> Option<K>,
) -> Vec<Vec<&'a Event>> {
    let mut out: Vec<Vec<&Event>> = Vec::new();
    let mut last: Option<K> = None;
    for e in events {
        let k = key(e);
        match (&k, &last, out.last_mut()) {
            (Some(k), Some(l), Some(run)) if k == l => run.push(e),
            _ => out.push(vec![e]),
        }
        last = k;
    }
    out
}

/// "Name (id)", as "What changed" names a unit.
pub fn short(u: &UnitRef) -> String {
    format!("{} ({})", u.name, u.id)
}

/// "`label`: A (a1), B (b2)": the units that left the table, in the order
/// they went; none when no unit did.
pub fn removed(seen: &[&Event], label: &str) -> Option<String> {
    let mut gone: Vec<String> = Vec::new();
    for e in seen.iter().filter(|e| e.kind == Kind::Removed) {
        if let Some(u) = &e.facts.unit {
            let name = short(u);
            if !gone.contains(&name) {
                gone.push(name);
            }
        }
    }
    (!gone.is_empty()).then(|| format!("{label}: {}", gone.join(", ")))
}

/// "`label`: A (a1) +2, B (b2) +1": amounts summed per unit in the order
/// first suffered, from each event's losses that `counts` takes; none when
/// nothing was lost.
pub fn sums(seen: &[&Event], label: &str, counts: impl Fn(&str) -> bool) -> Option<String> {
    let mut order: Vec<String> = Vec::new();
    let mut sum: std::collections::BTreeMap<String, u32> = Default::default();
    for e in seen {
        for l in e.facts.losses.iter().filter(|l| counts(&l.of)) {
            if l.amount == 0 {
                continue;
            }
            if !order.contains(&l.unit) {
                order.push(l.unit.clone());
            }
            *sum.entry(l.unit.clone()).or_default() += l.amount;
        }
    }
    if order.is_empty() {
        return None;
    }
    let parts: Vec<String> = order
        .iter()
        .map(|id| {
            let name = unit_name(seen, id).unwrap_or_else(|| id.clone());
            format!("{name} +{}", sum.get(id).copied().unwrap_or(0))
        })
        .collect();
    Some(format!("{label}: {}", parts.join(", ")))
}

/// "Name (id)" of a unit some event names.
pub fn unit_name(seen: &[&Event], id: &str) -> Option<String> {
    seen.iter()
        .flat_map(|e| {
            e.facts
                .unit
                .iter()
                .chain(&e.facts.target)
                .chain(&e.facts.units)
        })
        .find(|u| u.id == id)
        .map(short)
}

/// The side an event speaks of, by its name when it has one.
pub fn side_of(e: &Event) -> String {
    e.facts
        .side_name
        .clone()
        .or_else(|| e.facts.side.as_ref().map(|s| s.to_string()))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Facts, Loss, Visibility};
    use crate::side::SideId;

    fn unit(id: &str, name: &str) -> UnitRef {
        UnitRef {
            id: id.into(),
            name: name.into(),
            side: SideId("a".into()),
        }
    }

    fn die(stream: StreamKind, index: u64) -> DieRecord {
        DieRecord {
            stream,
            index,
            sides: 6,
            value: 3,
            purpose: format!("die {index}"),
        }
    }

    fn ev(kind: Kind, facts: Facts, text: &str) -> Event {
        Event::new(Visibility::Public, kind, "x", facts, text)
    }

    #[test]
    fn plain_telling_keeps_each_event_in_its_own_words_with_its_dice() {
        let shot = ev(
            Kind::Fire,
            Facts::default(),
            "6e Léger fires: 8, disordered",
        )
        .with_dice([0, 1]);
        let idle = ev(
            Kind::Fire,
            Facts {
                idle: true,
                ..Facts::default()
            },
            "Guns hold",
        );
        let dice = vec![die(StreamKind::Public, 0), die(StreamKind::Hidden, 0)];
        let player = plain(&[shot.clone(), idle.clone()], &dice, &Viewer::Public);
        assert_eq!(player.lines.len(), 1);
        assert_eq!(player.lines[0].text, "6e Léger fires: 8, disordered");
        // A hidden die is the umpire's alone.
        assert_eq!(player.lines[0].dice.len(), 1);
        assert_eq!(player.lines[0].dice[0].position, "public #0");
        assert!(player.changed.is_empty());
        let umpire = plain(&[shot, idle], &dice, &Viewer::Umpire);
        assert_eq!(umpire.lines.len(), 2);
        assert_eq!(umpire.lines[0].dice.len(), 2);
    }

    #[test]
    fn an_event_told_to_each_side_apart_is_read_once_by_each_and_the_umpire() {
        let copy = |side: &str| {
            let mut e = ev(Kind::Move, Facts::default(), "Rangers move 12 cm");
            e.visibility = Visibility::Side(SideId(side.into()));
            e
        };
        let events = [copy("a"), copy("b")];
        for viewer in [
            Viewer::Side(SideId("a".into())),
            Viewer::Side(SideId("b".into())),
            Viewer::Umpire,
        ] {
            assert_eq!(seen(&events, &viewer).len(), 1, "{viewer:?}");
        }
        assert!(seen(&events, &Viewer::Public).is_empty());
    }

    #[test]
    fn units_gone_and_summed_losses_name_each_unit_once() {
        let a = unit("a1", "First");
        let gone = ev(
            Kind::Removed,
            Facts {
                unit: Some(a.clone()),
                ..Facts::default()
            },
            "First is lost",
        );
        let hit = |n| {
            ev(
                Kind::Loss,
                Facts {
                    unit: Some(a.clone()),
                    losses: vec![Loss {
                        unit: "a1".into(),
                        amount: n,
                        of: "men".into(),
                    }],
                    ..Facts::default()
                },
                "hit",
            )
        };
        let events = [gone.clone(), gone, hit(2), hit(3), hit(0)];
        let refs: Vec<&Event> = events.iter().collect();
        assert_eq!(removed(&refs, "Lost").as_deref(), Some("Lost: First (a1)"));
        assert_eq!(
            sums(&refs, "Men lost", |of| of == "men").as_deref(),
            Some("Men lost: First (a1) +5")
        );
        assert_eq!(sums(&refs, "Other", |of| of == "other"), None);
    }

    #[test]
    fn runs_join_consecutive_events_of_one_key() {
        let e = |t: &str| ev(Kind::Note, Facts::default(), t);
        let events = [e("a"), e("a"), e("-"), e("b"), e("a")];
        let refs: Vec<&Event> = events.iter().collect();
        let grouped = runs(&refs, |e| (e.text != "-").then(|| e.text.clone()));
        let sizes: Vec<usize> = grouped.iter().map(Vec::len).collect();
        assert_eq!(sizes, vec![2, 1, 1, 1]);
    }

    #[test]
    fn positions_join_runs_of_one_stream() {
        let d = [
            die(StreamKind::Public, 3),
            die(StreamKind::Public, 4),
            die(StreamKind::Public, 9),
            die(StreamKind::Hidden, 10),
        ];
        let refs: Vec<&DieRecord> = d.iter().collect();
        assert_eq!(positions(&refs), "public #3-#4, #9, hidden #10");
    }
}

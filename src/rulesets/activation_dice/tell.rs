//! A turn told to one reader: each event in its own words with its dice
//! beneath (an opposed shot or melee is one event, both sides' dice in its
//! line); "What changed" names units removed, disorder taken, critical
//! events and recoils.

use super::words::Said;
use crate::dice::DieRecord;
use crate::event::Event;
use crate::event::tell::{self, Told};
use crate::view::Viewer;

pub fn tell(events: &[Event], dice: &[DieRecord], viewer: &Viewer) -> Told {
    tell::own_words_and(events, dice, viewer, changed)
}

fn is(e: &Event, said: Said) -> bool {
    e.what == said.name()
}

fn changed(seen: &[&Event]) -> Vec<String> {
    let mut out: Vec<String> = tell::removed(seen, "Removed from play")
        .into_iter()
        .collect();
    // Disorder per unit, in the order first taken.
    let mut taken: Vec<(String, i64, i64)> = Vec::new();
    for e in seen.iter().filter(|e| is(e, Said::Disorder)) {
        let (Some(u), Some(after)) = (&e.facts.unit, e.facts.after) else {
            continue;
        };
        let before = e.facts.before.unwrap_or(0);
        let name = tell::short(u);
        match taken.iter_mut().find(|(n, _, _)| *n == name) {
            Some(t) => t.2 = after,
            None => taken.push((name, before, after)),
        }
    }
    let disorder: Vec<String> = taken
        .iter()
        .filter(|(_, b, a)| a != b)
        .map(|(n, b, a)| format!("{n} {b} -> {a}"))
        .collect();
    if !disorder.is_empty() {
        out.push(format!("Disorder (coloured dice): {}", disorder.join(", ")));
    }
    for e in seen.iter().filter(|e| is(e, Said::Critical)) {
        if let (Some(u), Some(r)) = (&e.facts.unit, &e.facts.result) {
            out.push(format!("Critical event: {}: {r}", tell::short(u)));
        }
    }
    let recoils: Vec<String> = seen
        .iter()
        .filter(|e| is(e, Said::Recoil))
        .filter_map(|e| e.facts.unit.as_ref().map(tell::short))
        .collect();
    if !recoils.is_empty() {
        out.push(format!("Recoiled: {}", recoils.join(", ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Facts, UnitRef, Visibility};
    use crate::side::SideId;

    fn ligne() -> Option<UnitRef> {
        Some(UnitRef {
            id: "fr-4".into(),
            name: "4e Ligne".into(),
            side: SideId("french".into()),
        })
    }

    fn ev(said: Said, facts: Facts) -> Event {
        Event::new(Visibility::Public, said.kind(), said.name(), facts, "x")
    }

    #[test]
    fn disorder_is_told_from_first_to_last_and_only_when_it_changed() {
        let disorder = |before, after| {
            ev(
                Said::Disorder,
                Facts {
                    unit: ligne(),
                    before: Some(before),
                    after: Some(after),
                    ..Facts::default()
                },
            )
        };
        let events = [
            disorder(0, 2),
            disorder(2, 3),
            ev(
                Said::Critical,
                Facts {
                    unit: ligne(),
                    result: Some("devastating volley: recoils one short".into()),
                    ..Facts::default()
                },
            ),
        ];
        let told = tell(&events, &[], &Viewer::Public);
        assert_eq!(
            told.changed,
            vec![
                "Disorder (coloured dice): 4e Ligne (fr-4) 0 -> 3".to_string(),
                "Critical event: 4e Ligne (fr-4): devastating volley: recoils one short"
                    .to_string(),
            ]
        );
        assert!(
            tell(&[disorder(1, 1)], &[], &Viewer::Public)
                .changed
                .is_empty()
        );
    }
}

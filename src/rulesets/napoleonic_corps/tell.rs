//! A turn told to one reader: each event in its own words with its dice
//! beneath (fire is one event a firing unit, its 2D6 and modifiers in its
//! line); "What changed" names units lost, retreats, chips lost by each
//! side, objectives that changed hands and generals killed.

use super::words::Said;
use crate::dice::DieRecord;
use crate::event::tell::{self, Told};
use crate::event::{Event, Kind};
use crate::view::Viewer;

pub fn tell(events: &[Event], dice: &[DieRecord], viewer: &Viewer) -> Told {
    tell::own_words_and(events, dice, viewer, changed)
}

fn is(e: &Event, said: Said) -> bool {
    e.what == said.name()
}

fn changed(seen: &[&Event]) -> Vec<String> {
    let mut out: Vec<String> = tell::removed(seen, "Lost").into_iter().collect();
    let retreats: Vec<String> = seen
        .iter()
        .filter(|e| e.kind == Kind::Retreat)
        .filter_map(|e| {
            let u = e.facts.unit.as_ref()?;
            let why = e
                .facts
                .reason
                .as_ref()
                .map(|r| format!(", {r}"))
                .unwrap_or_default();
            Some(format!(
                "{} {} cm{why}",
                tell::short(u),
                e.facts.count.unwrap_or(0)
            ))
        })
        .collect();
    if !retreats.is_empty() {
        out.push(format!("Retreated: {}", retreats.join("; ")));
    }
    // Chips per side, in the order first lost, with why.
    let mut chips: Vec<(String, u32, Vec<String>)> = Vec::new();
    for e in seen.iter().filter(|e| is(e, Said::ChipsLost)) {
        let n = e.facts.count.unwrap_or(0);
        if n == 0 {
            continue;
        }
        let side = tell::side_of(e);
        let why = format!("{} {n}", e.facts.reason.clone().unwrap_or_default());
        match chips.iter_mut().find(|(s, _, _)| *s == side) {
            Some(c) => {
                c.1 += n;
                c.2.push(why);
            }
            None => chips.push((side, n, vec![why])),
        }
    }
    for (side, n, why) in chips {
        out.push(format!("Chips lost by {side}: {n} ({})", why.join(", ")));
    }
    for e in seen.iter().filter(|e| is(e, Said::Objective)) {
        out.push(format!("Objective: {}", e.text));
    }
    for e in seen
        .iter()
        .filter(|e| is(e, Said::GeneralUse) && e.facts.result.as_deref() == Some("killed"))
    {
        out.push(format!("General killed: {}", e.text));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Facts, UnitRef, Visibility};
    use crate::side::SideId;

    fn ev(said: Said, facts: Facts, text: &str) -> Event {
        Event::new(Visibility::Public, said.kind(), said.name(), facts, text)
    }

    fn unit(id: &str, name: &str) -> Option<UnitRef> {
        Some(UnitRef {
            id: id.into(),
            name: name.into(),
            side: SideId("french".into()),
        })
    }

    #[test]
    fn what_changed_lists_changes_only_never_a_standing_morale() {
        let events = [
            ev(
                Said::ArmyMorale,
                Facts {
                    side: Some(SideId("french".into())),
                    before: Some(0),
                    after: Some(12),
                    ..Facts::default()
                },
                "french: 0 chips lost of an army morale of 12",
            ),
            ev(
                Said::Retreat,
                Facts {
                    unit: unit("fr-46", "46e Ligne"),
                    count: Some(30),
                    reason: Some("fire".into()),
                    ..Facts::default()
                },
                "46e Ligne retreats 30 cm",
            ),
            ev(
                Said::ChipsLost,
                Facts {
                    side: Some(SideId("french".into())),
                    unit: unit("fr-24l", "24e Léger"),
                    count: Some(1),
                    reason: Some("failed to rally (24e Léger)".into()),
                    ..Facts::default()
                },
                "failed to rally: 1 chip lost",
            ),
            ev(
                Said::Eliminated,
                Facts {
                    unit: unit("fr-105", "105e Ligne"),
                    reason: Some("fire".into()),
                    ..Facts::default()
                },
                "105e Ligne is eliminated (fire)",
            ),
        ];
        let told = tell(&events, &[], &Viewer::Public);
        assert_eq!(
            told.changed,
            vec![
                "Lost: 105e Ligne (fr-105)".to_string(),
                "Retreated: 46e Ligne (fr-46) 30 cm, fire".to_string(),
                "Chips lost by french: 1 (failed to rally (24e Léger) 1)".to_string(),
            ]
        );
        // Each event in the ruleset's own words.
        let texts: Vec<&str> = told.lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts[0], "french: 0 chips lost of an army morale of 12");
        assert_eq!(told.lines.len(), 4);
    }
}

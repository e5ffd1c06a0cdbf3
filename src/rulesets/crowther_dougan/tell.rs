//! A move told to one reader: each event he may know of in its own words
//! with its dice beneath (a hidden unit's events reach only its own side:
//! [`super::words::visibility`]); "What changed" sums the men each unit
//! lost, and names failed morale tests, routs, units gone and officers hit.

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
    let mut out: Vec<String> = tell::removed(seen, "Gone").into_iter().collect();
    out.extend(tell::sums(seen, "Men lost", |of| of == "man"));
    for e in seen.iter().filter(|e| is(e, Said::Morale)) {
        if let (Some(u), Some(r)) = (&e.facts.unit, &e.facts.result)
            && r.starts_with("fails")
        {
            out.push(format!("Morale: {} {r}", tell::short(u)));
        }
    }
    let routs: Vec<String> = seen
        .iter()
        .filter(|e| is(e, Said::Rout))
        .filter_map(|e| e.facts.unit.as_ref().map(tell::short))
        .collect();
    if !routs.is_empty() {
        out.push(format!("Routed: {}", routs.join(", ")));
    }
    for e in seen.iter().filter(|e| is(e, Said::PersonHit)) {
        if e.facts.result.as_deref().is_some_and(|r| r != "unhurt") {
            out.push(format!("Officer hit: {}", e.text));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Facts, Loss, UnitRef, Visibility};
    use crate::side::SideId;

    fn grenadiers() -> Option<UnitRef> {
        Some(UnitRef {
            id: "br-gren".into(),
            name: "Grenadier Company".into(),
            side: SideId("british".into()),
        })
    }

    fn ev(said: Said, facts: Facts) -> Event {
        Event::new(Visibility::Public, said.kind(), said.name(), facts, "x")
    }

    #[test]
    fn men_lost_are_summed_and_only_failed_tests_are_changes() {
        let shot = |n| {
            ev(
                Said::Fire,
                Facts {
                    target: grenadiers(),
                    losses: vec![Loss {
                        unit: "br-gren".into(),
                        amount: n,
                        of: "man".into(),
                    }],
                    ..Facts::default()
                },
            )
        };
        let test = |result: &str| {
            ev(
                Said::Morale,
                Facts {
                    unit: grenadiers(),
                    result: Some(result.into()),
                    ..Facts::default()
                },
            )
        };
        let events = [shot(2), shot(1), test("passes"), test("fails: must halt")];
        let told = tell(&events, &[], &Viewer::Public);
        assert_eq!(
            told.changed,
            vec![
                "Men lost: Grenadier Company (br-gren) +3".to_string(),
                "Morale: Grenadier Company (br-gren) fails: must halt".to_string(),
            ]
        );
    }
}

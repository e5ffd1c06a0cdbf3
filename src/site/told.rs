//! Each step's public events told as the public report tells them: by the
//! game's ruleset, from the archive's public `events.yaml` and `dice.yaml`,
//! so that the page and the mail use the same words and groupings.

use super::bundle::Bundle;
use crate::dice::DieRecord;
use crate::event::Event;
use crate::game::archive::{ArchivedDie, GameFile};
use crate::view::{EventLine, Viewer};
use std::collections::BTreeMap;

/// The public lines of every step in force; none when the archive names a
/// ruleset this build lacks (the page then lists the events' own texts).
pub fn lines(bundle: &Bundle) -> BTreeMap<u32, Vec<EventLine>> {
    let mut out = BTreeMap::new();
    let Some(rules) = bundle
        .get("game.yaml")
        .and_then(|t| crate::yaml::from_str::<GameFile>(t).ok())
        .and_then(|g| crate::rulesets::by_name(&g.ruleset))
    else {
        return out;
    };
    for (path, text) in &bundle.text {
        let Some(step) = step_events(path) else {
            continue;
        };
        let Ok(events) = crate::yaml::from_str::<Vec<Event>>(text) else {
            continue;
        };
        let dice: Vec<DieRecord> = bundle
            .get(&format!("step-{step:04}/dice.yaml"))
            .and_then(|t| crate::yaml::from_str::<Vec<ArchivedDie>>(t).ok())
            .map(|ds| ds.into_iter().map(|d| d.die).collect())
            .unwrap_or_default();
        out.insert(step, rules.tell(&events, &dice, &Viewer::Public).lines);
    }
    out
}

/// `step-NNNN/events.yaml` gives NNNN; rolled-back runs and sealed files none.
fn step_events(path: &str) -> Option<u32> {
    let rest = path.strip_prefix("step-")?.strip_suffix("/events.yaml")?;
    (rest.len() == 4 && rest.bytes().all(|b| b.is_ascii_digit()))
        .then(|| rest.parse().ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_the_runs_in_force_are_told() {
        assert_eq!(super::step_events("step-0003/events.yaml"), Some(3));
        assert_eq!(super::step_events("step-0003/rollback-1/events.yaml"), None);
        assert_eq!(super::step_events("sealed/step-0003/events.yaml"), None);
    }
}

//! Each step's public events told as the public report tells them: by the
//! game's ruleset, from the archive's public `events.yaml` and `dice.yaml`,
//! so that the page and the mail use the same words and groupings.

use super::bundle::Bundle;
use crate::archive::ArchivedDie;
use crate::dice::DieRecord;
use crate::event::Event;
use crate::ruleset::AnyRuleset;
use crate::view::{EventLine, Viewer};

/// The public lines of step `step` in force, from its part of the archive;
/// none when the archive names a ruleset this build lacks (`rules`), or
/// the events do not parse (the page then lists the events' own texts).
pub fn lines(rules: Option<&dyn AnyRuleset>, part: &Bundle, step: u32) -> Option<Vec<EventLine>> {
    let rules = rules?;
    let events: Vec<Event> =
        crate::yaml::from_str(part.get(&format!("step-{step:04}/events.yaml"))?).ok()?;
    let dice: Vec<DieRecord> = part
        .get(&format!("step-{step:04}/dice.yaml"))
        .and_then(|t| crate::yaml::from_str::<Vec<ArchivedDie>>(t).ok())
        .map(|ds| ds.into_iter().map(|d| d.die).collect())
        .unwrap_or_default();
    Some(rules.tell(&events, &dice, &Viewer::Public).lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_run_in_force_is_told() {
        let rules = crate::rulesets::by_name("maurice-lite");
        let mut part = Bundle::default();
        part.text
            .insert("step-0003/rollback-1/events.yaml".into(), "[]\n".into());
        assert!(
            lines(rules, &part, 3).is_none(),
            "a rolled-back run is not told"
        );
        part.text
            .insert("step-0003/events.yaml".into(), "[]\n".into());
        assert_eq!(lines(rules, &part, 3).map(|l| l.len()), Some(0));
        assert!(
            lines(None, &part, 3).is_none(),
            "an unknown ruleset tells nothing"
        );
    }
}

//! The state before step 1, which the ruleset makes from the scenario: the
//! first notice commits to it, and the page checks that commitment against
//! this text. A scenario with hidden troops is public only in part; its
//! whole is opened in `sealed/start/` when the game ends, and until then a
//! page has no start state. That the text is what the ruleset makes of the
//! scenario is the ruleset's to say, so it stays with `galloper audit`, as
//! the replay does.

use super::bundle::Bundle;
use crate::archive::{self, GameFile};

/// The start state, or `None` when the archive names no known ruleset or
/// its scenario does not start (the page's audit then fails at step 1, as
/// `galloper audit` fails earlier).
pub fn state(bundle: &Bundle) -> Option<String> {
    let game: GameFile = crate::yaml::from_str(bundle.get("game.yaml")?).ok()?;
    let rules = crate::rulesets::by_name(&game.ruleset)?;
    let scenario = match game.sealed_scenario {
        None => bundle.get("scenario.yaml")?,
        Some(_) => bundle.get(&format!("{}/scenario.yaml", archive::SEALED_START))?,
    };
    rules.start(scenario).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_archive_of_an_unknown_ruleset_has_no_start() {
        let mut b = Bundle::default();
        b.text.insert(
            "game.yaml".into(),
            "galloper: 1\ngame: g\nruleset: chess\nsides: []\nplayers: {}\nserver_key: k\nscenario_sha256: x\n".into(),
        );
        b.text
            .insert("scenario.yaml".into(), "ruleset: chess\n".into());
        assert_eq!(state(&b), None);
    }
}

//! Parsed states kept between the intake and the resolution. Every orders
//! mail is checked against its step's state, the deadline watch and the
//! resolution ask the same state again, and the state a step ends with
//! begins the next one: one parse serves them all, where each used to parse
//! the text anew (about a millisecond for thirty units a side).

use crate::ruleset::{AnyRuleset, LoadedState, RulesetError};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::Arc;

/// How many states are kept, the newest first: one per game being played
/// at once is all a step needs.
const KEPT: usize = 8;

#[derive(Default)]
pub struct States {
    kept: RefCell<VecDeque<Kept>>,
    notices: RefCell<VecDeque<Arc<Notice>>>,
}

/// What every orders file is checked against in its step's notice: the
/// notice's SHA-256 (the file's `notice:` line) and its beacon (the close of
/// orders), worked out once a notice rather than once a file.
pub struct Notice {
    pub text: String,
    pub sha256: String,
    pub beacon: Option<crate::archive::beacon::NoticeBeacon>,
}

struct Kept {
    ruleset: &'static str,
    text: String,
    state: Arc<dyn LoadedState>,
}

impl States {
    /// The state `text` of `rules`, parsed now or earlier. A state is known
    /// by its whole text, so an edited state is never taken for the old one.
    pub fn load(
        &self,
        rules: &'static dyn AnyRuleset,
        text: &str,
    ) -> Result<Arc<dyn LoadedState>, RulesetError> {
        let found = self
            .kept
            .borrow()
            .iter()
            .find(|k| k.ruleset == rules.name() && k.text == text)
            .map(|k| Arc::clone(&k.state));
        if let Some(state) = found {
            return Ok(state);
        }
        let state: Arc<dyn LoadedState> = Arc::from(rules.load(text)?);
        let mut kept = self.kept.borrow_mut();
        kept.push_front(Kept {
            ruleset: rules.name(),
            text: text.to_string(),
            state: Arc::clone(&state),
        });
        kept.truncate(KEPT);
        Ok(state)
    }

    /// The facts of the notice `text`, worked out now or earlier; a notice
    /// is known by its whole text.
    pub fn notice(&self, text: &str) -> Arc<Notice> {
        let found = self
            .notices
            .borrow()
            .iter()
            .find(|n| n.text == text)
            .map(Arc::clone);
        if let Some(n) = found {
            return n;
        }
        let n = Arc::new(Notice {
            text: text.to_string(),
            sha256: crate::envelope::notice_sha256(text),
            beacon: crate::archive::beacon::notice_beacon(text),
        });
        let mut kept = self.notices.borrow_mut();
        kept.push_front(Arc::clone(&n));
        kept.truncate(KEPT);
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> &'static dyn AnyRuleset {
        crate::rulesets::by_name("maurice-lite").expect("Maurice Lite is registered")
    }

    fn demo_state() -> String {
        rules()
            .start(crate::demo::maurice::SCENARIO)
            .expect("the demo scenario starts")
    }

    #[test]
    fn a_notice_is_known_by_its_whole_text() {
        let states = States::default();
        let a = states.notice("game: g\nstep: 1\n");
        let b = states.notice("game: g\nstep: 1\n");
        assert!(Arc::ptr_eq(&a, &b), "the second ask reuses the first");
        assert_eq!(
            a.sha256,
            crate::envelope::notice_sha256("game: g\nstep: 1\n")
        );
        let c = states.notice("game: g\nstep: 1\nrun: 2\n");
        assert!(!Arc::ptr_eq(&a, &c), "another notice is worked out anew");
        assert_eq!(
            c.sha256,
            crate::envelope::notice_sha256("game: g\nstep: 1\nrun: 2\n")
        );
    }

    #[test]
    fn the_same_text_is_parsed_once_and_another_text_again() {
        let states = States::default();
        let text = demo_state();
        let a = states.load(rules(), &text).unwrap();
        let b = states.load(rules(), &text).unwrap();
        assert!(Arc::ptr_eq(&a, &b), "the second ask reuses the parse");
        let edited = format!("{text}\n");
        let c = states.load(rules(), &edited).unwrap();
        assert!(!Arc::ptr_eq(&a, &c), "a different text is parsed anew");
    }

    #[test]
    fn at_most_kept_states_are_held_and_the_oldest_goes() {
        let states = States::default();
        let text = demo_state();
        let first = states.load(rules(), &text).unwrap();
        for n in 1..=KEPT {
            states
                .load(rules(), &format!("{text}{}", "\n".repeat(n)))
                .unwrap();
        }
        assert_eq!(states.kept.borrow().len(), KEPT);
        let again = states.load(rules(), &text).unwrap();
        assert!(!Arc::ptr_eq(&first, &again), "the oldest was let go");
    }

    #[test]
    fn a_state_that_does_not_parse_is_an_error_and_not_kept() {
        let states = States::default();
        assert!(states.load(rules(), "not: [a state").is_err());
        assert!(states.kept.borrow().is_empty());
    }
}

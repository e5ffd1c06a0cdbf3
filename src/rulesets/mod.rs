//! The rulesets Galloper knows, by name. Adding a ruleset means a folder
//! here and one line in [`registry`].

pub mod maurice_lite;
pub mod morschauser_macduff;

use crate::ruleset::AnyRuleset;

/// Every ruleset, by its registry name.
pub fn registry() -> Vec<&'static dyn AnyRuleset> {
    vec![
        &maurice_lite::MauriceLite,
        &morschauser_macduff::MorschauserMacduff,
    ]
}

/// The ruleset called `name`.
pub fn by_name(name: &str) -> Option<&'static dyn AnyRuleset> {
    registry().into_iter().find(|r| r.name() == name)
}

/// The registry names, for messages.
pub fn names() -> Vec<&'static str> {
    registry().iter().map(|r| r.name()).collect()
}

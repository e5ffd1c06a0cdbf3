//! The rulesets Galloper knows, by name. Adding a ruleset means a folder
//! here and one line in [`registry`].

pub mod activation_dice;
pub mod crowther_dougan;
pub mod maurice_lite;
pub mod morschauser_macduff;
pub mod napoleonic_corps;

use crate::muster::AnyMuster;
use crate::ruleset::AnyRuleset;

/// Every ruleset, by its registry name.
pub fn registry() -> Vec<&'static dyn AnyRuleset> {
    vec![
        &maurice_lite::MauriceLite,
        &morschauser_macduff::MorschauserMacduff,
        &napoleonic_corps::NapoleonicCorps,
        &activation_dice::ActivationDice,
        &crowther_dougan::CrowtherDougan,
    ]
}

/// Every ruleset's campaign hook, by its registry name.
pub fn musters() -> Vec<&'static dyn AnyMuster> {
    vec![
        &activation_dice::ActivationDice,
        &crowther_dougan::CrowtherDougan,
        &morschauser_macduff::MorschauserMacduff,
        &napoleonic_corps::NapoleonicCorps,
        &maurice_lite::MauriceLite,
    ]
}

/// The campaign hook of the ruleset called `name`.
pub fn muster_by_name(name: &str) -> Option<&'static dyn AnyMuster> {
    musters().into_iter().find(|r| r.name() == name)
}

/// The ruleset called `name`.
pub fn by_name(name: &str) -> Option<&'static dyn AnyRuleset> {
    registry().into_iter().find(|r| r.name() == name)
}

/// The registry names, for messages.
pub fn names() -> Vec<&'static str> {
    registry().iter().map(|r| r.name()).collect()
}

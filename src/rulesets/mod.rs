//! The rulesets Galloper knows, by name. Adding a ruleset means a folder
//! here and one line in [`registry`].

pub mod activation_dice;
pub mod crowther_dougan;
pub mod maurice_lite;
pub mod morschauser_macduff;
pub mod napoleonic_corps;

use crate::ruleset::{AnyRuleset, DemoPlayer};

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

/// The ruleset called `name`.
pub fn by_name(name: &str) -> Option<&'static dyn AnyRuleset> {
    registry().into_iter().find(|r| r.name() == name)
}

/// The registry names, for messages.
pub fn names() -> Vec<&'static str> {
    registry().iter().map(|r| r.name()).collect()
}

/// Extension point: the demo player of ruleset `name` for `galloper demo`
/// (with `battle`, the whole-battle variant where a ruleset has one). None
/// when the ruleset has no demo player; an error when its scripts do not
/// load. A ruleset adds one line here next to its line in [`registry`].
/// Maurice Lite's player lives in `src/demo/`, not in its ruleset folder.
pub fn demo_player(name: &str, battle: bool) -> Result<Option<Box<dyn DemoPlayer>>, String> {
    Ok(match name {
        "maurice-lite" => Some(Box::new(crate::demo::maurice::MauricePlayer::new(battle)?)),
        "morschauser-macduff" => Some(Box::new(morschauser_macduff::demo::Player)),
        "napoleonic-corps" => Some(Box::new(napoleonic_corps::demo::Player)),
        "activation-dice" => Some(Box::new(activation_dice::demo::Player)),
        "crowther-dougan" => Some(Box::new(crowther_dougan::demo::Player)),
        _ => None,
    })
}

/// The rulesets with a demo player, for messages.
pub fn demo_names() -> Vec<&'static str> {
    names()
        .into_iter()
        .filter(|n| demo_player(n, false).is_ok_and(|p| p.is_some()))
        .collect()
}

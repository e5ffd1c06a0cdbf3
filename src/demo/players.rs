//! Which demo player plays each ruleset (`galloper demo`, the bench, the
//! tests that play whole games).

use crate::ruleset::DemoPlayer;

/// Extension point: the demo player of ruleset `name` for `galloper demo`
/// (with `battle`, the whole-battle variant where a ruleset has one). None
/// when the ruleset has no demo player; an error when its scripts do not
/// load. A ruleset adds one line here next to its line in
/// [`crate::rulesets::registry`]. Here, above the rulesets, so that a
/// ruleset never imports the demo.
/// Maurice Lite's player lives in `src/demo/`, not in its ruleset folder.
pub fn player(name: &str, battle: bool) -> Result<Option<Box<dyn DemoPlayer>>, String> {
    Ok(match name {
        "maurice-lite" => Some(Box::new(super::maurice::MauricePlayer::new(battle)?)),
        "morschauser-macduff" => Some(Box::new(crate::rulesets::morschauser_macduff::demo::Player)),
        "napoleonic-corps" => Some(Box::new(crate::rulesets::napoleonic_corps::demo::Player)),
        "activation-dice" => Some(Box::new(crate::rulesets::activation_dice::demo::Player)),
        "crowther-dougan" => Some(Box::new(crate::rulesets::crowther_dougan::demo::Player)),
        _ => None,
    })
}

/// The rulesets with a demo player, for messages.
pub fn names() -> Vec<&'static str> {
    crate::rulesets::names()
        .into_iter()
        .filter(|n| player(n, false).is_ok_and(|p| p.is_some()))
        .collect()
}

//! Morschauser Meets MacDuff, rule by rule: the chart, the scenarios, the
//! checks on receipt, the dice-off, movement and shooting. Section letters are the
//! source's (A to E).

mod advanced;
mod chart;
mod checks;
mod command;
mod common;
mod dice_off;
mod morale;
mod movement;
mod rally;
mod regiments;
mod scenarios;
mod shooting;
mod terrain;
mod winning;

//! Morschauser Meets MacDuff, rule by rule: the chart, the scenarios, the
//! checks on receipt, the dice-off, movement and shooting. Section letters are the
//! source's (A to E).

mod chart;
mod checks;
mod common;
mod dice_off;
mod movement;
mod scenarios;
mod shooting;
mod advanced;
mod regiments;
mod command;
mod morale;
mod rally;

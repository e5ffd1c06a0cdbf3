//! Morschauser Meets MacDuff, rule by rule: the chart, the scenarios, the
//! checks on receipt, the dice-off, movement, shooting and what a side reads. Section letters are the
//! source's (A to E).

mod advanced;
mod as_written;
mod chart;
mod checks;
mod command;
mod common;
mod dice_off;
mod engineering;
mod fortress;
mod melee;
mod morale;
mod movement;
mod rally;
mod regiments;
mod report;
mod scenarios;
mod shooting;
mod terrain;
mod winning;

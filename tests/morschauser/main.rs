//! Morschauser Meets MacDuff, rule by rule: the chart, the scenarios, the
//! checks on receipt, the dice-off, movement, shooting and what a side reads. Section letters are the
//! source's (A to E).

mod chart;
mod checks;
mod common;
mod dice_off;
mod melee;
mod movement;
mod report;
mod scenarios;
mod shooting;

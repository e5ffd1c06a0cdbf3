//! Galloper: a play-by-email turn processor for horse-and-musket wargames.
//!
//! The core (sides, geometry, dice, events, views, the ruleset interface) knows
//! nothing of any one rule set; rulesets live under [`rulesets`] and plug in
//! through [`ruleset::Ruleset`]. [`game`] is the edge that touches disk and OS.

pub mod archive;
pub mod audit;
pub mod base64;
pub mod bench;
pub mod campaign;
pub mod cli;
pub mod daemon;
pub mod demo;
pub mod dice;
pub mod envelope;
pub mod event;
pub mod files;
pub mod fuzzing;
pub mod geometry;
pub mod mail;
pub mod muster;
pub mod render;
pub mod ruleset;
pub mod rulesets;
pub mod sandbox;
pub mod scenario_check;
pub mod server;
pub mod side;
pub mod sig;
pub mod site;
pub mod view;
pub mod words;
pub mod yaml;
pub mod yaml_bounds;
pub mod yaml_plain;

//! Maurice Lite, rule by rule: each test sets up the smallest table that
//! shows one rule of the source and fails if the engine gets it wrong.
//! Section numbers are the source's chapters.

mod as_written;
mod cardplay;
mod cards;
mod charges;
mod common;
mod march;
mod report;
mod round;
mod template;
mod volleys;

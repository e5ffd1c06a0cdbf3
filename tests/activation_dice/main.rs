//! The activation-dice rules (2018), mechanism by mechanism; each test is
//! named after the source's section it checks.

mod actions;
mod activation;
mod blunders;
mod combat;
mod common;
mod critical;
mod email;
mod movement;
mod setup;
mod sight;

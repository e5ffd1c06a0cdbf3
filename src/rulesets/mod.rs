//! The rulesets Galloper knows, by name.

pub mod maurice_lite;

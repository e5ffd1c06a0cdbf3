//! Deadlines, warnings, absences and missed steps: the store's part of a game's life.

pub(super) const SCHEMA: &str = "";

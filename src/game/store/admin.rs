//! The game master's commands and their record.

pub(super) const SCHEMA: &str = "";

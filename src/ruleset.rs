//! The ruleset interface.

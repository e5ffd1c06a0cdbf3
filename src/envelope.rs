//! The orders envelope.

//! The batch daemon a club runs: orders in from a Maildir, replies and
//! reports out through SMTP, each step resolved when it has all it needs.

pub mod archive_request;
pub mod beacon;
pub mod commands;
pub mod config;
pub mod copies;
pub mod intake;
pub mod limit;
pub mod pass_on;
pub mod sender;
pub mod serve;

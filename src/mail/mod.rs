//! Mail: reading orders out of messages, and the messages Galloper sends.

pub mod address;
pub mod compose;
pub mod date;
pub mod imap;
pub mod inbound;
pub mod maildir;
pub mod route;
pub mod smtp;

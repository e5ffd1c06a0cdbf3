//! OpenSSH signatures (SSHSIG) for orders, notices and reports.
//!
//! Players register the `ssh-ed25519` line of their `.pub` file and sign
//! their orders with `ssh-keygen -Y sign`; the server signs what it sends out
//! with its own key. Everything here is interchangeable with OpenSSH: keys and
//! signatures made by `ssh-keygen` are accepted, and keys and signatures made
//! here are accepted by `ssh-keygen`.

mod error;
mod key;
mod signature;

pub use error::SigError;
pub use key::{KeyPair, fingerprint, keygen, keygen_from_seed, parse_public};
pub use signature::{sign, verify, verify_bytes};

/// Namespace in which players sign their orders files.
pub const ORDERS_NAMESPACE: &str = "galloper-orders";

/// Namespace in which players and the game master sign command files
/// (`src/server/command.rs`). Separate from orders, so that a signature made
/// for one can never pass as the other.
pub const COMMAND_NAMESPACE: &str = "galloper-command";

/// Namespace in which the server signs its notices and reports.
pub const REPORT_NAMESPACE: &str = "galloper-report";

//! Why a key or signature was refused, worded for the player who must fix it.

/// A key or signature that Galloper cannot use.
///
/// Each message says what went wrong and what to do about it, because it is
/// mailed back to a player as it stands.
#[derive(Debug, thiserror::Error)]
pub enum SigError {
    /// The key text is not an OpenSSH key at all (or is damaged).
    #[error("{0}")]
    MalformedKey(String),
    /// A well-formed key of a type other than ssh-ed25519; holds its type name.
    #[error(
        "{0} keys are not supported: make an ed25519 key with `ssh-keygen -t ed25519` and register the line from its .pub file"
    )]
    UnsupportedKey(String),
    /// The signature text is not an armored SSHSIG (or is damaged); holds the reason.
    #[error(
        "the signature could not be read ({0}): attach the .sig file exactly as `ssh-keygen -Y sign` wrote it"
    )]
    MalformedSignature(String),
    /// The signature was made for another purpose than the one expected.
    #[error(
        "signature was made for namespace \"{found}\", not \"{expected}\": sign again with `ssh-keygen -Y sign -n {expected}`"
    )]
    WrongNamespace {
        /// Namespace the caller required.
        expected: String,
        /// Namespace written in the signature.
        found: String,
    },
    /// The signature is by a different key than the one registered.
    #[error(
        "signature was made by another key ({signer}), not the key registered for this side ({registered}): sign with the registered key"
    )]
    WrongKey {
        /// Fingerprint of the key embedded in the signature.
        signer: String,
        /// Fingerprint of the registered key.
        registered: String,
    },
    /// Right key and namespace, but the cryptographic check failed: the data
    /// was altered after signing or the signature was forged.
    #[error(
        "the signed file has changed since it was signed: attach the file exactly as signed, with its .sig"
    )]
    BadSignature,
    /// The operating system could not supply randomness for a new key.
    #[error("could not get randomness from the operating system: {0}")]
    Io(#[from] std::io::Error),
}

//! Ed25519 keys in OpenSSH formats: making them, reading them, naming them.

use ssh_key::private::{Ed25519Keypair, Ed25519PrivateKey, KeypairData};
use ssh_key::public::Ed25519PublicKey;
use ssh_key::{Algorithm, HashAlg, LineEnding, PrivateKey, PublicKey};

use super::SigError;

/// No real ed25519 public key line comes near this; refusing early keeps a
/// pasted novel from being base64-decoded.
const MAX_PUBLIC_LINE: usize = 16 * 1024;

/// Same idea for private key files (an ed25519 one is about 400 bytes).
const MAX_PRIVATE_KEY: usize = 64 * 1024;

const PUBLIC_HINT: &str = "paste the whole line from your .pub file, which begins with ssh-ed25519";

const PRIVATE_HINT: &str = "use the unencrypted key file written by `ssh-keygen -t ed25519` or by galloper, which begins with -----BEGIN OPENSSH PRIVATE KEY-----";

/// A freshly made ed25519 key in the two text forms OpenSSH uses.
#[derive(Clone)]
pub struct KeyPair {
    /// Unencrypted OpenSSH private key file ("-----BEGIN OPENSSH PRIVATE KEY-----").
    pub private_openssh: String,
    /// Public key line as in a `.pub` file: "ssh-ed25519 AAAA... comment".
    pub public_line: String,
}

// Hand-written so that the private key never lands in a log by accident.
impl std::fmt::Debug for KeyPair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeyPair")
            .field("private_openssh", &"<redacted>")
            .field("public_line", &self.public_line)
            .finish()
    }
}

/// Make a new ed25519 key from operating-system randomness.
///
/// Line breaks and other control characters in `comment` become spaces so
/// that the public key stays on one line.
pub fn keygen(comment: &str) -> Result<KeyPair, SigError> {
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed).map_err(|e| std::io::Error::other(e.to_string()))?;
    let pair = keygen_from_seed(&seed, comment);
    seed.fill(0);
    pair
}

/// The ed25519 key whose secret is `seed`, in OpenSSH forms. Only for keys
/// that are public by design (fuzzing and test fixtures); real keys come
/// from [`keygen`].
pub fn keygen_from_seed(seed: &[u8; 32], comment: &str) -> Result<KeyPair, SigError> {
    // ed25519-dalek 3 derives the public half; ssh-key carries its own older
    // dalek, so the halves cross over as raw bytes.
    let signing = ed25519_dalek::SigningKey::from_bytes(seed);
    let keypair = Ed25519Keypair {
        public: Ed25519PublicKey(signing.verifying_key().to_bytes()),
        private: Ed25519PrivateKey::from_bytes(&signing.to_bytes()),
    };
    let comment: String = comment
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let private = PrivateKey::new(KeypairData::Ed25519(keypair), comment.trim())
        .map_err(|e| encoding_failed(&e))?;
    let private_openssh = private
        .to_openssh(LineEnding::LF)
        .map_err(|e| encoding_failed(&e))?
        .to_string();
    let public_line = private
        .public_key()
        .to_openssh()
        .map_err(|e| encoding_failed(&e))?;
    Ok(KeyPair {
        private_openssh,
        public_line,
    })
}

fn encoding_failed(e: &ssh_key::Error) -> SigError {
    SigError::MalformedKey(format!(
        "the new key could not be written in OpenSSH format ({e}): try again"
    ))
}

/// Read a public key line, accepting only `ssh-ed25519` keys.
///
/// Surrounding whitespace is ignored; the comment is kept. Write the result
/// back with [`PublicKey::to_openssh`] for a normalised line.
pub fn parse_public(public_line: &str) -> Result<PublicKey, SigError> {
    let line = public_line.trim();
    if line.is_empty() {
        return Err(SigError::MalformedKey(format!(
            "the public key line is empty: {PUBLIC_HINT}"
        )));
    }
    if line.starts_with("-----BEGIN") {
        return Err(SigError::MalformedKey(
            "this is a private key, not a public key line: keep it secret and register the line from the .pub file instead".to_owned(),
        ));
    }
    if line.len() > MAX_PUBLIC_LINE {
        return Err(SigError::MalformedKey(format!(
            "the public key line is far too long for an ed25519 key: {PUBLIC_HINT}"
        )));
    }
    let type_name = line.split_ascii_whitespace().next().unwrap_or_default();
    match PublicKey::from_openssh(line) {
        Ok(key) if key.algorithm() == Algorithm::Ed25519 => Ok(key),
        Ok(key) => Err(SigError::UnsupportedKey(key.algorithm().to_string())),
        // A key type ssh-key cannot decode (a certificate, say) is still
        // recognisably not ed25519, which is the more useful complaint.
        Err(_) if is_other_key_type(type_name) => {
            Err(SigError::UnsupportedKey(type_name.to_owned()))
        }
        Err(e) => Err(SigError::MalformedKey(format!(
            "the public key line could not be read ({e}): {PUBLIC_HINT}"
        ))),
    }
}

fn is_other_key_type(name: &str) -> bool {
    if name == Algorithm::Ed25519.as_str() {
        return false;
    }
    name.ends_with("-cert-v01@openssh.com")
        || matches!(Algorithm::new(name), Ok(alg) if !matches!(alg, Algorithm::Other(_)))
}

/// SHA-256 fingerprint of a public key line, as `ssh-keygen -l` prints it
/// ("SHA256:" and unpadded base64).
pub fn fingerprint(public_line: &str) -> Result<String, SigError> {
    Ok(parse_public(public_line)?
        .fingerprint(HashAlg::Sha256)
        .to_string())
}

/// Read an unencrypted OpenSSH ed25519 private key file.
pub(super) fn parse_private(private_openssh: &str) -> Result<PrivateKey, SigError> {
    let text = private_openssh.trim();
    if text.is_empty() {
        return Err(SigError::MalformedKey(format!(
            "the private key is empty: {PRIVATE_HINT}"
        )));
    }
    if text.len() > MAX_PRIVATE_KEY {
        return Err(SigError::MalformedKey(format!(
            "the private key is far too long for an ed25519 key: {PRIVATE_HINT}"
        )));
    }
    // Never echo the text itself: it may be a secret.
    let key = PrivateKey::from_openssh(text).map_err(|e| {
        SigError::MalformedKey(format!(
            "the private key could not be read ({e}): {PRIVATE_HINT}"
        ))
    })?;
    if key.is_encrypted() {
        return Err(SigError::MalformedKey(
            "the private key is protected by a passphrase, which galloper cannot use: remove it with `ssh-keygen -p -N '' -f KEYFILE` or make a separate key for galloper".to_owned(),
        ));
    }
    if key.algorithm() != Algorithm::Ed25519 {
        return Err(SigError::UnsupportedKey(key.algorithm().to_string()));
    }
    Ok(key)
}

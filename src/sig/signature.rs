//! Making and checking armored SSHSIG signatures, as `ssh-keygen -Y` does.

use ssh_key::public::KeyData;
use ssh_key::{HashAlg, LineEnding, PublicKey, SshSig};

use super::SigError;
use super::key::{parse_private, parse_public};

/// An ed25519 SSHSIG is well under 1 KiB; anything this big is not one, and
/// refusing it early keeps the decoder away from hostile input.
const MAX_SIGNATURE: usize = 64 * 1024;

const ARMOR_BEGIN: &[u8] = b"-----BEGIN SSH SIGNATURE-----";

/// Sign `data` in `namespace` with an unencrypted OpenSSH ed25519 private key.
///
/// Returns the armored signature ("-----BEGIN SSH SIGNATURE-----"), hashed
/// with SHA-512 like `ssh-keygen -Y sign`, so `ssh-keygen -Y verify` accepts it.
pub fn sign(private_openssh: &str, namespace: &str, data: &[u8]) -> Result<String, SigError> {
    if namespace.is_empty() {
        return Err(SigError::MalformedSignature(
            "no namespace was given, and a signature needs one".to_owned(),
        ));
    }
    let key = parse_private(private_openssh)?;
    let signature = key
        .sign(namespace, HashAlg::Sha512, data)
        .map_err(|e| SigError::MalformedSignature(format!("signing failed: {e}")))?;
    let mut armored = signature
        .to_pem(LineEnding::LF)
        .map_err(|e| SigError::MalformedSignature(format!("signing failed: {e}")))?;
    // ssh-keygen ends its .sig files with a newline; match it byte for byte.
    if !armored.ends_with('\n') {
        armored.push('\n');
    }
    Ok(armored)
}

/// Check an armored SSHSIG over `data` against a registered public key line.
///
/// The signature must carry the same key as `public_line` (else
/// [`SigError::WrongKey`]), be made in `namespace` (else
/// [`SigError::WrongNamespace`]) and match `data` exactly (else
/// [`SigError::BadSignature`]).
pub fn verify(
    public_line: &str,
    namespace: &str,
    data: &[u8],
    signature: &str,
) -> Result<(), SigError> {
    verify_bytes(public_line, namespace, data, signature.as_bytes())
}

/// [`verify`] for a signature that arrived as raw bytes (a mail attachment,
/// say), which need not even be UTF-8.
pub fn verify_bytes(
    public_line: &str,
    namespace: &str,
    data: &[u8],
    signature: &[u8],
) -> Result<(), SigError> {
    let key = parse_public(public_line)?;
    let sig = parse_signature(signature)?;
    if sig.public_key() != key.key_data() {
        return Err(wrong_key(sig.public_key(), &key));
    }
    if sig.namespace() != namespace {
        return Err(SigError::WrongNamespace {
            expected: namespace.to_owned(),
            found: sig.namespace().to_owned(),
        });
    }
    // Key and namespace are settled above, so only the cryptography is left.
    key.verify(namespace, data, &sig)
        .map_err(|_| SigError::BadSignature)
}

fn wrong_key(signer: &KeyData, registered: &PublicKey) -> SigError {
    SigError::WrongKey {
        signer: signer.fingerprint(HashAlg::Sha256).to_string(),
        registered: registered.fingerprint(HashAlg::Sha256).to_string(),
    }
}

fn parse_signature(signature: &[u8]) -> Result<SshSig, SigError> {
    let malformed = |reason: &str| Err(SigError::MalformedSignature(reason.to_owned()));
    if signature.len() > MAX_SIGNATURE {
        return malformed("it is far too large to be an SSH signature");
    }
    let text = signature.trim_ascii();
    if text.is_empty() {
        return malformed("it is empty");
    }
    if !text.starts_with(ARMOR_BEGIN) {
        return malformed("it does not begin with -----BEGIN SSH SIGNATURE-----");
    }
    // Mail may turn LF into CRLF; the armor means the same either way.
    let text: Vec<u8> = text.iter().copied().filter(|&b| b != b'\r').collect();
    SshSig::from_pem(&text).map_err(|e| SigError::MalformedSignature(e.to_string()))
}

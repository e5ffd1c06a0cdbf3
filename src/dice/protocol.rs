//! The commit-reveal protocol: commitments, order hashes and stream seeds.
//!
//! Every function here is a pure hash of its arguments except
//! [`fresh_secret`], which asks the operating system for randomness.
//! The byte layouts are fixed by `docs/DICE.md`; changing one changes every
//! die of every game, so a new layout needs new domain tags.

use super::StreamKind;
use sha2::{Digest as _, Sha256};

/// A server secret drawn when a step opens (`P_r` or `H_r`).
pub type Secret = [u8; 32];

/// A SHA-256 output.
pub type Digest = [u8; 32];

/// Domain tag of a commitment; distinct tags keep a commitment from ever
/// being mistaken for a seed or for the other stream's commitment.
fn commit_tag(kind: StreamKind) -> &'static [u8] {
    match kind {
        StreamKind::Public => b"galloper-commit-public-v1",
        StreamKind::Hidden => b"galloper-commit-hidden-v1",
    }
}

/// Domain tag of a stream seed.
fn seed_tag(kind: StreamKind) -> &'static [u8] {
    match kind {
        StreamKind::Public => b"galloper-public-v1",
        StreamKind::Hidden => b"galloper-hidden-v1",
    }
}

/// The commitment published when step `step` of game `game` opens:
/// `SHA-256(tag 0x00 game 0x00 step-in-decimal 0x00 secret)`.
///
/// Binding the game and step stops a commitment from one step being replayed
/// for another. The game id must not contain a NUL byte, or the layout would
/// be ambiguous; game ids are plain names, so this holds.
pub fn commit(kind: StreamKind, game: &str, step: u32, secret: &Secret) -> Digest {
    let mut h = Sha256::new();
    h.update(commit_tag(kind));
    h.update([0u8]);
    h.update(game.as_bytes());
    h.update([0u8]);
    h.update(step.to_string().as_bytes());
    h.update([0u8]);
    h.update(secret);
    h.finalize().into()
}

/// SHA-256 of an orders file, byte for byte as received (the signed bytes).
pub fn order_hash(file_bytes: &[u8]) -> Digest {
    Sha256::digest(file_bytes).into()
}

/// `mix_r`: the order hashes concatenated. The caller passes one hash per side
/// that sent orders, in the scenario's side order (not name order).
pub fn mix(order_hashes: &[Digest]) -> Vec<u8> {
    order_hashes.concat()
}

/// A stream seed: `SHA-256(tag 0x00 secret mix)`.
///
/// `mix` needs no length prefix: the secret has a fixed length and the mix is
/// the rest of the input.
pub fn seed(kind: StreamKind, secret: &Secret, mix: &[u8]) -> Digest {
    let mut h = Sha256::new();
    h.update(seed_tag(kind));
    h.update([0u8]);
    h.update(secret);
    h.update(mix);
    h.finalize().into()
}

/// A new secret from the operating system's random source.
pub fn fresh_secret() -> std::io::Result<Secret> {
    let mut secret = [0u8; 32];
    getrandom::fill(&mut secret).map_err(|e| match e.raw_os_error() {
        Some(errno) => std::io::Error::from_raw_os_error(errno),
        None => std::io::Error::other(e.to_string()),
    })?;
    Ok(secret)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sha(bytes: &[u8]) -> Digest {
        Sha256::digest(bytes).into()
    }

    #[test]
    fn commit_layout_matches_the_documented_bytes() {
        let secret = [7u8; 32];
        let mut input = b"galloper-commit-public-v1\0waterloo\x0012\0".to_vec();
        input.extend_from_slice(&secret);
        assert_eq!(
            commit(StreamKind::Public, "waterloo", 12, &secret),
            sha(&input)
        );

        let mut input = b"galloper-commit-hidden-v1\0waterloo\x0012\0".to_vec();
        input.extend_from_slice(&secret);
        assert_eq!(
            commit(StreamKind::Hidden, "waterloo", 12, &secret),
            sha(&input)
        );
    }

    #[test]
    fn commitments_differ_by_step_game_and_kind() {
        let s = [1u8; 32];
        let base = commit(StreamKind::Public, "g", 1, &s);
        assert_ne!(base, commit(StreamKind::Public, "g", 2, &s));
        assert_ne!(base, commit(StreamKind::Public, "h", 1, &s));
        assert_ne!(base, commit(StreamKind::Hidden, "g", 1, &s));
    }

    #[test]
    fn seed_layout_matches_the_documented_bytes() {
        let secret = [9u8; 32];
        let m = mix(&[order_hash(b"a"), order_hash(b"b")]);
        assert_eq!(m.len(), 64);
        assert_eq!(&m[..32], &sha(b"a"));
        assert_eq!(&m[32..], &sha(b"b"));

        let mut input = b"galloper-public-v1\0".to_vec();
        input.extend_from_slice(&secret);
        input.extend_from_slice(&m);
        assert_eq!(seed(StreamKind::Public, &secret, &m), sha(&input));

        let mut input = b"galloper-hidden-v1\0".to_vec();
        input.extend_from_slice(&secret);
        input.extend_from_slice(&m);
        assert_eq!(seed(StreamKind::Hidden, &secret, &m), sha(&input));
    }

    #[test]
    fn side_order_matters() {
        let (a, b) = (order_hash(b"a"), order_hash(b"b"));
        let s = [0u8; 32];
        assert_ne!(
            seed(StreamKind::Public, &s, &mix(&[a, b])),
            seed(StreamKind::Public, &s, &mix(&[b, a]))
        );
    }

    #[test]
    fn fresh_secrets_differ() {
        let a = fresh_secret().unwrap();
        let b = fresh_secret().unwrap();
        assert_ne!(a, b);
    }
}

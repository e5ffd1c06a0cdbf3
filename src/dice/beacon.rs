//! Protocol version 2: a public randomness beacon mixed into both seeds.
//!
//! A drand round is a BLS signature by a threshold network over the round
//! number; nobody, the server included, knows it before the round's time,
//! and anyone can check it against the chain's public key. A version-2 step
//! names, when it opens, the first round after its orders close, and its
//! seeds take that round's randomness as a further input (`docs/DICE.md`,
//! "Protocol version 2"). Pure: the round comes from the edge
//! (`game::beacon`); here it is only checked and hashed. The pairing
//! arithmetic is `drand-verify`'s, never ours.

use super::{Digest, Secret, StreamKind};
use drand_verify::{G2PubkeyRfc, Pubkey};
use sha2::{Digest as _, Sha256};
use std::fmt;

/// A drand chain the server and the audit know by name. Its public key is
/// built in, so that an archive cannot bring a key of its own.
#[derive(Debug, PartialEq, Eq)]
pub struct Chain {
    /// The name games use (`--beacon quicknet`).
    pub name: &'static str,
    /// drand's chain hash (hex), as its relays name the chain in URLs.
    pub hash: &'static str,
    /// The group public key, a compressed G2 point (hex, 96 bytes).
    pub public_key: &'static str,
    /// Unix time of round 1.
    pub genesis: i64,
    /// Seconds between rounds.
    pub period: i64,
}

/// drand's quicknet: unchained rounds every 3 seconds, BLS signatures on G1
/// with RFC 9380 hashing (scheme `bls-unchained-g1-rfc9380`). Figures from
/// the chain's `/info` document, as published by the League of Entropy.
pub const QUICKNET: Chain = Chain {
    name: "quicknet",
    hash: "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
    public_key: "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a",
    genesis: 1_692_803_367,
    period: 3,
};

/// Every chain a game may name.
pub const CHAINS: &[&Chain] = &[&QUICKNET];

/// The chain called `name`, if the server knows it.
pub fn chain(name: &str) -> Option<&'static Chain> {
    CHAINS.iter().copied().find(|c| c.name == name)
}

/// Why a round was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BeaconError {
    #[error("round 0 does not exist: drand's rounds start at 1")]
    NoRoundZero,
    #[error("the signature is {0} bytes; a {1} round's signature is 48 (a compressed G1 point)")]
    Length(usize, &'static str),
    #[error("the signature is not a point of the curve: {0}")]
    NotAPoint(String),
    #[error(
        "the signature does not verify for round {round} under the {chain} public key: not a round of this chain, or another round's signature"
    )]
    Refused { chain: &'static str, round: u64 },
}

/// A round as published: its number and its signature (the randomness is
/// derived from the signature, never taken on trust).
#[derive(Clone, PartialEq, Eq)]
pub struct Round {
    pub round: u64,
    pub signature: Vec<u8>,
}

impl fmt::Debug for Round {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Round {{ round: {}, signature: {} }}",
            self.round,
            hex::encode(&self.signature)
        )
    }
}

impl Round {
    /// drand's randomness of the round: `SHA-256(signature)`, 32 bytes.
    pub fn randomness(&self) -> Digest {
        Sha256::digest(&self.signature).into()
    }
}

impl Chain {
    /// When round `round` is published (unix seconds): nobody can know its
    /// signature before then.
    pub fn round_time(&self, round: u64) -> i64 {
        let r = i64::try_from(round).unwrap_or(i64::MAX);
        self.genesis
            .saturating_add(r.saturating_sub(1).saturating_mul(self.period))
    }

    /// The first round whose time is strictly after `t`.
    pub fn first_round_after(&self, t: i64) -> u64 {
        if t < self.genesis {
            return 1;
        }
        // Round r is at genesis + (r-1)*period; the first strictly later
        // than t is floor((t - genesis) / period) + 2.
        u64::try_from((t - self.genesis) / self.period)
            .unwrap_or(0)
            .saturating_add(2)
    }

    /// Check `round` against the chain's public key. The message drand
    /// signs for an unchained round is `SHA-256(round as 8 bytes big-endian)`.
    pub fn verify(&self, round: &Round) -> Result<Digest, BeaconError> {
        if round.round == 0 {
            return Err(BeaconError::NoRoundZero);
        }
        if round.signature.len() != 48 {
            return Err(BeaconError::Length(round.signature.len(), self.name));
        }
        let key: [u8; 96] = hex::decode(self.public_key)
            .ok()
            .and_then(|k| k.try_into().ok())
            .ok_or_else(|| BeaconError::NotAPoint("the built-in public key".into()))?;
        let pk = G2PubkeyRfc::from_fixed(key)
            .map_err(|e| BeaconError::NotAPoint(format!("the built-in public key: {e}")))?;
        match pk.verify(round.round, b"", &round.signature) {
            Ok(true) => Ok(round.randomness()),
            Ok(false) => Err(BeaconError::Refused {
                chain: self.name,
                round: round.round,
            }),
            Err(e) => Err(BeaconError::NotAPoint(e.to_string())),
        }
    }
}

/// Domain tag of a version-2 seed: distinct from version 1's, so no
/// version-2 seed can equal a version-1 seed.
fn seed_tag(kind: StreamKind) -> &'static [u8] {
    match kind {
        StreamKind::Public => b"galloper-public-v2",
        StreamKind::Hidden => b"galloper-hidden-v2",
    }
}

/// A version-2 stream seed: `SHA-256(tag 0x00 secret mix beacon)`.
///
/// The secret and the beacon randomness have fixed lengths (32 bytes each),
/// so the mix between them needs no length prefix.
pub fn seed(kind: StreamKind, secret: &Secret, mix: &[u8], beacon: &Digest) -> Digest {
    let mut h = Sha256::new();
    h.update(seed_tag(kind));
    h.update([0u8]);
    h.update(secret);
    h.update(mix);
    h.update(beacon);
    h.finalize().into()
}

/// The seed of a step of either version: version 1 without a beacon,
/// version 2 with the randomness of its round.
pub fn seed_of(kind: StreamKind, secret: &Secret, mix: &[u8], beacon: Option<&Digest>) -> Digest {
    match beacon {
        Some(b) => seed(kind, secret, mix, b),
        None => super::protocol::seed(kind, secret, mix),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Quicknet round 123, as published by drand's relays (and quoted in
    /// drand-verify's own tests).
    fn round_123() -> Round {
        Round {
            round: 123,
            signature: hex::decode("b75c69d0b72a5d906e854e808ba7e2accb1542ac355ae486d591aa9d43765482e26cd02df835d3546d23c4b13e0dfc92").unwrap(),
        }
    }

    #[test]
    fn a_real_round_verifies_and_a_changed_one_does_not() {
        let r = round_123();
        assert_eq!(QUICKNET.verify(&r), Ok(r.randomness()));
        let other = Round {
            round: 124,
            ..r.clone()
        };
        assert_eq!(
            QUICKNET.verify(&other),
            Err(BeaconError::Refused {
                chain: "quicknet",
                round: 124
            })
        );
        let mut bent = r.clone();
        bent.signature[47] ^= 1;
        assert!(QUICKNET.verify(&bent).is_err());
        let short = Round {
            signature: r.signature[..47].to_vec(),
            ..r
        };
        assert_eq!(
            QUICKNET.verify(&short),
            Err(BeaconError::Length(47, "quicknet"))
        );
    }

    #[test]
    fn round_times_follow_genesis_and_period() {
        let c = &QUICKNET;
        assert_eq!(c.round_time(1), c.genesis);
        assert_eq!(c.round_time(123), c.genesis + 122 * 3);
        assert_eq!(c.first_round_after(0), 1);
        assert_eq!(c.first_round_after(c.genesis - 1), 1);
        // Strictly after: at a round's own time, the next round.
        assert_eq!(c.first_round_after(c.genesis), 2);
        assert_eq!(c.first_round_after(c.genesis + 2), 2);
        assert_eq!(c.first_round_after(c.genesis + 3), 3);
        for t in [c.genesis - 5, c.genesis, c.genesis + 1000, c.genesis + 1002] {
            let r = c.first_round_after(t);
            assert!(c.round_time(r) > t);
            assert!(r == 1 || c.round_time(r - 1) <= t);
        }
    }

    #[test]
    fn version_2_seed_layout_matches_the_documented_bytes() {
        let (p, b) = ([5u8; 32], [6u8; 32]);
        let mix = [7u8; 64];
        let mut input = b"galloper-public-v2\0".to_vec();
        input.extend_from_slice(&p);
        input.extend_from_slice(&mix);
        input.extend_from_slice(&b);
        let want: Digest = Sha256::digest(&input).into();
        assert_eq!(seed(StreamKind::Public, &p, &mix, &b), want);
        assert_eq!(seed_of(StreamKind::Public, &p, &mix, Some(&b)), want);
        assert_ne!(
            seed(StreamKind::Hidden, &p, &mix, &b),
            want,
            "the hidden tag differs"
        );
        assert_eq!(
            seed_of(StreamKind::Public, &p, &mix, None),
            super::super::protocol::seed(StreamKind::Public, &p, &mix)
        );
    }
}

//! A beacon round in the archive (protocol version 2, docs/DICE.md): the
//! game's chain in `game.yaml`, the round a notice names, and the step's
//! `beacon.yaml` holding the round as published. The server fetches and
//! waits for rounds (`game::beacon`); the audit checks them (`audit::beacon`).

use super::Notice;
use crate::dice::beacon::Round;
use serde::{Deserialize, Serialize};

/// The archive's file of a step's round, listed in the step's manifest.
pub const BEACON_FILE: &str = "beacon.yaml";

/// The protocol version of a step whose seeds take a beacon round.
pub const PROTOCOL: u32 = 2;

/// `game.yaml`'s beacon: the chain every step of the game takes its round from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameBeacon {
    pub chain: String,
    pub chain_hash: String,
}

/// A notice's beacon: the round the step's seeds will take, fixed before
/// any order for the step exists.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NoticeBeacon {
    pub protocol: u32,
    pub chain: String,
    /// The step's deadline and the end of its grace (UTC, RFC 3339).
    pub deadline: String,
    pub orders_close: String,
    /// The first round of the chain published strictly after `orders_close`.
    pub round: u64,
    pub round_time: String,
}

/// `step-NNNN/beacon.yaml`: the round as published, and what it gives.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BeaconFile {
    pub protocol: u32,
    pub chain: String,
    pub round: u64,
    pub signature: String,
    /// SHA-256 of the signature: the 32 bytes mixed into both seeds.
    pub randomness: String,
}

pub(crate) fn utc(secs: i64) -> String {
    jiff::Timestamp::from_second(secs)
        .map(|t| t.to_string())
        .unwrap_or_else(|_| format!("{secs} (unix time)"))
}

pub(crate) fn parse_utc(text: &str) -> Option<i64> {
    text.parse::<jiff::Timestamp>().ok().map(|t| t.as_second())
}

/// The beacon a step's notice names, if any. A notice that does not parse
/// names none (the caller has refused it long before).
pub fn notice_beacon(notice_yaml: &str) -> Option<NoticeBeacon> {
    crate::yaml::from_str::<Notice>(notice_yaml).ok()?.beacon
}

/// The deadline a beacon step's notice fixed (unix seconds): the clock uses
/// it, since the round was chosen from it.
pub fn notice_deadline(notice_yaml: &str) -> Option<i64> {
    parse_utc(&notice_beacon(notice_yaml)?.deadline)
}

/// The archive's `beacon.yaml` of a step that used a round.
pub fn archive_file(chain: &str, round: &Round) -> anyhow::Result<Vec<u8>> {
    Ok(crate::yaml::to_string(&BeaconFile {
        protocol: PROTOCOL,
        chain: chain.into(),
        round: round.round,
        signature: hex::encode(&round.signature),
        randomness: hex::encode(round.randomness()),
    })?
    .into_bytes())
}

//! The audit's part of a beacon step: every file a player sent came before
//! the notice's close of orders, and the round the seeds took is the one the
//! notice named, verified against the chain's key.

use super::Failure;
use crate::archive::beacon::{BEACON_FILE, BeaconFile, PROTOCOL, parse_utc, utc};
use crate::archive::{GameFile, Manifest, Notice};
use crate::dice::beacon::{self, Round};
use std::path::Path;

fn fail(place: &str, what: impl Into<String>) -> Failure {
    Failure {
        place: place.into(),
        what: what.into(),
    }
}

/// The audit's part: in a beacon step, every file a player sent was
/// received, by the server's signed word, before the notice's close of
/// orders (the server's own applied files follow from public values, so
/// their time gives nobody a choice).
pub fn audited_receipts(
    index: &crate::archive::OrdersIndex,
    notice: &Notice,
    place: &str,
) -> Result<(), Failure> {
    let Some(b) = &notice.beacon else {
        return Ok(());
    };
    let close = parse_utc(&b.orders_close)
        .ok_or_else(|| fail(place, "the notice's orders_close is not a time"))?;
    for e in index.sides.iter().filter(|e| e.applied.is_none()) {
        let Some(at) = &e.received else {
            return Err(fail(
                place,
                format!(
                    "orders.yaml gives no receipt time for {}'s orders: a beacon step must show that each file came before its close of orders",
                    e.side
                ),
            ));
        };
        match parse_utc(at) {
            Some(t) if t <= close => {}
            Some(_) => {
                return Err(fail(
                    place,
                    format!(
                        "{}'s orders were received at {at}, after the close of orders at {}: they could have been chosen knowing round {}",
                        e.side, b.orders_close, b.round
                    ),
                ));
            }
            None => {
                return Err(fail(
                    place,
                    format!("{}'s receipt time {at:?} is not a time", e.side),
                ));
            }
        }
    }
    Ok(())
}

/// The audit's part: the round a step's seeds took, checked. None for a
/// step of protocol version 1 (and then the game must have no beacon).
pub fn audited_round(
    sdir: &Path,
    manifest: &Manifest,
    game: &GameFile,
    notice: &Notice,
    place: &str,
) -> Result<Option<Round>, Failure> {
    let (gb, nb) = match (&game.beacon, &notice.beacon) {
        (None, None) => {
            if manifest.files.contains_key(BEACON_FILE) {
                return Err(fail(
                    place,
                    "a beacon round in a step whose notice names none",
                ));
            }
            return Ok(None);
        }
        (Some(g), None) => {
            return Err(fail(
                place,
                format!(
                    "the game takes its dice from the {} beacon, but this step's notice names no round",
                    g.chain
                ),
            ));
        }
        (None, Some(_)) => {
            return Err(fail(
                place,
                "the notice names a beacon round, but game.yaml names no beacon",
            ));
        }
        (Some(g), Some(n)) => (g, n),
    };
    let chain = beacon::chain(&gb.chain)
        .ok_or_else(|| fail("game.yaml", format!("unknown beacon {:?}", gb.chain)))?;
    if gb.chain_hash != chain.hash {
        return Err(fail(
            "game.yaml",
            format!(
                "the {} chain hash is {}, not {}",
                chain.name, chain.hash, gb.chain_hash
            ),
        ));
    }
    if nb.chain != chain.name || nb.protocol != PROTOCOL {
        return Err(fail(
            place,
            "the notice names another beacon or protocol than game.yaml",
        ));
    }
    let close = parse_utc(&nb.orders_close)
        .ok_or_else(|| fail(place, "the notice's orders_close is not a time"))?;
    if nb.round != chain.first_round_after(close)
        || nb.round_time != utc(chain.round_time(nb.round))
    {
        return Err(fail(
            place,
            format!(
                "round {} is not the first {} round after the close of orders ({})",
                nb.round, chain.name, nb.orders_close
            ),
        ));
    }
    if !manifest.files.contains_key(BEACON_FILE) {
        return Err(fail(place, "the step's manifest lists no beacon.yaml"));
    }
    let path = sdir.join(BEACON_FILE);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| fail(place, format!("cannot read beacon.yaml: {e}")))?;
    let file: BeaconFile = crate::yaml::from_str(&text)
        .map_err(|e| fail(place, format!("beacon.yaml does not parse: {e}")))?;
    if file.protocol != PROTOCOL || file.chain != chain.name || file.round != nb.round {
        return Err(fail(
            place,
            format!(
                "beacon.yaml holds {} round {}, the notice named {} round {}",
                file.chain, file.round, nb.chain, nb.round
            ),
        ));
    }
    let round = Round {
        round: file.round,
        signature: hex::decode(&file.signature)
            .map_err(|_| fail(place, "beacon.yaml: the signature is not hex"))?,
    };
    let randomness = chain
        .verify(&round)
        .map_err(|e| fail(place, format!("{} round {}: {e}", chain.name, round.round)))?;
    if hex::encode(randomness) != file.randomness {
        return Err(fail(
            place,
            "beacon.yaml: the randomness is not the SHA-256 of the signature",
        ));
    }
    Ok(Some(round))
}

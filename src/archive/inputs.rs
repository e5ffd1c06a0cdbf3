//! What a step's dice and resolution take, as the archive shows them: the
//! state before, the two secrets, a beacon round, and each side's orders
//! file. The server fills it from its store rows, the audit from the
//! archive's files; both then resolve through here, so replay and play
//! cannot drift apart.

use super::OrdersEntry;
use crate::dice::beacon::{Round, seed_of};
use crate::dice::{Dice, StreamKind, protocol};
use crate::ruleset::{LoadedState, TextResolution};
use crate::side::{BySide, SideId};
use anyhow::anyhow;
use std::collections::BTreeMap;

/// The signature namespace of orders the server applied for a side that
/// sent none (its own key, so that no player's signature can be replayed
/// as one).
pub const APPLIED_NAMESPACE: &str = "galloper-applied";

/// One side's orders file for a step.
#[derive(Clone, Copy, Debug)]
pub struct OrdersInput<'a> {
    pub file_name: &'a str,
    pub text: &'a [u8],
    pub sha256: &'a str,
    pub signature: &'a str,
    /// When it was received (unix seconds), shown in a beacon step's index.
    pub received: Option<i64>,
}

/// A step's inputs.
#[derive(Clone, Debug)]
pub struct StepInputs<'a> {
    pub state_before: &'a str,
    pub public_secret: [u8; 32],
    pub hidden_secret: [u8; 32],
    pub beacon: Option<&'a Round>,
    /// A beacon step's index shows when each file came.
    pub timed: bool,
    pub orders: BTreeMap<SideId, OrdersInput<'a>>,
}

/// The seeds of a step and what went into them.
#[derive(Clone, Debug, Default)]
pub struct DiceInputs {
    pub mix: Vec<u8>,
    pub public_seed: [u8; 32],
    pub hidden_seed: [u8; 32],
    pub index: Vec<OrdersEntry>,
}

/// Mix the orders (in scenario side order) with the step's secrets.
pub fn dice_inputs(step: &StepInputs, sides: &[SideId]) -> DiceInputs {
    let used: Vec<(&SideId, &OrdersInput)> = sides
        .iter()
        .filter_map(|s| step.orders.get_key_value(s))
        .collect();
    let hashes: Vec<[u8; 32]> = used
        .iter()
        .map(|(_, o)| protocol::order_hash(o.text))
        .collect();
    let mix = protocol::mix(&hashes);
    let b = step.beacon.map(|r| r.randomness());
    DiceInputs {
        public_seed: seed_of(StreamKind::Public, &step.public_secret, &mix, b.as_ref()),
        hidden_seed: seed_of(StreamKind::Hidden, &step.hidden_secret, &mix, b.as_ref()),
        mix,
        index: used
            .iter()
            .map(|(side, o)| OrdersEntry {
                side: side.to_string(),
                sha256: o.sha256.to_string(),
                signature: o.signature.to_string(),
                applied: None,
                received: o.received.filter(|_| step.timed).map(super::beacon::utc),
            })
            .collect(),
    }
}

/// Resolve a step from its state already parsed: the one place where
/// orders, secrets and rules meet.
pub fn resolve(
    before: &dyn LoadedState,
    sides: &[SideId],
    step: &StepInputs,
) -> anyhow::Result<(TextResolution, DiceInputs)> {
    let inputs = dice_inputs(step, sides);
    let mut dice = Dice::from_seeds(inputs.public_seed, inputs.hidden_seed);
    let mut values: BySide<serde_yaml::Value> = BySide::new();
    for (side, o) in &step.orders {
        let env = crate::envelope::parse_stored(o.file_name, o.text)
            .map_err(|p| anyhow!("stored orders do not parse: {p}"))?;
        values.insert(side.clone(), env.orders);
    }
    let res = before.resolve(&values, &mut dice)?;
    Ok((res, inputs))
}

//! The orders the server applies for a side that sent none: its standing
//! orders or the rules' default orders, written and signed by the server,
//! and marked as such in the step's orders index.

use super::APPLIED_NAMESPACE;
use crate::archive::{self, Notice, sha256_hex};
use crate::envelope;
use crate::ruleset::AnyRuleset;
use crate::server::schedule::MissedPolicy;
use crate::server::store::{OrdersRow, StepRow};
use crate::server::{DiceInputs, Server};
use crate::side::SideId;
use std::collections::BTreeMap;

impl Server {
    /// The orders the policy gives a side that sent none, with the policy
    /// that gave them and the report's sentence; none means wait. The
    /// policy is the one the step's notice named before any order existed
    /// (a step whose notice names none applies nothing), so that a change
    /// of schedule cannot choose between standing and default orders once
    /// the step's secrets are known.
    pub(super) fn choose_orders(
        &self,
        rules: &dyn AnyRuleset,
        open: &StepRow,
        side: &SideId,
    ) -> anyhow::Result<Option<(MissedPolicy, serde_yaml::Value, String)>> {
        let state = &open.state_before;
        let fits = |body: &serde_yaml::Value| -> bool {
            matches!(rules.check(state, side, body), Ok(v) if v.is_empty())
        };
        let named = crate::yaml::from_str::<Notice>(&open.notice)
            .ok()
            .and_then(|n| n.missed);
        let policy = match named {
            None | Some(MissedPolicy::Wait) => return Ok(None),
            Some(p) => p,
        };
        if policy == MissedPolicy::Standing
            && let Some((from, sha, body)) = self.standing_orders(open, side)?
            && fits(&body)
        {
            let note = format!(
                "{side} sent no orders by the deadline: standing orders applied (its orders of step {from}, sha256 {}): {}",
                &sha[..12.min(sha.len())],
                flow(&body)
            );
            return Ok(Some((MissedPolicy::Standing, body, note)));
        }
        match rules.default_orders(state, side)? {
            Some(body) if fits(&body) => {
                let note = format!(
                    "{side} sent no orders by the deadline: default orders applied: {}",
                    flow(&body)
                );
                Ok(Some((MissedPolicy::Default, body, note)))
            }
            _ => Ok(None),
        }
    }

    /// The orders of a side's own latest file of an earlier step, if any,
    /// with that step and the file's hash.
    fn standing_orders(
        &self,
        open: &StepRow,
        side: &SideId,
    ) -> anyhow::Result<Option<(u32, String, serde_yaml::Value)>> {
        Ok(self
            .store
            .earlier_own_orders(&open.game, side, open.step)?
            .and_then(|row| {
                let env = envelope::parse_stored(&row.file_name, &row.text).ok()?;
                Some((row.step, row.sha256, env.orders))
            }))
    }

    /// The orders file the server writes and signs for a side: every byte
    /// follows from public values and the orders it applies
    /// (`archive::applied_orders_text`, docs/DICE.md "Applied orders"), so
    /// the server has no say in what it adds to the dice mix.
    pub(super) fn applied_row(
        &self,
        open: &StepRow,
        side: &SideId,
        policy: MissedPolicy,
        body: &serde_yaml::Value,
    ) -> anyhow::Result<OrdersRow> {
        let (game, step) = (open.game.as_str(), open.step);
        let text = archive::applied_orders_text(
            game,
            step,
            side.as_str(),
            &envelope::notice_sha256(&open.notice),
            policy,
            body,
        )?;
        let signature = crate::sig::sign(
            &self.key.private_openssh,
            APPLIED_NAMESPACE,
            text.as_bytes(),
        )?;
        let file_name = format!("applied-{side}.yaml");
        let (notice, revision) = crate::server::store::stamp_of(&file_name, text.as_bytes());
        Ok(OrdersRow {
            seq: 0,
            game: game.into(),
            step,
            side: side.clone(),
            file_name,
            sha256: sha256_hex(text.as_bytes()),
            text: text.into_bytes(),
            signature,
            received: Some(self.receipt_time()),
            notice,
            revision,
        })
    }

    /// Mark the orders the server applied in a step's orders index, so that
    /// the archive, the audit and the report say so.
    pub(in crate::server) fn mark_applied(
        &self,
        game: &str,
        step: u32,
        inputs: &mut DiceInputs,
        orders: &BTreeMap<SideId, OrdersRow>,
    ) -> anyhow::Result<()> {
        let applied = self.store.applied_orders(game, step)?;
        if applied.is_empty() {
            return Ok(());
        }
        for e in &mut inputs.index {
            let side = SideId::new(e.side.as_str());
            if let (Some(a), Some(o)) = (applied.get(&side), orders.get(&side))
                && a.seq == o.seq
            {
                e.applied = Some(a.note.clone());
            }
        }
        Ok(())
    }
}

/// An orders block on one line, for the report: `round: {command: pass}`.
fn flow(v: &serde_yaml::Value) -> String {
    use serde_yaml::Value;
    match v {
        Value::Mapping(m) => m
            .iter()
            .map(|(k, v)| {
                let inner = match v {
                    Value::Mapping(_) => format!("{{{}}}", flow(v)),
                    _ => flow(v),
                };
                format!("{}: {inner}", flow(k))
            })
            .collect::<Vec<_>>()
            .join(", "),
        Value::Sequence(s) => format!("[{}]", s.iter().map(flow).collect::<Vec<_>>().join(", ")),
        Value::String(s) => s.clone(),
        Value::Null => "~".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::Tagged(t) => flow(&t.value),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn orders_read_on_one_line() {
        let v: serde_yaml::Value =
            crate::yaml::from_str("round:\n  command: pass\n  discard: [a, b]\n").unwrap();
        assert_eq!(super::flow(&v), "round: {command: pass, discard: [a, b]}");
    }
}

//! The outbox seen by recipient: how much went to one address lately (the
//! reply limit, `daemon::limit`), and the latest report mailed to it.
//! Each query goes through an index (`outbox_by_mailbox` for the limit,
//! `replies_by_recipient` for reports) and reads no mail's bytes but the
//! one report asked for.

use super::{OUTBOX_COLUMNS, OutboxRow, Result, Store, outbox_row};
use rusqlite::{OptionalExtension, params_from_iter};

impl Store {
    /// Mails of these kinds queued to the mailbox `address` reaches (its
    /// only recipient, however tagged: `crate::mail::address::mailbox`)
    /// since `since` (unix seconds), however they fared.
    pub fn mails_to_since(&self, address: &str, kinds: &[&str], since: i64) -> Result<u32> {
        if kinds.is_empty() {
            return Ok(0);
        }
        let marks = vec!["?"; kinds.len()].join(", ");
        let sql = format!(
            "SELECT COUNT(*) FROM outbox_mailbox WHERE mailbox = ? AND kind IN ({marks}) AND queued_at >= ?"
        );
        let mut values: Vec<rusqlite::types::Value> =
            vec![crate::mail::address::mailbox(address).into()];
        values.extend(kinds.iter().map(|k| k.to_string().into()));
        values.push(since.into());
        Ok(self
            .conn
            .query_row(&sql, params_from_iter(values), |r| r.get(0))?)
    }

    /// When the latest mail of `kind` for `game` was queued to `address`
    /// since `since`, if one was.
    pub fn last_queued_to(
        &self,
        address: &str,
        kind: &str,
        game: &str,
        since: i64,
    ) -> Result<Option<i64>> {
        Ok(self
            .conn
            .prepare_cached("SELECT MAX(queued_at) FROM outbox WHERE recipients = ?1 AND kind = ?2 AND game = ?3 AND queued_at >= ?4")?
.query_row(
                rusqlite::params![address, kind, game, since],
                |r| r.get(0),
            )
            .optional()?
            .flatten())
    }

    /// The latest report of `game` mailed to `address`, bytes and all.
    pub fn latest_report_to(&self, game: &str, address: &str) -> Result<Option<OutboxRow>> {
        Ok(self
            .conn
            .query_row(
                &format!(
                    "SELECT {OUTBOX_COLUMNS} FROM outbox WHERE recipients = ?1 AND kind = 'report' AND game = ?2 ORDER BY id DESC LIMIT 1"
                ),
                rusqlite::params![address, game],
                outbox_row,
            )
            .optional()?)
    }
}

//! The game master's commands and their record.
//!
//! A command file counts once: its SHA-256 is stored in the same transaction
//! as the change it makes and the mails it causes, so a replay (or the same
//! message handled again after a crash) changes nothing.

use super::{GameStatus, OutboxRow, Result, Store, StoreError, insert_outbox};
use crate::side::SideId;
use rusqlite::{OptionalExtension, params};

pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS commands (sha256 TEXT PRIMARY KEY, game TEXT NOT NULL, by TEXT NOT NULL, issued TEXT NOT NULL,
  command TEXT NOT NULL, applied_at INTEGER NOT NULL, detail TEXT NOT NULL);
";

/// An applied command file, as recorded.
#[derive(Clone, Debug, PartialEq)]
pub struct CommandRow {
    pub sha256: String,
    pub game: String,
    pub by: String,
    pub issued: String,
    /// The command's name (`pause`, `rollback`, ...).
    pub command: String,
    /// Unix seconds.
    pub applied_at: i64,
    /// What was done, as the reply said.
    pub detail: String,
}

/// What a command changes in the store.
#[derive(Clone, Debug, PartialEq)]
pub enum AdminChange {
    /// Nothing but the record and the mails (preview, extend, zone...).
    Nothing,
    Status(GameStatus),
    Address {
        side: SideId,
        email: String,
    },
    /// A new key; the side's orders for `open_step` (signed with the old
    /// key) are set aside.
    Key {
        side: SideId,
        key: String,
        open_step: u32,
    },
    /// Step `step` loses its result (kept as undone run `run`) and opens
    /// again as `reopened`, with fresh secrets under a new notice; later
    /// steps and their orders go, and the game is paused.
    Rollback {
        step: u32,
        run: u32,
        reopened: Box<super::StepRow>,
    },
}

impl Store {
    /// The record of a command file, if it was applied before.
    pub fn command_applied(&self, sha256: &str) -> Result<Option<CommandRow>> {
        Ok(self
            .conn
            .prepare_cached("SELECT sha256, game, by, issued, command, applied_at, detail FROM commands WHERE sha256 = ?1")?
.query_row(
                [sha256],
                |r| {
                    Ok(CommandRow {
                        sha256: r.get(0)?,
                        game: r.get(1)?,
                        by: r.get(2)?,
                        issued: r.get(3)?,
                        command: r.get(4)?,
                        applied_at: r.get(5)?,
                        detail: r.get(6)?,
                    })
                },
            )
            .optional()?)
    }

    /// Apply a change to `game`, record the command that caused it (if
    /// any) and queue its mails, all or nothing. `Ok(false)` and no change
    /// when the command was applied before.
    pub fn admin_change(
        &mut self,
        game: &str,
        change: &AdminChange,
        record: Option<&CommandRow>,
        mails: &[OutboxRow],
    ) -> Result<bool> {
        let tx = self.conn.savepoint()?;
        if let Some(c) = record {
            let seen = tx
                .prepare_cached("SELECT 1 FROM commands WHERE sha256 = ?1")?
                .query_row([&c.sha256], |_| Ok(()))
                .optional()?
                .is_some();
            if seen {
                return Ok(false);
            }
            tx.prepare_cached("INSERT INTO commands (sha256, game, by, issued, command, applied_at, detail) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")?
.execute(
                params![c.sha256, c.game, c.by, c.issued, c.command, c.applied_at, c.detail],
            )?;
        }
        let one = |n: usize, what: &str| {
            if n == 1 {
                Ok(())
            } else {
                Err(StoreError::Damaged(format!(
                    "{what} of game {game} not found"
                )))
            }
        };
        match change {
            AdminChange::Nothing => {}
            AdminChange::Status(s) => one(
                tx.prepare_cached("UPDATE games SET status = ?2 WHERE id = ?1")?
                    .execute(params![game, s])?,
                "the status",
            )?,
            AdminChange::Address { side, email } => one(
                tx.prepare_cached("UPDATE players SET email = ?3 WHERE game = ?1 AND side = ?2")?
                    .execute(params![game, side.as_str(), email])?,
                "the player",
            )?,
            AdminChange::Key {
                side,
                key,
                open_step,
            } => {
                one(
                    tx.prepare_cached(
                        "UPDATE players SET public_key = ?3 WHERE game = ?1 AND side = ?2",
                    )?
                    .execute(params![game, side.as_str(), key])?,
                    "the player",
                )?;
                tx.prepare_cached(
                    "DELETE FROM orders WHERE game = ?1 AND step = ?2 AND side = ?3",
                )?
                .execute(params![game, open_step, side.as_str()])?;
            }
            AdminChange::Rollback {
                step,
                run,
                reopened,
            } => {
                super::runs::undo(&tx, game, *step, *run, reopened)?;
                one(
                    tx.prepare_cached("UPDATE steps SET state_after = NULL, events = NULL, dice = NULL WHERE game = ?1 AND step = ?2 AND state_after IS NOT NULL")?
.execute(
                        params![game, step],
                    )?,
                    "the resolved step",
                )?;
                tx.prepare_cached("DELETE FROM steps WHERE game = ?1 AND step > ?2")?
                    .execute(params![game, step])?;
                // The undone run's orders go with it: each answered the
                // withdrawn notice, and the new run takes only files that
                // answer its own (a file kept across the rollback was
                // chosen while the server knew the new secrets' fate).
                tx.prepare_cached("DELETE FROM applied_orders WHERE game = ?1 AND step >= ?2")?
                    .execute(params![game, step])?;
                tx.prepare_cached("DELETE FROM receipts WHERE seq IN (SELECT seq FROM orders WHERE game = ?1 AND step >= ?2)")?
                    .execute(params![game, step])?;
                tx.prepare_cached("DELETE FROM orders WHERE game = ?1 AND step >= ?2")?
                    .execute(params![game, step])?;
                tx.prepare_cached("UPDATE games SET status = 'paused' WHERE id = ?1")?
                    .execute(params![game])?;
            }
        }
        for m in mails {
            insert_outbox(&tx, m)?;
        }
        tx.commit()?;
        Ok(true)
    }
}

//! Deadlines, warnings, absences and missed steps: the store's part of a game's life.
//!
//! Whatever mails is queued in the same transaction as the record of its
//! cause (a warning and its mark, server-applied orders and the game master's
//! notice), so a crash neither loses nor repeats one.

use super::{OrdersRow, OutboxRow, Result, Store, insert_outbox};
use crate::side::SideId;
use rusqlite::{OptionalExtension, params};
use std::collections::BTreeMap;

pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS schedules (game TEXT PRIMARY KEY, yaml TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS deadlines (game TEXT NOT NULL, step INTEGER NOT NULL, opened INTEGER NOT NULL,
  deadline INTEGER NOT NULL, PRIMARY KEY (game, step));
CREATE TABLE IF NOT EXISTS zones (game TEXT NOT NULL, side TEXT NOT NULL, zone TEXT NOT NULL, PRIMARY KEY (game, side));
CREATE TABLE IF NOT EXISTS life_marks (game TEXT NOT NULL, step INTEGER NOT NULL, side TEXT NOT NULL, what TEXT NOT NULL,
  at INTEGER NOT NULL, PRIMARY KEY (game, step, side, what));
CREATE TABLE IF NOT EXISTS missed (game TEXT NOT NULL, side TEXT NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (game, side));
CREATE TABLE IF NOT EXISTS absences (id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL, side TEXT NOT NULL,
  start INTEGER NOT NULL, end INTEGER NOT NULL, from_day TEXT NOT NULL, until_day TEXT NOT NULL, declared INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS applied_orders (seq INTEGER PRIMARY KEY, game TEXT NOT NULL, step INTEGER NOT NULL,
  side TEXT NOT NULL, policy TEXT NOT NULL, note TEXT NOT NULL);
";

/// The deadline of a step: when it opened (as the server saw it first) and
/// its deadline, unix seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeadlineRow {
    pub step: u32,
    pub opened: i64,
    pub deadline: i64,
}

/// Something done once per step and side: `warning-24`, `missed`, `waiting`,
/// `gm-missed`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    pub step: u32,
    pub side: SideId,
    pub what: String,
}

/// A declared absence, as instants in UTC and as the player wrote it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AbsenceRow {
    pub side: SideId,
    pub start: i64,
    pub end: i64,
    pub from_day: String,
    pub until_day: String,
}

/// Orders the server applied for a side, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppliedRow {
    /// The orders row's receipt sequence.
    pub seq: i64,
    pub policy: String,
    /// What the report says ("austrians sent no orders by the deadline: ...").
    pub note: String,
}

/// What passing a deadline changes, in one transaction.
#[derive(Clone, Debug, Default)]
pub struct DeadlinePass {
    /// Orders the server applied, with their policy and note.
    pub applied: Vec<(OrdersRow, String, String)>,
    /// New missed-in-a-row counts.
    pub missed: Vec<(SideId, u32)>,
    pub marks: Vec<Mark>,
    pub mails: Vec<OutboxRow>,
}

fn mark_rows(tx: &rusqlite::Connection, game: &str, marks: &[Mark], now: i64) -> Result<()> {
    for m in marks {
        tx.prepare_cached("INSERT OR IGNORE INTO life_marks (game, step, side, what, at) VALUES (?1, ?2, ?3, ?4, ?5)")?
.execute(
            params![game, m.step, m.side.as_str(), m.what, now],
        )?;
    }
    Ok(())
}

fn put_deadline(tx: &rusqlite::Connection, game: &str, d: &DeadlineRow) -> Result<()> {
    tx.prepare_cached(
        "INSERT INTO deadlines (game, step, opened, deadline) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (game, step) DO UPDATE SET deadline = excluded.deadline",
    )?
    .execute(params![game, d.step, d.opened, d.deadline])?;
    // Warnings count down to a deadline: a new deadline earns new ones.
    tx.prepare_cached(
        "DELETE FROM life_marks WHERE game = ?1 AND step = ?2 AND what LIKE 'warning-%'",
    )?
    .execute(params![game, d.step])?;
    Ok(())
}

impl Store {
    /// Store (or replace) a game's schedule, as checked YAML.
    pub fn set_schedule(&mut self, game: &str, yaml: &str) -> Result<()> {
        self.conn.prepare_cached("INSERT INTO schedules (game, yaml) VALUES (?1, ?2) ON CONFLICT (game) DO UPDATE SET yaml = excluded.yaml")?
.execute(
            params![game, yaml],
        )?;
        Ok(())
    }

    /// Remove a game's schedule (a creation that failed half-way under the
    /// same id may have left one).
    pub fn forget_schedule(&mut self, game: &str) -> Result<()> {
        self.conn
            .prepare_cached("DELETE FROM schedules WHERE game = ?1")?
            .execute([game])?;
        Ok(())
    }

    pub fn schedule(&self, game: &str) -> Result<Option<String>> {
        Ok(self
            .conn
            .prepare_cached("SELECT yaml FROM schedules WHERE game = ?1")?
            .query_row([game], |r| r.get(0))
            .optional()?)
    }

    pub fn deadline(&self, game: &str, step: u32) -> Result<Option<DeadlineRow>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT step, opened, deadline FROM deadlines WHERE game = ?1 AND step = ?2",
            )?
            .query_row(params![game, step], |r| {
                Ok(DeadlineRow {
                    step: r.get(0)?,
                    opened: r.get(1)?,
                    deadline: r.get(2)?,
                })
            })
            .optional()?)
    }

    /// Set or move a step's deadline (its warnings start again) and queue
    /// the mails that announce it.
    pub fn set_deadline(&mut self, game: &str, d: &DeadlineRow, mails: &[OutboxRow]) -> Result<()> {
        let tx = self.conn.savepoint()?;
        put_deadline(&tx, game, d)?;
        for m in mails {
            insert_outbox(&tx, m)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// When a mark was made, if it was.
    pub fn marked_at(
        &self,
        game: &str,
        step: u32,
        side: &SideId,
        what: &str,
    ) -> Result<Option<i64>> {
        Ok(self
            .conn
            .prepare_cached("SELECT at FROM life_marks WHERE game = ?1 AND step = ?2 AND side = ?3 AND what = ?4")?
.query_row(
                params![game, step, side.as_str(), what],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// Set a step's deadline and drop a mark, in one transaction (a paused
    /// game's clock starting again).
    pub fn set_deadline_unmark(&mut self, game: &str, d: &DeadlineRow, mark: &Mark) -> Result<()> {
        let tx = self.conn.savepoint()?;
        put_deadline(&tx, game, d)?;
        tx.prepare_cached(
            "DELETE FROM life_marks WHERE game = ?1 AND step = ?2 AND side = ?3 AND what = ?4",
        )?
        .execute(params![game, mark.step, mark.side.as_str(), mark.what])?;
        tx.commit()?;
        Ok(())
    }

    pub fn set_zone(&mut self, game: &str, side: &SideId, zone: &str) -> Result<()> {
        self.conn.prepare_cached("INSERT INTO zones (game, side, zone) VALUES (?1, ?2, ?3) ON CONFLICT (game, side) DO UPDATE SET zone = excluded.zone")?
.execute(
            params![game, side.as_str(), zone],
        )?;
        Ok(())
    }

    /// The zone a player chose, if any.
    pub fn zone(&self, game: &str, side: &SideId) -> Result<Option<String>> {
        Ok(self
            .conn
            .prepare_cached("SELECT zone FROM zones WHERE game = ?1 AND side = ?2")?
            .query_row(params![game, side.as_str()], |r| r.get(0))
            .optional()?)
    }

    /// Whether `what` was done for this step and side already.
    pub fn marked(&self, game: &str, step: u32, side: &SideId, what: &str) -> Result<bool> {
        Ok(self
            .conn
            .prepare_cached("SELECT 1 FROM life_marks WHERE game = ?1 AND step = ?2 AND side = ?3 AND what = ?4")?
.query_row(
                params![game, step, side.as_str(), what],
                |_| Ok(()),
            )
            .optional()?
            .is_some())
    }

    /// Record marks and queue the mails they stand for, all or nothing.
    pub fn record_marks(
        &mut self,
        game: &str,
        marks: &[Mark],
        mails: &[OutboxRow],
        now: i64,
    ) -> Result<()> {
        let tx = self.conn.savepoint()?;
        mark_rows(&tx, game, marks, now)?;
        for m in mails {
            insert_outbox(&tx, m)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// How many steps in a row a side has missed.
    pub fn missed_count(&self, game: &str, side: &SideId) -> Result<u32> {
        Ok(self
            .conn
            .prepare_cached("SELECT count FROM missed WHERE game = ?1 AND side = ?2")?
            .query_row(params![game, side.as_str()], |r| r.get(0))
            .optional()?
            .unwrap_or(0))
    }

    /// A side sent its own orders: its run of missed steps ends.
    pub fn reset_missed(&mut self, game: &str, side: &SideId) -> Result<()> {
        self.conn
            .prepare_cached("DELETE FROM missed WHERE game = ?1 AND side = ?2")?
            .execute(params![game, side.as_str()])?;
        Ok(())
    }

    /// Record a passed deadline: the orders the server applied, the missed
    /// counts, the marks and the mails, in one transaction.
    pub fn record_deadline_pass(
        &mut self,
        game: &str,
        pass: &DeadlinePass,
        now: i64,
    ) -> Result<()> {
        let tx = self.conn.savepoint()?;
        for (o, policy, note) in &pass.applied {
            tx.prepare_cached("INSERT INTO orders (game, step, side, file_name, text, signature, sha256) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")?
.execute(
                params![o.game, o.step, o.side.as_str(), o.file_name, o.text, o.signature, o.sha256],
            )?;
            let seq = tx.last_insert_rowid();
            super::envelopes::insert(&tx, seq, o.notice.as_deref(), o.revision)?;
            tx.prepare_cached("INSERT INTO applied_orders (seq, game, step, side, policy, note) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")?
.execute(
                params![seq, o.game, o.step, o.side.as_str(), policy, note],
            )?;
        }
        for (side, count) in &pass.missed {
            tx.prepare_cached("INSERT INTO missed (game, side, count) VALUES (?1, ?2, ?3) ON CONFLICT (game, side) DO UPDATE SET count = excluded.count")?
.execute(
                params![game, side.as_str(), count],
            )?;
        }
        mark_rows(&tx, game, &pass.marks, now)?;
        for m in &pass.mails {
            insert_outbox(&tx, m)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// The orders the server applied in a step, by side.
    pub fn applied_orders(&self, game: &str, step: u32) -> Result<BTreeMap<SideId, AppliedRow>> {
        let mut st = self.conn.prepare_cached(
            "SELECT side, seq, policy, note FROM applied_orders WHERE game = ?1 AND step = ?2 ORDER BY seq",
        )?;
        let rows = st.query_map(params![game, step], |r| {
            Ok((
                SideId(r.get(0)?),
                AppliedRow {
                    seq: r.get(1)?,
                    policy: r.get(2)?,
                    note: r.get(3)?,
                },
            ))
        })?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    }

    /// A side's own latest orders from a step before `step` (never orders
    /// the server applied for it).
    pub fn earlier_own_orders(
        &self,
        game: &str,
        side: &SideId,
        step: u32,
    ) -> Result<Option<OrdersRow>> {
        Ok(self
            .conn
            .prepare_cached(&format!("SELECT {} WHERE o.game = ?1 AND o.side = ?2 AND o.step < ?3 AND o.seq NOT IN (SELECT seq FROM applied_orders)
                 ORDER BY o.seq DESC LIMIT 1", super::ORDERS_COLUMNS))?
.query_row(
                params![game, side.as_str(), step],
                OrdersRow::read,
            )
            .optional()?)
    }

    /// Every absence a side (or, with none, any side) declared in a game.
    pub fn absences(&self, game: &str, side: Option<&SideId>) -> Result<Vec<AbsenceRow>> {
        let mut st = self.conn.prepare_cached(
            "SELECT side, start, end, from_day, until_day FROM absences WHERE game = ?1 AND (?2 IS NULL OR side = ?2) ORDER BY id",
        )?;
        let rows = st.query_map(params![game, side.map(|s| s.as_str())], |r| {
            Ok(AbsenceRow {
                side: SideId(r.get(0)?),
                start: r.get(1)?,
                end: r.get(2)?,
                from_day: r.get(3)?,
                until_day: r.get(4)?,
            })
        })?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    }

    /// Record an absence and, when it moves the open step's deadline, the new one.
    pub fn add_absence(
        &mut self,
        game: &str,
        a: &AbsenceRow,
        moved: Option<&DeadlineRow>,
        now: i64,
    ) -> Result<()> {
        let tx = self.conn.savepoint()?;
        tx.prepare_cached("INSERT INTO absences (game, side, start, end, from_day, until_day, declared) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")?
.execute(
            params![game, a.side.as_str(), a.start, a.end, a.from_day, a.until_day, now],
        )?;
        if let Some(d) = moved {
            put_deadline(&tx, game, d)?;
        }
        tx.commit()?;
        Ok(())
    }
}

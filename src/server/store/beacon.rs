//! The beacon's part of the store: which chain a game's steps take their
//! rounds from, and the verified round each step used (protocol version 2,
//! docs/DICE.md).

use super::{Result, StepRow, Store, StoreError};
use crate::dice::beacon::Round;
use rusqlite::{OptionalExtension, params};

pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS beacon_games (game TEXT PRIMARY KEY, chain TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS beacon_rounds (game TEXT NOT NULL, step INTEGER NOT NULL, round INTEGER NOT NULL,
  signature BLOB NOT NULL, PRIMARY KEY (game, step));
CREATE TABLE IF NOT EXISTS beacon_named (game TEXT NOT NULL, step INTEGER NOT NULL, run INTEGER NOT NULL,
  named TEXT NOT NULL, PRIMARY KEY (game, step, run));
";

impl Store {
    /// The round named (as YAML) in the notice of the `run`-th opening of
    /// `step`: the first one `name()` gave, kept, so that a retried notice
    /// names the same round even though the clock moved (a notice once
    /// written is never drawn again).
    pub fn named_round(
        &self,
        game: &str,
        step: u32,
        run: u32,
        name: impl FnOnce() -> anyhow::Result<String>,
    ) -> anyhow::Result<String> {
        let found: Option<String> = self
            .conn
            .prepare_cached(
                "SELECT named FROM beacon_named WHERE game = ?1 AND step = ?2 AND run = ?3",
            )?
            .query_row(params![game, step, run], |r| r.get(0))
            .optional()
            .map_err(StoreError::from)?;
        if let Some(named) = found {
            return Ok(named);
        }
        let named = name()?;
        self.conn
            .prepare_cached(
                "INSERT INTO beacon_named (game, step, run, named) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![game, step, run, named])
            .map_err(StoreError::from)?;
        Ok(named)
    }

    /// Record that `game` names rounds of `chain` (before the game's first
    /// step is stored, so that no step of it opens without a round).
    pub fn set_beacon_chain(&mut self, game: &str, chain: &str) -> Result<()> {
        self.conn
            .prepare_cached("INSERT OR REPLACE INTO beacon_games (game, chain) VALUES (?1, ?2)")?
            .execute(params![game, chain])?;
        Ok(())
    }

    /// Forget a game's chain (left by a creation that failed half-way).
    pub fn forget_beacon_chain(&mut self, game: &str) -> Result<()> {
        self.conn
            .prepare_cached("DELETE FROM beacon_games WHERE game = ?1")?
            .execute([game])?;
        Ok(())
    }

    /// The chain a game's steps take their rounds from; none for a game of
    /// protocol version 1.
    pub fn beacon_chain(&self, game: &str) -> Result<Option<String>> {
        Ok(self
            .conn
            .prepare_cached("SELECT chain FROM beacon_games WHERE game = ?1")?
            .query_row([game], |r| r.get(0))
            .optional()?)
    }

    /// Keep the verified round a step's seeds use. A step reopened after a
    /// rollback names a later round, which replaces this one.
    pub fn record_beacon_round(&mut self, game: &str, step: u32, round: &Round) -> Result<()> {
        let n = i64::try_from(round.round)
            .map_err(|_| StoreError::Damaged(format!("round {} is too large", round.round)))?;
        self.conn.prepare_cached("INSERT OR REPLACE INTO beacon_rounds (game, step, round, signature) VALUES (?1, ?2, ?3, ?4)")?
.execute(
            params![game, step, n, round.signature],
        )?;
        Ok(())
    }

    /// Give each step its recorded round, if it has one.
    pub(super) fn fill_beacon_rounds(&self, game: &str, steps: &mut [StepRow]) -> Result<()> {
        let mut st = self.conn.prepare_cached(
            "SELECT round, signature FROM beacon_rounds WHERE game = ?1 AND step = ?2",
        )?;
        for s in steps {
            s.beacon = st
                .query_row(params![game, s.step], |r| {
                    Ok((r.get::<_, i64>(0)?, r.get::<_, Vec<u8>>(1)?))
                })
                .optional()?
                .map(|(round, signature)| Round {
                    round: round.max(0) as u64,
                    signature,
                });
        }
        Ok(())
    }
}

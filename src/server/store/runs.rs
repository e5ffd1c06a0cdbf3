//! Secrets drawn for a notice, and the runs of a step the game master
//! rolled back.
//!
//! A notice is written to the archive before the store's commit that opens
//! its step (so that a crash can never leave a step open whose notice was
//! lost). Its secrets are therefore stored first, on their own, in `drawn`:
//! a retry, or a restart after a crash between the archive's write and the
//! commit, finds them there and writes the very same notice again instead
//! of drawing a second one. `undone` keeps each rolled-back run's secrets
//! and result, for the archive's `sealed/` when the game ends.

use super::{Result, StepRow, Store, StoreError, secret};
use rusqlite::{OptionalExtension, params};

pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS drawn (game TEXT NOT NULL, step INTEGER NOT NULL, run INTEGER NOT NULL,
  public_secret BLOB NOT NULL, hidden_secret BLOB NOT NULL, PRIMARY KEY (game, step, run));
CREATE TABLE IF NOT EXISTS undone (game TEXT NOT NULL, step INTEGER NOT NULL, run INTEGER NOT NULL,
  public_secret BLOB NOT NULL, hidden_secret BLOB NOT NULL, state_before TEXT NOT NULL, notice TEXT NOT NULL,
  notice_sig TEXT NOT NULL, state_after TEXT NOT NULL, events TEXT NOT NULL, dice TEXT NOT NULL,
  PRIMARY KEY (game, step, run));
CREATE TABLE IF NOT EXISTS reopened (game TEXT NOT NULL, step INTEGER NOT NULL, run INTEGER NOT NULL,
  PRIMARY KEY (game, step, run));
";

/// The two secrets of one opening of a step.
pub type Secrets = ([u8; 32], [u8; 32]);

impl Store {
    /// The secrets drawn for a step's run, if they were.
    pub fn drawn(&self, game: &str, step: u32, run: u32) -> anyhow::Result<Option<Secrets>> {
        let found = self
            .conn
            .prepare_cached("SELECT public_secret, hidden_secret FROM drawn WHERE game = ?1 AND step = ?2 AND run = ?3")?
.query_row(
                params![game, step, run],
                |r| Ok((r.get::<_, Vec<u8>>(0)?, r.get::<_, Vec<u8>>(1)?)),
            )
            .optional()
            .map_err(StoreError::from)?;
        match found {
            Some((p, h)) => Ok(Some((secret(p)?, secret(h)?))),
            None => Ok(None),
        }
    }

    /// The secrets of the `run`-th opening of `step`: those drawn before,
    /// if any, else `draw()`'s, stored before they are returned. Outside a
    /// group of writes they are durable on return; inside one they become
    /// durable with the group, so a notice must then wait for its commit
    /// ([`Store::in_group`]).
    pub fn secrets_for(
        &mut self,
        game: &str,
        step: u32,
        run: u32,
        draw: impl FnOnce() -> std::io::Result<Secrets>,
    ) -> anyhow::Result<Secrets> {
        if let Some(found) = self.drawn(game, step, run)? {
            return Ok(found);
        }
        let (p, h) = draw().map_err(|e| {
            anyhow::anyhow!("the operating system gave no randomness for a step's secrets: {e}")
        })?;
        self.conn
            .prepare_cached("INSERT INTO drawn (game, step, run, public_secret, hidden_secret) VALUES (?1, ?2, ?3, ?4, ?5)")?
.execute(
                params![game, step, run, p.to_vec(), h.to_vec()],
            )
            .map_err(StoreError::from)?;
        Ok((p, h))
    }

    /// Whether a group of writes is open (its writes not yet durable).
    pub fn in_group(&self) -> bool {
        !self.conn.is_autocommit()
    }

    /// How many runs of a step were withdrawn (rolled back, or opened
    /// again when a beacon step's orders closed unanswered): the next run
    /// of the step is one more.
    pub fn withdrawn_runs(&self, game: &str, step: u32) -> Result<u32> {
        let reopened: u32 = self
            .conn
            .prepare_cached("SELECT COUNT(*) FROM reopened WHERE game = ?1 AND step = ?2")?
            .query_row(params![game, step], |r| r.get(0))?;
        Ok(self.undone_runs(game, step)? + reopened)
    }

    /// How many runs of a step were rolled back.
    pub fn undone_runs(&self, game: &str, step: u32) -> Result<u32> {
        Ok(self
            .conn
            .prepare_cached("SELECT COUNT(*) FROM undone WHERE game = ?1 AND step = ?2")?
            .query_row(params![game, step], |r| r.get(0))?)
    }

    /// Every rolled-back run of a game: (step, run, the run as it was).
    pub fn undone(&self, game: &str) -> Result<Vec<(u32, u32, StepRow)>> {
        let mut st = self.conn.prepare_cached(
            "SELECT step, run, public_secret, hidden_secret, state_before, notice, notice_sig, state_after, events, dice
             FROM undone WHERE game = ?1 ORDER BY step, run",
        )?;
        let rows = st.query_map([game], |r| {
            Ok((
                r.get::<_, u32>(0)?,
                r.get::<_, u32>(1)?,
                r.get::<_, Vec<u8>>(2)?,
                r.get::<_, Vec<u8>>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, String>(5)?,
                r.get::<_, String>(6)?,
                r.get::<_, String>(7)?,
                r.get::<_, String>(8)?,
                r.get::<_, String>(9)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (step, run, p, h, before, notice, notice_sig, after, events, dice) = row?;
            out.push((
                step,
                run,
                StepRow {
                    game: game.into(),
                    step,
                    public_secret: secret(p)?,
                    hidden_secret: secret(h)?,
                    state_before: before,
                    notice,
                    notice_sig,
                    beacon: None,
                    result: Some(super::StepResult {
                        state_after: after,
                        events,
                        dice,
                    }),
                },
            ));
        }
        Ok(out)
    }
}

/// Inside a rollback's transaction: keep the resolved run of `step` as
/// undone run `run`, and open the step again as `reopened` (fresh secrets,
/// a new notice). Secrets drawn for later steps go with those steps.
pub(super) fn undo(
    tx: &rusqlite::Connection,
    game: &str,
    step: u32,
    run: u32,
    reopened: &StepRow,
) -> Result<()> {
    let n = tx.prepare_cached("INSERT INTO undone (game, step, run, public_secret, hidden_secret, state_before, notice, notice_sig, state_after, events, dice)
         SELECT game, step, ?3, public_secret, hidden_secret, state_before, notice, notice_sig, state_after, events, dice
         FROM steps WHERE game = ?1 AND step = ?2 AND state_after IS NOT NULL")?
.execute(
        params![game, step, run],
    )?;
    if n != 1 {
        return Err(StoreError::Damaged(format!(
            "the resolved step {step} of game {game} not found"
        )));
    }
    tx.prepare_cached("UPDATE steps SET public_secret = ?3, hidden_secret = ?4, notice = ?5, notice_sig = ?6 WHERE game = ?1 AND step = ?2")?
.execute(
        params![
            game,
            step,
            reopened.public_secret.to_vec(),
            reopened.hidden_secret.to_vec(),
            reopened.notice,
            reopened.notice_sig
        ],
    )?;
    tx.prepare_cached("DELETE FROM drawn WHERE game = ?1 AND step > ?2")?
        .execute(params![game, step])?;
    Ok(())
}

impl Store {
    /// Open an unresolved step again as a new run (`reopened`: fresh
    /// secrets, a new notice): a beacon step whose orders closed while a
    /// side still owed them. Its orders, deadline and marks go with the
    /// withdrawn run, and its mails are queued, all or nothing.
    pub fn reopen_step(&mut self, reopened: &StepRow, mails: &[super::OutboxRow]) -> Result<()> {
        let (game, step) = (reopened.game.as_str(), reopened.step);
        let tx = self.conn.savepoint()?;
        let n = tx.prepare_cached("UPDATE steps SET public_secret = ?3, hidden_secret = ?4, notice = ?5, notice_sig = ?6 WHERE game = ?1 AND step = ?2 AND state_after IS NULL")?
.execute(
            params![
                game,
                step,
                reopened.public_secret.to_vec(),
                reopened.hidden_secret.to_vec(),
                reopened.notice,
                reopened.notice_sig
            ],
        )?;
        if n != 1 {
            return Err(StoreError::Damaged(format!(
                "step {step} of game {game} is not open"
            )));
        }
        let run = crate::yaml::from_str::<crate::archive::Notice>(&reopened.notice)
            .map_err(|e| StoreError::Damaged(format!("the new notice does not parse: {e}")))?
            .run;
        tx.prepare_cached("INSERT INTO reopened (game, step, run) VALUES (?1, ?2, ?3)")?
            .execute(params![game, step, run.saturating_sub(1)])?;
        for sql in [
            "DELETE FROM applied_orders WHERE game = ?1 AND step = ?2",
            "DELETE FROM receipts WHERE seq IN (SELECT seq FROM orders WHERE game = ?1 AND step = ?2)",
            "DELETE FROM orders WHERE game = ?1 AND step = ?2",
            "DELETE FROM deadlines WHERE game = ?1 AND step = ?2",
            "DELETE FROM life_marks WHERE game = ?1 AND step = ?2",
        ] {
            tx.prepare_cached(sql)?.execute(params![game, step])?;
        }
        for m in mails {
            super::insert_outbox(&tx, m)?;
        }
        tx.commit()?;
        Ok(())
    }
}

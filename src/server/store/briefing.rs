//! Games whose players still wait for the mail that comes before the first
//! move (`game::briefing`). A game is put here when it is created, in the
//! same transaction; the daemon takes it out in the transaction that queues
//! the mails, so each player gets his briefing once.

use super::{OutboxRow, Result, Store, insert_outbox};
use rusqlite::params;

pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS briefings_due (game TEXT PRIMARY KEY);
";

/// Put `game` among those owed a briefing (inside `create_game`).
pub(super) fn owe(tx: &rusqlite::Connection, game: &str) -> Result<()> {
    tx.prepare_cached("INSERT OR IGNORE INTO briefings_due (game) VALUES (?1)")?
        .execute(params![game])?;
    Ok(())
}

impl Store {
    /// Games whose briefing mails are not queued yet, by id.
    pub fn briefings_due(&self) -> Result<Vec<String>> {
        let mut st = self
            .conn
            .prepare("SELECT game FROM briefings_due ORDER BY game")?;
        let rows = st.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Queue a game's briefing mails and strike it from the games owed one,
    /// together.
    pub fn queue_briefings(&mut self, game: &str, mails: &[OutboxRow]) -> Result<()> {
        let tx = self.conn.savepoint()?;
        for m in mails {
            insert_outbox(&tx, m)?;
        }
        tx.prepare_cached("DELETE FROM briefings_due WHERE game = ?1")?
            .execute(params![game])?;
        tx.commit()?;
        Ok(())
    }
}

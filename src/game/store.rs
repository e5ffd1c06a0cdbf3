//! The embedded store: one SQLite file per server.
//!
//! SQLite (bundled, WAL, `synchronous=FULL`) because every acceptance must
//! survive a power cut at any instant and several records change together
//! (a step's result and the next step's committed secrets); a transaction
//! gives that for free, where plain files would need a journal of our own.

use crate::side::SideId;
use rusqlite::{Connection, OptionalExtension, params};
use std::collections::BTreeMap;
use std::path::Path;

pub type Result<T> = std::result::Result<T, StoreError>;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0} (is the data folder writable, and not used by another galloper?)")]
    Sql(#[from] rusqlite::Error),
    #[error("stored data is damaged: {0}")]
    Damaged(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    pub id: String,
    pub ruleset: String,
    pub scenario: String,
    /// `active` or `over`.
    pub status: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRow {
    pub game: String,
    pub side: SideId,
    pub email: String,
    pub public_key: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StepRow {
    pub game: String,
    pub step: u32,
    pub public_secret: [u8; 32],
    pub hidden_secret: [u8; 32],
    pub state_before: String,
    /// The signed notice that opened the step (YAML) and its signature.
    pub notice: String,
    pub notice_sig: String,
    pub result: Option<StepResult>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StepResult {
    pub state_after: String,
    pub events: String,
    pub dice: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct OrdersRow {
    pub seq: i64,
    pub game: String,
    pub step: u32,
    pub side: SideId,
    pub file_name: String,
    pub text: Vec<u8>,
    pub signature: String,
    pub sha256: String,
}

pub struct Store {
    conn: Connection,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, ruleset TEXT NOT NULL, scenario TEXT NOT NULL, status TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (game TEXT NOT NULL, side TEXT NOT NULL, email TEXT NOT NULL, public_key TEXT NOT NULL, PRIMARY KEY (game, side));
CREATE TABLE IF NOT EXISTS steps (game TEXT NOT NULL, step INTEGER NOT NULL, public_secret BLOB NOT NULL, hidden_secret BLOB NOT NULL,
  state_before TEXT NOT NULL, notice TEXT NOT NULL, notice_sig TEXT NOT NULL,
  state_after TEXT, events TEXT, dice TEXT, PRIMARY KEY (game, step));
CREATE TABLE IF NOT EXISTS orders (seq INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL, step INTEGER NOT NULL, side TEXT NOT NULL,
  file_name TEXT NOT NULL, text BLOB NOT NULL, signature TEXT NOT NULL, sha256 TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS orders_by_step ON orders (game, step, side, seq);
";

fn secret(v: Vec<u8>) -> Result<[u8; 32]> {
    v.try_into()
        .map_err(|_| StoreError::Damaged("a step secret is not 32 bytes".into()))
}

impl Store {
    pub fn open(path: &Path) -> Result<Store> {
        let conn = Connection::open(path)?;
        conn.execute_batch(
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;",
        )?;
        conn.execute_batch(SCHEMA)?;
        Ok(Store { conn })
    }

    /// Create a game with its players and its first step, all or nothing.
    pub fn create_game(
        &mut self,
        g: &GameRow,
        players: &[PlayerRow],
        first: &StepRow,
    ) -> Result<()> {
        let tx = self.conn.transaction()?;
        tx.execute(
            "INSERT INTO games (id, ruleset, scenario, status) VALUES (?1, ?2, ?3, ?4)",
            params![g.id, g.ruleset, g.scenario, g.status],
        )?;
        for p in players {
            tx.execute(
                "INSERT INTO players (game, side, email, public_key) VALUES (?1, ?2, ?3, ?4)",
                params![p.game, p.side.as_str(), p.email, p.public_key],
            )?;
        }
        insert_step(&tx, first)?;
        tx.commit()?;
        Ok(())
    }

    pub fn game(&self, id: &str) -> Result<Option<GameRow>> {
        Ok(self
            .conn
            .query_row(
                "SELECT id, ruleset, scenario, status FROM games WHERE id = ?1",
                [id],
                |r| {
                    Ok(GameRow {
                        id: r.get(0)?,
                        ruleset: r.get(1)?,
                        scenario: r.get(2)?,
                        status: r.get(3)?,
                    })
                },
            )
            .optional()?)
    }

    pub fn games(&self) -> Result<Vec<GameRow>> {
        let mut st = self
            .conn
            .prepare("SELECT id, ruleset, scenario, status FROM games ORDER BY id")?;
        let rows = st.query_map([], |r| {
            Ok(GameRow {
                id: r.get(0)?,
                ruleset: r.get(1)?,
                scenario: r.get(2)?,
                status: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    }

    pub fn players(&self, game: &str) -> Result<Vec<PlayerRow>> {
        let mut st = self.conn.prepare(
            "SELECT game, side, email, public_key FROM players WHERE game = ?1 ORDER BY side",
        )?;
        let rows = st.query_map([game], |r| {
            Ok(PlayerRow {
                game: r.get(0)?,
                side: SideId(r.get(1)?),
                email: r.get(2)?,
                public_key: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    }

    pub fn steps(&self, game: &str) -> Result<Vec<StepRow>> {
        let mut st = self.conn.prepare(
            "SELECT game, step, public_secret, hidden_secret, state_before, notice, notice_sig, state_after, events, dice FROM steps WHERE game = ?1 ORDER BY step",
        )?;
        let rows = st.query_map([game], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, u32>(1)?,
                r.get::<_, Vec<u8>>(2)?,
                r.get::<_, Vec<u8>>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, String>(5)?,
                r.get::<_, String>(6)?,
                r.get::<_, Option<String>>(7)?,
                r.get::<_, Option<String>>(8)?,
                r.get::<_, Option<String>>(9)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (game, step, p, h, before, notice, sig, after, events, dice) = row?;
            let result = match (after, events, dice) {
                (Some(state_after), Some(events), Some(dice)) => Some(StepResult {
                    state_after,
                    events,
                    dice,
                }),
                _ => None,
            };
            out.push(StepRow {
                game,
                step,
                public_secret: secret(p)?,
                hidden_secret: secret(h)?,
                state_before: before,
                notice,
                notice_sig: sig,
                result,
            });
        }
        Ok(out)
    }

    /// The open (unresolved) step of a game.
    pub fn open_step(&self, game: &str) -> Result<Option<StepRow>> {
        Ok(self.steps(game)?.into_iter().find(|s| s.result.is_none()))
    }

    /// Record accepted orders; returns the sha256 of the orders they replace.
    pub fn accept_orders(&mut self, o: &OrdersRow) -> Result<Option<String>> {
        let tx = self.conn.transaction()?;
        let replaced: Option<String> = tx
            .query_row(
                "SELECT sha256 FROM orders WHERE game = ?1 AND step = ?2 AND side = ?3 ORDER BY seq DESC LIMIT 1",
                params![o.game, o.step, o.side.as_str()],
                |r| r.get(0),
            )
            .optional()?;
        tx.execute(
            "INSERT INTO orders (game, step, side, file_name, text, signature, sha256) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![o.game, o.step, o.side.as_str(), o.file_name, o.text, o.signature, o.sha256],
        )?;
        tx.commit()?;
        Ok(replaced)
    }

    /// The latest accepted orders of each side for a step (by receipt order).
    pub fn latest_orders(&self, game: &str, step: u32) -> Result<BTreeMap<SideId, OrdersRow>> {
        let mut st = self.conn.prepare(
            "SELECT seq, game, step, side, file_name, text, signature, sha256 FROM orders WHERE game = ?1 AND step = ?2 ORDER BY seq",
        )?;
        let rows = st.query_map(params![game, step], |r| {
            Ok(OrdersRow {
                seq: r.get(0)?,
                game: r.get(1)?,
                step: r.get(2)?,
                side: SideId(r.get(3)?),
                file_name: r.get(4)?,
                text: r.get(5)?,
                signature: r.get(6)?,
                sha256: r.get(7)?,
            })
        })?;
        let mut out = BTreeMap::new();
        for row in rows {
            let row = row?;
            out.insert(row.side.clone(), row);
        }
        Ok(out)
    }

    /// Record a step's result and open the next step (or end the game) in one transaction.
    pub fn finish_step(
        &mut self,
        game: &str,
        step: u32,
        result: &StepResult,
        next: Option<&StepRow>,
    ) -> Result<()> {
        let tx = self.conn.transaction()?;
        let n = tx.execute(
            "UPDATE steps SET state_after = ?3, events = ?4, dice = ?5 WHERE game = ?1 AND step = ?2 AND state_after IS NULL",
            params![game, step, result.state_after, result.events, result.dice],
        )?;
        if n != 1 {
            return Err(StoreError::Damaged(format!(
                "step {step} of {game} is not open"
            )));
        }
        match next {
            Some(s) => insert_step(&tx, s)?,
            None => {
                tx.execute("UPDATE games SET status = 'over' WHERE id = ?1", [game])?;
            }
        }
        tx.commit()?;
        Ok(())
    }
}

fn insert_step(tx: &rusqlite::Transaction<'_>, s: &StepRow) -> Result<()> {
    tx.execute(
        "INSERT INTO steps (game, step, public_secret, hidden_secret, state_before, notice, notice_sig) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![s.game, s.step, s.public_secret.to_vec(), s.hidden_secret.to_vec(), s.state_before, s.notice, s.notice_sig],
    )?;
    Ok(())
}

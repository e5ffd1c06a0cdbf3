//! The embedded store: one SQLite file per server.
//!
//! SQLite (bundled, WAL, `synchronous=FULL`) because every acceptance must
//! survive a power cut at any instant and several records change together
//! (a step's result and the next step's committed secrets); a transaction
//! gives that for free, where plain files would need a journal of our own.

mod admin;
mod beacon;
mod briefing;
mod edge;
mod envelopes;
mod life;
mod recipient;
mod runs;

pub use envelopes::{Stamp, stamp_of};
pub use life::{AbsenceRow, AppliedRow, DeadlinePass, DeadlineRow, Mark};
pub use runs::Secrets;

use crate::side::SideId;
use rusqlite::{Connection, OptionalExtension, params};
use std::collections::BTreeMap;
use std::path::Path;

pub type Result<T> = std::result::Result<T, StoreError>;

pub use admin::{AdminChange, CommandRow};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0} (is the data folder writable, and not used by another galloper?)")]
    Sql(#[from] rusqlite::Error),
    #[error("stored data is damaged: {0}")]
    Damaged(String),
    #[error("cannot create the store: {0} (is the data folder writable?)")]
    Create(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    pub id: String,
    pub ruleset: String,
    pub scenario: String,
    pub status: GameStatus,
}

/// Where a game stands. A paused game takes orders but resolves nothing
/// and has no deadline running; an over game takes nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameStatus {
    Active,
    Paused,
    Over,
}

impl GameStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Active => "active",
            GameStatus::Paused => "paused",
            GameStatus::Over => "over",
        }
    }
}

impl rusqlite::types::FromSql for GameStatus {
    fn column_result(v: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        match v.as_str()? {
            "active" => Ok(GameStatus::Active),
            "paused" => Ok(GameStatus::Paused),
            "over" => Ok(GameStatus::Over),
            other => Err(rusqlite::types::FromSqlError::Other(
                format!("unknown game status {other:?}").into(),
            )),
        }
    }
}

impl rusqlite::types::ToSql for GameStatus {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(self.as_str().into())
    }
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
    /// The verified beacon round the step's seeds use (protocol version 2);
    /// none in a game without a beacon, and until the round is fetched.
    pub beacon: Option<crate::dice::beacon::Round>,
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
    /// When the server received the file (unix seconds): what a beacon
    /// step's close of orders is checked against. None for files stored
    /// before receipts were kept, and for files that were never mailed
    /// (a replay's, the audit's).
    pub received: Option<i64>,
    /// The file's `notice:` and `revision:` (None where it names none),
    /// stored beside it so that the freshness check parses no earlier file.
    pub notice: Option<String>,
    pub revision: Option<u32>,
}

/// The columns [`OrdersRow::read`] reads, from `orders o` joined with its
/// receipt `r`.
pub(super) const ORDERS_COLUMNS: &str = "o.seq, o.game, o.step, o.side, o.file_name, o.text, o.signature, o.sha256, r.at, e.seq IS NOT NULL, e.notice, e.revision FROM orders o LEFT JOIN receipts r ON r.seq = o.seq LEFT JOIN envelopes e ON e.seq = o.seq";

impl OrdersRow {
    /// A row of `SELECT {ORDERS_COLUMNS}`.
    pub(super) fn read(r: &rusqlite::Row) -> rusqlite::Result<OrdersRow> {
        let file_name: String = r.get(4)?;
        let text: Vec<u8> = r.get(5)?;
        // A file stored by an older galloper since the store was opened
        // has no stamp yet: read from its text.
        let (notice, revision) = if r.get(9)? {
            (r.get(10)?, r.get(11)?)
        } else {
            stamp_of(&file_name, &text)
        };
        Ok(OrdersRow {
            seq: r.get(0)?,
            game: r.get(1)?,
            step: r.get(2)?,
            side: SideId(r.get(3)?),
            file_name,
            text,
            signature: r.get(6)?,
            sha256: r.get(7)?,
            received: r.get(8)?,
            notice,
            revision,
        })
    }
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
CREATE INDEX IF NOT EXISTS orders_by_sha256 ON orders (game, step, side, sha256);
CREATE TABLE IF NOT EXISTS receipts (seq INTEGER PRIMARY KEY, at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS inbox (key TEXT PRIMARY KEY, seq INTEGER NOT NULL, sender TEXT, game TEXT, outcome TEXT NOT NULL, detail TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, message_id TEXT UNIQUE NOT NULL, game TEXT, step INTEGER,
  reader TEXT, kind TEXT NOT NULL, sender TEXT NOT NULL, recipients TEXT NOT NULL, bytes BLOB NOT NULL, status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0, next_attempt INTEGER NOT NULL, queued_at INTEGER NOT NULL, sent_at INTEGER, last_error TEXT);
CREATE INDEX IF NOT EXISTS outbox_due ON outbox (status, next_attempt);
CREATE INDEX IF NOT EXISTS inbox_by_seq ON inbox (seq);
CREATE INDEX IF NOT EXISTS replies_by_recipient ON outbox (recipients, kind, queued_at);
CREATE TABLE IF NOT EXISTS outbox_mailbox (id INTEGER PRIMARY KEY, mailbox TEXT NOT NULL, kind TEXT NOT NULL, queued_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS outbox_by_mailbox ON outbox_mailbox (mailbox, kind, queued_at);
";

/// The condition that picks a game's open step.
const OPEN_STEP: &str = "AND (state_after IS NULL OR events IS NULL OR dice IS NULL)";

/// Prepared statements kept compiled (see [`Store::open`]).
const STATEMENTS_KEPT: usize = 128;

fn secret(v: Vec<u8>) -> Result<[u8; 32]> {
    v.try_into()
        .map_err(|_| StoreError::Damaged("a step secret is not 32 bytes".into()))
}

impl Store {
    pub fn open(path: &Path) -> Result<Store> {
        // SQLite would make the file 0644 less the umask; made here first,
        // it is 0600 from its first byte, and SQLite gives its -wal and
        // -shm files the database's own mode.
        if !path.exists() {
            match crate::files::create_new(path) {
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => {
                    return Err(StoreError::Create(format!("{}: {e}", path.display())));
                }
            }
        }
        let mut conn = Connection::open(path)?;
        conn.execute_batch(
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;",
        )?;
        // One message's intake runs some thirty distinct statements; with
        // rusqlite's default of 16 kept, each was compiled anew every time.
        conn.set_prepared_statement_cache_capacity(STATEMENTS_KEPT);
        conn.execute_batch(SCHEMA)?;
        conn.execute_batch(life::SCHEMA)?;
        conn.execute_batch(admin::SCHEMA)?;
        conn.execute_batch(runs::SCHEMA)?;
        conn.execute_batch(beacon::SCHEMA)?;
        conn.execute_batch(briefing::SCHEMA)?;
        conn.execute_batch(edge::SCHEMA)?;
        conn.execute_batch(envelopes::SCHEMA)?;
        let filled = envelopes::fill(&mut conn)?;
        if filled > 0 {
            tracing::info!(
                files = filled,
                "the notice and revision of stored orders files recorded"
            );
        }
        Ok(Store { conn })
    }

    /// Open a group of writes that [`Store::commit_group`] makes durable
    /// with one sync: the intake's way to pay one fsync for many messages.
    /// Every write method works inside a group (each is a savepoint).
    pub fn begin_group(&mut self) -> Result<()> {
        Ok(self.conn.execute_batch("BEGIN IMMEDIATE")?)
    }

    /// Commit the open group: everything in it is durable on return.
    pub fn commit_group(&mut self) -> Result<()> {
        Ok(self.conn.execute_batch("COMMIT")?)
    }

    /// Drop the open group's writes (after an error in it).
    pub fn rollback_group(&mut self) -> Result<()> {
        Ok(self.conn.execute_batch("ROLLBACK")?)
    }

    /// Create a game with its players and its first step, all or nothing.
    pub fn create_game(
        &mut self,
        g: &GameRow,
        players: &[PlayerRow],
        first: &StepRow,
    ) -> Result<()> {
        let tx = self.conn.savepoint()?;
        tx.prepare_cached(
            "INSERT INTO games (id, ruleset, scenario, status) VALUES (?1, ?2, ?3, ?4)",
        )?
        .execute(params![g.id, g.ruleset, g.scenario, g.status])?;
        for p in players {
            tx.prepare_cached(
                "INSERT INTO players (game, side, email, public_key) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![p.game, p.side.as_str(), p.email, p.public_key])?;
        }
        insert_step(&tx, first)?;
        briefing::owe(&tx, &g.id)?;
        tx.commit()?;
        Ok(())
    }

    pub fn game(&self, id: &str) -> Result<Option<GameRow>> {
        Ok(self
            .conn
            .prepare_cached("SELECT id, ruleset, scenario, status FROM games WHERE id = ?1")?
            .query_row([id], |r| {
                Ok(GameRow {
                    id: r.get(0)?,
                    ruleset: r.get(1)?,
                    scenario: r.get(2)?,
                    status: r.get(3)?,
                })
            })
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
        let mut st = self.conn.prepare_cached(
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
        self.select_steps(game, "")
    }

    /// The steps of `game` that pass the SQL condition `and` (empty for
    /// all, else starting with AND), in step order.
    fn select_steps(&self, game: &str, and: &str) -> Result<Vec<StepRow>> {
        self.select_steps_with(game, and, true)
    }

    /// [`Store::select_steps`], with the steps' beacon rounds or not.
    fn select_steps_with(&self, game: &str, and: &str, rounds: bool) -> Result<Vec<StepRow>> {
        let mut st = self.conn.prepare_cached(&format!(
            "SELECT game, step, public_secret, hidden_secret, state_before, notice, notice_sig, state_after, events, dice FROM steps WHERE game = ?1 {and} ORDER BY step"
        ))?;
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
                beacon: None,
            });
        }
        if rounds {
            self.fill_beacon_rounds(game, &mut out)?;
        }
        Ok(out)
    }

    /// The open (unresolved) step of a game.
    pub fn open_step(&self, game: &str) -> Result<Option<StepRow>> {
        // Read only the unresolved steps: a long game has hundreds of states.
        Ok(self.select_steps(game, OPEN_STEP)?.into_iter().next())
    }

    /// The number of a game's open step, without its row (states can be
    /// megabytes): what a reply's deadline lines need.
    pub fn open_step_number(&self, game: &str) -> Result<Option<u32>> {
        Ok(self
            .conn
            .prepare_cached(&format!(
                "SELECT step FROM steps WHERE game = ?1 {OPEN_STEP} ORDER BY step LIMIT 1"
            ))?
            .query_row([game], |r| r.get(0))
            .optional()?)
    }

    /// The open step of a game as an orders file is checked against it:
    /// without its beacon round (the notice names the round), which is
    /// `None` here whatever the step holds.
    pub fn open_step_for_orders(&self, game: &str) -> Result<Option<StepRow>> {
        Ok(self
            .select_steps_with(game, OPEN_STEP, false)?
            .into_iter()
            .next())
    }

    /// The signed notice of one step, without the rest of its row (states,
    /// events and dice can be megabytes).
    pub fn step_notice(&self, game: &str, step: u32) -> Result<Option<String>> {
        Ok(self
            .conn
            .prepare_cached("SELECT notice FROM steps WHERE game = ?1 AND step = ?2")?
            .query_row(params![game, step], |r| r.get(0))
            .optional()?)
    }

    /// Record accepted orders; returns the sha256 of the orders they replace.
    pub fn accept_orders(&mut self, o: &OrdersRow) -> Result<Option<String>> {
        let tx = self.conn.savepoint()?;
        let replaced = latest_sha256(&tx, &o.game, o.step, &o.side)?;
        insert_orders(&tx, o)?;
        tx.commit()?;
        Ok(replaced)
    }

    /// The sha256 of the latest accepted orders of one side for a step.
    pub fn latest_sha256(&self, game: &str, step: u32, side: &SideId) -> Result<Option<String>> {
        latest_sha256(&self.conn, game, step, side)
    }

    /// Whether a file with this sha256 was accepted for the side at the step.
    pub fn accepted_before(
        &self,
        game: &str,
        step: u32,
        side: &SideId,
        sha256: &str,
    ) -> Result<bool> {
        Ok(self
            .conn
            .prepare_cached("SELECT 1 FROM orders WHERE game = ?1 AND step = ?2 AND side = ?3 AND sha256 = ?4 LIMIT 1")?
.query_row(
                params![game, step, side.as_str(), sha256],
                |_| Ok(()),
            )
            .optional()?
            .is_some())
    }

    /// One accepted file by its receipt number.
    pub fn orders_by_seq(&self, seq: i64) -> Result<Option<OrdersRow>> {
        Ok(self
            .conn
            .prepare_cached(&format!("SELECT {ORDERS_COLUMNS} WHERE o.seq = ?1"))?
            .query_row([seq], OrdersRow::read)
            .optional()?)
    }

    /// The latest accepted orders of each side for a step (by receipt order).
    pub fn latest_orders(&self, game: &str, step: u32) -> Result<BTreeMap<SideId, OrdersRow>> {
        let mut st = self.conn.prepare_cached(&format!(
            "SELECT {ORDERS_COLUMNS} WHERE o.game = ?1 AND o.step = ?2 ORDER BY o.seq"
        ))?;
        let rows = st.query_map(params![game, step], OrdersRow::read)?;
        let mut out = BTreeMap::new();
        for row in rows {
            let row = row?;
            out.insert(row.side.clone(), row);
        }
        Ok(out)
    }

    /// Record a step's result, open the next step (or end the game) and queue
    /// the mails it causes, in one transaction.
    pub fn finish_step(
        &mut self,
        game: &str,
        step: u32,
        result: &StepResult,
        next: Option<&StepRow>,
        mails: &[OutboxRow],
    ) -> Result<()> {
        let tx = self.conn.savepoint()?;
        let n = tx.prepare_cached("UPDATE steps SET state_after = ?3, events = ?4, dice = ?5 WHERE game = ?1 AND step = ?2 AND state_after IS NULL")?
.execute(
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
                tx.prepare_cached("UPDATE games SET status = 'over' WHERE id = ?1")?
                    .execute([game])?;
            }
        }
        for m in mails {
            insert_outbox(&tx, m)?;
        }
        tx.commit()?;
        Ok(())
    }
}

fn insert_step(tx: &rusqlite::Connection, s: &StepRow) -> Result<()> {
    tx.prepare_cached("INSERT INTO steps (game, step, public_secret, hidden_secret, state_before, notice, notice_sig) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")?
.execute(
        params![s.game, s.step, s.public_secret.to_vec(), s.hidden_secret.to_vec(), s.state_before, s.notice, s.notice_sig],
    )?;
    Ok(())
}

/// What became of one incoming message (the key makes processing exactly-once).
#[derive(Clone, Debug, PartialEq)]
pub struct InboxRow {
    /// Message-ID and the SHA-256 of the raw message.
    pub key: String,
    pub sender: Option<String>,
    pub game: Option<String>,
    /// `accepted`, `refused`, `ignored` (auto-replies, bounces, lists) or `request`.
    pub outcome: String,
    pub detail: String,
}

/// A mail waiting to be sent, or sent.
#[derive(Clone, Debug, PartialEq)]
pub struct OutboxRow {
    pub id: i64,
    pub message_id: String,
    pub game: Option<String>,
    pub step: Option<u32>,
    pub reader: Option<String>,
    /// `report`, `reply`, `alert`.
    pub kind: String,
    pub sender: String,
    pub recipients: Vec<String>,
    pub bytes: Vec<u8>,
    /// `queued`, `sent` or `failed`.
    pub status: String,
    pub attempts: u32,
    /// Unix seconds.
    pub next_attempt: i64,
    pub queued_at: i64,
}

fn latest_sha256(
    conn: &rusqlite::Connection,
    game: &str,
    step: u32,
    side: &SideId,
) -> Result<Option<String>> {
    Ok(conn
        .prepare_cached("SELECT sha256 FROM orders WHERE game = ?1 AND step = ?2 AND side = ?3 ORDER BY seq DESC LIMIT 1")?
.query_row(
            params![game, step, side.as_str()],
            |r| r.get(0),
        )
        .optional()?)
}

fn insert_orders(conn: &rusqlite::Connection, o: &OrdersRow) -> Result<()> {
    conn.prepare_cached("INSERT INTO orders (game, step, side, file_name, text, signature, sha256) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")?
.execute(
        params![o.game, o.step, o.side.as_str(), o.file_name, o.text, o.signature, o.sha256],
    )?;
    let seq = conn.last_insert_rowid();
    if let Some(at) = o.received {
        conn.prepare_cached("INSERT INTO receipts (seq, at) VALUES (?1, ?2)")?
            .execute(params![seq, at])?;
    }
    envelopes::insert(conn, seq, o.notice.as_deref(), o.revision)
}

fn insert_outbox(tx: &rusqlite::Connection, m: &OutboxRow) -> Result<()> {
    // A mail with the same Message-ID is the same mail: it is queued once.
    tx.prepare_cached("INSERT OR IGNORE INTO outbox (message_id, game, step, reader, kind, sender, recipients, bytes, status, attempts, next_attempt, queued_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'queued', 0, ?9, ?10)")?
.execute(
        params![
            m.message_id,
            m.game,
            m.step,
            m.reader,
            m.kind,
            m.sender,
            m.recipients.join("\n"),
            m.bytes,
            m.next_attempt,
            m.queued_at
        ],
    )?;
    // One mailbox for every address that reaches it (`bob+1@`, `bob@`):
    // the reply allowance counts by it.
    if tx.changes() == 1 && m.recipients.len() == 1 {
        tx.prepare_cached("INSERT INTO outbox_mailbox (id, mailbox, kind, queued_at) VALUES (last_insert_rowid(), ?1, ?2, ?3)")?
            .execute(rusqlite::params![crate::mail::address::mailbox(&m.recipients[0]), m.kind, m.queued_at])?;
    }
    Ok(())
}

fn outbox_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<OutboxRow> {
    let recipients: String = r.get(7)?;
    Ok(OutboxRow {
        id: r.get(0)?,
        message_id: r.get(1)?,
        game: r.get(2)?,
        step: r.get(3)?,
        reader: r.get(4)?,
        kind: r.get(5)?,
        sender: r.get(6)?,
        recipients: recipients.lines().map(str::to_string).collect(),
        bytes: r.get(8)?,
        status: r.get(9)?,
        attempts: r.get(10)?,
        next_attempt: r.get(11)?,
        queued_at: r.get(12)?,
    })
}

const OUTBOX_COLUMNS: &str = "id, message_id, game, step, reader, kind, sender, recipients, bytes, status, attempts, next_attempt, queued_at";

impl Store {
    /// Whether a message was already processed.
    pub fn inbox_seen(&self, key: &str) -> Result<bool> {
        Ok(self
            .conn
            .prepare_cached("SELECT 1 FROM inbox WHERE key = ?1")?
            .query_row([key], |_| Ok(()))
            .optional()?
            .is_some())
    }

    /// Record an incoming message's outcome, the orders it brought and the
    /// mails it causes, all or nothing. `None` (and no change) when the
    /// message was processed before; else, for each orders row, the sha256
    /// of the orders it replaced.
    pub fn record_intake(
        &mut self,
        row: &InboxRow,
        orders: &[OrdersRow],
        mails: &[OutboxRow],
    ) -> Result<Option<Vec<Option<String>>>> {
        let tx = self.conn.savepoint()?;
        let seen = tx
            .prepare_cached("SELECT 1 FROM inbox WHERE key = ?1")?
            .query_row([&row.key], |_| Ok(()))
            .optional()?
            .is_some();
        if seen {
            return Ok(None);
        }
        let seq: i64 = tx
            .prepare_cached("SELECT COALESCE(MAX(seq), 0) + 1 FROM inbox")?
            .query_row([], |r| r.get(0))?;
        tx.prepare_cached("INSERT INTO inbox (key, seq, sender, game, outcome, detail) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")?
.execute(
            params![row.key, seq, row.sender, row.game, row.outcome, row.detail],
        )?;
        let mut replaced = Vec::new();
        for o in orders {
            let old = latest_sha256(&tx, &o.game, o.step, &o.side)?;
            insert_orders(&tx, o)?;
            replaced.push(old);
        }
        for m in mails {
            insert_outbox(&tx, m)?;
        }
        tx.commit()?;
        Ok(Some(replaced))
    }

    /// Queue mails on their own (alerts, resent reports).
    pub fn queue_mails(&mut self, mails: &[OutboxRow]) -> Result<()> {
        let tx = self.conn.savepoint()?;
        for m in mails {
            insert_outbox(&tx, m)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Mails due for a first or further attempt at `now`.
    pub fn due_mails(&self, now: i64) -> Result<Vec<OutboxRow>> {
        let mut st = self.conn.prepare_cached(&format!(
            "SELECT {OUTBOX_COLUMNS} FROM outbox WHERE status = 'queued' AND next_attempt <= ?1 ORDER BY id"
        ))?;
        let rows = st.query_map([now], outbox_row)?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    }

    /// Every mail of the outbox, oldest first.
    pub fn mails(&self) -> Result<Vec<OutboxRow>> {
        let mut st = self
            .conn
            .prepare(&format!("SELECT {OUTBOX_COLUMNS} FROM outbox ORDER BY id"))?;
        let rows = st.query_map([], outbox_row)?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    }

    pub fn mark_sent(&mut self, id: i64, now: i64) -> Result<()> {
        self.conn.prepare_cached("UPDATE outbox SET status = 'sent', sent_at = ?2, attempts = attempts + 1 WHERE id = ?1")?
.execute(
            params![id, now],
        )?;
        Ok(())
    }

    /// A failed attempt: try again at `next`, or give up (`failed`).
    pub fn mark_attempt(&mut self, id: i64, next: Option<i64>, error: &str) -> Result<()> {
        match next {
            Some(t) => self.conn.prepare_cached("UPDATE outbox SET attempts = attempts + 1, next_attempt = ?2, last_error = ?3 WHERE id = ?1")?
.execute(
                params![id, t, error],
            )?,
            None => self.conn.prepare_cached("UPDATE outbox SET attempts = attempts + 1, status = 'failed', last_error = ?2 WHERE id = ?1")?
.execute(
                params![id, error],
            )?,
        };
        Ok(())
    }

    /// Messages recorded with this outcome ("accepted", "refused", ...).
    pub fn inbox_count(&self, outcome: &str) -> Result<i64> {
        Ok(self
            .conn
            .prepare_cached("SELECT COUNT(*) FROM inbox WHERE outcome = ?1")?
            .query_row([outcome], |r| r.get(0))?)
    }

    /// Replies queued to `address` since `since` (unix seconds), to rate-limit them.
    pub fn replies_to_since(&self, address: &str, since: i64) -> Result<u32> {
        Ok(self.conn.prepare_cached("SELECT COUNT(*) FROM outbox WHERE kind = 'reply' AND recipients = ?1 AND queued_at >= ?2")?
.query_row(
            params![address, since],
            |r| r.get(0),
        )?)
    }
}

impl OutboxRow {
    /// A mail ready to go now, with no game attached (set `game`, `step`
    /// and `reader` with struct update syntax where they apply).
    pub fn queued(
        message_id: String,
        kind: &str,
        sender: &str,
        to: &str,
        bytes: Vec<u8>,
        now: i64,
    ) -> OutboxRow {
        OutboxRow {
            id: 0,
            message_id,
            game: None,
            step: None,
            reader: None,
            kind: kind.into(),
            sender: sender.into(),
            recipients: vec![to.into()],
            bytes,
            status: "queued".into(),
            attempts: 0,
            next_attempt: now,
            queued_at: now,
        }
    }
}

//! Each accepted orders file's `notice:` and `revision:`, kept beside it
//! when it is accepted. The freshness check asks them of the side's files
//! at every new file; reading and parsing the newest earlier file for them
//! was a tenth of the intake's time. Files stored before this table (or by
//! an older galloper) are read once, as the store opens, and any the table
//! still lacks are read from their text when asked.

use super::{Result, Store};
use crate::side::SideId;
use rusqlite::{Connection, params};

pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS envelopes (seq INTEGER PRIMARY KEY, notice TEXT, revision INTEGER);
";

/// What a stored file names: the notice it answers and its revision,
/// `None` where it names none (or no longer parses).
#[derive(Clone, Debug, PartialEq)]
pub struct Stamp {
    pub sha256: String,
    pub notice: Option<String>,
    pub revision: Option<u32>,
}

/// The `notice:` and `revision:` of an orders file, as the freshness check
/// reads a stored one: a file that no longer parses names neither.
pub fn stamp_of(file_name: &str, text: &[u8]) -> (Option<String>, Option<u32>) {
    match crate::envelope::parse_stored(file_name, text) {
        Ok(env) => (env.notice, env.revision),
        Err(_) => (None, None),
    }
}

/// Record the stamp of the orders file just inserted as `seq`.
pub(super) fn insert(
    conn: &Connection,
    seq: i64,
    notice: Option<&str>,
    revision: Option<u32>,
) -> Result<()> {
    conn.prepare_cached(
        "INSERT OR REPLACE INTO envelopes (seq, notice, revision) VALUES (?1, ?2, ?3)",
    )?
    .execute(params![seq, notice, revision])?;
    Ok(())
}

/// The migration: a stamp for every stored file that has none, in one
/// transaction. Returns how many were filled.
pub(super) fn fill(conn: &mut Connection) -> Result<usize> {
    let tx = conn.transaction()?;
    let missing: Vec<(i64, String, Vec<u8>)> = {
        let mut st = tx.prepare(
            "SELECT o.seq, o.file_name, o.text FROM orders o WHERE NOT EXISTS (SELECT 1 FROM envelopes e WHERE e.seq = o.seq)",
        )?;
        let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        rows.collect::<std::result::Result<_, _>>()?
    };
    for (seq, file_name, text) in &missing {
        let (notice, revision) = stamp_of(file_name, text);
        insert(&tx, *seq, notice.as_deref(), revision)?;
    }
    tx.commit()?;
    Ok(missing.len())
}

impl Store {
    /// The newest file accepted for `side` at `step` of `game` whose stamp
    /// `wanted` takes, newest first; each stamp from the table, no file
    /// parsed unless the table lacks it.
    pub fn newest_stamp(
        &self,
        game: &str,
        step: u32,
        side: &SideId,
        wanted: impl Fn(&Stamp) -> bool,
    ) -> Result<Option<Stamp>> {
        let mut st = self.conn.prepare_cached(
            "SELECT o.seq, o.sha256, e.seq IS NOT NULL, e.notice, e.revision FROM orders o LEFT JOIN envelopes e ON e.seq = o.seq
             WHERE o.game = ?1 AND o.step = ?2 AND o.side = ?3 ORDER BY o.seq DESC",
        )?;
        let mut rows = st.query(params![game, step, side.as_str()])?;
        while let Some(r) = rows.next()? {
            let (seq, sha256, known): (i64, String, bool) = (r.get(0)?, r.get(1)?, r.get(2)?);
            let stamp = if known {
                Stamp {
                    sha256,
                    notice: r.get(3)?,
                    revision: r.get(4)?,
                }
            } else {
                let (notice, revision) = match self.orders_by_seq(seq)? {
                    Some(o) => stamp_of(&o.file_name, &o.text),
                    None => (None, None),
                };
                Stamp {
                    sha256,
                    notice,
                    revision,
                }
            };
            if wanted(&stamp) {
                return Ok(Some(stamp));
            }
        }
        Ok(None)
    }
}

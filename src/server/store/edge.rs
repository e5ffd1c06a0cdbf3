//! Games whose players each see the map from their own table edge
//! (`galloper new --map-edge own`): the second side's maps are drawn turned
//! half round.

use super::{Result, Store};
use rusqlite::{OptionalExtension, params};

pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS own_edge_maps (game TEXT PRIMARY KEY);
";

impl Store {
    /// Draw each side's maps from its own table edge in `game`.
    pub fn set_own_edge(&mut self, game: &str) -> Result<()> {
        self.conn
            .prepare_cached("INSERT OR IGNORE INTO own_edge_maps (game) VALUES (?1)")?
            .execute(params![game])?;
        Ok(())
    }

    /// Whether `game`'s maps are drawn from each side's own edge.
    pub fn own_edge(&self, game: &str) -> Result<bool> {
        Ok(self
            .conn
            .prepare_cached("SELECT 1 FROM own_edge_maps WHERE game = ?1")?
            .query_row([game], |_| Ok(()))
            .optional()?
            .is_some())
    }
}

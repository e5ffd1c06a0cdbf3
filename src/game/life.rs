//! A game's life between steps: deadlines, warnings, absences, missed orders.
//!
//! The API below is what the mail commands call. (Being filled in: until then
//! each call answers that the feature is not ready.)

use super::Server;
use crate::side::SideId;

impl Server {
    /// Set the time zone (IANA name, e.g. `Europe/Paris`) in which a
    /// player's mail shows times. Returns the confirmation for his reply.
    pub fn set_zone(&mut self, game: &str, side: &SideId, zone: &str) -> anyhow::Result<String> {
        let _ = (game, side, zone);
        anyhow::bail!("time zones are not ready yet")
    }

    /// A player's declared absence (`from` and `until` as `YYYY-MM-DD` in
    /// his own zone), moving the deadline within the game's limits. `now` is
    /// unix seconds. Returns the confirmation for his reply.
    pub fn declare_absence(
        &mut self,
        game: &str,
        side: &SideId,
        from: &str,
        until: &str,
        now: i64,
    ) -> anyhow::Result<String> {
        let _ = (game, side, from, until, now);
        anyhow::bail!("absences are not ready yet")
    }

    /// The game master moves the open step's deadline to `until` (unix
    /// seconds). Returns the text every side is told.
    pub fn extend_deadline(&mut self, game: &str, until: i64, now: i64) -> anyhow::Result<String> {
        let _ = (game, until, now);
        anyhow::bail!("deadlines are not ready yet")
    }

    /// The open step's deadline as `reader` sees it (in his zone), for
    /// status replies; none when the game has no deadline.
    pub fn deadline_text(
        &self,
        game: &str,
        reader: Option<&SideId>,
    ) -> anyhow::Result<Option<String>> {
        let _ = (game, reader);
        Ok(None)
    }
}

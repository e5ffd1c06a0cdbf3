//! Orders that answer the open step's notice and are newer than anything
//! the side sent for it before. A file signed for another game that reused
//! the id, for a step since opened again, or an older file of this step
//! mailed again by whoever kept a copy, is refused with what to write.

use super::store::{OrdersRow, Stamp, StepRow};
use super::{Refusal, Server};
use crate::envelope::{self, Envelope, Problem};
use crate::side::SideId;

/// What a stored or pending file of the same side and step says: its
/// notice and revision as read when it was accepted (a file that no longer
/// parses counts as naming neither).
type Earlier = Stamp;

fn earlier(row: &OrdersRow) -> Earlier {
    Stamp {
        sha256: row.sha256.clone(),
        notice: row.notice.clone(),
        revision: row.revision,
    }
}

fn at(file: &str, text: &str, key: &str, message: String) -> Box<Problem> {
    let line = text
        .lines()
        .position(|l| l.starts_with(&format!("{key}:")))
        .or_else(|| text.lines().position(|l| l.starts_with("orders:")))
        .map(|i| i + 1);
    Box::new(Problem {
        file: file.into(),
        line,
        column: None,
        unit: None,
        rule: None,
        message,
    })
}

impl Server {
    /// Refuse `env` (the file `file`, `text`, hashing to `sha256`) unless it
    /// names the notice of `open` (whose SHA-256 is `expected`) and a
    /// revision above every file accepted for its side and step under that
    /// notice, in the store or earlier in the same message (`pending`), and
    /// unless it is a file accepted and replaced before.
    pub(super) fn check_fresh(
        &self,
        (file, text, sha256): (&str, &str, &str),
        env: &Envelope,
        (open, expected): (&StepRow, &str),
        pending: &[OrdersRow],
    ) -> Result<(), Refusal> {
        let place = format!(
            "the notice that opened step {} of game {} (published as step-{:04}/notice.yaml)",
            open.step, open.game, open.step
        );
        match env.notice.as_deref().map(str::trim) {
            None => {
                return Err(Refusal::Notice(at(
                    file,
                    text,
                    "side",
                    format!(
                        "these orders name no notice: add the line `notice: {expected}` (the SHA-256 of {place}), sign the file again and send it; `galloper orders template` and the report's orders template write it"
                    ),
                )));
            }
            Some(n) if !n.eq_ignore_ascii_case(expected) => {
                return Err(Refusal::Notice(at(
                    file,
                    text,
                    "notice",
                    format!(
                        "these orders answer notice {n}, not {place}, which is {expected}: orders signed for another notice (an earlier game under this id, or a step opened again since) are refused. Put `notice: {expected}` in the file, sign it again and send it"
                    ),
                )));
            }
            Some(_) => {}
        }
        let side = &env.side;
        let earlier: Vec<Earlier> = pending
            .iter()
            .rev()
            .filter(|o| o.game == open.game && o.step == open.step && &o.side == side)
            .map(earlier)
            .collect();
        let err = |e: super::store::StoreError| Refusal::Server(e.to_string());
        let latest = match earlier.first() {
            Some(e) => Some(e.sha256.clone()),
            None => self
                .store
                .latest_sha256(&open.game, open.step, side)
                .map_err(err)?,
        };
        if latest.as_deref() == Some(sha256) {
            return Err(Refusal::AlreadyAccepted {
                game: open.game.clone(),
                step: open.step,
                side: side.to_string(),
                sha256: sha256.into(),
            });
        }
        if pending.iter().any(|o| o.sha256 == sha256)
            || self
                .store
                .accepted_before(&open.game, open.step, side, sha256)
                .map_err(err)?
        {
            return Err(Refusal::Superseded(at(
                file,
                text,
                "revision",
                format!(
                    "this file was accepted for {side} at step {} before and has been replaced since (the orders now held are sha256 {}): an older file never replaces a newer one",
                    open.step,
                    latest.unwrap_or_default()
                ),
            )));
        }
        let high = self.highest((open, expected), side, &earlier)?;
        let next = high.as_ref().map_or(1, |(r, _)| r.saturating_add(1));
        match (env.revision, &high) {
            (None, _) => Err(Refusal::Superseded(at(
                file,
                text,
                "side",
                format!(
                    "these orders have no revision: add the line `revision: {next}` (each new file a side sends for a step needs a higher one), sign the file again and send it"
                ),
            ))),
            (Some(r), Some((h, sha))) if r <= *h => Err(Refusal::Superseded(at(
                file,
                text,
                "revision",
                format!(
                    "revision {r} is not above revision {h} of the orders accepted last for {side} at step {} (sha256 {sha}): an older file never replaces a newer one. To replace those orders, put `revision: {next}` in the file, sign it again and send it",
                    open.step
                ),
            ))),
            (Some(0), None) => Err(Refusal::Superseded(at(
                file,
                text,
                "revision",
                "revision 0 is the server's own: put `revision: 1` in the file, sign it again and send it".into(),
            ))),
            _ => Ok(()),
        }
    }

    /// The revision the side's next file for the open step of `game` needs
    /// (1 when it has sent none under the step's notice).
    pub fn next_revision(&self, game: &str, side: &SideId) -> anyhow::Result<u32> {
        let open = self
            .store
            .open_step(game)?
            .ok_or_else(|| anyhow::anyhow!("game {game} has no open step"))?;
        let expected = envelope::notice_sha256(&open.notice);
        let high = self
            .highest((&open, &expected), side, &[])
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        Ok(high.map_or(1, |(r, _)| r.saturating_add(1)))
    }

    /// The highest revision accepted for `side` under the notice of `open`,
    /// with its file's sha256. The newest file under this notice holds it,
    /// as each was refused unless it went higher; files under an earlier
    /// notice of the step, or without a revision, are passed over.
    fn highest(
        &self,
        (open, expected): (&StepRow, &str),
        side: &SideId,
        earlier: &[Earlier],
    ) -> Result<Option<(u32, String)>, Refusal> {
        let of = |e: &Earlier| match (&e.notice, e.revision) {
            (Some(n), Some(r)) if n.eq_ignore_ascii_case(expected) => Some((r, e.sha256.clone())),
            _ => None,
        };
        if let Some(h) = earlier.iter().find_map(of) {
            return Ok(Some(h));
        }
        // The stamps kept beside the stored files, newest first: no file
        // is read or parsed.
        let stored = self
            .store
            .newest_stamp(&open.game, open.step, side, |e| of(e).is_some())
            .map_err(|e| Refusal::Server(e.to_string()))?;
        Ok(stored.as_ref().and_then(of))
    }
}

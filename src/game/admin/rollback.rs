//! Rolling back the last resolved step: the archive keeps the undone run,
//! and the step resolved again gets Message-IDs of its own.

use super::{CommandRefusal, Issued, server_err};
use crate::game::Server;
use crate::game::archive::{self, RollbackNote};
use crate::game::store::{AdminChange, OutboxRow};
use std::path::Path;

impl Server {
    /// Undo the last resolved step: its result and the step after it go,
    /// its committed secrets stay; the archive keeps the undone run with
    /// the reason, and the game is paused so that sides may change orders.
    pub fn rollback(
        &mut self,
        c: &Issued,
        step: u32,
        reason: &str,
    ) -> Result<String, CommandRefusal> {
        let game = &c.file.game;
        self.not_over(game)?;
        let steps = self.store.steps(game).map_err(server_err)?;
        let last = steps
            .iter()
            .rev()
            .find(|s| s.result.is_some())
            .map(|s| s.step)
            .ok_or_else(|| CommandRefusal::NotNow(format!("game {game} has no resolved step")))?;
        if step != last {
            return Err(CommandRefusal::NotNow(format!(
                "only the last resolved step ({last}) of game {game} can be rolled back, not step {step}"
            )));
        }
        let root = self.archive_dir(game);
        let run = archive::rollback_runs(&root, step) + 1;
        let text = format!(
            "The game master has rolled back step {step} of game {game}: {reason}\nIts result is withdrawn (the archive keeps it as run {run}, with this reason), and anything sent for step {} is void. The game is paused: you may send new orders for step {step}, or keep those you sent. When the game resumes, step {step} is resolved again with the same committed secrets, so the same orders give the same dice.",
            step + 1
        );
        let moved = self
            .archive_rollback(game, step, run, reason, &c.sha256)
            .map_err(server_err)?;
        let mails = self.tell_everyone(c, game, &format!("Step {step} rolled back"), &text)?;
        let reply = self.record(c, &text, &AdminChange::Rollback { step }, mails)?;
        // Only once the store agrees does the step look open in the archive.
        let sdir = archive::step_dir(&root, step);
        for name in moved {
            let _ = std::fs::remove_file(sdir.join(name));
        }
        let _ = std::fs::remove_dir_all(archive::step_dir(&root, step + 1));
        Ok(reply)
    }

    /// Copy the run being undone into `step-N/rollback-K/`, with the next
    /// step's notice and the signed reason; the names of the copied files.
    fn archive_rollback(
        &self,
        game: &str,
        step: u32,
        run: u32,
        reason: &str,
        sha: &str,
    ) -> anyhow::Result<Vec<String>> {
        let root = self.archive_dir(game);
        let sdir = archive::step_dir(&root, step);
        let rdir = archive::rollback_dir(&root, step, run);
        let mut moved = Vec::new();
        for e in std::fs::read_dir(&sdir)? {
            let e = e?;
            let name = e.file_name().to_string_lossy().into_owned();
            if !e.path().is_file() || name.starts_with('.') || name.starts_with("notice.yaml") {
                continue;
            }
            archive::write_atomic(&rdir.join(&name), &std::fs::read(e.path())?)?;
            moved.push(name);
        }
        let next = archive::step_dir(&root, step + 1);
        for (from, to) in [
            ("notice.yaml", "next-notice.yaml"),
            ("notice.yaml.sig", "next-notice.yaml.sig"),
        ] {
            if let Ok(bytes) = std::fs::read(next.join(from)) {
                archive::write_atomic(&rdir.join(to), &bytes)?;
            }
        }
        let note = RollbackNote {
            game: game.into(),
            step,
            run,
            reason: reason.into(),
            command_sha256: sha.into(),
        };
        archive::write_signed(
            &rdir,
            "rollback.yaml",
            crate::yaml::to_string(&note)?.as_bytes(),
            self.private_key(),
        )?;
        Ok(moved)
    }
}

/// A step resolved again after a rollback gets report Message-IDs of its
/// own: the first run's mails went out under the plain ones, and mail
/// programs would fold the new reports into them.
pub(in crate::game) fn rerun_ids(root: &Path, step: u32, mails: &mut [OutboxRow]) {
    let runs = archive::rollback_runs(root, step);
    if runs == 0 {
        return;
    }
    for m in mails.iter_mut() {
        let Some((local, domain)) = m.message_id.rsplit_once('@') else {
            continue;
        };
        let new_id = format!("{local}-run{}@{domain}", runs + 1);
        let text = String::from_utf8_lossy(&m.bytes);
        m.bytes = text
            .replacen(&format!("<{}>", m.message_id), &format!("<{new_id}>"), 1)
            .into_bytes();
        m.message_id = new_id;
    }
}

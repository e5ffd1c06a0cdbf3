//! Rolling back the last resolved step: the archive keeps the undone run,
//! the step opens again with fresh secrets under a new notice, and the step
//! resolved again gets Message-IDs of its own.
//!
//! Fresh secrets, because the undone run's public secret is published (in
//! its reveal and in the reports mailed for it): with it, whoever sends
//! orders for the step again could try entropy values until the dice suit
//! him. A new run's secrets are committed anew before any of its orders.

use super::{CommandRefusal, Issued, server_err};
use crate::archive::{self, Notice, RollbackNote, sha256_hex};
use crate::rulesets;
use crate::server::Server;
use crate::server::store::{AdminChange, OutboxRow};
use std::path::Path;

/// A folder's files by name.
pub(in crate::server) type Files = std::collections::BTreeMap<String, Vec<u8>>;

impl Server {
    /// Undo the last resolved step: its result and the step after it go;
    /// the archive keeps the undone run with the reason (a signed link of
    /// the game's chain), the step opens again as a new run with fresh
    /// secrets, and the game is paused so that sides may change orders.
    pub fn rollback(
        &mut self,
        c: &Issued,
        step: u32,
        reason: &str,
    ) -> Result<String, CommandRefusal> {
        let game = &c.file.game;
        let g = self.not_over(game)?;
        let steps = self.store.steps(game).map_err(server_err)?;
        let Some(last) = steps.iter().rev().find(|s| s.result.is_some()) else {
            return Err(CommandRefusal::NotNow(format!(
                "game {game} has no resolved step"
            )));
        };
        if step != last.step {
            return Err(CommandRefusal::NotNow(format!(
                "only the last resolved step ({}) of game {game} can be rolled back, not step {step}",
                last.step
            )));
        }
        let next_notice = steps
            .iter()
            .find(|s| s.step == step + 1)
            .map(|s| s.notice.clone())
            .ok_or_else(|| {
                CommandRefusal::NotNow(format!("game {game} has no step after step {step}"))
            })?;
        // The run undone is the one its notice names: runs of a step are
        // counted by rollbacks and by beacon steps opened again alike.
        let before: Notice = crate::yaml::from_str(&last.notice).map_err(server_err)?;
        let run = before.run;
        // Everything that can fail comes before the archive is touched: a
        // refused rollback leaves it exactly as it was.
        let (undone_files, note) = self
            .rollback_files(game, step, run, reason, &c.sha256, &next_notice)
            .map_err(server_err)?;
        // The new run starts from the same state, under fresh secrets.
        let rules = rulesets::by_name(&g.ruleset)
            .ok_or_else(|| server_err(format!("unknown ruleset {}", g.ruleset)))?;
        let due = rules.due(&last.state_before).map_err(server_err)?;
        let mut reopened = self
            .step_secrets(game, step, run + 1, &last.state_before)
            .map_err(server_err)?;
        self.write_notice(
            &mut reopened,
            run + 1,
            sha256_hex(&note),
            &due,
            before.state_before_commitment,
        )
        .map_err(server_err)?;
        let notice = crate::envelope::notice_sha256(&reopened.notice);
        let text = format!(
            "The game master has rolled back step {step} of game {game}: {reason}\nIts result is withdrawn (the archive keeps it as run {run}, with this reason), and anything sent for step {} is void. The game is paused. Step {step} opens again as run {} with fresh secrets under a new signed notice (in the archive), whose SHA-256 is {notice}. Orders sent for run {run} answered its notice and are void: the new run takes only files that answer the new one, so that nobody's file, chosen when run {run}'s secret could be known, meets the new secrets.",
            step + 1,
            run + 1
        );
        // Only the sides that owe orders for the step are asked for them.
        let mut mails = Vec::new();
        for p in self.store.players(game).map_err(server_err)? {
            let mut t = text.clone();
            t.push('\n');
            t.push_str(&rollback_invitation(&due, &p.side, step, &notice));
            let owes = due.owed.iter().any(|o| o.side == p.side);
            if owes && let Some(template) = rerun_template(rules, &reopened, &p.side, &notice) {
                t.push_str(
                    "\n\nYour orders template for the new run (or `galloper orders template`):\n\n",
                );
                t.push_str(&template);
            }
            mails.extend(self.notice_mail(
                c,
                game,
                p.side.as_str(),
                &p.email,
                &format!("Step {step} rolled back"),
                &t,
            )?);
        }
        self.write_rollback(game, step, run, &undone_files, &note)
            .map_err(server_err)?;
        let change = AdminChange::Rollback {
            step,
            run,
            reopened: Box::new(reopened),
        };
        let reply = self.record(c, &text, &change, mails)?;
        // Only once the store agrees does the step look open in the archive
        // (inside a group of writes, from the next `process` on).
        if let Err(e) = self.publish_open_notice(game) {
            tracing::error!(game, error = %e, "the reopened step's notice is not published yet");
        }
        Ok(reply)
    }

    /// The files of the run being undone, for `step-N/rollback-K/`, with
    /// the next step's notice, and the bytes of the signed reason
    /// (`rollback.yaml`); nothing written yet.
    fn rollback_files(
        &self,
        game: &str,
        step: u32,
        run: u32,
        reason: &str,
        sha: &str,
        next_notice: &str,
    ) -> anyhow::Result<(Files, Vec<u8>)> {
        let root = self.archive_dir(game);
        let sdir = archive::step_dir(&root, step);
        let mut files = std::collections::BTreeMap::new();
        for e in std::fs::read_dir(&sdir)? {
            let e = e?;
            let name = e.file_name().to_string_lossy().into_owned();
            if !e.file_type()?.is_file() || name.starts_with('.') {
                continue;
            }
            files.insert(name, std::fs::read(e.path())?);
        }
        let next = archive::step_dir(&root, step + 1);
        for (from, to) in [
            ("notice.yaml", "next-notice.yaml"),
            ("notice.yaml.sig", "next-notice.yaml.sig"),
        ] {
            if let Ok(bytes) = std::fs::read(next.join(from)) {
                files.insert(to.into(), bytes);
            }
        }
        let manifest = files
            .get("manifest.yaml")
            .ok_or_else(|| anyhow::anyhow!("step {step} of {game} has no manifest to undo"))?;
        let note = RollbackNote {
            game: game.into(),
            step,
            run,
            reason: reason.into(),
            command_sha256: sha.into(),
            manifest_sha256: sha256_hex(manifest),
            follows: sha256_hex(next_notice.as_bytes()),
        };
        let bytes = crate::yaml::to_string(&note)?.into_bytes();
        Ok((files, bytes))
    }

    /// Write a withdrawn run's files and its signed note (`rollback.yaml`)
    /// into `step-N/rollback-K/`: a rolled-back run, or a beacon step's
    /// run opened again unanswered (`life/reopen.rs`).
    pub(in crate::server) fn write_rollback(
        &self,
        game: &str,
        step: u32,
        run: u32,
        files: &Files,
        note: &[u8],
    ) -> anyhow::Result<()> {
        let rdir = archive::rollback_dir(&self.archive_dir(game), step, run);
        archive::write_files(&rdir, files)?;
        archive::write_signed(&rdir, "rollback.yaml", note, self.private_key())
    }
}

/// What a side is told to do after a rollback of `step`: a side that owes
/// orders for it sends them again under the new notice (`notice`, its
/// hash); any other side has nothing to send.
pub(in crate::server) fn rollback_invitation(
    due: &crate::ruleset::Due,
    side: &crate::side::SideId,
    step: u32,
    notice: &str,
) -> String {
    match due.owed.iter().find(|o| &o.side == side) {
        Some(o) => format!(
            "You owe orders for step {step} ({}): send them again, with the lines `notice: {notice}` and `revision: 1`, signed as before. Orders you sent before the rollback are not kept.",
            o.note
        ),
        None => format!("You owe no orders for step {step}: nothing is asked of you."),
    }
}

/// The orders template of a side that owes orders for the reopened step.
fn rerun_template(
    rules: &dyn crate::ruleset::AnyRuleset,
    reopened: &crate::server::store::StepRow,
    side: &crate::side::SideId,
    notice: &str,
) -> Option<String> {
    let body = rules.orders_template(&reopened.state_before, side).ok()??;
    let head = crate::envelope::Head {
        game: &reopened.game,
        step: reopened.step,
        side,
        notice,
        revision: 1,
    };
    Some(crate::envelope::template(&head, rules.name(), &body))
}

/// The files of a withdrawn run left at the top of its step's folder and
/// of the next step's, once the store has reopened the step: they are kept
/// in `rollback-K/`. Earlier runs' folders stay.
pub(in crate::server) fn clear_withdrawn(root: &Path, step: u32) -> std::io::Result<()> {
    for dir in [
        archive::step_dir(root, step),
        archive::step_dir(root, step + 1),
    ] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries {
            let e = e?;
            if e.file_type()?.is_file() {
                std::fs::remove_file(e.path())?;
            }
        }
        // Gone if nothing else was in it; kept if earlier runs are.
        let _ = std::fs::remove_dir(&dir);
    }
    Ok(())
}

/// A step resolved again after a rollback gets report Message-IDs of its
/// own: the first run's mails went out under the plain ones, and mail
/// programs would fold the new reports into them.
pub(in crate::server) fn rerun_ids(root: &Path, step: u32, mails: &mut [OutboxRow]) {
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

//! A beacon step whose orders closed while a side still owed them, and for
//! which the rule for missed orders gave none (the rule is `wait`, or the
//! rules have no default, as for a secret deployment): no file may be taken
//! any more (its round may be public), so the step would wait for ever.
//! It opens again as a new run, as after a rollback: fresh secrets under a
//! new notice, which names a new deadline and a later round, and takes only
//! files that answer it. The withdrawn run stays on the chain in
//! `step-N/rollback-K/`: its notice and a signed note with no manifest (it
//! never resolved, so no die of it exists).

use super::Life;
use super::warnings::life_mail;
use crate::archive::{Notice, RollbackNote, sha256_hex};
use crate::ruleset::Due;
use crate::server::Server;
use crate::server::store::{GameRow, StepRow};
use std::collections::BTreeMap;

impl Server {
    /// Open `open` (run K, its orders closed) again as run K + 1, and tell
    /// every player and the game master. `missing` names the sides that
    /// sent nothing.
    pub(super) fn reopen_closed(
        &mut self,
        g: &GameRow,
        open: &StepRow,
        due: &Due,
        missing: &[String],
        now: i64,
        out: &mut Vec<Life>,
    ) -> anyhow::Result<()> {
        let game = g.id.as_str();
        let step = open.step;
        let before: Notice = crate::yaml::from_str(&open.notice)?;
        let run = before.run;
        let closed = before
            .beacon
            .as_ref()
            .map(|b| b.orders_close.clone())
            .unwrap_or_default();
        let reason = format!(
            "orders closed at {closed} with none from {} and none the rule for missed orders could apply: the step opens again with a new deadline and a later beacon round",
            missing.join(", ")
        );
        let note = self.archive_reopen(game, step, run, &reason, &open.notice, &open.notice_sig)?;
        let mut row = self.step_secrets(game, step, run + 1, &open.state_before)?;
        self.write_notice(
            &mut row,
            run + 1,
            sha256_hex(&note),
            due,
            before.state_before_commitment,
        )?;
        let fresh: Notice = crate::yaml::from_str(&row.notice)?;
        let hash = crate::envelope::notice_sha256(&row.notice);
        let (deadline, round) = fresh
            .beacon
            .as_ref()
            .map(|b| (b.deadline.clone(), b.round))
            .unwrap_or_default();
        let text = format!(
            "Game {game}, step {step}: {reason}. It opens again as run {} under a new signed notice (in the archive), whose SHA-256 is {hash}; its deadline is {deadline} UTC and its dice take beacon round {round}. Every file sent for run {run} answered its notice and is void.",
            run + 1
        );
        let mut mails = Vec::new();
        if let Some(mail) = &self.mail {
            let owed: BTreeMap<_, _> = due.owed.iter().map(|o| (&o.side, &o.note)).collect();
            for p in self.store.players(game)? {
                let ask = match owed.get(&p.side) {
                    Some(what) => format!(
                        "You owe orders for step {step} ({what}): send them with the lines `notice: {hash}` and `revision: 1` (`galloper orders template` writes them), signed as before, by the new deadline."
                    ),
                    None => format!("You owe no orders for step {step}."),
                };
                mails.push(life_mail(
                    mail,
                    game,
                    step,
                    p.side.as_str(),
                    &format!("reopened-{}", run + 1),
                    "notice",
                    &p.email,
                    format!("[{game}] Step {step} opens again"),
                    format!("{text}\n\n{ask}\n"),
                    now,
                )?);
            }
            if let Some(gm) = &mail.game_master {
                mails.push(life_mail(
                    mail,
                    game,
                    step,
                    "gm",
                    &format!("reopened-{}", run + 1),
                    "gm",
                    gm,
                    format!("[{game}] Step {step} opens again"),
                    format!("{text}\n"),
                    now,
                )?);
            }
        }
        self.store.reopen_step(&row, &mails)?;
        out.push(Life::GameMasterTold {
            game: game.into(),
            text,
        });
        self.publish_open_notice(game)?;
        Ok(())
    }

    /// Keep the withdrawn run's notice in `step-N/rollback-K/` with the
    /// signed note of its withdrawal; the note's bytes. Written again byte
    /// for byte if a crash stopped the reopening before the store's commit.
    fn archive_reopen(
        &self,
        game: &str,
        step: u32,
        run: u32,
        reason: &str,
        notice: &str,
        notice_sig: &str,
    ) -> anyhow::Result<Vec<u8>> {
        let files: BTreeMap<String, Vec<u8>> = [
            ("notice.yaml".to_string(), notice.as_bytes().to_vec()),
            (
                "notice.yaml.sig".to_string(),
                notice_sig.as_bytes().to_vec(),
            ),
        ]
        .into();
        let note = RollbackNote {
            game: game.into(),
            step,
            run,
            reason: reason.into(),
            command_sha256: String::new(),
            manifest_sha256: String::new(),
            follows: sha256_hex(notice.as_bytes()),
        };
        let bytes = crate::yaml::to_string(&note)?.into_bytes();
        self.write_rollback(game, step, run, &files, &bytes)?;
        Ok(bytes)
    }
}

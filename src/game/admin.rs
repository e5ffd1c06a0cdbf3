//! The game master's operations, and the players' own commands, as signed
//! command files (`command.rs`) ask for them: pause, resume, extend, replace
//! an address or a key, preview, roll back, end; a player's zone and absence.
//!
//! Each command counts once (its SHA-256 is recorded with the change it
//! makes and the mails it causes, in one transaction), and every side is
//! told what concerns the whole game.

use super::archive::{self, KeyChange, RollbackNote, sha256_hex};
use super::command::{self, Command, CommandFile};
use super::report::{self, Rendered};
use super::store::{AdminChange, CommandRow, GameRow, GameStatus, OutboxRow, StepResult};
use super::{Server, resolve_step};
use crate::envelope::Problem;
use crate::mail::compose::{self, Party, ReplyMail, ReportMail, Thread};
use crate::rulesets;
use crate::side::SideId;
use crate::sig;
use crate::view::Viewer;
use std::path::Path;

/// Who may give the game master's commands, and where his previews go.
#[derive(Clone, Debug, Default)]
pub struct GameMaster {
    /// His public key line (`game_master_key:` in the configuration); no
    /// game master command is taken without it.
    pub key: Option<String>,
    /// His address (`game_master:`), for previews.
    pub email: Option<String>,
}

/// A verified command file, ready to apply.
#[derive(Clone, Debug, PartialEq)]
pub struct Issued {
    pub file: CommandFile,
    pub sha256: String,
    /// Unix seconds, from the caller's clock.
    pub now: i64,
}

impl Issued {
    fn record(&self, detail: &str) -> CommandRow {
        CommandRow {
            sha256: self.sha256.clone(),
            game: self.file.game.clone(),
            by: self.file.by.clone(),
            issued: self.file.issued.clone(),
            command: self.file.command.name().into(),
            applied_at: self.now,
            detail: detail.into(),
        }
    }
    /// A tag making the Message-IDs of this command's mails unique.
    fn tag(&self) -> String {
        format!("{}-{}", self.file.command.name(), &self.sha256[..8])
    }
}

/// Why a command was refused. Nothing was changed.
#[derive(Debug, thiserror::Error)]
pub enum CommandRefusal {
    #[error("{0}")]
    Invalid(Box<Problem>),
    #[error("no game called {0:?} on this server")]
    UnknownGame(String),
    #[error(
        "this server takes no game master commands: no game_master_key is configured (the operator must add it beside game_master)"
    )]
    NoGameMasterKey,
    #[error(
        "only the game master may {command}: a player may send `zone` and `absent` commands for his own side"
    )]
    NotGameMaster { command: String },
    #[error("`{command}` is a player's command: write `by: SIDE` and sign it with that side's key")]
    NotPlayer { command: String },
    #[error("{side} is not a side of game {game}")]
    UnknownSide { game: String, side: String },
    #[error("signature refused: {0}")]
    Signature(sig::SigError),
    #[error(
        "this command file was already applied (command {command}, by {by}, issued {issued}); nothing was done again. Write a new `issued:` time to give a command again"
    )]
    Replayed {
        command: String,
        by: String,
        issued: String,
    },
    #[error("{0}")]
    NotNow(String),
    #[error("server error: {0}")]
    Server(String),
}

fn server_err(e: impl std::fmt::Display) -> CommandRefusal {
    CommandRefusal::Server(e.to_string())
}

/// What an applied command did.
#[derive(Clone, Debug, PartialEq)]
pub struct Applied {
    pub game: String,
    pub command: String,
    /// For the sender's reply.
    pub reply: String,
}

impl Server {
    /// Check a signed command file: its form, its game, who sent it, the
    /// signature (namespace `galloper-command`) and that it is new.
    pub fn check_command(
        &self,
        file_name: &str,
        bytes: &[u8],
        signature: &str,
        gm: &GameMaster,
        now: i64,
    ) -> Result<Issued, CommandRefusal> {
        let file = command::parse(file_name, bytes).map_err(CommandRefusal::Invalid)?;
        let g = self
            .store
            .game(&file.game)
            .map_err(server_err)?
            .ok_or_else(|| CommandRefusal::UnknownGame(file.game.clone()))?;
        let name = file.command.name().to_string();
        let key = if file.command.is_gm() {
            if file.by != command::GM {
                return Err(CommandRefusal::NotGameMaster { command: name });
            }
            gm.key.clone().ok_or(CommandRefusal::NoGameMasterKey)?
        } else {
            if file.by == command::GM {
                return Err(CommandRefusal::NotPlayer { command: name });
            }
            self.store
                .players(&g.id)
                .map_err(server_err)?
                .into_iter()
                .find(|p| p.side.as_str() == file.by)
                .map(|p| p.public_key)
                .ok_or_else(|| CommandRefusal::UnknownSide {
                    game: g.id.clone(),
                    side: file.by.clone(),
                })?
        };
        sig::verify(&key, sig::COMMAND_NAMESPACE, bytes, signature)
            .map_err(CommandRefusal::Signature)?;
        let sha256 = sha256_hex(bytes);
        if let Some(done) = self.store.command_applied(&sha256).map_err(server_err)? {
            return Err(CommandRefusal::Replayed {
                command: done.command,
                by: done.by,
                issued: done.issued,
            });
        }
        Ok(Issued { file, sha256, now })
    }

    /// Check and apply a signed command file.
    pub fn run_command(
        &mut self,
        file_name: &str,
        bytes: &[u8],
        signature: &str,
        gm: &GameMaster,
        now: i64,
    ) -> Result<Applied, CommandRefusal> {
        let c = self.check_command(file_name, bytes, signature, gm, now)?;
        self.apply_command(&c, gm)
    }

    /// Apply a checked command.
    pub fn apply_command(
        &mut self,
        c: &Issued,
        gm: &GameMaster,
    ) -> Result<Applied, CommandRefusal> {
        let game = c.file.game.clone();
        let reply = match &c.file.command {
            Command::Pause { reason } => self.pause(c, reason)?,
            Command::Resume => self.resume(c)?,
            Command::Extend { until } => self.extend(c, until)?,
            Command::ReplaceAddress { side, email } => self.replace_address(c, side, email)?,
            Command::ReplaceKey { side, key } => self.replace_key(c, side, key)?,
            Command::Preview => self.preview(c, gm)?,
            Command::Rollback { step, reason } => self.rollback(c, *step, reason)?,
            Command::End { reason } => self.end_game(c, reason)?,
            Command::Zone { zone } => {
                let side = SideId::new(c.file.by.as_str());
                let text = self
                    .set_zone(&game, &side, zone)
                    .map_err(|e| CommandRefusal::NotNow(e.to_string()))?;
                self.record(c, &text, &AdminChange::Nothing, Vec::new())?
            }
            Command::Absent { from, until } => {
                let side = SideId::new(c.file.by.as_str());
                let text = self
                    .declare_absence(&game, &side, from, until, c.now)
                    .map_err(|e| CommandRefusal::NotNow(e.to_string()))?;
                self.record(c, &text, &AdminChange::Nothing, Vec::new())?
            }
        };
        Ok(Applied {
            game,
            command: c.file.command.name().into(),
            reply,
        })
    }

    fn command_game(&self, game: &str) -> Result<GameRow, CommandRefusal> {
        self.store
            .game(game)
            .map_err(server_err)?
            .ok_or_else(|| CommandRefusal::UnknownGame(game.into()))
    }

    fn not_over(&self, game: &str) -> Result<GameRow, CommandRefusal> {
        let g = self.command_game(game)?;
        if g.status == GameStatus::Over {
            return Err(CommandRefusal::NotNow(format!(
                "game {game} is over: nothing can be changed"
            )));
        }
        Ok(g)
    }

    /// Record the command with its change and mails; the reply text back.
    fn record(
        &mut self,
        c: &Issued,
        reply: &str,
        change: &AdminChange,
        mails: Vec<OutboxRow>,
    ) -> Result<String, CommandRefusal> {
        let fresh = self
            .store
            .admin_change(&c.file.game, change, Some(&c.record(reply)), &mails)
            .map_err(server_err)?;
        if !fresh {
            return Err(CommandRefusal::Replayed {
                command: c.file.command.name().into(),
                by: c.file.by.clone(),
                issued: c.file.issued.clone(),
            });
        }
        Ok(reply.into())
    }

    /// A plain-text mail from the server to one address about `game`.
    fn notice_mail(
        &self,
        c: &Issued,
        game: &str,
        reader: &str,
        to: &str,
        subject: &str,
        text: &str,
    ) -> Result<Option<OutboxRow>, CommandRefusal> {
        let Some(m) = &self.mail else {
            return Ok(None);
        };
        let message_id = compose::message_id(&m.domain, game, 0, reader, &c.tag());
        let bytes = compose::reply(&ReplyMail {
            from: &m.from,
            to: &Party {
                name: None,
                email: to.into(),
            },
            subject: format!("[{game}] {subject}"),
            message_id: message_id.clone(),
            in_reply_to: None,
            thread: Some(Thread {
                root: compose::thread_root(&m.domain, game),
                parent: None,
            }),
            text: format!("{text}\n\n-- \nGalloper, for the game master of {game}\n"),
            date: Some(crate::daemon::serve::rfc2822(c.now)),
        })
        .map_err(server_err)?;
        Ok(Some(OutboxRow {
            game: Some(game.into()),
            reader: Some(reader.into()),
            ..OutboxRow::queued(message_id, "notice", &m.from.email, to, bytes, c.now)
        }))
    }

    /// The same notice to every side of a game.
    fn tell_everyone(
        &self,
        c: &Issued,
        game: &str,
        subject: &str,
        text: &str,
    ) -> Result<Vec<OutboxRow>, CommandRefusal> {
        let mut out = Vec::new();
        for p in self.store.players(game).map_err(server_err)? {
            out.extend(self.notice_mail(c, game, p.side.as_str(), &p.email, subject, text)?);
        }
        Ok(out)
    }

    /// Pause a game: orders are still taken, nothing is resolved.
    pub fn pause(&mut self, c: &Issued, reason: &str) -> Result<String, CommandRefusal> {
        let game = &c.file.game;
        let g = self.not_over(game)?;
        if g.status == GameStatus::Paused {
            return Err(CommandRefusal::NotNow(format!(
                "game {game} is paused already"
            )));
        }
        let text = format!(
            "The game master has paused game {game}: {reason}\nOrders are still taken, but no step is resolved and no deadline runs until the game resumes."
        );
        let mails = self.tell_everyone(c, game, "Game paused", &text)?;
        self.record(c, &text, &AdminChange::Status(GameStatus::Paused), mails)
    }

    /// Resume a paused game; the next batch resolves whatever is complete.
    pub fn resume(&mut self, c: &Issued) -> Result<String, CommandRefusal> {
        let game = &c.file.game;
        let g = self.not_over(game)?;
        if g.status != GameStatus::Paused {
            return Err(CommandRefusal::NotNow(format!("game {game} is not paused")));
        }
        let text = format!(
            "The game master has resumed game {game}: steps are resolved again as soon as their orders are in."
        );
        let mails = self.tell_everyone(c, game, "Game resumed", &text)?;
        self.record(c, &text, &AdminChange::Status(GameStatus::Active), mails)
    }

    /// Move the open step's deadline (through the game's life).
    pub fn extend(&mut self, c: &Issued, until: &str) -> Result<String, CommandRefusal> {
        let game = &c.file.game;
        self.not_over(game)?;
        let at = command::parse_until(until, c.now).map_err(CommandRefusal::NotNow)?;
        let text = self
            .extend_deadline(game, at, c.now)
            .map_err(|e| CommandRefusal::NotNow(format!("the deadline was not moved: {e}")))?;
        let mails = self.tell_everyone(c, game, "Deadline moved", &text)?;
        self.record(c, &text, &AdminChange::Nothing, mails)
    }

    /// A player's new address; he is told at the old and the new one.
    pub fn replace_address(
        &mut self,
        c: &Issued,
        side: &SideId,
        email: &str,
    ) -> Result<String, CommandRefusal> {
        let game = &c.file.game;
        self.not_over(game)?;
        let email = email.trim();
        let plausible = email
            .split_once('@')
            .is_some_and(|(l, d)| !l.is_empty() && d.contains('.') && !d.contains('@'))
            && !email
                .chars()
                .any(|ch| ch.is_whitespace() || ch.is_control());
        if !plausible {
            return Err(CommandRefusal::NotNow(format!(
                "{email:?} is not an email address such as player@example.org"
            )));
        }
        let old = self.player(game, side)?.email;
        let text = format!(
            "The game master has changed the address of {side} in game {game} from {old} to {email}: reports and replies go to the new address from now on."
        );
        let mut mails = Vec::new();
        mails.extend(self.notice_mail(c, game, side.as_str(), email, "New address", &text)?);
        mails.extend(self.notice_mail(
            c,
            game,
            &format!("{side}-old"),
            &old,
            "New address",
            &text,
        )?);
        let change = AdminChange::Address {
            side: side.clone(),
            email: email.to_string(),
        };
        self.record(c, &text, &change, mails)
    }

    fn player(&self, game: &str, side: &SideId) -> Result<super::store::PlayerRow, CommandRefusal> {
        self.store
            .players(game)
            .map_err(server_err)?
            .into_iter()
            .find(|p| &p.side == side)
            .ok_or_else(|| CommandRefusal::UnknownSide {
                game: game.into(),
                side: side.to_string(),
            })
    }

    /// A player's new key, from the open step on. It goes into the public
    /// archive, signed by the server; orders the side sent for the open
    /// step with the old key are set aside.
    pub fn replace_key(
        &mut self,
        c: &Issued,
        side: &SideId,
        key: &str,
    ) -> Result<String, CommandRefusal> {
        let game = &c.file.game;
        self.not_over(game)?;
        self.player(game, side)?;
        let parsed = sig::parse_public(key).map_err(CommandRefusal::Signature)?;
        let key = parsed.to_openssh().map_err(server_err)?;
        let open = self
            .store
            .open_step(game)
            .map_err(server_err)?
            .ok_or_else(|| CommandRefusal::NotNow(format!("game {game} has no open step")))?;
        let set_aside = self
            .store
            .latest_orders(game, open.step)
            .map_err(server_err)?
            .contains_key(side);
        let fp = sig::fingerprint(&key).map_err(CommandRefusal::Signature)?;
        let mut text = format!(
            "The game master has replaced the key of {side} in game {game}: from step {} on, orders must be signed with the key {fp}. Orders signed with the old key are refused.",
            open.step
        );
        if set_aside {
            text.push_str(&format!(
                "\nThe orders {side} sent for step {} with the old key are set aside: send them again, signed with the new key.",
                open.step
            ));
        }
        // The archive first: a crash before the store is written leaves a
        // second, identical change when the command is handled again.
        let root = self.archive_dir(game);
        let n = archive::key_changes(&root).len() + 1;
        let change = KeyChange {
            game: game.clone(),
            side: side.to_string(),
            from_step: open.step,
            key: key.clone(),
            command_sha256: c.sha256.clone(),
        };
        archive::write_signed(
            &archive::keys_dir(&root),
            &format!("change-{n:03}.yaml"),
            crate::yaml::to_string(&change)
                .map_err(server_err)?
                .as_bytes(),
            self.private_key(),
        )
        .map_err(server_err)?;
        let mails = self.tell_everyone(c, game, &format!("New key for {side}"), &text)?;
        let change = AdminChange::Key {
            side: side.clone(),
            key,
            open_step: open.step,
        };
        self.record(c, &text, &change, mails)
    }

    /// Resolve the open step in memory with the orders held so far and the
    /// step's committed secrets, and mail the umpire's report to the game
    /// master alone. Nothing of the game changes.
    pub fn preview(&mut self, c: &Issued, gm: &GameMaster) -> Result<String, CommandRefusal> {
        let game = &c.file.game;
        let p = self
            .preview_report(game)
            .map_err(|e| CommandRefusal::NotNow(e.to_string()))?;
        let missing = if p.missing.is_empty() {
            "none".to_string()
        } else {
            p.missing
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut text = format!(
            "Preview of game {game} step {}: orders held from {}; missing: {missing}.",
            p.step,
            if p.held.is_empty() {
                "no side".to_string()
            } else {
                p.held
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        );
        let mut mails = Vec::new();
        match &p.rendered {
            Ok(r) => {
                let to = gm.email.clone().ok_or_else(|| {
                    CommandRefusal::NotNow(
                        "no game_master address is configured to send the preview to".into(),
                    )
                })?;
                text.push_str(&format!(
                    "\nThe umpire's report of the preview is mailed to {to} only; nothing was stored or sent to the players."
                ));
                if let Some(m) = &self.mail {
                    let message_id = compose::message_id(&m.domain, game, p.step, "gm", &c.tag());
                    let body = format!("{text}\n\n{}", r.text);
                    let bytes = compose::report(&ReportMail {
                        from: &m.from,
                        to: &Party {
                            name: None,
                            email: to.clone(),
                        },
                        subject: format!(
                            "[{game}] PREVIEW of step {} (not sent to the players)",
                            p.step
                        ),
                        message_id: message_id.clone(),
                        thread: Thread {
                            root: compose::thread_root(&m.domain, game),
                            parent: None,
                        },
                        text: &body,
                        html: &r.html,
                        png: &r.png,
                        attachments: Vec::new(),
                        date: Some(crate::daemon::serve::rfc2822(c.now)),
                    })
                    .map_err(server_err)?;
                    mails.push(OutboxRow {
                        game: Some(game.clone()),
                        step: Some(p.step),
                        reader: Some("gm".into()),
                        ..OutboxRow::queued(message_id, "preview", &m.from.email, &to, bytes, c.now)
                    });
                }
            }
            Err(e) => text.push_str(&format!(
                "\nThe step cannot be resolved with these orders: {e}"
            )),
        }
        self.record(c, &text, &AdminChange::Nothing, mails)
    }

    /// The open step resolved in memory: the umpire's report, rendered, or
    /// why it cannot be resolved yet. Reads the store, changes nothing.
    pub fn preview_report(&self, game: &str) -> anyhow::Result<Preview> {
        let g = self
            .store
            .game(game)?
            .ok_or_else(|| anyhow::anyhow!("no game called {game:?}"))?;
        let rules = rulesets::by_name(&g.ruleset)
            .ok_or_else(|| anyhow::anyhow!("unknown ruleset {}", g.ruleset))?;
        let open = self
            .store
            .open_step(game)?
            .ok_or_else(|| anyhow::anyhow!("game {game} has no open step to preview"))?;
        let orders = self.store.latest_orders(game, open.step)?;
        let due = rules.due(&open.state_before)?;
        let missing = due
            .owed
            .iter()
            .map(|o| o.side.clone())
            .filter(|s| !orders.contains_key(s))
            .collect();
        let sides = rules.sides(&g.scenario)?;
        // Same secrets, same orders: the very dice the step would roll.
        let rendered = resolve_step(rules, &sides, &open, &orders).and_then(|(res, inputs)| {
            let stored = StepResult {
                state_after: res.state.clone(),
                events: crate::yaml::to_string(&res.events)?,
                dice: crate::yaml::to_string(&res.dice)?,
            };
            let mut view =
                report::build(rules, game, &open, &stored, &inputs, None, &Viewer::Umpire)?;
            view.next.insert(
                0,
                "PREVIEW for the game master: not sent to the players, nothing stored".into(),
            );
            Rendered::new(view)
        });
        Ok(Preview {
            step: open.step,
            held: orders.keys().cloned().collect(),
            missing,
            rendered: rendered.map_err(|e| e.to_string()),
        })
    }

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

    /// End the game now: status over, the archive sealed, every side told.
    pub fn end_game(&mut self, c: &Issued, reason: &str) -> Result<String, CommandRefusal> {
        let game = &c.file.game;
        self.not_over(game)?;
        let text = format!(
            "The game master has ended game {game}: {reason}\nThe archive is sealed: every order, secret and state is published for the audit (`galloper audit`)."
        );
        let mails = self.tell_everyone(c, game, "Game over", &text)?;
        let reply = self.record(c, &text, &AdminChange::Status(GameStatus::Over), mails)?;
        self.seal(game).map_err(server_err)?;
        Ok(reply)
    }
}

/// The open step resolved in memory, for the game master.
pub struct Preview {
    pub step: u32,
    /// Sides whose orders are held for the step.
    pub held: Vec<SideId>,
    /// Sides that owe orders and have sent none.
    pub missing: Vec<SideId>,
    /// The umpire's report, or why the step cannot be resolved.
    pub rendered: Result<Rendered, String>,
}

/// A step resolved again after a rollback gets report Message-IDs of its
/// own: the first run's mails went out under the plain ones, and mail
/// programs would fold the new reports into them.
pub(super) fn rerun_ids(root: &Path, step: u32, mails: &mut [OutboxRow]) {
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

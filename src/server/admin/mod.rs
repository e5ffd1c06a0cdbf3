//! The game master's operations, and the players' own commands, as signed
//! command files (`command.rs`) ask for them: pause, resume, extend, replace
//! an address or a key, preview, roll back, end; a player's zone and absence.
//!
//! Each command counts once (its SHA-256 is recorded with the change it
//! makes and the mails it causes, in one transaction), and every side is
//! told what concerns the whole game.
//!
//! `mod.rs` checks a command file and dispatches it, and holds the commands
//! on the game's status (pause, resume, extend, end); `players.rs` replaces
//! an address or a key, `preview.rs` previews the open step and
//! `rollback.rs` undoes the last resolved step.

mod players;
mod preview;
mod rollback;

pub use preview::Preview;
pub(super) use rollback::{clear_withdrawn, rerun_ids};

use super::Server;
use super::command::{self, Command, CommandFile};
use super::store::{AdminChange, CommandRow, GameRow, GameStatus, OutboxRow};
use crate::archive::sha256_hex;
use crate::envelope::Problem;
use crate::mail::compose::{self, Party, ReplyMail, Thread};
use crate::side::SideId;
use crate::sig;

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
    /// The command names no creation of its game, or another one.
    #[error(
        "this command is not for this game {game}: {problem}. Write the line `created: {created}` (the SHA-256 of the game's game.yaml, as `galloper status {game}` prints it), sign the file again and send it"
    )]
    OtherCreation {
        game: String,
        problem: String,
        created: String,
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
        self.same_creation(&file, true)?;
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

    /// Check a command file given on the server's own command line
    /// (`galloper gm FILE`): parsed and refused as by mail, but with no
    /// signature, since whoever can run galloper on the data folder holds
    /// every authority over it already. Applied once, like a mailed one.
    pub fn check_local_command(
        &self,
        file_name: &str,
        bytes: &[u8],
        now: i64,
    ) -> Result<Issued, CommandRefusal> {
        let file = command::parse(file_name, bytes).map_err(CommandRefusal::Invalid)?;
        let g = self.command_game(&file.game)?;
        if !file.command.is_gm()
            && !self
                .store
                .players(&g.id)
                .map_err(server_err)?
                .iter()
                .any(|p| p.side.as_str() == file.by)
        {
            return Err(CommandRefusal::UnknownSide {
                game: g.id.clone(),
                side: file.by.clone(),
            });
        }
        self.same_creation(&file, false)?;
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

    /// The SHA-256 of a game's `game.yaml`, which names its creation: what
    /// a signed command writes in `created:`.
    pub fn game_created(&self, game: &str) -> anyhow::Result<String> {
        let path = self.archive_dir(game).join("game.yaml");
        let bytes = std::fs::read(&path)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
        Ok(sha256_hex(&bytes))
    }

    /// Refuse a command for another creation of its game (a game that
    /// reused the id), or, when `required` (a mailed command), one that
    /// names none.
    fn same_creation(&self, file: &CommandFile, required: bool) -> Result<(), CommandRefusal> {
        let created = self.game_created(&file.game).map_err(server_err)?;
        let problem = match file.created.as_deref().map(str::trim) {
            Some(c) if c.eq_ignore_ascii_case(&created) => return Ok(()),
            Some(c) => format!("it names the game created as {c}, and this one is {created}"),
            None if required => "it names no creation of the game".to_string(),
            None => return Ok(()),
        };
        Err(CommandRefusal::OtherCreation {
            game: file.game.clone(),
            problem,
            created,
        })
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
        // The command's time is the server's present: a rollback of a
        // beacon step names its new round from it, whoever runs the
        // command (the daemon, cron's `process`, `galloper gm`).
        self.see_time(c.now);
        let game = c.file.game.clone();
        let reply = match &c.file.command {
            Command::Pause { reason } => self.pause(c, reason)?,
            Command::Resume => self.resume(c)?,
            Command::Extend { until, earlier } => self.extend(c, until, *earlier)?,
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
            date: Some(crate::mail::date::rfc2822(c.now)),
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
    pub fn extend(
        &mut self,
        c: &Issued,
        until: &str,
        earlier: bool,
    ) -> Result<String, CommandRefusal> {
        let game = &c.file.game;
        self.not_over(game)?;
        // `+48h` adds to the deadline the step has, not to the time the
        // command was signed: an extension never shortens by accident.
        let old = self.open_deadline(game).map_err(server_err)?;
        let at =
            command::parse_until(until, old.unwrap_or(c.now)).map_err(CommandRefusal::NotNow)?;
        if let Some(old) = old
            && at < old
            && !earlier
        {
            return Err(CommandRefusal::NotNow(format!(
                "the deadline was not moved: {until} is {}, before the current deadline {}. To move a deadline earlier, say so: `extend: {{until: {until}, earlier: true}}`",
                crate::server::schedule::format_zoned(at, "UTC"),
                crate::server::schedule::format_zoned(old, "UTC"),
            )));
        }
        let text = self
            .extend_deadline(game, at, c.now)
            .map_err(|e| CommandRefusal::NotNow(format!("the deadline was not moved: {e}")))?;
        // Each player reads the times in his own zone, with UTC beside.
        let mut mails = Vec::new();
        for p in self.store.players(game).map_err(server_err)? {
            let told = self
                .deadline_moved(game, old, at, Some(&p.side))
                .map_err(server_err)?;
            mails.extend(self.notice_mail(
                c,
                game,
                p.side.as_str(),
                &p.email,
                "Deadline moved",
                &told,
            )?);
        }
        self.record(c, &text, &AdminChange::Nothing, mails)
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
        self.seal(game, &format!("ended by the game master: {reason}"))
            .map_err(server_err)?;
        Ok(reply)
    }
}

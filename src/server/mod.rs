//! A Galloper server: games, their steps, accepted orders, resolution, the
//! archive and the reports. The ruleset is pure; everything that touches the
//! disk, the clock or the OS's randomness is here.

pub mod admin;
pub mod beacon;
pub mod briefing;
pub mod command;
mod fresh;
pub mod life;
pub mod orders_page;
pub mod report;
pub mod schedule;
mod states;
pub mod store;

use crate::archive::{
    self, ArchivedDie, GameFile, HiddenReveal, Notice, OrdersIndex, PublicView, Reveal, folder,
    sha256_hex,
};
use crate::dice::{StreamKind, protocol};
use crate::envelope::{self, Problem};
use crate::ruleset::{AnyRuleset, Due, LoadedState};
use crate::rulesets;
use crate::side::SideId;
use crate::sig;
use anyhow::{Context, anyhow, bail};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use store::{GameRow, GameStatus, OrdersRow, PlayerRow, StepResult, StepRow, Store};

/// A player as `galloper new` registers him.
#[derive(Clone, Debug)]
pub struct PlayerSpec {
    pub side: SideId,
    pub email: String,
    pub public_key: String,
}

/// Why submitted orders were refused. Nothing was stored.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    #[error("{0}")]
    Invalid(Box<Problem>),
    /// What the rules refuse: the first problems, each with its line, and
    /// how many more there are (a file of ten thousand bad entries gets a
    /// short answer, found in time linear in its size).
    #[error("{}{}", .problems.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n"), more_problems(*.more))]
    Rules { problems: Vec<Problem>, more: usize },
    #[error(
        "no such game: there is no game called {0:?} on this server (check the `game:` line against your orders template)"
    )]
    UnknownGame(String),
    #[error("game {0} is over: no more orders are taken")]
    GameOver(String),
    #[error("these orders are for step {sent} but the open step of {game} is {open}: {hint}")]
    WrongStep {
        game: String,
        sent: u32,
        open: u32,
        hint: &'static str,
    },
    #[error("{side} is not a side of game {game}")]
    UnknownSide { game: String, side: String },
    #[error("{side} owes no orders for step {step}: {due}")]
    NotOwed {
        side: String,
        step: u32,
        due: String,
    },
    #[error("signature refused: {0}")]
    Signature(sig::SigError),
    /// A signature that fails over a file whose bytes a mail program
    /// changed (CRLF line endings): said with what happened.
    #[error("signature refused: {0}; {hint}", hint = envelope::CRLF_HINT)]
    SignatureInTransit(sig::SigError),
    /// The file names no notice, or another than the open step's.
    #[error("{0}")]
    Notice(Box<Problem>),
    /// The file has no revision, one not above the last accepted, or was
    /// accepted and replaced before.
    #[error("{0}")]
    Superseded(Box<Problem>),
    /// The very file accepted last for this side and step, sent again.
    #[error(
        "these orders (sha256 {sha256}) are already the accepted orders of {side} for step {step} of game {game}; nothing was changed"
    )]
    AlreadyAccepted {
        game: String,
        step: u32,
        side: String,
        sha256: String,
    },
    /// A beacon step's orders came after its close of orders: its round
    /// may be public by then, so the file could have been chosen knowing
    /// the dice.
    #[error(
        "these orders reached the server at {received}, after step {step} of game {game} closed its orders at {closed}: the step's dice take beacon round {round}, published at {round_time}, and orders taken once it may be known could be chosen to suit the dice. Nothing was stored; the step goes on with the orders it holds (or the game's rule for missed orders)"
    )]
    Closed {
        game: String,
        step: u32,
        received: String,
        closed: String,
        round: u64,
        round_time: String,
    },
    #[error("server error: {0}")]
    Server(String),
}

/// How many problems of a refused file are listed; the rest are counted.
pub const PROBLEMS_LISTED: usize = 20;

fn more_problems(more: usize) -> String {
    match more {
        0 => String::new(),
        n => format!(
            "\n… and {n} more problem{} like these: put right the ones above and send the file again",
            if n == 1 { "" } else { "s" }
        ),
    }
}

/// What an acceptance says back.
#[derive(Clone, Debug, PartialEq)]
pub struct Receipt {
    pub game: String,
    pub step: u32,
    pub side: SideId,
    pub sha256: String,
    pub replaced: Option<String>,
}

/// What [`Server::process_games`] did: the steps resolved, and the games
/// that failed (each left as it was).
#[derive(Debug, Default)]
pub struct Processed {
    pub resolved: Vec<Resolved>,
    pub stuck: Vec<Stuck>,
}

/// A game whose step could not be processed, with what to do about it.
#[derive(Debug)]
pub struct Stuck {
    pub game: String,
    /// The error, with its causes.
    pub error: String,
    /// What the operator or the game master can do.
    pub advice: String,
}

impl Stuck {
    pub fn new(game: &str, e: anyhow::Error) -> Stuck {
        let bad_address = e.chain().any(|c| {
            matches!(
                c.downcast_ref::<crate::mail::compose::ComposeError>(),
                Some(crate::mail::compose::ComposeError::Address { .. })
            )
        });
        let store = e
            .chain()
            .any(|c| c.downcast_ref::<store::StoreError>().is_some());
        let advice = if bad_address {
            format!(
                "a player's address cannot be written to: the game master sends a replace_address command for game {game} (docs/MAIL.md); the step is tried again at every batch"
            )
        } else if store {
            "check the data folder (free space, permissions, another galloper using it); the step is tried again at every batch".to_string()
        } else {
            format!(
                "the step stays open and is tried again at every batch; `galloper status {game}` shows it, and the game master may pause the game meanwhile"
            )
        };
        Stuck {
            game: game.to_string(),
            error: format!("{e:#}"),
            advice,
        }
    }
}

/// One resolved step, for the caller's log.
#[derive(Clone, Debug, PartialEq)]
pub struct Resolved {
    pub game: String,
    pub step: u32,
    pub heading: String,
    pub over: bool,
}

pub struct Server {
    dir: PathBuf,
    store: Store,
    key: sig::KeyPair,
    mail: Option<MailSettings>,
    /// The club site's address (`site_url:`), named by report mails as
    /// the place of the step's archive files.
    site_url: Option<String>,
    /// Whether report and briefing mails carry the orders page
    /// (`orders_page:`; on unless the club turns it off).
    orders_page_in_mail: bool,
    states: states::States,
    /// The latest time the server knows has passed (a tick's, a verified
    /// beacon round's): a beacon game's new step takes its deadline from it.
    clock: Option<i64>,
    /// Tests only ([`Server::fix_for_paired_tests`]): step secrets from a
    /// seed and report mails dated at a fixed time. `None` in production:
    /// secrets from the OS, mails dated by the clock.
    fixed: Option<Fixed>,
}

/// What [`Server::fix_for_paired_tests`] fixes.
#[derive(Clone, Copy, Debug)]
struct Fixed {
    seed: [u8; 32],
    now: i64,
}

// A server may be moved to another thread (the mail fuzz target keeps one
// in a static): whatever it caches must stay `Send`.
const _: fn() = || {
    fn send<T: Send>() {}
    send::<Server>();
};

/// Who the server's mail comes from; set by the daemon, so that resolving a
/// step queues every player's report mail with it.
#[derive(Clone, Debug)]
pub struct MailSettings {
    pub from: crate::mail::compose::Party,
    pub domain: String,
    /// Where notices for the game master go (missed deadlines, waiting steps).
    pub game_master: Option<String>,
}

pub fn valid_game_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 40
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !id.starts_with('-')
}

/// The ruleset a scenario names in its `ruleset:` line.
pub fn ruleset_of_scenario(text: &str) -> anyhow::Result<&'static dyn AnyRuleset> {
    #[derive(serde::Deserialize)]
    struct Head {
        ruleset: String,
    }
    crate::scenario_check::size(text).map_err(|e| anyhow!(e))?;
    let head: Head = crate::yaml::from_str(text).context("the scenario needs a `ruleset:` line")?;
    rulesets::by_name(&head.ruleset).ok_or_else(|| {
        anyhow!(
            "unknown ruleset {:?}; known: {}",
            head.ruleset,
            rulesets::names().join(", ")
        )
    })
}

impl Server {
    /// Open (or create) a server's data folder. A new data folder is 0700,
    /// its store and key 0600 from their first byte, whatever the umask
    /// (`crate::files`); one made wider by an older galloper is narrowed.
    /// Temporary files that a crash left are removed.
    pub fn open(dir: &Path) -> anyhow::Result<Server> {
        crate::files::create_dir(dir)
            .with_context(|| format!("cannot create the data folder {}", dir.display()))?;
        narrow(dir)?;
        let store = Store::open(&dir.join("galloper.db"))?;
        let key_path = dir.join("server_key");
        let key = if key_path.exists() {
            read_key(dir)?
        } else {
            let k = sig::keygen("galloper-server")?;
            crate::files::write_private(
                &dir.join("server_key.pub"),
                format!("{}\n", k.public_line).as_bytes(),
            )?;
            // 0600 from the first byte: there is no instant at which
            // another user could open it.
            crate::files::write_private(&key_path, k.private_openssh.as_bytes())?;
            k
        };
        match folder::sweep(dir) {
            Ok(0) => {}
            Ok(n) => {
                tracing::info!(folder = %dir.display(), removed = n, "temporary files left by a crash removed")
            }
            Err(e) => {
                tracing::warn!(folder = %dir.display(), error = %e, "could not look for temporary files left by a crash")
            }
        }
        Ok(Server {
            dir: dir.to_path_buf(),
            store,
            key,
            mail: None,
            site_url: None,
            orders_page_in_mail: true,
            states: states::States::default(),
            clock: None,
            fixed: None,
        })
    }

    /// Open a data folder that must exist already, creating nothing (no
    /// folder, no store, no key): for commands that only read, such as
    /// `status` and `render`. A missing folder is an error that says so.
    pub fn open_existing(dir: &Path) -> anyhow::Result<Server> {
        if !dir.is_dir() {
            bail!(
                "there is no data folder at {}: give the right one with --data (or GALLOPER_DATA), or create a game there with `galloper new`",
                dir.display()
            );
        }
        let db = dir.join("galloper.db");
        if !db.is_file() || !dir.join("server_key").is_file() {
            bail!(
                "{} is not a galloper data folder (no galloper.db or server_key in it): give the right one with --data (or GALLOPER_DATA)",
                dir.display()
            );
        }
        Ok(Server {
            dir: dir.to_path_buf(),
            store: Store::open(&db)?,
            key: read_key(dir)?,
            mail: None,
            site_url: None,
            orders_page_in_mail: true,
            states: states::States::default(),
            clock: None,
            fixed: None,
        })
    }

    /// For tests that play paired games only: every step's secrets derived
    /// from `seed` (so two games given the same seed draw the same secrets)
    /// and the report mails dated `now`. Anyone who knows the seed knows
    /// every die: nothing but a test may call this (the `galloper` command
    /// never does), and a server not told keeps the OS's randomness.
    #[doc(hidden)]
    pub fn fix_for_paired_tests(&mut self, seed: [u8; 32], now: i64) {
        self.fixed = Some(Fixed { seed, now });
    }

    /// The time a report mail is dated: the clock, but in a test that
    /// fixed it.
    pub(crate) fn mail_time(&self) -> i64 {
        match self.fixed {
            Some(f) => f.now,
            None => std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs() as i64)
                .unwrap_or(0),
        }
    }

    /// The time a file reaches the server: the latest time it was told
    /// (the intake tells it each message's, a tick its own), else the
    /// system clock; a paired test's fixed time.
    pub(crate) fn receipt_time(&self) -> i64 {
        match (self.fixed, self.clock) {
            (Some(f), _) => f.now,
            (None, Some(c)) => c,
            (None, None) => self.mail_time(),
        }
    }

    /// Queue report mails when steps resolve (the daemon), or not (the command line).
    pub fn set_mail(&mut self, mail: Option<MailSettings>) {
        self.mail = mail;
    }

    /// The club site's address, for report mails to name (`site_url:`).
    pub fn set_site_url(&mut self, url: Option<String>) {
        self.site_url = url;
    }

    /// Whether report and briefing mails carry the orders page
    /// (`orders_page:` in the daemon's configuration).
    pub fn set_orders_page_in_mail(&mut self, on: bool) {
        self.orders_page_in_mail = on;
    }
    pub(crate) fn orders_page_in_mail(&self) -> bool {
        self.orders_page_in_mail
    }
    pub fn store_mut(&mut self) -> &mut Store {
        &mut self.store
    }
    pub(crate) fn private_key(&self) -> &str {
        &self.key.private_openssh
    }
    pub fn server_public_key(&self) -> &str {
        &self.key.public_line
    }
    pub fn archive_dir(&self, game: &str) -> PathBuf {
        self.dir.join("archive").join(game)
    }
    pub fn store(&self) -> &Store {
        &self.store
    }
    /// A game not in this data folder, said with the folder looked in.
    pub fn no_game(&self, game: &str) -> anyhow::Error {
        anyhow!(
            "no game called {game:?} in the data folder {}: give the right folder with --data (or GALLOPER_DATA); `galloper status` lists the games of a folder",
            self.dir.display()
        )
    }

    /// Create a game and open its first step.
    pub fn new_game(
        &mut self,
        id: &str,
        scenario: &str,
        players: &[PlayerSpec],
    ) -> anyhow::Result<()> {
        self.new_game_with(id, scenario, players, None, None)
    }

    /// Create a game with its schedule (YAML) and, for protocol version 2,
    /// a public randomness beacon (which needs the schedule).
    pub fn new_game_with(
        &mut self,
        id: &str,
        scenario: &str,
        players: &[PlayerSpec],
        schedule: Option<&str>,
        beacon: Option<beacon::BeaconStart>,
    ) -> anyhow::Result<()> {
        if !valid_game_id(id) {
            bail!("game ids are 1 to 40 lowercase letters, digits and dashes: {id:?} is not");
        }
        if self.store.game(id)?.is_some() {
            bail!("game {id} exists already");
        }
        let rules = ruleset_of_scenario(scenario)?;
        let sides = rules.sides(scenario)?;
        for s in &sides {
            if !players.iter().any(|p| &p.side == s) {
                bail!("no player given for side {s}: add --player {s}:EMAIL:KEYFILE");
            }
        }
        for p in players {
            if !sides.contains(&p.side) {
                bail!(
                    "{} is not a side of this scenario (sides: {})",
                    p.side,
                    sides
                        .iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }
            sig::parse_public(&p.public_key).with_context(|| format!("the key for {}", p.side))?;
            crate::mail::address::check(&p.email)
                .with_context(|| format!("the address for {}", p.side))?;
        }
        let state = rules.start(scenario)?;
        let public_scenario = rules.public_scenario(scenario)?;
        let game_beacon = self.settle_beacon(id, schedule, beacon.as_ref())?;
        // Before the first notice, which names the schedule's rule for
        // missed orders.
        match schedule {
            Some(y) => {
                schedule::Schedule::parse(y)?;
                self.store.set_schedule(id, y)?;
            }
            None => self.store.forget_schedule(id)?,
        }
        let rows: Vec<PlayerRow> = players
            .iter()
            .map(|p| PlayerRow {
                game: id.into(),
                side: p.side.clone(),
                email: p.email.trim().into(),
                public_key: p.public_key.trim().into(),
            })
            .collect();
        let mut gf = GameFile {
            galloper: 1,
            game: id.into(),
            ruleset: rules.name().into(),
            sides: sides.iter().map(|s| s.to_string()).collect(),
            players: rows
                .iter()
                .map(|p| (p.side.to_string(), p.public_key.clone()))
                .collect(),
            server_key: self.key.public_line.clone(),
            scenario_sha256: String::new(),
            sealed_scenario: None,
            beacon: game_beacon,
        };
        // Step 1's secrets are drawn (and stored) first: a hidden
        // scenario's salt comes from them.
        let mut first = self.step_secrets(id, 1, 1, &state)?;
        let (published, start_salt) = match &public_scenario {
            None => (scenario, [0; 32]),
            Some(public) => {
                let salt = archive::start_salt(id, &first.hidden_secret);
                gf.sealed_scenario =
                    Some(archive::scenario_commitment(id, &salt, scenario.as_bytes()));
                (public.as_str(), salt)
            }
        };
        gf.scenario_sha256 = sha256_hex(published.as_bytes());
        let gf = crate::yaml::to_string(&gf)?;
        // The game's files first: the first notice names game.yaml, and a
        // crash before the store's commit leaves files that a second `new`
        // writes again, byte for byte.
        let root = self.archive_dir(id);
        archive::write_atomic(&root.join("scenario.yaml"), published.as_bytes())?;
        archive::write_signed(&root, "game.yaml", gf.as_bytes(), &self.key.private_openssh)?;
        self.write_notice(
            &mut first,
            1,
            sha256_hex(gf.as_bytes()),
            &rules.due(&state)?,
            archive::state_commitment(id, 0, &start_salt, state.as_bytes()),
        )?;
        let game = GameRow {
            id: id.into(),
            ruleset: rules.name().into(),
            scenario: scenario.into(),
            status: GameStatus::Active,
        };
        self.store.create_game(&game, &rows, &first)?;
        self.publish_open_notice(id)?;
        Ok(())
    }

    /// A step's row with its secrets, its notice not yet written. The
    /// secrets are stored before anything is published, and a second try
    /// finds the same ones (`Store::secrets_for`): a notice once written
    /// is never drawn again.
    pub(crate) fn step_secrets(
        &mut self,
        game: &str,
        step: u32,
        run: u32,
        state: &str,
    ) -> anyhow::Result<StepRow> {
        let fixed = self.fixed;
        let (public_secret, hidden_secret) =
            self.store.secrets_for(game, step, run, || match fixed {
                None => Ok((protocol::fresh_secret()?, protocol::fresh_secret()?)),
                Some(f) => Ok((
                    fixed_secret(&f.seed, game, step, run, StreamKind::Public),
                    fixed_secret(&f.seed, game, step, run, StreamKind::Hidden),
                )),
            })?;
        Ok(StepRow {
            game: game.into(),
            step,
            public_secret,
            hidden_secret,
            state_before: state.into(),
            notice: String::new(),
            notice_sig: String::new(),
            result: None,
            beacon: None,
        })
    }

    /// Write and sign the notice of `row`'s step: it follows the chain link
    /// `follows` (a SHA-256, `archive::Notice::follows`), and commits to
    /// the step's secrets and to the state it starts from.
    pub(crate) fn write_notice(
        &self,
        row: &mut StepRow,
        run: u32,
        follows: String,
        due: &Due,
        state_before_commitment: String,
    ) -> anyhow::Result<()> {
        let (game, step) = (row.game.as_str(), row.step);
        let notice = Notice {
            game: game.into(),
            step,
            run,
            follows,
            heading: due.heading.clone(),
            owed: due
                .owed
                .iter()
                .map(|o| format!("{}: {}", o.side, o.note))
                .collect(),
            public_commitment: hex::encode(protocol::commit(
                StreamKind::Public,
                game,
                step,
                &row.public_secret,
            )),
            hidden_commitment: hex::encode(protocol::commit(
                StreamKind::Hidden,
                game,
                step,
                &row.hidden_secret,
            )),
            state_before_commitment,
            beacon: self.named_beacon(game, step, run, due)?,
            missed: self.schedule(game)?.map(|s| s.missed),
        };
        row.notice = crate::yaml::to_string(&notice)?;
        row.notice_sig = sig::sign(
            &self.key.private_openssh,
            sig::REPORT_NAMESPACE,
            row.notice.as_bytes(),
        )?;
        Ok(())
    }

    fn publish_notice(&self, step: &StepRow) -> anyhow::Result<()> {
        folder::write_batch(
            &archive::step_dir(&self.archive_dir(&step.game), step.step),
            &[
                ("notice.yaml", step.notice.as_bytes()),
                ("notice.yaml.sig", step.notice_sig.as_bytes()),
            ],
            archive::Durability::Synced,
        )?;
        Ok(())
    }

    /// Make the archive show the open step's notice as the store holds it:
    /// after `new`, after a rollback, or after a crash between the store's
    /// commit and the notice's write. Inside a group of writes it waits,
    /// for the group's commit is what makes the notice's secrets durable;
    /// the next `process` publishes it.
    pub(crate) fn publish_open_notice(&self, game: &str) -> anyhow::Result<()> {
        if self.store.in_group() {
            return Ok(());
        }
        let Some(open) = self.store.open_step(game)? else {
            return Ok(());
        };
        let root = self.archive_dir(game);
        // A rollback whose archive was written but whose commit never
        // landed did not happen: nobody was told, and its folder goes.
        // The run each step holds is the one its notice names: a folder
        // `rollback-K` for a run K still in force (the last resolved
        // step's, or the open step's, opened again) was written for a
        // change the store never took.
        let run_of = |notice: &str| crate::yaml::from_str::<Notice>(notice).map(|n| n.run);
        let mut stale = vec![archive::rollback_dir(
            &root,
            open.step,
            run_of(&open.notice)?,
        )];
        // Only the notice: this runs at every batch, and a step's row holds
        // its states, events and dice.
        if open.step > 1
            && let Some(last) = self.store.step_notice(game, open.step - 1)?
        {
            stale.push(archive::rollback_dir(&root, open.step - 1, run_of(&last)?));
        }
        for dir in stale.iter().filter(|d| d.exists()) {
            tracing::warn!(
                game,
                folder = %dir.display(),
                "removing the folder of a rollback that was never committed"
            );
            std::fs::remove_dir_all(dir)?;
        }
        let dir = archive::step_dir(&root, open.step);
        match std::fs::read(dir.join("notice.yaml")) {
            Ok(b) if b == open.notice.as_bytes() && dir.join("notice.yaml.sig").exists() => {
                return Ok(());
            }
            Ok(b) if b != open.notice.as_bytes() => {
                // The run a rollback withdrew, whose files were not yet
                // cleared when the store's commit landed.
                let runs = run_of(&open.notice)?.saturating_sub(1);
                let note = archive::rollback_dir(&root, open.step, runs).join("rollback.yaml.sig");
                if runs == 0 || !note.exists() {
                    bail!(
                        "the archive's notice for step {} of game {game} ({}) is not the one the store holds, and no rollback explains it: the operator must look before the game goes on",
                        open.step,
                        dir.join("notice.yaml").display()
                    );
                }
                admin::clear_withdrawn(&root, open.step)?;
            }
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e.into()),
        }
        self.publish_notice(&open)
    }

    /// What the open step of a game waits for.
    pub fn due(&self, game: &str) -> anyhow::Result<Option<(StepRow, Due)>> {
        let g = self.store.game(game)?.ok_or_else(|| self.no_game(game))?;
        let rules = rulesets::by_name(&g.ruleset)
            .ok_or_else(|| anyhow!("game {game} uses unknown ruleset {}", g.ruleset))?;
        match self.store.open_step(game)? {
            Some(s) => {
                let due = self.states.load(rules, &s.state_before)?.due();
                Ok(Some((s, due)))
            }
            None => Ok(None),
        }
    }

    /// Check and store a signed orders file.
    pub fn submit(
        &mut self,
        file_name: &str,
        bytes: &[u8],
        signature: &str,
    ) -> Result<Receipt, Refusal> {
        let row = self.prepare(file_name, bytes, signature)?;
        let replaced = self
            .store
            .accept_orders(&row)
            .map_err(|e| Refusal::Server(e.to_string()))?;
        Ok(Receipt {
            game: row.game,
            step: row.step,
            side: row.side,
            sha256: row.sha256,
            replaced,
        })
    }

    /// Check a signed orders file as `submit` does, without storing it: the
    /// row to store, or why it is refused. The mail intake stores the row
    /// together with the message's outcome and reply.
    pub fn prepare(
        &self,
        file_name: &str,
        bytes: &[u8],
        signature: &str,
    ) -> Result<OrdersRow, Refusal> {
        self.prepare_after(file_name, bytes, signature, &[])
    }

    /// [`Server::prepare`], with the files of the same message accepted
    /// before this one and not stored yet (`pending`): a file is refused if
    /// it is not newer than those too.
    pub fn prepare_after(
        &self,
        file_name: &str,
        bytes: &[u8],
        signature: &str,
        pending: &[OrdersRow],
    ) -> Result<OrdersRow, Refusal> {
        self.checked(file_name, bytes, Some(signature), pending)
    }

    /// `galloper orders check`: an orders file checked against the open
    /// step as the server would check it (the signature too, when one is
    /// given), storing nothing.
    pub fn check_orders(
        &self,
        file_name: &str,
        bytes: &[u8],
        signature: Option<&str>,
    ) -> Result<OrdersRow, Refusal> {
        self.checked(file_name, bytes, signature, &[])
    }

    fn checked(
        &self,
        file_name: &str,
        bytes: &[u8],
        signature: Option<&str>,
        pending: &[OrdersRow],
    ) -> Result<OrdersRow, Refusal> {
        // The game and side from their lines, so that the signature is
        // checked before a stranger's file costs a full parse.
        let (game, side) = envelope::head(file_name, bytes).map_err(Refusal::Invalid)?;
        let g = self
            .store
            .game(&game)
            .map_err(|e| Refusal::Server(e.to_string()))?
            .ok_or_else(|| Refusal::UnknownGame(game.clone()))?;
        if g.status == GameStatus::Over {
            return Err(Refusal::GameOver(g.id));
        }
        let players = self
            .store
            .players(&g.id)
            .map_err(|e| Refusal::Server(e.to_string()))?;
        let player =
            players
                .iter()
                .find(|p| p.side == side)
                .ok_or_else(|| Refusal::UnknownSide {
                    game: g.id.clone(),
                    side: side.to_string(),
                })?;
        // The signature covers the game, step and side inside the file, so a
        // signature is good for one game, one step and one side only.
        if let Some(signature) = signature {
            sig::verify(&player.public_key, sig::ORDERS_NAMESPACE, bytes, signature).map_err(
                |e| match e {
                    sig::SigError::BadSignature if bytes.windows(2).any(|w| w == b"\r\n") => {
                        Refusal::SignatureInTransit(e)
                    }
                    e => Refusal::Signature(e),
                },
            )?;
        }
        let env = envelope::parse(file_name, bytes).map_err(Refusal::Invalid)?;
        if env.game != g.id || env.side != side {
            return Err(Refusal::Invalid(Box::new(Problem {
                file: file_name.into(),
                line: None,
                column: None,
                unit: None,
                rule: None,
                message: format!(
                    "the `game:` and `side:` lines say {} and {side}, but the file read as YAML says {} and {}: write each once, at the start of a line",
                    g.id, env.game, env.side
                ),
            })));
        }
        let open = self
            .store
            .open_step_for_orders(&g.id)
            .map_err(|e| Refusal::Server(e.to_string()))?
            .ok_or_else(|| Refusal::GameOver(g.id.clone()))?;
        if env.step != open.step {
            let hint = if env.step < open.step {
                "that step is already resolved (an old file sent again?)"
            } else {
                "that step is not open yet"
            };
            return Err(Refusal::WrongStep {
                game: g.id.clone(),
                sent: env.step,
                open: open.step,
                hint,
            });
        }
        let received = self.receipt_time();
        let notice = self.states.notice(&open.notice);
        beacon::check_received_under(&open, notice.beacon.as_ref(), received)?;
        let text = String::from_utf8_lossy(bytes);
        let sha256 = sha256_hex(bytes);
        self.check_fresh(
            (file_name, &text, &sha256),
            &env,
            (&open, &notice.sha256),
            pending,
        )?;
        let rules = rulesets::by_name(&g.ruleset)
            .ok_or_else(|| Refusal::Server(format!("unknown ruleset {}", g.ruleset)))?;
        // One parse of the state for both questions.
        let state = self
            .states
            .load(rules, &open.state_before)
            .map_err(|e| Refusal::Server(e.to_string()))?;
        let due = state.due();
        if !due
            .owed
            .iter()
            .chain(&due.optional)
            .any(|o| o.side == env.side)
        {
            return Err(Refusal::NotOwed {
                side: env.side.to_string(),
                step: open.step,
                due: due.heading,
            });
        }
        let violations = match state.check(&env.side, &env.orders) {
            Ok(v) => v,
            Err(e) => {
                // The line of the field at fault, from a parse of the whole
                // text; the `orders:` line when it cannot tell.
                let (line, column, message) = match rules.orders_error_at(&text) {
                    Some((l, c, m)) => (Some(l), Some(c), format!("orders do not parse: {m}")),
                    None => (
                        text.lines()
                            .position(|l| l.starts_with("orders:"))
                            .map(|i| i + 1),
                        None,
                        e.to_string(),
                    ),
                };
                let message = envelope::with_hint(&text, line, message);
                return Err(Refusal::Invalid(Box::new(Problem {
                    file: file_name.into(),
                    line,
                    column,
                    unit: None,
                    rule: None,
                    message,
                })));
            }
        };
        if !violations.is_empty() {
            let located = envelope::Locator::new(&text);
            return Err(Refusal::Rules {
                problems: violations
                    .iter()
                    .take(PROBLEMS_LISTED)
                    .map(|v| located.locate(file_name, v))
                    .collect(),
                more: violations.len().saturating_sub(PROBLEMS_LISTED),
            });
        }
        Ok(OrdersRow {
            seq: 0,
            game: g.id.clone(),
            step: open.step,
            side: env.side.clone(),
            file_name: file_name.into(),
            text: bytes.to_vec(),
            signature: signature.unwrap_or_default().into(),
            sha256,
            received: Some(received),
            notice: env.notice,
            revision: env.revision,
        })
    }

    /// Resolve every step that has all it needs, in every game, as
    /// [`Server::process_games`] does, but fail with the first game that
    /// failed (the other games' steps are resolved all the same): for
    /// callers that play one game, such as the demo and the benchmark.
    pub fn process(&mut self, outbox: &Path) -> anyhow::Result<Vec<Resolved>> {
        let done = self.process_games(outbox)?;
        match done.stuck.into_iter().next() {
            Some(s) => Err(anyhow!("game {}: {} ({})", s.game, s.error, s.advice)),
            None => Ok(done.resolved),
        }
    }

    /// Resolve every step that has all it needs, in every game. One game's
    /// failure (a step that cannot be resolved, a mail that cannot be
    /// composed) stays that game's: its step stays open, nothing of it is
    /// committed, the failure is logged with what to do, and the other
    /// games go on. Only a failure to read the list of games stops it.
    pub fn process_games(&mut self, outbox: &Path) -> anyhow::Result<Processed> {
        let mut done = Processed::default();
        for g in self.store.games()? {
            if let Err(e) = self.process_game(&g, outbox, &mut done.resolved) {
                let stuck = Stuck::new(&g.id, e);
                tracing::error!(game = %stuck.game, error = %stuck.error, todo = %stuck.advice, "game not processed; the other games go on");
                done.stuck.push(stuck);
            }
        }
        Ok(done)
    }

    fn process_game(
        &mut self,
        g: &GameRow,
        outbox: &Path,
        done: &mut Vec<Resolved>,
    ) -> anyhow::Result<()> {
        if g.status == GameStatus::Over {
            return self.seal_if_unsealed(&g.id);
        }
        // No step resolves before its notice is in the archive.
        self.publish_open_notice(&g.id)
            .context("the open step's notice cannot be published")?;
        if g.status != GameStatus::Active {
            return Ok(());
        }
        while let Some(r) = self.try_resolve(&g.id, outbox)? {
            let over = r.over;
            done.push(r);
            if over {
                break;
            }
        }
        Ok(())
    }

    /// Resolve the open step of `game` if every side that owes orders has sent them.
    pub fn try_resolve(&mut self, game: &str, outbox: &Path) -> anyhow::Result<Option<Resolved>> {
        let g = self.store.game(game)?.ok_or_else(|| self.no_game(game))?;
        let rules = rulesets::by_name(&g.ruleset)
            .ok_or_else(|| anyhow!("unknown ruleset {}", g.ruleset))?;
        // No step resolves before its notice is in the archive (the
        // deadline watch comes here too, not only `process`).
        self.publish_open_notice(game)?;
        let Some(mut open) = self.store.open_step(game)? else {
            return Ok(None);
        };
        let before = self.states.load(rules, &open.state_before)?;
        let due = before.due();
        if due.owed.is_empty() {
            return Ok(None);
        }
        let orders = self.store.latest_orders(game, open.step)?;
        if !due.owed.iter().all(|o| orders.contains_key(&o.side)) {
            return Ok(None);
        }
        // Protocol version 2: the seeds wait for the round the notice named.
        if !self.beacon_ready(game, &mut open)? {
            return Ok(None);
        }
        let sides = rules.sides(&g.scenario)?;
        let (result, mut dice_inputs) = resolve_loaded(&*before, &sides, &open, &orders)?;
        self.mark_applied(game, open.step, &mut dice_inputs, &orders)?;
        let state_after = result.state;
        // Kept: the next step begins with this state.
        let after = self.states.load(rules, &state_after)?;
        // The archive's map is the step's one long job: it starts drawing
        // first, and the rest of the step is made meanwhile.
        let sight = report::archive_sight(&*after, game, open.step, &due.heading);
        let after_due = after.due();
        let after_outcome = after.outcome().map(|o| outcome_words(&o, &sight.map.sides));
        let mut easel = report::Easel::default();
        let (archive_key, _) = easel.draw_map(&sight.map)?;
        let next = match after.outcome() {
            Some(_) => None,
            None => {
                let run = self.store.withdrawn_runs(game, open.step + 1)? + 1;
                Some((
                    self.step_secrets(game, open.step + 1, run, &state_after)?,
                    run,
                ))
            }
        };
        // The new step's deadline, given now so that its reports show it
        // (the deadline watch finds it set), from the time of the watch's
        // latest tick: a server that runs no watch leaves it to the watch.
        // A beacon step's comes with its notice, written later: its reports
        // leave it to the status reply.
        let next_deadline = match (&next, self.clock, self.schedule(game)?) {
            (Some((n, _)), Some(now), Some(sched))
                if !after_due.owed.is_empty()
                    && g.status == GameStatus::Active
                    && beacon::notice_deadline(&open.notice).is_none() =>
            {
                let deadline = self.opening_deadline(game, n, &after_due, &sched, now)?;
                let mut lines = BTreeMap::new();
                for side in &sides {
                    lines.insert(
                        side.to_string(),
                        self.deadline_lines(game, n.step, deadline, Some(side), &sched),
                    );
                }
                lines.insert(
                    crate::view::Viewer::Public.label(),
                    self.deadline_lines(game, n.step, deadline, None, &sched),
                );
                Some((
                    store::DeadlineRow {
                        step: n.step,
                        opened: now,
                        deadline,
                    },
                    lines,
                ))
            }
            _ => None,
        };
        let stored = StepResult {
            state_after: state_after.clone(),
            events: crate::yaml::to_string(&result.events)?,
            dice: crate::yaml::to_string(&result.dice)?,
        };
        let reading = report::StepReading::loaded(
            rules,
            game,
            due.heading.clone(),
            after,
            (&open, &stored, &dice_inputs),
            next.as_ref().map(|(n, _)| n),
        )?
        .with_keys(self.keys_on_record(game)?)
        .with_deadlines(
            next_deadline
                .as_ref()
                .map(|(_, l)| l.clone())
                .unwrap_or_default(),
        );
        // A step resolved again after a rollback says so first.
        let runs = archive::rollback_runs(&self.archive_dir(game), open.step);
        let reading = reading.with_own_edge(self.store.own_edge(game)?);
        let reading = reading.with_archive(match &self.mail {
            Some(m) => report::archive_lines(m, self.site_url.as_deref(), game, open.step),
            None => Vec::new(),
        });
        let reading = reading.with_notices(if runs > 0 {
            vec![format!(
                "This is step {} resolved again after a rollback (run {}): the result mailed before for this step is withdrawn; the archive keeps it in step-{:04}/rollback-{runs}/ with the game master's reason.",
                open.step,
                runs + 1,
                open.step
            )]
        } else {
            Vec::new()
        });
        let files = self.step_files(&reading, sight, (&open, &stored, &dice_inputs))?;
        // The public archive first, the store's commit after: a crash in
        // between leaves the step open, and resolving it again writes the
        // same folder (same secrets, same orders, same files). The other
        // order lost the step's folder for good when killed in between.
        // Its files are written while the map is drawn; the next notice,
        // which names this step's manifest, once the map is in.
        let dir = archive::step_dir(&self.archive_dir(game), open.step);
        let mut readers: Vec<crate::view::Viewer> = sides
            .iter()
            .cloned()
            .map(crate::view::Viewer::Side)
            .collect();
        readers.push(crate::view::Viewer::Public);
        let (rendered, mut pngs, mut staging) =
            report::render_all(&reading, readers, easel, || {
                let mut staging = archive::Staging::new(&dir, archive::Durability::Synced)?;
                // The manifest names the step's notice: the next notice
                // names the manifest, and so the chain runs.
                staging.stage("notice.yaml", open.notice.as_bytes())?;
                staging.stage("notice.yaml.sig", open.notice_sig.as_bytes())?;
                for (name, bytes) in &files {
                    staging.stage(name, bytes)?;
                }
                // Synced now, while the map is drawn, not after it.
                staging.sync_staged()?;
                Ok(staging)
            })?;
        let archive_png = pngs
            .remove(&archive_key)
            .ok_or_else(|| anyhow!("the archive's map was not rasterised"))?;
        drop(reading);
        let over = next.is_none();
        let mut rendered = rendered;
        let mut files = files;
        // The next notice names this step's manifest, which holds the map:
        // it is written once the map is in, and the reports made meanwhile
        // get its hash (their orders template's `notice:`) only then.
        let next = (|| -> anyhow::Result<Option<StepRow>> {
            staging.stage("map.png", &archive_png)?;
            files.insert("map.png".into(), archive_png);
            let manifest = staging.manifest()?;
            Ok(match next {
                Some((mut n, run)) => {
                    let commitment = state_after_commitment(&open, &state_after);
                    let follows = sha256_hex(manifest.as_bytes());
                    self.write_notice(&mut n, run, follows, &after_due, commitment)?;
                    report::fill_next_notice(&mut rendered, &envelope::notice_sha256(&n.notice));
                    Some(n)
                }
                None => None,
            })
        })()?;
        // The reports folders can be made again from the store, so they are
        // written beside the archive's last files and the store's commit
        // rather than after them: nothing reads them back.
        let reports =
            report::write_reports_aside(&self.key.private_openssh, &g, &open, &rendered, outbox);
        // Whatever fails below, the reports' thread is waited for, so that
        // no folder is still being written (and no temporary file left)
        // when the failure is reported and the next game goes on.
        let finished = (|| -> anyhow::Result<()> {
            let mut mails = match &self.mail {
                Some(m) => report::mails(self, m, &g, &open, next.as_ref(), &rendered)?,
                None => Vec::new(),
            };
            admin::rerun_ids(&self.archive_dir(game), open.step, &mut mails);
            if let Some(n) = &next {
                self.publish_notice(n)?;
            }
            staging.finish_signed(&self.key.private_openssh)?;
            self.store
                .finish_step(game, open.step, &stored, next.as_ref(), &mails)?;
            if let Some((d, _)) = &next_deadline {
                self.store.set_deadline(game, d, &[])?;
            }
            if next.is_none() {
                let outcome = after_outcome.unwrap_or_else(|| "over".to_string());
                self.seal(game, &outcome)?;
            }
            Ok(())
        })();
        let written = reports
            .join()
            .map_err(|_| anyhow!("writing the reports folders panicked"))?;
        finished?;
        written?;
        Ok(Some(Resolved {
            game: game.into(),
            step: open.step,
            heading: due.heading,
            over,
        }))
    }

    /// The public files of a resolved step, as the archive keeps them, but
    /// for `map.png`, drawn from `sight` (the public view, titled).
    fn step_files(
        &self,
        reading: &report::StepReading,
        sight: crate::ruleset::Sight,
        (step, res, inputs): (&StepRow, &StepResult, &DiceInputs),
    ) -> anyhow::Result<BTreeMap<String, Vec<u8>>> {
        let (events, dice) = (reading.events(), reading.dice());
        let view = PublicView {
            heading: sight.heading,
            map: sight.map,
            panels: sight.panels,
        };
        let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
        files.insert(
            "orders.yaml".into(),
            crate::yaml::to_string(&OrdersIndex {
                sides: inputs.index.clone(),
            })?
            .into_bytes(),
        );
        files.insert(
            "reveal.yaml".into(),
            crate::yaml::to_string(&Reveal {
                public_secret: hex::encode(step.public_secret),
                mix: hex::encode(&inputs.mix),
                public_seed: hex::encode(inputs.public_seed),
            })?
            .into_bytes(),
        );
        let public_dice: Vec<ArchivedDie> = archive::public_dice(dice);
        files.insert(
            "dice.yaml".into(),
            crate::yaml::to_string(&public_dice)?.into_bytes(),
        );
        files.insert(
            "events.yaml".into(),
            crate::yaml::to_string(&archive::public_events(events, dice))?.into_bytes(),
        );
        files.insert(
            "view.yaml".into(),
            crate::yaml::to_string(&view)?.into_bytes(),
        );
        files.insert(
            "state.commitment".into(),
            format!("{}\n", state_after_commitment(step, &res.state_after)).into_bytes(),
        );
        if let Some(b) = beacon::step_archive_file(step)? {
            files.insert(beacon::BEACON_FILE.into(), b);
        }
        Ok(files)
    }

    /// Finish the sealing of a game that ended when a crash cut the sealing
    /// short (the store says over; `end.yaml` is not signed yet). Sealing
    /// again writes the same files.
    fn seal_if_unsealed(&self, game: &str) -> anyhow::Result<()> {
        let root = self.archive_dir(game);
        if root.join("end.yaml.sig").exists() {
            return Ok(());
        }
        tracing::warn!(game, "finishing the sealing of a game cut short by a crash");
        let g = self.store.game(game)?.ok_or_else(|| self.no_game(game))?;
        let rules = rulesets::by_name(&g.ruleset)
            .ok_or_else(|| anyhow!("unknown ruleset {}", g.ruleset))?;
        let steps = self.store.steps(game)?;
        let outcome = match steps.last().and_then(|s| s.result.as_ref()) {
            Some(res) => ended_words(rules, &res.state_after)?,
            None => None,
        };
        self.seal(
            game,
            &outcome.unwrap_or_else(|| "ended by the game master".into()),
        )
    }

    /// At the end of a game, add every secret to the archive (`sealed/`,
    /// rolled-back runs too), then sign its end (`end.yaml`), last.
    fn seal(&self, game: &str, outcome: &str) -> anyhow::Result<()> {
        let root = self.archive_dir(game);
        let sides = self.sides_of(game)?;
        let mut last_step = 0;
        let mut open_notice = None;
        for step in self.store.steps(game)? {
            let Some(res) = &step.result else {
                open_notice = Some(sha256_hex(step.notice.as_bytes()));
                continue;
            };
            let orders = self.store.latest_orders(game, step.step)?;
            let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
            for (side, o) in &orders {
                files.insert(format!("orders-{side}.yaml"), o.text.clone());
            }
            let inputs = dice_inputs_for(&step, &orders, &sides);
            files.insert(
                "hidden.yaml".into(),
                hidden_reveal(&step, inputs.hidden_seed)?,
            );
            files.insert("state.yaml".into(), res.state_after.clone().into_bytes());
            files.insert("events.yaml".into(), res.events.clone().into_bytes());
            files.insert("dice.yaml".into(), res.dice.clone().into_bytes());
            archive::write_folder(
                &archive::sealed_dir(&root, step.step),
                &files,
                &self.key.private_openssh,
                archive::Durability::Synced,
            )?;
            last_step = step.step;
        }
        // A rolled-back run's secrets and full result; its mix is the one
        // its reveal published.
        for (step, run, row) in self.store.undone(game)? {
            let Some(res) = &row.result else { continue };
            let reveal: Reveal = crate::yaml::from_slice(&std::fs::read(
                archive::rollback_dir(&root, step, run).join("reveal.yaml"),
            )?)?;
            let mix = hex::decode(&reveal.mix)?;
            let seed = protocol::seed(StreamKind::Hidden, &row.hidden_secret, &mix);
            let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
            files.insert("hidden.yaml".into(), hidden_reveal(&row, seed)?);
            files.insert("state.yaml".into(), res.state_after.clone().into_bytes());
            files.insert("events.yaml".into(), res.events.clone().into_bytes());
            files.insert("dice.yaml".into(), res.dice.clone().into_bytes());
            archive::write_folder(
                &archive::sealed_dir(&root, step).join(format!("rollback-{run}")),
                &files,
                &self.key.private_openssh,
                archive::Durability::Synced,
            )?;
        }
        if let Some(files) = self.sealed_start(game)? {
            archive::write_folder(
                &root.join(archive::SEALED_START),
                &files,
                &self.key.private_openssh,
                archive::Durability::Synced,
            )?;
        }
        let last_link = match open_notice {
            Some(n) => n,
            None => sha256_hex(&std::fs::read(
                archive::step_dir(&root, last_step).join("manifest.yaml"),
            )?),
        };
        let end = archive::EndFile {
            game: game.into(),
            last_step,
            last_link,
            outcome: outcome.into(),
            key_changes: archive::key_changes(&root).len() as u32,
        };
        archive::write_signed(
            &root,
            "end.yaml",
            crate::yaml::to_string(&end)?.as_bytes(),
            &self.key.private_openssh,
        )
    }

    /// The files of `sealed/start/` for a game whose scenario was partly
    /// hidden: the whole scenario and its salt.
    fn sealed_start(&self, game: &str) -> anyhow::Result<Option<BTreeMap<String, Vec<u8>>>> {
        let g = self.store.game(game)?.ok_or_else(|| self.no_game(game))?;
        let rules = rulesets::by_name(&g.ruleset)
            .ok_or_else(|| anyhow!("unknown ruleset {}", g.ruleset))?;
        if rules.public_scenario(&g.scenario)?.is_none() {
            return Ok(None);
        }
        let (_, first_hidden) = self.store.drawn(game, 1, 1)?.ok_or_else(|| {
            anyhow!("step 1's first secrets of {game} are missing from the store")
        })?;
        let reveal = archive::StartReveal {
            salt: hex::encode(archive::start_salt(game, &first_hidden)),
        };
        let mut files = BTreeMap::new();
        files.insert("scenario.yaml".to_string(), g.scenario.into_bytes());
        files.insert(
            "salt.yaml".to_string(),
            crate::yaml::to_string(&reveal)?.into_bytes(),
        );
        Ok(Some(files))
    }

    fn sides_of(&self, game: &str) -> anyhow::Result<Vec<SideId>> {
        let g = self.store.game(game)?.ok_or_else(|| self.no_game(game))?;
        let rules = rulesets::by_name(&g.ruleset)
            .ok_or_else(|| anyhow!("unknown ruleset {}", g.ruleset))?;
        Ok(rules.sides(&g.scenario)?)
    }

    /// Rebuild one reader's report of a resolved step (the last one when
    /// `step` is none) from the store.
    pub fn report(
        &self,
        game: &str,
        step: Option<u32>,
        viewer: &crate::view::Viewer,
    ) -> anyhow::Result<crate::view::ReportView> {
        let g = self.store.game(game)?.ok_or_else(|| self.no_game(game))?;
        let rules = rulesets::by_name(&g.ruleset)
            .ok_or_else(|| anyhow!("unknown ruleset {}", g.ruleset))?;
        let steps = self.store.steps(game)?;
        let row = match step {
            Some(n) => steps.iter().find(|s| s.step == n),
            None => steps.iter().rev().find(|s| s.result.is_some()),
        }
        .ok_or_else(|| anyhow!("game {game} has no such resolved step"))?;
        let res = row
            .result
            .as_ref()
            .ok_or_else(|| anyhow!("step {} of {game} is not resolved yet", row.step))?;
        let orders = self.store.latest_orders(game, row.step)?;
        let sides = rules.sides(&g.scenario)?;
        let mut inputs = dice_inputs_for(row, &orders, &sides);
        self.mark_applied(game, row.step, &mut inputs, &orders)?;
        let next = steps.iter().find(|s| s.step == row.step + 1);
        let keys = self.keys_on_record(game)?;
        report::build(rules, game, row, res, &inputs, next, viewer, keys)
    }

    /// The email address and key of every player of a game.
    pub fn players(&self, game: &str) -> anyhow::Result<Vec<PlayerRow>> {
        Ok(self.store.players(game)?)
    }
}

/// A step's secret in a test that fixed them
/// ([`Server::fix_for_paired_tests`]): a hash of the test's seed, the game,
/// the step, the run and the stream.
fn fixed_secret(
    seed: &[u8; 32],
    game: &str,
    step: u32,
    run: u32,
    kind: StreamKind,
) -> protocol::Secret {
    use sha2::Digest as _;
    let mut h = sha2::Sha256::new();
    h.update(b"galloper-test-secret\0");
    h.update(seed);
    h.update(format!("{game}\0{step}\0{run}\0{kind:?}").as_bytes());
    h.finalize().into()
}

/// `sealed/.../hidden.yaml` of a step's run.
fn hidden_reveal(step: &StepRow, hidden_seed: [u8; 32]) -> anyhow::Result<Vec<u8>> {
    Ok(crate::yaml::to_string(&HiddenReveal {
        hidden_secret: hex::encode(step.hidden_secret),
        hidden_seed: hex::encode(hidden_seed),
        state_salt: hex::encode(archive::state_salt(
            &step.game,
            step.step,
            &step.hidden_secret,
        )),
    })?
    .into_bytes())
}

/// The published commitment to the state `step` ended with (salted with
/// the step's hidden secret: `archive::state_salt`).
pub fn state_after_commitment(step: &StepRow, state_after: &str) -> String {
    let salt = archive::state_salt(&step.game, step.step, &step.hidden_secret);
    archive::state_commitment(&step.game, step.step, &salt, state_after.as_bytes())
}

/// How a game ended, in words, for `end.yaml` and the audit.
/// How the game that ends in `state` ended, in words, if it is over.
pub fn ended_words(
    rules: &dyn crate::ruleset::AnyRuleset,
    state: &str,
) -> anyhow::Result<Option<String>> {
    let after = rules.load(state)?;
    let Some(o) = after.outcome() else {
        return Ok(None);
    };
    let sides = after.view(&crate::view::Viewer::Public).map.sides;
    Ok(Some(outcome_words(&o, &sides)))
}

/// The winner is named as the scenario names its side ("the French win"),
/// or by its id when `sides` does not name it.
pub fn outcome_words(o: &crate::ruleset::Outcome, sides: &[crate::view::SideStyle]) -> String {
    match &o.winner {
        Some(w) => {
            let name = sides
                .iter()
                .find(|s| &s.side == w)
                .map_or_else(|| w.to_string(), |s| s.name.clone());
            format!(
                "{} ({})",
                crate::words::subject_verb(&name, "wins", "win"),
                o.reason
            )
        }
        None => format!("a draw ({})", o.reason),
    }
}

pub use crate::archive::inputs::DiceInputs;

/// A step's store rows as the archive's inputs of a step.
pub fn step_inputs<'a>(
    step: &'a StepRow,
    orders: &'a BTreeMap<SideId, OrdersRow>,
) -> crate::archive::inputs::StepInputs<'a> {
    crate::archive::inputs::StepInputs {
        state_before: &step.state_before,
        public_secret: step.public_secret,
        hidden_secret: step.hidden_secret,
        beacon: step.beacon.as_ref(),
        // A beacon step's archive shows when each file came, under the
        // server's signature, against its close of orders.
        timed: beacon::notice_beacon(&step.notice).is_some(),
        orders: orders
            .iter()
            .map(|(side, o)| {
                (
                    side.clone(),
                    crate::archive::inputs::OrdersInput {
                        file_name: &o.file_name,
                        text: &o.text,
                        sha256: &o.sha256,
                        signature: &o.signature,
                        received: o.received,
                    },
                )
            })
            .collect(),
    }
}

/// Mix the orders (in scenario side order) with the step's secrets.
pub fn dice_inputs_for(
    step: &StepRow,
    orders: &BTreeMap<SideId, OrdersRow>,
    sides: &[SideId],
) -> DiceInputs {
    crate::archive::inputs::dice_inputs(&step_inputs(step, orders), sides)
}

/// Resolve a step from its store rows ([`crate::archive::inputs::resolve`]).
pub fn resolve_step(
    rules: &dyn AnyRuleset,
    sides: &[SideId],
    step: &StepRow,
    orders: &BTreeMap<SideId, OrdersRow>,
) -> anyhow::Result<(crate::ruleset::TextResolution, DiceInputs)> {
    resolve_loaded(&*rules.load(&step.state_before)?, sides, step, orders)
}

/// [`resolve_step`] from the step's state already parsed.
pub fn resolve_loaded(
    before: &dyn LoadedState,
    sides: &[SideId],
    step: &StepRow,
    orders: &BTreeMap<SideId, OrdersRow>,
) -> anyhow::Result<(crate::ruleset::TextResolution, DiceInputs)> {
    crate::archive::inputs::resolve(before, sides, &step_inputs(step, orders))
}

/// The server's key pair as stored in the data folder.
fn read_key(dir: &Path) -> anyhow::Result<sig::KeyPair> {
    let private_openssh = std::fs::read_to_string(dir.join("server_key"))
        .with_context(|| format!("cannot read the server key in {}", dir.display()))?;
    let public_line = std::fs::read_to_string(dir.join("server_key.pub"))
        .with_context(|| format!("cannot read server_key.pub in {}", dir.display()))?
        .trim()
        .to_string();
    Ok(sig::KeyPair {
        private_openssh,
        public_line,
    })
}

/// Make a data folder that an older galloper left open to other users
/// 0700: the store and the reports inside hold every secret of every game.
#[cfg(unix)]
fn narrow(dir: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = crate::files::mode(dir)?;
    if mode & 0o077 != 0 {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(mode & 0o700)).with_context(
            || {
                format!(
                    "cannot make the data folder {} private (chmod 700 it)",
                    dir.display()
                )
            },
        )?;
        tracing::warn!(folder = %dir.display(), was = %format!("{mode:o}"), "data folder made 0700: publish the archive by copying it out (docs/MAIL.md)");
    }
    Ok(())
}
#[cfg(not(unix))]
fn narrow(_: &Path) -> anyhow::Result<()> {
    Ok(())
}

//! A game's public randomness beacon, at the edge (protocol version 2,
//! docs/DICE.md): where rounds come from, how a step names its round when it
//! opens, the wait for the round before the step resolves, what the archive
//! keeps of it and what the audit checks.
//!
//! Rounds come from a folder, `DATA/beacon/CHAIN/ROUND.json`, in the JSON a
//! drand relay serves for `/public/ROUND`: a fetcher (a cron job with curl)
//! or the operator (`galloper beacon add ROUND SIGNATURE`) drops them there.
//! The server never trusts a file: each round is verified against the
//! chain's built-in public key before it is used (`dice::beacon`).

use super::Server;
use super::schedule::Absence;
use super::store::{Mark, StepRow};
pub use crate::archive::beacon::*;
use crate::archive::sha256_hex;
use crate::dice::beacon::{self, Chain, Round};
use crate::ruleset::Due;
use crate::side::SideId;
use anyhow::{Context, anyhow, bail};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// A round file is a few hundred bytes; anything much larger is not one.
const MAX_ROUND_FILE: u64 = 4096;

/// A round as a drand relay serves it (`randomness` is ignored: it is
/// derived from the signature).
#[derive(Debug, Serialize, Deserialize)]
struct RelayRound {
    round: u64,
    signature: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    randomness: Option<String>,
}

/// What `galloper new --beacon` asks for: the chain, and the time the game
/// is created (its first step's deadline follows from it).
#[derive(Clone, Copy, Debug)]
pub struct BeaconStart {
    pub chain: &'static Chain,
    pub now: i64,
}

/// Refuse to move a beacon step's close of orders to or past its round's
/// time: orders taken once the round is public could be chosen knowing the
/// dice.
pub fn check_new_close(notice_yaml: &str, close: i64) -> anyhow::Result<()> {
    let Some(b) = notice_beacon(notice_yaml) else {
        return Ok(());
    };
    let round_time = parse_utc(&b.round_time).unwrap_or(i64::MIN);
    if close >= round_time {
        bail!(
            "this step's dice take {} round {}, published at {}: orders must close before it, so the deadline (with its grace) can be moved to {} at the latest",
            b.chain,
            b.round,
            b.round_time,
            utc(round_time - 1)
        );
    }
    Ok(())
}

/// Refuse a file received (unix seconds) after the close of orders of a
/// beacon step `open`; a step without a beacon takes orders until it
/// resolves.
pub fn check_received(open: &StepRow, received: i64) -> Result<(), super::Refusal> {
    check_received_under(open, notice_beacon(&open.notice).as_ref(), received)
}

/// [`check_received`], with the beacon `open`'s notice names read before.
pub fn check_received_under(
    open: &StepRow,
    beacon: Option<&NoticeBeacon>,
    received: i64,
) -> Result<(), super::Refusal> {
    let Some(b) = beacon else {
        return Ok(());
    };
    match parse_utc(&b.orders_close) {
        Some(close) if received <= close => Ok(()),
        _ => Err(super::Refusal::Closed {
            game: open.game.clone(),
            step: open.step,
            received: utc(received),
            closed: b.orders_close.clone(),
            round: b.round,
            round_time: b.round_time.clone(),
        }),
    }
}

/// The folder of round files of a chain.
pub fn round_folder(data: &Path, chain: &Chain) -> PathBuf {
    data.join("beacon").join(chain.name)
}

/// A round file's name in its folder.
pub fn round_file(data: &Path, chain: &Chain, round: u64) -> PathBuf {
    round_folder(data, chain).join(format!("{round}.json"))
}

/// Read a round from the folder: none when it is not there yet, an error
/// saying what is wrong with a file that is there.
pub fn read_round(data: &Path, chain: &Chain, round: u64) -> anyhow::Result<Option<Round>> {
    let path = round_file(data, chain, round);
    let meta = match std::fs::symlink_metadata(&path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    if !meta.is_file() || meta.len() > MAX_ROUND_FILE {
        bail!(
            "{} is not a round file (a plain file of at most {MAX_ROUND_FILE} bytes)",
            path.display()
        );
    }
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    parse_round(&text, round, &path.display().to_string()).map(Some)
}

/// A round in the JSON a drand relay serves, which must be round `round`;
/// `origin` names where it came from, for the message.
fn parse_round(text: &str, round: u64, origin: &str) -> anyhow::Result<Round> {
    if text.len() as u64 > MAX_ROUND_FILE {
        bail!("{origin} is not a round: more than {MAX_ROUND_FILE} bytes");
    }
    let r: RelayRound = serde_json::from_str(text).with_context(|| {
        format!("{origin} is not a drand round (JSON with `round` and `signature`)")
    })?;
    if r.round != round {
        bail!("{origin} holds round {}, not {round}", r.round);
    }
    let signature = hex::decode(r.signature.trim())
        .map_err(|_| anyhow!("{origin}: the signature is not hex"))?;
    Ok(Round { round, signature })
}

/// Write a verified round to the folder, in the relay's JSON.
fn write_round(data: &Path, chain: &Chain, r: &Round) -> anyhow::Result<PathBuf> {
    let path = round_file(data, chain, r.round);
    let body = serde_json::to_string(&RelayRound {
        round: r.round,
        signature: hex::encode(&r.signature),
        randomness: Some(hex::encode(r.randomness())),
    })?;
    std::fs::create_dir_all(round_folder(data, chain))?;
    crate::archive::write_atomic(&path, format!("{body}\n").as_bytes())?;
    Ok(path)
}

/// Verify a round and write it to the folder, as a fetcher would.
pub fn add_round(
    data: &Path,
    chain: &Chain,
    round: u64,
    signature_hex: &str,
) -> anyhow::Result<PathBuf> {
    let signature = hex::decode(signature_hex.trim())
        .map_err(|_| anyhow!("the signature must be hex, as drand's relays give it"))?;
    let r = Round { round, signature };
    chain
        .verify(&r)
        .with_context(|| format!("{} round {round} refused", chain.name))?;
    write_round(data, chain, &r)
}

/// The archive file of a step, when its seeds took a round.
pub fn step_archive_file(step: &StepRow) -> anyhow::Result<Option<Vec<u8>>> {
    match (&step.beacon, notice_beacon(&step.notice)) {
        (Some(r), Some(b)) => Ok(Some(archive_file(&b.chain, r)?)),
        _ => Ok(None),
    }
}

/// The report's line on the round a step's seeds took, for a reader who
/// recomputes them (version 2 seeds, docs/DICE.md).
pub fn report_line(step: &StepRow) -> Option<String> {
    let r = step.beacon.as_ref()?;
    let b = notice_beacon(&step.notice)?;
    Some(format!(
        "beacon: {} round {}, randomness {} (protocol version 2: the seeds mix it in)",
        b.chain,
        r.round,
        hex::encode(r.randomness())
    ))
}

fn known_chain(name: &str) -> anyhow::Result<&'static Chain> {
    beacon::chain(name).ok_or_else(|| {
        anyhow!(
            "unknown beacon {name:?}; known: {}",
            beacon::CHAINS
                .iter()
                .map(|c| c.name)
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

impl Server {
    /// Just before a new game's first step opens: record a beacon game's
    /// settings (its schedule, which a beacon needs, and its chain), or make
    /// sure a game without one has no chain left from a creation that
    /// failed half-way under the same id.
    pub(super) fn settle_beacon(
        &mut self,
        id: &str,
        schedule: Option<&str>,
        start: Option<&BeaconStart>,
    ) -> anyhow::Result<Option<GameBeacon>> {
        match start {
            Some(s) => self.prepare_beacon(id, schedule, s).map(Some),
            None => {
                self.store.forget_beacon_chain(id)?;
                Ok(None)
            }
        }
    }

    fn prepare_beacon(
        &mut self,
        id: &str,
        schedule: Option<&str>,
        start: &BeaconStart,
    ) -> anyhow::Result<GameBeacon> {
        let Some(yaml) = schedule else {
            bail!(
                "a beacon game needs a schedule (--schedule FILE): its steps' rounds are named from their deadlines, and without deadlines the server could choose when a step resolves"
            );
        };
        super::schedule::Schedule::parse(yaml)?;
        self.store.set_schedule(id, yaml)?;
        self.store.set_beacon_chain(id, start.chain.name)?;
        self.see_time(start.now);
        Ok(GameBeacon {
            chain: start.chain.name.into(),
            chain_hash: start.chain.hash.into(),
        })
    }

    /// The server knows that `t` has passed (a tick's time, a verified
    /// round's time, the command line's clock): beacon steps opened from
    /// now on take their deadlines from the latest such time.
    pub fn see_time(&mut self, t: i64) {
        self.clock = Some(self.clock.map_or(t, |c| c.max(t)));
    }

    /// The round the notice of the `run`-th opening of `step` names: named
    /// once from the clock, then the same on every retry.
    pub(super) fn named_beacon(
        &self,
        game: &str,
        step: u32,
        run: u32,
        due: &Due,
    ) -> anyhow::Result<Option<NoticeBeacon>> {
        if self.store.beacon_chain(game)?.is_none() {
            return Ok(None);
        }
        let named = self.store.named_round(game, step, run, || {
            let b = self.beacon_for_opening(game, due)?;
            Ok(crate::yaml::to_string(&b)?)
        })?;
        Ok(crate::yaml::from_str(&named)?)
    }

    /// The beacon block of a new step's notice: its deadline from the
    /// schedule and the time the server knows, and the first round after its
    /// orders close. None for a game without a beacon.
    pub(super) fn beacon_for_opening(
        &self,
        game: &str,
        due: &Due,
    ) -> anyhow::Result<Option<NoticeBeacon>> {
        let Some(name) = self.store.beacon_chain(game)? else {
            return Ok(None);
        };
        let chain = known_chain(&name)?;
        let sched = self.schedule(game)?.ok_or_else(|| {
            anyhow!("game {game} names a beacon but has no schedule to set its deadlines")
        })?;
        let now = self.clock.ok_or_else(|| {
            anyhow!("the server does not know the time, so it cannot name a beacon round for game {game}: run a tick (the daemon does) before resolving")
        })?;
        let owed: Vec<&SideId> = due.owed.iter().map(|o| &o.side).collect();
        let absences: Vec<Absence> = self
            .store
            .absences(game, None)?
            .into_iter()
            .filter(|a| owed.contains(&&a.side))
            .map(|a| Absence {
                start: a.start,
                end: a.end,
            })
            .collect();
        let deadline = sched.moved_by_all(sched.deadline_after(now)?, &absences)?;
        let close = sched.closes_at(deadline);
        let round = chain.first_round_after(close);
        Ok(Some(NoticeBeacon {
            protocol: PROTOCOL,
            chain: chain.name.into(),
            deadline: utc(deadline),
            orders_close: utc(close),
            round,
            round_time: utc(chain.round_time(round)),
        }))
    }

    /// Whether the open step may resolve as far as the beacon goes: true for
    /// a step without one, and for a step whose named round is there and
    /// verifies (then `open.beacon` holds it). A missing round makes the
    /// step wait; a round that fails verification stops it, tells the game
    /// master, and changes nothing.
    pub(super) fn beacon_ready(&mut self, game: &str, open: &mut StepRow) -> anyhow::Result<bool> {
        let Some(named) = notice_beacon(&open.notice) else {
            return Ok(true);
        };
        if open.beacon.as_ref().map(|r| r.round) == Some(named.round) {
            return Ok(true);
        }
        let chain = known_chain(&named.chain)?;
        let found = match read_round(&self.dir, chain, named.round) {
            Ok(Some(r)) => r,
            Ok(None) => {
                tracing::info!(
                    game,
                    step = open.step,
                    round = named.round,
                    due = %named.round_time,
                    file = %round_file(&self.dir, chain, named.round).display(),
                    "step waits for its beacon round"
                );
                return Ok(false);
            }
            Err(e) => {
                self.beacon_refused(game, open.step, &named, &format!("{e:#}"), "unreadable")?;
                return Ok(false);
            }
        };
        if let Err(e) = chain.verify(&found) {
            let tag = hex::encode(&found.randomness()[..4]);
            self.beacon_refused(game, open.step, &named, &e.to_string(), &tag)?;
            return Ok(false);
        }
        self.store.record_beacon_round(game, open.step, &found)?;
        self.see_time(chain.round_time(found.round));
        open.beacon = Some(found);
        Ok(true)
    }

    /// A round that cannot be used: log it, and tell the game master once
    /// per step and bad file.
    fn beacon_refused(
        &mut self,
        game: &str,
        step: u32,
        named: &NoticeBeacon,
        why: &str,
        tag: &str,
    ) -> anyhow::Result<()> {
        let text = format!(
            "Game {game}, step {step}: the {} beacon round {} the step's dice need was refused: {why}. The step waits and nothing was changed. Put the round as the chain's relays publish it in {} (or run `galloper beacon add {} SIGNATURE`); if the chain's relays themselves serve this round, the beacon is not to be trusted and the game should stop.",
            named.chain,
            named.round,
            round_folder(&self.dir, known_chain(&named.chain)?).display(),
            named.round,
        );
        tracing::error!(game, step, round = named.round, "{text}");
        let what = format!("beacon-refused-{}-{tag}", named.round);
        let nobody = SideId::new("");
        if self.store.marked(game, step, &nobody, &what)? {
            return Ok(());
        }
        let now = self
            .clock
            .unwrap_or_else(|| parse_utc(&named.round_time).unwrap_or(0));
        let mut mails = Vec::new();
        if let Some(mail) = &self.mail
            && let Some(gm) = &mail.game_master
        {
            mails.push(super::life::life_mail(
                mail,
                game,
                step,
                "gm",
                &what,
                "gm",
                gm,
                format!("[{game}] Step {step}: beacon round refused"),
                format!("{text}\n"),
                now,
            )?);
        }
        let mark = Mark {
            step,
            side: nobody,
            what,
        };
        self.store.record_marks(game, &[mark], &mails, now)?;
        Ok(())
    }

    /// Fetch the rounds that open steps need and that are published by
    /// `now`, with `fetch` (the edge: a relay over HTTP gives the body of
    /// `/public/ROUND`, or none while it has no such round). A round that
    /// verifies goes to the folder; one that does not is not written, and
    /// stops its step as a bad file would (the game master is told). Returns
    /// a line for the log per round fetched or refused.
    pub fn fetch_beacon_rounds(
        &mut self,
        now: i64,
        fetch: &mut dyn FnMut(&Chain, u64) -> anyhow::Result<Option<String>>,
    ) -> anyhow::Result<Vec<String>> {
        let mut lines = Vec::new();
        for g in self.store.games()? {
            if g.status != super::store::GameStatus::Active {
                continue;
            }
            let Some(open) = self.store.open_step(&g.id)? else {
                continue;
            };
            let Some(named) = notice_beacon(&open.notice) else {
                continue;
            };
            let chain = known_chain(&named.chain)?;
            if chain.round_time(named.round) > now
                || round_file(&self.dir, chain, named.round).exists()
            {
                continue;
            }
            let body = match fetch(chain, named.round) {
                Ok(Some(b)) => b,
                Ok(None) => continue,
                Err(e) => {
                    lines.push(format!(
                        "{} step {}: {} round {} not fetched: {e:#}",
                        g.id, open.step, chain.name, named.round
                    ));
                    continue;
                }
            };
            let origin = format!("the relay's {} round {}", chain.name, named.round);
            let checked = parse_round(&body, named.round, &origin).and_then(|r| {
                chain.verify(&r)?;
                Ok(r)
            });
            match checked {
                Ok(r) => {
                    write_round(&self.dir, chain, &r)?;
                    lines.push(format!(
                        "{} step {}: {} round {} fetched and verified",
                        g.id, open.step, chain.name, named.round
                    ));
                }
                Err(e) => {
                    let tag = format!("relay-{}", &sha256_hex(body.as_bytes())[..8]);
                    self.beacon_refused(&g.id, open.step, &named, &format!("{e:#}"), &tag)?;
                    lines.push(format!(
                        "{} step {}: {} round {} from the relay refused: {e:#}",
                        g.id, open.step, chain.name, named.round
                    ));
                }
            }
        }
        Ok(lines)
    }

    /// What the open step of a beacon game waits for, for `status`.
    pub fn beacon_wait(&self, game: &str) -> anyhow::Result<Option<String>> {
        let Some(open) = self.store.open_step(game)? else {
            return Ok(None);
        };
        let Some(b) = notice_beacon(&open.notice) else {
            return Ok(None);
        };
        let chain = known_chain(&b.chain)?;
        let there = round_file(&self.dir, chain, b.round).exists();
        Ok(Some(format!(
            "step {} takes {} round {} (published {}){}",
            open.step,
            b.chain,
            b.round,
            b.round_time,
            if there {
                ""
            } else {
                "; not in the round folder yet"
            }
        )))
    }

    /// `galloper beacon add`: verify a round and put it in the folder.
    pub fn add_beacon_round(
        &self,
        chain: &str,
        round: u64,
        signature_hex: &str,
    ) -> anyhow::Result<PathBuf> {
        add_round(&self.dir, known_chain(chain)?, round, signature_hex)
    }
}

//! A whole game played by a ruleset's demo player through the daemon's
//! intake into a real store (SQLite, archive, reports, outbox), timing each
//! step from the first orders mail in to the last report mail queued.

use super::mailgen;
use super::scratch::Scratch;
use super::stats::Samples;
use crate::daemon::config::Config;
use crate::daemon::serve;
use crate::mail::maildir::Maildir;
use crate::ruleset::{AnyRuleset, DemoPlayer, Owed};
use crate::server::{PlayerSpec, Server};
use crate::side::{BySide, SideId};
use crate::{envelope, sig};
use anyhow::{Context, anyhow, bail};
use sha2::{Digest, Sha256};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The club address the benchmark's players write to.
pub const CLUB: &str = "club@bench.test";

/// A game in a scratch folder with its players' keys.
pub struct Played {
    pub server: Server,
    pub cfg: Config,
    pub game: String,
    pub rules: &'static dyn AnyRuleset,
    pub keys: BySide<sig::KeyPair>,
    /// Steps resolved.
    pub steps: u32,
    /// Each step through the mail: intake of every orders mail, the
    /// deadline tick, resolution, reports, archive, mails queued.
    pub step_times: Samples,
    /// How the game stopped: over, or at the step limit.
    pub over: bool,
    /// Whether each step timed through the mail is followed by its
    /// primitives, measured once (`primitives::of_step`).
    pub pair: bool,
    /// Each such step's time over the sum of its primitives.
    pub ratios: Vec<f64>,
    // Last, so the store is closed before its folder goes.
    pub scratch: Scratch,
}

/// A signed orders file, ready to send.
pub struct Signed {
    pub side: SideId,
    pub name: String,
    pub text: String,
    pub signature: String,
}

/// The bench's fixed secret named `what`: the SHA-256 of its name. Only the
/// bench uses these, so that its games are the same on every run; a
/// daemon's keys and secrets come from the operating system.
fn fixed(what: &str) -> [u8; 32] {
    Sha256::digest(format!("galloper-bench/{what}").as_bytes()).into()
}

/// Write the bench's fixed server key into the data folder before the
/// server opens it, as an operator could bring a key of his own.
fn fixed_server_key(data: &std::path::Path) -> anyhow::Result<()> {
    crate::files::create_dir(data)?;
    let k = sig::keygen_from_seed(&fixed("server"), "galloper-server")?;
    crate::files::write_private(
        &data.join("server_key.pub"),
        format!("{}\n", k.public_line).as_bytes(),
    )?;
    crate::files::write_private(&data.join("server_key"), k.private_openssh.as_bytes())?;
    Ok(())
}

/// Store the bench's fixed secrets for `step` of `game` before the server
/// draws them: the server finds them as it would find secrets it had drawn
/// before a crash (`Store::secrets_for`), so no path of the game's code
/// changes and the daemon never sees a seeded secret.
pub fn fix_secrets(server: &mut Server, game: &str, step: u32) -> anyhow::Result<()> {
    let run = server.store().withdrawn_runs(game, step)? + 1;
    server.store_mut().secrets_for(game, step, run, || {
        Ok((
            fixed(&format!("{game}/{step}/{run}/public")),
            fixed(&format!("{game}/{step}/{run}/hidden")),
        ))
    })?;
    Ok(())
}

/// Entropy that is the same on every run, so that runs compare.
fn entropy(game: &str, step: u32, side: &SideId, n: u32) -> String {
    let mut h = Sha256::new();
    h.update(format!("{game}/{step}/{side}/{n}"));
    hex::encode(h.finalize())
}

/// The daemon configuration of a scratch club.
pub fn config(dir: &std::path::Path) -> anyhow::Result<Config> {
    let yaml = format!(
        "data: {}\nclub_address: {CLUB}\nname: Bench Club\nmaildir: {}\nreplies_per_hour: 1000000000\nmax_message_bytes: 4194304\n",
        dir.join("data").display(),
        dir.join("Maildir").display()
    );
    crate::yaml::from_str(&yaml).context("the benchmark's daemon configuration")
}

/// Open a club in `scratch` and create `game` from `scenario`.
pub fn open_game(
    scratch: Scratch,
    scenario: &str,
    game: &str,
) -> anyhow::Result<(Played, Vec<SideId>)> {
    let cfg = config(scratch.path())?;
    fixed_server_key(&cfg.data)?;
    let mut server = crate::daemon::serve::open(&cfg)?;
    let rules = crate::server::ruleset_of_scenario(scenario)?;
    let sides = rules.sides(scenario)?;
    let mut keys = BySide::new();
    let mut players = Vec::new();
    for side in &sides {
        let k = sig::keygen_from_seed(&fixed(&format!("{game}/{side}")), &format!("{side}@bench"))?;
        players.push(PlayerSpec {
            side: side.clone(),
            email: format!("{side}@players.test"),
            public_key: k.public_line.clone(),
        });
        keys.insert(side.clone(), k);
    }
    fix_secrets(&mut server, game, 1)?;
    server.new_game(game, scenario, &players)?;
    Ok((
        Played {
            server,
            cfg,
            game: game.into(),
            rules,
            keys,
            steps: 0,
            step_times: Samples::default(),
            over: false,
            pair: false,
            ratios: Vec::new(),
            scratch,
        },
        sides,
    ))
}

impl Played {
    /// Sign `body` as `side`'s orders for `step`, the open step, with the
    /// revision its `n`th file would have.
    pub fn sign(
        &self,
        step: u32,
        side: &SideId,
        body: &serde_yaml::Value,
        n: u32,
    ) -> anyhow::Result<Signed> {
        let notice = match self.server.store().open_step(&self.game)? {
            Some(open) if open.step == step => envelope::notice_sha256(&open.notice),
            _ => bail!("step {step} of {} is not open", self.game),
        };
        let head = envelope::Head {
            game: &self.game,
            step,
            side,
            notice: &notice,
            revision: self.server.next_revision(&self.game, side)? + n,
        };
        let text = envelope::compose(
            &head,
            &entropy(&self.game, step, side, n),
            &crate::yaml::to_string(body)?,
        );
        let key = self
            .keys
            .get(side)
            .ok_or_else(|| anyhow!("no key for side {side}"))?;
        let signature = sig::sign(&key.private_openssh, sig::ORDERS_NAMESPACE, text.as_bytes())?;
        Ok(Signed {
            side: side.clone(),
            name: format!("step-{step}-{side}.yaml"),
            text,
            signature,
        })
    }

    /// The orders mail carrying `s`.
    pub fn mail(&self, s: &Signed, n: u32) -> Vec<u8> {
        mailgen::orders_mail(
            &format!("{}@players.test", s.side),
            CLUB,
            &format!("{}-{}-{n}@players.test", self.game, s.name),
            &s.name,
            s.text.as_bytes(),
            &s.signature,
        )
    }

    /// The player's orders for `owed`, or its pass when the ruleset refuses
    /// them, as the side's `n`th file of the step.
    fn orders_for(
        &self,
        author: &mut dyn DemoPlayer,
        state: &str,
        step: u32,
        owed: &Owed,
        n: u32,
    ) -> anyhow::Result<Signed> {
        let body = author
            .orders(state, owed)
            .map_err(|e| anyhow!("the demo player failed: {e}"))?;
        let s = self.sign(step, &owed.side, &body, n)?;
        if self
            .server
            .prepare(&s.name, s.text.as_bytes(), &s.signature)
            .is_ok()
        {
            return Ok(s);
        }
        self.sign(step, &owed.side, &author.pass(owed), n)
    }

    /// Play until the game is over or `max_steps` steps are resolved. With
    /// `mail`, every step goes through the intake and is timed; without,
    /// orders go straight into the store (faster, for long games).
    pub fn play(
        &mut self,
        author: &mut dyn DemoPlayer,
        max_steps: u32,
        mail: bool,
    ) -> anyhow::Result<()> {
        let reports = self.cfg.reports_dir();
        while let Some((step, due)) = self.server.due(&self.game)? {
            if self.steps >= max_steps {
                return Ok(());
            }
            // The next step's secrets are drawn as this one resolves.
            fix_secrets(&mut self.server, &self.game, step.step + 1)?;
            let mut files = Vec::new();
            for owed in &due.optional {
                if let Some(body) = author
                    .optional(&step.state_before, owed, step.step)
                    .map_err(|e| anyhow!("the demo player failed: {e}"))?
                {
                    let n = files
                        .iter()
                        .filter(|f: &&Signed| f.side == owed.side)
                        .count();
                    let s = self.sign(step.step, &owed.side, &body, n as u32)?;
                    if self
                        .server
                        .prepare(&s.name, s.text.as_bytes(), &s.signature)
                        .is_ok()
                    {
                        files.push(s);
                    }
                }
            }
            for owed in &due.owed {
                let n = files.iter().filter(|f| f.side == owed.side).count();
                files.push(self.orders_for(
                    author,
                    &step.state_before,
                    step.step,
                    owed,
                    n as u32,
                )?);
            }
            let mut mails = Vec::new();
            let t = if mail {
                // Delivery is the MTA's part: the clock starts when the
                // mails wait in the Maildir, as the daemon finds them.
                let md = Maildir::open(
                    self.cfg
                        .maildir
                        .as_ref()
                        .context("the benchmark's club has a Maildir")?,
                )?;
                for s in &files {
                    let m = self.mail(s, step.step);
                    md.deliver(&m)?;
                    mails.push(m);
                }
                let accepted = self.server.store().inbox_count("accepted")?;
                let t = Instant::now();
                serve::maildir_intake(&mut self.server, &self.cfg, &md, &AtomicBool::new(false))?;
                let now = self.server.store().inbox_count("accepted")?;
                if now - accepted != files.len() as i64 {
                    bail!(
                        "the intake accepted {} of {} orders mails of step {}",
                        now - accepted,
                        files.len(),
                        step.step
                    );
                }
                self.server.tick(1_795_000_000, &reports)?;
                t
            } else {
                let t = Instant::now();
                for s in &files {
                    self.server
                        .submit(&s.name, s.text.as_bytes(), &s.signature)
                        .map_err(|e| anyhow!("orders refused: {e}"))?;
                }
                t
            };
            let done = self.server.process(&reports)?;
            let took = t.elapsed();
            if mail {
                self.step_times.push(took);
            }
            if mail && self.pair && done.len() == 1 {
                let sum = super::primitives::of_step(self, step.step, &mails)?;
                self.ratios.push(took.as_secs_f64() / sum.max(1e-9));
            }
            if done.is_empty() {
                bail!(
                    "step {} did not resolve with every side's orders",
                    step.step
                );
            }
            self.steps += done.len() as u32;
            if done.iter().any(|r| r.over) {
                self.over = true;
                return Ok(());
            }
        }
        self.over = true;
        Ok(())
    }

    /// The game's public archive folder.
    pub fn archive(&self) -> std::path::PathBuf {
        self.server.archive_dir(&self.game)
    }
}

/// Every file under `dir` with the SHA-256 of its bytes, by relative path.
pub fn tree_hashes(
    dir: &std::path::Path,
) -> anyhow::Result<std::collections::BTreeMap<std::path::PathBuf, String>> {
    let mut out = std::collections::BTreeMap::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d)? {
            let path = e?.path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                let rel = path.strip_prefix(dir)?.to_path_buf();
                out.insert(rel, hex::encode(Sha256::digest(std::fs::read(&path)?)));
            }
        }
    }
    Ok(out)
}

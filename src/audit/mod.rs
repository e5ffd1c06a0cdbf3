//! `galloper audit`: check a public archive with nothing but its files.
//!
//! During a game it checks what is public: the server's signatures (against
//! the key the caller pins, if he does), the game's chain of signed links
//! (`chain.rs`: nothing removed, added, reordered or swapped), that each
//! revealed secret matches the commitment published before any order, that
//! each seed comes from the secret and the orders' hashes, and every public
//! die. Once the game is over (`end.yaml`, signed) and `sealed/` is there,
//! it also checks every hidden secret, every state commitment, every
//! player's signature, and replays the whole game through the ruleset,
//! comparing states, events and dice byte for byte. A file that nothing
//! signed names fails the audit, and the archive is read as plain files
//! only (`safe.rs`).

mod beacon;
mod chain;
mod orders;
mod safe;
mod sealed;

use crate::archive::{
    self, ArchivedDie, GameFile, Manifest, Notice, OrdersIndex, Reveal, sha256_hex,
};
use crate::dice::beacon::seed_of;
use crate::dice::{DieRecord, StreamKind, check_stream, protocol};
use crate::rulesets;
use crate::side::SideId;
use crate::sig;
use chain::Link;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

pub use safe::MAX_FILE;

/// The first thing found wrong.
#[derive(Debug, thiserror::Error)]
#[error("AUDIT FAILED at {place}: {what}")]
pub struct Failure {
    pub place: String,
    pub what: String,
}

fn fail(place: impl Into<String>, what: impl Into<String>) -> Failure {
    Failure {
        place: place.into(),
        what: what.into(),
    }
}

/// What the caller holds beside the archive.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The server key the archive must be signed with: its fingerprint
    /// (`SHA256:...`) or its public key line. Without it the audit can only
    /// say which key signed, and a forger re-signing every file with a key
    /// of his own passes.
    pub server_key: Option<String>,
}

/// What the audit checked.
#[derive(Debug, Default)]
pub struct Verdict {
    pub lines: Vec<String>,
    pub steps: u32,
    pub public_dice: usize,
    pub replayed: bool,
    /// How the game ended, from its signed `end.yaml`; `None` while it is
    /// in progress.
    pub over: Option<String>,
    /// The step open (taking orders) when the archive was written.
    pub open_step: Option<u32>,
    /// Whether the server key was compared with a pinned one.
    pub pinned: bool,
    /// How many states the replay read from their text: one for each run
    /// of steps a core replays in a row, each step after the first starting
    /// from the state the one before ended with, kept parsed.
    pub state_parses: usize,
    /// Steps replayed again from their state's text, as the server resolved
    /// them, because the state kept parsed did not give the archive's bytes
    /// (or their state does not parse): none where a ruleset's state reads
    /// back as it was written.
    pub replayed_from_text: usize,
}

impl Verdict {
    /// The last line of `galloper audit`: what passed, and no more. An
    /// archive without a signed end is a game in progress (or a copy cut
    /// before its end), and says so.
    pub fn summary(&self) -> String {
        let key = if self.pinned {
            "signed by the pinned server key"
        } else {
            "server key not pinned (compare the fingerprint above with the server's)"
        };
        match &self.over {
            Some(outcome) => format!(
                "AUDIT PASSED: the game is over ({outcome}); {} step(s), {} public dice re-derived{}; {key}",
                self.steps,
                self.public_dice,
                if self.replayed {
                    ", every secret, order and state checked and the full replay identical"
                } else {
                    ""
                }
            ),
            None => format!(
                "AUDIT PASSED SO FAR: a game in progress, not over: {} step(s) resolved{}, {} public dice re-derived; hidden dice and orders stay sealed until a signed end; {key}",
                self.steps,
                self.open_step
                    .map(|s| format!(", step {s} open"))
                    .unwrap_or_default(),
                self.public_dice,
            ),
        }
    }
}

fn read(path: &Path) -> Result<Vec<u8>, Failure> {
    safe::read(path)
}

fn read_text(path: &Path) -> Result<String, Failure> {
    String::from_utf8(read(path)?).map_err(|_| fail(path.display().to_string(), "not UTF-8 text"))
}

fn yaml<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, Failure> {
    crate::yaml::from_str(&read_text(path)?)
        .map_err(|e| fail(path.display().to_string(), format!("does not parse: {e}")))
}

fn signed(path: &Path, server_key: &str) -> Result<Vec<u8>, Failure> {
    let bytes = read(path)?;
    let signature = read_text(&chain::sig_of(path))?;
    sig::verify(server_key, sig::REPORT_NAMESPACE, &bytes, &signature).map_err(|e| {
        fail(
            path.display().to_string(),
            format!("server signature refused: {e}"),
        )
    })?;
    Ok(bytes)
}

/// Check a folder's signed manifest and every file it lists; the files it
/// accounts for go into `named` (relative to `root`).
fn manifest(
    root: &Path,
    rel: &Path,
    server_key: &str,
    named: &mut BTreeSet<PathBuf>,
) -> Result<Manifest, Failure> {
    let dir = root.join(rel);
    let bytes = signed(&dir.join("manifest.yaml"), server_key)?;
    let m: Manifest = crate::yaml::from_slice(&bytes).map_err(|e| {
        fail(
            dir.display().to_string(),
            format!("manifest does not parse: {e}"),
        )
    })?;
    for (name, hash) in &m.files {
        if name.contains('/') || name.starts_with('.') {
            return Err(fail(
                dir.display().to_string(),
                format!("the manifest names {name:?}, which is not a file of its folder"),
            ));
        }
        let got = sha256_hex(&read(&dir.join(name))?);
        if &got != hash {
            return Err(fail(
                dir.join(name).display().to_string(),
                format!("file changed after signing: sha256 {got}, manifest says {hash}"),
            ));
        }
        named.insert(rel.join(name));
    }
    named.insert(rel.join("manifest.yaml"));
    named.insert(rel.join("manifest.yaml.sig"));
    Ok(m)
}

fn unhex32(s: &str, place: &str) -> Result<[u8; 32], Failure> {
    hex::decode(s)
        .ok()
        .and_then(|v| v.try_into().ok())
        .ok_or_else(|| fail(place, "not 32 bytes of hex"))
}

/// What the public files of a step's run prove, for the sealed checks.
#[derive(Clone)]
struct PublicPart {
    secret: [u8; 32],
    mix: Vec<u8>,
    index: OrdersIndex,
    dice: Vec<ArchivedDie>,
    state: String,
    /// The verified beacon round of a step of protocol version 2.
    beacon: Option<crate::dice::beacon::Round>,
}

/// Check the public files of one run of a step (the current one or a
/// rolled-back one): the revealed secret against the step's commitment,
/// the mix against the orders' hashes, the seed, and every public die
/// against the stream, numbered among the public dice alone.
fn public_part(
    sdir: &Path,
    listed: &Manifest,
    game: &GameFile,
    step: u32,
    notice: &Notice,
    place: &str,
) -> Result<PublicPart, Failure> {
    let reveal: Reveal = yaml(&sdir.join("reveal.yaml"))?;
    let p = unhex32(&reveal.public_secret, place)?;
    if hex::encode(protocol::commit(StreamKind::Public, &game.game, step, &p))
        != notice.public_commitment
    {
        return Err(fail(
            place,
            "the revealed public secret does not match its commitment",
        ));
    }
    let index: OrdersIndex = yaml(&sdir.join("orders.yaml"))?;
    beacon::audited_receipts(&index, notice, place)?;
    let hashes: Vec<[u8; 32]> = index
        .sides
        .iter()
        .map(|e| unhex32(&e.sha256, place))
        .collect::<Result<_, _>>()?;
    let mix = protocol::mix(&hashes);
    if hex::encode(&mix) != reveal.mix {
        return Err(fail(
            place,
            "the mix is not the orders' hashes in side order",
        ));
    }
    let beacon = beacon::audited_round(sdir, listed, game, notice, place)?;
    let b = beacon.as_ref().map(|r| r.randomness());
    let seed = seed_of(StreamKind::Public, &p, &mix, b.as_ref());
    if hex::encode(seed) != reveal.public_seed {
        return Err(fail(
            place,
            "the public seed does not follow from the secret and the mix",
        ));
    }
    let dice: Vec<ArchivedDie> = yaml(&sdir.join("dice.yaml"))?;
    if let Some((i, d)) = dice.iter().enumerate().find(|(i, d)| d.n != *i) {
        return Err(fail(
            place,
            format!(
                "public die {i} is numbered {}: public dice are numbered among themselves from 0",
                d.n
            ),
        ));
    }
    let records: Vec<DieRecord> = dice.iter().map(|d| d.die.clone()).collect();
    check_stream(seed, StreamKind::Public, &records)
        .map_err(|e| fail(place, format!("public dice: {e}")))?;
    let state = read_text(&sdir.join("state.commitment"))?
        .trim()
        .to_string();
    Ok(PublicPart {
        secret: p,
        mix,
        index,
        dice,
        state,
        beacon,
    })
}

/// A resolved run met on the chain.
#[derive(Clone)]
struct Run {
    step: u32,
    run: u32,
    dir: PathBuf,
    notice: Notice,
    /// The SHA-256 of the notice's bytes: what each orders file mixed into
    /// the run must name.
    notice_sha256: String,
    public: PublicPart,
}

/// The fingerprint a pin names: a fingerprint as given, or a key line's.
fn pinned_fingerprint(pin: &str) -> Result<String, Failure> {
    let pin = pin.trim();
    if pin.starts_with("SHA256:") {
        return Ok(pin.to_string());
    }
    sig::fingerprint(pin).map_err(|e| {
        fail(
            "--server-key",
            format!("neither a SHA256: fingerprint nor a public key line: {e}"),
        )
    })
}

/// Audit the archive in `dir`, trusting the server key it names.
pub fn audit(dir: &Path) -> Result<Verdict, Failure> {
    audit_with(dir, &Options::default())
}

/// Audit the archive in `dir`.
pub fn audit_with(dir: &Path, opts: &Options) -> Result<Verdict, Failure> {
    let mut v = Verdict::default();
    let files = safe::walk(dir)?;
    let mut named: BTreeSet<PathBuf> = BTreeSet::new();
    let game_bytes = read(&dir.join("game.yaml"))?;
    let game: GameFile = crate::yaml::from_slice(&game_bytes)
        .map_err(|e| fail("game.yaml", format!("does not parse: {e}")))?;
    let fp = sig::fingerprint(&game.server_key).unwrap_or_default();
    if let Some(pin) = &opts.server_key {
        let want = pinned_fingerprint(pin)?;
        if fp.is_empty() || want != fp {
            return Err(fail(
                "game.yaml",
                format!(
                    "the archive is signed by server key {fp}, not by the pinned key {want}: it is not the server you trust"
                ),
            ));
        }
        v.pinned = true;
    }
    signed(&dir.join("game.yaml"), &game.server_key)?;
    v.lines.push(format!(
        "game {} ({}), server key {fp}{}",
        game.game,
        game.ruleset,
        if v.pinned {
            ": the pinned key"
        } else {
            ": compare it with the one the server publishes"
        }
    ));
    let scenario = read_text(&dir.join("scenario.yaml"))?;
    if sha256_hex(scenario.as_bytes()) != game.scenario_sha256 {
        return Err(fail(
            "scenario.yaml",
            "does not match the hash in game.yaml",
        ));
    }
    named.extend(["game.yaml", "game.yaml.sig", "scenario.yaml"].map(PathBuf::from));
    let rules = rulesets::by_name(&game.ruleset)
        .ok_or_else(|| fail("game.yaml", format!("unknown ruleset {}", game.ruleset)))?;
    let sides: Vec<SideId> = game.sides.iter().map(|s| SideId::new(s.as_str())).collect();
    // A scenario with hidden troops is public only in part: its start
    // state is known once the game ends and sealed/start/ opens it.
    let public_start = match &game.sealed_scenario {
        None => Some(
            rules
                .start(&scenario)
                .map_err(|e| fail("scenario.yaml", e.to_string()))?,
        ),
        Some(_) => {
            v.lines.push(
                "scenario: its hidden part is committed with a salt in game.yaml, opened in sealed/start/ when the game ends"
                    .into(),
            );
            None
        }
    };
    let keys = key_history(dir, &game, &mut named)?;

    let chain = chain::links(dir, &files, &game, &game_bytes)?;
    named.extend(chain.files);
    let start_commitment = public_start
        .as_ref()
        .map(|s| archive::state_commitment(&game.game, 0, &[0; 32], s.as_bytes()));
    let walked = walk_chain(
        dir,
        &game,
        start_commitment,
        &chain.links,
        &mut named,
        &mut v,
    )?;

    let sealed = safe::is_dir(&dir.join("sealed"));
    match &walked.end {
        Some(end) => {
            if end.last_step != walked.last_resolved {
                return Err(fail(
                    "end.yaml",
                    format!(
                        "names step {} as the last resolved, but the chain's is step {}",
                        end.last_step, walked.last_resolved
                    ),
                ));
            }
            if end.key_changes as usize != keys.len() {
                return Err(fail(
                    "end.yaml",
                    format!(
                        "names {} key change(s), but keys/ holds {}",
                        end.key_changes,
                        keys.len()
                    ),
                ));
            }
            if !sealed {
                return Err(fail(
                    "sealed/",
                    "missing: the game's signed end says it is over, and its secrets must be sealed here",
                ));
            }
            v.over = Some(end.outcome.clone());
        }
        None => {
            if sealed {
                return Err(fail(
                    "end.yaml",
                    "missing, but sealed/ is there: the game's signed end was removed",
                ));
            }
            match walked.open {
                Some(step) => {
                    v.open_step = Some(step);
                    v.lines.push(format!(
                        "step {step}: open; commitments published, nothing to reveal yet"
                    ));
                }
                None => {
                    return Err(fail(
                        format!("step {}", walked.last_resolved),
                        "the chain ends after this step with neither the next step's notice nor a signed end.yaml: the archive is cut",
                    ));
                }
            }
        }
    }
    if sealed {
        let start = match public_start {
            Some(start) => start,
            None => sealed_start(dir, &game, rules, &scenario, &walked, &mut named)?,
        };
        sealed::check(
            dir, &game, rules, &sides, &start, &keys, &walked, &mut named, &mut v,
        )?;
    }
    if walked.last_resolved == 0 && walked.undone.is_empty() && v.over.is_none() {
        return Err(fail(
            dir.display().to_string(),
            "no resolved step in this archive",
        ));
    }
    let unnamed: Vec<String> = files
        .difference(&named)
        .map(|p| p.display().to_string())
        .collect();
    if !unnamed.is_empty() {
        return Err(fail(
            unnamed.join(", "),
            "no signed file of the archive names this: added to the archive (or left by a crash)",
        ));
    }
    v.lines.push(if v.over.is_some() {
        "sealed: the game is over; every secret, order and state was checked and replayed"
            .to_string()
    } else {
        "sealed: not yet; orders, hands and hidden dice stay secret until the game ends".to_string()
    });
    Ok(v)
}

/// The start state of a game whose scenario was partly hidden, from the
/// whole scenario opened in `sealed/start/`: it must be the one game.yaml
/// committed to, its public part must be what was published, and its start
/// state the one the first notice committed to.
fn sealed_start(
    dir: &Path,
    game: &GameFile,
    rules: &'static dyn crate::ruleset::AnyRuleset,
    public: &str,
    walked: &Walked,
    named: &mut BTreeSet<PathBuf>,
) -> Result<String, Failure> {
    let rel = Path::new(archive::SEALED_START);
    let place = archive::SEALED_START;
    if !safe::is_dir(&dir.join(rel)) {
        return Err(fail(
            place,
            "missing: game.yaml commits to a hidden scenario, which must be opened here when the game ends",
        ));
    }
    manifest(dir, rel, &game.server_key, named)?;
    let whole = read_text(&dir.join(rel).join("scenario.yaml"))?;
    let reveal: archive::StartReveal =
        crate::yaml::from_slice(&read(&dir.join(rel).join("salt.yaml"))?)
            .map_err(|e| fail(format!("{place}/salt.yaml"), format!("does not parse: {e}")))?;
    let salt = unhex32(&reveal.salt, &format!("{place}/salt.yaml"))?;
    if Some(archive::scenario_commitment(
        &game.game,
        &salt,
        whole.as_bytes(),
    )) != game.sealed_scenario
    {
        return Err(fail(
            format!("{place}/scenario.yaml"),
            "is not the scenario game.yaml committed to",
        ));
    }
    let published = rules
        .public_scenario(&whole)
        .map_err(|e| fail(format!("{place}/scenario.yaml"), e.to_string()))?;
    if published.as_deref() != Some(public) {
        return Err(fail(
            "scenario.yaml",
            "is not the public part of the scenario opened in sealed/start/",
        ));
    }
    let start = rules
        .start(&whole)
        .map_err(|e| fail(format!("{place}/scenario.yaml"), e.to_string()))?;
    if walked.start_commitment.as_deref()
        != Some(archive::state_commitment(&game.game, 0, &salt, start.as_bytes()).as_str())
    {
        return Err(fail(
            "step 1",
            "the state the first notice committed to is not the start of the scenario opened in sealed/start/",
        ));
    }
    Ok(start)
}

/// What walking the chain found.
struct Walked {
    /// The commitment to the start state, as the first notice gave it.
    start_commitment: Option<String>,
    /// The runs in force, by step.
    current: BTreeMap<u32, Run>,
    /// Rolled-back runs.
    undone: Vec<Run>,
    last_resolved: u32,
    open: Option<u32>,
    end: Option<archive::EndFile>,
}

/// Walk the chain in the order it was made, checking each link against
/// what came before it: the step and run it must be, the state it starts
/// from, and the public files of each resolved run.
fn walk_chain(
    dir: &Path,
    game: &GameFile,
    start: Option<String>,
    links: &[Link],
    named: &mut BTreeSet<PathBuf>,
    v: &mut Verdict,
) -> Result<Walked, Failure> {
    let mut w = Walked {
        start_commitment: start.clone(),
        current: BTreeMap::new(),
        undone: Vec::new(),
        last_resolved: 0,
        open: None,
        end: None,
    };
    // The commitment to the state each step ended with (0: the start).
    // Unknown for a hidden scenario until the first notice gives it, then
    // checked when sealed/start/ opens the scenario.
    let mut after: BTreeMap<u32, String> = BTreeMap::new();
    if let Some(start) = start {
        after.insert(0, start);
    }
    let mut rollbacks: BTreeMap<u32, u32> = BTreeMap::new();
    let mut open: Option<(PathBuf, Notice, String)> = None;
    let mut prev = &Link::Game;
    for link in links.iter().skip(1) {
        let place = chain::describe(link);
        if w.end.is_some() {
            return Err(fail(place, "comes after the game's signed end"));
        }
        match link {
            Link::Game => return Err(fail(place, "a second game.yaml on the chain")),
            Link::Notice(path, n) => {
                let expected = match prev {
                    Link::Game => 1,
                    Link::Manifest(..) => w.last_resolved + 1,
                    Link::Rollback(_, r) => r.step,
                    _ => {
                        return Err(fail(
                            place,
                            "a notice must follow game.yaml, a manifest or a rollback note",
                        ));
                    }
                };
                let run = rollbacks.get(&n.step).copied().unwrap_or(0) + 1;
                if n.game != game.game || n.step != expected || n.run != run {
                    return Err(fail(
                        place,
                        format!(
                            "the notice names game {} step {} run {}, where the chain expects game {} step {expected} run {run}",
                            n.game, n.step, n.run, game.game
                        ),
                    ));
                }
                if !chain::notice_in_place(path, n) {
                    return Err(fail(
                        place,
                        "the notice is not in its step's folder: folders were renamed or swapped",
                    ));
                }
                if n.step == 1 && !after.contains_key(&0) {
                    after.insert(0, n.state_before_commitment.clone());
                    w.start_commitment = Some(n.state_before_commitment.clone());
                }
                if after.get(&(n.step - 1)) != Some(&n.state_before_commitment) {
                    return Err(fail(
                        place,
                        "the state this step starts from is not the state the last step ended with",
                    ));
                }
                let hash = sha256_hex(&read(&dir.join(path))?);
                open = Some((path.clone(), (**n).clone(), hash));
                w.open = Some(n.step);
            }
            Link::Manifest(folder) => {
                let Some((npath, notice, notice_sha256)) = open.take() else {
                    return Err(fail(place, "a manifest with no open step before it"));
                };
                if npath.parent() != Some(folder.as_path()) {
                    return Err(fail(place, "the manifest is not in its notice's folder"));
                }
                let step = notice.step;
                let splace = if folder.iter().count() > 1 {
                    format!("step {step} rolled-back run {}", notice.run)
                } else {
                    format!("step {step}")
                };
                let listed = manifest(dir, folder, &game.server_key, named)?;
                let public = public_part(&dir.join(folder), &listed, game, step, &notice, &splace)?;
                after.insert(step, public.state.clone());
                v.public_dice += public.dice.len();
                w.current.insert(
                    step,
                    Run {
                        step,
                        run: notice.run,
                        dir: folder.clone(),
                        notice,
                        notice_sha256,
                        public,
                    },
                );
                w.last_resolved = step;
                w.open = None;
            }
            Link::Rollback(folder, r) => {
                let Some((npath, notice, _)) = open.take() else {
                    return Err(fail(place, "a rollback with no open step before it"));
                };
                let run = rollbacks.get(&r.step).copied().unwrap_or(0) + 1;
                let expected_dir = archive::rollback_dir(Path::new(""), r.step, run);
                if r.manifest_sha256.is_empty() {
                    // A beacon step whose orders closed unanswered, opened
                    // again: the note withdraws the run's own notice, and
                    // no die of it exists.
                    if r.game != game.game
                        || notice.step != r.step
                        || notice.run != run
                        || r.run != run
                        || folder != &expected_dir
                        || npath != folder.join("notice.yaml")
                        || notice.beacon.is_none()
                    {
                        return Err(fail(
                            place,
                            format!(
                                "a note withdrawing an unresolved run names game {} step {} run {}, where the chain expects game {} step {} run {run} of a beacon step in {}",
                                r.game,
                                r.step,
                                r.run,
                                game.game,
                                notice.step,
                                expected_dir.display()
                            ),
                        ));
                    }
                    v.lines.push(format!(
                        "step {}: run {run} was opened again unresolved ({}); it rolled no dice",
                        r.step, r.reason
                    ));
                    rollbacks.insert(r.step, run);
                    w.open = None;
                    prev = link;
                    continue;
                }
                if r.game != game.game
                    || r.step != w.last_resolved
                    || r.run != run
                    || folder != &expected_dir
                    || notice.step != r.step + 1
                    || npath != folder.join("next-notice.yaml")
                {
                    return Err(fail(
                        place,
                        format!(
                            "rollback.yaml names game {} step {} run {}, where the chain expects game {} step {} run {run} in {}",
                            r.game,
                            r.step,
                            r.run,
                            game.game,
                            w.last_resolved,
                            expected_dir.display()
                        ),
                    ));
                }
                let undone = w
                    .current
                    .remove(&r.step)
                    .ok_or_else(|| fail(&place, "the rolled-back run is not on the chain"))?;
                let m = sha256_hex(&read(&dir.join(&undone.dir).join("manifest.yaml"))?);
                if undone.dir != *folder || m != r.manifest_sha256 {
                    return Err(fail(
                        place,
                        "the rolled-back run's manifest is not the one this note names",
                    ));
                }
                v.lines.push(format!(
                    "step {}: run {run} was rolled back ({}); its signatures, commitment, seed and {} public dice check",
                    r.step,
                    r.reason,
                    undone.public.dice.len()
                ));
                w.undone.push(undone);
                rollbacks.insert(r.step, run);
                after.retain(|s, _| *s < r.step);
                w.last_resolved = r.step - 1;
                w.open = None;
            }
            Link::End(e) => {
                if e.game != game.game {
                    return Err(fail(place, "end.yaml names another game"));
                }
                w.end = Some(e.clone());
            }
        }
        if let Link::Manifest(_) = link
            && let Some(r) = w.current.get(&w.last_resolved)
            && r.dir.iter().count() == 1
        {
            let beacon = match &r.public.beacon {
                Some(b) => format!("; beacon round {} verified and mixed in", b.round),
                None => String::new(),
            };
            v.lines.push(format!(
                "step {}: signatures, commitment, seed and {} public dice check{beacon}",
                r.step,
                r.public.dice.len()
            ));
        }
        prev = link;
    }
    v.steps = w.last_resolved;
    Ok(w)
}

/// The key changes of `keys/`, each checked against the server's signature.
fn key_history(
    dir: &Path,
    game: &GameFile,
    named: &mut BTreeSet<PathBuf>,
) -> Result<Vec<archive::KeyChange>, Failure> {
    let mut out = Vec::new();
    for n in 1u32.. {
        let rel = Path::new("keys").join(format!("change-{n:03}.yaml"));
        if !safe::is_file(&dir.join(&rel)) {
            break;
        }
        let path = dir.join(&rel);
        let bytes = signed(&path, &game.server_key)?;
        let change: archive::KeyChange = crate::yaml::from_slice(&bytes)
            .map_err(|e| fail(path.display().to_string(), format!("does not parse: {e}")))?;
        if change.game != game.game {
            return Err(fail(path.display().to_string(), "names another game"));
        }
        named.insert(chain::sig_of(&rel));
        named.insert(rel);
        out.push(change);
    }
    Ok(out)
}

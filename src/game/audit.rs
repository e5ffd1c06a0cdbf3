//! `galloper audit`: check a public archive with nothing but its files.
//!
//! During a game it checks what is public: the server's signatures, that each
//! revealed secret matches the commitment published before any order, that
//! each seed comes from the secret and the orders' hashes, and every public
//! die. Once the game is over and `sealed/` is there, it also checks every
//! player's signature and replays the whole game through the ruleset,
//! comparing states, events and dice byte for byte.

use super::archive::{
    self, ArchivedDie, GameFile, HiddenReveal, Manifest, Notice, OrdersIndex, Reveal, sha256_hex,
};
use super::store::{OrdersRow, StepRow};
use crate::dice::beacon::seed_of;
use crate::dice::{DieRecord, StreamKind, check_stream, protocol};
use crate::event::Event;
use crate::rulesets;
use crate::side::SideId;
use crate::sig;
use std::collections::BTreeMap;
use std::path::Path;

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

/// What the audit checked.
#[derive(Debug, Default)]
pub struct Verdict {
    pub lines: Vec<String>,
    pub steps: u32,
    pub public_dice: usize,
    pub replayed: bool,
}

fn read(path: &Path) -> Result<Vec<u8>, Failure> {
    std::fs::read(path).map_err(|e| fail(path.display().to_string(), format!("cannot read: {e}")))
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
    let sig_path = path.with_file_name(format!(
        "{}.sig",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("")
    ));
    let signature = read_text(&sig_path)?;
    sig::verify(server_key, sig::REPORT_NAMESPACE, &bytes, &signature).map_err(|e| {
        fail(
            path.display().to_string(),
            format!("server signature refused: {e}"),
        )
    })?;
    Ok(bytes)
}

/// Check a folder's signed manifest and every file it lists.
fn manifest(dir: &Path, server_key: &str) -> Result<Manifest, Failure> {
    let bytes = signed(&dir.join("manifest.yaml"), server_key)?;
    let m: Manifest = crate::yaml::from_slice(&bytes).map_err(|e| {
        fail(
            dir.display().to_string(),
            format!("manifest does not parse: {e}"),
        )
    })?;
    for (name, hash) in &m.files {
        let got = sha256_hex(&read(&dir.join(name))?);
        if &got != hash {
            return Err(fail(
                dir.join(name).display().to_string(),
                format!("file changed after signing: sha256 {got}, manifest says {hash}"),
            ));
        }
    }
    Ok(m)
}

fn unhex32(s: &str, place: &str) -> Result<[u8; 32], Failure> {
    hex::decode(s)
        .ok()
        .and_then(|v| v.try_into().ok())
        .ok_or_else(|| fail(place, "not 32 bytes of hex"))
}

/// What the public files of a step's run prove, for the replay to use.
struct PublicPart {
    secret: [u8; 32],
    mix: Vec<u8>,
    index: OrdersIndex,
    dice: usize,
    /// The verified beacon round of a step of protocol version 2.
    beacon: Option<crate::dice::beacon::Round>,
}

/// Check the public files of one run of a step (the current one or a
/// rolled-back one): the manifest, the revealed secret against the step's
/// commitment, the mix against the orders' hashes, the seed, and every
/// public die against the stream.
fn public_part(
    sdir: &Path,
    game: &GameFile,
    step: u32,
    notice: &Notice,
    place: &str,
) -> Result<PublicPart, Failure> {
    let listed = manifest(sdir, &game.server_key)?;
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
    let beacon = super::beacon::audited_round(sdir, &listed, game, notice, place)?;
    let b = beacon.as_ref().map(|r| r.randomness());
    let seed = seed_of(StreamKind::Public, &p, &mix, b.as_ref());
    if hex::encode(seed) != reveal.public_seed {
        return Err(fail(
            place,
            "the public seed does not follow from the secret and the mix",
        ));
    }
    let dice: Vec<ArchivedDie> = yaml(&sdir.join("dice.yaml"))?;
    let records: Vec<DieRecord> = dice.iter().map(|d| d.die.clone()).collect();
    check_stream(seed, StreamKind::Public, &records)
        .map_err(|e| fail(place, format!("public dice: {e}")))?;
    Ok(PublicPart {
        secret: p,
        mix,
        index,
        dice: records.len(),
        beacon,
    })
}

/// Audit the archive in `dir`.
pub fn audit(dir: &Path) -> Result<Verdict, Failure> {
    let mut v = Verdict::default();
    let game_bytes = read(&dir.join("game.yaml"))?;
    let game: GameFile = crate::yaml::from_slice(&game_bytes)
        .map_err(|e| fail("game.yaml", format!("does not parse: {e}")))?;
    signed(&dir.join("game.yaml"), &game.server_key)?;
    let fp = sig::fingerprint(&game.server_key).unwrap_or_default();
    v.lines.push(format!(
        "game {} ({}), server key {fp}: compare it with the one the server publishes",
        game.game, game.ruleset
    ));
    let scenario = read_text(&dir.join("scenario.yaml"))?;
    if sha256_hex(scenario.as_bytes()) != game.scenario_sha256 {
        return Err(fail(
            "scenario.yaml",
            "does not match the hash in game.yaml",
        ));
    }
    let rules = rulesets::by_name(&game.ruleset)
        .ok_or_else(|| fail("game.yaml", format!("unknown ruleset {}", game.ruleset)))?;
    let sides: Vec<SideId> = game.sides.iter().map(|s| SideId::new(s.as_str())).collect();
    let mut state = rules
        .start(&scenario)
        .map_err(|e| fail("scenario.yaml", e.to_string()))?;
    let keys = key_history(dir, &game)?;
    let sealed_root = dir.join("sealed");
    let sealed = sealed_root.exists();
    let mut expected_before = sha256_hex(state.as_bytes());

    for step in 1u32.. {
        let sdir = archive::step_dir(dir, step);
        if !sdir.exists() {
            break;
        }
        let place = format!("step {step}");
        let notice: Notice =
            crate::yaml::from_slice(&signed(&sdir.join("notice.yaml"), &game.server_key)?)
                .map_err(|e| fail(&place, format!("notice does not parse: {e}")))?;
        if notice.game != game.game || notice.step != step {
            return Err(fail(&place, "the notice names another game or step"));
        }
        if notice.state_before_sha256 != expected_before {
            return Err(fail(
                &place,
                "the state this step starts from is not the state the last step ended with",
            ));
        }
        v.lines.extend(earlier_runs(dir, &game, step, &notice)?);
        if !sdir.join("manifest.yaml").exists() {
            v.lines.push(format!(
                "step {step}: open; commitments published, nothing to reveal yet"
            ));
            break;
        }
        let PublicPart {
            secret: p,
            mix,
            index,
            dice,
            beacon,
        } = public_part(&sdir, &game, step, &notice, &place)?;
        v.public_dice += dice;
        let state_hash = read_text(&sdir.join("state.sha256"))?.trim().to_string();
        let mut line =
            format!("step {step}: signatures, commitment, seed and {dice} public dice check");
        if let Some(r) = &beacon {
            line.push_str(&format!("; beacon round {} verified and mixed in", r.round));
        }
        let b = beacon.as_ref().map(|r| r.randomness());

        if sealed {
            let sd = archive::sealed_dir(dir, step);
            let splace = format!("sealed step {step}");
            manifest(&sd, &game.server_key)?;
            let hidden: HiddenReveal = yaml(&sd.join("hidden.yaml"))?;
            let h = unhex32(&hidden.hidden_secret, &splace)?;
            if hex::encode(protocol::commit(StreamKind::Hidden, &game.game, step, &h))
                != notice.hidden_commitment
            {
                return Err(fail(
                    &splace,
                    "the revealed hidden secret does not match its commitment",
                ));
            }
            if hex::encode(seed_of(StreamKind::Hidden, &h, &mix, b.as_ref())) != hidden.hidden_seed
            {
                return Err(fail(
                    &splace,
                    "the hidden seed does not follow from the secret and the mix",
                ));
            }
            let mut orders = BTreeMap::new();
            for e in &index.sides {
                let name = format!("orders-{}.yaml", e.side);
                let text = read(&sd.join(&name))?;
                if sha256_hex(&text) != e.sha256 {
                    return Err(fail(
                        format!("{splace}: {name}"),
                        "the orders are not the ones whose hash was published",
                    ));
                }
                // Orders the server applied for a side that sent none carry
                // the server's signature in a namespace of their own; a
                // player's carry the key in force at that step.
                let (key, namespace, who) = match &e.applied {
                    Some(_) => (
                        game.server_key.as_str(),
                        super::life::APPLIED_NAMESPACE,
                        "server",
                    ),
                    None => (
                        key_at(&game, &keys, &e.side, step)
                            .map(String::as_str)
                            .ok_or_else(|| fail(&splace, format!("no key for side {}", e.side)))?,
                        sig::ORDERS_NAMESPACE,
                        "player",
                    ),
                };
                sig::verify(key, namespace, &text, &e.signature).map_err(|err| {
                    fail(
                        format!("{splace}: {name}"),
                        format!("{who} signature refused: {err}"),
                    )
                })?;
                if let Some(why) = &e.applied {
                    line.push_str(&format!(
                        "; {} orders applied by the server ({why})",
                        e.side
                    ));
                }
                let side = SideId::new(e.side.as_str());
                orders.insert(
                    side.clone(),
                    OrdersRow {
                        seq: 0,
                        game: game.game.clone(),
                        step,
                        side,
                        file_name: name,
                        text,
                        signature: e.signature.clone(),
                        sha256: e.sha256.clone(),
                    },
                );
            }
            let row = StepRow {
                game: game.game.clone(),
                step,
                public_secret: p,
                hidden_secret: h,
                state_before: state.clone(),
                notice: String::new(),
                notice_sig: String::new(),
                result: None,
                beacon: beacon.clone(),
            };
            let (res, _) = super::resolve_step(rules, &sides, &row, &orders)
                .map_err(|e| fail(&splace, format!("replay failed: {e}")))?;
            compare(
                &splace,
                "state.yaml",
                res.state.as_bytes(),
                &read(&sd.join("state.yaml"))?,
            )?;
            let events = crate::yaml::to_string(&res.events).unwrap_or_default();
            compare(
                &splace,
                "events.yaml",
                events.as_bytes(),
                &read(&sd.join("events.yaml"))?,
            )?;
            let all_dice = crate::yaml::to_string(&res.dice).unwrap_or_default();
            compare(
                &splace,
                "dice.yaml",
                all_dice.as_bytes(),
                &read(&sd.join("dice.yaml"))?,
            )?;
            let public_events: Vec<Event> = archive::public_events(&res.events);
            compare(
                &place,
                "events.yaml",
                crate::yaml::to_string(&public_events)
                    .unwrap_or_default()
                    .as_bytes(),
                &read(&sdir.join("events.yaml"))?,
            )?;
            if sha256_hex(res.state.as_bytes()) != state_hash {
                return Err(fail(
                    &place,
                    "state.sha256 is not the hash of the replayed state",
                ));
            }
            state = res.state;
            line.push_str(&format!(
                "; hidden secret, {} signed orders and the replay match",
                orders.len()
            ));
            v.replayed = true;
        }
        expected_before = state_hash;
        v.lines.push(line);
        v.steps = step;
    }
    if v.steps == 0 {
        return Err(fail(
            dir.display().to_string(),
            "no resolved step in this archive",
        ));
    }
    v.lines.push(if sealed {
        "sealed: the game is over; every secret, order and state was checked and replayed"
            .to_string()
    } else {
        "sealed: not yet; orders, hands and hidden dice stay secret until the game ends".to_string()
    });
    Ok(v)
}

fn compare(place: &str, name: &str, replayed: &[u8], archived: &[u8]) -> Result<(), Failure> {
    if replayed == archived {
        return Ok(());
    }
    let r = String::from_utf8_lossy(replayed);
    let a = String::from_utf8_lossy(archived);
    let (n, (x, y)) = r
        .lines()
        .zip(a.lines())
        .enumerate()
        .find(|(_, (x, y))| x != y)
        .unwrap_or((r.lines().count().min(a.lines().count()), ("(end)", "(end)")));
    Err(fail(
        format!("{place}: {name} line {}", n + 1),
        format!("replay gives {x:?}, archive has {y:?}"),
    ))
}

/// The key changes of `keys/`, each checked against the server's signature.
fn key_history(dir: &Path, game: &GameFile) -> Result<Vec<archive::KeyChange>, Failure> {
    let mut out = Vec::new();
    for path in archive::key_changes(dir) {
        let bytes = signed(&path, &game.server_key)?;
        let change: archive::KeyChange = crate::yaml::from_slice(&bytes)
            .map_err(|e| fail(path.display().to_string(), format!("does not parse: {e}")))?;
        if change.game != game.game {
            return Err(fail(path.display().to_string(), "names another game"));
        }
        out.push(change);
    }
    Ok(out)
}

/// The key that signed a side's orders at `step`: the last change in
/// force by then, else the key the game started with.
fn key_at<'a>(
    game: &'a GameFile,
    keys: &'a [archive::KeyChange],
    side: &str,
    step: u32,
) -> Option<&'a String> {
    keys.iter()
        .rev()
        .find(|k| k.side == side && k.from_step <= step)
        .map(|k| &k.key)
        .or_else(|| game.players.get(side))
}

/// Runs of a step the game master rolled back (`step-N/rollback-K/`):
/// the signed reason, the manifest, the same commitment, the seed and the
/// public dice. Their orders are not sealed, so they are not replayed.
fn earlier_runs(
    dir: &Path,
    game: &GameFile,
    step: u32,
    notice: &Notice,
) -> Result<Vec<String>, Failure> {
    let mut lines = Vec::new();
    for run in 1..=archive::rollback_runs(dir, step) {
        let rdir = archive::rollback_dir(dir, step, run);
        let place = format!("step {step} rolled-back run {run}");
        let note: archive::RollbackNote =
            crate::yaml::from_slice(&signed(&rdir.join("rollback.yaml"), &game.server_key)?)
                .map_err(|e| fail(&place, format!("rollback.yaml does not parse: {e}")))?;
        if note.game != game.game || note.step != step || note.run != run {
            return Err(fail(
                &place,
                "rollback.yaml names another game, step or run",
            ));
        }
        let dice = public_part(&rdir, game, step, notice, &place)?.dice;
        lines.push(format!(
            "step {step}: run {run} was rolled back ({}); its signatures, commitment, seed and {dice} public dice check; it is not replayed",
            note.reason,
        ));
    }
    Ok(lines)
}

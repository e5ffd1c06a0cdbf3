//! The public archive of a game: everything a third party needs to check
//! every die, signed by the server. Secrets go in `sealed/` when the game ends.

pub mod beacon;
pub mod folder;
pub mod inputs;
mod missed;

use crate::dice::DieRecord;
use crate::event::{Event, Visibility};
use crate::sig;
use crate::view::{MapView, Panel};
pub use folder::{Durability, Staging};
pub use missed::MissedPolicy;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// `game.yaml`: who plays, by which rules, and the server's key.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameFile {
    pub galloper: u32,
    pub game: String,
    pub ruleset: String,
    /// Sides in scenario order: the order of the dice mix.
    pub sides: Vec<String>,
    pub players: BTreeMap<String, String>,
    pub server_key: String,
    /// The SHA-256 of `scenario.yaml` as published beside this file.
    pub scenario_sha256: String,
    /// Only when the ruleset hides part of the scenario (hidden troops'
    /// places): `scenario.yaml` is then its public part, and this is the
    /// salted commitment to the whole ([`scenario_commitment`]), opened in
    /// `sealed/start/` when the game ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sealed_scenario: Option<String>,
    /// The public randomness beacon of a game of protocol version 2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beacon: Option<beacon::GameBeacon>,
}

/// `notice.yaml`: published when a step opens, before any order for it exists.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Notice {
    pub game: String,
    pub step: u32,
    /// Which opening of the step this is: 1, or K + 1 after K rollbacks
    /// (each run draws fresh secrets under a notice of its own).
    pub run: u32,
    /// The SHA-256 of the signed file this notice follows in the game's
    /// chain: `game.yaml` for step 1, the previous step's
    /// `manifest.yaml`, or the `rollback.yaml` of the run it replaces.
    pub follows: String,
    pub heading: String,
    pub owed: Vec<String>,
    pub public_commitment: String,
    pub hidden_commitment: String,
    /// The salted commitment to the state the step starts from
    /// ([`state_commitment`]): it cannot be tested by guessing hands.
    pub state_before_commitment: String,
    /// Protocol version 2: the beacon round the step's seeds will take.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beacon: Option<beacon::NoticeBeacon>,
    /// The game's rule for a side that misses the deadline, fixed for the
    /// step before any order exists: the only orders the server may apply
    /// in the step (docs/DICE.md, "Applied orders"). None in a game
    /// without a schedule, whose steps wait for every side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missed: Option<MissedPolicy>,
}

/// `orders.yaml`: the hash and signature of each side's orders.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OrdersIndex {
    /// In scenario side order.
    pub sides: Vec<OrdersEntry>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OrdersEntry {
    pub side: String,
    pub sha256: String,
    pub signature: String,
    /// Set when the server applied these orders because the side sent none
    /// by the deadline: why, and what. They are then signed with the
    /// server's key in the `galloper-applied` namespace, not the player's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub applied: Option<String>,
    /// In a beacon step: when the server received the file (UTC, RFC
    /// 3339), which the audit holds against the notice's close of orders.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub received: Option<String>,
}

/// `reveal.yaml`: the public secret and the seed it makes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reveal {
    pub public_secret: String,
    pub mix: String,
    pub public_seed: String,
}

/// `sealed/step-N/hidden.yaml`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HiddenReveal {
    pub hidden_secret: String,
    pub hidden_seed: String,
    /// The salt of the step's state commitment ([`state_salt`]), opened
    /// with the hidden secret it is derived from.
    pub state_salt: String,
}

/// `sealed/start/salt.yaml`: the salt of a hidden scenario's commitment and
/// of the start state's ([`start_salt`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StartReveal {
    pub salt: String,
}

/// Where a hidden scenario is opened at the game's end.
pub const SEALED_START: &str = "sealed/start";

/// `end.yaml` at the archive's root, signed: the game is over, after the
/// file named here. Without it an archive is a game in progress.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EndFile {
    pub game: String,
    /// The last resolved step (0 if none was).
    pub last_step: u32,
    /// The SHA-256 of the last signed link of the chain: the last resolved
    /// step's `manifest.yaml`, or the notice of a step the game master
    /// ended the game in, which never resolved.
    pub last_link: String,
    /// How the game ended, in words.
    pub outcome: String,
    /// How many `keys/change-NNN.yaml` the game has.
    pub key_changes: u32,
}

/// A die as the archive lists it, with its place among the step's public
/// dice (hidden dice are not counted, so their number and timing do not
/// show in the gaps).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArchivedDie {
    pub n: usize,
    #[serde(flatten)]
    pub die: DieRecord,
}

/// `view.yaml`: what the public may see after the step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PublicView {
    pub heading: String,
    pub map: MapView,
    pub panels: Vec<Panel>,
}

/// `manifest.yaml`: the SHA-256 of every other file of a folder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub files: BTreeMap<String, String>,
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

pub fn step_dir(root: &Path, step: u32) -> PathBuf {
    root.join(format!("step-{step:04}"))
}

pub fn sealed_dir(root: &Path, step: u32) -> PathBuf {
    root.join("sealed").join(format!("step-{step:04}"))
}

/// Write a file so that a crash leaves either the old or the new content.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().and_then(|n| n.to_str()).ok_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{} names no file", path.display()),
        )
    })?;
    folder::write_batch(dir, &[(name, bytes)], Durability::Synced)
}

/// Write several files of one folder, each atomically as [`write_atomic`]
/// does, but with the folder synced once after all the renames rather than
/// after each: a step writes some forty files, and every sync waits on the
/// disk. Every file's data is synced before any rename, so a crash leaves
/// each name either absent, as it was, or whole.
pub fn write_files(dir: &Path, files: &BTreeMap<String, Vec<u8>>) -> std::io::Result<()> {
    let files: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    folder::write_batch(dir, &files, Durability::Synced)
}

/// Write `name` and its detached server signature `name.sig`.
pub fn write_signed(
    dir: &Path,
    name: &str,
    bytes: &[u8],
    server_private: &str,
) -> anyhow::Result<()> {
    let signature = sig::sign(server_private, sig::REPORT_NAMESPACE, bytes)?;
    // One folder sync for both; the file is renamed before its signature,
    // as before, so a crash between leaves a file whose signature is missing
    // (written again on the next try), never a signature of nothing.
    folder::write_batch(
        dir,
        &[
            (name, bytes),
            (&format!("{name}.sig"), signature.as_bytes()),
        ],
        Durability::Synced,
    )?;
    Ok(())
}

/// Write the files of a folder with its signed manifest in one batch
/// ([`Staging`]): the manifest and its signature come last.
pub fn write_folder(
    dir: &Path,
    files: &BTreeMap<String, Vec<u8>>,
    server_private: &str,
    durability: Durability,
) -> anyhow::Result<()> {
    let mut s = Staging::new(dir, durability)?;
    for (name, bytes) in files {
        s.stage(name, bytes)?;
    }
    s.finish_signed(server_private)
}

/// The events the public may read, their dice numbered as in
/// [`public_dice`]: an event's reference to a hidden die is left out, so
/// nothing public counts the hidden dice.
pub fn public_events(events: &[Event], dice: &[DieRecord]) -> Vec<Event> {
    let place = public_places(dice);
    events
        .iter()
        .filter(|e| e.visibility == Visibility::Public)
        .map(|e| Event {
            dice: e
                .dice
                .iter()
                .filter_map(|i| place.get(i).copied())
                .collect(),
            ..e.clone()
        })
        .collect()
}

/// The dice the public may check (the public stream's), numbered among
/// themselves from 0.
pub fn public_dice(dice: &[DieRecord]) -> Vec<ArchivedDie> {
    dice.iter()
        .filter(|d| d.stream == crate::dice::StreamKind::Public)
        .enumerate()
        .map(|(n, d)| ArchivedDie { n, die: d.clone() })
        .collect()
}

/// Each public die's place in the full log, to its place among public dice.
fn public_places(dice: &[DieRecord]) -> BTreeMap<usize, usize> {
    dice.iter()
        .enumerate()
        .filter(|(_, d)| d.stream == crate::dice::StreamKind::Public)
        .enumerate()
        .map(|(public, (full, _))| (full, public))
        .collect()
}

/// The salt of the commitment to the state step `step` ends with, derived
/// from the step's hidden secret: secret while `H_r` is, opened with it at
/// the game's end, and kept in the store without a table of its own.
/// `SHA-256("galloper-state-salt-v1" 0x00 G 0x00 r 0x00 H_r)`.
pub fn state_salt(game: &str, step: u32, hidden_secret: &[u8; 32]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"galloper-state-salt-v1\0");
    h.update(game.as_bytes());
    h.update([0u8]);
    h.update(step.to_string().as_bytes());
    h.update([0u8]);
    h.update(hidden_secret);
    h.finalize().into()
}

/// The salt of a hidden scenario's commitment and of the start state's, from
/// the hidden secret of step 1's first run: secret until the game ends, and
/// drawn again byte for byte if `new` is retried after a crash.
pub fn start_salt(game: &str, first_hidden_secret: &[u8; 32]) -> [u8; 32] {
    state_salt(game, 0, first_hidden_secret)
}

/// The commitment to a whole scenario whose public part leaves out hidden
/// troops: salted, so that a guessed scenario (a stock one from `games/`)
/// cannot be tested against it.
/// `SHA-256("galloper-scenario-v1" 0x00 G 0x00 salt scenario)`, hex.
pub fn scenario_commitment(game: &str, salt: &[u8; 32], scenario: &[u8]) -> String {
    let mut h = Sha256::new();
    h.update(b"galloper-scenario-v1\0");
    h.update(game.as_bytes());
    h.update([0u8]);
    h.update(salt);
    h.update(scenario);
    hex::encode(h.finalize())
}

/// The published commitment to a state: step `step` ended with it (0 for
/// the scenario's start, which takes 32 zero bytes as salt when the whole
/// scenario is public, and [`start_salt`] when part of it is hidden).
/// `SHA-256("galloper-state-v1" 0x00 G 0x00 r 0x00 salt state)`, hex. A
/// plain hash of the state let anyone test guessed hands against it.
pub fn state_commitment(game: &str, step: u32, salt: &[u8; 32], state: &[u8]) -> String {
    let mut h = Sha256::new();
    h.update(b"galloper-state-v1\0");
    h.update(game.as_bytes());
    h.update([0u8]);
    h.update(step.to_string().as_bytes());
    h.update([0u8]);
    h.update(salt);
    h.update(state);
    hex::encode(h.finalize())
}

/// The entropy of orders the server applies for a side (docs/DICE.md,
/// "Applied orders"): public values only, so the server has no say in it.
/// `SHA-256("galloper-applied-v1" 0x00 G 0x00 r 0x00 side 0x00 N)`, hex,
/// with `N` the notice's hash in hex.
pub fn applied_entropy(game: &str, step: u32, side: &str, notice: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"galloper-applied-v1\0");
    for (i, part) in [game, &step.to_string(), side, notice].iter().enumerate() {
        if i > 0 {
            h.update([0u8]);
        }
        h.update(part.as_bytes());
    }
    hex::encode(h.finalize())
}

/// The bytes of the orders file the server applies for `side` at `step`
/// under `policy` (`default` or `standing`), answering the notice whose
/// hash is `notice`: every byte follows from public values and the orders
/// `body`, written as JSON with sorted keys (a YAML flow value) so that an
/// auditor in any language writes the same line (docs/DICE.md).
pub fn applied_orders_text(
    game: &str,
    step: u32,
    side: &str,
    notice: &str,
    policy: MissedPolicy,
    body: &serde_yaml::Value,
) -> anyhow::Result<String> {
    let json: serde_json::Value = serde_json::to_value(body)?;
    let orders = json_line(&json);
    let entropy = applied_entropy(game, step, side, notice);
    Ok(format!(
        "# galloper applied orders: {}\ngalloper: {}\ngame: {game}\nstep: {step}\nside: {side}\nnotice: {notice}\nrevision: 0\nentropy: {entropy}\norders: {orders}\n",
        policy.as_str(),
        crate::envelope::FORMAT
    ))
}

/// JSON on one line with sorted keys and the separators `, ` and `: `, as
/// Python's `json.dumps(v, sort_keys=True, ensure_ascii=False)` writes it.
fn json_line(v: &serde_json::Value) -> String {
    use serde_json::Value;
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let inner: Vec<String> = keys
                .iter()
                .map(|k| format!("{}: {}", Value::String((*k).clone()), json_line(&m[*k])))
                .collect();
            format!("{{{}}}", inner.join(", "))
        }
        Value::Array(a) => format!(
            "[{}]",
            a.iter().map(json_line).collect::<Vec<_>>().join(", ")
        ),
        Value::Number(n) if n.is_f64() => n.as_f64().map_or_else(|| n.to_string(), py_float),
        other => other.to_string(),
    }
}

/// A float as Python's `repr` (and so `json.dumps`) writes it: the
/// shortest digits that read back as the same float, in plain notation
/// from 1e-4 up to below 1e16 (`12.0`, `0.0001`), else as `1e+16`,
/// `1.5e-07` (a signed exponent of two digits at least).
fn py_float(f: f64) -> String {
    // Rust's `{:e}` gives the same shortest digits, as `1.5e-7`.
    let sci = format!("{f:e}");
    let Some((mant, exp)) = sci.split_once('e') else {
        return sci;
    };
    let Ok(exp) = exp.parse::<i32>() else {
        return sci;
    };
    let (sign, mant) = match mant.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mant),
    };
    if !(-4..16).contains(&exp) {
        let e_sign = if exp < 0 { '-' } else { '+' };
        return format!("{sign}{mant}e{e_sign}{:02}", exp.abs());
    }
    let digits: String = mant.chars().filter(|c| *c != '.').collect();
    let point = exp + 1;
    if point <= 0 {
        format!(
            "{sign}0.{}{digits}",
            "0".repeat(point.unsigned_abs() as usize)
        )
    } else if point as usize >= digits.len() {
        format!(
            "{sign}{digits}{}.0",
            "0".repeat(point as usize - digits.len())
        )
    } else {
        let (a, b) = digits.split_at(point as usize);
        format!("{sign}{a}.{b}")
    }
}

#[cfg(test)]
mod py_float_tests {
    /// Python 3's `repr` of each float (`python3 -c 'print(repr(x))'`).
    #[test]
    fn floats_read_as_python_writes_them() {
        for (f, py) in [
            (12.0, "12.0"),
            (0.1, "0.1"),
            (2.5, "2.5"),
            (-0.0, "-0.0"),
            (0.0, "0.0"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1.5e-7, "1.5e-07"),
            (1e16, "1e+16"),
            (9999999999999998.0, "9999999999999998.0"),
            (1.2345678901234568e17, "1.2345678901234568e+17"),
            (1e22, "1e+22"),
            (-62.25, "-62.25"),
            (1e-300, "1e-300"),
            (123456.789, "123456.789"),
        ] {
            assert_eq!(super::py_float(f), py, "{f}");
        }
    }
}

/// `keys/change-NNN.yaml`: a player's key replaced by the game master. The
/// new key signs the side's orders from `from_step` on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KeyChange {
    pub game: String,
    pub side: String,
    pub from_step: u32,
    pub key: String,
    /// The SHA-256 of the signed command file that asked for it.
    pub command_sha256: String,
}

/// `step-N/rollback-K/rollback.yaml`: why the K-th run of step N was
/// undone. A link of the game's chain: it names the undone run's signed
/// manifest (which names its notice), and the next run's notice names it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RollbackNote {
    pub game: String,
    pub step: u32,
    pub run: u32,
    pub reason: String,
    pub command_sha256: String,
    /// The SHA-256 of the undone run's `manifest.yaml`.
    pub manifest_sha256: String,
    /// The SHA-256 of the link this note follows in the chain: the notice
    /// of the step the undone run opened, withdrawn with it and kept here
    /// as `next-notice.yaml`.
    pub follows: String,
}

pub fn keys_dir(root: &Path) -> PathBuf {
    root.join("keys")
}

/// The folder keeping the `run`-th (1-based) undone run of a step.
pub fn rollback_dir(root: &Path, step: u32, run: u32) -> PathBuf {
    step_dir(root, step).join(format!("rollback-{run}"))
}

/// How many runs of a step were undone so far.
pub fn rollback_runs(root: &Path, step: u32) -> u32 {
    (1u32..)
        .take_while(|k| rollback_dir(root, step, *k).exists())
        .count() as u32
}

/// Every key change of a game, in the order they were made.
pub fn key_changes(root: &Path) -> Vec<PathBuf> {
    (1u32..)
        .map(|n| keys_dir(root).join(format!("change-{n:03}.yaml")))
        .take_while(|p| p.exists())
        .collect()
}

#[cfg(test)]
mod write_files_tests {
    use super::*;

    #[test]
    fn write_files_replaces_every_file_and_leaves_no_temporary() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("step-0001");
        write_atomic(&dir.join("a.txt"), b"old").unwrap();
        let files: BTreeMap<String, Vec<u8>> = [
            ("a.txt".to_string(), b"new a".to_vec()),
            ("b.png".to_string(), vec![0, 1, 2]),
        ]
        .into();
        write_files(&dir, &files).unwrap();
        assert_eq!(std::fs::read(dir.join("a.txt")).unwrap(), b"new a");
        assert_eq!(std::fs::read(dir.join("b.png")).unwrap(), vec![0, 1, 2]);
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
    }
}

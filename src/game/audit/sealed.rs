//! The sealed half of the audit, once the game is over: every run's
//! hidden secret, hidden dice and state commitment, every player's
//! signature, and the replay of the runs in force through the ruleset,
//! compared byte for byte with what the archive holds.

use super::{Failure, GameFile, Run, Verdict, Walked, fail, manifest, read, unhex32, yaml};
use crate::dice::{DieRecord, StreamKind, check_stream, protocol};
use crate::event::Event;
use crate::game::archive::{self, HiddenReveal, sha256_hex};
use crate::game::store::{OrdersRow, StepRow};
use crate::side::SideId;
use crate::sig;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The sealed secrets of every run, the state commitments, the players'
/// signatures and the full replay of the runs in force.
#[allow(clippy::too_many_arguments)]
pub(super) fn check(
    dir: &Path,
    game: &GameFile,
    rules: &'static dyn crate::ruleset::AnyRuleset,
    sides: &[SideId],
    start: &str,
    keys: &[archive::KeyChange],
    walked: &Walked,
    named: &mut BTreeSet<PathBuf>,
    v: &mut Verdict,
) -> Result<(), Failure> {
    // Each step is replayed from the state the sealed archive says the
    // step before ended with (the scenario's start for the first), once
    // that state is shown to be the one its published commitment names.
    // Every step's replay is then compared byte for byte with what the
    // archive holds, so by induction the whole game replays as one run
    // from the start would; the steps need not wait for each other. The
    // inputs of each step are checked here, in step order, while the
    // replays of the steps already checked run beside, on the other cores.
    let (tx, rx) = std::sync::mpsc::channel::<(usize, Replay)>();
    let (gathered, results) = replays_beside(
        dir,
        rules,
        sides,
        rx,
        |tx| {
            let mut sent = 0;
            gather(dir, game, rules, start, keys, walked, named, &tx, &mut sent)
                .map(|()| sent)
                .map_err(|f| (sent, f))
        },
        tx,
    );
    let mut results: BTreeMap<usize, Done> = results.into_iter().collect();
    // The first failure in step order, as a replay one step after another
    // would meet it: a step's inputs are checked before its replay.
    let checked = match &gathered {
        Ok(n) => *n,
        Err((k, _)) => *k,
    };
    for i in 0..checked {
        let done = results
            .remove(&i)
            .ok_or_else(|| fail("sealed", "a step's replay did not finish"))?;
        done.result?;
        v.lines.push(format!(
            "step {}: hidden secret, state commitment, {} signed orders and the replay match{}",
            done.step, done.orders, done.applied
        ));
        v.replayed = true;
    }
    if let Err((_, f)) = gathered {
        return Err(f);
    }
    for run in &walked.undone {
        let rel = Path::new("sealed")
            .join(format!("step-{:04}", run.step))
            .join(format!("rollback-{}", run.run));
        let splace = format!("sealed step {} rolled-back run {}", run.step, run.run);
        manifest(dir, &rel, &game.server_key, named)?;
        let sd = dir.join(&rel);
        let full = hidden_part(&sd, game, run, &splace)?.dice;
        let full: Vec<DieRecord> = crate::yaml::from_slice(&full)
            .map_err(|e| fail(&splace, format!("dice.yaml does not parse: {e}")))?;
        let events: Vec<Event> = yaml(&sd.join("events.yaml"))?;
        compare(
            &splace,
            "public events",
            crate::yaml::to_string(&archive::public_events(&events, &full))
                .unwrap_or_default()
                .as_bytes(),
            &read(&dir.join(&run.dir).join("events.yaml"))?,
        )?;
        v.lines.push(format!(
            "step {}: rolled-back run {}: its hidden secret, hidden dice and state commitment check (its orders are not sealed, so it is not replayed)",
            run.step, run.run
        ));
    }
    Ok(())
}

/// A sealed run's hidden secret against its commitment, its hidden seed,
/// its full dice log (the public dice as published, the hidden ones from
/// the hidden stream) and its state against the published commitment.
fn hidden_part(sd: &Path, game: &GameFile, run: &Run, splace: &str) -> Result<Hidden, Failure> {
    let hidden: HiddenReveal = yaml(&sd.join("hidden.yaml"))?;
    let h = unhex32(&hidden.hidden_secret, splace)?;
    if hex::encode(protocol::commit(
        StreamKind::Hidden,
        &game.game,
        run.step,
        &h,
    )) != run.notice.hidden_commitment
    {
        return Err(fail(
            splace,
            "the revealed hidden secret does not match its commitment",
        ));
    }
    let b = run.public.beacon.as_ref().map(|r| r.randomness());
    let seed = crate::dice::beacon::seed_of(StreamKind::Hidden, &h, &run.public.mix, b.as_ref());
    if hex::encode(seed) != hidden.hidden_seed {
        return Err(fail(
            splace,
            "the hidden seed does not follow from the secret and the mix",
        ));
    }
    let salt = archive::state_salt(&game.game, run.step, &h);
    if hex::encode(salt) != hidden.state_salt {
        return Err(fail(
            splace,
            "the state salt does not follow from the hidden secret",
        ));
    }
    let state = read(&sd.join("state.yaml"))?;
    if archive::state_commitment(&game.game, run.step, &salt, &state) != run.public.state {
        return Err(fail(
            splace,
            "the sealed state is not the one the published state commitment names",
        ));
    }
    let bytes = read(&sd.join("dice.yaml"))?;
    let full: Vec<DieRecord> = crate::yaml::from_slice(&bytes)
        .map_err(|e| fail(splace, format!("dice.yaml does not parse: {e}")))?;
    if archive::public_dice(&full) != run.public.dice {
        return Err(fail(
            splace,
            "the full dice log's public dice are not the ones published",
        ));
    }
    let hidden_dice: Vec<DieRecord> = full
        .iter()
        .filter(|d| d.stream == StreamKind::Hidden)
        .cloned()
        .collect();
    check_stream(seed, StreamKind::Hidden, &hidden_dice)
        .map_err(|e| fail(splace, format!("hidden dice: {e}")))?;
    Ok(Hidden {
        secret: h,
        state,
        dice: bytes,
    })
}

/// What a sealed run's hidden part holds, once checked.
struct Hidden {
    secret: [u8; 32],
    /// The sealed state's bytes (its commitment checked).
    state: Vec<u8>,
    /// The full dice log's bytes.
    dice: Vec<u8>,
}

/// One step's replay, its inputs checked and gathered.
struct Replay<'a> {
    splace: String,
    run: &'a Run,
    row: StepRow,
    orders: BTreeMap<SideId, OrdersRow>,
    hidden: Hidden,
    applied: String,
}

/// A step's replay, done.
struct Done {
    step: u32,
    orders: usize,
    applied: String,
    result: Result<(), Failure>,
}

/// Run `produce` (which sends replays to its sender) on this thread while
/// the replays it sends run on the other cores; this thread joins them
/// once `produce` is done. The replays come back with their numbers.
fn replays_beside<'a, T>(
    dir: &Path,
    rules: &'static dyn crate::ruleset::AnyRuleset,
    sides: &[SideId],
    rx: std::sync::mpsc::Receiver<(usize, Replay<'a>)>,
    produce: impl FnOnce(std::sync::mpsc::Sender<(usize, Replay<'a>)>) -> T,
    tx: std::sync::mpsc::Sender<(usize, Replay<'a>)>,
) -> (T, Vec<(usize, Done)>) {
    use std::sync::Mutex;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let rx = Mutex::new(rx);
    let results: Mutex<Vec<(usize, Done)>> = Mutex::new(Vec::new());
    let work = || {
        loop {
            // The lock is held while waiting: one thread waits for the
            // next replay, the others for the lock.
            let next = match rx.lock() {
                Ok(rx) => rx.recv(),
                Err(_) => break,
            };
            let Ok((i, job)) = next else { break };
            let done = Done {
                step: job.row.step,
                orders: job.orders.len(),
                result: replay(dir, rules, sides, &job),
                applied: job.applied,
            };
            if let Ok(mut all) = results.lock() {
                all.push((i, done));
            }
        }
    };
    let out = std::thread::scope(|s| {
        for _ in 1..cores {
            s.spawn(work);
        }
        let out = produce(tx);
        work();
        out
    });
    (out, results.into_inner().unwrap_or_default())
}

/// Replay one step and compare it with the archive, byte for byte.
fn replay(
    dir: &Path,
    rules: &'static dyn crate::ruleset::AnyRuleset,
    sides: &[SideId],
    job: &Replay,
) -> Result<(), Failure> {
    let splace = job.splace.as_str();
    let sd = dir.join("sealed").join(format!("step-{:04}", job.row.step));
    let (res, _) = crate::game::resolve_step(rules, sides, &job.row, &job.orders)
        .map_err(|e| fail(splace, format!("replay failed: {e}")))?;
    compare(
        splace,
        "state.yaml",
        res.state.as_bytes(),
        &job.hidden.state,
    )?;
    let events = crate::yaml::to_string(&res.events).unwrap_or_default();
    compare(
        splace,
        "events.yaml",
        events.as_bytes(),
        &read(&sd.join("events.yaml"))?,
    )?;
    let all_dice = crate::yaml::to_string(&res.dice).unwrap_or_default();
    compare(splace, "dice.yaml", all_dice.as_bytes(), &job.hidden.dice)?;
    let place = format!("step {}", job.row.step);
    let public_events: Vec<Event> = archive::public_events(&res.events, &res.dice);
    compare(
        &place,
        "events.yaml",
        crate::yaml::to_string(&public_events)
            .unwrap_or_default()
            .as_bytes(),
        &read(&dir.join(&job.run.dir).join("events.yaml"))?,
    )
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

/// Check the inputs of every step in force, in step order (its sealed
/// manifest, hidden part, orders and their signatures), and send each
/// step's replay to `tx` once they check. `sent` counts
/// the steps sent, so that a failure tells how many were.
#[allow(clippy::too_many_arguments)]
fn gather<'a>(
    dir: &Path,
    game: &GameFile,
    rules: &'static dyn crate::ruleset::AnyRuleset,
    start: &str,
    keys: &[archive::KeyChange],
    walked: &'a Walked,
    named: &mut BTreeSet<PathBuf>,
    tx: &std::sync::mpsc::Sender<(usize, Replay<'a>)>,
    sent: &mut usize,
) -> Result<(), Failure> {
    let mut before = start.as_bytes().to_vec();
    let mut standing = super::orders::Standing::default();
    for (step, run) in &walked.current {
        let state_before = String::from_utf8_lossy(&before).into_owned();
        let rel = Path::new("sealed").join(format!("step-{step:04}"));
        let splace = format!("sealed step {step}");
        manifest(dir, &rel, &game.server_key, named)?;
        let sd = dir.join(&rel);
        let hidden = hidden_part(&sd, game, run, &splace)?;
        let mut orders = BTreeMap::new();
        let mut applied = String::new();
        for e in &run.public.index.sides {
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
                    crate::game::life::APPLIED_NAMESPACE,
                    "server",
                ),
                None => (
                    key_at(game, keys, &e.side, *step)
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
            let file = super::orders::File {
                place: format!("{splace}: {name}"),
                name: &name,
                text: &text,
                entry: e,
            };
            super::orders::check(&file, game, run, rules, &state_before, &mut standing)?;
            if let Some(why) = &e.applied {
                applied.push_str(&format!(
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
                    step: *step,
                    side,
                    file_name: name,
                    text,
                    signature: e.signature.clone(),
                    sha256: e.sha256.clone(),
                    received: None,
                },
            );
        }
        let row = StepRow {
            game: game.game.clone(),
            step: *step,
            public_secret: run.public.secret,
            hidden_secret: hidden.secret,
            // A state that is not UTF-8 fails the step before it (its
            // replay cannot match); this step's replay then does not count.
            state_before,
            notice: String::new(),
            notice_sig: String::new(),
            result: None,
            beacon: run.public.beacon.clone(),
        };
        before = hidden.state.clone();
        let job = Replay {
            splace,
            run,
            row,
            orders,
            hidden,
            applied,
        };
        if tx.send((*sent, job)).is_err() {
            break;
        }
        *sent += 1;
    }
    Ok(())
}

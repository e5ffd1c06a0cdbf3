//! The sealed half of the audit, once the game is over: every run's
//! hidden secret, hidden dice and state commitment, every player's
//! signature, and the replay of the runs in force through the ruleset,
//! compared byte for byte with what the archive holds.

use super::{Failure, GameFile, Run, Verdict, Walked, fail, manifest, read, unhex32, yaml};
use crate::archive::inputs::{self, OrdersInput, StepInputs};
use crate::archive::{self, HiddenReveal, sha256_hex};
use crate::dice::{DieRecord, StreamKind, check_stream, protocol};
use crate::event::Event;
use crate::ruleset::{LoadedState, TextResolution};
use crate::side::{BySide, SideId};
use crate::sig;
use std::collections::VecDeque;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex};

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
    // from the start would. The inputs of each step are checked here, in
    // step order, while the steps already checked are replayed beside, on
    // the other cores: each core takes a run of steps in a row and keeps
    // the state each step ends with parsed for the next (`replay_lane`).
    let (gathered, results, reads) =
        replays_beside(dir, rules, sides, walked.current.len(), |lanes| {
            let mut sent = 0;
            gather(
                dir, game, rules, start, keys, walked, named, &lanes, &mut sent,
            )
            .map(|()| sent)
            .map_err(|f| (sent, f))
        });
    v.state_parses = reads.parses;
    v.replayed_from_text = reads.again;
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
    step: Step,
    orders: BTreeMap<SideId, Sent>,
    /// Each side's `orders:` block, as read when its file was checked.
    blocks: BySide<serde_yaml::Value>,
    hidden: Hidden,
    applied: String,
}

/// A step's own inputs, as the archive gives them.
struct Step {
    number: u32,
    state_before: String,
    public_secret: [u8; 32],
    hidden_secret: [u8; 32],
    beacon: Option<crate::dice::beacon::Round>,
}

/// One side's orders file of a step, as the archive gives it.
struct Sent {
    file_name: String,
    text: Vec<u8>,
    signature: String,
    sha256: String,
}

impl Replay<'_> {
    /// The step's inputs as a resolution takes them ([`inputs::resolve`]),
    /// the same type the server fills from its store.
    fn inputs(&self) -> StepInputs<'_> {
        StepInputs {
            state_before: &self.step.state_before,
            public_secret: self.step.public_secret,
            hidden_secret: self.step.hidden_secret,
            beacon: self.step.beacon.as_ref(),
            // The audit's index comes from the archive, not from here.
            timed: false,
            orders: self
                .orders
                .iter()
                .map(|(side, o)| {
                    (
                        side.clone(),
                        OrdersInput {
                            file_name: &o.file_name,
                            text: &o.text,
                            sha256: &o.sha256,
                            signature: &o.signature,
                            received: None,
                        },
                    )
                })
                .collect(),
        }
    }
}

/// A step's replay, done.
struct Done {
    step: u32,
    orders: usize,
    applied: String,
    result: Result<(), Failure>,
}

/// One lane's steps, gathered and not yet replayed, in step order.
#[derive(Default)]
struct Lane<'a> {
    queue: Mutex<(VecDeque<(usize, Replay<'a>)>, bool)>,
    ready: Condvar,
}

impl<'a> Lane<'a> {
    fn push(&self, i: usize, job: Replay<'a>) -> bool {
        let Ok(mut q) = self.queue.lock() else {
            return false;
        };
        q.0.push_back((i, job));
        self.ready.notify_one();
        true
    }
    /// No more steps come: the lane ends once its queue is empty.
    fn close(&self) {
        if let Ok(mut q) = self.queue.lock() {
            q.1 = true;
        }
        self.ready.notify_all();
    }
    /// The next step, waiting for it; none once the lane is closed and empty.
    fn next(&self) -> Option<(usize, Replay<'a>)> {
        let mut q = self.queue.lock().ok()?;
        loop {
            if let Some(job) = q.0.pop_front() {
                return Some(job);
            }
            if q.1 {
                return None;
            }
            q = self.ready.wait(q).ok()?;
        }
    }
    /// How many steps wait.
    fn waiting(&self) -> usize {
        self.queue.lock().map_or(0, |q| q.0.len())
    }
    /// Take the later steps that wait, `share` of them (rounded up): they
    /// follow each other, and the lane keeps replaying the earlier ones.
    fn split_off(&self, share: f64) -> Vec<(usize, Replay<'a>)> {
        let Ok(mut q) = self.queue.lock() else {
            return Vec::new();
        };
        let take = (q.0.len() as f64 * share).ceil() as usize;
        let at = q.0.len() - take.min(q.0.len());
        q.0.split_off(at).into_iter().collect()
    }
}

/// Where the gathered steps go: step `i` of `n` to the lane of its run of
/// steps in a row, so that each lane replays steps that follow each other.
struct Lanes<'l, 'a> {
    n: usize,
    lanes: &'l [Lane<'a>],
}

impl Drop for Lanes<'_, '_> {
    /// Whether `produce` ends or fails, no more steps come: the lanes end
    /// once they are empty.
    fn drop(&mut self) {
        self.lanes.iter().for_each(Lane::close);
    }
}

impl<'a> Lanes<'_, 'a> {
    /// Send the `i`th step's replay to its lane; false when none listens.
    fn send(&self, i: usize, job: Replay<'a>) -> bool {
        match self.lanes.get(lane_of(i, self.n, self.lanes.len())) {
            Some(lane) => lane.push(i, job),
            None => false,
        }
    }
}

/// The lane of step `i` of `n` among `lanes`: the steps cut into runs in a
/// row, as even as they go, the first run to the first lane.
fn lane_of(i: usize, n: usize, lanes: usize) -> usize {
    let used = lanes.min(n).max(1);
    (i * used / n.max(1)).min(used - 1)
}

/// Run `produce` (which sends the `n` replays to their lanes) on this
/// thread while each lane's replays run on a core of its own. Once
/// `produce` is done, this thread takes the later half of what the fullest
/// lane has left (all of it on one core) and replays it, so that the cores
/// end about together. The replays come back with their numbers, and the
/// count of states read from their text.
fn replays_beside<'a, T>(
    dir: &Path,
    rules: &'static dyn crate::ruleset::AnyRuleset,
    sides: &[SideId],
    n: usize,
    produce: impl FnOnce(Lanes<'_, 'a>) -> T,
) -> (T, Vec<(usize, Done)>, Reads) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // The other cores' lanes; one lane still on one core, replayed here.
    let lanes: Vec<Lane<'a>> = (0..cores.saturating_sub(1).max(1))
        .map(|_| Lane::default())
        .collect();
    let results: Mutex<Vec<(usize, Done)>> = Mutex::new(Vec::new());
    let parses = AtomicUsize::new(0);
    let again = AtomicUsize::new(0);
    let replay_all = |jobs: &mut dyn Iterator<Item = (usize, Replay<'a>)>| {
        let (done, read) = replay_lane(dir, rules, sides, jobs);
        parses.fetch_add(read.parses, Ordering::Relaxed);
        again.fetch_add(read.again, Ordering::Relaxed);
        if let Ok(mut all) = results.lock() {
            all.extend(done);
        }
    };
    let out = std::thread::scope(|s| {
        if cores > 1 {
            for lane in &lanes {
                s.spawn(|| replay_all(&mut std::iter::from_fn(|| lane.next())));
            }
        }
        let out = produce(Lanes { n, lanes: &lanes });
        let fullest = lanes.iter().max_by_key(|l| l.waiting());
        if let Some(lane) = fullest {
            let share = if cores > 1 { 0.5 } else { 1.0 };
            replay_all(&mut lane.split_off(share).into_iter());
        }
        out
    });
    let read = Reads {
        parses: parses.into_inner(),
        again: again.into_inner(),
    };
    (out, results.into_inner().unwrap_or_default(), read)
}

/// How many states the replay read from their text.
#[derive(Clone, Copy, Default)]
struct Reads {
    /// The first step of each run of steps a core replayed in a row.
    parses: usize,
    /// The steps replayed again from their text, their kept state not
    /// giving the archive's bytes.
    again: usize,
}

/// Replay the steps of one lane as they come, in order. A step that
/// follows the lane's last one starts from the state that step ended with,
/// kept parsed; any other starts from the sealed state's text, parsed.
/// Should a kept state not give the archive's bytes, the step is replayed
/// again from the text, as the server resolved it, and that replay's
/// verdict stands. Gives each step's replay and how many states were read
/// from their text.
fn replay_lane(
    dir: &Path,
    rules: &'static dyn crate::ruleset::AnyRuleset,
    sides: &[SideId],
    jobs: &mut dyn Iterator<Item = (usize, Replay<'_>)>,
) -> (Vec<(usize, Done)>, Reads) {
    let mut done = Vec::new();
    let mut read = Reads::default();
    // The state the lane's last step ended with, and that step's number.
    let mut kept: Option<(usize, Box<dyn LoadedState>)> = None;
    for (i, job) in jobs {
        let state = match kept.take() {
            Some((last, state)) if last + 1 == i => Some(state),
            _ => {
                read.parses += 1;
                rules.load(&job.step.state_before).ok()
            }
        };
        let result = match state {
            Some(mut state) => match replay_kept(dir, sides, &job, &mut *state) {
                Ok(()) => {
                    kept = Some((i, state));
                    Ok(())
                }
                Err(_) => {
                    read.again += 1;
                    replay(dir, rules, sides, &job)
                }
            },
            None => {
                read.again += 1;
                replay(dir, rules, sides, &job)
            }
        };
        done.push((
            i,
            Done {
                step: job.step.number,
                orders: job.orders.len(),
                result,
                applied: job.applied,
            },
        ));
    }
    (done, read)
}

/// Replay one step from `state`, the state it starts from kept parsed,
/// which becomes the state it ends with; compare it with the archive.
fn replay_kept(
    dir: &Path,
    sides: &[SideId],
    job: &Replay,
    state: &mut dyn LoadedState,
) -> Result<(), Failure> {
    // The seeds as a resolution mixes them ([`inputs::resolve`]).
    let inputs = inputs::dice_inputs(&job.inputs(), sides);
    let mut dice = crate::dice::Dice::from_seeds(inputs.public_seed, inputs.hidden_seed);
    let res = state
        .advance(&job.blocks, &mut dice)
        .map_err(|e| fail(&job.splace, format!("replay failed: {e}")))?;
    compare_all(dir, job, &res)
}

/// Replay one step from its state's text, as the server resolved it, and
/// compare it with the archive, byte for byte.
fn replay(
    dir: &Path,
    rules: &'static dyn crate::ruleset::AnyRuleset,
    sides: &[SideId],
    job: &Replay,
) -> Result<(), Failure> {
    let before = rules
        .load(&job.step.state_before)
        .map_err(|e| fail(&job.splace, format!("replay failed: {e}")))?;
    let (res, _) = inputs::resolve(&*before, sides, &job.inputs())
        .map_err(|e| fail(&job.splace, format!("replay failed: {e}")))?;
    compare_all(dir, job, &res)
}

/// A step's replay against the archive, byte for byte: its state, events
/// and dice as sealed, and its public events as published.
fn compare_all(dir: &Path, job: &Replay, res: &TextResolution) -> Result<(), Failure> {
    let splace = job.splace.as_str();
    let sd = dir
        .join("sealed")
        .join(format!("step-{:04}", job.step.number));
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
    let place = format!("step {}", job.step.number);
    let public_events: Vec<Event> = archive::public_events(&res.events, &res.dice);
    // Where every event is public and its dice keep their numbers (no
    // hidden die before them), the public events are the events, written
    // already.
    let same = public_events.len() == res.events.len()
        && public_events
            .iter()
            .zip(&res.events)
            .all(|(p, e)| p.dice == e.dice);
    let public = if same {
        events
    } else {
        crate::yaml::to_string(&public_events).unwrap_or_default()
    };
    compare(
        &place,
        "events.yaml",
        public.as_bytes(),
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
/// step's replay to its lane once they check. `sent` counts
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
    lanes: &Lanes<'_, 'a>,
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
        let mut blocks = BySide::new();
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
                    inputs::APPLIED_NAMESPACE,
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
            let block =
                super::orders::check(&file, game, run, rules, &state_before, &mut standing)?;
            if let Some(why) = &e.applied {
                applied.push_str(&format!(
                    "; {} orders applied by the server ({why})",
                    e.side
                ));
            }
            let side = SideId::new(e.side.as_str());
            blocks.insert(side.clone(), block);
            orders.insert(
                side,
                Sent {
                    file_name: name,
                    text,
                    signature: e.signature.clone(),
                    sha256: e.sha256.clone(),
                },
            );
        }
        let step = Step {
            number: *step,
            public_secret: run.public.secret,
            hidden_secret: hidden.secret,
            // A state that is not UTF-8 fails the step before it (its
            // replay cannot match); this step's replay then does not count.
            state_before,
            beacon: run.public.beacon.clone(),
        };
        before = hidden.state.clone();
        let job = Replay {
            splace,
            run,
            step,
            orders,
            blocks,
            hidden,
            applied,
        };
        if !lanes.send(*sent, job) {
            break;
        }
        *sent += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::lane_of;

    #[test]
    fn each_lane_takes_one_run_of_steps_in_a_row() {
        for lanes in 1..6 {
            for n in 1..40 {
                let of: Vec<usize> = (0..n).map(|i| lane_of(i, n, lanes)).collect();
                // In order, never skipping a lane: each lane's steps follow
                // each other, so only its first is read from its text.
                assert_eq!(of[0], 0);
                assert!(of.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1));
                // Every lane used once there are steps enough.
                assert_eq!(of[n - 1] + 1, lanes.min(n), "{n} steps, {lanes} lanes");
                // As even as they go: no lane holds two steps more than another.
                let sizes: Vec<usize> = (0..lanes.min(n))
                    .map(|l| of.iter().filter(|x| **x == l).count())
                    .collect();
                let (lo, hi) = (sizes.iter().min(), sizes.iter().max());
                assert!(hi.zip(lo).is_some_and(|(h, l)| h - l <= 1), "{sizes:?}");
            }
        }
    }
}

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
    let mut state = start.to_string();
    for (step, run) in &walked.current {
        let rel = Path::new("sealed").join(format!("step-{step:04}"));
        let splace = format!("sealed step {step}");
        manifest(dir, &rel, &game.server_key, named)?;
        let sd = dir.join(&rel);
        let (h, full_dice) = hidden_part(&sd, game, run, &splace)?;
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
                },
            );
        }
        let row = StepRow {
            game: game.game.clone(),
            step: *step,
            public_secret: run.public.secret,
            hidden_secret: h,
            state_before: state.clone(),
            notice: String::new(),
            notice_sig: String::new(),
            result: None,
            beacon: run.public.beacon.clone(),
        };
        let (res, _) = crate::game::resolve_step(rules, sides, &row, &orders)
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
        compare(&splace, "dice.yaml", all_dice.as_bytes(), &full_dice)?;
        let place = format!("step {step}");
        let public_events: Vec<Event> = archive::public_events(&res.events, &res.dice);
        compare(
            &place,
            "events.yaml",
            crate::yaml::to_string(&public_events)
                .unwrap_or_default()
                .as_bytes(),
            &read(&dir.join(&run.dir).join("events.yaml"))?,
        )?;
        state = res.state;
        v.lines.push(format!(
            "step {step}: hidden secret, state commitment, {} signed orders and the replay match{applied}",
            orders.len()
        ));
        v.replayed = true;
    }
    for run in &walked.undone {
        let rel = Path::new("sealed")
            .join(format!("step-{:04}", run.step))
            .join(format!("rollback-{}", run.run));
        let splace = format!("sealed step {} rolled-back run {}", run.step, run.run);
        manifest(dir, &rel, &game.server_key, named)?;
        let sd = dir.join(&rel);
        let (_, full) = hidden_part(&sd, game, run, &splace)?;
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
/// The hidden secret and the full log's bytes.
fn hidden_part(
    sd: &Path,
    game: &GameFile,
    run: &Run,
    splace: &str,
) -> Result<([u8; 32], Vec<u8>), Failure> {
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
    Ok((h, bytes))
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

//! The audit's replay keeps each step's state parsed for the next (issue
//! 33, item 7): a core that replays steps in a row reads a state from its
//! text only for the first of them, and the state it keeps gives the
//! archive's bytes in every ruleset's demo, so that no step is replayed
//! twice.

#[path = "support/resign.rs"]
mod resign;

use galloper::audit;
use std::path::PathBuf;

/// Play a demo of `ruleset` to its end and give its temporary folder (the
/// server's data folder is `demo/server` in it) and its archive.
fn demo(ruleset: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("tmp");
    let out = tmp.path().join("demo");
    let args = galloper::demo::DemoArgs {
        out: out.clone(),
        max_steps: 400,
        battle: false,
        ruleset: ruleset.into(),
    };
    galloper::demo::run(&args).expect("demo runs");
    let archive = std::fs::read_dir(out.join("server/archive"))
        .expect("archive folder")
        .map(|e| e.expect("entry").path())
        .find(|p| p.is_dir())
        .expect("one game");
    (tmp, archive)
}

#[test]
fn the_replay_reads_one_state_a_core_and_keeps_the_rest_parsed() {
    // One run of steps in a row for each core (the audit's own count).
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    for ruleset in galloper::rulesets::names() {
        let (_tmp, archive) = demo(ruleset);
        let v =
            audit::audit(&archive).unwrap_or_else(|f| panic!("{ruleset}: the audit fails: {f}"));
        assert!(
            v.replayed && v.over.is_some(),
            "{ruleset}: a finished game, replayed"
        );
        assert!(
            v.steps as usize > cores,
            "{ruleset}: {} steps are too few to show the parses saved",
            v.steps
        );
        // Each core reads from its text only the first state of the steps
        // it replays in a row (the last core the later half of what the
        // fullest lane had left when the inputs were all checked), where
        // a parse a step would read as many states as steps.
        assert!(
            (1..=cores).contains(&v.state_parses),
            "{ruleset}: {} states read from their text for {} steps on {cores} core(s)",
            v.state_parses,
            v.steps
        );
        // Every state kept parsed gave the archive's bytes: no step was
        // replayed again from its text.
        assert_eq!(
            v.replayed_from_text, 0,
            "{ruleset}: steps replayed again from their text"
        );
    }
}

/// A dishonest server's sealed events for step 2, signed: step 2 follows
/// step 1 on the same core, so its replay starts from the state kept
/// parsed, which does not give the archive's bytes; the step is replayed
/// again from its text, and the audit fails there with the words a replay
/// from the text gives.
#[test]
fn a_step_whose_kept_state_fails_is_judged_by_its_replay_from_the_text() {
    let (tmp, archive) = demo("maurice-lite");
    let events = archive.join("sealed/step-0002/events.yaml");
    let text = std::fs::read_to_string(&events).expect("sealed events");
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.len() / 2;
    let forged: Vec<String> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            if i == at {
                format!("{l} # forged")
            } else {
                l.to_string()
            }
        })
        .collect();
    std::fs::write(&events, forged.join("\n") + "\n").expect("write");
    let key = std::fs::read_to_string(tmp.path().join("demo/server/server_key")).expect("key");
    resign::resign(&archive.join("sealed/step-0002"), &key);
    let f = audit::audit(&archive).expect_err("forged events");
    assert_eq!(
        f.place,
        format!("sealed step 2: events.yaml line {}", at + 1),
        "{f}"
    );
    assert_eq!(
        f.what,
        format!(
            "replay gives {:?}, archive has {:?}",
            lines[at],
            format!("{} # forged", lines[at])
        ),
        "{f}"
    );
}

//! Issue 17, hidden troops: the demo game of `crowther-dougan` plays hidden
//! French units through many steps. While the British have not seen or
//! found one, it is absent from every British report, map and orders
//! template, from the events the British read and from the public archive;
//! once found it shows, and once it moves it is lost again. After the game
//! every observation test is derived again from the sealed archive's
//! hidden seed.

use galloper::dice::stream::Stream;
use galloper::dice::{DieRecord, StreamKind};
use galloper::event::Event;
use galloper::rulesets::crowther_dougan::state::{Phase, State};
use galloper::rulesets::crowther_dougan::tables::AVERAGE_FACES;
use galloper::side::SideId;
use galloper::view::Viewer;
use std::path::{Path, PathBuf};

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Every file under `dir`, as text where it is text.
fn texts(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries {
        let p = e.expect("entry").path();
        if p.is_dir() {
            out.extend(texts(&p));
        } else if let Ok(t) = std::fs::read_to_string(&p) {
            out.push((p, t));
        }
    }
    out
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("dir") {
        let p = e.expect("entry").path();
        let target = to.join(p.file_name().expect("name"));
        if p.is_dir() {
            copy_dir(&p, &target);
        } else {
            std::fs::copy(&p, &target).expect("copy");
        }
    }
}

#[test]
fn hidden_units_absent_until_found_and_observation_rederived_after_the_game() {
    let tmp = tempfile::tempdir().expect("tmp");
    let out = tmp.path().join("demo");
    let args = galloper::demo::DemoArgs {
        out: out.clone(),
        max_steps: 100,
        battle: false,
        ruleset: "crowther-dougan".into(),
    };
    galloper::demo::run(&args).expect("demo runs");
    let audit = read(&out.join("audit.txt"));
    assert!(audit.contains("AUDIT PASSED"), "{audit}");
    let archive = out.join("server/archive/beaver-creek-demo");
    let reports = out.join("reports/beaver-creek-demo");
    let british = SideId::new("british");
    let mut steps: Vec<PathBuf> = std::fs::read_dir(archive.join("sealed"))
        .expect("sealed")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            p.is_dir()
                && p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("step-"))
        })
        .collect();
    steps.sort();
    assert!(steps.len() >= 6, "a whole game: {} steps", steps.len());

    let mut hidden_steps = 0;
    let mut shown_steps = 0;
    let mut lost_again = 0;
    let mut observations = 0;
    // The public scenario names no unit of either side: the whole is
    // opened in sealed/start/, under the salted commitment of game.yaml.
    let whole = read(&archive.join("sealed/start/scenario.yaml"));
    assert_eq!(whole, galloper::rulesets::crowther_dougan::demo::SCENARIO);
    let scenario: galloper::rulesets::crowther_dougan::scenario::Scenario =
        galloper::yaml::from_str(&whole).expect("scenario");
    let game_file = read(&archive.join("game.yaml"));
    assert!(game_file.contains("sealed_scenario: "), "{game_file}");
    let plain_hash = galloper::archive::sha256_hex(whole.as_bytes());
    for (p, t) in texts(&archive)
        .into_iter()
        .filter(|(p, _)| !p.starts_with(archive.join("sealed")))
    {
        assert!(
            !t.contains(&plain_hash),
            "{}: the whole scenario's plain hash",
            p.display()
        );
    }
    // The start state cannot be tested by guessing: the first notice's
    // commitment to it is salted, and the salt stays sealed until the end.
    let start = galloper::rulesets::by_name("crowther-dougan")
        .expect("ruleset")
        .start(&whole)
        .expect("start");
    let notice = read(&archive.join("step-0001/notice.yaml"));
    let unsalted =
        galloper::archive::state_commitment("beaver-creek-demo", 0, &[0; 32], start.as_bytes());
    assert!(
        !notice.contains(&unsalted),
        "the start is guessable: {notice}"
    );
    let salt: galloper::archive::StartReveal =
        galloper::yaml::from_str(&read(&archive.join("sealed/start/salt.yaml"))).expect("salt");
    let salt: [u8; 32] = hex::decode(&salt.salt)
        .expect("hex")
        .try_into()
        .expect("32");
    let salted =
        galloper::archive::state_commitment("beaver-creek-demo", 0, &salt, start.as_bytes());
    assert!(notice.contains(&salted), "{notice}");
    // Without sealed/start/, or with another salt, the sealed audit fails.
    for what in ["missing", "changed"] {
        let copy = tmp.path().join(format!("cut-{what}"));
        copy_dir(&archive, &copy);
        if what == "missing" {
            std::fs::remove_dir_all(copy.join("sealed/start")).expect("rm");
        } else {
            let f = copy.join("sealed/start/salt.yaml");
            let t = read(&f);
            let at = t.find("salt: ").expect("salt") + 6;
            let flipped = if &t[at..at + 1] == "0" { "1" } else { "0" };
            std::fs::write(&f, format!("{}{flipped}{}", &t[..at], &t[at + 1..])).expect("write");
        }
        let err = galloper::audit::audit(&copy).expect_err(what).to_string();
        assert!(err.contains("sealed/start"), "{what}: {err}");
    }
    // The same game cut back to step 5 open, as a server holds it in
    // progress: it audits so far without the hidden scenario's start.
    let open = tmp.path().join("in-progress");
    copy_dir(&archive, &open);
    std::fs::remove_dir_all(open.join("sealed")).expect("rm sealed");
    std::fs::remove_file(open.join("end.yaml")).expect("rm end");
    std::fs::remove_file(open.join("end.yaml.sig")).expect("rm end sig");
    for e in std::fs::read_dir(&open).expect("dir") {
        let p = e.expect("entry").path();
        let Some(n) = p
            .file_name()
            .and_then(|n| n.to_str()?.strip_prefix("step-")?.parse::<u32>().ok())
        else {
            continue;
        };
        if n > 5 {
            std::fs::remove_dir_all(&p).expect("rm step");
        } else if n == 5 {
            for f in std::fs::read_dir(&p).expect("step") {
                let f = f.expect("file").path();
                if !f
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("notice.yaml"))
                {
                    std::fs::remove_file(&f).expect("rm file");
                }
            }
        }
    }
    let so_far = galloper::audit::audit(&open).expect("in progress audits");
    assert!(so_far.over.is_none());
    assert_eq!(so_far.open_step, Some(5));
    let said = so_far.lines.join("\n");
    assert!(
        said.contains("opened in sealed/start/ when the game ends"),
        "{said}"
    );
    // What is published before the first move: the game's files and the
    // first notice.
    for file in ["scenario.yaml", "game.yaml", "step-0001/notice.yaml"] {
        let t = read(&archive.join(file));
        for u in scenario.sides.iter().flat_map(|s| &s.units) {
            assert!(
                !t.contains(&u.id) && !t.contains(&u.name),
                "{file} names {} before the game ends",
                u.id
            );
        }
    }
    let mut before = State::new(&scenario).expect("start");
    let mut last: Option<State> = None;
    for sealed in &steps {
        let name = sealed
            .file_name()
            .expect("name")
            .to_string_lossy()
            .to_string();
        let state: State =
            galloper::yaml::from_str(&read(&sealed.join("state.yaml"))).expect("state");
        let events: Vec<Event> =
            galloper::yaml::from_str(&read(&sealed.join("events.yaml"))).expect("events");
        let dice: Vec<DieRecord> =
            galloper::yaml::from_str(&read(&sealed.join("dice.yaml"))).expect("dice");
        let public = archive.join(&name);
        let mut public_texts = texts(&public);
        assert!(!public_texts.is_empty(), "{name}: public folder");
        let step_no: u32 = name.trim_start_matches("step-").parse().expect("number");
        let british_texts = texts(&reports.join(format!("step-{step_no:04}")).join("british"));
        public_texts.extend(texts(
            &reports.join(format!("step-{step_no:04}")).join("public"),
        ));

        for u in state
            .units
            .iter()
            .filter(|u| u.side.as_str() == "french" && u.live())
        {
            if state.sees(&british, u) {
                shown_steps += 1;
                continue;
            }
            // Hidden from the British before the step and after it, never
            // in its own smoke and not found during it: the British never
            // saw it.
            let was = before.unit(&u.id).expect("unit");
            let fired = events
                .iter()
                .any(|e| e.what == "fire" && e.facts.unit.as_ref().is_some_and(|x| x.id == u.id));
            // Found during the step (and lost again by its end, say by a
            // retreat): by observation, by bumping into it, by its charge
            // at a British unit (the target knows its charger) or by hand
            // to hand (contact finds both ways): the British saw it then.
            let finding = [
                "observe",
                "bump",
                "charge_home",
                "hand_to_hand",
                "push_back",
                "fire",
            ];
            let found = events.iter().any(|e| {
                finding.contains(&e.what.as_str())
                    && e.visible_to(&Viewer::Side(british.clone()))
                    && e.facts.involves(&u.id)
            });
            if before.sees(&british, was) || fired || found {
                continue;
            }
            hidden_steps += 1;
            // Absent from the British reports, map and template...
            for (p, t) in &british_texts {
                assert!(
                    !t.contains(&u.id) && !t.contains(&u.name),
                    "{name}: hidden {} named in {}",
                    u.id,
                    p.display()
                );
            }
            // ... from the events the British read ...
            let told = events
                .iter()
                .filter(|e| e.visible_to(&Viewer::Side(british.clone())))
                .any(|e| e.facts.involves(&u.id));
            assert!(!told, "{name}: {} in British events", u.id);
            // ... and from everything public.
            for (p, t) in &public_texts {
                assert!(
                    !t.contains(&u.id) && !t.contains(&u.name),
                    "{name}: hidden {} in the public {}",
                    u.id,
                    p.display()
                );
            }
        }
        lost_again += events
            .iter()
            .filter(|e| {
                e.what == "lost_to_view"
                    && e.visibility == galloper::event::Visibility::Side(british.clone())
            })
            .count();
        // No hidden die, and no observation, in anything public.
        let public_dice = read(&public.join("dice.yaml"));
        assert!(!public_dice.contains("hidden"), "{name}: {public_dice}");
        let public_events = read(&public.join("events.yaml"));
        assert!(!public_events.contains("observe"), "{name}");

        // The observation tests again, from the sealed hidden seed.
        let reveal: serde_yaml::Value =
            galloper::yaml::from_str(&read(&sealed.join("hidden.yaml"))).expect("hidden");
        let seed_hex = reveal["hidden_seed"].as_str().expect("hidden seed");
        let seed: [u8; 32] = hex::decode(seed_hex)
            .expect("hex")
            .try_into()
            .expect("32 bytes");
        let mut stream = Stream::new(seed);
        let mut again = std::collections::BTreeMap::new();
        for (i, d) in dice.iter().enumerate() {
            if d.stream == StreamKind::Hidden {
                assert_eq!(stream.roll(d.sides), d.value, "{name}: hidden die {i}");
                again.insert(i, d.value);
            }
        }
        for e in events.iter().filter(|e| e.what == "observe") {
            if e.visibility != galloper::event::Visibility::Umpire {
                // The observer's copy: the result only (issue 28, item 3).
                assert!(
                    e.dice.is_empty() && e.facts.rolls.is_empty(),
                    "{name}: {e:?}"
                );
                assert!(
                    e.facts.distance.is_none() && !e.text.contains(" cm"),
                    "{name}: {}",
                    e.text
                );
                continue;
            }
            observations += 1;
            let i = e.dice[0];
            let face = again
                .get(&i)
                .copied()
                .expect("an observation die is hidden");
            assert_eq!(
                e.facts.rolls[0],
                AVERAGE_FACES[(face - 1) as usize],
                "{name}"
            );
        }
        before = state.clone();
        last = Some(state);
    }
    assert!(
        hidden_steps >= 3,
        "hidden units through several steps: {hidden_steps}"
    );
    assert!(shown_steps >= 1, "some found or seen: {shown_steps}");
    // Whether a found unit moves while found depends on this run's dice
    // (fresh entropy each run): counted here, held for every run by the
    // ruleset's scenario test
    // `observation_a_found_unit_that_moves_is_lost_and_its_move_stays_its_own`.
    eprintln!("found units lost again: {lost_again}");
    assert!(observations >= 10, "observations made: {observations}");
    assert!(
        matches!(last.expect("a step").phase, Phase::Over(_)),
        "the game ends with a result"
    );
}

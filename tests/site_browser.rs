//! Issue 18: `galloper site` over the archives of every ruleset's demo
//! game (Maurice Lite's demo and battle, Morschauser, the Napoleonic corps,
//! activation dice, Crowther-Dougan), driven end to end in headless
//! Chromium (Debian's `chromium` through playwright-core,
//! `tests/browser/site.mjs`): each page steps through its game, the map and
//! events follow the step, a unit can be followed, the page says what its
//! audit checks and what it leaves to `galloper audit`, and the in-browser
//! audit passes, as `galloper audit` does. Then copies of the battle's
//! archive are tampered with (a die changed, then re-signed by a forger; a
//! sealed state changed; sealed orders changed; a step removed): each time
//! `galloper audit` and the rebuilt page both fail and name the same step.
//! Then what the page cannot replay, re-signed by the server's own key (an
//! event's text changed, a step re-rolled with its commitment changed, a
//! hidden-troops game's public scenario changed): where the page's own
//! checks see nothing (the last step's events), its headline says the
//! command line's FAILED, as loud as its own failures, with its own result
//! below; where a re-made link leaves a player's file naming a notice that
//! is gone, the page's own audit fails too (issue 29, item 2). For every tamper the page's headline and
//! `galloper audit` agree, or the page says FAILED. A site made with
//! `--server-key` shows the pinned key beside each verdict, and refuses
//! another server's archive in `galloper audit --server-key`'s words.
//! A game in progress (Crowther-Dougan stopped after three steps) shows its
//! public steps only, with none of the server's unrevealed secrets, and its
//! page audits it "so far" as the command line does. A site missing one
//! step's script fails its audit at that step, naming the file. Each page
//! opens with its first step's script only and loads the others as the
//! reader moves, each step titled with its own notice's heading; the index
//! carries the club's name and the server keys' fingerprints. Without a
//! browser: a game's page with its first step is under 2 MB and its site at
//! most twice its archive, in less memory than the archive; links in an
//! archive are refused and links planted in `--out` never followed.
//! Screenshots of the
//! index, a game page and a phone-sized page are kept in
//! `target/site-shots/`.
//!
//! Needs node, npm and chromium (`.ci/run` installs them); the npm packages
//! of `tests/browser/` are installed with `npm ci` when missing.

#[path = "support/reseal.rs"]
mod reseal;

use reseal::reseal;
#[path = "support/browser.rs"]
mod browser;
use browser::{node_ready, ok};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn galloper(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_galloper"))
        .args(args)
        .output()
        .expect("galloper runs")
}

/// Resolved steps of an archive: its `step-NNNN/manifest.yaml` files.
fn steps(archive: &Path) -> u32 {
    (1..)
        .take_while(|n| archive.join(format!("step-{n:04}/manifest.yaml")).exists())
        .count() as u32
}

/// Each resolved step's own heading, as its notice gives it (the step that
/// was played; its view's heading names the step after).
fn headings(archive: &Path) -> Vec<String> {
    (1..=steps(archive))
        .map(|n| {
            let text =
                std::fs::read_to_string(archive.join(format!("step-{n:04}/notice.yaml"))).unwrap();
            let v: serde_json::Value = galloper::yaml::from_str(&text).unwrap();
            v["heading"].as_str().unwrap_or_default().to_string()
        })
        .collect()
}

/// Every plain file under `dir`, with its size.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(files_under(&p));
        } else {
            out.push(p);
        }
    }
    out
}

fn bytes_under(dir: &Path) -> u64 {
    files_under(dir)
        .iter()
        .map(|p| std::fs::metadata(p).unwrap().len())
        .sum()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// Change the first public die of the first step after `from` that rolled
/// any, to another face: the step it is in.
fn change_one_die(archive: &Path, from: u32) -> u32 {
    for step in from..=steps(archive) {
        let path = archive.join(format!("step-{step:04}/dice.yaml"));
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let sides = lines
            .iter()
            .find_map(|l| l.trim_start().strip_prefix("sides: "))
            .and_then(|s| s.parse::<u64>().ok());
        let Some(sides) = sides.filter(|s| *s > 1) else {
            continue;
        };
        let mut done = false;
        let changed: Vec<String> = lines
            .iter()
            .map(|l| match l.trim_start().strip_prefix("value: ") {
                Some(v) if !done => {
                    done = true;
                    let v: u64 = v.parse().unwrap();
                    let indent = &l[..l.len() - l.trim_start().len()];
                    format!("{indent}value: {}", v % sides + 1)
                }
                _ => l.to_string(),
            })
            .collect();
        std::fs::write(&path, changed.join("\n") + "\n").unwrap();
        return step;
    }
    panic!("no step from {from} on rolled a public die");
}

/// A forger's copy: the die changed in `step`, every hash on the chain made
/// to agree again, and every signed file signed anew with a key of his own
/// named in `game.yaml`. Only the dice themselves can tell now.
fn re_sign_with_a_forgers_key(archive: &Path) {
    let key = galloper::sig::keygen("forger").unwrap();
    reseal(archive, &key.private_openssh, &key.public_line);
}

/// The server's own key, beside the demo's archive (`server/server_key`):
/// `archive` is `server/archive/GAME`.
fn server_key_of(archive: &Path) -> (String, String) {
    let server = archive.parent().unwrap().parent().unwrap();
    let read = |n: &str| std::fs::read_to_string(server.join(n)).unwrap();
    (
        read("server_key"),
        read("server_key.pub").trim().to_string(),
    )
}

/// The server re-rolls `step`: a public secret of its choosing, the
/// step's notice committing to it, its seed and every public die drawn
/// again from the new stream, published and sealed alike. Re-signed by
/// the server's own key, every public check agrees; only the replay of the
/// step through the rules (and the players' files, which name the notice
/// they answered) can tell.
fn re_roll(archive: &Path, step: u32) {
    use galloper::archive::{ArchivedDie, GameFile, Notice, Reveal};
    use galloper::dice::{DieRecord, StreamKind, beacon, protocol, stream::Stream};
    let read = |p: &Path| std::fs::read_to_string(p).unwrap();
    let game: GameFile = galloper::yaml::from_str(&read(&archive.join("game.yaml"))).unwrap();
    let dir = archive.join(format!("step-{step:04}"));
    let mut notice: Notice = galloper::yaml::from_str(&read(&dir.join("notice.yaml"))).unwrap();
    let mut reveal: Reveal = galloper::yaml::from_str(&read(&dir.join("reveal.yaml"))).unwrap();
    assert!(notice.beacon.is_none(), "the demo takes no beacon");
    let secret = [7u8; 32];
    notice.public_commitment = hex::encode(protocol::commit(
        StreamKind::Public,
        &game.game,
        step,
        &secret,
    ));
    let mix = hex::decode(&reveal.mix).unwrap();
    let seed = beacon::seed_of(StreamKind::Public, &secret, &mix, None);
    reveal.public_secret = hex::encode(secret);
    reveal.public_seed = hex::encode(seed);
    let mut dice: Vec<ArchivedDie> =
        galloper::yaml::from_str(&read(&dir.join("dice.yaml"))).unwrap();
    let mut stream = Stream::new(seed);
    for d in &mut dice {
        d.die.index = stream.position();
        d.die.value = stream.roll(d.die.sides);
    }
    let sealed = archive.join(format!("sealed/step-{step:04}/dice.yaml"));
    let mut full: Vec<DieRecord> = galloper::yaml::from_str(&read(&sealed)).unwrap();
    let mut new = dice.iter().map(|d| d.die.clone());
    for d in full.iter_mut().filter(|d| d.stream == StreamKind::Public) {
        *d = new.next().unwrap();
    }
    let put = |p: &Path, t: String| std::fs::write(p, t).unwrap();
    put(
        &dir.join("notice.yaml"),
        galloper::yaml::to_string(&notice).unwrap(),
    );
    put(
        &dir.join("reveal.yaml"),
        galloper::yaml::to_string(&reveal).unwrap(),
    );
    put(
        &dir.join("dice.yaml"),
        galloper::yaml::to_string(&dice).unwrap(),
    );
    put(&sealed, galloper::yaml::to_string(&full).unwrap());
}

/// The step that rolled the most public dice.
fn most_dice(archive: &Path) -> u32 {
    (1..=steps(archive))
        .max_by_key(|n| {
            std::fs::read_to_string(archive.join(format!("step-{n:04}/dice.yaml")))
                .unwrap()
                .matches("value: ")
                .count()
        })
        .unwrap()
}

/// Whatever the tamper, the page's headline and `galloper audit` agree, or
/// the page says FAILED: never a pass over a command line that failed.
fn agrees(name: &str, cli: &Output, v: &PageVerdict) {
    if !cli.status.success() {
        assert_eq!(
            v.verdict,
            "fail",
            "{name}: galloper audit fails ({}) but the page's headline says {}",
            String::from_utf8_lossy(&cli.stderr).trim(),
            v.summary
        );
    } else {
        assert!(
            v.verdict == "pass" || v.verdict == "fail",
            "{name}: the page's headline says {:?}",
            v.verdict
        );
    }
}

/// The step a failure names, as the page reads it from the failure's
/// place: the first `step-NNNN` or `step N` in it.
fn named_step(message: &str) -> Option<u32> {
    let bytes = message.as_bytes();
    (0..bytes.len()).find_map(|i| {
        let rest = message.get(i..)?;
        let rest = rest
            .strip_prefix("step-")
            .or_else(|| rest.strip_prefix("step "))?;
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok()
    })
}

/// Replace the first line of `file` (inside `archive`) that contains
/// `from` with one that says `to` there instead.
fn change_first(archive: &Path, file: &str, from: &str, to: &str) {
    let path = archive.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{file} has no {from:?}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

/// The first orders file sealed for `step`.
fn sealed_orders(archive: &Path, step: u32) -> String {
    let dir = format!("sealed/step-{step:04}");
    let mut names: Vec<String> = std::fs::read_dir(archive.join(&dir))
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("orders-") && n.ends_with(".yaml"))
        .collect();
    names.sort();
    format!("{dir}/{}", names.first().expect("sealed orders"))
}

/// A change made to an archive's copy at a step, with the server's key
/// (private, public line) for a change re-signed by the server itself.
type Tamper = fn(&Path, u32, &(String, String));

struct PageVerdict {
    game: String,
    /// The headline.
    verdict: String,
    step: Option<u32>,
    summary: String,
    /// The page's own audit, below the headline.
    own: String,
    own_step: Option<u32>,
    own_summary: String,
    /// The server key beside the verdict, and whether it was pinned.
    key_note: String,
    pinned: String,
}

/// Run `tests/browser/site.mjs` over a plan; the verdict it read on each page.
fn browse(dir: &Path, plan: serde_json::Value, work: &Path) -> Vec<PageVerdict> {
    let plan_path = work.join(format!(
        "plan-{}.json",
        plan["pages"][0]["game"].as_str().unwrap_or("x")
    ));
    std::fs::write(&plan_path, plan.to_string()).unwrap();
    let out = Command::new("node")
        .arg(dir.join("site.mjs"))
        .arg(&plan_path)
        .output()
        .expect("node runs");
    let stdout = ok("the browser test (tests/browser/site.mjs)", &out);
    stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .map(|v| PageVerdict {
            game: v["game"].as_str().unwrap_or_default().to_string(),
            verdict: v["verdict"].as_str().unwrap_or_default().to_string(),
            step: v["step"].as_str().and_then(|s| s.parse().ok()),
            summary: v["summary"].as_str().unwrap_or_default().to_string(),
            own: v["own"].as_str().unwrap_or_default().to_string(),
            own_step: v["own_step"].as_str().and_then(|s| s.parse().ok()),
            own_summary: v["own_summary"].as_str().unwrap_or_default().to_string(),
            key_note: v["key_note"].as_str().unwrap_or_default().to_string(),
            pinned: v["pinned"].as_str().unwrap_or_default().to_string(),
        })
        .collect()
}

/// The club's name the demo games' site is made with (`--club`).
const CLUB: &str = "The Holl Brook Wargames Club";

#[test]
fn the_demo_games_replay_and_audit_in_chromium_and_a_changed_die_fails_at_its_step() {
    let browser = node_ready();
    // The page's primitives first, on docs/DICE.md's vectors, in Node.
    let out = Command::new("node")
        .arg(browser.join("vectors.mjs"))
        .output()
        .expect("node runs");
    ok(
        "the page's audit on the dice vectors (tests/browser/vectors.mjs)",
        &out,
    );
    // Its checks of receipts, sealed orders and applied orders, case by
    // case, in galloper audit's words.
    let out = Command::new("node")
        .arg(browser.join("checks.mjs"))
        .output()
        .expect("node runs");
    ok(
        "the page's checks of orders files (tests/browser/checks.mjs)",
        &out,
    );

    let work = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("site-browser");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("site-shots");
    let demos: [(&[&str], &str, &str); 6] = [
        (&["--battle"], "battle", "hollowbrook-battle"),
        (&[], "maurice", "hollowbrook-demo"),
        (
            &["--ruleset", "morschauser-macduff"],
            "morschauser",
            "crossroads-demo",
        ),
        (
            &["--ruleset", "napoleonic-corps"],
            "napoleonic",
            "danube-demo",
        ),
        (
            &["--ruleset", "activation-dice"],
            "activation",
            "quatre-chemins-demo",
        ),
        (
            &["--ruleset", "crowther-dougan"],
            "crowther",
            "beaver-creek-demo",
        ),
    ];
    let mut archives = Vec::new();
    for (flags, name, game) in demos {
        let out_dir = work.join(name);
        let mut args = vec!["demo", "--out", out_dir.to_str().unwrap()];
        args.extend_from_slice(flags);
        ok(&format!("galloper demo {flags:?}"), &galloper(&args));
        let archive = out_dir.join("server/archive").join(game);
        assert!(
            archive.join("end.yaml").exists(),
            "{game} is played to its end"
        );
        archives.push((game, archive));
    }

    // The site of every demo game.
    let site = work.join("site");
    let mut args = vec!["site".to_string()];
    args.extend(archives.iter().map(|(_, a)| a.display().to_string()));
    args.extend(["--out".to_string(), site.display().to_string()]);
    args.extend(["--club".to_string(), CLUB.to_string()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    ok("galloper site", &galloper(&args));
    assert!(site.join("index.html").exists());
    for f in ["galloper-vendor.js", "audit.js", "replay.js", "site.css"] {
        assert!(site.join("assets").join(f).exists(), "assets/{f} is copied");
    }
    for (game, archive) in &archives {
        ok(
            &format!("galloper audit {game}"),
            &galloper(&["audit", archive.to_str().unwrap()]),
        );
    }
    let pages: Vec<serde_json::Value> = archives
        .iter()
        .enumerate()
        .map(|(i, (game, archive))| {
            serde_json::json!({
                "file": site.join(format!("{game}.html")),
                "game": game,
                "steps": steps(archive),
                "headings": headings(archive),
                "expect": "pass",
                "shot": if i == 0 { Some("game") } else { None },
            })
        })
        .collect();
    let verdicts = browse(
        &browser,
        serde_json::json!({
            "index": site.join("index.html"),
            "index_shot": "index.png",
            "index_expect": {"club": CLUB},
            "shots": shots,
            "pages": pages,
            "phone": true,
        }),
        &work,
    );
    assert_eq!(verdicts.len(), demos.len(), "a verdict read on each page");
    for v in &verdicts {
        // `galloper audit` passed on each archive above: the page agrees.
        assert_eq!(v.verdict, "pass", "{}: {}", v.game, v.summary);
        assert_eq!(v.own, "pass", "{}: {}", v.game, v.own_summary);
        assert!(
            v.pinned == "no"
                && v.key_note.starts_with("server key SHA256:")
                && v.key_note
                    .ends_with("(not pinned: compare it with the one your club publishes)")
                && v.summary.contains("server key not pinned"),
            "{}: no key pinned, and the page says so beside its verdict: {} / {}",
            v.game,
            v.key_note,
            v.summary
        );
        assert!(
            v.summary.starts_with("AUDIT PASSED: the game is over"),
            "{}: {}",
            v.game,
            v.summary
        );
    }
    for shot in ["index.png", "game.png", "phone.png"] {
        assert!(shots.join(shot).exists(), "screenshot {shot} kept");
    }

    // One die changed in a copy of the battle's archive.
    let (game, archive) = &archives[0];
    let bad = work.join("tampered").join(game);
    copy_dir(archive, &bad);
    let step = change_one_die(&bad, steps(archive) / 2);
    let cli = galloper(&["audit", bad.to_str().unwrap()]);
    let said = String::from_utf8_lossy(&cli.stderr).into_owned();
    assert!(
        !cli.status.success(),
        "galloper audit refuses the changed die"
    );
    assert!(
        said.contains(&format!("step-{step:04}")),
        "galloper audit names step {step}: {said}"
    );
    let bad_site = work.join("site-tampered");
    ok(
        "galloper site on the tampered archive",
        &galloper(&[
            "site",
            bad.to_str().unwrap(),
            "--out",
            bad_site.to_str().unwrap(),
        ]),
    );
    let verdicts = browse(
        &browser,
        serde_json::json!({
            "index": bad_site.join("index.html"),
            "shots": work.join("tampered-shots"),
            "pages": [{
                "file": bad_site.join(format!("{game}.html")),
                "game": game,
                "steps": steps(&bad),
                "expect": {"fail": step},
            }],
        }),
        &work,
    );
    assert_eq!(verdicts.len(), 1);
    agrees("changed die", &cli, &verdicts[0]);
    assert_eq!(verdicts[0].verdict, "fail", "{}", verdicts[0].summary);
    assert_eq!(verdicts[0].step, Some(step), "{}", verdicts[0].summary);
    assert!(
        verdicts[0]
            .summary
            .contains(&format!("step-{step:04}/dice.yaml")),
        "the page names the changed file as the command line does: {} / {said}",
        verdicts[0].summary
    );

    // The forger signs his copy anew with his own key: signatures, hashes
    // and chain all agree, and only the dice re-derived from the stream
    // give him away, on the command line and in the page alike.
    re_sign_with_a_forgers_key(&bad);
    let cli = galloper(&["audit", bad.to_str().unwrap()]);
    let said = String::from_utf8_lossy(&cli.stderr).into_owned();
    assert!(!cli.status.success(), "galloper audit refuses the forgery");
    let expected = format!("AUDIT FAILED at step {step}: public dice: record ");
    assert!(said.starts_with(&expected), "galloper audit: {said}");
    let forged_site = work.join("site-forged");
    ok(
        "galloper site on the forged archive",
        &galloper(&[
            "site",
            bad.to_str().unwrap(),
            "--out",
            forged_site.to_str().unwrap(),
        ]),
    );
    let verdicts = browse(
        &browser,
        serde_json::json!({
            "index": forged_site.join("index.html"),
            "shots": work.join("forged-shots"),
            "pages": [{
                "file": forged_site.join(format!("{game}.html")),
                "game": game,
                "steps": steps(&bad),
                "expect": {"fail": step},
            }],
        }),
        &work,
    );
    agrees("forger's re-signing", &cli, &verdicts[0]);
    assert_eq!(
        verdicts[0].summary.trim(),
        said.trim(),
        "the page's verdict is galloper audit's, word for word"
    );

    // More tampers, each on a fresh copy: a state and an orders file
    // changed in what was sealed, and a step removed (both audits fail,
    // and name the same step); then what only the command line's replay
    // can see, each re-signed by the server's own key so that every
    // signature, hash and link agrees: the last step's event text changed,
    // a step re-rolled with its commitment changed, and a hidden-troops
    // game's public scenario changed. The page cannot replay the rules,
    // but its headline says the command line's FAILED as loud as its own:
    // it is never greener than what it can know. (The last two re-make
    // notices the players' sealed files answered: the page's own audit
    // fails them too.)
    let mid = steps(archive) / 2;
    let crowther = &archives[5];
    let battle_key = server_key_of(archive);
    let crowther_key = server_key_of(&crowther.1);
    let tampers: [(&str, &(&str, PathBuf), Tamper, bool); 6] = [
        (
            "state",
            &archives[0],
            |a: &Path, step: u32, _| {
                change_first(a, &format!("sealed/step-{step:04}/state.yaml"), ":", ": ")
            },
            false,
        ),
        (
            "orders",
            &archives[0],
            |a: &Path, step: u32, _| {
                let file = sealed_orders(a, step);
                let text = std::fs::read_to_string(a.join(&file)).unwrap();
                std::fs::write(a.join(&file), format!("{text}# one line more\n")).unwrap();
            },
            false,
        ),
        (
            "removed",
            &archives[0],
            |a: &Path, step: u32, _| {
                std::fs::remove_dir_all(a.join(format!("step-{step:04}"))).unwrap();
                std::fs::remove_dir_all(a.join(format!("sealed/step-{step:04}"))).unwrap();
            },
            false,
        ),
        (
            "event text",
            &archives[0],
            |a: &Path, _, key: &(String, String)| {
                // The last step's: no later notice links to it, so no
                // player's file names a notice that changed, and nothing
                // but the replay can tell.
                use galloper::event::Event;
                let step = steps(a);
                let path = a.join(format!("step-{step:04}/events.yaml"));
                let mut events: Vec<Event> =
                    galloper::yaml::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
                let e = events.first_mut().expect("the step has a public event");
                e.text = format!("{} (so says the server)", e.text);
                std::fs::write(&path, galloper::yaml::to_string(&events).unwrap()).unwrap();
                reseal(a, &key.0, &key.1);
            },
            true,
        ),
        (
            "re-rolled step",
            &archives[0],
            |a: &Path, _, key: &(String, String)| {
                re_roll(a, most_dice(a));
                reseal(a, &key.0, &key.1);
            },
            true,
        ),
        (
            "public scenario",
            crowther,
            |a: &Path, _, key: &(String, String)| {
                change_first(a, "scenario.yaml", "\nmoves: ", "\nmoves: 2");
                reseal(a, &key.0, &key.1);
            },
            true,
        ),
    ];
    let mut pages = Vec::new();
    let mut clis = Vec::new();
    for (name, (game, original), tamper, cli_only) in &tampers {
        let copy = work
            .join(format!("tamper-{}", name.replace(' ', "-")))
            .join(game);
        copy_dir(original, &copy);
        let key = if *game == crowther.0 {
            &crowther_key
        } else {
            &battle_key
        };
        tamper(&copy, mid, key);
        let cli = galloper(&["audit", copy.to_str().unwrap()]);
        let said = String::from_utf8_lossy(&cli.stderr).into_owned();
        assert!(
            !cli.status.success(),
            "galloper audit refuses the {name} tamper"
        );
        let at = named_step(&said);
        if !cli_only {
            let at = at.unwrap_or_else(|| {
                panic!("galloper audit names no step for the {name} tamper: {said}")
            });
            assert!(
                (mid..=mid + 1).contains(&at),
                "the {name} tamper at step {mid} is found there (or, removed, at the step after): {said}"
            );
        }
        let tsite = work.join(format!("site-tamper-{}", name.replace(' ', "-")));
        ok(
            &format!("galloper site on the {name} tamper"),
            &galloper(&[
                "site",
                copy.to_str().unwrap(),
                "--out",
                tsite.to_str().unwrap(),
            ]),
        );
        pages.push(serde_json::json!({
            "file": tsite.join(format!("{game}.html")),
            "game": game,
            "steps": steps(&copy),
            "quick": true,
            // (What only the command line can see may show to a check of
            // the page's own at a later step: the Rust side compares.)
            "expect": match at {
                Some(at) if !cli_only => serde_json::json!({"fail": at}),
                _ => serde_json::json!("fail"),
            },
        }));
        clis.push((*name, *cli_only, at, said, cli));
    }
    let verdicts = browse(
        &browser,
        serde_json::json!({
            "shots": work.join("tamper-shots"),
            "pages": pages,
        }),
        &work,
    );
    assert_eq!(verdicts.len(), tampers.len());
    for (v, (name, cli_only, at, said, cli)) in verdicts.iter().zip(&clis) {
        agrees(name, cli, v);
        assert_eq!(v.verdict, "fail", "{name}: {}", v.summary);
        if !cli_only || v.own == "pass" {
            assert_eq!(
                v.step, *at,
                "{name}: the page names step {at:?} as galloper audit does: {} / {said}",
                v.summary
            );
        }
        if !cli_only {
            assert_eq!(v.own, "fail", "{name}: the page's own audit fails too");
            assert_eq!(v.own_step, *at, "{name}: {}", v.summary);
        } else if v.own == "pass" || *name == "event text" {
            // The page's own audit cannot see it: the headline is the
            // command line's failure, the page's own pass below it.
            let what = said
                .trim()
                .strip_prefix("AUDIT FAILED ")
                .unwrap_or(said.trim());
            assert!(
                v.summary.starts_with(
                    "AUDIT FAILED (the command line's audit, which replays the rules) "
                ) && v.summary.ends_with(what),
                "{name}: the headline is the command line's failure: {} / {said}",
                v.summary
            );
            assert!(
                v.own_summary.contains("This page\u{2019}s own audit")
                    && v.own_summary.contains("AUDIT PASSED"),
                "{name}: the page's own pass is below the headline, and says whose it is: {}",
                v.own_summary
            );
        } else {
            // A check of the page's own catches it too (a player's file
            // naming a notice that is gone, whose link was re-made): its
            // own failure heads the page, at that step or after the one
            // the replay fails.
            assert_eq!(v.own, "fail", "{name}: {}", v.own_summary);
            assert!(
                v.summary.starts_with("AUDIT FAILED at "),
                "{name}: {}",
                v.summary
            );
            assert!(
                at.is_none() || v.step >= *at,
                "{name}: the page fails at {:?}, galloper audit at {at:?}",
                v.step
            );
        }
    }

    // The club's key pinned for the whole site: the battle's server key.
    // Its page passes, says the key is the pinned one beside its verdict,
    // and its summary says so; the Crowther game, signed by another
    // server's key, fails at game.yaml in the page and on the command line
    // alike, in the same words.
    let pinned_site = work.join("site-pinned");
    let (_, battle_public) = &battle_key;
    let fp = galloper::sig::fingerprint(battle_public).unwrap();
    ok(
        "galloper site --server-key",
        &galloper(&[
            "site",
            archive.to_str().unwrap(),
            crowther.1.to_str().unwrap(),
            "--server-key",
            battle_public,
            "--out",
            pinned_site.to_str().unwrap(),
        ]),
    );
    let pub_file = archive
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("server_key.pub");
    let cli_battle = galloper(&[
        "audit",
        archive.to_str().unwrap(),
        "--server-key",
        pub_file.to_str().unwrap(),
    ]);
    let cli_battle_said = ok("galloper audit --server-key of the battle", &cli_battle);
    let cli_crowther = galloper(&["audit", crowther.1.to_str().unwrap(), "--server-key", &fp]);
    assert!(
        !cli_crowther.status.success(),
        "another server's archive fails the pin"
    );
    let cli_crowther_said = String::from_utf8_lossy(&cli_crowther.stderr).into_owned();
    let verdicts = browse(
        &browser,
        serde_json::json!({
            "shots": work.join("pinned-shots"),
            "index": pinned_site.join("index.html"),
            "index_expect": {"key": fp},
            "pages": [
                {
                    "file": pinned_site.join(format!("{game}.html")),
                    "game": game,
                    "steps": steps(archive),
                    "quick": true,
                    "expect": "pass",
                },
                {
                    "file": pinned_site.join(format!("{}.html", crowther.0)),
                    "game": crowther.0,
                    "steps": steps(&crowther.1),
                    "quick": true,
                    "expect": "fail",
                },
            ],
        }),
        &work,
    );
    assert_eq!(verdicts.len(), 2);
    let (b, c) = (&verdicts[0], &verdicts[1]);
    agrees("pinned battle", &cli_battle, b);
    agrees("pinned crowther", &cli_crowther, c);
    assert_eq!(b.verdict, "pass", "{}", b.summary);
    assert_eq!(b.pinned, "yes");
    assert_eq!(
        b.key_note,
        format!("server key {fp} (pinned by the site's maker)")
    );
    assert!(
        b.summary.contains("signed by the pinned server key") && !b.summary.contains("not pinned"),
        "{}",
        b.summary
    );
    assert!(
        cli_battle_said
            .trim_end()
            .ends_with("signed by the pinned server key"),
        "{cli_battle_said}"
    );
    assert_eq!(c.verdict, "fail");
    assert_eq!(c.pinned, "other", "{}", c.key_note);
    assert_eq!(c.own, "fail", "{}", c.own_summary);
    assert_eq!(
        c.summary.trim(),
        cli_crowther_said.trim(),
        "the page refuses another server's key in galloper audit's words"
    );
    assert!(
        c.summary.contains(&format!("not by the pinned key {fp}")),
        "{}",
        c.summary
    );

    // A site put online without one step's script: the page says the step
    // did not load, and its audit, which reads every step, fails naming
    // the missing file at that step, not passing on what it has.
    let partial = work.join("site-partial");
    copy_dir(&site, &partial);
    std::fs::remove_file(partial.join(format!("games/{game}/step-0005.js"))).unwrap();
    let verdicts = browse(
        &browser,
        serde_json::json!({
            "shots": work.join("partial-shots"),
            "missing_allowed": true,
            "pages": [{
                "file": partial.join(format!("{game}.html")),
                "game": game,
                "steps": steps(archive),
                "quick": true,
                "expect": {"fail": 5},
            }],
        }),
        &work,
    );
    assert_eq!(verdicts.len(), 1);
    assert!(
        verdicts[0].summary.contains(&format!(
            "games/{game}/step-0005.js did not load: put the whole site"
        )),
        "{}",
        verdicts[0].summary
    );
}

/// The server's unrevealed secrets of a game in progress: every resolved
/// step's hidden secret, the open step's secrets, and the text of every
/// event not shown to all.
fn unrevealed(server: &Path, game: &str) -> Vec<String> {
    let server = galloper::server::Server::open(server).unwrap();
    let mut out = Vec::new();
    for row in server.store().steps(game).unwrap() {
        out.push(hex::encode(row.hidden_secret));
        match &row.result {
            None => out.push(hex::encode(row.public_secret)),
            Some(r) => {
                let events: serde_json::Value =
                    galloper::yaml::from_str(&r.events).unwrap_or_default();
                for e in events.as_array().into_iter().flatten() {
                    if e["visibility"] != "public"
                        && let Some(t) = e["text"].as_str()
                    {
                        out.push(t.to_string());
                    }
                }
            }
        }
    }
    out
}

#[test]
fn a_game_in_progress_shows_its_public_steps_only_and_audits_so_far() {
    let browser = node_ready();
    let work = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("site-running");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    // Crowther-Dougan's demo (hidden troops, secret searches) stopped after
    // three steps: the server has resolved them and opened the fourth.
    let out_dir = work.join("crowther");
    let out = galloper(&[
        "demo",
        "--ruleset",
        "crowther-dougan",
        "--max-steps",
        "3",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    // Stopped where asked, it ends well: status 0, its audit passed so far.
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success()
            && said.contains("Stopped after 3 steps, as --max-steps asked")
            && said.contains("AUDIT PASSED SO FAR"),
        "the demo stops in progress: {said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let game = "beaver-creek-demo";
    let archive = out_dir.join("server/archive").join(game);
    assert_eq!(steps(&archive), 3);
    assert!(
        archive.join("step-0004/notice.yaml").exists(),
        "step 4 is open"
    );
    assert!(!archive.join("end.yaml").exists() && !archive.join("sealed").exists());
    let secrets = unrevealed(&out_dir.join("server"), game);
    assert!(
        secrets.len() > 4,
        "hidden secrets of three steps and the open one"
    );

    let so_far = galloper(&["audit", archive.to_str().unwrap()]);
    assert_eq!(
        so_far.status.code(),
        Some(3),
        "galloper audit of the game in progress passes so far: {}",
        String::from_utf8_lossy(&so_far.stderr)
    );
    let cli = String::from_utf8_lossy(&so_far.stdout).into_owned();
    let cli_summary = cli.lines().last().unwrap_or_default().to_string();
    assert!(
        cli_summary.starts_with(
            "AUDIT PASSED SO FAR: a game in progress, not over: 3 step(s) resolved, step 4 open"
        ),
        "{cli}"
    );
    let site = work.join("site");
    ok(
        "galloper site of the game in progress",
        &galloper(&[
            "site",
            archive.to_str().unwrap(),
            "--out",
            site.to_str().unwrap(),
        ]),
    );
    // Nothing of the secrets in any file of the site (its steps' scripts
    // included).
    for p in files_under(&site) {
        {
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            for x in &secrets {
                assert!(
                    !text.contains(x.as_str()),
                    "{} carries a secret: {x}",
                    p.display()
                );
            }
        }
    }
    let public_dice: Vec<usize> = (1..=3)
        .map(|n| {
            let text =
                std::fs::read_to_string(archive.join(format!("step-{n:04}/dice.yaml"))).unwrap();
            let dice: serde_json::Value = galloper::yaml::from_str(&text).unwrap();
            dice.as_array().map_or(0, Vec::len)
        })
        .collect();
    let verdicts = browse(
        &browser,
        serde_json::json!({
            "index": site.join("index.html"),
            "shots": work.join("shots"),
            "pages": [{
                "file": site.join(format!("{game}.html")),
                "game": game,
                "steps": 3,
                "expect": "pass",
                "running": {"public_dice": public_dice, "secrets": secrets},
            }],
        }),
        &work,
    );
    assert_eq!(verdicts.len(), 1);
    assert_eq!(verdicts[0].verdict, "pass", "{}", verdicts[0].summary);
    assert!(
        verdicts[0].summary.starts_with(&cli_summary),
        "the page's verdict is galloper audit's: {} / {cli_summary}",
        verdicts[0].summary
    );
}

/// `galloper site` run with its peak memory (the child's maxrss, KiB).
/// (Reaped by `wait4`, which std's `Child` does not see.)
#[allow(clippy::zombie_processes)]
fn site_with_peak(args: &[&str]) -> (Output, u64) {
    let dir = tempfile::tempdir().unwrap();
    let (o, e) = (dir.path().join("out"), dir.path().join("err"));
    let child = Command::new(env!("CARGO_BIN_EXE_galloper"))
        .arg("site")
        .args(args)
        .stdout(std::fs::File::create(&o).unwrap())
        .stderr(std::fs::File::create(&e).unwrap())
        .spawn()
        .expect("galloper runs");
    let mut status = 0;
    // SAFETY: a zeroed rusage is valid, and wait4 reaps our own child
    // (std's Child is dropped without waiting for it).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t, "waited for galloper site");
    use std::os::unix::process::ExitStatusExt;
    let out = Output {
        status: std::process::ExitStatus::from_raw(status),
        stdout: std::fs::read(&o).unwrap(),
        stderr: std::fs::read(&e).unwrap(),
    };
    (out, usage.ru_maxrss as u64)
}

/// Issue 31, item 11: a game's page opens with its first step in under
/// 2 MB (the page, its scripts and style, and step 1's script), each other
/// step is a script of its own, the maps' PNGs wait in scripts the audit
/// alone loads (base64), and the whole game is at most twice its archive;
/// no file grows with the number of steps beyond the step's own data.
/// Item 7: memory is a step's, not the archive's: an archive made 58 MB
/// bigger (3 MB of extra bytes in each step) is made into a site in less
/// memory than the archive's size, where holding it all (as hex, as the
/// site once did) takes several times it.
#[test]
fn a_games_page_opens_with_its_first_step_under_2_mb_and_the_site_is_at_most_twice_its_archive() {
    let work = tempfile::tempdir().unwrap();
    let demo = work.path().join("demo");
    ok(
        "galloper demo --battle",
        &galloper(&["demo", "--battle", "--out", demo.to_str().unwrap()]),
    );
    let game = "hollowbrook-battle";
    let archive = demo.join("server/archive").join(game);
    let site = work.path().join("site");
    ok(
        "galloper site",
        &galloper(&[
            "site",
            archive.to_str().unwrap(),
            "--out",
            site.to_str().unwrap(),
        ]),
    );
    let size = |p: &Path| std::fs::metadata(p).unwrap().len();
    let page = site.join(format!("{game}.html"));
    let dir = site.join("games").join(game);
    let assets = bytes_under(&site.join("assets"))
        - size(&site.join("assets/LICENSES/noble-hashes.LICENSE"))
        - size(&site.join("assets/LICENSES/noble-ciphers.LICENSE"))
        - size(&site.join("assets/LICENSES/noble-curves.LICENSE"))
        - size(&site.join("assets/LICENSES/yaml.LICENSE"));
    let first = size(&page) + size(&dir.join("step-0001.js")) + assets;
    assert!(
        first < 2 << 20,
        "the page with its first step is {first} bytes, more than 2 MB"
    );
    let n = steps(&archive);
    assert!(n > 10, "a long enough game: {n} steps");
    let html = std::fs::read_to_string(&page).unwrap();
    let step_bytes = |k: u32| -> u64 {
        let mut b = 0;
        for d in [
            archive.join(format!("step-{k:04}")),
            archive.join(format!("sealed/step-{k:04}")),
        ] {
            if d.is_dir() {
                b += bytes_under(&d);
            }
        }
        b
    };
    for k in 1..=n {
        let script = dir.join(format!("step-{k:04}.js"));
        let text = std::fs::read_to_string(&script).unwrap();
        assert!(
            text.starts_with("GalloperStep({") && !text.contains('<'),
            "step {k}: a script of its own, no `<` in it"
        );
        assert!(
            !html.contains(&format!("step-{k:04}/")),
            "step {k}'s files are not in the page"
        );
        let dice = std::fs::read_to_string(archive.join(format!("step-{k:04}/dice.yaml"))).unwrap();
        assert!(
            text.contains(
                &serde_json::to_string(&dice)
                    .unwrap()
                    .replace('<', "\\u003c")
            ),
            "step {k}'s script carries its dice file as it is"
        );
        // A step's scripts are its own data: text as JSON with its map
        // drawn (some KB), the PNG in base64 (4/3) apart.
        let png = size(&archive.join(format!("step-{k:04}/map.png")));
        let files = size(&dir.join(format!("files-{k:04}.js")));
        assert!(
            files <= png * 4 / 3 + 256,
            "step {k}: the PNG's script is {files} bytes for a {png}-byte PNG"
        );
        let own = step_bytes(k) - png;
        assert!(
            size(&script) <= 3 * own + (64 << 10),
            "step {k}: its script is {} bytes for {own} bytes of text",
            size(&script)
        );
        assert!(
            !text.contains(&format!("step-{:04}/", k + 1)),
            "step {k}'s script carries no other step's file"
        );
    }
    let game_bytes = bytes_under(&archive) - (1..=n).map(step_bytes).sum::<u64>();
    assert!(
        size(&page) <= 64 * 1024 + 2 * game_bytes,
        "the page is {} bytes: it carries the game's own files ({game_bytes} bytes), not its steps'",
        size(&page)
    );
    let total = size(&page) + bytes_under(&dir);
    let archive_bytes = bytes_under(&archive);
    assert!(
        total <= 2 * archive_bytes,
        "the game's site is {total} bytes for a {archive_bytes}-byte archive"
    );

    // The same archive with 3 MB more in each step: the site's memory
    // stays below the archive's size.
    let big = work.path().join("big").join(game);
    copy_dir(&archive, &big);
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for k in 1..=n {
        let bytes: Vec<u8> = (0..3_000_000)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed as u8
            })
            .collect();
        std::fs::write(big.join(format!("step-{k:04}/extra.bin")), bytes).unwrap();
    }
    let big_bytes = bytes_under(&big);
    let big_site = work.path().join("big-site");
    let (out, peak_kib) =
        site_with_peak(&[big.to_str().unwrap(), "--out", big_site.to_str().unwrap()]);
    ok("galloper site on the bigger archive", &out);
    assert!(
        peak_kib * 1024 < big_bytes,
        "galloper site took {peak_kib} KiB for a {big_bytes}-byte archive: more than the archive"
    );
    let big_total =
        bytes_under(&big_site.join("games")) + size(&big_site.join(format!("{game}.html")));
    assert!(
        big_total <= 2 * big_bytes,
        "{big_total} bytes of site for a {big_bytes}-byte archive"
    );
}

/// Issue 31, item 7: `galloper site` reads no file through a link (a link
/// in the archive, to a file or a folder, is refused before anything is
/// read, and nothing of what it names reaches the site), and writes nothing
/// outside `--out`: a link planted there as a file (`index.html`, a page, a
/// step's script) is replaced by the file, the file it named left as it
/// was; a link planted as a folder (`assets`, `games`) is refused, with the
/// operator told what to do, and nothing written where it points.
#[test]
fn links_in_the_archive_are_refused_and_links_planted_in_out_are_not_followed() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let demo = w.join("demo");
    ok(
        "galloper demo",
        &galloper(&["demo", "--out", demo.to_str().unwrap()]),
    );
    let game = "hollowbrook-demo";
    let archive = demo.join("server/archive").join(game);
    let marker = "A SECRET OUTSIDE THE ARCHIVE";
    let outside = w.join("outside");
    std::fs::create_dir_all(outside.join("step")).unwrap();
    std::fs::write(outside.join("secret.yaml"), format!("x: {marker}\n")).unwrap();
    copy_dir(&archive.join("step-0002"), &outside.join("step"));
    std::fs::write(outside.join("step/view.yaml"), format!("x: {marker}\n")).unwrap();

    // A link in the archive: to a file, then to a folder.
    type Plant = fn(&Path, &Path);
    let cases: [(&str, Plant); 2] = [
        ("a file", |a: &Path, o: &Path| {
            std::fs::remove_file(a.join("step-0002/view.yaml")).unwrap();
            std::os::unix::fs::symlink(o.join("secret.yaml"), a.join("step-0002/view.yaml"))
                .unwrap();
        }),
        ("a folder", |a: &Path, o: &Path| {
            std::fs::remove_dir_all(a.join("step-0002")).unwrap();
            std::os::unix::fs::symlink(o.join("step"), a.join("step-0002")).unwrap();
        }),
    ];
    for (what, plant) in cases {
        let copy = w
            .join(format!("linked-{}", what.replace(' ', "-")))
            .join(game);
        copy_dir(&archive, &copy);
        plant(&copy, &outside);
        let out = w.join(format!("site-linked-{}", what.replace(' ', "-")));
        let made = galloper(&[
            "site",
            copy.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        let said = String::from_utf8_lossy(&made.stderr);
        assert!(
            !made.status.success() && said.contains("step-0002") && said.contains("a link?"),
            "a link to {what} in the archive is refused, named: {said}"
        );
        for p in files_under(&out) {
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            assert!(
                !text.contains(marker),
                "{} carries what the link named",
                p.display()
            );
        }
    }

    // Links planted in --out.
    let out = w.join("site");
    let victim = w.join("victim.html");
    std::fs::write(&victim, "the victim's own").unwrap();
    let elsewhere = w.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::create_dir_all(out.join("games")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, out.join("assets")).unwrap();
    let made = galloper(&[
        "site",
        archive.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let said = String::from_utf8_lossy(&made.stderr);
    assert!(
        !made.status.success()
            && said.contains("assets is a link where the site needs a folder")
            && said.contains("remove it"),
        "a link planted as a folder is refused, and the operator told what to do: {said}"
    );
    std::fs::remove_file(out.join("assets")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, out.join("games").join(game)).unwrap();
    let made = galloper(&[
        "site",
        archive.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        !made.status.success(),
        "a link planted as a game's folder is refused"
    );
    assert_eq!(
        std::fs::read_dir(&elsewhere).unwrap().count(),
        0,
        "nothing written where the planted folders point"
    );
    std::fs::remove_file(out.join("games").join(game)).unwrap();
    std::fs::create_dir_all(out.join("games").join(game)).unwrap();
    std::fs::create_dir_all(out.join("assets")).unwrap();
    let planted = [
        "index.html".to_string(),
        format!("{game}.html"),
        format!("games/{game}/step-0001.js"),
        format!("games/{game}/files-0001.js"),
        "assets/site.css".to_string(),
    ];
    for p in &planted {
        // (assets/ was written by the run refused at the game's folder.)
        let _ = std::fs::remove_file(out.join(p));
        std::os::unix::fs::symlink(&victim, out.join(p)).unwrap();
    }
    ok(
        "galloper site over planted links",
        &galloper(&[
            "site",
            archive.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]),
    );
    assert_eq!(
        std::fs::read_to_string(&victim).unwrap(),
        "the victim's own",
        "no file written through a planted link"
    );
    for p in &planted {
        let m = std::fs::symlink_metadata(out.join(p)).unwrap();
        assert!(
            m.is_file(),
            "{p}: the planted link is replaced by the site's file"
        );
    }
    assert!(
        files_under(&out).iter().all(|p| !p
            .file_name()
            .unwrap()
            .to_string_lossy()
            .ends_with(".tmp")),
        "no temporary file left"
    );
}

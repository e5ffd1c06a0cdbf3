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
//! A game in progress (Crowther-Dougan stopped after three steps) shows its
//! public steps only, with none of the server's unrevealed secrets, and its
//! page audits it "so far" as the command line does. Screenshots of the
//! index, a game page and a phone-sized page are kept in
//! `target/site-shots/`.
//!
//! Needs node, npm and chromium (`.ci/run` installs them); the npm packages
//! of `tests/browser/` are installed with `npm ci` when missing.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn galloper(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_galloper"))
        .args(args)
        .output()
        .expect("galloper runs")
}

fn ok(what: &str, out: &Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{what} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The browser tests' npm packages, installed from the lock file once.
fn node_ready() -> PathBuf {
    let dir = root().join("tests/browser");
    let node = Command::new("node").arg("--version").output();
    assert!(
        node.is_ok_and(|o| o.status.success()),
        "node is needed for the browser test: apt-get install nodejs npm chromium (.ci/run does)"
    );
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    assert!(
        Path::new(&chromium).exists(),
        "{chromium} is missing: apt-get install chromium (.ci/run does), or set CHROMIUM"
    );
    if !dir.join("node_modules/playwright-core").is_dir() {
        let out = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&dir)
            .output()
            .expect("npm runs");
        ok("npm ci in tests/browser", &out);
    }
    dir
}

/// Resolved steps of an archive: its `step-NNNN/manifest.yaml` files.
fn steps(archive: &Path) -> u32 {
    (1..)
        .take_while(|n| archive.join(format!("step-{n:04}/manifest.yaml")).exists())
        .count() as u32
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
fn re_sign_with_a_forgers_key(archive: &Path, last: u32) {
    use galloper::game::archive::{EndFile, GameFile, Manifest, Notice, sha256_hex};
    let key = galloper::sig::keygen("forger").unwrap();
    let read = |p: &Path| std::fs::read_to_string(p).unwrap();
    let sign = |p: &Path| {
        let bytes = std::fs::read(p).unwrap();
        let sig = galloper::sig::sign(
            &key.private_openssh,
            galloper::sig::REPORT_NAMESPACE,
            &bytes,
        )
        .unwrap();
        std::fs::write(format!("{}.sig", p.display()), sig).unwrap();
    };
    // Each file signed as soon as it is written: a manifest lists the
    // signature of its notice.
    let write = |p: &Path, t: String| {
        std::fs::write(p, t).unwrap();
        sign(p);
    };
    let mut game: GameFile = galloper::yaml::from_str(&read(&archive.join("game.yaml"))).unwrap();
    game.server_key = key.public_line.clone();
    write(
        &archive.join("game.yaml"),
        galloper::yaml::to_string(&game).unwrap(),
    );
    let mut prev = archive.join("game.yaml");
    for step in 1..=last {
        let dir = archive.join(format!("step-{step:04}"));
        let mut notice: Notice = galloper::yaml::from_str(&read(&dir.join("notice.yaml"))).unwrap();
        notice.follows = sha256_hex(read(&prev).as_bytes());
        write(
            &dir.join("notice.yaml"),
            galloper::yaml::to_string(&notice).unwrap(),
        );
        let mut m: Manifest = galloper::yaml::from_str(&read(&dir.join("manifest.yaml"))).unwrap();
        for (name, hash) in m.files.iter_mut() {
            *hash = sha256_hex(&std::fs::read(dir.join(name)).unwrap());
        }
        write(
            &dir.join("manifest.yaml"),
            galloper::yaml::to_string(&m).unwrap(),
        );
        prev = dir.join("manifest.yaml");
    }
    let mut end: EndFile = galloper::yaml::from_str(&read(&archive.join("end.yaml"))).unwrap();
    end.last_link = sha256_hex(read(&prev).as_bytes());
    write(
        &archive.join("end.yaml"),
        galloper::yaml::to_string(&end).unwrap(),
    );
    let mut stack = vec![archive.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if let Some(signed) = p.to_str().and_then(|s| s.strip_suffix(".sig")) {
                // The rest (the sealed manifests); signing is deterministic,
                // so the files signed above come out the same.
                sign(Path::new(signed));
            }
        }
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

/// A change made to an archive's copy at a step.
type Tamper = fn(&Path, u32);

struct PageVerdict {
    game: String,
    verdict: String,
    step: Option<u32>,
    summary: String,
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
        })
        .collect()
}

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
    re_sign_with_a_forgers_key(&bad, steps(&bad));
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
    assert_eq!(
        verdicts[0].summary.trim(),
        said.trim(),
        "the page's verdict is galloper audit's, word for word"
    );

    // Three more tampers, each on a fresh copy of the battle: a state and
    // an orders file changed in what was sealed, and a step removed. Both
    // audits fail, and name the same step.
    let mid = steps(archive) / 2;
    let tampers: [(&str, Tamper); 3] = [
        ("state", |a: &Path, step: u32| {
            change_first(a, &format!("sealed/step-{step:04}/state.yaml"), ":", ": ")
        }),
        ("orders", |a: &Path, step: u32| {
            let file = sealed_orders(a, step);
            let text = std::fs::read_to_string(a.join(&file)).unwrap();
            std::fs::write(a.join(&file), format!("{text}# one line more\n")).unwrap();
        }),
        ("removed", |a: &Path, step: u32| {
            std::fs::remove_dir_all(a.join(format!("step-{step:04}"))).unwrap();
            std::fs::remove_dir_all(a.join(format!("sealed/step-{step:04}"))).unwrap();
        }),
    ];
    let mut pages = Vec::new();
    let mut cli_steps = Vec::new();
    for (name, tamper) in &tampers {
        let copy = work.join(format!("tamper-{name}")).join(game);
        copy_dir(archive, &copy);
        tamper(&copy, mid);
        let cli = galloper(&["audit", copy.to_str().unwrap()]);
        let said = String::from_utf8_lossy(&cli.stderr).into_owned();
        assert!(
            !cli.status.success(),
            "galloper audit refuses the {name} tamper"
        );
        let at = named_step(&said).unwrap_or_else(|| {
            panic!("galloper audit names no step for the {name} tamper: {said}")
        });
        assert!(
            (mid..=mid + 1).contains(&at),
            "the {name} tamper at step {mid} is found there (or, removed, at the step after): {said}"
        );
        let tsite = work.join(format!("site-tamper-{name}"));
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
            "expect": {"fail": at},
        }));
        cli_steps.push((name, at, said));
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
    for (v, (name, at, said)) in verdicts.iter().zip(&cli_steps) {
        assert_eq!(v.verdict, "fail", "{name}: {}", v.summary);
        assert_eq!(
            v.step,
            Some(*at),
            "{name}: the page names step {at} as galloper audit does: {} / {said}",
            v.summary
        );
    }
}

/// The server's unrevealed secrets of a game in progress: every resolved
/// step's hidden secret, the open step's secrets, and the text of every
/// event not shown to all.
fn unrevealed(server: &Path, game: &str) -> Vec<String> {
    let server = galloper::game::Server::open(server).unwrap();
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
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && said.contains("did not end within 3 steps"),
        "the demo stops in progress: {said}"
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
    // Nothing of the secrets in any file of the site.
    for e in std::fs::read_dir(&site).unwrap() {
        let p = e.unwrap().path();
        if p.is_file() {
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

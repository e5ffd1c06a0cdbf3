//! Issue 18: `galloper site` over the archives of the three demo games
//! (Maurice Lite's battle, Morschauser's and the Napoleonic corps demo),
//! driven end to end in headless Chromium (Debian's `chromium` through
//! playwright-core, `tests/browser/site.mjs`): each page steps through its
//! game, the map and events follow the step, a unit can be followed, and
//! the in-browser audit passes, as `galloper audit` does. Then one die is
//! changed in a copy of the battle's archive: `galloper audit` fails naming
//! that step, and so does the rebuilt page. Screenshots of the index, a game
//! page and a phone-sized page are kept in `target/site-shots/`.
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
    let demos: [(&[&str], &str, &str); 3] = [
        (&["--battle"], "battle", "hollowbrook-battle"),
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

    // The site of the three games.
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
            "shots": shots,
            "pages": pages,
            "phone": true,
        }),
        &work,
    );
    assert_eq!(verdicts.len(), 3, "a verdict read on each page");
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
}

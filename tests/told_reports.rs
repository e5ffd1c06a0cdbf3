//! Every report of every side and step of each ruleset's demo tells each
//! event in its ruleset's own words, each die beneath it with what it was
//! for and what it needed (issue 27). The reports folder's text and HTML are
//! read as a player reads them; the site shows the archive's public events,
//! so the public report's lines are those events' words too.

use galloper::dice::{DieRecord, StreamKind};
use galloper::event::Event;
use galloper::event::Visibility;
use galloper::side::SideId;
use galloper::view::Viewer;
use std::path::{Path, PathBuf};

struct Demo {
    _tmp: tempfile::TempDir,
    /// The archive of the demo's one game.
    archive: PathBuf,
    /// The reports folder of that game: `step-NNNN/READER/`.
    reports: PathBuf,
}

fn demo(ruleset: &str, battle: bool) -> Demo {
    let tmp = tempfile::tempdir().expect("tmp");
    let out = tmp.path().join("demo");
    let args = galloper::demo::DemoArgs {
        out: out.clone(),
        max_steps: 400,
        battle,
        ruleset: ruleset.into(),
    };
    galloper::demo::run(&args).expect("demo runs");
    let only = |dir: PathBuf| {
        std::fs::read_dir(&dir)
            .expect("folder")
            .map(|e| e.expect("entry").path())
            .find(|p| p.is_dir())
            .expect("one game")
    };
    Demo {
        archive: only(out.join("server/archive")),
        reports: only(out.join("reports")),
        _tmp: tmp,
    }
}

fn yaml<T: serde::de::DeserializeOwned>(path: &Path) -> T {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    galloper::yaml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Text with runs of white space made one space, as a reader's eye joins
/// wrapped lines.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What a browser shows of an HTML page, flattened.
fn shown(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(' ');
            }
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    let out = out
        .replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    flat(&out)
}

/// Find each of `parts` in `text`, in order; the first one missing.
fn in_order<'a>(text: &str, parts: &[&'a str]) -> Result<(), &'a str> {
    let mut at = 0;
    for p in parts {
        match text[at..].find(p) {
            Some(i) => at += i + p.len(),
            None => return Err(p),
        }
    }
    Ok(())
}

/// Whether a die's line says what it needed: where its event has a score
/// to reach, that number stands in the line or the die's purpose, or the
/// purpose says what the dice themselves need (a modified total's 7+ is a
/// roll of 8+ with -1).
fn says_need(e: Option<&Event>, line: &str, purpose: &str) -> bool {
    let Some(n) = e.and_then(|e| e.facts.needed) else {
        return true;
    };
    let n = n.to_string();
    line.contains(&n)
        || purpose.contains(&n)
        || ["needs ", "needing ", "hits on ", "under "]
            .iter()
            .any(|w| purpose.contains(w))
}

fn reader(name: &str) -> Viewer {
    match name {
        "public" => Viewer::Public,
        side => Viewer::Side(SideId(side.into())),
    }
}

/// Every report of the demo against its ruleset's telling of the step.
/// `grouped` says whether the ruleset joins events into lines of its own
/// (Maurice Lite's volleys); any other line must be an event's own words.
fn check_demo(ruleset: &str, battle: bool, grouped: bool) {
    let d = demo(ruleset, battle);
    let rules = galloper::rulesets::by_name(ruleset).expect("registered");
    let mut steps: Vec<PathBuf> = std::fs::read_dir(&d.reports)
        .expect("reports")
        .map(|e| e.expect("entry").path())
        .collect();
    steps.sort();
    let (mut lines_checked, mut dice_checked) = (0, 0);
    for step_dir in &steps {
        let step = step_dir.file_name().unwrap().to_string_lossy().into_owned();
        let sealed = d.archive.join("sealed").join(&step);
        let events: Vec<Event> = yaml(&sealed.join("events.yaml"));
        let dice: Vec<DieRecord> = yaml(&sealed.join("dice.yaml"));
        let public: Vec<Event> = yaml(&d.archive.join(&step).join("events.yaml"));
        // An event both sides read rolls its dice on the public stream, so
        // anyone can check them while the game runs (issue 28, item 1).
        for e in events.iter().filter(|e| e.visibility == Visibility::Public) {
            for i in &e.dice {
                assert!(
                    dice.get(*i).is_some_and(|d| d.stream == StreamKind::Public),
                    "{ruleset} {step}: the public event {:?} names a hidden die",
                    e.text
                );
            }
        }
        // The umpire's telling (the sealed archive's, read once the game is
        // over) names every die, hidden ones too: each says what it needed.
        // In a game of hidden troops few dice are public, so most dice are
        // checked here.
        for l in rules.tell(&events, &dice, &Viewer::Umpire).lines {
            let event = events.iter().find(|e| e.text == l.text);
            for die in &l.dice {
                assert!(
                    !die.purpose.trim().is_empty() && says_need(event, &l.text, &die.purpose),
                    "{ruleset} {step} umpire: the die {} of {:?} does not say what it needed: {:?}",
                    die.position,
                    l.text,
                    die.purpose
                );
                dice_checked += 1;
            }
        }
        for r in std::fs::read_dir(step_dir).expect("readers") {
            let r = r.expect("reader").path();
            let name = r.file_name().unwrap().to_string_lossy().into_owned();
            let viewer = reader(&name);
            let told = rules.tell(&events, &dice, &viewer);
            if viewer == Viewer::Public {
                // The site tells the archive's public events with the same
                // ruleset: the same lines as the public report.
                let public_dice: Vec<DieRecord> = yaml::<Vec<galloper::archive::ArchivedDie>>(
                    &d.archive.join(&step).join("dice.yaml"),
                )
                .into_iter()
                .map(|a| a.die)
                .collect();
                let site = rules.tell(&public, &public_dice, &viewer);
                assert_eq!(
                    site.lines, told.lines,
                    "{ruleset} {step}: site and public report"
                );
            }
            let txt = std::fs::read_to_string(r.join("report.txt")).expect("report.txt");
            if matches!(viewer, Viewer::Side(_)) {
                // The enemy is listed once: in "The enemy as you see him".
                for other in ["\nUnits on the table\n", "\nEnemy seen\n"] {
                    assert!(!txt.contains(other), "{ruleset} {step} {name}: {other:?}");
                }
            }
            let txt = flat(txt.split("What happened").nth(1).unwrap_or(""));
            let html = shown(&std::fs::read_to_string(r.join("report.html")).expect("report.html"));
            let where_ = format!("{ruleset} {step} {name}");
            for l in &told.lines {
                let own = events
                    .iter()
                    .any(|e| e.visible_to(&viewer) && e.text == l.text);
                assert!(
                    own || grouped,
                    "{where_}: {:?} is no event's own words",
                    l.text
                );
                if viewer == Viewer::Public && own {
                    // The site lists the public events' own words.
                    assert!(
                        public.iter().any(|e| e.text == l.text),
                        "{where_}: {:?} is not among the archive's public events",
                        l.text
                    );
                }
                let text = flat(&l.text);
                let mut parts = vec![text.as_str()];
                let mut purposes: Vec<String> = l.dice.iter().map(|d| flat(&d.purpose)).collect();
                // A run of dice for one purpose is laid out as one line.
                purposes.dedup();
                parts.extend(purposes.iter().map(String::as_str));
                if let Err(missing) = in_order(&txt, &parts) {
                    panic!("{where_}: report.txt lacks {missing:?}");
                }
                if let Err(missing) = in_order(&html, &parts) {
                    panic!("{where_}: report.html lacks {missing:?}");
                }
                let event = events.iter().find(|e| e.text == l.text);
                for die in &l.dice {
                    assert!(
                        !die.purpose.trim().is_empty() && says_need(event, &l.text, &die.purpose),
                        "{where_}: the die {} of {:?} does not say what it needed: {:?}",
                        die.position,
                        l.text,
                        die.purpose
                    );
                    dice_checked += 1;
                }
                lines_checked += 1;
            }
            // The lines come in the order the events happened.
            let texts: Vec<String> = told.lines.iter().map(|l| flat(&l.text)).collect();
            let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
            assert!(in_order(&txt, &texts).is_ok(), "{where_}: out of order");
        }
    }
    // Every map of the game explains the same letters (item 5).
    let keys: Vec<Vec<galloper::view::Letter>> = steps
        .iter()
        .map(|s| {
            let step = s.file_name().unwrap().to_string_lossy().into_owned();
            yaml::<galloper::archive::PublicView>(&d.archive.join(step).join("view.yaml"))
                .map
                .letters
        })
        .collect();
    assert!(
        !keys[0].is_empty(),
        "{ruleset}: no key to the map's letters"
    );
    assert!(
        keys.iter().all(|k| *k == keys[0]),
        "{ruleset}: the key changes"
    );
    assert!(lines_checked > 50, "{ruleset}: {lines_checked} lines");
    if ruleset == "crowther-dougan" {
        routs_follow_their_tests(&d.archive);
    }
    assert!(dice_checked > 10, "{ruleset}: {dice_checked} dice");
}

/// A rout is told after the morale test that caused it (issue 27, item 7).
/// Whether a game has a rout depends on its dice (fresh entropy each run);
/// the ruleset's own test scripts one.
fn routs_follow_their_tests(archive: &Path) {
    for e in std::fs::read_dir(archive.join("sealed")).expect("sealed") {
        let step = e.expect("step").path();
        let Ok(text) = std::fs::read_to_string(step.join("events.yaml")) else {
            continue;
        };
        let events: Vec<Event> = galloper::yaml::from_str(&text).expect("events");
        for (i, e) in events.iter().enumerate() {
            let failed = e.what == "morale" && e.facts.result.as_deref() == Some("fails: routs");
            let Some(u) = e.facts.unit.as_ref().filter(|_| failed) else {
                continue;
            };
            let rout = events.iter().position(|r| {
                r.what == "rout" && r.facts.unit.as_ref().is_some_and(|x| x.id == u.id)
            });
            if let Some(r) = rout {
                assert!(
                    r > i,
                    "{}: the rout of {} is told before its test",
                    step.display(),
                    u.id
                );
            }
        }
    }
}

#[test]
fn maurice_lite_reports_tell_its_events_and_dice() {
    check_demo("maurice-lite", true, true);
}

#[test]
fn morschauser_reports_tell_its_events_and_dice() {
    check_demo("morschauser-macduff", false, false);
}

#[test]
fn napoleonic_corps_reports_tell_its_events_and_dice() {
    check_demo("napoleonic-corps", false, false);
}

#[test]
fn activation_dice_reports_tell_its_events_and_dice() {
    check_demo("activation-dice", false, false);
}

#[test]
fn crowther_dougan_reports_tell_its_events_and_dice() {
    check_demo("crowther-dougan", false, false);
}

/// No ruleset's name or measure in the core's reports: the generic layout
/// only (issue 27). Test modules may name a ruleset to build a game.
#[test]
fn the_core_of_reports_names_no_ruleset_and_no_measure() {
    let words = [
        "maurice",
        "morschauser",
        "napoleonic",
        "activation-dice",
        "activation_dice",
        "crowther",
        "DISR",
        "chips",
        " SP",
    ];
    let mut files = Vec::new();
    for root in [
        "src/server",
        "src/archive",
        "src/audit",
        "src/render",
        "templates",
    ] {
        collect(Path::new(env!("CARGO_MANIFEST_DIR")).join(root), &mut files);
    }
    files.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/view.rs"));
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for (i, line) in code.lines().enumerate() {
            for w in words {
                let hit = if w.chars().any(|c| c.is_ascii_uppercase()) {
                    line.contains(w)
                } else {
                    line.to_ascii_lowercase().contains(w)
                };
                if hit {
                    found.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

fn collect(dir: PathBuf, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(p, out);
        } else {
            out.push(p);
        }
    }
}

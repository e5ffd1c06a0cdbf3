//! The house's boundaries, read from the source: a folder or file that
//! must not import another fails here when it does (issue 33). Each rule
//! says why it holds.

use std::path::{Path, PathBuf};

fn sources(under: &Path) -> Vec<PathBuf> {
    if under.is_file() {
        return vec![under.to_path_buf()];
    }
    let mut out = Vec::new();
    let mut dirs = vec![under.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out
}

/// Every `file:line` under `from` that names one of `forbidden`.
fn imports(from: &str, forbidden: &[&str]) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for file in sources(&root.join(from)) {
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for f in forbidden {
                if line.contains(f) {
                    found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                }
            }
        }
    }
    found
}

/// The command line dispatches to `demo` and `sandbox`; they never reach
/// back into it (what the three share sits below them).
#[test]
fn the_commands_do_not_import_each_other() {
    let mut found = imports("demo", &["crate::cli", "crate::sandbox"]);
    found.extend(imports("sandbox.rs", &["crate::cli", "crate::demo"]));
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The enemy list is part of the view: one folder, no module outside it
/// named `enemy` for the view to go round through.
#[test]
fn the_enemy_list_lives_in_the_view() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    assert!(!root.join("enemy.rs").exists());
    assert!(imports("view", &["crate::enemy"]).is_empty());
}

/// A ruleset imports nothing of the server, the daemon, the mail or the
/// site: rules are a pure function of state, orders and dice.
#[test]
fn rulesets_import_nothing_of_the_server() {
    let found = imports(
        "rulesets",
        &[
            "crate::game",
            "crate::daemon",
            "crate::mail",
            "crate::site",
            "crate::cli",
        ],
    );
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The server (games, store, life, reports) does not import the daemon
/// that drives it: mail formatting such as dates lives under `mail/`.
#[test]
fn the_server_does_not_import_the_daemon() {
    let found = imports("game", &["crate::daemon"]);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

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
            "crate::server",
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
    let found = imports("server", &["crate::daemon"]);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The audit reads a public archive folder and the rules engine, nothing
/// of the server: a third party runs it with no store, and a replay takes
/// the archive's own inputs of a step (`archive::inputs`), not store rows.
#[test]
fn the_audit_imports_nothing_of_the_server() {
    let found = imports(
        "audit",
        &[
            "crate::server",
            "crate::daemon",
            "crate::mail",
            "crate::cli",
        ],
    );
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The archive is file formats, the chain, writing and reading, and a
/// beacon round's file: it imports neither the server that writes it nor
/// the audit that checks it.
#[test]
fn the_archive_imports_neither_the_server_nor_the_audit() {
    let found = imports(
        "archive",
        &[
            "crate::server",
            "crate::audit",
            "crate::daemon",
            "crate::mail",
            "crate::cli",
        ],
    );
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// Whether `file` is a module its folder's `mod.rs` declares under
/// `#[cfg(test)]` (a test file beside the code).
fn test_only(file: &Path) -> bool {
    let Some(stem) = file.file_stem().and_then(|s| s.to_str()) else {
        return false;
    };
    let Some(dir) = file.parent() else {
        return false;
    };
    // Declared by its folder's mod.rs, or by a sibling with `#[path]`.
    let declared = |w: &[&str]| {
        w[0] == "#[cfg(test)]"
            && (w[1] == format!("mod {stem};")
                || w[1] == format!("pub mod {stem};")
                || w[1] == format!("#[path = \"{stem}.rs\"]"))
    };
    sources(dir)
        .iter()
        .filter(|f| f.parent() == Some(dir))
        .any(|f| {
            let text = std::fs::read_to_string(f).unwrap_or_default();
            let lines: Vec<&str> = text.lines().map(str::trim).collect();
            lines.windows(2).any(declared)
        })
}

/// The top-level modules a module's files import (`crate::NAME`, `use
/// super::NAME` from a top-level file).
fn imported_tops(module: &str, tops: &[String]) -> std::collections::BTreeSet<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let path = if root.join(module).is_dir() {
        root.join(module)
    } else {
        root.join(format!("{module}.rs"))
    };
    let mut out = std::collections::BTreeSet::new();
    for file in sources(&path).into_iter().filter(|f| !test_only(f)) {
        let text = std::fs::read_to_string(&file).unwrap();
        // Tests may reach anywhere: the boundaries are the code's.
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
            // `crate::NAME::...`, `crate::NAME;` and each name of a
            // grouped `use crate::{a, b::c}`.
            let mut names: Vec<String> = Vec::new();
            for part in line.split("crate::").skip(1) {
                if let Some(group) = part.strip_prefix('{') {
                    let inner = group.split('}').next().unwrap_or("");
                    names.extend(
                        inner
                            .split(',')
                            .map(|n| n.trim().split("::").next().unwrap_or("").to_string()),
                    );
                } else {
                    let end = part
                        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .unwrap_or(part.len());
                    names.push(part[..end].to_string());
                }
            }
            for n in names {
                if n != module && tops.contains(&n) {
                    out.insert(n);
                }
            }
        }
    }
    out
}

/// No circle between two top-level folders or files: a module that
/// imports another is never imported back by it, directly or round a
/// longer loop. Where two need the same thing, it lives below both.
#[test]
fn no_circle_between_top_level_modules() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut tops: Vec<String> = std::fs::read_dir(&root)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_dir() || p.extension().is_some_and(|x| x == "rs"))
        .filter_map(|p| p.file_stem().and_then(|s| s.to_str()).map(str::to_string))
        .filter(|n| n != "lib" && n != "main")
        .collect();
    tops.sort();
    tops.dedup();
    let graph: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> = tops
        .iter()
        .map(|t| (t.clone(), imported_tops(t, &tops)))
        .collect();
    // Every circle, as the first module's way back to itself.
    let mut circles = Vec::new();
    for start in &tops {
        let mut seen = std::collections::BTreeSet::new();
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        while let Some((at, path)) = stack.pop() {
            for next in &graph[&at] {
                if next == start {
                    circles.push(format!("{} -> {start}", path.join(" -> ")));
                } else if seen.insert(next.clone()) {
                    let mut p = path.clone();
                    p.push(next.clone());
                    stack.push((next.clone(), p));
                }
            }
        }
    }
    assert!(
        circles.is_empty(),
        "{} circles between top-level modules:\n{}",
        circles.len(),
        circles.join("\n")
    );
}

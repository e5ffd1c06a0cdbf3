//! Re-sign an archive after changing its files, as a dishonest server (or
//! a forger with a key of his own) could: every manifest made again from
//! its folder's files, and every signed link of the game's chain rewritten
//! to name its predecessor's new hash and signed again. The audit must
//! still see the change itself.

#![allow(dead_code)]

use galloper::archive::{Manifest, sha256_hex};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Re-sign the whole archive holding `dir` with `key` (the server's
/// private key), after a change in `dir`.
pub fn resign(dir: &Path, key: &str) {
    let root = dir
        .ancestors()
        .find(|d| d.join("game.yaml").exists())
        .expect("an archive folder");
    reforge(root, key, None);
}

/// Re-sign every signed file of the archive at `root` with `key`; with
/// `new_public`, game.yaml first names that key as the server's.
pub fn reforge(root: &Path, key: &str, new_public: Option<&str>) {
    let mut map: BTreeMap<String, String> = BTreeMap::new();
    // game.yaml: the root of the chain.
    let game = root.join("game.yaml");
    let old = std::fs::read_to_string(&game).unwrap();
    let mut text = old.clone();
    if let Some(public) = new_public {
        let line = text
            .lines()
            .find(|l| l.starts_with("server_key:"))
            .unwrap()
            .to_string();
        text = text.replace(&line, &format!("server_key: {public}"));
    }
    sign_file(&game, &text, key);
    map.insert(sha256_hex(old.as_bytes()), sha256_hex(text.as_bytes()));
    // The other links in chain order: each names the one before it.
    let links = links(root);
    let mut by_pred: BTreeMap<String, PathBuf> = BTreeMap::new();
    for (path, pred) in &links {
        by_pred.insert(pred.clone(), path.clone());
    }
    let mut at = sha256_hex(old.as_bytes());
    while let Some(path) = by_pred.get(&at).cloned() {
        let old = std::fs::read_to_string(&path).unwrap();
        let new = if path.file_name().unwrap() == "manifest.yaml" {
            manifest_of(path.parent().unwrap(), &old)
        } else {
            let mut t = old.clone();
            for (o, n) in &map {
                t = t.replace(o.as_str(), n.as_str());
            }
            t
        };
        sign_file(&path, &new, key);
        at = sha256_hex(old.as_bytes());
        map.insert(at.clone(), sha256_hex(new.as_bytes()));
    }
    // Files outside the chain: key changes and the sealed folders.
    for n in 1.. {
        let p = root.join(format!("keys/change-{n:03}.yaml"));
        let Ok(t) = std::fs::read_to_string(&p) else {
            break;
        };
        sign_file(&p, &t, key);
    }
    for m in walk(&root.join("sealed")) {
        if m.file_name().unwrap() == "manifest.yaml" {
            let old = std::fs::read_to_string(&m).unwrap();
            sign_file(&m, &manifest_of(m.parent().unwrap(), &old), key);
        }
    }
}

fn sign_file(path: &Path, text: &str, key: &str) {
    std::fs::write(path, text).unwrap();
    let s = galloper::sig::sign(key, galloper::sig::REPORT_NAMESPACE, text.as_bytes()).unwrap();
    let mut sig = path.as_os_str().to_owned();
    sig.push(".sig");
    std::fs::write(PathBuf::from(sig), s).unwrap();
}

/// The manifest of a folder's files as they are now.
fn manifest_of(dir: &Path, old: &str) -> String {
    let m: Manifest = galloper::yaml::from_str(old).unwrap();
    let files = m
        .files
        .keys()
        .map(|n| (n.clone(), sha256_hex(&std::fs::read(dir.join(n)).unwrap())))
        .collect();
    galloper::yaml::to_string(&Manifest { files }).unwrap()
}

/// Every signed link but game.yaml, with the hash it names as its
/// predecessor.
fn links(root: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for p in walk(root) {
        let rel = p.strip_prefix(root).unwrap();
        if rel.starts_with("sealed") || rel.starts_with("keys") {
            continue;
        }
        let name = p.file_name().unwrap().to_str().unwrap();
        let field = match name {
            "notice.yaml" | "next-notice.yaml" | "rollback.yaml" => "follows",
            "end.yaml" => "last_link",
            "manifest.yaml" => "notice.yaml",
            _ => continue,
        };
        let v: serde_yaml::Value =
            serde_yaml::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
        let pred = if name == "manifest.yaml" {
            v["files"][field].as_str().unwrap().to_string()
        } else {
            v[field].as_str().unwrap().to_string()
        };
        out.push((p, pred));
    }
    out
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

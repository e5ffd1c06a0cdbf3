//! The game's chain: every signed link of the archive names the SHA-256 of
//! the link before it, from `game.yaml` to the last notice or `end.yaml`.
//!
//! - a notice names what it follows (`follows`): `game.yaml`, the previous
//!   step's manifest, or the rollback note of the run it replaces;
//! - a manifest names its step's notice (`notice.yaml` among its files);
//! - a rollback note names the notice it withdrew (`follows`);
//! - `end.yaml` names the last link (`last_link`).
//!
//! The links found in the archive must make one unbroken line: a link
//! whose predecessor is missing, two links after the same one, or two ends
//! fail the audit. So a step, a rollback or the end cannot be removed,
//! added or swapped without the audit saying where.

use super::{Failure, fail, signed};
use crate::archive::{EndFile, GameFile, Manifest, Notice, RollbackNote, sha256_hex};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One signed link, with where it lies (relative to the archive).
#[derive(Clone, Debug)]
pub enum Link {
    Game,
    Notice(PathBuf, Box<Notice>),
    /// A step's folder (or a rolled-back run's) and its manifest.
    Manifest(PathBuf),
    Rollback(PathBuf, RollbackNote),
    End(EndFile),
}

struct Found {
    link: Link,
    path: PathBuf,
    hash: String,
    follows: Option<String>,
}

/// The game's links in the order they were made, and the files they are.
pub struct Chain {
    pub links: Vec<Link>,
    /// Each link's file and its signature, relative to the archive.
    pub files: BTreeSet<PathBuf>,
}

/// The links of the archive in the order they were made, each signed by
/// the server.
pub fn links(
    dir: &Path,
    files: &BTreeSet<PathBuf>,
    game: &GameFile,
    game_bytes: &[u8],
) -> Result<Chain, Failure> {
    let key = game.server_key.as_str();
    let mut found = vec![Found {
        link: Link::Game,
        path: "game.yaml".into(),
        hash: sha256_hex(game_bytes),
        follows: None,
    }];
    for rel in files {
        let Some(kind) = role(rel) else { continue };
        let bytes = signed(&dir.join(rel), key)?;
        let place = rel.display().to_string();
        let parse = |what: &str| {
            let p = place.clone();
            let what = what.to_string();
            move |e: serde_yaml::Error| fail(p, format!("{what} does not parse: {e}"))
        };
        let (link, follows) = match kind {
            Role::Notice => {
                let n: Notice = crate::yaml::from_slice(&bytes).map_err(parse("the notice"))?;
                let f = n.follows.clone();
                (Link::Notice(rel.clone(), Box::new(n)), f)
            }
            Role::Manifest => {
                let m: Manifest = crate::yaml::from_slice(&bytes).map_err(parse("the manifest"))?;
                let f = m.files.get("notice.yaml").cloned().ok_or_else(|| {
                    fail(
                        &place,
                        "the manifest names no notice.yaml: it is outside the chain",
                    )
                })?;
                let folder = rel.parent().map(Path::to_path_buf).unwrap_or_default();
                (Link::Manifest(folder), f)
            }
            Role::Rollback => {
                let r: RollbackNote =
                    crate::yaml::from_slice(&bytes).map_err(parse("rollback.yaml"))?;
                let f = r.follows.clone();
                let folder = rel.parent().map(Path::to_path_buf).unwrap_or_default();
                (Link::Rollback(folder, r), f)
            }
            Role::End => {
                let e: EndFile = crate::yaml::from_slice(&bytes).map_err(parse("end.yaml"))?;
                let f = e.last_link.clone();
                (Link::End(e), f)
            }
        };
        found.push(Found {
            link,
            path: rel.clone(),
            hash: sha256_hex(&bytes),
            follows: Some(follows),
        });
    }
    order(found)
}

enum Role {
    Notice,
    Manifest,
    Rollback,
    End,
}

/// Which link a file is, from where it lies: `end.yaml`,
/// `step-N/{notice,manifest}.yaml`, and in `step-N/rollback-K/` also
/// `rollback.yaml` and `next-notice.yaml`. Anything else is not a link
/// (and is accounted for by a manifest, or reported).
fn role(rel: &Path) -> Option<Role> {
    let parts: Vec<&str> = rel.iter().filter_map(|p| p.to_str()).collect();
    let step_dir = |s: &str| {
        s.strip_prefix("step-")
            .is_some_and(|n| n.len() == 4 && n.bytes().all(|b| b.is_ascii_digit()))
    };
    let run_dir = |s: &str| {
        s.strip_prefix("rollback-")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    match parts.as_slice() {
        ["end.yaml"] => Some(Role::End),
        [s, "notice.yaml"] if step_dir(s) => Some(Role::Notice),
        [s, "manifest.yaml"] if step_dir(s) => Some(Role::Manifest),
        [s, r, "notice.yaml" | "next-notice.yaml"] if step_dir(s) && run_dir(r) => {
            Some(Role::Notice)
        }
        [s, r, "manifest.yaml"] if step_dir(s) && run_dir(r) => Some(Role::Manifest),
        [s, r, "rollback.yaml"] if step_dir(s) && run_dir(r) => Some(Role::Rollback),
        _ => None,
    }
}

/// Put the links in one line from `game.yaml`, or say why they are not one.
fn order(found: Vec<Found>) -> Result<Chain, Failure> {
    let mut by_hash: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, f) in found.iter().enumerate() {
        if let Some(j) = by_hash.insert(&f.hash, i) {
            return Err(fail(
                f.path.display().to_string(),
                format!("the same link as {}: a copy", found[j].path.display()),
            ));
        }
    }
    let mut next: BTreeMap<usize, usize> = BTreeMap::new();
    for (i, f) in found.iter().enumerate() {
        let Some(h) = &f.follows else { continue };
        let Some(&p) = by_hash.get(h.as_str()) else {
            return Err(fail(
                f.path.display().to_string(),
                format!(
                    "follows the signed file with SHA-256 {h}, which is not in the archive: a piece of the game was removed or replaced"
                ),
            ));
        };
        if let Some(other) = next.insert(p, i) {
            return Err(fail(
                f.path.display().to_string(),
                format!(
                    "follows {}, as {} does: the game's chain forks (a piece was added or kept twice)",
                    found[p].path.display(),
                    found[other].path.display()
                ),
            ));
        }
    }
    // From game.yaml forward; with no forks and every predecessor found,
    // a link left over lies on a loop, which SHA-256 does not allow.
    let mut line = vec![0usize];
    while let Some(&n) = next.get(line.last().unwrap_or(&0)) {
        line.push(n);
    }
    if line.len() != found.len() {
        let off: Vec<String> = (0..found.len())
            .filter(|i| !line.contains(i))
            .map(|i| found[i].path.display().to_string())
            .collect();
        return Err(fail(
            off.join(", "),
            "not on the game's chain from game.yaml",
        ));
    }
    let mut named = BTreeSet::new();
    for f in &found {
        named.insert(f.path.clone());
        named.insert(sig_of(&f.path));
    }
    let mut links = Vec::new();
    let mut found: Vec<Option<Found>> = found.into_iter().map(Some).collect();
    for i in line {
        if let Some(f) = found[i].take() {
            links.push(f.link);
        }
    }
    Ok(Chain {
        links,
        files: named,
    })
}

pub fn sig_of(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".sig");
    PathBuf::from(s)
}

/// The folder a notice belongs to must be its step's: `step-N/`,
/// `step-N/rollback-K/` (its own run K), or `step-(N-1)/rollback-K/` as the
/// next step's withdrawn notice. A folder renamed or swapped fails here.
pub fn notice_in_place(path: &Path, n: &Notice) -> bool {
    let parts: Vec<&str> = path.iter().filter_map(|p| p.to_str()).collect();
    let step = format!("step-{:04}", n.step);
    let before = format!("step-{:04}", n.step.saturating_sub(1));
    let run = format!("rollback-{}", n.run);
    match parts.as_slice() {
        [s, "notice.yaml"] => *s == step,
        [s, r, "notice.yaml"] => *s == step && *r == run,
        [s, _, "next-notice.yaml"] => *s == before,
        _ => false,
    }
}

/// The link's own file, for messages.
pub fn describe(link: &Link) -> String {
    match link {
        Link::Game => "game.yaml".into(),
        Link::Notice(p, _) => p.display().to_string(),
        Link::Manifest(d) => d.join("manifest.yaml").display().to_string(),
        Link::Rollback(d, _) => d.join("rollback.yaml").display().to_string(),
        Link::End(_) => "end.yaml".into(),
    }
}

//! An archive's files, read as they are, for the site to carry: the
//! browser audits the bytes the server signed, not anything made from them.
//!
//! The archive is listed first (`list`): every entry is looked at without
//! following it, and a link, a device, a FIFO or a socket is refused before
//! anything is read. Then it is read one part at a time (`Listing::part`:
//! the game's own files, or one step's), so that making a site holds one
//! step in memory, never the whole archive. Each file is opened without
//! following a link and checked once open to be the very plain file the
//! listing saw (same device, inode and size): a file swapped for a link, or
//! a folder above it swapped for one, after the listing is refused, not
//! read through.

use anyhow::{Context, bail};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest file a site carries (the audit's own bound).
const MAX_FILE: u64 = crate::audit::MAX_FILE;
/// The most a site carries in all for one game.
const MAX_TOTAL: u64 = 1 << 30;
/// The most entries an archive may hold (files and folders).
const MAX_ENTRIES: usize = 1_000_000;
/// `step-N/rollback-K/` inside `sealed/` is three folders down.
const MAX_DEPTH: usize = 6;

/// One plain file of the archive, as the listing saw it.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Relative to the archive, `/`-separated.
    pub path: String,
    pub len: u64,
    dev: u64,
    ino: u64,
}

/// Every plain file of an archive, listed without reading any.
#[derive(Debug)]
pub struct Listing {
    pub root: PathBuf,
    /// By path.
    pub entries: Vec<Entry>,
    /// The entries of each part (see [`part_of`]), by their index.
    by_part: BTreeMap<u32, Vec<usize>>,
}

/// Some files of an archive: text as text, anything else as bytes.
#[derive(Debug, Default)]
pub struct Bundle {
    pub text: BTreeMap<String, String>,
    pub binary: BTreeMap<String, Vec<u8>>,
}

impl Bundle {
    pub fn get(&self, path: &str) -> Option<&str> {
        self.text.get(path).map(String::as_str)
    }
}

/// Which part of the site a file goes in: 0 for the game's own files
/// (`game.yaml`, `scenario.yaml`, `keys/`, `end.yaml`, `sealed/start/`),
/// N for `step-NNNN/...` and `sealed/step-NNNN/...` (its runs and rollbacks
/// included).
pub fn part_of(path: &str) -> u32 {
    let rest = path.strip_prefix("sealed/").unwrap_or(path);
    rest.strip_prefix("step-")
        .and_then(|r| r.split_once('/'))
        .filter(|(n, _)| n.len() == 4 && n.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|(n, _)| n.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(0)
}

/// List the archive in `dir`. A link or special file is refused: the audit
/// refuses it too, and a site must not carry what the archive does not hold.
pub fn list(dir: &Path) -> anyhow::Result<Listing> {
    let top = std::fs::symlink_metadata(dir)
        .with_context(|| format!("{}: cannot read the archive", dir.display()))?;
    if !top.is_dir() {
        bail!(
            "{}: not a folder (a link?): name the archive's own folder DATA/archive/GAME",
            dir.display()
        );
    }
    if !std::fs::symlink_metadata(dir.join("game.yaml")).is_ok_and(|m| m.is_file()) {
        bail!(
            "{}: not a game archive (no game.yaml): name the folder DATA/archive/GAME",
            dir.display()
        );
    }
    let mut entries = Vec::new();
    let mut seen = 0usize;
    let mut total = 0u64;
    let mut stack = vec![(String::new(), 0usize)];
    while let Some((rel, depth)) = stack.pop() {
        let here = dir.join(&rel);
        let list =
            std::fs::read_dir(&here).with_context(|| format!("cannot list {}", here.display()))?;
        for e in list {
            let e = e.with_context(|| format!("cannot list {}", here.display()))?;
            seen += 1;
            if seen > MAX_ENTRIES {
                bail!(
                    "{}: more than {MAX_ENTRIES} files and folders: not an archive",
                    dir.display()
                );
            }
            let Some(name) = e.file_name().to_str().map(str::to_string) else {
                bail!("{}: a file name that is not UTF-8", here.display());
            };
            let path = if rel.is_empty() {
                name
            } else {
                format!("{rel}/{name}")
            };
            let full = dir.join(&path);
            let meta = std::fs::symlink_metadata(&full)
                .with_context(|| format!("cannot read {}", full.display()))?;
            if meta.is_dir() {
                if depth + 1 > MAX_DEPTH {
                    bail!("{path}: folders nested deeper than {MAX_DEPTH}: not an archive");
                }
                stack.push((path, depth + 1));
            } else if meta.is_file() {
                if meta.len() > MAX_FILE {
                    bail!(
                        "{}: {} bytes, more than an archive's file may be",
                        full.display(),
                        meta.len()
                    );
                }
                total += meta.len();
                if total > MAX_TOTAL {
                    bail!(
                        "{}: more than {MAX_TOTAL} bytes in all: too big for one site",
                        dir.display()
                    );
                }
                use std::os::unix::fs::MetadataExt;
                entries.push(Entry {
                    path,
                    len: meta.len(),
                    dev: meta.dev(),
                    ino: meta.ino(),
                });
            } else {
                bail!(
                    "{}: neither a file nor a folder (a link?): the audit refuses it, and so does the site, which follows no link",
                    full.display()
                );
            }
        }
    }
    entries.sort_by(|a, b| a.path.cmp(&b.path));
    let mut by_part: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for (i, e) in entries.iter().enumerate() {
        by_part.entry(part_of(&e.path)).or_default().push(i);
    }
    Ok(Listing {
        root: dir.to_path_buf(),
        entries,
        by_part,
    })
}

impl Listing {
    /// The parts that hold any file, in order (0, the game's own, first).
    pub fn parts(&self) -> BTreeSet<u32> {
        self.by_part.keys().copied().collect()
    }

    /// The steps resolved in force: those with `step-NNNN/manifest.yaml`.
    pub fn resolved(&self) -> Vec<u32> {
        self.entries
            .iter()
            .filter_map(|e| {
                let n = e
                    .path
                    .strip_prefix("step-")?
                    .strip_suffix("/manifest.yaml")?;
                (n.len() == 4).then(|| n.parse().ok()).flatten()
            })
            .collect()
    }

    fn entry(&self, path: &str) -> Option<&Entry> {
        self.entries
            .binary_search_by(|e| e.path.as_str().cmp(path))
            .ok()
            .map(|i| &self.entries[i])
    }

    /// One file's text, if the listing holds it and it is UTF-8.
    pub fn text(&self, path: &str) -> anyhow::Result<Option<String>> {
        match self.entry(path) {
            None => Ok(None),
            Some(e) => Ok(String::from_utf8(self.read(e)?).ok()),
        }
    }

    /// Every file of part `n` (see [`part_of`]).
    pub fn part(&self, n: u32) -> anyhow::Result<Bundle> {
        let mut b = Bundle::default();
        for e in self
            .by_part
            .get(&n)
            .into_iter()
            .flatten()
            .map(|i| &self.entries[*i])
        {
            match String::from_utf8(self.read(e)?) {
                Ok(t) => {
                    b.text.insert(e.path.clone(), t);
                }
                Err(x) => {
                    b.binary.insert(e.path.clone(), x.into_bytes());
                }
            }
        }
        Ok(b)
    }

    /// Read one listed file: opened without following a link and without
    /// waiting (a FIFO put there since), and read only if what was opened
    /// is the plain file the listing saw, of the size it saw.
    fn read(&self, e: &Entry) -> anyhow::Result<Vec<u8>> {
        use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
        let full = self.root.join(&e.path);
        let changed = |what: &str| {
            anyhow::anyhow!(
                "{}: {what} since the archive was listed: the site reads no file through a link and no file that changed under it; make the site again from an archive at rest",
                full.display()
            )
        };
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(&full)
            .map_err(|err| match err.raw_os_error() {
                Some(libc::ELOOP) => changed("became a link"),
                _ => anyhow::anyhow!("cannot read {}: {err}", full.display()),
            })?;
        let meta = file
            .metadata()
            .with_context(|| format!("cannot read {}", full.display()))?;
        if !meta.is_file() {
            return Err(changed("became something else than a plain file"));
        }
        if meta.dev() != e.dev || meta.ino() != e.ino {
            return Err(changed(
                "is another file (a folder above it became a link?)",
            ));
        }
        if meta.len() != e.len {
            return Err(changed("changed size"));
        }
        let mut bytes = Vec::with_capacity(e.len as usize);
        file.take(e.len + 1)
            .read_to_end(&mut bytes)
            .with_context(|| format!("cannot read {}", full.display()))?;
        if bytes.len() as u64 != e.len {
            return Err(changed("changed size"));
        }
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_without_game_yaml_is_not_an_archive() {
        let tmp = tempfile::tempdir().unwrap();
        let e = list(tmp.path()).unwrap_err().to_string();
        assert!(e.contains("no game.yaml"), "{e}");
    }

    #[test]
    fn files_go_to_their_steps_part_and_text_and_binary_are_kept_apart() {
        assert_eq!(part_of("game.yaml"), 0);
        assert_eq!(part_of("keys/0001.yaml"), 0);
        assert_eq!(part_of("sealed/start/scenario.yaml"), 0);
        assert_eq!(part_of("step-0012/view.yaml"), 12);
        assert_eq!(part_of("step-0012/rollback-1/view.yaml"), 12);
        assert_eq!(part_of("sealed/step-0012/state.yaml"), 12);
        assert_eq!(part_of("step-12/view.yaml"), 0);
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("game.yaml"), "game: g\n").unwrap();
        std::fs::create_dir(tmp.path().join("step-0001")).unwrap();
        std::fs::write(tmp.path().join("step-0001/map.png"), [0x89, 0xff, 0]).unwrap();
        std::fs::write(tmp.path().join("step-0001/manifest.yaml"), "files: {}\n").unwrap();
        let l = list(tmp.path()).unwrap();
        assert_eq!(l.parts(), BTreeSet::from([0, 1]));
        assert_eq!(l.resolved(), vec![1]);
        let game = l.part(0).unwrap();
        assert_eq!(game.get("game.yaml"), Some("game: g\n"));
        assert!(game.binary.is_empty() && game.text.len() == 1);
        let one = l.part(1).unwrap();
        assert_eq!(
            one.binary.get("step-0001/map.png").map(Vec::as_slice),
            Some(&[0x89, 0xff, 0][..])
        );
        assert!(one.text.contains_key("step-0001/manifest.yaml"));
    }

    #[test]
    fn a_link_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("game.yaml"), "game: g\n").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", tmp.path().join("x.yaml")).unwrap();
        let e = list(tmp.path()).unwrap_err().to_string();
        assert!(e.contains("a link?"), "{e}");
    }

    /// A file swapped for a link after the listing, or a folder above it
    /// swapped for a link to a folder holding a file of the same name and
    /// size, is not read through.
    #[test]
    fn a_file_or_folder_swapped_for_a_link_after_the_listing_is_not_read_through() {
        let tmp = tempfile::tempdir().unwrap();
        let a = tmp.path().join("a");
        std::fs::create_dir_all(a.join("step-0001")).unwrap();
        std::fs::write(a.join("game.yaml"), "game: g\n").unwrap();
        std::fs::write(a.join("step-0001/view.yaml"), "x: 1\n").unwrap();
        let secret = tmp.path().join("secret");
        std::fs::create_dir(&secret).unwrap();
        std::fs::write(secret.join("view.yaml"), "s: 2\n").unwrap();
        let l = list(&a).unwrap();
        // The folder above swapped for a link to another with the same file.
        std::fs::rename(a.join("step-0001"), tmp.path().join("moved")).unwrap();
        std::os::unix::fs::symlink(&secret, a.join("step-0001")).unwrap();
        let e = l.part(1).unwrap_err().to_string();
        assert!(e.contains("another file"), "{e}");
        // The file itself swapped for a link.
        std::fs::remove_file(a.join("step-0001")).unwrap();
        std::fs::rename(tmp.path().join("moved"), a.join("step-0001")).unwrap();
        let l = list(&a).unwrap();
        std::fs::remove_file(a.join("step-0001/view.yaml")).unwrap();
        std::os::unix::fs::symlink(secret.join("view.yaml"), a.join("step-0001/view.yaml"))
            .unwrap();
        let e = l.part(1).unwrap_err().to_string();
        assert!(e.contains("became a link"), "{e}");
    }
}

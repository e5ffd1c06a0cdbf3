//! An archive's files, read as they are, for the page to carry: the
//! browser audits the bytes the server signed, not anything made from them.

use anyhow::{Context, bail};
use std::collections::BTreeMap;
use std::path::Path;

/// The largest file a page carries (the audit's own bound).
const MAX_FILE: u64 = crate::game::audit::MAX_FILE;
/// The most a page carries in all: a long game is a few megabytes.
const MAX_TOTAL: u64 = 256 << 20;
/// `step-N/rollback-K/` inside `sealed/` is three folders down.
const MAX_DEPTH: usize = 6;

/// Every plain file of an archive, by its path relative to the archive
/// (`/`-separated): text as text, anything else as hex.
#[derive(Debug, Default)]
pub struct Bundle {
    pub text: BTreeMap<String, String>,
    pub binary: BTreeMap<String, String>,
}

impl Bundle {
    pub fn get(&self, path: &str) -> Option<&str> {
        self.text.get(path).map(String::as_str)
    }
}

/// Read the archive in `dir`. A link or special file is refused: the audit
/// refuses it too, and a page must not carry what the archive does not hold.
pub fn read(dir: &Path) -> anyhow::Result<Bundle> {
    if !dir.join("game.yaml").is_file() {
        bail!(
            "{}: not a game archive (no game.yaml): name the folder DATA/archive/GAME",
            dir.display()
        );
    }
    let mut b = Bundle::default();
    let mut total = 0u64;
    walk(dir, "", 0, &mut b, &mut total)?;
    Ok(b)
}

fn walk(
    root: &Path,
    rel: &str,
    depth: usize,
    b: &mut Bundle,
    total: &mut u64,
) -> anyhow::Result<()> {
    let here = root.join(rel);
    let entries =
        std::fs::read_dir(&here).with_context(|| format!("cannot list {}", here.display()))?;
    for e in entries {
        let e = e.with_context(|| format!("cannot list {}", here.display()))?;
        let Some(name) = e.file_name().to_str().map(str::to_string) else {
            bail!("{}: a file name that is not UTF-8", here.display());
        };
        let path = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        let meta = std::fs::symlink_metadata(root.join(&path))
            .with_context(|| format!("cannot read {}", root.join(&path).display()))?;
        if meta.is_dir() {
            if depth + 1 > MAX_DEPTH {
                bail!("{path}: folders nested deeper than {MAX_DEPTH}: not an archive");
            }
            walk(root, &path, depth + 1, b, total)?;
        } else if meta.is_file() {
            if meta.len() > MAX_FILE {
                bail!(
                    "{path}: {} bytes, more than an archive's file may be",
                    meta.len()
                );
            }
            *total += meta.len();
            if *total > MAX_TOTAL {
                bail!(
                    "{}: more than {MAX_TOTAL} bytes in all: too big for one page",
                    root.display()
                );
            }
            let bytes = std::fs::read(root.join(&path))
                .with_context(|| format!("cannot read {}", root.join(&path).display()))?;
            match String::from_utf8(bytes) {
                Ok(t) => b.text.insert(path, t),
                Err(e) => b.binary.insert(path, hex::encode(e.into_bytes())),
            };
        } else {
            bail!(
                "{}: neither a file nor a folder (a link?): the audit refuses it, and so does the site",
                root.join(&path).display()
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_without_game_yaml_is_not_an_archive() {
        let tmp = tempfile::tempdir().unwrap();
        let e = read(tmp.path()).unwrap_err().to_string();
        assert!(e.contains("no game.yaml"), "{e}");
    }

    #[test]
    fn text_and_binary_files_are_kept_apart_by_path() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("game.yaml"), "game: g\n").unwrap();
        std::fs::create_dir(tmp.path().join("step-0001")).unwrap();
        std::fs::write(tmp.path().join("step-0001/map.png"), [0x89, 0xff, 0]).unwrap();
        let b = read(tmp.path()).unwrap();
        assert_eq!(b.get("game.yaml"), Some("game: g\n"));
        assert_eq!(
            b.binary.get("step-0001/map.png").map(String::as_str),
            Some("89ff00")
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("game.yaml"), "game: g\n").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", tmp.path().join("x.yaml")).unwrap();
        let e = read(tmp.path()).unwrap_err().to_string();
        assert!(e.contains("a link?"), "{e}");
    }
}

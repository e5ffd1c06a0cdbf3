//! Writing a folder so that a crash leaves each file either as it was or
//! whole: every file is written under a temporary name first, then all are
//! renamed into place, and the folder is synced once (a step writes some
//! forty files, and every sync waits on the disk).
//!
//! Files are made 0600 and folders 0700 from the first byte (`crate::files`):
//! the reports hold hands of cards, and the archive, public by design, is
//! published by the operator, not by the modes of the data folder
//! (docs/MAIL.md, "Who can read what"). A staging that fails or is dropped
//! removes its temporary files, and [`sweep`] removes those a crash left.

use super::{Manifest, sha256_hex};
use crate::sig;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// How a write holds when the power goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Durability {
    /// On disk when the folder is finished: the public archive and the
    /// notices, which the store's commit relies on.
    Synced,
    /// Renamed into place whole, but flushed by the OS in its own time:
    /// files that `galloper render` makes again from the store, such as the
    /// reports folders, whose mails are durable in the outbox anyway. Each
    /// file sync costs about half a millisecond on a virtual disk, and a
    /// step writes eighteen such files.
    Rebuildable,
}

/// A folder being written: files are staged (written, and synced if asked,
/// under temporary names) as they become ready, and appear together at
/// [`Staging::finish`]. A crash before then leaves only hidden `.tmp` files.
pub struct Staging {
    dir: PathBuf,
    durability: Durability,
    renames: Vec<(PathBuf, PathBuf)>,
    hashes: BTreeMap<String, String>,
    /// Synced files written but not yet synced: their writeback is started
    /// as each is staged, and [`Staging::finish`] waits for them all at
    /// once, before any is renamed into place.
    unsynced: Vec<std::fs::File>,
}

impl Staging {
    pub fn new(dir: &Path, durability: Durability) -> std::io::Result<Staging> {
        crate::files::create_dir(dir)?;
        Ok(Staging {
            dir: dir.to_path_buf(),
            durability,
            renames: Vec::new(),
            hashes: BTreeMap::new(),
            unsynced: Vec::new(),
        })
    }

    /// Write one file under its temporary name. A synced file's writeback
    /// starts now and is waited for at [`Staging::finish`]: on ext4 a sync
    /// per file as it was staged took a journal commit each (12 syncs: 1.6
    /// ms quiet, tens of ms when other jobs write), while the writes started
    /// early and synced together cost about a third.
    pub fn stage(&mut self, name: &str, bytes: &[u8]) -> std::io::Result<()> {
        let tmp = self.dir.join(temp_name(name));
        // A leftover of a crash may have any mode: it is never reused.
        match std::fs::remove_file(&tmp) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
        // Listed before it is written: a failure from here on removes it.
        self.renames.push((tmp.clone(), self.dir.join(name)));
        let mut f = crate::files::create_new(&tmp)?;
        f.write_all(bytes)?;
        if self.durability == Durability::Synced {
            start_writeback(&f);
            self.unsynced.push(f);
        }
        self.hashes.insert(name.to_string(), sha256_hex(bytes));
        Ok(())
    }

    /// Sync every file staged so far, together: a step does it for the
    /// files it stages while its map is drawn, off the step's longest path,
    /// and leaves [`Staging::finish`] only the files staged after.
    pub fn sync_staged(&mut self) -> std::io::Result<()> {
        for f in self.unsynced.drain(..) {
            f.sync_all()?;
        }
        Ok(())
    }

    /// Put every staged file in place, in the order staged, and sync the
    /// folder. A synced staging's files are all on disk before the first
    /// is renamed, as when each was synced as it was staged.
    pub fn finish(mut self) -> std::io::Result<()> {
        self.sync_staged()?;
        // Each file renamed leaves the list, so that a failure part-way
        // removes only what is still under its temporary name.
        while !self.renames.is_empty() {
            let (tmp, path) = &self.renames[0];
            std::fs::rename(tmp, path)?;
            self.renames.remove(0);
        }
        if self.durability == Durability::Synced
            && let Ok(d) = std::fs::File::open(&self.dir)
        {
            let _ = d.sync_all();
        }
        Ok(())
    }

    /// The manifest of every file staged so far (name to SHA-256), as
    /// [`Staging::finish_signed`] will write it: the next step's notice
    /// names its hash before it is written.
    pub fn manifest(&self) -> anyhow::Result<String> {
        Ok(crate::yaml::to_string(&Manifest {
            files: self.hashes.clone(),
        })?)
    }

    /// Stage the server-signed manifest of every file staged so far (name
    /// to SHA-256), last, then finish.
    pub fn finish_signed(mut self, server_private: &str) -> anyhow::Result<()> {
        let manifest = self.manifest()?;
        let signature = sig::sign(server_private, sig::REPORT_NAMESPACE, manifest.as_bytes())?;
        self.stage("manifest.yaml", manifest.as_bytes())?;
        self.stage("manifest.yaml.sig", signature.as_bytes())?;
        self.finish()?;
        Ok(())
    }
}

impl Drop for Staging {
    /// A staging dropped before it finished (an error in the step that
    /// was writing it) leaves no temporary file behind.
    fn drop(&mut self) {
        for (tmp, _) in self.renames.drain(..) {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

/// Ask the kernel to start writing `f` to disk without waiting: the sync
/// that follows finds its data on the way. Only a hint: the sync is what
/// makes the file durable.
#[cfg(target_os = "linux")]
fn start_writeback(f: &std::fs::File) {
    use std::os::fd::AsRawFd;
    // SAFETY: a plain system call on an open descriptor that `f` owns; it
    // reads and writes no memory of ours.
    unsafe {
        libc::sync_file_range(f.as_raw_fd(), 0, 0, libc::SYNC_FILE_RANGE_WRITE);
    }
}

#[cfg(not(target_os = "linux"))]
fn start_writeback(_: &std::fs::File) {}

pub use crate::files::temp_name;

/// How old a temporary file must be before [`sweep`] takes it for a
/// crash's leftover rather than the work of another galloper process
/// (`galloper new` while the daemon runs): a staging lives for seconds.
pub const STALE: std::time::Duration = std::time::Duration::from_secs(120);

/// Remove the temporary files (see [`temp_name`]) older than [`STALE`]
/// that crashes left anywhere under `root`, without following links.
/// Returns how many were removed. Run when a server opens its data folder.
pub fn sweep(root: &Path) -> std::io::Result<usize> {
    let now = std::time::SystemTime::now();
    let mut removed = 0;
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let entries = match std::fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e),
        };
        for entry in entries {
            let entry = entry?;
            let kind = entry.file_type()?;
            if kind.is_dir() {
                dirs.push(entry.path());
                continue;
            }
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let temporary = kind.is_file()
                && name.len() >= ".x.tmp".len()
                && name.starts_with('.')
                && name.ends_with(".tmp");
            if !temporary {
                continue;
            }
            let age = entry
                .metadata()?
                .modified()
                .ok()
                .and_then(|m| now.duration_since(m).ok())
                .unwrap_or_default();
            if age >= STALE {
                std::fs::remove_file(entry.path())?;
                removed += 1;
            }
        }
    }
    Ok(removed)
}

/// Write `files` into `dir` as one staged batch.
pub fn write_batch(
    dir: &Path,
    files: &[(&str, &[u8])],
    durability: Durability,
) -> std::io::Result<()> {
    let mut s = Staging::new(dir, durability)?;
    for (name, bytes) in files {
        s.stage(name, bytes)?;
    }
    s.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_synced_part_way_and_after_are_all_put_in_place_whole() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Staging::new(dir.path(), Durability::Synced).unwrap();
        s.stage("a.yaml", b"a: 1\n").unwrap();
        s.stage("b.yaml", b"b: 2\n").unwrap();
        assert_eq!(s.unsynced.len(), 2, "their syncs wait");
        s.sync_staged().unwrap();
        assert!(s.unsynced.is_empty(), "synced together");
        assert!(!dir.path().join("a.yaml").exists(), "nothing in place yet");
        s.stage("c.yaml", b"c: 3\n").unwrap();
        assert_eq!(s.unsynced.len(), 1);
        s.finish().unwrap();
        for (name, text) in [
            ("a.yaml", "a: 1\n"),
            ("b.yaml", "b: 2\n"),
            ("c.yaml", "c: 3\n"),
        ] {
            assert_eq!(
                std::fs::read_to_string(dir.path().join(name)).unwrap(),
                text
            );
        }
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 3, "no temporary file is left");
    }

    #[test]
    fn a_rebuildable_folder_waits_on_no_sync() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Staging::new(dir.path(), Durability::Rebuildable).unwrap();
        s.stage("a.txt", b"a").unwrap();
        assert!(s.unsynced.is_empty());
        s.finish().unwrap();
        assert_eq!(std::fs::read(dir.path().join("a.txt")).unwrap(), b"a");
    }
}

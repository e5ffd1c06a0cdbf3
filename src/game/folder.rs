//! Writing a folder so that a crash leaves each file either as it was or
//! whole: every file is written under a temporary name first, then all are
//! renamed into place, and the folder is synced once (a step writes some
//! forty files, and every sync waits on the disk).

use super::archive::{Manifest, sha256_hex};
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
}

impl Staging {
    pub fn new(dir: &Path, durability: Durability) -> std::io::Result<Staging> {
        std::fs::create_dir_all(dir)?;
        Ok(Staging {
            dir: dir.to_path_buf(),
            durability,
            renames: Vec::new(),
            hashes: BTreeMap::new(),
        })
    }

    /// Write one file under its temporary name.
    pub fn stage(&mut self, name: &str, bytes: &[u8]) -> std::io::Result<()> {
        let tmp = self.dir.join(format!(".{name}.tmp"));
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        if self.durability == Durability::Synced {
            f.sync_all()?;
        }
        self.renames.push((tmp, self.dir.join(name)));
        self.hashes.insert(name.to_string(), sha256_hex(bytes));
        Ok(())
    }

    /// Put every staged file in place, in the order staged, and sync the folder.
    pub fn finish(self) -> std::io::Result<()> {
        for (tmp, path) in &self.renames {
            std::fs::rename(tmp, path)?;
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

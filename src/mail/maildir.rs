//! A Maildir that an MTA (Postfix, or `deliver` below) delivers into, used as
//! the daemon's queue of incoming mail.
//!
//! A message moves `new/X` → `cur/X:2,` when the daemon takes it and
//! `cur/X:2,` → `cur/X:2,S` when it is done. Both are renames within one
//! file system, hence atomic: after a crash every message is in exactly one
//! place, and one taken but not finished is found again by [`Maildir::pending`].

use sha2::{Digest, Sha256};
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// Separates the unique part of a file name from its info (`:2,FLAGS`).
const INFO_SEP: char = ':';
/// The flag "seen", which here means done.
const DONE_FLAG: char = 'S';

/// A Maildir folder: `new/`, `cur/`, `tmp/` under one root.
#[derive(Clone, Debug)]
pub struct Maildir {
    root: PathBuf,
}

/// One message file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub path: PathBuf,
    /// The unique part of the file name, before `:`; it stays the same
    /// through `take` and `done`.
    pub key: String,
}

/// Tells apart messages delivered by this process within one microsecond.
static DELIVERIES: AtomicU64 = AtomicU64::new(0);

impl Maildir {
    /// Opens the folder, creating it and `new/`, `cur/`, `tmp/` if missing.
    pub fn open(root: &Path) -> io::Result<Maildir> {
        for sub in ["new", "cur", "tmp"] {
            fs::create_dir_all(root.join(sub))?;
        }
        Ok(Maildir {
            root: root.to_path_buf(),
        })
    }

    /// The folder's root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Messages not yet done: everything in `new/`, and anything in `cur/`
    /// without the `S` flag (taken, then a crash before it was finished).
    /// Oldest first by file name (delivery names begin with the time), a
    /// message in `new/` before one in `cur/` with the same key.
    pub fn pending(&self) -> io::Result<Vec<Entry>> {
        let mut found: Vec<(String, u8, PathBuf)> = Vec::new();
        for entry in self.files("new")? {
            found.push((entry.key.clone(), 0, entry.path));
        }
        for entry in self.files("cur")? {
            let name = file_name(&entry.path);
            if !flags(&name).contains(DONE_FLAG) {
                found.push((entry.key.clone(), 1, entry.path));
            }
        }
        found.sort();
        Ok(found
            .into_iter()
            .map(|(key, _, path)| Entry { path, key })
            .collect())
    }

    /// The message's bytes.
    pub fn read(&self, e: &Entry) -> io::Result<Vec<u8>> {
        fs::read(&e.path)
    }

    /// The message's size in bytes, without reading it.
    pub fn size(&self, e: &Entry) -> io::Result<u64> {
        Ok(fs::metadata(&e.path)?.len())
    }

    /// The first `head` bytes of a message and the SHA-256 (hex) of all of
    /// it, read in small pieces: a message too large to take is answered
    /// from its headers without ever being held in memory whole.
    pub fn head_and_sha256(&self, e: &Entry, head: usize) -> io::Result<(Vec<u8>, String)> {
        let mut f = fs::File::open(&e.path)?;
        let mut sha = Sha256::new();
        let mut first = Vec::with_capacity(head);
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            let n = f.read(&mut buf)?;
            if n == 0 {
                break;
            }
            let keep = (head - first.len()).min(n);
            first.extend_from_slice(&buf[..keep]);
            sha.update(&buf[..n]);
        }
        Ok((first, hex::encode(sha.finalize())))
    }

    /// Marks a message taken: `new/X` → `cur/X:2,` by one atomic rename. An
    /// entry already in `cur/` (taken before a crash) is returned unchanged, so
    /// the daemon may take every pending entry.
    pub fn take(&self, e: &Entry) -> io::Result<Entry> {
        if self.is_in(e, "cur") {
            return Ok(e.clone());
        }
        let to = self.root.join("cur").join(format!("{}{INFO_SEP}2,", e.key));
        fs::rename(&e.path, &to)?;
        Ok(Entry {
            path: to,
            key: e.key.clone(),
        })
    }

    /// Marks a message done: `cur/X:2,` → `cur/X:2,S`, keeping other flags.
    /// A message already done is left as it is.
    pub fn done(&self, e: &Entry) -> io::Result<()> {
        let name = file_name(&e.path);
        let mut flags: Vec<char> = flags(&name).chars().collect();
        if self.is_in(e, "cur") && flags.contains(&DONE_FLAG) {
            return Ok(());
        }
        flags.push(DONE_FLAG);
        // Maildir wants flags in ASCII order, each once.
        flags.sort_unstable();
        flags.dedup();
        let flags: String = flags.into_iter().collect();
        let to = self
            .root
            .join("cur")
            .join(format!("{}{INFO_SEP}2,{flags}", e.key));
        fs::rename(&e.path, to)
    }

    /// Delivers a message the Maildir way: written and synced under `tmp/`,
    /// then renamed into `new/`, so that a reader never sees half a message.
    /// Returns the path in `new/`.
    pub fn deliver(&self, bytes: &[u8]) -> io::Result<PathBuf> {
        let name = unique_name();
        let tmp = self.root.join("tmp").join(&name);
        {
            let mut f = fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&tmp)?;
            f.write_all(bytes)?;
            f.sync_all()?;
        }
        let new = self.root.join("new").join(&name);
        fs::rename(&tmp, &new)?;
        Ok(new)
    }

    fn files(&self, sub: &str) -> io::Result<Vec<Entry>> {
        let mut out = Vec::new();
        for dirent in fs::read_dir(self.root.join(sub))? {
            let dirent = dirent?;
            let name = dirent.file_name().to_string_lossy().into_owned();
            // Dot files are not messages (Maildir rule); neither are folders.
            if name.starts_with('.') || !dirent.file_type()?.is_file() {
                continue;
            }
            let key = name.split(INFO_SEP).next().unwrap_or_default().to_string();
            out.push(Entry {
                path: dirent.path(),
                key,
            });
        }
        Ok(out)
    }

    fn is_in(&self, e: &Entry, sub: &str) -> bool {
        e.path.parent() == Some(self.root.join(sub).as_path())
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The flags of a `X:2,FLAGS` name; none without info.
fn flags(name: &str) -> &str {
    name.split_once(INFO_SEP)
        .and_then(|(_, info)| info.strip_prefix("2,"))
        .unwrap_or_default()
}

/// `SECONDS.MmicrosPpidQcount.host`, the usual shape of a delivery name:
/// sorts by time, and is unique per host, process and delivery.
fn unique_name() -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let count = DELIVERIES.fetch_add(1, Ordering::Relaxed);
    format!(
        "{}.M{:06}P{}Q{}.{}",
        now.as_secs(),
        now.subsec_micros(),
        std::process::id(),
        count,
        host_name()
    )
}

/// The host name with `/` and `:` replaced, as Maildir names require.
fn host_name() -> String {
    let raw = fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_default();
    let host: String = raw
        .trim()
        .chars()
        .map(|c| match c {
            '/' => "\\057".to_string(),
            ':' => "\\072".to_string(),
            c if c.is_ascii_graphic() => c.to_string(),
            _ => String::new(),
        })
        .collect();
    if host.is_empty() {
        "localhost".to_string()
    } else {
        host
    }
}

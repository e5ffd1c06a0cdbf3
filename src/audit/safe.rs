//! The auditor's own safety: an archive comes from whoever sent it, so it
//! is read as plain files and folders only. A symbolic link (to
//! `/dev/zero`, say), a device, a FIFO or a socket is refused before
//! anything is read; files are opened without following links and without
//! waiting, checked again once open, and read up to a bound, so the audit
//! neither exhausts memory nor hangs.

use super::{Failure, fail};
use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest file the audit reads: a long game's sealed state is a few
/// megabytes, a map a few hundred kilobytes.
pub const MAX_FILE: u64 = 64 << 20;
/// The most entries an archive may hold (files and folders).
const MAX_ENTRIES: usize = 1_000_000;
/// How deep folders may nest (`sealed/step-N/rollback-K/` is three).
const MAX_DEPTH: usize = 6;

/// Every plain file under `root`, as paths relative to it. Anything that
/// is neither a plain file nor a folder fails, with its path.
pub fn walk(root: &Path) -> Result<BTreeSet<PathBuf>, Failure> {
    let mut files = BTreeSet::new();
    let mut stack = vec![(PathBuf::new(), 0usize)];
    let mut seen = 0usize;
    while let Some((rel, depth)) = stack.pop() {
        let dir = root.join(&rel);
        let entries = std::fs::read_dir(&dir)
            .map_err(|e| fail(dir.display().to_string(), format!("cannot list: {e}")))?;
        for e in entries {
            let e = e.map_err(|e| fail(dir.display().to_string(), format!("cannot list: {e}")))?;
            seen += 1;
            if seen > MAX_ENTRIES {
                return Err(fail(
                    root.display().to_string(),
                    format!("more than {MAX_ENTRIES} files and folders: not an archive"),
                ));
            }
            let path = rel.join(e.file_name());
            let meta = std::fs::symlink_metadata(root.join(&path))
                .map_err(|err| fail(path.display().to_string(), format!("cannot stat: {err}")))?;
            let t = meta.file_type();
            if t.is_dir() {
                if depth + 1 > MAX_DEPTH {
                    return Err(fail(
                        path.display().to_string(),
                        format!("folders nested deeper than {MAX_DEPTH}: not an archive"),
                    ));
                }
                stack.push((path, depth + 1));
            } else if t.is_file() {
                if meta.len() > MAX_FILE {
                    return Err(too_large(&path, meta.len()));
                }
                files.insert(path);
            } else {
                return Err(fail(path.display().to_string(), not_plain(&t)));
            }
        }
    }
    Ok(files)
}

fn not_plain(t: &std::fs::FileType) -> String {
    use std::os::unix::fs::FileTypeExt;
    let what = if t.is_symlink() {
        "a symbolic link"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a plain file"
    };
    format!(
        "is {what}: an archive holds plain files and folders only, and the audit follows no link"
    )
}

fn too_large(path: &Path, len: u64) -> Failure {
    fail(
        path.display().to_string(),
        format!("{len} bytes, more than the {MAX_FILE} an archive's file may hold"),
    )
}

/// Read one plain file: opened without following a link and without
/// waiting (a FIFO put there after the walk), checked to be a plain file
/// once open, and read up to [`MAX_FILE`].
pub fn read(path: &Path) -> Result<Vec<u8>, Failure> {
    use std::os::unix::fs::OpenOptionsExt;
    let place = || path.display().to_string();
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ELOOP) => fail(place(), "is a symbolic link: the audit follows no link"),
            _ => fail(place(), format!("cannot read: {e}")),
        })?;
    let meta = file
        .metadata()
        .map_err(|e| fail(place(), format!("cannot stat: {e}")))?;
    if !meta.is_file() {
        return Err(fail(place(), not_plain(&meta.file_type())));
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| fail(place(), format!("cannot read: {e}")))?;
    if bytes.len() as u64 > MAX_FILE {
        return Err(too_large(path, bytes.len() as u64));
    }
    Ok(bytes)
}

/// Whether `path` is there as a plain file (a link there is not).
pub fn is_file(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file())
}

/// Whether `path` is there as a folder (a link there is not).
pub fn is_dir(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The walk finds links and FIFOs first; `read` refuses them too, for
    /// one put there after the walk.
    #[test]
    fn read_refuses_a_link_and_a_fifo_at_once() {
        let tmp = tempfile::tempdir().unwrap();
        let link = tmp.path().join("link.yaml");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let e = read(&link).unwrap_err();
        assert!(e.what.contains("symbolic link"), "{e}");
        let fifo = tmp.path().join("fifo.yaml");
        let st = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(st.success());
        let e = read(&fifo).unwrap_err();
        assert!(e.what.contains("FIFO"), "{e}");
        let plain = tmp.path().join("plain.yaml");
        std::fs::write(&plain, "a: 1\n").unwrap();
        assert_eq!(read(&plain).unwrap(), b"a: 1\n");
        let e = walk(tmp.path()).unwrap_err();
        assert!(
            e.what.contains("symbolic link") || e.what.contains("FIFO"),
            "{e}"
        );
    }
}

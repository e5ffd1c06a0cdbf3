//! Files and folders that only the server's own user may read: the data
//! folder, the store, the reports (hands of cards), the keys. Each is
//! created with its final mode from the first byte (0600 for files, 0700
//! for folders), whatever the umask, so that no other local user can open
//! it even for an instant; a mode is never loosened, and never fixed up
//! after the fact with a chmod.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;

/// The mode of a private file.
pub const FILE_MODE: u32 = 0o600;
/// The mode of a private folder.
pub const DIR_MODE: u32 = 0o700;

/// Create `dir` and any missing parents, each new one 0700. Folders that
/// exist keep their mode.
pub fn create_dir(dir: &Path) -> io::Result<()> {
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        b.mode(DIR_MODE);
    }
    b.create(dir)?;
    // The umask may take bits off the mode but never adds any; a folder
    // made here is therefore at most 0700 already.
    Ok(())
}

/// Create a new file, 0600, failing if it exists.
pub fn create_new(path: &Path) -> io::Result<File> {
    let mut o = OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(FILE_MODE);
    }
    o.open(path)
}

/// The temporary name under which `name` is written: hidden, and ending in
/// `.tmp`, which is how the start-up sweep (`archive::folder::sweep`)
/// knows it.
pub fn temp_name(name: &str) -> String {
    format!(".{name}.tmp")
}

/// Write `bytes` to `path` so that a crash leaves either the old content or
/// the new, and the file is 0600 from its first byte: written and synced
/// under a temporary name that the start-up sweep recognises
/// (`archive::folder::sweep`), then renamed.
pub fn write_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    let name = path.file_name().and_then(|n| n.to_str()).ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} names no file", path.display()),
        )
    })?;
    if let Some(d) = dir {
        create_dir(d)?;
    }
    let tmp = dir.unwrap_or(Path::new(".")).join(temp_name(name));
    // A leftover of a crash may have any mode: it is never reused.
    match std::fs::remove_file(&tmp) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    let written = (|| {
        let mut f = create_new(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written?;
    if let Some(d) = dir
        && let Ok(d) = File::open(d)
    {
        let _ = d.sync_all();
    }
    Ok(())
}

/// The mode bits of `path` (permissions only), for checks and tests.
#[cfg(unix)]
pub fn mode(path: &Path) -> io::Result<u32> {
    use std::os::unix::fs::PermissionsExt;
    Ok(std::fs::symlink_metadata(path)?.permissions().mode() & 0o7777)
}

/// Write a key pair: the private key 0600 from its first byte (never a
/// wider file made narrower afterwards), and FILE.pub beside it (0600
/// too: it is shared by copying it).
pub fn write_key(file: &Path, k: &crate::sig::KeyPair) -> anyhow::Result<()> {
    anyhow::Context::with_context(write_private(file, k.private_openssh.as_bytes()), || {
        format!("cannot write the key {}", file.display())
    })?;
    let mut public = file.as_os_str().to_owned();
    public.push(".pub");
    // Never world-writable, whatever the umask: a .pub that another user
    // could rewrite would register his key instead.
    write_private(
        &std::path::PathBuf::from(public),
        format!("{}\n", k.public_line).as_bytes(),
    )?;
    Ok(())
}

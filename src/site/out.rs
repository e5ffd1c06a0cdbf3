//! Writing the site into `--out` and nowhere else. A folder under `--out`
//! must be a real folder: a link planted there (`OUT/assets -> /etc`) is
//! refused, never written through. A file is written as a new temporary
//! file beside it (created anew: a link planted under the temporary name
//! is not opened through either) then renamed over its name, which
//! replaces a link planted there (`OUT/index.html -> /tmp/victim`) instead
//! of writing into what it names.

use anyhow::{Context, bail};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The site's folder.
pub struct Out {
    root: PathBuf,
}

impl Out {
    /// `root` itself is the operator's to name (it may be a link he made,
    /// to his web server's folder); it is made if missing.
    pub fn open(root: &Path) -> anyhow::Result<Out> {
        std::fs::create_dir_all(root)
            .with_context(|| format!("cannot create {}", root.display()))?;
        if !root.is_dir() {
            bail!("{}: not a folder: name a folder for --out", root.display());
        }
        Ok(Out {
            root: root.to_path_buf(),
        })
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    /// Make the folder `rel` (`/`-separated) under the site, each part a
    /// real folder: a link or a file in the way is refused.
    pub fn dir(&self, rel: &str) -> anyhow::Result<()> {
        let mut at = self.root.clone();
        for part in rel.split('/').filter(|p| !p.is_empty()) {
            at.push(part);
            match std::fs::symlink_metadata(&at) {
                Ok(m) if m.is_dir() => {}
                Ok(m) => bail!(
                    "{} is {} where the site needs a folder: galloper site writes nothing through a link nor over a file it did not make there; remove it and make the site again",
                    at.display(),
                    if m.file_type().is_symlink() {
                        "a link"
                    } else {
                        "not a folder"
                    }
                ),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => std::fs::create_dir(&at)
                    .with_context(|| format!("cannot create {}", at.display()))?,
                Err(e) => bail!("cannot read {}: {e}", at.display()),
            }
        }
        Ok(())
    }

    /// Write `bytes` as the file `rel` (its folder made with [`Out::dir`]):
    /// into a new temporary file, renamed over `rel`.
    pub fn write(&self, rel: &str, bytes: &[u8]) -> anyhow::Result<PathBuf> {
        let (dir, name) = rel.rsplit_once('/').unwrap_or(("", rel));
        self.dir(dir)?;
        let path = self.path(rel);
        let tmp = self
            .path(dir)
            .join(format!(".{name}.{}.tmp", std::process::id()));
        let create = || {
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&tmp)
        };
        let mut file = match create() {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                // Left by a run that failed, or planted: removed (a link is
                // removed, not what it names), then made anew.
                std::fs::remove_file(&tmp)
                    .with_context(|| format!("cannot remove {}", tmp.display()))?;
                create().with_context(|| format!("cannot create {}", tmp.display()))?
            }
            Err(e) => bail!("cannot create {}: {e}", tmp.display()),
        };
        let written = file.write_all(bytes).and_then(|_| file.flush());
        drop(file);
        if let Err(e) = written {
            let _ = std::fs::remove_file(&tmp);
            bail!("cannot write {}: {e}", tmp.display());
        }
        if let Err(e) = std::fs::rename(&tmp, &path) {
            let _ = std::fs::remove_file(&tmp);
            bail!(
                "cannot write {}: {e} (a folder in the way? remove it and make the site again)",
                path.display()
            );
        }
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_planted_in_out_is_replaced_or_refused_never_written_through() {
        let tmp = tempfile::tempdir().unwrap();
        let victim = tmp.path().join("victim");
        std::fs::write(&victim, "keep me").unwrap();
        let elsewhere = tmp.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        let out = Out::open(&tmp.path().join("out")).unwrap();
        std::os::unix::fs::symlink(&victim, out.path("index.html")).unwrap();
        std::os::unix::fs::symlink(&elsewhere, out.path("assets")).unwrap();
        // The temporary name, planted too.
        std::os::unix::fs::symlink(
            &victim,
            out.path(&format!(".page.html.{}.tmp", std::process::id())),
        )
        .unwrap();
        out.write("index.html", b"the index").unwrap();
        out.write("page.html", b"a page").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
        let m = std::fs::symlink_metadata(out.path("index.html")).unwrap();
        assert!(m.is_file(), "the link is replaced by the file");
        assert_eq!(
            std::fs::read_to_string(out.path("index.html")).unwrap(),
            "the index"
        );
        let e = out.write("assets/site.css", b"x").unwrap_err().to_string();
        assert!(e.contains("is a link where the site needs a folder"), "{e}");
        assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
    }
}

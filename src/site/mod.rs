//! `galloper site ARCHIVE... --out DIR`: a static site of finished (or
//! running) games, an index and one page per game, that replays each game
//! step by step and audits every public die in the reader's browser.
//!
//! Each page carries its archive's files as they are (`bundle.rs`), so the
//! browser checks the very bytes the server signed; the maps are drawn here
//! from each step's public view (`maps.rs`); the page's scripts and the
//! vendored primitives are built into the binary (`assets.rs`), so making a
//! site needs neither npm nor a network, and the site makes no request
//! outside itself: it works from `file://` as from any static host.

mod assets;
mod bundle;
mod maps;
mod page;
mod start;
mod summary;
mod told;

pub use summary::Summary;

use anyhow::{Context, bail};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// What `build` wrote.
#[derive(Debug)]
pub struct Built {
    pub index: PathBuf,
    /// Each game's page, in the order the archives were given.
    pub pages: Vec<(Summary, PathBuf)>,
}

/// How a site is made.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The club's server key, pinned for every archive of the site: its
    /// fingerprint (`SHA256:...`) or its public key line. `galloper audit`
    /// runs with the pin when the site is made, and each page refuses an
    /// archive signed by another key and shows the pinned fingerprint.
    pub server_key: Option<String>,
}

/// The fingerprint a pin names: a fingerprint as given, or a key line's.
pub fn pinned_fingerprint(pin: &str) -> anyhow::Result<String> {
    let pin = pin.trim();
    if pin.starts_with("SHA256:") {
        return Ok(pin.to_string());
    }
    crate::sig::fingerprint(pin).map_err(|e| {
        anyhow::anyhow!("--server-key: neither a SHA256: fingerprint nor a public key line: {e}")
    })
}

/// Write the site of the games in `archives` into `out`.
pub fn build(archives: &[PathBuf], out: &Path, opts: &Options) -> anyhow::Result<Built> {
    if archives.is_empty() {
        bail!("name at least one game archive (the folder DATA/archive/GAME)");
    }
    let pinned = opts
        .server_key
        .as_deref()
        .map(pinned_fingerprint)
        .transpose()?;
    std::fs::create_dir_all(out.join("assets"))
        .with_context(|| format!("cannot create {}", out.display()))?;
    assets::write(&out.join("assets"))?;
    let mut seen = BTreeSet::new();
    let mut pages = Vec::new();
    for dir in archives {
        let bundle = bundle::read(dir)?;
        let summary = summary::of(dir, &bundle, opts, pinned.as_deref())?;
        if !seen.insert(summary.game.clone()) {
            bail!(
                "{}: game {} is given twice: give each archive once",
                dir.display(),
                summary.game
            );
        }
        let maps = maps::draw(&bundle)
            .with_context(|| format!("{}: cannot draw the maps", dir.display()))?;
        let script = out.join(page::binary_script_name(&summary));
        std::fs::write(&script, page::binary_script(&summary, &bundle))
            .with_context(|| format!("cannot write {}", script.display()))?;
        let path = out.join(&summary.file);
        let told = told::lines(&bundle);
        let html = page::game(&summary, &bundle, &maps, &told, start::state(&bundle))?;
        std::fs::write(&path, html).with_context(|| format!("cannot write {}", path.display()))?;
        pages.push((summary, path));
    }
    let index = out.join("index.html");
    let summaries: Vec<&Summary> = pages.iter().map(|(s, _)| s).collect();
    std::fs::write(&index, page::index(&summaries)?)
        .with_context(|| format!("cannot write {}", index.display()))?;
    Ok(Built { index, pages })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pin_is_a_fingerprint_or_a_key_line() {
        let k = crate::sig::keygen("club").unwrap();
        let fp = crate::sig::fingerprint(&k.public_line).unwrap();
        assert_eq!(pinned_fingerprint(&fp).unwrap(), fp);
        assert_eq!(
            pinned_fingerprint(&format!("{}\n", k.public_line)).unwrap(),
            fp
        );
        let e = pinned_fingerprint("not a key").unwrap_err().to_string();
        assert!(e.contains("neither a SHA256: fingerprint"), "{e}");
    }
}

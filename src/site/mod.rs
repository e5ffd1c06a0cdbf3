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

/// Write the site of the games in `archives` into `out`.
pub fn build(archives: &[PathBuf], out: &Path) -> anyhow::Result<Built> {
    if archives.is_empty() {
        bail!("name at least one game archive (the folder DATA/archive/GAME)");
    }
    std::fs::create_dir_all(out.join("assets"))
        .with_context(|| format!("cannot create {}", out.display()))?;
    assets::write(&out.join("assets"))?;
    let mut seen = BTreeSet::new();
    let mut pages = Vec::new();
    for dir in archives {
        let bundle = bundle::read(dir)?;
        let summary = summary::of(dir, &bundle)?;
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

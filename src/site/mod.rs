//! `galloper site ARCHIVE... --out DIR`: a static site of finished (or
//! running) games, an index and one page per game, that replays each game
//! step by step and audits every public die in the reader's browser.
//!
//! Each page carries its archive's files as they are (`bundle.rs`), so the
//! browser checks the very bytes the server signed: the game's own files in
//! its page, each step's in a script of its own that the page loads as the
//! reader comes to it, and the maps' PNGs in scripts the audit alone loads
//! (`page.rs`). A site is made one step at a time, so its memory is a
//! step's, not the archive's. The maps are drawn here from each step's
//! public view (`maps.rs`); the page's scripts and the vendored primitives
//! are built into the binary (`assets.rs`), so making a site needs neither
//! npm nor a network, and the site makes no request outside itself: it
//! works from `file://` as from any static host. No file of an archive is
//! read through a link (`bundle.rs`), and nothing is written outside `--out`
//! (`out.rs`).

mod assets;
mod bundle;
mod maps;
mod out;
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
    /// The club's name, for the index's title.
    pub club: Option<String>,
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
    let site = out::Out::open(out)?;
    assets::write(&site)?;
    let mut seen = BTreeSet::new();
    let mut pages = Vec::new();
    for dir in archives {
        let listing = bundle::list(dir)?;
        let game = listing.part(0)?;
        let summary = summary::of(&listing, &game, opts, pinned.as_deref())?;
        if !seen.insert(summary.game.clone()) {
            bail!(
                "{}: game {} is given twice: give each archive once",
                dir.display(),
                summary.game
            );
        }
        let (steps, parts) = write_steps(&site, &listing, &summary, &game)?;
        let html = page::game(&summary, &game, &steps, &parts, start::state(&game))?;
        let path = site.write(&summary.file, html.as_bytes())?;
        pages.push((summary, path));
    }
    let summaries: Vec<&Summary> = pages.iter().map(|(s, _)| s).collect();
    let html = page::index(&summaries, opts.club.as_deref(), pinned.as_deref())?;
    let index = site.write("index.html", html.as_bytes())?;
    Ok(Built { index, pages })
}

/// Each step's scripts, one step read at a time: (the resolved steps, every
/// part that has a script). The game's own binary files, if any, go in
/// part 0's files script.
fn write_steps(
    site: &out::Out,
    listing: &bundle::Listing,
    s: &Summary,
    game: &bundle::Bundle,
) -> anyhow::Result<(Vec<u32>, Vec<u32>)> {
    site.dir(&s.dir)?;
    if !game.binary.is_empty() {
        site.write(
            &page::files_script_name(s, 0),
            page::files_script(s, 0, game).as_bytes(),
        )?;
    }
    let rules = game
        .get("game.yaml")
        .and_then(|t| crate::yaml::from_str::<crate::archive::GameFile>(t).ok())
        .and_then(|g| crate::rulesets::by_name(&g.ruleset));
    let resolved: BTreeSet<u32> = listing.resolved().into_iter().collect();
    let mut parts = Vec::new();
    // The heading the step before's view gave the state the next is played from.
    let mut before: Option<String> = None;
    for n in listing.parts().into_iter().filter(|n| *n > 0) {
        let part = listing.part(n)?;
        let in_force = resolved.contains(&n);
        let heading = maps::heading(
            part.get(&format!("step-{n:04}/notice.yaml")),
            before.as_deref(),
        );
        let map = part
            .get(&maps::view_path(n))
            .filter(|_| in_force)
            .map(|v| maps::one(&s.game, n, v, heading.clone()));
        before = map.as_ref().and_then(|m| m.after.clone());
        let told = if in_force {
            told::lines(rules, &part, n)
        } else {
            None
        };
        let step = page::Step {
            heading: in_force.then_some(heading.as_str()),
            map: map.as_ref(),
            told: told.as_deref(),
        };
        site.write(
            &page::step_script_name(s, n),
            page::step_script(s, n, &part, &step).as_bytes(),
        )
        .with_context(|| format!("{}: step {n}", listing.root.display()))?;
        if !part.binary.is_empty() {
            site.write(
                &page::files_script_name(s, n),
                page::files_script(s, n, &part).as_bytes(),
            )?;
        }
        parts.push(n);
    }
    Ok((resolved.into_iter().collect(), parts))
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

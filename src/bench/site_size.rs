//! Issue 31, item 11: how heavy a game's site is, for the game a section
//! played: what a reader downloads to open its page at its first step (the
//! page, its scripts and style, step 1's script), and the whole game (its
//! page and every step's scripts, the maps' PNGs as base64), each beside
//! its goal.

use super::report::Report;
use super::scratch::Scratch;
use std::path::Path;

/// The goal for a page with its first step.
pub const GOAL_FIRST: u64 = 2 << 20;

/// The two rows of `archive`'s site, in `section`.
pub fn rows(section: &str, archive: &Path, r: &mut Report) -> anyhow::Result<()> {
    let scratch = Scratch::new("site")?;
    let out = scratch.path().join("site");
    let built = crate::site::build(
        &[archive.to_path_buf()],
        &out,
        &crate::site::Options::default(),
    )?;
    let Some((s, page)) = built.pages.first() else {
        anyhow::bail!("galloper site made no page of {}", archive.display());
    };
    let size = |p: &Path| std::fs::metadata(p).map_or(0, |m| m.len());
    let assets: u64 = ["site.css", "replay.js", "audit.js", "galloper-vendor.js"]
        .iter()
        .map(|f| size(&out.join("assets").join(f)))
        .sum();
    let steps = out.join(&s.dir);
    let first = size(page) + assets + size(&steps.join("step-0001.js"));
    let total = size(page) + under(&steps);
    let archive_bytes = under(archive);
    r.add(
        section,
        "site: first page with its first step",
        kib(first),
        format!(
            "{} with its scripts and style and step 1's script; goal < {}: {}",
            s.file,
            kib(GOAL_FIRST),
            if first < GOAL_FIRST { "met" } else { "MISSED" }
        ),
    );
    let ratio = total as f64 / archive_bytes.max(1) as f64;
    r.add(
        section,
        "site: total per game",
        kib(total),
        format!(
            "its page and the scripts of its {} steps (the maps' PNGs as base64, loaded by the audit alone), {ratio:.2}x its {} archive; goal <= 2x the archive: {}",
            s.steps,
            kib(archive_bytes),
            if ratio <= 2.0 { "met" } else { "MISSED" }
        ),
    );
    Ok(())
}

/// The bytes of every plain file under `dir` (no link followed).
fn under(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| match e.file_type() {
            Ok(t) if t.is_dir() => under(&e.path()),
            Ok(t) if t.is_file() => e.metadata().map_or(0, |m| m.len()),
            _ => 0,
        })
        .sum()
}

fn kib(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{:.2} MB", bytes as f64 / (1 << 20) as f64)
    } else {
        format!("{:.0} KB", bytes as f64 / 1024.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_demo_games_site_rows_say_its_sizes_beside_their_goals() {
        assert_eq!(kib(512 * 1024), "512 KB");
        assert_eq!(kib(3 << 19), "1.50 MB");
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("demo");
        crate::demo::run(&crate::demo::DemoArgs {
            out: out.clone(),
            max_steps: 4,
            battle: false,
            ruleset: "maurice-lite".into(),
        })
        .unwrap();
        let mut r = Report::default();
        rows(
            "maurice-lite",
            &out.join("server/archive/hollowbrook-demo"),
            &mut r,
        )
        .unwrap();
        let row = |what: &str| {
            r.rows
                .iter()
                .find(|x| x.section == "maurice-lite" && x.what == what)
                .map(|x| format!("{} | {}", x.figure, x.note))
                .unwrap_or_else(|| panic!("no row {what}"))
        };
        let first = row("site: first page with its first step");
        assert!(
            first.contains(" KB | ") && first.ends_with("goal < 2.00 MB: met"),
            "{first}"
        );
        let total = row("site: total per game");
        assert!(
            total.contains("scripts of its 4 steps")
                && total.ends_with("goal <= 2x the archive: met"),
            "{total}"
        );
    }
}

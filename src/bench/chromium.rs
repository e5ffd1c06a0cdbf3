//! Headless Chromium's screenshot of the same SVG, as the yardstick for our
//! PNG rendering. Chromium is optional: without it the ratio is skipped.

use super::scratch::Scratch;
use super::stats::Samples;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

/// The Chromium binary on PATH, if any.
pub fn find() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome", "chrome"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |d| d.join(name)))
        .find(|p| p.is_file())
}

/// The pixel size an SVG document declares on its root element.
pub fn svg_size(svg: &str) -> Option<(u32, u32)> {
    let root = &svg[svg.find("<svg")?..];
    let root = &root[..root.find('>')?];
    let attr = |name: &str| -> Option<u32> {
        let at = root.find(&format!(" {name}=\""))? + name.len() + 3;
        let rest = &root[at..];
        let v: f64 = rest[..rest.find('"')?]
            .trim_end_matches("px")
            .parse()
            .ok()?;
        Some(v.ceil() as u32)
    };
    Some((attr("width")?, attr("height")?))
}

/// Time `reps` screenshots of `svg` by `bin`, each a fresh headless
/// Chromium with a fresh profile, as a renderer service would start it.
pub fn screenshots(bin: &PathBuf, svg: &str, reps: usize) -> anyhow::Result<Samples> {
    let (w, h) = svg_size(svg).ok_or_else(|| anyhow::anyhow!("the SVG has no pixel size"))?;
    let dir = Scratch::new("chromium")?;
    let file = dir.path().join("map.svg");
    std::fs::write(&file, svg)?;
    let mut samples = Samples::default();
    for i in 0..reps.max(1) {
        let profile = dir.path().join(format!("profile-{i}"));
        let shot = dir.path().join(format!("shot-{i}.png"));
        let t = Instant::now();
        let status = Command::new(bin)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(format!("--screenshot={}", shot.display()))
            .arg(format!("--window-size={w},{h}"))
            .arg(&file)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()?;
        let elapsed = t.elapsed();
        if !status.success() || !shot.is_file() {
            anyhow::bail!("{} made no screenshot ({status})", bin.display());
        }
        samples.push(elapsed);
    }
    Ok(samples)
}

#[cfg(test)]
mod tests {
    #[test]
    fn reads_the_root_size() {
        let svg = r#"<?xml version="1.0"?><svg xmlns="x" width="1400" height="933.5" viewBox="0 0 1 1"><g/></svg>"#;
        assert_eq!(super::svg_size(svg), Some((1400, 934)));
    }
}

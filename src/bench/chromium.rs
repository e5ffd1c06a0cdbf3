//! Other renderers' pictures of the same SVG, as yardsticks for our PNG:
//! headless Chromium started afresh per shot (mostly Chromium starting),
//! a warm Chromium kept open with a fresh page per shot (what a renderer
//! service would pay), and `rsvg-convert`. Each is optional: without it
//! its row says it is skipped and why.

use super::report::Report;
use super::scratch::Scratch;
use super::stats::{Samples, human};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The goal of issue 19: our PNG at least this many times faster than a
/// warm browser's screenshot of the same map.
pub const WARM_GOAL: f64 = 20.0;

/// The first of `names` on PATH, if any.
fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    names
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |d| d.join(name)))
        .find(|p| p.is_file())
}

/// The Chromium binary on PATH, if any.
pub fn find() -> Option<PathBuf> {
    on_path(&["chromium", "chromium-browser", "google-chrome", "chrome"])
}

/// `rsvg-convert` on PATH (Debian's librsvg2-bin), if any.
pub fn find_rsvg() -> Option<PathBuf> {
    on_path(&["rsvg-convert"])
}

/// Node and the `node_modules` folder holding playwright-core: the browser
/// test's (`tests/browser/`), looked for from the current folder and then
/// from the source tree the binary was built from.
pub fn find_playwright() -> Option<(PathBuf, PathBuf)> {
    let node = on_path(&["node", "nodejs"])?;
    let here = std::env::current_dir().ok();
    let modules = here
        .into_iter()
        .chain([PathBuf::from(env!("CARGO_MANIFEST_DIR"))])
        .map(|d| d.join("tests/browser/node_modules"))
        .find(|d| d.join("playwright-core/package.json").is_file())?;
    Some((node, modules))
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

const WARM_SCRIPT: &str = include_str!("warm_chromium.mjs");

/// What a renderer made: the time of each shot and its last picture.
pub struct Shots {
    pub samples: Samples,
    pub last_png: Vec<u8>,
}

/// Time `reps` screenshots of `svg` by one warm Chromium (`bin`), driven by
/// playwright-core from `modules` through `node`: started once, one shot
/// to warm it, then a fresh page per shot. Only the shots are timed.
pub fn warm_screenshots(
    node: &Path,
    modules: &Path,
    bin: &Path,
    svg: &str,
    reps: usize,
) -> anyhow::Result<Shots> {
    let (w, h) = svg_size(svg).ok_or_else(|| anyhow::anyhow!("the SVG has no pixel size"))?;
    let dir = Scratch::new("warm-chromium")?;
    let file = dir.path().join("map.svg");
    std::fs::write(&file, svg)?;
    let script = dir.path().join("warm_chromium.mjs");
    std::fs::write(&script, WARM_SCRIPT)?;
    let last = dir.path().join("last.png");
    let plan = serde_json::json!({
        "modules": modules,
        "chromium": bin,
        "svg": file,
        "width": w,
        "height": h,
        "reps": reps.max(1),
        "last": last,
    });
    let plan_file = dir.path().join("plan.json");
    std::fs::write(&plan_file, plan.to_string())?;
    let out = Command::new(node)
        .arg(&script)
        .arg(&plan_file)
        .stdin(Stdio::null())
        .output()?;
    if !out.status.success() {
        anyhow::bail!(
            "the warm-browser script failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let ms: Vec<f64> = serde_json::from_slice(&out.stdout).map_err(|e| {
        anyhow::anyhow!(
            "the warm-browser script printed no timings ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    })?;
    let mut samples = Samples::default();
    for m in ms {
        samples.push(Duration::from_secs_f64(m.max(0.0) / 1000.0));
    }
    Ok(Shots {
        samples,
        last_png: std::fs::read(&last)?,
    })
}

/// Time `reps` conversions of `svg` to PNG by `rsvg-convert` (`bin`), a
/// process each, as its command line is used.
pub fn rsvg_convert(bin: &Path, svg: &str, reps: usize) -> anyhow::Result<Shots> {
    let dir = Scratch::new("rsvg")?;
    let file = dir.path().join("map.svg");
    std::fs::write(&file, svg)?;
    let png = dir.path().join("map.png");
    let mut samples = Samples::default();
    for _ in 0..reps.max(1) {
        let t = Instant::now();
        let status = Command::new(bin)
            .args(["--format", "png", "--output"])
            .arg(&png)
            .arg(&file)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()?;
        let elapsed = t.elapsed();
        if !status.success() || !png.is_file() {
            anyhow::bail!("{} made no PNG ({status})", bin.display());
        }
        samples.push(elapsed);
    }
    Ok(Shots {
        samples,
        last_png: std::fs::read(&png)?,
    })
}

/// The width and height a PNG's header declares.
pub fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    if png.len() < 24 || &png[..8] != b"\x89PNG\r\n\x1a\n" || &png[12..16] != b"IHDR" {
        return None;
    }
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    Some((be(&png[16..20]), be(&png[20..24])))
}

/// The rows of the warm browser and of rsvg-convert against our PNG
/// (`png`: the median seconds of our "render PNG" of `svg`), each with its
/// goal. `quick` skips them, as it skips every outside renderer.
pub fn yardsticks(section: &str, png: f64, svg: &str, quick: bool, r: &mut Report) {
    const WARM: &str = "our PNG vs a warm Chromium (kept open, a page per shot)";
    const RSVG: &str = "our PNG vs rsvg-convert (a process per map)";
    let goal = format!("goal: our PNG at least {WARM_GOAL:.0}x faster than a warm browser");
    if quick {
        r.add(section, WARM, "skipped", format!("--quick; {goal}"));
        r.add(
            section,
            RSVG,
            "skipped",
            "--quick; for scale, no goal of its own",
        );
        return;
    }
    let ratio = |other: f64| other / png.max(1e-9);
    match (find(), find_playwright()) {
        (None, _) => r.add(
            section,
            WARM,
            "skipped",
            format!("Chromium not found on PATH (apt-get install chromium); {goal}"),
        ),
        (_, None) => r.add(
            section,
            WARM,
            "skipped",
            format!(
                "node or tests/browser/node_modules/playwright-core missing (apt-get install nodejs npm; cd tests/browser && npm ci); {goal}"
            ),
        ),
        (Some(bin), Some((node, modules))) => {
            match warm_screenshots(&node, &modules, &bin, svg, 10) {
                Ok(c) => {
                    let x = ratio(c.samples.median());
                    r.add(
                        section,
                        WARM,
                        format!("{x:.1}x faster"),
                        format!(
                            "{} / {} (median of {} shots, p90 {}); {goal}: {}",
                            human(png),
                            human(c.samples.median()),
                            c.samples.len(),
                            human(c.samples.p90()),
                            if x >= WARM_GOAL { "met" } else { "NOT met" }
                        ),
                    )
                }
                Err(e) => r.add(section, WARM, "skipped", format!("failed: {e}; {goal}")),
            }
        }
    }
    match find_rsvg() {
        None => r.add(
            section,
            RSVG,
            "skipped",
            "rsvg-convert not found on PATH (apt-get install librsvg2-bin)",
        ),
        Some(bin) => match rsvg_convert(&bin, svg, 5) {
            Ok(c) => r.add(
                section,
                RSVG,
                format!("{:.1}x faster", ratio(c.samples.median())),
                format!(
                    "{} / {} (median of {} runs); for scale, no goal of its own",
                    human(png),
                    human(c.samples.median()),
                    c.samples.len()
                ),
            ),
            Err(e) => r.add(section, RSVG, "skipped", format!("failed: {e}")),
        },
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn reads_the_root_size() {
        let svg = r#"<?xml version="1.0"?><svg xmlns="x" width="1400" height="933.5" viewBox="0 0 1 1"><g/></svg>"#;
        assert_eq!(super::svg_size(svg), Some((1400, 934)));
    }

    #[test]
    fn reads_a_png_header() {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        png.extend(1400u32.to_be_bytes());
        png.extend(934u32.to_be_bytes());
        assert_eq!(super::png_size(&png), Some((1400, 934)));
        assert_eq!(super::png_size(b"GIF89a"), None);
    }

    /// A small map: a red field with a blue square and a word.
    const MAP: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200"><rect width="320" height="200" fill="#c00"/><rect x="20" y="20" width="60" height="60" fill="#00c"/><text x="100" y="120" font-size="20">Hollowbrook</text></svg>"##;

    #[test]
    fn a_warm_chromium_shoots_each_page_at_the_maps_size() {
        let (Some(bin), Some((node, modules))) = (super::find(), super::find_playwright()) else {
            eprintln!("skipped: chromium, node or playwright-core (tests/browser) missing");
            return;
        };
        let shots = super::warm_screenshots(&node, &modules, &bin, MAP, 3).unwrap();
        assert_eq!(shots.samples.len(), 3, "one time per shot");
        assert!(
            shots.samples.quantile(0.0) > 0.0 && shots.samples.quantile(1.0) < 60.0,
            "each shot takes some time and less than a minute"
        );
        assert_eq!(super::png_size(&shots.last_png), Some((320, 200)));
        // The shot is the map, not a blank page: red and blue both show.
        let img = image_pixels(&shots.last_png);
        assert!(img.iter().any(|p| p[0] > 180 && p[2] < 60), "red field");
        assert!(img.iter().any(|p| p[2] > 180 && p[0] < 60), "blue square");
    }

    #[test]
    fn rsvg_convert_draws_the_map_at_its_size() {
        let Some(bin) = super::find_rsvg() else {
            eprintln!("skipped: rsvg-convert missing (apt-get install librsvg2-bin)");
            return;
        };
        let shots = super::rsvg_convert(&bin, MAP, 2).unwrap();
        assert_eq!(shots.samples.len(), 2);
        assert_eq!(super::png_size(&shots.last_png), Some((320, 200)));
    }

    #[test]
    fn quick_skips_both_rows_and_names_the_goal() {
        let mut r = super::super::report::Report::default();
        super::yardsticks("maurice-lite", 0.01, MAP, true, &mut r);
        assert_eq!(r.rows.len(), 2);
        assert!(r.rows.iter().all(|row| row.figure == "skipped"));
        assert!(
            r.rows[0]
                .note
                .contains("our PNG at least 20x faster than a warm browser")
        );
    }

    /// The RGBA pixels of a PNG.
    fn image_pixels(png: &[u8]) -> Vec<[u8; 4]> {
        let mut dec = png::Decoder::new(std::io::Cursor::new(png));
        dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
        let mut reader = dec.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        let ch = info.color_type.samples();
        buf[..info.buffer_size()]
            .chunks(ch)
            .map(|c| match ch {
                4 => [c[0], c[1], c[2], c[3]],
                3 => [c[0], c[1], c[2], 255],
                _ => [c[0], c[0], c[0], 255],
            })
            .collect()
    }
}

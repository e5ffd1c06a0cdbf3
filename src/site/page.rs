//! The index, the game pages, and each step's scripts, from askama
//! templates in `templates/site/`. Pages opened from `file://` cannot
//! fetch, so what a page carries is JSON in a script: the game's own files
//! in a `<script type="application/json">` of its page, and each step's in
//! a classic script of its own (`games/GAME/step-NNNN.js`, calling the
//! page's `GalloperStep`), which the page loads by adding a `<script src>`
//! as the reader comes to the step. The binary files (the maps' PNGs, which
//! the replay does not show) are in `games/GAME/files-NNNN.js`, as base64,
//! loaded only when the audit runs.

use super::Summary;
use super::bundle::Bundle;
use super::maps::StepMap;
use anyhow::Context;
use askama::Template;

#[derive(Template)]
#[template(path = "site/index.html")]
struct IndexHtml<'a> {
    games: &'a [&'a Summary],
    club: Option<&'a str>,
    pinned: Option<&'a str>,
}

#[derive(Template)]
#[template(path = "site/game.html")]
struct GameHtml<'a> {
    s: &'a Summary,
    /// The game's own files and the list of its steps, as JSON safe inside
    /// a script element.
    data: String,
}

pub fn index(
    games: &[&Summary],
    club: Option<&str>,
    pinned: Option<&str>,
) -> anyhow::Result<String> {
    IndexHtml {
        games,
        club,
        pinned,
    }
    .render()
    .context("cannot make the index page")
}

/// The script of part `n` of a game (its step N, see `bundle::part_of`).
pub fn step_script_name(s: &Summary, n: u32) -> String {
    format!("{}/step-{n:04}.js", s.dir)
}

/// The script of part `n`'s binary files.
pub fn files_script_name(s: &Summary, n: u32) -> String {
    format!("{}/files-{n:04}.js", s.dir)
}

/// A game's page: its own files (`game`, part 0), its resolved steps and
/// the parts that have scripts.
pub fn game(
    s: &Summary,
    game: &Bundle,
    steps: &[u32],
    parts: &[u32],
    start: Option<String>,
) -> anyhow::Result<String> {
    let data = serde_json::json!({
        "game": s.game,
        "title": s.title,
        "dir": s.dir,
        "files": game.text,
        "binary_paths": game.binary.keys().collect::<Vec<_>>(),
        "steps": steps,
        "parts": parts,
        "start_state": start,
        "built": {
            "audit": s.audit,
            "passed": s.audit_passed,
            "place": s.audit_place,
            "server_key": s.server_key,
            "pinned": s.pinned,
        },
    });
    GameHtml {
        s,
        data: script_json(&data.to_string()),
    }
    .render()
    .with_context(|| format!("cannot make the page of {}", s.game))
}

/// What a step's script carries beside its files.
pub struct Step<'a> {
    /// The step's title (`maps::heading`), for a resolved step.
    pub heading: Option<&'a str>,
    pub map: Option<&'a StepMap>,
    pub told: Option<&'a [crate::view::EventLine]>,
}

/// Part `n`'s script: its text files, the paths of its binary files (in
/// its files script), and for a resolved step its title, map and lines.
pub fn step_script(s: &Summary, n: u32, part: &Bundle, step: &Step) -> String {
    let data = serde_json::json!({
        "game": s.game,
        "step": n,
        "files": part.text,
        "binary_paths": part.binary.keys().collect::<Vec<_>>(),
        "heading": step.heading,
        "map": step.map,
        "told": step.told,
    });
    format!("GalloperStep({});\n", script_json(&data.to_string()))
}

/// Part `n`'s binary files, as base64.
pub fn files_script(s: &Summary, n: u32, part: &Bundle) -> String {
    let mut out = format!(
        "GalloperFiles({{\"game\":{},\"step\":{n},\"files\":{{",
        script_json(&serde_json::json!(s.game).to_string())
    );
    for (i, (path, bytes)) in part.binary.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&script_json(&serde_json::json!(path).to_string()));
        out.push_str(":\"");
        base64(bytes, &mut out);
        out.push('"');
    }
    out.push_str("}});\n");
    out
}

pub(crate) use crate::base64::encode as base64;

/// JSON that cannot end its script element nor open a comment in it: every
/// `<` (which JSON only has inside strings) becomes `\u003c`.
fn script_json(json: &str) -> String {
    json.replace('<', "\\u003c")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_archive_cannot_close_the_script_that_carries_it() {
        let json = serde_json::json!({"f": "</script><script>alert(1)</script><!--"}).to_string();
        let safe = script_json(&json);
        assert!(!safe.contains('<'), "{safe}");
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back["f"], "</script><script>alert(1)</script><!--");
    }

    #[test]
    fn base64_is_the_standard_one() {
        for (bytes, b64) in [
            (&b""[..], ""),
            (b"f", "Zg=="),
            (b"fo", "Zm8="),
            (b"foo", "Zm9v"),
            (b"foob", "Zm9vYg=="),
            (&[0xff, 0xfe, 0x00, 0x89][..], "//4AiQ=="),
        ] {
            let mut s = String::new();
            base64(bytes, &mut s);
            assert_eq!(s, b64, "{bytes:?}");
        }
    }
}

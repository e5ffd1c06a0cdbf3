//! The index and the game pages, from askama templates in `templates/site/`.
//! A game's page carries its archive as JSON in a `<script
//! type="application/json">`: pages opened from `file://` cannot fetch.

use super::Summary;
use super::bundle::Bundle;
use super::maps::StepMap;
use anyhow::Context;
use askama::Template;
use std::collections::BTreeMap;

#[derive(Template)]
#[template(path = "site/index.html")]
struct IndexHtml<'a> {
    games: &'a [&'a Summary],
}

#[derive(Template)]
#[template(path = "site/game.html")]
struct GameHtml<'a> {
    s: &'a Summary,
    /// The archive as JSON, safe inside a script element.
    data: String,
}

pub fn index(games: &[&Summary]) -> anyhow::Result<String> {
    IndexHtml { games }
        .render()
        .context("cannot make the index page")
}

/// The script that carries a game's binary files (the maps' PNGs, which the
/// replay does not show): a page loads it only when its audit runs, so a
/// reader who only watches downloads the text alone.
pub fn binary_script_name(s: &Summary) -> String {
    format!("{}.files.js", s.game)
}

pub fn binary_script(s: &Summary, bundle: &Bundle) -> String {
    let json = serde_json::json!(bundle.binary).to_string();
    format!(
        "globalThis.GalloperBinary = globalThis.GalloperBinary || {{}};\nglobalThis.GalloperBinary[{}] = {};\n",
        script_json(&serde_json::json!(s.game).to_string()),
        script_json(&json)
    )
}

pub fn game(
    s: &Summary,
    bundle: &Bundle,
    maps: &BTreeMap<u32, StepMap>,
    told: &BTreeMap<u32, Vec<crate::view::EventLine>>,
    start: Option<String>,
) -> anyhow::Result<String> {
    let data = serde_json::json!({
        "game": s.game,
        "title": s.title,
        "files": bundle.text,
        "binary_paths": bundle.binary.keys().collect::<Vec<_>>(),
        "binary_script": binary_script_name(s),
        "maps": maps,
        "told": told,
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
}

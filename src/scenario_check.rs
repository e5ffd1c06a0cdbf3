//! What every scenario must be, whatever its ruleset: small enough to load,
//! with ids in a safe alphabet and names that are plain text on one line.
//!
//! A scenario's names reach orders templates (YAML that players edit and
//! sign), terminals and mail. A line feed in a unit's name once injected a
//! real line into a template, and an ESC or NUL reached the terminal; a
//! scenario of 10^6 units a side exhausted memory. So the scenario's text
//! is bounded before any parser runs ([`size`]), every string in it is
//! checked once parsed ([`contents`]), and each ruleset bounds what only
//! it can count ([`units_a_side`]). Each refusal names the offending entry and
//! the limit.

use serde_yaml::Value;

/// The most bytes a scenario file may have (its whole text).
pub const MAX_BYTES: usize = 1024 * 1024;
/// The most units (companies, ...) a side may field: the scaling benchmark
/// plays 1000.
pub const MAX_UNITS_A_SIDE: usize = 2000;
/// The most points of one polygon or polyline.
pub const MAX_POINTS: usize = 10_000;
/// The most entries of any other list (terrain, cards, objectives, ...).
pub const MAX_LIST: usize = 10_000;
/// The most characters of an id.
pub const MAX_ID_CHARS: usize = 64;
/// The most characters of a name, a colour or any other one-line string.
pub const MAX_NAME_CHARS: usize = 200;
/// The most characters of a free text (`description`, a card's `text`, a
/// terrain's `note`).
pub const MAX_TEXT_CHARS: usize = 10_000;

/// Keys whose strings are free text: several lines (line feeds and tabs)
/// are allowed there, other control characters are not.
const TEXT_KEYS: [&str; 3] = ["description", "text", "note"];

/// Refuse a scenario too big to parse, before any parser sees it.
pub fn size(text: &str) -> Result<(), String> {
    if text.len() > MAX_BYTES {
        return Err(format!(
            "the scenario is {} bytes, more than the limit of {MAX_BYTES} bytes: \
             split the battle or trim its units and terrain",
            text.len()
        ));
    }
    Ok(())
}

/// Refuse a side with more than [`MAX_UNITS_A_SIDE`] units; `what` is the
/// ruleset's word for them ("units", "companies").
pub fn units_a_side(side: &str, what: &str, n: usize) -> Result<(), String> {
    if n > MAX_UNITS_A_SIDE {
        return Err(format!(
            "side {side} has {n} {what}, more than the limit of {MAX_UNITS_A_SIDE} a side"
        ));
    }
    Ok(())
}

/// Check each terrain feature's geometry (`TerrainFeature::validate`:
/// finite numbers, enough points, sizes a table can hold, an outline that
/// does not cross itself), naming the first feature at fault: for every
/// ruleset whose scenario gives its terrain as tagged features.
pub fn terrain(features: &[crate::geometry::TerrainFeature]) -> Result<(), String> {
    for t in features {
        t.validate().map_err(|e| format!("terrain {}: {e}", t.id))?;
    }
    Ok(())
}

/// Check every string and list of a parsed scenario: ids in the safe
/// alphabet, names on one line without control characters, texts and lists
/// bounded.
pub fn contents(scenario: &Value) -> Result<(), String> {
    walk(scenario, &mut String::new(), None)
}

/// Whether `id` is 1 to [`MAX_ID_CHARS`] letters, digits, `-`, `_` and `.`.
pub fn safe_id(id: &str) -> bool {
    !id.is_empty()
        && id.chars().count() <= MAX_ID_CHARS
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// A character no name may hold: control characters (C0, DEL, C1), the
/// Unicode line and paragraph separators (YAML 1.1 readers break lines
/// there) and the bidirectional overrides that reorder what a terminal shows.
pub fn forbidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}'
        )
}

fn walk(v: &Value, path: &mut String, key: Option<&str>) -> Result<(), String> {
    match v {
        Value::String(s) => string(s, path, key),
        Value::Sequence(items) => {
            let limit = if key == Some("points") {
                MAX_POINTS
            } else {
                MAX_LIST
            };
            if items.len() > limit {
                return Err(format!(
                    "{}: {} entries, more than the limit of {limit}",
                    shown(path),
                    items.len()
                ));
            }
            for (i, item) in items.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                if let Some(id) = item.get("id").and_then(Value::as_str)
                    && safe_id(id)
                {
                    path.push_str(&format!(" (id {id})"));
                }
                walk(item, path, key)?;
                path.truncate(len);
            }
            Ok(())
        }
        Value::Mapping(m) => {
            for (k, item) in m {
                let name = match k {
                    Value::String(s) => s.as_str(),
                    // Non-string keys are for the scenario's types to refuse.
                    _ => continue,
                };
                string(name, path, None)?;
                let len = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(name);
                walk(item, path, Some(name))?;
                path.truncate(len);
            }
            Ok(())
        }
        Value::Tagged(t) => walk(&t.value, path, key),
        Value::Null | Value::Bool(_) | Value::Number(_) => Ok(()),
    }
}

fn shown(path: &str) -> String {
    if path.is_empty() {
        "the scenario".into()
    } else {
        path.to_string()
    }
}

fn string(s: &str, path: &str, key: Option<&str>) -> Result<(), String> {
    let at = shown(path);
    if key == Some("id") {
        if !safe_id(s) {
            return Err(format!(
                "{at}: id {s:?} is not allowed: use 1 to {MAX_ID_CHARS} letters, digits, '-', '_' and '.'"
            ));
        }
        return Ok(());
    }
    let text = key.is_some_and(|k| TEXT_KEYS.contains(&k));
    let limit = if text { MAX_TEXT_CHARS } else { MAX_NAME_CHARS };
    if s.chars().count() > limit {
        return Err(format!(
            "{at}: {} characters, more than the limit of {limit}",
            s.chars().count()
        ));
    }
    let bad = s
        .chars()
        .enumerate()
        .find(|&(_, c)| forbidden(c) && !(text && matches!(c, '\n' | '\t')));
    if let Some((i, c)) = bad {
        return Err(format!(
            "{at}: {s:?} holds the control character U+{:04X} at character {}: {}",
            u32::from(c),
            i + 1,
            if text {
                "a text may hold line feeds and tabs, no other control character"
            } else {
                "names are plain text on one line, without control characters"
            }
        ));
    }
    Ok(())
}

/// A scenario file, refused unread when it is bigger than any scenario may be.
pub fn read(path: &std::path::Path) -> anyhow::Result<String> {
    use anyhow::{Context as _, bail};
    use std::io::Read as _;
    let limit = MAX_BYTES;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(limit as u64 + 1).read_to_end(&mut bytes))
        .with_context(|| format!("cannot read {}", path.display()))?;
    if bytes.len() > limit {
        bail!(
            "{}: the scenario is more than the limit of {limit} bytes: split the battle or trim its units and terrain",
            path.display()
        );
    }
    String::from_utf8(bytes).with_context(|| format!("{} is not UTF-8 text", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(yaml: &str) -> Result<(), String> {
        contents(&serde_yaml::from_str(yaml).unwrap())
    }

    #[test]
    fn terrain_at_fault_is_named_by_its_id() {
        use crate::geometry::{Point, Shape, TerrainFeature};
        let feature = |id: &str, points: Vec<Point>| TerrainFeature {
            id: id.into(),
            name: id.into(),
            tags: Vec::new(),
            elevation: None,
            shape: Shape::Polygon { points },
        };
        let wood = feature(
            "wood",
            vec![
                Point::new(0.0, 0.0),
                Point::new(4.0, 0.0),
                Point::new(0.0, 4.0),
            ],
        );
        assert_eq!(terrain(std::slice::from_ref(&wood)), Ok(()));
        let sliver = feature("sliver", vec![Point::new(0.0, 0.0), Point::new(1.0, 0.0)]);
        let err = terrain(&[wood, sliver]).unwrap_err();
        assert!(err.starts_with("terrain sliver: "), "{err}");
    }

    #[test]
    fn plain_scenarios_pass() {
        check("title: A battle\ndescription: \"two lines\\nof text\"\nsides:\n  - id: fr-1.a_b\n    name: 1er Régiment d'Infanterie\n").unwrap();
    }

    #[test]
    fn refusals_name_the_entry_and_the_rule() {
        let e = check(
            "sides:\n  - id: blue\n    units:\n      - {id: u1, name: \"Guard\\nround: x\"}\n",
        )
        .unwrap_err();
        assert!(
            e.contains("sides[0] (id blue).units[0] (id u1).name"),
            "{e}"
        );
        assert!(e.contains("U+000A"), "{e}");
        let e = check("sides:\n  - id: \"a/b\"\n").unwrap_err();
        assert!(e.contains("sides[0].id") && e.contains("\"a/b\""), "{e}");
        let e = check("title: \"x\\u202ey\"\n").unwrap_err();
        assert!(e.contains("U+202E"), "{e}");
        let e = check("description: \"a\\u0007b\"\n").unwrap_err();
        assert!(e.contains("line feeds and tabs"), "{e}");
    }

    #[test]
    fn lists_and_strings_are_bounded() {
        let points = vec!["{x: 0, y: 0}"; MAX_POINTS + 1].join(", ");
        let e = check(&format!("terrain:\n  - id: t\n    points: [{points}]\n")).unwrap_err();
        assert!(
            e.contains("terrain[0] (id t).points") && e.contains("10000"),
            "{e}"
        );
        let long = "x".repeat(MAX_NAME_CHARS + 1);
        let e = check(&format!("title: {long}\n")).unwrap_err();
        assert!(e.contains("title") && e.contains("200"), "{e}");
        assert!(size(&"x".repeat(MAX_BYTES + 1)).is_err());
        assert!(units_a_side("blue", "units", MAX_UNITS_A_SIDE + 1).is_err());
    }
}

//! YAML the way players write it: an enum is a one-key map (`march: {...}`,
//! `forward: 3`), never a `!tag`. Every YAML read or written by Galloper goes
//! through here, so stored states and replayed ones are byte-identical.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_yaml::with::singleton_map_recursive;

pub use serde_yaml::Error;

pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, Error> {
    singleton_map_recursive::deserialize(serde_yaml::Deserializer::from_str(text))
}

pub fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Error> {
    singleton_map_recursive::deserialize(serde_yaml::Deserializer::from_slice(bytes))
}

pub fn from_value<T: DeserializeOwned>(value: serde_yaml::Value) -> Result<T, Error> {
    singleton_map_recursive::deserialize(value)
}

pub fn to_string<T: Serialize>(value: &T) -> Result<String, Error> {
    let mut buf = Vec::new();
    let mut ser = serde_yaml::Serializer::new(&mut buf);
    singleton_map_recursive::serialize(value, &mut ser)?;
    // The serializer writes UTF-8 only.
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

/// `value` as the tree its YAML text reads back as (enums as one-key
/// maps, as a player writes them): what a demo player hands the server
/// as an `orders:` block.
pub fn to_value<T: Serialize>(value: &T) -> Result<serde_yaml::Value, Error> {
    from_str(&to_string(value)?)
}

/// A list key whose value may be left empty (`moves:` with every entry
/// below it commented out) reads as an empty list: a template keeps its
/// list keys live, and a player uncomments only the entries he wants.
/// Use with `#[serde(default, deserialize_with = "crate::yaml::list")]`
/// and `#[schemars(with = "Option<Vec<T>>")]`.
pub fn list<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    use serde::Deserialize;
    Ok(Option::<Vec<T>>::deserialize(d)?.unwrap_or_default())
}

/// `s` as a YAML double-quoted scalar, for a name printed into a file that
/// players edit (an orders template): quotes, backslashes, line breaks and
/// every control character are escaped, so the name stays one string on
/// one line whatever it holds, and reads back as itself.
pub fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() || crate::scenario_check::forbidden(c) => {
                out.push_str(&format!("\\u{:04X}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `s` as a YAML value in a template: plain when it can only read back as
/// the same string (a letter, then letters, digits, `-`, `_` and `.`, and
/// not a word YAML reads as a boolean or null), [`quoted`] otherwise.
pub fn scalar(s: &str) -> String {
    const WORDS: [&str; 9] = ["y", "n", "yes", "no", "on", "off", "true", "false", "null"];
    let plain = s.starts_with(|c: char| c.is_ascii_alphabetic())
        && crate::scenario_check::safe_id(s)
        && !WORDS.contains(&s.to_ascii_lowercase().as_str());
    if plain { s.to_string() } else { quoted(s) }
}

#[cfg(test)]
mod tests {
    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "snake_case")]
    enum Step {
        Forward(f64),
        AboutFace,
    }

    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Turn {
        #[serde(default, deserialize_with = "super::list")]
        moves: Vec<u32>,
        #[serde(default, deserialize_with = "super::list")]
        fire: Vec<u32>,
    }

    #[test]
    fn a_value_has_its_enums_as_one_key_maps_as_a_file_reads() {
        let v = super::to_value(&vec![Step::Forward(3.0), Step::AboutFace]).unwrap();
        let first = v.get(0).and_then(|m| m.get("forward"));
        assert_eq!(first.and_then(serde_yaml::Value::as_f64), Some(3.0));
        assert_eq!(v.get(1).and_then(|s| s.as_str()), Some("about_face"));
        let back: Vec<Step> = super::from_value(v).unwrap();
        assert_eq!(back, vec![Step::Forward(3.0), Step::AboutFace]);
    }

    #[test]
    fn a_list_key_left_empty_reads_as_no_entries() {
        let t: Turn = super::from_str(
            "moves:
  # - 1
fire:
  - 2
",
        )
        .unwrap();
        assert_eq!(
            t,
            Turn {
                moves: vec![],
                fire: vec![2]
            }
        );
        let t: Turn = super::from_str(
            "fire: []
",
        )
        .unwrap();
        assert_eq!(
            t,
            Turn {
                moves: vec![],
                fire: vec![]
            }
        );
        assert!(
            super::from_str::<Turn>(
                "moves: 3
"
            )
            .is_err()
        );
    }

    #[test]
    fn enums_are_one_key_maps_both_ways() {
        let steps: Vec<Step> = super::from_str("- forward: 3\n- about_face\n").unwrap();
        assert_eq!(steps, vec![Step::Forward(3.0), Step::AboutFace]);
        let text = super::to_string(&steps).unwrap();
        assert!(text.contains("forward: 3"), "{text}");
        assert_eq!(super::from_str::<Vec<Step>>(&text).unwrap(), steps);
    }

    #[test]
    fn quoted_names_read_back_whole_on_one_line() {
        // A name that would inject a line, a key, a comment or a flow if
        // printed raw, and control characters that would reach a terminal.
        let names = [
            "Guard\nround:\n  command: pass",
            "Old Guard: round: {x: 1} # [a, b]",
            "\"quoted\" \\ back\\slash",
            "esc \u{1b}[31m red, nul \u{0} end, del \u{7f}, nel \u{85}",
            "line \u{2028} sep \u{202e}rtl",
            "R\u{e9}giment d'Infanterie",
        ];
        for name in names {
            let q = super::quoted(name);
            assert!(!q.contains('\n') && !q.chars().any(char::is_control), "{q}");
            let doc = format!("# {q}\nunit: {q}   # {q}\n");
            let v: serde_yaml::Value = super::from_str(&doc).unwrap();
            let m = v.as_mapping().unwrap();
            assert_eq!(m.len(), 1, "one key only: {doc}");
            assert_eq!(v["unit"].as_str(), Some(name), "{doc}");
        }
    }

    #[test]
    fn scalars_are_plain_only_when_they_read_back_as_strings() {
        assert_eq!(super::scalar("fr-1"), "fr-1");
        assert_eq!(super::scalar("c01"), "c01");
        for s in ["true", "No", "null", "1", "1.5", ".inf", "-", "a b", "a: b"] {
            let q = super::scalar(s);
            let v: serde_yaml::Value = super::from_str(&format!("k: {q}\n")).unwrap();
            assert_eq!(v["k"].as_str(), Some(s), "{s} -> {q}");
        }
    }
}

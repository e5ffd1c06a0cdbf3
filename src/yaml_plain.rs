//! The YAML reader's complaints in a player's words. The parser says what
//! its grammar missed ("did not find expected ',' or ']' ... while parsing
//! a flow sequence at line 24 column 13"); a player needs the line that
//! went wrong, what belongs there, and an example to copy. Complaints not
//! known here are passed on as the parser said them.

/// A complaint in plain words, and the line it is about (where what was
/// left open began, rather than where the parser noticed).
#[derive(Clone, Debug, PartialEq)]
pub struct Plain {
    pub line: Option<usize>,
    pub words: String,
}

/// `message` (the parser's, about `text`) in plain words, with the line it
/// is about quoted; none when the message is not one known here.
pub fn explain(message: &str, text: &str) -> Option<Plain> {
    let opened = opened_at(message);
    let quote = |n: usize| -> String {
        text.lines()
            .nth(n.saturating_sub(1))
            .map(|l| format!(" Line {n} reads: `{}`.", l.trim()))
            .unwrap_or_default()
    };
    let (what, line) = if message.contains("expected ',' or ']'") {
        (
            "a list opened with `[` is not closed: write its entries between `[` and `]` on one line, separated by commas, e.g. `hold_fire: [fr-46, fr-57]` (or `[]` for none)".to_string(),
            opened,
        )
    } else if message.contains("expected ',' or '}'") {
        (
            "a map opened with `{` is not closed: write its keys between `{` and `}` on one line, separated by commas, e.g. `to: {x: 62.0, y: 19.9}`".to_string(),
            opened,
        )
    } else if message.contains("mapping values are not allowed") {
        (
            "a `:` stands where no key can start: a value that holds `: ` needs quotes (e.g. `note: \"left: hold\"`), and a key must line up with the keys above it".to_string(),
            at_line(message),
        )
    } else if message.contains("did not find expected key") || message.contains("block mapping") {
        (
            "this line is not indented as the keys of its map are: keys of one map start in the same column, each nested map two spaces further in, e.g.\n    orders:\n      moves:\n        - unit: fr-46".to_string(),
            at_line(message),
        )
    } else if message.contains("expected '-' indicator") {
        (
            "this line breaks a list: each entry starts with `- ` in the same column as the entries before it".to_string(),
            at_line(message),
        )
    } else if message.contains("cannot start any token") {
        (
            "a value starts with a character YAML keeps for itself (`@`, a backquote, `%` or a tab): put the value in quotes, e.g. `name: \"@home\"`".to_string(),
            at_line(message),
        )
    } else if message.contains("could not find expected ':'") {
        (
            "a key has no `:` after it: write `key: value`, e.g. `unit: fr-46`".to_string(),
            at_line(message).or(opened),
        )
    } else if let Some(key) = duplicate_key(message) {
        let lines = key_lines(text, &key, at_line(message).unwrap_or(1));
        let on = match lines.as_slice() {
            [a, b, ..] => format!(" (lines {a} and {b})"),
            _ => String::new(),
        };
        (
            format!(
                "`{key}` is given twice{on}: a map takes each key once. If you uncommented an example, delete the template's own `{key}:` line (or the example), so that one is left"
            ),
            lines.get(1).copied().or_else(|| at_line(message)),
        )
    } else if message.contains("quoted scalar") {
        (
            "a quote opened here is never closed: end the value with the same quote it starts with, e.g. `name: \"6e Léger\"`".to_string(),
            opened.or_else(|| at_line(message)),
        )
    } else {
        return None;
    };
    let line = line.or_else(|| at_line(message));
    Some(Plain {
        line,
        words: match line {
            Some(n) => format!("{what}.{}", quote(n)),
            None => format!("{what}."),
        },
    })
}

/// The key of "duplicate entry with key \"command\"".
fn duplicate_key(message: &str) -> Option<String> {
    let (_, rest) = message.split_once("duplicate entry with key \"")?;
    rest.split_once('"').map(|(k, _)| k.to_string())
}

/// The lines, from `from` on, where `key:` starts an entry.
fn key_lines(text: &str, key: &str, from: usize) -> Vec<usize> {
    text.lines()
        .enumerate()
        .skip(from.saturating_sub(1))
        .filter(|(_, l)| {
            let t = l.trim_start().trim_start_matches("- ");
            t.starts_with(&format!("{key}:"))
        })
        .map(|(i, _)| i + 1)
        .collect()
}

/// "... while parsing a flow sequence at line 24 column 13": where the
/// thing left open began.
fn opened_at(message: &str) -> Option<usize> {
    let (_, rest) = message.split_once(" while ")?;
    number_after(rest, "at line ")
}

/// The first "at line N" of the message: where the parser stopped.
fn at_line(message: &str) -> Option<usize> {
    number_after(message, "at line ")
}

fn number_after(s: &str, key: &str) -> Option<usize> {
    let (_, rest) = s.split_once(key)?;
    rest.split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(text: &str) -> String {
        let e = crate::yaml::from_str::<serde_yaml::Value>(text).expect_err("does not parse");
        let p = explain(&e.to_string(), text).unwrap_or_else(|| panic!("not explained: {e}"));
        format!("line {}: {}", p.line.unwrap_or(0), p.words)
    }

    #[test]
    fn an_unclosed_list_names_the_line_that_opened_it_with_an_example() {
        let text = "a: 1\nhold_fire: [fr-46\nb: 2\nc: 3\n";
        let s = said(text);
        assert!(
            s.starts_with("line 2: a list opened with `[` is not closed"),
            "{s}"
        );
        assert!(s.contains("e.g. `hold_fire: [fr-46, fr-57]`"), "{s}");
        assert!(s.contains("Line 2 reads: `hold_fire: [fr-46`"), "{s}");
    }

    #[test]
    fn an_unclosed_map_and_a_stray_colon_are_told_apart() {
        assert!(said("to: {x: 1, y: 2\nb: 3\n").contains("a map opened with `{`"));
        let s = said("note: left: hold\n");
        assert!(s.contains("needs quotes"), "{s}");
        assert!(s.starts_with("line 1"), "{s}");
    }

    #[test]
    fn bad_indentation_and_an_open_quote_say_what_to_do() {
        let s = said("orders:\n  moves:\n    - unit: a\n   x: 1\n");
        assert!(s.contains("indented") || s.contains("list"), "{s}");
        let s = said("name: \"6e Léger\nb: 1\n");
        assert!(s.contains("never closed"), "{s}");
    }

    #[test]
    fn a_key_given_twice_names_both_lines_and_what_to_delete() {
        let s = said("round:\n  volleys: false\n  command: pass\n  command:\n    march: 1\n");
        assert!(
            s.starts_with("line 4: `command` is given twice (lines 3 and 4)"),
            "{s}"
        );
        assert!(
            s.contains("delete the template's own `command:` line"),
            "{s}"
        );
    }

    #[test]
    fn an_unknown_complaint_is_left_to_the_caller() {
        assert_eq!(explain("something else entirely", ""), None);
    }
}

//! Greedy word wrapping for the plain-text report.

/// Wraps `text` to `width` characters: the first line starts with `first`,
/// the others with `rest`. Words longer than a line (hashes, paths) are kept
/// whole on a line of their own rather than broken.
pub(crate) fn wrap(text: &str, width: usize, first: &str, rest: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = first.to_string();
    let mut prefix_len = first.chars().count();
    let mut len = prefix_len;
    for word in text.split_whitespace() {
        let w = word.chars().count();
        if len > prefix_len && len + 1 + w > width {
            lines.push(line);
            line = rest.to_string();
            prefix_len = rest.chars().count();
            len = prefix_len;
        }
        if len > prefix_len {
            line.push(' ');
            len += 1;
        }
        line.push_str(word);
        len += w;
    }
    lines.push(line.trim_end().to_string());
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_at_width_with_hanging_indent() {
        let lines = wrap("one two three four five six", 14, "1. ", "   ");
        assert_eq!(lines, vec!["1. one two", "   three four", "   five six"]);
        assert!(lines.iter().all(|l| l.chars().count() <= 14));
    }

    #[test]
    fn long_words_stay_whole() {
        let lines = wrap("seed 0123456789abcdef0123456789abcdef end", 20, "", "  ");
        assert_eq!(
            lines,
            vec!["seed", "  0123456789abcdef0123456789abcdef", "  end"]
        );
    }

    #[test]
    fn empty_text_gives_prefix_only() {
        assert_eq!(wrap("", 10, "- ", "  "), vec!["-"]);
    }
}

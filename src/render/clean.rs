//! Player-written text made safe to place: markup escaping is askama's job,
//! but characters that XML cannot hold at all (or that a terminal would obey)
//! must go before a name reaches any output.

/// Whether XML 1.0 can carry this character, escaped or not.
fn xml_allows(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// Text for one line: control characters become U+FFFD, line breaks and tabs spaces.
pub(crate) fn line(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' => ' ',
            c if c.is_control() || !xml_allows(c) => '\u{FFFD}',
            c => c,
        })
        .collect()
}

/// Text that keeps its line breaks (orders templates, audit lines).
pub(crate) fn block(text: &str) -> String {
    text.replace("\r\n", "\n")
        .chars()
        .map(|c| match c {
            '\n' => '\n',
            '\t' => ' ',
            c if c.is_control() || !xml_allows(c) => '\u{FFFD}',
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_drops_controls_and_breaks() {
        assert_eq!(line("a\u{1b}[31mb\nc"), "a\u{FFFD}[31mb c");
        assert_eq!(line("Garde <Impériale>"), "Garde <Impériale>");
    }

    #[test]
    fn block_keeps_newlines() {
        assert_eq!(block("a\r\nb\u{0}"), "a\nb\u{FFFD}");
    }
}

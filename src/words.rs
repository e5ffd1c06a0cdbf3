//! Small rules of English for generated sentences, so that a side called
//! "Austrians" reads "the Austrians' CinC" and one enemy is not "1 enemies".

/// `name` as an owner: "Austrians'", "Prussia's", "the French" (as in "the French turn").
pub fn possessive(name: &str) -> String {
    let last = name
        .split_whitespace()
        .last()
        .unwrap_or_default()
        .to_lowercase();
    if name.ends_with('s') || name.ends_with('S') {
        format!("{name}'")
    } else if last.ends_with("ch") || last.ends_with("sh") || last.ends_with("ese") {
        // A nation named by its adjective owns as an adjective: "the French
        // turn", not "French's turn".
        subject(name)
    } else {
        format!("{name}'s")
    }
}

/// Whether a side's name reads as a plural: "Austrians", and nationality
/// words that take a plural verb ("the French", "the British", "the
/// Dutch", "the Portuguese"), not "Prussia" or "Army of the Danube".
pub fn is_plural(name: &str) -> bool {
    let last = name
        .split_whitespace()
        .last()
        .unwrap_or_default()
        .to_lowercase();
    (last.ends_with('s') && !last.ends_with("ss"))
        || last.ends_with("ch")
        || last.ends_with("sh")
        || last.ends_with("ese")
}

/// A side's name as the subject of a sentence: "the French", "the
/// Austrians", "Prussia".
pub fn subject(name: &str) -> String {
    if is_plural(name) && !name.to_lowercase().starts_with("the ") {
        format!("the {name}")
    } else {
        name.to_string()
    }
}

/// A side's name with a verb that agrees: "the French win", "Prussia
/// wins".
pub fn subject_verb(name: &str, singular: &str, plural: &str) -> String {
    let verb = if is_plural(name) { plural } else { singular };
    format!("{} {verb}", subject(name))
}

/// A count with its noun in the right number: "1 enemy", "3 enemies".
pub fn count(n: impl Into<i64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 || n == -1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn possessives_and_counts_read_as_english() {
        assert_eq!(possessive("Austrians"), "Austrians'");
        assert_eq!(possessive("French"), "the French");
        assert_eq!(possessive("Prussia"), "Prussia's");
        assert_eq!(count(1, "enemy", "enemies"), "1 enemy");
        assert_eq!(count(2, "enemy", "enemies"), "2 enemies");
        assert_eq!(count(0u32, "card", "cards"), "0 cards");
    }

    #[test]
    fn a_side_named_by_its_nation_takes_a_plural_verb() {
        assert_eq!(subject_verb("French", "wins", "win"), "the French win");
        assert_eq!(
            subject_verb("Austrians", "wins", "win"),
            "the Austrians win"
        );
        assert_eq!(subject_verb("British", "has", "have"), "the British have");
        assert_eq!(subject_verb("Prussia", "wins", "win"), "Prussia wins");
        assert_eq!(subject_verb("The Allies", "wins", "win"), "The Allies win");
        assert!(!is_plural("Army of the Pass"));
    }
}

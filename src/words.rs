//! Small rules of English for generated sentences, so that a side called
//! "Austrians" reads "the Austrians' CinC" and one enemy is not "1 enemies".

/// `name` with the possessive ending: "Austrians'", "French's".
pub fn possessive(name: &str) -> String {
    if name.ends_with('s') || name.ends_with('S') {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
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
        assert_eq!(possessive("French"), "French's");
        assert_eq!(count(1, "enemy", "enemies"), "1 enemy");
        assert_eq!(count(2, "enemy", "enemies"), "2 enemies");
        assert_eq!(count(0u32, "card", "cards"), "0 cards");
    }
}

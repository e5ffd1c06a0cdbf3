//! Distances and measurements: short (S), medium (M = 2S) and long
//! (L = 3S); a scenario sets how long S is.

use serde::{Deserialize, Serialize};

/// The three named distances.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Band {
    Short,
    Medium,
    Long,
}

impl Band {
    /// How many shorts the band is.
    pub fn shorts(self) -> f64 {
        match self {
            Band::Short => 1.0,
            Band::Medium => 2.0,
            Band::Long => 3.0,
        }
    }
    /// Its length for a scenario's short.
    pub fn of(self, short: f64) -> f64 {
        self.shorts() * short
    }
    pub fn letter(self) -> &'static str {
        match self {
            Band::Short => "S",
            Band::Medium => "M",
            Band::Long => "L",
        }
    }
}

/// A length in cm as a count of shorts, for reports ("1.5 S").
pub fn in_shorts(cm: f64, short: f64) -> f64 {
    if short > 0.0 { cm / short } else { 0.0 }
}

/// Slack for comparing measured lengths.
pub const EPS: f64 = 1e-6;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medium_is_two_shorts_and_long_three() {
        assert_eq!(Band::Short.of(5.0), 5.0);
        assert_eq!(Band::Medium.of(5.0), 10.0);
        assert_eq!(Band::Long.of(5.0), 15.0);
        assert_eq!(in_shorts(12.5, 5.0), 2.5);
    }
}

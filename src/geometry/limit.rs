//! Where a range or a reach ends. Every ruleset reads "within", "up to" and
//! "out to" one way: the end point counts, so a target exactly at the limit
//! is in range. A distance worked out in floating point may come out a hair
//! over a limit it meets exactly (3.9999999999 or 4.0000000001 for 4), so
//! the comparison allows a tolerance far below anything a player measures.

use super::measure::Distance;

/// How far past a limit, in the table's measure, a distance may come out
/// and still count as reaching it: rounding noise of the arithmetic that
/// laid out and turned the bases, never a distance a player could see.
pub const WITHIN_TOLERANCE: f64 = 1e-9;

/// Whether `d` is within `limit` ("within", "up to", "out to"): the end
/// point counts, give or take [`WITHIN_TOLERANCE`].
pub fn within(d: f64, limit: f64) -> bool {
    d <= limit + WITHIN_TOLERANCE
}

/// Whether `d` is beyond `limit`: the complement of [`within`], for rules
/// that start where another range ends ("after 4 BW").
pub fn beyond(d: f64, limit: f64) -> bool {
    !within(d, limit)
}

/// Whether `d` is at `start` or past it: a band that begins "from" a
/// distance holds the distance itself ("2 M to 3 M" holds 2 M).
pub fn from(d: f64, start: f64) -> bool {
    within(start, d)
}

impl Distance {
    /// Whether this distance is within `limit`; see [`within`].
    pub fn within(self, limit: Distance) -> bool {
        within(self.0, limit.0)
    }

    /// Whether this distance is beyond `limit`; see [`beyond`].
    pub fn beyond(self, limit: Distance) -> bool {
        beyond(self.0, limit.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_end_point_of_a_range_counts() {
        assert!(within(4.0, 4.0));
        assert!(within(3.0, 4.0));
        assert!(within(0.0, 4.0));
        assert!(!within(4.01, 4.0));
        assert!(Distance(16.0).within(Distance(16.0)));
        assert!(!Distance(16.001).within(Distance(16.0)));
    }

    #[test]
    fn rounding_noise_at_the_limit_counts_as_the_limit() {
        assert!(within(3.999_999_999_9, 4.0));
        assert!(within(4.000_000_000_1, 4.0));
        // The sum below is 0.30000000000000004, a hair over 0.3.
        assert!(within(0.1 + 0.2, 0.3));
        assert!(!within(4.0 + 1e-6, 4.0), "a millionth is a real distance");
    }

    #[test]
    fn a_band_from_a_distance_holds_it() {
        assert!(from(10.0, 10.0));
        assert!(from(12.0, 10.0));
        assert!(from(10.0 - 1e-10, 10.0), "rounding noise");
        assert!(!from(9.99, 10.0));
    }

    #[test]
    fn beyond_is_the_complement_of_within() {
        for (d, l) in [(4.0, 4.0), (4.5, 4.0), (3.5, 4.0), (4.000_000_000_1, 4.0)] {
            assert_eq!(beyond(d, l), !within(d, l), "{d} against {l}");
            assert_eq!(Distance(d).beyond(Distance(l)), beyond(d, l));
        }
        assert!(beyond(4.5, 4.0) && !beyond(4.0, 4.0));
    }
}

//! Dates as mail writes them (RFC 2822, in UTC), from a unix time the
//! caller gives: nothing here reads the clock.

/// `Thu, 01 Jan 1970 00:00:00 +0000` for a unix time in seconds (a time
/// out of jiff's range, far beyond any game, is written at the range's
/// end).
pub fn rfc2822(secs: i64) -> String {
    let ts = jiff::Timestamp::from_second(secs).unwrap_or(if secs < 0 {
        jiff::Timestamp::MIN
    } else {
        jiff::Timestamp::MAX
    });
    // Two-digit days, as most mail programs write them (jiff's own RFC
    // 2822 printer writes `1 Jan`, which is as valid but changes bytes
    // that reports and tests pin).
    ts.to_zoned(jiff::tz::TimeZone::UTC)
        .strftime("%a, %d %b %Y %H:%M:%S +0000")
        .to_string()
}

#[cfg(test)]
mod tests {
    #[test]
    fn dates_are_written_in_utc_with_their_weekday() {
        assert_eq!(super::rfc2822(0), "Thu, 01 Jan 1970 00:00:00 +0000");
        assert_eq!(
            super::rfc2822(1_795_000_000),
            "Wed, 18 Nov 2026 11:06:40 +0000"
        );
        assert_eq!(
            super::rfc2822(1_709_164_800),
            "Thu, 29 Feb 2024 00:00:00 +0000"
        );
        assert_eq!(super::rfc2822(-86_400), "Wed, 31 Dec 1969 00:00:00 +0000");
    }
}

//! Instants of captures and fetches: when a robots.txt was captured, and
//! when a URL was fetched, as whole seconds in UTC.
//!
//! The spellings the sources use are read by chrono rather than by hand:
//! RFC 3339 (`2024-06-01T12:00:00Z`, with an offset, fractions, or a space
//! for the `T`), a date alone (`2024-06-01`, midnight UTC), a date and time
//! without an offset (UTC), the 14-digit WARC and CDX timestamp
//! (`20240601120000`), an access log's `10/Oct/2024:13:55:36 -0700`, and
//! any other run of digits as seconds since 1970.
//!
//! ```
//! use robots_batch::Timestamp;
//!
//! let a = Timestamp::parse("2024-06-01T12:00:00Z").unwrap();
//! assert_eq!(Timestamp::parse("20240601120000"), Some(a));
//! assert_eq!(Timestamp::parse("2024-06-01T14:00:00+02:00"), Some(a));
//! assert_eq!(Timestamp::parse("1717243200"), Some(a));
//! assert_eq!(a.to_string(), "2024-06-01T12:00:00Z");
//! assert_eq!(Timestamp::parse("June 1st"), None);
//! ```

use std::fmt;

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};

/// An instant, in whole seconds since 1970-01-01T00:00:00Z.
#[derive(Clone, Copy, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
pub struct Timestamp(i64);

impl Timestamp {
    /// The instant `seconds` after 1970-01-01T00:00:00Z.
    pub fn from_seconds(seconds: i64) -> Timestamp {
        Timestamp(seconds)
    }

    /// Seconds since 1970-01-01T00:00:00Z.
    pub fn seconds(self) -> i64 {
        self.0
    }

    /// Reads `text` in any of the spellings of the module's docs, white
    /// space around it ignored; `None` when it is none of them.
    pub fn parse(text: &str) -> Option<Timestamp> {
        let text = text.trim();
        let digits =
            !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
        if digits && text.len() == 14 {
            let t =
                NaiveDateTime::parse_from_str(text, "%Y%m%d%H%M%S").ok()?;
            return Some(Timestamp(t.and_utc().timestamp()));
        }
        if digits || text.strip_prefix('-').is_some_and(all_digits) {
            return text.parse().ok().map(Timestamp);
        }
        if let Ok(t) = DateTime::parse_from_rfc3339(text) {
            return Some(Timestamp(t.timestamp()));
        }
        // RFC 3339 lets a space stand for the `T`.
        if let Ok(t) =
            DateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S%.f%:z")
        {
            return Some(Timestamp(t.timestamp()));
        }
        for format in ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%d %H:%M:%S%.f"] {
            if let Ok(t) = NaiveDateTime::parse_from_str(text, format) {
                return Some(Timestamp(t.and_utc().timestamp()));
            }
        }
        if let Ok(d) = NaiveDate::parse_from_str(text, "%Y-%m-%d") {
            return Some(Timestamp(
                d.and_hms_opt(0, 0, 0)?.and_utc().timestamp(),
            ));
        }
        // An access log's date, as Apache and nginx write it.
        DateTime::parse_from_str(text, "%d/%b/%Y:%H:%M:%S %z")
            .ok()
            .map(|t| Timestamp(t.timestamp()))
    }

    /// [`Timestamp::parse`], where a date alone (`2024-06-01`) stands for
    /// the last second of that day: "as of June 1st" takes in a capture
    /// made that afternoon.
    pub fn parse_as_of(text: &str) -> Option<Timestamp> {
        let t = Timestamp::parse(text)?;
        match NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d") {
            Ok(_) => Some(Timestamp(t.0.saturating_add(86_399))),
            Err(_) => Some(t),
        }
    }

    /// The calendar month of the instant, as `(year, month)`.
    pub fn year_month(self) -> (i32, u32) {
        use chrono::Datelike;
        let t = self.utc();
        (t.year(), t.month())
    }

    fn utc(self) -> DateTime<Utc> {
        DateTime::from_timestamp(self.0, 0).unwrap_or_default()
    }
}

fn all_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// RFC 3339 in UTC, `2024-06-01T12:00:00Z`.
impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match DateTime::from_timestamp(self.0, 0) {
            Some(t) => write!(f, "{}", t.format("%Y-%m-%dT%H:%M:%SZ")),
            // Beyond chrono's years (about 262,000): the seconds.
            None => write!(f, "{}", self.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Timestamp;

    fn at(text: &str) -> Option<i64> {
        Timestamp::parse(text).map(Timestamp::seconds)
    }

    #[test]
    fn spellings() {
        let noon = Some(1_717_243_200);
        assert_eq!(at("2024-06-01T12:00:00Z"), noon);
        assert_eq!(at(" 2024-06-01T12:00:00.250Z "), noon);
        assert_eq!(at("2024-06-01 12:00:00Z"), noon);
        assert_eq!(at("2024-06-01T08:00:00-04:00"), noon);
        assert_eq!(at("2024-06-01T12:00:00"), noon);
        assert_eq!(at("20240601120000"), noon);
        assert_eq!(at("01/Jun/2024:14:00:00 +0200"), noon);
        assert_eq!(at("1717243200"), noon);
        assert_eq!(at("2024-06-01"), Some(1_717_200_000));
        assert_eq!(at("-1"), Some(-1));
    }

    #[test]
    fn not_times() {
        for text in [
            "",
            "-",
            "2024-13-01",
            "20241301000000",
            "June",
            "2024-06-01T25:00:00Z",
            "99999999999999999999",
        ] {
            assert_eq!(at(text), None, "{text:?}");
        }
    }

    #[test]
    fn as_of_a_day_ends_with_it() {
        let day = Timestamp::parse_as_of("2024-06-01").unwrap();
        assert_eq!(day.to_string(), "2024-06-01T23:59:59Z");
        let noon = Timestamp::parse_as_of("2024-06-01T12:00:00Z").unwrap();
        assert_eq!(noon.to_string(), "2024-06-01T12:00:00Z");
    }

    #[test]
    fn months() {
        assert_eq!(
            Timestamp::parse("2024-06-30T23:59:59Z").unwrap().year_month(),
            (2024, 6)
        );
        assert_eq!(Timestamp::from_seconds(0).year_month(), (1970, 1));
    }
}

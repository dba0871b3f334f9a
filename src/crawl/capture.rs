//! Which of an origin's dated captures judges a URL: the newest, the
//! newest at or before a date, or the newest at or before the URL's own
//! fetch time; and what a URL older than every capture gets.

use crate::time::Timestamp;

/// Which capture of an origin's robots.txt judges its URLs.
#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum Capture {
    /// The newest capture (of two undated ones, or two at one instant, the
    /// later in the input), whatever the URL's time.
    #[default]
    Newest,
    /// For every URL, the newest capture at or before this instant:
    /// filtering as of a day, after the fact.
    AsOf(Timestamp),
    /// For each URL, the newest capture at or before its own fetch time,
    /// read from its record ([`CrawlJudge::verdicts_at`]): the preferences
    /// in effect when the content was fetched.
    ///
    /// [`CrawlJudge::verdicts_at`]: super::CrawlJudge::verdicts_at
    AtFetchTime,
}

/// What a URL fetched before an origin's earliest capture gets.
#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum BeforeFirst {
    /// The earliest capture judges it, and its reason says
    /// `;before-first`.
    #[default]
    Earliest,
    /// `unknown`, for the reason `before-first`.
    Unknown,
}

impl BeforeFirst {
    /// `earliest` or `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            BeforeFirst::Earliest => "earliest",
            BeforeFirst::Unknown => "unknown",
        }
    }
}

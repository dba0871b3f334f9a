//! Crawl-mode verdicts: allowed, disallowed or unknown, and why, packed
//! with the fetch that decided in a few bytes.

use crate::matcher::Reason;

/// Why a URL of a crawl log got its verdict.
#[derive(Clone, Copy, Debug, Eq, Hash, PartialEq)]
pub enum CrawlReason {
    /// The origin's robots.txt decided, for this reason.
    Robots(Reason),
    /// The fetch gave a 4xx status.
    Status4xx,
    /// The fetch gave a 5xx or 429 status, or no response.
    Status5xx,
    /// More redirects than the policy follows, or a redirect loop.
    RedirectLimit,
    /// A redirect to an origin with no fetch in the set, or without a
    /// `Location`.
    RedirectMissing,
    /// The URL's origin has no fetch in the set.
    NoRobots,
    /// The line is not an absolute `http` or `https` URL with a host.
    NoHost,
    /// The URL was fetched before its origin's earliest capture, and the
    /// policy says such URLs are unknown.
    BeforeFirst,
    /// The URL's fetch time could not be read from its record.
    NoTime,
}

impl CrawlReason {
    /// The reason's name in reports: those of [`Reason::name`], and
    /// `status-4xx`, `status-5xx`, `redirect-limit`, `redirect-missing`,
    /// `no-robots`, `no-host`, `before-first` and `no-time`.
    pub fn name(self) -> &'static str {
        match self {
            CrawlReason::Robots(r) => r.name(),
            CrawlReason::Status4xx => "status-4xx",
            CrawlReason::Status5xx => "status-5xx",
            CrawlReason::RedirectLimit => "redirect-limit",
            CrawlReason::RedirectMissing => "redirect-missing",
            CrawlReason::NoRobots => "no-robots",
            CrawlReason::NoHost => "no-host",
            CrawlReason::BeforeFirst => "before-first",
            CrawlReason::NoTime => "no-time",
        }
    }

    /// A small number per name, below [`REASONS`]: the same for two
    /// reasons when their names are.
    pub(crate) fn index(self) -> usize {
        usize::from(self.code())
    }

    /// [`CrawlReason::index`] as a byte.
    pub(super) fn code(self) -> u8 {
        match self {
            CrawlReason::Robots(Reason::Rule(_)) => 0,
            CrawlReason::Robots(Reason::NoMatchingRule) => 1,
            CrawlReason::Robots(Reason::NoGroup) => 2,
            CrawlReason::Robots(Reason::ImplicitRobotsTxt) => 3,
            CrawlReason::Status4xx => 4,
            CrawlReason::Status5xx => 5,
            CrawlReason::RedirectLimit => 6,
            CrawlReason::RedirectMissing => 7,
            CrawlReason::NoRobots => 8,
            CrawlReason::NoHost => 9,
            CrawlReason::BeforeFirst => 10,
            CrawlReason::NoTime => 11,
        }
    }

    /// The reason of [`CrawlReason::code`], with the deciding rule's index
    /// for code 0.
    pub(super) fn from_code(code: u8, rule: u32) -> CrawlReason {
        match code {
            0 => CrawlReason::Robots(Reason::Rule(rule)),
            1 => CrawlReason::Robots(Reason::NoMatchingRule),
            2 => CrawlReason::Robots(Reason::NoGroup),
            3 => CrawlReason::Robots(Reason::ImplicitRobotsTxt),
            4 => CrawlReason::Status4xx,
            5 => CrawlReason::Status5xx,
            6 => CrawlReason::RedirectLimit,
            7 => CrawlReason::RedirectMissing,
            8 => CrawlReason::NoRobots,
            9 => CrawlReason::NoHost,
            10 => CrawlReason::BeforeFirst,
            // 11, the last code.
            _ => CrawlReason::NoTime,
        }
    }
}

/// How many [`CrawlReason::index`] values there are.
pub(crate) const REASONS: usize = 12;

/// [`CrawlReason::name`] of each [`CrawlReason::index`], for a verdict
/// given by a capture later than the URL (see
/// [`BeforeFirst::Earliest`](super::BeforeFirst::Earliest)).
const BEFORE_FIRST_NAMES: [&str; REASONS] = [
    "rule;before-first",
    "no-matching-rule;before-first",
    "no-group;before-first",
    "implicit-robots-txt;before-first",
    "status-4xx;before-first",
    "status-5xx;before-first",
    "redirect-limit;before-first",
    "redirect-missing;before-first",
    "no-robots;before-first",
    "no-host;before-first",
    "before-first",
    "no-time;before-first",
];

/// The name of `reason` in a row: with `;before-first` after it when
/// the capture that decided is later than the URL's time.
pub(crate) fn reason_name(
    reason: CrawlReason,
    before_first: bool,
) -> &'static str {
    match before_first {
        true => BEFORE_FIRST_NAMES[reason.index()],
        false => reason.name(),
    }
}

/// The verdict on one URL of a crawl log for one agent: allowed,
/// disallowed or unknown, and why.
///
/// Kept in 16 bytes (a chunk holds one per URL and agent, written in the
/// order URLs are judged, not read): the reason as a code and a rule
/// index rather than an enum, which would pad it to 8 bytes, and no
/// fetch as `NO_FETCH`.
#[derive(Clone, Copy, Eq, PartialEq)]
pub struct CrawlVerdict {
    pub(super) fetch: usize,
    pub(super) rule: u32,
    pub(super) reason: u8,
    pub(super) allowed: Option<bool>,
}

/// Shown as what it means, not as its packed fields.
impl std::fmt::Debug for CrawlVerdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CrawlVerdict")
            .field("allowed", &self.allowed())
            .field("reason", &self.reason())
            .field("fetch", &self.fetch())
            .finish()
    }
}

/// [`CrawlVerdict::fetch`] when no fetch decided (no vector holds this
/// many fetches).
pub(super) const NO_FETCH: usize = usize::MAX;

impl CrawlVerdict {
    /// The verdict `allowed` (`None`: unknown), for `reason`, decided by
    /// the fetch at `fetch` if one did.
    pub(crate) fn new(
        allowed: Option<bool>,
        reason: CrawlReason,
        fetch: Option<usize>,
    ) -> CrawlVerdict {
        let rule = match reason {
            CrawlReason::Robots(Reason::Rule(rule)) => rule,
            _ => 0,
        };
        CrawlVerdict {
            fetch: fetch.unwrap_or(NO_FETCH),
            rule,
            reason: reason.code(),
            allowed,
        }
    }

    /// `Some(true)` when the URL may be fetched, `None` when nothing says.
    pub fn allowed(self) -> Option<bool> {
        self.allowed
    }

    /// `allowed`, `disallowed` or `unknown`.
    pub fn name(self) -> &'static str {
        match self.allowed {
            Some(true) => "allowed",
            Some(false) => "disallowed",
            None => "unknown",
        }
    }

    /// Why.
    pub fn reason(self) -> CrawlReason {
        CrawlReason::from_code(self.reason, self.rule)
    }

    /// The index in the [`FetchSet`](super::FetchSet) of the fetch that decided (after
    /// redirects), if one did.
    pub fn fetch(self) -> Option<usize> {
        (self.fetch != NO_FETCH).then_some(self.fetch)
    }
}

pub(super) fn unknown(reason: CrawlReason) -> CrawlVerdict {
    CrawlVerdict::new(None, reason, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each reason's before-first name is its name and `;before-first`,
    /// but for `before-first` itself.
    #[test]
    fn before_first_names_follow_the_codes() {
        for code in 0..REASONS as u8 {
            let reason = CrawlReason::from_code(code, 0);
            assert_eq!(reason.index(), usize::from(code));
            let want = match reason {
                CrawlReason::BeforeFirst => "before-first".to_string(),
                r => format!("{};before-first", r.name()),
            };
            assert_eq!(reason_name(reason, true), want);
            assert_eq!(reason_name(reason, false), reason.name());
        }
    }
}

//! Fetch policy and redirects: how a robots.txt fetch's status, and the
//! redirects it leads through, become the rules or a verdict for its origin.

use super::capture::{BeforeFirst, Capture};
use super::reference;
use super::source::FetchSet;
use super::verdict::CrawlReason;
use crate::robots::DEFAULT_MAX_ROBOTS_BYTES;

/// What to assume about an origin whose fetch gave no rules.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Assume {
    /// Every URL is allowed.
    Allow,
    /// Every URL is disallowed.
    Disallow,
}

impl Assume {
    pub(super) fn allowed(self) -> bool {
        self == Assume::Allow
    }
}

/// How fetch results become verdicts. The default is RFC 9309's (section
/// 2.3.1): 4xx allows everything (401 and 403 included), 5xx, 429 and an
/// unreachable host disallow everything, up to five redirects are
/// followed, and an origin with no fetch at all is `unknown`.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct FetchPolicy {
    /// For 4xx statuses other than 401 and 403.
    pub on_4xx: Assume,
    /// For 401 and 403, on which crawlers disagree.
    pub on_401_403: Assume,
    /// For 5xx, 429, no response (status 0) and any other status (1xx,
    /// over 599).
    pub on_5xx: Assume,
    /// For URLs whose origin has no fetch in the set; `None` gives the
    /// verdict `unknown`.
    pub on_missing: Option<Assume>,
    /// The most redirects followed; past them, or on coming back to a
    /// fetch already visited, the robots.txt counts as unavailable
    /// (everything allowed). At most [`MAX_REDIRECTS`] are followed
    /// whatever this says.
    pub max_redirects: usize,
    /// The parse limit of each robots.txt (0: none). The readers of a
    /// [`FetchSet`] keep only what its own
    /// [`parse_limit`](FetchSet::parse_limit) uses: give both one value.
    pub max_robots_bytes: usize,
    /// The most bytes of compiled matchers kept; past it the least
    /// recently compiled are dropped (and compiled again if needed).
    pub cache_bytes: usize,
    /// Which of an origin's dated captures judges a URL.
    pub capture: Capture,
    /// What a URL older than every capture of its origin gets.
    pub before_first: BeforeFirst,
}

/// The most redirects a [`FetchPolicy`] follows: RFC 9309 asks for at
/// least five, and a chain longer than this is a loop in all but name.
pub const MAX_REDIRECTS: usize = 100;

impl Default for FetchPolicy {
    fn default() -> FetchPolicy {
        FetchPolicy {
            on_4xx: Assume::Allow,
            on_401_403: Assume::Allow,
            on_5xx: Assume::Disallow,
            on_missing: None,
            max_redirects: 5,
            max_robots_bytes: DEFAULT_MAX_ROBOTS_BYTES,
            // Room for the rules and scanning matchers of about 130,000
            // robots.txt files of average size (63,000 compiled): a
            // shuffled log over more hosts than fit builds them again and
            // again. See docs/DESIGN.md, "Crawl mode: scan first, compile
            // later, share by body".
            cache_bytes: 1 << 30,
            capture: Capture::Newest,
            before_first: BeforeFirst::Earliest,
        }
    }
}

/// What a fetch resolves to, once, after redirects.
#[derive(Clone, Copy, Debug)]
pub(super) enum Resolved {
    /// The rules of the fetch at the first index (a 2xx), compiled as
    /// those of the second (the first fetch with the same body).
    Rules(usize, usize),
    /// No rules: everything allowed or not.
    Assume(bool, CrawlReason),
    /// The rules of the fetch at this index (a 2xx), a directory's file
    /// not read yet: which fetch's matchers it shares is known once it is
    /// (see `CrawlJudge::unread_compiled`).
    Unread(usize),
}

/// Follows the fetch at `start` through its redirects, with the fetches
/// visited into `visited` (cleared first).
pub(super) fn resolve(
    fetches: &FetchSet,
    policy: &FetchPolicy,
    start: usize,
    visited: &mut Vec<usize>,
) -> Resolved {
    let mut at = start;
    let mut key = vec![];
    // Coming back to a fetch of the chain is a loop, which no number of
    // further hops would leave.
    visited.clear();
    let hops = policy.max_redirects.min(MAX_REDIRECTS);
    for _ in 0..=hops {
        let Some((_, fetch)) = fetches.get(at) else { break };
        visited.push(at);
        let status = fetch.status;
        return match status {
            200..=299 => Resolved::Rules(at, at),
            300..=399 => {
                let Some(location) = fetch.location.as_deref() else {
                    return Resolved::Assume(
                        true,
                        CrawlReason::RedirectMissing,
                    );
                };
                let target = reference::resolve(&fetches.url(at), location);
                // Judged by a capture of its time, a dated capture's
                // redirect leads to the target's capture nearest to it,
                // for it was followed about then; judged by the newest,
                // to the newest.
                let dated = match policy.capture {
                    Capture::Newest => None,
                    _ => fetches.time(at),
                };
                let next =
                    fetches.find_url(&target, &mut key).map(|n| match dated {
                        Some(t) => fetches.capture_near(n, t),
                        None => n,
                    });
                match next {
                    Some(next) if visited.contains(&next) => break,
                    Some(next) => {
                        at = next;
                        continue;
                    }
                    None => {
                        Resolved::Assume(true, CrawlReason::RedirectMissing)
                    }
                }
            }
            401 | 403 => Resolved::Assume(
                policy.on_401_403.allowed(),
                CrawlReason::Status4xx,
            ),
            429 => Resolved::Assume(
                policy.on_5xx.allowed(),
                CrawlReason::Status5xx,
            ),
            400..=499 => Resolved::Assume(
                policy.on_4xx.allowed(),
                CrawlReason::Status4xx,
            ),
            _ => Resolved::Assume(
                policy.on_5xx.allowed(),
                CrawlReason::Status5xx,
            ),
        };
    }
    Resolved::Assume(true, CrawlReason::RedirectLimit)
}

/*!
Crawl-log mode: URLs from many hosts, each judged by the robots.txt fetched
from its own origin, and by how that fetch went (RFC 9309 section 2.3.1).

A [`FetchSet`] holds the fetches (from a directory of `<host>.txt` files, a
JSON Lines index, or WARC files). A [`CrawlJudge`] resolves each fetch once
under a [`FetchPolicy`] (following redirects within the set), compiles an
origin's matchers the first time one of its URLs comes by, keeps them in a
cache bounded in bytes, and gives every URL a [`CrawlVerdict`] per agent.

```
use robots_batch::crawl::{CrawlJudge, Fetch, FetchPolicy, FetchSet, Origin};
use robots_batch::{Dialect, MatcherBuilder};

let mut fetches = FetchSet::new();
let robots = b"User-agent: *\nDisallow: /private/\n".to_vec();
fetches.insert_host("a.com", Fetch { status: 200, body: robots, ..Fetch::default() });
let down = Origin::of_url(b"https://b.com/robots.txt").unwrap();
fetches.insert(&down, Fetch { status: 503, ..Fetch::default() });

let judge = CrawlJudge::new(
    fetches,
    FetchPolicy::default(),
    MatcherBuilder::new(),
    &["ExampleBot".to_string()],
    Dialect::Rfc9309,
);
let mut scratch = judge.scratch();
let mut out = vec![];
let mut verdict = |url: &str| {
    judge.verdicts(url.as_bytes(), &mut scratch, &mut out);
    format!("{} {}", out[0].name(), out[0].reason().name())
};
assert_eq!(verdict("https://a.com/private/x"), "disallowed rule");
assert_eq!(verdict("http://A.com:8080/public"), "allowed no-matching-rule");
assert_eq!(verdict("https://b.com/"), "disallowed status-5xx");
assert_eq!(verdict("https://c.com/"), "unknown no-robots");
assert_eq!(verdict("/relative"), "unknown no-host");
```
*/

mod caches;
mod capture;
mod fetch;
mod grouped;
mod hash;
mod jsonl;
mod judge;
mod origin;
mod passing;
mod policy;
mod reference;
mod remembered;
mod source;
mod usage;
mod verdict;
mod warc;
mod worker;

pub use self::caches::MatcherCache;
pub use self::capture::{BeforeFirst, Capture};
pub use self::fetch::Fetch;
pub use self::grouped::GroupedScratch;
pub use self::judge::{CrawlJudge, CrawlScratch, DEFAULT_COMPILE_AFTER};
pub use self::origin::{Origin, Scheme};
pub use self::policy::{Assume, FetchPolicy, MAX_REDIRECTS};
pub use self::source::{FetchSet, Picked, SharedBody, Skipped};
pub use self::verdict::{CrawlReason, CrawlVerdict};
pub(crate) use self::warc::{read_head as read_warc_head, Head as WarcHead};
pub(crate) use self::worker::all_allowed;
pub use self::worker::CrawlWorker;

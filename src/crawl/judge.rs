//! The verdicts of a crawl log's URLs: each URL's origin, the fetch of its
//! robots.txt (after redirects), and the matchers compiled from it.

use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, RwLock};

use super::hash::HashMap;
use super::origin::origin_key;
use super::passing::Passing;
use super::reference;
use super::source::FetchSet;
use crate::cache::{Cache, Weighed};
use crate::dialect::Dialect;
use crate::engine::EngineKind;
use crate::matcher::{Matcher, MatcherBuilder, Reason, Scratch};
use crate::prefetch::{prefetch, Hints, Region};
use crate::robots::{Robots, DEFAULT_MAX_ROBOTS_BYTES};
use crate::rules::RuleSet;
use crate::url::path::UrlPath;
use smallvec::SmallVec;

/// What to assume about an origin whose fetch gave no rules.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Assume {
    /// Every URL is allowed.
    Allow,
    /// Every URL is disallowed.
    Disallow,
}

impl Assume {
    fn allowed(self) -> bool {
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
        }
    }
}

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
}

impl CrawlReason {
    /// The reason's name in reports: those of [`Reason::name`], and
    /// `status-4xx`, `status-5xx`, `redirect-limit`, `redirect-missing`,
    /// `no-robots` and `no-host`.
    pub fn name(self) -> &'static str {
        match self {
            CrawlReason::Robots(r) => r.name(),
            CrawlReason::Status4xx => "status-4xx",
            CrawlReason::Status5xx => "status-5xx",
            CrawlReason::RedirectLimit => "redirect-limit",
            CrawlReason::RedirectMissing => "redirect-missing",
            CrawlReason::NoRobots => "no-robots",
            CrawlReason::NoHost => "no-host",
        }
    }

    /// A small number per name: the same for two reasons when their
    /// names are.
    pub(crate) fn index(self) -> usize {
        usize::from(self.code())
    }

    /// [`CrawlReason::index`] as a byte.
    fn code(self) -> u8 {
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
        }
    }

    /// The reason of [`CrawlReason::code`], with the deciding rule's index
    /// for code 0.
    fn from_code(code: u8, rule: u32) -> CrawlReason {
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
            // 9, the last code.
            _ => CrawlReason::NoHost,
        }
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
    fetch: usize,
    rule: u32,
    reason: u8,
    allowed: Option<bool>,
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
const NO_FETCH: usize = usize::MAX;

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

    /// The index in the [`FetchSet`] of the fetch that decided (after
    /// redirects), if one did.
    pub fn fetch(self) -> Option<usize> {
        (self.fetch != NO_FETCH).then_some(self.fetch)
    }
}

/// Where a URL's verdicts come from (see [`CrawlJudge::locate`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Located {
    /// The same verdict for every agent.
    Same(CrawlVerdict),
    /// The rules of the fetch at `fetch`, compiled as those of the fetch
    /// at `compiled` (the first one with the same body).
    Rules { fetch: usize, compiled: usize },
    /// The rules of the fetch at `fetch`, a directory's file not read
    /// yet: it is read when a URL of it is judged, which then tells whose
    /// matchers it shares, or that it cannot be read.
    Unread { fetch: usize },
}

/// What a fetch resolves to, once, after redirects.
#[derive(Clone, Copy, Debug)]
enum Resolved {
    /// The rules of the fetch at the first index (a 2xx), compiled as
    /// those of the second (the first fetch with the same body).
    Rules(usize, usize),
    /// No rules: everything allowed or not.
    Assume(bool, CrawlReason),
    /// The rules of the fetch at this index (a 2xx), a directory's file
    /// not read yet: which fetch's matchers it shares is known once it is
    /// (see [`CrawlJudge::unread_compiled`]).
    Unread(usize),
}

/// Judges the URLs of a crawl log. Shared by all threads; each thread
/// brings its own [`CrawlScratch`].
#[derive(Debug)]
pub struct CrawlJudge {
    fetches: FetchSet,
    resolved: Vec<Resolved>,
    policy: FetchPolicy,
    builder: MatcherBuilder,
    agents: Vec<String>,
    dialect: Dialect,
    cache: JudgeCache,
    /// Which origins' rules were let go after their run rather than kept
    /// in `cache`.
    passing: Passing,
    shared: Option<(Arc<MatcherCache>, Arc<Settings>)>,
    /// URLs an origin's rules judge with the `scan` engine before they
    /// are compiled with the builder's; 0 to compile at once.
    compile_after: usize,
    /// See [`CrawlJudge::unused_captures`].
    unused_captures: usize,
    /// Per fetch (empty when none is unread): for a directory's file, the
    /// fetch whose matchers it shares (the first read with the same body),
    /// or `None` when it could not be read; set when it is first needed.
    unread_compiled: Vec<OnceLock<Option<usize>>>,
    /// The directory files read so far, by the hash of their bodies
    /// (seeded at random, so that no file can be made to collide on
    /// purpose): a file read later is compared with those of equal hash.
    read_files: Mutex<HashMap<u64, Vec<usize>>>,
    body_hash: ahash::RandomState,
}

/// How many URLs of one origin are judged by scanning its rules before
/// they are compiled (see [`CrawlJudge::compile_after`]).
///
/// Compiling with `trie` pays for itself against scanning only after
/// hundreds to thousands of URLs, fewer the more rules a file has (and
/// never for most small files, which scan as fast), and most origins of a
/// crawl log have fewer URLs than that; up to this many, scanning costs at
/// most a small factor more than the better of the two. See docs/DESIGN.md,
/// "Crawl mode: scan first, compile later, share by body".
pub const DEFAULT_COMPILE_AFTER: usize = 1_000;

/// Up to this many URLs of an origin (those judged so far and those that
/// follow in the chunk), each is judged by its rules alone, every pattern
/// tried; past it, its rules are built into matchers that scan. Building
/// those costs three to four such judgements, so it pays from the fourth
/// URL on.
const FEW_URLS: usize = 3;

/// What a batch knows of the run of URLs an origin's URL begins: the URLs
/// judged next that need the same rules, and whether the run looks like
/// the origin's last.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Run {
    /// How many URLs judged next need the same origin's rules: with
    /// enough of them, building their matchers now pays, where an
    /// origin's few URLs are judged by its rules alone (see
    /// [`FEW_URLS`]).
    pub(crate) following: usize,
    /// Whether the batch judges its URLs in input order and the run comes
    /// neither first nor last (in a log grouped by host, its origin is
    /// then seldom met again), or no other URL of the input is judged
    /// after the batch or beside it: the origin's rules, if built now, may
    /// be let go after the run rather than kept (see [`Passing`]).
    pub(crate) passing: bool,
}

/// Per-thread state of a [`CrawlJudge`]: the key buffer, the matchers of
/// the origin seen last (URLs of one origin tend to come together), and
/// one matcher scratch per agent, reused from origin to origin so that a
/// change of origin allocates nothing.
#[derive(Debug)]
pub struct CrawlScratch {
    key: Vec<u8>,
    current: Option<(usize, Arc<Entry>)>,
    /// Whether the judge's cache holds the current rules (else they were
    /// let go after their run, and what they become is not kept either).
    kept: bool,
    scratches: Vec<Scratch>,
    /// A URL's path, for verdicts from rules not built into matchers.
    path: Vec<u8>,
}

impl CrawlScratch {
    /// The rules (one set per agent) that gave the last verdicts from
    /// rules.
    pub(crate) fn current_rules(&self) -> Option<&[Arc<RuleSet>]> {
        self.current.as_ref().map(|(_, e)| &*e.rules)
    }

    fn set_current(&mut self, index: usize, entry: Arc<Entry>) {
        let matchers = entry.matchers.as_deref().unwrap_or_default();
        for (i, m) in matchers.iter().enumerate() {
            match self.scratches.get_mut(i) {
                Some(scratch) => m.renew_scratch(scratch),
                None => self.scratches.push(m.scratch()),
            }
        }
        self.current = Some((index, entry));
    }
}

impl CrawlJudge {
    /// A judge of `fetches` for `agents` (one verdict each per URL).
    pub fn new(
        mut fetches: FetchSet,
        policy: FetchPolicy,
        builder: MatcherBuilder,
        agents: &[String],
        dialect: Dialect,
    ) -> CrawlJudge {
        // Captures of other URLs than a robots.txt count only where a
        // redirect chain from a robots.txt leads; the others are set aside.
        let mut reached = vec![false; fetches.len()];
        let mut chain = vec![];
        let resolved: Vec<Resolved> = (0..fetches.len())
            .map(|i| {
                let r = resolve(&fetches, &policy, i, &mut chain);
                if !fetches.is_capture(i) {
                    chain.iter().for_each(|&c| reached[c] = true);
                }
                r
            })
            .collect();
        let mut unused_captures = 0;
        for (i, reached) in reached.into_iter().enumerate() {
            if !reached && fetches.is_capture(i) {
                fetches.drop_body(i);
                unused_captures += 1;
            }
        }
        // Many hosts serve the same robots.txt byte for byte (the defaults
        // of hosting platforms and CMSs), so fetches with equal bodies
        // share one compiled set of matchers.
        // A directory's files are compared when they are read.
        let mut first_with: HashMap<&[u8], usize> = HashMap::default();
        let same_body: Vec<usize> = (0..fetches.len())
            .map(|i| match fetches.is_unread(i) {
                true => i,
                false => {
                    let body = fetches.kept_body(i).unwrap_or_default();
                    *first_with.entry(body).or_insert(i)
                }
            })
            .collect();
        let resolved = resolved
            .into_iter()
            .map(|r| match r {
                Resolved::Rules(at, _) if fetches.is_unread(at) => {
                    Resolved::Unread(at)
                }
                Resolved::Rules(at, _) => Resolved::Rules(at, same_body[at]),
                other => other,
            })
            .collect();
        let any_unread = (0..fetches.len()).any(|i| fetches.is_unread(i));
        let unread_compiled = match any_unread {
            true => (0..fetches.len()).map(|_| OnceLock::new()).collect(),
            false => vec![],
        };
        let compile_after = if scans_only(builder.engine_kind()) {
            0
        } else {
            DEFAULT_COMPILE_AFTER
        };
        CrawlJudge {
            cache: JudgeCache::new(fetches.len(), policy.cache_bytes),
            passing: Passing::new(fetches.len()),
            fetches,
            resolved,
            policy,
            builder,
            agents: agents.to_vec(),
            dialect,
            shared: None,
            compile_after,
            unused_captures,
            unread_compiled,
            read_files: Mutex::default(),
            body_hash: ahash::RandomState::new(),
        }
    }

    /// How many captures of other URLs than a robots.txt (in a WARC file
    /// or an index) no redirect from a robots.txt fetch led to: they were
    /// set aside, for they are no origin's robots.txt.
    pub fn unused_captures(&self) -> usize {
        self.unused_captures
    }

    /// How many origins' rules were let go after their run of URLs rather
    /// than kept in the cache (in a batch that judges URLs in runs, an
    /// origin met neither first nor last), and how many of those were
    /// met again and built a second time.
    pub fn let_go(&self) -> (usize, usize) {
        self.passing.counts()
    }

    /// Makes each origin's rules judge its first `urls` URLs without
    /// compiling them (its first URL by the rules alone, unless the next
    /// URL judged is the origin's too; the others with the `scan` engine,
    /// which compiles nothing), and only then compile them with the
    /// builder's engine (default [`DEFAULT_COMPILE_AFTER`]; 0 compiles at
    /// once). The verdicts are the same either way: this only
    /// trades compile time against matching time, and most origins of a
    /// crawl log have too few URLs to repay a compilation. With the `scan`
    /// or `naive` engine there is nothing to compile, and this does nothing.
    pub fn compile_after(mut self, urls: usize) -> CrawlJudge {
        if !scans_only(self.builder.engine_kind()) {
            self.compile_after = urls;
        }
        self
    }

    /// Makes the judge look for compiled matchers in `cache` too, and keep
    /// what it compiles there, so that judges built one after another over
    /// overlapping fetches (one per batch of a Spark partition, say)
    /// compile each robots.txt once while it stays in `cache`.
    pub fn with_shared_cache(
        mut self,
        cache: Arc<MatcherCache>,
    ) -> CrawlJudge {
        let settings = Settings {
            agents: self.agents.clone(),
            dialect: self.dialect,
            max_robots_bytes: self.policy.max_robots_bytes,
            builder: self.builder.clone(),
        };
        self.shared = Some((cache, Arc::new(settings)));
        self
    }

    /// The fetches judged by.
    pub fn fetches(&self) -> &FetchSet {
        &self.fetches
    }

    /// The agents, in the order of each URL's verdicts.
    pub fn agents(&self) -> &[String] {
        &self.agents
    }

    /// The policy judged under.
    pub fn policy(&self) -> &FetchPolicy {
        &self.policy
    }

    /// Fresh per-thread state.
    pub fn scratch(&self) -> CrawlScratch {
        CrawlScratch {
            key: vec![],
            current: None,
            kept: true,
            scratches: vec![],
            path: vec![],
        }
    }

    /// The name of the fetch whose robots.txt or status decided `verdict`
    /// (after redirects): an origin, a host, or the URL of a capture; None
    /// when no fetch did.
    pub fn robots_of(&self, verdict: CrawlVerdict) -> Option<&str> {
        let (name, _) = self.fetches.get(verdict.fetch()?)?;
        Some(name)
    }

    /// The indexes of the robots.txt fetches of the set, of origins and
    /// hosts: the sites of a survey (captures of other URLs are not).
    pub fn sites(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.fetches.len()).filter(|&i| !self.fetches.is_capture(i))
    }

    /// What the fetch at `index` comes to after redirects, under the
    /// policy: `Ok` with the index of the fetch whose body is the
    /// robots.txt, or `Err` with the verdict every URL of the site gets.
    /// The body of a directory's file is read by [`FetchSet::body`], which
    /// also tells a file that cannot be read.
    pub fn resolution(&self, index: usize) -> Result<usize, CrawlVerdict> {
        match self.resolved.get(index) {
            Some(&Resolved::Rules(fetch, _) | &Resolved::Unread(fetch)) => {
                Ok(fetch)
            }
            Some(&Resolved::Assume(allowed, reason)) => {
                Err(CrawlVerdict::new(Some(allowed), reason, Some(index)))
            }
            None => Err(unknown(CrawlReason::NoRobots)),
        }
    }

    /// The verdicts on `url`, one per agent, into `out` (cleared first).
    pub fn verdicts(
        &self,
        url: &[u8],
        scratch: &mut CrawlScratch,
        out: &mut Vec<CrawlVerdict>,
    ) {
        let (located, _) = self.locate(url, &mut scratch.key);
        self.judge_located(url, None, located, Run::default(), scratch, out);
    }

    /// Finds where `url`'s verdicts come from, compiling and reading
    /// nothing: the same verdict for every agent (the fetch gave no rules,
    /// or there is no fetch or no host), or the rules of a fetch (of a
    /// directory's file, once read). Also returns where the URL's
    /// authority ends (0 without one): every URL that
    /// [`same_authority`](super::origin::same_authority) finds to share it
    /// is located alike.
    pub(crate) fn locate(
        &self,
        url: &[u8],
        key: &mut Vec<u8>,
    ) -> (Located, usize) {
        let Some(parts) = origin_key(url, key) else {
            return (Located::Same(unknown(CrawlReason::NoHost)), 0);
        };
        let end = parts.authority_end();
        let Some(entry) = self.fetches.find(key, parts.host(key)) else {
            return (Located::Same(self.missing()), end);
        };
        let located = match self.resolved[entry] {
            Resolved::Rules(fetch, compiled) => {
                Located::Rules { fetch, compiled }
            }
            Resolved::Unread(fetch) => match self.unread_compiled[fetch].get()
            {
                Some(&Some(compiled)) => Located::Rules { fetch, compiled },
                Some(None) => Located::Same(self.missing()),
                None => Located::Unread { fetch },
            },
            Resolved::Assume(allowed, reason) => Located::Same(
                CrawlVerdict::new(Some(allowed), reason, Some(entry)),
            ),
        };
        (located, end)
    }

    /// The verdict on a URL whose origin has no fetch.
    fn missing(&self) -> CrawlVerdict {
        match self.policy.on_missing {
            Some(a) => CrawlVerdict::new(
                Some(a.allowed()),
                CrawlReason::NoRobots,
                None,
            ),
            None => unknown(CrawlReason::NoRobots),
        }
    }

    /// For the fetch at `index`, a directory's file, the fetch whose
    /// matchers it shares: the first of the files read so far with the
    /// same body (itself if none), or `None` if it cannot be read. Reads
    /// the file the first time, and then gives its body too if it shares
    /// with no other file, so that it is parsed without being read again
    /// or kept until then.
    fn unread_compiled(
        &self,
        index: usize,
    ) -> Option<(usize, Option<Vec<u8>>)> {
        // Every URL of the file after its first comes this way.
        if let Some(&compiled) = self.unread_compiled[index].get() {
            return compiled.map(|c| (c, None));
        }
        let mut fresh = None;
        let compiled = (*self.unread_compiled[index].get_or_init(|| {
            let body = self.fetches.body(index)?.into_owned();
            let first = self.first_read_with(index, &body);
            if first == index {
                fresh = Some(body);
            }
            Some(first)
        }))?;
        Some((compiled, fresh))
    }

    /// The first file read with the same bytes as `body`, the body of the
    /// fetch at `index` (which becomes that first file if there is none).
    /// An earlier file with the same hash is read again to be compared
    /// byte for byte, outside the lock: other threads go on meeting new
    /// hosts meanwhile.
    fn first_read_with(&self, index: usize, body: &[u8]) -> usize {
        let hash = self.body_hash.hash_one(body);
        let mut compared = 0;
        loop {
            let candidates = {
                let mut by_hash =
                    self.read_files.lock().unwrap_or_else(|e| e.into_inner());
                let same = by_hash.entry(hash).or_default();
                if same.len() == compared {
                    same.push(index);
                    return index;
                }
                same[compared..].to_vec()
            };
            compared += candidates.len();
            let equal =
                |&j: &usize| self.fetches.body(j).as_deref() == Some(body);
            if let Some(first) = candidates.into_iter().find(equal) {
                return first;
            }
        }
    }

    /// Asks for the memory where the matchers of the fetch at `index` are
    /// found, for a URL judged some time after the next.
    pub(crate) fn prefetch_place(&self, index: usize) {
        self.cache.prefetch_slot(index);
        if let Some(once) = self.unread_compiled.get(index) {
            prefetch(std::slice::from_ref(once));
        }
    }

    /// Asks for the memory of the matchers of the fetch at `index`, for a
    /// URL judged soon (its place asked for some time before).
    pub(crate) fn prefetch_rules(&self, index: usize) {
        self.cache.prefetch_entry(index);
    }

    /// The verdicts of a located URL into `out` (cleared first); true
    /// when they come from the rules that [`CrawlScratch`] then holds.
    /// `found` is the URL's path and its special bytes' flags when the
    /// caller found them already (`url` is then not read).
    /// `run` says what follows in the batch (see [`Run`]).
    pub(crate) fn judge_located(
        &self,
        url: &[u8],
        found: Option<(UrlPath<'_>, u8)>,
        located: Located,
        run: Run,
        scratch: &mut CrawlScratch,
        out: &mut Vec<CrawlVerdict>,
    ) -> bool {
        out.clear();
        let (fetch, compiled, body) = match located {
            Located::Same(v) => {
                out.resize(self.agents.len(), v);
                return false;
            }
            Located::Rules { fetch, compiled } => (fetch, compiled, None),
            Located::Unread { fetch } => match self.unread_compiled(fetch) {
                Some((compiled, body)) => (fetch, compiled, body),
                None => {
                    out.resize(self.agents.len(), self.missing());
                    return false;
                }
            },
        };
        if scratch.current.as_ref().map(|c| c.0) != Some(compiled) {
            let (entry, kept) = self.entry_with(compiled, body, run);
            scratch.set_current(compiled, entry);
            scratch.kept = kept;
        }
        self.advance(compiled, run.following, scratch);
        let Some((_, ref entry)) = scratch.current else {
            unreachable!("the current rules were just set")
        };
        let mut push = |v: crate::matcher::Verdict| {
            out.push(CrawlVerdict::new(
                Some(v.is_allowed()),
                CrawlReason::Robots(v.reason()),
                Some(fetch),
            ))
        };
        // Every agent's rules and matchers are in the judge's dialect: one
        // path for all of them.
        let path = match found {
            Some((path, flags)) => {
                self.dialect.path_of(path, flags, None, &mut scratch.path)
            }
            None => self.dialect.path(url, &mut scratch.path),
        };
        match entry.matchers {
            Some(ref matchers) => {
                for (m, s) in matchers.iter().zip(&mut scratch.scratches) {
                    push(m.verdict_path(path, s));
                }
            }
            None => {
                for rules in entry.rules.iter() {
                    push(rules.verdict_path(path));
                }
            }
        }
        true
    }

    /// Counts one more URL of the current origin while its rules are not
    /// compiled, and moves them on when it is due, so that the URL being
    /// judged is the first to use what they become: matchers that scan
    /// once the origin has more than [`FEW_URLS`] URLs, counting those
    /// judged and the `following` ones, compiled ones (or another
    /// thread's compilation) once it has more than `compile_after`.
    fn advance(
        &self,
        compiled: usize,
        following: usize,
        scratch: &mut CrawlScratch,
    ) {
        let Some((_, ref entry)) = scratch.current else { return };
        let Some(ref scanned) = entry.scanned else { return };
        let n = scanned.urls.fetch_add(1, Ordering::Relaxed) + 1;
        let mut next = None;
        if n > self.compile_after {
            // One thread compiles (of all the judges that share the
            // count, through a shared cache); the others pick the compiled
            // matchers up from the caches now and then, or when they come
            // back to this origin.
            next = if !scanned.compiling.swap(true, Ordering::Relaxed) {
                Some(self.compile(compiled, entry, scratch.kept))
            } else if n % 64 == 0 {
                self.compiled(compiled)
            } else {
                None
            };
        }
        if next.is_none()
            && entry.matchers.is_none()
            && n + following > FEW_URLS
        {
            next = Some(self.scan(compiled, entry, scratch.kept));
        }
        if let Some(entry) = next {
            scratch.set_current(compiled, entry);
        }
    }

    /// The compiled matchers of the fetch at `index`, if a cache holds
    /// them (the judge's own, else the shared one, which then fills the
    /// judge's).
    fn compiled(&self, index: usize) -> Option<Arc<Entry>> {
        let local = self.cache.get(index);
        if let Some(entry) = local.filter(|e| e.is_compiled()) {
            return Some(entry);
        }
        self.shared.as_ref()?;
        let (cache, key) = self.shared_key(&self.body(index))?;
        let entry = cache.get(&key).filter(|e| e.is_compiled())?;
        self.cache.insert(index, Arc::clone(&entry));
        Some(entry)
    }

    /// The rules of the fetch at `index` (one set per agent), from the
    /// cache, else selected now.
    pub fn rules(&self, index: usize) -> Arc<[Arc<RuleSet>]> {
        Arc::clone(&self.entry(index).rules)
    }

    /// The matchers of the fetch at `index` as they are now: None while
    /// its rules judge its origin's URLs alone (its first few; its rules
    /// are selected now if no cache holds them).
    pub fn matchers(&self, index: usize) -> Option<Arc<[Matcher]>> {
        self.entry(index).matchers.clone()
    }

    /// The entry of the fetch at `index`, from the cache, else made now:
    /// its rules selected, to be built into matchers past its first few
    /// URLs (or at once when `compile_after` is 0).
    fn entry(&self, index: usize) -> Arc<Entry> {
        self.entry_with(index, None, Run::default()).0
    }

    /// [`CrawlJudge::entry`], given the body of the fetch at `index` if it
    /// was just read, for an origin whose first URL begins `run`: with
    /// more than [`FEW_URLS`] URLs in all, its rules are built into
    /// matchers that scan at once (one entry added to the cache rather
    /// than two, the first replaced straight away). Also returns whether
    /// the cache keeps the entry: one built for a passing run may be let
    /// go (see [`Passing`]).
    fn entry_with(
        &self,
        index: usize,
        body: Option<Vec<u8>>,
        run: Run,
    ) -> (Arc<Entry>, bool) {
        if let Some(entry) = self.cache.get(index) {
            return (entry, true);
        }
        // Made outside the lock: two threads may both make one origin's
        // entry, but no thread waits for another's compilation.
        let body = match body {
            Some(body) => Cow::Owned(body),
            None => self.body(index),
        };
        let key = self.shared_key(&body);
        if let Some((cache, ref key)) = key {
            if let Some(entry) = cache.get(key) {
                self.cache.insert(index, Arc::clone(&entry));
                return (entry, true);
            }
        }
        let limit = self.policy.max_robots_bytes;
        let robots = match body {
            Cow::Owned(body) => Robots::parse_vec_with_limit(body, limit),
            Cow::Borrowed(body) => Robots::parse_with_limit(body, limit),
        };
        let rules: Arc<[Arc<RuleSet>]> = self
            .agents
            .iter()
            .map(|a| Arc::new(RuleSet::select(&robots, a, self.dialect)))
            .collect();
        let entry = if self.compile_after == 0 {
            let matchers = self.build(&rules, &self.builder);
            Entry::new(rules, Some(matchers), None)
        } else if 1 + run.following > FEW_URLS {
            let matchers = self.build(&rules, &self.scanning());
            Entry::new(rules, Some(matchers), Some(Arc::default()))
        } else {
            Entry::new(rules, None, Some(Arc::default()))
        };
        let entry = Arc::new(entry);
        // A shared cache keeps every entry: other judges may need it.
        let kept = key.is_some() || !self.passing.lets_go(index, run.passing);
        if kept {
            self.keep(index, &entry, key);
        }
        (entry, kept)
    }

    /// Builds `entry`'s rules into matchers that scan (the judge's cache
    /// may hold them already, or compiled ones, from another thread), for
    /// the judge's cache alone: other judges sharing its entry build their
    /// own as cheaply. Rules let go after their run (not `kept`) stay
    /// out of the cache as matchers too.
    fn scan(&self, index: usize, entry: &Entry, kept: bool) -> Arc<Entry> {
        if let Some(built) = self.cache.get(index) {
            if built.matchers.is_some() {
                return built;
            }
        }
        let scan = self.scanning();
        let entry = self.rebuilt(entry, &scan, entry.scanned.clone());
        if kept {
            self.keep(index, &entry, None);
        }
        entry
    }

    /// Compiles `entry`'s rules with the builder's engine, in place of any
    /// scanning ones in the caches (unless the rules were let go: not
    /// `kept`).
    fn compile(&self, index: usize, entry: &Entry, kept: bool) -> Arc<Entry> {
        let entry = self.rebuilt(entry, &self.builder, None);
        if kept {
            // Only a shared cache needs the body, as its key.
            let body = self.shared.as_ref().map(|_| self.body(index));
            self.keep(index, &entry, body.and_then(|b| self.shared_key(&b)));
        }
        entry
    }

    /// `entry` with its rules built into matchers by `builder`, counted
    /// by `scanned` while they scan.
    fn rebuilt(
        &self,
        entry: &Entry,
        builder: &MatcherBuilder,
        scanned: Option<Arc<Scanned>>,
    ) -> Arc<Entry> {
        let matchers = self.build(&entry.rules, builder);
        let rules = Arc::clone(&entry.rules);
        Arc::new(Entry::new(rules, Some(matchers), scanned))
    }

    /// Keeps `entry` for the fetch at `index` in the judge's cache and,
    /// under `key`, in the shared one.
    fn keep(
        &self,
        index: usize,
        entry: &Arc<Entry>,
        key: Option<(&MatcherCache, SharedKey)>,
    ) {
        self.cache.insert(index, Arc::clone(entry));
        if let Some((cache, key)) = key {
            cache.insert(key, entry);
        }
    }

    /// The key of a fetch with this body in the shared cache, if any.
    fn shared_key(&self, body: &[u8]) -> Option<(&MatcherCache, SharedKey)> {
        let (cache, settings) = self.shared.as_ref()?;
        let key = SharedKey {
            settings: Arc::clone(settings),
            body: Arc::from(body),
        };
        Some((cache, key))
    }

    /// The body of the fetch at `index`; a directory's file is read again
    /// (one that can no longer be read is empty).
    fn body(&self, index: usize) -> Cow<'_, [u8]> {
        self.fetches.body(index).unwrap_or_default()
    }

    /// The builder of matchers that scan, for an origin's URLs until
    /// they are compiled.
    fn scanning(&self) -> MatcherBuilder {
        let mut scan = self.builder.clone();
        scan.engine(EngineKind::Scan);
        scan
    }

    /// Matchers of `rules`, built by `builder`.
    fn build(
        &self,
        rules: &[Arc<RuleSet>],
        builder: &MatcherBuilder,
    ) -> Arc<[Matcher]> {
        rules.iter().map(|r| builder.build_shared(Arc::clone(r))).collect()
    }
}

/// A judge's matchers by fetch index, bounded in bytes: every thread reads
/// a fetch's from its own slot, for an origin changes as often as a log's
/// lines do; the cache's one lock is taken only to add matchers (each is
/// built once) and to evict the oldest.
///
/// A slot is a read-write lock held only to clone or replace its entry:
/// its reads are two atomic operations on the slot's own memory, and its
/// writes, made under the cache's lock, touch nothing else. (A slot that
/// readers share without any lock, as `arc-swap`'s, costs each write a
/// walk over every thread's record of what it is reading, which at sixteen
/// threads kept the cache's lock held long enough for the others to queue
/// on it.)
#[derive(Debug)]
struct JudgeCache {
    slots: Box<[Slot]>,
    cache: Mutex<Cache<usize, Entry>>,
}

/// A fetch's entry in the judge's cache, and where the entry's memory lies
/// (see [`Entry::regions`]), in one cache line: a log in random host order
/// meets each fetch's entry afresh, and one prefetch of its slot then lets
/// the entry, its matchers and their own memory be asked for together
/// rather than one pointer after another.
#[derive(Debug, Default)]
#[repr(align(64))]
struct Slot {
    entry: RwLock<Option<Arc<Entry>>>,
    hints: Hints<SLOT_HINTS>,
}

/// The regions a slot's hints hold: as many as fill its cache line.
const SLOT_HINTS: usize = 5;

impl JudgeCache {
    fn new(fetches: usize, budget: usize) -> JudgeCache {
        JudgeCache {
            slots: (0..fetches).map(|_| Slot::default()).collect(),
            cache: Mutex::new(Cache::new(budget, true)),
        }
    }

    fn get(&self, index: usize) -> Option<Arc<Entry>> {
        // N.B. No thread panics while holding a slot's lock (it only
        // clones or replaces an `Arc`), so a poisoned one is sound.
        let slot = self.slots.get(index)?;
        slot.entry.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Asks for the memory of the slot at `index`.
    fn prefetch_slot(&self, index: usize) {
        if let Some(slot) = self.slots.get(index) {
            prefetch(std::slice::from_ref(slot));
        }
    }

    /// Asks for the memory of the entry at `index`, as its slot's hints
    /// say where it lies.
    fn prefetch_entry(&self, index: usize) {
        if let Some(slot) = self.slots.get(index) {
            slot.hints.prefetch();
        }
    }

    /// Adds `entry` as [`Cache::insert`] does, and makes the slots agree
    /// with the cache.
    fn insert(&self, index: usize, entry: Arc<Entry>) {
        // N.B. A thread that panicked while holding the lock leaves the
        // cache consistent (every update is one insert or remove).
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        let evicted: Vec<Option<Arc<Entry>>> = cache
            .insert(index, entry)
            .into_iter()
            .filter_map(|gone| self.slots.get(gone))
            .map(|slot| slot.set(None))
            .collect();
        let replaced = self
            .slots
            .get(index)
            .and_then(|slot| slot.set(cache.map.get(&index).cloned()));
        // The entries evicted or replaced are freed once the lock is let
        // go: an origin's rules and matchers are many small allocations,
        // and every thread adding matchers waits on this lock.
        drop(cache);
        drop((evicted, replaced));
    }
}

impl Slot {
    /// Puts `entry` in the slot, with its hints, and returns what it
    /// held.
    fn set(&self, entry: Option<Arc<Entry>>) -> Option<Arc<Entry>> {
        self.hints
            .set(entry.as_deref().map(Entry::regions).unwrap_or_default());
        let mut held = self.entry.write().unwrap_or_else(|e| e.into_inner());
        std::mem::replace(&mut *held, entry)
    }
}

/// The bytes of an `Arc`'s counts, which lie before its value.
const ARC_COUNTS: usize = 2 * std::mem::size_of::<usize>();

/// The heap bytes of an `Arc` of `n` values of `T` (the values' own heap
/// apart).
fn arc_of<T>(n: usize) -> usize {
    ARC_COUNTS + n * std::mem::size_of::<T>()
}

/// Whether `engine` compiles (next to) nothing, so that scanning first
/// gains nothing.
fn scans_only(engine: EngineKind) -> bool {
    matches!(engine, EngineKind::Scan | EngineKind::Naive)
}

fn unknown(reason: CrawlReason) -> CrawlVerdict {
    CrawlVerdict::new(None, reason, None)
}

/// Follows the fetch at `start` through its redirects, with the fetches
/// visited into `visited` (cleared first).
fn resolve(
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
                match fetches.find_url(&target, &mut key) {
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

/// Compiled matchers kept across [`CrawlJudge`]s (see
/// [`CrawlJudge::with_shared_cache`]), keyed by the robots.txt body and by
/// everything else they depend on (agents, dialect, parse limit, engine and
/// its limits), so that equal bodies of different origins share them.
/// Bounded in bytes (bodies, rules and matchers, as allocated): the oldest
/// insertions go first.
#[derive(Debug)]
pub struct MatcherCache {
    inner: Mutex<Cache<SharedKey, Entry>>,
}

/// Everything besides the body that a fetch's matchers depend on. The
/// builder is compared whole, so that a setting added to it joins the key.
#[derive(Debug, Eq, Hash, PartialEq)]
struct Settings {
    agents: Vec<String>,
    dialect: Dialect,
    max_robots_bytes: usize,
    builder: MatcherBuilder,
}

/// The key of a fetch's matchers in a [`MatcherCache`]: the judge's
/// settings (shared by all its keys) and the robots.txt body.
#[derive(Clone, Debug, Eq, Hash, PartialEq)]
struct SharedKey {
    settings: Arc<Settings>,
    body: Arc<[u8]>,
}

/// A fetch's rules and matchers (one of each per agent) and the bytes
/// they account for.
#[derive(Clone, Debug)]
struct Entry {
    rules: Arc<[Arc<RuleSet>]>,
    /// None while the origin has had one URL, which the rules judge
    /// alone.
    matchers: Option<Arc<[Matcher]>>,
    /// The heap bytes the entry holds: itself, its rules, its matchers and
    /// its count, each in its `Arc` (what a cache's budget is spent on).
    bytes: usize,
    /// While the matchers are not compiled: the URLs judged so far,
    /// counted by every thread that uses them.
    scanned: Option<Arc<Scanned>>,
}

impl Entry {
    fn new(
        rules: Arc<[Arc<RuleSet>]>,
        matchers: Option<Arc<[Matcher]>>,
        scanned: Option<Arc<Scanned>>,
    ) -> Entry {
        let sets =
            rules.iter().map(|r| arc_of::<RuleSet>(1) + r.memory_usage());
        let built = matchers.as_deref().unwrap_or_default();
        let bytes = arc_of::<Entry>(1)
            + arc_of::<Arc<RuleSet>>(rules.len())
            + sets.sum::<usize>()
            + matchers.as_ref().map_or(0, |m| arc_of::<Matcher>(m.len()))
            + built.iter().map(Matcher::heap_bytes).sum::<usize>()
            + scanned.as_ref().map_or(0, |_| arc_of::<Scanned>(1));
        Entry { rules, matchers, bytes, scanned }
    }

    /// Where the entry's memory lies, in the order a verdict reads it:
    /// the entry, its matchers, its count of URLs, and what the first
    /// matcher reads past itself.
    fn regions(&self) -> SmallVec<[Region; 8]> {
        // Each region starts at its `Arc`'s counts, which a clone writes.
        // In place, not on the heap: the slots are set under the cache's
        // lock, which every thread adding matchers waits on.
        let mut out: SmallVec<[Region; 8]> =
            smallvec::smallvec![Region::with_before(
                std::slice::from_ref(self),
                ARC_COUNTS
            )];
        if let Some(ref matchers) = self.matchers {
            out.push(Region::with_before(matchers, ARC_COUNTS));
        }
        if let Some(ref scanned) = self.scanned {
            out.push(Region::with_before(
                std::slice::from_ref(&**scanned),
                ARC_COUNTS,
            ));
        }
        if let Some(first) = self.matchers.as_deref().and_then(<[_]>::first) {
            first.regions(&mut |r| out.push(r));
        }
        out
    }

    /// The entry's rules without its matchers, counted as before.
    fn rules_only(&self) -> Entry {
        let rules = Arc::clone(&self.rules);
        Entry::new(rules, None, self.scanned.clone())
    }

    /// Whether the matchers are compiled with the builder's engine.
    fn is_compiled(&self) -> bool {
        self.stage() == 2
    }

    /// How far the entry has come: rules, scanning matchers, compiled
    /// ones.
    fn stage(&self) -> u8 {
        match (&self.matchers, &self.scanned) {
            (None, _) => 0,
            (Some(_), Some(_)) => 1,
            (Some(_), None) => 2,
        }
    }
}

impl Weighed for Entry {
    fn bytes(&self) -> usize {
        self.bytes
    }

    fn stage(&self) -> u8 {
        Entry::stage(self)
    }
}

/// The count of URLs that scanning matchers judged, and whether a thread
/// has started compiling them.
#[derive(Debug, Default)]
struct Scanned {
    urls: AtomicUsize,
    compiling: AtomicBool,
}

impl MatcherCache {
    /// An empty cache that keeps at most `bytes` of bodies and matchers.
    pub fn new(bytes: usize) -> MatcherCache {
        MatcherCache { inner: Mutex::new(Cache::new(bytes, false)) }
    }

    /// How many sets of matchers the cache holds.
    pub fn len(&self) -> usize {
        self.lock().map.len()
    }

    /// Whether the cache is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes the cache accounts for (bodies and matchers).
    pub fn memory_usage(&self) -> usize {
        self.lock().bytes
    }

    fn get(&self, key: &SharedKey) -> Option<Arc<Entry>> {
        self.lock().map.get(key).cloned()
    }

    /// Keeps `entry` under `key`, without scanning matchers: each judge
    /// builds its own as cheaply, and the budget goes to rules and
    /// compiled matchers.
    fn insert(&self, key: SharedKey, entry: &Entry) {
        let kept = match entry.stage() {
            1 => entry.rules_only(),
            _ => entry.clone(),
        };
        let body = arc_of::<u8>(key.body.len());
        let entry = Entry { bytes: kept.bytes + body, ..kept };
        self.lock().insert(key, Arc::new(entry));
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Cache<SharedKey, Entry>> {
        // N.B. Every update leaves the cache consistent, so a panic while
        // the lock was held does not matter.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crawl::Fetch;
    use crate::testing::{judge_of, served};

    /// An origin whose first URL more than `FEW_URLS` URLs of the batch
    /// share gets matchers that scan in the one entry added for it; an
    /// origin's lone URLs are judged by its rules, whose entry the
    /// matchers replace at its URL past `FEW_URLS`.
    #[test]
    fn an_origin_with_urls_to_follow_is_added_to_the_cache_once() {
        let set = served(["a.com", "b.com"].map(|host| {
            (host, format!("User-agent: *\nDisallow: /{host}\n").into_bytes())
        }));
        let judge = judge_of(set, &["x"]);
        let (mut scratch, mut out) = (judge.scratch(), vec![]);
        let mut judged = |url: &str, following: usize| {
            let url = url.as_bytes();
            let (located, _) = judge.locate(url, &mut vec![]);
            judge.judge_located(
                url,
                None,
                located,
                Run { following, passing: false },
                &mut scratch,
                &mut out,
            );
            let Located::Rules { compiled, .. } = located else {
                panic!("{url:?} has rules");
            };
            let stored = judge.cache.cache.lock().unwrap().stored;
            let built = judge.matchers(compiled).map(|m| m[0].strategy());
            (out[0].allowed(), built, stored)
        };
        let (f, t) = (Some(false), Some(true));
        let scan = Some("scan");
        assert_eq!(judged("https://a.com/a.com", FEW_URLS), (f, scan, 1));
        assert_eq!(judged("https://a.com/", FEW_URLS - 1), (t, scan, 1));
        for n in 1..=FEW_URLS {
            assert_eq!(judged("https://b.com/", 0), (t, None, 2), "URL {n}");
        }
        assert_eq!(judged("https://b.com/b.com", 0), (f, scan, 3));
    }

    /// Judges `url`, of an origin with rules, as the first URL of a batch
    /// in which more than [`FEW_URLS`] of its URLs follow, so that its
    /// matchers are built at once; its fetch's place in the judge's cache
    /// and its verdicts.
    fn judged_first(
        judge: &CrawlJudge,
        url: &[u8],
    ) -> (usize, Vec<CrawlVerdict>) {
        let (located, _) = judge.locate(url, &mut vec![]);
        let Located::Rules { compiled, .. } = located else {
            panic!("{url:?} has rules");
        };
        let (mut scratch, mut out) = (judge.scratch(), vec![]);
        judge.judge_located(
            url,
            None,
            located,
            Run { following: FEW_URLS, passing: false },
            &mut scratch,
            &mut out,
        );
        (compiled, out)
    }

    /// A slot takes one cache line, and its hints say where its entry,
    /// the entry's matchers, its count and the first matcher's patterns
    /// lie, so that one prefetch of the slot leads to all of them.
    #[test]
    fn a_slot_hints_where_its_entry_and_matchers_lie() {
        // The lock's size is the platform's: one line where it is a futex.
        #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
        assert_eq!(std::mem::size_of::<Slot>(), 64);
        let body = b"User-agent: *\nDisallow: /a\nAllow: /a/b*c\n".to_vec();
        let judge = judge_of(served([("a.com", body)]), &["x"]);
        let (compiled, _) = judged_first(&judge, b"https://a.com/a");
        let entry = judge.cache.get(compiled).expect("the entry is kept");
        let matchers = entry.matchers.as_deref().expect("matchers built");
        let scanned = entry.scanned.as_deref().expect("a count kept");
        let hints = &judge.cache.slots[compiled].hints;
        let mut regions = vec![];
        matchers[0].regions(&mut |r| regions.extend(r.start()));
        assert!(!regions.is_empty(), "the matcher scans its patterns");
        for (what, at) in [
            ("entry", std::ptr::from_ref(&*entry) as usize),
            ("matchers", matchers.as_ptr() as usize),
            ("count", std::ptr::from_ref(scanned) as usize),
            ("patterns", regions[0]),
        ] {
            assert!(hints.covers(at), "{what} at {at:#x}");
        }
    }

    /// An origin given scanning matchers at its first URL keeps them in
    /// its judge's cache; the shared cache gets its rules alone, as when
    /// the matchers come later, for other judges to build their own from.
    #[test]
    fn the_shared_cache_gets_rules_not_scanning_matchers() {
        let body = b"User-agent: *\nDisallow: /a\n".to_vec();
        let set = served([("a.com", body.clone())]);
        let cache = Arc::new(MatcherCache::new(1 << 20));
        let judge =
            judge_of(set, &["x"]).with_shared_cache(Arc::clone(&cache));
        let (compiled, out) = judged_first(&judge, b"https://a.com/a");
        assert_eq!(out[0].allowed(), Some(false));
        let built = judge.matchers(compiled).map(|m| m[0].strategy());
        assert_eq!(built, Some("scan"));
        // The shared entry holds the rules and no matchers, and its key
        // the body.
        let kept = cache.lock().map.values().next().cloned().unwrap();
        assert!(kept.matchers.is_none());
        let own = judge.cache.get(compiled).unwrap();
        assert!(Arc::ptr_eq(&kept.rules, &own.rules));
        let bytes = own.rules_only().bytes + arc_of::<u8>(body.len());
        assert_eq!((cache.len(), cache.memory_usage()), (1, bytes));
        assert!(bytes < own.bytes, "the matchers are not counted");
    }

    /// Fetches whose bodies lie in one shared buffer judge as fetches
    /// with bodies of their own do, and equal ones share matchers.
    #[test]
    fn shared_bodies_judge_as_their_own_would() {
        use crate::crawl::SharedBody;
        use std::sync::Arc;

        // Three bodies in one buffer, as an Arrow array's values hold
        // them; b.com and c.com serve the same one.
        let same = "User-agent: *\nDisallow: /b/\n";
        let buffer = format!("User-agent: *\nDisallow: /a/\n{same}{same}");
        let bytes: Arc<dyn AsRef<[u8]> + Send + Sync> =
            Arc::new(buffer.clone().into_bytes());
        let (a_len, s_len) = (buffer.len() - 2 * same.len(), same.len());
        let shared = |range| SharedBody::new(Arc::clone(&bytes), range);
        assert!(shared(0..buffer.len() + 1).is_none());
        let mut set = FetchSet::new();
        let ok = Fetch { status: 200, ..Fetch::default() };
        let bodies = [
            ("https://a.com/robots.txt", 0..a_len),
            ("https://b.com/robots.txt", a_len..a_len + s_len),
            ("https://c.com/robots.txt", a_len + s_len..buffer.len()),
        ];
        for (url, range) in bodies {
            let body = shared(range).unwrap();
            assert!(set.insert_url_shared(url, ok.clone(), body));
        }
        assert!(!set.insert_url_shared(
            "nonsense",
            ok.clone(),
            shared(0..0).unwrap()
        ));
        // The buffer is held once, and counted by its bodies' bytes.
        assert_eq!(set.body_bytes(), buffer.len());
        assert_eq!(set.body(1).as_deref(), Some(same.as_bytes()));
        // A later fetch of a.com with a body of its own replaces the
        // shared one.
        set.insert_url(
            "https://a.com/robots.txt",
            Fetch { body: b"User-agent: *\nDisallow: /z/\n".to_vec(), ..ok },
        );
        let judge = judge_of(set, &["*"]);
        let (mut scratch, mut out) = (judge.scratch(), vec![]);
        let mut verdict = |url: &str| {
            judge.verdicts(url.as_bytes(), &mut scratch, &mut out);
            out[0].allowed()
        };
        assert_eq!(verdict("https://a.com/a/x"), Some(true));
        assert_eq!(verdict("https://a.com/z/x"), Some(false));
        assert_eq!(verdict("https://b.com/b/x"), Some(false));
        assert_eq!(verdict("https://c.com/b/x"), Some(false));
        assert_eq!(verdict("https://c.com/a/x"), Some(true));
        // Equal shared bodies share matchers, as equal owned ones do.
        let mut key = vec![];
        let compiled = |url: &str, key: &mut Vec<u8>| match judge
            .locate(url.as_bytes(), key)
        {
            (Located::Rules { compiled, .. }, _) => compiled,
            other => panic!("{url}: {other:?}"),
        };
        assert_eq!(
            compiled("https://b.com/", &mut key),
            compiled("https://c.com/", &mut key)
        );
    }

    /// Files of a directory with equal bodies share one set of matchers,
    /// as fetches read whole do, though they are compared only when read.
    #[test]
    fn unread_files_with_equal_bodies_share_matchers() {
        let dir = std::env::temp_dir()
            .join(format!("robots-batch-unread-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let same = "User-agent: *\nDisallow: /b/\n";
        for (host, body) in
            [("a.com", "User-agent: *\n"), ("b.com", same), ("c.com", same)]
        {
            std::fs::write(dir.join(format!("{host}.txt")), body).unwrap();
        }
        let mut set = FetchSet::new();
        set.read_dir(&dir).unwrap();
        let judge = judge_of(set, &["*"]);
        let mut key = vec![];
        let (mut scratch, mut out) = (judge.scratch(), vec![]);
        // A file is read when a URL of it is first judged, not located.
        let mut compiled = |url: &str| {
            let url = url.as_bytes();
            match judge.locate(url, &mut key) {
                (Located::Unread { .. }, _) => {}
                other => {
                    panic!("{url:?} located before it is read: {other:?}")
                }
            }
            judge.verdicts(url, &mut scratch, &mut out);
            match judge.locate(url, &mut key) {
                (Located::Rules { fetch, compiled }, _) => (fetch, compiled),
                other => panic!("{url:?}: {other:?}"),
            }
        };
        let (a, a_compiled) = compiled("https://a.com/");
        let (c, c_compiled) = compiled("https://c.com/");
        let (b, b_compiled) = compiled("https://b.com/");
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(a_compiled, a);
        // c.com was read first: b.com shares its matchers.
        assert_eq!(c_compiled, c);
        assert_eq!(b_compiled, c);
        assert_ne!(b, c);
    }

    #[test]
    fn verdicts_keep_their_reason_and_fetch_in_16_bytes() {
        assert_eq!(std::mem::size_of::<CrawlVerdict>(), 16);
        let reasons = [
            CrawlReason::Robots(Reason::Rule(0)),
            CrawlReason::Robots(Reason::Rule(7)),
            CrawlReason::Robots(Reason::Rule(u32::MAX)),
            CrawlReason::Robots(Reason::NoMatchingRule),
            CrawlReason::Robots(Reason::NoGroup),
            CrawlReason::Robots(Reason::ImplicitRobotsTxt),
            CrawlReason::Status4xx,
            CrawlReason::Status5xx,
            CrawlReason::RedirectLimit,
            CrawlReason::RedirectMissing,
            CrawlReason::NoRobots,
            CrawlReason::NoHost,
        ];
        let fetches = [None, Some(0), Some(3), Some(usize::MAX - 1)];
        for reason in reasons {
            for fetch in fetches {
                for allowed in [None, Some(true), Some(false)] {
                    let v = CrawlVerdict::new(allowed, reason, fetch);
                    assert_eq!(v.reason(), reason);
                    assert_eq!(v.reason().name(), reason.name());
                    assert_eq!(v.fetch(), fetch);
                    assert_eq!(v.allowed(), allowed);
                }
            }
        }
    }

    #[test]
    fn threads_reading_equal_files_at_once_agree_on_one() {
        // Files of a few bodies, read by several threads at once: each
        // body's files share the matchers of one of them, whichever thread
        // read it first.
        let dir = std::env::temp_dir()
            .join(format!("robots-batch-equal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (bodies, hosts) = (3, 60);
        for h in 0..hosts {
            let body = format!("User-agent: *\nDisallow: /{}/\n", h % bodies);
            std::fs::write(dir.join(format!("h{h}.com.txt")), body).unwrap();
        }
        let mut set = FetchSet::new();
        set.read_dir(&dir).unwrap();
        let judge = judge_of(set, &["*"]);
        let threads = 6;
        let barrier = std::sync::Barrier::new(threads);
        let shares: Vec<Vec<(usize, usize)>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let (judge, barrier) = (&judge, &barrier);
                    s.spawn(move || {
                        let (mut scratch, mut out) = (judge.scratch(), vec![]);
                        barrier.wait();
                        // Each thread starts at another host.
                        (0..hosts)
                            .map(|i| {
                                let h = (i + t * 7) % hosts;
                                let url = format!(
                                    "https://h{h}.com/{}/",
                                    h % bodies
                                );
                                judge.verdicts(
                                    url.as_bytes(),
                                    &mut scratch,
                                    &mut out,
                                );
                                assert_eq!(
                                    out[0].allowed(),
                                    Some(false),
                                    "{url}"
                                );
                                let located = judge
                                    .locate(url.as_bytes(), &mut vec![])
                                    .0;
                                let Located::Rules { compiled, .. } = located
                                else {
                                    panic!("{url}: {located:?}")
                                };
                                (h, compiled)
                            })
                            .collect()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        std::fs::remove_dir_all(&dir).unwrap();
        let mut first_of_body = vec![None; bodies];
        for (h, compiled) in shares.into_iter().flatten() {
            let first = *first_of_body[h % bodies].get_or_insert(compiled);
            assert_eq!(compiled, first, "h{h}.com");
        }
        let mut firsts: Vec<usize> =
            first_of_body.into_iter().flatten().collect();
        firsts.sort_unstable();
        firsts.dedup();
        assert_eq!(firsts.len(), bodies);
    }

    /// A judge over three hosts whose rules have several wildcard tails
    /// each (the trie's per-path stamps), and URLs that hit them.
    fn hosts_with_tails() -> (FetchSet, Vec<(String, String)>) {
        let mut set = FetchSet::new();
        let mut bodies = vec![];
        for (h, words) in
            [("a", ["x", "y"]), ("b", ["y", "z"]), ("c", ["z", "x"])]
        {
            let [p, q] = words;
            let body = format!(
                "User-agent: *\nDisallow: /*{p}*{q}\nAllow: /*{p}*{q}*{p}\n\
                 Disallow: /*{q}*{p}$\nAllow: /{p}*\nDisallow: /*{q}{q}\n"
            );
            let host = format!("{h}.com");
            set.insert_host(
                &host,
                Fetch {
                    status: 200,
                    body: body.clone().into_bytes(),
                    location: None,
                    date: None,
                },
            );
            bodies.push((host, body));
        }
        (set, bodies)
    }

    /// One scratch per thread serves every origin in turn (its buffers are
    /// kept from one set of matchers to the next): each verdict equals a
    /// fresh matcher's with a fresh scratch, in every engine and dialect,
    /// whether the rules judged alone (an origin's first URL), scanned or
    /// compiled.
    #[test]
    fn one_scratch_serves_every_origin() {
        let paths = [
            "/", "/x", "/xy", "/yx", "/x/y/x", "/yzx", "/zzx", "/xxyy",
            "/y/x", "/zx", "/yy", "/z/x/z/y", "/xzyzx",
        ];
        let engines = [
            EngineKind::Trie,
            EngineKind::Dense,
            EngineKind::Lazy,
            EngineKind::Scan,
            EngineKind::Naive,
        ];
        let dialects = [
            Dialect::Rfc9309,
            Dialect::Google,
            Dialect::Draft1996,
            Dialect::Orig1994,
        ];
        for (engine, dialect) in engines
            .into_iter()
            .flat_map(|e| dialects.into_iter().map(move |d| (e, d)))
        {
            let (set, bodies) = hosts_with_tails();
            let mut builder = MatcherBuilder::new();
            builder.engine(engine);
            let agents = ["*".to_string()];
            let judge = CrawlJudge::new(
                set,
                FetchPolicy::default(),
                builder.clone(),
                &agents,
                dialect,
            )
            .compile_after(2);
            let mut scratch = judge.scratch();
            let mut out = vec![];
            // Every host in turn, each path several times, so that the
            // matchers change at every URL and get compiled on the way.
            for round in 0..3 {
                for path in paths {
                    for (host, body) in &bodies {
                        let url = format!("https://{host}{path}");
                        judge.verdicts(url.as_bytes(), &mut scratch, &mut out);
                        let m = builder.build(
                            &Robots::parse(body.as_bytes()),
                            "*",
                            dialect,
                        );
                        let want = m.verdict(url.as_bytes(), &mut m.scratch());
                        assert_eq!(
                            (out[0].allowed(), out[0].reason()),
                            (
                                Some(want.is_allowed()),
                                CrawlReason::Robots(want.reason())
                            ),
                            "{engine:?} {dialect:?}, round {round}: {url}"
                        );
                    }
                }
            }
        }
    }

    /// Matchers evicted from a judge's cache leave it (their slot is
    /// emptied with them), and are built again when their origin returns.
    #[test]
    fn evicted_matchers_leave_the_cache() {
        let (set, bodies) = hosts_with_tails();
        let agents = ["*".to_string()];
        // A budget smaller than any matchers: one set is kept at a time.
        let policy = FetchPolicy { cache_bytes: 1, ..FetchPolicy::default() };
        let judge = CrawlJudge::new(
            set,
            policy,
            MatcherBuilder::new(),
            &agents,
            Dialect::Rfc9309,
        );
        let mut key = vec![];
        let mut index = |host: &str| {
            let url = format!("https://{host}/");
            match judge.locate(url.as_bytes(), &mut key) {
                (Located::Rules { compiled, .. }, _) => compiled,
                other => panic!("{url}: {other:?}"),
            }
        };
        let (a, b) = (index(&bodies[0].0), index(&bodies[1].0));
        assert!(judge.cache.get(a).is_none());
        judge.rules(a);
        let entry = judge.cache.get(a).expect("a.com's entry kept");
        let hints = &judge.cache.slots[a].hints;
        assert!(hints.covers(Arc::as_ptr(&entry) as usize));
        judge.rules(b);
        assert!(judge.cache.get(a).is_none(), "a.com's matchers evicted");
        assert!(!hints.covers(Arc::as_ptr(&entry) as usize));
        assert!(judge.cache.get(b).is_some());
        let again = judge.rules(a);
        assert!(judge.cache.get(b).is_none());
        assert!(Arc::ptr_eq(&judge.cache.get(a).unwrap().rules, &again));
    }
}

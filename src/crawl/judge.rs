//! The verdicts of a crawl log's URLs: each URL's origin, the fetch of its
//! robots.txt (after redirects), and the matchers compiled from it.

use std::borrow::Cow;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, OnceLock};

use super::caches::{
    Entry, JudgeCache, MatcherCache, Scanned, Settings, SharedKey,
};
use super::capture::{BeforeFirst, Capture};
use super::hash::HashMap;
use super::origin::origin_key;
use super::passing::Passing;
use super::policy::{resolve, FetchPolicy, Resolved};
use super::source::FetchSet;
use super::verdict::{reason_name, unknown, CrawlReason, CrawlVerdict};
use crate::dialect::Dialect;
use crate::engine::EngineKind;
use crate::group_key::GroupKeys;
use crate::lowlevel::prefetch::prefetch;
use crate::matcher::{Matcher, MatcherBuilder, Scratch, Verdict};
use crate::robots::Robots;
use crate::rules::RuleSet;
use crate::time::Timestamp;
use crate::url::path::UrlPath;

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
    /// A URL's verdict per distinct rule set, when agents share sets.
    verdicts: Vec<Verdict>,
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
        fetches.sort_captures();
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

    /// The dialect each robots.txt is read in.
    pub fn dialect(&self) -> Dialect {
        self.dialect
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
            verdicts: vec![],
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
    /// hosts, each its newest capture: the sites of a survey (captures of
    /// other URLs are not). [`FetchSet::captures_of`] gives a site's
    /// other captures.
    pub fn sites(&self) -> impl Iterator<Item = usize> + '_ {
        let fetches = &self.fetches;
        (0..fetches.len())
            .filter(|&i| !fetches.is_capture(i) && fetches.is_newest(i))
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

    /// The verdicts on `url`, one per agent, into `out` (cleared first):
    /// by each origin's newest capture, or the one in effect at the
    /// policy's [`Capture::AsOf`] date.
    pub fn verdicts(
        &self,
        url: &[u8],
        scratch: &mut CrawlScratch,
        out: &mut Vec<CrawlVerdict>,
    ) {
        let (located, _) = self.locate(url, &mut scratch.key);
        self.judge_located(url, None, located, Run::default(), scratch, out);
    }

    /// The verdicts on `url` fetched at `at`, one per agent, into `out`
    /// (cleared first): by the newest capture of its origin at or before
    /// `at`, whatever the policy's [`Capture`] (which says how the other
    /// calls choose). A URL older than every capture gets what the
    /// policy's [`BeforeFirst`] says.
    pub fn verdicts_at(
        &self,
        url: &[u8],
        at: Timestamp,
        scratch: &mut CrawlScratch,
        out: &mut Vec<CrawlVerdict>,
    ) {
        let (located, _) = self.locate_at(url, &mut scratch.key, Some(at));
        self.judge_located(url, None, located, Run::default(), scratch, out);
    }

    /// When the capture that decided `verdict` (after redirects) was made,
    /// if its date says.
    pub fn capture_time(&self, verdict: CrawlVerdict) -> Option<Timestamp> {
        self.fetches.time(verdict.fetch()?)
    }

    /// The instant every URL is judged as of, under [`Capture::AsOf`].
    pub fn as_of(&self) -> Option<Timestamp> {
        match self.policy.capture {
            Capture::AsOf(t) => Some(t),
            _ => None,
        }
    }

    /// The name of `verdict`'s reason for a URL fetched at `at` (the
    /// policy's [`Capture::AsOf`] date when `None`): with
    /// `;before-first` after it when the capture that decided is later.
    pub fn reason_name(
        &self,
        verdict: CrawlVerdict,
        at: Option<Timestamp>,
    ) -> &'static str {
        reason_name(verdict.reason(), self.before_first(verdict, at))
    }

    /// Whether `verdict`, on a URL fetched at `at` (the policy's
    /// [`Capture::AsOf`] date when `None`), was given by a capture made
    /// later: the URL is older than every capture of its origin, and
    /// [`BeforeFirst::Earliest`] let the earliest judge it.
    pub fn before_first(
        &self,
        verdict: CrawlVerdict,
        at: Option<Timestamp>,
    ) -> bool {
        match (at.or(self.as_of()), self.capture_time(verdict)) {
            (Some(at), Some(made)) => made > at,
            _ => false,
        }
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
        self.locate_at(url, key, self.as_of())
    }

    /// [`CrawlJudge::locate`] for a URL fetched at `at` (`None`: the
    /// newest capture judges).
    fn locate_at(
        &self,
        url: &[u8],
        key: &mut Vec<u8>,
        at: Option<Timestamp>,
    ) -> (Located, usize) {
        let Some(parts) = origin_key(url, key) else {
            return (Located::Same(unknown(CrawlReason::NoHost)), 0);
        };
        let end = parts.authority_end();
        let Some(mut entry) = self.fetches.find(key, parts.host(key)) else {
            return (Located::Same(self.missing()), end);
        };
        if let Some(at) = at {
            let picked = self.fetches.capture_at(entry, at);
            if picked.before_first
                && self.policy.before_first == BeforeFirst::Unknown
            {
                let v = unknown(CrawlReason::BeforeFirst);
                return (Located::Same(v), end);
            }
            entry = picked.index;
        }
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
        let distinct = &entry.distinct;
        if distinct.is_identity() {
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
            return true;
        }
        // Agents that share a set share its verdict: one per set.
        let verdicts = &mut scratch.verdicts;
        verdicts.clear();
        match entry.matchers {
            Some(ref matchers) => {
                for (m, s) in matchers.iter().zip(&mut scratch.scratches) {
                    verdicts.push(m.verdict_path(path, s));
                }
            }
            None => {
                for &i in distinct.first.iter() {
                    verdicts.push(entry.rules[i as usize].verdict_path(path));
                }
            }
        }
        for &d in distinct.of_agent.iter() {
            push(verdicts[d as usize]);
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

    /// The matchers of the fetch at `index` as they are now, one per
    /// distinct rule set (agents that select the same groups share one), in
    /// the order of the first agent of each: None while its rules judge
    /// its origin's URLs alone (its first few; its rules are selected now
    /// if no cache holds them).
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
        let rules = self.select(&robots);
        let entry = Entry::new(rules, Some(Arc::default()));
        let entry = if self.compile_after == 0 {
            let matchers = self.build(&entry, &self.builder);
            entry.with_matchers(Some(matchers), None)
        } else if 1 + run.following > FEW_URLS {
            let matchers = self.build(&entry, &self.scanning());
            entry.with_matchers(Some(matchers), Some(Arc::default()))
        } else {
            entry
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
        let matchers = self.build(entry, builder);
        Arc::new(entry.with_matchers(Some(matchers), scanned))
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

    /// Each agent's rules in `robots`: agents that select the same groups
    /// (equal [`GroupKeys`] keys) share one set, selected once.
    fn select(&self, robots: &Robots) -> Arc<[Arc<RuleSet>]> {
        if let [agent] = &self.agents[..] {
            // One agent shares with no one: no keys to find.
            return Arc::new([Arc::new(RuleSet::select(
                robots,
                agent,
                self.dialect,
            ))]);
        }
        let keys = GroupKeys::new(robots, self.dialect);
        let mut selected: Vec<(usize, Arc<RuleSet>)> = vec![];
        let mut select = |agent: &str| {
            let key = keys.key(agent);
            if let Some((_, set)) = selected.iter().find(|(k, _)| *k == key) {
                return Arc::clone(set);
            }
            let set = Arc::new(RuleSet::select(robots, agent, self.dialect));
            selected.push((key, Arc::clone(&set)));
            set
        };
        self.agents.iter().map(|a| select(a)).collect()
    }

    /// Matchers of the distinct sets of `entry`'s rules, built by
    /// `builder`: one per set that agents share (see [`Distinct`](super::caches::Distinct)).
    fn build(
        &self,
        entry: &Entry,
        builder: &MatcherBuilder,
    ) -> Arc<[Matcher]> {
        let rules = &entry.rules;
        let sets = entry.distinct.first.iter().map(|&i| &rules[i as usize]);
        sets.map(|r| builder.build_shared(Arc::clone(r))).collect()
    }
}

/// Whether `engine` compiles (next to) nothing, so that scanning first
/// gains nothing.
fn scans_only(engine: EngineKind) -> bool {
    matches!(engine, EngineKind::Scan | EngineKind::Naive)
}

#[cfg(test)]
mod tests;

//! Many URLs judged at once, grouped by the matchers they need: the way a
//! crawl log's chunk (and a Python batch) is judged, so that URLs of one
//! origin are judged together even when the input mixes hosts. A *cohort*
//! is the URLs of a batch that need one fetch's matchers (not a group of
//! a robots.txt).

use super::judge::{CrawlJudge, CrawlScratch, Located, Run};
use super::origin::{raw_authority, same_authority};
use super::remembered::Remembered;
use super::verdict::CrawlVerdict;
use crate::batch::room_for;
use crate::lowlevel::prefetch::prefetch;
use crate::rules::RuleSet;
use crate::url::path::UrlPath;
use std::sync::Arc;

/// URLs are judged in input order when they come in runs of this many
/// URLs needing the same matchers on average, else sorted by the matchers
/// they need.
const SORT_BELOW_RUN: usize = 4;

/// How far ahead of the URL being judged a sorted batch's URLs are asked
/// for: their bytes this many URLs ahead, their records twice as far;
/// enough to cover a load from memory while the URLs before them are
/// judged.
const PREFETCH_AHEAD: usize = 8;

/// How far ahead of the URL being located a batch's URLs have their
/// authority's place in the remembered ones asked for.
const LOCATE_AHEAD: usize = 8;

/// Per-thread state of [`CrawlJudge`]'s grouped judging (see
/// [`GroupedScratch::judge`]), kept from one batch of URLs to the next.
#[derive(Debug)]
pub struct GroupedScratch {
    scratch: CrawlScratch,
    key: Vec<u8>,
    /// Where the verdicts of a URL come from, by its raw authority.
    remembered: Remembered,
    /// The allocation of the last batch's [`Ruled`] URLs, kept empty.
    ruled: Vec<Ruled<'static>>,
    /// The judging order: per URL of `ruled`, its cohort above its place.
    order: Vec<u64>,
    /// Room for `order` while it is sorted.
    sorting: Vec<u64>,
    one: Vec<CrawlVerdict>,
}

/// A URL of the batch whose verdicts come from rules: what judging it
/// needs, in one place.
#[derive(Clone, Copy, Debug)]
struct Ruled<'u> {
    /// Its index in the window.
    index: usize,
    /// What the URLs judged together share: the fetch whose matchers judge
    /// it (see [`Located::Rules`]), or for a directory's file not read yet
    /// the file's own fetch.
    cohort: usize,
    fetch: usize,
    /// Whether the fetch is a directory's file not read yet
    /// ([`Located::Unread`]).
    unread: bool,
    target: Judged<'u>,
}

/// What a ruled URL is judged by: its bytes, or the path its caller found
/// in them already (with its special bytes' flags), which then need not
/// be scanned for.
#[derive(Clone, Copy, Debug)]
enum Judged<'u> {
    Url(&'u [u8]),
    Path(UrlPath<'u>, u8),
}

impl<'u> Judged<'u> {
    /// The bytes a judgement reads first.
    fn bytes(&self) -> &'u [u8] {
        match *self {
            Judged::Url(url) => url,
            Judged::Path(path, _) => path.rest,
        }
    }
}

/// Where a URL of `cohort` comes in a batch's walk whose first URL is of
/// cohort `first`: cohorts count from the first URL's, in 32 bits (cohorts
/// 2^32 apart share a key: only the order of the walk depends on it).
fn walk_key(cohort: usize, first: usize) -> u32 {
    cohort.wrapping_sub(first) as u32
}

/// The cohort of a URL whose [`walk_key`] is `key` (its low 32 bits, which
/// are all of it for fewer fetches than that; only prefetches rely on it).
fn walk_cohort(key: u32, first: usize) -> usize {
    (first as u32).wrapping_add(key) as usize
}

/// Bits of a key sorted by each pass of [`sort_by_high_half`].
const RADIX_BITS: u32 = 11;

/// Sorts `keys` by their high 32 bits, keeping the order of keys that
/// share them, with `room` as room for a copy.
///
/// A batch's walk keys are a cohort above a place in its ruled URLs, the
/// places in order already, so a stable sort of the cohorts alone is a
/// full sort; a radix sort does it in a few passes over the keys, the
/// digits that every key shares skipped, where a comparison sort takes a
/// pass per doubling.
fn sort_by_high_half(keys: &mut Vec<u64>, room: &mut Vec<u64>) {
    const DIGITS: usize = 32usize.div_ceil(RADIX_BITS as usize);
    const BUCKETS: usize = 1 << RADIX_BITS;
    let digit = |key: u64, d: usize| {
        (key >> (32 + d as u32 * RADIX_BITS)) as usize & (BUCKETS - 1)
    };
    // A count of keys fits in 32 bits: batches are windows of fewer.
    debug_assert!(keys.len() <= u32::MAX as usize);
    // Every digit's counts in one pass over the keys.
    let mut counts = vec![[0u32; BUCKETS]; DIGITS];
    for &key in keys.iter() {
        for (d, count) in counts.iter_mut().enumerate() {
            count[digit(key, d)] += 1;
        }
    }
    room_for(room, keys.len());
    room.resize(keys.len(), 0);
    for (d, count) in counts.iter_mut().enumerate() {
        if count.contains(&(keys.len() as u32)) {
            continue;
        }
        // Each bucket's start, then each key placed at its bucket's next.
        let mut start = 0;
        for c in count.iter_mut() {
            (start, *c) = (start + *c, start);
        }
        for &key in keys.iter() {
            let at = &mut count[digit(key, d)];
            room[*at as usize] = key;
            *at += 1;
        }
        std::mem::swap(keys, room);
    }
}

/// A URL's authority as [`GroupedScratch::locate_all`] finds it ahead.
#[derive(Clone, Copy, Debug)]
enum Authority<'u> {
    /// The authority of the URL before it that has one.
    Same,
    /// Its raw authority, new, and that authority's hash in the
    /// remembered ones.
    Raw(&'u [u8], u64),
    /// None: not an `http(s)` URL, or no URL.
    Other,
}

impl<'u> Authority<'u> {
    /// The authority of `url`, given the raw authority of the URL before
    /// it (`last`, updated); a new one's place in `remembered` is asked
    /// for.
    fn find(
        url: Option<&'u [u8]>,
        last: &mut Option<&'u [u8]>,
        remembered: &Remembered,
    ) -> Authority<'u> {
        let Some(url) = url else { return Authority::Other };
        if last.is_some_and(|a| same_authority(url, a)) {
            return Authority::Same;
        }
        *last = raw_authority(url);
        match *last {
            Some(authority) => {
                let hash = remembered.hash(authority);
                remembered.prefetch(hash);
                Authority::Raw(authority, hash)
            }
            None => Authority::Other,
        }
    }
}

impl Ruled<'_> {
    fn located(&self) -> Located {
        match self.unread {
            true => Located::Unread { fetch: self.fetch },
            false => {
                Located::Rules { fetch: self.fetch, compiled: self.cohort }
            }
        }
    }
}

/// An empty vector with the allocation of `v`, for URLs of another
/// lifetime: collecting in place keeps the allocation where the two types
/// have one layout, as here.
fn reuse<'a>(mut v: Vec<Ruled<'_>>) -> Vec<Ruled<'a>> {
    v.clear();
    v.into_iter().map(|r| Ruled { target: Judged::Url(&[]), ..r }).collect()
}

impl GroupedScratch {
    /// Fresh state for judging with `judge`.
    pub fn new(judge: &CrawlJudge) -> GroupedScratch {
        GroupedScratch {
            scratch: judge.scratch(),
            key: vec![],
            remembered: Remembered::default(),
            ruled: vec![],
            order: vec![],
            sorting: vec![],
            one: vec![],
        }
    }

    /// Judges the URLs `url(0)` to `url(n - 1)` (`None`: no URL, skipped)
    /// and calls `each` once per URL with its index, its verdicts (one per
    /// agent) and the rule sets that gave verdicts from rules (for
    /// explanations), in an order of the judge's choosing: every URL is
    /// first located (its origin and fetch, compiling nothing), and those
    /// whose verdicts need no rules are given them; then the others are
    /// judged grouped by the matchers they need, unless they come in runs
    /// already, so that a batch of mixed hosts changes matchers once per
    /// origin rather than once per URL. More URLs than a `u32` counts are
    /// judged in several windows.
    pub fn judge<'u, U, F>(
        &mut self,
        judge: &CrawlJudge,
        n: usize,
        url: U,
        each: F,
    ) where
        U: Fn(usize) -> Option<&'u [u8]>,
        F: FnMut(usize, &[CrawlVerdict], Option<&[Arc<RuleSet>]>),
    {
        self.judge_found(judge, n, false, (url, |_| None), |_| {}, each);
    }

    /// [`GroupedScratch::judge`] of URLs whose paths (and their special
    /// bytes' flags) the caller found already: `path(i)` is `url(i)`'s,
    /// or `None` to have the URL scanned for it. `last`: no other URL of
    /// the input is judged after these or beside them, so that no origin
    /// built for them is needed again (see [`Run::passing`]). `soon(i)`
    /// says that `each` will be called for URL `i` a few calls later,
    /// where the calls come out of input order, so that the caller can
    /// ask for the memory it will write then.
    pub(crate) fn judge_found<'u, U, P, S, F>(
        &mut self,
        judge: &CrawlJudge,
        n: usize,
        last: bool,
        (url, path): (U, P),
        soon: S,
        mut each: F,
    ) where
        U: Fn(usize) -> Option<&'u [u8]>,
        P: Fn(usize) -> Option<(UrlPath<'u>, u8)>,
        S: Fn(usize),
        F: FnMut(usize, &[CrawlVerdict], Option<&[Arc<RuleSet>]>),
    {
        const WINDOW: usize = u32::MAX as usize;
        let mut ruled = reuse(std::mem::take(&mut self.ruled));
        for base in (0..n).step_by(WINDOW) {
            let url = |i: usize| url(base + i);
            let path = |i: usize| path(base + i);
            let soon = |i: usize| soon(base + i);
            let mut each =
                |i: usize,
                 one: &[CrawlVerdict],
                 sets: Option<&[Arc<RuleSet>]>| {
                    each(base + i, one, sets)
                };
            let len = (n - base).min(WINDOW);
            let last_window = last && base + len == n;
            // Room for every URL at once: grown by doubling, the vector's
            // pages would be touched twice.
            room_for(&mut ruled, len);
            let changes = self.locate_all(
                judge,
                len,
                (&url, &path),
                &mut ruled,
                &mut each,
            );
            // One integer per URL, its cohort above its place, sorts faster
            // than the URLs themselves. Cohorts count from the first URL's,
            // so that threads judging chunks of one log start their walks
            // at different origins rather than all meeting each new origin
            // at once and waiting for one of them to read it. (Cohorts a
            // multiple of 2^32 apart would share a place: only the order
            // of the walk, not a verdict, depends on it.)
            let first = ruled.first().map_or(0, |r| r.cohort);
            let order = &mut self.order;
            room_for(order, ruled.len());
            order.extend(ruled.iter().enumerate().map(|(k, r)| {
                (walk_key(r.cohort, first) as u64) << 32 | k as u64
            }));
            // Input order when the URLs that need one set of matchers come
            // in runs already: it changes matchers about as seldom as the
            // sort would, without the sort's cost.
            let sorted = changes * SORT_BELOW_RUN > ruled.len();
            if sorted {
                sort_by_high_half(order, &mut self.sorting);
            }
            let place = |k: usize| order.get(k).map(|&o| o as u32 as usize);
            let cohort = |k: usize| order[k] >> 32;
            // The index of the fetch whose matchers judge the URL at `k`.
            let fetch = |k: usize| walk_cohort(cohort(k) as u32, first);
            // Where the run of URLs that need the current rules ends.
            let mut run_end = 0;
            let mut passing = false;
            for k in 0..order.len() {
                // Sorted URLs are scattered over the batch: each is asked
                // for before it is judged, its place first, then its
                // bytes; and at the first URL of each cohort, the place
                // where its matchers are found, then the matchers. (In
                // input order, the CPU's own prefetchers see the URLs
                // coming, and a cohort's matchers serve a run of them.)
                if sorted {
                    let far = k + 2 * PREFETCH_AHEAD;
                    if let Some(at) = place(far) {
                        prefetch(std::slice::from_ref(&ruled[at]));
                        if cohort(far) != cohort(far - 1) {
                            judge.prefetch_place(fetch(far));
                        }
                    }
                    let near = k + PREFETCH_AHEAD;
                    if let Some(at) = place(near) {
                        prefetch(ruled[at].target.bytes());
                        soon(ruled[at].index);
                        if cohort(near) != cohort(near - 1) {
                            judge.prefetch_rules(fetch(near));
                        }
                    }
                }
                let r = &ruled[order[k] as u32 as usize];
                if k == run_end {
                    run_end = (k + 1..order.len())
                        .find(|&j| cohort(j) != cohort(k))
                        .unwrap_or(order.len());
                    // In input order, a run between others is likely its
                    // origin's last in a log grouped by host; the first
                    // and last runs may go on in the batches around this
                    // one. (Sorted, every origin of the batch makes one
                    // run, which says nothing of the log.) At the end of
                    // the input, every run is its origin's last.
                    passing = last_window
                        || !sorted && k > 0 && run_end < order.len();
                }
                let (url, found) = match r.target {
                    Judged::Url(url) => (url, None),
                    Judged::Path(path, flags) => {
                        (&[][..], Some((path, flags)))
                    }
                };
                let from_rules = judge.judge_located(
                    url,
                    found,
                    r.located(),
                    Run { following: run_end - k - 1, passing },
                    &mut self.scratch,
                    &mut self.one,
                );
                let sets = match from_rules {
                    true => self.scratch.current_rules(),
                    false => None,
                };
                each(r.index, &self.one, sets);
            }
        }
        self.ruled = reuse(ruled);
    }

    /// Locates every URL; a URL with the authority of the one before
    /// (inputs tend to keep a host's URLs together) is located alike.
    /// A URL whose verdict is the same for every agent (no rules needed)
    /// is given it here; the others are pushed onto `ruled` in input
    /// order. Returns how often those change rules from one to the next.
    fn locate_all<'u, U, P, F>(
        &mut self,
        judge: &CrawlJudge,
        n: usize,
        (url, path): (&U, &P),
        ruled: &mut Vec<Ruled<'u>>,
        each: &mut F,
    ) -> usize
    where
        U: Fn(usize) -> Option<&'u [u8]>,
        P: Fn(usize) -> Option<(UrlPath<'u>, u8)>,
        F: FnMut(usize, &[CrawlVerdict], Option<&[Arc<RuleSet>]>),
    {
        let (key, remembered) = (&mut self.key, &mut self.remembered);
        // Each URL's authority is found `LOCATE_AHEAD` URLs before it is
        // located, and a new one's place in the table asked for then.
        let mut ahead = [Authority::Other; LOCATE_AHEAD];
        let mut ahead_last = None;
        for (j, found) in ahead.iter_mut().enumerate().take(n) {
            *found = Authority::find(url(j), &mut ahead_last, remembered);
        }
        let mut last = None;
        let mut changes = 0;
        for i in 0..n {
            let here = ahead[i % LOCATE_AHEAD];
            let j = i + LOCATE_AHEAD;
            if j < n {
                ahead[j % LOCATE_AHEAD] =
                    Authority::find(url(j), &mut ahead_last, remembered);
            }
            let Some(line) = url(i) else { continue };
            let located = match (here, last) {
                (Authority::Same, Some(located)) => located,
                (Authority::Raw(authority, hash), _) => {
                    let located = match remembered.get(hash, authority) {
                        Some(located) => located,
                        None => {
                            let (located, _) = judge.locate(line, key);
                            remembered.insert(hash, authority, located);
                            located
                        }
                    };
                    last = Some(located);
                    located
                }
                _ => {
                    last = None;
                    judge.locate(line, key).0
                }
            };
            let (cohort, fetch, unread) = match located {
                Located::Same(v) => {
                    self.one.clear();
                    self.one.resize(judge.agents().len(), v);
                    each(i, &self.one, None);
                    continue;
                }
                Located::Rules { fetch, compiled } => (compiled, fetch, false),
                Located::Unread { fetch } => (fetch, fetch, true),
            };
            if ruled.last().is_none_or(|r| r.cohort != cohort) {
                changes += 1;
            }
            let target = match path(i) {
                Some((path, flags)) => Judged::Path(path, flags),
                None => Judged::Url(line),
            };
            ruled.push(Ruled { index: i, cohort, fetch, unread, target });
        }
        changes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crawl::remembered::AuthorityKey;
    use crate::crawl::Fetch;
    use crate::testing::{judge_of, served};

    /// The first agent's verdict for each of `urls`, judged in one batch.
    fn allowed<U: AsRef<str>>(
        grouped: &mut GroupedScratch,
        judge: &CrawlJudge,
        urls: &[U],
    ) -> Vec<Option<bool>> {
        let mut got = vec![None; urls.len()];
        grouped.judge(
            judge,
            urls.len(),
            |i| Some(urls[i].as_ref().as_bytes()),
            |i, one, _| got[i] = one[0].allowed(),
        );
        got
    }

    /// A cohort comes back from its place in the walk, before or after
    /// the first URL's cohort; and the walk starts at the first URL's.
    #[test]
    fn a_cohort_comes_back_from_its_walk_key() {
        let first = 1_000;
        for cohort in [0, 1, 999, 1_000, 1_001, 5_000_000, u32::MAX as usize] {
            assert_eq!(walk_cohort(walk_key(cohort, first), first), cohort);
        }
        assert_eq!(walk_key(first, first), 0);
        assert!(walk_key(first + 1, first) < walk_key(first - 1, first));
    }

    /// A batch walked out of input order says, a few URLs ahead, which
    /// URL's verdicts come next: every URL but the walk's first few, each
    /// before its verdicts; a batch walked in input order says nothing.
    #[test]
    fn a_sorted_walk_says_which_verdicts_come_soon() {
        let hosts: Vec<String> =
            (0..20).map(|h| format!("h{h}.com")).collect();
        let body = |h: usize| format!("User-agent: *\nDisallow: /{h}/\n");
        let judge = judge_of(
            served(
                hosts
                    .iter()
                    .enumerate()
                    .map(|(h, host)| (host.clone(), body(h).into_bytes())),
            ),
            &["bot"],
        );
        // Each host's URLs one after another, then round the hosts.
        let grouped: Vec<String> = (0..200)
            .map(|i| format!("https://{}/{}/x", hosts[i / 10], i / 10))
            .collect();
        let shuffled: Vec<String> = (0..200)
            .map(|i| format!("https://{}/{}/x", hosts[i % 20], i % 20))
            .collect();
        for (urls, walked_sorted) in [(&grouped, false), (&shuffled, true)] {
            let mut scratch = GroupedScratch::new(&judge);
            let calls = std::cell::RefCell::new(vec![]);
            scratch.judge_found(
                &judge,
                urls.len(),
                true,
                (|i| Some(urls[i].as_bytes()), |_| None),
                |i| calls.borrow_mut().push((i, true)),
                |i, one, _| {
                    assert_eq!(one[0].allowed(), Some(false), "{}", urls[i]);
                    calls.borrow_mut().push((i, false));
                },
            );
            let calls = calls.into_inner();
            let soon: Vec<usize> =
                calls.iter().filter(|c| c.1).map(|c| c.0).collect();
            let given: Vec<usize> =
                calls.iter().filter(|c| !c.1).map(|c| c.0).collect();
            assert_eq!(given.len(), urls.len());
            if !walked_sorted {
                assert!(soon.is_empty(), "{soon:?}");
                continue;
            }
            assert_ne!(given, (0..urls.len()).collect::<Vec<_>>());
            assert_eq!(soon, given[PREFETCH_AHEAD..]);
            for i in soon {
                let said = calls.iter().position(|&c| c == (i, true));
                let judged = calls.iter().position(|&c| c == (i, false));
                assert!(said < judged, "URL {i}");
            }
        }
    }

    /// The radix sort of walk keys is the comparison sort's order, for
    /// cohorts that share every digit, a few, or none, and that wrap
    /// below the first (as [`walk_key`] makes them).
    #[test]
    fn walk_keys_sort_as_a_comparison_sort_does() {
        let mut rng = crate::testing::xorshift(0x2545_F491_4F6C_DD1D);
        let mut room = vec![];
        for (cohorts, first, n) in [
            (1, 0, 100),
            (5, 3, 1_000),
            (3_000, 1_234, 10_000),
            (200_000, 150_000, 20_000),
            (1 << 40, 7, 5_000),
            (10, 0, 0),
        ] {
            let mut keys: Vec<u64> = (0..n)
                .map(|k| {
                    let cohort = (rng() % cohorts) as usize;
                    (walk_key(cohort, first) as u64) << 32 | k
                })
                .collect();
            let mut want = keys.clone();
            want.sort_unstable();
            sort_by_high_half(&mut keys, &mut room);
            assert_eq!(keys, want, "{cohorts} cohorts from {first}");
        }
    }

    /// The kept allocation of the batch's ruled URLs survives the change
    /// of lifetime, as `reuse` says.
    #[test]
    fn reuse_keeps_the_allocation() {
        let urls = [b"https://a.com/".to_vec()];
        let mut ruled = Vec::with_capacity(100);
        ruled.push(Ruled {
            index: 0,
            cohort: 0,
            fetch: 0,
            unread: false,
            target: Judged::Url(&urls[0]),
        });
        let at = ruled.as_ptr() as usize;
        let kept: Vec<Ruled<'static>> = reuse(ruled);
        assert_eq!((kept.len(), kept.capacity()), (0, 100));
        assert_eq!(kept.as_ptr() as usize, at);
    }

    /// An origin with more than `FEW_URLS` URLs in the batch has its
    /// matchers built at its first; one with that many or fewer is judged
    /// by its rules alone, and gets matchers when it comes back and has
    /// more.
    #[test]
    fn matchers_are_built_when_an_origins_urls_follow() {
        // Unequal bodies, so that the hosts share no matchers.
        let set = served(["a.com", "b.com"].map(|host| {
            let body = b"User-agent: *\nDisallow: /a\nAllow: /a/b\n";
            (host, [&body[..], host.as_bytes()].concat())
        }));
        let judge = judge_of(set, &["x"]);
        let built = |host: &str| {
            let url = format!("https://{host}/");
            let Located::Rules { compiled, .. } =
                judge.locate(url.as_bytes(), &mut vec![]).0
            else {
                panic!("{host} has rules");
            };
            judge.matchers(compiled).map(|m| m[0].strategy())
        };
        // Four URLs of a.com, three of b.com, mixed: the batch is judged
        // sorted by origin.
        let urls = [
            "https://a.com/a",
            "https://b.com/a/b",
            "https://a.com/a/b",
            "https://b.com/c",
            "https://a.com/c",
            "https://b.com/a/x",
            "https://a.com/a/x",
        ];
        let mut grouped = GroupedScratch::new(&judge);
        let got = allowed(&mut grouped, &judge, &urls);
        let (f, t) = (Some(false), Some(true));
        assert_eq!(got, [f, t, t, t, t, f, f]);
        assert_eq!((built("a.com"), built("b.com")), (Some("scan"), None));
        let urls = ["https://b.com/a"];
        grouped.judge(
            &judge,
            urls.len(),
            |i| Some(urls[i].as_bytes()),
            |_, one, _| assert_eq!(one[0].allowed(), f),
        );
        assert_eq!(built("b.com"), Some("scan"));
    }

    /// In a batch judged in input order, the rules of an origin whose run
    /// lies between others are let go after it, and those of the first
    /// and last runs kept (they may go on in the batches around); rules
    /// let go and met again are built again and kept. A batch sorted by
    /// origin lets nothing go, unless it ends the input.
    #[test]
    fn runs_between_others_are_let_go() {
        let hosts = ["a.com", "b.com", "c.com", "d.com"];
        let bodies = hosts.map(|host| {
            (host, format!("User-agent: *\nDisallow: /{host}\n").into_bytes())
        });
        let judge = judge_of(served(bodies.clone()), &["x"]);
        let mut grouped = GroupedScratch::new(&judge);
        // Five URLs of each host, host after host; each run's first URL is
        // disallowed.
        let urls: Vec<String> = hosts
            .iter()
            .flat_map(|h| {
                let first = format!("https://{h}/{h}");
                let rest = (1..5).map(move |i| format!("https://{h}/{i}"));
                std::iter::once(first).chain(rest)
            })
            .collect();
        let want: Vec<Option<bool>> =
            (0..urls.len()).map(|i| Some(i % 5 != 0)).collect();
        assert_eq!(allowed(&mut grouped, &judge, &urls), want);
        assert_eq!(judge.let_go(), (2, 0), "b.com's and c.com's let go");
        // Again: a.com's and d.com's rules come from the cache, b.com's
        // and c.com's are built again, and kept from now on.
        assert_eq!(allowed(&mut grouped, &judge, &urls), want);
        assert_eq!(judge.let_go(), (2, 2));
        assert_eq!(allowed(&mut grouped, &judge, &urls), want);
        assert_eq!(judge.let_go(), (2, 2));

        // The same URLs, mixed: judged sorted by origin.
        let judge = judge_of(served(bodies.clone()), &["x"]);
        let mut grouped = GroupedScratch::new(&judge);
        let mixed: Vec<&String> =
            (0..urls.len()).map(|i| &urls[i % 4 * 5 + i / 4]).collect();
        let got = allowed(&mut grouped, &judge, &mixed);
        let want: Vec<Option<bool>> =
            (0..urls.len()).map(|i| Some(i >= 4)).collect();
        assert_eq!(got, want);
        assert_eq!(judge.let_go(), (0, 0));

        // Mixed again, as the input's last batch: every origin is let go.
        let judge = judge_of(served(bodies), &["x"]);
        let mut grouped = GroupedScratch::new(&judge);
        let mut got = vec![None; mixed.len()];
        grouped.judge_found(
            &judge,
            mixed.len(),
            true,
            (|i| Some(mixed[i].as_bytes()), |_| None),
            |_| {},
            |i, one, _| got[i] = one[0].allowed(),
        );
        assert_eq!(got, want);
        assert_eq!(judge.let_go(), (4, 0));
    }

    /// A batch of mixed origins is judged origin by origin, starting
    /// with its first URL's, so that threads judging parts of one log
    /// begin at different origins.
    #[test]
    fn a_mixed_batch_starts_with_its_first_urls_origin() {
        let set = served(["a.com", "b.com", "c.com"].map(|host| {
            (host, format!("User-agent: *\nDisallow: /{host}\n").into_bytes())
        }));
        let judge = judge_of(set, &["x"]);
        for first in ["a.com", "b.com", "c.com"] {
            let mut urls = vec![format!("https://{first}/")];
            for i in 0..8 {
                let host = ["c.com", "b.com", "a.com"][i % 3];
                urls.push(format!("https://{host}/{i}"));
            }
            let mut hosts: Vec<&str> = vec![];
            GroupedScratch::new(&judge).judge(
                &judge,
                urls.len(),
                |i| Some(urls[i].as_bytes()),
                |i, _, _| hosts.push(&urls[i][8..13]),
            );
            let mut runs = hosts.clone();
            runs.dedup();
            assert_eq!((runs.len(), runs[0]), (3, first), "{hosts:?}");
        }
    }

    /// Authorities longer than a key holds in place are remembered whole:
    /// two hosts that differ only past that length keep their own rules,
    /// in a batch and in the next one.
    #[test]
    fn long_authorities_are_remembered_whole() {
        let inline = AuthorityKey::new().inline_size();
        let long = "a".repeat(inline + 8);
        let hosts = [format!("{long}.one.com"), format!("{long}.two.com")];
        let set = served(hosts.iter().zip(["Disallow: /", "Allow: /"]).map(
            |(host, body)| (host, format!("User-agent: *\n{body}\n").into()),
        ));
        let judge = judge_of(set, &["x"]);
        // More URLs than are located ahead.
        let n = 3 * LOCATE_AHEAD;
        let urls: Vec<String> =
            (0..n).map(|i| format!("https://{}/p", hosts[i % 2])).collect();
        let mut grouped = GroupedScratch::new(&judge);
        for _ in 0..2 {
            let want: Vec<_> = (0..n).map(|i| Some(i % 2 == 1)).collect();
            assert_eq!(allowed(&mut grouped, &judge, &urls), want);
        }
        assert_eq!(grouped.remembered.len(), 2);
    }

    /// Grouped judging gives every URL the verdicts that judging it alone
    /// gives, once each, whatever the order of hosts; absent URLs are
    /// skipped.
    #[test]
    fn grouped_verdicts_equal_one_by_one() {
        let mut set = served(
            [
                ("a.com", "User-agent: *\nDisallow: /a\n"),
                ("b.com", "User-agent: *\nAllow: /a\nDisallow: /\n"),
                ("c.com", "User-agent: x\nDisallow: /\n"),
            ]
            .map(|(host, body)| (host, body.as_bytes().to_vec())),
        );
        set.insert_host("d.com", Fetch { status: 503, ..Fetch::default() });
        let judge = judge_of(set, &["x", "y"]);
        let mut urls: Vec<Option<String>> = vec![];
        for i in 0..60 {
            let host = ["a.com", "b.com", "c.com", "d.com", "e.com"][i % 5];
            let path = ["/a", "/b", "/", "/a/b"][i % 4];
            urls.push(Some(format!("https://{host}{path}")));
            if i % 7 == 0 {
                urls.push(None);
                urls.push(Some("not a url".to_string()));
            }
            // Runs of one authority, across an absent URL, and another
            // spelling of it.
            if i % 3 == 0 {
                urls.push(Some(format!("https://{host}/a/x")));
            }
            if i % 11 == 0 {
                urls.push(None);
                urls.push(Some(format!("https://{host}/b")));
                let upper = host.to_uppercase();
                urls.push(Some(format!("HTTPS://{upper}:443/a")));
            }
        }
        let mut alone = judge.scratch();
        let mut want = vec![];
        for url in &urls {
            want.push(url.as_ref().map(|u| {
                let mut out = vec![];
                judge.verdicts(u.as_bytes(), &mut alone, &mut out);
                out
            }));
        }
        let mut grouped = GroupedScratch::new(&judge);
        // Twice, so that remembered authorities serve the second batch.
        for _ in 0..2 {
            let mut got = vec![None; urls.len()];
            let url = |i: usize| urls[i].as_deref().map(str::as_bytes);
            grouped.judge(&judge, urls.len(), url, |i, one, _| {
                assert!(got[i].is_none(), "URL {i} judged twice");
                got[i] = Some(one.to_vec());
            });
            assert_eq!(got, want);
        }
    }
}

//! History surveys: how the sites' robots.txt blocked each agent, period by
//! period, from dated captures of them (several crawls, dated directories,
//! an index with dates), and which sites changed.
//!
//! # Which capture stands for a site in a period
//!
//! The periods run from the one holding the earliest dated capture to the
//! one holding the latest: every calendar month ([`Period::Month`]) or year
//! ([`Period::Year`]) between them, or every day on which a capture was
//! made ([`Period::Crawl`]). In each, a site is represented by the newest
//! of its captures made before the period's end, provided it is at most
//! `carry_forward` calendar months old when the period begins: made at a
//! time `t` with `t + carry_forward months >= the period's start`. A
//! capture is thus carried forward until the next one, for at most
//! `carry_forward` months; past that, the site has no capture in effect
//! and is not counted at all (neither in `sites` nor in any scope). With a
//! carry-forward of 0 a site counts only in the periods in which it was
//! captured. A site captured in January 2024 and never again counts, with
//! the default 12, from January 2024 to January 2025.
//!
//! Of several captures of a site within one period, the newest stands for
//! it: a change that was undone before the period ended shows in no
//! period. Undated captures (an undated directory, index lines without a
//! date) are left out and counted ([`History::undated`]).
//!
//! A capture's scope for an agent is a survey's ([`survey`]): `full`,
//! `partial`, `none` or `unknown`, from its robots.txt after redirects
//! (followed to the target's capture nearest in time), or from its fetch's
//! status as the judge's policy says (a 5xx blocks fully by default).
//!
//! # Transitions
//!
//! A transition is a site whose scope for an agent differs between two
//! consecutive periods in both of which it has a capture in effect: it is
//! listed in the later period with the scope before and after. A site that
//! drops out (no capture in effect) and comes back makes no transition.
//!
//! # Work
//!
//! Each distinct robots.txt body is parsed and classified once for all the
//! agents: a capture whose body is the same as its site's previous capture
//! takes that capture's scopes without a look at anything else, and other
//! bodies are found by their hash (then compared byte for byte) among
//! those classified already, whatever site they came from.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use rayon::prelude::*;

use super::period::{add_months, Periods};
pub use super::period::{Period, MAX_PERIODS};
use super::{survey, Scope};
use crate::crawl::{Capture, CrawlJudge};
use crate::robots::Robots;
use crate::time::Timestamp;

/// What a history survey looks at besides its captures.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct HistoryOptions {
    /// How time is cut into periods.
    pub period: Period,
    /// For how many calendar months a capture stays in effect when no
    /// later one replaces it (0: only in the period it was made in).
    pub carry_forward: u32,
}

impl Default for HistoryOptions {
    /// Months, each capture carried forward for 12 of them.
    fn default() -> HistoryOptions {
        HistoryOptions { period: Period::Month, carry_forward: 12 }
    }
}

/// How many sites of one period have each scope for one agent.
#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub struct ScopeCounts {
    /// Sites that block the agent fully.
    pub full: u64,
    /// Sites that block it partly.
    pub partial: u64,
    /// Sites that block it not at all.
    pub none: u64,
    /// Sites whose scope is unknown.
    pub unknown: u64,
}

impl ScopeCounts {
    /// The sites counted: those with a capture in effect.
    pub fn sites(&self) -> u64 {
        self.full + self.partial + self.none + self.unknown
    }

    /// The sites with `scope`.
    pub fn get(&self, scope: Scope) -> u64 {
        match scope {
            Scope::Full => self.full,
            Scope::Partial => self.partial,
            Scope::None => self.none,
            Scope::Unknown => self.unknown,
        }
    }

    fn add(&mut self, scope: Scope, n: u64) {
        match scope {
            Scope::Full => self.full += n,
            Scope::Partial => self.partial += n,
            Scope::None => self.none += n,
            Scope::Unknown => self.unknown += n,
        }
    }
}

/// One site whose scope for one agent changed from one period to the
/// next.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct Transition {
    /// The later of the two periods, an index of [`History::labels`].
    pub period: usize,
    /// The agent, an index of [`History::agents`].
    pub agent: usize,
    /// The site: the index of its newest capture in the judge's
    /// [`FetchSet`](crate::crawl::FetchSet), whose
    /// [`get`](crate::crawl::FetchSet::get) gives its name.
    pub site: usize,
    /// The scope in the period before.
    pub from: Scope,
    /// The scope in this period.
    pub to: Scope,
}

/// A history survey: per period and agent, how many sites had a capture in
/// effect and how they blocked the agent; and the sites that changed.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct History {
    /// How time was cut.
    pub period: Period,
    /// The carry-forward, in months.
    pub carry_forward: u32,
    /// The periods' labels, in order (`2024-06`, `2024`, `2024-06-01`).
    pub labels: Vec<String>,
    /// Each period's first second.
    pub starts: Vec<Timestamp>,
    /// The agents, in the judge's order.
    pub agents: Vec<String>,
    /// Per period then per agent (`period * agents.len() + agent`), the
    /// sites per scope.
    pub counts: Vec<ScopeCounts>,
    /// The transitions, by period, then agent, then site name.
    pub transitions: Vec<Transition>,
    /// Dated captures of robots.txt read (after redirects, one per capture
    /// of a site).
    pub captures: usize,
    /// Undated captures, left out.
    pub undated: usize,
    /// Distinct bodies parsed and classified.
    pub classified: usize,
    /// Of those, the ones where the proof of some agent's scope stopped at
    /// its bound ([`scope_work`](super::scope_work)): that scope is
    /// unknown.
    pub proof_bound: usize,
}

impl History {
    /// The sites per scope for `agent` in `period` (indexes of
    /// [`History::agents`] and [`History::labels`]).
    pub fn counts(&self, period: usize, agent: usize) -> ScopeCounts {
        self.counts
            .get(period * self.agents.len() + agent)
            .copied()
            .unwrap_or_default()
    }
}

/// Why a history could not be made.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum HistoryError {
    /// The captures span more than [`MAX_PERIODS`] periods (this many).
    TooManyPeriods(usize),
    /// The judge keeps only each site's newest capture
    /// ([`Capture::Newest`]), and some site has several: give it another
    /// [`Capture`] (any other keeps them all).
    NewestOnly,
}

impl fmt::Display for HistoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HistoryError::TooManyPeriods(n) => write!(
                f,
                "the captures' dates span {n} periods, more than the \
                 {MAX_PERIODS} a history holds"
            ),
            HistoryError::NewestOnly => write!(
                f,
                "the judge dropped every capture but the newest of each site"
            ),
        }
    }
}

impl std::error::Error for HistoryError {}

/// The history of the sites of `judge` (its [`sites`](CrawlJudge::sites),
/// with all their captures) for its agents, in its dialect and under its
/// fetch policy, cut as `options` say (see the module's documentation for
/// which capture stands for a site in a period). Sites are classified in
/// parallel, on the current rayon pool.
pub fn history(
    judge: &CrawlJudge,
    options: HistoryOptions,
) -> Result<History, HistoryError> {
    let fetches = judge.fetches();
    let sites: Vec<usize> = judge.sites().collect();
    if judge.policy().capture == Capture::Newest
        && sites.iter().any(|&s| fetches.captures_of(s).nth(1).is_some())
    {
        return Err(HistoryError::NewestOnly);
    }
    let classes = Classes::new(judge);
    let undated = AtomicUsize::new(0);
    // Each site's dated captures, oldest first, with their scopes' ids.
    let timelines: Vec<Vec<(Timestamp, u32)>> = sites
        .par_iter()
        .map(|&site| classes.timeline(site, &undated))
        .collect();
    let times = timelines.iter().flatten().map(|&(t, _)| t);
    let periods = Periods::spanning(options.period, times)
        .map_err(HistoryError::TooManyPeriods)?;
    let agents = judge.agents().to_vec();
    let vectors =
        classes.vectors.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut per_vector: HashMap<(u32, u32), u64> = HashMap::new();
    let mut transitions = vec![];
    for (&site, timeline) in sites.iter().zip(&timelines) {
        let mut last: Option<(usize, u32)> = None;
        for (a, b, id) in spans(&periods, timeline, options.carry_forward) {
            for k in a..=b {
                *per_vector.entry((k as u32, id)).or_default() += 1;
            }
            if let Some((before, was)) = last {
                if before + 1 == a && was != id {
                    let (from, to) = (
                        &vectors.list[was as usize],
                        &vectors.list[id as usize],
                    );
                    for (agent, (&f, &t)) in
                        from.iter().zip(to.iter()).enumerate()
                    {
                        if f != t {
                            transitions.push(Transition {
                                period: a,
                                agent,
                                site,
                                from: f,
                                to: t,
                            });
                        }
                    }
                }
            }
            last = Some((b, id));
        }
    }
    let mut counts =
        vec![ScopeCounts::default(); periods.len() * agents.len()];
    for (&(k, id), &n) in &per_vector {
        let row = k as usize * agents.len();
        for (agent, &scope) in vectors.list[id as usize].iter().enumerate() {
            counts[row + agent].add(scope, n);
        }
    }
    let name = |i: usize| fetches.get(i).map_or("", |(n, _)| n);
    transitions.sort_by(|x, y| {
        (x.period, x.agent, name(x.site)).cmp(&(
            y.period,
            y.agent,
            name(y.site),
        ))
    });
    Ok(History {
        period: options.period,
        carry_forward: options.carry_forward,
        labels: periods.labels,
        starts: periods.starts,
        agents,
        counts,
        transitions,
        captures: timelines.iter().map(Vec::len).sum(),
        undated: undated.into_inner(),
        classified: classes.classified.into_inner(),
        proof_bound: classes.proof_bound.into_inner(),
    })
}

/// The periods each capture of a site's `timeline` stands for the site
/// in, as `(first, last, scopes' id)`, in order: from the period it was
/// made in, until the period before the next capture's, or until the last
/// period that begins at most `carry_forward` months after it was made. A
/// capture followed by another in its own period stands for none.
fn spans<'a>(
    periods: &'a Periods,
    timeline: &'a [(Timestamp, u32)],
    carry_forward: u32,
) -> impl Iterator<Item = (usize, usize, u32)> + 'a {
    let last = periods.len().saturating_sub(1);
    timeline.iter().enumerate().filter_map(move |(j, &(t, id))| {
        let first = periods.index_of(t)?;
        let until_next = match timeline.get(j + 1) {
            Some(&(next, _)) => periods.index_of(next)?.checked_sub(1)?,
            None => last,
        };
        let until_expiry = periods.index_of(add_months(t, carry_forward))?;
        let end = until_next.min(until_expiry).min(last);
        (end >= first).then_some((first, end, id))
    })
}

/// The scopes of each agent for each distinct body, and each distinct
/// list of scopes by id, shared by the threads.
struct Classes<'a> {
    judge: &'a CrawlJudge,
    /// The bodies classified so far by hash (in shards, so that threads
    /// seldom wait for each other), each with its scopes' id once known.
    by_hash: Vec<Mutex<Bodies<'a>>>,
    hasher: ahash::RandomState,
    vectors: Mutex<Vectors>,
    /// The ids of full, none and unknown for every agent: the scopes of a
    /// fetch that gave no robots.txt.
    statuses: [u32; 3],
    classified: AtomicUsize,
    proof_bound: AtomicUsize,
}

/// Bodies by hash, each with its scopes' id once known.
type Bodies<'a> = HashMap<u64, Vec<(Cow<'a, [u8]>, Arc<OnceLock<u32>>)>>;

/// Each distinct list of scopes, one per agent, and its id: its index.
#[derive(Default)]
struct Vectors {
    list: Vec<Box<[Scope]>>,
    ids: HashMap<Box<[Scope]>, u32>,
}

/// Shards of [`Classes::by_hash`]: a power of two, many more than threads.
const SHARDS: usize = 64;

impl<'a> Classes<'a> {
    fn new(judge: &'a CrawlJudge) -> Classes<'a> {
        let mut classes = Classes {
            judge,
            by_hash: (0..SHARDS).map(|_| Mutex::default()).collect(),
            hasher: ahash::RandomState::new(),
            vectors: Mutex::default(),
            statuses: [0; 3],
            classified: AtomicUsize::new(0),
            proof_bound: AtomicUsize::new(0),
        };
        let n = judge.agents().len();
        let scopes = [Scope::Full, Scope::None, Scope::Unknown];
        classes.statuses = scopes.map(|s| classes.intern(vec![s; n].into()));
        classes
    }

    /// The dated captures of `site`, oldest first, each with its scopes'
    /// id; undated ones are counted into `undated`.
    fn timeline(
        &self,
        site: usize,
        undated: &AtomicUsize,
    ) -> Vec<(Timestamp, u32)> {
        let fetches = self.judge.fetches();
        let mut out = vec![];
        let mut previous: Option<(Cow<'a, [u8]>, u32)> = None;
        for capture in fetches.captures_of(site) {
            let Some(time) = fetches.time(capture) else {
                undated.fetch_add(1, Ordering::Relaxed);
                continue;
            };
            let id = match self.judge.resolution(capture) {
                Err(verdict) => self.same_for_all(match verdict.allowed() {
                    Some(true) => Scope::None,
                    Some(false) => Scope::Full,
                    None => Scope::Unknown,
                }),
                Ok(fetch) => match fetches.body(fetch) {
                    // A directory's file that cannot be read.
                    None => self.same_for_all(Scope::Unknown),
                    Some(body) => match previous {
                        Some((ref last, id)) if same_bytes(last, &body) => id,
                        _ => {
                            let (id, body) = self.classify(body);
                            previous = Some((body, id));
                            id
                        }
                    },
                },
            };
            out.push((time, id));
        }
        out
    }

    /// The id of the scopes of `body`, classified now if no thread did
    /// before; and `body`, given back.
    fn classify(&self, body: Cow<'a, [u8]>) -> (u32, Cow<'a, [u8]>) {
        let hash = self.hasher.hash_one(&body[..]);
        let shard = &self.by_hash[(hash >> 58) as usize % SHARDS];
        let cell = {
            let mut map = shard.lock().unwrap_or_else(|e| e.into_inner());
            let same = map.entry(hash).or_default();
            match same.iter().find(|(b, _)| same_bytes(b, &body)) {
                Some((_, cell)) => Arc::clone(cell),
                None => {
                    let cell = Arc::new(OnceLock::new());
                    same.push((body.clone(), Arc::clone(&cell)));
                    cell
                }
            }
        };
        // Outside the lock: a thread that meets the same body meanwhile
        // waits for this one, others go on.
        let id = *cell.get_or_init(|| {
            let judge = self.judge;
            let limit = judge.policy().max_robots_bytes;
            let robots = Robots::parse_with_limit(&body, limit);
            let scopes = survey(&robots, judge.agents(), judge.dialect());
            self.classified.fetch_add(1, Ordering::Relaxed);
            if scopes.iter().any(|s| s.bound_hit) {
                self.proof_bound.fetch_add(1, Ordering::Relaxed);
            }
            self.intern(scopes.iter().map(|s| s.scope).collect())
        });
        (id, body)
    }

    /// The id of `scope` (full, none or unknown) for every agent.
    fn same_for_all(&self, scope: Scope) -> u32 {
        match scope {
            Scope::Full => self.statuses[0],
            Scope::None => self.statuses[1],
            _ => self.statuses[2],
        }
    }

    fn intern(&self, scopes: Box<[Scope]>) -> u32 {
        let mut v = self.vectors.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&id) = v.ids.get(&scopes) {
            return id;
        }
        let id = v.list.len() as u32;
        v.list.push(scopes.clone());
        v.ids.insert(scopes, id);
        id
    }
}

/// Whether two bodies are the same bytes: at once when they are one
/// buffer (successive captures of a site that share their body).
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    (a.as_ptr() == b.as_ptr() && a.len() == b.len()) || a == b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crawl::{Fetch, FetchPolicy, FetchSet};
    use crate::dialect::Dialect;
    use crate::matcher::MatcherBuilder;

    const ALLOW: &str = "User-agent: *\nAllow: /\n";
    const BLOCK_GPT: &str = "User-agent: GPTBot\nDisallow: /\n";
    const PRIVATE: &str = "User-agent: *\nDisallow: /private\n";

    /// A judge of `captures`, `(host, date, status, body)`, for GPTBot
    /// and CCBot.
    fn judge(
        captures: &[(&str, &str, u16, &str)],
        capture: Capture,
    ) -> CrawlJudge {
        let mut set = FetchSet::new();
        for &(host, date, status, body) in captures {
            let date = (!date.is_empty()).then(|| date.to_string());
            let body = body.as_bytes().to_vec();
            set.insert_host(
                host,
                Fetch { status, body, location: None, date },
            );
        }
        let policy = FetchPolicy { capture, ..FetchPolicy::default() };
        let agents = ["GPTBot".to_string(), "CCBot".to_string()];
        CrawlJudge::new(
            set,
            policy,
            MatcherBuilder::new(),
            &agents,
            Dialect::Rfc9309,
        )
    }

    fn of(
        captures: &[(&str, &str, u16, &str)],
        options: HistoryOptions,
    ) -> History {
        history(&judge(captures, Capture::AtFetchTime), options).unwrap()
    }

    /// GPTBot's `(sites, full)` per period.
    fn gpt(h: &History) -> Vec<(u64, u64)> {
        (0..h.labels.len())
            .map(|k| (h.counts(k, 0).sites(), h.counts(k, 0).full))
            .collect()
    }

    #[test]
    fn carried_forward_for_at_most_n_months() {
        let captures = [
            ("a.com", "2024-01-10", 200, BLOCK_GPT),
            ("b.com", "2024-06-01", 200, ALLOW),
        ];
        let h = of(
            &captures,
            HistoryOptions { period: Period::Month, carry_forward: 2 },
        );
        assert_eq!(
            h.labels,
            ["2024-01", "2024-02", "2024-03", "2024-04", "2024-05", "2024-06"]
        );
        assert_eq!(gpt(&h), [(1, 1), (1, 1), (1, 1), (0, 0), (0, 0), (1, 0)]);
        let h = of(
            &captures,
            HistoryOptions { period: Period::Month, carry_forward: 0 },
        );
        assert_eq!(gpt(&h), [(1, 1), (0, 0), (0, 0), (0, 0), (0, 0), (1, 0)]);
        // Each agent's row counts the same sites.
        assert_eq!(
            h.counts(0, 1),
            ScopeCounts { none: 1, ..ScopeCounts::default() }
        );
    }

    #[test]
    fn the_newest_capture_of_a_period_stands_for_it() {
        // a.com blocked GPTBot for a week in March: no period shows it.
        let captures = [
            ("a.com", "2024-02-01", 200, ALLOW),
            ("a.com", "2024-03-01", 200, BLOCK_GPT),
            ("a.com", "2024-03-08", 200, ALLOW),
            ("a.com", "2024-04-01", 200, ALLOW),
        ];
        let h = of(&captures, HistoryOptions::default());
        assert_eq!(gpt(&h), [(1, 0), (1, 0), (1, 0)]);
        assert!(h.transitions.is_empty());
        assert_eq!(h.captures, 4);
    }

    #[test]
    fn transitions_between_periods() {
        let captures = [
            ("a.com", "2024-01-01", 200, ALLOW),
            ("a.com", "2024-03-01", 200, BLOCK_GPT),
            ("b.com", "2024-01-01", 200, PRIVATE),
            ("b.com", "2024-02-01", 503, ""),
        ];
        let h = of(&captures, HistoryOptions::default());
        let got: Vec<_> = h
            .transitions
            .iter()
            .map(|t| {
                (h.labels[t.period].as_str(), t.agent, t.site, t.from, t.to)
            })
            .collect();
        let (a, b) = (1, 3);
        assert_eq!(
            got,
            [
                ("2024-02", 0, b, Scope::Partial, Scope::Full),
                ("2024-02", 1, b, Scope::Partial, Scope::Full),
                ("2024-03", 0, a, Scope::None, Scope::Full),
            ]
        );
    }

    #[test]
    fn same_bodies_are_classified_once() {
        let mut captures = vec![];
        let months = ["2024-01-01", "2024-02-01", "2024-03-01", "2024-04-01"];
        for host in ["a.com", "b.com", "c.com"] {
            for (i, month) in months.iter().enumerate() {
                let body = if i < 2 { ALLOW } else { BLOCK_GPT };
                captures.push((host, *month, 200, body));
            }
        }
        captures.push(("d.com", "2024-04-01", 404, ""));
        captures.push(("d.com", "", 200, PRIVATE));
        let h = of(&captures, HistoryOptions::default());
        assert_eq!(h.classified, 2);
        assert_eq!(h.captures, 13);
        assert_eq!(h.undated, 1);
        assert_eq!(gpt(&h), [(3, 0), (3, 0), (3, 3), (4, 3)]);
        assert_eq!(
            h.counts(3, 1),
            ScopeCounts { none: 4, ..ScopeCounts::default() }
        );
    }

    #[test]
    fn years_and_crawls() {
        let captures = [
            ("a.com", "2022-05-01", 200, ALLOW),
            ("a.com", "2024-05-01", 200, BLOCK_GPT),
        ];
        let year = HistoryOptions { period: Period::Year, carry_forward: 12 };
        let h = of(&captures, year);
        assert_eq!(h.labels, ["2022", "2023", "2024"]);
        assert_eq!(gpt(&h), [(1, 0), (1, 0), (1, 1)]);
        let crawl =
            HistoryOptions { period: Period::Crawl, carry_forward: 12 };
        let h = of(&captures, crawl);
        assert_eq!(h.labels, ["2022-05-01", "2024-05-01"]);
        assert_eq!(gpt(&h), [(1, 0), (1, 1)]);
        // Two crawls two years apart are consecutive periods: the site
        // was in both, and changed.
        let t = h.transitions.as_slice();
        assert_eq!(t.len(), 1);
        assert_eq!(
            (t[0].period, t[0].from, t[0].to),
            (1, Scope::None, Scope::Full)
        );
    }

    #[test]
    fn bad_histories() {
        let captures = [
            ("a.com", "2024-01-01", 200, ALLOW),
            ("a.com", "2024-02-01", 200, BLOCK_GPT),
        ];
        let newest = judge(&captures, Capture::Newest);
        assert_eq!(
            history(&newest, HistoryOptions::default()),
            Err(HistoryError::NewestOnly)
        );
        let far = [
            ("a.com", "1970-01-01", 200, ALLOW),
            ("b.com", "99999999999", 200, ALLOW),
        ];
        let got = history(
            &judge(&far, Capture::AtFetchTime),
            HistoryOptions::default(),
        );
        assert!(
            matches!(got, Err(HistoryError::TooManyPeriods(n)) if n > MAX_PERIODS)
        );
        let none = of(&[("a.com", "", 200, ALLOW)], HistoryOptions::default());
        assert!(none.labels.is_empty() && none.counts.is_empty());
        assert_eq!(none.undated, 1);
    }
}

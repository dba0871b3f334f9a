//! Criterion benchmarks of matching: verdicts per second over URLs held in
//! memory, for every engine of robots-batch and both peers.
//!
//! Groups (throughput in URLs; criterion ids `group/engine[/parameter]`):
//!
//! * `match/<site>/<engine>`: four real files (a median one, amazon.com,
//!   ebay.com with many wildcards, docs.oracle.com with 31,847 rules), URLs
//!   generated from each file's own patterns (`sample::urls`, seed 1),
//!   RFC 9309.
//! * `paths/<site>/<engine>`: the same URLs as `match/<site>`, their paths
//!   extracted and normalised beforehand (`Dialect::path`, outside the
//!   timing) and judged with `Matcher::verdict_path`: the engines alone,
//!   without the URL parsing (throughput in paths; `scan` too, but not on
//!   docs.oracle.com).
//! * `google/<site>/<engine>`: the same URLs in Google's reading:
//!   robots-batch's google dialect (`trie-google`) against robotstxt 0.3.0,
//!   whose verdicts are first compared with ours (see below).
//! * `real-urls/<site>/<engine>`: the 111,824 real links of
//!   `urls/anubhavp28_robots_benchmark_site_links.txt` against ebay.com's
//!   rules: real URL shapes, few of them disallowed.
//! * `rules/<engine>/<n>`: generated rule sets of 10 to 30,000 rules (a
//!   quarter with `*`, the mean share of the dataset).
//! * `rules-real/<engine>/<rules>-<file>`: real files picked by number of
//!   rules (about 10 to 30,000) and wildcard share (the lowest and the
//!   highest near each size).
//! * `wildcards/<engine>/<percent>`: 1,000 generated rules, 0 to 100% with
//!   `*`.
//! * `url-length/<engine>/<bytes>`: ebay.com's rules, URLs whose path is 16
//!   to 4,096 bytes.
//!
//! Engines: robots-batch's `trie` (default), `dense`, `lazy` and `naive`
//! (and `scan`, in `paths/*` only); `trie-google` (the google dialect);
//! `texting_robots` 0.2 (parsed once, a regex per rule); `robotstxt` 0.3.0
//! (re-parses the file for every URL, its only API). Every tool but `trie`
//! and `trie-google` runs on a prefix of the same URLs (or paths) sized, by
//! a trial, for an iteration of about 40 ms (10 in quick mode): naive,
//! scan and the peers slow down with the rules or the file, and the lazy
//! DFA (the dense engine's fallback) when a wildcard-heavy rule set makes
//! its cache thrash. Throughput is per URL (or path), so the figures still
//! compare. A tool that takes more than 0.25 s for one URL (robotstxt on
//! long URLs) is not timed by criterion: its trial on one URL is its only
//! measurement (the side table's `manual_ns`). The wildcard-share and
//! real-file sweeps leave the dense DFA out (its compiles take seconds
//! there, and it falls back to the lazy DFA anyway); quick mode leaves it
//! out of every sweep, and robotstxt out of URLs longer than 256 bytes.
//!
//! # Counts are checked
//!
//! Before anything is timed, every engine of robots-batch must give the
//! same verdicts (naive, the reference, against trie on the prefix naive
//! runs on; dense and lazy against trie on theirs), or the run fails
//! printing the URLs; in `paths/*`, every engine's verdicts on the paths
//! must be trie's on the URLs they come from. Each timed iteration asserts
//! its disallowed count.
//! The peers' counts are their own, measured first; how far their verdicts
//! are from ours is printed, recorded and bounded:
//!
//! * texting_robots is not RFC 9309 exact (it matches `#fragment`s,
//!   resolves dot segments, re-encodes): at most [`PEER_TOLERANCE`] of its
//!   verdicts may differ.
//! * robotstxt 0.3.0 is compared with our google dialect, and has known
//!   bugs (see `common::Agreement`): its matcher loses matches of a `*`
//!   followed by a literal that occurs again later in the path (of which
//!   `Disallow: *.gif$` against `/x.gif.gif` is one case), its parser
//!   mishandles byte order marks, and it ends groups at `Sitemap` and
//!   unknown lines as Google's library no longer does. Each verdict is also
//!   taken with those bugs out of the way (Google's matching algorithm in
//!   its place, `common::GoogleStrategy`, and the file rewritten to read as
//!   Google's library reads it, `common::as_google_reads`); what still
//!   differs must stay under [`FIXED_TOLERANCE`].
//!
//! Before the benchmarks, `robotstxt-agreement` (not a timed benchmark)
//! does that comparison over the whole dataset: every robots.txt with URLs
//! from its own patterns, and the real links of the URL list with their
//! own site's robots.txt.
//!
//! The files are read at run time from `../shared/datasets` (or
//! `$ROBOTS_BATCH_DATASETS`); without them the benchmarks are skipped.
//!
//! Run: `cargo bench --bench matching` (add `-- --quick`, or a filter such
//! as `-- rules/`).

mod common;

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, Throughput};
use robots_batch::{Dialect, EngineKind, Matcher, Robots};

use common::{Meta, SEED};

/// How far a peer's verdicts may be from ours (share of the URLs compared)
/// before the run fails: far enough for the known differences, near enough
/// to catch a benchmark that feeds it the wrong input.
const PEER_TOLERANCE: f64 = 0.10;

/// How far robotstxt's verdicts may be from ours once its known bugs are
/// out of the way (see `common::Agreement`): none of the 2,680 files gives
/// a difference then, so anything above noise is a bug of the benchmark.
const FIXED_TOLERANCE: f64 = 0.01;

/// The tools a case is timed with.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
enum Tool {
    Ours(EngineKind),
    OursGoogle,
    Texting,
    Robotstxt,
}

impl Tool {
    fn name(self) -> String {
        match self {
            Tool::Ours(kind) => kind.name().to_string(),
            Tool::OursGoogle => "trie-google".to_string(),
            Tool::Texting => "texting_robots".to_string(),
            Tool::Robotstxt => "robotstxt".to_string(),
        }
    }
}

/// The tools of the sweeps: all, but in quick mode not the dense DFA (its
/// compiles take seconds on the larger rule sets).
fn sweep_tools() -> Vec<Tool> {
    ALL.into_iter()
        .filter(|&t| !(common::quick() && t == Tool::Ours(EngineKind::Dense)))
        .collect()
}

/// The tools of the wildcard-share and real-file sweeps: as
/// [`sweep_tools`], without the dense DFA. PERF: on wildcard-heavy rule
/// sets its compile takes 10 to 16 s before it falls back to the lazy DFA
/// (measured as `lazy` anyway); `rules/*` and the per-site groups show it.
fn sweep_tools_no_dense() -> Vec<Tool> {
    sweep_tools()
        .into_iter()
        .filter(|&t| t != Tool::Ours(EngineKind::Dense))
        .collect()
}

const ALL: [Tool; 7] = [
    Tool::Ours(EngineKind::Trie),
    Tool::Ours(EngineKind::Dense),
    Tool::Ours(EngineKind::Lazy),
    Tool::Ours(EngineKind::Naive),
    Tool::OursGoogle,
    Tool::Texting,
    Tool::Robotstxt,
];

/// Makes a case's URLs from its parsed robots.txt.
type UrlMaker = Box<dyn Fn(&Robots) -> Vec<Vec<u8>>>;

/// One rule set and its URLs, timed with some tools.
struct Case {
    /// The criterion parameter (`None`: the ids are `group/engine`).
    param: Option<String>,
    sweep: &'static str,
    robots_name: String,
    robots: Vec<u8>,
    urls_from: String,
    urls: UrlMaker,
    tools: Vec<Tool>,
}

/// A case's inputs, checked: built on first use, so that a filter that
/// skips a case skips its URL generation and checks too.
struct Prepared {
    urls: Vec<Vec<u8>>,
    strs: Vec<String>,
    body: String,
    /// Matchers by tool (robots-batch's only).
    matchers: Vec<(Tool, Matcher)>,
    texting: texting_robots::Robot,
    /// URLs each tool is timed on, and its disallowed count there.
    plan: Vec<Plan>,
    /// Peers: share of their verdicts that differ from ours.
    differ: Vec<(Tool, f64)>,
    url_mean_len: f64,
    meta: Meta,
}

fn prepare(what: &str, case: &Case) -> Prepared {
    let start = Instant::now();
    let robots = Robots::parse(&case.robots);
    let urls = (case.urls)(&robots);
    let strs = common::lossy(&urls);
    let body = String::from_utf8_lossy(&case.robots).into_owned();
    let texting = common::texting(&case.robots);

    // The default engine judges every URL; it is what the others are
    // checked against (and naive, the reference, checks it).
    let trie_matcher =
        timed_build(what, &robots, Tool::Ours(EngineKind::Trie));
    let trie = common::verdicts(&trie_matcher, &urls);
    let mut matchers = vec![];
    let mut plan = vec![];
    let mut differ = vec![];
    for &tool in &case.tools {
        match tool {
            Tool::Ours(_) | Tool::OursGoogle => {
                let m = if tool == Tool::Ours(EngineKind::Trie) {
                    trie_matcher.clone()
                } else {
                    timed_build(what, &robots, tool)
                };
                // Every engine but the default on as many URLs as fit in
                // an iteration: naive always slows down with the rules,
                // and the dense and lazy DFAs do when a wildcard-heavy
                // rule set makes the lazy DFA's cache thrash.
                let (n, per_url) = if matches!(
                    tool,
                    Tool::Ours(EngineKind::Trie) | Tool::OursGoogle
                ) {
                    (urls.len(), 0.0)
                } else {
                    let mut scratch = m.scratch();
                    common::calibrate(urls.len(), |i| {
                        m.verdict(&urls[i], &mut scratch).is_allowed()
                    })
                };
                let (n, manual) = too_slow(what, tool, n, per_url);
                let own = common::verdicts(&m, &urls[..n]);
                // Every engine of robots-batch gives the same verdicts, or
                // nothing is timed: naive is the reference.
                if tool == Tool::Ours(EngineKind::Naive) {
                    common::assert_same(
                        what, &urls, "naive", &own, "trie", &trie,
                    );
                } else if tool != Tool::OursGoogle {
                    let name = tool.name();
                    common::assert_same(
                        what, &urls, "trie", &trie, &name, &own,
                    );
                }
                plan.push(Plan {
                    tool,
                    n,
                    disallowed: common::disallowed(&own),
                    manual,
                });
                matchers.push((tool, m));
            }
            Tool::Texting => {
                let (n, per_url) = common::calibrate(urls.len(), |i| {
                    texting.allowed(&strs[i])
                });
                let (n, manual) = too_slow(what, tool, n, per_url);
                let theirs: Vec<bool> =
                    strs[..n].iter().map(|u| texting.allowed(u)).collect();
                let d = (0..n).filter(|&i| theirs[i] != trie[i]).count();
                let rate = d as f64 / n as f64;
                let with_hash = (0..n)
                    .filter(|&i| {
                        theirs[i] != trie[i] && urls[i].contains(&b'#')
                    })
                    .count();
                common::note(&format!(
                    "{what}: texting_robots: {d} of {n} verdicts differ from \
                     robots-batch's (rfc9309) ({:.3}%), {with_hash} of them on \
                     URLs with a '#' (it matches fragments)",
                    100.0 * rate,
                ));
                assert!(
                    rate <= PEER_TOLERANCE,
                    "{what}: texting_robots differs on {:.1}% of the URLs",
                    100.0 * rate
                );
                plan.push(Plan {
                    tool,
                    n,
                    disallowed: common::disallowed(&theirs),
                    manual,
                });
                differ.push((tool, rate));
            }
            Tool::Robotstxt => {
                // Its verdicts in the trial, kept: one can take seconds.
                let mut seen = vec![];
                let (n, per_url) = common::calibrate(urls.len(), |i| {
                    let v = common::robotstxt_allowed(&body, &strs[i]);
                    seen.push(v);
                    v
                });
                let (n, manual) = too_slow(what, tool, n, per_url);
                if manual.is_some() {
                    plan.push(Plan {
                        tool,
                        n,
                        disallowed: usize::from(!seen[0]),
                        manual,
                    });
                    continue;
                }
                // The verdicts are compared on more URLs than are timed:
                // a few seconds' worth, with and without its matcher bug.
                let budget = if case.sweep == "google" {
                    common::pick(10.0, 2.0)
                } else {
                    common::pick(2.0, 0.5)
                };
                let check = ((budget / (3.0 * per_url)) as usize)
                    .clamp(n, urls.len().max(n));
                let a =
                    common::robotstxt_agreement(&case.robots, &urls[..check]);
                common::note(&format!(
                    "{what}: robotstxt 0.3.0 vs robots-batch --dialect \
                     google: {}",
                    a.describe()
                ));
                for e in &a.examples {
                    common::note(&format!("{what}:   e.g. {e}"));
                }
                // N.B. Stock robotstxt may be far off (its bugs); with
                // Google's matcher and the BOM skipped it must not be.
                assert!(
                    a.rate_fixed() <= FIXED_TOLERANCE,
                    "{what}: robotstxt without its bugs still differs on \
                     {:.1}% of the URLs",
                    100.0 * a.rate_fixed()
                );
                let timed = common::robotstxt_disallowed(&body, &strs[..n]);
                plan.push(Plan { tool, n, disallowed: timed, manual });
                differ.push((tool, a.rate()));
            }
        }
    }
    eprintln!(
        "{what}: prepared and checked in {:.1?}: {}",
        start.elapsed(),
        plan.iter()
            .map(|p| format!("{} {}/{}", p.tool.name(), p.disallowed, p.n))
            .collect::<Vec<_>>()
            .join(", "),
    );
    let mut meta = common::meta_for(&case.robots_name, &case.robots);
    meta.kind = "match";
    meta.sweep = case.sweep;
    meta.urls_from = case.urls_from.clone();
    Prepared {
        url_mean_len: common::mean_len(&urls),
        urls,
        strs,
        body,
        matchers,
        texting,
        plan,
        differ,
        meta,
    }
}

thread_local! {
    /// Matchers already built, by robots.txt and tool: the URL-length sweep
    /// uses one file throughout, and a dense compile takes seconds.
    static MATCHERS: RefCell<HashMap<(Vec<u8>, String), Matcher>> =
        RefCell::new(HashMap::new());
}

/// What a tool is timed on: its first `n` URLs, where it disallows
/// `disallowed`; `manual` when one URL took so long that the trial that
/// found it out is its only measurement (nanoseconds for one URL).
struct Plan {
    tool: Tool,
    n: usize,
    disallowed: usize,
    manual: Option<f64>,
}

/// Above this per URL, a tool is not timed by criterion: its trial on one
/// URL is the measurement (robotstxt on long URLs takes seconds per URL).
const TOO_SLOW_PER_URL: f64 = 0.25;

/// `(n, None)`, or `(1, Some(nanoseconds))` when `per_url` seconds is
/// [`TOO_SLOW_PER_URL`] or more.
fn too_slow(
    what: &str,
    tool: Tool,
    n: usize,
    per_url: f64,
) -> (usize, Option<f64>) {
    if per_url < TOO_SLOW_PER_URL {
        return (n, None);
    }
    common::note(&format!(
        "{what}: {} took {per_url:.2} s for one URL: timed once, not by \
         criterion",
        tool.name()
    ));
    (1, Some(per_url * 1e9))
}

/// A matcher of robots-batch for `tool`, saying so when it took long.
fn timed_build(what: &str, robots: &Robots, tool: Tool) -> Matcher {
    let key = (robots.bytes().to_vec(), tool.name());
    if let Some(m) = MATCHERS.with(|c| c.borrow().get(&key).cloned()) {
        return m;
    }
    let m = build_now(what, robots, tool);
    MATCHERS.with(|c| c.borrow_mut().insert(key, m.clone()));
    m
}

fn build_now(what: &str, robots: &Robots, tool: Tool) -> Matcher {
    let (kind, dialect) = match tool {
        Tool::Ours(kind) => (kind, Dialect::Rfc9309),
        _ => (EngineKind::Trie, Dialect::Google),
    };
    let start = Instant::now();
    let m = common::build(robots, kind, dialect);
    if start.elapsed() > Duration::from_millis(500) {
        eprintln!(
            "{what}: the {} engine took {:.1?} to compile (strategy {})",
            tool.name(),
            start.elapsed(),
            m.strategy()
        );
    }
    m
}

/// Adds the case's benchmarks to `group` (named `group_name`).
fn bench_case(
    group: &mut BenchmarkGroup<'_, WallTime>,
    group_name: &str,
    case: &Case,
) {
    let what = match &case.param {
        Some(p) => format!("{group_name}/{p}"),
        None => group_name.to_string(),
    };
    let cell: OnceCell<Prepared> = OnceCell::new();
    let get = || cell.get_or_init(|| prepare(&what, case));
    for &tool in &case.tools {
        let function = tool.name();
        let id = match &case.param {
            Some(p) => BenchmarkId::new(function.clone(), p),
            None => BenchmarkId::from_parameter(&function),
        };
        let full_id = match &case.param {
            Some(p) => format!("{group_name}/{function}/{p}"),
            None => format!("{group_name}/{function}"),
        };
        // N.B. The throughput must be set before the benchmark runs, and
        // the prefix a slow tool runs on is only known once prepared: a
        // filter that skips this benchmark skips this preparation too.
        if !common::selected(&full_id) {
            continue;
        }
        let p = get();
        let plan = p.plan.iter().find(|p| p.tool == tool).expect("planned");
        let (n, expected) = (plan.n, plan.disallowed);
        if let Some(ns) = plan.manual {
            record(p, tool, &full_id, n, expected, Some(ns));
            continue;
        }
        group.throughput(Throughput::Elements(n as u64));
        let mut recorded = false;
        group.bench_function(id, |b| {
            if !recorded {
                record(p, tool, &full_id, n, expected, None);
                recorded = true;
            }
            match tool {
                Tool::Ours(_) | Tool::OursGoogle => {
                    let m = &p
                        .matchers
                        .iter()
                        .find(|(t, _)| *t == tool)
                        .expect("a matcher")
                        .1;
                    let urls = &p.urls[..n];
                    b.iter(|| {
                        let d = common::count_disallowed(m, black_box(urls));
                        assert_eq!(d, expected, "{full_id}: disallowed");
                    })
                }
                Tool::Texting => {
                    let urls = &p.strs[..n];
                    b.iter(|| {
                        let d = common::texting_disallowed(
                            &p.texting,
                            black_box(urls),
                        );
                        assert_eq!(d, expected, "{full_id}: disallowed");
                    })
                }
                Tool::Robotstxt => {
                    let urls = &p.strs[..n];
                    b.iter(|| {
                        let d = common::robotstxt_disallowed(
                            black_box(&p.body),
                            black_box(urls),
                        );
                        assert_eq!(d, expected, "{full_id}: disallowed");
                    })
                }
            }
        });
    }
}

fn record(
    p: &Prepared,
    tool: Tool,
    id: &str,
    n: usize,
    expected: usize,
    manual_ns: Option<f64>,
) {
    let mut m = p.meta.clone();
    m.id = id.to_string();
    m.engine = tool.name();
    m.dialect = match tool {
        Tool::OursGoogle | Tool::Robotstxt => "google",
        Tool::Texting => "texting_robots",
        Tool::Ours(_) => "rfc9309",
    };
    m.urls = n;
    m.url_mean_len = p.url_mean_len;
    m.allowed = n - expected;
    m.disallowed = expected;
    if let Some((_, matcher)) = p.matchers.iter().find(|(t, _)| *t == tool) {
        m.strategy = matcher.strategy().to_string();
        m.automaton_bytes = matcher.memory_usage();
    }
    m.differ_rate = p.differ.iter().find(|(t, _)| *t == tool).map(|d| d.1);
    if let Some(ns) = manual_ns {
        m.manual_ns = Some(ns);
        m.note = format!(
            "one URL took {:.2} s: timed once, outside criterion",
            ns / 1e9
        );
    }
    m.record();
}

/// `paths/<site>`: the engines on the paths of `match/<site>`'s URLs,
/// extracted beforehand, as a caller judging each URL for several agents
/// extracts them once ([`Matcher::verdict_path`]); so the figures are the
/// engines' alone, without the URL parsing every `match/*` one includes.
fn paths_group(c: &mut Criterion, site: &str, robots: &[u8], count: usize) {
    let name = format!("paths/{site}");
    // PERF: scan tries the rules one by one for every path: on
    // docs.oracle.com's 31,847 rules it judges about 9,000 paths/s in a
    // trial, timed on some 350 paths, a figure of no use beside the
    // compiled engines'.
    let engines: Vec<EngineKind> = [
        EngineKind::Trie,
        EngineKind::Dense,
        EngineKind::Lazy,
        EngineKind::Scan,
    ]
    .into_iter()
    .filter(|&e| !(e == EngineKind::Scan && site == "docs.oracle.com"))
    .filter(|e| common::selected(&format!("{name}/{}", e.name())))
    .collect();
    // A filter that skips every engine skips the URLs and checks too.
    if engines.is_empty() {
        return;
    }
    let parsed = Robots::parse(robots);
    // The very URLs of `match/<site>` (`site_case`), and trie's verdicts on
    // them: what every engine's verdicts on the paths are checked against.
    let urls = robots_batch::sample::urls(&parsed, count, SEED);
    let trie_matcher =
        timed_build(&name, &parsed, Tool::Ours(EngineKind::Trie));
    let trie = common::verdicts(&trie_matcher, &urls);
    // Owned, one allocation each as the URLs are: `path` returns a slice
    // of the URL or of the buffer, which the next call overwrites.
    let mut buf = Vec::new();
    let paths: Vec<Vec<u8>> = urls
        .iter()
        .map(|u| Dialect::Rfc9309.path(u, &mut buf).to_vec())
        .collect();
    let mut meta = common::meta_for(site, robots);
    meta.kind = "match";
    meta.sweep = "paths";
    meta.urls_from = "generated, as paths (Dialect::Rfc9309.path)".to_string();
    meta.dialect = "rfc9309";
    meta.url_mean_len = common::mean_len(&paths);

    let mut group = c.benchmark_group(&name);
    for kind in engines {
        let id = format!("{name}/{}", kind.name());
        let m = timed_build(&name, &parsed, Tool::Ours(kind));
        // As in `match/*`: every engine but the default on as many paths
        // as fit in an iteration (the lazy DFA's cache can thrash, and
        // scan slows down with the rules).
        let n = if kind == EngineKind::Trie {
            paths.len()
        } else {
            let mut scratch = m.scratch();
            common::calibrate(paths.len(), |i| {
                m.verdict_path(&paths[i], &mut scratch).is_allowed()
            })
            .0
        };
        let mut scratch = m.scratch();
        let own: Vec<bool> = paths[..n]
            .iter()
            .map(|p| m.verdict_path(p, &mut scratch).is_allowed())
            .collect();
        common::assert_same(
            &name,
            &urls,
            "trie on the URLs",
            &trie[..n],
            &format!("{} on the paths", kind.name()),
            &own,
        );
        // What `Matcher::verdict` disallows of the URLs themselves.
        let expected = common::disallowed(&trie[..n]);
        eprintln!("{id}: checked: {expected}/{n} paths disallowed");
        let mut row = meta.clone();
        row.id = id.clone();
        row.engine = kind.name().to_string();
        row.urls = n;
        row.allowed = n - expected;
        row.disallowed = expected;
        row.strategy = m.strategy().to_string();
        row.automaton_bytes = m.memory_usage();
        group.throughput(Throughput::Elements(n as u64));
        let mut recorded = false;
        group.bench_function(BenchmarkId::from_parameter(kind.name()), |b| {
            if !recorded {
                row.record();
                recorded = true;
            }
            let paths = &paths[..n];
            b.iter(|| {
                let d = count_disallowed_paths(&m, black_box(paths));
                assert_eq!(d, expected, "{id}: disallowed");
            })
        });
    }
    group.finish();
}

/// Disallowed verdicts of `m` over extracted `paths`: as
/// `common::count_disallowed` over URLs, a fresh scratch (and lazy DFA
/// cache) per call included, so that the figures compare with `match/*`.
#[inline]
fn count_disallowed_paths(m: &Matcher, paths: &[Vec<u8>]) -> usize {
    let mut scratch = m.scratch();
    let mut n = 0;
    for p in paths {
        n += usize::from(!m.verdict_path(p, &mut scratch).is_allowed());
    }
    n
}

fn main() {
    let Some(datasets) = common::datasets_or_skip("matching") else {
        return;
    };
    let mut c = common::criterion();
    let urls = common::pick(100_000, 20_000);

    // robotstxt's verdicts against ours over the whole dataset, before any
    // of its speed is quoted (not a timed benchmark).
    if common::selected("robotstxt-agreement") {
        common::corpus_agreement(
            &datasets,
            common::pick(20, 4),
            100_000,
            common::pick(1, 10),
            Duration::from_millis(common::pick(200, 50)),
        );
    }

    // Per site.
    let sites =
        ["www.nytimes.com", "amazon.com", "ebay.com", "docs.oracle.com"];
    for site in sites {
        let robots = common::read_robots(&datasets, site);
        let tools: Vec<Tool> = ALL
            .into_iter()
            .filter(|t| !matches!(t, Tool::OursGoogle | Tool::Robotstxt))
            .collect();
        run_group(
            &mut c,
            &format!("match/{site}"),
            vec![site_case(site, &robots, urls, tools, "site")],
        );
    }
    for site in sites {
        let robots = common::read_robots(&datasets, site);
        paths_group(&mut c, site, &robots, urls);
    }
    for site in sites {
        let robots = common::read_robots(&datasets, site);
        run_group(
            &mut c,
            &format!("google/{site}"),
            vec![site_case(
                site,
                &robots,
                urls,
                vec![Tool::OursGoogle, Tool::Robotstxt],
                "google",
            )],
        );
    }

    // Real URLs.
    let list = "anubhavp28_robots_benchmark_site_links.txt";
    match common::read_url_list(&datasets, list) {
        Some(real) => {
            let site = "ebay.com";
            let robots = common::read_robots(&datasets, site);
            // The list is grouped by site: shuffled, so that the prefix a
            // slow tool runs on is a fair sample of it.
            let mut real = common::shuffled(real, SEED);
            if common::quick() {
                real.truncate(urls);
            }
            let case = Case {
                param: None,
                sweep: "real-urls",
                robots_name: site.to_string(),
                robots,
                urls_from: list.to_string(),
                urls: Box::new(move |_| real.clone()),
                tools: sweep_tools(),
            };
            run_group(&mut c, &format!("real-urls/{site}"), vec![case]);
        }
        None => eprintln!("matching: no urls/{list}: skipping real-urls"),
    }

    let sweep_urls = common::pick(20_000, 5_000);

    // Generated rule sets of 10 to 30,000 rules.
    let sizes: Vec<usize> = common::pick(
        vec![10, 30, 100, 300, 1_000, 3_000, 10_000, 30_000],
        vec![10, 1_000, 30_000],
    );
    let cases = sizes
        .iter()
        .map(|&n| {
            let robots = common::generated_robots(n, 0.25, SEED);
            generated_case(n.to_string(), "rules", robots, sweep_urls)
        })
        .collect();
    run_group(&mut c, "rules", cases);

    // Real files by number of rules and wildcard share.
    let files = common::scan(&datasets);
    let targets = common::pick(
        vec![10, 30, 100, 300, 1_000, 3_000, 10_000, 30_000],
        vec![100, 30_000],
    );
    let cases = common::pick_by_rules(&files, &targets)
        .into_iter()
        .map(|f| {
            let robots = common::read_robots(&datasets, &f.name);
            Case {
                param: Some(format!("{}-{}", f.rules, f.name)),
                sweep: "rules-real",
                robots_name: f.name.clone(),
                robots,
                urls_from: "generated".to_string(),
                urls: Box::new(move |r| {
                    robots_batch::sample::urls(r, sweep_urls, SEED)
                }),
                tools: sweep_tools_no_dense(),
            }
        })
        .collect();
    run_group(&mut c, "rules-real", cases);

    // Wildcard share.
    let shares: Vec<usize> =
        common::pick(vec![0, 10, 25, 50, 75, 100], vec![0, 100]);
    let cases = shares
        .iter()
        .map(|&pct| {
            let robots =
                common::generated_robots(1_000, pct as f64 / 100.0, SEED);
            let mut case = generated_case(
                pct.to_string(),
                "wildcards",
                robots,
                sweep_urls,
            );
            case.tools = sweep_tools_no_dense();
            case
        })
        .collect();
    run_group(&mut c, "wildcards", cases);

    // URL length.
    let site = "ebay.com";
    let lens: Vec<usize> =
        common::pick(vec![16, 64, 256, 1_024, 4_096], vec![16, 256, 1_024]);
    let cases = lens
        .iter()
        .map(|&len| {
            let robots = common::read_robots(&datasets, site);
            let count = (sweep_urls * 64 / len.max(64)).max(1_000);
            Case {
                param: Some(len.to_string()),
                sweep: "url-length",
                robots_name: site.to_string(),
                robots,
                urls_from: format!("generated, path of {len} bytes"),
                urls: Box::new(move |r| {
                    common::urls_of_length(r, count, len, SEED)
                }),
                // PERF: robotstxt's matcher is quadratic in the path's
                // length (a `Vec::insert` per position after each `*`):
                // 0.13 s per URL at 256 bytes, 25 s at 4,096 in a trial.
                // Quick mode stops it at 256.
                tools: sweep_tools()
                    .into_iter()
                    .filter(|&t| {
                        t != Tool::Robotstxt || len <= common::pick(4_096, 256)
                    })
                    .collect(),
            }
        })
        .collect();
    run_group(&mut c, "url-length", cases);

    c.final_summary();
}

fn site_case(
    site: &str,
    robots: &[u8],
    urls: usize,
    tools: Vec<Tool>,
    sweep: &'static str,
) -> Case {
    Case {
        param: None,
        sweep,
        robots_name: site.to_string(),
        robots: robots.to_vec(),
        urls_from: "generated".to_string(),
        urls: Box::new(move |r| robots_batch::sample::urls(r, urls, SEED)),
        tools,
    }
}

fn generated_case(
    param: String,
    sweep: &'static str,
    robots: Vec<u8>,
    urls: usize,
) -> Case {
    Case {
        param: Some(param),
        sweep,
        robots_name: "generated".to_string(),
        robots,
        urls_from: "generated".to_string(),
        urls: Box::new(move |r| robots_batch::sample::urls(r, urls, SEED)),
        tools: sweep_tools(),
    }
}

fn run_group(c: &mut Criterion, name: &str, cases: Vec<Case>) {
    let mut group = c.benchmark_group(name);
    for case in &cases {
        bench_case(&mut group, name, case);
    }
    group.finish();
}

//! Criterion benchmarks of the engines, split like rebar:
//!
//! * `compile/<site>/<engine>`: robots.txt bytes to a [`Matcher`] (parse,
//!   group selection, compilation). The strategy actually used and the
//!   automaton's bytes are printed once per benchmark.
//! * `match/<site>/<engine>`: verdicts over an in-memory list of URLs
//!   generated from the site's own patterns with
//!   `sample::urls(&robots, 100_000, 1)`, throughput in URLs.
//!
//! The engines are robots-batch's `dfa`, `dense`, `lazy` and `naive`, and
//! texting_robots 0.2 as an outside baseline. The slow ones (`naive`, and
//! texting_robots on the large rule sets) run on a prefix of the same list:
//! see [`SITES`]. Throughput is per URL, so the figures still compare.
//!
//! # Counts are checked
//!
//! Before any `match/<site>/*` benchmark is timed, every engine's verdict for
//! every URL is compared: `naive` (the reference) against every other engine
//! on a prefix of the list, and `dense`/`lazy` against `dfa` on all of it. A
//! disagreement prints the URLs and fails the run. Each timed iteration then
//! asserts its disallowed count, so a fast wrong answer fails too.
//!
//! texting_robots is not RFC 9309 exact, so its count is only required to be
//! within [`TEXTING_TOLERANCE`] of ours (its iterations assert its own
//! count). Most of the differences are fragments: it matches rules against
//! everything after the host, `#fragment` included, which RFC 9309 leaves
//! out of the path. The rest come from its URL handling (the `url` crate
//! trims trailing spaces, resolves dot segments and re-encodes some bytes;
//! invalid UTF-8 becomes U+FFFD before it gets there) and percent-encoding
//! that differs from RFC 9309's normalisation. The benchmark prints how
//! many verdicts differ, with examples.
//!
//! The robots.txt files are read at run time from `../shared/datasets/robots`
//! next to the repository (or `$ROBOTS_BATCH_DATASETS/robots`); without them
//! the benchmarks are skipped.
//!
//! Run: `cargo bench --bench engines` (add `-- --quick`, or a filter such as
//! `-- match/amazon`).

use std::cell::OnceCell;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput};
use robots_batch::{Dialect, EngineKind, Matcher, MatcherBuilder, Robots};

/// The agent every matcher is built for: the `*` group.
const AGENT: &str = "*";
const DIALECT: Dialect = Dialect::Rfc9309;
/// URLs per site, and the generator's seed.
const URLS: usize = 100_000;
const SEED: u64 = 1;
/// How far texting_robots' disallowed count may be from ours, as a fraction
/// of the URLs it saw.
const TEXTING_TOLERANCE: f64 = 0.05;

/// The engines of robots-batch, as the command line names them.
const ENGINES: [(&str, EngineKind); 4] = [
    ("dfa", EngineKind::Dfa),
    ("dense", EngineKind::Dense),
    ("lazy", EngineKind::Lazy),
    ("naive", EngineKind::Naive),
];

/// One robots.txt and how many of its URLs the slow engines see.
struct Site {
    /// `<name>.txt` in the robots directory.
    name: &'static str,
    /// URLs the naive engine's verdicts are compared on (before timing).
    reference: usize,
    /// URLs `match/<site>/naive` times.
    naive: usize,
    /// URLs `match/<site>/texting_robots` times (and compares counts on).
    texting: usize,
}

/// The sites: a median-sized file (15 rules for `*`, literal, `*` and `$`
/// patterns; 17 allow/disallow lines where the median over the 2,680 files
/// of the dataset is 17), amazon.com (134 rules), ebay.com (497 rules, many
/// wildcards) and docs.oracle.com (31,847 rules).
///
/// N.B. The subsets keep one naive sample near a second on this 2-core
/// machine: naive takes about 4 ms per URL on docs.oracle.com, texting_robots
/// 0.24 ms there and 35 µs on ebay.com.
const SITES: [Site; 4] = [
    Site {
        name: "www.nytimes.com",
        reference: 20_000,
        naive: 20_000,
        texting: URLS,
    },
    Site {
        name: "amazon.com",
        reference: 20_000,
        naive: 2_000,
        texting: URLS,
    },
    Site {
        name: "ebay.com",
        reference: 20_000,
        naive: 2_000,
        texting: 20_000,
    },
    Site {
        name: "docs.oracle.com",
        reference: 1_000,
        naive: 200,
        texting: 2_000,
    },
];

fn main() {
    let Some(robots_dir) = robots_dir() else {
        eprintln!(
            "engines: skipping, no robots.txt datasets at ../shared/datasets/\
             robots (set ROBOTS_BATCH_DATASETS to their parent directory)"
        );
        return;
    };
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    for site in &SITES {
        let bytes = read_site(&robots_dir, site);
        bench_compile(&mut c, site, &bytes);
    }
    for site in &SITES {
        let bytes = read_site(&robots_dir, site);
        bench_match(&mut c, site, &bytes);
    }
    c.final_summary();
}

/// `$ROBOTS_BATCH_DATASETS/robots`, else `../shared/datasets/robots`
/// relative to the repository, when it exists.
fn robots_dir() -> Option<PathBuf> {
    let datasets = match std::env::var_os("ROBOTS_BATCH_DATASETS") {
        Some(dir) => PathBuf::from(dir),
        None => {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets")
        }
    };
    let dir = datasets.join("robots");
    dir.is_dir().then_some(dir)
}

fn read_site(dir: &Path, site: &Site) -> Vec<u8> {
    let path = dir.join(format!("{}.txt", site.name));
    std::fs::read(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

fn build(robots: &Robots, kind: EngineKind) -> Matcher {
    MatcherBuilder::new().engine(kind).build(robots, AGENT, DIALECT)
}

fn bench_compile(c: &mut Criterion, site: &Site, bytes: &[u8]) {
    let mut group = c.benchmark_group(format!("compile/{}", site.name));
    // PERF: a dense compile of ebay.com or docs.oracle.com takes seconds.
    group.sampling_mode(SamplingMode::Flat);
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    // Every engine must select the same rules.
    let rules = build(&Robots::parse(bytes), EngineKind::Naive).rules().len();
    for (name, kind) in ENGINES {
        let mut printed = false;
        group.bench_function(name, |b| {
            if !printed {
                let m = build(&Robots::parse(bytes), kind);
                eprintln!(
                    "compile/{}/{name}: strategy {}, {} rules, {} automaton \
                     bytes",
                    site.name,
                    m.strategy(),
                    m.rules().len(),
                    m.memory_usage(),
                );
                printed = true;
            }
            b.iter(|| {
                let robots = Robots::parse(black_box(bytes));
                let m = build(&robots, kind);
                assert_eq!(m.rules().len(), rules);
                m
            })
        });
    }
    group.bench_function("texting_robots", |b| {
        b.iter(|| {
            texting_robots::Robot::new(AGENT, black_box(bytes))
                .expect("texting_robots parses")
        })
    });
    group.finish();
}

/// A site's URLs, matchers and expected counts, checked before any timing.
struct Prepared {
    urls: Vec<Vec<u8>>,
    /// The URLs as texting_robots takes them (invalid UTF-8 replaced).
    strs: Vec<String>,
    matchers: Vec<Matcher>,
    texting: texting_robots::Robot,
    /// Disallowed among all URLs.
    disallowed: usize,
    /// Disallowed among the first `site.naive`.
    naive_disallowed: usize,
    /// texting_robots' disallowed among the first `site.texting`.
    texting_disallowed: usize,
}

fn prepare(site: &Site, bytes: &[u8]) -> Prepared {
    let robots = Robots::parse(bytes);
    let urls = robots_batch::sample::urls(&robots, URLS, SEED);
    let matchers: Vec<Matcher> =
        ENGINES.iter().map(|&(_, kind)| build(&robots, kind)).collect();
    let verdicts = |m: &Matcher, n: usize| -> Vec<bool> {
        let mut scratch = m.scratch();
        urls[..n]
            .iter()
            .map(|u| m.verdict(u, &mut scratch).is_allowed())
            .collect()
    };
    assert!(site.naive <= site.reference && site.reference <= URLS);
    assert!(site.texting <= URLS);
    let naive_at = ENGINES.iter().position(|e| e.1 == EngineKind::Naive);
    let naive = verdicts(&matchers[naive_at.unwrap()], site.reference);
    let dfa = verdicts(&matchers[0], URLS);
    let mut failed = false;
    for (i, ((name, kind), m)) in ENGINES.iter().zip(&matchers).enumerate() {
        if *kind == EngineKind::Naive {
            continue;
        }
        let own = if i == 0 { dfa.clone() } else { verdicts(m, URLS) };
        failed |= report_mismatch(site, &urls, "naive", &naive, name, &own);
        failed |= report_mismatch(site, &urls, "dfa", &dfa, name, &own);
    }
    assert!(
        !failed,
        "match/{}: the engines disagree, see the URLs above",
        site.name
    );
    let disallowed = dfa.iter().filter(|&&a| !a).count();
    let naive_disallowed = dfa[..site.naive].iter().filter(|&&a| !a).count();

    let strs: Vec<String> =
        urls.iter().map(|u| String::from_utf8_lossy(u).into_owned()).collect();
    let texting = texting_robots::Robot::new(AGENT, bytes)
        .expect("texting_robots parses");
    let theirs: Vec<bool> =
        strs[..site.texting].iter().map(|u| texting.allowed(u)).collect();
    let texting_disallowed = theirs.iter().filter(|&&a| !a).count();
    let ours = dfa[..site.texting].iter().filter(|&&a| !a).count();
    // N.B. Most disagreements are fragments: texting_robots matches the
    // rules against path, query *and* `#fragment`.
    let differ: Vec<usize> =
        (0..site.texting).filter(|&i| theirs[i] != dfa[i]).collect();
    let has_hash = |&&i: &&usize| urls[i].contains(&b'#');
    let example = |i: Option<&usize>| match i {
        Some(&i) => format!(
            "\n    e.g. {:?}: texting_robots {}, robots-batch {}",
            String::from_utf8_lossy(&urls[i]),
            name(theirs[i]),
            name(dfa[i]),
        ),
        None => String::new(),
    };
    eprintln!(
        "match/{}: {} rules, {disallowed} of {URLS} URLs disallowed \
         (naive agrees on the first {}); texting_robots disallows \
         {texting_disallowed} of the first {} where robots-batch disallows \
         {ours}: {} verdicts differ, {} of them on URLs with a '#'{}{}",
        site.name,
        matchers[0].rules().len(),
        site.reference,
        site.texting,
        differ.len(),
        differ.iter().filter(has_hash).count(),
        example(differ.iter().find(has_hash)),
        example(differ.iter().find(|i| !has_hash(i))),
    );
    let slack = (TEXTING_TOLERANCE * site.texting as f64) as usize;
    assert!(
        texting_disallowed.abs_diff(ours) <= slack,
        "match/{}: texting_robots disallows {texting_disallowed}, \
         robots-batch {ours}: more than {TEXTING_TOLERANCE} apart",
        site.name,
    );
    Prepared {
        urls,
        strs,
        matchers,
        texting,
        disallowed,
        naive_disallowed,
        texting_disallowed,
    }
}

fn name(allowed: bool) -> &'static str {
    if allowed {
        "allowed"
    } else {
        "disallowed"
    }
}

/// Prints, loudly, the first URLs on which `theirs` and `ours` (over a
/// common prefix of `urls`) disagree; true when they do.
fn report_mismatch(
    site: &Site,
    urls: &[Vec<u8>],
    reference: &str,
    theirs: &[bool],
    engine: &str,
    ours: &[bool],
) -> bool {
    let bad: Vec<usize> = theirs
        .iter()
        .zip(ours)
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .map(|(i, _)| i)
        .collect();
    if bad.is_empty() {
        return false;
    }
    eprintln!(
        "!!! match/{}: ENGINES DISAGREE: {engine} differs from {reference} \
         on {} of the first {} URLs, e.g.:",
        site.name,
        bad.len(),
        theirs.len().min(ours.len()),
    );
    for &i in bad.iter().take(5) {
        eprintln!(
            "!!!   {:?}: {reference} {}, {engine} {}",
            String::from_utf8_lossy(&urls[i]),
            name(theirs[i]),
            name(ours[i]),
        );
    }
    true
}

fn bench_match(c: &mut Criterion, site: &Site, bytes: &[u8]) {
    // Built on first use, so that a filter that skips this site skips the
    // URL generation and the (slow) cross-checks too.
    let cell: OnceCell<Prepared> = OnceCell::new();
    let get = || cell.get_or_init(|| prepare(site, bytes));
    let mut group = c.benchmark_group(format!("match/{}", site.name));
    for (i, (name, kind)) in ENGINES.iter().enumerate() {
        let is_naive = *kind == EngineKind::Naive;
        let n = if is_naive { site.naive } else { URLS };
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(*name, |b| {
            let p = get();
            let expected =
                if is_naive { p.naive_disallowed } else { p.disallowed };
            let m = &p.matchers[i];
            let mut scratch = m.scratch();
            b.iter(|| {
                let mut disallowed = 0;
                for url in &p.urls[..n] {
                    let v = m.verdict(black_box(url), &mut scratch);
                    disallowed += usize::from(!v.is_allowed());
                }
                assert_eq!(disallowed, expected);
                disallowed
            })
        });
    }
    group.throughput(Throughput::Elements(site.texting as u64));
    group.bench_function("texting_robots", |b| {
        let p = get();
        b.iter(|| {
            let mut disallowed = 0;
            for url in &p.strs[..site.texting] {
                disallowed += usize::from(!p.texting.allowed(black_box(url)));
            }
            assert_eq!(disallowed, p.texting_disallowed);
            disallowed
        })
    });
    group.finish();
}

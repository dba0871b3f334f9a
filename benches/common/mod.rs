//! What the benchmarks share: the datasets, the criterion settings, the
//! inputs of the sweeps (real files picked by size and wildcard share,
//! generated rule sets, URLs of a given length), the peers, the checks of
//! the expected counts and the side table of what criterion does not record.
//!
//! Each bench binary includes this module (`mod common;`) and uses only part
//! of it, hence the `dead_code` allowance.

#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::borrow::Cow;
use std::fs::OpenOptions;
use std::hint::black_box;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use criterion::Criterion;
use robots_batch::{
    Dialect, EngineKind, Matcher, MatcherBuilder, Robots, RuleSet,
};

/// The agent every matcher of robots-batch and texting_robots is built
/// for: only `*` groups apply.
pub const AGENT: &str = "*";
/// The agent given to robotstxt and to robots-batch's google dialect when
/// they are compared: a product token no file names, so the `*` groups
/// apply (robotstxt reads `*` as an empty token).
pub const GOOGLE_AGENT: &str = "BenchBot";
/// The seed of every generated URL list and rule set.
pub const SEED: u64 = 1;

/// The engines of robots-batch, as the command line names them.
pub const ENGINES: [(&str, EngineKind); 4] = [
    ("trie", EngineKind::Trie),
    ("dense", EngineKind::Dense),
    ("lazy", EngineKind::Lazy),
    ("naive", EngineKind::Naive),
];

/// True in quick mode (`-- --quick`, as criterion's own flag, or
/// `ROBOTS_BATCH_BENCH_QUICK=1`): criterion stops sampling early and the
/// sweeps have fewer points and smaller inputs.
pub fn quick() -> bool {
    std::env::args().any(|a| a == "--quick")
        || std::env::var_os("ROBOTS_BATCH_BENCH_QUICK")
            .is_some_and(|v| v != "0" && !v.is_empty())
}

/// `full` normally, `quick` in quick mode.
pub fn pick<T>(full: T, quick_value: T) -> T {
    if quick() {
        quick_value
    } else {
        full
    }
}

/// Criterion's filter, as far as it goes: the first argument that is
/// neither a flag nor a flag's value. Only plain substrings are honoured
/// here (criterion takes a regex); anything else selects everything.
pub fn selected(full_id: &str) -> bool {
    const WITH_VALUE: &[&str] = &[
        "--save-baseline",
        "--baseline",
        "--baseline-lenient",
        "--load-baseline",
        "--sample-size",
        "--warm-up-time",
        "--measurement-time",
        "--nresamples",
        "--noise-threshold",
        "--confidence-level",
        "--significance-level",
        "--profile-time",
        "--output-format",
        "--plotting-backend",
        "--format",
        "--color",
        "-c",
    ];
    let mut args = std::env::args().skip(1);
    let mut filter = None;
    while let Some(a) = args.next() {
        if WITH_VALUE.contains(&a.as_str()) {
            args.next();
        } else if !a.starts_with('-') && !a.is_empty() {
            filter = Some(a);
            break;
        }
    }
    match filter {
        Some(f)
            if f.chars()
                .all(|c| c.is_alphanumeric() || "/-_.".contains(c)) =>
        {
            full_id.contains(&f)
        }
        _ => true,
    }
}

/// The criterion settings of every benchmark: 10 samples, 0.2 s of warm-up
/// and 0.8 s of measurement (every iteration is long: a whole list of URLs,
/// about 40 ms for the slow tools), so that the whole suite takes about 15
/// minutes; in quick mode criterion's own quick sampling (stop once the
/// estimate is stable, at most 0.6 s).
pub fn criterion() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(pick(200, 200)))
        .measurement_time(Duration::from_millis(pick(800, 600)))
        .configure_from_args()
}

/// `$ROBOTS_BATCH_DATASETS`, else `../shared/datasets` next to the
/// repository, when it has a `robots` directory.
pub fn datasets() -> Option<PathBuf> {
    let dir = match std::env::var_os("ROBOTS_BATCH_DATASETS") {
        Some(dir) => PathBuf::from(dir),
        None => {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets")
        }
    };
    dir.join("robots").is_dir().then_some(dir)
}

/// The datasets directory, or a message on stderr and `None`.
pub fn datasets_or_skip(bench: &str) -> Option<PathBuf> {
    let dir = datasets();
    if dir.is_none() {
        eprintln!(
            "{bench}: skipping, no robots.txt datasets at \
             ../shared/datasets/robots (set ROBOTS_BATCH_DATASETS to their \
             parent directory); they are not redistributable, so nothing is \
             downloaded"
        );
    }
    dir
}

/// The bytes of `<name>.txt` in the robots directory.
pub fn read_robots(datasets: &Path, name: &str) -> Vec<u8> {
    let path = datasets.join("robots").join(format!("{name}.txt"));
    std::fs::read(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// The lines of a URL list in `urls/` (`\r\n` or `\n` ends), or `None`
/// when the file is missing.
pub fn read_url_list(datasets: &Path, file: &str) -> Option<Vec<Vec<u8>>> {
    let bytes = std::fs::read(datasets.join("urls").join(file)).ok()?;
    let body = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
    Some(
        body.split(|&b| b == b'\n')
            .map(|l| l.strip_suffix(b"\r").unwrap_or(l).to_vec())
            .collect(),
    )
}

/// A matcher of robots-batch for [`AGENT`].
pub fn build(robots: &Robots, kind: EngineKind, dialect: Dialect) -> Matcher {
    MatcherBuilder::new().engine(kind).build(robots, AGENT, dialect)
}

/// Verdicts (true: allowed) of `m` for `urls`.
pub fn verdicts(m: &Matcher, urls: &[Vec<u8>]) -> Vec<bool> {
    let mut scratch = m.scratch();
    urls.iter().map(|u| m.verdict(u, &mut scratch).is_allowed()).collect()
}

/// Disallowed verdicts of `m` over `urls`: what every timed iteration of a
/// robots-batch engine computes and asserts.
#[inline]
pub fn count_disallowed(m: &Matcher, urls: &[Vec<u8>]) -> usize {
    let mut scratch = m.scratch();
    let mut n = 0;
    for u in urls {
        n += usize::from(!m.verdict(u, &mut scratch).is_allowed());
    }
    n
}

/// `false` entries.
pub fn disallowed(v: &[bool]) -> usize {
    v.iter().filter(|&&a| !a).count()
}

/// Panics, after printing the first differences loudly, when two engines'
/// verdicts differ over their common prefix of `urls`.
pub fn assert_same(
    what: &str,
    urls: &[Vec<u8>],
    reference: &str,
    theirs: &[bool],
    engine: &str,
    ours: &[bool],
) {
    assert!(
        !report_mismatch(what, urls, reference, theirs, engine, ours),
        "{what}: the engines disagree, see the URLs above"
    );
}

/// Prints the first URLs on which two engines disagree (over their common
/// prefix of `urls`); true when they do.
pub fn report_mismatch(
    what: &str,
    urls: &[Vec<u8>],
    reference: &str,
    theirs: &[bool],
    engine: &str,
    ours: &[bool],
) -> bool {
    let bad: Vec<usize> = (0..theirs.len().min(ours.len()))
        .filter(|&i| theirs[i] != ours[i])
        .collect();
    if bad.is_empty() {
        return false;
    }
    eprintln!(
        "!!! {what}: ENGINES DISAGREE: {engine} differs from {reference} on \
         {} of {} URLs, e.g.:",
        bad.len(),
        theirs.len().min(ours.len()),
    );
    for &i in bad.iter().take(5) {
        eprintln!(
            "!!!   {:?}: {reference} {}, {engine} {}",
            String::from_utf8_lossy(&urls[i]),
            verdict_name(theirs[i]),
            verdict_name(ours[i]),
        );
    }
    true
}

pub fn verdict_name(allowed: bool) -> &'static str {
    if allowed {
        "allowed"
    } else {
        "disallowed"
    }
}

/// The time one iteration of a slow tool should take.
pub fn iteration_budget() -> Duration {
    Duration::from_millis(pick(40, 10))
}

/// How many URLs `judge` gets through in [`iteration_budget`] (at least 3,
/// at most `urls`), and the seconds it takes per URL, from a trial on the
/// first URLs: up to 200 of them or 100 ms, but at least 3 URLs unless that
/// takes over 2 s (0.5 s in quick mode), so that a tool that takes seconds
/// per URL is measured on more than one when it can be.
pub fn calibrate(
    urls: usize,
    mut judge: impl FnMut(usize) -> bool,
) -> (usize, f64) {
    let start = Instant::now();
    let cap = Duration::from_millis(pick(2_000, 500));
    let mut n = 0;
    while n < urls.min(200) {
        black_box(judge(n));
        n += 1;
        let t = start.elapsed();
        if (t > Duration::from_millis(100) && n >= 3) || t > cap {
            break;
        }
    }
    let per_url = start.elapsed().as_secs_f64() / n.max(1) as f64;
    let fit = (iteration_budget().as_secs_f64() / per_url) as usize;
    (fit.clamp(3, urls.max(3)).min(urls), per_url)
}

// ---------------------------------------------------------------------------
// The peers.

/// texting_robots 0.2: parsed once, a regex per rule.
pub fn texting(robots: &[u8]) -> texting_robots::Robot {
    texting_robots::Robot::new(AGENT, robots).expect("texting_robots parses")
}

/// URLs as `&str` peers take them (invalid UTF-8 replaced).
pub fn lossy(urls: &[Vec<u8>]) -> Vec<String> {
    urls.iter().map(|u| String::from_utf8_lossy(u).into_owned()).collect()
}

/// Disallowed verdicts of texting_robots over `urls`.
#[inline]
pub fn texting_disallowed(
    robot: &texting_robots::Robot,
    urls: &[String],
) -> usize {
    urls.iter().filter(|u| !robot.allowed(u)).count()
}

/// robotstxt 0.3.0 as its users call it: the whole robots.txt is parsed
/// again for every URL (there is no other API).
#[inline]
pub fn robotstxt_allowed(body: &str, url: &str) -> bool {
    robotstxt::DefaultMatcher::default().one_agent_allowed_by_robots(
        body,
        GOOGLE_AGENT,
        url,
    )
}

/// Disallowed verdicts of robotstxt over `urls`.
#[inline]
pub fn robotstxt_disallowed(body: &str, urls: &[String]) -> usize {
    urls.iter().filter(|u| !robotstxt_allowed(body, u)).count()
}

/// robotstxt with its pattern matcher replaced by a faithful port of
/// Google's (`RobotsMatchStrategy::matches` is a provided method, so a
/// strategy can override it): what is left of its disagreements with
/// robots-batch's google dialect is not the matcher's doing.
///
/// robotstxt 0.3.0's `matches` keeps its position set with `Vec::insert`
/// where Google's C++ assigns `pos[i]`, so the set fills with stale and
/// duplicated positions, and it reads the path with `chars().nth()` at byte
/// offsets. Its `$` test looks at the last entry, which after a `*` is no
/// longer the largest: `Disallow: *.gif$` does not match `/x.gif.gif`.
#[derive(Default)]
pub struct GoogleStrategy;

impl robotstxt::matcher::RobotsMatchStrategy for GoogleStrategy {
    fn match_allow(&self, path: &str, pattern: &str) -> i32 {
        if Self::matches(path, pattern) {
            pattern.len() as i32
        } else {
            -1
        }
    }

    fn match_disallow(&self, path: &str, pattern: &str) -> i32 {
        self.match_allow(path, pattern)
    }

    /// Google's `Matches`: a sorted set of the path offsets that the
    /// pattern so far can end at, over bytes.
    fn matches(path: &str, pattern: &str) -> bool {
        let (path, pattern) = (path.as_bytes(), pattern.as_bytes());
        let mut pos: Vec<usize> = vec![0];
        for (i, &c) in pattern.iter().enumerate() {
            if c == b'$' && i + 1 == pattern.len() {
                return pos.last() == Some(&path.len());
            }
            if c == b'*' {
                pos = (pos[0]..=path.len()).collect();
            } else {
                pos.retain(|&p| p < path.len() && path[p] == c);
                for p in &mut pos {
                    *p += 1;
                }
                if pos.is_empty() {
                    return false;
                }
            }
        }
        true
    }
}

/// robotstxt with [`GoogleStrategy`].
pub fn robotstxt_fixed_allowed(body: &str, url: &str) -> bool {
    robotstxt::matcher::RobotsMatcher::<GoogleStrategy>::default()
        .one_agent_allowed_by_robots(body, GOOGLE_AGENT, url)
}

/// Parses `body` as robotstxt does before every verdict, with a handler
/// that does nothing: the part of its per-URL cost that is parsing.
pub fn robotstxt_parse(body: &str) -> usize {
    struct Count(usize);
    impl robotstxt::RobotsParseHandler for Count {
        fn handle_robots_start(&mut self) {}
        fn handle_robots_end(&mut self) {}
        fn handle_user_agent(&mut self, _: u32, _: &str) {
            self.0 += 1;
        }
        fn handle_allow(&mut self, _: u32, _: &str) {
            self.0 += 1;
        }
        fn handle_disallow(&mut self, _: u32, _: &str) {
            self.0 += 1;
        }
        fn handle_sitemap(&mut self, _: u32, _: &str) {}
        fn handle_unknown_action(&mut self, _: u32, _: &str, _: &str) {}
    }
    let mut count = Count(0);
    robotstxt::parse_robotstxt(body, &mut count);
    count.0
}

/// How robotstxt's verdicts compare with robots-batch's google dialect
/// (the `trie` engine, [`GOOGLE_AGENT`]) over the URLs that are valid UTF-8
/// (robotstxt takes `&str`).
///
/// Two bugs of robotstxt 0.3.0 explain its differences:
///
/// * its matcher ([`GoogleStrategy`] explains it): it loses matches of a
///   `*` followed by a literal that occurs more than once in the rest of the
///   path (`Disallow: */login/` does not match `/a/login/`, nor
///   `Disallow: *.gif$` `/x.gif.gif`);
/// * its parser compares the characters of the file with the bytes of the
///   UTF-8 byte order mark (`ch as usize == 0xEF`), so it never skips a BOM
///   (U+FEFF): the first line of a file that starts with one (usually
///   `User-agent: *`) is not recognised and its group's rules are lost;
///   and it skips `ï»¿` (U+00EF U+00BB U+00BF, a BOM decoded as Latin-1
///   and encoded again), which Google's parser keeps as part of the first
///   line's key, so there it finds a group Google does not.
///
/// And it ports an older Google library, in which a `Sitemap` line or a line
/// of unknown key (`Crawl-delay`) ends a group; today's does not (nor does
/// robots-batch's google dialect, which follows it).
///
/// So each URL is also judged by robotstxt with Google's matcher, and, when
/// the file has a BOM or such lines, with Google's matcher on the file
/// rewritten so that robotstxt reads it as today's Google library does
/// ([`as_google_reads`]): what still differs is none of these.
#[derive(Clone, Debug, Default)]
pub struct Agreement {
    /// URLs compared.
    pub compared: usize,
    /// URLs left out: not valid UTF-8.
    pub not_utf8: usize,
    /// Verdicts of stock robotstxt 0.3.0 that differ from ours.
    pub differ: usize,
    /// Of those, the ones on URLs that a rule with `*` before a final `$`
    /// matches (in robots-batch's reading): the example the issue names.
    pub star_dollar: usize,
    /// Verdicts that differ with Google's matcher in robotstxt.
    pub differ_matcher_fixed: usize,
    /// Verdicts that differ with Google's matcher and the file read as
    /// today's Google library reads it.
    pub differ_fixed: usize,
    /// Files (or sites) compared, and those that start with a BOM (or its
    /// Latin-1 reading, `ï»¿`).
    pub files: usize,
    pub files_bom: usize,
    /// A few examples, `url: robotstxt X, fixed Y, robots-batch Z`.
    pub examples: Vec<String>,
    /// robotstxt's disallowed count over the compared URLs.
    pub robotstxt_disallowed: usize,
    /// robots-batch's (google dialect) disallowed count over them.
    pub ours_disallowed: usize,
}

impl Agreement {
    /// Adds `other`'s counts (and examples, up to four).
    pub fn add(&mut self, other: &Agreement) {
        self.compared += other.compared;
        self.not_utf8 += other.not_utf8;
        self.differ += other.differ;
        self.star_dollar += other.star_dollar;
        self.differ_matcher_fixed += other.differ_matcher_fixed;
        self.differ_fixed += other.differ_fixed;
        self.files += other.files;
        self.files_bom += other.files_bom;
        self.robotstxt_disallowed += other.robotstxt_disallowed;
        self.ours_disallowed += other.ours_disallowed;
        for e in &other.examples {
            if self.examples.len() < 4 {
                self.examples.push(e.clone());
            }
        }
    }

    pub fn rate(&self) -> f64 {
        self.differ as f64 / self.compared.max(1) as f64
    }

    pub fn rate_fixed(&self) -> f64 {
        self.differ_fixed as f64 / self.compared.max(1) as f64
    }

    pub fn describe(&self) -> String {
        let pct = |n: usize| 100.0 * n as f64 / self.compared.max(1) as f64;
        format!(
            "{} of {} verdicts differ ({:.3}%; {} URLs not UTF-8 left out), \
             {} of them on URLs a rule with `*` before a final `$` matches; \
             with Google's matcher in robotstxt {} differ ({:.3}%); with the \
             file also read as today's Google library does (BOM: {} of {} \
             files; Sitemap and unknown lines not ending groups) {} differ \
             ({:.3}%)",
            self.differ,
            self.compared,
            pct(self.differ),
            self.not_utf8,
            self.star_dollar,
            self.differ_matcher_fixed,
            pct(self.differ_matcher_fixed),
            self.files_bom,
            self.files,
            self.differ_fixed,
            pct(self.differ_fixed),
        )
    }
}

/// True when `body` starts with a UTF-8 byte order mark, or with its
/// Latin-1 reading `ï»¿`.
fn starts_with_bom(body: &str) -> bool {
    body.starts_with('\u{feff}') || body.starts_with("\u{ef}\u{bb}\u{bf}")
}

/// `body` rewritten so that robotstxt 0.3.0's parser reads it as today's
/// Google library does, or `None` when nothing changes:
///
/// * a byte order mark is removed (robotstxt never skips one), and `ï»¿`
///   (U+00EF U+00BB U+00BF, which robotstxt skips by mistake) is moved off
///   the start of the file by a `\n` before it, so that it stays part of
///   the first line's key, as in Google's parser;
/// * `Sitemap` lines and lines of unknown keys (`Crawl-delay`, `Host`...)
///   are removed: robotstxt 0.3.0 ends a group at them, as Google's library
///   did when it was ported; today's Google library (and robots-batch's
///   google dialect) ignores them, so that in `User-agent: *` /
///   `Crawl-delay: 5` / `User-agent: a` / `Disallow: /` the `Disallow`
///   applies to `*` too.
pub fn as_google_reads(body: &str) -> Option<Cow<'_, str>> {
    use robotstxt::parser::{ParseKeyType, ParsedRobotsKey, RobotsTxtParser};
    let mut text = Cow::Borrowed(body);
    if let Some(rest) = body.strip_prefix('\u{feff}') {
        text = Cow::Borrowed(rest);
    } else if body.starts_with("\u{ef}\u{bb}\u{bf}") {
        text = Cow::Owned(format!("\n{body}"));
    }
    let ignored = |line: &str| {
        let (key, _, ok) = RobotsTxtParser::<NoOp>::parse_key_value(line);
        if !ok {
            return false;
        }
        let mut k = ParsedRobotsKey::default();
        k.parse(key);
        matches!(k.get_type(), ParseKeyType::Sitemap | ParseKeyType::Unknown)
    };
    if text.split(['\n', '\r']).any(ignored) {
        let kept: Vec<&str> =
            text.split(['\n', '\r']).filter(|l| !ignored(l)).collect();
        text = Cow::Owned(kept.join("\n"));
    }
    match text {
        Cow::Borrowed(t) if t.len() == body.len() => None,
        t => Some(t),
    }
}

/// A parse handler that does nothing.
struct NoOp;

impl robotstxt::RobotsParseHandler for NoOp {
    fn handle_robots_start(&mut self) {}
    fn handle_robots_end(&mut self) {}
    fn handle_user_agent(&mut self, _: u32, _: &str) {}
    fn handle_allow(&mut self, _: u32, _: &str) {}
    fn handle_disallow(&mut self, _: u32, _: &str) {}
    fn handle_sitemap(&mut self, _: u32, _: &str) {}
    fn handle_unknown_action(&mut self, _: u32, _: &str, _: &str) {}
}

/// Compares robotstxt with robots-batch's google dialect on `urls`.
pub fn robotstxt_agreement(robots: &[u8], urls: &[Vec<u8>]) -> Agreement {
    robotstxt_agreement_until(robots, urls, None)
}

/// [`robotstxt_agreement`], stopping at `deadline` (after one URL at
/// least).
pub fn robotstxt_agreement_until(
    robots: &[u8],
    urls: &[Vec<u8>],
    deadline: Option<Instant>,
) -> Agreement {
    let body = String::from_utf8_lossy(robots);
    let parsed = Robots::parse(robots);
    let ours =
        MatcherBuilder::new().build(&parsed, GOOGLE_AGENT, Dialect::Google);
    let mut scratch = ours.scratch();
    // The rules with `*` before a final `$`, each alone in a matcher, to
    // tell which URLs they match.
    let star_dollar: Vec<Matcher> = ours
        .rules()
        .filter(|r| {
            let p = r.pattern();
            p.ends_with(b"$") && p[..p.len() - 1].contains(&b'*')
        })
        .map(|r| {
            let text = format!(
                "User-agent: *\nDisallow: {}\n",
                String::from_utf8_lossy(r.pattern())
            );
            Matcher::new(
                &Robots::parse(text.as_bytes()),
                GOOGLE_AGENT,
                Dialect::Google,
            )
        })
        .collect();
    // The file as robotstxt should read it to act as today's Google
    // library does (see `as_google_reads`); `None` when that is the file.
    let today = as_google_reads(&body);
    let mut a = Agreement {
        files: 1,
        files_bom: usize::from(starts_with_bom(&body)),
        ..Agreement::default()
    };
    for url in urls {
        if a.compared > 0 && deadline.is_some_and(|d| Instant::now() > d) {
            break;
        }
        let Ok(s) = std::str::from_utf8(url) else {
            a.not_utf8 += 1;
            continue;
        };
        a.compared += 1;
        let mine = ours.verdict(url, &mut scratch).is_allowed();
        let theirs = robotstxt_allowed(&body, s);
        a.ours_disallowed += usize::from(!mine);
        a.robotstxt_disallowed += usize::from(!theirs);
        let matcher_fixed = robotstxt_fixed_allowed(&body, s);
        let fixed = match &today {
            Some(text) => robotstxt_fixed_allowed(text, s),
            None => matcher_fixed,
        };
        a.differ_matcher_fixed += usize::from(matcher_fixed != mine);
        a.differ_fixed += usize::from(fixed != mine);
        if mine == theirs {
            continue;
        }
        a.differ += 1;
        let hits_star_dollar = star_dollar
            .iter()
            .any(|m| !m.verdict(url, &mut m.scratch()).is_allowed());
        a.star_dollar += usize::from(hits_star_dollar);
        if a.examples.len() < 4 {
            a.examples.push(format!(
                "{s:?}: robotstxt {}, with Google's matcher {}{}, \
                 robots-batch (google) {}",
                verdict_name(theirs),
                verdict_name(matcher_fixed),
                if today.is_some() {
                    format!(
                        " (and the file read as Google does today: {})",
                        verdict_name(fixed)
                    )
                } else {
                    String::new()
                },
                verdict_name(mine),
            ));
        }
    }
    a
}

/// robotstxt against robots-batch's google dialect over the whole dataset,
/// two ways, before any of its speed is quoted:
///
/// * every robots.txt of at most `max_bytes` with `per_file` URLs
///   generated from its own patterns (`sample::urls`, seed 1);
/// * the real links of `urls/anubhavp28_robots_benchmark_site_links.txt`,
///   each with its own site's robots.txt (`<host>.txt`, or the host with or
///   without `www.`), one link in `stride`.
///
/// Each file gets at most `per_file_time` (and one URL at least). Writes
/// the totals as notes and, to `$ROBOTS_BATCH_BENCH_AGREEMENT`, a CSV row
/// per file where any verdict differs.
pub fn corpus_agreement(
    datasets: &Path,
    per_file: usize,
    max_bytes: usize,
    stride: usize,
    per_file_time: Duration,
) {
    let start = Instant::now();
    let files = scan(datasets);
    let mut rows = vec![];
    let mut generated = Agreement::default();
    let (mut with_differ, mut skipped, mut seen) = (0, 0, 0);
    for f in &files {
        if f.bytes > max_bytes {
            skipped += 1;
            continue;
        }
        seen += 1;
        let bytes = read_robots(datasets, &f.name);
        let urls =
            robots_batch::sample::urls(&Robots::parse(&bytes), per_file, SEED);
        let a = robotstxt_agreement_until(
            &bytes,
            &urls,
            Some(Instant::now() + per_file_time),
        );
        if a.differ > 0 || a.differ_matcher_fixed > 0 {
            with_differ += 1;
            rows.push(("generated", f.clone(), a.clone()));
        }
        generated.add(&a);
    }
    note(&format!(
        "robotstxt-agreement/generated: {seen} robots.txt files (of {}; {skipped} \
         over {max_bytes} bytes left out), up to {per_file} URLs each from \
         their own patterns: {}; {with_differ} files with a difference",
        files.len(),
        generated.describe(),
    ));
    for e in &generated.examples {
        note(&format!("robotstxt-agreement/generated:   e.g. {e}"));
    }

    let list = "anubhavp28_robots_benchmark_site_links.txt";
    if let Some(lines) = read_url_list(datasets, list) {
        let names: std::collections::HashSet<&str> =
            files.iter().map(|f| f.name.as_str()).collect();
        let mut by_host: std::collections::BTreeMap<String, Vec<Vec<u8>>> =
            Default::default();
        let mut unmatched = 0;
        for line in lines.into_iter().step_by(stride.max(1)) {
            let host = host_of(&line);
            let found = [
                host.clone(),
                host.strip_prefix("www.").unwrap_or("").to_string(),
                format!("www.{host}"),
            ]
            .into_iter()
            .find(|h| !h.is_empty() && names.contains(h.as_str()));
            match found {
                Some(h) => by_host.entry(h).or_default().push(line),
                None => unmatched += 1,
            }
        }
        let mut real = Agreement::default();
        let mut with_differ = 0;
        for (host, urls) in &by_host {
            let f = files.iter().find(|f| &f.name == host).expect("scanned");
            if f.bytes > max_bytes {
                continue;
            }
            let bytes = read_robots(datasets, host);
            let a = robotstxt_agreement_until(
                &bytes,
                urls,
                Some(Instant::now() + per_file_time),
            );
            if a.differ > 0 || a.differ_matcher_fixed > 0 {
                with_differ += 1;
                rows.push(("real", f.clone(), a.clone()));
            }
            real.add(&a);
        }
        note(&format!(
            "robotstxt-agreement/real: real links with their own site's \
             robots.txt ({} sites; one link in {stride}; {unmatched} links \
             with no robots.txt of their site left out): {}; {with_differ} \
             sites with a difference",
            by_host.len(),
            real.describe(),
        ));
        for e in &real.examples {
            note(&format!("robotstxt-agreement/real:   e.g. {e}"));
        }
    }
    eprintln!("robotstxt-agreement: {:.1?}", start.elapsed());
    if let Some(path) = std::env::var_os("ROBOTS_BATCH_BENCH_AGREEMENT") {
        let mut w = csv::Writer::from_path(&path)
            .unwrap_or_else(|e| panic!("creating {path:?}: {e}"));
        w.write_record([
            "urls",
            "robots",
            "bytes",
            "rules",
            "wildcard_rules",
            "starts_with_bom",
            "compared",
            "differ",
            "star_dollar",
            "differ_matcher_fixed",
            "differ_both_fixed",
        ])
        .expect("writing");
        for (urls, f, a) in rows {
            w.write_record([
                urls.to_string(),
                f.name.clone(),
                f.bytes.to_string(),
                f.rules.to_string(),
                f.wildcards.to_string(),
                (a.files_bom > 0).to_string(),
                a.compared.to_string(),
                a.differ.to_string(),
                a.star_dollar.to_string(),
                a.differ_matcher_fixed.to_string(),
                a.differ_fixed.to_string(),
            ])
            .expect("writing");
        }
        w.flush().expect("writing");
    }
}

/// The host of an absolute URL (`scheme://host[:port]/...`), lowercased;
/// empty when there is none.
fn host_of(url: &[u8]) -> String {
    let s = String::from_utf8_lossy(url);
    let rest = s.split_once("://").map_or("", |(_, r)| r);
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    let host = host.split(':').next().unwrap_or("");
    host.to_ascii_lowercase()
}

// ---------------------------------------------------------------------------
// Inputs of the sweeps.

/// A real robots.txt of the dataset and what robots-batch selects from it
/// for [`AGENT`] under RFC 9309.
#[derive(Clone, Debug)]
pub struct FileInfo {
    /// The file name without `.txt`.
    pub name: String,
    pub bytes: usize,
    pub rules: usize,
    /// Rules whose pattern has a `*`.
    pub wildcards: usize,
}

impl FileInfo {
    pub fn wildcard_share(&self) -> f64 {
        self.wildcards as f64 / self.rules.max(1) as f64
    }
}

/// Every robots.txt of the dataset, parsed once, sorted by name.
pub fn scan(datasets: &Path) -> Vec<FileInfo> {
    let dir = datasets.join("robots");
    let mut files = vec![];
    let entries = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        let Some(name) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".txt"))
        else {
            continue;
        };
        let bytes = std::fs::read(&path)
            .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        let rules =
            RuleSet::select(&Robots::parse(&bytes), AGENT, Dialect::Rfc9309);
        files.push(FileInfo {
            name: name.to_string(),
            bytes: bytes.len(),
            rules: rules.rules().len(),
            wildcards: rules
                .rules()
                .filter(|r| r.pattern().contains(&b'*'))
                .count(),
        });
    }
    files.sort_by(|a, b| a.name.cmp(&b.name));
    files
}

fn log_distance(a: usize, b: usize) -> f64 {
    ((a.max(1) as f64) / (b.max(1) as f64)).ln().abs()
}

/// For each target number of rules, the real files with about that many
/// (within a factor of 1.5, else the nearest): the one with the lowest
/// wildcard share and the one with the highest. Ties go to the number of
/// rules nearest the target, then to the name. No file twice.
pub fn pick_by_rules(files: &[FileInfo], targets: &[usize]) -> Vec<FileInfo> {
    let mut picked: Vec<FileInfo> = vec![];
    for &t in targets {
        let mut window: Vec<&FileInfo> = files
            .iter()
            .filter(|f| f.rules > 0 && log_distance(f.rules, t) <= 1.5f64.ln())
            .collect();
        if window.is_empty() {
            let nearest = files
                .iter()
                .filter(|f| f.rules > 0)
                .min_by(|a, b| {
                    log_distance(a.rules, t)
                        .total_cmp(&log_distance(b.rules, t))
                        .then(a.name.cmp(&b.name))
                })
                .expect("a file with rules");
            window.push(nearest);
        }
        // Lowest share first, then nearest the target, then by name.
        let by = |sign: f64| {
            move |a: &&&FileInfo, b: &&&FileInfo| {
                (sign * a.wildcard_share())
                    .total_cmp(&(sign * b.wildcard_share()))
                    .then(
                        log_distance(a.rules, t)
                            .total_cmp(&log_distance(b.rules, t)),
                    )
                    .then(a.name.cmp(&b.name))
            }
        };
        let lo = window.iter().min_by(by(1.0));
        let hi = window.iter().min_by(by(-1.0));
        for f in [lo, hi].into_iter().flatten() {
            if !picked.iter().any(|p| p.name == f.name) {
                picked.push((*f).clone());
            }
        }
    }
    picked
}

/// For each target size in bytes, a real file of about that size (within a
/// factor of 1.5, else the nearest on a log scale) with a typical number of
/// rules for its size: the median of the window, ties to the size nearest
/// the target, then the name. No file twice.
pub fn pick_by_bytes(files: &[FileInfo], targets: &[usize]) -> Vec<FileInfo> {
    let mut picked: Vec<FileInfo> = vec![];
    for &t in targets {
        let with_rules = files.iter().filter(|f| f.rules > 0);
        let mut window: Vec<&FileInfo> = with_rules
            .clone()
            .filter(|f| log_distance(f.bytes, t) <= 1.5f64.ln())
            .collect();
        if window.is_empty() {
            window.extend(with_rules.min_by(|a, b| {
                log_distance(a.bytes, t)
                    .total_cmp(&log_distance(b.bytes, t))
                    .then(a.name.cmp(&b.name))
            }));
        }
        window.sort_by(|a, b| {
            a.rules
                .cmp(&b.rules)
                .then(
                    log_distance(a.bytes, t)
                        .total_cmp(&log_distance(b.bytes, t)),
                )
                .then(a.name.cmp(&b.name))
        });
        let Some(f) = window.get(window.len() / 2) else { continue };
        if !picked.iter().any(|p| p.name == f.name) {
            picked.push((*f).clone());
        }
    }
    picked
}

/// Words of generated paths.
const WORDS: &[&str] = &[
    "search",
    "cart",
    "account",
    "product",
    "images",
    "api",
    "tag",
    "user",
    "login",
    "print",
    "share",
    "category",
    "filter",
    "sort",
    "page",
    "static",
    "assets",
    "cgi-bin",
    "admin",
    "wp-admin",
    "feeds",
    "ajax",
    "embed",
    "download",
    "help",
    "review",
    "compare",
    "checkout",
    "order",
    "wishlist",
    "gallery",
    "video",
    "news",
    "archive",
    "list",
    "item",
    "shop",
    "store",
    "catalog",
    "brand",
    "offer",
    "deal",
    "promo",
    "track",
    "ref",
    "session",
    "lang",
    "region",
    "en-us",
    "de-de",
    "fr",
    "mobile",
    "amp",
    "print-view",
    "comments",
    "forum",
    "thread",
    "profile",
    "settings",
    "docs",
    "v1",
    "v2",
    "tmp",
    "private",
];
const EXTS: &[&str] = &[
    ".pdf", ".gif", ".jpg", ".php", ".json", ".xml", ".html", ".asp", ".js",
    ".css",
];
const PARAMS: &[&str] = &[
    "sort=",
    "sid=",
    "ref=",
    "page=",
    "q=",
    "filter=",
    "lang=",
    "utm_source=",
];

/// A generated robots.txt: one `User-agent: *` group of `n` distinct rules
/// (a fifth of them `Allow`), of which a `wildcard_share` fraction have a
/// `*` in the shapes real files use (`/*.pdf$`, `/*?sort=`, `/a/*/b`,
/// `*ref=`, `/a*`); the others are literal paths, a few ending in `$`.
pub fn generated_robots(n: usize, wildcard_share: f64, seed: u64) -> Vec<u8> {
    let mut rng = robots_batch::sample::Rng::new(seed);
    let mut out = b"User-agent: *\n".to_vec();
    let wild = (n as f64 * wildcard_share).round() as usize;
    for i in 0..n {
        let key = if rng.one_in(5) { "Allow" } else { "Disallow" };
        let (w1, w2) = (rng.pick(WORDS), rng.pick(WORDS));
        // Wildcard rules spread evenly over the file.
        let is_wild = (i + 1) * wild / n.max(1) > i * wild / n.max(1);
        let pattern = if is_wild {
            match rng.below(6) {
                0 => format!("/{w1}-{i}/*{}$", rng.pick(EXTS)),
                1 => format!("/{w1}/*?{}{i}", rng.pick(PARAMS)),
                2 => format!("/{w1}/*/{w2}-{i}"),
                3 => format!("/{w1}-{i}*"),
                4 => format!("/*/{w1}-{i}/"),
                _ => format!("*{w1}-{i}{}", rng.pick(EXTS)),
            }
        } else {
            match rng.below(10) {
                0 => format!("/{w1}/{w2}-{i}$"),
                1..=3 => format!("/{w1}/{w2}-{i}/"),
                4 => format!("/{w1}-{i}{}", rng.pick(EXTS)),
                5 => format!("/{w1}/{w2}?{}{i}", rng.pick(PARAMS)),
                _ => format!("/{w1}/{w2}-{i}"),
            }
        };
        out.extend_from_slice(format!("{key}: {pattern}\n").as_bytes());
    }
    out
}

/// `count` URLs generated from `robots` whose path (everything after the
/// host) is exactly `len` bytes: generated paths are cut short or extended
/// with more segments of words.
pub fn urls_of_length(
    robots: &Robots,
    count: usize,
    len: usize,
    seed: u64,
) -> Vec<Vec<u8>> {
    const HOST: &[u8] = b"https://example.com";
    let mut rng = robots_batch::sample::Rng::new(seed ^ 0x5eed);
    robots_batch::sample::urls(robots, count, seed)
        .into_iter()
        .map(|u| {
            let mut path = match u.strip_prefix(HOST) {
                Some(p) => p.to_vec(),
                None => match u.iter().position(|&b| b == b'/') {
                    // Other hosts and bare paths: keep the path.
                    Some(i) if !u.starts_with(b"http") => u[i..].to_vec(),
                    _ => b"/".to_vec(),
                },
            };
            while path.len() < len {
                path.push(b'/');
                path.extend_from_slice(rng.pick(WORDS).as_bytes());
            }
            path.truncate(len);
            let mut url = HOST.to_vec();
            url.extend_from_slice(&path);
            url
        })
        .collect()
}

/// `v` in an order drawn from `seed` (Fisher-Yates).
pub fn shuffled<T>(mut v: Vec<T>, seed: u64) -> Vec<T> {
    let mut rng = robots_batch::sample::Rng::new(seed);
    for i in (1..v.len()).rev() {
        v.swap(i, rng.below(i + 1));
    }
    v
}

/// The mean length of the URLs.
pub fn mean_len(urls: &[Vec<u8>]) -> f64 {
    urls.iter().map(Vec::len).sum::<usize>() as f64 / urls.len().max(1) as f64
}

// ---------------------------------------------------------------------------
// What criterion does not record: one row per benchmark in the CSV file
// `$ROBOTS_BATCH_BENCH_META` (appended to; nothing is written when it is
// unset). scripts/bench-suite joins the rows to criterion's estimates by
// `id`, criterion's full benchmark id.

/// One row of the side table. Empty fields are unknown or do not apply.
#[derive(Clone, Debug, Default)]
pub struct Meta {
    /// Criterion's full id: `group/function[/value]`.
    pub id: String,
    /// `compile`, `match` or `e2e`.
    pub kind: &'static str,
    /// What the benchmark sweeps (`site`, `rules`, `rules-real`,
    /// `wildcards`, `url-length`, `file-size`, `threads`, ...).
    pub sweep: &'static str,
    /// The engine or tool.
    pub engine: String,
    pub dialect: &'static str,
    /// The robots.txt: a file name, or `generated`.
    pub robots: String,
    pub robots_bytes: usize,
    pub rules: usize,
    pub wildcard_rules: usize,
    /// The URLs: `generated` (from the file's own patterns), or a list.
    pub urls_from: String,
    /// URLs one iteration judges (lines, for end-to-end runs).
    pub urls: usize,
    /// Their mean length in bytes.
    pub url_mean_len: f64,
    /// Worker threads (end-to-end).
    pub threads: usize,
    /// The counts every iteration asserts.
    pub allowed: usize,
    pub disallowed: usize,
    /// robots-batch's strategy after any fallback.
    pub strategy: String,
    /// robots-batch's automaton bytes (`Matcher::memory_usage`).
    pub automaton_bytes: usize,
    /// Heap bytes the compiled matcher keeps, and the most heap in use
    /// while it was built (both over what was in use before).
    pub heap_bytes: usize,
    pub peak_heap_bytes: usize,
    /// Share of verdicts that differ from robots-batch's (peers only).
    pub differ_rate: Option<f64>,
    /// Nanoseconds per iteration, for the few benchmarks timed here
    /// rather than by criterion (a single iteration of seconds: the median
    /// of three runs); criterion has no estimate for them.
    pub manual_ns: Option<f64>,
    pub note: String,
}

const META_COLUMNS: &[&str] = &[
    "id",
    "kind",
    "sweep",
    "engine",
    "dialect",
    "robots",
    "robots_bytes",
    "rules",
    "wildcard_rules",
    "urls_from",
    "urls",
    "url_mean_len",
    "threads",
    "allowed",
    "disallowed",
    "strategy",
    "automaton_bytes",
    "heap_bytes",
    "peak_heap_bytes",
    "differ_rate",
    "manual_ns",
    "note",
];

impl Meta {
    /// Appends the row to `$ROBOTS_BATCH_BENCH_META`, with a header when
    /// the file is new.
    pub fn record(&self) {
        let Some(path) = std::env::var_os("ROBOTS_BATCH_BENCH_META") else {
            return;
        };
        let new = std::fs::metadata(&path).map_or(true, |m| m.len() == 0);
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .unwrap_or_else(|e| panic!("opening {path:?}: {e}"));
        let mut wtr = csv::Writer::from_writer(file);
        if new {
            wtr.write_record(META_COLUMNS).expect("writing the meta header");
        }
        let num =
            |n: usize| if n == 0 { String::new() } else { n.to_string() };
        wtr.write_record([
            self.id.clone(),
            self.kind.to_string(),
            self.sweep.to_string(),
            self.engine.clone(),
            self.dialect.to_string(),
            self.robots.clone(),
            num(self.robots_bytes),
            self.rules.to_string(),
            self.wildcard_rules.to_string(),
            self.urls_from.clone(),
            num(self.urls),
            if self.url_mean_len > 0.0 {
                format!("{:.1}", self.url_mean_len)
            } else {
                String::new()
            },
            num(self.threads),
            self.allowed.to_string(),
            self.disallowed.to_string(),
            self.strategy.clone(),
            num(self.automaton_bytes),
            num(self.heap_bytes),
            num(self.peak_heap_bytes),
            self.differ_rate.map_or(String::new(), |r| format!("{r:.6}")),
            self.manual_ns.map_or(String::new(), |r| format!("{r:.0}")),
            self.note.clone(),
        ])
        .expect("writing a meta row");
        wtr.flush().expect("flushing the meta file");
    }
}

/// A row describing `robots` and its rules for [`AGENT`].
pub fn meta_for(robots_name: &str, bytes: &[u8]) -> Meta {
    let rules =
        RuleSet::select(&Robots::parse(bytes), AGENT, Dialect::Rfc9309);
    Meta {
        robots: robots_name.to_string(),
        robots_bytes: bytes.len(),
        rules: rules.rules().len(),
        wildcard_rules: rules
            .rules()
            .filter(|r| r.pattern().contains(&b'*'))
            .count(),
        ..Meta::default()
    }
}

/// Appends a line to the text file `$ROBOTS_BATCH_BENCH_NOTES` (the run's
/// findings, such as peers' disagreements), and prints it.
pub fn note(line: &str) {
    eprintln!("{line}");
    if let Some(path) = std::env::var_os("ROBOTS_BATCH_BENCH_NOTES") {
        let mut f = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .unwrap_or_else(|e| panic!("opening {path:?}: {e}"));
        writeln!(f, "{line}").expect("writing a note");
    }
}

// ---------------------------------------------------------------------------
// Heap use: a counting allocator, installed only by the compile benchmark
// (it would add an atomic operation to every allocation that is timed).

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// The system allocator, counting the bytes in use and their peak.
pub struct CountingAlloc;

// SAFETY: every call is forwarded to the system allocator unchanged; the
// counters are only read by `heap_use`.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's layout.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's layout.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's pointer and layout.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(
        &self,
        ptr: *mut u8,
        layout: Layout,
        new_size: usize,
    ) -> *mut u8 {
        // SAFETY: forwarded with the caller's pointer, layout and size.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            grow(new_size);
        }
        p
    }
}

fn grow(n: usize) {
    let live = LIVE.fetch_add(n, Ordering::Relaxed) + n;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

/// Runs `f` and returns its value, the heap bytes still in use after it
/// (what the value keeps, when `f` frees its temporaries) and the most in
/// use while it ran, both over what was in use before. Meaningful only with
/// [`CountingAlloc`] installed and no other thread allocating.
pub fn heap_use<T>(f: impl FnOnce() -> T) -> (T, usize, usize) {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let value = f();
    let after = LIVE.load(Ordering::Relaxed);
    let peak = PEAK.load(Ordering::Relaxed);
    (value, after.saturating_sub(before), peak.saturating_sub(before))
}

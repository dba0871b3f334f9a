//! Criterion benchmarks end to end: a file of URLs, one per line, to CSV
//! rows (`url,verdict`) written to `/dev/null`, through the library's
//! [`Batch`] pipeline, against the physical floor and the peers on the same
//! file.
//!
//! Group `e2e/<input>/<tool>` (throughput in lines), inputs:
//!
//! * `amazon.com`, `ebay.com`: 200,000 URLs (50,000 in quick mode)
//!   generated from the file's own patterns (`sample::urls`, seed 1),
//!   written to a temporary file;
//! * `ebay.com+real-urls`: ebay.com's rules over the 111,824 real links of
//!   `urls/anubhavp28_robots_benchmark_site_links.txt`, read in place.
//!
//! Tools:
//!
//! * `floor-memchr`: read the file in 64 KiB blocks and count its lines
//!   with `memchr` (no verdicts, no output): the floor of any line-based
//!   tool;
//! * `wc-l`: `wc -l FILE` as a process (its start included);
//! * `robots-batch-j1`, `robots-batch-j2`, ...: `Batch::run` over a file with one
//!   `trie` matcher (RFC 9309, agent `*`), `CsvRender` and a sink writing to
//!   `/dev/null`, with 1, 2 and (if more) all worker threads; the file is
//!   read, not mapped (the library's default);
//! * `robots-batch-google-j1`: the same in the google dialect, the one to
//!   compare robotstxt with;
//! * `texting_robots`, `robotstxt`: the same work done the way a user of
//!   each peer would do it (read the file, a verdict per line, a CSV row
//!   per line into a 64 KiB buffer on `/dev/null`), on a file of every k-th
//!   line sized for an iteration of about 40 ms (10 in quick mode), as they
//!   are slow: throughput is per line, so the figures still compare.
//!
//! Every iteration asserts the number of lines and of disallowed verdicts:
//! robots-batch's against the library's verdicts over the same URLs in
//! memory (checked first against the naive engine on a prefix), the
//! floors' against the newline count, the peers' against their own count
//! measured before timing.
//!
//! Run: `cargo bench --bench e2e` (add `-- --quick`, or a filter).

mod common;

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

use criterion::{BenchmarkId, Criterion, Throughput};
use robots_batch::{
    BatchBuilder, CsvRender, Dialect, EngineKind, Lines, Matcher,
    MatcherWorker, Robots, Stats,
};

use common::{Meta, SEED};

/// A file of URL lines and the robots.txt to judge them by.
struct Input {
    /// The criterion group's last part.
    name: String,
    robots_name: String,
    robots: Vec<u8>,
    urls_from: String,
    file: PathBuf,
}

/// A temporary directory, removed on drop.
struct Work(PathBuf);

impl Drop for Work {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn main() {
    let Some(datasets) = common::datasets_or_skip("e2e") else {
        return;
    };
    let base = std::env::var_os("ROBOTS_BATCH_BENCH_WORK")
        .map_or_else(std::env::temp_dir, PathBuf::from);
    let work =
        Work(base.join(format!("robots-batch-e2e-{}", std::process::id())));
    std::fs::create_dir_all(&work.0)
        .unwrap_or_else(|e| panic!("creating {}: {e}", work.0.display()));
    let mut c = common::criterion();
    let count = common::pick(200_000, 50_000);

    let mut inputs = vec![];
    for site in ["amazon.com", "ebay.com"] {
        let robots = common::read_robots(&datasets, site);
        let urls =
            robots_batch::sample::urls(&Robots::parse(&robots), count, SEED);
        let file = work.0.join(format!("{site}.urls"));
        write_lines(&file, &urls);
        inputs.push(Input {
            name: site.to_string(),
            robots_name: site.to_string(),
            robots,
            urls_from: "generated".to_string(),
            file,
        });
    }
    let list = "anubhavp28_robots_benchmark_site_links.txt";
    let real = datasets.join("urls").join(list);
    if real.is_file() {
        inputs.push(Input {
            name: "ebay.com+real-urls".to_string(),
            robots_name: "ebay.com".to_string(),
            robots: common::read_robots(&datasets, "ebay.com"),
            urls_from: list.to_string(),
            file: real,
        });
    } else {
        eprintln!("e2e: no urls/{list}: skipping ebay.com+real-urls");
    }
    for input in &inputs {
        bench_input(&mut c, input, &work.0);
    }
    c.final_summary();
}

fn write_lines(path: &Path, lines: &[Vec<u8>]) {
    let f = File::create(path)
        .unwrap_or_else(|e| panic!("creating {}: {e}", path.display()));
    let mut w = BufWriter::new(f);
    for l in lines {
        w.write_all(l)
            .and_then(|()| w.write_all(b"\n"))
            .expect("writing URLs");
    }
    w.flush().expect("writing URLs");
}

/// The lines of a file as the library cuts them (`\r\n` or `\n` ends).
fn read_lines(path: &Path) -> Vec<Vec<u8>> {
    let bytes = std::fs::read(path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let body = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
    if bytes.is_empty() {
        return vec![];
    }
    body.split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l).to_vec())
        .collect()
}

/// `/dev/null` for writing, where there is one.
fn null() -> Box<dyn Write> {
    match File::create("/dev/null") {
        Ok(f) => Box::new(f),
        Err(_) => Box::new(io::sink()),
    }
}

/// The newlines of a file, counted with memchr over 64 KiB blocks.
fn memchr_lines(path: &Path) -> usize {
    let mut f = File::open(path).expect("opening the URL file");
    let mut buf = vec![0u8; 1 << 16];
    let mut n = 0;
    loop {
        let got = f.read(&mut buf).expect("reading the URL file");
        if got == 0 {
            return n;
        }
        n += memchr::memchr_iter(b'\n', &buf[..got]).count();
    }
}

/// `wc -l FILE`'s count, or `None` when there is no `wc`.
fn wc_lines(path: &Path) -> Option<usize> {
    let out = Command::new("wc").arg("-l").arg(path).output().ok()?;
    if !out.status.success() {
        return None;
    }
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// What a peer's user would write: every line of `path` judged by
/// `allowed`, a CSV row per line; returns the disallowed count.
fn peer_run(path: &Path, mut allowed: impl FnMut(&str) -> bool) -> usize {
    let bytes = std::fs::read(path).expect("reading the URL file");
    let mut w = BufWriter::with_capacity(1 << 16, null());
    let mut disallowed = 0;
    let body = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
    if !bytes.is_empty() {
        for line in body.split(|&b| b == b'\n') {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            let ok = allowed(&String::from_utf8_lossy(line));
            disallowed += usize::from(!ok);
            w.write_all(line).expect("writing");
            w.write_all(if ok { b",allowed\n" } else { b",disallowed\n" })
                .expect("writing");
        }
    }
    w.flush().expect("writing");
    disallowed
}

/// The tools and the threads of `robots-batch-jN`: 1, 2 and all.
fn thread_counts() -> Vec<usize> {
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut v = vec![1, 2, all];
    v.sort_unstable();
    v.dedup();
    v
}

fn bench_input(c: &mut Criterion, input: &Input, work: &Path) {
    let group_name = format!("e2e/{}", input.name);
    let robots = Robots::parse(&input.robots);
    let lines = read_lines(&input.file);
    let newlines = memchr_lines(&input.file);
    let trie = common::build(&robots, EngineKind::Trie, Dialect::Rfc9309);
    let google = common::build(&robots, EngineKind::Trie, Dialect::Google);
    let verdicts = common::verdicts(&trie, &lines);
    let expected = common::disallowed(&verdicts);
    let google_expected = common::count_disallowed(&google, &lines);
    // The library's verdicts, checked against the reference.
    let naive = common::build(&robots, EngineKind::Naive, Dialect::Rfc9309);
    let naive_n = {
        let mut scratch = naive.scratch();
        common::calibrate(lines.len(), |i| {
            naive.verdict(&lines[i], &mut scratch).is_allowed()
        })
        .0 * 10
    }
    .min(lines.len());
    let reference = common::verdicts(&naive, &lines[..naive_n]);
    common::assert_same(
        &group_name,
        &lines,
        "naive",
        &reference,
        "trie",
        &verdicts,
    );

    // The peers' prefixes and their own counts.
    let texting = common::texting(&input.robots);
    let body = String::from_utf8_lossy(&input.robots).into_owned();
    let strs = common::lossy(&lines);
    let (texting_n, _) =
        common::calibrate(lines.len(), |i| texting.allowed(&strs[i]));
    let (robotstxt_n, _) = common::calibrate(lines.len(), |i| {
        common::robotstxt_allowed(&body, &strs[i])
    });
    // The peers' files: every k-th line, so that a list grouped by site
    // (the real one) is sampled fairly.
    let sample = |n: usize| -> Vec<Vec<u8>> {
        let step = lines.len() / n.max(1);
        lines.iter().step_by(step.max(1)).take(n).cloned().collect()
    };
    let prefix = |n: usize, tool: &str| -> PathBuf {
        let path = work.join(format!("{}.{tool}.{n}.urls", input.name));
        write_lines(&path, &sample(n));
        path
    };
    let texting_file = prefix(texting_n, "texting");
    let robotstxt_file = prefix(robotstxt_n, "robotstxt");
    let texting_expected = peer_run(&texting_file, |u| texting.allowed(u));
    let robotstxt_expected =
        peer_run(&robotstxt_file, |u| common::robotstxt_allowed(&body, u));
    let ours_texting = common::count_disallowed(&trie, &sample(texting_n));
    let ours_robotstxt =
        common::count_disallowed(&google, &sample(robotstxt_n));
    common::note(&format!(
        "{group_name}: {} lines, robots-batch disallows {expected} (google \
         dialect {google_expected}); texting_robots {texting_expected} of \
         {texting_n} lines sampled evenly (robots-batch {ours_texting}); \
         robotstxt {robotstxt_expected} of {robotstxt_n} (robots-batch \
         google {ours_robotstxt})",
        lines.len(),
    ));

    let mut meta = common::meta_for(&input.robots_name, &input.robots);
    meta.kind = "e2e";
    meta.urls_from = input.urls_from.clone();
    meta.url_mean_len = common::mean_len(&lines);

    let mut group = c.benchmark_group(&group_name);
    let full = |tool: &str| format!("{group_name}/{tool}");
    let row = |tool: &str, sweep: &'static str, n: usize, dis: usize| Meta {
        id: full(tool),
        sweep,
        engine: tool.to_string(),
        urls: n,
        allowed: n - dis,
        disallowed: dis,
        ..meta.clone()
    };

    group.throughput(Throughput::Elements(lines.len() as u64));
    let mut m = row("floor-memchr", "floor", lines.len(), 0);
    m.dialect = "";
    m.record();
    group.bench_function(BenchmarkId::from_parameter("floor-memchr"), |b| {
        b.iter(|| assert_eq!(memchr_lines(&input.file), newlines))
    });
    if wc_lines(&input.file) == Some(newlines) {
        let mut m = row("wc-l", "floor", lines.len(), 0);
        m.dialect = "";
        m.record();
        group.bench_function(BenchmarkId::from_parameter("wc-l"), |b| {
            b.iter(|| assert_eq!(wc_lines(&input.file), Some(newlines)))
        });
    } else {
        eprintln!("{group_name}: no usable `wc -l`: skipping wc-l");
    }

    let mut runs: Vec<(String, &Matcher, usize, usize, &'static str)> = vec![];
    for j in thread_counts() {
        runs.push((
            format!("robots-batch-j{j}"),
            &trie,
            j,
            expected,
            "rfc9309",
        ));
    }
    runs.push((
        "robots-batch-google-j1".to_string(),
        &google,
        1,
        google_expected,
        "google",
    ));
    for (tool, matcher, threads, dis, dialect) in runs {
        let batch =
            BatchBuilder::new().threads(threads).build().expect("threads");
        let mut m = row(&tool, "threads", lines.len(), dis);
        m.dialect = dialect;
        m.threads = threads;
        m.strategy = matcher.strategy().to_string();
        m.automaton_bytes = matcher.memory_usage();
        m.record();
        let matchers = std::slice::from_ref(matcher);
        let n = lines.len() as u64;
        group.bench_function(BenchmarkId::from_parameter(&tool), |b| {
            b.iter(|| {
                let file = File::open(&input.file).expect("opening URLs");
                let mut out = null();
                let stats = batch
                    .run(
                        Lines::File(&file),
                        || MatcherWorker::new(matchers, CsvRender::new()),
                        |chunk: &[u8], _: &Stats| out.write_all(chunk),
                    )
                    .expect("the batch runs");
                assert_eq!(stats.lines(), n, "{tool}: lines");
                assert_eq!(
                    stats.disallowed(),
                    dis as u64,
                    "{tool}: disallowed"
                );
            })
        });
    }

    group.throughput(Throughput::Elements(texting_n as u64));
    let mut m = row("texting_robots", "peer", texting_n, texting_expected);
    m.dialect = "texting_robots";
    m.differ_rate = None;
    m.record();
    group.bench_function(BenchmarkId::from_parameter("texting_robots"), |b| {
        b.iter(|| {
            let d = peer_run(&texting_file, |u| texting.allowed(u));
            assert_eq!(d, texting_expected, "texting_robots: disallowed");
        })
    });
    group.throughput(Throughput::Elements(robotstxt_n as u64));
    let mut m = row("robotstxt", "peer", robotstxt_n, robotstxt_expected);
    m.dialect = "google";
    m.record();
    group.bench_function(BenchmarkId::from_parameter("robotstxt"), |b| {
        b.iter(|| {
            let d = peer_run(&robotstxt_file, |u| {
                common::robotstxt_allowed(&body, u)
            });
            assert_eq!(d, robotstxt_expected, "robotstxt: disallowed");
        })
    });
    group.finish();
}

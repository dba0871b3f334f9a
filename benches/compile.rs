//! Criterion benchmarks of compilation: robots.txt bytes to something that
//! gives verdicts, its time, and the memory the result keeps.
//!
//! Groups (throughput in robots.txt bytes):
//!
//! * `compile/<site>/<engine>`: four real files (a median one, amazon.com,
//!   ebay.com, docs.oracle.com), RFC 9309, agent `*`.
//! * `compile-size/<engine>/<bytes>-<file>`: real files picked by size,
//!   about 100 bytes to 1 MB.
//!
//! Engines: robots-batch's `trie` (default), `dense`, `lazy` and `naive`
//! (parse, group selection, compilation: `Robots::parse` then
//! `MatcherBuilder::build`); `texting_robots` (`Robot::new`: parse and a
//! regex per rule); `robotstxt-parse` (robotstxt 0.3.0 has no compiled
//! form: it parses the whole file again for every URL it judges, so its
//! parse, here with a handler that does nothing, is a cost per URL).
//!
//! Memory: the bench binary counts heap allocations. For each benchmark,
//! one build before timing records the heap bytes the result keeps and the
//! most heap in use while it was built (the side table's `heap_bytes` and
//! `peak_heap_bytes`), besides robots-batch's own figure for the automaton
//! (`Matcher::memory_usage`, `automaton_bytes`).
//!
//! A build that takes more than a second (the dense DFA on ebay.com and
//! docs.oracle.com) is timed outside criterion, as the median of three
//! builds (one in quick mode), recorded in the side table's `manual_ns`:
//! ten samples of it would take minutes. Quick mode leaves the dense DFA
//! out of the size sweep.
//!
//! Checks: every engine of robots-batch must select the same number of
//! rules, asserted in every iteration; robotstxt's parse must report the
//! same number of user-agent, allow and disallow lines in every iteration
//! (where that differs from robots-batch's count, the run notes it).
//!
//! Run: `cargo bench --bench compile` (add `-- --quick`, or a filter).

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, SamplingMode, Throughput};
use robots_batch::{robots::LineKind, Dialect, EngineKind, Robots};

use common::CountingAlloc;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

#[derive(Clone, Copy, Debug, Eq, PartialEq)]
enum Tool {
    Ours(EngineKind),
    Texting,
    RobotstxtParse,
}

impl Tool {
    fn name(self) -> &'static str {
        match self {
            Tool::Ours(kind) => kind.name(),
            Tool::Texting => "texting_robots",
            Tool::RobotstxtParse => "robotstxt-parse",
        }
    }
}

const TOOLS: [Tool; 6] = [
    Tool::Ours(EngineKind::Trie),
    Tool::Ours(EngineKind::Dense),
    Tool::Ours(EngineKind::Lazy),
    Tool::Ours(EngineKind::Naive),
    Tool::Texting,
    Tool::RobotstxtParse,
];

fn main() {
    let Some(datasets) = common::datasets_or_skip("compile") else {
        return;
    };
    let mut c = common::criterion();
    for site in
        ["www.nytimes.com", "amazon.com", "ebay.com", "docs.oracle.com"]
    {
        let bytes = common::read_robots(&datasets, site);
        let mut group = c.benchmark_group(format!("compile/{site}"));
        bench_file(&mut group, &format!("compile/{site}"), site, &bytes, None);
        group.finish();
    }

    let files = common::scan(&datasets);
    let targets = common::pick(
        vec![
            100, 300, 1_000, 3_000, 10_000, 30_000, 100_000, 300_000,
            1_000_000,
        ],
        vec![100, 1_000, 10_000, 100_000, 1_000_000],
    );
    let mut group = c.benchmark_group("compile-size");
    for f in common::pick_by_bytes(&files, &targets) {
        let bytes = common::read_robots(&datasets, &f.name);
        let param = format!("{}-{}", f.bytes, f.name);
        bench_file(&mut group, "compile-size", &f.name, &bytes, Some(param));
    }
    group.finish();
    c.final_summary();
}

fn bench_file(
    group: &mut criterion::BenchmarkGroup<
        '_,
        criterion::measurement::WallTime,
    >,
    group_name: &str,
    name: &str,
    bytes: &[u8],
    param: Option<String>,
) {
    // PERF: a dense compile of a large or wildcard-heavy file takes
    // seconds: one iteration per sample.
    group.sampling_mode(SamplingMode::Flat);
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    let rules = common::build(
        &Robots::parse(bytes),
        EngineKind::Naive,
        Dialect::Rfc9309,
    )
    .rules()
    .len();
    let robots = Robots::parse(bytes);
    // Lines robotstxt's parse must report: user-agent, allow and disallow.
    let lines = robots
        .lines()
        .iter()
        .filter(|l| {
            matches!(
                l.kind(),
                LineKind::UserAgent | LineKind::Allow | LineKind::Disallow
            )
        })
        .count();
    let body = String::from_utf8_lossy(bytes).into_owned();
    // robotstxt's own count, which each of its iterations asserts; it may
    // accept other typos than robots-batch.
    let their_lines = common::robotstxt_parse(&body);
    if their_lines != lines {
        common::note(&format!(
            "{group_name}: {name}: robotstxt reports {their_lines} \
             user-agent/allow/disallow lines, robots-batch parses {lines}"
        ));
    }
    for tool in TOOLS {
        // Quick mode sweeps without the dense DFA (seconds per compile).
        if param.is_some()
            && common::quick()
            && tool == Tool::Ours(EngineKind::Dense)
        {
            continue;
        }
        let full_id = match &param {
            Some(p) => format!("{group_name}/{}/{p}", tool.name()),
            None => format!("{group_name}/{}", tool.name()),
        };
        let id = match &param {
            Some(p) => BenchmarkId::new(tool.name(), p),
            None => BenchmarkId::from_parameter(tool.name()),
        };
        if !common::selected(&full_id) {
            continue;
        }
        let mut meta = record(&full_id, tool, name, bytes, &body);
        // PERF: a dense compile of a large or wildcard-heavy file takes
        // seconds; ten samples of it would take minutes. Those are timed
        // here, outside criterion: three builds (one in quick mode).
        if meta.1 > SLOW {
            let mut times = vec![meta.1];
            for _ in 0..common::pick(2, 0) {
                times.push(time_once(tool, bytes, &body));
            }
            times.sort();
            let median = times[times.len() / 2];
            meta.0.manual_ns = Some(median.as_nanos() as f64);
            meta.0.note = format!(
                "timed outside criterion: median of {} builds ({})",
                times.len(),
                times
                    .iter()
                    .map(|t| format!("{t:.2?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            eprintln!("{full_id}: {}", meta.0.note);
            meta.0.record();
            continue;
        }
        meta.0.record();
        group.bench_function(id, |b| match tool {
            Tool::Ours(kind) => b.iter(|| {
                let robots = Robots::parse(black_box(bytes));
                let m = common::build(&robots, kind, Dialect::Rfc9309);
                assert_eq!(m.rules().len(), rules, "{full_id}: rules");
                m
            }),
            Tool::Texting => b.iter(|| common::texting(black_box(bytes))),
            Tool::RobotstxtParse => b.iter(|| {
                let n = common::robotstxt_parse(black_box(&body));
                assert_eq!(n, their_lines, "{full_id}: lines");
            }),
        });
    }
}

/// One build longer than this is timed outside criterion.
const SLOW: Duration = Duration::from_secs(1);

/// One build, timed.
fn time_once(tool: Tool, bytes: &[u8], body: &str) -> Duration {
    let start = Instant::now();
    match tool {
        Tool::Ours(kind) => {
            let robots = Robots::parse(black_box(bytes));
            black_box(common::build(&robots, kind, Dialect::Rfc9309));
        }
        Tool::Texting => {
            black_box(common::texting(black_box(bytes)));
        }
        Tool::RobotstxtParse => {
            black_box(common::robotstxt_parse(black_box(body)));
        }
    }
    start.elapsed()
}

/// Builds once, measuring the heap and the time: the side-table row and
/// the time of that build.
fn record(
    id: &str,
    tool: Tool,
    name: &str,
    bytes: &[u8],
    body: &str,
) -> (common::Meta, Duration) {
    let start = Instant::now();
    let mut m = common::meta_for(name, bytes);
    m.id = id.to_string();
    m.kind = "compile";
    m.sweep =
        if id.starts_with("compile-size/") { "file-size" } else { "site" };
    m.engine = tool.name().to_string();
    m.dialect = match tool {
        Tool::Ours(_) => "rfc9309",
        Tool::Texting => "texting_robots",
        Tool::RobotstxtParse => "google",
    };
    match tool {
        Tool::Ours(kind) => {
            let (matcher, heap, peak) = common::heap_use(|| {
                common::build(&Robots::parse(bytes), kind, Dialect::Rfc9309)
            });
            m.strategy = matcher.strategy().to_string();
            m.automaton_bytes = matcher.memory_usage();
            m.heap_bytes = heap;
            m.peak_heap_bytes = peak;
            eprintln!(
                "{id}: strategy {}, {} rules, {} automaton bytes, {heap} heap \
                 bytes kept, {peak} at the peak",
                matcher.strategy(),
                matcher.rules().len(),
                matcher.memory_usage(),
            );
        }
        Tool::Texting => {
            let (robot, heap, peak) =
                common::heap_use(|| common::texting(bytes));
            drop(robot);
            m.heap_bytes = heap;
            m.peak_heap_bytes = peak;
        }
        Tool::RobotstxtParse => {
            let (_, heap, peak) =
                common::heap_use(|| common::robotstxt_parse(body));
            m.heap_bytes = heap;
            m.peak_heap_bytes = peak;
            m.note = "parse only; robotstxt repeats it for every URL".into();
        }
    }
    (m, start.elapsed())
}

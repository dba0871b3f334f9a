//! What one new origin of a crawl log costs, file by file: the input of
//! `scripts/bench-origin-cost`.
//!
//! Usage: `origin_cost ROBOTS_DIR NAMES [AGENT [REPS]]`
//!
//! For each file name in `NAMES` (one a line, `<host>.txt` in
//! `ROBOTS_DIR`), prints `name,bytes,read_ns,pass_ns,first_ns`, each the
//! best of `REPS` (default 20) timings in this process:
//!
//! * `read_ns`: opening and reading the file (from the page cache);
//! * `pass_ns`: one pass over its bytes (`memchr` counting its lines), the
//!   floor of any parser;
//! * `first_ns`: what `robots-batch crawl` does for an origin's first URL
//!   once the body is read, when no other URL of the origin follows it:
//!   parse it, select `AGENT`'s groups (default `BenchBot`) with Google's
//!   semantics, and judge `http://<host>/` by the rules alone;
//! * `built_ns`: the same with the `scan` matcher built from the rules
//!   and judging, as for an origin whose next URL follows.

use std::hint::black_box;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Context;
use robots_batch::{Dialect, EngineKind, MatcherBuilder, Robots, RuleSet};

/// The best of `reps` timings of `f`.
fn best<T>(reps: usize, mut f: impl FnMut() -> T) -> Duration {
    (0..reps.max(1))
        .map(|_| {
            let start = Instant::now();
            black_box(f());
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 || args.len() > 4 {
        anyhow::bail!("usage: origin_cost ROBOTS_DIR NAMES [AGENT [REPS]]");
    }
    let dir = Path::new(&args[0]);
    let names = std::fs::read_to_string(&args[1])
        .with_context(|| format!("cannot read {}", args[1]))?;
    let agent = args.get(2).map_or("BenchBot", String::as_str);
    let reps: usize = match args.get(3) {
        Some(r) => r.parse().context("REPS is a number")?,
        None => 20,
    };
    let mut builder = MatcherBuilder::new();
    builder.engine(EngineKind::Scan);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    writeln!(out, "name,bytes,read_ns,pass_ns,first_ns,built_ns")?;
    for name in names.lines().filter(|n| !n.is_empty()) {
        let path = dir.join(name);
        let body = std::fs::read(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let host = name.strip_suffix(".txt").unwrap_or(name);
        let url = format!("http://{host}/");
        let read = best(reps, || std::fs::read(&path).map(|b| b.len()));
        let pass = best(reps, || memchr::memchr_iter(b'\n', &body).count());
        let mut buf = vec![];
        let first = best(reps, || {
            let robots = Robots::parse_with_limit(&body, 0);
            let rules = RuleSet::select(&robots, agent, Dialect::Google);
            let path = Dialect::Google.path(url.as_bytes(), &mut buf);
            rules.verdict_path(path).is_allowed()
        });
        let built = best(reps, || {
            let robots = Robots::parse_with_limit(&body, 0);
            let matcher = builder.build(&robots, agent, Dialect::Google);
            let mut scratch = matcher.scratch();
            matcher.verdict(url.as_bytes(), &mut scratch).is_allowed()
        });
        writeln!(
            out,
            "{name},{},{},{},{},{}",
            body.len(),
            read.as_nanos(),
            pass.as_nanos(),
            first.as_nanos(),
            built.as_nanos()
        )?;
    }
    out.flush()?;
    Ok(())
}

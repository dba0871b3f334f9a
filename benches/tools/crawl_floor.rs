//! The floor of a crawl log: what its pieces cost on their own, the input
//! of the floor table of `scripts/bench-crawl-peers`.
//!
//! Usage: `crawl_floor ROBOTS_DIR LOG [AGENT [REPS]]`
//!
//! The log holds one URL a line; a URL's host `H` has its robots.txt in
//! `ROBOTS_DIR/H.txt` (a host without one is allowed everything, as with
//! `--on-missing allow`). Prints one line of `key=value` pairs, each time
//! the best of `REPS` (default 5) in this process, in nanoseconds:
//!
//! * `read_ns`: the log read, each line's host found and looked up, each
//!   host's file read when the host is first met, and a row per URL
//!   written to memory: what any tool does, without parsing or judging;
//! * `pass_ns`: one pass over every file read (`memchr` counting its
//!   lines), the floor of any parser;
//! * `parse_ns`: every file parsed and `AGENT`'s groups selected (default
//!   `BenchBot`, Google's semantics), as robots-batch does for a new host;
//! * `chosen_ns`: for each host, the cheapest of three ways to judge its
//!   URLs (taken together): by its rules alone, by a `scan` matcher built
//!   for them, by a compiled matcher built for them, building included;
//!   summed over the hosts;
//! * up to 20,000 hosts, `rules_ns`, `scan_ns`, `compiled_ns`: every URL
//!   judged in the log's order by its host's rules alone, `scan` matcher
//!   and compiled matcher, all built beforehand and not counted;
//!
//! and `urls`, `hosts` (those with a file) and `disallowed` (every way of
//! judging must agree). `read + parse + chosen` is what a tool made of
//! these pieces could take at best, if finding each URL's host and its
//! rules, and everything else, cost nothing; `read + pass`, what any tool
//! could.

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Context;
use robots_batch::{
    Dialect, EngineKind, Matcher, MatcherBuilder, Robots, RuleSet,
};

/// The best of `reps` timings of `f`, and its last result.
fn best<T>(reps: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut fastest = Duration::MAX;
    let mut last = None;
    for _ in 0..reps.max(1) {
        let start = Instant::now();
        let got = black_box(f());
        fastest = fastest.min(start.elapsed());
        last = Some(got);
    }
    (fastest, last.expect("at least one timing"))
}

/// The host of a URL (between `://` and the next `/`, `?` or `#`), or the
/// empty slice.
fn host_of(url: &[u8]) -> &[u8] {
    let rest = if let Some(rest) = url.strip_prefix(b"https://") {
        rest
    } else if let Some(rest) = url.strip_prefix(b"http://") {
        rest
    } else {
        match memchr::memmem::find(url, b"://") {
            Some(at) => &url[at + 3..],
            None => return b"",
        }
    };
    let end = rest
        .iter()
        .position(|&b| matches!(b, b'/' | b'?' | b'#'))
        .unwrap_or(rest.len());
    &rest[..end]
}

/// What one read of the log gives: each host met, with the index of its
/// body (`None` when it has no file), the bodies if kept, and how many
/// files were read.
struct Read {
    hosts: ahash::AHashMap<Vec<u8>, Option<u32>>,
    bodies: Vec<Vec<u8>>,
    files: u32,
}

/// A file whole, in as few system calls as it takes: open, one read into
/// `buf`, which holds most robots.txt files whole, close (a short read
/// taken for the end, which a regular file gives). Returns a copy of the
/// body if `keep`.
fn read_file(
    path: &Path,
    buf: &mut [u8],
    keep: bool,
) -> std::io::Result<Option<Vec<u8>>> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let n = file.read(buf)?;
    if n < buf.len() {
        return Ok(keep.then(|| buf[..n].to_vec()));
    }
    let mut body = buf.to_vec();
    file.read_to_end(&mut body)?;
    Ok(keep.then_some(body))
}

/// The log read, each line's host found and looked up, each new host's
/// file read, a row per URL written (into a buffer that is emptied as a
/// writer would flush it). Unless `keep`, each body is read into the same
/// buffer: a tool could parse it there and keep only what it selects.
fn read_log(dir: &Path, log: &Path, keep: bool) -> anyhow::Result<Read> {
    let text = std::fs::read(log)
        .with_context(|| format!("cannot read {}", log.display()))?;
    let mut read =
        Read { hosts: Default::default(), bodies: vec![], files: 0 };
    let mut buf = vec![0; 64 << 10];
    let mut rows = Vec::with_capacity(64 << 10);
    let mut name = dir.to_path_buf();
    let (mut start, mut last): (usize, &[u8]) = (0, b"");
    for end in memchr::memchr_iter(b'\n', &text) {
        let url = &text[start..end];
        let host = host_of(url);
        // A host like the line before's needs no look-up.
        if host != last && !read.hosts.contains_key(host) {
            name.push(format!("{}.txt", String::from_utf8_lossy(host)));
            let index = match read_file(&name, &mut buf, keep) {
                Ok(body) => {
                    read.bodies.extend(body);
                    read.files += 1;
                    Some(read.files - 1)
                }
                Err(_) => None,
            };
            name.pop();
            read.hosts.insert(host.to_vec(), index);
        }
        last = host;
        if rows.len() + url.len() + 9 > rows.capacity() {
            black_box(&rows);
            rows.clear();
        }
        rows.extend_from_slice(url);
        rows.extend_from_slice(b",allowed\n");
        start = end + 1;
    }
    black_box(&rows);
    Ok(read)
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 || args.len() > 4 {
        anyhow::bail!("usage: crawl_floor ROBOTS_DIR LOG [AGENT [REPS]]");
    }
    let (dir, log) = (Path::new(&args[0]), Path::new(&args[1]));
    let agent = args.get(2).map_or("BenchBot", String::as_str);
    let reps: usize = match args.get(3) {
        Some(r) => r.parse().context("REPS is a number")?,
        None => 5,
    };
    let text = std::fs::read(log)
        .with_context(|| format!("cannot read {}", log.display()))?;
    let (read, _) = best(reps, || read_log(dir, log, false));
    let Read { hosts, bodies, .. } = read_log(dir, log, true)?;
    let mut lines = vec![];
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', &text) {
        lines.push((start, end, hosts[host_of(&text[start..end])]));
        start = end + 1;
    }
    let (pass, _) = best(reps, || {
        bodies
            .iter()
            .map(|b| memchr::memchr_iter(b'\n', b).count())
            .sum::<usize>()
    });
    let (parse, _) = best(reps, || {
        bodies
            .iter()
            .map(|b| {
                let robots = Robots::parse_with_limit(b, 0);
                RuleSet::select(&robots, agent, Dialect::Google).len()
            })
            .sum::<usize>()
    });
    let rules: Vec<RuleSet> = bodies
        .iter()
        .map(|b| {
            let robots = Robots::parse_with_limit(b, 0);
            RuleSet::select(&robots, agent, Dialect::Google)
        })
        .collect();
    drop(bodies);
    let (chosen, disallowed) =
        cheapest_per_host(&text, &lines, &rules, agent, reps);
    let mut fields = vec![
        ("urls", lines.len() as u128),
        ("hosts", rules.len() as u128),
        ("read_ns", read.as_nanos()),
        ("pass_ns", pass.as_nanos()),
        ("parse_ns", parse.as_nanos()),
        ("chosen_ns", chosen.as_nanos()),
        ("disallowed", disallowed as u128),
    ];
    // Every host's matchers at once: not for a log of many hosts, where
    // they would take gigabytes.
    if rules.len() <= FULL_PASSES_UP_TO {
        for (name, took, got) in log_order(&text, &lines, &rules, reps) {
            anyhow::ensure!(
                got == disallowed,
                "{name}: {got} disallowed, not {disallowed}"
            );
            fields.push((name, took.as_nanos()));
        }
    }
    let fields: Vec<String> =
        fields.iter().map(|(k, v)| format!("{k}={v}")).collect();
    println!("{}", fields.join(" "));
    Ok(())
}

/// Up to this many hosts, the log is also judged in its order with every
/// host's matchers built beforehand.
const FULL_PASSES_UP_TO: usize = 20_000;

/// The log judged in its order by each host's rules alone, `scan`
/// matcher and compiled matcher, each built beforehand: the time of each
/// (best of `reps`) and its disallowed count.
fn log_order(
    text: &[u8],
    lines: &[(usize, usize, Option<u32>)],
    rules: &[RuleSet],
    reps: usize,
) -> Vec<(&'static str, Duration, usize)> {
    let mut path = vec![];
    let (alone, n) = best(reps, || {
        let mut disallowed = 0usize;
        for &(start, end, index) in lines {
            let Some(i) = index else { continue };
            let p = Dialect::Google.path(&text[start..end], &mut path);
            disallowed +=
                usize::from(!rules[i as usize].verdict_path(p).is_allowed());
        }
        disallowed
    });
    let mut passes = vec![("rules_ns", alone, n)];
    for (name, engine) in
        [("scan_ns", Some(EngineKind::Scan)), ("compiled_ns", None)]
    {
        let mut builder = MatcherBuilder::new();
        if let Some(engine) = engine {
            builder.engine(engine);
        }
        let matchers: Vec<Matcher> =
            rules.iter().map(|r| builder.build_rules(r.clone())).collect();
        let mut scratches: Vec<_> =
            matchers.iter().map(Matcher::scratch).collect();
        let (took, n) = best(reps, || {
            let mut disallowed = 0usize;
            for &(start, end, index) in lines {
                let Some(i) = index else { continue };
                let i = i as usize;
                let v =
                    matchers[i].verdict(&text[start..end], &mut scratches[i]);
                disallowed += usize::from(!v.is_allowed());
            }
            disallowed
        });
        passes.push((name, took, n));
    }
    passes
}

/// For each host, the cheapest of judging its URLs (together) by its
/// rules alone, building a `scan` matcher and judging by it, and compiling
/// its rules and judging by them, each the best of `reps`; summed over the
/// hosts. Building counts here, the selection not (it is in `parse_ns`),
/// nor the copy of the rules a build takes (made beforehand).
fn cheapest_per_host(
    text: &[u8],
    lines: &[(usize, usize, Option<u32>)],
    rules: &[RuleSet],
    agent: &str,
    reps: usize,
) -> (Duration, usize) {
    let mut urls_of: Vec<Vec<&[u8]>> = vec![vec![]; rules.len()];
    for &(start, end, index) in lines {
        if let Some(i) = index {
            urls_of[i as usize].push(&text[start..end]);
        }
    }
    let mut scan = MatcherBuilder::new();
    scan.engine(EngineKind::Scan);
    let compile = MatcherBuilder::new();
    // One scratch per engine, renewed for each matcher, as a crawl does.
    let some = Robots::parse(b"");
    let mut scratches = [&scan, &compile]
        .map(|b| b.build(&some, agent, Dialect::Google).scratch());
    let mut path = vec![];
    let (mut total, mut disallowed) = (Duration::ZERO, 0);
    for (set, urls) in rules.iter().zip(&urls_of) {
        if urls.is_empty() {
            continue;
        }
        let (alone, allowed) = best(reps, || {
            urls.iter()
                .filter(|u| {
                    let p = Dialect::Google.path(u, &mut path);
                    set.verdict_path(p).is_allowed()
                })
                .count()
        });
        disallowed += urls.len() - allowed;
        let mut cheapest = alone;
        for (builder, scratch) in
            [&scan, &compile].into_iter().zip(&mut scratches)
        {
            let mut copies: Vec<RuleSet> =
                (0..reps.max(1)).map(|_| set.clone()).collect();
            let (built, _) = best(reps, || {
                let m = builder
                    .build_rules(copies.pop().expect("a copy a timing"));
                m.renew_scratch(scratch);
                let n = urls
                    .iter()
                    .filter(|u| m.verdict(u, scratch).is_allowed())
                    .count();
                (m, n)
            });
            cheapest = cheapest.min(built);
        }
        total += cheapest;
    }
    (total, disallowed)
}

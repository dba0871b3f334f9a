//! Crawl-log throughput probe: URLs of many hosts, each with its own
//! robots.txt, against one host's URLs through one matcher.
//!
//! `crawl_probe DIR HOSTS URLS [SEED]`: gives each of HOSTS made-up hosts
//! the body of a real robots.txt from DIR (round robin over the files,
//! sorted by name), generates URLS URLs spread evenly over them from each
//! file's own patterns (`sample::urls`), and times one thread over them in
//! host-grouped order and in shuffled order, then the single-host baseline:
//! the same number of URLs of the median-sized file through one
//! `Matcher`. Prints URLs per second and the ratio of each to the
//! baseline, plus peak RSS.
//!
//! Also "direct": the same URLs in the same orders, each judged by its
//! own file's `Matcher`, all compiled beforehand, with no crawl-log
//! machinery (no origins, lookups, cache or compiling on the way). That is
//! what the mix of files itself costs, the floor of any crawl-log mode
//! built on these engines; the crawl runs are compared with it too.
use std::time::Instant;

use robots_batch::crawl::{CrawlJudge, Fetch, FetchPolicy, FetchSet};
use robots_batch::sample::{self, Rng};
use robots_batch::{
    Dialect, Matcher, MatcherBuilder, Robots, DEFAULT_MAX_ROBOTS_BYTES,
};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: crawl_probe DIR HOSTS URLS [SEED]";
    let dir = args.get(1).ok_or_else(|| anyhow::anyhow!(usage))?;
    let hosts: usize = args.get(2).map_or(Ok(100_000), |s| s.parse())?;
    let total: usize = args.get(3).map_or(Ok(2_000_000), |s| s.parse())?;
    let seed: u64 = args.get(4).map_or(Ok(1), |s| s.parse())?;

    let mut files: Vec<_> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let bodies: Vec<Vec<u8>> =
        files.iter().map(std::fs::read).collect::<Result<_, _>>()?;
    anyhow::ensure!(!bodies.is_empty(), "no .txt files in {dir}");

    let t = Instant::now();
    let mut set = FetchSet::new();
    let per_host = total.div_ceil(hosts);
    let mut urls: Vec<Vec<u8>> = Vec::with_capacity(total);
    // The file of each URL, for the direct baseline.
    let mut file_of: Vec<u32> = Vec::with_capacity(total);
    for h in 0..hosts {
        let body = &bodies[h % bodies.len()];
        let host = format!("h{h}.example");
        set.insert_host(
            &host,
            Fetch { status: 200, body: body.clone(), ..Fetch::default() },
        );
        let robots = Robots::parse(body);
        let n = per_host.min(total - urls.len());
        for u in sample::urls(&robots, n, seed + h as u64) {
            let rest = u.splitn(4, |&b| b == b'/').nth(3).unwrap_or(b"");
            let mut url = format!("https://{host}/").into_bytes();
            url.extend_from_slice(rest);
            urls.push(url);
            file_of.push((h % bodies.len()) as u32);
        }
    }
    eprintln!(
        "{} URLs over {hosts} hosts ({} files) generated in {:.1?}",
        urls.len(),
        bodies.len(),
        t.elapsed()
    );

    let agents = ["BenchBot".to_string()];
    let run = |label: &str, urls: &[Vec<u8>]| -> (f64, usize) {
        let judge = CrawlJudge::new(
            set.clone(),
            FetchPolicy::default(),
            MatcherBuilder::new(),
            &agents,
            Dialect::Rfc9309,
        );
        let mut scratch = judge.scratch();
        let mut out = vec![];
        let mut disallowed = 0usize;
        let t = Instant::now();
        for u in urls {
            judge.verdicts(u, &mut scratch, &mut out);
            disallowed += usize::from(out[0].allowed() == Some(false));
        }
        let rate = urls.len() as f64 / t.elapsed().as_secs_f64();
        println!(
            "{label:<22} {:>8.2} M URLs/s  disallowed={disallowed}",
            rate / 1e6
        );
        (rate, disallowed)
    };
    let (grouped, crawl_disallowed) = run("crawl, grouped by host", &urls);

    // The same URLs, in the same order, each through its file's matcher,
    // compiled beforehand: what the mix of files costs without any of the
    // crawl-log machinery (origins, lookups, compiling on the way).
    let t = Instant::now();
    let matchers: Vec<Matcher> = bodies
        .iter()
        .map(|b| {
            let robots = Robots::parse_with_limit(b, DEFAULT_MAX_ROBOTS_BYTES);
            Matcher::new(&robots, "BenchBot", Dialect::Rfc9309)
        })
        .collect();
    println!("compiling all {} files: {:.2?}", matchers.len(), t.elapsed());
    let mut scratches: Vec<_> =
        matchers.iter().map(Matcher::scratch).collect();
    // The shuffled log, its URLs copied in their new order, as a reader
    // would hold them; both shuffled runs read this same copy.
    let mut order: Vec<usize> = (0..urls.len()).collect();
    let mut rng = Rng::new(seed);
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let shuffled: Vec<Vec<u8>> =
        order.iter().map(|&i| urls[i].clone()).collect();
    let shuffled_files: Vec<u32> = order.iter().map(|&i| file_of[i]).collect();
    drop(order);
    let mut direct_run = |label: &str, urls: &[Vec<u8>], files: &[u32]| {
        let mut disallowed = 0usize;
        let t = Instant::now();
        for (u, &f) in urls.iter().zip(files) {
            let f = f as usize;
            disallowed += usize::from(
                !matchers[f].verdict(u, &mut scratches[f]).is_allowed(),
            );
        }
        let rate = urls.len() as f64 / t.elapsed().as_secs_f64();
        println!(
            "{label:<22} {:>8.2} M URLs/s  disallowed={disallowed}",
            rate / 1e6
        );
        assert_eq!(disallowed, crawl_disallowed, "crawl and direct disagree");
        rate
    };
    let direct = direct_run("direct, precompiled", &urls, &file_of);
    let direct_shuffled =
        direct_run("direct, shuffled", &shuffled, &shuffled_files);
    drop((matchers, scratches));
    let (random, shuffled_disallowed) = run("crawl, shuffled", &shuffled);
    assert_eq!(
        shuffled_disallowed, crawl_disallowed,
        "order changed verdicts"
    );
    drop(shuffled);

    // The baseline: one host, one matcher, the median-sized file.
    let mut by_size: Vec<&Vec<u8>> = bodies.iter().collect();
    by_size.sort_by_key(|b| b.len());
    let median = Robots::parse(by_size[by_size.len() / 2]);
    let single = sample::urls(&median, urls.len(), seed);
    let m = Matcher::new(&median, "BenchBot", Dialect::Rfc9309);
    let mut s = m.scratch();
    let mut disallowed = 0usize;
    let t = Instant::now();
    for u in &single {
        disallowed += usize::from(!m.verdict(u, &mut s).is_allowed());
    }
    let base = single.len() as f64 / t.elapsed().as_secs_f64();
    println!(
        "{:<22} {:>8.2} M URLs/s  disallowed={disallowed}",
        "single host (median)",
        base / 1e6
    );
    println!(
        "ratios to single host: grouped {:.2}, shuffled {:.2}, direct {:.2}, \
         direct shuffled {:.2}",
        grouped / base,
        random / base,
        direct / base,
        direct_shuffled / base,
    );
    println!(
        "ratios to direct, same order: grouped {:.2}, shuffled {:.2}",
        grouped / direct,
        random / direct_shuffled,
    );
    if let Ok(status) = std::fs::read_to_string("/proc/self/status") {
        if let Some(l) = status.lines().find(|l| l.starts_with("VmHWM")) {
            println!("peak RSS: {}", l.trim_start_matches("VmHWM:").trim());
        }
    }
    Ok(())
}

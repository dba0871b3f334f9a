//! Crawl-log mode through the library: each URL judged by the robots.txt
//! of its own host, from a directory of `<host>.txt` files, with RFC
//! 9309's policy for hosts whose fetch failed.
//!
//! ```sh
//! mkdir -p /tmp/robots
//! cp datasets/example/robots.txt /tmp/robots/www.example.com.txt
//! cargo run --release --example judge_crawl_log -- \
//!     /tmp/robots datasets/example/urls.txt GPTBot
//! ```
//!
//! It prints `verdict reason url` for each line, as `robots-batch crawl
//! --robots-dir DIR -a AGENT` prints its rows.

use std::io::{self, BufRead, Write};

use robots_batch::crawl::{CrawlJudge, FetchPolicy, FetchSet};
use robots_batch::{Dialect, MatcherBuilder};

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, urls, agent] = args.as_slice() else {
        eprintln!("usage: judge_crawl_log ROBOTS_DIR URLS AGENT");
        std::process::exit(2);
    };
    // The directory is listed now; each host's file is read, parsed and
    // compiled when its first URL is judged.
    let mut fetches = FetchSet::new();
    fetches.read_dir(std::path::Path::new(dir))?;
    let agents = [agent.clone()];
    let judge = CrawlJudge::new(
        fetches,
        FetchPolicy::default(),
        MatcherBuilder::new(),
        &agents,
        Dialect::Rfc9309,
    );
    let mut scratch = judge.scratch();
    let mut verdicts = vec![];
    let mut out = io::stdout().lock();
    for line in io::BufReader::new(std::fs::File::open(urls)?).split(b'\n') {
        let line = line?;
        let url = line.strip_suffix(b"\r").unwrap_or(&line);
        judge.verdicts(url, &mut scratch, &mut verdicts);
        // One verdict per agent, in the order the agents were given.
        let v = verdicts[0];
        writeln!(
            out,
            "{:<10} {:<17} {}",
            v.name(),
            v.reason().name(),
            String::from_utf8_lossy(url)
        )?;
    }
    out.flush()
}

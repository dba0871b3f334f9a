//! The library's main job on one file: which URLs of a list a crawler may
//! fetch under one robots.txt.
//!
//! ```sh
//! cargo run --release --example filter_urls -- \
//!     datasets/example/robots.txt datasets/example/urls.txt GPTBot
//! ```
//!
//! It prints the allowed URLs, as `robots-batch --emit allowed` does; the
//! command does the same on every core, for files of millions of lines.

use std::io::{self, BufRead, Write};

use robots_batch::{Dialect, Matcher, Robots};

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [robots, urls, agent] = args.as_slice() else {
        eprintln!("usage: filter_urls ROBOTS URLS AGENT");
        std::process::exit(2);
    };
    // Parse once and compile the agent's rules once; every URL then costs
    // one walk of the compiled automaton.
    let robots = Robots::parse(&std::fs::read(robots)?);
    let matcher = Matcher::new(&robots, agent, Dialect::Rfc9309);
    let mut scratch = matcher.scratch();
    let mut out = io::stdout().lock();
    for line in io::BufReader::new(std::fs::File::open(urls)?).split(b'\n') {
        let line = line?;
        let url = line.strip_suffix(b"\r").unwrap_or(&line);
        if matcher.verdict(url, &mut scratch).is_allowed() {
            out.write_all(url)?;
            out.write_all(b"\n")?;
        }
    }
    out.flush()
}

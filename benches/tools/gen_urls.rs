//! Writes URLs generated from a robots.txt's own patterns, one per line, to
//! stdout: the input of `scripts/bench`.
//!
//! Usage: `gen_urls ROBOTS COUNT [SEED [AGENT]]`
//!
//! The URLs come from [`robots_batch::sample::urls`] in chunks of a million,
//! chunk `i` seeded with `SEED` (default 1) xor `i << 32`, so that memory
//! stays bounded and the same arguments always give the same file.
//!
//! With an `AGENT`, the expected counts under RFC 9309, from the default
//! engine, go to stderr as `allowed=N disallowed=M total=T`: what
//! `scripts/bench` checks the binary's output against.

use std::io::Write;

use anyhow::Context;
use robots_batch::{Dialect, Matcher, Robots};

const CHUNK: usize = 1_000_000;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 || args.len() > 5 {
        anyhow::bail!("usage: gen_urls ROBOTS COUNT [SEED [AGENT]]");
    }
    let bytes = std::fs::read(&args[1])
        .with_context(|| format!("reading {}", args[1]))?;
    let count: usize = args[2].parse().context("COUNT")?;
    let seed: u64 = match args.get(3) {
        Some(s) => s.parse().context("SEED")?,
        None => 1,
    };
    let robots = Robots::parse(&bytes);
    let matcher = args
        .get(4)
        .map(|agent| Matcher::new(&robots, agent, Dialect::Rfc9309));
    let mut scratch = matcher.as_ref().map(Matcher::scratch);
    let (mut allowed, mut disallowed) = (0u64, 0u64);
    let stdout = std::io::stdout();
    let mut wtr = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut left = count;
    let mut chunk = 0u64;
    while left > 0 {
        let n = left.min(CHUNK);
        for url in robots_batch::sample::urls(&robots, n, seed ^ (chunk << 32))
        {
            wtr.write_all(&url)?;
            wtr.write_all(b"\n")?;
            if let (Some(m), Some(s)) = (&matcher, &mut scratch) {
                if m.verdict(&url, s).is_allowed() {
                    allowed += 1;
                } else {
                    disallowed += 1;
                }
            }
        }
        left -= n;
        chunk += 1;
    }
    wtr.flush()?;
    if matcher.is_some() {
        eprintln!(
            "allowed={allowed} disallowed={disallowed} total={}",
            allowed + disallowed
        );
    }
    Ok(())
}

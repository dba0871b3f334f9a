//! The baseline of `scripts/bench`: texting_robots 0.2 (a regex per rule,
//! every rule tried on every URL) over a file of URLs, one per line.
//!
//! Usage: `texting_baseline [--count-only] ROBOTS URLS [AGENT]`
//!
//! The robots.txt is parsed once for `AGENT` (default `*`). Each line
//! (`\r` stripped, invalid UTF-8 replaced, since `Robot::allowed` takes a
//! `&str`) gets `Robot::allowed`; `URL,allowed|disallowed` rows go to stdout
//! through a 64 KiB buffer, so that the work compares with robots-batch's
//! CSV output (`--count-only` skips them). The counts go to stderr as
//! `allowed=N disallowed=M total=T`.

use std::io::Write;

use anyhow::Context;
use texting_robots::Robot;

fn main() -> anyhow::Result<()> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let count_only = args.first().is_some_and(|a| a == "--count-only");
    if count_only {
        args.remove(0);
    }
    if args.len() < 2 || args.len() > 3 {
        anyhow::bail!(
            "usage: texting_baseline [--count-only] ROBOTS URLS [AGENT]"
        );
    }
    let robots = std::fs::read(&args[0])
        .with_context(|| format!("reading {}", args[0]))?;
    let urls = std::fs::read(&args[1])
        .with_context(|| format!("reading {}", args[1]))?;
    let agent = args.get(2).map_or("*", |s| s.as_str());
    let robot = Robot::new(agent, &robots)
        .map_err(|e| anyhow::anyhow!("texting_robots: {e:#}"))?;

    let stdout = std::io::stdout();
    let mut wtr = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let (mut allowed, mut disallowed) = (0u64, 0u64);
    let body = urls.strip_suffix(b"\n").unwrap_or(&urls);
    if !urls.is_empty() {
        for line in body.split(|&b| b == b'\n') {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            let url = String::from_utf8_lossy(line);
            let ok = robot.allowed(&url);
            if ok {
                allowed += 1;
            } else {
                disallowed += 1;
            }
            if !count_only {
                wtr.write_all(line)?;
                wtr.write_all(if ok {
                    b",allowed\n"
                } else {
                    b",disallowed\n"
                })?;
            }
        }
    }
    wtr.flush()?;
    eprintln!(
        "allowed={allowed} disallowed={disallowed} total={}",
        allowed + disallowed
    );
    Ok(())
}

//! A peer of `robots-batch crawl` in `scripts/bench-crawl-peers`: the loop a
//! user of texting_robots 0.2 would write over a crawl log, one parsed
//! `Robot` per host.
//!
//! Usage: `texting_crawl [--count-only] ROBOTS_DIR URLS [AGENT]`
//!
//! `ROBOTS_DIR/<host>.txt` is the robots.txt of `<host>`, as with `crawl
//! --robots-dir`. Each line of `URLS` (`\r` stripped, invalid UTF-8
//! replaced, since `Robot::allowed` takes a `&str`) is an absolute URL; its
//! host (between `://` and the next `/`, `?` or `#`, without user info or
//! port, lower-cased) is looked up in a map of the hosts met so far. A host
//! met for the first time has its file read and parsed for `AGENT` (default
//! `*`) with `Robot::new`; a host without a file, or whose file
//! texting_robots rejects, allows everything (as an empty robots.txt
//! would). Then `Robot::allowed` judges the URL, and `URL,allowed` or
//! `URL,disallowed` goes to stdout through a 64 KiB buffer, so that the
//! work compares with robots-batch's CSV output (`--count-only` skips it).
//! A line without a host is judged by nothing: `URL,unknown`, counted
//! apart.
//!
//! On stderr: `hosts=H without_file=W rejected=E no_host=N` and
//! `allowed=A disallowed=D total=T` (lines without a host not in T).

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

use anyhow::Context;
use texting_robots::Robot;

/// The host of an absolute URL as a crawler's loop would cut it: between
/// `://` and the first of `/`, `?`, `#`, less any `user@` and `:port`.
fn host_of(url: &str) -> Option<&str> {
    let rest = &url[url.find("://")? + 3..];
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let host = authority.rsplit('@').next().unwrap_or(authority);
    let host = match host.rfind(':') {
        Some(i) if !host.ends_with(']') => &host[..i],
        _ => host,
    };
    (!host.is_empty()).then_some(host)
}

fn main() -> anyhow::Result<()> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let count_only = args.first().is_some_and(|a| a == "--count-only");
    if count_only {
        args.remove(0);
    }
    if args.len() < 2 || args.len() > 3 {
        anyhow::bail!(
            "usage: texting_crawl [--count-only] ROBOTS_DIR URLS [AGENT]"
        );
    }
    let dir = Path::new(&args[0]);
    let urls = std::fs::read(&args[1])
        .with_context(|| format!("reading {}", args[1]))?;
    let agent = args.get(2).map_or("*", |s| s.as_str());

    // None: a host that allows everything.
    let mut robots: HashMap<String, Option<Robot>> = HashMap::new();
    let (mut without_file, mut rejected, mut no_host) = (0u64, 0u64, 0u64);
    let stdout = std::io::stdout();
    let mut wtr = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let (mut allowed, mut disallowed) = (0u64, 0u64);
    let body = urls.strip_suffix(b"\n").unwrap_or(&urls);
    if !urls.is_empty() {
        for line in body.split(|&b| b == b'\n') {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            let url = String::from_utf8_lossy(line);
            let Some(host) = host_of(&url) else {
                no_host += 1;
                if !count_only {
                    wtr.write_all(line)?;
                    wtr.write_all(b",unknown\n")?;
                }
                continue;
            };
            let host = if host.bytes().any(|b| b.is_ascii_uppercase()) {
                Cow::Owned(host.to_ascii_lowercase())
            } else {
                Cow::Borrowed(host)
            };
            if !robots.contains_key(&*host) {
                let robot =
                    match std::fs::read(dir.join(format!("{host}.txt"))) {
                        Ok(txt) => Robot::new(agent, &txt)
                            .inspect_err(|_| rejected += 1)
                            .ok(),
                        Err(_) => {
                            without_file += 1;
                            None
                        }
                    };
                robots.insert(host.to_string(), robot);
            }
            let robot = &robots[&*host];
            let ok = robot.as_ref().is_none_or(|r| r.allowed(&url));
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
        "hosts={} without_file={without_file} rejected={rejected} \
         no_host={no_host}",
        robots.len()
    );
    eprintln!(
        "allowed={allowed} disallowed={disallowed} total={}",
        allowed + disallowed
    );
    Ok(())
}

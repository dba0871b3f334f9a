//! Generates a crawl log over many made-up hosts, each with a robots.txt
//! drawn from a corpus of real ones: the input of `scripts/bench-crawl`.
//!
//! Usage: `gen_crawl CORPUS OUT HOSTS URLS [SEED [AGENT]]`
//!
//! * `OUT/robots/<host>.txt`, one per host, hosts named `h00042.example`
//!   (zero-padded to at least five digits). Each body is a file of
//!   `CORPUS` (every `*.txt`, sorted by name) picked at random; nine hosts
//!   in ten get a rule of their own appended (`User-agent: *`, `Disallow:
//!   /<host>-private/`, and a `Sitemap:` line), so most bodies differ in
//!   their rules, not only in their bytes, and each is compiled on its
//!   own, while the rest share bodies byte for byte, as hosts on one
//!   platform's default do. No generated URL falls under the appended
//!   rule, so the corpus file's verdicts hold for its hosts.
//! * `OUT/grouped.log`: `URLS` URLs, all of a host's together, hosts in
//!   order. Host `i` (from 0) gets a share proportional to `1 / (i + 1)`
//!   (Zipf, exponent 1): with 100,000 hosts and 10,000,000 URLs the first
//!   has about 830,000 and the last 8. Each host's URLs come from its
//!   body's own patterns ([`robots_batch::sample::urls`], so verdicts
//!   vary), with the scheme kept and the host replaced by the host's
//!   name; paths without a scheme get `https://<host>`.
//! * `OUT/shuffled.log`: the same lines in a random order.
//!
//! With an `AGENT`, the expected counts (RFC 9309, default engine, each
//! URL against its host's rules) go to stderr as `allowed=N disallowed=M
//! total=T`. The same arguments always give the same files.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::Context;
use robots_batch::sample::{self, Rng};
use robots_batch::{Dialect, Matcher, Robots, DEFAULT_MAX_ROBOTS_BYTES};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 5 || args.len() > 7 {
        anyhow::bail!("usage: gen_crawl CORPUS OUT HOSTS URLS [SEED [AGENT]]");
    }
    let (corpus, out) = (Path::new(&args[1]), Path::new(&args[2]));
    let hosts: usize = args[3].parse().context("HOSTS")?;
    let total: usize = args[4].parse().context("URLS")?;
    let seed: u64 = match args.get(5) {
        Some(s) => s.parse().context("SEED")?,
        None => 1,
    };
    let agent = args.get(6);
    anyhow::ensure!(hosts > 0, "HOSTS must be positive");

    let mut files: Vec<_> = std::fs::read_dir(corpus)
        .with_context(|| format!("reading {}", corpus.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    anyhow::ensure!(
        !files.is_empty(),
        "no .txt files in {}",
        corpus.display()
    );
    let bodies: Vec<Vec<u8>> =
        files.iter().map(std::fs::read).collect::<Result<_, _>>()?;
    let parsed: Vec<Robots> =
        bodies.iter().map(|b| Robots::parse(b)).collect();
    // The corpus files' matchers, compiled when first needed: the rule
    // appended to a host's body decides none of its URLs.
    let mut matchers: Vec<Option<Matcher>> =
        std::iter::repeat_with(|| None).take(bodies.len()).collect();

    // Zipf shares, the remainder to the first hosts.
    let weights: Vec<f64> = (0..hosts).map(|i| 1.0 / (i + 1) as f64).collect();
    let sum: f64 = weights.iter().sum();
    let mut counts: Vec<usize> = weights
        .iter()
        .map(|w| (total as f64 * w / sum).floor() as usize)
        .collect();
    let mut left = total - counts.iter().sum::<usize>();
    for c in counts.iter_mut() {
        if left == 0 {
            break;
        }
        *c += 1;
        left -= 1;
    }

    let robots_dir = out.join("robots");
    std::fs::create_dir_all(&robots_dir)?;
    let width = hosts.saturating_sub(1).to_string().len().max(5);
    let mut rng = Rng::new(seed);
    // Every URL, in grouped order, in one buffer: `ends[i]` is where line
    // `i` ends.
    let mut buf: Vec<u8> = Vec::with_capacity(total * 64);
    let mut ends: Vec<usize> = Vec::with_capacity(total);
    let mut grouped = BufWriter::with_capacity(
        1 << 20,
        File::create(out.join("grouped.log"))?,
    );
    let (mut allowed, mut disallowed) = (0u64, 0u64);
    let mut distinct = 0usize;
    for (h, &count) in counts.iter().enumerate() {
        let host = format!("h{h:0width$}.example");
        let f = rng.below(bodies.len());
        let mut body = bodies[f].clone();
        if !rng.one_in(10) {
            if !body.is_empty() && !body.ends_with(b"\n") {
                body.push(b'\n');
            }
            body.extend_from_slice(
                format!(
                    "\nUser-agent: *\nDisallow: /{host}-private/\n\
                     Sitemap: https://{host}/sitemap.xml\n"
                )
                .as_bytes(),
            );
            distinct += 1;
        }
        std::fs::write(robots_dir.join(format!("{host}.txt")), &body)?;
        if count == 0 {
            continue;
        }
        let urls = sample::urls(&parsed[f], count, seed ^ ((h as u64) << 20));
        if agent.is_some() && matchers[f].is_none() {
            let robots =
                Robots::parse_with_limit(&bodies[f], DEFAULT_MAX_ROBOTS_BYTES);
            matchers[f] = Some(Matcher::new(
                &robots,
                agent.map_or("*", |a| a.as_str()),
                Dialect::Rfc9309,
            ));
        }
        let mut scratch = matchers[f].as_ref().map(Matcher::scratch);
        for u in urls {
            let start = buf.len();
            let rest = if let Some(r) = u.strip_prefix(b"https://example.com")
            {
                buf.extend_from_slice(b"https://");
                r
            } else if let Some(r) = u.strip_prefix(b"http://example.com") {
                buf.extend_from_slice(b"http://");
                r
            } else {
                buf.extend_from_slice(b"https://");
                &u[..]
            };
            buf.extend_from_slice(host.as_bytes());
            if !rest.starts_with(b"/") {
                buf.push(b'/');
            }
            buf.extend_from_slice(rest);
            let line = &buf[start..];
            if let (Some(m), Some(s)) = (&matchers[f], &mut scratch) {
                if m.verdict(line, s).is_allowed() {
                    allowed += 1;
                } else {
                    disallowed += 1;
                }
            }
            grouped.write_all(line)?;
            grouped.write_all(b"\n")?;
            ends.push(buf.len());
        }
    }
    grouped.flush()?;
    drop(grouped);

    let mut order: Vec<u32> = (0..ends.len() as u32).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let mut shuffled = BufWriter::with_capacity(
        1 << 20,
        File::create(out.join("shuffled.log"))?,
    );
    for &i in &order {
        let i = i as usize;
        let start = if i == 0 { 0 } else { ends[i - 1] };
        shuffled.write_all(&buf[start..ends[i]])?;
        shuffled.write_all(b"\n")?;
    }
    shuffled.flush()?;
    eprintln!(
        "hosts={hosts} with_own_line={distinct} corpus_files={} urls={}",
        bodies.len(),
        ends.len()
    );
    if agent.is_some() {
        eprintln!(
            "allowed={allowed} disallowed={disallowed} total={}",
            allowed + disallowed
        );
    }
    Ok(())
}

//! Generates crawl logs over many hosts, each with a robots.txt drawn from
//! a corpus of real ones: the input of `scripts/bench-crawl` and
//! `scripts/bench-crawl-peers`.
//!
//! Usage, two forms (`[--dialect D] [--max-robots-bytes N]` may come
//! first in either):
//!
//! * `gen_crawl CORPUS OUT HOSTS URLS [SEED [AGENT]]`, made-up hosts with
//!   a Zipf skew:
//!   * `OUT/robots/<host>.txt`, one per host, hosts named `h00042.example`
//!     (zero-padded to at least five digits). Each body is a file of
//!     `CORPUS` (every `*.txt`, sorted by name) picked at random; nine
//!     hosts in ten get a rule of their own appended (`User-agent: *`,
//!     `Disallow: /<host>-private/`, and a `Sitemap:` line), so most bodies
//!     differ in their rules, not only in their bytes, and each is compiled
//!     on its own, while the rest share bodies byte for byte, as hosts on
//!     one platform's default do. No generated URL falls under the appended
//!     rule, so the corpus file's verdicts hold for its hosts.
//!   * `OUT/grouped.log`: `URLS` URLs, all of a host's together, hosts in
//!     order. Host `i` (from 0) gets a share proportional to `1 / (i + 1)`
//!     (Zipf, exponent 1): with 100,000 hosts and 10,000,000 URLs the first
//!     has about 830,000 and the last 8.
//!   * `OUT/shuffled.log`: the same lines in a random order.
//! * `gen_crawl --per-host K[,K...] [--pairs LINKS] CORPUS OUT [SEED
//!   [AGENT]]`, the corpus's own hosts with K URLs each:
//!   * `OUT/robots/<host>.txt`: every current-site file of `CORPUS` (the
//!     `*.txt` whose name has no `--`; `<host>--<source>.txt` are older
//!     copies), under its own name, body unchanged;
//!   * for each K, `OUT/k<K>-grouped.log`: K URLs of every host, hosts in
//!     name order, a host's URLs together (the first K' of them are the
//!     URLs of any smaller K'), and `OUT/k<K>-shuffled.log`, the same lines
//!     in a random order;
//!   * with `--pairs LINKS` (a file of real URLs, one a line, such as
//!     `anubhavp28_robots_benchmark_site_links.txt`), the expected counts
//!     of LINKS itself, each URL against the file of its own host
//!     ([`robots_batch::crawl::Origin`]'s host), a URL whose host has no
//!     file being allowed (as `crawl --on-missing allow`, or a crawler's
//!     loop that reads a missing robots.txt as empty). Nothing is written.
//!
//! Each host's URLs come from its body's own patterns
//! ([`robots_batch::sample::urls`], so verdicts vary), with the scheme
//! kept and the host replaced by the host's name; paths without a scheme
//! get `https://<host>`.
//!
//! With an `AGENT`, the expected counts go to stderr: `allowed=N
//! disallowed=M total=T` in the first form, one `log=k<K> allowed=N
//! disallowed=M total=T` line per K (and `log=pairs ... without_file=W`)
//! in the second. They are the single-file verdicts: each URL against its
//! host's rules, default engine, dialect `D` (default rfc9309), each body
//! cut at `N` bytes as the command's `--max-robots-bytes` cuts it (default
//! its 512,000; 0: the whole body). The same arguments always give the
//! same files.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use robots_batch::crawl::Origin;
use robots_batch::sample::{self, Rng};
use robots_batch::{Dialect, Matcher, Robots, DEFAULT_MAX_ROBOTS_BYTES};

const USAGE: &str = "\
usage: gen_crawl [--dialect D] [--max-robots-bytes N] CORPUS OUT HOSTS URLS
                 [SEED [AGENT]]
       gen_crawl [--dialect D] [--max-robots-bytes N] --per-host K[,K...]
                 [--pairs LINKS] CORPUS OUT [SEED [AGENT]]";

fn main() -> anyhow::Result<()> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut dialect = Dialect::Rfc9309;
    let mut per_host: Option<Vec<usize>> = None;
    let mut pairs: Option<PathBuf> = None;
    let mut limit = DEFAULT_MAX_ROBOTS_BYTES;
    while args.first().is_some_and(|a| a.starts_with("--")) {
        let flag = args.remove(0);
        anyhow::ensure!(!args.is_empty(), "{flag} needs a value\n{USAGE}");
        let value = args.remove(0);
        match flag.as_str() {
            "--dialect" => dialect = value.parse()?,
            "--per-host" => {
                per_host = Some(
                    value
                        .split(',')
                        .map(|k| k.parse().context("--per-host"))
                        .collect::<Result<_, _>>()?,
                )
            }
            "--pairs" => pairs = Some(value.into()),
            "--max-robots-bytes" => {
                limit = value.parse().context("--max-robots-bytes")?
            }
            _ => anyhow::bail!("unknown flag {flag}\n{USAGE}"),
        }
    }
    if let Some(ks) = per_host {
        anyhow::ensure!((2..=4).contains(&args.len()), "{USAGE}");
        let seed: u64 = match args.get(2) {
            Some(s) => s.parse().context("SEED")?,
            None => 1,
        };
        let gen = PerHost {
            corpus: Path::new(&args[0]),
            out: Path::new(&args[1]),
            seed,
            expect: Expect {
                agent: args.get(3).map(String::as_str),
                dialect,
                limit,
            },
        };
        return gen.run(&ks, pairs.as_deref());
    }
    anyhow::ensure!(pairs.is_none(), "--pairs goes with --per-host");
    anyhow::ensure!((4..=6).contains(&args.len()), "{USAGE}");
    let (corpus, out) = (Path::new(&args[0]), Path::new(&args[1]));
    let hosts: usize = args[2].parse().context("HOSTS")?;
    let total: usize = args[3].parse().context("URLS")?;
    let seed: u64 = match args.get(4) {
        Some(s) => s.parse().context("SEED")?,
        None => 1,
    };
    let expect =
        Expect { agent: args.get(5).map(String::as_str), dialect, limit };
    zipf(corpus, out, hosts, total, seed, expect)
}

/// The `*.txt` files of `corpus`, sorted by name, those with `--` in
/// their name too when `all`.
fn corpus_files(corpus: &Path, all: bool) -> anyhow::Result<Vec<PathBuf>> {
    let mut files: Vec<_> = std::fs::read_dir(corpus)
        .with_context(|| format!("reading {}", corpus.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .filter(|p| {
            all || !p
                .file_name()
                .is_some_and(|n| n.to_string_lossy().contains("--"))
        })
        .collect();
    files.sort();
    anyhow::ensure!(
        !files.is_empty(),
        "no .txt files in {}",
        corpus.display()
    );
    Ok(files)
}

/// Appends to `buf` the URL `u` (a URL of `example.com`, or a path) moved
/// to `host`.
fn host_url(u: &[u8], host: &str, buf: &mut Vec<u8>) {
    let rest = if let Some(r) = u.strip_prefix(b"https://example.com") {
        buf.extend_from_slice(b"https://");
        r
    } else if let Some(r) = u.strip_prefix(b"http://example.com") {
        buf.extend_from_slice(b"http://");
        r
    } else {
        buf.extend_from_slice(b"https://");
        u
    };
    buf.extend_from_slice(host.as_bytes());
    if !rest.starts_with(b"/") {
        buf.push(b'/');
    }
    buf.extend_from_slice(rest);
}

/// Writes the lines of `buf` (line `i` ends at `ends[i]`) to `path` in a
/// random order.
fn write_shuffled(
    buf: &[u8],
    ends: &[usize],
    rng: &mut Rng,
    path: &Path,
) -> anyhow::Result<()> {
    let mut order: Vec<u32> = (0..ends.len() as u32).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let mut out = BufWriter::with_capacity(1 << 20, File::create(path)?);
    for &i in &order {
        let i = i as usize;
        let start = if i == 0 { 0 } else { ends[i - 1] };
        out.write_all(&buf[start..ends[i]])?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

/// How the expected counts are computed: for `agent` (none: no counts),
/// in `dialect`, each body cut at `limit` bytes (0: whole) as the command's
/// `--max-robots-bytes` cuts it.
#[derive(Clone, Copy)]
struct Expect<'a> {
    agent: Option<&'a str>,
    dialect: Dialect,
    limit: usize,
}

impl Expect<'_> {
    /// Corpus file `f`'s matcher, compiled when first needed; `None`
    /// without an agent.
    fn matcher<'m>(
        &self,
        matchers: &'m mut [Option<Matcher>],
        bodies: &[Vec<u8>],
        f: usize,
    ) -> Option<&'m Matcher> {
        let agent = self.agent?;
        Some(matchers[f].get_or_insert_with(|| {
            let robots = Robots::parse_with_limit(&bodies[f], self.limit);
            Matcher::new(&robots, agent, self.dialect)
        }))
    }
}

/// The first form: made-up hosts, Zipf shares.
fn zipf(
    corpus: &Path,
    out: &Path,
    hosts: usize,
    total: usize,
    seed: u64,
    expect: Expect,
) -> anyhow::Result<()> {
    anyhow::ensure!(hosts > 0, "HOSTS must be positive");
    let files = corpus_files(corpus, true)?;
    let bodies: Vec<Vec<u8>> =
        files.iter().map(std::fs::read).collect::<Result<_, _>>()?;
    let parsed: Vec<Robots> =
        bodies.iter().map(|b| Robots::parse(b)).collect();
    // The rule appended to a host's body decides none of its URLs: the
    // corpus file's matcher gives its verdicts.
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
        let m = expect.matcher(&mut matchers, &bodies, f);
        let mut scratch = m.map(Matcher::scratch);
        for u in urls {
            let start = buf.len();
            host_url(&u, &host, &mut buf);
            let line = &buf[start..];
            if let (Some(m), Some(s)) = (m, &mut scratch) {
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
    write_shuffled(&buf, &ends, &mut rng, &out.join("shuffled.log"))?;
    eprintln!(
        "hosts={hosts} with_own_line={distinct} corpus_files={} urls={}",
        bodies.len(),
        ends.len()
    );
    if expect.agent.is_some() {
        eprintln!(
            "allowed={allowed} disallowed={disallowed} total={}",
            allowed + disallowed
        );
    }
    Ok(())
}

/// The second form: the corpus's own hosts, K URLs each.
struct PerHost<'a> {
    corpus: &'a Path,
    out: &'a Path,
    seed: u64,
    expect: Expect<'a>,
}

impl PerHost<'_> {
    fn run(&self, ks: &[usize], pairs: Option<&Path>) -> anyhow::Result<()> {
        let files = corpus_files(self.corpus, false)?;
        let hosts: Vec<String> = files
            .iter()
            .map(|p| {
                p.file_stem().unwrap_or_default().to_string_lossy().into()
            })
            .collect();
        let bodies: Vec<Vec<u8>> =
            files.iter().map(std::fs::read).collect::<Result<_, _>>()?;
        let robots_dir = self.out.join("robots");
        std::fs::create_dir_all(&robots_dir)?;
        for (host, body) in hosts.iter().zip(&bodies) {
            std::fs::write(robots_dir.join(format!("{host}.txt")), body)?;
        }
        let parsed: Vec<Robots> =
            bodies.iter().map(|b| Robots::parse(b)).collect();
        let mut matchers: Vec<Option<Matcher>> =
            std::iter::repeat_with(|| None).take(bodies.len()).collect();
        let mut rng = Rng::new(self.seed);
        for &k in ks {
            let mut buf: Vec<u8> = Vec::with_capacity(k * hosts.len() * 64);
            let mut ends: Vec<usize> = Vec::with_capacity(k * hosts.len());
            let (mut allowed, mut disallowed) = (0u64, 0u64);
            for (h, host) in hosts.iter().enumerate() {
                // The same seed for every K: a host's URLs for K are the
                // first K of its URLs for any larger K.
                let urls = sample::urls(
                    &parsed[h],
                    k,
                    self.seed ^ ((h as u64) << 20),
                );
                let m = self.expect.matcher(&mut matchers, &bodies, h);
                let mut scratch = m.map(Matcher::scratch);
                for u in urls {
                    let start = buf.len();
                    host_url(&u, host, &mut buf);
                    if let (Some(m), Some(s)) = (m, &mut scratch) {
                        if m.verdict(&buf[start..], s).is_allowed() {
                            allowed += 1;
                        } else {
                            disallowed += 1;
                        }
                    }
                    ends.push(buf.len());
                }
            }
            let mut grouped = BufWriter::with_capacity(
                1 << 20,
                File::create(self.out.join(format!("k{k}-grouped.log")))?,
            );
            let mut start = 0;
            for &end in &ends {
                grouped.write_all(&buf[start..end])?;
                grouped.write_all(b"\n")?;
                start = end;
            }
            grouped.flush()?;
            write_shuffled(
                &buf,
                &ends,
                &mut rng,
                &self.out.join(format!("k{k}-shuffled.log")),
            )?;
            eprintln!("log=k{k} hosts={} urls={}", hosts.len(), ends.len());
            if self.expect.agent.is_some() {
                eprintln!(
                    "log=k{k} allowed={allowed} disallowed={disallowed} \
                     total={}",
                    allowed + disallowed
                );
            }
        }
        if let (Some(links), Some(_)) = (pairs, self.expect.agent) {
            let index: HashMap<&str, usize> = hosts
                .iter()
                .enumerate()
                .map(|(i, h)| (h.as_str(), i))
                .collect();
            let text = std::fs::read(links)
                .with_context(|| format!("reading {}", links.display()))?;
            let body = text.strip_suffix(b"\n").unwrap_or(&text);
            let (mut allowed, mut disallowed, mut without) =
                (0u64, 0u64, 0u64);
            let mut met = std::collections::HashSet::new();
            for url in body.split(|&b| b == b'\n') {
                let url = url.strip_suffix(b"\r").unwrap_or(url);
                let origin = Origin::of_url(url).with_context(|| {
                    format!("no host in {}", String::from_utf8_lossy(url))
                })?;
                met.insert(origin.host().to_string());
                let Some(&f) = index.get(origin.host()) else {
                    without += 1;
                    allowed += 1;
                    continue;
                };
                let Some(m) = self.expect.matcher(&mut matchers, &bodies, f)
                else {
                    continue;
                };
                if m.verdict(url, &mut m.scratch()).is_allowed() {
                    allowed += 1;
                } else {
                    disallowed += 1;
                }
            }
            eprintln!(
                "log=pairs hosts={} allowed={allowed} disallowed={disallowed} \
                 total={} without_file={without}",
                met.len(),
                allowed + disallowed
            );
        }
        Ok(())
    }
}

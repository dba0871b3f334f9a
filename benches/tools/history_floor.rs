//! The floor of `survey --history` over a JSON Lines index: reading the
//! bodies and nothing more, for `scripts/bench-history`.
//!
//! Usage: `history_floor INDEX`
//!
//! Reads INDEX (uncompressed JSON Lines, one fetch a line, as
//! `--robots-index` reads them) line by line, decodes each line's JSON
//! (`url`, `status`, `date`, `body`) with serde_json, as any reader of the
//! index must, and keeps nothing: prints `lines=N body_bytes=B` (the
//! bytes of the decoded bodies). No parse of a robots.txt, no
//! classification, no table of captures.

use std::io::{BufRead, BufReader};

#[derive(serde::Deserialize)]
struct Line {
    #[allow(dead_code)]
    url: String,
    #[serde(default)]
    #[allow(dead_code)]
    status: u16,
    #[serde(default)]
    #[allow(dead_code)]
    date: Option<String>,
    #[serde(default)]
    body: String,
}

fn main() -> anyhow::Result<()> {
    let path = std::env::args()
        .nth(1)
        .ok_or_else(|| anyhow::anyhow!("usage: history_floor INDEX"))?;
    let mut rdr =
        BufReader::with_capacity(1 << 20, std::fs::File::open(&path)?);
    let (mut lines, mut bytes) = (0u64, 0u64);
    let mut buf = String::new();
    while rdr.read_line(&mut buf)? > 0 {
        let line: Line = serde_json::from_str(&buf)?;
        bytes += line.body.len() as u64;
        lines += 1;
        buf.clear();
    }
    println!("lines={lines} body_bytes={bytes}");
    Ok(())
}

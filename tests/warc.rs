//! WARC input cut short, followed by garbage, or holding a record too
//! large to hold: the rows (or records) of every whole record come out,
//! then the error, and `--emit` passes a long record on as it reads it.
//! Plain, gzip (a member per record) and zstd (a frame per record) alike.

use std::io::{self, Read, Write};

use robots_batch::crawl::FetchSet;
use robots_batch::record::{RecordFormat, Records};
use robots_batch::{Dialect, MatcherBuilder, Robots, Stats};

use crate::util::{setup, Dir, TestCommand};

const ROBOTS: &str = "User-agent: *\nDisallow: /private/\n";

fn dir(name: &str) -> (Dir, TestCommand) {
    let (dir, cmd) = setup(name);
    dir.create("robots.txt", ROBOTS);
    (dir, cmd)
}

/// A WARC response record for `uri` with `block` (its bytes).
fn record(id: usize, uri: &str, block: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{id}>\r\n\
         WARC-Target-URI: {uri}\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

/// Eight records, the odd-numbered ones under `/private/`.
fn eight() -> Vec<Vec<u8>> {
    (1..=8)
        .map(|i| {
            let path = if i % 2 == 1 { "private/" } else { "" };
            let block = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nbody {i}\n"
            );
            record(i, &format!("https://a.com/{path}{i}"), block.as_bytes())
        })
        .collect()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(vec![], Default::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = vec![];
    flate2::read::MultiGzDecoder::new(bytes).read_to_end(&mut out).unwrap();
    out
}

fn zstd(bytes: &[u8]) -> Vec<u8> {
    zstd::encode_all(bytes, 3).unwrap()
}

/// The CSV rows of the first `n` of [`eight`], header first.
fn rows(n: usize) -> String {
    let mut out = "warc_record_id,warc_type,url,robots_verdict,robots_error\n"
        .to_string();
    for i in 1..=n {
        let (path, verdict) = match i % 2 {
            1 => ("private/", "disallowed"),
            _ => ("", "allowed"),
        };
        out.push_str(&format!(
            "<urn:uuid:{i}>,response,https://a.com/{path}{i},{verdict},\n"
        ));
    }
    out
}

/// The eight records as plain, gzip (a member each) and zstd (a frame
/// each) files; each with where its sixth record starts and ends.
fn encodings() -> Vec<(&'static str, Vec<u8>, usize, usize)> {
    let records = eight();
    let mut out = vec![];
    for (name, encode) in [
        ("in.warc", (|b: &[u8]| b.to_vec()) as fn(&[u8]) -> Vec<u8>),
        ("in.warc.gz", gzip),
        ("in.warc.zst", zstd),
    ] {
        let parts: Vec<Vec<u8>> = records.iter().map(|r| encode(r)).collect();
        let start: usize = parts[..5].iter().map(Vec::len).sum();
        out.push((name, parts.concat(), start, start + parts[5].len()));
    }
    out
}

#[test]
fn a_cut_inside_a_header_gives_every_whole_record_then_the_error() {
    let (dir, _) = dir("warc_cut_header");
    for (name, bytes, start, _) in encodings() {
        // A few bytes into the sixth record: its header is not whole.
        let cut = &bytes[..start + 6];
        dir.create(name, cut);
        let out = dir.command().args(["robots.txt", name]).output();
        assert_eq!(out.status.code(), Some(2), "{name}: {out:?}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), rows(5), "{name}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("record 6"), "{name}: {err}");
        // With --emit, the kept records among them.
        let out = dir
            .command()
            .args(["--input-format", "warc", "--emit", "allowed"])
            .args(["robots.txt", name])
            .output();
        assert_eq!(out.status.code(), Some(2), "{name}: {out:?}");
        let kept = match name.ends_with(".gz") {
            true => gunzip(&out.stdout),
            false => out.stdout.clone(),
        };
        let records = eight();
        assert_eq!(kept, [&records[1][..], &records[3]].concat(), "{name}");
    }
}

#[test]
fn a_cut_inside_a_block_gives_every_whole_record_then_what_is_wrong() {
    let (dir, _) = dir("warc_cut_block");
    for (name, bytes, start, end) in encodings() {
        // Plain, the sixth record's block is cut short; compressed, the
        // last byte of its member or frame is missing.
        let at = match name {
            "in.warc" => start + eight()[5].len() - 12,
            _ => end - 1,
        };
        dir.create(name, &bytes[..at]);
        let out = dir.command().args(["robots.txt", name]).output();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stdout.starts_with(&rows(5)), "{name}: {stdout}");
        let rest = &stdout[rows(5).len()..];
        match name {
            // The block ends short: a bad record, the last.
            "in.warc" => {
                assert_eq!(out.status.code(), Some(0), "{out:?}");
                assert_eq!(
                    rest,
                    "<urn:uuid:6>,response,https://a.com/6,unknown,\
                     truncated (its block ends before its Content-Length)\n"
                );
                assert!(stderr.contains("record 6: truncated"), "{stderr}");
            }
            // The record is whole, its member's trailer is not: its row,
            // then the error.
            "in.warc.gz" => {
                assert_eq!(out.status.code(), Some(2), "{out:?}");
                assert_eq!(
                    rest,
                    "<urn:uuid:6>,response,https://a.com/6,allowed,\n"
                );
                assert!(stderr.contains("record 7"), "{stderr}");
            }
            // A zstd frame cut short gives none of its bytes.
            _ => {
                assert_eq!(out.status.code(), Some(2), "{out:?}");
                assert_eq!(rest, "");
                assert!(stderr.contains("record 6"), "{stderr}");
            }
        }
    }
}

#[test]
fn garbage_after_whole_records_comes_after_their_rows() {
    let (dir, _) = dir("warc_garbage");
    for (name, mut bytes, _, _) in encodings() {
        bytes.extend_from_slice(b"\x00\x01 this is no WARC record\n");
        dir.create(name, &bytes);
        let out = dir.command().args(["robots.txt", name]).output();
        assert_eq!(out.status.code(), Some(2), "{name}: {out:?}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), rows(8), "{name}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("record 9"), "{name}: {err}");
    }
}

/// A response record of `len` zero bytes of body, for `uri`.
fn zero_record(uri: &str, len: u64) -> (Vec<u8>, u64, Vec<u8>) {
    let http = b"HTTP/1.1 200 OK\r\n\r\n";
    let head = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:big>\r\n\
         WARC-Target-URI: {uri}\r\nContent-Length: {}\r\n\r\n",
        http.len() as u64 + len
    );
    let mut head = head.into_bytes();
    head.extend_from_slice(http);
    (head, len, b"\r\n\r\n".to_vec())
}

/// Runs `--emit allowed` over `input` through the library: the output,
/// the largest piece handed to the sink, and the counts.
fn emit_allowed(input: impl Read) -> (Vec<u8>, usize, Stats) {
    let robots = Robots::parse(ROBOTS.as_bytes());
    let matchers =
        [MatcherBuilder::new().build(&robots, "*", Dialect::default())];
    let mut records =
        Records::new(RecordFormat::Warc, &matchers, &["*".to_string()]);
    records.emit(Some(true));
    let mut out = vec![];
    let mut largest = 0;
    let stats = records
        .run_warc(input, |piece: &[u8], _: &Stats| {
            largest = largest.max(piece.len());
            out.extend_from_slice(piece);
            Ok(())
        })
        .unwrap();
    (out, largest, stats)
}

// A kept record of 64 MiB (a 1 GiB one is measured by
// scripts/hostile-bounds warc_emit_long_record) goes out in pieces as it is read, never
// held whole: the largest piece handed on is a few MiB at most.
#[test]
fn emit_passes_a_long_record_on_as_it_reads_it() {
    const LEN: u64 = 64 << 20;
    let (head, len, tail) = zero_record("https://a.com/big", LEN);
    let small = eight();
    // Made as it is read, never held here either.
    let zeros = io::Cursor::new(head.clone())
        .chain(io::repeat(0).take(len))
        .chain(io::Cursor::new(tail.clone()));
    let input = io::Cursor::new(small[1].clone())
        .chain(zeros)
        .chain(io::Cursor::new(small[3].clone()));
    let (out, largest, stats) = emit_allowed(input);
    assert!(largest <= 4 << 20, "a piece of {largest} bytes");
    assert_eq!(stats.kept_records(), 3);
    // Every byte, in order.
    assert_eq!(
        out.len(),
        small[1].len()
            + head.len()
            + LEN as usize
            + tail.len()
            + small[3].len()
    );
    assert_eq!(&out[..small[1].len()], &small[1][..]);
    let big = &out[small[1].len()..out.len() - small[3].len()];
    assert!(big.starts_with(&head) && big.ends_with(&tail));
    assert!(big[head.len()..big.len() - tail.len()].iter().all(|&b| b == 0));
    assert_eq!(&out[out.len() - small[3].len()..], &small[3][..]);

    // Gzip: the long record goes out in a member of its own, compressed
    // again; the small ones' members are copied.
    let mut whole = head.clone();
    whole.resize(head.len() + LEN as usize, 0);
    whole.extend_from_slice(&tail);
    let members = [gzip(&small[1]), gzip(&whole), gzip(&small[3])];
    drop(whole);
    let (out, largest, _) = emit_allowed(&members.concat()[..]);
    assert!(largest <= 4 << 20, "a piece of {largest} bytes");
    assert!(out.starts_with(&members[0]) && out.ends_with(&members[2]));
    let big = gunzip(&out[members[0].len()..out.len() - members[2].len()]);
    assert_eq!(big.len(), head.len() + LEN as usize + tail.len());
    assert!(big.starts_with(&head) && big.ends_with(&tail));
}

// A long kept record cut short has been passed on in part already: that is
// an error, not a bad record left out.
#[test]
fn emit_of_a_long_record_cut_short_is_an_error() {
    let (dir, mut cmd) = dir("warc_emit_long_cut");
    let (head, _, _) = zero_record("https://a.com/big", 4 << 20);
    let mut bytes = eight()[1].clone();
    bytes.extend_from_slice(&head);
    bytes.resize(bytes.len() + (3 << 20), 0);
    dir.create("cut.warc", &bytes);
    let out =
        cmd.args(["--emit", "allowed", "robots.txt", "cut.warc"]).output();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("WARC record 2 is truncated"), "{err}");
    // Every byte read was written: the output is cut where the input is.
    assert!(
        out.stdout == bytes,
        "{} bytes of {}",
        out.stdout.len(),
        bytes.len()
    );
    let passed = bytes.len() - eight()[1].len();
    assert!(err.contains(&format!("its first {passed} bytes")), "{err}");
}

// `crawl --robots-warc` and the Python `read_warc` read a zstd WARC, as
// the records reader does.
#[test]
fn robots_warc_reads_zstd() {
    let dir = Dir::new("warc_robots_zstd");
    let body = b"HTTP/1.1 200 OK\r\n\r\nUser-agent: *\nDisallow: /x\n";
    let warc = record(1, "https://a.com/robots.txt", body);
    dir.create("r.warc.zst", zstd(&warc));
    let mut set = FetchSet::new();
    assert_eq!(set.read_warc(&dir.path().join("r.warc.zst")).unwrap(), 1);
    let (_, fetch) = set.get(0).unwrap();
    assert_eq!(fetch.status, 200);
    assert_eq!(fetch.body, b"User-agent: *\nDisallow: /x\n");
    dir.create("log.txt", "https://a.com/x\nhttps://a.com/y\n");
    let out = dir
        .command()
        .args(["crawl", "--robots-warc", "r.warc.zst", "log.txt"])
        .stdout();
    let verdicts: Vec<&str> =
        out.lines().skip(1).map(|l| l.split(',').nth(1).unwrap()).collect();
    assert_eq!(verdicts, ["disallowed", "allowed"], "{out}");
}

// A gzip member of several records (a WARC compressed whole) is not held:
// each kept record goes out in a member of its own, as it is met; a member
// of one kept record is still copied.
#[test]
fn emit_splits_a_member_of_several_records() {
    let (dir, mut cmd) = dir("warc_emit_members");
    let records = eight();
    let first = gzip(&records[..7].concat());
    let last = gzip(&records[7]);
    dir.create("in.warc.gz", [&first[..], &last].concat());
    let out = cmd
        .args(["--emit", "allowed", "robots.txt", "in.warc.gz"])
        .stdout_bytes();
    assert!(out.ends_with(&last));
    let mut members = vec![];
    let mut rest = &out[..];
    while !rest.is_empty() {
        let mut gz = flate2::bufread::GzDecoder::new(rest);
        let mut member = vec![];
        gz.read_to_end(&mut member).unwrap();
        members.push(member);
        rest = gz.into_inner();
    }
    let kept: Vec<Vec<u8>> =
        [1, 3, 5, 7].iter().map(|&i| records[i].clone()).collect();
    assert_eq!(members, kept);
}

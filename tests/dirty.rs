//! Dirty URL files through the binary, and faults.
//!
//! A crawl log is whatever it is: mixed CRLF and LF, no final newline,
//! empty and white-space-only lines, invalid UTF-8, NUL bytes, commas,
//! quotes, tabs, lone CRs, a line of megabytes. Every input line must give
//! exactly one row whose url field is the line's bytes, in order, whatever
//! the threads and whether the input is a file or standard input. The CSV
//! output is read back with the csv crate, in byte mode.
//!
//! `cli.rs` covers the small cases of each kind of line and the output
//! contract; here they are mixed in large streams. Faults: an unreadable
//! file and a full disk on standard output (a missing file and a
//! directory are in `cli.rs`).

use std::fs::{self, File};
use std::io::Write;
use std::process::Stdio;

use robots_batch::sample::Rng;
use robots_batch::{Dialect, Matcher, Robots, MAX_LINE_BYTES};

use crate::util::{lines, show, Dir, TestCommand, EXAMPLE_ROBOTS};

/// One dirty line (without its end).
fn dirty_line(rng: &mut Rng) -> Vec<u8> {
    const KINDS: &[&[u8]] = &[
        b"",
        b" ",
        b"\t",
        b" \t \x0B\x0C ",
        b"https://www.example.com/cart/",
        b"https://www.example.com/a,b,,c",
        b"/say \"hi\"",
        b"\"",
        b"\"\"",
        b",",
        b"/tab\there\t",
        b"/nul\0byte",
        b"\0",
        b"/cart/\xff\xfe\xc3",
        b"\xc3\xa9\xe2\x82",
        b"/lone\rcr",
        b"\r\r",
        b"  /leading and trailing  ",
        b"#frag,only",
        b"/a;b?c=d,e\"f",
    ];
    let mut line = rng.pick(KINDS).to_vec();
    // Some lines get random bytes (never LF) appended.
    if rng.one_in(4) {
        for _ in 0..rng.below(40) {
            match rng.next_u64() as u8 {
                b'\n' => line.push(b'\r'),
                b => line.push(b),
            }
        }
    }
    line
}

/// A dirty stream of `n` lines, with LF and CRLF ends mixed, and `huge`
/// (if any) as the line in the middle. No final newline when `open_end`.
fn dirty_input(n: usize, huge: Option<&[u8]>, open_end: bool) -> Vec<u8> {
    let mut rng = Rng::new(0xd1e7);
    let mut input = vec![];
    for i in 0..n {
        if i == n / 2 {
            if let Some(huge) = huge {
                input.extend_from_slice(huge);
                input.push(b'\n');
            }
        }
        // N.B. a line that ends with CR, followed by LF, ends with CRLF:
        // that CR is part of the line end, as `lines` knows.
        input.extend_from_slice(&dirty_line(&mut rng));
        if i + 1 < n || !open_end {
            if rng.one_in(3) {
                input.extend_from_slice(b"\r\n");
            } else {
                input.push(b'\n');
            }
        }
    }
    input
}

/// The rows of a CSV output, read back in byte mode, header checked.
fn rows(out: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut rdr = csv::ReaderBuilder::new().has_headers(true).from_reader(out);
    assert_eq!(
        rdr.byte_headers().unwrap(),
        &csv::ByteRecord::from(vec!["url", "verdict"])
    );
    rdr.byte_records()
        .map(|r| {
            let r = r.expect("output is valid CSV");
            assert_eq!(r.len(), 2, "{r:?}");
            (r[0].to_vec(), r[1].to_vec())
        })
        .collect()
}

/// Asserts exactly one row per line of `input`, in order, its url field
/// the line's bytes and its verdict the library's.
fn assert_one_row_per_line(what: &str, input: &[u8], out: &[u8]) {
    let robots = Robots::parse(EXAMPLE_ROBOTS.as_bytes());
    let matcher = Matcher::new(&robots, "*", Dialect::Rfc9309);
    let mut scratch = matcher.scratch();
    let lines = lines(input);
    let rows = rows(out);
    assert_eq!(
        rows.len(),
        lines.len(),
        "{what}: {} rows for {} lines",
        rows.len(),
        lines.len()
    );
    for (i, (line, (url, verdict))) in lines.iter().zip(&rows).enumerate() {
        assert!(
            url == line,
            "{what}: row {i}: url field {:?} for line {:?}",
            String::from_utf8_lossy(&url[..url.len().min(200)]),
            String::from_utf8_lossy(&line[..line.len().min(200)]),
        );
        let want = matcher.verdict(line, &mut scratch).name();
        assert_eq!(verdict, want.as_bytes(), "{what}: row {i}");
    }
}

/// Runs the binary on `input` as a file and on standard input, with one
/// and two threads, and checks every output.
fn assert_every_way(dir: &Dir, what: &str, input: &[u8]) {
    dir.create("urls.txt", input);
    for threads in ["-j1", "-j2"] {
        let out = dir
            .command()
            .args([threads, "robots.txt", "urls.txt"])
            .stdout_bytes();
        assert_one_row_per_line(
            &format!("{what}, file, {threads}"),
            input,
            &out,
        );
        let out = dir
            .command()
            .args([threads, "robots.txt", "-"])
            .stdin(input)
            .stdout_bytes();
        assert_one_row_per_line(
            &format!("{what}, stdin, {threads}"),
            input,
            &out,
        );
    }
}

rbtest!(dirty_stream_one_row_per_line, |dir: Dir, _: TestCommand| {
    for open_end in [false, true] {
        let input = dirty_input(50_000, None, open_end);
        let what = format!("50,000 dirty lines (open end: {open_end})");
        assert_every_way(&dir, &what, &input);
    }
});

rbtest!(line_of_five_megabytes, |dir: Dir, _: TestCommand| {
    let mut rng = Rng::new(5);
    // A path of 5 MB: commas, quotes, tabs, CRs and raw bytes, never LF.
    let mut huge = b"https://www.example.com/cart/".to_vec();
    while huge.len() < 5 << 20 {
        huge.push(match rng.next_u64() as u8 {
            b'\n' => b',',
            b => b,
        });
    }
    // Alone, with and without its newline.
    assert_every_way(&dir, "one 5 MB line", &huge);
    let mut with_end = huge.clone();
    with_end.extend_from_slice(b"\r\n");
    assert_every_way(&dir, "one 5 MB line, CRLF", &with_end);
    // In the middle of a dirty stream.
    let input = dirty_input(2_000, Some(&huge), true);
    assert_every_way(&dir, "a 5 MB line among 2,000", &input);
});

// A line over the limit still gets its row, holding and judged on its
// first MAX_LINE_BYTES bytes, with a word on standard error; from a file
// or a compressed stream alike.
rbtest!(
    line_over_the_limit_is_cut_with_a_warning,
    |dir: Dir, _: TestCommand| {
        let mut long = b"https://www.example.com/cart/".to_vec();
        long.resize(2 * MAX_LINE_BYTES + 3, b'x');
        let mut input = b"/a\n".to_vec();
        input.extend_from_slice(&long);
        input.extend_from_slice(b"\n/cart/b\n");
        let mut want = b"url,verdict\n/a,allowed\n".to_vec();
        want.extend_from_slice(&long[..MAX_LINE_BYTES]);
        want.extend_from_slice(b",disallowed\n/cart/b,disallowed\n");
        let warning = format!(
        "robots-batch: 1 line longer than {MAX_LINE_BYTES} bytes: its row \
         holds, and was judged on, its first {MAX_LINE_BYTES} bytes\n"
    );
        dir.create("urls.txt", &input);
        let mut gz = flate2::write::GzEncoder::new(vec![], Default::default());
        gz.write_all(&input).unwrap();
        dir.create("urls.txt.gz", gz.finish().unwrap());
        for threads in ["-j1", "-j2"] {
            for (file, stdin) in [
                ("urls.txt", None),
                ("urls.txt.gz", None),
                ("-", Some(&input)),
            ] {
                let mut cmd = dir.command();
                cmd.args([threads, "robots.txt", file]);
                if let Some(stdin) = stdin {
                    cmd.stdin(stdin);
                }
                let out = cmd.output();
                let what = format!("{threads} {file}");
                assert_eq!(out.status.code(), Some(0), "{what}");
                assert!(
                    out.stdout == want,
                    "{what}: {}",
                    show(&out.stdout[..80])
                );
                eqnice!(warning, String::from_utf8(out.stderr).unwrap());
            }
        }
    }
);

rbtest!(error_unreadable_file, |dir: Dir, _: TestCommand| {
    use std::os::unix::fs::PermissionsExt;
    dir.create("urls.txt", "/a\n");
    dir.create("secret.txt", "User-agent: *\nDisallow: /\n");
    let secret = dir.path().join("secret.txt");
    fs::set_permissions(&secret, fs::Permissions::from_mode(0o000)).unwrap();
    if File::open(&secret).is_ok() {
        // Root (or CAP_DAC_OVERRIDE) reads it anyway.
        crate::util::skip("error_unreadable_file", "running as root");
        return;
    }
    let err = dir.command().args(["secret.txt", "urls.txt"]).assert_error();
    assert!(
        err.starts_with("robots-batch: failed to open secret.txt: "),
        "{err}"
    );
    let err = dir.command().args(["robots.txt", "secret.txt"]).assert_error();
    assert!(
        err.starts_with("robots-batch: failed to open secret.txt: "),
        "{err}"
    );
});

rbtest!(error_disk_full, |dir: Dir, _: TestCommand| {
    if !std::path::Path::new("/dev/full").exists() {
        crate::util::skip("error_disk_full", "no /dev/full");
        return;
    }
    // The header alone, and far more than any buffer.
    let big = "https://www.example.com/cart/\n".repeat(200_000);
    for input in ["", "/a\n", &big] {
        dir.create("urls.txt", input);
        for args in [
            &["-j1", "robots.txt", "urls.txt"][..],
            &["-j2", "robots.txt", "urls.txt"],
            &["-j2", "robots.txt", "-"],
        ] {
            let mut cmd = dir.command();
            cmd.args(args);
            let stdin = File::open(dir.path().join("urls.txt")).unwrap();
            let full = File::options().write(true).open("/dev/full").unwrap();
            let out = cmd
                .cmd()
                .stdin(Stdio::from(stdin))
                .stdout(Stdio::from(full))
                .stderr(Stdio::piped())
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            let what = format!("{args:?}, {} bytes in", input.len());
            assert_eq!(out.status.code(), Some(2), "{what}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{what}: {stderr}");
            assert!(
                stderr.starts_with("robots-batch: failed to write output: ")
                    && stderr.contains("No space left on device"),
                "{what}: {stderr}"
            );
        }
    }
});

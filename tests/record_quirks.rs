//! Records whose bytes readers disagree on unless they are read the way
//! the usual tools read them: stray quotes in CSV, CR-only line ends,
//! blank TSV lines, JSON objects with a field twice.

use std::path::Path;
use std::process::Command;

use crate::util::{setup, Dir, TestCommand};

const ROBOTS: &str = "User-agent: *\nDisallow: /private\n\n\
                      User-agent: GPTBot\nDisallow: /\nAllow: /open\n";

fn dir(name: &str) -> (Dir, TestCommand) {
    let (dir, cmd) = setup(name);
    dir.create("robots.txt", ROBOTS);
    (dir, cmd)
}

/// The rows of a CSV text, as the csv crate reads them.
fn rows(text: &[u8]) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text)
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect()
}

/// The rows of a CSV file as Python's csv module reads it in strict mode
/// (`None` without python3, said on stderr).
fn python_rows(path: &Path) -> Option<Vec<Vec<String>>> {
    let script = "import csv, json, sys\n\
                  with open(sys.argv[1], newline='') as f:\n    \
                  print(json.dumps(list(csv.reader(f, strict=True))))";
    let out = match Command::new("python3")
        .args(["-c", script])
        .arg(path)
        .output()
    {
        Ok(out) => out,
        Err(err) => {
            crate::util::skip(
                "the Python csv check",
                &format!("no python3 ({err})"),
            );
            return None;
        }
    };
    assert!(
        out.status.success(),
        "Python's csv cannot read {}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_slice(&out.stdout).unwrap())
}

/// A CSV of `n` records whose second holds a stray quote in an unquoted
/// field and whose later ones quote line breaks.
fn stray_quote_csv(n: usize) -> String {
    let mut input = String::from("url,note\nhttp://a.com/s,a\"b\n");
    for i in 0..n {
        let path = if i % 2 == 0 { "/private" } else { "/open" };
        input.push_str(&format!(
            "http://a.com{path}/{i},\"x\ny, \"\"{i}\"\"\"\n"
        ));
    }
    input
}

// A quote inside an unquoted field is a literal byte (RFC 4180 readers:
// Python's csv, the csv crate), so it cannot make a later quoted line
// break the end of a chunk.
#[test]
fn csv_stray_quote_is_a_literal_and_records_stay_whole() {
    let (dir, mut cmd) = dir("stray_quote");
    let input = stray_quote_csv(200);
    dir.create("in.csv", &input);
    let want = rows(input.as_bytes());
    assert_eq!(want.len(), 202);
    assert_eq!(want[1], ["http://a.com/s", "a\"b"]);
    let out = cmd
        .args(["--input-format", "csv", "-j", "3", "--chunk-size", "64"])
        .args(["robots.txt", "in.csv"])
        .stdout_bytes();
    let got = rows(&out);
    assert_eq!(got.len(), want.len());
    assert_eq!(got[0], ["url", "note", "robots_verdict", "robots_error"]);
    for (row, record) in got.iter().zip(&want).skip(1) {
        assert_eq!(row[..2], record[..], "{row:?}");
        let allowed = !record[0].starts_with("http://a.com/private");
        assert_eq!(row[2], if allowed { "allowed" } else { "disallowed" });
        assert_eq!(row[3], "");
    }
    dir.create("out.csv", &out);
    if let Some(py) = python_rows(&dir.path().join("out.csv")) {
        assert_eq!(py, got);
    }

    // --emit keeps the records whole, and the file reads back.
    let kept = dir
        .command()
        .args(["--input-format", "csv", "--emit", "allowed"])
        .args(["-j", "3", "--chunk-size", "64", "robots.txt", "in.csv"])
        .stdout_bytes();
    let kept_rows = rows(&kept);
    let want_kept: Vec<&Vec<String>> = want
        .iter()
        .enumerate()
        .filter(|(i, r)| *i == 0 || !r[0].starts_with("http://a.com/private"))
        .map(|(_, r)| r)
        .collect();
    assert_eq!(kept_rows.iter().collect::<Vec<_>>(), want_kept);
    dir.create("kept.csv", &kept);
    if let Some(py) = python_rows(&dir.path().join("kept.csv")) {
        assert_eq!(py, kept_rows);
    }
}

// Excel's "CSV (Macintosh)" ends lines with a lone CR: its records are
// read, as the csv crate and Python read them.
#[test]
fn csv_and_tsv_with_cr_only_line_ends_are_read() {
    let (dir, mut cmd) = dir("cr_only");
    dir.create("in.csv", "url,n\r/open/1,\"a\rb\"\r/private/2,c\r/x,d");
    let out = cmd
        .args(["-a", "GPTBot", "--input-format", "csv", "robots.txt"])
        .arg("in.csv")
        .stdout();
    eqnice!(
        "url,n,robots_verdict,robots_error\n\
         /open/1,\"a\rb\",allowed,\n\
         /private/2,c,disallowed,\n\
         /x,d,disallowed,\n",
        out
    );
    // A kept record's lone CR is written as CRLF.
    let kept = dir
        .command()
        .args(["-a", "GPTBot", "--emit", "allowed", "--input-format", "csv"])
        .args(["--chunk-size", "8", "robots.txt", "in.csv"])
        .stdout();
    eqnice!("url,n\r\n/open/1,\"a\rb\"\r\n", kept);

    dir.create("in.tsv", "url\tn\r/open/1\ta\r/private/2\tc\r\n/x\td\r");
    let out = dir
        .command()
        .args(["-a", "GPTBot", "--input-format", "tsv", "robots.txt"])
        .args(["--chunk-size", "8", "in.tsv"])
        .stdout();
    eqnice!(
        "url\tn\trobots_verdict\trobots_error\n\
         /open/1\ta\tallowed\t\n\
         /private/2\tc\tdisallowed\t\n\
         /x\td\tdisallowed\t\n",
        out
    );
}

// TSV has no quoting: a record of one empty field is a blank line, and
// it gets its row like any other.
#[test]
fn tsv_blank_lines_are_records() {
    let (dir, mut cmd) = dir("tsv_blank");
    dir.create("one.tsv", "url\n/private/a\n\n/private/b\n");
    let out =
        cmd.args(["--input-format", "tsv", "robots.txt", "one.tsv"]).stdout();
    eqnice!(
        "url\trobots_verdict\trobots_error\n\
         /private/a\tdisallowed\t\n\
         \tallowed\t\n\
         /private/b\tdisallowed\t\n",
        out
    );
    let kept = dir
        .command()
        .args(["--input-format", "tsv", "--emit", "allowed"])
        .args(["robots.txt", "one.tsv"])
        .stdout();
    eqnice!("url\n\n", kept);
    // With more columns, a blank line is a record of too few fields.
    dir.create("two.tsv", "url\tn\n/a\t1\n\n/b\t2\n");
    let out = dir
        .command()
        .args(["--input-format", "tsv", "robots.txt", "two.tsv"])
        .output();
    eqnice!(
        "url\tn\trobots_verdict\trobots_error\n\
         /a\t1\tallowed\t\n\
         \tunknown\tnot as many fields as the header\n\
         /b\t2\tallowed\t\n",
        String::from_utf8(out.stdout).unwrap()
    );
}

// jq, Python and JavaScript read the last of two fields of one name: the
// URL judged is the one every later tool sees.
#[test]
fn json_duplicate_url_fields_judge_the_last() {
    let (dir, mut cmd) = dir("json_duplicates");
    dir.create(
        "in.jsonl",
        "{\"url\":\"http://a.com/ok\",\"url\":\"http://a.com/private/x\"}\n\
         {\"url\":\"http://a.com/private/y\",\"url\":\"http://a.com/ok\"}\n\
         {\"url\":\"http://a.com/ok\",\"url\":null}\n",
    );
    let kept =
        cmd.args(["--emit", "allowed", "robots.txt", "in.jsonl"]).output();
    eqnice!(
        "{\"url\":\"http://a.com/private/y\",\"url\":\"http://a.com/ok\"}\n",
        kept.stdout
    );
    let out = dir.command().args(["robots.txt", "in.jsonl"]).output();
    let verdicts: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            format!("{} {}", v["robots_verdict"], v["robots_error"])
        })
        .collect();
    assert_eq!(
        verdicts,
        [
            "\"disallowed\" null",
            "\"allowed\" null",
            "\"unknown\" \"the URL field is null\""
        ]
    );

    dir.create(
        "in.cdxj",
        "com,a)/ 20240101000000 {\"url\":\"http://a.com/ok\",\
         \"url\":\"http://a.com/private/x\"}\n\
         com,a)/ 20240101000000 {\"url\":\"http://a.com/private/y\",\
         \"url\":\"http://a.com/ok\"}\n",
    );
    let kept = dir
        .command()
        .args(["--input-format", "cdxj", "--emit", "allowed"])
        .args(["robots.txt", "in.cdxj"])
        .stdout();
    eqnice!(
        "com,a)/ 20240101000000 {\"url\":\"http://a.com/private/y\",\
         \"url\":\"http://a.com/ok\"}\n",
        kept
    );
}

// A robots.txt index line with a field twice is read for the last one,
// as the record readers do.
#[test]
fn crawl_index_duplicate_fields_count_the_last() {
    let (dir, mut cmd) = setup("crawl_index_duplicates");
    dir.create_dir("robots");
    dir.create(
        "index.jsonl",
        "{\"url\": \"http://a.com/robots.txt\", \"status\": 200, \
          \"body\": \"User-agent: *\\nDisallow: /\\n\", \
          \"url\": \"http://b.com/robots.txt\", \
          \"body\": \"User-agent: *\\nDisallow: /b/\\n\"}\n",
    );
    dir.create(
        "log.txt",
        "http://b.com/b/1\nhttp://b.com/a\nhttp://a.com/a\n",
    );
    let got = cmd
        .arg("crawl")
        .args(["--robots-dir", "robots", "--robots-index", "index.jsonl"])
        .args(["--no-header", "log.txt"])
        .stdout();
    let verdicts: Vec<&str> =
        got.lines().map(|l| l.split(',').nth(1).unwrap()).collect();
    // a.com's fetch was overwritten: it has none.
    assert_eq!(verdicts, ["disallowed", "allowed", "unknown"], "{got}");
}

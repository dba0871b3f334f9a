//! Records in (`--input-format`): JSON Lines, CSV, TSV, CDXJ, access logs
//! and WARC files, each judged and written back in its own format, with
//! every byte of the input kept, or filtered by --emit unchanged.

use std::io::{Read, Write};

use crate::util::{setup, Dir, TestCommand};

const ROBOTS: &str = "User-agent: *\nDisallow: /private\n\n\
                      User-agent: GPTBot\nDisallow: /\nAllow: /open\n";

fn dir(name: &str) -> (Dir, TestCommand) {
    let (dir, cmd) = setup(name);
    dir.create("robots.txt", ROBOTS);
    (dir, cmd)
}

/// The verdict of `url`'s path for `*` and for GPTBot under [`ROBOTS`].
fn expected(path: &str, gptbot: bool) -> &'static str {
    let allowed = if gptbot {
        path.starts_with("/open")
    } else {
        !path.starts_with("/private")
    };
    if allowed {
        "allowed"
    } else {
        "disallowed"
    }
}

fn paths() -> Vec<String> {
    (0..300)
        .map(|i| match i % 3 {
            0 => format!("/private/{i}"),
            1 => format!("/open/{i}"),
            _ => format!("/page/{i}?q={i}"),
        })
        .collect()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(vec![], Default::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

#[test]
fn jsonl_zst_with_nested_fields_keeps_every_byte() {
    let (dir, mut cmd) = dir("jsonl_zst");
    let mut input = String::new();
    for (i, path) in paths().iter().enumerate() {
        input.push_str(&format!(
            "{{\"id\":{i},\"meta\":{{\"src\":{{\"url\":\"https://a.com{path}\"}},\"n\":[1,{{\"x\":null}}]}},\"text\":\"caf\\u00e9 \\\"q\\\"\"}}\n"
        ));
    }
    let zst = zstd::encode_all(input.as_bytes(), 3).unwrap();
    dir.create("in.jsonl.zst", &zst);
    let out = cmd
        .args(["-a", "GPTBot", "--url-field", "meta.src.url"])
        .args(["-j", "3", "--chunk-size", "200"])
        .args(["robots.txt", "in.jsonl.zst"])
        .stdout();
    let (ins, outs): (Vec<&str>, Vec<&str>) =
        (input.lines().collect(), out.lines().collect());
    assert_eq!(ins.len(), outs.len());
    for ((line, row), path) in ins.iter().zip(&outs).zip(paths()) {
        let verdict = expected(&path, true);
        let added = format!(",\"robots_verdict\":\"{verdict}\"}}");
        // The record's bytes, then the field, before its closing brace.
        assert_eq!(format!("{}{added}", &line[..line.len() - 1]), *row);
        let value: serde_json::Value = serde_json::from_str(row).unwrap();
        assert_eq!(value["robots_verdict"], verdict);
    }
}

#[test]
fn jsonl_is_detected_and_emit_keeps_lines_unchanged() {
    let (dir, mut cmd) = dir("jsonl_emit");
    let input = "{\"url\":\"https://a.com/x\",\"text\":\"a\"}\r\n\
                 {\"url\":\"https://a.com/private/1\"}\n\
                 {\"url\":\"/open\",  \"t\" : 1 }\n";
    dir.create("in.jsonl", input);
    let out =
        cmd.args(["--emit", "allowed", "robots.txt", "in.jsonl"]).stdout();
    assert_eq!(
        out,
        "{\"url\":\"https://a.com/x\",\"text\":\"a\"}\r\n\
         {\"url\":\"/open\",  \"t\" : 1 }\n"
    );
    let mut cmd = dir.command();
    let out = cmd
        .args(["--emit", "disallowed", "-a", "GPTBot", "robots.txt"])
        .arg("in.jsonl")
        .stdout();
    assert_eq!(
        out,
        "{\"url\":\"https://a.com/x\",\"text\":\"a\"}\r\n\
         {\"url\":\"https://a.com/private/1\"}\n"
    );
}

#[test]
fn jsonl_bad_records_are_kept_unknown_and_counted() {
    let (dir, mut cmd) = dir("jsonl_bad");
    let input = "{\"url\":\"/a\"}\nnot json\n{\"other\":1}\n{\"url\":null}\n\
                 {\"url\":7}\n[1]\n{\"url\":\"/private\",\"robots_verdict\":1}\n\
                 {\"url\":\"/private\"}\n";
    dir.create("in.jsonl", input);
    let out = cmd
        .args(["--input-format", "jsonl", "--stats=json"])
        .args(["robots.txt", "in.jsonl"])
        .output();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<serde_json::Value> =
        stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let errors: Vec<&str> = rows
        .iter()
        .map(|r| r["robots_error"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        errors,
        [
            "",
            "not valid JSON",
            "no URL field",
            "the URL field is null",
            "the URL field is not a string",
            "not a JSON object",
            "has a field named like one robots-batch adds",
            "",
        ]
    );
    let verdicts: Vec<&str> =
        rows.iter().map(|r| r["robots_verdict"].as_str().unwrap()).collect();
    assert_eq!(verdicts[0], "allowed");
    assert_eq!(verdicts[7], "disallowed");
    assert!(verdicts[1..7].iter().all(|&v| v == "unknown"));
    // Records that are no object are kept whole, as a string.
    assert_eq!(rows[1]["robots_record"], "not json");
    assert_eq!(rows[5]["robots_record"], "[1]");
    assert_eq!(rows[3]["url"], serde_json::Value::Null);
    let stderr = String::from_utf8(out.stderr).unwrap();
    let mut lines = stderr.lines();
    assert_eq!(
        lines.next().unwrap(),
        "robots-batch: in.jsonl: record 2: not valid JSON (the first of 6 \
         bad records, each judged unknown)"
    );
    let stats: serde_json::Value =
        serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(stats["lines"], 8);
    assert_eq!(stats["bad_records"], 6);
    assert_eq!(stats["unknown"], 6);
    assert_eq!(stats["allowed"], 1);
    assert_eq!(stats["disallowed"], 1);
}

#[test]
fn csv_with_quoted_line_breaks_round_trips() {
    let (dir, mut cmd) = dir("csv_round_trip");
    let mut input = String::from("id,note,url\r\n");
    for (i, path) in paths().iter().enumerate() {
        input.push_str(&format!(
            "{i},\"line one\nline \"\"two\"\", three\",https://a.com{path}\r\n"
        ));
    }
    dir.create("in.csv", &input);
    let out = cmd
        .args(["--input-format", "csv", "-j", "3", "--chunk-size", "64"])
        .args(["robots.txt", "in.csv"])
        .stdout();
    let mut rdr = csv::Reader::from_reader(out.as_bytes());
    assert_eq!(
        rdr.headers().unwrap(),
        vec!["id", "note", "url", "robots_verdict", "robots_error"]
    );
    let mut original = csv::Reader::from_reader(input.as_bytes());
    let rows: Vec<csv::StringRecord> =
        rdr.records().map(Result::unwrap).collect();
    let records: Vec<csv::StringRecord> =
        original.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), paths().len());
    for ((row, record), path) in rows.iter().zip(&records).zip(paths()) {
        assert_eq!(
            &row.iter().take(3).collect::<Vec<_>>()[..],
            record.iter().collect::<Vec<_>>()
        );
        assert_eq!(&row[3], expected(&path, false));
        assert_eq!(&row[4], "");
    }
    // --emit keeps the header and each kept record's bytes.
    let mut cmd = dir.command();
    let out = cmd
        .args(["--input-format", "csv", "--emit", "disallowed"])
        .args(["--chunk-size", "50", "robots.txt", "in.csv"])
        .stdout();
    let mut want = String::from("id,note,url\r\n");
    for (i, path) in paths().iter().enumerate() {
        if path.starts_with("/private") {
            want.push_str(&format!(
                "{i},\"line one\nline \"\"two\"\", three\",https://a.com{path}\r\n"
            ));
        }
    }
    assert_eq!(out, want);
}

// CSV from Windows tools ends its lines in `\r\n`: one row each, and
// --emit keeps every byte.
#[test]
fn csv_crlf_records_keep_one_row_each() {
    let (dir, mut cmd) = dir("csv_crlf");
    let input = "url,note\r\n/open/1,\"a,\r\nb\"\r\n/private/2,c\r\n/x,d\r\n";
    dir.create("in.csv", input);
    let out = cmd
        .args(["-a", "GPTBot", "--input-format", "csv", "robots.txt"])
        .arg("in.csv")
        .stdout();
    eqnice!(
        "url,note,robots_verdict,robots_error\n\
         /open/1,\"a,\r\nb\",allowed,\n\
         /private/2,c,disallowed,\n\
         /x,d,disallowed,\n",
        out
    );
    let kept = dir
        .command()
        .args(["--emit", "allowed", "--input-format", "csv"])
        .args(["robots.txt", "in.csv"])
        .stdout();
    eqnice!("url,note\r\n/open/1,\"a,\r\nb\"\r\n/x,d\r\n", kept);
}

#[test]
fn csv_bad_records_and_headers() {
    let (dir, mut cmd) = dir("csv_bad");
    dir.create("in.csv", "url,n\n/private,1\n/a\n/b,2,3\n/c,4\n");
    let out =
        cmd.args(["--input-format", "csv", "robots.txt", "in.csv"]).output();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "url,n,robots_verdict,robots_error\n/private,1,disallowed,\n\
         /a,unknown,not as many fields as the header\n\
         /b,2,3,unknown,not as many fields as the header\n/c,4,allowed,\n"
    );
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "robots-batch: in.csv: record 2: not as many fields as the header \
         (the first of 2 bad records, each judged unknown)\n"
    );
    let mut cmd = dir.command();
    let err = cmd
        .args(["--input-format", "csv", "--url-column", "link"])
        .args(["robots.txt", "in.csv"])
        .assert_error();
    assert!(err.contains("no column \"link\" in the header"), "{err}");
    dir.create("again.csv", "url,robots_verdict\n/a,allowed\n");
    let mut cmd = dir.command();
    let err = cmd
        .args(["--input-format", "csv", "robots.txt", "again.csv"])
        .assert_error();
    assert!(err.contains("already has a column \"robots_verdict\""), "{err}");
}

#[test]
fn tsv_with_several_agents_and_explanations() {
    let (dir, mut cmd) = dir("tsv");
    dir.create("in.tsv", "link\tx\n/private/a\t1\n/open\t2\n");
    let out = cmd
        .args(["--input-format", "tsv", "--url-column", "link", "--explain"])
        .args(["-a", "GPTBot,CCBot", "robots.txt", "in.tsv"])
        .stdout();
    let mut lines = out.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    assert_eq!(
        header,
        [
            "link",
            "x",
            "robots_verdict.GPTBot",
            "robots_line.GPTBot",
            "robots_rule.GPTBot",
            "robots_group.GPTBot",
            "robots_reason.GPTBot",
            "robots_verdict.CCBot",
            "robots_line.CCBot",
            "robots_rule.CCBot",
            "robots_group.CCBot",
            "robots_reason.CCBot",
            "robots_error"
        ]
    );
    assert_eq!(
        lines.next().unwrap(),
        "/private/a\t1\tdisallowed\t5\tDisallow: /\tGPTBot\trule\
         \tdisallowed\t2\tDisallow: /private\t*\trule\t"
    );
    assert_eq!(
        lines.next().unwrap(),
        "/open\t2\tallowed\t6\tAllow: /open\tGPTBot\trule\
         \tallowed\t\t\t*\tno-matching-rule\t"
    );
}

#[test]
fn cdxj_lines_get_the_fields_in_their_json() {
    let (dir, mut cmd) = dir("cdxj");
    let input = "com,a)/ 20240101000000 {\"url\": \"https://a.com/\", \"mime\": \"text/html\", \"status\": \"200\"}\n\
                 com,a)/private 20240102000000 {\"url\": \"https://a.com/private\", \"status\": \"301\"}\n\
                 com,a)/x 20240103000000\n";
    dir.create("index.cdxj", gzip(input.as_bytes()));
    let out = cmd
        .args(["--input-format", "cdxj", "robots.txt", "index.cdxj"])
        .output();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "com,a)/ 20240101000000 {\"url\": \"https://a.com/\", \"mime\": \"text/html\", \"status\": \"200\",\"robots_verdict\":\"allowed\"}\n\
         com,a)/private 20240102000000 {\"url\": \"https://a.com/private\", \"status\": \"301\",\"robots_verdict\":\"disallowed\"}\n\
         com,a)/x 20240103000000 {\"robots_record\":\"\",\"robots_verdict\":\"unknown\",\"robots_error\":\"no JSON after the SURT key and timestamp\"}\n"
    );
    let mut cmd = dir.command();
    let out = cmd
        .args(["--input-format", "cdxj", "--emit", "allowed"])
        .args(["robots.txt", "index.cdxj"])
        .assert_exit_code(0);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        input.lines().next().unwrap().to_string() + "\n"
    );
}

const LOG: &str = r#"66.249.66.1 - - [10/Oct/2025:13:55:36 +0000] "GET /private/a HTTP/1.1" 200 2326 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
20.15.240.1 - - [10/Oct/2025:13:55:37 +0000] "GET /open/b?x=1 HTTP/1.1" 200 120 "-" "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
20.15.240.2 - - [10/Oct/2025:13:55:38 +0000] "GET /page HTTP/1.1" 200 120 "-" "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
10.0.0.1 - - [10/Oct/2025:13:55:39 +0000] "GET /private HTTP/2.0" 200 512 "https://a.com/" "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36"
10.0.0.2 - - [10/Oct/2025:13:55:40 +0000] "GET /private/x HTTP/1.1" 200 99 "-" "CCBot/2.0 (https://commoncrawl.org/faq/)"
10.0.0.3 - - [10/Oct/2025:13:55:41 +0000] "\x16\x03\x01" 400 0 "-" "-"
"#;

#[test]
fn access_log_lines_are_judged_for_their_own_agents() {
    let (dir, mut cmd) = dir("access_log");
    dir.create("access.log", LOG);
    let out = cmd
        .args(["--input-format", "access-log", "robots.txt", "access.log"])
        .output();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let added: Vec<&str> = stdout
        .lines()
        .zip(LOG.lines())
        .map(|(row, line)| row.strip_prefix(line).unwrap())
        .collect();
    assert_eq!(
        added,
        [
            r#" robots_agent="Googlebot" robots_verdict="disallowed""#,
            r#" robots_agent="GPTBot" robots_verdict="allowed""#,
            r#" robots_agent="GPTBot" robots_verdict="disallowed""#,
            r#" robots_agent="*" robots_verdict="disallowed""#,
            r#" robots_agent="CCBot" robots_verdict="disallowed""#,
            r#" robots_agent="*" robots_verdict="unknown" robots_error="no request line with a path""#,
        ]
    );
    // The requests that broke the robots.txt, as logged.
    let mut cmd = dir.command();
    let out = cmd
        .args(["--input-format", "access-log", "--emit", "disallowed"])
        .args(["robots.txt", "access.log"])
        .output();
    let want: Vec<&str> =
        LOG.lines().filter(|l| !l.contains("/open/b")).take(4).collect();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), want.join("\n") + "\n");
    let mut cmd = dir.command();
    let err = cmd
        .args(["--input-format", "access-log", "-a", "GPTBot"])
        .args(["robots.txt", "access.log"])
        .assert_error();
    assert!(
        err.contains("-a, --agents and --agents-file do not apply"),
        "{err}"
    );
}

/// A WARC record's bytes.
fn warc_record(
    kind: &str,
    uri: Option<&str>,
    id: u32,
    block: &str,
) -> Vec<u8> {
    let mut head = format!(
        "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{id}>\r\n"
    );
    if let Some(uri) = uri {
        head.push_str(&format!("WARC-Target-URI: {uri}\r\n"));
    }
    head.push_str(&format!(
        "Content-Length: {}\r\n\r\n{block}\r\n\r\n",
        block.len()
    ));
    head.into_bytes()
}

fn warc_records() -> Vec<Vec<u8>> {
    vec![
        warc_record("warcinfo", None, 1, "software: test\r\n"),
        warc_record(
            "request",
            Some("https://a.com/open/1"),
            2,
            "GET /open/1 HTTP/1.1\r\nHost: a.com\r\n\r\n",
        ),
        warc_record(
            "response",
            Some("https://a.com/open/1"),
            3,
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nhello",
        ),
        warc_record(
            "response",
            Some("<https://a.com/private/2>"),
            4,
            "HTTP/1.1 200 OK\r\n\r\nsecret",
        ),
        warc_record(
            "revisit",
            Some("https://a.com/page"),
            5,
            "HTTP/1.1 200 OK\r\n\r\n",
        ),
        warc_record(
            "metadata",
            Some("https://a.com/private/3"),
            6,
            "via: x\r\n",
        ),
    ]
}

#[test]
fn warc_gzip_members_are_copied_byte_for_byte() {
    let (dir, mut cmd) = dir("warc_gz");
    let records = warc_records();
    let members: Vec<Vec<u8>> = records.iter().map(|r| gzip(r)).collect();
    dir.create("in.warc.gz", members.concat());
    let out =
        cmd.args(["-a", "GPTBot,CCBot", "robots.txt", "in.warc.gz"]).stdout();
    assert_eq!(
        out,
        "warc_record_id,warc_type,url,robots_verdict.GPTBot,robots_verdict.CCBot,robots_error\n\
         <urn:uuid:1>,warcinfo,,,,\n\
         <urn:uuid:2>,request,https://a.com/open/1,allowed,allowed,\n\
         <urn:uuid:3>,response,https://a.com/open/1,allowed,allowed,\n\
         <urn:uuid:4>,response,https://a.com/private/2,disallowed,disallowed,\n\
         <urn:uuid:5>,revisit,https://a.com/page,disallowed,allowed,\n\
         <urn:uuid:6>,metadata,https://a.com/private/3,disallowed,disallowed,\n"
    );
    // The kept records' gzip members, as they were, and the warcinfo.
    let mut cmd = dir.command();
    let out = cmd
        .args(["-a", "GPTBot", "--emit", "allowed", "-o", "kept.warc.gz"])
        .args(["robots.txt", "in.warc.gz"])
        .output();
    assert!(out.status.success(), "{out:?}");
    let kept = std::fs::read(dir.path().join("kept.warc.gz")).unwrap();
    assert_eq!(kept, [&members[0][..], &members[1], &members[2]].concat());
    let mut cmd = dir.command();
    let out = cmd
        .args([
            "-a",
            "GPTBot",
            "--emit",
            "disallowed",
            "robots.txt",
            "in.warc.gz",
        ])
        .stdout_bytes();
    assert_eq!(
        out,
        [&members[0][..], &members[3], &members[4], &members[5]].concat()
    );
}

#[test]
fn warc_plain_emit_and_truncated_record() {
    let (dir, mut cmd) = dir("warc_plain");
    let records = warc_records();
    dir.create("in.warc", records.concat());
    let out = cmd
        .args(["--emit", "allowed", "robots.txt", "in.warc"])
        .stdout_bytes();
    let want: Vec<u8> =
        [0, 1, 2, 4].iter().flat_map(|&i| records[i].clone()).collect();
    assert_eq!(out, want);
    // A block cut short: its row says so, and it is the last.
    let mut cut = records[..3].concat();
    cut.truncate(cut.len() - 10);
    dir.create("cut.warc", &cut);
    let mut cmd = dir.command();
    let out = cmd
        .args(["--input-format", "warc", "--stats", "robots.txt", "cut.warc"])
        .output();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.ends_with(
            "<urn:uuid:3>,response,https://a.com/open/1,unknown,\
         truncated (its block ends before its Content-Length)\n"
        ),
        "{stdout}"
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with("robots-batch: cut.warc: record 3: truncated"),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "3 lines, 1 allowed, 0 disallowed, 1 unknown, 1 bad records"
        ),
        "{stderr}"
    );
    // A header that cannot be read is an error.
    dir.create("junk.warc", "WARC/1.0\r\nContent-Length: x\r\n\r\n");
    let mut cmd = dir.command();
    let err = cmd.args(["robots.txt", "junk.warc"]).assert_error();
    assert!(err.contains("WARC record 1 has a bad Content-Length"), "{err}");
}

#[test]
fn output_compressed_by_extension_or_flag() {
    let (dir, mut cmd) = dir("compress");
    dir.create("in.jsonl", "{\"url\":\"/a\"}\n{\"url\":\"/private\"}\n");
    let plain = cmd.args(["robots.txt", "in.jsonl"]).stdout();
    let mut cmd = dir.command();
    cmd.args(["-o", "out.jsonl.gz", "robots.txt", "in.jsonl"]).stdout();
    let gz = std::fs::read(dir.path().join("out.jsonl.gz")).unwrap();
    let mut text = String::new();
    flate2::read::GzDecoder::new(&gz[..]).read_to_string(&mut text).unwrap();
    assert_eq!(text, plain);
    let mut cmd = dir.command();
    let zst = cmd
        .args(["--compress", "zstd", "robots.txt", "in.jsonl"])
        .stdout_bytes();
    assert_eq!(zstd::decode_all(&zst[..]).unwrap(), plain.as_bytes());
}

#[test]
fn table_flags_do_not_apply_to_records() {
    let (dir, mut cmd) = dir("records_flags");
    dir.create("in.jsonl", "{\"url\":\"/a\"}\n");
    let err =
        cmd.args(["--format", "tsv", "robots.txt", "in.jsonl"]).assert_error();
    assert!(
        err.contains("--format and --layout apply to lines of URLs"),
        "{err}"
    );
}

/// `--usage` on records: each agent's AI usage preferences follow its
/// verdict fields, named `robots_train_ai`... so as not to clash, and
/// equal to what the line mode says of the same URLs.
mod usage_fields {
    use std::sync::Arc;

    use arrow_array::builder::StringBuilder;
    use arrow_array::cast::AsArray;
    use arrow_array::types::UInt32Type;
    use arrow_array::{Array, RecordBatch};
    use arrow_schema::{DataType, Field, Schema};
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use parquet::arrow::ArrowWriter;

    use super::{warc_record, LOG};
    use crate::util::{setup, Dir, TestCommand};

    /// Usage lines in groups (with and without paths, a wildcard one) and
    /// a Content-Signal line before any group, for every agent.
    const ROBOTS: &str = "Content-Signal: search=yes, ai-input=no\n\
                          \n\
                          User-agent: *\n\
                          Disallow: /private\n\
                          Content-Usage: train-ai=n\n\
                          Content-Usage: /blog/ train-ai=y\n\
                          \n\
                          User-agent: GPTBot\n\
                          Disallow: /\n\
                          Allow: /open\n\
                          Allow: /blog\n\
                          Content-Usage: /open/ search=n\n\
                          Content-Usage: /open/*.pdf$ train-ai=n\n";

    fn dir(name: &str) -> (Dir, TestCommand) {
        let (dir, cmd) = setup(name);
        dir.create("robots.txt", ROBOTS);
        (dir, cmd)
    }

    /// URLs whose verdicts differ between GPTBot and CCBot (`*`).
    const URLS: [&str; 5] = [
        "https://a.com/open/x",
        "/blog/%7Ep",
        "https://a.com/private/q",
        "https://a.com/page",
        "https://a.com/open/r.pdf",
    ];

    /// The JSON fields added for GPTBot and CCBot: each `"verdict"` or
    /// `"verdict train-ai search ai-input"`.
    fn fields(gptbot: &str, ccbot: &str) -> String {
        let agent = |a: &str, said: &str| {
            let words: Vec<&str> = said.split(' ').collect();
            let prefs: Vec<String> = match words[1..] {
                [] => vec!["null".to_string(); 3],
                ref p => p.iter().map(|x| format!("\"{x}\"")).collect(),
            };
            format!(
                "\"robots_verdict.{a}\":\"{}\",\"robots_train_ai.{a}\":{},\
                 \"robots_search.{a}\":{},\"robots_ai_input.{a}\":{}",
                words[0], prefs[0], prefs[1], prefs[2]
            )
        };
        format!("{},{}", agent("GPTBot", gptbot), agent("CCBot", ccbot))
    }

    #[test]
    fn jsonl_records_get_each_agents_preferences() {
        let (dir, mut cmd) = dir("usage_jsonl");
        let mut input = String::new();
        for (i, url) in URLS.iter().enumerate() {
            input.push_str(&format!(
                "{{\"id\":{i},\"meta\":{{\"url\":\"{url}\"}}}}\n"
            ));
        }
        input.push_str("{\"id\":5,\"meta\":{\"url\":null}}\n");
        dir.create("in.jsonl", &input);
        let out = cmd
            .args(["-a", "GPTBot,CCBot", "--usage", "--url-field", "meta.url"])
            .args(["robots.txt", "in.jsonl"])
            .output();
        assert!(out.status.success(), "{out:?}");
        let want = [
            fields(
                "allowed unknown disallowed disallowed",
                "allowed disallowed allowed disallowed",
            ),
            fields(
                "allowed unknown allowed disallowed",
                "allowed allowed allowed disallowed",
            ),
            fields("disallowed", "disallowed"),
            fields("disallowed", "allowed disallowed allowed disallowed"),
            // The longest matching Content-Usage line decides alone: the
            // wildcard one says nothing of search, the signal does.
            fields(
                "allowed disallowed allowed disallowed",
                "allowed disallowed allowed disallowed",
            ),
            fields("unknown", "unknown")
                + ",\"robots_error\":\"the URL field is null\"",
        ];
        let stdout = String::from_utf8(out.stdout).unwrap();
        let rows: Vec<&str> = stdout.lines().collect();
        assert_eq!(rows.len(), want.len());
        for ((row, line), added) in rows.iter().zip(input.lines()).zip(&want) {
            let record = &line[..line.len() - 1];
            assert_eq!(*row, format!("{record},{added}}}"));
        }
        // One agent, with explanations: the fields unsuffixed, each
        // preference's deciding line after them.
        let mut cmd = dir.command();
        let out = cmd
            .args(["-a", "GPTBot", "--usage", "--explain"])
            .args(["--url-field", "meta.url", "robots.txt", "in.jsonl"])
            .output();
        let stdout = String::from_utf8(out.stdout).unwrap();
        let rows: Vec<&str> = stdout.lines().collect();
        assert_eq!(
            rows[0],
            "{\"id\":0,\"meta\":{\"url\":\"https://a.com/open/x\"},\
             \"robots_verdict\":\"allowed\",\"robots_line\":10,\
             \"robots_rule\":\"Allow: /open\",\"robots_group\":\"GPTBot\",\
             \"robots_reason\":\"rule\",\"robots_train_ai\":\"unknown\",\
             \"robots_search\":\"disallowed\",\"robots_ai_input\":\"disallowed\",\
             \"robots_train_ai_line\":null,\"robots_search_line\":12,\
             \"robots_ai_input_line\":1}"
        );
        assert_eq!(
            rows[2],
            "{\"id\":2,\"meta\":{\"url\":\"https://a.com/private/q\"},\
             \"robots_verdict\":\"disallowed\",\"robots_line\":9,\
             \"robots_rule\":\"Disallow: /\",\"robots_group\":\"GPTBot\",\
             \"robots_reason\":\"rule\",\"robots_train_ai\":null,\
             \"robots_search\":null,\"robots_ai_input\":null,\
             \"robots_train_ai_line\":null,\"robots_search_line\":null,\
             \"robots_ai_input_line\":null}"
        );
        assert_eq!(
            rows[4],
            "{\"id\":4,\"meta\":{\"url\":\"https://a.com/open/r.pdf\"},\
             \"robots_verdict\":\"allowed\",\"robots_line\":10,\
             \"robots_rule\":\"Allow: /open\",\"robots_group\":\"GPTBot\",\
             \"robots_reason\":\"rule\",\"robots_train_ai\":\"disallowed\",\
             \"robots_search\":\"allowed\",\"robots_ai_input\":\"disallowed\",\
             \"robots_train_ai_line\":13,\"robots_search_line\":1,\
             \"robots_ai_input_line\":1}"
        );
        assert_eq!(
            rows[5],
            "{\"id\":5,\"meta\":{\"url\":null},\"robots_verdict\":\"unknown\",\
             \"robots_line\":null,\"robots_rule\":null,\"robots_group\":null,\
             \"robots_reason\":null,\"robots_train_ai\":null,\
             \"robots_search\":null,\"robots_ai_input\":null,\
             \"robots_train_ai_line\":null,\"robots_search_line\":null,\
             \"robots_ai_input_line\":null,\
             \"robots_error\":\"the URL field is null\"}"
        );
    }

    #[test]
    fn csv_records_get_usage_columns_and_bad_ones_empty() {
        let (dir, mut cmd) = dir("usage_csv");
        dir.create(
            "in.csv",
            "n,link\n1,https://a.com/open/x\n2,\"/blog/%7Ep\"\n3,/private\n4\n",
        );
        let out = cmd
            .args(["--input-format", "csv", "--url-column", "link"])
            .args(["-a", "GPTBot,CCBot", "--usage", "--explain"])
            .args(["robots.txt", "in.csv"])
            .output();
        assert!(out.status.success(), "{out:?}");
        let mut header = vec!["n".to_string(), "link".to_string()];
        for agent in ["GPTBot", "CCBot"] {
            for name in [
                "verdict",
                "line",
                "rule",
                "group",
                "reason",
                "train_ai",
                "search",
                "ai_input",
                "train_ai_line",
                "search_line",
                "ai_input_line",
            ] {
                header.push(format!("robots_{name}.{agent}"));
            }
        }
        header.push("robots_error".to_string());
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            format!(
                "{}\n\
                 1,https://a.com/open/x,allowed,10,Allow: /open,GPTBot,rule,unknown,disallowed,disallowed,,12,1,\
                 allowed,,,*,no-matching-rule,disallowed,allowed,disallowed,5,1,1,\n\
                 2,\"/blog/%7Ep\",allowed,11,Allow: /blog,GPTBot,rule,unknown,allowed,disallowed,,1,1,\
                 allowed,,,*,no-matching-rule,allowed,allowed,disallowed,6,1,1,\n\
                 3,/private,disallowed,9,Disallow: /,GPTBot,rule,,,,,,,\
                 disallowed,4,Disallow: /private,*,rule,,,,,,,\n\
                 4,unknown,,,,,,,,,,,unknown,,,,,,,,,,,not as many fields as the header\n",
                header.join(",")
            )
        );
        // A header with a column named like a usage field is refused, as
        // robots-batch's own output would be.
        dir.create("clash.csv", "url,robots_search\n/a,x\n");
        let mut cmd = dir.command();
        let err = cmd
            .args([
                "--input-format",
                "csv",
                "--usage",
                "robots.txt",
                "clash.csv",
            ])
            .assert_error();
        assert!(
            err.contains("already has a column \"robots_search\""),
            "{err}"
        );
        let mut cmd = dir.command();
        let out = cmd
            .args(["--input-format", "csv", "robots.txt", "clash.csv"])
            .stdout();
        assert_eq!(
            out,
            "url,robots_search,robots_verdict,robots_error\n/a,x,allowed,\n"
        );
    }

    #[test]
    fn usage_is_refused_with_emit_and_count() {
        let (dir, _) = dir("usage_emit");
        dir.create("in.jsonl", "{\"url\":\"/open\"}\n");
        for flag in [&["--emit", "allowed"][..], &["-c"]] {
            let mut cmd = dir.command();
            let err = cmd
                .args(flag)
                .args(["--usage", "robots.txt", "in.jsonl"])
                .assert_error();
            assert!(err.contains("cannot be used with '--usage'"), "{err}");
        }
    }

    #[test]
    fn access_log_lines_get_their_own_agents_preferences() {
        let (dir, mut cmd) = dir("usage_access_log");
        dir.create("access.log", LOG);
        let out = cmd
            .args(["--input-format", "access-log", "--usage", "--explain"])
            .args(["robots.txt", "access.log"])
            .output();
        assert!(out.status.success(), "{out:?}");
        let stdout = String::from_utf8(out.stdout).unwrap();
        let added: Vec<&str> = stdout
            .lines()
            .zip(LOG.lines())
            .map(|(row, line)| row.strip_prefix(line).unwrap())
            .collect();
        let none = r#" robots_train_ai="" robots_search="" robots_ai_input="" robots_train_ai_line="" robots_search_line="" robots_ai_input_line="""#;
        assert_eq!(
            added,
            [
                format!(
                    r#" robots_agent="Googlebot" robots_verdict="disallowed" robots_line="4" robots_rule="Disallow: /private" robots_group="*" robots_reason="rule"{none}"#
                ),
                r#" robots_agent="GPTBot" robots_verdict="allowed" robots_line="10" robots_rule="Allow: /open" robots_group="GPTBot" robots_reason="rule" robots_train_ai="unknown" robots_search="disallowed" robots_ai_input="disallowed" robots_train_ai_line="" robots_search_line="12" robots_ai_input_line="1""#.to_string(),
                format!(
                    r#" robots_agent="GPTBot" robots_verdict="disallowed" robots_line="9" robots_rule="Disallow: /" robots_group="GPTBot" robots_reason="rule"{none}"#
                ),
                format!(
                    r#" robots_agent="*" robots_verdict="disallowed" robots_line="4" robots_rule="Disallow: /private" robots_group="*" robots_reason="rule"{none}"#
                ),
                format!(
                    r#" robots_agent="CCBot" robots_verdict="disallowed" robots_line="4" robots_rule="Disallow: /private" robots_group="*" robots_reason="rule"{none}"#
                ),
                r#" robots_agent="*" robots_verdict="unknown" robots_error="no request line with a path""#.to_string(),
            ]
        );
        // An allowed request of an agent of the `*` group.
        dir.create(
            "ccbot.log",
            "10.0.0.2 - - [10/Oct/2025:13:55:40 +0000] \"GET /blog/%7Ep HTTP/1.1\" 200 99 \"-\" \"CCBot/2.0\"\n",
        );
        let mut cmd = dir.command();
        let out = cmd
            .args(["--input-format", "access-log", "--usage"])
            .args(["robots.txt", "ccbot.log"])
            .stdout();
        assert!(
            out.ends_with(
                " robots_agent=\"CCBot\" robots_verdict=\"allowed\" \
                 robots_train_ai=\"allowed\" robots_search=\"allowed\" \
                 robots_ai_input=\"disallowed\"\n"
            ),
            "{out}"
        );
    }

    #[test]
    fn warc_report_gets_usage_columns() {
        let (dir, mut cmd) = dir("usage_warc");
        let records = [
            warc_record("warcinfo", None, 1, "software: test\r\n"),
            warc_record(
                "response",
                Some("https://a.com/open/1"),
                2,
                "HTTP/1.1 200 OK\r\n\r\nhello",
            ),
            warc_record(
                "response",
                Some("https://a.com/private/2"),
                3,
                "HTTP/1.1 200 OK\r\n\r\nsecret",
            ),
        ];
        dir.create("in.warc", records.concat());
        let out = cmd
            .args(["-a", "GPTBot", "--usage", "robots.txt", "in.warc"])
            .stdout();
        assert_eq!(
            out,
            "warc_record_id,warc_type,url,robots_verdict,robots_train_ai,robots_search,robots_ai_input,robots_error\n\
             <urn:uuid:1>,warcinfo,,,,,,\n\
             <urn:uuid:2>,response,https://a.com/open/1,allowed,unknown,disallowed,disallowed,\n\
             <urn:uuid:3>,response,https://a.com/private/2,disallowed,,,,\n"
        );
    }

    #[test]
    fn parquet_usage_columns_are_nullable_strings_and_line_numbers() {
        let (dir, mut cmd) = dir("usage_parquet");
        let mut url = StringBuilder::new();
        for u in URLS {
            url.append_value(u);
        }
        url.append_null();
        let schema = Arc::new(Schema::new(vec![Field::new(
            "url",
            DataType::Utf8,
            true,
        )]));
        let batch =
            RecordBatch::try_new(schema.clone(), vec![Arc::new(url.finish())])
                .unwrap();
        let mut bytes = vec![];
        let mut writer =
            ArrowWriter::try_new(&mut bytes, schema, None).unwrap();
        writer.write(&batch).unwrap();
        writer.close().unwrap();
        dir.create("in.parquet", &bytes);
        let out = cmd
            .args(["-a", "GPTBot,CCBot", "--usage", "--explain"])
            .args(["-o", "out.parquet", "robots.txt", "in.parquet"])
            .output();
        assert!(out.status.success(), "{out:?}");
        let file =
            std::fs::File::open(dir.path().join("out.parquet")).unwrap();
        let reader = ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .build()
            .unwrap();
        let batches: Vec<RecordBatch> = reader.map(Result::unwrap).collect();
        let output = arrow_select::concat::concat_batches(
            &batches[0].schema(),
            &batches,
        )
        .unwrap();
        let schema = output.schema();
        for name in ["robots_train_ai.GPTBot", "robots_ai_input.CCBot"] {
            let field = schema.field_with_name(name).unwrap();
            assert_eq!(field.data_type(), &DataType::Utf8, "{name}");
            assert!(field.is_nullable());
        }
        for name in [
            "robots_line.GPTBot",
            "robots_train_ai_line.GPTBot",
            "robots_search_line.CCBot",
        ] {
            let field = schema.field_with_name(name).unwrap();
            assert_eq!(field.data_type(), &DataType::UInt32, "{name}");
        }
        let text = |name: &str| -> Vec<Option<String>> {
            let c = output.column_by_name(name).unwrap().as_string::<i32>();
            (0..c.len())
                .map(|i| (!c.is_null(i)).then(|| c.value(i).to_string()))
                .collect()
        };
        let number = |name: &str| -> Vec<Option<u32>> {
            let c = output
                .column_by_name(name)
                .unwrap()
                .as_primitive::<UInt32Type>();
            (0..c.len()).map(|i| (!c.is_null(i)).then(|| c.value(i))).collect()
        };
        let s = |v: &[Option<&str>]| -> Vec<Option<String>> {
            v.iter().map(|x| x.map(String::from)).collect()
        };
        let (a, d, u) = (Some("allowed"), Some("disallowed"), Some("unknown"));
        assert_eq!(
            text("robots_train_ai.GPTBot"),
            s(&[u, u, None, None, d, None])
        );
        assert_eq!(
            text("robots_search.GPTBot"),
            s(&[d, a, None, None, a, None])
        );
        assert_eq!(
            text("robots_ai_input.CCBot"),
            s(&[d, d, None, d, d, None])
        );
        assert_eq!(
            text("robots_train_ai.CCBot"),
            s(&[d, a, None, d, d, None])
        );
        assert_eq!(
            number("robots_train_ai_line.GPTBot"),
            [None, None, None, None, Some(13), None]
        );
        assert_eq!(
            number("robots_search_line.GPTBot"),
            [Some(12), Some(1), None, None, Some(1), None]
        );
        assert_eq!(
            number("robots_train_ai_line.CCBot"),
            [Some(5), Some(6), None, Some(5), Some(5), None]
        );
        assert_eq!(
            text("robots_error"),
            s(&[None, None, None, None, None, Some("the URL field is null")])
        );
    }

    /// URLs that exercise the path's extraction and normalisation:
    /// schemes, ports, no host, percent-encoding, queries, fragments,
    /// wildcards' `$`, case, commas and quotes.
    fn tricky_urls() -> Vec<String> {
        let hosts = ["https://a.com", "http://A.com:8080", "a.com", ""];
        let paths = [
            "/",
            "/open",
            "/open/",
            "/open/x",
            "/open/r.pdf",
            "/open/r.pdf?x=1",
            "/open/r.PDF",
            "/open/%72.pdf",
            "/open/a%2Fb.pdf",
            "/%6Fpen/x",
            "/open/x#frag.pdf",
            "/open/\u{e9}.pdf",
            "/open/a,b\"c",
            "/open/x?y=/blog/",
            "/blog",
            "/blog/",
            "/blog/%7Ep",
            "/blog/%7ep",
            "/Blog/x",
            "/private",
            "/private/q",
            "/page",
            "?q",
        ];
        let mut urls = vec![];
        for host in hosts {
            for path in paths {
                urls.push(format!("{host}{path}"));
            }
        }
        urls
    }

    /// The line mode's rows for `urls`, in `--layout long`: per URL and
    /// agent, the verdict then each usage column and its line.
    fn line_mode(dir: &Dir, urls: &[String]) -> Vec<Vec<serde_json::Value>> {
        dir.create("urls.txt", urls.join("\n") + "\n");
        let out = dir
            .command()
            .args(["-a", "GPTBot,CCBot", "--usage", "--explain"])
            .args(["--layout", "long", "--format", "jsonl"])
            .args(["robots.txt", "urls.txt"])
            .stdout();
        let rows: Vec<serde_json::Value> =
            out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(rows.len(), urls.len() * 2);
        rows.iter()
            .enumerate()
            .map(|(i, row)| {
                assert_eq!(row["url"], urls[i / 2].as_str());
                assert_eq!(row["agent"], ["GPTBot", "CCBot"][i % 2]);
                [
                    "verdict",
                    "train-ai",
                    "search",
                    "ai-input",
                    "train-ai-line",
                    "search-line",
                    "ai-input-line",
                ]
                .iter()
                .map(|k| row[k].clone())
                .collect()
            })
            .collect()
    }

    /// A record's fields as [`line_mode`] gives them, from `get(name)`.
    fn record_fields(
        get: impl Fn(&str) -> serde_json::Value,
        agent: &str,
    ) -> Vec<serde_json::Value> {
        [
            "verdict",
            "train_ai",
            "search",
            "ai_input",
            "train_ai_line",
            "search_line",
            "ai_input_line",
        ]
        .iter()
        .map(|k| get(&format!("robots_{k}.{agent}")))
        .collect()
    }

    #[test]
    fn records_agree_with_the_line_mode() {
        let (dir, _) = dir("usage_differential");
        let urls = tricky_urls();
        let want = line_mode(&dir, &urls);
        // Every kind of value is met, so that the comparison says something.
        let values: Vec<String> = want
            .iter()
            .flat_map(|r| r.iter().map(|v| v.to_string()))
            .collect();
        for v in
            ["\"allowed\"", "\"disallowed\"", "\"unknown\"", "null", "13", "6"]
        {
            assert!(values.iter().any(|x| x == v), "{v} never met");
        }

        let mut jsonl = String::new();
        for url in &urls {
            let record = serde_json::json!({"meta": {"url": url}, "x": 1});
            jsonl.push_str(&record.to_string());
            jsonl.push('\n');
        }
        dir.create("in.jsonl", &jsonl);
        let out = dir
            .command()
            .args(["-a", "GPTBot,CCBot", "--usage", "--explain"])
            .args([
                "--url-field",
                "meta.url",
                "-j",
                "2",
                "--chunk-size",
                "300",
            ])
            .args(["robots.txt", "in.jsonl"])
            .stdout();
        let rows: Vec<serde_json::Value> =
            out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(rows.len(), urls.len());
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(row["meta"]["url"], urls[i].as_str());
            for (j, agent) in ["GPTBot", "CCBot"].iter().enumerate() {
                let got = record_fields(|k| row[k].clone(), agent);
                assert_eq!(got, want[2 * i + j], "JSONL {} {agent}", urls[i]);
            }
        }

        let mut wtr = csv::Writer::from_writer(vec![]);
        wtr.write_record(["id", "url"]).unwrap();
        for (i, url) in urls.iter().enumerate() {
            wtr.write_record([i.to_string().as_str(), url]).unwrap();
        }
        dir.create("in.csv", wtr.into_inner().unwrap());
        let out = dir
            .command()
            .args(["-a", "GPTBot,CCBot", "--usage", "--explain"])
            .args(["--input-format", "csv", "robots.txt", "in.csv"])
            .stdout();
        let mut rdr = csv::Reader::from_reader(out.as_bytes());
        let header = rdr.headers().unwrap().clone();
        let rows: Vec<csv::StringRecord> =
            rdr.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), urls.len());
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(&row[1], urls[i]);
            // CSV has no types: the line mode's values as CSV writes them.
            let get = |k: &str| {
                let c = header.iter().position(|h| h == k).unwrap();
                serde_json::Value::String(row[c].to_string())
            };
            for (j, agent) in ["GPTBot", "CCBot"].iter().enumerate() {
                let want: Vec<serde_json::Value> = want[2 * i + j]
                    .iter()
                    .map(|v| match v {
                        serde_json::Value::Null => "".into(),
                        serde_json::Value::String(s) => s.as_str().into(),
                        n => n.to_string().into(),
                    })
                    .collect();
                let got = record_fields(get, agent);
                assert_eq!(got, want, "CSV {} {agent}", urls[i]);
            }
        }
    }
}

/// Crawl-log mode's sites: a.com with [`ROBOTS`] and b.com disallowing
/// all by directory, c.com answering 503 by index.
fn crawl_sites(dir: &Dir) {
    dir.create_dir("robots");
    dir.create("robots/a.com.txt", ROBOTS);
    dir.create("robots/b.com.txt", "User-agent: *\nDisallow: /\n");
    dir.create(
        "index.jsonl",
        "{\"url\": \"https://c.com/robots.txt\", \"status\": 503}\n",
    );
}

/// The URLs of the crawl-mode records: each site, a site without a fetch,
/// and a URL without a host.
const CRAWL_URLS: [&str; 7] = [
    "https://a.com/open/1",
    "https://a.com/private/x",
    "https://a.com/page",
    "http://b.com/x",
    "https://c.com/x",
    "https://zz.com/",
    "/relative",
];

#[test]
fn crawl_jsonl_records_are_judged_by_their_own_origin() {
    let (dir, mut cmd) = dir("crawl_jsonl");
    crawl_sites(&dir);
    let mut input = String::new();
    for (i, url) in CRAWL_URLS.iter().enumerate() {
        input.push_str(&format!(
            "{{\"id\":{i},\"meta\":{{\"url\":\"{url}\"}}}}\n"
        ));
    }
    input.push_str("{\"id\":7}\nnot json\n");
    dir.create("in.jsonl", &input);
    let sources = ["--robots-dir", "robots", "--robots-index", "index.jsonl"];
    let out = cmd
        .arg("crawl")
        .args(sources)
        .args(["-a", "GPTBot,CCBot", "--url-field", "meta.url", "in.jsonl"])
        .output();
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), CRAWL_URLS.len() + 2, "{stdout}");
    // Every byte of the record is kept, the fields go before its brace.
    assert_eq!(
        lines[1],
        "{\"id\":1,\"meta\":{\"url\":\"https://a.com/private/x\"},\
         \"robots_verdict.GPTBot\":\"disallowed\",\
         \"robots_reason.GPTBot\":\"rule\",\
         \"robots_verdict.CCBot\":\"disallowed\",\
         \"robots_reason.CCBot\":\"rule\"}"
    );
    assert_eq!(
        lines[7],
        "{\"id\":7,\"robots_verdict.GPTBot\":\"unknown\",\
         \"robots_reason.GPTBot\":null,\"robots_verdict.CCBot\":\"unknown\",\
         \"robots_reason.CCBot\":null,\"robots_error\":\"no URL field\"}"
    );
    assert!(lines[8].starts_with("{\"robots_record\":\"not json\""));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("record 8: no URL field"), "{stderr}");
    // The verdicts and reasons are crawl's on the same URLs as lines.
    dir.create("urls.txt", CRAWL_URLS.join("\n") + "\n");
    let rows = dir
        .command()
        .arg("crawl")
        .args(sources)
        .args(["-a", "GPTBot,CCBot", "--no-header", "urls.txt"])
        .stdout();
    let mut want = vec![];
    for row in rows.lines() {
        // url,agent,verdict,reason
        let f: Vec<&str> = row.split(',').collect();
        want.push(format!(
            "\"robots_verdict.{}\":\"{}\",\"robots_reason.{}\":\"{}\"",
            f[1], f[2], f[1], f[3]
        ));
    }
    for (i, pair) in want.chunks(2).enumerate() {
        let fields = pair.join(",");
        assert!(lines[i].contains(&fields), "{} lacks {fields}", lines[i]);
    }
    // Some of each: a rule, a 503, no fetch, no host.
    for reason in ["status-5xx", "no-robots", "no-host", "no-matching-rule"] {
        assert!(stdout.contains(&format!("\"{reason}\"")), "{reason}");
    }
}

#[test]
fn crawl_csv_records_with_explanations() {
    let (dir, mut cmd) = dir("crawl_csv");
    crawl_sites(&dir);
    dir.create(
        "in.csv",
        "url,note\r\nhttps://a.com/open/1,\"a, b\"\r\nhttp://b.com/x,c\r\n\
         https://zz.com/,d\r\n",
    );
    let out = cmd
        .args(["crawl", "--robots-dir", "robots", "--explain"])
        .args(["-a", "GPTBot", "--input-format", "csv", "in.csv"])
        .stdout();
    eqnice!(
        "url,note,robots_verdict,robots_reason,robots_origin,robots_capture,\
         robots_line,robots_rule,robots_error\n\
         https://a.com/open/1,\"a, b\",allowed,rule,a.com,,6,Allow: /open,\n\
         http://b.com/x,c,disallowed,rule,b.com,,2,Disallow: /,\n\
         https://zz.com/,d,unknown,no-robots,,,,,\n",
        out
    );
}

#[test]
fn crawl_emit_writes_lines_and_records_unchanged() {
    let (dir, mut cmd) = dir("crawl_emit");
    crawl_sites(&dir);
    dir.create("urls.txt", CRAWL_URLS.join("\n") + "\n");
    let sources = ["--robots-dir", "robots", "--robots-index", "index.jsonl"];
    // Unknown verdicts (no fetch, no host) are in neither, and said so.
    let out = cmd
        .arg("crawl")
        .args(sources)
        .args(["--emit", "allowed", "urls.txt"])
        .output();
    let allowed = String::from_utf8(out.stdout).unwrap();
    eqnice!("https://a.com/open/1\nhttps://a.com/page\n", allowed);
    eqnice!(
        "robots-batch: urls.txt: --emit allowed kept 2 of 7 lines, left out \
         5: 3 disallowed, 2 unknown (no robots.txt known for their host, \
         which --on-missing allow or disallow decides, or no host)\n",
        String::from_utf8(out.stderr).unwrap()
    );
    let disallowed = dir
        .command()
        .arg("crawl")
        .args(sources)
        .args(["-a", "GPTBot", "--emit", "disallowed", "urls.txt"])
        .output()
        .stdout;
    let disallowed = String::from_utf8(disallowed).unwrap();
    eqnice!(
        "https://a.com/private/x\nhttps://a.com/page\nhttp://b.com/x\n\
         https://c.com/x\n",
        disallowed
    );
    // Nothing written: grep's exit code 1.
    dir.create("none.txt", "https://zz.com/\n");
    dir.command()
        .arg("crawl")
        .args(sources)
        .args(["--emit", "allowed", "none.txt"])
        .assert_exit_code(1);
    // A WARC's kept records are its own gzip members, as the default
    // command keeps them with a.com's robots.txt (every URL is a.com's).
    let records = warc_records();
    let members: Vec<Vec<u8>> = records.iter().map(|r| gzip(r)).collect();
    dir.create("in.warc.gz", members.concat());
    for emit in ["allowed", "disallowed"] {
        let crawl = dir
            .command()
            .arg("crawl")
            .args(sources)
            .args(["-a", "GPTBot", "--emit", emit, "in.warc.gz"])
            .output()
            .stdout;
        let single = dir
            .command()
            .args(["-a", "GPTBot", "--emit", emit, "robots.txt", "in.warc.gz"])
            .stdout_bytes();
        assert!(!crawl.is_empty());
        assert_eq!(crawl, single, "--emit {emit}");
    }
}

#[test]
fn crawl_refuses_what_records_cannot_do() {
    let (dir, mut cmd) = dir("crawl_refuses");
    crawl_sites(&dir);
    dir.create(
        "in.log",
        "1.2.3.4 - - [d] \"GET / HTTP/1.1\" 200 1 \"-\" \"x\"\n",
    );
    let err = cmd
        .args(["crawl", "--robots-dir", "robots", "--input-format"])
        .args(["access-log", "in.log"])
        .assert_error();
    assert!(err.contains("an access log holds one site's paths"), "{err}");
    dir.create("in.jsonl", "{\"url\":\"https://a.com/\"}\n");
    let err = dir
        .command()
        .args(["crawl", "--robots-dir", "robots", "--format", "tsv"])
        .arg("in.jsonl")
        .assert_error();
    assert!(err.contains("--format and --layout apply to lines"), "{err}");
}

mod parquet_files {
    use std::fs::File;
    use std::sync::Arc;

    use arrow_array::builder::{Int64Builder, StringBuilder};
    use arrow_array::cast::AsArray;
    use arrow_array::{Array, ArrayRef, RecordBatch, StructArray};
    use arrow_schema::{DataType, Field, Fields, Schema};
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use parquet::arrow::ArrowWriter;
    use parquet::basic::Compression;
    use parquet::file::properties::WriterProperties;

    use super::{dir, expected, paths};

    /// A Parquet file of `paths()` in two row groups: `id`, a `meta`
    /// struct holding the `url` (null every 7th row, the struct itself
    /// null every 11th), and a `text` column with nulls.
    fn input() -> (Vec<u8>, Vec<Option<String>>) {
        let paths = paths();
        let mut urls = vec![];
        let mut ids = Int64Builder::new();
        let mut url = StringBuilder::new();
        let mut text = StringBuilder::new();
        let mut valid = vec![];
        for (i, path) in paths.iter().enumerate() {
            ids.append_value(i as i64);
            let u = (i % 7 != 3).then(|| format!("https://a.com{path}"));
            match &u {
                Some(u) => url.append_value(u),
                None => url.append_null(),
            }
            let struct_valid = i % 11 != 5;
            valid.push(struct_valid);
            urls.push(u.filter(|_| struct_valid));
            if i % 5 == 0 {
                text.append_null();
            } else {
                text.append_value(format!("text {i}"));
            }
        }
        let url_field = Arc::new(Field::new("url", DataType::Utf8, true));
        let meta = StructArray::new(
            Fields::from(vec![url_field]),
            vec![Arc::new(url.finish()) as ArrayRef],
            Some(valid.into()),
        );
        let schema = Arc::new(Schema::new(vec![
            Field::new("id", DataType::Int64, false),
            Field::new("meta", meta.data_type().clone(), true),
            Field::new("text", DataType::Utf8, true),
        ]));
        let batch = RecordBatch::try_new(
            schema.clone(),
            vec![
                Arc::new(ids.finish()),
                Arc::new(meta),
                Arc::new(text.finish()),
            ],
        )
        .unwrap();
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(200))
            .build();
        let mut out = vec![];
        let mut writer =
            ArrowWriter::try_new(&mut out, schema, Some(props)).unwrap();
        writer.write(&batch).unwrap();
        writer.close().unwrap();
        (out, urls)
    }

    /// A Parquet file's rows as one batch, and its row groups' sizes.
    fn read(path: &std::path::Path) -> (RecordBatch, Vec<usize>) {
        let builder = ParquetRecordBatchReaderBuilder::try_new(
            File::open(path).unwrap(),
        )
        .unwrap();
        let groups = builder
            .metadata()
            .row_groups()
            .iter()
            .map(|g| g.num_rows() as usize)
            .collect();
        let schema = builder.schema().clone();
        let batches: Vec<RecordBatch> =
            builder.build().unwrap().map(Result::unwrap).collect();
        let whole =
            arrow_select::concat::concat_batches(&schema, &batches).unwrap();
        (whole, groups)
    }

    /// The names of a batch's columns.
    fn names(batch: &RecordBatch) -> Vec<String> {
        batch.schema().fields().iter().map(|f| f.name().clone()).collect()
    }

    #[test]
    fn parquet_round_trip_keeps_every_value() {
        let (dir, mut cmd) = dir("parquet");
        let (bytes, urls) = input();
        dir.create("in.parquet", &bytes);
        let out = cmd
            .args([
                "-a",
                "GPTBot",
                "--url-column",
                "meta.url",
                "-o",
                "out.parquet",
            ])
            .args(["robots.txt", "in.parquet"])
            .output();
        assert!(out.status.success(), "{out:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        let bad = urls.iter().filter(|u| u.is_none()).count();
        assert_eq!(
            stderr,
            format!(
                "robots-batch: in.parquet: record 4: the URL field is null \
                 (the first of {bad} bad records, each judged unknown)\n"
            )
        );
        let (input, in_groups) = read(&dir.path().join("in.parquet"));
        let (output, out_groups) = read(&dir.path().join("out.parquet"));
        assert_eq!(in_groups, [200, 100]);
        assert_eq!(out_groups, in_groups);
        assert_eq!(
            names(&output),
            ["id", "meta", "text", "robots_verdict", "robots_error"]
        );
        for c in 0..3 {
            assert_eq!(output.column(c).as_ref(), input.column(c).as_ref());
        }
        let verdicts = output.column(3).as_string::<i32>();
        let errors = output.column(4).as_string::<i32>();
        for (i, (url, path)) in urls.iter().zip(paths()).enumerate() {
            match url {
                Some(_) => {
                    assert_eq!(
                        verdicts.value(i),
                        expected(&path, true),
                        "row {i}"
                    );
                    assert!(errors.is_null(i));
                }
                None => {
                    assert_eq!(verdicts.value(i), "unknown", "row {i}");
                    assert_eq!(errors.value(i), "the URL field is null");
                }
            }
        }
    }

    #[test]
    fn parquet_emit_keeps_the_schema_and_the_rows_wanted() {
        let (dir, mut cmd) = dir("parquet_emit");
        let (bytes, urls) = input();
        dir.create("in.parquet", &bytes);
        cmd.args([
            "--emit",
            "disallowed",
            "--url-column",
            "meta.url",
            "-o",
            "kept.parquet",
        ])
        .args(["robots.txt", "in.parquet"])
        .assert_exit_code(0);
        let (input, _) = read(&dir.path().join("in.parquet"));
        let (output, _) = read(&dir.path().join("kept.parquet"));
        assert_eq!(output.schema(), input.schema());
        let want: Vec<bool> = urls
            .iter()
            .zip(paths())
            .map(|(u, p)| u.is_some() && expected(&p, false) == "disallowed")
            .collect();
        let mask = arrow_array::BooleanArray::from(want);
        let expected =
            arrow_select::filter::filter_record_batch(&input, &mask).unwrap();
        assert!(expected.num_rows() > 0);
        assert_eq!(output, expected);
    }

    #[test]
    fn parquet_in_crawl_mode_gets_crawl_columns() {
        let (dir, mut cmd) = dir("parquet_crawl");
        let (bytes, urls) = input();
        dir.create("in.parquet", &bytes);
        dir.create_dir("robots");
        dir.create("robots/a.com.txt", super::ROBOTS);
        let out = cmd
            .args(["crawl", "--robots-dir", "robots", "-a", "GPTBot"])
            .args(["--url-column", "meta.url", "-o", "out.parquet"])
            .arg("in.parquet")
            .output();
        assert!(out.status.success(), "{out:?}");
        let (input, in_groups) = read(&dir.path().join("in.parquet"));
        let (output, out_groups) = read(&dir.path().join("out.parquet"));
        assert_eq!(out_groups, in_groups);
        assert_eq!(
            names(&output),
            [
                "id",
                "meta",
                "text",
                "robots_verdict",
                "robots_reason",
                "robots_error"
            ]
        );
        for c in 0..3 {
            assert_eq!(output.column(c).as_ref(), input.column(c).as_ref());
        }
        let verdicts = output.column(3).as_string::<i32>();
        let reasons = output.column(4).as_string::<i32>();
        for (i, (url, path)) in urls.iter().zip(paths()).enumerate() {
            match url {
                Some(_) => {
                    assert_eq!(
                        verdicts.value(i),
                        expected(&path, true),
                        "row {i}"
                    );
                    assert!(!reasons.is_null(i), "row {i}");
                }
                None => {
                    assert_eq!(verdicts.value(i), "unknown", "row {i}");
                    assert!(reasons.is_null(i), "row {i}");
                }
            }
        }
    }

    #[test]
    fn parquet_errors_are_clean() {
        let (dir, mut cmd) = dir("parquet_bad");
        let (bytes, _) = input();
        dir.create("in.parquet", &bytes);
        dir.create("cut.parquet", &bytes[..bytes.len() - 20]);
        // Found from its magic bytes; without the nested column, no URL.
        let err = cmd.args(["robots.txt", "in.parquet"]).assert_error();
        assert!(err.contains("no column \"url\""), "{err}");
        let mut cmd = dir.command();
        let err = cmd
            .args(["--input-format", "parquet", "--url-column", "meta.url"])
            .args(["robots.txt", "cut.parquet"])
            .assert_error();
        assert!(
            err.starts_with(
                "robots-batch: failed to read cut.parquet: Parquet:"
            ),
            "{err}"
        );
        let mut cmd = dir.command();
        let err = cmd
            .args(["--url-column", "id", "robots.txt", "in.parquet"])
            .assert_error();
        assert!(
            err.contains("the URL column \"id\" holds Int64, not strings"),
            "{err}"
        );
    }
}

/// A short JSON Lines file of known length is cut into a chunk for each
/// thread when the batch asks for it, and its rows are those of the run
/// that reads it as one chunk.
#[test]
fn a_short_jsonl_file_of_known_length_runs_on_every_thread() {
    use robots_batch::record::{RecordFormat, Records};
    use robots_batch::{BatchBuilder, Dialect, Matcher, Robots, Stats};

    let robots = Robots::parse(ROBOTS.as_bytes());
    let matchers = [Matcher::new(&robots, "GPTBot", Dialect::Rfc9309)];
    let agents = ["GPTBot".to_string()];
    let records = Records::new(RecordFormat::Jsonl, &matchers, &agents);
    let mut input = vec![];
    for (i, path) in paths().iter().cycle().take(20_000).enumerate() {
        let line = format!("{{\"n\":{i},\"url\":\"https://a.com{path}\"}}\n");
        input.extend_from_slice(line.as_bytes());
    }
    let len = input.len() as u64;
    let run = |file_chunks: usize, len: Option<u64>| {
        let batch = BatchBuilder::new()
            .threads(2)
            .file_chunks(file_chunks)
            .build()
            .unwrap();
        let (mut out, mut chunks) = (vec![], 0);
        let sink = |b: &[u8], _: &Stats| {
            out.extend_from_slice(b);
            chunks += 1;
            Ok(())
        };
        records.run_sized(&batch, &input[..], len, sink).unwrap();
        (out, chunks, batch.chunk_size())
    };
    let (whole, one, chunk) = run(0, Some(len));
    assert!(len < chunk as u64, "{len} bytes, chunks of {chunk}");
    assert_eq!(one, 1);
    assert_eq!(run(1, None).1, 1);
    let (split, chunks, _) = run(1, Some(len));
    assert!(split == whole);
    assert!(chunks >= 2, "{chunks} chunks");
}

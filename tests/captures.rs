//! Dated captures: which robots.txt was in effect when. The newest capture
//! judges by default; `--as-of` and `--at-fetch-time` pick the capture in
//! effect at a date, or at each record's own fetch time.

use crate::util::{Dir, TestCommand};

/// a.com allows everything in January 2024 and disallows `/private` from
/// June; b.com is captured once, in March.
fn fixture(dir: &Dir) {
    dir.create_dir("jan");
    dir.create_dir("jun");
    dir.create_dir("mar");
    dir.create("jan/a.com.txt", "User-agent: *\nAllow: /\n");
    dir.create("jun/a.com.txt", "User-agent: *\nDisallow: /private\n");
    dir.create("mar/b.com.txt", "User-agent: *\nDisallow: /\n");
    dir.create("urls.txt", "https://a.com/private/x\nhttps://b.com/y\n");
}

const DIRS: [&str; 6] = [
    "--robots-dir",
    "2024-01-01=jan",
    "--robots-dir",
    "2024-06-01=jun",
    "--robots-dir",
    "2024-03-15=mar",
];

fn as_of(dir: &Dir, date: &str, extra: &[&str]) -> String {
    let mut cmd = dir.command();
    cmd.arg("crawl").args(DIRS).args(["--no-header", "urls.txt"]);
    if !date.is_empty() {
        cmd.args(["--as-of", date]);
    }
    cmd.args(extra).stdout()
}

rbtest!(newest_capture_judges_by_default, |dir: Dir, mut cmd: TestCommand| {
    fixture(&dir);
    let got =
        cmd.arg("crawl").args(DIRS).args(["--explain", "urls.txt"]).stdout();
    eqnice!(
        "url,verdict,reason,robots,capture,line,rule\n\
         https://a.com/private/x,disallowed,rule,a.com,2024-06-01T00:00:00Z,2,\
         Disallow: /private\n\
         https://b.com/y,disallowed,rule,b.com,2024-03-15T00:00:00Z,2,\
         Disallow: /\n",
        got
    );
});

rbtest!(as_of_before_between_and_after, |dir: Dir, _cmd: TestCommand| {
    fixture(&dir);
    // Before every capture: the earliest judges, and the reason says so.
    eqnice!(
        "https://a.com/private/x,allowed,rule;before-first\n\
         https://b.com/y,disallowed,rule;before-first\n",
        as_of(&dir, "2023-12-31", &[])
    );
    // Between a.com's two captures, after b.com's only one.
    eqnice!(
        "https://a.com/private/x,allowed,rule\n\
         https://b.com/y,disallowed,rule\n",
        as_of(&dir, "2024-05-31T23:59:59Z", &[])
    );
    // A day alone is its end: June 1st's capture is in effect.
    eqnice!(
        "https://a.com/private/x,disallowed,rule\n\
         https://b.com/y,disallowed,rule\n",
        as_of(&dir, "2024-06-01", &[])
    );
    eqnice!(as_of(&dir, "", &[]), as_of(&dir, "2030-01-01", &[]));
    // Between a.com's captures, before b.com's: b.com's URL is unknown
    // under --before-first unknown.
    eqnice!(
        "https://a.com/private/x,allowed,rule\n\
         https://b.com/y,unknown,before-first\n",
        as_of(&dir, "2024-02-01", &["--before-first", "unknown"])
    );
});

rbtest!(
    a_capture_switches_between_fetch_times,
    |dir: Dir, mut cmd: TestCommand| {
        fixture(&dir);
        dir.create(
        "fetched.jsonl",
        "{\"url\":\"https://a.com/private/1\",\"at\":\"2024-05-31T23:59:59Z\"}\n\
         {\"url\":\"https://a.com/private/2\",\"at\":\"20240601000000\"}\n\
         {\"url\":\"https://a.com/private/3\",\"at\":1700000000}\n\
         {\"url\":\"https://a.com/private/4\",\"at\":\"last week\"}\n\
         {\"url\":\"https://a.com/private/5\"}\n",
    );
        let out = cmd
            .arg("crawl")
            .args(DIRS)
            .args(["--at-fetch-time", "--time-field", "at", "--explain"])
            .arg("fetched.jsonl")
            .output();
        let got = String::from_utf8(out.stdout).unwrap();
        let fields = |line: &str| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            format!(
                "{} {} {} {}",
                v["url"].as_str().unwrap().rsplit('/').next().unwrap(),
                v["robots_verdict"].as_str().unwrap(),
                v["robots_reason"].as_str().unwrap_or("-"),
                v["robots_capture"].as_str().unwrap_or("-"),
            )
        };
        let rows: Vec<String> = got.lines().map(fields).collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        assert_eq!(
            [
                "1 allowed rule 2024-01-01T00:00:00Z",
                "2 disallowed rule 2024-06-01T00:00:00Z",
                "3 allowed rule;before-first 2024-01-01T00:00:00Z",
                "4 unknown - -",
                "5 unknown - -",
            ],
            rows[..]
        );
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(
            stderr.contains("record 4: the fetch time is not a date")
                && stderr.contains("the first of 2 bad records"),
            "{stderr}"
        );
    }
);

rbtest!(fetch_times_of_csv_cdxj_and_warc, |dir: Dir, _cmd: TestCommand| {
    fixture(&dir);
    dir.create(
        "fetched.csv",
        "url,fetched\nhttps://a.com/private/1,2024-02-01\n\
         https://a.com/private/2,2024-07-01\n",
    );
    dir.create(
        "fetched.cdxj",
        "com,a)/private/1 20240201000000 {\"url\":\"https://a.com/private/1\"}\n\
         com,a)/private/2 20240701000000 {\"url\":\"https://a.com/private/2\"}\n",
    );
    let record = |uri: &str, date: &str| {
        let http = "HTTP/1.1 200 OK\r\n\r\nhi";
        format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\n\
             WARC-Date: {date}\r\nContent-Length: {}\r\n\r\n{http}\r\n\r\n",
            http.len()
        )
    };
    dir.create(
        "fetched.warc",
        record("https://a.com/private/1", "2024-02-01T00:00:00Z")
            + &record("https://a.com/private/2", "2024-07-01T00:00:00Z"),
    );
    let kept = |file: &str, extra: &[&str]| {
        let mut cmd = dir.command();
        cmd.arg("crawl").args(DIRS).args([
            "--at-fetch-time",
            "--emit",
            "allowed",
        ]);
        cmd.args(extra).arg(file).stdout()
    };
    eqnice!(
        "url,fetched\nhttps://a.com/private/1,2024-02-01\n",
        kept(
            "fetched.csv",
            &["--input-format", "csv", "--time-field", "fetched"]
        )
    );
    eqnice!(
        "com,a)/private/1 20240201000000 {\"url\":\"https://a.com/private/1\"}\n",
        kept("fetched.cdxj", &["--input-format", "cdxj"])
    );
    let warc = kept("fetched.warc", &[]);
    assert!(
        warc.contains("private/1") && !warc.contains("private/2"),
        "{warc}"
    );
});

rbtest!(fetch_time_needs_records, |dir: Dir, mut cmd: TestCommand| {
    fixture(&dir);
    let err = cmd
        .arg("crawl")
        .args(DIRS)
        .args(["--at-fetch-time", "urls.txt"])
        .assert_error();
    assert!(err.contains("lines of URLs do not hold"), "{err}");
    dir.create("f.jsonl", "{\"url\":\"https://a.com/\"}\n");
    let mut cmd = dir.command();
    let err = cmd
        .arg("crawl")
        .args(DIRS)
        .args(["--at-fetch-time", "f.jsonl"])
        .assert_error();
    assert!(err.contains("name its field with --time-field"), "{err}");
    let mut cmd = dir.command();
    let err = cmd
        .arg("crawl")
        .args(DIRS)
        .args(["--as-of", "soon", "urls.txt"])
        .assert_exit_code(2);
    let err = String::from_utf8_lossy(&err.stderr).into_owned();
    assert!(err.contains("not a date: \"soon\""), "{err}");
});

rbtest!(index_dates_sort_and_clash, |dir: Dir, mut cmd: TestCommand| {
    // Given newest first; two at one instant: the later in the input wins,
    // with a warning.
    dir.create(
        "index.jsonl",
        "{\"url\":\"https://a.com/robots.txt\",\"status\":200,\"date\":\"2024-06-01T00:00:00Z\",\"body\":\"User-agent: *\\nDisallow: /\\n\"}\n\
         {\"url\":\"https://a.com/robots.txt\",\"status\":200,\"date\":\"20240101000000\",\"body\":\"User-agent: *\\nDisallow: /old\\n\"}\n\
         {\"url\":\"https://a.com/robots.txt\",\"status\":200,\"date\":\"2024-01-01T00:00:00Z\",\"body\":\"User-agent: *\\nDisallow: /jan\\n\"}\n",
    );
    dir.create("urls.txt", "https://a.com/old\nhttps://a.com/jan\n");
    let out = cmd
        .arg("crawl")
        .args(["--robots-index", "index.jsonl", "--as-of", "2024-03-01"])
        .args(["--no-header", "urls.txt"])
        .output();
    eqnice!(
        "https://a.com/old,allowed,no-matching-rule\n\
         https://a.com/jan,disallowed,rule\n",
        String::from_utf8(out.stdout).unwrap()
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("1 captures of an origin at the same instant"),
        "{stderr}"
    );
    // A date that is no date names the line and the field.
    dir.create(
        "bad.jsonl",
        "{\"url\":\"https://a.com/robots.txt\",\"status\":200}\n\
         {\"url\":\"https://a.com/robots.txt\",\"status\":200,\"date\":\"June\"}\n",
    );
    let mut cmd = dir.command();
    let err = cmd
        .arg("crawl")
        .args(["--robots-index", "bad.jsonl", "urls.txt"])
        .assert_error();
    assert!(
        err.contains("bad.jsonl:2: \"date\" \"June\" is not a date"),
        "{err}"
    );
});

rbtest!(many_captures_of_one_origin, |dir: Dir, mut cmd: TestCommand| {
    // 20,000 captures, alternating between two bodies, given in reverse
    // order: each URL gets the one in effect at its time.
    let mut index = String::new();
    for day in (0..20_000i64).rev() {
        let rule = if day % 2 == 0 { "/even" } else { "/odd" };
        index.push_str(&format!(
            "{{\"url\":\"https://a.com/robots.txt\",\"status\":200,\
             \"date\":{},\"body\":\"User-agent: *\\nDisallow: {rule}\\n\"}}\n",
            day * 86_400
        ));
    }
    dir.create("index.jsonl", index);
    let mut urls = String::new();
    for day in [0i64, 1, 7, 19_998, 19_999, 30_000] {
        urls.push_str(&format!(
            "{{\"url\":\"https://a.com/even\",\"t\":{}}}\n",
            day * 86_400 + 3600
        ));
    }
    dir.create("urls.jsonl", urls);
    let got = cmd
        .arg("crawl")
        .args(["--robots-index", "index.jsonl", "--at-fetch-time"])
        .args(["--time-field", "t", "urls.jsonl"])
        .stdout();
    let verdicts: Vec<&str> = got
        .lines()
        .map(|l| if l.contains("\"disallowed\"") { "d" } else { "a" })
        .collect();
    assert_eq!(["d", "a", "a", "d", "a", "a"], verdicts[..]);
});

//! Crawl-log mode through the library: every source of fetches, every
//! status class, redirects, duplicate captures, missing hosts, lines
//! without a host, and on the real pairs of URLs and robots.txt files, the
//! same verdicts as the single-file mode.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;

use robots_batch::crawl::{
    Assume, CrawlJudge, CrawlVerdict, Fetch, FetchPolicy, FetchSet,
    GroupedScratch, MatcherCache, Origin,
};
use robots_batch::{Dialect, EngineKind, Matcher, MatcherBuilder, Robots};

use crate::util::{Dir, TestCommand};

const ROBOTS: &str = "User-agent: *\nDisallow: /private/\n\n\
                      User-agent: GPTBot\nDisallow: /\n";

fn fetch(status: u16, body: &str, location: Option<&str>) -> Fetch {
    Fetch {
        status,
        body: body.as_bytes().to_vec(),
        location: location.map(String::from),
        date: None,
    }
}

fn origin(url: &str) -> Origin {
    Origin::of_url(url.as_bytes()).unwrap()
}

fn judge_with(set: FetchSet, policy: FetchPolicy) -> CrawlJudge {
    let agents = ["MyBot".to_string(), "GPTBot".to_string()];
    CrawlJudge::new(
        set,
        policy,
        MatcherBuilder::new(),
        &agents,
        Dialect::Rfc9309,
    )
}

/// `verdict reason` for each agent, space-separated, per URL.
fn judge_all<S: AsRef<str>>(judge: &CrawlJudge, urls: &[S]) -> Vec<String> {
    let mut scratch = judge.scratch();
    let mut out = vec![];
    urls.iter()
        .map(|u| {
            judge.verdicts(u.as_ref().as_bytes(), &mut scratch, &mut out);
            assert_eq!(out.len(), judge.agents().len());
            out.iter()
                .map(|v| format!("{} {}", v.name(), v.reason().name()))
                .collect::<Vec<_>>()
                .join(" | ")
        })
        .collect()
}

#[test]
fn status_classes_and_policy() {
    let mut set = FetchSet::new();
    for (host, status) in [
        ("ok.com", 200),
        ("gone.com", 404),
        ("auth.com", 401),
        ("forbidden.com", 403),
        ("down.com", 503),
        ("busy.com", 429),
        ("dead.com", 0),
        ("odd.com", 999),
    ] {
        let url = format!("https://{host}/robots.txt");
        set.insert(&origin(&url), fetch(status, ROBOTS, None));
    }
    let urls = [
        "https://ok.com/private/a",
        "https://ok.com/public",
        "https://gone.com/private/a",
        "https://auth.com/x",
        "https://forbidden.com/x",
        "https://down.com/x",
        "https://busy.com/x",
        "https://dead.com/x",
        "https://odd.com/x",
        "https://missing.com/x",
        "not a url",
        "/relative/path",
        "",
    ];
    let got =
        judge_all(&judge_with(set.clone(), FetchPolicy::default()), &urls);
    let want = [
        "disallowed rule | disallowed rule",
        "allowed no-matching-rule | disallowed rule",
        "allowed status-4xx | allowed status-4xx",
        "allowed status-4xx | allowed status-4xx",
        "allowed status-4xx | allowed status-4xx",
        "disallowed status-5xx | disallowed status-5xx",
        "disallowed status-5xx | disallowed status-5xx",
        "disallowed status-5xx | disallowed status-5xx",
        "disallowed status-5xx | disallowed status-5xx",
        "unknown no-robots | unknown no-robots",
        "unknown no-host | unknown no-host",
        "unknown no-host | unknown no-host",
        "unknown no-host | unknown no-host",
    ];
    assert_eq!(got, want);

    // Every class can be turned around.
    let policy = FetchPolicy {
        on_4xx: Assume::Disallow,
        on_401_403: Assume::Disallow,
        on_5xx: Assume::Allow,
        on_missing: Some(Assume::Allow),
        ..FetchPolicy::default()
    };
    let got = judge_all(&judge_with(set.clone(), policy), &urls[2..10]);
    let want = [
        "disallowed status-4xx | disallowed status-4xx",
        "disallowed status-4xx | disallowed status-4xx",
        "disallowed status-4xx | disallowed status-4xx",
        "allowed status-5xx | allowed status-5xx",
        "allowed status-5xx | allowed status-5xx",
        "allowed status-5xx | allowed status-5xx",
        "allowed status-5xx | allowed status-5xx",
        "allowed no-robots | allowed no-robots",
    ];
    assert_eq!(got, want);
    // 401/403 apart from other 4xx.
    let policy = FetchPolicy {
        on_401_403: Assume::Disallow,
        on_missing: Some(Assume::Disallow),
        ..FetchPolicy::default()
    };
    let got = judge_all(
        &judge_with(set, policy),
        &["https://gone.com/", "https://auth.com/", "https://nope.com/"],
    );
    assert_eq!(
        got,
        [
            "allowed status-4xx | allowed status-4xx",
            "disallowed status-4xx | disallowed status-4xx",
            "disallowed no-robots | disallowed no-robots",
        ]
    );
}

#[test]
fn origins_are_scheme_host_and_port() {
    let mut set = FetchSet::new();
    set.insert(&origin("https://a.com/robots.txt"), fetch(200, ROBOTS, None));
    set.insert(&origin("http://a.com:8080/robots.txt"), fetch(503, "", None));
    // A directory entry applies to every scheme and port of its host,
    // after fetches by origin.
    set.insert_host("a.com", fetch(200, "User-agent: *\nDisallow: /\n", None));
    let got = judge_all(
        &judge_with(set, FetchPolicy::default()),
        &[
            "https://A.COM/private/x",
            "https://a.com:443/private/x",
            "http://a.com:8080/x",
            "http://a.com/x",
            "https://a.com:8443/x",
            "https://user:pw@a.com/private/",
            "https://www.a.com/x",
        ],
    );
    assert_eq!(
        got,
        [
            "disallowed rule | disallowed rule",
            "disallowed rule | disallowed rule",
            "disallowed status-5xx | disallowed status-5xx",
            "disallowed rule | disallowed rule",
            "disallowed rule | disallowed rule",
            "disallowed rule | disallowed rule",
            "unknown no-robots | unknown no-robots",
        ]
    );
}

#[test]
fn redirects() {
    let mut set = FetchSet::new();
    let mut add = |url: &str, status: u16, location: Option<&str>| {
        set.insert(&origin(url), fetch(status, ROBOTS, location));
    };
    // http -> https on one host, then to another host: the rules of the
    // last one apply to the first origin.
    add(
        "http://chain.com/robots.txt",
        301,
        Some("https://chain.com/robots.txt"),
    );
    add("https://chain.com/robots.txt", 302, Some("//cdn.net/robots.txt"));
    add("https://cdn.net/robots.txt", 200, None);
    // Five hops is the limit; six is too many.
    for i in 0..5 {
        let from = format!("https://five{i}.com/robots.txt");
        let to = format!("https://five{}.com/robots.txt", i + 1);
        add(&from, 301, Some(&to));
    }
    add("https://five5.com/robots.txt", 200, None);
    for i in 0..6 {
        let from = format!("https://six{i}.com/robots.txt");
        let to = format!("https://six{}.com/robots.txt", i + 1);
        add(&from, 301, Some(&to));
    }
    add("https://six6.com/robots.txt", 200, None);
    // Loops, a relative location (the same origin again), a target not in
    // the set, no location at all, and a redirect to a 5xx.
    add("https://loop1.com/robots.txt", 301, Some("//loop2.com/robots.txt"));
    add("https://loop2.com/robots.txt", 301, Some("//loop1.com/robots.txt"));
    add("https://self.com/robots.txt", 301, Some("/robots.txt"));
    add("https://away.com/robots.txt", 301, Some("https://nowhere.com/"));
    add("https://bare.com/robots.txt", 302, None);
    add("https://to-down.com/robots.txt", 301, Some("//down.com/robots.txt"));
    add("https://down.com/robots.txt", 500, None);
    let judge = judge_with(set, FetchPolicy::default());
    let got = judge_all(
        &judge,
        &[
            "http://chain.com/private/x",
            "https://five0.com/private/x",
            "https://six0.com/private/x",
            "https://six1.com/private/x",
            "https://loop1.com/x",
            "https://self.com/x",
            "https://away.com/private/x",
            "https://bare.com/private/x",
            "https://to-down.com/x",
        ],
    );
    assert_eq!(
        got,
        [
            "disallowed rule | disallowed rule",
            "disallowed rule | disallowed rule",
            "allowed redirect-limit | allowed redirect-limit",
            "disallowed rule | disallowed rule",
            "allowed redirect-limit | allowed redirect-limit",
            "allowed redirect-limit | allowed redirect-limit",
            "allowed redirect-missing | allowed redirect-missing",
            "allowed redirect-missing | allowed redirect-missing",
            "disallowed status-5xx | disallowed status-5xx",
        ]
    );
    // The deciding fetch is the redirect's target.
    let mut out = vec![];
    judge.verdicts(b"http://chain.com/", &mut judge.scratch(), &mut out);
    let (name, _) = judge.fetches().get(out[0].fetch().unwrap()).unwrap();
    assert_eq!(name, "https://cdn.net");

    let policy = FetchPolicy { max_redirects: 1, ..FetchPolicy::default() };
    let mut set = FetchSet::new();
    set.insert(
        &origin("http://a.com/"),
        fetch(301, "", Some("https://a.com/robots.txt")),
    );
    set.insert(
        &origin("https://a.com/"),
        fetch(301, "", Some("https://b.com/robots.txt")),
    );
    set.insert(&origin("https://b.com/"), fetch(200, ROBOTS, None));
    let got = judge_all(
        &judge_with(set, policy),
        &["https://a.com/private/", "http://a.com/private/"],
    );
    assert_eq!(
        got,
        [
            "disallowed rule | disallowed rule",
            "allowed redirect-limit | allowed redirect-limit",
        ]
    );
}

fn warc_record(uri: &str, date: &str, http: &str) -> Vec<u8> {
    format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\n\
         WARC-Date: {date}\r\nContent-Type: application/http\r\n\
         Content-Length: {}\r\n\r\n{http}\r\n\r\n",
        http.len()
    )
    .into_bytes()
}

fn http(status: &str, extra: &str, body: &str) -> String {
    format!(
        "HTTP/1.1 {status}\r\n{extra}Content-Type: text/plain\r\n\r\n{body}"
    )
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(vec![], Default::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

#[test]
fn warc_files_plain_and_gzip_with_duplicates() {
    let dir = Dir::new("crawl_warc");
    // Duplicate captures of a.com: the latest WARC-Date wins, whatever
    // the order in the file.
    let records = [
        warc_record(
            "https://a.com/robots.txt",
            "2024-03-01T00:00:00Z",
            &http("200 OK", "", "User-agent: *\nDisallow: /new/\n"),
        ),
        warc_record(
            "https://a.com/robots.txt",
            "2024-01-01T00:00:00Z",
            &http("200 OK", "", "User-agent: *\nDisallow: /old/\n"),
        ),
        warc_record(
            "http://b.com/robots.txt",
            "2024-01-01T00:00:00Z",
            &http("301 Moved", "Location: https://a.com/robots.txt\r\n", ""),
        ),
        warc_record(
            "https://c.com/robots.txt",
            "2024-01-01T00:00:00Z",
            &http("503 Unavailable", "", "busy"),
        ),
    ];
    let plain: Vec<u8> = records.concat();
    // Common Crawl's layout: one gzip member per record.
    let members: Vec<u8> = records.iter().flat_map(|r| gzip(r)).collect();
    dir.create("plain.warc", &plain);
    dir.create("members.warc.gz", &members);
    dir.create("whole.warc.gz", gzip(&plain));
    let urls = [
        "https://a.com/new/x",
        "https://a.com/old/x",
        "http://b.com/new/x",
        "https://c.com/x",
        "http://a.com/new/x",
    ];
    let want = [
        "disallowed rule | disallowed rule",
        "allowed no-matching-rule | allowed no-matching-rule",
        "disallowed rule | disallowed rule",
        "disallowed status-5xx | disallowed status-5xx",
        "unknown no-robots | unknown no-robots",
    ];
    for name in ["plain.warc", "members.warc.gz", "whole.warc.gz"] {
        let mut set = FetchSet::new();
        let n = set.read_warc(&dir.path().join(name)).unwrap();
        assert_eq!(n, 4, "{name}");
        // Both captures of the duplicate origin are kept.
        assert_eq!(set.len(), 4, "{name}");
        let got = judge_all(&judge_with(set, FetchPolicy::default()), &urls);
        assert_eq!(got, want, "{name}");
    }

    // A truncated file is an error naming the file.
    dir.create("cut.warc", &plain[..plain.len() - 10]);
    let err = FetchSet::new()
        .read_warc(&dir.path().join("cut.warc"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("cut.warc") && err.contains("truncated"), "{err}");
}

#[test]
fn index_files_plain_and_gzip() {
    let dir = Dir::new("crawl_index");
    let lines = [
        r#"{"url": "https://a.com/robots.txt", "status": 200, "body": "User-agent: *\nDisallow: /a/\n"}"#,
        // Not UTF-8: base64. "User-agent: *\nDisallow: /\xff/\n"
        r#"{"url": "https://b.com/robots.txt", "status": 200, "body_base64": "VXNlci1hZ2VudDogKgpEaXNhbGxvdzogL/8vCg=="}"#,
        "",
        r#"{"url": "http://c.com/robots.txt", "status": 301, "location": "https://a.com/robots.txt"}"#,
        r#"{"url": "https://d.com/robots.txt", "status": 0}"#,
        r#"{"url": "https://e.com/robots.txt"}"#,
        r#"{"url": "https://f.com:8443/robots.txt", "status": 410, "body": "gone"}"#,
    ];
    let text = lines.join("\n") + "\n";
    dir.create("index.jsonl", &text);
    dir.create("index.jsonl.gz", gzip(text.as_bytes()));
    let urls = [
        "https://a.com/a/1",
        "https://b.com/%FF/x",
        "https://b.com/\u{ff}/x",
        "http://c.com/a/1",
        "https://d.com/",
        "https://e.com/",
        "https://f.com:8443/",
        "https://f.com/",
    ];
    let want = [
        "disallowed rule | disallowed rule",
        "disallowed rule | disallowed rule",
        "allowed no-matching-rule | allowed no-matching-rule",
        "disallowed rule | disallowed rule",
        "disallowed status-5xx | disallowed status-5xx",
        "disallowed status-5xx | disallowed status-5xx",
        "allowed status-4xx | allowed status-4xx",
        "unknown no-robots | unknown no-robots",
    ];
    for name in ["index.jsonl", "index.jsonl.gz"] {
        let mut set = FetchSet::new();
        assert_eq!(set.read_index(&dir.path().join(name)).unwrap(), 6);
        let got = judge_all(&judge_with(set, FetchPolicy::default()), &urls);
        assert_eq!(got, want, "{name}");
    }

    // Errors name the file and the line.
    for (bad, what) in [
        ("{\"status\": 200}", "no \"url\""),
        ("[1, 2]", "not a JSON object"),
        ("{\"url\": \"ftp://a.com/\"}", "not an http(s) URL"),
        ("{\"url\": \"https://a.com/\", \"status\": \"ok\"}", "\"status\""),
        ("{\"url\": \"https://a.com/\", \"body_base64\": \"!!\"}", "base64"),
        ("{\"url\": \"https://a.com/\", \"body\": \"\", \"body_base64\": \"\"}", "both"),
        ("{\"url\": ", "not a JSON object"),
    ] {
        dir.create("bad.jsonl", format!("{}\n{bad}\n", lines[0]));
        let err = FetchSet::new()
            .read_index(&dir.path().join("bad.jsonl"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("bad.jsonl:2: "), "{err}");
        assert!(err.contains(what), "{what:?} not in {err}");
    }
    let err = FetchSet::new()
        .read_index(&dir.path().join("absent.jsonl"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("absent.jsonl"), "{err}");
}

#[test]
fn robots_dir() {
    let dir = Dir::new("crawl_dir");
    dir.create_dir("robots");
    dir.create("robots/a.com.txt", "User-agent: *\nDisallow: /a/\n");
    dir.create("robots/B.org.txt", "User-agent: GPTBot\nDisallow: /\n");
    dir.create("robots/notes.md", "not a robots.txt");
    // A directory is no file; a link to a file is read through.
    dir.create_dir("robots/d.net.txt");
    #[cfg(unix)]
    std::os::unix::fs::symlink(
        dir.path().join("robots/a.com.txt"),
        dir.path().join("robots/c.com.txt"),
    )
    .unwrap();
    let mut set = FetchSet::new();
    let n = if cfg!(unix) { 3 } else { 2 };
    assert_eq!(set.read_dir(&dir.path().join("robots")).unwrap(), n);
    let got = judge_all(
        &judge_with(set, FetchPolicy::default()),
        &[
            "https://a.com/a/",
            "http://b.org:81/x",
            "https://notes.md/",
            "https://d.net/",
        ],
    );
    assert_eq!(
        got,
        [
            "disallowed rule | disallowed rule",
            "allowed no-group | disallowed rule",
            "unknown no-robots | unknown no-robots",
            "unknown no-robots | unknown no-robots",
        ]
    );
    #[cfg(unix)]
    {
        let judge = judge_with(
            {
                let mut set = FetchSet::new();
                set.read_dir(&dir.path().join("robots")).unwrap();
                set
            },
            FetchPolicy::default(),
        );
        let got = judge_all(&judge, &["https://c.com/a/"]);
        assert_eq!(got, ["disallowed rule | disallowed rule"]);
    }
    let err = FetchSet::new()
        .read_dir(&dir.path().join("absent"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("absent"), "{err}");
}

/// A directory's files are read when a URL of their host first needs them,
/// not before: a file changed after the listing is judged as it is then, a
/// file gone by then counts as no robots.txt (and is reported).
#[test]
fn robots_dir_files_are_read_when_first_needed() {
    let dir = Dir::new("crawl-lazy-dir");
    dir.create_dir("robots");
    dir.create("robots/a.com.txt", "User-agent: *\nDisallow: /a/\n");
    dir.create("robots/b.com.txt", "User-agent: *\nDisallow: /b/\n");
    dir.create("robots/c.com.txt", "User-agent: *\nDisallow: /b/\n");
    dir.create("robots/gone.com.txt", "User-agent: *\nDisallow: /\n");
    let mut set = FetchSet::new();
    assert_eq!(set.read_dir(&dir.path().join("robots")).unwrap(), 4);
    // Listed, not read: the bodies are what the files hold when needed.
    dir.create("robots/a.com.txt", "User-agent: *\nDisallow: /z/\n");
    std::fs::remove_file(dir.path().join("robots/gone.com.txt")).unwrap();
    let judge = judge_with(set, FetchPolicy::default());
    assert!(judge.fetches().unreadable().is_empty());
    let got = judge_all(
        &judge,
        &[
            "https://a.com/a/",
            "https://a.com/z/",
            "https://b.com/b/",
            "https://c.com/b/",
            "https://gone.com/x",
        ],
    );
    assert_eq!(
        got,
        [
            "allowed no-matching-rule | allowed no-matching-rule",
            "disallowed rule | disallowed rule",
            "disallowed rule | disallowed rule",
            "disallowed rule | disallowed rule",
            "unknown no-robots | unknown no-robots",
        ]
    );
    let unreadable = judge.fetches().unreadable();
    assert_eq!(unreadable.len(), 1, "{unreadable:?}");
    assert!(unreadable[0].contains("gone.com.txt"), "{unreadable:?}");
    let mut scratch = judge.scratch();
    let mut out = vec![];
    judge.verdicts(b"https://c.com/", &mut scratch, &mut out);
    let c = out[0].fetch().unwrap();
    assert_eq!(
        judge.fetches().body(c).as_deref(),
        Some(&b"User-agent: *\nDisallow: /b/\n"[..])
    );

    // The same through the grouped judge, in a batch that mixes the hosts:
    // the rules that gave each verdict come with it (for explanations),
    // none with the file that is gone.
    dir.create("robots/gone.com.txt", "User-agent: *\nDisallow: /\n");
    let mut set = FetchSet::new();
    set.read_dir(&dir.path().join("robots")).unwrap();
    std::fs::remove_file(dir.path().join("robots/gone.com.txt")).unwrap();
    let judge = judge_with(set, FetchPolicy::default());
    let urls = [
        "https://gone.com/x",
        "https://a.com/z/",
        "https://c.com/b/",
        "https://gone.com/y",
        "https://b.com/b/",
        "https://a.com/a/",
    ];
    let mut got = vec![String::new(); urls.len()];
    GroupedScratch::new(&judge).judge(
        &judge,
        urls.len(),
        |i| Some(urls[i].as_bytes()),
        |i, one, sets| {
            let names: Vec<_> = one
                .iter()
                .map(|v| format!("{} {}", v.name(), v.reason().name()))
                .collect();
            let sets = sets.map(|s| s.len());
            got[i] = format!("{} {sets:?}", names.join(" | "));
        },
    );
    let rule = "disallowed rule | disallowed rule Some(2)";
    let gone = "unknown no-robots | unknown no-robots None";
    let none = "allowed no-matching-rule | allowed no-matching-rule Some(2)";
    assert_eq!(got, [gone, rule, rule, gone, rule, none]);
}

/// The files of several directories are each read from their own
/// directory when needed, a host with a file in more than one taking the
/// file of the directory listed last; a file gone by then is reported
/// under its own directory.
#[test]
fn robots_dirs_each_file_read_from_its_own_directory() {
    let dir = Dir::new("crawl-two-dirs");
    dir.create_dir("one");
    dir.create_dir("two");
    dir.create("one/a.com.txt", "User-agent: *\nDisallow: /one/\n");
    dir.create("one/b.com.txt", "User-agent: *\nDisallow: /one/\n");
    dir.create("two/b.com.txt", "User-agent: *\nDisallow: /two/\n");
    dir.create("two/c.com.txt", "User-agent: *\nDisallow: /two/\n");
    dir.create("two/gone.com.txt", "User-agent: *\nDisallow: /\n");
    let mut set = FetchSet::new();
    assert_eq!(set.read_dir(&dir.path().join("one")).unwrap(), 2);
    assert_eq!(set.read_dir(&dir.path().join("two")).unwrap(), 3);
    // b.com's two files are both kept, as two captures of it.
    assert_eq!(set.len(), 5);
    std::fs::remove_file(dir.path().join("two/gone.com.txt")).unwrap();
    let judge = judge_with(set, FetchPolicy::default());
    let got = judge_all(
        &judge,
        &[
            "https://a.com/one/",
            "https://b.com/one/",
            "https://b.com/two/",
            "https://c.com/two/",
            "https://gone.com/x",
        ],
    );
    let rule = "disallowed rule | disallowed rule";
    let none = "allowed no-matching-rule | allowed no-matching-rule";
    let gone = "unknown no-robots | unknown no-robots";
    assert_eq!(got, [rule, none, rule, rule, gone]);
    let unreadable = judge.fetches().unreadable();
    assert_eq!(unreadable.len(), 1, "{unreadable:?}");
    let path = dir.path().join("two").join("gone.com.txt");
    let named = format!("{}: cannot read: ", path.display());
    assert!(unreadable[0].starts_with(&named), "{unreadable:?}");
}

/// A directory's bodies are not kept once their matchers are built, so
/// that a run holds no more than its cache: a host whose matchers were
/// evicted is read again, as its file is then; a file removed meanwhile
/// is judged as an empty one, and reported.
#[test]
fn robots_dir_files_are_read_again_after_eviction() {
    let dir = Dir::new("crawl-reread-dir");
    dir.create_dir("robots");
    dir.create("robots/a.com.txt", "User-agent: *\nDisallow: /a/\n");
    dir.create("robots/b.com.txt", "User-agent: *\nDisallow: /b/\n");
    let mut set = FetchSet::new();
    set.read_dir(&dir.path().join("robots")).unwrap();
    let tiny = FetchPolicy { cache_bytes: 1, ..FetchPolicy::default() };
    let judge = judge_with(set, tiny);
    let urls = ["https://a.com/a/", "https://a.com/z/", "https://b.com/b/"];
    let rule = "disallowed rule | disallowed rule";
    let none = "allowed no-matching-rule | allowed no-matching-rule";
    assert_eq!(judge_all(&judge, &urls), [rule, none, rule]);
    // Each host's matchers evict the other's.
    dir.create("robots/a.com.txt", "User-agent: *\nDisallow: /z/\n");
    std::fs::remove_file(dir.path().join("robots/b.com.txt")).unwrap();
    assert!(judge.fetches().unreadable().is_empty());
    let empty = "allowed no-group | allowed no-group";
    assert_eq!(judge_all(&judge, &urls), [none, rule, empty]);
    let unreadable = judge.fetches().unreadable();
    assert_eq!(unreadable.len(), 1, "{unreadable:?}");
    assert!(unreadable[0].contains("b.com.txt"), "{unreadable:?}");
}

/// Spellings of one host that the WHATWG URL standard (and so a crawler
/// or browser) reads as one: IDNA and Punycode, case, percent-encoding, a
/// trailing dot, IP address forms.
const SPELLINGS: [&[&str]; 4] = [
    &[
        "bücher.de",
        "xn--bcher-kva.de",
        "BÜCHER.de",
        "XN--BCHER-KVA.DE",
        "b%C3%BCcher.de",
        "Bücher.de.",
    ],
    &["dot.com", "dot.com.", "DOT.Com.", "dot.com.."],
    &["[::1]", "[0:0::1]", "[0000::0001]"],
    &["127.0.0.1", "0x7f.1", "2130706433", "127.0.0.1."],
];

#[test]
fn one_origin_many_spellings() {
    let dir = Dir::new("crawl_spellings");
    let body = "User-agent: *\nDisallow: /private/\n";
    let mut n = 0;
    for group in SPELLINGS {
        // Every URL spelling, with and without the default port and with
        // user info, against the robots.txt under every spelling, from
        // every source.
        let urls: Vec<String> = group
            .iter()
            .flat_map(|h| {
                [
                    format!("http://{h}/private/x"),
                    format!("HTTP://{h}:80/private/x"),
                    format!("http://u:p@{h}:0080/private/x"),
                    format!("http://{h}/private/?q"),
                ]
            })
            .collect();
        let want = vec!["disallowed rule | disallowed rule"; urls.len()];
        for &host in group {
            n += 1;
            let sub = format!("robots{n}");
            dir.create_dir(&sub);
            dir.create(format!("{sub}/{host}.txt"), body);
            let mut by_dir = FetchSet::new();
            assert_eq!(by_dir.read_dir(&dir.path().join(&sub)).unwrap(), 1);

            let url = format!("http://{host}/robots.txt");
            let line =
                serde_json::json!({"url": url, "status": 200, "body": body});
            dir.create("index.jsonl", format!("{line}\n"));
            let mut by_index = FetchSet::new();
            by_index.read_index(&dir.path().join("index.jsonl")).unwrap();

            let record = warc_record(
                &url,
                "2024-01-01T00:00:00Z",
                &http("200 OK", "", body),
            );
            dir.create("capture.warc", record);
            let mut by_warc = FetchSet::new();
            by_warc.read_warc(&dir.path().join("capture.warc")).unwrap();

            // A redirect whose Location spells the host its own way.
            let mut by_redirect = FetchSet::new();
            by_redirect.insert(
                &origin("http://from.com/robots.txt"),
                fetch(301, "", Some(&url)),
            );
            by_redirect.insert(
                &origin(&format!("http://{}/", group[0])),
                fetch(200, body, None),
            );
            let moved = judge_all(
                &judge_with(by_redirect, FetchPolicy::default()),
                &["http://from.com/private/x"],
            );
            assert_eq!(moved, ["disallowed rule | disallowed rule"], "{host}");

            for (source, set) in
                [("dir", by_dir), ("index", by_index), ("warc", by_warc)]
            {
                let got =
                    judge_all(&judge_with(set, FetchPolicy::default()), &urls);
                assert_eq!(got, want, "{host} from {source}");
            }
        }
    }
    // Every spelling names the origin alike, in its normalised form.
    for group in SPELLINGS {
        let names: Vec<String> = group
            .iter()
            .map(|h| origin(&format!("http://{h}/")).to_string())
            .collect();
        assert!(names.iter().all(|n| *n == names[0]), "{names:?}");
    }
    assert_eq!(origin("http://BÜCHER.de./").host(), "xn--bcher-kva.de");
    assert_eq!(origin("http://0x7f.1/").host(), "127.0.0.1");
    assert_eq!(origin("http://[0:0::1]:80/").to_string(), "http://[::1]");
}

#[test]
fn a_backslash_ends_the_authority() {
    // WHATWG reads `http://a.com\@evil.com/x` as host a.com, path
    // `/@evil.com/x`: the robots.txt of a.com applies, not evil.com's.
    let mut set = FetchSet::new();
    set.insert(&origin("http://a.com/robots.txt"), fetch(200, ROBOTS, None));
    set.insert(
        &origin("http://evil.com/robots.txt"),
        fetch(200, "User-agent: *\nAllow: /\n", None),
    );
    let got = judge_all(
        &judge_with(set, FetchPolicy::default()),
        &[
            "http://a.com\\@evil.com/x",
            "http://a.com\\x",
            "http://u@a.com\\@evil.com/x",
            "http://a.com/@evil.com/x",
            "http://x@evil.com/private/x",
        ],
    );
    assert_eq!(
        got,
        [
            "allowed no-matching-rule | disallowed rule",
            "allowed no-matching-rule | disallowed rule",
            "allowed no-matching-rule | disallowed rule",
            "allowed no-matching-rule | disallowed rule",
            "allowed rule | allowed rule",
        ]
    );
    // A host the WHATWG parser rejects is no host at all.
    let got = judge_all(
        &judge_with(FetchSet::new(), FetchPolicy::default()),
        &["http://xn--a.com/", "http://a.123/", "http://a%20b.com/"],
    );
    assert!(
        got.iter().all(|v| v == "unknown no-host | unknown no-host"),
        "{got:?}"
    );
}

rbtest!(crawl_one_origin_many_spellings, |dir: Dir, mut cmd: TestCommand| {
    dir.create_dir("robots");
    dir.create("robots/Bücher.de.txt", "User-agent: *\nDisallow: /b/\n");
    dir.create("robots/dot.com..txt", "User-agent: *\nDisallow: /d/\n");
    dir.create(
        "index.jsonl",
        "{\"url\": \"http://a.com/robots.txt\", \"status\": 200, \
          \"body\": \"User-agent: *\\nDisallow: /\\n\"}\n\
         {\"url\": \"http://evil.com/robots.txt\", \"status\": 200}\n",
    );
    dir.create(
        "log.txt",
        "http://xn--bcher-kva.de/b/1\n\
         https://BÜCHER.de:443/b/2\n\
         http://b%C3%BCcher.de/c\n\
         http://DOT.com/d/1\n\
         http://dot.com.:80/d/2\n\
         http://a.com\\@evil.com/x\n\
         http://xn--a.com/x\n",
    );
    let got = cmd
        .arg("crawl")
        .args(["--robots-dir", "robots", "--robots-index", "index.jsonl"])
        .args(["--no-header", "log.txt"])
        .stdout();
    eqnice!(
        "http://xn--bcher-kva.de/b/1,disallowed,rule\n\
         https://BÜCHER.de:443/b/2,disallowed,rule\n\
         http://b%C3%BCcher.de/c,allowed,no-matching-rule\n\
         http://DOT.com/d/1,disallowed,rule\n\
         http://dot.com.:80/d/2,disallowed,rule\n\
         http://a.com\\@evil.com/x,disallowed,rule\n\
         http://xn--a.com/x,unknown,no-host\n",
        got
    );
});

#[test]
fn cache_bounded_in_bytes_gives_the_same_verdicts() {
    let mut set = FetchSet::new();
    let mut urls = vec![];
    for i in 0..50 {
        let body = format!("User-agent: *\nDisallow: /{i}/\n");
        set.insert_host(&format!("h{i}.com"), fetch(200, &body, None));
        urls.push(format!("https://h{i}.com/{i}/x"));
        urls.push(format!("https://h{}.com/{i}/x", (i + 1) % 50));
    }
    // Hosts interleaved so the per-thread "last origin" rarely helps.
    let urls: Vec<&str> = urls.iter().map(String::as_str).collect();
    let big =
        judge_all(&judge_with(set.clone(), FetchPolicy::default()), &urls);
    let tiny = FetchPolicy { cache_bytes: 1, ..FetchPolicy::default() };
    assert_eq!(judge_all(&judge_with(set, tiny), &urls), big);
    for (i, v) in big.iter().enumerate() {
        let want = if i % 2 == 0 { "disallowed" } else { "allowed" };
        assert!(v.starts_with(want), "{} {v}", urls[i]);
    }
}

#[test]
fn shared_cache_compiles_each_body_once_across_judges() {
    let cache = std::sync::Arc::new(MatcherCache::new(1 << 20));
    let mut set = FetchSet::new();
    set.insert_host("a.com", fetch(200, ROBOTS, None));
    set.insert_host("b.com", fetch(200, ROBOTS, None));
    set.insert_host("c.com", fetch(200, "User-agent: *\nDisallow: /\n", None));
    let urls =
        ["https://a.com/private/x", "https://b.com/y", "https://c.com/z"];
    let alone =
        judge_all(&judge_with(set.clone(), FetchPolicy::default()), &urls);
    let first = judge_with(set.clone(), FetchPolicy::default())
        .with_shared_cache(cache.clone());
    assert_eq!(judge_all(&first, &urls), alone);
    // Two bodies, whatever the number of origins.
    assert_eq!(cache.len(), 2);
    let bytes = cache.memory_usage();
    assert!(bytes > 2 * ROBOTS.len(), "{bytes}");
    let second = judge_with(set.clone(), FetchPolicy::default())
        .with_shared_cache(cache.clone());
    assert_eq!(judge_all(&second, &urls), alone);
    assert_eq!((cache.len(), cache.memory_usage()), (2, bytes));
    // Other agents are other matchers.
    let other = CrawlJudge::new(
        set.clone(),
        FetchPolicy::default(),
        MatcherBuilder::new(),
        &["GPTBot".to_string()],
        Dialect::Rfc9309,
    )
    .with_shared_cache(cache.clone());
    judge_all(&other, &urls);
    assert_eq!(cache.len(), 4);
    // Bounded: a cache too small for anything keeps nothing, and the
    // verdicts stay the same.
    let tiny = std::sync::Arc::new(MatcherCache::new(10));
    let judge = judge_with(set, FetchPolicy::default())
        .with_shared_cache(tiny.clone());
    assert_eq!(judge_all(&judge, &urls), alone);
    assert!(tiny.is_empty());
}

/// Every setting a judge's matchers depend on is part of the shared cache's
/// key: a judge that differs in one of them compiles its own.
#[test]
fn shared_cache_keys_every_setting() {
    let cache = std::sync::Arc::new(MatcherCache::new(1 << 20));
    let mut set = FetchSet::new();
    set.insert_host("a.com", fetch(200, ROBOTS, None));
    let urls = ["https://a.com/private/x"];
    let agents = ["MyBot".to_string()];
    let judge = |builder: MatcherBuilder, dialect, limit| {
        let policy =
            FetchPolicy { max_robots_bytes: limit, ..Default::default() };
        let judge =
            CrawlJudge::new(set.clone(), policy, builder, &agents, dialect)
                .with_shared_cache(cache.clone());
        judge_all(&judge, &urls);
        cache.len()
    };
    let limit = FetchPolicy::default().max_robots_bytes;
    assert_eq!(judge(MatcherBuilder::new(), Dialect::Rfc9309, limit), 1);
    assert_eq!(judge(MatcherBuilder::new(), Dialect::Rfc9309, limit), 1);
    assert_eq!(judge(MatcherBuilder::new(), Dialect::Google, limit), 2);
    assert_eq!(judge(MatcherBuilder::new(), Dialect::Rfc9309, limit + 1), 3);
    let mut nfa = MatcherBuilder::new();
    nfa.nfa_size_limit(1 << 20);
    assert_eq!(judge(nfa.clone(), Dialect::Rfc9309, limit), 4);
    assert_eq!(judge(nfa, Dialect::Rfc9309, limit), 4);
    let mut dense = MatcherBuilder::new();
    dense.engine(EngineKind::Dense);
    assert_eq!(judge(dense, Dialect::Rfc9309, limit), 5);
}

/// Rules whose verdicts depend on the wildcard tails and the `$` anchor, for
/// the scanning and the compiled matchers to agree on.
const WILD: &str = "User-agent: *\nDisallow: /*.pdf$\nAllow: /a/*/ok\n\
                    Disallow: /a/\nDisallow: /*?s=*&p=\n\n\
                    User-agent: GPTBot\nDisallow: /\nAllow: /pub$\n";

fn wild_urls() -> Vec<String> {
    let paths = [
        "/x.pdf",
        "/x.pdf?",
        "/a/b/ok",
        "/a/b",
        "/q?s=1&p=2",
        "/q?p=&s=",
        "/pub",
        "/pub/",
        "/",
    ];
    (0..30)
        .flat_map(|i| {
            paths.iter().map(move |p| format!("https://h{}.com{p}", i % 3))
        })
        .collect()
}

/// The strategy of the first agent's matchers for the first fetch, or
/// `rules` while its rules alone judge.
fn strategy(judge: &CrawlJudge) -> &'static str {
    judge.matchers(0).map_or("rules", |m| m[0].strategy())
}

fn wild_judge(compile_after: usize) -> CrawlJudge {
    let mut set = FetchSet::new();
    for h in 0..3 {
        set.insert_host(&format!("h{h}.com"), fetch(200, WILD, None));
    }
    judge_with(set, FetchPolicy::default()).compile_after(compile_after)
}

#[test]
fn scanning_first_then_compiling_gives_the_same_verdicts() {
    let urls = wild_urls();
    let at_once = wild_judge(0);
    let want = judge_all(&at_once, &urls);
    assert_eq!(strategy(&at_once), "trie");
    assert!(want.iter().any(|v| v.starts_with("disallowed")));
    assert!(want.iter().any(|v| v.starts_with("allowed")));
    // The three hosts share one body, so one set of matchers judges all
    // 270 URLs: compiled after the first, midway, or never.
    for (after, compiled) in [(1, "trie"), (100, "trie"), (271, "scan")] {
        let judge = wild_judge(after);
        assert_eq!(judge_all(&judge, &urls), want, "compile after {after}");
        assert_eq!(strategy(&judge), compiled, "{after}");
    }
    // The first URLs are scanned.
    let judge = wild_judge(100);
    assert_eq!(judge_all(&judge, &urls[..99]), want[..99]);
    assert_eq!(strategy(&judge), "scan");
}

#[test]
fn compile_after_n_scans_exactly_n_urls_of_an_origin() {
    let urls = wild_urls();
    let want = judge_all(&wild_judge(0), &urls);
    // `--compile-after N`: an origin with N URLs is never compiled; its
    // URL N + 1 is judged by the compiled matchers.
    for n in [1, 2, 10, 100] {
        let judge = wild_judge(n);
        assert_eq!(judge_all(&judge, &urls[..n]), want[..n], "{n}");
        // An origin's first three URLs are judged by its rules alone.
        let before = if n <= 3 { "rules" } else { "scan" };
        assert_eq!(strategy(&judge), before, "{n} URLs");
        assert_eq!(judge_all(&judge, &urls[n..=n]), want[n..=n], "{n}");
        assert_eq!(strategy(&judge), "trie", "{n} + 1 URLs");
    }
}

#[test]
fn scanning_first_across_threads_compiles_once_for_all() {
    let urls = wild_urls();
    let want = judge_all(&wild_judge(0), &urls);
    let judge = wild_judge(50);
    std::thread::scope(|s| {
        let handles: Vec<_> =
            (0..4).map(|_| s.spawn(|| judge_all(&judge, &urls))).collect();
        for h in handles {
            assert_eq!(h.join().unwrap(), want);
        }
    });
    assert_eq!(strategy(&judge), "trie");
}

#[test]
fn shared_cache_counts_scanned_urls_across_judges() {
    let urls = wild_urls();
    let want = judge_all(&wild_judge(0), &urls);
    let cache = std::sync::Arc::new(MatcherCache::new(1 << 20));
    let judge = || wild_judge(200).with_shared_cache(cache.clone());
    // 150 URLs, then 150 more by another judge: over 200 in all.
    let first = judge();
    assert_eq!(judge_all(&first, &urls[..150]), want[..150]);
    assert_eq!(strategy(&first), "scan");
    let second = judge();
    assert_eq!(judge_all(&second, &urls[120..]), want[120..]);
    // A third judge finds the compiled matchers in the shared cache.
    assert_eq!(strategy(&judge()), "trie");
    assert_eq!(cache.len(), 1);

    // A judge that holds scanning matchers picks up the ones another
    // judge compiled; a judge with a lower threshold than the count
    // already reached compiles at once.
    let cache = std::sync::Arc::new(MatcherCache::new(1 << 20));
    let judge =
        |after: usize| wild_judge(after).with_shared_cache(cache.clone());
    let (patient, eager) = (judge(100), judge(5));
    assert_eq!(judge_all(&patient, &urls[..10]), want[..10]);
    assert_eq!(strategy(&patient), "scan");
    assert_eq!(judge_all(&eager, &urls[..1]), want[..1]);
    assert_eq!(strategy(&eager), "trie");
    assert_eq!(strategy(&patient), "scan");
    assert_eq!(judge_all(&patient, &urls), want);
    assert_eq!(strategy(&patient), "trie");
}

fn shared() -> Option<PathBuf> {
    let dir =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets");
    if dir.join("robots").is_dir() {
        Some(dir)
    } else {
        crate::util::skip(
            "real_pairs_agree_with_single_file_mode",
            "../shared/datasets is absent",
        );
        None
    }
}

/// The real pairs: the anubhavp28 benchmark's links of 1,265 sites, and
/// the robots.txt files of those sites in `../shared/datasets/robots`
/// (named `<host>.txt`). Every URL whose host has a file gets exactly the
/// verdict that the single-file mode gives with that file.
#[test]
fn real_pairs_agree_with_single_file_mode() {
    let Some(data) = shared() else { return };
    let links = std::fs::read(
        data.join("urls/anubhavp28_robots_benchmark_site_links.txt"),
    )
    .unwrap();
    let mut set = FetchSet::new();
    set.read_dir(&data.join("robots")).unwrap();
    let agents = ["Googlebot".to_string(), "GPTBot".to_string()];
    // Scanned throughout (the default: about 90 URLs per host), and
    // compiled after a few URLs of each host.
    for compile_after in [robots_batch::crawl::DEFAULT_COMPILE_AFTER, 3] {
        real_pairs_with(&data, &links, set.clone(), &agents, compile_after);
    }
}

fn real_pairs_with(
    data: &std::path::Path,
    links: &[u8],
    set: FetchSet,
    agents: &[String],
    compile_after: usize,
) {
    let judge = CrawlJudge::new(
        set,
        FetchPolicy::default(),
        MatcherBuilder::new(),
        agents,
        Dialect::Rfc9309,
    )
    .compile_after(compile_after);
    let mut scratch = judge.scratch();
    let mut out: Vec<CrawlVerdict> = vec![];
    let mut single: HashMap<String, Vec<Matcher>> = HashMap::new();
    let (mut judged, mut missing, mut no_host) = (0, 0, 0);
    for url in links.split(|&b| b == b'\n') {
        let url = url.strip_suffix(b"\r").unwrap_or(url);
        judge.verdicts(url, &mut scratch, &mut out);
        let Some(origin) = Origin::of_url(url) else {
            assert!(out.iter().all(|v| v.name() == "unknown"));
            no_host += 1;
            continue;
        };
        let file = data.join("robots").join(format!("{}.txt", origin.host()));
        if !file.is_file() {
            assert!(out.iter().all(|v| v.reason().name() == "no-robots"));
            missing += 1;
            continue;
        }
        let matchers =
            single.entry(origin.host().to_string()).or_insert_with(|| {
                let robots = Robots::parse_with_limit(
                    &std::fs::read(&file).unwrap(),
                    robots_batch::DEFAULT_MAX_ROBOTS_BYTES,
                );
                agents
                    .iter()
                    .map(|a| Matcher::new(&robots, a, Dialect::Rfc9309))
                    .collect()
            });
        for (m, got) in matchers.iter().zip(&out) {
            let want = m.verdict(url, &mut m.scratch());
            assert_eq!(
                got.allowed(),
                Some(want.is_allowed()),
                "{}",
                String::from_utf8_lossy(url)
            );
            assert_eq!(got.reason().name(), want.reason().name());
        }
        judged += 1;
    }
    eprintln!(
        "real pairs, compile after {compile_after}: {judged} URLs judged \
         by their host's file, {missing} \
         without one, {no_host} without a host, {} hosts",
        single.len()
    );
    assert!(judged > 80_000, "only {judged} URLs had their host's file");
}

/// A crawl log over every source and fetch class, for the binary.
fn crawl_fixture(dir: &Dir) -> String {
    dir.create_dir("robots");
    dir.create("robots/a.com.txt", ROBOTS);
    dir.create(
        "index.jsonl",
        "{\"url\": \"https://b.com/robots.txt\", \"status\": 503}\n\
         {\"url\": \"http://c.com/robots.txt\", \"status\": 301, \
          \"location\": \"https://a.com/robots.txt\"}\n\
         {\"url\": \"https://d.com/robots.txt\", \"status\": 403}\n",
    );
    dir.create(
        "capture.warc.gz",
        gzip(&warc_record(
            "https://e.com/robots.txt",
            "2024-01-01T00:00:00Z",
            &http("200 OK", "", "User-agent: *\nDisallow: /e/\n"),
        )),
    );
    let mut log = String::new();
    for i in 0..40 {
        for url in [
            "https://a.com/private/x",
            "https://a.com/public",
            "https://b.com/x",
            "http://c.com/private/y",
            "https://d.com/x",
            "https://e.com/e/1",
            "https://missing.com/x",
            "no host here, \"quoted\"",
        ] {
            log.push_str(&format!("{url}?{i}\n"));
        }
    }
    dir.create("log.txt", &log);
    log
}

const SOURCES: [&str; 6] = [
    "--robots-dir",
    "robots",
    "--robots-index",
    "index.jsonl",
    "--robots-warc",
    "capture.warc.gz",
];

rbtest!(crawl_command_rows, |dir: Dir, mut cmd: TestCommand| {
    let log = crawl_fixture(&dir);
    let got = cmd.arg("crawl").args(SOURCES).arg("log.txt").stdout();
    let mut lines = got.lines();
    assert_eq!(lines.next(), Some("url,verdict,reason"));
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), log.lines().count());
    assert_eq!(
        &rows[..8],
        [
            "https://a.com/private/x?0,disallowed,rule",
            "https://a.com/public?0,allowed,no-matching-rule",
            "https://b.com/x?0,disallowed,status-5xx",
            "http://c.com/private/y?0,disallowed,rule",
            "https://d.com/x?0,allowed,status-4xx",
            "https://e.com/e/1?0,disallowed,rule",
            "https://missing.com/x?0,unknown,no-robots",
            "\"no host here, \"\"quoted\"\"?0\",unknown,no-host",
        ]
    );
    // Input order everywhere, whatever the threads and chunk boundaries:
    // the worker judges grouped by origin but writes in input order.
    for (i, (row, url)) in rows.iter().zip(log.lines()).enumerate() {
        let head = url.split(',').next().unwrap();
        assert!(row.contains(head), "row {i}: {row} for {url}");
    }
    // Each origin has 40 URLs: compiled at once, after some of them, or
    // never (scanned throughout), the rows are the same.
    for args in [
        &["-j1"][..],
        &["-j2", "--chunk-size", "7"],
        &["-j3", "--chunk-size", "1"],
        &["-j1", "--compile-after", "0"],
        &["-j2", "--compile-after", "5", "--chunk-size", "50"],
        &["-j1", "--compile-after", "1000"],
        &["-j2", "--engine", "scan"],
        // `dfa` is the old name of `trie`, the default.
        &["-j1", "--compile-after", "0", "--engine", "dfa"],
    ] {
        let again = dir
            .command()
            .arg("crawl")
            .args(SOURCES)
            .args(args)
            .arg("log.txt")
            .stdout();
        assert_eq!(again, got, "{args:?}");
    }
    let piped = dir
        .command()
        .arg("crawl")
        .args(SOURCES)
        .args(["-j2", "--chunk-size", "100", "-"])
        .stdin(log.as_bytes())
        .stdout();
    assert_eq!(piped, got);
});

rbtest!(
    crawl_command_policy_agents_explain,
    |dir: Dir, mut cmd: TestCommand| {
        crawl_fixture(&dir);
        let got = cmd
            .arg("crawl")
            .args(SOURCES)
            .args(["--on-5xx", "allow", "--on-401-403", "disallow"])
            .args(["--on-missing", "disallow", "--max-redirects", "0"])
            .args(["-a", "MyBot,GPTBot", "--explain", "--format", "tsv"])
            .arg("log.txt")
            .stdout();
        let rows: Vec<&str> = got.lines().take(17).collect();
        assert_eq!(
        rows,
        [
            "url\tagent\tverdict\treason\trobots\tcapture\tline\trule",
            "https://a.com/private/x?0\tMyBot\tdisallowed\trule\ta.com\t\t2\tDisallow: /private/",
            "https://a.com/private/x?0\tGPTBot\tdisallowed\trule\ta.com\t\t5\tDisallow: /",
            "https://a.com/public?0\tMyBot\tallowed\tno-matching-rule\ta.com\t\t\t",
            "https://a.com/public?0\tGPTBot\tdisallowed\trule\ta.com\t\t5\tDisallow: /",
            "https://b.com/x?0\tMyBot\tallowed\tstatus-5xx\thttps://b.com\t\t\t",
            "https://b.com/x?0\tGPTBot\tallowed\tstatus-5xx\thttps://b.com\t\t\t",
            "http://c.com/private/y?0\tMyBot\tallowed\tredirect-limit\thttp://c.com\t\t\t",
            "http://c.com/private/y?0\tGPTBot\tallowed\tredirect-limit\thttp://c.com\t\t\t",
            "https://d.com/x?0\tMyBot\tdisallowed\tstatus-4xx\thttps://d.com\t\t\t",
            "https://d.com/x?0\tGPTBot\tdisallowed\tstatus-4xx\thttps://d.com\t\t\t",
            "https://e.com/e/1?0\tMyBot\tdisallowed\trule\thttps://e.com\t2024-01-01T00:00:00Z\t2\tDisallow: /e/",
            "https://e.com/e/1?0\tGPTBot\tdisallowed\trule\thttps://e.com\t2024-01-01T00:00:00Z\t2\tDisallow: /e/",
            "https://missing.com/x?0\tMyBot\tdisallowed\tno-robots\t\t\t\t",
            "https://missing.com/x?0\tGPTBot\tdisallowed\tno-robots\t\t\t\t",
            "no host here, \"quoted\"?0\tMyBot\tunknown\tno-host\t\t\t\t",
            "no host here, \"quoted\"?0\tGPTBot\tunknown\tno-host\t\t\t\t",
        ]
    );
        let json = dir
            .command()
            .args([
                "crawl",
                "--robots-dir",
                "robots",
                "--explain",
                "--format",
                "jsonl",
                "log.txt",
            ])
            .stdout();
        assert_eq!(
        json.lines().next(),
        Some(
            "{\"url\":\"https://a.com/private/x?0\",\"verdict\":\"disallowed\",\
             \"reason\":\"rule\",\"robots\":\"a.com\",\"capture\":null,\
             \"line\":2,\"rule\":\"Disallow: /private/\"}"
        )
    );
    }
);

rbtest!(crawl_command_errors, |dir: Dir, mut cmd: TestCommand| {
    crawl_fixture(&dir);
    // No source at all is a usage error.
    let err = cmd.args(["crawl", "log.txt"]).assert_error();
    assert!(err.contains("--robots-dir"), "{err}");
    dir.create("bad.jsonl", "{\"url\": \"https://a.com/\"}\nnot json\n");
    let err = dir
        .command()
        .args(["crawl", "--robots-index", "bad.jsonl", "log.txt"])
        .assert_error();
    assert!(err.contains("bad.jsonl:2: not a JSON object"), "{err}");
    dir.create("bad.warc", "GET / HTTP/1.1\r\n");
    let err = dir
        .command()
        .args(["crawl", "--robots-warc", "bad.warc", "log.txt"])
        .assert_error();
    assert!(err.contains("bad.warc") && err.contains("WARC/"), "{err}");
    let err = dir
        .command()
        .args(["crawl", "--robots-dir", "absent", "log.txt"])
        .assert_error();
    assert!(err.contains("absent"), "{err}");
    let err = dir
        .command()
        .args(["crawl", "--robots-dir", "robots", "absent.txt"])
        .assert_error();
    assert!(err.contains("absent.txt"), "{err}");
    let err = dir
        .command()
        .args(["crawl", "--robots-dir", "robots", "robots"])
        .assert_error();
    assert!(err.contains("robots"), "{err}");
});

// Lines in a row that share the bytes of an authority are located once:
// lines that share only a prefix of it, or differ in case, port or user
// info, must each find their own origin.
rbtest!(crawl_consecutive_authorities, |dir: Dir, mut cmd: TestCommand| {
    dir.create_dir("robots");
    dir.create("robots/a.com.txt", "User-agent: *\nDisallow: /a\n");
    dir.create("robots/a.com.evil.txt", "User-agent: *\nDisallow: /e\n");
    dir.create("robots/a.co.txt", "User-agent: *\nDisallow: /\n");
    dir.create(
        "index.jsonl",
        concat!(
            r#"{"url": "https://a.com:8443/robots.txt", "status": 503}"#,
            "\n",
            r#"{"url": "http://a.com/robots.txt", "status": 404}"#,
            "\n",
        ),
    );
    let log = [
        ("https://a.com/a", "disallowed,rule"),
        ("https://a.com/e", "allowed,no-matching-rule"),
        ("https://a.com.evil/a", "allowed,no-matching-rule"),
        ("https://a.com.evil/e", "disallowed,rule"),
        ("https://a.com?a", "allowed,no-matching-rule"),
        ("https://a.com#a", "allowed,no-matching-rule"),
        ("https://a.com", "allowed,no-matching-rule"),
        ("https://a.com:8443/a", "disallowed,status-5xx"),
        ("https://a.com:443/a", "disallowed,rule"),
        ("https://A.COM/a", "disallowed,rule"),
        ("https://user@a.com/e", "allowed,no-matching-rule"),
        ("https://a.co/x", "disallowed,rule"),
        ("https://a.co", "disallowed,rule"),
        ("http://a.com/a", "allowed,status-4xx"),
        ("http://a.com/a", "allowed,status-4xx"),
        ("https://a.comx/a", "unknown,no-robots"),
        ("https://a.com/a", "disallowed,rule"),
        ("https:/a.com/a", "unknown,no-host"),
        ("https:/a.com/a", "unknown,no-host"),
    ];
    let input: String =
        log.iter().map(|(url, _)| format!("{url}\n")).collect();
    dir.create("log.txt", &input);
    let want: String =
        log.iter().map(|(url, v)| format!("{url},{v}\n")).collect();
    let sources = ["--robots-dir", "robots", "--robots-index", "index.jsonl"];
    let got = cmd
        .arg("crawl")
        .args(sources)
        .args(["--no-header", "-j1", "log.txt"])
        .stdout();
    assert_eq!(got, want);
    // Chunks of a few lines each: the lines before are not always there.
    let got = dir
        .command()
        .arg("crawl")
        .args(sources)
        .args(["--no-header", "-j2", "--chunk-size", "30", "log.txt"])
        .stdout();
    assert_eq!(got, want);
});

// Issue 23, point 3: `Location` resolves against the URL fetched (RFC 3986
// section 5), so a scheme-relative target keeps the scheme and changes the
// host.
#[test]
fn redirect_locations_resolve_against_the_fetched_url() {
    let dir = Dir::new("crawl_location");
    dir.create(
        "index.jsonl",
        concat!(
            r#"{"url":"http://rel.com/robots.txt","status":302,"location":"//tgt.com/robots.txt"}"#,
            "\n",
            r#"{"url":"https://srel.com/robots.txt","status":301,"location":"  //tgt.com/robots.txt "}"#,
            "\n",
            r#"{"url":"https://abs.com/robots.txt","status":301,"location":"http://tgt.com/robots.txt"}"#,
            "\n",
            r#"{"url":"http://tgt.com/robots.txt","status":200,"body":"User-agent: *\nDisallow: /http/\n"}"#,
            "\n",
            r#"{"url":"https://tgt.com/robots.txt","status":200,"body":"User-agent: *\nDisallow: /https/\n"}"#,
            "\n",
        ),
    );
    let mut set = FetchSet::new();
    set.read_index(&dir.path().join("index.jsonl")).unwrap();
    let got = judge_all(
        &judge_with(set, FetchPolicy::default()),
        &[
            "http://rel.com/http/x",
            "https://srel.com/https/x",
            "https://srel.com/http/x",
            "https://abs.com/http/x",
        ],
    );
    assert_eq!(
        got,
        [
            "disallowed rule | disallowed rule",
            "disallowed rule | disallowed rule",
            "allowed no-matching-rule | allowed no-matching-rule",
            "disallowed rule | disallowed rule",
        ]
    );
}

// Issue 23, point 4: a chain that comes back to a fetch is a loop at once,
// whatever the hop limit; a hang would fail here rather than stall the
// suite (the bound is generous: the loop takes microseconds).
#[test]
fn redirect_loops_end_at_once_whatever_the_limit() {
    let mut set = FetchSet::new();
    let mut add = |url: &str, status: u16, location: Option<&str>| {
        set.insert(&origin(url), fetch(status, ROBOTS, location));
    };
    add("https://self.com/robots.txt", 301, Some("/robots.txt"));
    add("https://a.com/robots.txt", 301, Some("https://b.com/robots.txt"));
    add("https://b.com/robots.txt", 301, Some("https://c.com/robots.txt"));
    add("https://c.com/robots.txt", 302, Some("https://b.com/robots.txt"));
    add("https://ok.com/robots.txt", 301, Some("https://end.com/robots.txt"));
    add("https://end.com/robots.txt", 200, None);
    let policy =
        FetchPolicy { max_redirects: usize::MAX, ..FetchPolicy::default() };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let judge = judge_with(set, policy);
        let urls = [
            "https://self.com/x",
            "https://a.com/x",
            "https://c.com/x",
            "https://ok.com/private/",
        ];
        let _ = tx.send(judge_all(&judge, &urls));
    });
    let got = rx
        .recv_timeout(std::time::Duration::from_secs(120))
        .expect("a redirect loop did not end");
    assert_eq!(
        got,
        [
            "allowed redirect-limit | allowed redirect-limit",
            "allowed redirect-limit | allowed redirect-limit",
            "allowed redirect-limit | allowed redirect-limit",
            "disallowed rule | disallowed rule",
        ]
    );
}

rbtest!(crawl_max_redirects_is_capped, |dir: Dir, mut cmd: TestCommand| {
    crawl_fixture(&dir);
    for n in ["101", "18446744073709551615"] {
        let err = dir
            .command()
            .args(["crawl", "--robots-dir", "robots", "--max-redirects", n])
            .arg("log.txt")
            .assert_error();
        assert!(
            err.contains("--max-redirects") && err.contains("100"),
            "{err}"
        );
    }
    let out = cmd
        .args(["crawl", "--robots-dir", "robots", "--max-redirects", "100"])
        .arg("log.txt")
        .stdout();
    assert!(out.contains("https://a.com/private/x?0,disallowed,rule"));
});

/// A WARC file whose response records capture robots.txt files and other
/// URLs: pages, error pages, and the targets of redirects of every form.
fn mixed_captures() -> Vec<u8> {
    let day = |d: u32| format!("2024-01-{d:02}T00:00:00Z");
    let ok = |body: &str| http("200 OK", "", body);
    let moved =
        |to: &str| http("301 Moved", &format!("Location: {to}\r\n"), "");
    [
        warc_record(
            "https://a.com/robots.txt",
            &day(1),
            &ok("User-agent: *\nDisallow: /x\n"),
        ),
        // Newer captures of other paths of a.com and b.com: no robots.txt.
        warc_record(
            "https://a.com/index.html",
            &day(2),
            &ok("<html>hi</html>"),
        ),
        warc_record(
            "https://b.com/robots.txt",
            &day(1),
            &ok("User-agent: *\nDisallow: /x\n"),
        ),
        warc_record(
            "https://b.com/missing",
            &day(2),
            &http("404 Not Found", "", "no"),
        ),
        warc_record(
            "https://b.com/robots.txt?x=1",
            &day(3),
            &http("503 Busy", "", ""),
        ),
        // Redirects whose targets have other paths, captured after or
        // before them: relative path, dot segments and query, query only.
        warc_record(
            "http://c.com/robots.txt",
            &day(1),
            &moved("robots-c.txt"),
        ),
        warc_record(
            "http://c.com/robots-c.txt",
            &day(1),
            &ok("User-agent: *\nDisallow: /c\n"),
        ),
        warc_record(
            "https://d.com/files/robots.txt?v=1",
            &day(1),
            &ok("User-agent: *\nDisallow: /d\n"),
        ),
        warc_record(
            "https://d.com/robots.txt",
            &day(1),
            &moved("../files/./robots.txt?v=1"),
        ),
        warc_record("https://e.com/robots.txt", &day(1), &moved("?lang=en")),
        warc_record(
            "https://e.com/robots.txt?lang=en",
            &day(1),
            &ok("User-agent: *\nDisallow: /e\n"),
        ),
        // A two-hop chain through a page of another host.
        warc_record(
            "https://f.com/robots.txt",
            &day(1),
            &moved("//cdn.net/f/r.txt"),
        ),
        warc_record("https://cdn.net/f/r.txt", &day(1), &moved("/f/robots")),
        warc_record(
            "https://cdn.net/f/robots",
            &day(1),
            &ok("User-agent: *\nDisallow: /f\n"),
        ),
        warc_record(
            "https://z.com/page",
            &day(1),
            &ok("User-agent: *\nDisallow: /\n"),
        ),
    ]
    .concat()
}

// Issue 23, point 6 (and the relative forms of point 3): only captures of
// /robots.txt are an origin's robots.txt; other captures count where a
// redirect leads to them, and the rest are counted and set aside.
#[test]
fn only_robots_txt_captures_and_redirect_targets_count() {
    let dir = Dir::new("crawl_mixed");
    dir.create("mixed.warc", mixed_captures());
    let mut set = FetchSet::new();
    set.read_warc(&dir.path().join("mixed.warc")).unwrap();
    let judge = judge_with(set, FetchPolicy::default());
    let got = judge_all(
        &judge,
        &[
            "https://a.com/x",
            "https://a.com/y",
            "https://b.com/x",
            "http://c.com/c",
            "https://d.com/d",
            "https://e.com/e",
            "https://f.com/f",
            "https://z.com/a",
            "https://cdn.net/f/x",
        ],
    );
    assert_eq!(
        got,
        [
            "disallowed rule | disallowed rule",
            "allowed no-matching-rule | allowed no-matching-rule",
            "disallowed rule | disallowed rule",
            "disallowed rule | disallowed rule",
            "disallowed rule | disallowed rule",
            "disallowed rule | disallowed rule",
            "disallowed rule | disallowed rule",
            "unknown no-robots | unknown no-robots",
            "unknown no-robots | unknown no-robots",
        ]
    );
    // a.com/index.html, b.com/missing, b.com/robots.txt?x=1, z.com/page.
    assert_eq!(judge.unused_captures(), 4);
    // The deciding fetch of c.com is the capture the redirect led to.
    let mut out = vec![];
    judge.verdicts(b"http://c.com/c", &mut judge.scratch(), &mut out);
    let (name, _) = judge.fetches().get(out[0].fetch().unwrap()).unwrap();
    assert_eq!(name, "http://c.com/robots-c.txt");

    // An index is read alike.
    dir.create(
        "index.jsonl",
        concat!(
            r#"{"url":"https://a.com/robots.txt","status":200,"body":"User-agent: *\nDisallow: /x\n"}"#,
            "\n",
            r#"{"url":"https://a.com/","status":200,"body":"<html>"}"#,
            "\n",
            r#"{"url":"https://a.com/gone","status":404}"#,
            "\n",
            r#"{"url":"https://g.com/robots.txt","status":302,"location":"/r/robots.txt"}"#,
            "\n",
            r#"{"url":"https://g.com/r/robots.txt","status":200,"body":"User-agent: *\nDisallow: /g\n"}"#,
            "\n",
        ),
    );
    let mut set = FetchSet::new();
    set.read_index(&dir.path().join("index.jsonl")).unwrap();
    let judge = judge_with(set, FetchPolicy::default());
    let got = judge_all(&judge, &["https://a.com/x", "https://g.com/g"]);
    assert_eq!(
        got,
        [
            "disallowed rule | disallowed rule",
            "disallowed rule | disallowed rule"
        ]
    );
    assert_eq!(judge.unused_captures(), 2);
}

rbtest!(crawl_reports_unused_captures, |dir: Dir, mut cmd: TestCommand| {
    dir.create("mixed.warc", mixed_captures());
    dir.create("log.txt", "https://a.com/x\nhttps://a.com/y\n");
    let out = cmd
        .args(["crawl", "--robots-warc", "mixed.warc", "log.txt"])
        .assert_exit_code(0);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "url,verdict,reason\nhttps://a.com/x,disallowed,rule\n\
         https://a.com/y,allowed,no-matching-rule\n"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr,
        "robots-batch: 4 captures of other URLs than /robots.txt skipped: \
         no redirect from a robots.txt leads to them\n"
    );
});

/// A WARC response record of `uri` whose HTTP response has the header
/// lines `head` and the body bytes `body`.
fn warc_bytes(uri: &str, head: &str, body: &[u8]) -> Vec<u8> {
    let mut block = format!("HTTP/1.1 200 OK\r\n{head}\r\n").into_bytes();
    block.extend_from_slice(body);
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\n\
         WARC-Date: 2024-01-01T00:00:00Z\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(&block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

// Issue 23, point 7: a body sent with a content coding is decoded before
// it is read as a robots.txt; one that cannot be decoded is counted and
// taken as a fetch that got no answer.
#[test]
fn warc_bodies_with_a_content_encoding_are_decoded() {
    use flate2::write::{DeflateEncoder, ZlibEncoder};
    let rules = |c: &str| format!("User-agent: *\nDisallow: /{c}\n");
    let zlib = |s: &str| {
        let mut z = ZlibEncoder::new(vec![], Default::default());
        z.write_all(s.as_bytes()).unwrap();
        z.finish().unwrap()
    };
    let raw_deflate = |s: &str| {
        let mut z = DeflateEncoder::new(vec![], Default::default());
        z.write_all(s.as_bytes()).unwrap();
        z.finish().unwrap()
    };
    let chunked = |b: &[u8]| {
        let mut out = vec![];
        for part in b.chunks(7) {
            out.extend(format!("{:x}\r\n", part.len()).into_bytes());
            out.extend_from_slice(part);
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(b"0\r\n\r\n");
        out
    };
    // A brotli stream of one stored meta-block (RFC 7932 section 9.2):
    // window bits, then ISLAST 0, 4 nibbles of length - 1, ISUNCOMPRESSED,
    // the bytes, and an empty last meta-block.
    let brotli = |s: &str| {
        let header = (((s.len() - 1) as u32) << 4) | (1 << 20);
        let mut out = header.to_le_bytes()[..3].to_vec();
        out.extend_from_slice(s.as_bytes());
        out.push(0b11);
        out
    };
    let mut corrupt = gzip(rules("e").as_bytes());
    let n = corrupt.len();
    corrupt[10..n - 8].iter_mut().for_each(|b| *b ^= 0x55);
    let records = [
        warc_bytes(
            "https://a.com/robots.txt",
            "Content-Encoding: gzip\r\n",
            &gzip(rules("a").as_bytes()),
        ),
        warc_bytes(
            "https://b.com/robots.txt",
            "Content-Encoding: deflate\r\n",
            &zlib(&rules("b")),
        ),
        warc_bytes(
            "https://c.com/robots.txt",
            "Transfer-Encoding: chunked\r\nContent-Encoding: GZIP\r\n",
            &chunked(&gzip(rules("c").as_bytes())),
        ),
        // Stored decoded although the header stayed.
        warc_bytes(
            "https://d.com/robots.txt",
            "Content-Encoding: gzip\r\n",
            rules("d").as_bytes(),
        ),
        warc_bytes(
            "https://e.com/robots.txt",
            "Content-Encoding: gzip\r\n",
            &corrupt,
        ),
        warc_bytes(
            "https://f.com/robots.txt",
            "Content-Encoding: compress\r\n",
            b"\x1f\x9d\x90",
        ),
        warc_bytes(
            "https://g.com/robots.txt",
            "Content-Encoding: x-gzip\r\n",
            &gzip(rules("g").as_bytes()),
        ),
        warc_bytes(
            "https://h.com/robots.txt",
            "Content-Encoding: deflate\r\n",
            &raw_deflate(&rules("h")),
        ),
        warc_bytes(
            "https://i.com/robots.txt",
            "Content-Encoding: deflate, gzip\r\n",
            &gzip(&zlib(&rules("i"))),
        ),
        warc_bytes(
            "https://j.com/robots.txt",
            "Content-Encoding: br\r\n",
            &brotli(&rules("j")),
        ),
        warc_bytes(
            "https://k.com/robots.txt",
            "Content-Encoding: br\r\n",
            &brotli(&rules("k"))[..20],
        ),
    ]
    .concat();
    let dir = Dir::new("crawl_encoding");
    dir.create("enc.warc.gz", gzip(&records));
    let mut set = FetchSet::new();
    assert_eq!(set.read_warc(&dir.path().join("enc.warc.gz")).unwrap(), 11);
    assert_eq!(set.undecodable(), 3);
    let got = judge_all(
        &judge_with(set, FetchPolicy::default()),
        &[
            "https://a.com/a",
            "https://b.com/b",
            "https://c.com/c",
            "https://d.com/d",
            "https://e.com/x",
            "https://f.com/x",
            "https://g.com/g",
            "https://h.com/h",
            "https://i.com/i",
            "https://j.com/j",
            "https://k.com/x",
            "https://a.com/b",
        ],
    );
    let rule = "disallowed rule | disallowed rule";
    let down = "disallowed status-5xx | disallowed status-5xx";
    assert_eq!(
        got,
        [
            rule,
            rule,
            rule,
            rule,
            down,
            down,
            rule,
            rule,
            rule,
            rule,
            down,
            "allowed no-matching-rule | allowed no-matching-rule"
        ]
    );

    let mut cmd = dir.command();
    dir.create("log.txt", "https://e.com/x\n");
    let out = cmd
        .args(["crawl", "--robots-warc", "enc.warc.gz", "log.txt"])
        .assert_exit_code(0);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "robots-batch: 3 robots.txt bodies with a Content-Encoding that \
         cannot be undone: taken as fetches that got no answer\n"
    );
}

/// A robots.txt whose rules come first, then `filler` bytes of comment,
/// then a rule that only a reader of the whole file would see.
fn huge_robots(filler: usize) -> Vec<u8> {
    let mut body = b"User-agent: *\nDisallow: /x\n#".to_vec();
    body.resize(body.len() + filler, b'#');
    body.extend_from_slice(b"\nDisallow: /late\n");
    body
}

// A directory's file is read whole (or up to the parse limit) whatever its
// size: small files take a shorter way than large ones, so sizes and limits
// are tried around every power of two from 1 KiB to 64 KiB.
#[test]
fn directory_files_read_whole_around_every_buffer_size() {
    let dir = Dir::new("crawl_dir_sizes");
    dir.create_dir("robots");
    let mut sizes = vec![0, 1, 100, 200_000];
    let mut limits = vec![0, 1, 100, 200_000];
    for shift in 10..=16 {
        for n in [(1usize << shift) - 1, 1 << shift, (1 << shift) + 1] {
            sizes.push(n);
            limits.push(n);
        }
    }
    // Bytes that differ from place to place, so that a piece read twice or
    // out of order would show.
    let content: Vec<u8> =
        (0..200_000u32).map(|i| (i * 7 + i / 251) as u8).collect();
    for (i, &size) in sizes.iter().enumerate() {
        dir.create(format!("robots/h{i}.com.txt"), &content[..size]);
    }
    for &limit in &limits {
        let mut set = FetchSet::new();
        set.parse_limit(limit).read_dir(&dir.path().join("robots")).unwrap();
        assert_eq!(set.len(), sizes.len());
        for index in 0..set.len() {
            let (name, _) = set.get(index).unwrap();
            let i: usize = name
                .trim_start_matches("http://")
                .strip_prefix('h')
                .and_then(|n| n.strip_suffix(".com"))
                .unwrap_or_else(|| panic!("{name}"))
                .parse()
                .unwrap();
            let keep = if limit == 0 { sizes[i] } else { limit + 1 };
            let want = &content[..sizes[i].min(keep)];
            let body = set.body(index).unwrap();
            assert!(body[..] == *want, "size {}, limit {limit}", sizes[i]);
        }
    }
}

// Issue 23, point 2: of a huge body, the readers keep only what the parse
// limit uses, whatever the source; a WARC record of any size is read (its
// head), not skipped; a WARC header line is bounded.
#[test]
fn huge_bodies_are_cut_at_the_parse_limit_in_every_source() {
    use base64::Engine as _;
    let dir = Dir::new("crawl_huge");
    let body = huge_robots(70 << 20);
    // Past 64 MiB, a record used to be skipped (no-robots).
    dir.create(
        "huge.warc.gz",
        gzip(&warc_bytes("https://w.com/robots.txt", "", &body)),
    );
    let head = String::from_utf8(body[..1 << 20].to_vec()).unwrap();
    let b64 =
        base64::engine::general_purpose::STANDARD.encode(&body[..3 << 20]);
    // The status comes after the body: the whole line is read through.
    let index = format!(
        "{{\"url\":\"https://j.com/robots.txt\",\"body\":{},\"status\":200}}\n\
         {{\"url\":\"https://k.com/robots.txt\",\"body_base64\":\"{b64}\",\
          \"status\":200, \"extra\": [{{\"a\": \"]}}\"}}, 1.5e3, null]}}\n",
        serde_json::to_string(&head).unwrap()
    );
    dir.create("huge.jsonl.gz", gzip(index.as_bytes()));
    dir.create_dir("robots");
    dir.create("robots/d.com.txt", &body[..2 << 20]);
    let limit = robots_batch::DEFAULT_MAX_ROBOTS_BYTES;
    let mut set = FetchSet::new();
    set.read_warc(&dir.path().join("huge.warc.gz")).unwrap();
    set.read_index(&dir.path().join("huge.jsonl.gz")).unwrap();
    set.read_dir(&dir.path().join("robots")).unwrap();
    assert_eq!(set.len(), 4);
    for i in 0..set.len() {
        // A directory's file is read here, when its body is first asked for.
        let (name, _) = set.get(i).unwrap();
        let read = set.body(i).unwrap();
        assert_eq!(read.len(), limit + 1, "{name}");
        assert_eq!(read[..], body[..limit + 1], "{name}");
    }
    let got = judge_all(
        &judge_with(set, FetchPolicy::default()),
        &[
            "https://w.com/x",
            "https://j.com/x",
            "https://k.com/x",
            "https://d.com/x",
            "https://w.com/late",
        ],
    );
    let rule = "disallowed rule | disallowed rule";
    assert_eq!(
        got,
        [
            rule,
            rule,
            rule,
            rule,
            "allowed no-matching-rule | allowed no-matching-rule"
        ]
    );

    // A smaller parse limit keeps less; 0 keeps everything.
    let mut set = FetchSet::new();
    set.parse_limit(100)
        .read_index(&dir.path().join("huge.jsonl.gz"))
        .unwrap();
    assert_eq!(set.get(0).unwrap().1.body.len(), 101);
    assert_eq!(set.get(1).unwrap().1.body.len(), 101);
    let mut set = FetchSet::new();
    set.parse_limit(0).read_index(&dir.path().join("huge.jsonl.gz")).unwrap();
    assert_eq!(set.get(0).unwrap().1.body.len(), 1 << 20);
    assert_eq!(set.get(1).unwrap().1.body.len(), 3 << 20);

    // A WARC header line over 64 KiB is an error naming file and record.
    let mut long =
        warc_bytes("https://a.com/robots.txt", "", b"User-agent: *\n");
    long.extend(warc_bytes(
        &format!("https://b.com/{}", "x".repeat(70_000)),
        "",
        b"",
    ));
    dir.create("long.warc", &long);
    let err = FetchSet::new()
        .read_warc(&dir.path().join("long.warc"))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("long.warc")
            && err
                .contains("WARC record 2 has a header line over 65536 bytes"),
        "{err}"
    );
}

// --stats counts each agent's verdicts in crawl mode too, unknown apart.
rbtest!(crawl_stats_per_agent, |dir: Dir, _: TestCommand| {
    dir.create_dir("robots");
    dir.create(
        "robots/a.com.txt",
        "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n",
    );
    dir.create("urls.txt", "http://a.com/x\nhttp://a.com/y\nhttp://b.com/z\n");
    let out = dir
        .command()
        .args(["crawl", "--robots-dir", "robots", "--stats"])
        .args(["-a", "GPTBot,CCBot", "urls.txt"])
        .output();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 3, "{stderr}");
    assert!(lines[0].starts_with("robots-batch: 3 lines, "), "{stderr}");
    eqnice!(
        "robots-batch:   GPTBot: 0 allowed, 2 disallowed, 1 unknown",
        lines[1].to_string()
    );
    eqnice!(
        "robots-batch:   CCBot: 1 allowed, 1 disallowed, 1 unknown",
        lines[2].to_string()
    );
});

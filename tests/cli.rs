//! The command line, end to end: the output contract, line endings and
//! quoting, code-path equivalence (threads, chunk sizes, mmap vs stdin),
//! broken pipes, errors and warnings, help and stats.

use std::io::Read;
use std::process::Stdio;

use robots_batch::{Dialect, EngineKind, MatcherBuilder, Robots};

use crate::util::{lines, Dir, TestCommand, EXAMPLE_ROBOTS, EXAMPLE_URLS};

/// What the command must print, computed line by line with the library's
/// `Matcher::verdict` and the csv crate, independently of the batch code.
struct Expect<'a> {
    robots: &'a [u8],
    limit: usize,
    agent: &'a str,
    dialect: Dialect,
    engine: EngineKind,
    header: bool,
}

impl<'a> Expect<'a> {
    fn new(robots: &'a [u8]) -> Expect<'a> {
        Expect {
            robots,
            limit: robots_batch::DEFAULT_MAX_ROBOTS_BYTES,
            agent: "*",
            dialect: Dialect::Rfc9309,
            engine: EngineKind::Trie,
            header: true,
        }
    }

    fn example() -> Expect<'static> {
        Expect::new(EXAMPLE_ROBOTS.as_bytes())
    }

    fn csv(&self, input: &[u8]) -> Vec<u8> {
        let robots = Robots::parse_with_limit(self.robots, self.limit);
        let matcher = MatcherBuilder::new().engine(self.engine).build(
            &robots,
            self.agent,
            self.dialect,
        );
        let mut scratch = matcher.scratch();
        let mut wtr = csv::Writer::from_writer(vec![]);
        if self.header {
            wtr.write_record(["url", "verdict"]).unwrap();
        }
        for line in lines(input) {
            let verdict = matcher.verdict(line, &mut scratch);
            wtr.write_record([line, verdict.name().as_bytes()]).unwrap();
        }
        wtr.into_inner().unwrap()
    }
}

/// A few thousand URL lines generated from the example robots.txt's own
/// patterns, with the example URLs, empty lines, CRLF line ends and no
/// final newline mixed in.
fn generated_input() -> Vec<u8> {
    let robots = Robots::parse(EXAMPLE_ROBOTS.as_bytes());
    let mut input = vec![];
    for (i, url) in
        robots_batch::sample::urls(&robots, 4000, 7).iter().enumerate()
    {
        input.extend_from_slice(url);
        match i % 97 {
            0 => input.extend_from_slice(b"\r\n"),
            1 => input.extend_from_slice(b"\n\n"),
            _ => input.push(b'\n'),
        }
        if i % 1000 == 0 {
            input.extend_from_slice(EXAMPLE_URLS.as_bytes());
        }
    }
    input.extend_from_slice(b"https://www.example.com/cart/last-line");
    input
}

rbtest!(example_matches_library, |dir: Dir, mut cmd: TestCommand| {
    dir.create("urls.txt", EXAMPLE_URLS);
    let got = cmd.args(["robots.txt", "urls.txt"]).stdout();
    eqnice!(Expect::example().csv(EXAMPLE_URLS.as_bytes()), got);
    // One row per input line, and the header.
    assert_eq!(got.lines().count(), EXAMPLE_URLS.lines().count() + 1);
    // A few rows checked by hand against the example robots.txt.
    for row in [
        "url,verdict",
        "https://www.example.com/,allowed",
        "https://www.example.com/cart/,disallowed",
        "https://www.example.com/checkouts-are-fun,disallowed",
        "https://www.example.com/account/login,allowed",
        "https://www.example.com/api/v1/items.json,disallowed",
        "https://www.example.com/api/v1/items.json?page=2,allowed",
        "https://www.example.com/products/widget-2000?sessionid=8f2a9c,\
         disallowed",
        "https://www.example.com/%63art/,disallowed",
        ",allowed",
        "\"https://www.example.com/search?q=a,b\",disallowed",
        "\"https://www.example.com/products/\"\"quoted\"\"\",allowed",
    ] {
        assert!(got.lines().any(|l| l == row), "no row {row:?} in\n{got}");
    }
});

rbtest!(agents_select_their_groups, |dir: Dir, _: TestCommand| {
    dir.create("urls.txt", EXAMPLE_URLS);
    for (agent, rows) in [
        (
            "Googlebot",
            &[
                "https://www.example.com/assets/site.css,allowed",
                "https://www.example.com/assets/logo.png,disallowed",
                "https://www.example.com/assets/app.js?v=3,disallowed",
                "https://www.example.com/products/widget-2000/print,\
                 disallowed",
                "https://www.example.com/account/,allowed",
            ][..],
        ),
        (
            "googlebot-image",
            &["https://www.example.com/assets/site.css,allowed"][..],
        ),
        (
            "GPTBot",
            &[
                "https://www.example.com/,disallowed",
                "https://www.example.com/press/2024/launch,allowed",
                "https://www.example.com/robots.txt,allowed",
            ][..],
        ),
    ] {
        let got = dir
            .command()
            .args(["-a", agent, "robots.txt", "urls.txt"])
            .stdout();
        let expect = Expect { agent, ..Expect::example() };
        eqnice!(expect.csv(EXAMPLE_URLS.as_bytes()), got);
        for row in rows {
            assert!(got.lines().any(|l| l == *row), "{agent}: no {row:?}");
        }
    }
});

rbtest!(every_dialect_and_engine, |dir: Dir, _: TestCommand| {
    let input = generated_input();
    dir.create("urls.txt", &input);
    for dialect in Dialect::ALL {
        for engine in EngineKind::ALL {
            for agent in ["*", "Googlebot"] {
                let got = dir
                    .command()
                    .args(["--dialect", dialect.name()])
                    .args(["--engine", engine.name()])
                    .args(["--agent", agent, "robots.txt", "urls.txt"])
                    .stdout_bytes();
                let expect =
                    Expect { agent, dialect, engine, ..Expect::example() };
                eqnice!(expect.csv(&input), got);
            }
        }
    }
});

// `dfa` was the name of `trie`, the default engine: scripts that still
// say it get the same rows.
rbtest!(engine_dfa_is_the_trie, |dir: Dir, _: TestCommand| {
    let input = generated_input();
    dir.create("urls.txt", &input);
    let rows = |engine: &str| {
        dir.command()
            .args(["--engine", engine, "--explain", "robots.txt", "urls.txt"])
            .stdout_bytes()
    };
    let trie = rows("trie");
    assert_eq!(trie, rows("dfa"));
    assert_eq!(trie, rows("DFA"));
    let default = dir
        .command()
        .args(["--explain", "robots.txt", "urls.txt"])
        .stdout_bytes();
    assert_eq!(trie, default);
});

rbtest!(line_endings, |dir: Dir, _: TestCommand| {
    let cases: &[(&str, &[u8], &str)] = &[
        ("empty", b"", "url,verdict\n"),
        ("one empty line", b"\n", "url,verdict\n,allowed\n"),
        ("one empty CRLF line", b"\r\n", "url,verdict\n,allowed\n"),
        (
            "no final newline",
            b"/a\n/cart/",
            "url,verdict\n/a,allowed\n/cart/,disallowed\n",
        ),
        (
            "LF",
            b"/a\n/cart/\n",
            "url,verdict\n/a,allowed\n/cart/,disallowed\n",
        ),
        (
            "CRLF",
            b"/a\r\n/cart/\r\n",
            "url,verdict\n/a,allowed\n/cart/,disallowed\n",
        ),
        (
            "mixed, empty lines",
            b"\n/a\r\n\r\n\n/cart/\n\n",
            "url,verdict\n,allowed\n/a,allowed\n,allowed\n,allowed\n\
             /cart/,disallowed\n,allowed\n",
        ),
        (
            // Only a CR before a LF is a line terminator's.
            "lone CRs",
            b"/cart/\r\r\n/a\rb\n/x\r",
            "url,verdict\n\"/cart/\r\",disallowed\n\"/a\rb\",allowed\n\
             \"/x\r\",allowed\n",
        ),
    ];
    for &(what, input, want) in cases {
        dir.create("urls.txt", input);
        for args in [&["-j1"][..], &["-j3", "--chunk-size", "1"]] {
            let got = dir
                .command()
                .args(args)
                .args(["robots.txt", "urls.txt"])
                .stdout_bytes();
            assert_eq!(
                String::from_utf8_lossy(&got),
                want,
                "{what}, file, {args:?}"
            );
            let got = dir
                .command()
                .args(args)
                .args(["robots.txt", "-"])
                .stdin(input)
                .stdout_bytes();
            assert_eq!(
                String::from_utf8_lossy(&got),
                want,
                "{what}, stdin, {args:?}"
            );
        }
        eqnice!(Expect::example().csv(input), want);
    }
});

rbtest!(quoting_and_raw_bytes, |dir: Dir, mut cmd: TestCommand| {
    let input: &[u8] = b"/a,b\n\
        /say \"hi\"\n\
        /cart/\xff\xfe\n\
        /caf\xc3\xa9\n\
        /nul\x00byte\n\
        /cart/\x00\n\
        \"\n\
        ,\n\
        \x20/leading space\n";
    let want: &[u8] = b"url,verdict\n\
        \"/a,b\",allowed\n\
        \"/say \"\"hi\"\"\",allowed\n\
        /cart/\xff\xfe,disallowed\n\
        /caf\xc3\xa9,allowed\n\
        /nul\x00byte,allowed\n\
        /cart/\x00,disallowed\n\
        \"\"\"\",allowed\n\
        \",\",allowed\n\
        \x20/leading space,allowed\n";
    dir.create("urls.txt", input);
    let got = cmd.args(["robots.txt", "urls.txt"]).stdout_bytes();
    eqnice!(want, got);
    eqnice!(Expect::example().csv(input), got);
});

rbtest!(threads_chunks_and_stdin_agree, |dir: Dir, _: TestCommand| {
    let input = generated_input();
    dir.create("urls.txt", &input);
    let want = Expect::example().csv(&input);
    let mut runs = 0;
    for threads in ["1", "4"] {
        for chunk_size in [None, Some("1"), Some("7"), Some("64")] {
            for stdin in [false, true] {
                let mut cmd = dir.command();
                cmd.args(["-j", threads]);
                if let Some(size) = chunk_size {
                    cmd.args(["--chunk-size", size]);
                }
                if stdin {
                    cmd.args(["robots.txt", "-"]).stdin(&input);
                } else {
                    cmd.args(["robots.txt", "urls.txt"]);
                }
                eqnice!(want, cmd.stdout_bytes());
                runs += 1;
            }
        }
    }
    assert_eq!(runs, 16);
});

rbtest!(default_threads_and_zero, |dir: Dir, _: TestCommand| {
    dir.create("urls.txt", EXAMPLE_URLS);
    let want = Expect::example().csv(EXAMPLE_URLS.as_bytes());
    for args in [&[][..], &["-j0"], &["--threads", "2"]] {
        let got = dir
            .command()
            .args(args)
            .args(["robots.txt", "urls.txt"])
            .stdout_bytes();
        eqnice!(want, got);
    }
});

rbtest!(no_header, |dir: Dir, mut cmd: TestCommand| {
    dir.create("urls.txt", "/a\n/cart/x\n");
    let got = cmd.args(["--no-header", "robots.txt", "urls.txt"]).stdout();
    eqnice!("/a,allowed\n/cart/x,disallowed\n", got);
    let got = dir
        .command()
        .args(["--no-header", "robots.txt", "urls.txt"])
        .arg("--chunk-size=1")
        .stdout();
    eqnice!("/a,allowed\n/cart/x,disallowed\n", got);
    dir.create("empty.txt", "");
    let got = dir
        .command()
        .args(["--no-header", "robots.txt", "empty.txt"])
        .stdout();
    eqnice!("", got);
});

/// Spawns the command on a large input, reads a little of its output, then
/// closes the pipe: the command must stop quietly, with exit code 0.
fn assert_quiet_on_broken_pipe(mut cmd: TestCommand, input: Option<Vec<u8>>) {
    let mut child = cmd
        .cmd()
        .stdin(if input.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let writer = child.stdin.take().map(|mut stdin| {
        let input = input.unwrap();
        std::thread::spawn(move || {
            use std::io::Write;
            // The command stops reading once its output is closed.
            let _ = stdin.write_all(&input);
        })
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut head = [0; 4096];
    stdout.read_exact(&mut head).unwrap();
    assert!(head.starts_with(b"url,verdict\n"));
    drop(stdout);
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    let status = child.wait().unwrap();
    if let Some(writer) = writer {
        writer.join().unwrap();
    }
    assert_eq!(status.code(), Some(0), "stderr: {stderr}");
    assert_eq!(stderr, "");
}

rbtest!(broken_pipe_is_quiet, |dir: Dir, mut cmd: TestCommand| {
    // About 10 MB of input: far more output than a pipe buffers.
    let input = EXAMPLE_URLS.repeat(5000);
    dir.create("urls.txt", &input);
    cmd.args(["robots.txt", "urls.txt"]);
    assert_quiet_on_broken_pipe(cmd, None);

    let mut cmd = dir.command();
    cmd.args(["-j1", "robots.txt", "-"]);
    assert_quiet_on_broken_pipe(cmd, Some(input.into_bytes()));
});

rbtest!(error_missing_robots, |dir: Dir, mut cmd: TestCommand| {
    dir.create("urls.txt", EXAMPLE_URLS);
    let err = cmd.args(["nope.txt", "urls.txt"]).assert_error();
    assert!(
        err.starts_with("robots-batch: failed to open nope.txt: "),
        "{err}"
    );
});

rbtest!(error_missing_urls, |_: Dir, mut cmd: TestCommand| {
    let err = cmd.args(["robots.txt", "nope.txt"]).assert_error();
    assert!(
        err.starts_with("robots-batch: failed to open nope.txt: "),
        "{err}"
    );
});

rbtest!(error_directory_as_file, |dir: Dir, _: TestCommand| {
    dir.create_dir("sub");
    dir.create("urls.txt", EXAMPLE_URLS);
    let err = dir.command().args(["sub", "urls.txt"]).assert_error();
    assert!(err.starts_with("robots-batch: failed to read sub: "), "{err}");
    let err = dir.command().args(["robots.txt", "sub"]).assert_error();
    assert!(err.starts_with("robots-batch: failed to read sub: "), "{err}");
});

// Every subcommand is in the main help, `help SUBCOMMAND` is its `--help`,
// and the flags' help says what each choice does.
rbtest!(help_names_every_subcommand, |dir: Dir, _: TestCommand| {
    let main = dir.command().arg("--help").stdout();
    for needle in [
        "robots-batch check [",
        "robots-batch lint [",
        "robots-batch crawl (--robots-dir",
        "robots-batch survey (--robots-dir",
        "robots-batch agents [ai | ai:CATEGORY]",
        "robots-batch diff [-a AGENT,...] [--agents ai] OLD NEW [URLS]",
        "robots-batch help [check | lint | crawl | survey | diff | agents | generate]",
        "CSV table with the header `agent,allowed,disallowed`",
        "scan compiles nothing",
    ] {
        // The help is wrapped to the terminal's width: compare words.
        let words = main.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(words.contains(needle), "{needle}: {main}");
    }
    eqnice!(main, dir.command().arg("help").stdout());
    eqnice!(main, dir.command().args(["help", "nope"]).stdout());
    for sub in
        ["check", "lint", "crawl", "survey", "diff", "agents", "generate"]
    {
        let want = dir.command().args([sub, "--help"]).stdout();
        eqnice!(want, dir.command().args(["help", sub]).stdout());
        assert_ne!(want, main, "{sub}");
    }
});

// Completions and the man page come from the clap definitions: every
// subcommand and its flags are in them.
rbtest!(generate_completions_and_man_page, |dir: Dir, _: TestCommand| {
    let man = dir.command().args(["generate", "man"]).stdout();
    assert!(man.starts_with(".ie") && man.contains(".TH robots-batch 1"));
    for needle in ["\\-\\-agents\\-file", "crawl", "lint", "check"] {
        assert!(man.contains(needle), "{needle}: {man}");
    }
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = dir.command().args(["generate", shell]).stdout();
        for needle in
            ["robots-batch", "agents-file", "robots-dir", "spec-test"]
        {
            assert!(script.contains(needle), "{shell}: {needle}");
        }
    }
    let err = dir.command().args(["generate", "tcsh"]).assert_error();
    assert!(err.contains("tcsh") && err.contains("powershell"), "{err}");
});

rbtest!(error_usage, |dir: Dir, _: TestCommand| {
    dir.create("urls.txt", EXAMPLE_URLS);
    for (args, needle) in [
        (&["--dialect", "rfc1234", "robots.txt", "urls.txt"][..], "rfc1234"),
        (&["--engine", "quantum", "robots.txt", "urls.txt"], "quantum"),
        (&["--threads", "many", "robots.txt", "urls.txt"], "many"),
        (&["-j20000", "robots.txt", "urls.txt"], "at most 1024 threads"),
        (&["crawl", "-j", "1025", "urls.txt"], "at most 1024 threads"),
        (&["-a", "a,,b", "robots.txt", "urls.txt"], "stray comma"),
        (
            &["crawl", "--robots-dir", ".", "-a", "GPTBot,", "urls.txt"],
            "stray comma",
        ),
        (&["--max-robots-bytes", "-1", "robots.txt", "urls.txt"], "-1"),
        (&["--frobnicate", "robots.txt", "urls.txt"], "--frobnicate"),
        (&["robots.txt"], "<URLS>"),
        (&[], "<ROBOTS>"),
    ] {
        let err = dir.command().args(args).assert_error();
        assert!(err.contains(needle), "{args:?}: {err}");
    }
});

// An empty agent names no group in any dialect: the `*` groups apply, as
// in Google's library (whose compliance suite has such cases), with a
// warning. In draft1996 and orig1994 an empty name would be a substring of
// every record's value; the `*` record is taken instead.
rbtest!(empty_agent_means_the_star_groups, |dir: Dir, _: TestCommand| {
    dir.create(
        "groups.txt",
        "User-agent: FooBot\nDisallow: /\n\nUser-agent: *\nDisallow: /star\n",
    );
    dir.create("urls.txt", "/star\n/other\n");
    let want = "url,verdict\n/star,disallowed\n/other,allowed\n";
    let warning = "robots-batch: the agent is empty: it names no group, so \
                   only the `*` groups apply\n";
    for dialect in ["rfc9309", "google", "draft1996", "orig1994"] {
        for agent in [&["-a", ""][..], &["--agent="]] {
            let out = dir
                .command()
                .args(["--dialect", dialect])
                .args(agent)
                .args(["groups.txt", "urls.txt"])
                .output();
            assert_eq!(out.status.code(), Some(0), "{dialect}");
            eqnice!(want, String::from_utf8(out.stdout).unwrap());
            eqnice!(warning, String::from_utf8(out.stderr).unwrap());
        }
        let out = dir
            .command()
            .args(["check", "--dialect", dialect, "-a", ""])
            .args(["groups.txt", "/star", "/other"])
            .output();
        assert_eq!(out.status.code(), Some(1), "{dialect}");
        eqnice!(warning, String::from_utf8(out.stderr).unwrap());
    }
    // Google's compliance case: an empty robots.txt, agent and URL.
    dir.create("empty.txt", "");
    let out = dir
        .command()
        .args(["check", "--dialect", "google", "--spec-test"])
        .args(["empty.txt", "", ""])
        .output();
    assert_eq!(out.status.code(), Some(0));
});

rbtest!(agent_warning, |dir: Dir, mut cmd: TestCommand| {
    dir.create("urls.txt", EXAMPLE_URLS);
    let out =
        cmd.args(["-a", "Googlebot/2.1", "robots.txt", "urls.txt"]).output();
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8(out.stderr).unwrap();
    eqnice!(
        "robots-batch: agent \"Googlebot/2.1\" is not a valid product token \
         (letters, '-' and '_' only), so it may match no group; did you mean \
         \"Googlebot\"?\n",
        stderr
    );
    // The agent is used as given.
    let expect = Expect { agent: "Googlebot/2.1", ..Expect::example() };
    eqnice!(expect.csv(EXAMPLE_URLS.as_bytes()), out.stdout);

    let out =
        dir.command().args(["-a", "42", "robots.txt", "urls.txt"]).output();
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("robots-batch: agent \"42\""), "{stderr}");

    // Valid tokens and `*` give no warning (`stdout` asserts an empty
    // stderr).
    for agent in ["*", "Googlebot", "my_bot-X"] {
        dir.command().args(["-a", agent, "robots.txt", "urls.txt"]).stdout();
    }
    // The older standards match the agent's name token as a substring, so
    // a full agent string is their normal form: no warning either.
    for dialect in ["draft1996", "orig1994"] {
        dir.command()
            .args(["--dialect", dialect, "-a", "FigTree/0.1 Robot"])
            .args(["robots.txt", "urls.txt"])
            .stdout();
    }
});

rbtest!(parse_limit_warning, |dir: Dir, mut cmd: TestCommand| {
    dir.create("urls.txt", EXAMPLE_URLS);
    let out = cmd
        .args(["--max-robots-bytes", "100", "robots.txt", "urls.txt"])
        .output();
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8(out.stderr).unwrap();
    eqnice!(
        format!(
            "robots-batch: robots.txt: file of {} bytes is over the parse \
             limit; only the first 100 bytes were parsed\n",
            EXAMPLE_ROBOTS.len()
        ),
        stderr
    );
    let expect = Expect { limit: 100, ..Expect::example() };
    eqnice!(expect.csv(EXAMPLE_URLS.as_bytes()), out.stdout);

    // The default limit, and 0 (none), parse the whole file quietly.
    let big = format!("{EXAMPLE_ROBOTS}{}", "# padding\n".repeat(60_000));
    dir.create("big.txt", &big);
    let out = dir.command().args(["big.txt", "urls.txt"]).output();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let want = format!("big.txt: file of {} bytes", big.len());
    assert!(stderr.contains(&want), "{stderr}");
    dir.command()
        .args(["--max-robots-bytes", "0", "big.txt", "urls.txt"])
        .stdout();
});

rbtest!(all_warnings, |dir: Dir, _: TestCommand| {
    dir.create(
        "odd.txt",
        "User-agent: *\nDisalow: /x\nthis is not a record\n",
    );
    dir.create("urls.txt", "/x\n");
    // Quiet by default.
    let got = dir.command().args(["odd.txt", "urls.txt"]).stdout();
    eqnice!("url,verdict\n/x,disallowed\n", got);
    for flag in ["--warnings", "-v"] {
        let out = dir.command().args([flag, "odd.txt", "urls.txt"]).output();
        assert_eq!(out.status.code(), Some(0));
        let stderr = String::from_utf8(out.stderr).unwrap();
        let lines: Vec<&str> = stderr.lines().collect();
        assert_eq!(lines.len(), 2, "{stderr}");
        assert!(lines[0].starts_with("robots-batch: odd.txt: line 2: "));
        assert!(lines[1].starts_with("robots-batch: odd.txt: line 3: "));
        eqnice!("url,verdict\n/x,disallowed\n", out.stdout);
    }
});

rbtest!(help_mentions_every_option, |_: Dir, mut cmd: TestCommand| {
    let long = cmd.arg("--help").stdout();
    for needle in [
        "--agent",
        "-a,",
        "--dialect",
        "rfc9309",
        "google",
        "draft1996",
        "orig1994",
        "--engine",
        "trie",
        "dfa, the old name of trie",
        "lazy",
        "naive",
        "--threads",
        "-j,",
        "--max-robots-bytes",
        "512000",
        "--warnings",
        "--no-header",
        "--stats",
        "--help",
        "--version",
        "<ROBOTS>",
        "<URLS>",
        "url,verdict",
        "EXIT CODES",
        "allowed",
    ] {
        assert!(long.contains(needle), "--help lacks {needle:?}:\n{long}");
    }
    assert!(!long.contains("--chunk-size"), "--chunk-size is hidden");
    let short = Dir::new("help-short").command().arg("-h").stdout();
    assert!(short.contains("--agent") && short.contains("EXIT CODES"));
});

rbtest!(version, |_: Dir, mut cmd: TestCommand| {
    let got = cmd.arg("-V").stdout();
    eqnice!(format!("robots-batch {}\n", env!("CARGO_PKG_VERSION")), got);
});

rbtest!(stats, |dir: Dir, mut cmd: TestCommand| {
    dir.create("urls.txt", EXAMPLE_URLS);
    let out = cmd.args(["--stats", "robots.txt", "urls.txt"]).output();
    assert_eq!(out.status.code(), Some(0));
    eqnice!(Expect::example().csv(EXAMPLE_URLS.as_bytes()), out.stdout);
    let stderr = String::from_utf8(out.stderr).unwrap();
    let rows =
        String::from_utf8(Expect::example().csv(EXAMPLE_URLS.as_bytes()))
            .unwrap();
    let allowed = rows.lines().filter(|l| l.ends_with(",allowed")).count();
    let disallowed =
        rows.lines().filter(|l| l.ends_with(",disallowed")).count();
    let prefix = format!(
        "robots-batch: {} lines, {allowed} allowed, {disallowed} disallowed, \
         {} bytes in ",
        EXAMPLE_URLS.lines().count(),
        EXAMPLE_URLS.len(),
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with(&prefix), "{stderr}\nwant prefix {prefix}");
    assert!(stderr.contains(" URLs/s, ") && stderr.ends_with(" MB/s)\n"));
});

// With several agents, --stats counts each agent's verdicts, not their sum;
// --stats=json is one JSON object with the same counts.
rbtest!(stats_per_agent_and_json, |dir: Dir, _: TestCommand| {
    dir.create("urls.txt", EXAMPLE_URLS);
    let agents = ["GPTBot", "CCBot"];
    let mut want = vec![];
    for agent in agents {
        let rows = dir
            .command()
            .args(["-a", agent, "robots.txt", "urls.txt"])
            .stdout();
        let allowed = rows.lines().filter(|l| l.ends_with(",allowed")).count();
        let disallowed =
            rows.lines().filter(|l| l.ends_with(",disallowed")).count();
        want.push((agent, allowed as u64, disallowed as u64));
    }
    let lines = EXAMPLE_URLS.lines().count();
    for layout in
        [&[][..], &["--layout", "long"], &["-c"], &["--emit", "allowed"]]
    {
        let out = dir
            .command()
            .args(["--stats", "-a", "GPTBot,CCBot"])
            .args(layout)
            .args(["robots.txt", "urls.txt"])
            .output();
        let stderr = String::from_utf8(out.stderr).unwrap();
        let got: Vec<&str> = stderr.lines().collect();
        assert_eq!(got.len(), 3, "{layout:?}: {stderr}");
        let first = format!(
            "robots-batch: {lines} lines, {} bytes in ",
            EXAMPLE_URLS.len()
        );
        assert!(got[0].starts_with(&first), "{layout:?}: {stderr}");
        for (line, (agent, allowed, disallowed)) in got[1..].iter().zip(&want)
        {
            eqnice!(
                format!("robots-batch:   {agent}: {allowed} allowed, {disallowed} disallowed"),
                line.to_string()
            );
        }
    }
    let out = dir
        .command()
        .args(["--stats=json", "-a", "GPTBot,CCBot", "robots.txt", "urls.txt"])
        .output();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stderr).unwrap();
    assert_eq!(json["lines"], lines as u64);
    assert_eq!(json["bytes"], EXAMPLE_URLS.len() as u64);
    for (i, (agent, allowed, disallowed)) in want.iter().enumerate() {
        assert_eq!(json["agents"][i]["agent"], *agent);
        assert_eq!(json["agents"][i]["allowed"], *allowed);
        assert_eq!(json["agents"][i]["disallowed"], *disallowed);
    }
    // `--stats` takes its format only after `=`: ROBOTS stays ROBOTS.
    let out =
        dir.command().args(["--stats", "robots.txt", "urls.txt"]).output();
    assert_eq!(out.status.code(), Some(0));
    let err = dir
        .command()
        .args(["--stats=xml", "robots.txt", "urls.txt"])
        .assert_error();
    assert!(err.contains("xml"), "{err}");
    for when in ["auto", "always", "never"] {
        dir.command()
            .args(["--progress", when, "robots.txt", "urls.txt"])
            .stdout();
    }
});

// A mapped file that another process truncates mid-run: the lost pages
// raise SIGBUS, which must end the run with one error line and exit 2,
// not kill it silently.
#[cfg(unix)]
rbtest!(file_shrinking_while_mapped, |dir: Dir, mut cmd: TestCommand| {
    use std::io::Read;
    use std::process::Stdio;

    // 64 MiB: far more than the chunks in flight (8 MiB), so most of the
    // file is still unread when it shrinks.
    let line =
        b"https://www.example.com/products/widget-2000?ref=abcdefghij\n";
    let n = (64 << 20) / line.len();
    dir.create("big.txt", line.repeat(n));
    let mut child = cmd
        .args(["-j1", "robots.txt", "big.txt"])
        .cmd()
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    // Once the first rows are out, the run has mapped the file; the pipe
    // is not drained, so the writer waits and the reader stays ahead only
    // by the chunks in flight.
    let mut head = vec![0; 1 << 16];
    stdout.read_exact(&mut head).unwrap();
    std::fs::File::options()
        .write(true)
        .open(dir.path().join("big.txt"))
        .unwrap()
        .set_len(0)
        .unwrap();
    let mut rest = vec![];
    stdout.read_to_end(&mut rest).unwrap();
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(2), "stderr: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with(
            "robots-batch: failed to read big.txt: the file shrank"
        ),
        "{stderr}"
    );
    // The output is cut short (maybe mid-row: the signal can come while
    // a chunk is being written); exit code 2 says it is incomplete.
    let out = [head, rest].concat();
    let rows = out.iter().filter(|&&b| b == b'\n').count();
    assert!(rows > 1 && rows < n, "{rows} rows of {n}");
});

// An interrupted run (Ctrl-C): the signal ends it at once, with no error
// noise, and what was written is the start of the full output, in order
// (the last row maybe cut).
#[cfg(unix)]
rbtest!(
    interrupted_run_leaves_an_ordered_prefix,
    |dir: Dir, mut cmd: TestCommand| {
        use std::io::{Read, Write};
        use std::os::unix::process::{CommandExt, ExitStatusExt};
        use std::process::Stdio;

        let urls: String = (0..50_000)
            .map(|i| format!("https://www.example.com/p/{i}/cart/{}\n", i % 7))
            .collect();
        let full = dir
            .command()
            .args(["-j2", "robots.txt", "-"])
            .stdin(urls.as_bytes())
            .stdout();
        let (header, rows) = full.split_at(full.find('\n').unwrap() + 1);
        let command = cmd.args(["-j2", "robots.txt", "-"]).cmd();
        // A test run started in the background by a shell without job
        // control inherits SIGINT ignored, and so would the child: give it
        // the default action, as a terminal's Ctrl-C meets it.
        // SAFETY: signal(2) is async-signal-safe, as pre_exec requires.
        unsafe {
            command.pre_exec(|| {
                libc::signal(libc::SIGINT, libc::SIG_DFL);
                Ok(())
            });
        }
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The same URLs over and over, until the pipe breaks: the run never
        // reaches the end of its input.
        let mut stdin = child.stdin.take().unwrap();
        let feed = urls.clone();
        let writer = std::thread::spawn(move || {
            while stdin.write_all(feed.as_bytes()).is_ok() {}
        });
        let mut stdout = child.stdout.take().unwrap();
        let mut head = vec![0; 1 << 20];
        stdout.read_exact(&mut head).unwrap();
        // SAFETY: kill(2) on our own child's pid, which has not been waited
        // for yet, so the pid still names it.
        let killed =
            unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
        assert_eq!(killed, 0);
        let mut rest = vec![];
        stdout.read_to_end(&mut rest).unwrap();
        let mut stderr = String::new();
        child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
        let status = child.wait().unwrap();
        writer.join().unwrap();
        assert_eq!(status.signal(), Some(libc::SIGINT), "{status:?}");
        assert_eq!(stderr, "");
        let out = String::from_utf8([head, rest].concat()).unwrap();
        let cycles = out.len() / rows.len() + 2;
        let want = format!("{header}{}", rows.repeat(cycles));
        let whole_rows = out.trim_end_matches(|c| c != '\n');
        assert!(want.starts_with(whole_rows), "not a prefix of the output");
        assert!(out.len() >= 1 << 20);
    }
);

// A robots.txt given where the URLs go, or an HTML page or binary bytes
// given as the robots.txt, is judged as asked, with a word on stderr.
rbtest!(wrong_inputs_are_named, |dir: Dir, _: TestCommand| {
    dir.create("urls.txt", EXAMPLE_URLS);
    let out = dir.command().args(["urls.txt", "robots.txt"]).output();
    assert_eq!(out.status.code(), Some(0));
    let rows = String::from_utf8(out.stdout).unwrap();
    assert_eq!(rows.lines().count(), 1 + EXAMPLE_ROBOTS.lines().count());
    eqnice!(
        "robots-batch: robots.txt: looks like a robots.txt, not a list of \
         URLs (were the robots.txt and the URLs given the other way round?)\n",
        String::from_utf8(out.stderr).unwrap()
    );
    let want = dir.command().args(["robots.txt", "urls.txt"]).stdout();
    for (file, bytes, warning) in [
        (
            "page.html",
            &b"\n<!DOCTYPE html>\n<html>Not found</html>\n"[..],
            "an HTML page",
        ),
        ("image.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0", "binary data"),
    ] {
        dir.create(file, bytes);
        let out = dir.command().args([file, "urls.txt"]).output();
        assert_eq!(out.status.code(), Some(0), "{file}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(
            stderr.starts_with(&format!(
                "robots-batch: {file}: looks like {warning}"
            )),
            "{stderr}"
        );
        // A URL file is not sniffed for HTML: the rows are all there.
        let rows = String::from_utf8(out.stdout).unwrap();
        assert_eq!(rows.lines().count(), 1 + EXAMPLE_URLS.lines().count());
    }
    // Real robots.txt files and URL lists give no warning (`stdout`
    // asserts an empty stderr).
    eqnice!(want, dir.command().args(["robots.txt", "urls.txt"]).stdout());
});

// gzip and zstd robots.txt files are read as URL files are, and only the
// first --max-robots-bytes of what they inflate to is kept.
rbtest!(compressed_robots_txt, |dir: Dir, _: TestCommand| {
    use std::io::Write;
    dir.create("urls.txt", EXAMPLE_URLS);
    let want = dir.command().args(["robots.txt", "urls.txt"]).stdout();
    let mut gz = flate2::write::GzEncoder::new(vec![], Default::default());
    gz.write_all(EXAMPLE_ROBOTS.as_bytes()).unwrap();
    dir.create("robots.txt.gz", gz.finish().unwrap());
    let zst = zstd::encode_all(EXAMPLE_ROBOTS.as_bytes(), 3).unwrap();
    dir.create("robots.txt.zst", zst);
    for file in ["robots.txt.gz", "robots.txt.zst"] {
        eqnice!(want, dir.command().args([file, "urls.txt"]).stdout());
        let check = dir.command().args(["check", file, "/cart/x"]).output();
        assert_eq!(check.status.code(), Some(1), "{file}");
        let lint = dir.command().args(["lint", file]).output();
        assert!(!lint.stdout.is_empty(), "{file}");
    }
    // A gzip bomb: 64 MiB of comments after the rules.
    let mut gz = flate2::write::GzEncoder::new(vec![], Default::default());
    gz.write_all(EXAMPLE_ROBOTS.as_bytes()).unwrap();
    let padding = vec![b'#'; 1 << 20];
    for _ in 0..64 {
        gz.write_all(&padding).unwrap();
    }
    dir.create("bomb.gz", gz.finish().unwrap());
    let out = dir.command().args(["bomb.gz", "urls.txt"]).output();
    eqnice!(want, String::from_utf8(out.stdout).unwrap());
    eqnice!(
        format!(
            "robots-batch: bomb.gz: file of {} bytes is over the parse \
             limit; only the first 512000 bytes were parsed\n",
            EXAMPLE_ROBOTS.len() + (64 << 20)
        ),
        String::from_utf8(out.stderr).unwrap()
    );
});

// `-` is standard input for every file argument, one at a time.
rbtest!(dash_is_standard_input, |dir: Dir, _: TestCommand| {
    dir.create("urls.txt", EXAMPLE_URLS);
    let want = dir.command().args(["robots.txt", "urls.txt"]).stdout();
    let got =
        dir.command().args(["-", "urls.txt"]).stdin(EXAMPLE_ROBOTS).stdout();
    eqnice!(want, got);
    let check = dir
        .command()
        .args(["check", "-", "/cart/x"])
        .stdin(EXAMPLE_ROBOTS)
        .output();
    assert_eq!(check.status.code(), Some(1));
    let lint = dir.command().args(["lint", "robots.txt"]).output();
    let lint_stdin =
        dir.command().args(["lint", "-"]).stdin(EXAMPLE_ROBOTS).output();
    assert_eq!(lint.status.code(), lint_stdin.status.code());
    assert_eq!(
        String::from_utf8(lint.stdout).unwrap().replace("robots.txt", "-"),
        String::from_utf8(lint_stdin.stdout).unwrap()
    );
    dir.create("agents.txt", "GPTBot\nCCBot\n");
    let want = dir
        .command()
        .args(["--agents-file", "agents.txt", "robots.txt", "urls.txt"])
        .stdout();
    let got = dir
        .command()
        .args(["--agents-file", "-", "robots.txt", "urls.txt"])
        .stdin("GPTBot\nCCBot\n")
        .stdout();
    eqnice!(want, got);
    // A crawl index from standard input.
    dir.create_dir("none");
    let index = "{\"url\": \"https://www.example.com/robots.txt\", \
                 \"status\": 200, \"body\": \"User-agent: *\\nDisallow: /cart/\\n\"}\n";
    dir.create("index.jsonl", index);
    let crawl = ["crawl", "--explain", "urls.txt"];
    let want = dir
        .command()
        .args(crawl)
        .args(["--robots-index", "index.jsonl"])
        .stdout();
    assert!(want.contains(",disallowed,rule,"), "{want}");
    let got = dir
        .command()
        .args(crawl)
        .args(["--robots-index", "-"])
        .stdin(index)
        .stdout();
    eqnice!(want, got);
    let err = dir
        .command()
        .args(["crawl", "--robots-index", "-", "-"])
        .assert_error();
    assert!(err.contains("only one of URLS, --agents-file and"), "{err}");
    let err = dir
        .command()
        .args(["crawl", "--robots-dir", ".", "--agents-file", "-", "-"])
        .assert_error();
    assert!(err.contains("only one of URLS, --agents-file and"), "{err}");
    for args in [
        &["-", "-"][..],
        &["--agents-file", "-", "-", "urls.txt"],
        &["--agents-file", "-", "robots.txt", "-"],
    ] {
        let err = dir.command().args(args).assert_error();
        assert!(err.contains("only one of ROBOTS, URLS and --agents-file"));
    }
});

// -o writes the rows to a file, exactly as standard output would have them,
// and refuses to overwrite an input.
rbtest!(output_file, |dir: Dir, _: TestCommand| {
    dir.create("urls.txt", EXAMPLE_URLS);
    for args in [&[][..], &["-c"], &["--emit", "disallowed"], &["--explain"]] {
        let want =
            dir.command().args(args).args(["robots.txt", "urls.txt"]).output();
        let got = dir
            .command()
            .args(args)
            .args(["-o", "out.csv", "robots.txt", "urls.txt"])
            .output();
        assert_eq!(want.status.code(), got.status.code(), "{args:?}");
        assert!(got.stdout.is_empty(), "{args:?}");
        let file = std::fs::read(dir.path().join("out.csv")).unwrap();
        assert!(file == want.stdout, "{args:?}");
    }
    dir.create_dir("robots");
    dir.create("robots/www.example.com.txt", EXAMPLE_ROBOTS);
    let crawl = ["crawl", "--robots-dir", "robots"];
    let want = dir.command().args(crawl).arg("urls.txt").stdout();
    let got =
        dir.command().args(crawl).args(["-o", "c.csv", "urls.txt"]).stdout();
    assert!(got.is_empty());
    eqnice!(want, std::fs::read_to_string(dir.path().join("c.csv")).unwrap());
    for args in [
        &["-o", "urls.txt", "robots.txt", "urls.txt"][..],
        &["-o", "./robots.txt", "robots.txt", "urls.txt"],
        &["crawl", "--robots-dir", "robots", "-o", "urls.txt", "urls.txt"],
    ] {
        let err = dir.command().args(args).assert_error();
        assert!(err.contains("it would be overwritten"), "{args:?}: {err}");
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("urls.txt")).unwrap(),
        EXAMPLE_URLS
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("robots.txt")).unwrap(),
        EXAMPLE_ROBOTS
    );
});

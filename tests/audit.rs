//! Audits, end to end: several agents in one pass (`-a` repeated or
//! comma-separated, `--agents-file`, `--agents ai`, `--layout`),
//! `--explain`, the filter mode (`--emit`, `-c`) and `--format`.

use robots_batch::{
    agents::ai_agent_tokens, Dialect, Matcher, Robots, Verdict,
};

use crate::util::{lines, Dir, TestCommand, EXAMPLE_ROBOTS, EXAMPLE_URLS};

/// Each line's verdict for each agent, from the library, one line and one
/// agent at a time (no batch, no shared path).
fn verdicts(robots: &str, agents: &[&str], input: &[u8]) -> Vec<Vec<bool>> {
    let robots = Robots::parse(robots.as_bytes());
    let matchers: Vec<Matcher> = agents
        .iter()
        .map(|a| Matcher::new(&robots, a, Dialect::Rfc9309))
        .collect();
    let mut scratches: Vec<_> = matchers.iter().map(|m| m.scratch()).collect();
    lines(input)
        .into_iter()
        .map(|line| {
            matchers
                .iter()
                .zip(&mut scratches)
                .map(|(m, s)| m.verdict(line, s).is_allowed())
                .collect()
        })
        .collect()
}

fn name(allowed: bool) -> &'static str {
    if allowed {
        "allowed"
    } else {
        "disallowed"
    }
}

/// The wide CSV that `agents` must give, built with the csv crate.
fn wide_csv(agents: &[&str], input: &[u8]) -> Vec<u8> {
    let mut wtr = csv::Writer::from_writer(vec![]);
    let mut header = vec!["url"];
    header.extend_from_slice(agents);
    wtr.write_record(&header).unwrap();
    let all = verdicts(EXAMPLE_ROBOTS, agents, input);
    for (line, vs) in lines(input).into_iter().zip(all) {
        let mut record: Vec<&[u8]> = vec![line];
        record.extend(vs.iter().map(|&v| name(v).as_bytes()));
        wtr.write_record(&record).unwrap();
    }
    wtr.into_inner().unwrap()
}

rbtest!(several_agents_wide, |dir: Dir, mut cmd: TestCommand| {
    dir.create("urls.txt", EXAMPLE_URLS);
    let agents = ["GPTBot", "Googlebot", "*", "NoSuchBot"];
    let want = wide_csv(&agents, EXAMPLE_URLS.as_bytes());
    let got = cmd
        .args(["-a", "GPTBot,Googlebot", "-a", "*", "--agent=NoSuchBot"])
        .args(["robots.txt", "urls.txt"])
        .stdout();
    eqnice!(want, got);
    for row in [
        "url,GPTBot,Googlebot,*,NoSuchBot",
        "https://www.example.com/,disallowed,allowed,allowed,allowed",
        "https://www.example.com/cart/,disallowed,disallowed,disallowed,\
         disallowed",
        "https://www.example.com/press/,allowed,allowed,allowed,allowed",
        "https://www.example.com/assets/logo.png,disallowed,disallowed,\
         allowed,allowed",
    ] {
        assert!(got.lines().any(|l| l == row), "no row {row:?} in\n{got}");
    }
    // The same with threads, tiny chunks and standard input, and with
    // the agents given in a file.
    dir.create(
        "agents.txt",
        "# audit\nGPTBot\n\n  Googlebot  \n*\nNoSuchBot\n",
    );
    for args in [
        &["-j1"][..],
        &["-j3", "--chunk-size", "7"],
        &["--agents-file", "agents.txt", "-j2"],
    ] {
        let mut cmd = dir.command();
        cmd.args(args);
        if !args.contains(&"--agents-file") {
            cmd.args(["-a", "GPTBot,Googlebot,*,NoSuchBot"]);
        }
        let got = cmd.args(["robots.txt", "-"]).stdin(EXAMPLE_URLS).stdout();
        eqnice!(want, got);
    }
});

rbtest!(duplicate_agents_once, |dir: Dir, mut cmd: TestCommand| {
    dir.create("urls.txt", "/cart/\n/press/\n");
    dir.create("agents.txt", "gptbot\nGooglebot\n");
    let got = cmd
        .args(["-a", "GPTBot", "--agents-file", "agents.txt", "-a", "GPTBot"])
        .args(["robots.txt", "urls.txt"])
        .stdout();
    // -a first, then the file; `gptbot` is `GPTBot` again.
    eqnice!(
        "url,GPTBot,Googlebot\n/cart/,disallowed,disallowed\n\
         /press/,allowed,allowed\n",
        got
    );
});

rbtest!(one_agent_layouts, |dir: Dir, _: TestCommand| {
    dir.create("urls.txt", "/cart/\n/a\n");
    let run = |args: &[&str]| {
        dir.command().args(args).args(["robots.txt", "urls.txt"]).stdout()
    };
    eqnice!("url,verdict\n/cart/,disallowed\n/a,allowed\n", run(&[]));
    // The same agent twice is one agent.
    eqnice!(
        "url,verdict\n/cart/,disallowed\n/a,disallowed\n",
        run(&["-a", "GPTBot,gptbot"])
    );
    eqnice!(
        "url,*\n/cart/,disallowed\n/a,allowed\n",
        run(&["--layout", "wide"])
    );
    eqnice!(
        "url,agent,verdict\n/cart/,GPTBot,disallowed\n/a,GPTBot,disallowed\n",
        run(&["--layout", "long", "-a", "GPTBot"])
    );
});

rbtest!(long_layout, |dir: Dir, mut cmd: TestCommand| {
    dir.create("urls.txt", EXAMPLE_URLS);
    let agents = ["Googlebot", "GPTBot"];
    let got = cmd
        .args(["--layout", "long", "-a", "Googlebot,GPTBot", "-j3"])
        .args(["--chunk-size", "100", "robots.txt", "urls.txt"])
        .stdout();
    let mut wtr = csv::Writer::from_writer(vec![]);
    wtr.write_record(["url", "agent", "verdict"]).unwrap();
    let input = EXAMPLE_URLS.as_bytes();
    for (line, vs) in
        lines(input).into_iter().zip(verdicts(EXAMPLE_ROBOTS, &agents, input))
    {
        for (agent, v) in agents.iter().zip(vs) {
            wtr.write_record([line, agent.as_bytes(), name(v).as_bytes()])
                .unwrap();
        }
    }
    eqnice!(wtr.into_inner().unwrap(), got);
    assert_eq!(got.lines().count(), 1 + 2 * EXAMPLE_URLS.lines().count());
});

rbtest!(agents_ai, |dir: Dir, mut cmd: TestCommand| {
    dir.create("urls.txt", "/\n/press/x\n");
    let got = cmd.args(["--agents", "ai", "robots.txt", "urls.txt"]).stdout();
    let mut rows = got.lines();
    let header: Vec<&str> = rows.next().unwrap().split(',').collect();
    let tokens = ai_agent_tokens(None).unwrap();
    assert_eq!(header[0], "url");
    assert_eq!(header[1..], tokens[..]);
    for token in ["GPTBot", "ClaudeBot", "CCBot", "Google-Extended"] {
        assert!(tokens.contains(&token), "{token}");
    }
    // The example robots.txt names only GPTBot among them: it may not
    // fetch `/`, the others fall back to `*`, which allows it.
    let root: String = tokens
        .iter()
        .map(|&t| if t == "GPTBot" { ",disallowed" } else { ",allowed" })
        .collect();
    let press = ",allowed".repeat(tokens.len());
    eqnice!(
        format!("/{root}\n/press/x{press}\n"),
        rows.map(|r| format!("{r}\n")).collect::<String>()
    );
    // --agents ai comes after -a, without repeating it.
    let got = dir
        .command()
        .args(["-a", "Googlebot,ccbot", "--agents", "ai", "--no-header"])
        .args(["--layout", "long", "robots.txt", "urls.txt"])
        .stdout();
    let agents: Vec<&str> = got
        .lines()
        .take(tokens.len() + 1)
        .map(|l| l.split(',').nth(1).unwrap())
        .collect();
    assert_eq!(agents[..2], ["Googlebot", "ccbot"]);
    assert!(!agents[2..].contains(&"CCBot"));
    assert_eq!(agents.len(), tokens.len() + 1);
});

rbtest!(agents_ai_categories, |dir: Dir, mut cmd: TestCommand| {
    dir.create("urls.txt", "/\n");
    let scrapers = ai_agent_tokens(Some("data-scrapers")).unwrap();
    let got = cmd
        .args(["--agents", "ai:data-scrapers", "--no-header", "--layout"])
        .args(["long", "robots.txt", "urls.txt"])
        .stdout();
    let agents: Vec<&str> =
        got.lines().map(|l| l.split(',').nth(1).unwrap()).collect();
    assert_eq!(agents, scrapers);
    // Two lists overlap: each agent once, in the order first given.
    let got = dir
        .command()
        .args(["--agents", "ai:data-scrapers,ai", "--no-header"])
        .args(["--layout", "long", "robots.txt", "urls.txt"])
        .stdout();
    let all = ai_agent_tokens(None).unwrap();
    assert_eq!(got.lines().count(), all.len());
    let err = dir
        .command()
        .args(["--agents", "ai:no-such-thing", "robots.txt", "urls.txt"])
        .assert_error();
    assert!(err.contains("robots-batch agents --categories"), "{err}");
    let err = dir
        .command()
        .args(["--agents", "bots", "robots.txt", "urls.txt"])
        .assert_error();
    assert!(err.contains("`ai` or `ai:CATEGORY`"), "{err}");
});

rbtest!(agents_listing, |dir: Dir, mut cmd: TestCommand| {
    let got = cmd.arg("agents").stdout();
    let mut rows = got.lines();
    assert_eq!(
        rows.next(),
        Some("name,token,google_reads,category,operator,function")
    );
    let rows: Vec<&str> = rows.collect();
    assert_eq!(rows.len(), robots_batch::agents::ai_agents().len());
    let row = |name: &str| {
        *rows.iter().find(|r| r.starts_with(&format!("{name},"))).unwrap()
    };
    // Google reads `User-agent: AI2Bot` as `AI`: left out.
    assert!(row("AI2Bot").starts_with("AI2Bot,,AI,"), "{}", row("AI2Bot"));
    assert!(row("Kangaroo Bot").starts_with("Kangaroo Bot,Kangaroo,Kangaroo,"));
    assert!(row("GPTBot").starts_with("GPTBot,GPTBot,GPTBot,"));
    let cats = dir.command().args(["agents", "--categories"]).stdout();
    assert!(cats.starts_with("category,entries,description\n"), "{cats}");
    assert!(cats.contains("\ndata-scrapers,"), "{cats}");
    let one = dir.command().args(["agents", "ai:data-scrapers"]).stdout();
    assert!(one.lines().skip(1).all(|r| r.contains(",data-scrapers,")));
    assert!(one.lines().count() > 1);
});

// The list's `function` is free text: its groups (`AI Data Scrapers`) and
// sentences (`Scrapes data to train OpenAI's products.`) map onto a few
// categories, so that one category holds every scraper.
rbtest!(
    agents_categories_are_few_and_whole,
    |dir: Dir, mut cmd: TestCommand| {
        let cats = cmd.args(["agents", "--categories"]).stdout();
        let mut rdr = csv::Reader::from_reader(cats.as_bytes());
        let rows: Vec<csv::StringRecord> =
            rdr.records().map(Result::unwrap).collect();
        let slugs: Vec<&str> = rows.iter().map(|r| &r[0]).collect();
        assert_eq!(
            slugs,
            [
                "data-scrapers",
                "data-providers",
                "search-crawlers",
                "assistants",
                "agents",
                "coding-agents",
                "undocumented",
                "other",
            ]
        );
        let total: usize =
            rows.iter().map(|r| r[1].parse::<usize>().unwrap()).sum();
        assert_eq!(total, robots_batch::agents::ai_agents().len());

        // Every scraper, whichever way the list words it, is judged by
        // ai:data-scrapers, and the listing keeps the list's own words.
        let listing =
            dir.command().args(["agents", "ai:data-scrapers"]).stdout();
        let mut rdr = csv::Reader::from_reader(listing.as_bytes());
        assert_eq!(rdr.headers().unwrap().get(5), Some("function"));
        let rows: Vec<csv::StringRecord> =
            rdr.records().map(Result::unwrap).collect();
        let function = |name: &str| {
            rows.iter().find(|r| &r[0] == name).map(|r| r[5].to_string())
        };
        assert_eq!(
            function("GPTBot").as_deref(),
            Some("Scrapes data to train OpenAI's products.")
        );
        assert_eq!(function("Bytespider").as_deref(), Some("LLM training."));
        assert_eq!(
            function("MyCentralAIScraperBot").as_deref(),
            Some("AI data scraper")
        );
        assert!(rows.iter().all(|r| &r[3] == "data-scrapers"));
        dir.create("urls.txt", "/\n");
        let got = dir
            .command()
            .args(["--agents", "ai:Data-Scrapers", "--no-header", "--layout"])
            .args(["long", "robots.txt", "urls.txt"])
            .stdout();
        let agents: Vec<&str> =
            got.lines().map(|l| l.split(',').nth(1).unwrap()).collect();
        for token in ["GPTBot", "ClaudeBot", "Bytespider", "Google-Extended"] {
            assert!(agents.contains(&token), "{token}: {agents:?}");
        }

        // A slug of the old kind is an error that names the categories.
        let err = dir
            .command()
            .args(["--agents", "ai:scrapes-data", "robots.txt", "urls.txt"])
            .assert_error();
        assert!(err.contains("data-scrapers, data-providers,"), "{err}");
        assert!(err.contains(", undocumented, other"), "{err}");
    }
);

rbtest!(help_mentions_audit_options, |_: Dir, mut cmd: TestCommand| {
    let long = cmd.arg("--help").stdout();
    for needle in [
        "--agents-file",
        "--agents <LIST>",
        "ai:CATEGORY",
        "robots-batch agents",
        "--layout",
        "wide",
        "long",
        "--explain",
        "no-matching-rule",
        "implicit-robots-txt",
        "--emit",
        "-c, --count",
        "--format",
        "jsonl",
        "tsv",
        "grep",
        "gzip and zstd",
    ] {
        assert!(long.contains(needle), "--help lacks {needle:?}:\n{long}");
    }
});

rbtest!(explain_every_reason, |dir: Dir, mut cmd: TestCommand| {
    // An empty line ends no group: `b` shares the `*` group's rule.
    dir.create(
        "odd.txt",
        "User-agent: a\nDisallow: /x\nAllow: /x,y # comma\n\
         User-agent: b\n\nUser-agent: *\ndissallow:   /q\n",
    );
    dir.create(
        "urls.txt",
        "/x\n/x,y/z\n/robots.txt\n/q\n/other\nhttps://e.com/q?x\n",
    );
    let got = cmd
        .args(["--explain", "-a", "a,b,*", "--layout", "long"])
        .args(["odd.txt", "urls.txt"])
        .stdout();
    eqnice!(
        "url,agent,verdict,line,rule,group,reason\n\
         /x,a,disallowed,2,Disallow: /x,a,rule\n\
         /x,b,allowed,,,b,no-matching-rule\n\
         /x,*,allowed,,,*,no-matching-rule\n\
         \"/x,y/z\",a,allowed,3,\"Allow: /x,y # comma\",a,rule\n\
         \"/x,y/z\",b,allowed,,,b,no-matching-rule\n\
         \"/x,y/z\",*,allowed,,,*,no-matching-rule\n\
         /robots.txt,a,allowed,,,a,implicit-robots-txt\n\
         /robots.txt,b,allowed,,,b,implicit-robots-txt\n\
         /robots.txt,*,allowed,,,*,implicit-robots-txt\n\
         /q,a,allowed,,,a,no-matching-rule\n\
         /q,b,disallowed,7,dissallow:   /q,b,rule\n\
         /q,*,disallowed,7,dissallow:   /q,*,rule\n\
         /other,a,allowed,,,a,no-matching-rule\n\
         /other,b,allowed,,,b,no-matching-rule\n\
         /other,*,allowed,,,*,no-matching-rule\n\
         https://e.com/q?x,a,allowed,,,a,no-matching-rule\n\
         https://e.com/q?x,b,disallowed,7,dissallow:   /q,b,rule\n\
         https://e.com/q?x,*,disallowed,7,dissallow:   /q,*,rule\n",
        got
    );
    // No group: a robots.txt without a `*` group, for another agent.
    dir.create("nostar.txt", "User-agent: a\nDisallow: /\n");
    let got = dir
        .command()
        .args(["--explain", "-a", "zz", "nostar.txt", "urls.txt"])
        .stdout();
    assert!(got.starts_with("url,verdict,line,rule,group,reason\n"));
    assert!(got.contains("\n/x,allowed,,,,no-group\n"), "{got}");
    // The group is named as the robots.txt wrote it.
    let got = dir
        .command()
        .args(["--explain", "-a", "A", "odd.txt", "-"])
        .stdin("/x\n")
        .stdout();
    eqnice!(
        "url,verdict,line,rule,group,reason\n/x,disallowed,2,Disallow: /x,a,rule\n",
        got
    );
});

rbtest!(explain_wide_matches_library, |dir: Dir, mut cmd: TestCommand| {
    dir.create("urls.txt", EXAMPLE_URLS);
    let agents = ["Googlebot", "*"];
    let got = cmd
        .args(["--explain", "-a", "Googlebot,*", "-j2", "--chunk-size", "50"])
        .args(["robots.txt", "urls.txt"])
        .stdout_bytes();
    let robots = Robots::parse(EXAMPLE_ROBOTS.as_bytes());
    let matchers: Vec<Matcher> = agents
        .iter()
        .map(|a| Matcher::new(&robots, a, Dialect::Rfc9309))
        .collect();
    let mut wtr = csv::Writer::from_writer(vec![]);
    let mut header = vec!["url".to_string()];
    for a in agents {
        header.push(a.to_string());
        for f in ["line", "rule", "group", "reason"] {
            header.push(format!("{a}.{f}"));
        }
    }
    wtr.write_record(&header).unwrap();
    for line in lines(EXAMPLE_URLS.as_bytes()) {
        let mut record: Vec<Vec<u8>> = vec![line.to_vec()];
        for m in &matchers {
            let v: Verdict = m.verdict(line, &mut m.scratch());
            record.push(v.name().into());
            match v.reason() {
                robots_batch::Reason::Rule(k) => {
                    let rule = m.rules().nth(k as usize).unwrap();
                    record.push(rule.line().to_string().into());
                    record.push(rule.text().to_vec());
                }
                _ => record.extend([vec![], vec![]]),
            }
            record.push(m.group().name().to_vec());
            record.push(v.reason().name().into());
        }
        wtr.write_record(&record).unwrap();
    }
    eqnice!(wtr.into_inner().unwrap(), got);
    let text = String::from_utf8(got).unwrap();
    for row in [
        "https://www.example.com/assets/site.css,allowed,22,\
         Allow: /assets/*.css$,Googlebot,rule,allowed,,,*,no-matching-rule",
        "https://www.example.com/search?q=robots,allowed,,,Googlebot,\
         no-matching-rule,disallowed,8,Disallow: /search,*,rule",
    ] {
        assert!(text.lines().any(|l| l == row), "no row {row:?}\n{text}");
    }
});

rbtest!(emit_filters, |dir: Dir, _: TestCommand| {
    dir.create(
        "urls.txt",
        "/press/a\n/cart/\n\"odd,\" line\n/\n/robots.txt\r\n/search\n",
    );
    let run = |args: &[&str], code: i32| {
        let out = dir
            .command()
            .args(args)
            .args(["robots.txt", "urls.txt"])
            .assert_exit_code(code);
        assert!(out.stderr.is_empty(), "{args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    // Lines as read: no header, no quotes.
    eqnice!(
        "/press/a\n\"odd,\" line\n/\n/robots.txt\n",
        run(&["--emit", "allowed"], 0)
    );
    eqnice!("/cart/\n/search\n", run(&["--emit", "disallowed"], 0));
    // Several agents: allowed only when every agent is allowed.
    eqnice!(
        "/press/a\n/robots.txt\n",
        run(&["--emit", "allowed", "-a", "*,GPTBot"], 0)
    );
    eqnice!(
        "/cart/\n\"odd,\" line\n/\n/search\n",
        run(&["--emit", "disallowed", "-a", "*,GPTBot"], 0)
    );
    // Counts, and grep's exit codes.
    eqnice!("4\n", run(&["-c", "--emit", "disallowed", "-a", "*,GPTBot"], 0));
    dir.create("all.txt", "User-agent: *\nDisallow: /\n");
    dir.create("two.txt", "/a\n/b\n");
    for (args, want) in [
        (&["--emit", "allowed"][..], ""),
        (&["-c", "--emit", "allowed", "-a", "x,y"], "0\n"),
    ] {
        let out = dir
            .command()
            .args(args)
            .args(["all.txt", "two.txt"])
            .assert_exit_code(1);
        assert!(out.stderr.is_empty());
        eqnice!(want, out.stdout);
    }
    eqnice!(
        "agent,allowed,disallowed\n*,4,2\nGPTBot,2,4\n",
        run(&["-c", "-a", "*,GPTBot"], 0)
    );
    eqnice!("*,4,2\n", run(&["-c", "--no-header"], 0));
    // Threads and chunks change nothing.
    let big = EXAMPLE_URLS.repeat(50);
    dir.create("big.txt", &big);
    let want: String = lines(big.as_bytes())
        .into_iter()
        .zip(verdicts(EXAMPLE_ROBOTS, &["GPTBot"], big.as_bytes()))
        .filter(|(_, v)| !v[0])
        .map(|(l, _)| format!("{}\n", String::from_utf8_lossy(l)))
        .collect();
    for args in [&["-j1"][..], &["-j3", "--chunk-size", "13"]] {
        let got = dir
            .command()
            .args(args)
            .args(["--emit", "disallowed", "-a", "GPTBot", "robots.txt"])
            .arg("big.txt")
            .stdout();
        eqnice!(want, got);
    }
    // Nothing to read: nothing printed, exit code 1.
    let out = dir
        .command()
        .args(["--emit", "allowed", "robots.txt", "-"])
        .assert_exit_code(1);
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
});

rbtest!(formats, |dir: Dir, _: TestCommand| {
    dir.create("urls.txt", b"/cart/\ta\n/a,b\\c\n/caf\xc3\xa9 \"q\"\n/\xff\n");
    let run = |args: &[&str]| {
        let out = dir
            .command()
            .args(args)
            .args(["robots.txt", "urls.txt"])
            .stdout_bytes();
        String::from_utf8_lossy(&out).into_owned()
    };
    // TSV escapes tabs and backslashes; other bytes pass through.
    let tsv = dir
        .command()
        .args(["--format", "tsv", "robots.txt", "urls.txt"])
        .stdout_bytes();
    eqnice!(
        &b"url\tverdict\n/cart/\\ta\tdisallowed\n/a,b\\\\c\tallowed\n\
           /caf\xc3\xa9 \"q\"\tallowed\n/\xff\tallowed\n"[..],
        tsv
    );
    let jsonl = run(&["--format", "jsonl", "--explain", "-a", "*,GPTBot"]);
    let rows: Vec<serde_json::Value> =
        jsonl.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0]["url"], "/cart/\ta");
    assert_eq!(rows[0]["verdicts"]["*"]["verdict"], "disallowed");
    assert_eq!(rows[0]["verdicts"]["*"]["line"], 5);
    assert_eq!(rows[0]["verdicts"]["*"]["rule"], "Disallow: /cart/");
    assert_eq!(rows[0]["verdicts"]["GPTBot"]["group"], "GPTBot");
    assert_eq!(rows[2]["url"], "/caf\u{e9} \"q\"");
    assert_eq!(rows[2]["verdicts"]["*"]["reason"], "no-matching-rule");
    assert!(rows[2]["verdicts"]["*"]["line"].is_null());
    assert_eq!(rows[3]["url"], "/\u{fffd}");
    eqnice!(
        "{\"url\":\"/cart/\\ta\",\"verdict\":\"disallowed\"}\n\
         {\"url\":\"/a,b\\\\c\",\"verdict\":\"allowed\"}\n\
         {\"url\":\"/caf\u{e9} \\\"q\\\"\",\"verdict\":\"allowed\"}\n\
         {\"url\":\"/\u{fffd}\",\"verdict\":\"allowed\"}\n",
        run(&["--format", "jsonl"])
    );
    eqnice!(
        "{\"url\":\"/cart/\\ta\",\"agent\":\"GPTBot\",\"verdict\":\
         \"disallowed\"}\n",
        run(&["--format", "jsonl", "--layout", "long", "-a", "GPTBot"])
            .lines()
            .next()
            .unwrap()
            .to_string()
            + "\n"
    );
    // CSV does not quote a tab.
    eqnice!(
        "url,GPTBot\n/cart/\ta,disallowed\n",
        run(&["--format", "csv", "--layout", "wide", "-a", "GPTBot"])
            .lines()
            .take(2)
            .map(|l| format!("{l}\n"))
            .collect::<String>()
    );
});

rbtest!(audit_errors, |dir: Dir, _: TestCommand| {
    dir.create("urls.txt", EXAMPLE_URLS);
    dir.create("empty.txt", "# nothing\n\n");
    for (args, needle) in [
        (&["-a", "GPTBot,", "robots.txt", "urls.txt"][..], "agent"),
        (&["--agents-file", "nope.txt", "robots.txt", "urls.txt"], "nope.txt"),
        (
            &["--agents-file", "empty.txt", "robots.txt", "urls.txt"],
            "no agent",
        ),
        (&["--agents", "robots", "robots.txt", "urls.txt"], "robots"),
        (&["--layout", "tall", "robots.txt", "urls.txt"], "tall"),
        (&["--format", "xml", "robots.txt", "urls.txt"], "xml"),
        (&["--emit", "maybe", "robots.txt", "urls.txt"], "maybe"),
        (
            &["--emit", "allowed", "--explain", "robots.txt", "urls.txt"],
            "--explain",
        ),
        (&["-c", "--layout", "long", "robots.txt", "urls.txt"], "--layout"),
        (
            &[
                "--emit",
                "allowed",
                "--format",
                "tsv",
                "robots.txt",
                "urls.txt",
            ],
            "--format",
        ),
    ] {
        let err = dir.command().args(args).assert_error();
        assert!(err.contains(needle), "{args:?}: {err}");
    }
});

rbtest!(check_subcommand, |dir: Dir, _: TestCommand| {
    let run = |args: &[&str], code: i32| {
        let out = dir.command().arg("check").args(args).assert_exit_code(code);
        assert!(out.stderr.is_empty(), "{args:?}: {:?}", out.stderr);
        String::from_utf8(out.stdout).unwrap()
    };
    eqnice!(
        "allowed    https://www.example.com/\n",
        run(&["robots.txt", "https://www.example.com/"], 0)
    );
    eqnice!(
        "allowed    /a\ndisallowed /cart/x\nallowed    /b\n",
        run(&["robots.txt", "/a", "/cart/x", "/b"], 1)
    );
    eqnice!(
        "disallowed https://www.example.com/ (line 28: Disallow: /; group \
         GPTBot)\n\
         allowed    /press/x (line 29: Allow: /press/; group GPTBot)\n\
         allowed    /robots.txt (/robots.txt is always allowed)\n",
        run(
            &[
                "-a",
                "GPTBot",
                "--explain",
                "robots.txt",
                "https://www.example.com/",
                "/press/x",
                "/robots.txt",
            ],
            1
        )
    );
    eqnice!(
        "allowed    /x (no matching rule; group *)\n",
        run(&["--explain", "robots.txt", "/x"], 0)
    );
    dir.create("nostar.txt", "User-agent: a\nDisallow: /\n");
    eqnice!(
        "allowed    /x (no group applies)\n",
        run(&["--explain", "-a", "b", "nostar.txt", "/x"], 0)
    );
    // The dialect matters: Google does not always allow /robots.txt.
    dir.create("all.txt", "User-agent: *\nDisallow: /\n");
    run(&["all.txt", "/robots.txt"], 0);
    run(&["--dialect", "google", "all.txt", "/robots.txt"], 1);
    // Google's spec-test runner: ROBOTS URL AGENT, the exit code decides.
    eqnice!(
        "disallowed /assets/x.png\n",
        run(&["--spec-test", "robots.txt", "/assets/x.png", "Googlebot"], 1)
    );
    run(&["--spec-test", "robots.txt", "/assets/x.png", "OtherBot"], 0);
    run(&["--spec-test", "robots.txt", "/", "gptbot"], 1);
    // A file named `check` is `./check`.
    dir.create("check", "User-agent: *\nDisallow: /\n");
    dir.create("urls.txt", "/x\n");
    let got = dir.command().args(["./check", "urls.txt"]).stdout();
    eqnice!("url,verdict\n/x,disallowed\n", got);
});

rbtest!(check_errors, |dir: Dir, _: TestCommand| {
    for (args, needle) in [
        (&["check", "robots.txt"][..], "<URL>"),
        (&["check"], "<ROBOTS>"),
        (&["check", "nope.txt", "/x"], "nope.txt"),
        (&["check", "--spec-test", "robots.txt", "/x"], "ROBOTS URL AGENT"),
        (&["check", "--spec-test", "robots.txt", "/x", "a", "b"], "AGENT"),
        (&["check", "--spec-test", "-a", "x", "robots.txt", "/", "a"], "-a"),
        (&["check", "--dialect", "x", "robots.txt", "/x"], "dialect"),
    ] {
        let err = dir.command().args(args).assert_error();
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    let help = dir.command().args(["check", "--help"]).stdout();
    for needle in ["--spec-test", "%robots% %url% %user-agent%", "EXIT CODES"]
    {
        assert!(help.contains(needle), "{needle}: {help}");
    }
    let help = dir.command().arg("--help").stdout();
    assert!(help.contains("robots-batch check"), "{help}");
});

const LINTED: &str = "Disallow: /early
User-agent: *
Dissallow: /typo
Disallow /nocolon
Disallow: /a
Allow: /a*
Disallow: /b
Disallow: /b
Crawl-delay: 10
Host: example.com
Noindex: /x
Foo: bar
this is junk

User-agent: gptbot/1.0
User-agent: MJ12bot
Disallow: /
Sitemap: https://e.com/s.xml
\u{feff}User-agent: x
";

rbtest!(lint_human, |dir: Dir, _: TestCommand| {
    dir.create("r.txt", LINTED);
    let out = dir.command().args(["lint", "r.txt"]).assert_exit_code(1);
    assert!(out.stderr.is_empty());
    let got = String::from_utf8(out.stdout).unwrap();
    let want = [
        "r.txt:1: rule-outside-group: rule before any user-agent line: it \
         belongs to no group and is ignored",
        "r.txt:3: typo: key \"Dissallow\" is accepted as \"disallow\", but \
         not by every crawler: spell it \"disallow\"",
        "r.txt:4: missing-colon: no colon after the key: read as if there \
         were one, but not by every crawler",
        "r.txt:5: shadowed-rule: \"Disallow: /a\" can never decide: line 6 \
         (\"Allow: /a*\") matches the same paths and always wins",
        "r.txt:8: shadowed-rule: \"Disallow: /b\" can never decide: line 7 \
         (\"Disallow: /b\") is the same rule",
        "r.txt:9: non-standard-directive: crawl-delay is not part of RFC \
         9309 (section 2.2.4 lets crawlers read records it does not \
         define); Google ignores it, Bing and Yandex read it as seconds \
         between fetches",
        "r.txt:10: non-standard-directive: host is a Yandex extension (no \
         longer used by Yandex either), not part of RFC 9309; other \
         crawlers ignore it",
        "r.txt:11: non-standard-directive: noindex was never part of any \
         robots.txt standard, and Google stopped honouring it in 2019; use \
         a robots meta tag or an X-Robots-Tag header",
        "r.txt:12: unknown-directive: unknown key \"Foo\": ignored by RFC \
         9309 crawlers (section 2.2.4)",
        "r.txt:13: unparseable: not a `key: value` line: ignored",
        "r.txt:15: invalid-token: user-agent \"gptbot/1.0\" is not a \
         product token (letters, '-' and '_'): RFC 9309 crawlers read it \
         as \"gptbot\"",
        "r.txt:16: invalid-token: user-agent \"MJ12bot\" is not a product \
         token (letters, '-' and '_'): RFC 9309 crawlers read it as \"MJ\"",
        "r.txt:19: bom: byte-order mark inside the file (two files \
         joined?): it is part of the line, so the line's key is not \
         recognised",
        "r.txt:19: unknown-directive: unknown key \"\\u{feff}User-agent\": \
         ignored by RFC 9309 crawlers (section 2.2.4)",
        "14 findings",
        "groups: 2",
        "  line 2: * (6 rules)",
        "  line 15: gptbot/1.0, MJ12bot (1 rule)",
        "sitemaps: 1",
        "  line 18: https://e.com/s.xml",
        "crawl-delays: 1",
        "  line 9: 10 (group *)",
    ];
    eqnice!(want.map(|l| format!("{l}\n")).concat(), got);

    // A clean file: exit code 0, and its inventory.
    let got = dir.command().args(["lint", "robots.txt"]).stdout();
    eqnice!(
        "0 findings\ngroups: 3\n  line 4: * (9 rules)\n  line 16: \
         Googlebot, Googlebot-Image (7 rules)\n  line 27: GPTBot (2 rules)\n\
         sitemaps: 1\n  line 31: https://www.example.com/sitemap.xml\n\
         crawl-delays: 0\n",
        got
    );
    // An HTML error page.
    dir.create("h.txt", "<!DOCTYPE html>\n<html><body>404</body></html>\n");
    let out = dir.command().args(["lint", "h.txt"]).assert_exit_code(1);
    let got = String::from_utf8(out.stdout).unwrap();
    assert!(got.contains("h.txt:1: html: this is an HTML page"), "{got}");
    // The older dialects: first match in file order decides.
    dir.create("d.txt", "User-agent: *\nDisallow: /a\nAllow: /ab\n");
    dir.command().args(["lint", "d.txt"]).assert_exit_code(0);
    let out = dir
        .command()
        .args(["lint", "--dialect", "draft1996", "d.txt"])
        .assert_exit_code(1);
    let got = String::from_utf8(out.stdout).unwrap();
    assert!(
        got.starts_with(
            "d.txt:3: shadowed-rule: \"Allow: /ab\" can never decide: line \
             2 (\"Disallow: /a\") comes first and matches every path this \
             one matches\n"
        ),
        "{got}"
    );
});

rbtest!(lint_json, |dir: Dir, _: TestCommand| {
    dir.create("r.txt", LINTED);
    let out = dir
        .command()
        .args(["lint", "--format", "json", "r.txt"])
        .assert_exit_code(1);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["file"], "r.txt");
    let findings = v["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 14);
    assert_eq!(findings[1]["line"], 3);
    assert_eq!(findings[1]["code"], "typo");
    let codes: Vec<&str> =
        findings.iter().map(|f| f["code"].as_str().unwrap()).collect();
    for code in ["invalid-token", "shadowed-rule", "bom", "unparseable"] {
        assert!(codes.contains(&code), "{code}");
    }
    assert_eq!(v["groups"][1]["agents"][1], "MJ12bot");
    assert_eq!(v["groups"][0]["rules"], 6);
    assert_eq!(v["sitemaps"][0]["value"], "https://e.com/s.xml");
    assert_eq!(v["crawl_delays"][0]["value"], "10");
    assert_eq!(v["crawl_delays"][0]["agents"][0], "*");
});

rbtest!(lint_errors, |dir: Dir, _: TestCommand| {
    for (args, needle) in [
        (&["lint"][..], "<ROBOTS>"),
        (&["lint", "nope.txt"], "nope.txt"),
        (&["lint", "--format", "xml", "robots.txt"], "xml"),
    ] {
        let err = dir.command().args(args).assert_error();
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    let help = dir.command().args(["lint", "--help"]).stdout();
    assert!(help.contains("shadowed-rule") && help.contains("--format"));
    let help = dir.command().arg("--help").stdout();
    assert!(help.contains("robots-batch lint"), "{help}");
});

/// `input` gzip-compressed, as `members` gzip members one after another.
fn gzip(input: &[u8], members: usize) -> Vec<u8> {
    use std::io::Write;
    let mut out = vec![];
    let step = input.len().div_ceil(members.max(1)).max(1);
    for part in input.chunks(step) {
        let mut enc = flate2::write::GzEncoder::new(
            vec![],
            flate2::Compression::default(),
        );
        enc.write_all(part).unwrap();
        out.extend(enc.finish().unwrap());
    }
    out
}

rbtest!(compressed_urls, |dir: Dir, _: TestCommand| {
    let input = EXAMPLE_URLS.repeat(40);
    dir.create("urls.txt", &input);
    let want = dir.command().args(["robots.txt", "urls.txt"]).stdout_bytes();
    let mut zst = zstd::encode_all(input.as_bytes(), 3).unwrap();
    // Two frames: read as one stream.
    zst.extend(zstd::encode_all(&b"/cart/last\n"[..], 3).unwrap());
    let mut want_zst = want.clone();
    want_zst.extend_from_slice(b"/cart/last,disallowed\n");
    dir.create("urls.gz", gzip(input.as_bytes(), 1));
    dir.create("urls-3.gz", gzip(input.as_bytes(), 3));
    dir.create("urls.zst", &zst);
    for (file, want) in
        [("urls.gz", &want), ("urls-3.gz", &want), ("urls.zst", &want_zst)]
    {
        for args in [&["-j1"][..], &["-j3", "--chunk-size", "17"]] {
            let got = dir
                .command()
                .args(args)
                .args(["robots.txt", file])
                .stdout_bytes();
            eqnice!(want, got);
            let bytes = std::fs::read(dir.path().join(file)).unwrap();
            let got = dir
                .command()
                .args(args)
                .args(["robots.txt", "-"])
                .stdin(bytes)
                .stdout_bytes();
            eqnice!(want, got);
        }
    }
    // Every mode reads them.
    let got = dir
        .command()
        .args(["-c", "--emit", "disallowed", "robots.txt", "urls.gz"])
        .stdout();
    let n = String::from_utf8(want.clone())
        .unwrap()
        .lines()
        .filter(|l| l.ends_with(",disallowed"))
        .count();
    eqnice!(format!("{n}\n"), got);
    // Inputs shorter than a magic number, or starting like one, are text.
    for input in [&b""[..], b"\x1f", b"\x1f\n/cart/\n", b"\x28\xb5\n"] {
        dir.create("short.txt", input);
        let got = dir
            .command()
            .args(["--no-header", "robots.txt", "short.txt"])
            .stdout_bytes();
        let mut want = vec![];
        for line in lines(input) {
            want.extend_from_slice(line);
            let cart = line == b"/cart/";
            want.extend_from_slice(if cart {
                b",disallowed\n"
            } else {
                b",allowed\n"
            });
        }
        eqnice!(want, got);
    }
    // A truncated or corrupt stream is an error, after the rows read so
    // far.
    let gz = gzip(input.as_bytes(), 1);
    dir.create("cut.gz", &gz[..gz.len() / 2]);
    let out = dir.command().args(["robots.txt", "cut.gz"]).assert_exit_code(2);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.starts_with("robots-batch: failed to read cut.gz: "));
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    dir.create("bad.zst", b"\x28\xb5\x2f\xfdgarbage");
    let err =
        dir.command().args(["robots.txt", "bad.zst"]).assert_exit_code(2);
    assert!(String::from_utf8_lossy(&err.stderr).contains("bad.zst"));
});

// The agent flags mean the same in every subcommand: `check` and `crawl`
// take agents separated by commas, `--agents ai:CATEGORY` and
// `--agents-file`, as the default command does.
rbtest!(agent_flags_are_shared, |dir: Dir, _: TestCommand| {
    // check: a line per agent and URL, agent by agent, the agent named.
    let out = dir
        .command()
        .args(["check", "-a", "GPTBot,Googlebot", "robots.txt"])
        .args(["/press/x", "/cart/"])
        .assert_exit_code(1);
    eqnice!(
        "allowed    GPTBot    /press/x\n\
         disallowed GPTBot    /cart/\n\
         allowed    Googlebot /press/x\n\
         disallowed Googlebot /cart/\n",
        String::from_utf8(out.stdout).unwrap()
    );
    let got = dir
        .command()
        .args(["check", "--agents", "ai:data-scrapers", "robots.txt", "/"])
        .assert_exit_code(1);
    let got = String::from_utf8(got.stdout).unwrap();
    assert!(got.contains("disallowed GPTBot "), "{got}");
    assert!(got.lines().count() > 10, "{got}");
    dir.create("agents.txt", "# crawlers\nGPTBot\n\nCCBot\n");
    let got = dir
        .command()
        .args(["check", "--agents-file", "agents.txt", "robots.txt", "/"])
        .assert_exit_code(1);
    let agents: Vec<&str> = std::str::from_utf8(&got.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert_eq!(agents, ["GPTBot", "CCBot"]);

    // crawl: the same flags, the agents in the same order.
    dir.create_dir("robots");
    dir.create("robots/www.example.com.txt", crate::util::EXAMPLE_ROBOTS);
    dir.create("log.txt", "https://www.example.com/cart/\n");
    let got = dir
        .command()
        .args(["crawl", "--robots-dir", "robots", "-a", "Googlebot"])
        .args(["--agents-file", "agents.txt", "--agents", "ai:data-scrapers"])
        .arg("log.txt")
        .stdout();
    let agents: Vec<&str> =
        got.lines().skip(1).map(|l| l.split(',').nth(1).unwrap()).collect();
    assert_eq!(agents[..3], ["Googlebot", "GPTBot", "CCBot"], "{got}");
    let scrapers =
        robots_batch::agents::ai_agent_tokens(Some("data-scrapers"))
            .unwrap()
            .into_iter()
            .filter(|t| {
                !["gptbot", "ccbot"].contains(&&*t.to_ascii_lowercase())
            })
            .count();
    assert_eq!(agents.len(), 3 + scrapers, "{got}");
});

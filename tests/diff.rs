//! `robots-batch diff OLD NEW [URLS]`: per agent, the group, rules and
//! scope that change between two robots.txt of one site, and the URLs
//! whose verdict changes, both ways; checked on real files against the
//! default command's verdicts on each file.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::util::{Dir, TestCommand};

/// Runs `cmd`, asserting exit code `code`, and returns its standard output
/// and standard error.
fn run(cmd: &mut TestCommand, code: i32) -> (String, String) {
    let out = cmd.assert_exit_code(code);
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (text(out.stdout), text(out.stderr))
}

/// A rule removed (its URL now allowed) and a rule added (its URL now
/// disallowed), in one file pair.
fn both_ways(dir: &Dir) {
    dir.create(
        "old.txt",
        "User-agent: *\nDisallow: /private/\nDisallow: /tmp/\n",
    );
    dir.create(
        "new.txt",
        "User-agent: *\nDisallow: /private/\nDisallow: /cart/\n",
    );
    dir.create(
        "urls.txt",
        "https://shop.example/\nhttps://shop.example/tmp/a\n\
         https://shop.example/cart/1\nhttps://shop.example/private/x\n",
    );
}

rbtest!(diff_lists_changes_both_ways, |dir: Dir, mut cmd: TestCommand| {
    both_ways(&dir);
    let (out, err) =
        run(cmd.args(["diff", "old.txt", "new.txt", "urls.txt"]), 0);
    eqnice!(
        "*: changed\n  \
           group: * (unchanged)\n  \
           scope: partial (unchanged)\n  \
           - old.txt:3: Disallow: /tmp/\n  \
           + new.txt:3: Disallow: /cart/\n\
         \n\
         https://shop.example/tmp/a: disallowed -> allowed for *\n  \
           old.txt:3: Disallow: /tmp/; group *\n  \
           new.txt: no matching rule; group *\n\
         https://shop.example/cart/1: allowed -> disallowed for *\n  \
           old.txt: no matching rule; group *\n  \
           new.txt:3: Disallow: /cart/; group *\n",
        out
    );
    eqnice!(
        "robots-batch: 2 of 4 URLs change verdict for 1 of 1 agent\n\
         robots-batch: *: 1 allowed -> disallowed, 1 disallowed -> allowed\n",
        err
    );
    // The same as a table, with the --explain columns of each side.
    let (out, _) = run(
        dir.command()
            .args(["diff", "--format", "csv", "old.txt", "new.txt"])
            .arg("urls.txt"),
        0,
    );
    eqnice!(
        "url,agent,old,new,old_line,old_rule,old_group,old_reason,\
         new_line,new_rule,new_group,new_reason\n\
         https://shop.example/tmp/a,*,disallowed,allowed,3,Disallow: /tmp/,\
         *,rule,,,*,no-matching-rule\n\
         https://shop.example/cart/1,*,allowed,disallowed,,,*,\
         no-matching-rule,3,Disallow: /cart/,*,rule\n",
        out
    );
    // Without URLS, the table is the rules'.
    let (out, err) = run(
        dir.command()
            .args(["diff", "--format", "tsv", "--no-header"])
            .args(["old.txt", "new.txt"]),
        0,
    );
    eqnice!(
        "*\tremoved\tDisallow: /tmp/\t\t3\t\n\
         *\tadded\t\tDisallow: /cart/\t\t3\n",
        out
    );
    eqnice!("", err);
});

rbtest!(
    diff_exit_code_says_whether_anything_changed,
    |dir: Dir, _: TestCommand| {
        both_ways(&dir);
        dir.create(
            "same.txt",
            "User-agent: *\nDisallow: /tmp/\nDisallow: /private/\n",
        );
        let code = |args: &[&str]| {
            let out = dir.command().arg("diff").args(args).output();
            out.status.code()
        };
        assert_eq!(code(&["old.txt", "new.txt"]), Some(0));
        assert_eq!(code(&["--exit-code", "old.txt", "new.txt"]), Some(1));
        assert_eq!(code(&["--exit-code", "old.txt", "same.txt"]), Some(0));
        assert_eq!(
            code(&["--exit-code", "old.txt", "same.txt", "urls.txt"]),
            Some(0)
        );
        // The rules changed for GPTBot's group only: CCBot's URLs keep their
        // verdicts, but the rules' change is enough.
        dir.create(
            "gpt.txt",
            "User-agent: *\nDisallow: /private/\nDisallow: /tmp/\n\n\
                           User-agent: GPTBot\nDisallow: /\n",
        );
        let args =
            ["--exit-code", "-a", "CCBot", "old.txt", "gpt.txt", "urls.txt"];
        assert_eq!(code(&args), Some(0));
        let args =
            ["--exit-code", "-a", "GPTBot", "old.txt", "gpt.txt", "urls.txt"];
        assert_eq!(code(&args), Some(1));
    }
);

// An agent the new file names gets its own group: it moves from `*`,
// and its scope with it; the agents the `*` groups still judge share one
// entry.
rbtest!(
    diff_agent_moves_to_a_named_group,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create("old.txt", "User-agent: *\nDisallow: /private/\n");
        dir.create(
            "new.txt",
            "User-agent: *\nDisallow: /private/\n\n# no AI training\n\
         User-agent: GPTBot\nDisallow: /\n",
        );
        dir.create("urls.txt", "https://e.com/\nhttps://e.com/private/a\n");
        let (out, err) = run(
            cmd.args(["diff", "-a", "CCBot,GPTBot", "-a", "ClaudeBot"])
                .args(["old.txt", "new.txt", "urls.txt"]),
            0,
        );
        eqnice!(
            "CCBot, ClaudeBot: unchanged (group *, scope partial)\n\
         GPTBot: changed\n  \
           group: * (old.txt:1) -> GPTBot (new.txt:5)\n  \
           scope: partial -> full\n  \
           - old.txt:2: Disallow: /private/\n  \
           + new.txt:6: Disallow: /\n\
         \n\
         https://e.com/: allowed -> disallowed for GPTBot\n  \
           old.txt: no matching rule; group *\n  \
           new.txt:6: Disallow: /; group GPTBot\n",
            out
        );
        eqnice!(
        "robots-batch: 1 of 2 URLs changes verdict for 1 of 3 agents\n\
         robots-batch: GPTBot: 1 allowed -> disallowed, 0 disallowed -> allowed\n",
        err
    );
        let (out, _) = run(
            dir.command()
                .args(["diff", "--format", "jsonl", "-a", "CCBot,GPTBot"])
                .args(["old.txt", "new.txt"]),
            0,
        );
        eqnice!(
            "{\"agent\":\"GPTBot\",\"change\":\"group\",\"old\":\"*\",\
         \"new\":\"GPTBot\",\"old_line\":1,\"new_line\":5}\n\
         {\"agent\":\"GPTBot\",\"change\":\"scope\",\"old\":\"partial\",\
         \"new\":\"full\",\"old_line\":null,\"new_line\":null}\n\
         {\"agent\":\"GPTBot\",\"change\":\"removed\",\
         \"old\":\"Disallow: /private/\",\"new\":null,\"old_line\":2,\
         \"new_line\":null}\n\
         {\"agent\":\"GPTBot\",\"change\":\"added\",\"old\":null,\
         \"new\":\"Disallow: /\",\"old_line\":null,\"new_line\":6}\n",
            out
        );
        // Every AI crawler: GPTBot changed, all the others in one entry.
        let (out, _) = run(
            dir.command()
                .args(["diff", "--agents", "ai", "old.txt", "new.txt"]),
            0,
        );
        let entries: Vec<&str> =
            out.lines().filter(|l| !l.starts_with(' ')).collect();
        assert_eq!(entries.len(), 2, "{out}");
        let others = entries
            .iter()
            .find_map(|e| {
                e.strip_suffix(": unchanged (group *, scope partial)")
            })
            .unwrap_or_else(|| panic!("{out}"));
        let tokens = dir.command().args(["agents"]).stdout();
        let mut want: Vec<&str> = tokens
            .lines()
            .skip(1)
            .filter_map(|l| l.split(',').nth(1))
            .filter(|t| !t.is_empty() && *t != "GPTBot")
            .collect();
        // Agents are judged once, whatever their case.
        let mut seen = std::collections::HashSet::new();
        want.retain(|t| seen.insert(t.to_ascii_lowercase()));
        assert_eq!(others.split(", ").collect::<Vec<_>>(), want);
        assert!(entries.contains(&"GPTBot: changed"), "{out}");
    }
);

// Rules that only moved, or were only respelled, are no change, and no
// URL changes its verdict: only the count says the URLs were read.
rbtest!(diff_moved_rules_are_no_change, |dir: Dir, mut cmd: TestCommand| {
    dir.create("old.txt", "User-agent: *\nDisallow: /a\nAllow: /a/b\n");
    dir.create(
        "new.txt",
        "# reordered\nUser-agent: *\nallow:/a/b # press\n\nDisallow: /a\n",
    );
    dir.create("urls.txt", "/a\n/a/b\n/c\n");
    let (out, err) = run(
        cmd.args(["diff", "--exit-code", "old.txt", "new.txt", "urls.txt"]),
        0,
    );
    eqnice!("*: unchanged (group *, scope partial)\n", out);
    eqnice!(
        "robots-batch: 0 of 3 URLs change verdict for 0 of 1 agent\n",
        err
    );
    // In the 1996 draft the first matching rule wins: the same rules in
    // another order are a change there, and /a/b changes its verdict (an
    // empty line would end the record).
    dir.create(
        "new1996.txt",
        "User-agent: *\nallow:/a/b # press\nDisallow: /a\n",
    );
    let (out, err) = run(
        dir.command()
            .args(["diff", "--dialect", "draft1996", "old.txt"])
            .args(["new1996.txt", "urls.txt"]),
        0,
    );
    eqnice!(
        "*: changed\n  \
           group: * (unchanged)\n  \
           scope: partial (unchanged)\n  \
           reordered: the rules both keep come in another order, and the \
         first that matches decides\n\
         \n\
         /a/b: disallowed -> allowed for *\n  \
           old.txt:2: Disallow: /a; group *\n  \
           new1996.txt:2: allow:/a/b # press; group *\n",
        out
    );
    eqnice!(
        "robots-batch: 1 of 3 URLs changes verdict for 1 of 1 agent\n\
         robots-batch: *: 0 allowed -> disallowed, 1 disallowed -> allowed\n",
        err
    );
});

// URLs from standard input, compressed; a file with no group and one
// with a group for every agent.
rbtest!(diff_urls_from_stdin_gzip, |dir: Dir, mut cmd: TestCommand| {
    dir.create("old.txt", "# nothing yet\n");
    dir.create("new.txt", "User-agent: *\nDisallow: /\n");
    let mut gz = flate2::write::GzEncoder::new(vec![], Default::default());
    std::io::Write::write_all(&mut gz, b"/x\n/robots.txt\n").unwrap();
    let gz = gz.finish().unwrap();
    let (out, err) = run(
        cmd.args(["diff", "--format", "csv", "--no-header", "old.txt"])
            .args(["new.txt", "-"])
            .stdin(&gz),
        0,
    );
    // RFC 9309 always allows /robots.txt: only /x changes.
    eqnice!("/x,*,allowed,disallowed,,,,no-group,2,Disallow: /,*,rule\n", out);
    eqnice!(
        "robots-batch: 1 of 2 URLs changes verdict for 1 of 1 agent\n\
         robots-batch: *: 1 allowed -> disallowed, 0 disallowed -> allowed\n",
        err
    );
    let (out, _) = run(dir.command().args(["diff", "old.txt", "new.txt"]), 0);
    eqnice!(
        "*: changed\n  \
           group: none -> * (new.txt:1)\n  \
           scope: none -> full\n  \
           + new.txt:2: Disallow: /\n",
        out
    );
});

rbtest!(diff_bad_input_is_an_error, |dir: Dir, _: TestCommand| {
    both_ways(&dir);
    dir.create("records.jsonl", "{\"url\": \"https://e.com/\"}\n");
    dir.create_dir("sub");
    let err =
        |args: &[&str]| dir.command().arg("diff").args(args).assert_error();
    eqnice!(
        "robots-batch: records.jsonl looks like jsonl records; diff reads one \
         URL per line: take the URLs out first (JSON Lines: `jq -r .url`)",
        err(&["old.txt", "new.txt", "records.jsonl"])
    );
    eqnice!(
        "robots-batch: failed to read sub: is a directory",
        err(&["old.txt", "new.txt", "sub"])
    );
    eqnice!(
        "robots-batch: only one of OLD, NEW, URLS and --agents-file can be \
         standard input (-)",
        err(&["-", "new.txt", "-"])
    );
    let missing = err(&["old.txt", "missing.txt"]);
    assert!(
        missing.starts_with("robots-batch: failed to open missing.txt"),
        "{missing}"
    );
    let usage = err(&["old.txt"]);
    assert!(usage.contains("<NEW>"), "{usage}");
});

/// The verdicts of the default command on each file, by URL and agent.
fn verdicts(
    dir: &Dir,
    robots: &str,
    agents: &str,
) -> BTreeMap<(String, String), String> {
    let out = dir
        .command()
        .args(["--layout", "long", "-a", agents, robots, "urls.txt"])
        .stdout();
    let mut rdr = csv::Reader::from_reader(out.as_bytes());
    rdr.records()
        .map(|r| {
            let r = r.unwrap();
            ((r[0].to_string(), r[1].to_string()), r[2].to_string())
        })
        .collect()
}

/// Real sites' robots.txt of 2019 and 2024: the URLs that diff lists are
/// exactly those the default command judges otherwise on the two files,
/// with those verdicts, in input order; the count on standard error
/// agrees.
#[test]
fn diff_of_real_files_agrees_with_the_default_command() {
    let robots = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/datasets/robots");
    if !robots.is_dir() {
        crate::util::skip(
            "diff_of_real_files_agrees_with_the_default_command",
            "../shared/datasets/robots is absent",
        );
        return;
    }
    let agents = "*,Googlebot,GPTBot,CCBot,bingbot";
    for (old, new, host) in [
        ("amazon.com--au.txt", "amazon.com.txt", "https://www.amazon.com"),
        ("archive.org--ab.txt", "archive.org.txt", "https://archive.org"),
        ("arxiv.org--ab.txt", "arxiv.org.txt", "https://arxiv.org"),
    ] {
        let dir = Dir::new("diff_of_real_files");
        let (old_body, new_body) = (
            std::fs::read(robots.join(old)).unwrap(),
            std::fs::read(robots.join(new)).unwrap(),
        );
        dir.create("old.txt", &old_body);
        dir.create("new.txt", &new_body);
        // A URL for every pattern of either file, and one past it: each
        // rule's own paths, where verdicts change if anywhere.
        let mut urls = String::from("/\n");
        for body in [&old_body, &new_body] {
            for line in String::from_utf8_lossy(body).lines() {
                let Some((_, value)) = line.split_once(':') else { continue };
                let value = value.split('#').next().unwrap().trim();
                let path: String =
                    value.chars().filter(|&c| c != '*' && c != '$').collect();
                if path.starts_with('/') && !path.contains(',') {
                    urls += &format!("{host}{path}\n{host}{path}x/y\n");
                }
            }
        }
        dir.create("urls.txt", &urls);
        let (before, after) = (
            verdicts(&dir, "old.txt", agents),
            verdicts(&dir, "new.txt", agents),
        );
        assert_eq!(before.len(), after.len());
        let mut want: Vec<(String, String, String, String)> = vec![];
        // In input order, agents in order, as diff lists them.
        let order: Vec<&str> = agents.split(',').collect();
        for url in urls.lines() {
            for agent in &order {
                let key = (url.to_string(), agent.to_string());
                let (o, n) = (&before[&key], &after[&key]);
                if o != n {
                    want.push((key.0, key.1, o.clone(), n.clone()));
                }
            }
        }
        let out = dir
            .command()
            .args(["diff", "--format", "csv", "-a", agents])
            .args(["old.txt", "new.txt", "urls.txt"])
            .output();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut rdr = csv::Reader::from_reader(&out.stdout[..]);
        let got: Vec<(String, String, String, String)> = rdr
            .records()
            .map(|r| {
                let r = r.unwrap();
                (
                    r[0].to_string(),
                    r[1].to_string(),
                    r[2].to_string(),
                    r[3].to_string(),
                )
            })
            .collect();
        assert!(!want.is_empty(), "{old}: no URL changes its verdict");
        assert_eq!(got, want, "{old} -> {new}");
        // Lines, not distinct URLs, are counted: a pattern in both files
        // gave its URLs twice.
        let changed = urls
            .lines()
            .filter(|url| {
                order.iter().any(|a| {
                    let key = (url.to_string(), a.to_string());
                    before[&key] != after[&key]
                })
            })
            .count();
        let stderr = String::from_utf8(out.stderr).unwrap();
        let lines = urls.lines().count();
        let count = format!("robots-batch: {changed} of {lines} URLs ");
        assert!(stderr.starts_with(&count), "{count}: {stderr}");
    }
}

rbtest!(
    diff_many_sites_between_two_dates,
    |dir: Dir, mut cmd: TestCommand| {
        // a.com blocks GPTBot from June; b.com lifts its block; c.com is first
        // captured in March; d.com never changes.
        for (month, files) in [
            (
                "2024-01-01=jan",
                vec![
                    ("a.com", "User-agent: *\nDisallow: /tmp/\n"),
                    ("b.com", "User-agent: *\nDisallow: /\n"),
                    ("d.com", "User-agent: *\nDisallow: /x\n"),
                ],
            ),
            ("2024-03-01=mar", vec![("c.com", "User-agent: *\nAllow: /\n")]),
            (
                "2024-06-01=jun",
                vec![
                    ("a.com", "User-agent: GPTBot\nDisallow: /\n"),
                    ("b.com", "User-agent: *\nDisallow:\n"),
                    ("d.com", "User-agent: *\nDisallow: /x\n"),
                ],
            ),
        ] {
            let name = month.split('=').nth(1).unwrap();
            dir.create_dir(name);
            for (host, body) in files {
                dir.create(format!("{name}/{host}.txt"), body);
            }
        }
        let dirs = [
            "--robots-dir",
            "2024-01-01=jan",
            "--robots-dir",
            "2024-03-01=mar",
            "--robots-dir",
            "2024-06-01=jun",
        ];
        let out = cmd
            .arg("diff")
            .args(dirs)
            .args(["--as-of", "2024-02-01", "--as-of", "2024-07-01"])
            .args(["-a", "GPTBot,CCBot", "--format", "csv"])
            .output();
        eqnice!(
            "site,agent,old,new,old_capture,new_capture\n\
         a.com,GPTBot,partial,full,2024-01-01T00:00:00Z,2024-06-01T00:00:00Z\n\
         a.com,CCBot,partial,none,2024-01-01T00:00:00Z,2024-06-01T00:00:00Z\n\
         b.com,GPTBot,full,none,2024-01-01T00:00:00Z,2024-06-01T00:00:00Z\n\
         b.com,CCBot,full,none,2024-01-01T00:00:00Z,2024-06-01T00:00:00Z\n\
         c.com,GPTBot,-,none,,2024-03-01T00:00:00Z\n\
         c.com,CCBot,-,none,,2024-03-01T00:00:00Z\n",
            String::from_utf8(out.stdout).unwrap()
        );
        eqnice!(
            "robots-batch: 3 of 4 sites change scope between \
         2024-02-01T23:59:59Z and 2024-07-01T23:59:59Z (6 rows)\n",
            String::from_utf8(out.stderr).unwrap()
        );
        // The other way round, every change reverses.
        let back = dir
            .command()
            .arg("diff")
            .args(dirs)
            .args(["--as-of", "2024-07-01", "--as-of", "2024-02-01"])
            .args(["-a", "GPTBot", "--no-header", "--format", "csv"])
            .output()
            .stdout;
        eqnice!(
        "a.com,GPTBot,full,partial,2024-06-01T00:00:00Z,2024-01-01T00:00:00Z\n\
         b.com,GPTBot,none,full,2024-06-01T00:00:00Z,2024-01-01T00:00:00Z\n\
         c.com,GPTBot,none,-,2024-03-01T00:00:00Z,\n",
        back
    );
        let err = dir
            .command()
            .arg("diff")
            .args(dirs)
            .args(["--as-of", "2024-07-01"])
            .assert_error();
        assert!(err.contains("needs two dates"), "{err}");
    }
);

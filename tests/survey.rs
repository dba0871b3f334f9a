//! `robots-batch survey`: one row per site and agent, the scope of what
//! each robots.txt disallows, summaries, and directories with entries that
//! cannot be used.

use crate::util::{Dir, TestCommand};

/// Four sites by directory, three by index (a 503, a 404, a redirect to a
/// site of the directory).
fn sites(dir: &Dir) {
    dir.create_dir("robots");
    dir.create(
        "robots/a.com.txt",
        "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n",
    );
    dir.create(
        "robots/b.com.txt",
        "User-agent: *\nDisallow: /\nAllow: /public\n",
    );
    dir.create("robots/c.com.txt", "User-agent: *\nDisallow: /*\n");
    dir.create("robots/d.com.txt", "# nothing\n");
    dir.create(
        "index.jsonl",
        "{\"url\": \"https://e.com/robots.txt\", \"status\": 503}\n\
         {\"url\": \"https://f.com/robots.txt\", \"status\": 404}\n\
         {\"url\": \"https://g.com/robots.txt\", \"status\": 301, \
           \"location\": \"http://c.com/robots.txt\"}\n",
    );
}

rbtest!(survey_rows, |dir: Dir, mut cmd: TestCommand| {
    sites(&dir);
    let got = cmd
        .args(["survey", "--robots-dir", "robots", "--robots-index"])
        .args(["index.jsonl", "-a", "GPTBot,CCBot"])
        .stdout();
    eqnice!(
        "site,agent,fetch,group,scope,rules,note\n\
         a.com,GPTBot,ok,named,full,1,\n\
         a.com,CCBot,ok,star,partial,1,\n\
         b.com,GPTBot,ok,star,partial,2,\n\
         b.com,CCBot,ok,star,partial,2,\n\
         c.com,GPTBot,ok,star,full,1,\n\
         c.com,CCBot,ok,star,full,1,\n\
         d.com,GPTBot,ok,none,none,0,\n\
         d.com,CCBot,ok,none,none,0,\n\
         https://e.com,GPTBot,status-5xx,none,full,0,\n\
         https://e.com,CCBot,status-5xx,none,full,0,\n\
         https://f.com,GPTBot,status-4xx,none,none,0,\n\
         https://f.com,CCBot,status-4xx,none,none,0,\n\
         https://g.com,GPTBot,ok,star,full,1,\n\
         https://g.com,CCBot,ok,star,full,1,\n",
        got
    );
    // The fetch policy is crawl's: a 5xx may count as allowed.
    let got = dir
        .command()
        .args(["survey", "--robots-index", "index.jsonl", "--on-5xx"])
        .args(["allow", "--no-header", "--format", "jsonl"])
        .stdout();
    eqnice!(
        "{\"site\":\"https://e.com\",\"agent\":\"*\",\"fetch\":\"status-5xx\",\
         \"group\":\"none\",\"scope\":\"none\",\"rules\":0,\"note\":null}\n\
         {\"site\":\"https://f.com\",\"agent\":\"*\",\"fetch\":\"status-4xx\",\
         \"group\":\"none\",\"scope\":\"none\",\"rules\":0,\"note\":null}\n\
         {\"site\":\"https://g.com\",\"agent\":\"*\",\"fetch\":\"redirect-missing\",\
         \"group\":\"none\",\"scope\":\"none\",\"rules\":0,\"note\":null}\n",
        got
    );
});

rbtest!(survey_summary, |dir: Dir, mut cmd: TestCommand| {
    sites(&dir);
    let got = cmd
        .args(["survey", "--robots-dir", "robots", "--robots-index"])
        .args(["index.jsonl", "-a", "GPTBot,CCBot", "--summary"])
        .args(["--format", "tsv"])
        .stdout();
    eqnice!(
        "agent\tgroup\tsites\tfull\tpartial\tnone\tunknown\n\
         GPTBot\tall\t7\t4\t1\t2\t0\n\
         GPTBot\tnamed\t1\t1\t0\t0\t0\n\
         GPTBot\tstar\t3\t2\t1\t0\t0\n\
         GPTBot\tnone\t3\t1\t0\t2\t0\n\
         CCBot\tall\t7\t3\t2\t2\t0\n\
         CCBot\tnamed\t0\t0\t0\t0\t0\n\
         CCBot\tstar\t4\t2\t2\t0\t0\n\
         CCBot\tnone\t3\t1\t0\t2\t0\n",
        got
    );
});

rbtest!(survey_dialects_differ, |dir: Dir, mut cmd: TestCommand| {
    dir.create_dir("robots");
    // Only /robots.txt: RFC 9309 always allows it, Google does not.
    dir.create("robots/a.com.txt", "User-agent: *\nDisallow: /robots.txt$\n");
    // The older standards have no wildcards.
    dir.create("robots/b.com.txt", "User-agent: *\nDisallow: /*\n");
    let run = |cmd: &mut TestCommand, dialect: &str| {
        cmd.args(["survey", "--robots-dir", "robots", "--no-header"])
            .args(["--dialect", dialect])
            .stdout()
    };
    eqnice!(
        "a.com,*,ok,star,none,1,\nb.com,*,ok,star,full,1,\n",
        run(&mut cmd, "rfc9309")
    );
    eqnice!(
        "a.com,*,ok,star,partial,1,\nb.com,*,ok,star,full,1,\n",
        run(&mut dir.command(), "google")
    );
    eqnice!(
        "a.com,*,ok,star,partial,1,\nb.com,*,ok,star,partial,1,\n",
        run(&mut dir.command(), "orig1994")
    );
});

rbtest!(survey_skips_what_it_cannot_use, |dir: Dir, mut cmd: TestCommand| {
    use std::os::unix::ffi::OsStrExt;
    dir.create_dir("robots");
    dir.create("robots/a.com.txt", "User-agent: *\nDisallow: /\n");
    dir.create_dir("robots/sub.txt");
    dir.create("robots/README", "not a robots.txt\n");
    let odd = std::ffi::OsStr::from_bytes(b"robots/\xff.txt");
    dir.create(odd, "User-agent: *\nDisallow: /\n");
    // A file that opens but cannot be read, even by root: reading the
    // start of a process's memory fails.
    let unreadable = std::path::Path::new("/proc/self/mem").exists();
    if unreadable {
        std::os::unix::fs::symlink(
            "/proc/self/mem",
            dir.path().join("robots/m.com.txt"),
        )
        .unwrap();
    }
    let out =
        cmd.args(["survey", "--robots-dir", "robots", "--no-header"]).output();
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut lines: Vec<&str> = stderr.lines().collect();
    lines.sort_unstable();
    let mut want = vec![
        "robots-batch: robots/README: skipped: not a <host>.txt file"
            .to_string(),
        "robots-batch: robots/sub.txt: skipped: not a file".to_string(),
        "robots-batch: robots/\u{FFFD}.txt: skipped: the name is not UTF-8"
            .to_string(),
    ];
    let mut rows = "a.com,*,ok,star,full,1,\n".to_string();
    if unreadable {
        want.push("robots-batch: robots/m.com.txt: cannot read: ".into());
        rows.push_str("m.com,*,unreadable,none,unknown,0,\n");
    }
    want.sort_unstable();
    assert_eq!(lines.len(), want.len(), "{stderr}");
    for (line, want) in lines.iter().zip(&want) {
        assert!(line.starts_with(want.as_str()), "{line:?} is not {want:?}");
    }
    eqnice!(rows, String::from_utf8(out.stdout).unwrap());
});

rbtest!(survey_agents_ai_over_the_corpus, |_: Dir, mut cmd: TestCommand| {
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/datasets/robots");
    if !corpus.is_dir() {
        crate::util::skip(
            "survey_agents_ai_over_the_corpus",
            &format!("{} is absent", corpus.display()),
        );
        return;
    }
    let files = std::fs::read_dir(&corpus).unwrap().count() as u64;
    let got = cmd
        .args(["survey", "--robots-dir"])
        .arg(&corpus)
        .args(["--agents", "ai", "--summary", "--format", "jsonl"])
        .stdout();
    let tokens = robots_batch::agents::ai_agent_tokens(None).unwrap();
    let rows: Vec<serde_json::Value> =
        got.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), tokens.len() * 4);
    for (row, token) in rows.chunks(4).zip(&tokens) {
        assert_eq!(row[0]["agent"], *token);
        assert_eq!(row[0]["group"], "all");
        let n = |r: &serde_json::Value, k: &str| r[k].as_u64().unwrap();
        assert_eq!(n(&row[0], "sites"), files);
        // Every scope was decided, and the group kinds add up.
        assert_eq!(n(&row[0], "unknown"), 0);
        let by_group: u64 = row[1..].iter().map(|r| n(r, "sites")).sum();
        assert_eq!(by_group, files);
        for k in ["full", "partial", "none"] {
            let sum: u64 = row[1..].iter().map(|r| n(r, k)).sum();
            assert_eq!(sum, n(&row[0], k), "{token} {k}");
        }
    }
});

/// Files whose usage preferences at `/` differ for GPTBot, CCBot and an
/// agent no group names.
const USAGE_SITES: &[(&str, &str)] = &[
    // A signal in the `*` group, the agent's own Content-Usage.
    (
        "a.com",
        "User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n\
         Disallow: /cart/\n\nUser-agent: GPTBot\n\
         Content-Usage: train-ai=n, search=y\nDisallow: /private/\n",
    ),
    // `/` may not be fetched: no preferences.
    ("b.com", "User-agent: *\nDisallow: /\nContent-Usage: train-ai=y\n"),
    // The longest path that matches `/` decides, alone: `/*` (two bytes)
    // over `/`, which leaves train-ai unknown; `/x` does not match.
    (
        "c.com",
        "User-agent: GPTBot\nContent-Usage: / train-ai=y\n\
         Content-Usage: /x train-ai=n\nContent-Usage: /* search=n\n",
    ),
    // A signal before any group holds for every agent; the most
    // restrictive of it and the group's line wins.
    (
        "d.com",
        "Content-Signal: ai-input=no, search=yes\n\nUser-agent: *\n\
         Content-Usage: train-ai=y, search=n\nDisallow: /$\nAllow: /$\n",
    ),
    // A dictionary that does not parse: unknown.
    ("e.com", "User-agent: *\nContent-Usage: Train-AI=n\n"),
    // Disallowed for GPTBot only, allowed for the others.
    ("f.com", "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nContent-Usage: train-ai=n\n"),
];

rbtest!(survey_usage_at_root, |dir: Dir, mut cmd: TestCommand| {
    dir.create_dir("robots");
    for (host, body) in USAGE_SITES {
        dir.create(format!("robots/{host}.txt"), body);
    }
    dir.create(
        "index.jsonl",
        "{\"url\": \"https://g.com/robots.txt\", \"status\": 503}\n\
         {\"url\": \"https://h.com/robots.txt\", \"status\": 404}\n",
    );
    let got = cmd
        .args(["survey", "--usage", "--robots-dir", "robots"])
        .args(["--robots-index", "index.jsonl", "-a", "GPTBot,CCBot"])
        .stdout();
    eqnice!(
        "site,agent,fetch,group,scope,rules,train-ai,search,ai-input,note\n\
         a.com,GPTBot,ok,named,partial,1,disallowed,allowed,unknown,\n\
         a.com,CCBot,ok,star,partial,2,disallowed,allowed,unknown,\n\
         b.com,GPTBot,ok,star,full,1,,,,\n\
         b.com,CCBot,ok,star,full,1,,,,\n\
         c.com,GPTBot,ok,named,none,0,unknown,disallowed,unknown,\n\
         c.com,CCBot,ok,none,none,0,unknown,unknown,unknown,\n\
         d.com,GPTBot,ok,star,none,2,allowed,disallowed,disallowed,\n\
         d.com,CCBot,ok,star,none,2,allowed,disallowed,disallowed,\n\
         e.com,GPTBot,ok,star,none,0,unknown,unknown,unknown,\n\
         e.com,CCBot,ok,star,none,0,unknown,unknown,unknown,\n\
         f.com,GPTBot,ok,named,full,1,,,,\n\
         f.com,CCBot,ok,star,none,0,disallowed,unknown,unknown,\n\
         https://g.com,GPTBot,status-5xx,none,full,0,,,,\n\
         https://g.com,CCBot,status-5xx,none,full,0,,,,\n\
         https://h.com,GPTBot,status-4xx,none,none,0,unknown,unknown,unknown,\n\
         https://h.com,CCBot,status-4xx,none,none,0,unknown,unknown,unknown,\n",
        got
    );
    let got = dir
        .command()
        .args(["survey", "--usage", "--summary", "--robots-dir", "robots"])
        .args(["-a", "CCBot"])
        .stdout();
    eqnice!(
        "agent,group,sites,full,partial,none,unknown,train-ai-allowed,\
         train-ai-disallowed,search-allowed,search-disallowed,\
         ai-input-allowed,ai-input-disallowed\n\
         CCBot,all,6,1,1,4,0,1,2,1,1,0,1\n\
         CCBot,named,0,0,0,0,0,0,0,0,0,0,0\n\
         CCBot,star,5,1,1,3,0,1,2,1,1,0,1\n\
         CCBot,none,1,0,0,1,0,0,0,0,0,0,0\n",
        got
    );
    // Without a header, in JSON Lines: no preference is null.
    let got = dir
        .command()
        .args(["survey", "--usage", "--robots-dir", "robots", "-a"])
        .args(["GPTBot", "--format", "jsonl"])
        .stdout();
    assert!(got.lines().nth(1).unwrap().ends_with(
        "\"train-ai\":null,\"search\":null,\"ai-input\":null,\"note\":null}"
    ));
});

// The survey's preferences at `/` are the default command's for the URL
// of the site's `/`, in every dialect.
rbtest!(survey_usage_is_the_commands, |dir: Dir, _: TestCommand| {
    dir.create_dir("robots");
    for (host, body) in USAGE_SITES {
        dir.create(format!("robots/{host}.txt"), body);
    }
    let agents = "GPTBot,CCBot,OtherBot";
    for dialect in ["rfc9309", "google", "draft1996", "orig1994"] {
        let survey = dir
            .command()
            .args(["survey", "--usage", "--robots-dir", "robots"])
            .args(["--no-header", "--dialect", dialect, "-a", agents])
            .stdout();
        let mut want = String::new();
        for (host, _) in USAGE_SITES {
            dir.create("url.txt", format!("http://{host}/\n"));
            let rows = dir
                .command()
                .args(["--usage", "--layout", "long", "--no-header"])
                .args(["--dialect", dialect, "-a", agents])
                .arg(format!("robots/{host}.txt"))
                .arg("url.txt")
                .stdout();
            for row in rows.lines() {
                // url,agent,verdict,train-ai,search,ai-input
                let f: Vec<&str> = row.split(',').collect();
                want.push_str(&format!("{},{},{}\n", f[3], f[4], f[5]));
            }
        }
        let got: String = survey
            .lines()
            .map(|row| {
                let f: Vec<&str> = row.split(',').collect();
                format!("{},{},{}\n", f[6], f[7], f[8])
            })
            .collect();
        assert_eq!(want, got, "dialect {dialect}");
    }
});

/// `Disallow: /` and `n` allows such as `Allow: /*c*d*x$`, each after the
/// longer `Disallow: /*c*d*x*$`, which matches wherever it does.
fn beaten_allows(n: usize) -> String {
    let letters = b"abcdefghijklmnopqrstuvwxyz";
    let mut out = "User-agent: *\nDisallow: /\n".to_string();
    let triples = (0..26 * 26 * 26)
        .map(|i: usize| [i % 26, (i / 26 * 7) % 26, (i / 676 * 11 + 3) % 26])
        .filter(|t| t[0] != t[1] && t[1] != t[2] && t[0] != t[2]);
    for t in triples.take(n) {
        let [c, d, x] = t.map(|i| letters[i] as char);
        out.push_str(&format!(
            "Allow: /*{c}*{d}*{x}$\nDisallow: /*{c}*{d}*{x}*$\n"
        ));
    }
    out
}

// Each allow is dead on its own, but together they made the proof's
// product of automata exponential: `unknown` after 100,000 states.
rbtest!(survey_beaten_wildcard_allows, |dir: Dir, mut cmd: TestCommand| {
    dir.create_dir("robots");
    dir.create("robots/a.com.txt", beaten_allows(10));
    dir.create("robots/b.com.txt", beaten_allows(265));
    let out = cmd.args(["survey", "--robots-dir", "robots"]).output();
    assert!(out.status.success() && out.stderr.is_empty(), "{out:?}");
    eqnice!(
        "site,agent,fetch,group,scope,rules,note\n\
         a.com,*,ok,star,full,21,\n\
         b.com,*,ok,star,full,531,\n",
        String::from_utf8(out.stdout).unwrap()
    );
});

// `survey FILE...`: robots.txt files given by name, each the site its name
// gives (`<host>.txt`, else the name as it is), beside the other sources;
// nothing at all to survey is an error.
rbtest!(survey_files_given_by_name, |dir: Dir, _: TestCommand| {
    dir.create("all.txt", "User-agent: *\nDisallow: /\n");
    dir.create_dir("robots");
    dir.create("robots/a.example.txt", "User-agent: *\nAllow: /\n");
    let got = dir
        .command()
        .args(["survey", "-a", "GPTBot", "all.txt", "robots.txt"])
        .args(["--robots-dir", "robots"])
        .stdout();
    eqnice!(
        "site,agent,fetch,group,scope,rules,note\n\
         a.example,GPTBot,ok,star,none,1,\n\
         all.txt,GPTBot,ok,star,full,1,\n\
         robots.txt,GPTBot,ok,named,partial,2,\n",
        got
    );
    let err = dir.command().args(["survey", "-a", "GPTBot"]).assert_error();
    assert!(err.contains("nothing to survey"), "{err}");
    let err = dir.command().args(["survey", "nope.txt"]).assert_error();
    assert!(err.contains("nope.txt"), "{err}");
});

/// Four sites on which the classifiers differ, and a 503.
fn classify_sites(dir: &Dir) {
    dir.create_dir("robots");
    // `/*` is full, but not the text `/` the studies look for.
    dir.create("robots/a.com.txt", "User-agent: *\nDisallow: /*\n");
    // dpi leaves out the allow with a `?`: all.
    dir.create(
        "robots/b.com.txt",
        "User-agent: *\nDisallow: /\nAllow: /?page\n",
    );
    // After the file's first rule, both studies give a group's rules to
    // its last User-agent line only: not GPTBot's.
    dir.create(
        "robots/c.com.txt",
        "User-agent: a\nDisallow: /x\n\nUser-agent: GPTBot\nUser-agent: b\n\
         Disallow: /\n",
    );
    // No rule at all: Common Crawl does not count the site.
    dir.create("robots/d.com.txt", "# nothing\n");
    dir.create(
        "index.jsonl",
        "{\"url\": \"https://e.com/robots.txt\", \"status\": 503}\n",
    );
}

rbtest!(survey_classify_rows, |dir: Dir, mut cmd: TestCommand| {
    classify_sites(&dir);
    let run = |cmd: &mut TestCommand, classify: &str| {
        cmd.args(["survey", "--robots-dir", "robots", "--robots-index"])
            .args(["index.jsonl", "-a", "GPTBot,CCBot", "--classify"])
            .arg(classify)
            .stdout()
    };
    eqnice!(
        "site,agent,fetch,group,scope,rules,note\n\
         a.com,GPTBot,ok,star,full,1,\n\
         a.com,CCBot,ok,star,full,1,\n\
         b.com,GPTBot,ok,star,partial,2,\n\
         b.com,CCBot,ok,star,partial,2,\n\
         c.com,GPTBot,ok,named,full,1,\n\
         c.com,CCBot,ok,none,none,0,\n\
         d.com,GPTBot,ok,none,none,0,\n\
         d.com,CCBot,ok,none,none,0,\n\
         https://e.com,GPTBot,status-5xx,none,full,0,\n\
         https://e.com,CCBot,status-5xx,none,full,0,\n",
        run(&mut cmd, "exact")
    );
    eqnice!(
        "site,agent,fetch,group,scope,rules,exact-scope,note\n\
         a.com,GPTBot,ok,star,partial,1,full,\n\
         a.com,CCBot,ok,star,partial,1,full,\n\
         b.com,GPTBot,ok,star,partial,2,partial,\n\
         b.com,CCBot,ok,star,partial,2,partial,\n\
         c.com,GPTBot,ok,none,none,0,full,\n\
         c.com,CCBot,ok,none,none,0,none,\n\
         d.com,GPTBot,ok,none,unknown,0,none,\n\
         d.com,CCBot,ok,none,unknown,0,none,\n\
         https://e.com,GPTBot,status-5xx,none,full,0,full,\n\
         https://e.com,CCBot,status-5xx,none,full,0,full,\n",
        run(&mut dir.command(), "cc-disallow-all")
    );
    eqnice!(
        "site,agent,fetch,group,scope,rules,exact-scope,note\n\
         a.com,GPTBot,ok,star,partial,1,full,\n\
         a.com,CCBot,ok,star,partial,1,full,\n\
         b.com,GPTBot,ok,star,full,2,partial,\n\
         b.com,CCBot,ok,star,full,2,partial,\n\
         c.com,GPTBot,ok,named,none,0,full,\n\
         c.com,CCBot,ok,none,none,0,none,\n\
         d.com,GPTBot,ok,none,none,0,none,\n\
         d.com,CCBot,ok,none,none,0,none,\n\
         https://e.com,GPTBot,status-5xx,none,full,0,full,\n\
         https://e.com,CCBot,status-5xx,none,full,0,full,\n",
        run(&mut dir.command(), "dpi")
    );
    // With --usage, the exact scope goes after the preferences.
    let got = dir
        .command()
        .args(["survey", "robots/a.com.txt", "--usage", "--classify"])
        .args(["dpi", "--format", "tsv"])
        .stdout();
    eqnice!(
        "site\tagent\tfetch\tgroup\tscope\trules\ttrain-ai\tsearch\t\
         ai-input\texact-scope\tnote\n\
         a.com\t*\tok\tstar\tpartial\t1\t\t\t\tfull\t\n",
        got
    );
    let err = dir
        .command()
        .args(["survey", "robots/a.com.txt", "--classify", "cc"])
        .assert_error();
    assert!(
        err.contains("expected one of: exact, cc-disallow-all, dpi"),
        "{err}"
    );
});

rbtest!(survey_classify_summary, |dir: Dir, mut cmd: TestCommand| {
    classify_sites(&dir);
    let got = cmd
        .args(["survey", "--robots-dir", "robots", "--robots-index"])
        .args(["index.jsonl", "-a", "GPTBot,CCBot", "--summary"])
        .args(["--classify", "dpi"])
        .stdout();
    eqnice!(
        "agent,group,sites,full,partial,none,unknown,differs\n\
         GPTBot,all,5,2,1,2,0,3\n\
         GPTBot,named,1,0,0,1,0,1\n\
         GPTBot,star,2,1,1,0,0,2\n\
         GPTBot,none,2,1,0,1,0,0\n\
         CCBot,all,5,2,1,2,0,2\n\
         CCBot,named,0,0,0,0,0,0\n\
         CCBot,star,2,1,1,0,0,2\n\
         CCBot,none,3,1,0,2,0,0\n",
        got
    );
});

/// The `all` rows of a survey summary of the corpus for GPTBot, CCBot,
/// Googlebot and `*`, by classifier: docs/SURVEY.md gives them.
const CORPUS_COUNTS: [(&str, &str); 3] = [
    (
        "exact",
        "GPTBot,all,2680,194,2248,238,0\n\
         CCBot,all,2680,176,2264,240,0\n\
         Googlebot,all,2680,16,2396,268,0\n\
         *,all,2680,75,2354,251,0\n",
    ),
    (
        "cc-disallow-all",
        "GPTBot,all,2680,177,2270,171,62,89\n\
         CCBot,all,2680,161,2284,173,62,87\n\
         Googlebot,all,2680,16,2420,182,62,102\n\
         *,all,2680,66,2368,184,62,80\n",
    ),
    (
        "dpi",
        "GPTBot,all,2680,189,2220,271,0,40\n\
         CCBot,all,2680,170,2232,278,0,44\n\
         Googlebot,all,2680,16,2349,315,0,53\n\
         *,all,2680,75,2322,283,0,38\n",
    ),
];

// Over the corpus: each classifier's counts as the docs give them, its
// `exact-scope` column the exact survey's scope, `differs` the rows where
// the two differ, and what holds by each study's construction.
rbtest!(survey_classify_over_the_corpus, |dir: Dir, _: TestCommand| {
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/datasets/robots");
    if !corpus.is_dir() {
        crate::util::skip(
            "survey_classify_over_the_corpus",
            &format!("{} is absent", corpus.display()),
        );
        return;
    }
    let agents = "GPTBot,CCBot,Googlebot,*";
    let survey = |extra: &[&str]| {
        dir.command()
            .args(["survey", "--robots-dir"])
            .arg(&corpus)
            .args(["-a", agents, "--no-header"])
            .args(extra)
            .stdout()
    };
    let exact: Vec<String> = survey(&[])
        .lines()
        .map(|row| row.split(',').take(5).collect::<Vec<_>>().join(","))
        .collect();
    for (classify, want) in CORPUS_COUNTS {
        let summary = survey(&["--classify", classify, "--summary"]);
        let all: String = summary
            .lines()
            .filter(|row| row.split(',').nth(1) == Some("all"))
            .map(|row| format!("{row}\n"))
            .collect();
        assert_eq!(want, all, "{classify}");
        if classify == "exact" {
            continue;
        }
        let rows = survey(&["--classify", classify]);
        let rows: Vec<Vec<&str>> =
            rows.lines().map(|r| r.split(',').collect()).collect();
        assert_eq!(rows.len(), exact.len());
        let mut differs = 0;
        for (row, exact) in rows.iter().zip(&exact) {
            // site,agent,fetch,group,scope,rules,exact-scope,note
            let (scope, rules, exact_scope) = (row[4], row[5], row[6]);
            assert_eq!(exact.rsplit(',').next(), Some(exact_scope));
            assert!(exact.starts_with(&row[..3].join(",")), "{row:?}");
            differs += usize::from(scope != exact_scope);
            match classify {
                // Exactly one `Disallow: /`; a file without any rule is
                // not counted.
                "cc-disallow-all" => {
                    assert!(scope != "full" || rules == "1", "{row:?}");
                    assert!(scope != "unknown" || rules == "0", "{row:?}");
                }
                // All, some or none, never unknown; a disallow for all.
                _ => {
                    assert_ne!(scope, "unknown", "{row:?}");
                    assert!(scope != "full" || rules != "0", "{row:?}");
                }
            }
        }
        let want_differs: usize = want
            .lines()
            .map(|r| r.rsplit(',').next().unwrap().parse::<usize>().unwrap())
            .sum();
        assert_eq!(differs, want_differs, "{classify}");
    }
});

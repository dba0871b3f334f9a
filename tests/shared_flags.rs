//! The flags that several subcommands share mean the same thing in each:
//! `crawl` takes the default command's `-c`, `--layout` and `--usage`, and
//! `--agents ai` where the default command does.

use crate::util::{Dir, TestCommand};

/// A crawl's fetches and log: a.com with a usage line, b.com a 404, and a
/// host without a fetch.
fn fixture(dir: &Dir) {
    dir.create_dir("robots");
    dir.create(
        "robots/a.com.txt",
        "User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n\n\n\
         User-agent: GPTBot\nDisallow: /\n",
    );
    dir.create(
        "index.jsonl",
        "{\"url\": \"https://b.com/robots.txt\", \"status\": 404}\n",
    );
    dir.create(
        "log.txt",
        "https://a.com/x\nhttps://a.com/private/y\nhttps://b.com/z\n\
         https://c.com/w\n",
    );
}

const SOURCES: [&str; 4] =
    ["--robots-dir", "robots", "--robots-index", "index.jsonl"];

rbtest!(crawl_layout_wide_and_long, |dir: Dir, mut cmd: TestCommand| {
    fixture(&dir);
    let got = cmd
        .arg("crawl")
        .args(SOURCES)
        .args(["-a", "Bot,GPTBot", "--layout", "wide", "log.txt"])
        .stdout();
    eqnice!(
        "url,Bot,Bot.reason,GPTBot,GPTBot.reason\n\
         https://a.com/x,allowed,no-matching-rule,disallowed,rule\n\
         https://a.com/private/y,disallowed,rule,disallowed,rule\n\
         https://b.com/z,allowed,status-4xx,allowed,status-4xx\n\
         https://c.com/w,unknown,no-robots,unknown,no-robots\n",
        got
    );
    // Long is crawl's default with several agents, and one agent may ask
    // for it.
    let mut long = dir.command();
    let got = long
        .arg("crawl")
        .args(SOURCES)
        .args(["-a", "GPTBot", "--layout", "long", "--no-header", "log.txt"])
        .stdout();
    eqnice!(
        "https://a.com/x,GPTBot,disallowed,rule\n\
         https://a.com/private/y,GPTBot,disallowed,rule\n\
         https://b.com/z,GPTBot,allowed,status-4xx\n\
         https://c.com/w,GPTBot,unknown,no-robots\n",
        got
    );
    // JSON Lines: each agent's verdict an object under "verdicts".
    let mut json = dir.command();
    let got = json
        .arg("crawl")
        .args(SOURCES)
        .args(["-a", "Bot,GPTBot", "--layout", "wide", "--format", "jsonl"])
        .args(["--explain", "log.txt"])
        .stdout();
    let first = got.lines().next().unwrap();
    eqnice!(
        "{\"url\":\"https://a.com/x\",\"verdicts\":{\"Bot\":{\"verdict\":\
         \"allowed\",\"reason\":\"no-matching-rule\",\"robots\":\"a.com\",\
         \"capture\":null,\"line\":null,\"rule\":null},\"GPTBot\":\
         {\"verdict\":\"disallowed\",\"reason\":\"rule\",\"robots\":\
         \"a.com\",\"capture\":null,\"line\":6,\"rule\":\"Disallow: /\"}}}",
        first
    );
    for line in got.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["verdicts"].as_object().unwrap().len(), 2, "{line}");
    }
});

rbtest!(crawl_count, |dir: Dir, mut cmd: TestCommand| {
    fixture(&dir);
    let got = cmd
        .arg("crawl")
        .args(SOURCES)
        .args(["-a", "Bot,GPTBot", "-c", "log.txt"])
        .stdout();
    eqnice!(
        "agent,allowed,disallowed,unknown\nBot,2,1,1\nGPTBot,1,2,1\n",
        got
    );
    // With --emit, the number of lines it would write, and grep's exit
    // code.
    let mut emit = dir.command();
    let got = emit
        .arg("crawl")
        .args(SOURCES)
        .args(["-a", "Bot", "-c", "--emit", "allowed", "log.txt"])
        .stdout();
    eqnice!("2\n", got);
    let mut none = dir.command();
    none.arg("crawl")
        .args(SOURCES)
        .args(["-a", "GPTBot", "-c", "--emit", "allowed", "log.txt"]);
    let out = none.assert_exit_code(0);
    eqnice!("1\n", out.stdout.as_slice());
    // Records count as lines do.
    dir.create(
        "log.jsonl",
        "{\"url\": \"https://a.com/x\"}\n{\"url\": \"https://b.com/z\"}\n\
         {\"id\": 3}\n",
    );
    let mut records = dir.command();
    let out = records
        .arg("crawl")
        .args(SOURCES)
        .args(["-a", "Bot,GPTBot", "-c", "log.jsonl"])
        .assert_exit_code(0);
    eqnice!(
        "agent,allowed,disallowed,unknown\nBot,2,0,1\nGPTBot,1,1,1\n",
        out.stdout.as_slice()
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("record 3: no URL field"), "{err}");
});

rbtest!(crawl_agents_ai_count, |dir: Dir, mut cmd: TestCommand| {
    fixture(&dir);
    let got = cmd
        .arg("crawl")
        .args(SOURCES)
        .args(["--agents", "ai", "-c", "--no-header", "log.txt"])
        .stdout();
    let rows: Vec<&str> = got.lines().collect();
    assert!(rows.len() > 50, "{} agents", rows.len());
    assert!(rows.contains(&"GPTBot,1,2,1"), "{got}");
    assert!(rows.contains(&"CCBot,2,1,1"), "{got}");
});

rbtest!(crawl_usage, |dir: Dir, mut cmd: TestCommand| {
    fixture(&dir);
    let got = cmd
        .arg("crawl")
        .args(SOURCES)
        .args(["-a", "Bot", "--usage", "--explain", "log.txt"])
        .stdout();
    eqnice!(
        "url,verdict,reason,robots,capture,line,rule,train-ai,search,\
         ai-input,train-ai-line,search-line,ai-input-line\n\
         https://a.com/x,allowed,no-matching-rule,a.com,,,,disallowed,\
         unknown,unknown,3,,\n\
         https://a.com/private/y,disallowed,rule,a.com,,2,\
         Disallow: /private/,,,,,,\n\
         https://b.com/z,allowed,status-4xx,https://b.com,,,,,,,,,\n\
         https://c.com/w,unknown,no-robots,,,,,,,,,,\n",
        got
    );
    // The same preferences as the default command gives with a.com's
    // robots.txt.
    let mut one = dir.command();
    let want = one
        .args(["-a", "Bot", "--usage", "robots/a.com.txt", "log.txt"])
        .stdout();
    let mut crawl = dir.command();
    let got = crawl
        .arg("crawl")
        .args(SOURCES)
        .args(["-a", "Bot", "--usage", "--layout", "wide", "log.txt"])
        .stdout();
    let head = |text: &str| -> Vec<String> {
        text.lines().take(3).map(|l| l.to_string()).collect()
    };
    let want: Vec<String> = head(&want)
        .iter()
        .map(|l| l.replacen(",allowed", ",allowed,no-matching-rule", 1))
        .collect();
    assert_eq!(head(&got)[1], want[1], "{got}");
    // Records are refused with a message naming the flag.
    dir.create("log.jsonl", "{\"url\": \"https://a.com/x\"}\n");
    let mut records = dir.command();
    let err = records
        .arg("crawl")
        .args(SOURCES)
        .args(["--usage", "log.jsonl"])
        .assert_error();
    assert!(err.contains("--usage"), "{err}");
});

rbtest!(check_takes_agent_lists, |dir: Dir, mut cmd: TestCommand| {
    dir.create("robots.txt", "User-agent: GPTBot\nDisallow: /\n");
    let out = cmd
        .args(["check", "-a", "GPTBot,Bot", "robots.txt", "/x"])
        .assert_exit_code(1);
    let got = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(got.contains("GPTBot"), "{got}");
    assert!(got.contains("Bot "), "{got}");
    let mut ai = dir.command();
    let out = ai
        .args(["check", "--agents", "ai", "robots.txt", "/x"])
        .assert_exit_code(1);
    assert!(String::from_utf8_lossy(&out.stdout).lines().count() > 50);
});

rbtest!(survey_takes_files, |dir: Dir, mut cmd: TestCommand| {
    dir.create("a.com.txt", "User-agent: *\nDisallow: /\n");
    let got = cmd.args(["survey", "--no-header", "a.com.txt"]).stdout();
    assert!(got.starts_with("a.com,"), "{got}");
});

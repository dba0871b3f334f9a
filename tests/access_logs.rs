//! Access logs whose lines name many agents, and the agent each line's
//! User-Agent is judged as, on made-up and real log lines.

use std::path::PathBuf;

use crate::util::setup;

/// A robots.txt whose `*` group disallows `.php` files and whose one named
/// group (two tokens) disallows everything.
const ROBOTS: &str = "User-agent: *\nDisallow: /*.php$\n\n\
                      User-agent: NamedBot\nUser-agent: otherbot\n\
                      Disallow: /\n";

/// A distinct product token per `i` (letters only, as tokens are).
fn token(mut i: usize) -> String {
    let mut s = String::from("Agent-");
    loop {
        s.push((b'a' + (i % 26) as u8) as char);
        i /= 26;
        if i == 0 {
            break;
        }
    }
    s + "bot"
}

/// Thousands of distinct agents, and every seventh line one of the named
/// group's (in any case), judged with room for all of the groups' matchers
/// and for none (each line's group is selected again), on one thread and
/// two: every line gets its own agent's verdict, group and rule.
#[test]
fn many_agents_get_the_verdicts_of_the_groups_they_select() {
    let (dir, _) = setup("access_log_many_agents");
    dir.create("robots.txt", ROBOTS);
    let named = ["NamedBot", "namedbot", "OTHERBOT"];
    let mut log = String::new();
    let mut want = vec![];
    for i in 0..5_000 {
        let agent = match i % 7 {
            0 => named[i / 7 % 3].to_string(),
            _ => token(i),
        };
        let path = format!("/d{i}/x.{}", ["php", "html"][i % 2]);
        log.push_str(&format!(
            "10.0.0.1 - - [10/Oct/2025:13:55:36 +0000] \"GET {path} \
             HTTP/1.1\" 200 1 \"-\" \"Mozilla/5.0 (compatible; {agent}/1.0)\"\n"
        ));
        want.push(match (i % 7, i % 2) {
            // The group's name as the line naming the agent writes it.
            (0, _) => format!(
                r#" robots_agent="{agent}" robots_verdict="disallowed" robots_line="6" robots_rule="Disallow: /" robots_group="{}" robots_reason="rule""#,
                if i / 7 % 3 == 2 { "otherbot" } else { "NamedBot" }
            ),
            (_, 0) => format!(
                r#" robots_agent="{agent}" robots_verdict="disallowed" robots_line="2" robots_rule="Disallow: /*.php$" robots_group="*" robots_reason="rule""#
            ),
            _ => format!(
                r#" robots_agent="{agent}" robots_verdict="allowed" robots_line="" robots_rule="" robots_group="*" robots_reason="no-matching-rule""#
            ),
        });
    }
    dir.create("access.log", &log);
    for cache in ["0", "64"] {
        for threads in ["1", "2"] {
            let mut cmd = dir.command();
            let out = cmd
                .args(["--input-format", "access-log", "--explain"])
                .args(["--cache-mib", cache, "-j", threads, "--chunk-size"])
                .args(["4096", "robots.txt", "access.log"])
                .output();
            assert!(out.status.success(), "{out:?}");
            let stdout = String::from_utf8(out.stdout).unwrap();
            let added: Vec<&str> = stdout
                .lines()
                .zip(log.lines())
                .map(|(row, line)| row.strip_prefix(line).unwrap())
                .collect();
            assert_eq!(added.len(), want.len(), "cache {cache} -j{threads}");
            for (i, (got, want)) in added.iter().zip(&want).enumerate() {
                assert_eq!(got, want, "line {i}, cache {cache} -j{threads}");
            }
        }
    }
}

/// The agent of each line, as `robots_agent` says.
fn agents_of(log: &str) -> Vec<String> {
    let (dir, mut cmd) = setup("access_log_agents");
    dir.create("robots.txt", ROBOTS);
    dir.create("access.log", log);
    let out = cmd
        .args(["--input-format", "access-log", "robots.txt", "access.log"])
        .output();
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    stdout
        .lines()
        .map(|row| {
            let start = row.rfind(" robots_agent=\"").unwrap() + 15;
            let end = start + row[start..].find('"').unwrap();
            row[start..end].to_string()
        })
        .collect()
}

/// A browser-like User-Agent is judged as a word in it that names a
/// crawler: a part of the word's name, cut at every byte that is not a
/// letter, ends in `bot`, `spider`..., which holding them does not make.
#[test]
fn words_that_only_hold_bot_name_no_crawler() {
    let line = |ua: &str| {
        format!(
            "203.0.113.9 - - [12/Mar/2026:08:01:02 +0000] \"GET /a.php \
             HTTP/1.1\" 200 5120 \"https://example.com/\" \"{ua}\"\n"
        )
    };
    let cases = [
        ("Mozilla/5.0 (X11; Linux x86_64; rv:124.0) Gecko/20100101 Firefox/124.0 (via robots-proxy)", "*"),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Botanical-Garden-App/3.2", "*"),
        ("Mozilla/5.0 (compatible; RobotsChecker/1.0; +https://example.com/robots)", "*"),
        ("Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "bingbot"),
        ("Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"),
        ("Mozilla/5.0 (compatible; AdsBot-Google; +http://www.google.com/adsbot.html)", "AdsBot-Google"),
        ("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot", "ChatGPT-User"),
        ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36", "*"),
    ];
    let log: String = cases.iter().map(|(ua, _)| line(ua)).collect();
    let want: Vec<&str> = cases.iter().map(|(_, agent)| *agent).collect();
    assert_eq!(agents_of(&log), want);
}

/// The real Apache log of `../shared/datasets/logs` (10,000 lines of
/// 2015): each User-Agent of the crawlers in it, and of browsers that
/// only mention a robot's page, is judged as the agent it names.
#[test]
fn real_log_lines_are_judged_for_the_crawlers_they_name() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/datasets/logs/elastic_examples_apache_logs.log");
    let Ok(log) = std::fs::read_to_string(&path) else {
        crate::util::skip(
            "real_log_lines_are_judged_for_the_crawlers_they_name",
            &format!("{} is absent", path.display()),
        );
        return;
    };
    let agents = agents_of(&log);
    assert_eq!(agents.len(), log.lines().count());
    // (a User-Agent of the log, the agent it is judged as)
    let cases = [
        ("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"),
        ("Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "bingbot"),
        ("Mozilla/5.0 (compatible; archive.org_bot +http://www.archive.org/details/archive.org_bot)", "archive"),
        ("Mozilla/5.0 (compatible; MJ12bot/v1.4.4; http://www.majestic12.co.uk/bot.php?+)", "MJ"),
        ("Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)", "Slurp"),
        ("Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)", "Baiduspider"),
        ("Mozilla/5.0 (compatible; EasouSpider; +http://www.easou.com/search/spider.html)", "EasouSpider"),
        ("Mozilla/5.0 (compatible; Linux x86_64; Mail.RU_Bot/2.0; +http://go.mail.ru/help/robots)", "Mail"),
        ("msnbot/2.0b (+http://search.msn.com/msnbot.htm)", "msnbot"),
        ("Googlebot-Image/1.0", "Googlebot-Image"),
        // Browsers whose only `bot` or `robot` is in a URL.
        ("Mozilla/5.0 (X11; U; Linux x86_64; en-US; rv:1.9.0.19; aggregator:Spinn3r (Spinn3r 3.1); http://spinn3r.com/robot) Gecko/2010040121 Firefox/3.0.19", "*"),
        ("Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1; SV1;  http://www.changedetection.com/bot.html )", "*"),
        ("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_9_1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/32.0.1700.77 Safari/537.36", "*"),
    ];
    for (ua, want) in cases {
        let quoted = format!("\"{ua}\"");
        let lines: Vec<usize> = log
            .lines()
            .enumerate()
            .filter(|(_, l)| l.ends_with(&quoted))
            .map(|(i, _)| i)
            .collect();
        assert!(!lines.is_empty(), "no line of {ua:?}");
        for i in lines {
            assert_eq!(agents[i], want, "line {}: {ua}", i + 1);
        }
    }
}

//! Access logs whose lines name many agents.

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

//! AI usage preferences (`--usage`): every example of the AIPREF
//! attachment and vocabulary drafts with its expected preferences, the
//! vocabulary's processing rules (section 6.4: repeated keys, parameters,
//! values that are not tokens, upper-case keys, dictionaries that do not
//! parse), Content-Signal inside and outside groups, how the two combine,
//! the lint findings, the output columns of every format and layout, and
//! hostile lines.

use robots_batch::{
    lint::Lint, usage::Category, Dialect, Matcher, Robots, Usage,
};

use crate::util::{Dir, TestCommand};

/// The preferences of `agent` for `path` (`train-ai`, `search`,
/// `ai-input`), as the output writes them: empty when the path may not be
/// fetched.
fn prefs(robots: &str, agent: &str, path: &str) -> [&'static str; 3] {
    prefs_in(robots, agent, path, Dialect::Rfc9309)
}

fn prefs_in(
    robots: &str,
    agent: &str,
    path: &str,
    dialect: Dialect,
) -> [&'static str; 3] {
    let robots = Robots::parse(robots.as_bytes());
    let matcher = Matcher::new(&robots, agent, dialect);
    if !matcher.verdict(path.as_bytes(), &mut matcher.scratch()).is_allowed() {
        return [""; 3];
    }
    let usage = Usage::select(&robots, agent, dialect);
    let mut buf = vec![];
    let p = usage.prefs(dialect.path(path.as_bytes(), &mut buf));
    Category::ALL.map(|c| p.get(c).name())
}

/// A file of one `*` group that allows everything, with `lines` in it.
fn star(lines: &str) -> String {
    format!("User-agent: *\nAllow: /\n{lines}")
}

/// The preferences of one Content-Usage statement for the whole site.
fn statement(pref: &str) -> [&'static str; 3] {
    prefs(&star(&format!("Content-Usage: {pref}\n")), "bot", "/x")
}

const D: &str = "disallowed";
const A: &str = "allowed";
const U: &str = "unknown";

/// attach, "Examples": `Content-Usage: train-ai=n` in the `*` group.
#[test]
fn attach_intro_example() {
    let robots = "User-Agent: *\nAllow: /\nContent-Usage: train-ai=n\n";
    assert_eq!(prefs(robots, "AnyBot", "/anything"), [D, U, U]);
}

/// attach, "Example": the table of paths, and ExampleBot's own group.
#[test]
fn attach_example_table() {
    let robots = "\
User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y

User-Agent: ExampleBot
Allow: /
Content-Usage: train-ai=y
";
    assert_eq!(prefs(robots, "OtherBot", "/test"), [D, U, U]);
    // Not crawlable: no preferences ("N/A").
    assert_eq!(prefs(robots, "OtherBot", "/never/test"), [""; 3]);
    assert_eq!(prefs(robots, "OtherBot", "/ai-ok/test"), [A, U, U]);
    for path in ["/test", "/never/test", "/ai-ok/test"] {
        assert_eq!(prefs(robots, "ExampleBot", path), [A, U, U], "{path}");
    }
    // The deciding lines.
    let r = Robots::parse(robots.as_bytes());
    let usage = Usage::select(&r, "OtherBot", Dialect::Rfc9309);
    assert_eq!(usage.prefs(b"/test").line(Category::TrainAi), Some(4));
    assert_eq!(usage.prefs(b"/ai-ok/test").line(Category::TrainAi), Some(5));
    assert_eq!(usage.prefs(b"/test").line(Category::Search), None);
}

/// vocab, "Exemplary Serialization Format" and its processing rules
/// (section 6.4 and below), each example with its expected preferences.
#[test]
fn vocab_examples() {
    assert_eq!(statement("train-ai=y, search=n"), [A, D, U]);
    // "Multiple Preferences": the last values are a boolean and a string.
    assert_eq!(
        statement(r#"train-ai=y, train-ai, search=n, search="n""#),
        [U, U, U]
    );
    // "Preference Parameters": only the last value's parameters count,
    // and none of them change anything.
    assert_eq!(statement("train-ai;allow=n, train-ai=y"), [A, U, U]);
    assert_eq!(statement(r#"train-ai;has;parameters="?";"#), [U, U, U]);
}

/// vocab 6.4: the Token `y` allows, `n` disallows; anything else is
/// unknown, as are unknown keys; the last of repeated keys counts;
/// parameters are ignored; upper-case keys make the dictionary fail.
#[test]
fn vocab_processing_rules() {
    // Repeated keys: the last value.
    assert_eq!(statement("train-ai=n, train-ai=y"), [A, U, U]);
    assert_eq!(statement("search=y, search=n"), [U, D, U]);
    // Parameters on the value are ignored.
    assert_eq!(statement("train-ai=n;why=\"x\";q=1, search=y;a"), [D, A, U]);
    // Values that are not the tokens y and n.
    for value in [
        "\"n\"", "?0", "?1", "0", "1.5", "yes", "no", "Y", "N", "(n)", "(y n)",
    ] {
        let got = statement(&format!("train-ai={value}, search=n"));
        assert_eq!(got, [U, D, U], "{value}");
    }
    // A bare key is the boolean true: unknown.
    assert_eq!(statement("train-ai, search=y"), [U, A, U]);
    // Unknown keys are ignored, known keys still read.
    assert_eq!(statement("foo=n, train-ai=n, *bar=y"), [D, U, U]);
    // Upper case anywhere in a key: the dictionary fails, all unknown.
    assert_eq!(statement("Train-AI=n"), [U, U, U]);
    assert_eq!(statement("search=n, TRAIN-AI=n"), [U, U, U]);
    // Other parse failures: all unknown, never an error.
    for bad in [
        "train-ai=n,",
        ",train-ai=n",
        "train-ai=n search=n",
        "train-ai=\"n",
        "train-ai=n;",
        "=n",
        "train-ai=n, \u{e9}=y",
        "train-ai==n",
    ] {
        assert_eq!(statement(bad), [U, U, U], "{bad}");
    }
    // White space: SP and HTAB around commas are fine.
    assert_eq!(statement("train-ai=n ,\tsearch=y"), [D, A, U]);
}

/// Content-Usage paths: longest match as Allow/Disallow (wildcards, `$`,
/// percent-encoding), no path matching every path with length 0, and
/// identical paths combining with the most restrictive winning.
#[test]
fn content_usage_paths() {
    let robots = star(
        "Content-Usage: train-ai=y, search=y\n\
         Content-Usage: / train-ai=n\n\
         Content-Usage: /a/ search=n\n\
         Content-Usage: /a/*.pdf$ train-ai=y\n\
         Content-Usage: /caf\u{e9}/ train-ai=y\n\
         Content-Usage: /b/ train-ai=y, search=y\n\
         Content-Usage: /b/ train-ai=n\n\
         Content-Usage: /c/ \n",
    );
    // `/` is longer than no path: it decides.
    assert_eq!(prefs(&robots, "x", "/x"), [D, U, U]);
    assert_eq!(prefs(&robots, "x", "/a/x"), [U, D, U]);
    assert_eq!(prefs(&robots, "x", "/a/x.pdf"), [A, U, U]);
    assert_eq!(prefs(&robots, "x", "/a/x.pdf?q"), [U, D, U]);
    assert_eq!(prefs(&robots, "x", "/caf%C3%A9/x"), [A, U, U]);
    assert_eq!(prefs(&robots, "x", "/caf%c3%a9/x"), [A, U, U]);
    // Identical paths: train-ai n beats y; search y from one line stays.
    assert_eq!(prefs(&robots, "x", "/b/x"), [D, A, U]);
    // A path with no preference: everything unknown there.
    assert_eq!(prefs(&robots, "x", "/c/x"), [U, U, U]);
    let r = Robots::parse(robots.as_bytes());
    let usage = Usage::select(&r, "x", Dialect::Rfc9309);
    let p = usage.prefs(b"/b/x");
    assert_eq!(p.line(Category::TrainAi), Some(9));
    assert_eq!(p.line(Category::Search), Some(8));
}

/// Content-Signal: inside a group it is that group's; before any group it
/// is the site's, for every agent; its keys map to the columns.
#[test]
fn content_signal_inside_and_outside_groups() {
    // Cloudflare's managed form: in the `*` group.
    let cloudflare = "\
User-Agent: *
Content-Signal: search=yes,ai-train=no
Allow: /

User-agent: Amazonbot
Disallow: /private/
";
    assert_eq!(prefs(cloudflare, "GPTBot", "/x"), [D, A, U]);
    // A group of its own: the `*` group's signal is not its.
    assert_eq!(prefs(cloudflare, "Amazonbot", "/x"), [U, U, U]);
    assert_eq!(prefs(cloudflare, "Amazonbot", "/private/x"), [""; 3]);
    // Outside any group: every agent's.
    let outside = "\
Content-Signal: search=yes, ai-train=no, ai-input=yes
User-agent: *
Allow: /
User-agent: Amazonbot
Disallow: /private/
";
    assert_eq!(prefs(outside, "GPTBot", "/x"), [D, A, A]);
    assert_eq!(prefs(outside, "Amazonbot", "/x"), [D, A, A]);
    // No group at all.
    assert_eq!(prefs("Content-Signal: ai-input=no\n", "a", "/x"), [U, U, D]);
    // Values other than yes/no, unknown keys, a missing key: unknown; a
    // repeated key: the last value.
    let odd =
        star("Content-Signal: search=Yes, ai-train=maybe, ai-input, foo=no\n");
    assert_eq!(prefs(&odd, "a", "/x"), [U, U, U]);
    let twice = star("Content-Signal: ai-train=yes, ai-train=no\n");
    assert_eq!(prefs(&twice, "a", "/x"), [D, U, U]);
}

/// Both mechanisms, and several lines of one: the most restrictive
/// preference wins per category, and the first line stating it decides.
#[test]
fn combination_most_restrictive_wins() {
    let robots = star(
        "Content-Usage: train-ai=y, search=n\n\
         Content-Signal: ai-train=no, search=yes, ai-input=yes\n\
         Content-Signal: ai-input=yes\n",
    );
    assert_eq!(prefs(&robots, "a", "/x"), [D, D, A]);
    let r = Robots::parse(robots.as_bytes());
    let p = Usage::select(&r, "a", Dialect::Rfc9309).prefs(b"/x");
    assert_eq!(p.line(Category::TrainAi), Some(4));
    assert_eq!(p.line(Category::Search), Some(3));
    assert_eq!(p.line(Category::AiInput), Some(4));
    // Unknown from one, allowed from the other: allowed.
    let robots =
        star("Content-Usage: /a/ search=y\nContent-Signal: ai-train=yes\n");
    assert_eq!(prefs(&robots, "a", "/a/x"), [A, A, U]);
    // Groups merged for one agent combine too.
    let robots = "User-agent: a\nContent-Usage: train-ai=y\nAllow: /\n\n\
                  User-agent: a\nContent-Usage: train-ai=n\nAllow: /\n";
    assert_eq!(prefs(robots, "a", "/x"), [D, U, U]);
}

/// The dialects: google reads the lines as rfc9309 does (with its own
/// path spelling); draft1996 and orig1994 know no such lines.
#[test]
fn dialects() {
    let robots =
        star("Content-Usage: train-ai=n\nContent-Signal: search=no\n");
    assert_eq!(prefs_in(&robots, "a", "/x", Dialect::Google), [D, D, U]);
    for dialect in [Dialect::Draft1996, Dialect::Orig1994] {
        assert_eq!(prefs_in(&robots, "a", "/x", dialect), [U, U, U]);
        let r = Robots::parse(robots.as_bytes());
        assert!(Usage::select(&r, "a", dialect).is_empty());
    }
}

/// The usage lines change no verdict in `google`, `draft1996` and
/// `orig1994`: a file with them gives the verdicts of the same file with
/// them turned into comments, including where they sit between user-agent
/// lines (there they do not end a group). In `rfc9309` a Content-Usage
/// line is a rule of its group, as the attachment draft adds it to RFC
/// 9309's rules, so a user-agent line after one starts a new group.
#[test]
fn verdicts_with_usage_lines_per_dialect() {
    let robots = "\
Content-Signal: search=yes
User-agent: a
Content-Usage: train-ai=n
User-agent: b
Disallow: /x
Content-Usage: /y train-ai=n
User-agent: *
Content-Signal: ai-train=no
Disallow: /z
";
    let plain = robots
        .lines()
        .map(|l| {
            if l.starts_with("Content") {
                format!("# {l}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let (with, without) =
        (Robots::parse(robots.as_bytes()), Robots::parse(plain.as_bytes()));
    for dialect in [Dialect::Google, Dialect::Draft1996, Dialect::Orig1994] {
        for agent in ["a", "b", "c"] {
            let (m, n) = (
                Matcher::new(&with, agent, dialect),
                Matcher::new(&without, agent, dialect),
            );
            for path in ["/", "/x", "/y", "/z"] {
                let (v, w) = (
                    m.verdict(path.as_bytes(), &mut m.scratch()),
                    n.verdict(path.as_bytes(), &mut n.scratch()),
                );
                assert_eq!(v, w, "{dialect} {agent} {path}");
            }
        }
    }
    // google: `a` and `b` share a group, a's Content-Usage line is b's.
    let google = |agent, path| prefs_in(robots, agent, path, Dialect::Google);
    assert_eq!(google("b", "/w"), [D, A, U]);
    assert_eq!(google("a", "/y"), [D, A, U]);
    assert_eq!(google("a", "/x"), [""; 3]);
    // rfc9309: `a` is a group of its own, with no Allow or Disallow.
    assert_eq!(prefs(robots, "a", "/x"), [D, A, U]);
    assert_eq!(prefs(robots, "b", "/w"), [U, A, U]);
    assert_eq!(prefs(robots, "b", "/y"), [D, A, U]);
    assert_eq!(prefs(robots, "b", "/x"), [""; 3]);
    assert_eq!(prefs(robots, "c", "/x"), [D, A, U]);
}

/// The issue's case: `User-agent: a` / `Content-Usage: train-ai=n` /
/// `User-agent: b` / `Disallow: /x`. In `rfc9309` (the attachment draft's
/// grouping) `a` may fetch `/x` and `b` states no preference; in `google`
/// (Google's grouping, where an unknown key ends nothing) both share one
/// group.
#[test]
fn content_usage_ends_a_group_in_rfc9309_only() {
    let robots = "User-agent: a\nContent-Usage: train-ai=n\n\
                  User-agent: b\nDisallow: /x\n";
    assert_eq!(prefs(robots, "a", "/x"), [D, U, U]);
    assert_eq!(prefs(robots, "b", "/w"), [U, U, U]);
    assert_eq!(prefs(robots, "b", "/x"), [""; 3]);
    let google = |agent, path| prefs_in(robots, agent, path, Dialect::Google);
    assert_eq!(google("a", "/x"), [""; 3]);
    assert_eq!(google("b", "/w"), [D, U, U]);
    // The groups lint lists follow the dialect's reading.
    let r = Robots::parse(robots.as_bytes());
    let groups = |d| -> Vec<u32> {
        Lint::new(&r, d).groups.iter().map(|g| g.line).collect()
    };
    assert_eq!(groups(Dialect::Rfc9309), [1, 3]);
    assert_eq!(groups(Dialect::Google), [1]);
    // A Content-Signal line is no rule in either: it ends nothing.
    let signal = "User-agent: a\nContent-Signal: ai-train=no\n\
                  User-agent: b\nDisallow: /x\n";
    assert_eq!(prefs(signal, "a", "/x"), [""; 3]);
    assert_eq!(prefs(signal, "b", "/w"), [D, U, U]);
}

/// A NUL in a Content-Usage value is one of its bytes (the draft's value
/// runs to CR, LF or `#`): the dictionary then fails to parse and every
/// preference is unknown, where the value cut at the NUL would parse. A
/// NUL after the `#` is in the comment; a Content-Signal line is read as
/// other robots.txt lines are, its value ending at a NUL.
#[test]
fn nul_in_a_content_usage_value() {
    let robots = star("Content-Usage: train-ai=n\0, search=n\n");
    assert_eq!(prefs(&robots, "a", "/x"), [U, U, U]);
    let r = Robots::parse(robots.as_bytes());
    assert_eq!(r.value(&r.lines()[2]), b"train-ai=n\0, search=n");
    let codes: Vec<&str> = Lint::new(&r, Dialect::Rfc9309)
        .findings
        .iter()
        .map(|f| f.code)
        .collect();
    assert_eq!(codes, ["usage-unparseable"]);
    // Up to a `#`, trimmed, in a path's line too.
    let robots = star("Content-Usage: /a train-ai=n\0x # c\n");
    assert_eq!(prefs(&robots, "a", "/a"), [U, U, U]);
    let r = Robots::parse(robots.as_bytes());
    assert_eq!(r.value(&r.lines()[2]), b"/a train-ai=n\0x");
    // Only a NUL: an empty value past it is no value.
    let robots = star("Content-Usage: \0 \n");
    let r = Robots::parse(robots.as_bytes());
    assert_eq!(r.value(&r.lines()[2]), b"\0");
    // In the comment: nothing changes.
    let robots = star("Content-Usage: train-ai=n # c\0x\n");
    assert_eq!(prefs(&robots, "a", "/x"), [D, U, U]);
    // Content-Signal and rules keep the line reader's NUL.
    let robots = star("Content-Signal: ai-train=no\0, search=no\n");
    assert_eq!(prefs(&robots, "a", "/x"), [D, U, U]);
    let r = Robots::parse(b"User-agent: *\nDisallow: /a\0/b\n");
    assert_eq!(r.value(&r.lines()[1]), b"/a");
}

/// Content-Signal keys are case-sensitive, as its values are.
#[test]
fn content_signal_keys_are_case_sensitive() {
    let robots =
        star("Content-Signal: AI-Train=no, Search=yes, ai-input=no\n");
    assert_eq!(prefs(&robots, "a", "/x"), [U, U, D]);
}

/// Thousands of Content-Usage lines are matched as rules are, by an index
/// of their paths: each path gets the longest match's preference, ties of
/// equal length combined, whatever the lines' order.
#[test]
fn many_content_usage_lines() {
    let mut robots = String::from("User-agent: *\nAllow: /\n");
    for i in 0..15_000 {
        // Every third line allows, the others disallow; `/p{i}/` and
        // `/p{i}*` are as long, and both match `/p{i}/x`.
        let pref = if i % 3 == 0 { "train-ai=y" } else { "train-ai=n" };
        robots.push_str(&format!("Content-Usage: /p{i}/ {pref}\n"));
        robots.push_str(&format!("Content-Usage: /p{i}* search=y\n"));
    }
    robots.push_str("Content-Usage: /p14999/x train-ai=y, search=n\n");
    robots.push_str("Content-Usage: search=n\n");
    let r = Robots::parse(robots.as_bytes());
    let usage = Usage::select(&r, "a", Dialect::Rfc9309);
    let at = |path: &str| {
        let p = usage.prefs(path.as_bytes());
        let line = |c| p.line(c).unwrap_or_default();
        [
            (p.get(Category::TrainAi).name(), line(Category::TrainAi)),
            (p.get(Category::Search).name(), line(Category::Search)),
        ]
    };
    assert_eq!(at("/p0/x"), [(A, 3), (A, 4)]);
    assert_eq!(at("/p1/x"), [(D, 5), (A, 6)]);
    // `/p1` matches `/p1*` alone (and `/p1*` matches `/p10/` too, shorter
    // than `/p10/` itself).
    assert_eq!(at("/p1"), [(U, 0), (A, 6)]);
    assert_eq!(at("/p10/"), [(D, 23), (A, 24)]);
    assert_eq!(at("/p14999/x"), [(A, 30_003), (D, 30_003)]);
    assert_eq!(at("/p14999/y"), [(D, 30_001), (A, 30_002)]);
    // No line with a path matches: the line without one decides.
    assert_eq!(at("/q"), [(U, 0), (D, 30_004)]);
}

/// Content-Usage and Content-Signal are keys of their own kind, in any
/// case, and only as spelt.
#[test]
fn line_kinds() {
    use robots_batch::robots::LineKind;
    let r = Robots::parse(
        b"content-usage: a=y\nCONTENT-SIGNAL: search=no\n\
          Content-Usages: x\nContent-Signals: x\n",
    );
    let kinds: Vec<LineKind> = r.lines().iter().map(|l| l.kind()).collect();
    assert_eq!(
        kinds,
        [
            LineKind::ContentUsage,
            LineKind::ContentSignal,
            LineKind::Other,
            LineKind::Other
        ]
    );
}

/// Hostile lines: a 500 KiB Content-Usage line (cut at the line limit,
/// like any line), thousands of usage lines, bytes of every value; all
/// unknown or read, never a panic.
#[test]
fn hostile_lines() {
    let mut long = String::from("User-agent: *\nContent-Usage: ");
    long.push_str(&"train-ai=n, ".repeat(500 * 1024 / 12));
    long.push_str("search=n\n");
    assert!(long.len() > 500 * 1024);
    // The line is cut at MAX_LINE_LEN, in an entry: what is left,
    // `train-ai=n, ..., trai`, still parses (the last key a boolean), but
    // the `search=n` at the end is lost.
    assert_eq!(prefs(&long, "a", "/x"), [D, U, U]);
    let robots = Robots::parse(long.as_bytes());
    let value_len = robots.value(&robots.lines()[1]).len();
    assert_eq!(
        value_len,
        robots_batch::robots::MAX_LINE_LEN - "Content-Usage: ".len()
    );
    let mut open = String::from("User-agent: *\nContent-Usage: train-ai=\"");
    open.push_str(&"a".repeat(500 * 1024));
    assert_eq!(prefs(&open, "a", "/x"), [U, U, U]);
    let mut many = String::from("User-agent: *\n");
    for i in 0..5_000 {
        many.push_str(&format!("Content-Usage: /p{i}/ train-ai=n\n"));
        many.push_str(&format!("Content-Signal: search=yes, x{i}=no\n"));
    }
    assert_eq!(prefs(&many, "a", "/p4999/x"), [D, A, U]);
    assert_eq!(prefs(&many, "a", "/q"), [U, A, U]);
    // Every byte in a value and a path.
    let mut bytes = b"User-agent: *\nContent-Usage: /".to_vec();
    bytes.extend((0..=255u8).filter(|&b| b != b'\n' && b != b'\r'));
    bytes.extend(b" train-ai=n\nContent-Usage: ");
    bytes.extend((0..=255u8).filter(|&b| b != b'\n' && b != b'\r'));
    bytes.extend(b"\nContent-Signal: ");
    bytes.extend((0..=255u8).rev().filter(|&b| b != b'\n' && b != b'\r'));
    let r = Robots::parse(&bytes);
    let usage = Usage::select(&r, "a", Dialect::Rfc9309);
    let _ = usage.prefs(b"/\x01\x02");
    let _ = Lint::new(&r, Dialect::Rfc9309);
}

/// The lint findings about usage lines, each on its line.
#[test]
fn lint_findings() {
    let robots = "\
Content-Signal: search=yes, ai-train=No
Content-Usage: train-ai=n
User-agent: *
Content-Usage: /a tdm=n, train-ai=n, ai=y
Content-Usage: Train-AI=n
Content-Signal: ai-input=maybe, search
Content-Usage: train-genai=n;q, search=y
Content-Signal: search=yes, ai-train=no
Content-Usage: /b train-ai=n, search=y
Allow: /
";
    let lint = Lint::new(&Robots::parse(robots.as_bytes()), Dialect::Rfc9309);
    let got: Vec<(u32, &str)> =
        lint.findings.iter().map(|f| (f.line, f.code)).collect();
    assert_eq!(
        got,
        [
            (1, "usage-outside-group"),
            (1, "signal-value"),
            (2, "usage-outside-group"),
            (4, "usage-old-label"),
            (4, "usage-old-label"),
            (5, "usage-unparseable"),
            (6, "signal-value"),
            (6, "signal-value"),
            (7, "usage-old-label"),
        ]
    );
    let messages: Vec<&str> =
        lint.findings.iter().map(|f| f.message.as_str()).collect();
    assert!(messages[1].contains("\"ai-train=No\""), "{}", messages[1]);
    assert!(messages[3].contains("\"tdm\""), "{}", messages[3]);
    assert!(messages[4].contains("\"ai\""), "{}", messages[4]);
    assert!(messages[7].contains("\"search\""), "{}", messages[7]);
    // Every label of the earlier drafts.
    for label in [
        "tdm",
        "ai",
        "genai",
        "inference",
        "all",
        "train-genai",
        "ai-use",
        "bots",
        "ai-output",
    ] {
        let robots = star(&format!("Content-Usage: {label}=n\n"));
        let lint =
            Lint::new(&Robots::parse(robots.as_bytes()), Dialect::Rfc9309);
        let codes: Vec<&str> = lint.findings.iter().map(|f| f.code).collect();
        assert_eq!(codes, ["usage-old-label"], "{label}");
    }
}

const URLS: &str = "/test\n/never/test\n/ai-ok/test\n";

const ATTACH: &str = "\
User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y
Content-Signal: ai-input=no

User-Agent: ExampleBot
Allow: /
Content-Usage: train-ai=y
";

fn usage_cmd(dir: &Dir, args: &[&str]) -> String {
    dir.create("usage.txt", ATTACH);
    dir.create("urls.txt", URLS);
    let mut cmd: TestCommand = dir.command();
    cmd.args(args).args(["usage.txt", "urls.txt"]);
    cmd.stdout()
}

rbtest!(usage_columns_csv, |dir: Dir, _: TestCommand| {
    eqnice!(
        "url,verdict,train-ai,search,ai-input\n\
         /test,allowed,disallowed,unknown,disallowed\n\
         /never/test,disallowed,,,\n\
         /ai-ok/test,allowed,allowed,unknown,disallowed\n",
        usage_cmd(&dir, &["--usage"])
    );
    eqnice!(
        "url\tverdict\ttrain-ai\tsearch\tai-input\ttrain-ai-line\t\
         search-line\tai-input-line\n\
         /test\tallowed\tdisallowed\tunknown\tdisallowed\t4\t\t6\n\
         /never/test\tdisallowed\t\t\t\t\t\t\n\
         /ai-ok/test\tallowed\tallowed\tunknown\tdisallowed\t5\t\t6\n",
        usage_cmd(&dir, &["--usage", "--format", "tsv", "--explain"])
            .lines()
            .map(|l| {
                // Without the verdict's own explanation columns.
                let f: Vec<&str> = l.split('\t').collect();
                [&f[..2], &f[6..]].concat().join("\t") + "\n"
            })
            .collect::<String>()
    );
});

rbtest!(usage_columns_wide_and_long, |dir: Dir, _: TestCommand| {
    eqnice!(
        "url,x,x.train-ai,x.search,x.ai-input,ExampleBot,\
         ExampleBot.train-ai,ExampleBot.search,ExampleBot.ai-input\n\
         /test,allowed,disallowed,unknown,disallowed,allowed,allowed,\
         unknown,unknown\n\
         /never/test,disallowed,,,,allowed,allowed,unknown,unknown\n\
         /ai-ok/test,allowed,allowed,unknown,disallowed,allowed,allowed,\
         unknown,unknown\n",
        usage_cmd(&dir, &["--usage", "-a", "x,ExampleBot"])
    );
    eqnice!(
        "{\"url\":\"/never/test\",\"agent\":\"x\",\"verdict\":\"disallowed\",\
         \"train-ai\":null,\"search\":null,\"ai-input\":null}\n\
         {\"url\":\"/never/test\",\"agent\":\"ExampleBot\",\
         \"verdict\":\"allowed\",\"train-ai\":\"allowed\",\
         \"search\":\"unknown\",\"ai-input\":\"unknown\"}\n",
        usage_cmd(
            &dir,
            &[
                "--usage",
                "-a",
                "x,ExampleBot",
                "--layout",
                "long",
                "--format",
                "jsonl"
            ]
        )
        .lines()
        .filter(|l| l.contains("never"))
        .map(|l| format!("{l}\n"))
        .collect::<String>()
    );
    let wide = usage_cmd(
        &dir,
        &["--usage", "-a", "x,ExampleBot", "--format", "jsonl", "--explain"],
    );
    let first = wide.lines().next().unwrap();
    eqnice!(
        "{\"url\":\"/test\",\"verdicts\":{\"x\":{\"verdict\":\"allowed\",\
         \"line\":2,\"rule\":\"Allow: /\",\"group\":\"*\",\"reason\":\"rule\",\
         \"train-ai\":\"disallowed\",\"search\":\"unknown\",\
         \"ai-input\":\"disallowed\",\"train-ai-line\":4,\
         \"search-line\":null,\"ai-input-line\":6},\
         \"ExampleBot\":{\"verdict\":\"allowed\",\"line\":9,\
         \"rule\":\"Allow: /\",\"group\":\"ExampleBot\",\"reason\":\"rule\",\
         \"train-ai\":\"allowed\",\"search\":\"unknown\",\
         \"ai-input\":\"unknown\",\"train-ai-line\":10,\
         \"search-line\":null,\"ai-input-line\":null}}}",
        first
    );
    // Without --explain, each agent's part is still an object.
    let wide = usage_cmd(&dir, &["--usage", "-a", "x,y", "--format", "jsonl"]);
    eqnice!(
        "{\"url\":\"/never/test\",\"verdicts\":{\"x\":{\"verdict\":\
         \"disallowed\",\"train-ai\":null,\"search\":null,\
         \"ai-input\":null},\"y\":{\"verdict\":\"disallowed\",\
         \"train-ai\":null,\"search\":null,\"ai-input\":null}}}",
        wide.lines().nth(1).unwrap()
    );
});

rbtest!(usage_is_refused_with_emit_and_count, |dir: Dir, _: TestCommand| {
    dir.create("urls.txt", URLS);
    for flag in ["--emit=allowed", "-c"] {
        let mut cmd = dir.command();
        cmd.args(["--usage", flag, "robots.txt", "urls.txt"]);
        cmd.assert_exit_code(2);
    }
});

rbtest!(check_usage, |dir: Dir, _: TestCommand| {
    dir.create("usage.txt", ATTACH);
    let mut cmd = dir.command();
    cmd.args([
        "check",
        "--usage",
        "--explain",
        "usage.txt",
        "/test",
        "/never/x",
    ]);
    let out = cmd.assert_exit_code(1);
    eqnice!(
        "allowed    /test train-ai=disallowed, search=unknown, \
         ai-input=disallowed (line 2: Allow: /; group *; train-ai from \
         line 4: Content-Usage: train-ai=n; ai-input from line 6: \
         Content-Signal: ai-input=no)\n\
         disallowed /never/x (line 3: Disallow: /never/; group *)\n",
        out.stdout
    );
});

// The usage columns are the same whatever the threads and chunks, and
// the verdict columns are those of a run without `--usage`.
rbtest!(usage_same_across_threads_and_chunks, |dir: Dir, _: TestCommand| {
    dir.create("usage.txt", ATTACH);
    let mut urls = String::new();
    for i in 0..3_000 {
        let path = ["/test", "/never/x", "/ai-ok/y", "/ai-okx", "/"][i % 5];
        urls.push_str(&format!("https://e.com{path}?{i}\n"));
    }
    dir.create("urls.txt", &urls);
    let run = |args: &[&str]| {
        let mut cmd = dir.command();
        cmd.args(args).args(["usage.txt", "urls.txt"]);
        cmd.stdout()
    };
    let base = run(&["--usage", "-a", "x,ExampleBot", "-j1"]);
    for chunk in ["64", "1000"] {
        let many = run(&[
            "--usage",
            "-a",
            "x,ExampleBot",
            "-j4",
            "--chunk-size",
            chunk,
        ]);
        eqnice!(base, many);
    }
    let plain = run(&["-a", "x,ExampleBot", "-j1"]);
    let without_usage: String = base
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            format!("{},{},{}\n", f[0], f[1], f[5])
        })
        .collect();
    eqnice!(plain, without_usage);
    assert_eq!(base.lines().count(), 3_001);
});

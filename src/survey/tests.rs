//! The scope proof against the naive matcher, and the survey's rows.

use super::*;
use crate::matcher::Matcher;
use std::collections::HashSet;

fn find(robots: &str, dialect: Dialect) -> ScopeFinding {
    let robots = Robots::parse(robots.as_bytes());
    scope(&RuleSet::select(&robots, "bot", dialect))
}

fn of(robots: &str, dialect: Dialect) -> Scope {
    find(robots, dialect).scope
}

const RFC: Dialect = Dialect::Rfc9309;
const GOOGLE: Dialect = Dialect::Google;

#[test]
fn constructed_files() {
    let g = |rules: &str| format!("User-agent: bot\n{rules}");
    for (rules, want) in [
        ("Disallow: /", Scope::Full),
        ("Disallow: /*", Scope::Full),
        ("Disallow: *", Scope::Full),
        ("Disallow: /*$", Scope::Full),
        ("Disallow: /\nAllow: /public", Scope::Partial),
        ("Disallow: /$", Scope::Partial),
        ("Allow: /$\nDisallow: /", Scope::Partial),
        // `/robots.txt.bak` is allowed too.
        ("Disallow: /\nAllow: /robots.txt", Scope::Partial),
        ("Disallow: /\nAllow: /robots.txt$", Scope::Full),
        ("Disallow: /\nAllow: /robots.txt?x", Scope::Partial),
        ("Disallow:", Scope::None),
        ("Allow: /", Scope::None),
        ("Disallow: /private", Scope::Partial),
        // Allow wins ties: `/a` is allowed, so is all of `/a...`.
        ("Disallow: /\nDisallow: /a\nAllow: /a", Scope::Partial),
        // A longer disallow beats the allow on every path it can match.
        ("Disallow: /\nAllow: /a\nDisallow: /a*", Scope::Full),
        // At equal length allow wins: `/a` is allowed.
        ("Disallow: /\nAllow: /a$\nDisallow: /*a", Scope::Partial),
        ("Disallow: /\nAllow: /a$\nDisallow: /*a*", Scope::Full),
        ("Disallow: /\nAllow: /a$\nDisallow: /*b", Scope::Partial),
        ("Disallow: /\nAllow: /*.html$", Scope::Partial),
        // Only /robots.txt and below: everything else is allowed.
        ("Disallow: /robots.txt", Scope::Partial),
        ("Disallow: /robots.txt$", Scope::None),
        ("Disallow: /$\nDisallow: /*", Scope::Full),
    ] {
        assert_eq!(of(&g(rules), RFC), want, "{rules:?}");
    }
}

#[test]
fn per_dialect() {
    // Google has no implicit /robots.txt: disallowing only it is
    // partial there; patterns not starting with `/` are kept.
    let only_robots = "User-agent: bot\nDisallow: /robots.txt$\n";
    assert_eq!(of(only_robots, RFC), Scope::None);
    assert_eq!(of(only_robots, GOOGLE), Scope::Partial);
    // The older standards have no wildcards: `/*` is a literal prefix.
    let star = "User-agent: bot\nDisallow: /*\n";
    assert_eq!(of(star, RFC), Scope::Full);
    assert_eq!(of(star, Dialect::Draft1996), Scope::Partial);
    assert_eq!(of(star, Dialect::Orig1994), Scope::Partial);
    // The 1994 standard ignores allow lines; the draft takes the first.
    let first = "User-agent: bot\nDisallow: /\nAllow: /a\n";
    assert_eq!(of(first, Dialect::Orig1994), Scope::Full);
    assert_eq!(of(first, Dialect::Draft1996), Scope::Full);
    let allow_first = "User-agent: bot\nAllow: /a\nDisallow: /\n";
    assert_eq!(of(allow_first, Dialect::Draft1996), Scope::Partial);
    assert_eq!(of(allow_first, RFC), Scope::Partial);
    // Google reads `Allow: /d/index.html` as allowing `/d/` too.
    let index = "User-agent: bot\nDisallow: /d/\nAllow: /d/index.html$\n";
    let f = find(index, GOOGLE);
    assert_eq!(f.scope, Scope::Partial);
    // No group at all.
    assert_eq!(of("User-agent: other\nDisallow: /\n", RFC), Scope::None);
}

/// Paths to try the findings on: the witnesses, and paths made of the
/// bytes the rules name.
fn sample_paths(robots: &str) -> Vec<Vec<u8>> {
    let mut bytes: Vec<u8> = robots
        .lines()
        .filter_map(|l| l.split_once(':').map(|(_, v)| v.trim()))
        .flat_map(|v| v.bytes())
        .filter(|&b| b != b'*' && b != b'$')
        .collect();
    bytes.extend(b"/xa");
    bytes.sort_unstable();
    bytes.dedup();
    let mut paths = vec![b"/".to_vec()];
    let mut frontier = vec![b"/".to_vec()];
    for _ in 0..4 {
        let mut next = vec![];
        for p in &frontier {
            for &b in &bytes {
                let mut q = p.clone();
                q.push(b);
                next.push(q);
            }
        }
        paths.extend(next.iter().cloned());
        frontier = next;
        if paths.len() > 20_000 {
            break;
        }
    }
    for v in robots.lines().filter_map(|l| l.split_once(':')) {
        let v = v.1.trim().replace(['*', '$'], "");
        paths.push(format!("/{}", v.trim_start_matches('/')).into_bytes());
        paths.push(format!("/{}x", v.trim_start_matches('/')).into_bytes());
    }
    paths.push(b"/robots.txt".to_vec());
    paths
}

/// The naive matcher agrees: witnesses get the verdicts claimed, and
/// for `full` and `none` no sample path contradicts the scope.
fn check_with_oracle(robots: &str, dialect: Dialect) {
    let parsed = Robots::parse(robots.as_bytes());
    let rules = RuleSet::select(&parsed, "bot", dialect);
    let found = scope(&rules);
    let mut b = crate::MatcherBuilder::new();
    b.engine(crate::EngineKind::Naive);
    let m: Matcher = b.build(&parsed, "bot", dialect);
    let mut s = m.scratch();
    if let Some(ref p) = found.allowed {
        assert!(m.verdict_path(p, &mut s).is_allowed(), "{robots:?}");
    }
    if let Some(ref p) = found.disallowed {
        assert!(!m.verdict_path(p, &mut s).is_allowed(), "{robots:?}");
    }
    let root = m.verdict_path(b"/", &mut s).is_allowed();
    assert_eq!(found.root_allowed, root, "{robots:?} {dialect}: /");
    let implicit = matches!(dialect, Dialect::Rfc9309 | Dialect::Draft1996);
    for path in sample_paths(robots) {
        if implicit && path == b"/robots.txt" {
            continue;
        }
        let allowed = m.verdict_path(&path, &mut s).is_allowed();
        match found.scope {
            Scope::Full => assert!(
                !allowed,
                "{robots:?} {dialect}: {:?} allowed",
                String::from_utf8_lossy(&path)
            ),
            Scope::None => assert!(
                allowed,
                "{robots:?} {dialect}: {:?} disallowed",
                String::from_utf8_lossy(&path)
            ),
            Scope::Partial => {
                assert!(found.allowed.is_some() && found.disallowed.is_some())
            }
            Scope::Unknown => panic!("{robots:?}: unknown"),
        }
    }
}

#[test]
fn agrees_with_the_naive_matcher() {
    let pieces = [
        "/",
        "/*",
        "*",
        "/$",
        "/a",
        "/a$",
        "/a*",
        "/*a",
        "/*a$",
        "/ab",
        "/robots.txt",
        "/robots.txt$",
        "/*.txt$",
        "a",
        "",
        "/a*b$",
    ];
    let mut n = 0;
    for (i, d) in pieces.iter().enumerate() {
        for a in &pieces[i..] {
            for d2 in ["", "/", "/*a", "/ab$"] {
                let robots = format!(
                    "User-agent: bot\nDisallow: {d}\nAllow: {a}\n\
                     Disallow: {d2}\n"
                );
                for dialect in Dialect::ALL {
                    check_with_oracle(&robots, dialect);
                    n += 1;
                }
            }
        }
    }
    assert!(n > 1000);
}

/// `Disallow: /` and `n` allows such as `Allow: /*c*d*x$`, over
/// distinct letter triples, each after a longer disallow that matches
/// wherever it does (`Disallow: /*c*d*x*$` with `tail` `*$`). Each
/// allow is dead on its own; together they made the product of the
/// automata exponential.
fn beaten_allows(n: usize, allow_lead: &str, tail: &str) -> String {
    let mut next = crate::testing::xorshift(57);
    let mut seen = HashSet::new();
    let mut out = "User-agent: bot\nDisallow: /\n".to_string();
    while seen.len() < n {
        let t: Vec<char> =
            (0..3).map(|_| (b'a' + (next() % 26) as u8) as char).collect();
        if t[0] == t[1] || t[1] == t[2] || t[0] == t[2] {
            continue;
        }
        if !seen.insert(t.clone()) {
            continue;
        }
        let [c, d, x] = [t[0], t[1], t[2]];
        out.push_str(&format!(
            "Allow: {allow_lead}*{c}*{d}*{x}$\n\
             Disallow: /*{c}*{d}*{x}{tail}\n"
        ));
    }
    out
}

#[test]
fn beaten_wildcard_allows_are_full() {
    // 386 bytes and 9.6 KB, as in the reports.
    let small = beaten_allows(10, "/", "*$");
    let big = beaten_allows(265, "/", "*$");
    assert!(small.len() < 400 && (9_000..10_000).contains(&big.len()));
    for robots in [&small, &big] {
        for dialect in [RFC, GOOGLE] {
            let f = find(robots, dialect);
            assert_eq!(f.scope, Scope::Full, "{dialect}");
            assert!(!f.bound_hit && !f.root_allowed);
        }
    }
    // The disallows without `$` (`**` keeps them longer), the allows
    // without the leading `/` (every path starts with one), and both.
    for (lead, tail) in [("/", "**"), ("", "*$"), ("", "*")] {
        let robots = beaten_allows(200, lead, tail);
        assert_eq!(of(&robots, RFC), Scope::Full, "{lead:?} {tail:?}");
    }
    // Equal lengths: the allow wins where both match, at `/cdx`.
    for (lead, tail) in [("/", "$"), ("/", "*"), ("", "")] {
        let tie = beaten_allows(200, lead, tail);
        assert_eq!(of(&tie, RFC), Scope::Partial, "{lead:?} {tail:?}");
    }
    for (lead, tail) in [("/", "*$"), ("", "*"), ("/", "$")] {
        check_with_oracle(&beaten_allows(6, lead, tail), RFC);
    }
}

#[test]
fn the_bound_is_reported() {
    let robots = beaten_allows(265, "/", "*$");
    let parsed = Robots::parse(robots.as_bytes());
    let rules = RuleSet::select(&parsed, "bot", RFC);
    let f = scope_within(&rules, Some(1_000));
    assert_eq!(
        f,
        ScopeFinding {
            scope: Scope::Unknown,
            allowed: None,
            disallowed: None,
            root_allowed: false,
            bound_hit: true,
        }
    );
    assert_eq!(scope_within(&rules, None).scope, Scope::Full);
    assert_eq!(scope_work(0), MIN_SCOPE_WORK);
    assert_eq!(scope_work(usize::MAX), MAX_SCOPE_WORK);
    assert_eq!(scope_work(10_000), 10_000 * SCOPE_WORK_PER_BYTE);
}

#[test]
fn survey_shares_the_star_decision() {
    let robots = Robots::parse(
        b"User-agent: *\nDisallow: /x\n\nUser-agent: GPTBot\nDisallow: /\n",
    );
    let agents: Vec<String> =
        ["GPTBot", "CCBot", "gptbot", "Other"].map(String::from).to_vec();
    let got = survey(&robots, &agents, RFC);
    let kinds: Vec<_> = got.iter().map(|s| (s.group, s.scope)).collect();
    assert_eq!(
        kinds,
        [
            (GroupKind::Named, Scope::Full),
            (GroupKind::Star, Scope::Partial),
            (GroupKind::Named, Scope::Full),
            (GroupKind::Star, Scope::Partial),
        ]
    );
    assert_eq!(got[0].rules, 1);
    let root: Vec<bool> = got.iter().map(|s| s.root_allowed).collect();
    assert_eq!(root, [false, true, false, true]);
    let none = survey(&Robots::parse(b""), &agents[..1], RFC);
    assert_eq!(
        none,
        [AgentScope {
            group: GroupKind::None,
            scope: Scope::None,
            rules: 0,
            root_allowed: true,
            bound_hit: false,
        }]
    );
    // The older standards search substrings: `gpt` is named there.
    let gpt = ["gpt".to_string()];
    assert_eq!(
        survey(&robots, &gpt, Dialect::Draft1996)[0].group,
        GroupKind::Named
    );
    assert_eq!(survey(&robots, &gpt, RFC)[0].group, GroupKind::Star);
}

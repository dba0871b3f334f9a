//! Hostile robots.txt files: tens of thousands of wildcard rules, rules
//! built to explode a DFA, 20 MiB of random bytes, files over the parse
//! limit, NUL bytes, lone CRs, a BOM in the middle, a line of megabytes.
//!
//! For each, every engine gives the reference engine's (`naive`) verdict,
//! reason included, on a few hundred URLs made from the file's own rules
//! and on hand-made hostile paths (long runs of one byte, of `*`, `$` and
//! percent escapes, random bytes), and compilation stays within its size
//! limits (the dense engine falls back to the lazy DFA rather than
//! growing). Every input is generated here from a fixed seed; nothing big
//! is committed.
//!
//! There is no timing assertion: `scripts/hostile` measures compile and
//! run times, memory, and linearity. The sizes here keep the reference
//! engine, which tries every rule on its own, to a few seconds in all.

use std::time::Instant;

use robots_batch::sample::{self, Rng};
use robots_batch::{
    robots::LineKind, robots::WarningKind, robots::MAX_LINE_LEN, Dialect,
    EngineKind, Matcher, MatcherBuilder, Robots, Verdict,
    DEFAULT_MAX_ROBOTS_BYTES,
};

/// The dense engine's limits here: small enough that the DFA bombs below
/// give up quickly, large enough that ordinary sets fit.
const DENSE_BYTES: usize = 256 << 10;
const DETERMINIZE_BYTES: usize = 64 << 10;
/// The most parts a dense set may have (the engine's `max_parts`).
const MAX_DENSE_PARTS: usize = 16;

/// Every engine but the reference, with the limits it runs under.
fn builders() -> Vec<(&'static str, MatcherBuilder)> {
    let mut dense = MatcherBuilder::new();
    dense
        .engine(EngineKind::Dense)
        .dense_size_limit(DENSE_BYTES)
        .determinize_size_limit(DETERMINIZE_BYTES);
    let mut lazy_tiny = MatcherBuilder::new();
    // A cache that holds almost nothing: cleared at nearly every byte.
    lazy_tiny.engine(EngineKind::Lazy).lazy_cache_capacity(1);
    vec![
        ("trie", MatcherBuilder::new().engine(EngineKind::Trie).clone()),
        ("lazy", MatcherBuilder::new().engine(EngineKind::Lazy).clone()),
        ("dense", dense),
        ("lazy, tiny cache", lazy_tiny),
    ]
}

/// What an engine may become after its fallbacks, and the most heap its
/// automaton may take.
fn assert_within_limits(what: &str, label: &str, m: &Matcher) {
    let (strategy, bytes) = (m.strategy(), m.memory_usage());
    let allowed: &[&str] = match label {
        "trie" => &["empty", "trie", "lazy-dfa", "naive"],
        "dense" => {
            &["empty", "dense-dfa", "dense-dfa-split", "lazy-dfa", "naive"]
        }
        _ => &["empty", "lazy-dfa", "naive"],
    };
    assert!(allowed.contains(&strategy), "{what}: {label} is {strategy}");
    if strategy.starts_with("dense-dfa") {
        assert!(
            bytes <= MAX_DENSE_PARTS * DENSE_BYTES,
            "{what}: {label}: {bytes} bytes of dense DFAs"
        );
    }
}

fn verdicts(m: &Matcher, urls: &[Vec<u8>]) -> Vec<Verdict> {
    let mut scratch = m.scratch();
    urls.iter().map(|u| m.verdict(u, &mut scratch)).collect()
}

/// A URL for messages: its start, and its length when it is long.
fn show_url(url: &[u8]) -> String {
    let text = String::from_utf8_lossy(&url[..url.len().min(80)]);
    if url.len() > 80 {
        format!("{text:?}... ({} bytes)", url.len())
    } else {
        format!("{text:?}")
    }
}

/// URLs to check: the reference engine and `trie` get all of them; the
/// engines that end up on the lazy DFA (whose cache thrashes on huge rule
/// sets, tens of milliseconds a URL) only every `slow_step`-th sample URL,
/// and every hostile path.
struct Urls {
    sample: Vec<Vec<u8>>,
    hostile: Vec<Vec<u8>>,
    slow_step: usize,
}

impl Urls {
    fn all(&self) -> Vec<Vec<u8>> {
        self.sample.iter().chain(&self.hostile).cloned().collect()
    }

    /// Indexes into [`Urls::all`] for a slow engine.
    fn slow(&self) -> Vec<usize> {
        let n = self.sample.len();
        (0..n)
            .step_by(self.slow_step)
            .chain(n..n + self.hostile.len())
            .collect()
    }
}

/// Asserts that every engine gives naive's verdict on every URL, for each
/// dialect, and stays within its limits. Returns the strategies used,
/// per dialect, in the order of [`builders`].
fn assert_engines_agree(
    what: &str,
    robots: &Robots,
    dialects: &[Dialect],
    urls: &Urls,
) -> Vec<Vec<&'static str>> {
    let all = urls.all();
    let slow = urls.slow();
    let mut strategies = vec![];
    for &dialect in dialects {
        let start = Instant::now();
        let naive = MatcherBuilder::new()
            .engine(EngineKind::Naive)
            .build(robots, "*", dialect);
        let want = verdicts(&naive, &all);
        eprintln!("{what}, {dialect}: naive {:.2?}", start.elapsed());
        let mut used = vec![];
        for (label, builder) in builders() {
            if label == "lazy, tiny cache" && urls.slow_step > 1 {
                continue;
            }
            let start = Instant::now();
            let m = builder.build(robots, "*", dialect);
            let compiled = start.elapsed();
            assert_within_limits(what, label, &m);
            let which: Vec<usize> = if m.strategy() == "lazy-dfa" {
                slow.clone()
            } else {
                (0..all.len()).collect()
            };
            let mut scratch = m.scratch();
            for &i in &which {
                let got = m.verdict(&all[i], &mut scratch);
                assert!(
                    got == want[i],
                    "{what}, {dialect}, {label} ({}): url {}: naive says \
                     {:?}, engine says {:?}",
                    m.strategy(),
                    show_url(&all[i]),
                    want[i],
                    got,
                );
            }
            eprintln!(
                "{what}, {dialect}: {label} ({}) compile {compiled:.2?}, \
                 {} URLs in {:.2?}",
                m.strategy(),
                which.len(),
                start.elapsed() - compiled
            );
            used.push(m.strategy());
        }
        strategies.push(used);
    }
    strategies
}

/// Hand-made hostile paths of about `len` bytes: long runs of one byte or
/// of the bytes that matching and normalisation treat specially, runs that
/// almost match `alphabet` cycled, random bytes. `all` adds more kinds.
fn hostile_paths(len: usize, alphabet: &[u8], all: bool) -> Vec<Vec<u8>> {
    let run = |unit: &[u8], end: &[u8]| {
        let mut p = Vec::with_capacity(len + unit.len() + end.len() + 1);
        p.push(b'/');
        while p.len() < len {
            p.extend_from_slice(unit);
        }
        p.extend_from_slice(end);
        p
    };
    let reversed: Vec<u8> = alphabet.iter().rev().copied().collect();
    let mut rng = Rng::new(0xbad_5eed);
    let mut paths =
        vec![run(b"a", b""), run(alphabet, b""), run(&reversed, b"$")];
    if all {
        paths.extend([
            run(b"*", b""),
            run(b"%24", b""),
            run(b"\xff", b""),
            (0..len).map(|_| rng.next_u64() as u8).collect(),
            run(b"a", b"b"),
            run(b"$", b""),
            run(b"/", b""),
            run(b"%", b""),
            run(b"%2", b"4"),
            run(b"%2A", b"$"),
            run(b"%C3%A9", b""),
            run(b"\xC3\xA9", b""),
            run(b"\0", b""),
            run(b"a*", b"$"),
        ]);
        let mut url = b"https://example.com".to_vec();
        url.extend_from_slice(&run(b"ab", b"#frag"));
        paths.push(url);
    }
    paths
}

/// URLs for `robots`: `count` made from its rules, every kind of hostile
/// path at `short` bytes, and the main kinds at `long` bytes (none when
/// `long` is 0).
fn urls_for(
    robots: &Robots,
    count: usize,
    (short, long): (usize, usize),
    alphabet: &[u8],
    slow_step: usize,
) -> Urls {
    let sample = sample::urls(robots, count, 0x5eed);
    let mut hostile = hostile_paths(short, alphabet, true);
    if long > 0 {
        hostile.extend(hostile_paths(long, alphabet, false));
    }
    Urls { sample, hostile, slow_step }
}

/// `n` wildcard rules over a small alphabet, so that they share prefixes
/// and overlap: stars, anchors, percent escapes, non-ASCII bytes.
fn wildcard_rules(n: usize, seed: u64) -> Vec<u8> {
    const PIECES: &[&[u8]] = &[
        b"a",
        b"b",
        b"c",
        b"/",
        b"*",
        b"*",
        b"**",
        b"$",
        b"%",
        b"%2A",
        b"%24",
        b"%2f",
        b"\xC3\xA9",
        b"?",
        b"=",
        b".php",
        b"/x/",
    ];
    let mut rng = Rng::new(seed);
    let mut out = b"User-agent: *\n".to_vec();
    for i in 0..n {
        out.extend_from_slice(if rng.one_in(3) {
            b"Allow: /"
        } else {
            b"Disallow: /"
        });
        for _ in 0..1 + rng.below(6) {
            out.extend_from_slice(rng.pick(PIECES));
        }
        if rng.one_in(3) {
            out.push(b'$');
        }
        out.push(b'\n');
        if i % 5000 == 4999 {
            // Other groups and records in between change nothing.
            out.extend_from_slice(b"Crawl-delay: 1\nSitemap: /s.xml\n");
        }
    }
    out
}

/// Rules that make a DFA explode: many `*` between distinct bytes, ending
/// in `$`, each rule the bytes in another order. A DFA over them needs a
/// state per combination of progress through every rule.
fn dfa_bomb(rules: usize, stars: usize, alphabet: &[u8]) -> Vec<u8> {
    let mut out = b"User-agent: *\n".to_vec();
    for i in 0..rules {
        out.extend_from_slice(if i % 4 == 0 {
            b"Allow: /"
        } else {
            b"Disallow: /"
        });
        for j in 0..stars {
            out.push(b'*');
            let step = 1 + i % (alphabet.len() - 1);
            out.push(alphabet[(i + j * step) % alphabet.len()]);
        }
        out.extend_from_slice(b"$\n");
    }
    out
}

const ALNUM: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";

#[test]
fn tens_of_thousands_of_wildcard_rules() {
    let text = wildcard_rules(30_000, 1);
    let robots = Robots::parse(&text);
    let rules = robots.lines().iter().filter(|l| l.kind().is_rule());
    assert_eq!(rules.count(), 30_000);
    // Short hostile paths only: the reference engine tries each of the
    // 30,000 rules on every path.
    let urls = urls_for(&robots, 300, (200, 0), b"abc/*$%", 10);
    let used = assert_engines_agree(
        "30,000 wildcard rules",
        &robots,
        &Dialect::ALL,
        &urls,
    );
    // The default engine needs no fallback, whatever the rules.
    assert!(used.iter().all(|u| u[0] == "trie"), "{used:?}");
}

#[test]
fn dfa_bomb_falls_back_and_agrees() {
    let text = dfa_bomb(32, 12, ALNUM);
    let robots = Robots::parse(&text);
    let urls = urls_for(&robots, 300, (1_000, 100_000), ALNUM, 1);
    let used = assert_engines_agree(
        "DFA bomb",
        &robots,
        &[Dialect::Rfc9309, Dialect::Google],
        &urls,
    );
    for used in used {
        // No single dense DFA holds them: the dense engine split them
        // into parts within its limits, or fell back to the lazy DFA.
        assert!(
            ["dense-dfa-split", "lazy-dfa"].contains(&used[2]),
            "{used:?}"
        );
    }
}

/// Many wildcard tails on one prefix, each a literal the next one
/// extends (`/*a$`, `/*aa$`, ...): on a path of `a`s every position ends
/// a match of every tail.
#[test]
fn overlapping_tails() {
    let mut text = b"User-agent: *\nDisallow: /*".to_vec();
    text.extend(std::iter::repeat_n(b'z', 200));
    text.push(b'\n');
    for k in 1..100 {
        text.extend_from_slice(if k % 2 == 0 {
            b"Allow: /*"
        } else {
            b"Disallow: /*"
        });
        text.extend(std::iter::repeat_n(b'a', k));
        text.extend_from_slice(if k % 3 == 0 { b"$\n" } else { b"\n" });
    }
    let robots = Robots::parse(&text);
    let urls = urls_for(&robots, 200, (500, 0), b"az", 1);
    assert_engines_agree(
        "overlapping tails",
        &robots,
        &[Dialect::Rfc9309, Dialect::Google],
        &urls,
    );
}

#[test]
fn twenty_mib_of_random_bytes() {
    let mut rng = Rng::new(20);
    let mut text = b"User-agent: *\n".to_vec();
    text.extend((0..20 << 20).map(|_| rng.next_u64() as u8));
    let robots = Robots::parse(&text);
    // Every line end (LF, lone CR, CR LF) ends one line.
    let ends = text
        .iter()
        .enumerate()
        .filter(|&(i, &b)| {
            b == b'\n' || (b == b'\r' && text.get(i + 1) != Some(&b'\n'))
        })
        .count();
    let last_open = !matches!(text.last(), Some(b'\n' | b'\r'));
    assert_eq!(robots.lines().len(), ends + usize::from(last_open));
    assert_eq!(robots.lines()[0].kind(), LineKind::UserAgent);
    let urls = urls_for(&robots, 300, (1_000, 100_000), b"/\0\r\xff", 1);
    assert_engines_agree(
        "20 MiB of random bytes",
        &robots,
        &Dialect::ALL,
        &urls,
    );
    let cut = Robots::parse_with_limit(&text, DEFAULT_MAX_ROBOTS_BYTES);
    assert_eq!(cut.bytes().len(), DEFAULT_MAX_ROBOTS_BYTES);
    assert!(matches!(
        cut.warnings()[0].kind,
        WarningKind::OverParseLimit { len, limit: DEFAULT_MAX_ROBOTS_BYTES }
            if len == text.len()
    ));
}

#[test]
fn random_rule_values() {
    // Rules whose values are random bytes: NUL, CR, `#`, `*`, `$`, `%`,
    // bytes over 0x7F, all of them.
    let mut rng = Rng::new(21);
    let mut text = b"User-agent: *\n".to_vec();
    while text.len() < 64 << 10 {
        text.extend_from_slice(if rng.one_in(3) {
            b"Allow: "
        } else {
            b"Disallow: "
        });
        if !rng.one_in(4) {
            text.push(if rng.one_in(8) { b'*' } else { b'/' });
        }
        for _ in 0..rng.below(40) {
            text.push(rng.next_u64() as u8);
        }
        text.push(b'\n');
    }
    let robots = Robots::parse(&text);
    let urls = urls_for(&robots, 300, (300, 0), b"/*$%\0", 5);
    assert_engines_agree("random rule values", &robots, &Dialect::ALL, &urls);
}

#[test]
fn files_over_the_parse_limit() {
    // 2 MiB of wildcard rules, cut at the default limit, which falls in
    // the middle of a rule, and at a few other places.
    let mut text = b"User-agent: *\n".to_vec();
    let mut i = 0;
    while text.len() < 2 << 20 {
        text.extend_from_slice(format!("Disallow: /r{i}/*x*y$\n").as_bytes());
        i += 1;
    }
    for limit in [DEFAULT_MAX_ROBOTS_BYTES, 1, 20] {
        let robots = Robots::parse_with_limit(&text, limit);
        assert_eq!(robots.bytes(), &text[..limit]);
        assert!(matches!(
            robots.warnings()[0].kind,
            WarningKind::OverParseLimit { len, limit: l }
                if len == text.len() && l == limit
        ));
        let last = robots.lines().last().unwrap();
        let cut_line = robots.text(last);
        let urls = urls_for(&robots, 100, (200, 0), b"rxy/*", 1);
        let mut sample = urls.sample.clone();
        // Rules past the cut do not apply.
        sample.push(format!("/r{}/x", i - 1).into_bytes());
        let urls = Urls { sample, ..urls };
        assert_engines_agree(
            "over the parse limit",
            &robots,
            &[Dialect::Rfc9309, Dialect::Orig1994],
            &urls,
        );
        if limit == DEFAULT_MAX_ROBOTS_BYTES {
            // The cut rule keeps what was read of it.
            assert!(cut_line.starts_with(b"Disallow: /r"), "{cut_line:?}");
            assert!(!text[..limit].ends_with(b"\n"), "the cut is mid-line");
            let m = Matcher::new(&robots, "*", Dialect::Rfc9309);
            let mut scratch = m.scratch();
            let past = format!("/r{}/xy", i - 1);
            assert!(m.verdict(past.as_bytes(), &mut scratch).is_allowed());
            assert!(!m.verdict(b"/r0/xy", &mut scratch).is_allowed());
        }
    }
}

#[test]
fn nul_lone_cr_bom_in_the_middle_and_a_line_of_megabytes() {
    let mut text = b"\xEF\xBB\xBFUser-agent: *\n".to_vec();
    // A NUL ends the useful part of its line.
    text.extend_from_slice(b"Disallow: /nul\0/ignored\n");
    // A lone CR ends a line; so does CR LF.
    text.extend_from_slice(b"Disallow: /cr\rAllow: /cr/open\r\n");
    // A BOM anywhere but the start is part of the line: here of its key,
    // which is then no known key.
    text.extend_from_slice(b"\xEF\xBB\xBFDisallow: /bom\n");
    text.extend_from_slice(b"Disallow: /mid\xEF\xBB\xBFbom\n");
    // A line of 3 MiB: only its first MAX_LINE_LEN bytes count.
    text.extend_from_slice(b"Disallow: /long/");
    text.extend(std::iter::repeat_n(b'x', 3 << 20));
    text.extend_from_slice(b"*$\n");
    text.extend_from_slice(b"Disallow: /after-long\n\r\r\n\n\r");
    text.extend_from_slice(b"Disallow: /tab\there\0\0\0\n");
    text.extend_from_slice(b"Disallow: /z*\0\xff$\n");
    let robots = Robots::parse(&text);
    assert!(robots.warnings().iter().any(|w| matches!(
        w.kind,
        WarningKind::LineTooLong { len } if len == 16 + (3 << 20) + 2
    )));
    let kept = MAX_LINE_LEN - b"Disallow: /long/".len();
    let mut long_in = b"/long/".to_vec();
    long_in.extend(std::iter::repeat_n(b'x', kept));
    let cases: &[(&[u8], bool)] = &[
        (b"/nul", false),
        (b"/nul/ignored", false),
        (b"/nu", true),
        (b"/cr", false),
        (b"/cr/open", true),
        (b"/bom", true),
        (b"/mid\xEF\xBB\xBFbom", false),
        (b"/mid%EF%BB%BFbom", false),
        (&long_in, false),
        (&long_in[..100], true),
        (b"/after-long", false),
        (b"/tab\there", false),
        (b"/tab", true),
        (b"/anything", true),
        (b"/zz", false),
    ];
    let m = Matcher::new(&robots, "*", Dialect::Rfc9309);
    let mut scratch = m.scratch();
    for &(url, allowed) in cases {
        let v = m.verdict(url, &mut scratch);
        assert_eq!(v.is_allowed(), allowed, "{}: {v:?}", show_url(url));
    }
    let mut urls = urls_for(&robots, 300, (1_000, 100_000), b"/x\0\r", 1);
    // The reference engine takes time quadratic in a literal pattern's
    // length on a path that follows it: no more than one such path.
    urls.sample.retain(|u| u.len() < 2_000);
    urls.sample.extend(cases.iter().map(|c| c.0.to_vec()));
    assert_engines_agree(
        "NUL, CR, BOM, long line",
        &robots,
        &Dialect::ALL,
        &urls,
    );
}

/// URLs and whether each is allowed.
type Expect<'a> = &'a [(&'a [u8], bool)];

/// Found by `tens_of_thousands_of_wildcard_rules`: the `trie` engine read
/// a `$` that stars follow as the end anchor once it had dropped the
/// trailing stars (`/*$*` became `/*$`, which matches every path). Only
/// the google dialect keeps such a `$` as it is (RFC 9309 spells it
/// `%24`), so only google verdicts were wrong.
#[test]
fn dollar_before_trailing_stars_is_literal() {
    let cases: &[(&[u8], Expect)] = &[
        (b"/*$*", &[(b"/a", true), (b"/a$", false), (b"/$b", false)]),
        (b"/*$**", &[(b"/a", true), (b"/a$", false)]),
        (b"/x*a$*$", &[(b"/xba", true), (b"/xa$", false), (b"/xa$b", false)]),
        (b"/x*a$$", &[(b"/xa$", false), (b"/xa", true), (b"/xa$b", true)]),
        (b"/x*a*$", &[(b"/xa", false), (b"/xba$", false), (b"/x", true)]),
    ];
    for &(pattern, urls) in cases {
        let mut text = b"User-agent: *\nDisallow: ".to_vec();
        text.extend_from_slice(pattern);
        let robots = Robots::parse(&text);
        for dialect in [Dialect::Google, Dialect::Rfc9309] {
            for (label, builder) in builders() {
                let m = builder.build(&robots, "*", dialect);
                let mut scratch = m.scratch();
                for &(url, allowed) in urls {
                    let v = m.verdict(url, &mut scratch);
                    assert_eq!(
                        v.is_allowed(),
                        allowed,
                        "{dialect} {label}: {} on {}",
                        show_url(pattern),
                        show_url(url)
                    );
                }
            }
        }
    }
}

/// `User-agent: *` and the rule lines `rule(i)` for `i` in `0..n`.
fn rules_file(n: usize, rule: impl Fn(usize) -> String) -> Vec<u8> {
    let mut text = b"User-agent: *\n".to_vec();
    for i in 0..n {
        text.extend_from_slice(rule(i).as_bytes());
        text.push(b'\n');
    }
    text
}

/// `trie` gives `scan`'s verdicts (reason included) on `paths`, and
/// compiles within `seconds`.
///
/// N.B. The one timed bound of these tests, asked for by the issue and
/// very generous: the compiles it guards took from 10 s to minutes when
/// they were quadratic, and take a fraction of a second now.
fn compile_within(
    what: &str,
    robots: &Robots,
    paths: &[&[u8]],
    seconds: u64,
) -> Matcher {
    let start = Instant::now();
    let m = Matcher::new(robots, "bot", Dialect::Rfc9309);
    let compiled = start.elapsed();
    eprintln!(
        "{what}: compiled in {compiled:.2?}, {} bytes",
        m.memory_usage()
    );
    assert!(
        compiled.as_secs() < seconds,
        "{what}: compiling took {compiled:.2?}"
    );
    assert_eq!(m.strategy(), "trie", "{what}");
    let scan = MatcherBuilder::new().engine(EngineKind::Scan).build(
        robots,
        "bot",
        Dialect::Rfc9309,
    );
    let (mut s1, mut s2) = (m.scratch(), scan.scratch());
    for path in paths {
        assert_eq!(
            m.verdict(path, &mut s1),
            scan.verdict(path, &mut s2),
            "{what}: {}",
            show_url(path)
        );
    }
    m
}

/// 170,666 copies of `Disallow:*a` (2 MB): repeated rules are kept once,
/// so the compiled matcher is as small as for one rule, and the rule
/// that decides is still the first of them.
#[test]
fn copies_of_one_wildcard_rule_compile_to_one() {
    let text = rules_file(170_666, |_| "Disallow:*a".to_string());
    let robots = Robots::parse(&text);
    let paths: &[&[u8]] = &[b"/", b"/a", b"/xyz", b"/xyza", b"/b/a/c"];
    let m = compile_within("170,666 copies of *a", &robots, paths, 10);
    assert!(m.memory_usage() < 4 << 10, "{} bytes", m.memory_usage());
    let v = m.verdict(b"/xa", &mut m.scratch());
    assert!(!v.is_allowed());
    assert_eq!(v.reason(), robots_batch::Reason::Rule(0));
    assert_eq!(m.rules().next().map(|r| r.line()), Some(2));
}

/// Rules alternating `*a` and `*b` (the 500 KiB parse limit's worth):
/// two tails in all, checked directly on each path.
#[test]
fn alternating_wildcard_rules_compile_to_two() {
    let text = rules_file(42_666, |i| {
        format!("Disallow:*{}", if i % 2 == 0 { 'a' } else { 'b' })
    });
    let robots = Robots::parse(&text);
    let paths: &[&[u8]] =
        &[b"/", b"/a", b"/b", b"/xyz", b"/xyzb", b"/c/d/e/f/g/h/i/j/k/l/m/n"];
    let m = compile_within("42,666 alternating *a, *b", &robots, paths, 10);
    assert!(m.memory_usage() < 4 << 10, "{} bytes", m.memory_usage());
    let mut scratch = m.scratch();
    assert_eq!(
        m.verdict(b"/xb", &mut scratch).reason(),
        robots_batch::Reason::Rule(1)
    );
}

/// 300,000 distinct rules `/a*b*c<i>` (6.6 MB): they share their first
/// literal, so they are one group whose own automaton holds the `c<i>`:
/// compile time and memory follow the rules' bytes, and a path searches
/// the group once rather than every rule's `c<i>`.
#[test]
fn distinct_rules_sharing_a_first_literal_compile_linearly() {
    let n = 300_000;
    let text = rules_file(n, |i| format!("Disallow:/a*b*c{i}"));
    let robots = Robots::parse(&text);
    let paths: &[&[u8]] = &[
        b"/",
        b"/a",
        b"/abc",
        b"/a/b/c299999",
        b"/a/b/c7",
        b"/a/c7/b",
        b"/x/b/c1",
        b"/abbbbbbbbbbbbbbbbbbbbbc",
        b"/a/bc/bc/bc/bc/bc/bc/bc/bc/bc/bc/bc/bc/bc/bc",
    ];
    let m = compile_within("300,000 distinct /a*b*c<i>", &robots, paths, 20);
    // About 120 bytes a rule, as allocated (its entry and report in the
    // group, its literal's states in the group's automaton; the rules'
    // own bytes are 22 each).
    assert!(m.memory_usage() < n * 150, "{} bytes", m.memory_usage());
    // Paths that meet the group: each searches one automaton, whatever
    // the number of rules in it.
    let mut scratch = m.scratch();
    let start = Instant::now();
    let mut disallowed = 0;
    for i in 0..20_000 {
        let path = format!("/a/x/b/y/c{}", i * 7 % n);
        disallowed += usize::from(
            !m.verdict(path.as_bytes(), &mut scratch).is_allowed(),
        );
        let path = format!("/a/x/b/y/d{i}");
        disallowed += usize::from(
            !m.verdict(path.as_bytes(), &mut scratch).is_allowed(),
        );
    }
    assert_eq!(disallowed, 20_000);
    let elapsed = start.elapsed();
    eprintln!("40,000 paths in {elapsed:.2?}");
    assert!(elapsed.as_secs() < 10, "40,000 paths took {elapsed:.2?}");
}

/// `lint` of 100,000 distinct wildcard rules, none shadowing another,
/// in every dialect: each rule's winner is found by sorting (longest
/// match) or one trie walk (first match), where comparing every pair was
/// quadratic; copies are found as copies of the first.
#[test]
fn lint_of_many_rules_is_not_quadratic() {
    let text = rules_file(100_000, |i| format!("Disallow:/a*b*c{i}x"));
    let robots = Robots::parse(&text);
    for dialect in Dialect::ALL {
        let start = Instant::now();
        let lint = robots_batch::lint::Lint::new(&robots, dialect);
        let elapsed = start.elapsed();
        eprintln!("lint, {dialect}: {elapsed:.2?}");
        assert!(elapsed.as_secs() < 20, "{dialect}: {elapsed:.2?}");
        assert!(
            lint.findings.iter().all(|f| f.code != "shadowed-rule"),
            "{dialect}"
        );
    }
    let text = rules_file(30_000, |i| {
        format!("Disallow:{}", if i % 2 == 0 { "*a" } else { "/b" })
    });
    let robots = Robots::parse(&text);
    for dialect in Dialect::ALL {
        let lint = robots_batch::lint::Lint::new(&robots, dialect);
        let shadowed: Vec<_> = lint
            .findings
            .iter()
            .filter(|f| f.code == "shadowed-rule")
            .collect();
        assert_eq!(shadowed.len(), 29_998, "{dialect}");
        for f in shadowed {
            let first = if f.line % 2 == 0 { "line 2 " } else { "line 3 " };
            assert!(f.message.contains(first), "{dialect}: {f:?}");
        }
    }
}

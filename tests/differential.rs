//! Differential tests: every engine gives the reference engine's verdict.
//!
//! * On all real robots.txt files of `../shared/datasets/robots/` (skipped
//!   with a message when `../shared` is absent), for every dialect, for `*`
//!   and for agents the file names, with URLs generated from each file's
//!   own patterns.
//! * On generated rule sets (proptest), with `*`, `$`, percent escapes and
//!   non-ASCII bytes, including the fallbacks forced by tiny size limits.

use std::path::PathBuf;

use proptest::prelude::*;
use rayon::prelude::*;
use robots_batch::{
    robots::LineKind, Dialect, EngineKind, Matcher, MatcherBuilder, Robots,
};

fn shared_robots_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/datasets/robots");
    if dir.is_dir() {
        Some(dir)
    } else {
        crate::util::skip(
            "real_files_every_engine_agrees_with_naive",
            &format!("{} is absent", dir.display()),
        );
        None
    }
}

/// The verdicts of `m` on `urls`, as a string of `A`/`D`, so a mismatch
/// shows where it is.
fn verdicts(m: &Matcher, urls: &[Vec<u8>]) -> Vec<bool> {
    let mut scratch = m.scratch();
    urls.iter().map(|u| m.verdict(u, &mut scratch).is_allowed()).collect()
}

fn first_difference(
    want: &[bool],
    got: &[bool],
    urls: &[Vec<u8>],
) -> Option<String> {
    let i = want.iter().zip(got).position(|(a, b)| a != b)?;
    Some(format!(
        "url {:?}: naive says allowed={}, engine says allowed={}",
        String::from_utf8_lossy(&urls[i]),
        want[i],
        got[i]
    ))
}

/// Up to three agent tokens the file names, besides `*`.
fn agents(robots: &Robots) -> Vec<String> {
    let mut out = vec!["*".to_string()];
    for line in robots.lines() {
        if line.kind() != LineKind::UserAgent || out.len() > 3 {
            continue;
        }
        let token = robots_batch::product_token(
            std::str::from_utf8(robots.value(line)).unwrap_or(""),
        );
        if !token.is_empty() && !out.iter().any(|a| a == token) {
            out.push(token.to_string());
        }
    }
    out
}

#[test]
fn real_files_every_engine_agrees_with_naive() {
    let Some(dir) = shared_robots_dir() else { return };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 2_680,
        "only {} files in {}",
        files.len(),
        dir.display()
    );
    let checked: Vec<Result<usize, String>> = files
        .par_iter()
        .map(|file| {
            let bytes = std::fs::read(file).unwrap();
            let robots = Robots::parse(&bytes);
            let urls = robots_batch::sample::urls(&robots, 300, 0x5eed);
            let mut n = 0;
            for agent in agents(&robots) {
                for dialect in Dialect::ALL {
                    let naive = MatcherBuilder::new()
                        .engine(EngineKind::Naive)
                        .build(&robots, &agent, dialect);
                    let want = verdicts(&naive, &urls);
                    let mut engines =
                        vec![EngineKind::Trie, EngineKind::Lazy, EngineKind::Scan];
                    // The whole-set dense DFA takes tens of milliseconds to
                    // build even for small files; it is covered once per
                    // file of up to 100 rules, the rest by the proptests.
                    if agent == "*"
                        && dialect == Dialect::Rfc9309
                        && naive.rules().len() <= 100
                    {
                        engines.push(EngineKind::Dense);
                    }
                    for kind in engines {
                        let m = MatcherBuilder::new()
                            .engine(kind)
                            .build(&robots, &agent, dialect);
                        if let Some(diff) =
                            first_difference(&want, &verdicts(&m, &urls), &urls)
                        {
                            return Err(format!(
                                "{} agent {agent:?} {dialect} {kind} ({}): {diff}",
                                file.display(),
                                m.strategy()
                            ));
                        }
                        n += urls.len();
                    }
                }
            }
            Ok(n)
        })
        .collect();
    let errors: Vec<&String> =
        checked.iter().filter_map(|r| r.as_ref().err()).collect();
    assert!(
        errors.is_empty(),
        "{} files disagree:\n{}",
        errors.len(),
        errors
            .iter()
            .take(20)
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    let total: usize = checked.iter().map(|r| *r.as_ref().unwrap()).sum();
    eprintln!("{} files, {total} verdicts compared", files.len());
}

/// Bytes that matter to matching and normalisation.
fn pattern_byte() -> impl Strategy<Value = u8> {
    prop::sample::select(vec![
        b'/', b'a', b'b', b'c', b'*', b'$', b'%', b'2', b'F', b'f', b'4',
        b'1', b'?', b'=', b'~', 0xC3, 0xA9,
    ])
}

fn rule_set() -> impl Strategy<Value = Vec<(bool, Vec<u8>)>> {
    prop::collection::vec(
        (any::<bool>(), prop::collection::vec(pattern_byte(), 0..8)),
        0..12,
    )
}

fn robots_text(rules: &[(bool, Vec<u8>)]) -> Vec<u8> {
    let mut out = b"User-agent: *\n".to_vec();
    for (allow, pattern) in rules {
        out.extend_from_slice(if *allow { b"Allow: " } else { b"Disallow: " });
        out.extend_from_slice(pattern);
        out.push(b'\n');
    }
    out
}

fn paths() -> impl Strategy<Value = Vec<Vec<u8>>> {
    prop::collection::vec(
        prop::collection::vec(pattern_byte(), 0..12).prop_map(|mut p| {
            p.insert(0, b'/');
            p
        }),
        1..24,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn generated_rules_every_engine_agrees_with_naive(
        rules in rule_set(),
        urls in paths(),
    ) {
        let robots = Robots::parse(&robots_text(&rules));
        for dialect in Dialect::ALL {
            let naive = MatcherBuilder::new()
                .engine(EngineKind::Naive)
                .build(&robots, "bot", dialect);
            let want = verdicts(&naive, &urls);
            let mut tiny = MatcherBuilder::new();
            tiny.dense_size_limit(1).determinize_size_limit(1).lazy_cache_capacity(1);
            let builders = [
                ("trie", MatcherBuilder::new().engine(EngineKind::Trie).clone()),
                ("dense", MatcherBuilder::new().engine(EngineKind::Dense).clone()),
                ("lazy", MatcherBuilder::new().engine(EngineKind::Lazy).clone()),
                ("scan", MatcherBuilder::new().engine(EngineKind::Scan).clone()),
                ("trie with tiny limits", tiny.clone().engine(EngineKind::Trie).clone()),
                ("dense with tiny limits", tiny.clone().engine(EngineKind::Dense).clone()),
            ];
            for (label, builder) in builders {
                let m = builder.build(&robots, "bot", dialect);
                let diff = first_difference(&want, &verdicts(&m, &urls), &urls);
                prop_assert!(diff.is_none(), "{} {} ({}): {}", label, dialect,
                    m.strategy(), diff.unwrap_or_default());
            }
        }
    }

    #[test]
    fn dense_split_agrees_with_naive(
        rules in prop::collection::vec(
            (any::<bool>(), prop::collection::vec(pattern_byte(), 1..10)), 1..40),
        urls in paths(),
    ) {
        // Limits that let small sets through and make larger ones split.
        let robots = Robots::parse(&robots_text(&rules));
        let naive = MatcherBuilder::new()
            .engine(EngineKind::Naive)
            .build(&robots, "bot", Dialect::Google);
        let m = MatcherBuilder::new()
            .engine(EngineKind::Dense)
            .dense_size_limit(20_000)
            .determinize_size_limit(20_000)
            .build(&robots, "bot", Dialect::Google);
        let diff = first_difference(&verdicts(&naive, &urls), &verdicts(&m, &urls), &urls);
        prop_assert!(diff.is_none(), "{}: {}", m.strategy(), diff.unwrap_or_default());
    }
}

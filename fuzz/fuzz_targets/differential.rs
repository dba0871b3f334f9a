//! Compile and match, differentially: every engine, under its default
//! limits and under tiny ones that force its fallbacks, gives the verdict
//! of the reference engine (`naive`), reason included.
//!
//! Input: one control byte (dialect and agent), then the robots.txt, then
//! optionally `\0\0\0` and URL lines. URLs are also generated from the
//! robots.txt's own rules (`robots_batch::sample`), so a plain robots.txt
//! with a control byte in front is a good seed.

#![no_main]

use libfuzzer_sys::fuzz_target;
use robots_batch::{Dialect, EngineKind, MatcherBuilder, Robots};

const SEPARATOR: &[u8] = b"\0\0\0";
const AGENTS: [&str; 4] = ["*", "googlebot", "a", "FooBot/1.0"];

fuzz_target!(|data: &[u8]| {
    let Some((&control, rest)) = data.split_first() else { return };
    let dialect = Dialect::ALL[usize::from(control & 3)];
    let agent = AGENTS[usize::from(control >> 2 & 3)];
    let (robots, lines) =
        match rest.windows(SEPARATOR.len()).position(|w| w == SEPARATOR) {
            Some(i) => (&rest[..i], &rest[i + SEPARATOR.len()..]),
            None => (rest, &b""[..]),
        };
    let robots = Robots::parse(robots);
    let mut urls: Vec<Vec<u8>> = if lines.is_empty() {
        vec![]
    } else {
        lines.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect()
    };
    urls.extend(robots_batch::sample::urls(&robots, 48, rest.len() as u64));

    let naive = MatcherBuilder::new()
        .engine(EngineKind::Naive)
        .build(&robots, agent, dialect);
    let mut scratch = naive.scratch();
    let want: Vec<_> =
        urls.iter().map(|u| naive.verdict(u, &mut scratch)).collect();

    // The dense engine's defaults allow determinizations of seconds; small
    // limits keep the fuzzer fast and still exercise splitting. Even so it
    // tries up to 64 determinizations: only small rule sets get it (as in
    // tests/differential.rs), or real robots.txt seeds run at a few
    // executions a second.
    let small = naive.rules().len() <= 64;
    let mut dense = MatcherBuilder::new();
    dense
        .engine(EngineKind::Dense)
        .dense_size_limit(1 << 16)
        .determinize_size_limit(1 << 16);
    let mut tiny = MatcherBuilder::new();
    tiny.dense_size_limit(1)
        .determinize_size_limit(1)
        .lazy_cache_capacity(1)
        .nfa_size_limit(1 << 10);
    let builders = [
        ("trie", MatcherBuilder::new().engine(EngineKind::Trie).clone()),
        ("lazy", MatcherBuilder::new().engine(EngineKind::Lazy).clone()),
        ("dense", dense),
        ("trie, tiny limits", tiny.clone().engine(EngineKind::Trie).clone()),
        ("dense, tiny limits", tiny.clone().engine(EngineKind::Dense).clone()),
        ("lazy, tiny limits", tiny.clone().engine(EngineKind::Lazy).clone()),
    ];
    for (label, builder) in builders {
        if label.starts_with("dense") && !small {
            continue;
        }
        let m = builder.build(&robots, agent, dialect);
        let mut scratch = m.scratch();
        for (url, want) in urls.iter().zip(&want) {
            let got = m.verdict(url, &mut scratch);
            assert_eq!(
                got,
                *want,
                "{label} ({}), {dialect}, agent {agent:?}, url {:?}",
                m.strategy(),
                String::from_utf8_lossy(url),
            );
        }
    }
});

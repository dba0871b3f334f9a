//! The parser on arbitrary bytes: it never panics, and what it returns
//! keeps the promises of the contract's section 1 (SEMANTICS.md).

#![no_main]

use libfuzzer_sys::fuzz_target;
use robots_batch::{Dialect, Robots, RuleSet, robots::MAX_LINE_LEN};

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\x0B' | b'\x0C' | b'\r' | b'\n')
}

fuzz_target!(|data: &[u8]| {
    let robots = Robots::parse(data);
    assert_eq!(robots.bytes(), data);
    let mut number = 0;
    for line in robots.lines() {
        number += 1;
        assert_eq!(line.number(), number);
        let text = robots.text(line);
        assert!(!text.contains(&b'\n') && !text.contains(&b'\r'));
        for part in [robots.key(line), robots.value(line)] {
            // Trimmed, without comment or NUL, within the counted part of
            // the line.
            assert!(part.len() <= MAX_LINE_LEN);
            assert!(!part.contains(&b'#') && !part.contains(&0));
            assert!(!part.first().is_some_and(|&b| is_space(b)));
            assert!(!part.last().is_some_and(|&b| is_space(b)));
        }
    }
    // A limit cuts the file at exactly that many bytes.
    let limit = usize::from(data.first().copied().unwrap_or(0)) * 7;
    let cut = Robots::parse_with_limit(data, limit);
    if limit > 0 && data.len() > limit {
        assert_eq!(cut.bytes(), &data[..limit]);
    } else {
        assert_eq!(cut.bytes(), data);
    }
    for dialect in Dialect::ALL {
        for agent in ["*", "googlebot", "FooBot/1.0"] {
            let rules = RuleSet::select(&robots, agent, dialect);
            for rule in rules.rules() {
                assert!(rule.line() as usize <= robots.lines().len());
            }
        }
    }
});

//! URLs generated from a robots.txt's own patterns, for differential tests
//! and benchmarks.
//!
//! Real URL lists rarely hit the corners of a rule set; URLs made from the
//! rules themselves do: each pattern is instantiated (its `*` filled with
//! varied bytes, its `$` honoured or broken), cut short, extended, and
//! mutated one byte at a time, with percent escapes, non-ASCII bytes and
//! the characters robots.txt treats specially (`*`, `$`, `%`, `?`, `#`).
//! The generator is deterministic: the same robots.txt, count and seed give
//! the same URLs.

use crate::robots::{LineKind, Robots};

/// A small, fast, deterministic generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `1/n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// One element of a non-empty slice.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// Bytes that exercise the special cases of matching and normalisation.
const SPICE: &[&[u8]] = &[
    b"/",
    b"?",
    b"=",
    b"&",
    b"*",
    b"$",
    b"%",
    b"%2F",
    b"%2f",
    b"%7E",
    b"%7e",
    b"~",
    b"%41",
    b"a",
    b"Z",
    b"0",
    b".html",
    b"index.html",
    b"#frag",
    b";p",
    b"\xC3\xA9",
    b"%C3%A9",
    b"%c3%a9",
    b"-",
    b"_",
    b":",
    b"//",
    b" ",
    b"%24",
    b"%2A",
];

/// Generates `count` URLs for `robots`: most are absolute URLs on
/// `https://example.com` built from the file's allow and disallow patterns,
/// a few are bare paths or odd lines.
pub fn urls(robots: &Robots, count: usize, seed: u64) -> Vec<Vec<u8>> {
    let patterns: Vec<&[u8]> = robots
        .lines()
        .iter()
        .filter(|l| matches!(l.kind(), LineKind::Allow | LineKind::Disallow))
        .map(|l| robots.value(l))
        .collect();
    let mut rng = Rng::new(seed);
    (0..count).map(|_| url(&patterns, &mut rng)).collect()
}

fn url(patterns: &[&[u8]], rng: &mut Rng) -> Vec<u8> {
    let mut path = if patterns.is_empty() || rng.one_in(10) {
        let mut p = b"/".to_vec();
        for _ in 0..rng.below(4) {
            p.extend_from_slice(rng.pick(SPICE));
        }
        p
    } else {
        instantiate(rng.pick(patterns), rng)
    };
    // Mutations: cut short, extend, replace a byte, add a query.
    match rng.below(8) {
        0 if !path.is_empty() => path.truncate(rng.below(path.len())),
        1 => path.extend_from_slice(rng.pick(SPICE)),
        2 if !path.is_empty() => {
            let i = rng.below(path.len());
            let spice = rng.pick(SPICE);
            path.splice(i..i + 1, spice.iter().copied());
        }
        3 => {
            path.extend_from_slice(b"?q=");
            path.extend_from_slice(rng.pick(SPICE));
        }
        _ => {}
    }
    if !path.starts_with(b"/") && !rng.one_in(20) {
        path.insert(0, b'/');
    }
    match rng.below(20) {
        0 => path,
        1 => {
            let mut u = b"http://example.com".to_vec();
            u.extend_from_slice(&path);
            u
        }
        _ => {
            let mut u = b"https://example.com".to_vec();
            u.extend_from_slice(&path);
            u
        }
    }
}

/// One path a pattern could match (or nearly match): each `*` becomes a
/// short run of varied bytes, a final `$` is dropped (and sometimes
/// followed by more bytes, so the anchor fails).
fn instantiate(pattern: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::with_capacity(pattern.len() + 16);
    for (i, &b) in pattern.iter().enumerate() {
        match b {
            b'*' => {
                for _ in 0..rng.below(3) {
                    out.extend_from_slice(rng.pick(SPICE));
                }
            }
            b'$' if i + 1 == pattern.len() => {
                if rng.one_in(4) {
                    out.extend_from_slice(rng.pick(SPICE));
                }
            }
            _ => out.push(b),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_varied() {
        let robots =
            Robots::parse(b"User-agent: *\nDisallow: /a*b$\nAllow: /c\n");
        let a = urls(&robots, 200, 7);
        assert_eq!(a, urls(&robots, 200, 7));
        assert_ne!(a, urls(&robots, 200, 8));
        assert!(a.iter().any(|u| u.ends_with(b"/c")));
        assert!(a.iter().any(|u| u.starts_with(b"https://example.com/a")));
    }
}

//! The engine that compiles nothing: each path is tried against the
//! patterns one by one, in priority order, until one matches.
//!
//! It is for rule sets that judge a few paths only, where compiling the
//! trie would cost more than the scans it saves: in crawl mode most hosts
//! of a log have a handful of URLs (see `crawl`), and this engine judges
//! an origin's first URLs while its matcher is not worth compiling yet.
//!
//! A pattern is its literal prefix (up to its first `*`) and, for a
//! wildcard pattern, the canonical tail the trie engine uses too: the
//! prefix is compared in place and the tail's literals are searched for
//! in order, each at its leftmost occurrence after the last (which leaves
//! the most room for the next, so it finds a match whenever there is
//! one). Each literal is searched once, so a path costs time linear in
//! its length for each pattern.

use super::pattern::{
    canonical_tail, follows, split, Bare, Pattern, Rest, NONE,
};
use crate::swar::word_and_mask;

#[derive(Clone, Debug)]
pub(crate) struct ScanEngine {
    /// Every pattern's prefix and tail literals, one after the other.
    bytes: Vec<u8>,
    /// The end of each literal in `bytes` (it starts where the last one
    /// ended).
    ends: Vec<u32>,
    /// For each literal of a tail, the offset of its rarest byte (what a
    /// search looks for first); 0 for prefixes.
    rares: Vec<u8>,
    /// In priority order.
    entries: Vec<Entry>,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The prefix's first 8 bytes (fewer when it is shorter; zeros after
    /// them) as a little-endian word, and the mask of those bytes.
    ///
    /// A path's first word, masked, rules out most patterns without a call
    /// to compare the prefixes.
    head: u64,
    mask: u64,
    /// The prefix's length.
    len: u32,
    /// The prefix's index in `ends`; the tail's literals follow it.
    prefix: u32,
    /// How many tail literals (0 for a prefix pattern).
    literals: u32,
    kind: Kind,
}

#[derive(Clone, Copy, Debug, Eq, PartialEq)]
enum Kind {
    /// The prefix alone: every path that starts with it.
    Prefix,
    /// The prefix and `$`: the path that is the prefix.
    Exact,
    /// The prefix, then the literals in order.
    Tail,
    /// The prefix, then the literals in order, the last ending the path.
    TailEnd,
}

impl ScanEngine {
    pub(crate) fn new(patterns: &[Pattern]) -> ScanEngine {
        let mut engine = ScanEngine {
            bytes: Vec::with_capacity(
                patterns.iter().map(|p| p.bytes.len()).sum(),
            ),
            ends: Vec::with_capacity(patterns.len()),
            rares: Vec::with_capacity(patterns.len()),
            entries: Vec::with_capacity(patterns.len()),
        };
        for p in patterns {
            let (prefix, rest) = split(p);
            let at = engine.push(prefix, 0);
            let (kind, literals) = match rest {
                Rest::Nothing => (Kind::Prefix, 0),
                Rest::End => (Kind::Exact, 0),
                Rest::Tail(tail) => {
                    // `split` gives the canonical tail: `*S1*...*Sk`,
                    // maybe with a final `$`, every `Si` non-empty.
                    debug_assert_eq!(tail, canonical_tail(&tail));
                    let (body, kind) = match tail.split_last() {
                        Some((b'$', body)) => (body, Kind::TailEnd),
                        _ => (&tail[..], Kind::Tail),
                    };
                    let mut n = 0;
                    for literal in body[1..].split(|&b| b == b'*') {
                        engine.push(literal, Bare::rare_offset(literal));
                        n += 1;
                    }
                    (kind, n)
                }
            };
            let (head, mask) = word_and_mask(prefix);
            let len = prefix.len() as u32;
            engine.entries.push(Entry {
                head,
                mask,
                len,
                prefix: at,
                literals,
                kind,
            });
        }
        engine
    }

    /// Appends a literal and the offset of its rarest byte (at most 255);
    /// returns its index in `ends`.
    fn push(&mut self, literal: &[u8], rare: usize) -> u32 {
        self.bytes.extend_from_slice(literal);
        self.ends.push(self.bytes.len() as u32);
        self.rares.push(rare as u8);
        (self.ends.len() - 1) as u32
    }

    fn literal(&self, i: u32) -> &[u8] {
        let i = i as usize;
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.bytes[start..self.ends[i] as usize]
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.bytes.len()
            + self.ends.len() * 5
            + self.entries.len() * std::mem::size_of::<Entry>()
    }

    /// The first pattern (in priority order) that matches a prefix of
    /// `path`, or `NONE`.
    pub(crate) fn find(&self, path: &[u8]) -> u32 {
        let (word, _) = word_and_mask(path);
        for (id, e) in self.entries.iter().enumerate() {
            let len = e.len as usize;
            if word & e.mask != e.head || path.len() < len {
                continue;
            }
            if len > 8 && path[8..len] != self.literal(e.prefix)[8..] {
                continue;
            }
            let rest = &path[len..];
            let hit = match e.kind {
                Kind::Prefix => true,
                Kind::Exact => rest.is_empty(),
                Kind::Tail | Kind::TailEnd => {
                    let literals = (e.prefix + 1..e.prefix + 1 + e.literals)
                        .map(|i| Bare {
                            bytes: self.literal(i),
                            rare: usize::from(self.rares[i as usize]),
                        });
                    follows(rest, 0, literals, e.kind == Kind::TailEnd)
                }
            };
            if hit {
                return id as u32;
            }
        }
        NONE
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::*;
    use crate::engine::Syntax;

    #[test]
    fn prefixes_of_every_length_around_a_word() {
        // Prefixes of 0 to 11 bytes against paths of 0 to 11 bytes that
        // equal them, are cut short, or differ at one byte: the masked
        // first word and the compare of the rest must be `starts_with`.
        let text = b"/abcdefghij";
        for n in 1..=text.len() {
            let prefix = &text[..n];
            let pattern =
                Pattern { bytes: Cow::Borrowed(prefix), syntax: Syntax::Glob };
            let engine = ScanEngine::new(&[pattern]);
            for m in 0..=text.len() {
                let mut path = text[..m].to_vec();
                for at in 0..=m {
                    if at < m {
                        path[at] ^= 0x20;
                    }
                    let want = if path.starts_with(prefix) { 0 } else { NONE };
                    assert_eq!(
                        engine.find(&path),
                        want,
                        "{prefix:?} {path:?}"
                    );
                    if at < m {
                        path[at] ^= 0x20;
                    }
                }
            }
        }
    }
}

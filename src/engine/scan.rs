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
//!
//! Two cheap filters keep a path from being tried against every pattern.
//! Past 12 patterns, they are indexed by what a path must start with to
//! match them: a prefix of 8 bytes or more by its first 8 (a hash of
//! them), a shorter one by its second byte (a path's first is `/`, like
//! nearly every prefix's). A path is tried, in priority order, against the
//! patterns in its two buckets and those too short to index: in real
//! files, many rules share a directory, so the first 8 bytes tell them
//! apart where the second byte does not. The patterns are kept bucket by
//! bucket, each with its place in priority order, so that a path reads
//! its buckets' patterns where they lie rather than through a list of
//! their places (in a crawl log in random host order, each such read is
//! a load from memory). And each wildcard tail carries the set of bytes
//! its literals hold: a path without one of them skips the search.

use super::pattern::{
    byte_set, canonical_tail, follows, split, Bare, Pattern, Rest, NONE,
};
use crate::lowlevel::prefetch::Region;
use crate::lowlevel::swar::word_and_mask;

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
    /// In priority order, or with an index, bucket by bucket (each
    /// bucket in priority order).
    entries: Vec<Entry>,
    /// With an index (for more than a few entries, else empty), the
    /// `BUCKETS + 1` bounds of the buckets in `entries`: bucket `b` is
    /// `entries[bounds[b]..bounds[b + 1]]`, the entries a path may match
    /// by how it starts.
    bounds: Vec<u32>,
}

/// Buckets of prefixes of 8 bytes or more (by a hash of those), then of
/// prefixes of 2 to 7 bytes (by their second byte, modulo 64), then one of
/// the shorter ones.
const WORD_BUCKETS: usize = 64;
const SECOND_BUCKETS: usize = 64;
const BUCKETS: usize = WORD_BUCKETS + SECOND_BUCKETS + 1;
const SHORT_BUCKET: usize = BUCKETS - 1;

/// Up to this many patterns, a path is tried against each: so short a
/// list costs little to scan, and most hosts of a log have few rules.
const INDEX_FROM: usize = 12;

/// A pattern, in 32 bytes (two to a cache line).
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The prefix's first 8 bytes (fewer when it is shorter; zeros after
    /// them) as a little-endian word.
    ///
    /// A path's first word, masked to the prefix's length, rules out most
    /// patterns without a call to compare the prefixes.
    head: u64,
    /// The bytes of the tail's literals, as `byte_set` gives them: a path
    /// whose set lacks one cannot hold them all.
    needs: u64,
    /// The pattern's place in priority order (what `find` returns).
    id: u32,
    /// The prefix's length.
    len: u32,
    /// The prefix's index in `ends`; the tail's literals follow it.
    prefix: u32,
    /// How many tail literals (0 for a prefix pattern) above the
    /// [`Kind`] in the low two bits: a pattern has fewer literals than
    /// bytes, so the count fits with room to spare.
    tail: u32,
}

impl Entry {
    fn kind(&self) -> Kind {
        match self.tail & 3 {
            0 => Kind::Prefix,
            1 => Kind::Exact,
            2 => Kind::Tail,
            _ => Kind::TailEnd,
        }
    }

    fn literals(&self) -> u32 {
        self.tail >> 2
    }

    /// The mask of the prefix's bytes in [`Entry::head`].
    fn mask(&self) -> u64 {
        match self.len {
            0..=7 => (1u64 << (8 * self.len)) - 1,
            _ => u64::MAX,
        }
    }
}

#[derive(Clone, Copy, Debug, Eq, PartialEq)]
#[repr(u32)]
enum Kind {
    /// The prefix alone: every path that starts with it.
    Prefix = 0,
    /// The prefix and `$`: the path that is the prefix.
    Exact = 1,
    /// The prefix, then the literals in order.
    Tail = 2,
    /// The prefix, then the literals in order, the last ending the path.
    TailEnd = 3,
}

impl ScanEngine {
    pub(crate) fn new(patterns: &[Pattern]) -> ScanEngine {
        ScanEngine::indexed_from(patterns, INDEX_FROM)
    }

    /// The engine, with its patterns indexed when there are more than
    /// `min` of them.
    fn indexed_from(patterns: &[Pattern], min: usize) -> ScanEngine {
        let mut engine = ScanEngine {
            bytes: Vec::with_capacity(
                patterns.iter().map(|p| p.bytes.len()).sum(),
            ),
            ends: Vec::with_capacity(patterns.len()),
            rares: Vec::with_capacity(patterns.len()),
            entries: Vec::with_capacity(patterns.len()),
            bounds: vec![],
        };
        for (id, p) in patterns.iter().enumerate() {
            let (prefix, rest) = split(p);
            let at = engine.push(prefix, 0);
            let mut needs = 0;
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
                        needs |= byte_set(literal);
                        n += 1;
                    }
                    (kind, n)
                }
            };
            debug_assert!(literals < 1 << 30);
            engine.entries.push(Entry {
                head: word_and_mask(prefix).0,
                needs,
                id: id as u32,
                len: prefix.len() as u32,
                prefix: at,
                tail: literals << 2 | kind as u32,
            });
        }
        if engine.entries.len() > min {
            engine.index();
        }
        engine
    }

    /// Puts the entries in buckets by what a path must start with to
    /// match them, each bucket in priority order.
    fn index(&mut self) {
        let bucket = |e: &Entry| match e.len {
            0 | 1 => SHORT_BUCKET,
            2..=7 => second_bucket((e.head >> 8) as u8),
            _ => word_bucket(e.head),
        };
        // A counting sort: each bucket's size, then where it ends, then
        // the entries placed from the last down, so that each bucket is in
        // priority order and its bound falls back to where it starts.
        let mut bounds = vec![0u32; BUCKETS + 1];
        for e in &self.entries {
            bounds[bucket(e)] += 1;
        }
        let mut end = 0;
        for bound in &mut bounds {
            end += *bound;
            *bound = end;
        }
        let mut sorted = self.entries.clone();
        for e in self.entries.iter().rev() {
            let b = bucket(e);
            bounds[b] -= 1;
            sorted[bounds[b] as usize] = *e;
        }
        self.entries = sorted;
        self.bounds = bounds;
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

    /// The memory a search reads, in the order it reads it.
    pub(crate) fn regions(&self, each: &mut dyn FnMut(Region)) {
        each(Region::of(&self.bounds));
        each(Region::of(&self.entries));
        each(Region::of(&self.ends));
        each(Region::of(&self.bytes));
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.bytes.capacity()
            + self.ends.capacity() * 4
            + self.rares.capacity()
            + self.entries.capacity() * std::mem::size_of::<Entry>()
            + self.bounds.capacity() * 4
    }

    /// The first pattern (in priority order) that matches a prefix of
    /// `path`, or `NONE`.
    pub(crate) fn find(&self, path: &[u8]) -> u32 {
        let mut path = Path::new(path);
        if self.bounds.is_empty() {
            return self
                .entries
                .iter()
                .find(|e| self.matches(e, &mut path))
                .map_or(NONE, |e| e.id);
        }
        // Three lists in priority order: the first match of each, the best
        // of them, each list searched only ahead of the best so far. (The
        // longest prefixes come first, and with them, in the longest-match
        // dialects, the first patterns.)
        let mut best = NONE;
        for list in self.buckets_of(&path) {
            for e in list {
                if e.id >= best {
                    break;
                }
                if self.matches(e, &mut path) {
                    best = e.id;
                    break;
                }
            }
        }
        best
    }

    /// The three buckets whose entries may match `path`: those of its
    /// first 8 bytes, of its second byte, and of short prefixes.
    fn buckets_of(&self, path: &Path<'_>) -> [&[Entry]; 3] {
        let n = path.bytes.len();
        [
            if n >= 8 { self.bucket(word_bucket(path.word)) } else { &[] },
            if n >= 2 {
                self.bucket(second_bucket(path.bytes[1]))
            } else {
                &[]
            },
            self.bucket(SHORT_BUCKET),
        ]
    }

    fn bucket(&self, b: usize) -> &[Entry] {
        &self.entries[self.bounds[b] as usize..self.bounds[b + 1] as usize]
    }

    /// Whether entry `e` matches a prefix of the path.
    #[inline(always)]
    fn matches(&self, e: &Entry, path: &mut Path<'_>) -> bool {
        let len = e.len as usize;
        let bytes = path.bytes;
        if path.word & e.mask() != e.head || bytes.len() < len {
            return false;
        }
        if len > 8 && bytes[8..len] != self.literal(e.prefix)[8..] {
            return false;
        }
        let rest = &bytes[len..];
        match e.kind() {
            Kind::Prefix => true,
            Kind::Exact => rest.is_empty(),
            Kind::Tail | Kind::TailEnd => {
                if e.needs & !path.byte_set() != 0 {
                    return false;
                }
                let literals = (e.prefix + 1..e.prefix + 1 + e.literals())
                    .map(|i| Bare {
                        bytes: self.literal(i),
                        rare: usize::from(self.rares[i as usize]),
                    });
                follows(rest, 0, literals, e.kind() == Kind::TailEnd)
            }
        }
    }
}

/// A path being judged, with what the entries test it by.
struct Path<'p> {
    bytes: &'p [u8],
    /// The first 8 bytes (zeros after a shorter path).
    word: u64,
    /// Its `byte_set`, once a wildcard tail asks for it.
    set: Option<u64>,
}

impl<'p> Path<'p> {
    fn new(bytes: &'p [u8]) -> Path<'p> {
        Path { bytes, word: word_and_mask(bytes).0, set: None }
    }

    fn byte_set(&mut self) -> u64 {
        *self.set.get_or_insert_with(|| byte_set(self.bytes))
    }
}

/// The bucket of the prefixes that start with the 8 bytes of `word`.
fn word_bucket(word: u64) -> usize {
    // The top bits of a multiplicative hash.
    (word.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as usize
}

/// The bucket of the prefixes of 2 to 7 bytes whose second byte is `b`.
fn second_bucket(b: u8) -> usize {
    WORD_BUCKETS + usize::from(b % 64)
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::*;
    use crate::engine::naive::{glob_matches_prefix, NaiveScratch};
    use crate::engine::Syntax;

    #[test]
    fn an_entry_takes_half_a_cache_line() {
        assert_eq!(std::mem::size_of::<Entry>(), 32);
    }

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

    #[test]
    fn the_index_and_the_byte_sets_change_no_answer() {
        // Random patterns and paths over a small alphabet (so that
        // prefixes share second bytes and tails' literals are often
        // there): the engine indexed from its first pattern, and never,
        // agree with the reference engine's reading of each pattern.
        let mut rng = crate::testing::xorshift(0x9E37_79B9_7F4A_7C15u64);
        let mut next = move |n: u64| (rng() % n) as usize;
        let alphabet = b"/ab?.p0*$";
        // Patterns of up to 13 bytes and paths of up to 16 fall in every
        // kind of bucket.
        let mut naive = NaiveScratch::default();
        for _ in 0..2_000 {
            let mut patterns = vec![];
            for _ in 0..next(30) {
                let len = next(13);
                let mut bytes: Vec<u8> =
                    (0..len).map(|_| alphabet[next(9)]).collect();
                if next(4) > 0 {
                    bytes.insert(0, b'/');
                }
                patterns.push(Pattern {
                    bytes: Cow::Owned(bytes),
                    syntax: Syntax::Glob,
                });
            }
            let indexed = ScanEngine::indexed_from(&patterns, 0);
            let plain = ScanEngine::indexed_from(&patterns, usize::MAX);
            assert!(patterns.is_empty() || !indexed.bounds.is_empty());
            assert!(plain.bounds.is_empty());
            for _ in 0..20 {
                let len = next(16);
                let mut path: Vec<u8> =
                    (0..len).map(|_| alphabet[next(7)]).collect();
                if next(5) > 0 {
                    path.insert(0, b'/');
                }
                // Half the paths start with a pattern's bytes (its stars
                // and anchor dropped), so that long prefixes match too.
                if !patterns.is_empty() && next(2) == 0 {
                    let p = &patterns[next(patterns.len() as u64)].bytes;
                    let mut start: Vec<u8> = p
                        .iter()
                        .copied()
                        .filter(|&b| b != b'*' && b != b'$')
                        .collect();
                    start.extend_from_slice(&path);
                    path = start;
                }
                let want = patterns
                    .iter()
                    .position(|p| {
                        glob_matches_prefix(&p.bytes, &path, &mut naive)
                    })
                    .map_or(NONE, |i| i as u32);
                assert_eq!(indexed.find(&path), want, "{patterns:?} {path:?}");
                assert_eq!(plain.find(&path), want, "{patterns:?} {path:?}");
            }
        }
    }
}

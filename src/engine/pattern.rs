//! The patterns the engines are built from: how one's bytes are read, how
//! it splits into a literal prefix and a wildcard tail, and how a tail's
//! literals are found in a path (what the `trie` and `scan` engines share).

use memchr::memmem;
use std::borrow::Cow;

/// How a pattern's bytes are read.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub(crate) enum Syntax {
    /// `*` matches any run of bytes; a final `$` anchors at the end of the
    /// path; every other byte is itself.
    Glob,
    /// Every byte is itself (the older standards have no wildcards).
    Literal,
}

impl Syntax {
    /// How `dialect` reads a rule's pattern.
    pub(crate) fn of(dialect: crate::Dialect) -> Syntax {
        if dialect.has_wildcards() {
            Syntax::Glob
        } else {
            Syntax::Literal
        }
    }
}

/// One pattern for an engine: it matches a path when it matches a prefix of
/// it.
///
/// The bytes are borrowed from the rules where they can be: crawl mode
/// builds a matcher for every host of a log, and a copy per rule would be
/// a good part of that.
#[derive(Clone, Debug)]
pub(crate) struct Pattern<'a> {
    pub(crate) bytes: Cow<'a, [u8]>,
    pub(crate) syntax: Syntax,
}

impl Pattern<'_> {
    /// The same pattern, owning its bytes.
    pub(crate) fn into_owned(self) -> Pattern<'static> {
        Pattern {
            bytes: Cow::Owned(self.bytes.into_owned()),
            syntax: self.syntax,
        }
    }

    /// The pattern split into its literal pieces (separated by `*` when the
    /// syntax is glob) and whether it ends with the `$` anchor.
    pub(crate) fn pieces(&self) -> (Vec<&[u8]>, bool) {
        match self.syntax {
            Syntax::Literal => (vec![&self.bytes[..]], false),
            Syntax::Glob => {
                let (body, anchored) = match self.bytes.split_last() {
                    Some((b'$', body)) => (body, true),
                    _ => (&self.bytes[..], false),
                };
                (body.split(|&b| b == b'*').collect(), anchored)
            }
        }
    }

    /// Whether the pattern matches a prefix of `path`, with nothing built
    /// beforehand: for a path judged once, where building an engine would
    /// cost more than this search (the tail's literals at their leftmost
    /// occurrences, as the `scan` engine searches them). `path_set` is the
    /// path's [`byte_set`], computed here when a tail first needs it: give
    /// the same one for every pattern tried on a path, so that a tail
    /// whose bytes the path lacks is not searched.
    pub(crate) fn matches_prefix(
        &self,
        path: &[u8],
        path_set: &mut Option<u64>,
    ) -> bool {
        // The literal prefix is compared byte by byte: most patterns
        // differ from a path within a few bytes, before any wildcard.
        let glob = self.syntax == Syntax::Glob;
        for (i, &b) in self.bytes.iter().enumerate() {
            if glob && b == b'*' {
                let set = *path_set.get_or_insert_with(|| byte_set(path));
                return tail_matches(&self.bytes[i..], &path[i..], set);
            }
            if glob && b == b'$' && i + 1 == self.bytes.len() {
                return path.len() == i;
            }
            if path.get(i) != Some(&b) {
                return false;
            }
        }
        true
    }
}

/// Whether a wildcard tail (starting with `*`) matches a prefix of `rest`,
/// of a path whose [`byte_set`] is `path_set`.
///
/// The tail needs no canonical form here: the empty literals that runs of
/// `*` or a final `*` or `*$` leave are found at once, and an empty last
/// literal ends any path.
fn tail_matches(tail: &[u8], rest: &[u8], path_set: u64) -> bool {
    let (body, end) = match tail.split_last() {
        Some((b'$', body)) => (body, true),
        _ => (tail, false),
    };
    let needs = body.split(|&b| b == b'*').fold(0, |set, l| set | byte_set(l));
    if needs & !path_set != 0 {
        return false;
    }
    let literals = body[1..].split(|&b| b == b'*');
    follows(rest, 0, literals.map(|bytes| Bare { bytes, rare: 0 }), end)
}

/// The value of "no pattern matched" in engine tables.
pub(crate) const NONE: u32 = u32::MAX;

pub(super) enum Rest<'a> {
    /// The pattern is its prefix: it matches every path that starts so.
    Nothing,
    /// The pattern is its prefix and `$`: only the prefix itself matches.
    End,
    /// The pattern goes on with a wildcard tail (starting with `*`) that
    /// must match a prefix of what follows.
    Tail(Cow<'a, [u8]>),
}

/// A pattern's literal prefix (up to its first `*`) and what follows.
pub(super) fn split<'p>(p: &'p Pattern<'_>) -> (&'p [u8], Rest<'p>) {
    if p.syntax == Syntax::Literal {
        return (&p.bytes, Rest::Nothing);
    }
    // Patterns are short, too short for a vector search to pay.
    let star = crate::lowlevel::swar::first_of(&p.bytes, [b'*'], false);
    if star == p.bytes.len() {
        return match p.bytes.split_last() {
            Some((b'$', prefix)) => (prefix, Rest::End),
            _ => (&p.bytes, Rest::Nothing),
        };
    }
    let (prefix, tail) = p.bytes.split_at(star);
    let tail = canonical_tail(tail);
    if tail.is_empty() {
        (prefix, Rest::Nothing)
    } else {
        (prefix, Rest::Tail(tail))
    }
}

/// A literal of a wildcard tail, with a way to find it.
pub(super) trait Literal {
    fn bytes(&self) -> &[u8];
    /// The start of the leftmost occurrence in `hay`.
    fn find_in(&self, hay: &[u8]) -> Option<usize>;
}

/// A literal with its prebuilt finder (compiled engines).
impl Literal for &memmem::Finder<'_> {
    fn bytes(&self) -> &[u8] {
        self.needle()
    }

    fn find_in(&self, hay: &[u8]) -> Option<usize> {
        self.find(hay)
    }
}

/// A bare literal and the offset of its rarest byte (by memchr's
/// heuristic ranking), searched for without building anything first (the
/// `scan` engine, which compiles nothing).
#[derive(Clone, Copy)]
pub(super) struct Bare<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) rare: usize,
}

impl Bare<'_> {
    /// The offset of `literal`'s rarest byte.
    pub(super) fn rare_offset(literal: &[u8]) -> usize {
        memchr::arch::all::packedpair::Pair::new(literal)
            .map_or(0, |p| usize::from(p.index1()))
    }
}

impl Literal for Bare<'_> {
    fn bytes(&self) -> &[u8] {
        self.bytes
    }

    fn find_in(&self, hay: &[u8]) -> Option<usize> {
        find_unprepared(hay, self.bytes, self.rare)
    }
}

/// Up to this many bytes of haystack, a literal is searched for by one of
/// its rare bytes, each candidate compared in place.
///
/// `memmem::find` prepares a searcher on every call; on a path of a few
/// dozen bytes that costs more than the search (the `scan` engine
/// searches every wildcard rule's literals in every path it judges). The
/// bound keeps the in-place search linear in the path.
const SHORT_HAY: usize = 64;

/// The start of the leftmost occurrence of `needle` in `hay`, with
/// nothing prepared beforehand but the offset of a rare byte of `needle`
/// (`rare`; any offset gives the same answer).
#[inline]
fn find_unprepared(hay: &[u8], needle: &[u8], rare: usize) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    if hay.len() > SHORT_HAY {
        return memmem::find(hay, needle);
    }
    let last_start = hay.len().checked_sub(needle.len())?;
    // Candidates: where the rare byte sits in an occurrence, left first.
    let byte = needle[rare];
    let mut from = rare;
    while from <= last_start + rare {
        let i = from + memchr::memchr(byte, &hay[from..=last_start + rare])?;
        if hay[i - rare..].starts_with(needle) {
            return Some(i - rare);
        }
        from = i + 1;
    }
    None
}

/// Whether `literals` occur in `hay[at..]` in order, each after the last
/// (the last one ending `hay` when `end`), taking leftmost occurrences.
pub(super) fn follows<L: Literal>(
    hay: &[u8],
    mut at: usize,
    literals: impl Iterator<Item = L>,
    end: bool,
) -> bool {
    let mut literals = literals.peekable();
    while let Some(lit) = literals.next() {
        if end && literals.peek().is_none() {
            let needle = lit.bytes();
            return hay.len() >= at + needle.len() && hay.ends_with(needle);
        }
        match lit.find_in(&hay[at..]) {
            Some(j) => at += j + lit.bytes().len(),
            None => return false,
        }
    }
    true
}

/// The bytes of `bytes` as a set of 64 classes, each byte in class
/// `byte % 64`: a path's classes must include those of every literal it
/// holds. Upper- and lower-case letters fall in different classes; a
/// lower-case letter may share one with a digit or a punctuation byte (`p`
/// with `0`, `n` with `.`), which only lets more paths through to the
/// search.
pub(super) fn byte_set(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0, |set, &b| set | 1 << (b & 63))
}

/// The canonical form of a wildcard tail (which starts with `*`): runs of
/// `*` collapsed, trailing `*` dropped, and a final `*$` dropped (`.*` then
/// the end matches anything). Empty when the tail matches whatever follows.
///
/// N.B. only the tail's last byte can be the anchor: a `$` anywhere else
/// is a literal byte, whatever stars follow it (`*$*` needs a `$` in the
/// path, `*a$*$` an `a$`). When dropping stars would leave such a `$`
/// last, where it would read as the anchor, one `*` stays after it (an
/// empty last literal, which any rest matches).
pub(super) fn canonical_tail(tail: &[u8]) -> Cow<'_, [u8]> {
    // Most tails are canonical already (`*.php$`, `*?s=`) and are
    // borrowed: a copy of each would add to building every host's matcher
    // in crawl mode.
    let double = tail.windows(2).any(|w| w == b"**");
    if !double && !tail.ends_with(b"*") && !tail.ends_with(b"*$") {
        return Cow::Borrowed(tail);
    }
    let (body, anchored) = match tail.split_last() {
        Some((b'$', body)) => (body, true),
        _ => (tail, false),
    };
    let mut out: Vec<u8> = Vec::with_capacity(tail.len());
    for &b in body {
        if !(b == b'*' && out.last() == Some(&b'*')) {
            out.push(b);
        }
    }
    if out.last() == Some(&b'*') {
        // Anything may follow, up to the end or not: the anchor (if any)
        // asks nothing more.
        while out.last() == Some(&b'*') {
            out.pop();
        }
        if out.last() == Some(&b'$') {
            out.push(b'*');
        }
    } else if anchored {
        out.push(b'$');
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One pattern tried on its own, nothing built, answers as the
    /// reference engine's reading of globs does: random patterns and
    /// paths over a small alphabet that holds the wildcard and the anchor,
    /// so that runs of `*`, a `$` inside a pattern and paths holding `*`
    /// and `$` all come up.
    #[test]
    fn a_pattern_alone_matches_as_the_reference_reads_it() {
        let mut next = crate::testing::xorshift(0x2545_F491_4F6C_DD1Du64);
        let mut scratch = crate::engine::NaiveScratch::default();
        let word = |len: u64, next: &mut dyn FnMut() -> u64| {
            let n = (next() % len) as usize;
            (0..n).map(|_| b"ab/*$"[(next() % 5) as usize]).collect::<Vec<_>>()
        };
        for _ in 0..50_000 {
            let pattern = word(9, &mut next);
            let mut path = word(12, &mut next);
            if next().is_multiple_of(2) {
                // Paths that start as the pattern does.
                let keep = (next() as usize) % (pattern.len() + 1);
                path.splice(0..0, pattern[..keep].iter().copied());
            }
            for syntax in [Syntax::Glob, Syntax::Literal] {
                let p = Pattern { bytes: Cow::Borrowed(&pattern), syntax };
                let want = match syntax {
                    Syntax::Glob => crate::engine::glob_matches_prefix(
                        &pattern,
                        &path,
                        &mut scratch,
                    ),
                    Syntax::Literal => path.starts_with(&pattern),
                };
                assert_eq!(
                    p.matches_prefix(&path, &mut None),
                    want,
                    "{syntax:?} {:?} on {:?}",
                    String::from_utf8_lossy(&pattern),
                    String::from_utf8_lossy(&path)
                );
            }
        }
    }

    #[test]
    fn unprepared_search_agrees_with_memmem() {
        // Haystacks on both sides of SHORT_HAY, needles of 0 to 6 bytes
        // over a 3-letter alphabet (so that partial matches abound), with
        // every rare-byte offset.
        let mut next = crate::testing::xorshift(0x9E37_79B9_7F4A_7C15u64);
        for _ in 0..20_000 {
            let hay_len = (next() % (SHORT_HAY as u64 + 20)) as usize;
            let hay: Vec<u8> =
                (0..hay_len).map(|_| b"ab/"[(next() % 3) as usize]).collect();
            let needle_len = (next() % 7) as usize;
            let needle: Vec<u8> = (0..needle_len)
                .map(|_| b"ab/"[(next() % 3) as usize])
                .collect();
            let want = memmem::find(&hay, &needle);
            for rare in 0..needle_len.max(1) {
                assert_eq!(
                    find_unprepared(&hay, &needle, rare),
                    want,
                    "{hay:?} {needle:?} {rare}"
                );
            }
            let rare = Bare::rare_offset(&needle);
            assert!(rare < needle_len.max(1));
        }
    }
}

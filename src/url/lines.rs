/*!
The URL lines of a chunk, with where each one's path is, found 64 bytes at
a time.

Per line, the batch pipeline asks a handful of questions: where the line
ends, where the path starts after the authority, where a fragment cuts it,
whether normalisation has anything to rewrite, whether the output must
escape anything. Asked one after the other with short scans, each scan ends
with a branch that no predictor guesses (URLs have every length), and those
scans cost more than matching the path on most robots.txt files.

[`UrlLines`] asks them all at once: it classifies a window of the chunk,
sixteen bytes per step with SSE2 or thirty-two with AVX2 where the CPU has
it (a byte at a time off x86-64), into one bitmap per byte class, and then
answers each question for a line with a shift and a count of trailing
zeros. A line shorter than 64 bytes (most URLs) takes one word of each
bitmap, and its questions are masks of those words. Lines that do not fit
a window (a few KiB) are handled by plain scans (`memchr` for the line's
end, and [`extract_path`](crate::extract_path)), and every line gets
exactly the answers those give: lines end at `\n`, without a `\r` before
it, and a last line without one counts too. The default command and
crawl-log mode read their chunks this way. See docs/DESIGN.md,
"Byte-class bitmaps for reading lines".
*/

use crate::prefetch::prefetch;
use crate::url::block::{ShortLine, BLOCK};
use crate::url::path::{
    path_start_general, scan_path, ShortPath, UrlPath, SPECIAL_PERCENT,
    SPECIAL_RFC9309,
};

/// The classes of bytes, each a bitmap over the window.
///
/// `\n`: ends a line.
const NL: usize = 0;
/// Bytes that some output format escapes or quotes: below 0x20, at or
/// above 0x80, `,`, `"` and `\`. A line without any is *plain*.
const ESC: usize = 1;
/// `/`, `?`, `;` and `#`: end an authority.
const AUTH: usize = 2;
/// `#`: starts a fragment.
const HASH: usize = 3;
/// `%`: starts an escape.
const PCT: usize = 4;
/// `*`, `$` and bytes at or above 0x80: RFC 9309 spells them differently
/// in a path.
const RFC: usize = 5;
const CLASSES: usize = 6;

/// Bytes classified at once: 64 words of a block each.
const WINDOW_WORDS: usize = 64;
const WINDOW_BYTES: usize = WINDOW_WORDS * BLOCK;

/// One bitmap per class over a window, and a word of zeros after it.
type Masks = [Mask; CLASSES];

/// One line of a chunk, and what the pipeline needs to know of it.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub(crate) struct UrlLine<'c> {
    /// The line's bytes, without its `\n` or `\r\n`.
    pub(crate) text: &'c [u8],
    /// The path of the line, as [`scan_path`] finds it.
    pub(crate) path: UrlPath<'c>,
    /// The special bytes of the path, as [`scan_path`] flags them.
    pub(crate) flags: u8,
    /// Where they are, when the line has a block (see `block`).
    pub(crate) short: Option<ShortPath<'c>>,
    /// Whether the line holds only bytes from 0x20 to 0x7E other than
    /// `,`, `"` and `\`, which no output format escapes or quotes.
    pub(crate) plain: bool,
    /// The line in its block, when it is shorter than a block and the
    /// chunk holds one from its start.
    pub(crate) block: Option<ShortLine<'c>>,
}

/// The lines of a chunk, in order: each up to its `\n` (and without a
/// `\r` before it), the last one with or without one.
pub(crate) struct UrlLines<'c> {
    chunk: &'c [u8],
    /// Where the next line starts.
    pos: usize,
    /// Where the window starts, and how many bytes of the chunk it holds.
    base: usize,
    len: usize,
    /// One bitmap per class: bit `i` of word `w` is byte `base + 64w + i`.
    /// The word after the last one in use is zero, so that 64 bits can be
    /// read from any position inside the window.
    masks: Box<Masks>,
}

impl<'c> UrlLines<'c> {
    pub(crate) fn new(chunk: &'c [u8]) -> UrlLines<'c> {
        UrlLines {
            chunk,
            pos: 0,
            base: 0,
            len: 0,
            masks: Box::new([[0; WINDOW_WORDS + 1]; CLASSES]),
        }
    }

    /// Classifies the window of the chunk that starts at `base`.
    fn fill(&mut self, base: usize) {
        let end = self.chunk.len().min(base + WINDOW_BYTES);
        let bytes = &self.chunk[base..end];
        self.base = base;
        self.len = bytes.len();
        classify_window(bytes, &mut self.masks);
        // A chunk of a memory-mapped file is read here for the first time,
        // from memory, and the hardware prefetchers stop at each 4 KiB
        // page: the next window is requested while the lines of this one
        // are judged, so its classification finds it in the cache.
        prefetch(&self.chunk[end..self.chunk.len().min(end + WINDOW_BYTES)]);
    }

    /// Where the line starting at `start` ends (its `\n`, or the chunk's
    /// end, with whether a `\n` ends it), if the window says.
    #[inline]
    fn end_in_window(&self, start: usize) -> Option<(usize, bool)> {
        if start < self.base || start >= self.base + self.len {
            return None;
        }
        let nl = first(&self.masks[NL], start - self.base, self.len);
        match nl {
            Some(i) => Some((self.base + i, true)),
            None if self.base + self.len == self.chunk.len() => {
                Some((self.chunk.len(), false))
            }
            None => None,
        }
    }

    /// The line from `start` to `end`, every question answered from
    /// `bits`: the window's bitmaps, seen from the line's start.
    #[inline]
    fn line<B: LineBits>(
        &self,
        bits: &B,
        start: usize,
        end: usize,
        newline: bool,
    ) -> UrlLine<'c> {
        let mut end = end;
        if newline && end > start && self.chunk[end - 1] == b'\r' {
            end -= 1;
        }
        let text = &self.chunk[start..end];
        let to = end - start;
        let plain = !bits.any(ESC, 0, to);
        let block = ShortLine::new(self.chunk, start, to);
        let host = if text.starts_with(b"//") { 2 } else { 0 };
        let hay = &text[host..];
        let path_start = if hay.starts_with(b"https://") {
            authority_end(bits, host + 8, to)
        } else if hay.starts_with(b"http://") {
            authority_end(bits, host + 7, to)
        } else if hay.first() == Some(&b'/') {
            Some(host)
        } else {
            path_start_general(hay).map(|i| host + i)
        };
        let Some(path_start) = path_start else {
            let (path, flags, short) = (ROOT, 0, None);
            return UrlLine { text, path, flags, short, plain, block };
        };
        let path_end = bits.first(HASH, path_start, to).unwrap_or(to);
        let mut flags = 0;
        if bits.any(PCT, path_start, path_end) {
            flags |= SPECIAL_PERCENT;
        }
        if bits.any(RFC, path_start, path_end) {
            flags |= SPECIAL_RFC9309;
        }
        let short = match (block, bits.specials(path_start, path_end)) {
            (Some(line), Some(specials)) => Some(ShortPath {
                block: line.block(),
                at: path_start,
                specials,
            }),
            _ => None,
        };
        let rest = &text[path_start..path_end];
        let path = UrlPath { slash: rest[0] != b'/', rest };
        UrlLine { text, path, flags, short, plain, block }
    }
}

/// Where the path starts after an authority that starts at `from`, or
/// `None` when a `#` or the line's end (`to`) comes first.
#[inline]
fn authority_end<B: LineBits>(
    bits: &B,
    from: usize,
    to: usize,
) -> Option<usize> {
    if from >= to {
        return None;
    }
    let i = bits.first(AUTH, from, to)?;
    (!bits.is(HASH, i)).then_some(i)
}

/// The classes of a line's bytes, by position from the line's start.
trait LineBits {
    /// The first position in `from..to` of a byte of class `class`.
    fn first(&self, class: usize, from: usize, to: usize) -> Option<usize>;
    /// Whether a byte in `from..to` is of class `class`.
    fn any(&self, class: usize, from: usize, to: usize) -> bool;
    /// Whether the byte at `at` is of class `class`.
    fn is(&self, class: usize, at: usize) -> bool;
    /// When known, the bytes in `from..to` (at most a block) that RFC 9309
    /// normalisation may rewrite, as bits from `from`.
    fn specials(&self, from: usize, to: usize) -> Option<u64>;
}

/// A line anywhere in the window, which holds it: each question is a
/// search of a class's bitmap.
struct InWindow<'m> {
    masks: &'m Masks,
    /// The line's start, a position in the window.
    at: usize,
}

impl LineBits for InWindow<'_> {
    #[inline]
    fn first(&self, class: usize, from: usize, to: usize) -> Option<usize> {
        let i = first(&self.masks[class], self.at + from, self.at + to)?;
        Some(i - self.at)
    }

    #[inline]
    fn any(&self, class: usize, from: usize, to: usize) -> bool {
        any(&self.masks[class], self.at + from, self.at + to)
    }

    #[inline]
    fn is(&self, class: usize, at: usize) -> bool {
        bits_from(&self.masks[class], self.at + at) & 1 != 0
    }

    #[inline]
    fn specials(&self, _: usize, _: usize) -> Option<u64> {
        None
    }
}

/// A line of fewer than 64 bytes: each class is one word, read once.
///
/// Most URLs are that short, and a long line's searches ask each question
/// anew (a shift of two words, a loop). See docs/DESIGN.md, "The 64-byte
/// block for short lines".
struct Short {
    words: [u64; CLASSES],
}

impl Short {
    /// The bits of positions `from..to` of the line, which is shorter
    /// than a block (so `to` is below [`BLOCK`]).
    ///
    /// As `to` is below 64, each end is one shift, with no compare and
    /// select for an end of 64.
    #[inline]
    fn span(from: usize, to: usize) -> u64 {
        debug_assert!(from <= to && to < BLOCK);
        let below = |n: usize| (1u64 << (n % BLOCK)) - 1;
        below(to) & !below(from)
    }
}

impl LineBits for Short {
    #[inline]
    fn first(&self, class: usize, from: usize, to: usize) -> Option<usize> {
        let bits = self.words[class] & Short::span(from, to);
        (bits != 0).then(|| bits.trailing_zeros() as usize)
    }

    #[inline]
    fn any(&self, class: usize, from: usize, to: usize) -> bool {
        self.words[class] & Short::span(from, to) != 0
    }

    #[inline]
    fn is(&self, class: usize, at: usize) -> bool {
        self.words[class] >> at & 1 != 0
    }

    #[inline]
    fn specials(&self, from: usize, to: usize) -> Option<u64> {
        let bits = self.words[PCT] | self.words[RFC];
        Some((bits & Short::span(from, to)) >> from)
    }
}

/// The path of a URL without one.
const ROOT: UrlPath<'static> = UrlPath { slash: true, rest: b"" };

impl<'c> Iterator for UrlLines<'c> {
    type Item = UrlLine<'c>;

    #[inline]
    fn next(&mut self) -> Option<UrlLine<'c>> {
        let start = self.pos;
        if start >= self.chunk.len() {
            return None;
        }
        if start >= self.base && start < self.base + self.len {
            let at = start - self.base;
            let nl = bits_from(&self.masks[NL], at);
            if nl != 0 {
                // The line ends within 64 bytes: its classes are a word
                // each.
                let end = start + nl.trailing_zeros() as usize;
                let words =
                    std::array::from_fn(|c| bits_from(&self.masks[c], at));
                self.pos = end + 1;
                return Some(self.line(&Short { words }, start, end, true));
            }
        }
        let mut found = self.end_in_window(start);
        let floor = start & !(BLOCK - 1);
        if found.is_none() && (self.base != floor || self.len == 0) {
            self.fill(floor);
            found = self.end_in_window(start);
        }
        let Some((end, newline)) = found else {
            // A line longer than a window.
            return Some(self.long_line(start));
        };
        self.pos = end + usize::from(newline);
        let bits = InWindow { masks: &self.masks, at: start - self.base };
        Some(self.line(&bits, start, end, newline))
    }
}

impl<'c> UrlLines<'c> {
    /// A line that does not fit a window, answered by the scalar scans.
    #[cold]
    fn long_line(&mut self, start: usize) -> UrlLine<'c> {
        let rest = &self.chunk[start..];
        let (text, next) = match memchr::memchr(b'\n', rest) {
            Some(i) => {
                let text = &rest[..i];
                (text.strip_suffix(b"\r").unwrap_or(text), start + i + 1)
            }
            None => (rest, self.chunk.len()),
        };
        self.pos = next;
        let (path, flags) = scan_path(text);
        let plain = text.iter().all(|&b| is_plain(b));
        UrlLine { text, path, flags, short: None, plain, block: None }
    }
}

/// Whether a byte is neither escaped nor quoted by any output format.
#[inline]
const fn is_plain(b: u8) -> bool {
    b >= 0x20 && b < 0x7F && !matches!(b, b',' | b'"' | b'\\')
}

/// One class's bitmap over a window.
type Mask = [u64; WINDOW_WORDS + 1];

/// The 64 bits of `mask` from bit `at`, a position in the window, on
/// (zeros past its end).
#[inline]
fn bits_from(mask: &Mask, at: usize) -> u64 {
    debug_assert!(at < WINDOW_BYTES);
    // The wrap (a no-op on a position in the window) lets the compiler drop
    // both bounds checks.
    let w = at % WINDOW_BYTES / BLOCK;
    let pair = u128::from(mask[w]) | u128::from(mask[w + 1]) << BLOCK;
    (pair >> (at % BLOCK)) as u64
}

/// The first set bit of `mask` in `from..to`.
#[inline]
fn first(mask: &Mask, mut from: usize, to: usize) -> Option<usize> {
    while from < to {
        let bits = bits_from(mask, from);
        if bits != 0 {
            let i = from + bits.trailing_zeros() as usize;
            return (i < to).then_some(i);
        }
        from += BLOCK;
    }
    None
}

/// Whether `mask` has a bit set in `from..to`.
#[inline]
fn any(mask: &Mask, mut from: usize, to: usize) -> bool {
    while from < to {
        let bits = bits_from(mask, from);
        let n = to - from;
        if n <= BLOCK {
            return bits & (u64::MAX >> (BLOCK - n)) != 0;
        }
        if bits != 0 {
            return true;
        }
        from += BLOCK;
    }
    false
}

/// Classifies `bytes` (at most a window) into `masks`: bit `i` of word
/// `w` of a class's bitmap is byte `64w + i`. The word after the last
/// one `bytes` fills is set to zero.
fn classify_window(bytes: &[u8], masks: &mut Masks) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, as just checked.
            unsafe { x86::window_avx2(bytes, masks) }
        } else {
            // SAFETY: SSE2 is part of the x86-64 baseline: every x86-64
            // CPU has it.
            unsafe { x86::window_sse2(bytes, masks) }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        window_with(bytes, masks, classify_bytes)
    }
}

/// [`classify_window`] with `classify` for each block.
#[inline(always)]
fn window_with(
    bytes: &[u8],
    masks: &mut Masks,
    classify: impl Fn(&[u8; BLOCK]) -> [u64; CLASSES],
) {
    let mut set = |w: usize, words: [u64; CLASSES]| {
        for (mask, word) in masks.iter_mut().zip(words) {
            mask[w] = word;
        }
    };
    let mut blocks = bytes.chunks_exact(BLOCK);
    let mut w = 0;
    for block in &mut blocks {
        set(w, classify(block.try_into().expect("a block")));
        w += 1;
    }
    let rest = blocks.remainder();
    if !rest.is_empty() {
        // N.B. The zeros after the chunk's end are classified too, but no
        // question is ever asked past a line's end.
        let mut block = [0u8; BLOCK];
        block[..rest.len()].copy_from_slice(rest);
        set(w, classify(&block));
        w += 1;
    }
    set(w, [0; CLASSES]);
}

/// Per byte value, the classes it is in (bit `c` for class `c`).
static CLASS_BITS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        if !is_plain(byte) {
            t[b] |= 1 << ESC;
        }
        if byte >= 0x80 {
            t[b] |= 1 << RFC;
        }
        b += 1;
    }
    t[b'\n' as usize] |= 1 << NL;
    t[b'/' as usize] |= 1 << AUTH;
    t[b'?' as usize] |= 1 << AUTH;
    t[b';' as usize] |= 1 << AUTH;
    t[b'#' as usize] |= 1 << AUTH | 1 << HASH;
    t[b'%' as usize] |= 1 << PCT;
    t[b'*' as usize] |= 1 << RFC;
    t[b'$' as usize] |= 1 << RFC;
    t
};

/// The class bitmaps of a block, a byte at a time: the definition of the
/// classes, and the way on targets other than x86-64.
#[cfg_attr(all(target_arch = "x86_64", not(test)), allow(dead_code))]
fn classify_bytes(block: &[u8; BLOCK]) -> [u64; CLASSES] {
    let mut masks = [0u64; CLASSES];
    for (i, &b) in block.iter().enumerate() {
        let bits = CLASS_BITS[usize::from(b)];
        for (c, mask) in masks.iter_mut().enumerate() {
            *mask |= u64::from(bits >> c & 1) << i;
        }
    }
    masks
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::{
        __m128i, __m256i, _mm256_cmpeq_epi8, _mm256_cmpgt_epi8,
        _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256,
        _mm256_set1_epi8, _mm_cmpeq_epi8, _mm_cmpgt_epi8, _mm_loadu_si128,
        _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };

    use super::{window_with, Masks, AUTH, CLASSES, ESC, HASH, NL, PCT, RFC};

    /// The class bitmaps of a block, a vector of `$width` bytes
    /// at a time: the classes of [`super::CLASS_BITS`], written once for
    /// both vector widths.
    macro_rules! classify_block {
        ($block:expr, $width:literal, $vector:ty, $load:ident, $set1:ident,
         $cmpeq:ident, $cmpgt:ident, $or:ident, $movemask:ident) => {{
            let mut words = [0u64; CLASSES];
            for (k, lane) in $block.chunks_exact($width).enumerate() {
                // SAFETY: `lane` holds `$width` bytes, what an unaligned
                // load of a vector reads.
                let v = unsafe { $load(lane.as_ptr().cast::<$vector>()) };
                let eq = |b: u8| $cmpeq(v, $set1(b as i8));
                let or = |a, b| $or(a, b);
                let hash = eq(b'#');
                let classes = [
                    (NL, eq(b'\n')),
                    (
                        ESC,
                        // Signed: below 0x20 or at or above 0x80.
                        or(
                            or($cmpgt($set1(0x20), v), eq(0x7F)),
                            or(or(eq(b','), eq(b'"')), eq(b'\\')),
                        ),
                    ),
                    (AUTH, or(or(eq(b'/'), eq(b'?')), or(eq(b';'), hash))),
                    (HASH, hash),
                    (PCT, eq(b'%')),
                    // `movemask` takes the high bit of every byte.
                    (RFC, or(or(eq(b'*'), eq(b'$')), v)),
                ];
                for (c, m) in classes {
                    let bits = $movemask(m) as u32 as u64;
                    words[c] |= bits << ($width * k);
                }
            }
            words
        }};
    }

    /// [`super::classify_window`] sixteen bytes at a time.
    #[target_feature(enable = "sse2")]
    pub(super) fn window_sse2(bytes: &[u8], masks: &mut Masks) {
        window_with(bytes, masks, |block| {
            classify_block!(
                block,
                16,
                __m128i,
                _mm_loadu_si128,
                _mm_set1_epi8,
                _mm_cmpeq_epi8,
                _mm_cmpgt_epi8,
                _mm_or_si128,
                _mm_movemask_epi8
            )
        });
    }

    /// [`super::classify_window`] thirty-two bytes at a time.
    #[target_feature(enable = "avx2")]
    pub(super) fn window_avx2(bytes: &[u8], masks: &mut Masks) {
        window_with(bytes, masks, |block| {
            classify_block!(
                block,
                32,
                __m256i,
                _mm256_loadu_si256,
                _mm256_set1_epi8,
                _mm256_cmpeq_epi8,
                _mm256_cmpgt_epi8,
                _mm256_or_si256,
                _mm256_movemask_epi8
            )
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::for_each_line;

    /// Every line of `chunk` as `for_each_line` and `scan_path` see it.
    fn expected(chunk: &[u8]) -> Vec<UrlLine<'_>> {
        let mut lines = vec![];
        for_each_line(chunk, |text| {
            let (path, flags) = scan_path(text);
            let plain = text.iter().all(|&b| is_plain(b));
            lines.push(UrlLine {
                text,
                path,
                flags,
                short: None,
                plain,
                block: None,
            });
            Ok::<(), ()>(())
        })
        .unwrap();
        lines
    }

    fn check(chunk: &[u8]) {
        let got: Vec<UrlLine<'_>> = UrlLines::new(chunk).collect();
        let want = expected(chunk);
        assert_eq!(
            got.len(),
            want.len(),
            "{:?}",
            String::from_utf8_lossy(chunk)
        );
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(
                UrlLine { short: None, block: None, ..*g },
                *w,
                "line {i} of {:?}",
                String::from_utf8_lossy(chunk)
            );
            if let Some(block) = g.block {
                assert_eq!(block.text(), g.text, "line {i}");
                assert_eq!(block.block().as_ptr(), g.text.as_ptr());
            }
            if let Some(short) = g.short {
                let rest = g.path.rest;
                assert_eq!(Some(short.block), g.block.map(|b| b.block()));
                assert_eq!(&short.block[short.at..][..rest.len()], rest);
                let specials = short.specials;
                let want = rest.iter().enumerate().fold(0u64, |m, (i, &b)| {
                    let special =
                        crate::url::path::RFC9309_SPECIAL[usize::from(b)];
                    m | u64::from(special) << i
                });
                assert_eq!(specials, want, "line {i}: {:?}", g.text);
            }
        }
    }

    /// A xorshift generator: deterministic, no dependency.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// Every way of classifying a window gives the bitmaps of the byte
    /// table.
    #[test]
    fn classes_agree_with_the_byte_table() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut bytes = vec![0u8; WINDOW_BYTES];
        for round in 0..200 {
            for (i, b) in bytes.iter_mut().enumerate() {
                *b = if round == 0 { i as u8 } else { rng.next() as u8 };
            }
            // Every length, so the last partial block is every size.
            let len = if round < 2 {
                WINDOW_BYTES
            } else {
                rng.below(WINDOW_BYTES + 1)
            };
            let bytes = &bytes[..len];
            let mut want = Box::new([[u64::MAX; WINDOW_WORDS + 1]; CLASSES]);
            window_with(bytes, &mut want, classify_bytes);
            let words = len.div_ceil(BLOCK);
            for mask in want.iter() {
                assert_eq!(mask[words], 0);
            }
            let mut got = Box::new([[u64::MAX; WINDOW_WORDS + 1]; CLASSES]);
            classify_window(bytes, &mut got);
            assert_eq!(got[..], want[..]);
            #[cfg(target_arch = "x86_64")]
            {
                let mut got =
                    Box::new([[u64::MAX; WINDOW_WORDS + 1]; CLASSES]);
                // SAFETY: SSE2 is part of the x86-64 baseline.
                unsafe { x86::window_sse2(bytes, &mut got) };
                assert_eq!(got[..], want[..]);
                if std::is_x86_feature_detected!("avx2") {
                    let mut got =
                        Box::new([[u64::MAX; WINDOW_WORDS + 1]; CLASSES]);
                    // SAFETY: the CPU has AVX2, as just checked.
                    unsafe { x86::window_avx2(bytes, &mut got) };
                    assert_eq!(got[..], want[..]);
                }
            }
        }
    }

    #[test]
    fn small_cases() {
        for chunk in [
            &b""[..],
            b"\n",
            b"\r\n",
            b"\r",
            b"a\r",
            b"https://a.com\n",
            b"https://a.com#x/y\n",
            b"https://a.com/p#x\r\nhttp://b?q",
            b"//a.com/x\n/x\n?x\nx\n;\n#\n",
            b"https://\nhttp://\nhttps:/\nftp://a/b%2A*\n",
            b"https://a.com/\xff$*%\n\"a,b\"\\\n\x00\t\n",
            b"mailto:x/y\nexample.com?q\n//\n///\n",
        ] {
            check(chunk);
        }
    }

    /// Random lines of URL-ish pieces, of every length up to past a
    /// window, so that lines start and end at every offset of a word and
    /// windows are cut everywhere.
    #[test]
    fn random_chunks_agree_with_the_scalar_scans() {
        const PIECES: &[&[u8]] = &[
            b"https://",
            b"http://",
            b"//",
            b"/",
            b"?",
            b";",
            b"#",
            b"%",
            b"%2a",
            b"*",
            b"$",
            b"\r",
            b"\r\n",
            b"\n",
            b",",
            b"\"",
            b"\\",
            b"\xc3\xa9",
            b"\x00",
            b"\t",
            b"a",
            b"example.com",
            b":",
            b"/gp/product/",
            b"ftp://",
            b"x",
        ];
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        for _ in 0..300 {
            let mut chunk = vec![];
            let lines = 1 + rng.below(200);
            for _ in 0..lines {
                let long = rng.below(50) == 0;
                let pieces =
                    if long { 400 + rng.below(800) } else { rng.below(12) };
                for _ in 0..pieces {
                    chunk.extend_from_slice(PIECES[rng.below(PIECES.len())]);
                }
                if rng.below(20) != 0 {
                    chunk.push(b'\n');
                }
            }
            check(&chunk);
            // Every start offset, against the same scans.
            for cut in [1, 7, BLOCK - 1, BLOCK, BLOCK + 1] {
                if chunk.len() > cut {
                    check(&chunk[cut..]);
                    check(&chunk[..chunk.len() - cut]);
                }
            }
        }
    }
}

//! Byte tests many bytes at once: eight bytes of a short string in a
//! word ("SIMD within a register"), where a search call per byte class,
//! or a loop over the bytes, costs more, and the marks of a robots.txt's
//! lines sixteen bytes at a time in a vector register where every
//! x86-64 processor has one. Robots.txt lines, URL paths and CSV fields
//! are mostly a few dozen bytes long.

/// `0x01` in every byte.
const ONES: u64 = u64::from_le_bytes([0x01; 8]);
/// `0x80` in every byte: the bytes at or above 0x80 of a word, masked.
pub(crate) const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);

/// The first 8 bytes of `bytes`, which must have that many, as a
/// little-endian word (byte `i` in bits `8i..8i+8`).
#[inline]
pub(crate) fn word(bytes: &[u8]) -> u64 {
    u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes"))
}

/// The first 8 bytes of `bytes` (fewer when it is shorter, then zeros) as
/// a little-endian word, and the mask of the bytes it holds.
#[inline]
pub(crate) fn word_and_mask(bytes: &[u8]) -> (u64, u64) {
    // Most paths and prefixes have 8 bytes: one load, where copying a
    // length known only now is a call.
    if bytes.len() >= 8 {
        return (word(bytes), u64::MAX);
    }
    let n = bytes.len();
    let mut head = [0u8; 8];
    head[..n].copy_from_slice(bytes);
    (u64::from_le_bytes(head), (1u64 << (8 * n)) - 1)
}

/// The high bit of each byte of `w` equal to `b`, set; nothing else but
/// for false positives above a true match. So the result is zero exactly
/// when no byte equals `b`, and its lowest set bit (`trailing_zeros / 8`)
/// is the first byte that does.
#[inline]
pub(crate) fn equal(w: u64, b: u8) -> u64 {
    let x = w ^ (ONES * u64::from(b));
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// Where the first byte of `bytes` that is one of `stops` (or, with
/// `high`, at or above 0x80) is; `bytes.len()` if none is. Eight bytes at
/// a time: the runs searched are short, too short for a vector search.
#[inline]
pub(crate) fn first_of<const N: usize>(
    bytes: &[u8],
    stops: [u8; N],
    high: bool,
) -> usize {
    let highs = if high { HIGHS } else { 0 };
    let mut i = 0;
    while i + 8 <= bytes.len() {
        let w = word(&bytes[i..]);
        // `equal`'s lowest set bit is its first match, as is the lowest
        // high bit: the lowest of them all is the first stop.
        let stop = stops.iter().fold(w & highs, |s, &b| s | equal(w, b));
        if stop != 0 {
            return i + (stop.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    let rest = &bytes[i..];
    let is_stop = |b: &u8| (high && *b >= 0x80) || stops.contains(b);
    i + rest.iter().position(is_stop).unwrap_or(rest.len())
}

/// Where the bytes that shape robots.txt lines are in a block of 64
/// bytes: bit `i` of each mask is set when byte `i` of the block is one
/// of its bytes.
#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub(crate) struct LineMarks {
    /// `\n` and `\r`, which end a line.
    pub(crate) ends: u64,
    /// `#` and NUL, which end a line's useful part.
    pub(crate) stops: u64,
    /// `:`, which ends a key.
    pub(crate) colons: u64,
}

/// The marks of every 64 bytes of `bytes` into `out` (cleared first),
/// the last block read as if zeros followed the bytes: its marks past
/// the end (stops, for the zeros) mean nothing, and readers stop at the
/// end.
pub(crate) fn line_marks(bytes: &[u8], out: &mut Vec<LineMarks>) {
    out.clear();
    out.reserve(bytes.len().div_ceil(64));
    let mut blocks = bytes.chunks_exact(64);
    for block in &mut blocks {
        out.push(block_marks(block.try_into().expect("64 bytes")));
    }
    let rest = blocks.remainder();
    if !rest.is_empty() {
        let mut last = [0u8; 64];
        last[..rest.len()].copy_from_slice(rest);
        out.push(block_marks(&last));
    }
}

/// The marks of one block, sixteen bytes at a time: SSE2 is part of
/// x86-64 itself, so no processor lacks it.
#[cfg(target_arch = "x86_64")]
#[inline]
fn block_marks(block: &[u8; 64]) -> LineMarks {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8,
        _mm_or_si128, _mm_set1_epi8,
    };
    let mut marks = LineMarks::default();
    for (i, part) in block.chunks_exact(16).enumerate() {
        // SAFETY: every x86-64 processor has SSE2 (the target enables
        // it), and the load reads the 16 bytes of `part`.
        let (ends, stops, colons) = unsafe {
            let v = _mm_loadu_si128(part.as_ptr().cast::<__m128i>());
            let eq = |b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8));
            (
                _mm_movemask_epi8(_mm_or_si128(eq(b'\n'), eq(b'\r'))),
                _mm_movemask_epi8(_mm_or_si128(eq(b'#'), eq(0))),
                _mm_movemask_epi8(eq(b':')),
            )
        };
        // One bit per byte, from the high bit of each byte's comparison.
        let bits = |m: i32| u64::from(m as u16) << (16 * i);
        marks.ends |= bits(ends);
        marks.stops |= bits(stops);
        marks.colons |= bits(colons);
    }
    marks
}

/// The marks of one block, a word at a time, elsewhere.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn block_marks(block: &[u8; 64]) -> LineMarks {
    block_marks_by_words(block)
}

/// The marks of one block from its eight words: each byte class's exact
/// high bits, gathered into a byte.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn block_marks_by_words(block: &[u8; 64]) -> LineMarks {
    let mut marks = LineMarks::default();
    for (i, part) in block.chunks_exact(8).enumerate() {
        let w = word(part);
        let shift = 8 * i;
        let eq = |b: u8| exactly(w, b);
        marks.ends |= gather(eq(b'\n') | eq(b'\r')) << shift;
        marks.stops |= gather(eq(b'#') | eq(0)) << shift;
        marks.colons |= gather(eq(b':')) << shift;
    }
    marks
}

/// The high bit of each byte of `w` equal to `b`, and nothing else
/// (unlike [`equal`], no false positives).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline]
fn exactly(w: u64, b: u8) -> u64 {
    const LOWS: u64 = !HIGHS;
    let x = w ^ (ONES * u64::from(b));
    // A byte's low seven bits plus 0x7F reach its high bit unless they
    // are all zero; with its own high bit, only a zero byte stays clear.
    !(((x & LOWS).wrapping_add(LOWS)) | x) & HIGHS
}

/// The high bits of the bytes of `m` (nothing else set) as one byte:
/// bit `i` for byte `i`.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline]
fn gather(m: u64) -> u64 {
    // Each high bit, moved to its byte's low bit, is multiplied into a
    // distinct bit of the top byte; no two products overlap.
    ((m >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_and_its_mask_hold_the_first_eight_bytes() {
        let text = b"/abcdefghij";
        for n in 0..=text.len() {
            let (w, mask) = word_and_mask(&text[..n]);
            let held = n.min(8);
            let mut want = [0u8; 8];
            want[..held].copy_from_slice(&text[..held]);
            assert_eq!(w.to_le_bytes(), want, "{n} bytes");
            let ones = (0..8).filter(|i| mask >> (8 * i) & 0xFF == 0xFF);
            assert_eq!(ones.count(), held, "{n} bytes");
            assert_eq!(mask.count_ones() as usize, 8 * held, "{n} bytes");
        }
    }

    #[test]
    fn equal_finds_the_first_match_and_only_misses_none() {
        let mut rng = crate::testing::xorshift(0x2545_f491_4f6c_dd1du64);
        for _ in 0..200_000 {
            // Few distinct byte values, so that matches are common.
            let r = rng();
            let bytes: Vec<u8> =
                r.to_le_bytes().iter().map(|&b| b % 5 + 0x7E).collect();
            let w = word(&bytes);
            for b in 0x7E..0x83u8 {
                let first = bytes.iter().position(|&x| x == b);
                let hits = equal(w, b);
                assert_eq!(hits == 0, first.is_none(), "{bytes:?} {b}");
                if let Some(i) = first {
                    assert_eq!(hits.trailing_zeros() / 8, i as u32);
                }
            }
        }
    }

    /// The marks of a block, a byte at a time.
    fn plain_marks(block: &[u8; 64]) -> LineMarks {
        let mut marks = LineMarks::default();
        for (i, &b) in block.iter().enumerate() {
            let bit = 1u64 << i;
            match b {
                b'\n' | b'\r' => marks.ends |= bit,
                b'#' | 0 => marks.stops |= bit,
                b':' => marks.colons |= bit,
                _ => {}
            }
        }
        marks
    }

    #[test]
    fn line_marks_are_those_of_a_plain_loop() {
        // Bytes drawn mostly from the marked ones and their neighbours
        // (one bit or one value off them, and the high half), so that
        // blocks hold many of each, next to each other.
        let near = [
            b'\n', b'\r', b'#', 0, b':', b'\x0b', b'\x0c', b'"', b'$', 1,
            b';', b'9', 0x80, 0x8A, 0xA3, 0xBA, 0xFF, b'a',
        ];
        let mut rng = crate::testing::xorshift(0x9E37_79B9_7F4A_7C15u64);
        let mut blocks = vec![[0u8; 64], [0xFF; 64], [b'#'; 64]];
        for _ in 0..20_000 {
            let mut block = [0u8; 64];
            for b in block.iter_mut() {
                let r = rng();
                *b = match r % 4 {
                    0 => (r >> 8) as u8,
                    _ => near[(r >> 8) as usize % near.len()],
                };
            }
            blocks.push(block);
        }
        for block in &blocks {
            let want = plain_marks(block);
            assert_eq!(block_marks(block), want, "{block:?}");
            assert_eq!(block_marks_by_words(block), want, "{block:?}");
        }
        // Every byte value in every place of an otherwise plain block.
        for at in 0..64 {
            for b in 0..=255u8 {
                let mut block = [b'x'; 64];
                block[at] = b;
                let want = plain_marks(&block);
                assert_eq!(block_marks(&block), want);
                assert_eq!(block_marks_by_words(&block), want);
            }
        }
    }

    #[test]
    fn line_marks_cover_every_block_and_pad_the_last() {
        let mut out = vec![];
        for len in [0usize, 1, 63, 64, 65, 128, 200] {
            let bytes: Vec<u8> = (0..len)
                .map(|i| if i % 7 == 0 { b':' } else { b'a' })
                .collect();
            line_marks(&bytes, &mut out);
            assert_eq!(out.len(), len.div_ceil(64), "{len}");
            for (i, &b) in bytes.iter().enumerate() {
                let colon = out[i / 64].colons >> (i % 64) & 1 == 1;
                assert_eq!(colon, b == b':', "{len} {i}");
            }
            // Past the end, the zeros of the padding are stops.
            if len % 64 != 0 {
                assert_eq!(
                    out[len / 64].stops >> (len % 64),
                    u64::MAX >> (len % 64)
                );
            }
        }
    }
}

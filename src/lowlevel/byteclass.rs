//! Byte classes of URL lines, 64 bytes at a time: one bitmap per class
//! over a window of a chunk, found sixteen bytes per step with SSE2 or
//! thirty-two with AVX2 where the CPU has it, and a byte at a time
//! elsewhere. The questions [`UrlLines`](crate::url::lines::UrlLines) asks
//! of a line are then shifts and counts of trailing zeros of these words.

/// Bits in a word of a class's bitmap: the bytes of a block.
pub(crate) const BLOCK: usize = 64;

/// The classes of bytes, each a bitmap over the window.
///
/// `\n`: ends a line.
pub(crate) const NL: usize = 0;
/// Bytes that some output format escapes or quotes: below 0x20, at or
/// above 0x80, `,`, `"` and `\`. A line without any is *plain*.
pub(crate) const ESC: usize = 1;
/// `/`, `?`, `;` and `#`: end an authority.
pub(crate) const AUTH: usize = 2;
/// `#`: starts a fragment.
pub(crate) const HASH: usize = 3;
/// `%`: starts an escape.
pub(crate) const PCT: usize = 4;
/// `*`, `$` and bytes at or above 0x80: RFC 9309 spells them differently
/// in a path.
pub(crate) const RFC: usize = 5;
pub(crate) const CLASSES: usize = 6;

/// Bytes classified at once: 64 words of a block each.
pub(crate) const WINDOW_WORDS: usize = 64;
pub(crate) const WINDOW_BYTES: usize = WINDOW_WORDS * BLOCK;

/// One bitmap per class over a window, and a word of zeros after it.
pub(crate) type Masks = [Mask; CLASSES];

/// Whether a byte is neither escaped nor quoted by any output format.
#[inline]
pub(crate) const fn is_plain(b: u8) -> bool {
    b >= 0x20 && b < 0x7F && !matches!(b, b',' | b'"' | b'\\')
}

/// One class's bitmap over a window.
pub(crate) type Mask = [u64; WINDOW_WORDS + 1];

/// The 64 bits of `mask` from bit `at`, a position in the window, on
/// (zeros past its end).
#[inline]
pub(crate) fn bits_from(mask: &Mask, at: usize) -> u64 {
    debug_assert!(at < WINDOW_BYTES);
    // The wrap (a no-op on a position in the window) lets the compiler drop
    // both bounds checks.
    let w = at % WINDOW_BYTES / BLOCK;
    let pair = u128::from(mask[w]) | u128::from(mask[w + 1]) << BLOCK;
    (pair >> (at % BLOCK)) as u64
}

/// The first set bit of `mask` in `from..to`.
#[inline]
pub(crate) fn first(mask: &Mask, mut from: usize, to: usize) -> Option<usize> {
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
pub(crate) fn any(mask: &Mask, mut from: usize, to: usize) -> bool {
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
pub(crate) fn classify_window(bytes: &[u8], masks: &mut Masks) {
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
pub(crate) fn window_with(
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
pub(crate) static CLASS_BITS: [u8; 256] = {
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
pub(crate) fn classify_bytes(block: &[u8; BLOCK]) -> [u64; CLASSES] {
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

    /// Every way of classifying a window gives the bitmaps of the byte
    /// table.
    #[test]
    fn classes_agree_with_the_byte_table() {
        let mut next = crate::testing::xorshift(0x9E37_79B9_7F4A_7C15);
        let mut bytes = vec![0u8; WINDOW_BYTES];
        for round in 0..200 {
            for (i, b) in bytes.iter_mut().enumerate() {
                *b = if round == 0 { i as u8 } else { next() as u8 };
            }
            // Every length, so the last partial block is every size.
            let len = if round < 2 {
                WINDOW_BYTES
            } else {
                (next() % (WINDOW_BYTES as u64 + 1)) as usize
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
}

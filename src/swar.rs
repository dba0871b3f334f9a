//! Word-at-a-time byte tests ("SIMD within a register"): eight bytes of a
//! short string at once, where a search call per byte class, or a loop
//! over the bytes, costs more. Robots.txt lines, URL paths and CSV fields
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
    let n = bytes.len().min(8);
    let mut word = [0u8; 8];
    word[..n].copy_from_slice(&bytes[..n]);
    let mask = if n == 8 { u64::MAX } else { (1u64 << (8 * n)) - 1 };
    (u64::from_le_bytes(word), mask)
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

#[cfg(test)]
mod tests {
    use super::*;

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
}

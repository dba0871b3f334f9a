//! The 64-byte block for short lines.
//!
//! Most URL lines are shorter than [`BLOCK`] bytes. For such a line, when
//! its chunk holds [`BLOCK`] bytes from the line's start, the pipeline
//! keeps those bytes along with the line (a [`ShortLine`]), so that the
//! path's normalisation and the CSV row copy them whole, a copy of a known
//! size, rather than the line's own length. The block stays inside the
//! pipeline and the CSV writer: the public API sees lines as bytes. See
//! docs/DESIGN.md, "The 64-byte block for short lines".

/// The size of a block in bytes. A block is also what one word of the line
/// reader's bitmaps covers, so that a short line's byte classes, and the
/// places of its path's special bytes, are one `u64` each.
pub(crate) use crate::lowlevel::byteclass::BLOCK;

const _: () = assert!(BLOCK == u64::BITS as usize);

/// A line shorter than [`BLOCK`] bytes, in the [`BLOCK`] bytes of input
/// that start with it.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub(crate) struct ShortLine<'c> {
    block: &'c [u8; BLOCK],
    /// The line's length, below [`BLOCK`]: code that copies a whole
    /// block after the line's bytes relies on it.
    len: usize,
}

impl<'c> ShortLine<'c> {
    /// The line of `len` bytes at `start` in `chunk`, when it is shorter
    /// than a block and `chunk` holds a block from `start`.
    #[inline]
    pub(crate) fn new(
        chunk: &'c [u8],
        start: usize,
        len: usize,
    ) -> Option<ShortLine<'c>> {
        match chunk.get(start..start + BLOCK) {
            Some(block) if len < BLOCK => {
                Some(ShortLine { block: block.try_into().ok()?, len })
            }
            _ => None,
        }
    }

    /// The [`BLOCK`] bytes of input from the line's start.
    #[inline]
    pub(crate) fn block(self) -> &'c [u8; BLOCK] {
        self.block
    }

    /// The line's length, always below [`BLOCK`].
    #[inline]
    pub(crate) fn len(self) -> usize {
        self.len
    }

    /// The line's bytes.
    #[cfg(test)]
    pub(crate) fn text(self) -> &'c [u8] {
        &self.block[..self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_lines_shorter_than_a_block_in_a_whole_block() {
        let chunk = [b'a'; 2 * BLOCK];
        let line = ShortLine::new(&chunk, 3, BLOCK - 1).unwrap();
        assert_eq!(line.block().as_ptr(), chunk[3..].as_ptr());
        assert_eq!(line.text(), &chunk[3..3 + BLOCK - 1]);
        assert_eq!(line.len(), BLOCK - 1);
        assert_eq!(ShortLine::new(&chunk, 3, BLOCK), None);
        assert_eq!(ShortLine::new(&chunk, BLOCK + 1, 0), None);
        assert!(ShortLine::new(&chunk, BLOCK, 0).is_some());
    }
}

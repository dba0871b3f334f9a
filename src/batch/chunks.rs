//! An input cut into chunks of whole lines, from a slice, a memory map or
//! a reader, with lines over the length limit cut.

use std::io::{self, Read};
use std::ops::Deref;

use super::stats::Stats;

/// The longest line judged whole: 8 MiB, four times the longest URL a
/// browser accepts. A longer line still gets its row, holding and judged
/// on its first `MAX_LINE_BYTES` bytes (counted in
/// [`Stats::cut_lines`]), and the rest is read past without being kept,
/// so that a stream's memory stays bounded whatever its lines. Chunks are
/// at most this long too (see [`BatchBuilder::chunk_size`](crate::BatchBuilder::chunk_size)).
pub const MAX_LINE_BYTES: usize = 8 << 20;

/// A chunk of whole lines: borrowed from a slice or a memory map, or read
/// into a buffer of its own.
pub(crate) enum Chunk<'a> {
    Borrowed(&'a [u8]),
    Owned(Vec<u8>),
}

impl Deref for Chunk<'_> {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match *self {
            Chunk::Borrowed(bytes) => bytes,
            Chunk::Owned(ref buf) => buf,
        }
    }
}

/// An input cut into chunks that end at line ends (or at the end of the
/// input).
pub(crate) trait Chunks<'a> {
    /// The next chunk, or `None` at the end. `spare` is a spent buffer that
    /// an implementation may reuse.
    fn next_chunk(
        &mut self,
        spare: Option<Vec<u8>>,
    ) -> io::Result<Option<Chunk<'a>>>;

    /// The lines cut at [`MAX_LINE_BYTES`] so far, and the bytes read past
    /// after their cuts.
    fn cut(&self) -> Stats;

    /// The size at which the input is cut into chunks.
    fn chunk_size(&self) -> usize;

    /// Whether no chunk follows the one last returned (false where that
    /// is not known yet: a stream whose end comes with its last byte).
    fn at_end(&self) -> bool {
        false
    }
}

/// Puts the first [`MAX_LINE_BYTES`] of `line` into `buf` as a line of its
/// own, after `before` (the chunk's whole lines before it); `ended` when
/// the line had a line end (it may be the input's last line, without one).
pub(super) fn push_cut(
    buf: &mut Vec<u8>,
    before: &[u8],
    line: &[u8],
    ended: bool,
) {
    buf.extend_from_slice(before);
    buf.extend_from_slice(&line[..MAX_LINE_BYTES]);
    if ended {
        buf.push(b'\n');
    }
}

/// Chunks of a slice: no copies.
pub(super) struct SliceChunks<'a> {
    haystack: &'a [u8],
    pos: usize,
    chunk_size: usize,
    cut: Stats,
}

impl<'a> SliceChunks<'a> {
    pub(super) fn new(haystack: &'a [u8], chunk_size: usize) -> Self {
        SliceChunks { haystack, pos: 0, chunk_size, cut: Stats::default() }
    }
}

impl<'a> Chunks<'a> for SliceChunks<'a> {
    fn next_chunk(
        &mut self,
        spare: Option<Vec<u8>>,
    ) -> io::Result<Option<Chunk<'a>>> {
        let hay = self.haystack;
        if self.pos >= hay.len() {
            return Ok(None);
        }
        // The chunk ends just after the first `\n` at or after `want - 1`.
        let want = self.pos.saturating_add(self.chunk_size).min(hay.len());
        let (line_end, end) = match memchr::memchr(b'\n', &hay[want - 1..]) {
            Some(i) => (want - 1 + i, want + i),
            None => (hay.len(), hay.len()),
        };
        // Only the last line can be longer than a chunk, so than the limit.
        let start = self.pos;
        let last = match memchr::memrchr(b'\n', &hay[start..want - 1]) {
            Some(i) => start + i + 1,
            None => start,
        };
        self.pos = end;
        if line_end - last <= MAX_LINE_BYTES {
            return Ok(Some(Chunk::Borrowed(&hay[start..end])));
        }
        self.cut.count_cut(line_end - last - MAX_LINE_BYTES);
        let mut buf = spare.unwrap_or_default();
        buf.clear();
        let ended = line_end < hay.len();
        push_cut(&mut buf, &hay[start..last], &hay[last..line_end], ended);
        Ok(Some(Chunk::Owned(buf)))
    }

    fn cut(&self) -> Stats {
        self.cut
    }

    fn chunk_size(&self) -> usize {
        self.chunk_size
    }

    fn at_end(&self) -> bool {
        self.pos >= self.haystack.len()
    }
}

/// Chunks of a stream, read into buffers. The bytes after a chunk's last
/// line end are carried over to the next chunk.
pub(super) struct ReadChunks<Rd> {
    rdr: Rd,
    chunk_size: usize,
    carry: Vec<u8>,
    eof: bool,
    /// The input's length where it is known (a file's), and the bytes
    /// read so far: a chunk that reads the last byte ends the input even
    /// when no read has met the end yet.
    len: Option<u64>,
    read: u64,
    cut: Stats,
}

impl<Rd: Read> ReadChunks<Rd> {
    pub(super) fn new(rdr: Rd, chunk_size: usize) -> Self {
        ReadChunks {
            rdr,
            chunk_size,
            carry: vec![],
            eof: false,
            len: None,
            read: 0,
            cut: Stats::default(),
        }
    }

    /// Chunks of an input of `len` bytes (a file's length when it was
    /// opened), so that the chunk that reads its last byte says it ends
    /// the input (see [`Chunks::at_end`]).
    pub(super) fn of_len(mut self, len: Option<u64>) -> Self {
        self.len = len;
        self
    }

    /// Reads into `buf` until it holds `target` bytes or the reader has no
    /// more (then sets `eof`).
    ///
    /// The bytes are read into `buf`'s spare capacity as `read_to_end`
    /// does, which zeroes each byte at most once (not at all for files and
    /// standard input): a pipe or a decoder gives a few KiB per read, and
    /// zeroing the rest of the chunk before each would cost more than the
    /// reading.
    fn fill(&mut self, buf: &mut Vec<u8>, target: usize) -> io::Result<()> {
        let want = target.saturating_sub(buf.len());
        buf.reserve(want);
        let got = (&mut self.rdr).take(want as u64).read_to_end(buf)?;
        self.eof = got < want;
        self.read = self.read.saturating_add(got as u64);
        Ok(())
    }

    /// Cuts the line that starts `buf` and runs past [`MAX_LINE_BYTES`]:
    /// keeps its first `MAX_LINE_BYTES` bytes as a line, and reads past
    /// the rest of it, keeping only what follows its end for the next
    /// chunk.
    fn cut_first_line(&mut self, buf: Vec<u8>) -> io::Result<Vec<u8>> {
        let (mut skipped, mut ended) = (buf.len() - MAX_LINE_BYTES, false);
        if let Some(i) = memchr::memchr(b'\n', &buf[MAX_LINE_BYTES..]) {
            (skipped, ended) = (i, true);
            self.carry.extend_from_slice(&buf[MAX_LINE_BYTES + i + 1..]);
        } else {
            // Read past the line in chunk-sized pieces, in `scratch`.
            let mut scratch = Vec::with_capacity(self.chunk_size);
            while !self.eof {
                scratch.clear();
                self.fill(&mut scratch, self.chunk_size)?;
                if let Some(i) = memchr::memchr(b'\n', &scratch) {
                    (skipped, ended) = (skipped + i, true);
                    self.carry.extend_from_slice(&scratch[i + 1..]);
                    break;
                }
                skipped += scratch.len();
            }
        }
        self.cut.count_cut(skipped);
        let mut chunk = buf;
        chunk.truncate(MAX_LINE_BYTES);
        if ended {
            chunk.push(b'\n');
        }
        Ok(chunk)
    }
}

impl<Rd: Read> Chunks<'static> for ReadChunks<Rd> {
    fn next_chunk(
        &mut self,
        spare: Option<Vec<u8>>,
    ) -> io::Result<Option<Chunk<'static>>> {
        let mut buf = spare.unwrap_or_default();
        buf.clear();
        buf.extend_from_slice(&self.carry);
        self.carry.clear();
        // The carried bytes are a partial line, or after a cut line any
        // bytes: search them too.
        let mut searched = 0;
        let mut target = self.chunk_size;
        loop {
            if buf.len() < target && !self.eof {
                self.fill(&mut buf, target)?;
            }
            // Until a line end is found, `buf` holds one line.
            let first_end = memchr::memchr(b'\n', &buf[searched..])
                .map_or(buf.len(), |i| searched + i);
            if first_end > MAX_LINE_BYTES {
                return self
                    .cut_first_line(buf)
                    .map(|b| Some(Chunk::Owned(b)));
            }
            if self.eof {
                return Ok(if buf.is_empty() {
                    None
                } else {
                    Some(Chunk::Owned(buf))
                });
            }
            if let Some(i) = memchr::memrchr(b'\n', &buf[searched..]) {
                let end = searched + i + 1;
                self.carry.extend_from_slice(&buf[end..]);
                buf.truncate(end);
                return Ok(Some(Chunk::Owned(buf)));
            }
            // A line longer than a chunk: read on until it ends.
            searched = buf.len();
            target = buf.len().saturating_add(self.chunk_size);
        }
    }

    fn cut(&self) -> Stats {
        self.cut
    }

    fn chunk_size(&self) -> usize {
        self.chunk_size
    }

    fn at_end(&self) -> bool {
        let all_read = self.len.is_some_and(|len| self.read >= len);
        (self.eof || all_read) && self.carry.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that gives at most `step` bytes per read, as a pipe or a
    /// decoder does.
    struct Trickle<'a> {
        bytes: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(self.step).min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    /// The chunks `rdr` is cut into (each buffer handed back as the next
    /// one's spare, as the pipeline does) and the cut lines' statistics.
    fn chunks_of(rdr: impl Read, chunk_size: usize) -> (Vec<Vec<u8>>, Stats) {
        let mut chunks = ReadChunks::new(rdr, chunk_size);
        let (mut out, mut spare) = (vec![], None);
        while let Some(chunk) = chunks.next_chunk(spare.take()).unwrap() {
            out.push(chunk.to_vec());
            if let Chunk::Owned(buf) = chunk {
                spare = Some(buf);
            }
        }
        (out, chunks.cut())
    }

    /// The chunks say when the one they just gave ends the input: slices
    /// always; streams once a read met the end, or their known length is
    /// read (without it, an input that ends exactly where a chunk is full
    /// is found to end only by the next read).
    #[test]
    fn chunks_say_when_they_end_the_input() {
        let lines = b"/abcdefgh\n/a\n".repeat(20);
        let ends = |chunks: &mut dyn Chunks<'_>| {
            let mut out = vec![];
            while chunks.next_chunk(None).unwrap().is_some() {
                out.push(chunks.at_end());
            }
            out
        };
        // Several chunks, the last alone at the end (slices and streams
        // cut them at different line ends).
        let last_alone = |got: Vec<bool>| {
            assert!(got.len() > 3, "{got:?}");
            assert_eq!(got, [vec![false; got.len() - 1], vec![true]].concat());
        };
        last_alone(ends(&mut SliceChunks::new(&lines, 45)));
        last_alone(ends(&mut ReadChunks::new(&lines[..], 45)));
        last_alone(ends(&mut ReadChunks::new(
            Trickle { bytes: &lines, step: 7 },
            45,
        )));
        assert_eq!(ends(&mut SliceChunks::new(&lines, 1 << 20)), [true]);
        assert_eq!(ends(&mut ReadChunks::new(&lines[..], 1 << 20)), [true]);
        // 13 bytes a line: a chunk of 26 bytes is full at the input's end,
        // which the next read finds.
        let two = b"/abcdefgh\n/a\n".repeat(2);
        assert_eq!(ends(&mut SliceChunks::new(&two, 26)), [true]);
        assert_eq!(ends(&mut ReadChunks::new(&two[..], 26)), [false]);
        // Unless the stream's length is known, as a file's is.
        let mut known = ReadChunks::new(&two[..], 26).of_len(Some(26));
        assert_eq!(ends(&mut known), [true]);
        let mut known = ReadChunks::new(&lines[..], 45).of_len(Some(260));
        last_alone(ends(&mut known));
    }

    /// A reader that gives a few bytes per read is cut into the chunks of
    /// one that gives all it is asked for: each filled to its size before
    /// it is cut at its last line end, the longest line cut at the limit.
    #[test]
    fn a_trickling_reader_gives_the_same_chunks() {
        let lines = b"/abcdefgh\n/a\r\n\n/abc".repeat(40);
        let long =
            [&b"/a\n"[..], &vec![b'x'; MAX_LINE_BYTES + 100], b"\n/b\n"]
                .concat();
        for (input, chunk_size, steps, cut) in [
            (&lines[..], 95, &[1, 3, 64, 4096][..], 0),
            (&long[..], 1 << 20, &[4096, 1 << 20][..], 100),
        ] {
            let (want, want_cut) = chunks_of(input, chunk_size);
            assert_eq!(input.len() - want.concat().len(), cut);
            assert_eq!(
                (want_cut.cut_lines(), want_cut.bytes()),
                (u64::from(cut > 0), cut as u64)
            );
            for &step in steps {
                let rdr = Trickle { bytes: input, step };
                let (got, got_cut) = chunks_of(rdr, chunk_size);
                assert!(got == want, "step {step}, chunk {chunk_size}");
                assert_eq!(
                    (got_cut.cut_lines(), got_cut.bytes()),
                    (want_cut.cut_lines(), want_cut.bytes()),
                );
            }
        }
        // Every chunk but the last is full to its last line end.
        let (chunks, _) = chunks_of(Trickle { bytes: &lines, step: 3 }, 95);
        assert_eq!(chunks.concat(), lines);
        for c in &chunks[..chunks.len() - 1] {
            assert!(c.ends_with(b"\n") && c.len() > 95 - 10, "{c:?}");
        }
    }
}

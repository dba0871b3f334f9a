//! Where records end, and the cutting of a record input into chunks of
//! whole records there: a chunk must end where its parser ends a record,
//! or a record is judged in two halves.

use std::io::{self, Read};

use crate::batch::{Chunk, Chunks, Stats};

/// The most bytes one record may take: a longer one (in CSV, most likely
/// an unbalanced quote) stops the run with an error rather than fill the
/// memory.
pub const MAX_RECORD_BYTES: usize = 256 << 20;

/// An input error: bad data, not a failed read.
pub(super) fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

/// How the records of an input end.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub(crate) enum Framing {
    /// A record per line, ended by `\n` (JSON Lines, CDXJ, access logs).
    Lines,
    /// A record per line, ended by `\n`, `\r\n` or a lone `\r`, as the csv
    /// crate ends them (TSV: no quoting).
    Tsv,
    /// RFC 4180 as the csv crate reads it: line ends as in TSV, except
    /// inside a quoted field; a quote opens one only at a field's start
    /// (elsewhere it is a literal byte), and `""` inside one is a quote.
    Csv(u8),
}

/// Each record of a TSV chunk (whole records), with its line end: every
/// line is one, a blank line too (the only way TSV can write a record of
/// one empty field).
pub(crate) fn tsv_records(chunk: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut start = 0;
    std::iter::from_fn(move || {
        if start >= chunk.len() {
            return None;
        }
        let end = first_end(chunk, start, chunk.len()).unwrap_or(chunk.len());
        let record = &chunk[start..end];
        start = end;
        Some(record)
    })
}

/// The end of the first line in `buf[from..to]`, after its `\n`, `\r\n`
/// or lone `\r`; `buf[to]`, if there, is never `\n`.
fn first_end(buf: &[u8], from: usize, to: usize) -> Option<usize> {
    let i = from + memchr::memchr2(b'\n', b'\r', &buf[from..to])?;
    if buf[i] == b'\r' && buf.get(i + 1) == Some(&b'\n') {
        Some(i + 2)
    } else {
        Some(i + 1)
    }
}

/// The end of the last line in `buf[from..to]`; `buf[to]`, if there, is
/// never `\n` (so a last `\r` is a lone one).
fn last_end(buf: &[u8], from: usize, to: usize) -> Option<usize> {
    memchr::memrchr2(b'\n', b'\r', &buf[from..to]).map(|i| from + i + 1)
}

/// UTF-8's byte order mark.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// How far a scan of a chunk's bytes has got: a chunk that needs more
/// input is scanned on from there, so a long record is read once.
#[derive(Debug, Default)]
struct Scan {
    /// The next byte to look at.
    pos: usize,
    /// `pos` is inside a quoted CSV field.
    quoted: bool,
    /// The last record end found.
    last: Option<usize>,
}

/// An input cut into chunks of whole records (see [`Framing`]).
pub(crate) struct RecordChunks<R> {
    rdr: R,
    chunk_size: usize,
    framing: Framing,
    carry: Vec<u8>,
    eof: bool,
    scan: Scan,
}

impl<R: Read> RecordChunks<R> {
    pub(crate) fn new(rdr: R, chunk_size: usize, framing: Framing) -> Self {
        RecordChunks {
            rdr,
            chunk_size,
            framing,
            carry: vec![],
            eof: false,
            scan: Scan::default(),
        }
    }

    /// Reads until `buf` holds `target` bytes or the input ends.
    fn fill(&mut self, buf: &mut Vec<u8>, target: usize) -> io::Result<()> {
        while buf.len() < target && !self.eof {
            let len = buf.len();
            buf.resize(target, 0);
            match self.rdr.read(&mut buf[len..]) {
                Ok(n) => {
                    buf.truncate(len + n);
                    self.eof = n == 0;
                }
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {
                    buf.truncate(len);
                }
                Err(err) => {
                    buf.truncate(len);
                    return Err(err);
                }
            }
        }
        Ok(())
    }

    /// The end of the first (`first`) or the last record in `buf`, which
    /// starts at a record's start and has grown since the last call.
    fn boundary(&mut self, buf: &[u8], first: bool) -> Option<usize> {
        if self.framing == Framing::Lines {
            let from = self.scan.pos;
            self.scan.pos = buf.len();
            let found = if first {
                memchr::memchr(b'\n', &buf[from..])
            } else {
                memchr::memrchr(b'\n', &buf[from..])
            };
            self.scan.last = found.map(|i| from + i + 1).or(self.scan.last);
            return self.scan.last;
        }
        // A last `\r` may be half of a `\r\n`, a last quote half of a
        // `""`: both wait for the next byte.
        let end = match buf.last() {
            Some(b'\r' | b'"') if !self.eof => buf.len() - 1,
            _ => buf.len(),
        };
        let delimiter = match self.framing {
            Framing::Csv(d) => d,
            _ => {
                let from = self.scan.pos.min(end);
                self.scan.pos = end;
                return if first {
                    first_end(buf, from, end)
                } else {
                    self.scan.last =
                        last_end(buf, from, end).or(self.scan.last);
                    self.scan.last
                };
            }
        };
        let s = &mut self.scan;
        while s.pos < end {
            if s.quoted {
                let Some(i) = memchr::memchr(b'"', &buf[s.pos..end]) else {
                    s.pos = end;
                    break;
                };
                let q = s.pos + i;
                s.quoted = buf.get(q + 1) == Some(&b'"');
                s.pos = if s.quoted { q + 2 } else { q + 1 };
                continue;
            }
            // The unquoted bytes up to the next quote that opens a field.
            let from = s.pos;
            let mut open = None;
            while let Some(i) = memchr::memchr(b'"', &buf[s.pos..end]) {
                let q = s.pos + i;
                s.pos = q + 1;
                // csv skips a BOM at the start of what it reads.
                let start = q == 0 || (q == 3 && buf.starts_with(BOM));
                if start
                    || matches!(buf[q - 1], b'\n' | b'\r')
                    || buf[q - 1] == delimiter
                {
                    open = Some(q);
                    break;
                }
            }
            let to = open.unwrap_or(end);
            if first {
                if let Some(e) = first_end(buf, from, to) {
                    return Some(e);
                }
            } else {
                s.last = last_end(buf, from, to).or(s.last);
            }
            match open {
                Some(_) => s.quoted = true,
                None => s.pos = end,
            }
        }
        if first {
            None
        } else {
            s.last
        }
    }

    /// The next piece of input up to a record end (`first`: the first
    /// one), or what is left at the end of the input.
    fn take(
        &mut self,
        mut buf: Vec<u8>,
        first: bool,
    ) -> io::Result<Option<Vec<u8>>> {
        buf.clear();
        buf.append(&mut self.carry);
        self.scan = Scan::default();
        let mut target = self.chunk_size.max(1);
        loop {
            self.fill(&mut buf, target)?;
            if let Some(end) = self.boundary(&buf, first) {
                if !self.eof || end < buf.len() {
                    self.carry.extend_from_slice(&buf[end..]);
                    buf.truncate(end);
                    return Ok(Some(buf));
                }
            }
            if self.eof {
                return Ok((!buf.is_empty()).then_some(buf));
            }
            if buf.len() > MAX_RECORD_BYTES {
                return Err(invalid(format!(
                    "a record over {} MiB{}",
                    MAX_RECORD_BYTES >> 20,
                    match self.framing {
                        Framing::Csv(_) => " (an unbalanced quote?)",
                        _ => "",
                    }
                )));
            }
            target = buf.len().saturating_add(self.chunk_size.max(1));
        }
    }

    /// The first record, with its line end: a header.
    pub(crate) fn first_record(&mut self) -> io::Result<Vec<u8>> {
        Ok(self.take(vec![], true)?.unwrap_or_default())
    }
}

impl<R: Read> Chunks<'static> for RecordChunks<R> {
    fn next_chunk(
        &mut self,
        spare: Option<Vec<u8>>,
    ) -> io::Result<Option<Chunk<'static>>> {
        let buf = spare.unwrap_or_default();
        Ok(self.take(buf, false)?.map(Chunk::Owned))
    }

    fn cut(&self) -> Stats {
        Stats::default()
    }

    fn chunk_size(&self) -> usize {
        self.chunk_size
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every record of `input` as the csv crate reads it.
    fn records(input: &[u8], quoting: bool, delimiter: u8) -> Vec<Vec<u8>> {
        let mut rdr = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .quoting(quoting)
            .delimiter(delimiter)
            .from_reader(input);
        rdr.byte_records()
            .map(|r| {
                let r = r.unwrap();
                r.iter().collect::<Vec<_>>().join(&b"|"[..])
            })
            .collect()
    }

    /// The chunks of `input` cut with `chunk_size` (the first one a
    /// header's when `header`).
    fn cut(
        input: &[u8],
        framing: Framing,
        chunk_size: usize,
        header: bool,
    ) -> Vec<Vec<u8>> {
        let mut chunks = RecordChunks::new(input, chunk_size, framing);
        let mut out = vec![];
        if header {
            out.push(chunks.first_record().unwrap());
        }
        while let Some(chunk) = chunks.next_chunk(None).unwrap() {
            let Chunk::Owned(bytes) = chunk else { unreachable!() };
            out.push(bytes);
        }
        out
    }

    /// The csv crate reads the chunks, one by one, as it reads the whole.
    fn assert_agrees(input: &[u8]) {
        for (framing, quoting, delimiter) in [
            (Framing::Csv(b','), true, b','),
            (Framing::Csv(b'\t'), true, b'\t'),
            (Framing::Tsv, false, b'\t'),
        ] {
            let whole = records(input, quoting, delimiter);
            for chunk_size in 1..=input.len() + 1 {
                for header in [false, true] {
                    let chunks = cut(input, framing, chunk_size, header);
                    assert_eq!(chunks.concat(), input);
                    let read: Vec<Vec<u8>> = chunks
                        .iter()
                        .flat_map(|c| records(c, quoting, delimiter))
                        .collect();
                    assert_eq!(
                        read,
                        whole,
                        "{framing:?}, chunks of {chunk_size}: {:?}",
                        String::from_utf8_lossy(input)
                    );
                }
            }
        }
    }

    #[test]
    fn chunks_end_where_the_csv_crate_ends_records() {
        for input in [
            &b"url,n\nhttp://a.com/s,a\"b\nx,\"1\n2\"\ny,3\n"[..],
            b"a,\"b\"\"\nc\"\nd\n",
            b"\"a\"x\"\ny\"\nz\n",
            b"a\r\"b\rc\"\rd\r\ne\n\r\n",
            b"\"\"\n\"\"\"\"\n,\"\n\"\n",
            b"a\"\n\"b\nc\"\n",
            b"\"unclosed\nx\ny",
            b"\xef\xbb\xbf\"a\nb\",c\nd\n",
        ] {
            assert_agrees(input);
        }
    }

    #[test]
    fn chunks_agree_on_random_bytes() {
        // A fixed-seed xorshift over the bytes that matter.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..400 {
            let len = (next() % 24) as usize;
            let input: Vec<u8> = (0..len)
                .map(|_| b"a,\"\"\n\r\t"[(next() % 7) as usize])
                .collect();
            assert_agrees(&input);
        }
    }

    #[test]
    fn tsv_records_are_lines_blank_ones_too() {
        let got: Vec<&[u8]> =
            tsv_records(b"a\tb\n\nc\r\n\r\nd\re\r\rf").collect();
        let want: [&[u8]; 8] =
            [b"a\tb\n", b"\n", b"c\r\n", b"\r\n", b"d\r", b"e\r", b"\r", b"f"];
        assert_eq!(got, want);
    }
}

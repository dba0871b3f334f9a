//! CSV rows of a line and its verdicts: the command's default, and its
//! fastest renderer.

use std::io;

use super::fields::push_csv_field;
use crate::batch::{PlainLine, Render};
use crate::matcher::Verdict;
use crate::url::block::{ShortLine, BLOCK};

/// Renders lines and verdicts as CSV records (`url,verdict`).
///
/// # Example
///
/// ```
/// use robots_batch::{CsvRender, Dialect, Matcher, Render, Robots};
///
/// let robots = Robots::parse(b"User-agent: *\nDisallow: /a,b\n");
/// let matcher = Matcher::new(&robots, "*", Dialect::Rfc9309);
/// let mut scratch = matcher.scratch();
/// let mut csv = CsvRender::new();
/// let mut out = CsvRender::header();
/// for url in [&b"/a,b"[..], b"", b"/x"] {
///     csv.line(url, &[matcher.verdict(url, &mut scratch)])?;
/// }
/// let mut chunk = vec![];
/// csv.finish(&mut chunk)?;
/// out.extend_from_slice(&chunk);
/// assert_eq!(out, b"url,verdict\n\"/a,b\",disallowed\n,allowed\n/x,allowed\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct CsvRender {
    buf: Vec<u8>,
    quoter: csv_core::Writer,
}

impl Default for CsvRender {
    fn default() -> CsvRender {
        CsvRender::new()
    }
}

impl CsvRender {
    /// A renderer with an empty buffer.
    pub fn new() -> CsvRender {
        CsvRender { buf: vec![], quoter: csv_core::Writer::new() }
    }

    /// The header record, `url,verdict` and its line terminator, for
    /// output with one matcher.
    pub fn header() -> Vec<u8> {
        let mut wtr = csv::Writer::from_writer(vec![]);
        // N.B. Writing to a Vec cannot fail.
        let _ = wtr.write_record(["url", "verdict"]);
        wtr.into_inner().unwrap_or_default()
    }

    #[inline]
    fn field(&mut self, field: &[u8]) {
        push_csv_field(&mut self.quoter, &mut self.buf, field);
    }

    /// The verdict fields after a row's URL, and the row's end.
    ///
    /// Each field is copied as one fixed 16-byte block and the buffer cut
    /// back to the field's length: a copy of a known size is two moves, a
    /// copy of the field's own length a call to `memcpy`.
    #[inline]
    fn end_row(&mut self, verdicts: &[Verdict]) {
        for &verdict in verdicts {
            let field = VerdictField::of(verdict, false);
            let at = self.buf.len();
            self.buf.extend_from_slice(&field.block);
            self.buf.truncate(at + field.len);
        }
        self.buf.push(b'\n');
    }

    /// The row of a plain short line, from its block.
    ///
    /// The URL is copied as one fixed-size block and the buffer cut back,
    /// as the verdict fields are (see `end_row`): a copy of the URL's own
    /// length would be a call to `memcpy`. See docs/DESIGN.md, "The
    /// 64-byte block for short lines".
    #[inline]
    fn short_row(&mut self, line: ShortLine<'_>, verdicts: &[Verdict]) {
        let [verdict] = verdicts else {
            let at = self.buf.len();
            self.buf.extend_from_slice(line.block());
            self.buf.truncate(at + line.len());
            self.end_row(verdicts);
            return;
        };
        // The row of one verdict, the common case, is written with one
        // check for room and one update of the length: pushes would each
        // reload and store the buffer's length.
        let field = VerdictField::of(*verdict, true);
        let (at, n) = (self.buf.len(), line.len());
        let room = BLOCK + field.block.len();
        self.buf.reserve(room);
        // SAFETY: `reserve` made room for `room` bytes past `at`; the
        // copies write a block from `at` and a field block from `at + n`,
        // with `n` below `BLOCK` (every `ShortLine` is, as its
        // constructor checks), so both stay inside it, and neither source
        // overlaps the buffer. The length then covers the line and the
        // field, which the copies just wrote.
        unsafe {
            let dst = self.buf.as_mut_ptr().add(at);
            std::ptr::copy_nonoverlapping(line.block().as_ptr(), dst, BLOCK);
            std::ptr::copy_nonoverlapping(
                field.block.as_ptr(),
                dst.add(n),
                field.block.len(),
            );
            self.buf.set_len(at + n + field.len);
        }
    }
}

/// A verdict's CSV field, `,` and its name, in a block of a fixed size.
struct VerdictField {
    block: [u8; 16],
    /// The bytes of `block` that are the field.
    len: usize,
}

/// Each verdict's field, by whether it allows; then the same with the
/// row's end.
static VERDICT_FIELDS: [[VerdictField; 2]; 2] = [
    [VerdictField::new(false), VerdictField::new(true)],
    [VerdictField::last(false), VerdictField::last(true)],
];

impl VerdictField {
    /// The field of `verdict`, with the row's end after it when `last`.
    #[inline]
    fn of(verdict: Verdict, last: bool) -> &'static VerdictField {
        &VERDICT_FIELDS[usize::from(last)][usize::from(verdict.is_allowed())]
    }

    const fn new(allowed: bool) -> VerdictField {
        let name = Verdict::name_of(allowed).as_bytes();
        let mut block = [0u8; 16];
        block[0] = b',';
        let mut i = 0;
        while i < name.len() {
            block[1 + i] = name[i];
            i += 1;
        }
        VerdictField { block, len: 1 + name.len() }
    }

    /// The field, then the row's end.
    const fn last(allowed: bool) -> VerdictField {
        let VerdictField { mut block, len } = VerdictField::new(allowed);
        block[len] = b'\n';
        VerdictField { block, len: len + 1 }
    }
}

impl Render for CsvRender {
    #[inline]
    fn line(&mut self, url: &[u8], verdicts: &[Verdict]) -> io::Result<()> {
        self.field(url);
        self.end_row(verdicts);
        Ok(())
    }

    #[inline]
    fn plain_line(
        &mut self,
        line: PlainLine<'_>,
        verdicts: &[Verdict],
    ) -> io::Result<()> {
        match line.short() {
            Some(short) => self.short_row(short, verdicts),
            None => {
                self.buf.extend_from_slice(line.as_bytes());
                self.end_row(verdicts);
            }
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut Vec<u8>) -> io::Result<()> {
        // The chunk's bytes go to `out`, and `out`'s spent buffer becomes
        // the next chunk's, so that buffers are reused rather than copied.
        out.clear();
        std::mem::swap(out, &mut self.buf);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain line's row is the same whichever way it comes: from its
    /// block or its bytes, with one verdict or several, and it is
    /// the row the csv crate writes.
    #[test]
    fn rows_from_blocks_are_the_rows_of_lines() {
        let robots = crate::Robots::parse(b"User-agent: *\nDisallow: /d\n");
        let m = crate::Matcher::new(&robots, "a", crate::Dialect::Rfc9309);
        let mut scratch = m.scratch();
        let mut verdict = |allowed: bool| {
            let url: &[u8] = if allowed { b"/a" } else { b"/d" };
            let v = m.verdict(url, &mut scratch);
            assert_eq!(v.is_allowed(), allowed);
            v
        };
        let input: Vec<u8> =
            (0..2 * BLOCK).map(|i| b'a' + i as u8 % 26).collect();
        // (A row always has a verdict: there is always a matcher.)
        let lists: [&[Verdict]; 4] = [
            &[verdict(true)],
            &[verdict(false)],
            &[verdict(true), verdict(false)],
            &[verdict(false), verdict(false), verdict(true)],
        ];
        for len in 0..BLOCK {
            let url = &input[..len];
            let short = ShortLine::new(&input, 0, len).unwrap();
            for verdicts in lists {
                let (mut by_block, mut by_line) =
                    (CsvRender::new(), CsvRender::new());
                // Rows already in the buffer stay as they were.
                by_block.line(b"x", verdicts).unwrap();
                by_line.line(b"x", verdicts).unwrap();
                by_block.short_row(short, verdicts);
                by_line.line(url, verdicts).unwrap();
                let mut wtr = csv::Writer::from_writer(vec![]);
                for u in [&b"x"[..], url] {
                    let mut record = vec![u.to_vec()];
                    record.extend(
                        verdicts.iter().map(|v| v.name().as_bytes().to_vec()),
                    );
                    wtr.write_record(&record).unwrap();
                }
                let want = wtr.into_inner().unwrap();
                assert_eq!(by_block.buf, want, "{len} {verdicts:?}");
                assert_eq!(by_line.buf, want, "{len} {verdicts:?}");
            }
        }
    }
}

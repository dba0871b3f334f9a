/*!
Output formats: how a line and its verdicts become bytes.

[`CsvRender`] writes RFC 4180 CSV (quoting as the csv crate does): one record per line,
the line's bytes exactly as read in the first field (quoted only when they
hold a comma, a quote, a CR or an LF; invalid UTF-8 and NUL bytes pass
through untouched), then one verdict (`allowed` or `disallowed`) per
matcher.
*/

use std::io;

use crate::batch::Render;
use crate::matcher::Verdict;

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

    /// Appends `field`, quoted when csv-core says it needs quotes (it
    /// holds a comma, a quote, a CR or an LF).
    #[inline]
    fn field(&mut self, field: &[u8]) {
        // PERF: almost every URL needs no quotes, and copying it beats
        // the csv writer's byte-at-a-time state machine (which took a
        // fifth of a one-thread run).
        if !self.quoter.should_quote(field) {
            self.buf.extend_from_slice(field);
            return;
        }
        // Room for the worst case: every byte a doubled quote, the two
        // enclosing quotes and the delimiter that closes the field.
        let start = self.buf.len();
        self.buf.resize(start + 2 * field.len() + 3, 0);
        let room = &mut self.buf[start..];
        let (_, nin, n) = self.quoter.field(field, room);
        let (_, m) = self.quoter.delimiter(&mut room[n..]);
        debug_assert_eq!(nin, field.len());
        debug_assert_eq!(room[n + m - 1], b',');
        // The caller writes the delimiter, as for a plain field.
        self.buf.truncate(start + n + m - 1);
    }
}

impl Render for CsvRender {
    #[inline]
    fn line(&mut self, url: &[u8], verdicts: &[Verdict]) -> io::Result<()> {
        self.field(url);
        for verdict in verdicts {
            self.buf.push(b',');
            self.buf.extend_from_slice(verdict.name().as_bytes());
        }
        self.buf.push(b'\n');
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

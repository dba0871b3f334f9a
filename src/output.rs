/*!
Output formats: how a line and its verdicts become bytes.

[`CsvRender`] writes RFC 4180 CSV with the csv crate: one record per line,
the line's bytes exactly as read in the first field (quoted only when they
hold a comma, a quote, a CR or an LF; invalid UTF-8 and NUL bytes pass
through untouched), then one verdict (`allowed` or `disallowed`) per
matcher.
*/

use std::io;

use crate::batch::Render;
use crate::matcher::Verdict;

/// The csv crate's own buffer in front of each chunk's output. The output
/// is a `Vec`, so this only sets how often the writer copies into it.
const CSV_BUFFER_CAPACITY: usize = 16 << 10;

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
    wtr: csv::Writer<Vec<u8>>,
}

impl Default for CsvRender {
    fn default() -> CsvRender {
        CsvRender::new()
    }
}

impl CsvRender {
    /// A renderer with an empty buffer.
    pub fn new() -> CsvRender {
        CsvRender { wtr: writer(vec![]) }
    }

    /// The header record, `url,verdict` and its line terminator, for
    /// output with one matcher.
    pub fn header() -> Vec<u8> {
        let mut wtr = writer(vec![]);
        // N.B. Writing to a Vec cannot fail.
        let _ = wtr.write_record(["url", "verdict"]);
        wtr.into_inner().unwrap_or_default()
    }
}

impl Render for CsvRender {
    #[inline]
    fn line(&mut self, url: &[u8], verdicts: &[Verdict]) -> io::Result<()> {
        if let [verdict] = verdicts {
            // PERF: the one-agent case writes the record in one call, which
            // lets the csv crate take its fast path.
            self.wtr.write_record([url, verdict.name().as_bytes()])?;
        } else {
            self.wtr.write_field(url)?;
            for verdict in verdicts {
                self.wtr.write_field(verdict.name())?;
            }
            self.wtr.write_record(None::<&[u8]>)?;
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut Vec<u8>) -> io::Result<()> {
        // The chunk's bytes go to `out`, and `out`'s spent buffer becomes
        // the next writer's, so that buffers are reused rather than copied.
        // N.B. `csv::Writer` has no `get_mut`, so each chunk gets a new
        // writer (one small allocation per chunk, none per line).
        out.clear();
        let spare = std::mem::take(out);
        let wtr = std::mem::replace(&mut self.wtr, writer(spare));
        *out = wtr.into_inner().map_err(|err| err.into_error())?;
        Ok(())
    }
}

fn writer(buf: Vec<u8>) -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new()
        .buffer_capacity(CSV_BUFFER_CAPACITY)
        // Rows have a verdict per matcher; the header is written apart.
        .flexible(true)
        .from_writer(buf)
}

//! What the pipeline hands its lines to: a renderer per worker thread, a
//! sink for the rendered chunks in input order, and a chunk's worker.

use std::io;

use super::stats::Stats;
use crate::matcher::Verdict;
use crate::url::block::ShortLine;

/// Turns the lines of one chunk and their verdicts into output bytes.
///
/// Each worker thread makes its own with the factory given to
/// [`Batch::run`](crate::Batch::run), and keeps it for the whole run: a
/// renderer may hold buffers that it reuses from chunk to chunk.
pub trait Render: Send {
    /// Renders one line: `url` is the line's bytes (without its line
    /// terminator), `verdicts` holds one verdict per matcher, in the order
    /// the matchers were given.
    fn line(&mut self, url: &[u8], verdicts: &[Verdict]) -> io::Result<()>;

    /// Renders one line, as [`Render::line`] does, whose bytes are known
    /// to be plain (see [`PlainLine`]): a renderer may copy them without
    /// looking. The default renders `line.as_bytes()` with
    /// [`Render::line`].
    #[inline]
    fn plain_line(
        &mut self,
        line: PlainLine<'_>,
        verdicts: &[Verdict],
    ) -> io::Result<()> {
        self.line(line.as_bytes(), verdicts)
    }

    /// Ends a chunk: moves everything rendered since the previous call into
    /// `out`, which is empty on entry (its capacity may be reused).
    fn finish(&mut self, out: &mut Vec<u8>) -> io::Result<()>;
}

/// A line whose bytes are all *plain*: from 0x20 to 0x7E, and none of
/// `,`, `"` and `\`. No output format quotes or escapes such bytes. The
/// batch finds this out for free while it looks for the line's path, and
/// hands such lines to [`Render::plain_line`]; only the batch makes them.
#[derive(Clone, Copy, Debug)]
pub struct PlainLine<'a> {
    pub(super) text: &'a [u8],
    /// The line in its block, when it has one: the CSV writer copies it
    /// at once.
    pub(super) short: Option<ShortLine<'a>>,
}

impl<'a> PlainLine<'a> {
    /// The line's bytes, without its line terminator.
    #[inline]
    pub fn as_bytes(&self) -> &'a [u8] {
        self.text
    }

    /// The line in its block, when it has one.
    #[inline]
    pub(crate) fn short(&self) -> Option<ShortLine<'a>> {
        self.short
    }
}

/// Receives the rendered chunks, in input order, on the thread that called
/// [`Batch::run`](crate::Batch::run).
///
/// Any `FnMut(&[u8], &Stats) -> io::Result<()>` is a sink. An error stops
/// the run: no further chunk is read or rendered, and the error is what the
/// run returns.
pub trait Sink {
    /// Handles one chunk's rendered bytes; `total` counts every line up to
    /// and including this chunk.
    fn chunk(&mut self, rendered: &[u8], total: &Stats) -> io::Result<()>;
}

impl<F> Sink for F
where
    F: FnMut(&[u8], &Stats) -> io::Result<()>,
{
    fn chunk(&mut self, rendered: &[u8], total: &Stats) -> io::Result<()> {
        self(rendered, total)
    }
}

/// A worker thread's state for a [`Batch::run`](crate::Batch::run): it
/// judges and renders the lines of one chunk at a time.
///
/// [`MatcherWorker`](crate::MatcherWorker) gives every line one
/// [`Verdict`] per matcher of one robots.txt; crawl-log mode brings its
/// own ([`crawl::CrawlWorker`](crate::crawl::CrawlWorker)).
pub trait ChunkWorker: Send {
    /// Judges and renders every line of `chunk` (whole lines, the last
    /// one maybe without its terminator) into `out`, which is empty on
    /// entry, and counts them. `last`: no other chunk of the input is
    /// judged after this one or beside it (the input's last chunk, on one
    /// thread or as its only chunk; false where the chunks cannot tell).
    fn run(
        &mut self,
        chunk: &[u8],
        last: bool,
        out: &mut Vec<u8>,
    ) -> io::Result<Stats>;
}

/// Calls `f` with every line of `chunk`, without its `\n` or `\r\n`
/// terminator; a last line without a terminator counts too. The plain
/// definition of a chunk's lines, which the tests hold
/// [`UrlLines`](crate::url::lines::UrlLines) to.
#[cfg(test)]
pub(crate) fn for_each_line<'c, E>(
    chunk: &'c [u8],
    mut f: impl FnMut(&'c [u8]) -> Result<(), E>,
) -> Result<(), E> {
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', chunk) {
        let text = &chunk[start..end];
        f(text.strip_suffix(b"\r").unwrap_or(text))?;
        start = end + 1;
    }
    if start < chunk.len() {
        f(&chunk[start..])?;
    }
    Ok(())
}

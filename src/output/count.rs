//! Counts of verdicts per matcher, alone or beside another renderer's
//! rows.

use std::io;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::batch::{PlainLine, Render};
use crate::matcher::Verdict;

/// Renders nothing: counts, per matcher, the allowed and disallowed
/// verdicts, and the lines allowed by every matcher, into counters shared
/// by every worker.
#[derive(Debug)]
pub struct CountRender<'a> {
    counts: &'a Counts,
    local: Vec<u64>,
}

/// A verdict's counter among a matcher's three in [`Counts`].
pub(crate) fn slot(allowed: Option<bool>) -> usize {
    match allowed {
        Some(true) => 0,
        Some(false) => 1,
        None => 2,
    }
}

/// The counters of [`CountRender`]s.
#[derive(Debug)]
pub struct Counts {
    /// `[allowed, disallowed, unknown]` per matcher (or crawl-mode agent),
    /// then the lines that every matcher allows.
    counts: Vec<AtomicU64>,
}

impl Counts {
    /// Counters for `matchers` matchers, all zero.
    pub fn new(matchers: usize) -> Counts {
        Counts { counts: (0..3 * matchers + 1).map(|_| 0.into()).collect() }
    }

    /// Adds `n` verdicts of the matcher `i`: allowed, disallowed or (crawl
    /// mode) unknown.
    pub(crate) fn add(&self, i: usize, allowed: Option<bool>, n: u64) {
        self.counts[3 * i + slot(allowed)].fetch_add(n, Ordering::Relaxed);
    }

    /// Unknown verdicts of the agent `i` (crawl mode).
    pub fn unknown(&self, i: usize) -> u64 {
        self.counts[3 * i + 2].load(Ordering::Relaxed)
    }

    /// A renderer adding to these counters.
    pub fn render(&self) -> CountRender<'_> {
        CountRender { counts: self, local: vec![0; self.counts.len()] }
    }

    /// Allowed verdicts of the matcher `i`.
    pub fn allowed(&self, i: usize) -> u64 {
        self.counts[3 * i].load(Ordering::Relaxed)
    }

    /// Disallowed verdicts of the matcher `i`.
    pub fn disallowed(&self, i: usize) -> u64 {
        self.counts[3 * i + 1].load(Ordering::Relaxed)
    }

    /// Lines allowed by every matcher.
    pub fn all_allowed(&self) -> u64 {
        self.counts[self.counts.len() - 1].load(Ordering::Relaxed)
    }
}

impl Render for CountRender<'_> {
    #[inline]
    fn line(&mut self, _: &[u8], verdicts: &[Verdict]) -> io::Result<()> {
        let mut all = true;
        for (i, v) in verdicts.iter().enumerate() {
            all &= v.is_allowed();
            self.local[3 * i + slot(Some(v.is_allowed()))] += 1;
        }
        *self.local.last_mut().expect("never empty") += u64::from(all);
        Ok(())
    }

    fn finish(&mut self, out: &mut Vec<u8>) -> io::Result<()> {
        out.clear();
        for (count, local) in self.counts.counts.iter().zip(&mut self.local) {
            count.fetch_add(std::mem::take(local), Ordering::Relaxed);
        }
        Ok(())
    }
}

/// A renderer that also counts each matcher's verdicts into [`Counts`]
/// (`--stats` per agent), and leaves the rows to the renderer it wraps.
#[derive(Debug)]
pub struct TallyRender<'a, R> {
    tally: CountRender<'a>,
    inner: R,
}

impl<'a, R: Render> TallyRender<'a, R> {
    /// `inner`'s rows, with every verdict counted into `counts`.
    pub fn new(counts: &'a Counts, inner: R) -> TallyRender<'a, R> {
        TallyRender { tally: counts.render(), inner }
    }
}

impl<R: Render> Render for TallyRender<'_, R> {
    #[inline]
    fn line(&mut self, url: &[u8], verdicts: &[Verdict]) -> io::Result<()> {
        self.tally.line(url, verdicts)?;
        self.inner.line(url, verdicts)
    }

    #[inline]
    fn plain_line(
        &mut self,
        line: PlainLine<'_>,
        verdicts: &[Verdict],
    ) -> io::Result<()> {
        self.tally.line(line.as_bytes(), verdicts)?;
        self.inner.plain_line(line, verdicts)
    }

    fn finish(&mut self, out: &mut Vec<u8>) -> io::Result<()> {
        // The tally writes nothing; an empty vector does not allocate.
        self.tally.finish(&mut Vec::new())?;
        self.inner.finish(out)
    }
}

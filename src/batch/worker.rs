//! A worker thread's part of the pipeline: the lines of one chunk judged
//! by every matcher and rendered as rows.

use std::io;

use super::render::{ChunkWorker, PlainLine, Render};
use super::stats::Stats;
use crate::dialect::Dialect;
use crate::matcher::{Matcher, Scratch, Verdict};
use crate::url::lines::{UrlLine, UrlLines};

/// For each matcher, the index of the first matcher that gives the same
/// verdicts (its own index when none before it does).
///
/// An audit of many agents mostly selects the same group again and again
/// (every agent not named by the robots.txt gets the `*` groups), so the
/// matchers of most agents hold the same rules: matching once per distinct
/// rule set makes many agents cost about as much as the few groups they
/// select.
pub(super) fn aliases(matchers: &[Matcher]) -> Vec<usize> {
    let mut alias = Vec::with_capacity(matchers.len());
    for (i, m) in matchers.iter().enumerate() {
        let same = matchers[..i].iter().position(|o| m.has_same_rules(o));
        alias.push(same.unwrap_or(i));
    }
    alias
}

/// Judges each line of a chunk by every matcher and hands the verdicts to
/// its [`Render`]: the worker of a [`Batch::run`](crate::Batch::run) over
/// one robots.txt's matchers. Made once per thread and kept for the run.
#[derive(Debug)]
pub struct MatcherWorker<'m, R> {
    matchers: &'m [Matcher],
    scratches: Vec<Scratch>,
    verdicts: Vec<Verdict>,
    render: R,
    /// The dialect of every matcher, when they all have the same: then
    /// each line's path is normalised once, into `path`, for all of them.
    shared: Option<Dialect>,
    path: Vec<u8>,
    /// For each matcher, the first matcher with the same rules (itself
    /// when there is none before it): its verdict is copied.
    alias: Vec<usize>,
}

impl<'m, R: Render> MatcherWorker<'m, R> {
    /// A worker judging by `matchers` (one verdict each per line) and
    /// rendering with `render`.
    pub fn new(matchers: &'m [Matcher], render: R) -> MatcherWorker<'m, R> {
        let dialect = matchers.first().map(Matcher::dialect);
        let shared =
            dialect.filter(|&d| matchers.iter().all(|m| m.dialect() == d));
        MatcherWorker {
            matchers,
            scratches: matchers.iter().map(Matcher::scratch).collect(),
            verdicts: Vec::with_capacity(matchers.len()),
            render,
            shared,
            path: Vec::with_capacity(256),
            alias: aliases(matchers),
        }
    }
}

impl<R: Render> ChunkWorker for MatcherWorker<'_, R> {
    fn run(
        &mut self,
        chunk: &[u8],
        _last: bool,
        out: &mut Vec<u8>,
    ) -> io::Result<Stats> {
        let MatcherWorker {
            matchers,
            ref mut scratches,
            ref mut verdicts,
            ref mut render,
            shared,
            ref mut path,
            ref alias,
        } = *self;
        let mut stats = Stats::of_bytes(chunk.len());
        // The lines' ends, paths and special bytes are found for a few KiB
        // of the chunk at once (see `UrlLines`), rather than by a few short
        // scans per line; see docs/DESIGN.md, "Byte-class bitmaps for
        // reading lines".
        if let ([m], [scratch]) = (matchers, &mut scratches[..]) {
            // One agent, the common case, needs no list of verdicts to
            // fill, nor aliases to look up.
            for line in UrlLines::new(chunk) {
                let verdict = m.verdict_scanned(&line, scratch);
                write_row(
                    render,
                    &mut stats,
                    &line,
                    std::slice::from_ref(&verdict),
                )?;
            }
        } else {
            for line in UrlLines::new(chunk) {
                verdicts.clear();
                // With one dialect, the path is normalised once per line
                // rather than once per agent.
                let shared_path = shared.map(|d| {
                    d.path_of(line.path, line.flags, line.short, &mut *path)
                });
                let pairs = matchers.iter().zip(scratches.iter_mut());
                for (i, (m, scratch)) in pairs.enumerate() {
                    let verdict = if alias[i] != i {
                        verdicts[alias[i]]
                    } else {
                        match shared_path {
                            Some(p) => m.verdict_path(p, scratch),
                            None => m.verdict_scanned(&line, scratch),
                        }
                    };
                    verdicts.push(verdict);
                }
                write_row(render, &mut stats, &line, verdicts)?;
            }
        }
        out.clear();
        render.finish(out)?;
        Ok(stats)
    }
}

/// Counts a line and its verdicts, and renders them.
///
/// Always inlined, so that the one-agent loop's list of one verdict is
/// known to hold one: as a call, which `#[inline]` may leave it, the count
/// loops over the list and the row's writing goes through the general
/// checks.
#[inline(always)]
pub(super) fn write_row<R: Render>(
    render: &mut R,
    stats: &mut Stats,
    line: &UrlLine<'_>,
    verdicts: &[Verdict],
) -> io::Result<()> {
    for verdict in verdicts {
        if verdict.is_allowed() {
            stats.allowed += 1;
        } else {
            stats.disallowed += 1;
        }
    }
    stats.lines += 1;
    if line.plain {
        let plain = PlainLine { text: line.text, short: line.block };
        render.plain_line(plain, verdicts)
    } else {
        render.line(line.text, verdicts)
    }
}

//! Crawl-log mode in the batch pipeline: a [`ChunkWorker`] that judges a
//! chunk's lines grouped by origin and renders them in input order.

use std::fs::File;
use std::io::{self, Read};

use super::hash::HashMap;
use super::judge::{
    CrawlJudge, CrawlReason, CrawlScratch, CrawlVerdict, Located,
};
use super::origin::{raw_authority, same_authority};
use crate::batch::{for_each_line, Batch, ChunkWorker, Sink, Stats};
use crate::output::{slot, Cell, Counts, CrawlRows, Format};

/// Lines of a chunk are judged in input order when they come in runs of
/// this many lines needing the same matchers on average, else sorted by
/// the matchers they need.
const SORT_BELOW_RUN: usize = 4;

/// The most authorities a worker remembers where the verdicts come from;
/// past it, it forgets them all and starts again.
const MAX_REMEMBERED: usize = 1 << 16;

/// Judges and renders the lines of crawl-log chunks, one worker per
/// thread (see [`Batch::run_crawl_file`]).
///
/// Rows: `url,verdict,reason` with one agent, `url,agent,verdict,reason`
/// (one row per URL and agent) with several; `verdict` is `allowed`,
/// `disallowed` or `unknown`. With `explain`, three more fields: `robots`
/// (the origin or host whose robots.txt or fetch decided, after
/// redirects), `line` and `rule` (the deciding rule's line number and
/// text, when a rule decided). [`CrawlWorker::header`] gives the header.
///
/// A chunk's lines are first located (origin, fetch) without compiling
/// anything, then judged in order of the compiled matchers they need, so
/// that a chunk of shuffled hosts switches matchers once per origin rather
/// than once per line; rows are then written in input order. See
/// docs/DESIGN.md, "Crawl mode: scan first, compile later, share by body".
#[derive(Debug)]
pub struct CrawlWorker<'j> {
    judge: &'j CrawlJudge,
    rows: CrawlRows,
    explain: bool,
    /// `Some(true)`: write only the lines every agent may fetch, as read;
    /// `Some(false)`: those some agent may not.
    emit: Option<bool>,
    scratch: CrawlScratch,
    key: Vec<u8>,
    /// Where the verdicts of a URL come from, by its raw authority: a log
    /// in random host order parses each origin once per worker, not once
    /// per line.
    remembered: HashMap<Box<[u8]>, Located>,
    /// Per line of the chunk: where it starts and ends, and where its
    /// verdicts come from.
    lines: Vec<(usize, usize, Located)>,
    /// Line indexes in judging order.
    order: Vec<u32>,
    /// The sort keys of `order`.
    keys: Vec<u64>,
    /// `agents` verdicts per line.
    verdicts: Vec<CrawlVerdict>,
    one: Vec<CrawlVerdict>,
    /// With `explain`, per verdict: the deciding rule's line number and
    /// the range of its text in `texts`.
    rules: Vec<Option<(u32, usize, usize)>>,
    texts: Vec<u8>,
    /// With `--stats` for several agents: the shared counters, and this
    /// worker's counts (allowed, disallowed, unknown per agent) until the
    /// chunk ends.
    tally: Option<(&'j Counts, Vec<u64>)>,
}

impl<'j> CrawlWorker<'j> {
    /// A worker for `judge`'s verdicts, written in `format`.
    pub fn new(
        judge: &'j CrawlJudge,
        format: Format,
        explain: bool,
    ) -> CrawlWorker<'j> {
        let several = judge.agents().len() > 1;
        CrawlWorker {
            judge,
            rows: CrawlRows::new(format, several, explain),
            explain,
            emit: None,
            tally: None,
            scratch: judge.scratch(),
            key: vec![],
            remembered: HashMap::default(),
            lines: vec![],
            order: vec![],
            keys: vec![],
            verdicts: vec![],
            one: vec![],
            rules: vec![],
            texts: vec![],
        }
    }

    /// Writes only the lines with this verdict, each as read and followed
    /// by `\n`, instead of rows: `Some(true)` those every agent may fetch,
    /// `Some(false)` those some agent may not; a line with an unknown
    /// verdict (and none disallowed) is in neither.
    pub fn emit(mut self, emit: Option<bool>) -> CrawlWorker<'j> {
        self.emit = emit;
        self
    }

    /// Counts each agent's verdicts into `counts` too (`--stats` with
    /// several agents), chunk by chunk.
    pub fn tally(mut self, counts: &'j Counts) -> CrawlWorker<'j> {
        let n = self.judge.agents().len();
        self.tally = Some((counts, vec![0; 3 * n]));
        self
    }

    /// The header row (empty for JSON Lines, which has none).
    pub fn header(
        judge: &CrawlJudge,
        format: Format,
        explain: bool,
    ) -> Vec<u8> {
        let several = judge.agents().len() > 1;
        CrawlRows::new(format, several, explain).header()
    }

    /// Writes the rows of the chunk's line at `line`, one per agent.
    fn render(&mut self, out: &mut Vec<u8>, url: &[u8], line: usize) {
        let agents = self.judge.agents();
        let n = agents.len();
        let verdicts = &self.verdicts[line * n..(line + 1) * n];
        // The same key for the same agent, verdict and reason.
        let key = |a: usize| {
            let v = verdicts[a];
            (v.reason().index() * 3 + slot(v.allowed())) * n + a
        };
        let (judge, rules, texts) = (self.judge, &self.rules, &self.texts);
        let cell = |a: usize| {
            let v = verdicts[a];
            let rule = rules.get(line * n + a).copied().flatten();
            Cell {
                agent: &agents[a],
                verdict: v.name(),
                reason: v.reason().name(),
                line: rule.map(|(l, _, _)| l),
                rule: rule.map(|(_, s, e)| &texts[s..e]),
                group: None,
                robots: judge.robots_of(v),
            }
        };
        self.rows.push_rows(out, url, n, key, cell);
    }
}

impl ChunkWorker for CrawlWorker<'_> {
    fn run(&mut self, chunk: &[u8], out: &mut Vec<u8>) -> io::Result<Stats> {
        let n = self.judge.agents().len();
        let mut stats = Stats::of_bytes(chunk.len());
        // Locate every line; a line with the authority of the line before
        // (logs tend to keep a host's URLs together) is located alike.
        self.lines.clear();
        let base = chunk.as_ptr() as usize;
        let (judge, key) = (self.judge, &mut self.key);
        let remembered = &mut self.remembered;
        let lines = &mut self.lines;
        let mut last: Option<(&[u8], Located)> = None;
        for_each_line(chunk, |line| -> Result<(), ()> {
            let start = line.as_ptr() as usize - base;
            let located = match last {
                Some((authority, located))
                    if same_authority(line, authority) =>
                {
                    located
                }
                _ => match raw_authority(line) {
                    Some(authority) => {
                        let located = match remembered.get(authority) {
                            Some(&located) => located,
                            None => {
                                let (located, _) = judge.locate(line, key);
                                if remembered.len() >= MAX_REMEMBERED {
                                    remembered.clear();
                                }
                                remembered.insert(authority.into(), located);
                                located
                            }
                        };
                        last = Some((authority, located));
                        located
                    }
                    None => {
                        let (located, end) = judge.locate(line, key);
                        last = (end > 0).then(|| (&line[..end], located));
                        located
                    }
                },
            };
            lines.push((start, start + line.len(), located));
            Ok(())
        })
        .unwrap_or(());
        // Judge them grouped by the matchers they need.
        let group = |l: &Located| match *l {
            Located::Same(_) => 0,
            Located::Rules { compiled, .. } => compiled + 1,
        };
        self.order.clear();
        self.order.extend(0..self.lines.len() as u32);
        let lines = &self.lines;
        // In a log grouped by host, the lines that need one set of matchers
        // come in runs already, and judging them in input order changes
        // matchers about as seldom as sorting would (lines that need none
        // change nothing), without the sort's cost. Lines are sorted when
        // the runs are short.
        let mut changes = 0;
        let mut current = None;
        for (_, _, located) in lines {
            if let Located::Rules { compiled, .. } = *located {
                if current != Some(compiled) {
                    changes += 1;
                    current = Some(compiled);
                }
            }
        }
        if changes * SORT_BELOW_RUN > lines.len() {
            // One integer per line, its group above its index, sorts
            // faster than indexes compared through the lines.
            self.keys.clear();
            self.keys.extend(self.order.iter().map(|&i| {
                let group = group(&lines[i as usize].2);
                (group.min(u32::MAX as usize) as u64) << 32 | u64::from(i)
            }));
            self.keys.sort_unstable();
            self.order.clear();
            self.order.extend(self.keys.iter().map(|&k| k as u32));
        }
        self.verdicts.clear();
        self.verdicts.resize(
            self.lines.len() * n,
            CrawlVerdict {
                allowed: None,
                reason: CrawlReason::NoHost,
                fetch: None,
            },
        );
        self.rules.clear();
        self.texts.clear();
        if self.explain {
            self.rules.resize(self.verdicts.len(), None);
        }
        for &i in &self.order {
            let i = i as usize;
            let (start, end, located) = self.lines[i];
            let url = &chunk[start..end];
            self.judge.judge_located(
                url,
                located,
                &mut self.scratch,
                &mut self.one,
            );
            self.verdicts[i * n..(i + 1) * n].copy_from_slice(&self.one);
            if !self.explain {
                continue;
            }
            let matchers = self.scratch.current_matchers();
            for (a, v) in self.one.iter().enumerate() {
                let CrawlReason::Robots(reason) = v.reason() else {
                    continue;
                };
                let Some(m) = matchers.and_then(|m| m.get(a)) else {
                    continue;
                };
                let Some(rule) = m.explain(reason).rule() else {
                    continue;
                };
                let s = self.texts.len();
                self.texts.extend_from_slice(rule.text());
                self.rules[i * n + a] =
                    Some((rule.line(), s, self.texts.len()));
            }
        }
        // Render in input order.
        out.clear();
        for i in 0..self.lines.len() {
            let (start, end, _) = self.lines[i];
            stats.count_line();
            for (a, v) in self.verdicts[i * n..(i + 1) * n].iter().enumerate()
            {
                stats.count_verdict(v.allowed());
                if let Some((_, ref mut local)) = self.tally {
                    local[3 * a + slot(v.allowed())] += 1;
                }
            }
            let line = &chunk[start..end];
            match self.emit {
                Some(want) => {
                    let verdicts = &self.verdicts[i * n..(i + 1) * n];
                    if all_allowed(verdicts) == Some(want) {
                        out.extend_from_slice(line);
                        out.push(b'\n');
                        stats.kept += 1;
                    }
                }
                None => self.render(out, line, i),
            }
        }
        if let Some((counts, ref mut local)) = self.tally {
            for (a, each) in local.chunks_exact_mut(3).enumerate() {
                let kinds = [Some(true), Some(false), None];
                for (count, allowed) in each.iter_mut().zip(kinds) {
                    counts.add(a, allowed, std::mem::take(count));
                }
            }
        }
        Ok(stats)
    }
}

/// Whether every agent may fetch a URL (`Some(true)`), some agent may not
/// (`Some(false)`), or neither is known (`None`).
pub(crate) fn all_allowed(verdicts: &[CrawlVerdict]) -> Option<bool> {
    let mut all = Some(true);
    for v in verdicts {
        match v.allowed() {
            Some(false) => return Some(false),
            None => all = None,
            Some(true) => {}
        }
    }
    all
}

/// Crawl-log mode in the batch pipeline: the `run_*` methods with one
/// [`CrawlWorker`] per thread in place of matchers and a renderer.
impl Batch {
    /// Runs every line of `file` in crawl-log mode, as
    /// [`Batch::run_file`] does with matchers: `new_worker` makes one
    /// [`CrawlWorker`] per thread, and `sink` receives the rows in input
    /// order.
    pub fn run_crawl_file<'j, F, S>(
        &self,
        file: &File,
        new_worker: F,
        sink: S,
    ) -> io::Result<Stats>
    where
        F: Fn() -> CrawlWorker<'j> + Sync,
        S: Sink,
    {
        self.run_file_with(file, new_worker, sink)
    }

    /// [`Batch::run_crawl_file`] on the lines read from `rdr`.
    pub fn run_crawl_reader<'j, Rd, F, S>(
        &self,
        rdr: Rd,
        new_worker: F,
        sink: S,
    ) -> io::Result<Stats>
    where
        Rd: Read,
        F: Fn() -> CrawlWorker<'j> + Sync,
        S: Sink,
    {
        self.run_reader_with(rdr, new_worker, sink)
    }

    /// [`Batch::run_crawl_file`] on the lines of `haystack`.
    pub fn run_crawl_slice<'j, F, S>(
        &self,
        haystack: &[u8],
        new_worker: F,
        sink: S,
    ) -> io::Result<Stats>
    where
        F: Fn() -> CrawlWorker<'j> + Sync,
        S: Sink,
    {
        self.run_slice_with(haystack, new_worker, sink)
    }
}

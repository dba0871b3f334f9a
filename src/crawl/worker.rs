//! Crawl-log mode in the batch pipeline: a [`ChunkWorker`] that judges a
//! chunk's lines grouped by origin and renders them in input order.

use std::io;

use super::grouped::GroupedScratch;
use super::judge::CrawlJudge;
use super::usage::FetchUsage;
use super::verdict::{CrawlReason, CrawlVerdict, REASONS};
use crate::batch::{room_for, ChunkWorker, Stats};
use crate::lowlevel::prefetch::Region;
use crate::output::{slot, Cell, Counts, CrawlRows, Format, Layout};
use crate::url::lines::UrlLines;
use crate::url::path::UrlPath;
use crate::usage::UsagePrefs;

/// About the most bytes a row adds to its URL (a JSON Lines row's keys,
/// a verdict and its reason): room reserved and never written costs no
/// memory.
const ROW_EXTRA: usize = 64;

/// The most room reserved for a chunk's rows at once (many agents' rows
/// grow past it as any vector grows).
const MAX_ROWS_RESERVED: usize = 64 << 20;

/// A line's path as [`UrlLines`] found it: where its bytes lie in the
/// chunk, whether a `/` comes before them, and its special bytes' flags;
/// and whether the line needs quotes or escapes in a row.
#[derive(Clone, Copy, Debug)]
struct FoundPath {
    start: usize,
    end: usize,
    slash: bool,
    flags: u8,
    /// Whether the line is plain (see [`PlainLine`](crate::PlainLine)).
    plain: bool,
}

/// Where an explained verdict's rule is: its line number and the range
/// of its text in the worker's texts.
type RuleAt = (u32, usize, usize);

/// Judges and renders the lines of crawl-log chunks, one worker per
/// thread (see [`Batch::run`](crate::Batch::run)).
///
/// Rows: `url,verdict,reason` with one agent, `url,agent,verdict,reason`
/// (one row per URL and agent) with several; `verdict` is `allowed`,
/// `disallowed` or `unknown`. With `explain`, three more fields: `robots`
/// (the origin or host whose robots.txt or fetch decided, after
/// redirects), `line` and `rule` (the deciding rule's line number and
/// text, when a rule decided). [`CrawlWorker::header`] gives the header.
///
/// A chunk's lines are judged grouped by the matchers they need (see
/// [`GroupedScratch::judge`]); rows are then written in input order. See
/// docs/DESIGN.md, "Crawl mode: scan first, compile later, share by body".
#[derive(Debug)]
pub struct CrawlWorker<'j> {
    judge: &'j CrawlJudge,
    rows: CrawlRows,
    explain: bool,
    /// `Some(true)`: write only the lines every agent may fetch, as read;
    /// `Some(false)`: those some agent may not.
    emit: Option<bool>,
    grouped: GroupedScratch,
    /// Per line of the chunk: where it starts and ends.
    lines: Vec<(usize, usize)>,
    /// Per line of the chunk: its path as [`UrlLines`] found it.
    paths: Vec<FoundPath>,
    /// `agents` verdicts per line.
    verdicts: Vec<CrawlVerdict>,
    /// With `explain`, per verdict: the deciding rule's line number and
    /// the range of its text in `texts`.
    rules: Vec<Option<RuleAt>>,
    texts: Vec<u8>,
    /// With `--stats` for several agents: the shared counters, and this
    /// worker's counts (allowed, disallowed, unknown per agent) until the
    /// chunk ends.
    tally: Option<(&'j Counts, Vec<u64>)>,
    /// How the rows are written (see [`CrawlWorker::layout`]).
    format: Format,
    layout: Layout,
    /// With usage columns: each fetch's preferences, and the line's.
    usage: Option<FetchUsage>,
    prefs: Vec<Option<UsagePrefs>>,
    /// Write no rows: only count (`-c`).
    count_only: bool,
}

impl<'j> CrawlWorker<'j> {
    /// A worker for `judge`'s verdicts, written in `format`.
    pub fn new(
        judge: &'j CrawlJudge,
        format: Format,
        explain: bool,
    ) -> CrawlWorker<'j> {
        let layout = Layout::Single;
        CrawlWorker {
            judge,
            rows: CrawlRows::new(
                format,
                layout,
                judge.agents(),
                explain,
                false,
            ),
            explain,
            emit: None,
            tally: None,
            format,
            layout,
            usage: None,
            prefs: vec![],
            count_only: false,
            grouped: GroupedScratch::new(judge),
            lines: vec![],
            paths: vec![],
            verdicts: vec![],
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

    /// Lays several agents' verdicts out `layout`: long (the default),
    /// one row per URL and agent, or wide, one row per URL (see
    /// [`Layout`]).
    pub fn layout(mut self, layout: Layout) -> CrawlWorker<'j> {
        self.layout = layout;
        self.renew_rows()
    }

    /// Adds each agent's usage preferences after its verdict (see
    /// [`Usage`](crate::Usage)): those of the robots.txt that decided, for a URL it
    /// allows; none for a URL that may not be fetched or whose origin has
    /// no robots.txt.
    pub fn usage(mut self, yes: bool) -> CrawlWorker<'j> {
        self.usage = yes.then(FetchUsage::default);
        self.renew_rows()
    }

    /// Writes no rows and no lines and only counts: each agent's verdicts
    /// with [`CrawlWorker::tally`], and with [`CrawlWorker::emit`] the lines
    /// it would write (their number is [`Stats::kept_records`]).
    pub fn count_only(mut self) -> CrawlWorker<'j> {
        self.count_only = true;
        self
    }

    fn renew_rows(mut self) -> CrawlWorker<'j> {
        let agents = self.judge.agents();
        let usage = self.usage.is_some();
        self.rows = CrawlRows::new(
            self.format,
            self.layout,
            agents,
            self.explain,
            usage,
        );
        self
    }

    /// The header row (empty for JSON Lines, which has none).
    pub fn header(&self) -> Vec<u8> {
        self.rows.header()
    }

    /// Writes the rows of the chunk's line at `line`, one per agent.
    fn render(&mut self, out: &mut Vec<u8>, url: &[u8], line: usize) {
        let agents = self.judge.agents();
        let n = agents.len();
        let verdicts = &self.verdicts[line * n..(line + 1) * n];
        let (judge, rules, texts) = (self.judge, &self.rules, &self.texts);
        // The same key for the same agent, verdict and reason (judged as
        // of a date, a verdict may come from a later capture, which its
        // reason says).
        let key = |a: usize| {
            let v = verdicts[a];
            let later = judge.before_first(v, None);
            let reason = v.reason().index() + REASONS * usize::from(later);
            (reason * 3 + slot(v.allowed())) * n + a
        };
        let cell = |a: usize| {
            let v = verdicts[a];
            let rule = rules.get(line * n + a).copied().flatten();
            Cell {
                agent: &agents[a],
                verdict: v.name(),
                reason: judge.reason_name(v, None),
                line: rule.map(|(l, _, _)| l),
                rule: rule.map(|(_, s, e)| &texts[s..e]),
                group: None,
                robots: judge.robots_of(v),
                capture: judge.capture_time(v),
            }
        };
        let plain = self.paths[line].plain;
        if let Some(ref mut usage) = self.usage {
            self.prefs.clear();
            for (a, &v) in verdicts.iter().enumerate() {
                self.prefs.push(usage.prefs(self.judge, a, v, url));
            }
        }
        let prefs = &self.prefs;
        let prefs = |a: usize| prefs.get(a).copied().flatten();
        self.rows.push_rows(out, url, plain, n, key, cell, prefs);
    }
}

impl ChunkWorker for CrawlWorker<'_> {
    fn run(
        &mut self,
        chunk: &[u8],
        last: bool,
        out: &mut Vec<u8>,
    ) -> io::Result<Stats> {
        let n = self.judge.agents().len();
        let mut stats = Stats::of_bytes(chunk.len());
        // Where each line starts and ends and where its path is, found
        // for a window of the chunk at once (see docs/DESIGN.md,
        // "Byte-class bitmaps for reading lines"); then every line's
        // verdicts, judged grouped by the matchers they need; then the
        // rows.
        // Room for every line at once: grown by doubling, the vectors would
        // copy what they hold into fresh pages.
        let most = memchr::memchr_iter(b'\n', chunk).count() + 1;
        room_for(&mut self.lines, most);
        room_for(&mut self.paths, most);
        let base = chunk.as_ptr() as usize;
        for line in UrlLines::new(chunk) {
            let start = line.text.as_ptr() as usize - base;
            self.lines.push((start, start + line.text.len()));
            // An empty path (the root) need not lie in the chunk.
            let rest = line.path.rest;
            let at = match rest.is_empty() {
                true => 0,
                false => rest.as_ptr() as usize - base,
            };
            self.paths.push(FoundPath {
                start: at,
                end: at + rest.len(),
                slash: line.path.slash,
                flags: line.flags,
                plain: line.plain,
            });
        }
        room_for(&mut self.verdicts, self.lines.len() * n);
        self.verdicts.resize(
            self.lines.len() * n,
            CrawlVerdict::new(None, CrawlReason::NoHost, None),
        );
        self.rules.clear();
        self.texts.clear();
        if self.explain {
            room_for(&mut self.rules, self.verdicts.len());
            self.rules.resize(self.verdicts.len(), None);
        }
        let (lines, verdicts) = (&self.lines, &mut self.verdicts);
        let (rules, texts) = (&mut self.rules, &mut self.texts);
        let explain = self.explain;
        let url = |i: usize| {
            let (start, end) = lines[i];
            Some(&chunk[start..end])
        };
        let paths = &self.paths;
        let path = |i: usize| {
            let p: FoundPath = paths[i];
            let rest = &chunk[p.start..p.end];
            Some((UrlPath { slash: p.slash, rest }, p.flags))
        };
        let n_lines = lines.len();
        // A sorted batch's verdicts (and with `explain` their rules) are
        // written out of input order, each store to a line not cached:
        // their lines are asked for a few URLs before.
        let slots = Region::of(verdicts.as_slice());
        let rule_slots = Region::of(rules.as_slice());
        let soon = |i: usize| {
            slots.prefetch_at(i * n * size_of::<CrawlVerdict>());
            rule_slots.prefetch_at(i * n * size_of::<Option<RuleAt>>());
        };
        self.grouped.judge_found(
            self.judge,
            n_lines,
            last,
            (url, path),
            soon,
            |i, one, sets| {
                // One agent's verdict is one store, not a call to copy.
                match one {
                    [v] => verdicts[i] = *v,
                    _ => verdicts[i * n..(i + 1) * n].copy_from_slice(one),
                }
                if !explain {
                    return;
                }
                for (a, v) in one.iter().enumerate() {
                    let CrawlReason::Robots(reason) = v.reason() else {
                        continue;
                    };
                    let Some(rule) = sets.and_then(|r| reason.rule(r.get(a)?))
                    else {
                        continue;
                    };
                    let s = texts.len();
                    texts.extend_from_slice(rule.text());
                    rules[i * n + a] = Some((rule.line(), s, texts.len()));
                }
            },
        );
        // Render in input order, into room for about every row: grown by
        // doubling, the buffer would be copied and its pages touched twice.
        out.clear();
        if self.emit.is_none() && !self.count_only {
            let rows = chunk.len() + self.lines.len() * ROW_EXTRA;
            out.reserve(n.saturating_mul(rows).min(MAX_ROWS_RESERVED));
        }
        for i in 0..self.lines.len() {
            let (start, end) = self.lines[i];
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
                    let all = all_allowed(verdicts);
                    stats.undecided += u64::from(all.is_none());
                    if all == Some(want) {
                        if !self.count_only {
                            out.extend_from_slice(line);
                            out.push(b'\n');
                        }
                        stats.kept += 1;
                    }
                }
                None if self.count_only => {}
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crawl::FetchPolicy;
    use crate::testing::{judge_of, served};
    use crate::{Dialect, MatcherBuilder};

    /// A URL is copied into its rows as it is only when no format quotes
    /// or escapes a byte of it; the others are quoted or escaped, in a
    /// line that fits the reader's window and in one that does not.
    #[test]
    fn rows_quote_and_escape_what_needs_it() {
        let body = b"User-agent: *\nAllow: /\nDisallow: /d\n".to_vec();
        let judge = judge_of(served([("a.com", body)]), &["bot"]);
        let long = "q".repeat(10_000);
        let paths = ["/a", "/d,x", "/d\"x\"", "/a\\b", "/d\tt", "/\u{e9}"];
        let mut lines: Vec<String> =
            paths.iter().map(|p| format!("https://a.com{p}")).collect();
        lines.extend(paths.iter().map(|p| format!("https://a.com{p}{long}")));
        let chunk = lines.join("\n");
        let verdict = |line: &str| match line.starts_with("https://a.com/d") {
            true => "disallowed",
            false => "allowed",
        };
        for format in [Format::Csv, Format::Tsv, Format::Jsonl] {
            let mut worker = CrawlWorker::new(&judge, format, false);
            let mut out = vec![];
            worker.run(chunk.as_bytes(), true, &mut out).unwrap();
            let out = String::from_utf8(out).unwrap();
            let rows: Vec<&str> = out.lines().collect();
            assert_eq!(rows.len(), lines.len(), "{format:?}");
            for (line, row) in lines.iter().zip(rows) {
                let want = match format {
                    Format::Csv => {
                        let mut w = csv::Writer::from_writer(vec![]);
                        w.write_record([line.as_str(), verdict(line), "rule"])
                            .unwrap();
                        String::from_utf8(w.into_inner().unwrap()).unwrap()
                    }
                    Format::Tsv => {
                        let escaped =
                            line.replace('\\', "\\\\").replace('\t', "\\t");
                        format!("{escaped}\t{}\trule\n", verdict(line))
                    }
                    Format::Jsonl => {
                        let got: serde_json::Value =
                            serde_json::from_str(row).unwrap();
                        let want = serde_json::json!({
                            "url": line,
                            "verdict": verdict(line),
                            "reason": "rule",
                        });
                        assert_eq!(got, want);
                        continue;
                    }
                };
                assert_eq!(format!("{row}\n"), want, "{format:?}");
            }
        }
    }

    /// Each line of a chunk, judged from the path the worker's line reader
    /// found, gets the verdict the judge gives the line alone (scanning it
    /// for its path), in every dialect: roots, fragments, escapes, bytes
    /// RFC 9309 spells otherwise, `\r\n` ends, a line longer than the
    /// reader's window, a last line without its end.
    #[test]
    fn found_paths_judge_as_scanned_urls() {
        let body = "User-agent: *\nDisallow: /p%61th\nDisallow: /caf\u{e9}\n\
                    Disallow: /*.php$\nAllow: /$\nDisallow: /x?\n\
                    Disallow: /a%2fb\nDisallow: /%7e\n";
        let long = format!("https://a.com/{}", "q".repeat(10_000));
        let lines = [
            "https://a.com",
            "https://a.com/",
            "https://a.com#frag",
            "https://a.com/#x",
            "https://a.com/path",
            "https://a.com/p%61th",
            "HTTPS://A.COM/caf\u{e9}",
            "https://a.com/caf%C3%A9",
            "http://a.com/x.php",
            "https://a.com/x.php?y",
            "https://a.com/x?",
            "https://a.com/a%2fb",
            "https://a.com/a/b",
            "https://a.com/~",
            "https://a.com/%7E/*$",
            "https://b.com/anything",
            "not a url",
            "",
            "//a.com/path",
            &long,
            "https://a.com/x.php",
        ];
        let mut chunk = String::new();
        for (i, line) in lines.iter().enumerate() {
            chunk.push_str(line);
            if i + 1 < lines.len() {
                chunk.push_str(if i % 2 == 0 { "\n" } else { "\r\n" });
            }
        }
        for dialect in Dialect::ALL {
            let set = served([("a.com", body.as_bytes().to_vec())]);
            let judge = CrawlJudge::new(
                set,
                FetchPolicy::default(),
                MatcherBuilder::new(),
                &["bot".to_string()],
                dialect,
            );
            let mut worker = CrawlWorker::new(&judge, Format::Csv, false);
            let mut out = vec![];
            worker.run(chunk.as_bytes(), true, &mut out).unwrap();
            assert_eq!(worker.verdicts.len(), lines.len(), "{dialect}");
            let (mut scratch, mut alone) = (judge.scratch(), vec![]);
            for (i, line) in lines.iter().enumerate() {
                judge.verdicts(line.as_bytes(), &mut scratch, &mut alone);
                assert!(
                    worker.verdicts[i] == alone[0],
                    "{dialect}: {line:?}: {:?} against {:?} alone",
                    worker.verdicts[i].allowed(),
                    alone[0].allowed()
                );
            }
        }
    }
}

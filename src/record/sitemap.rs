//! Sitemap and llms.txt input: the entries are read one after another
//! (XML cannot be cut into chunks without parsing it), written into
//! chunks of lines of their own, and judged on the batch's threads as
//! other records are. Each entry's line holds its URL, its problem's
//! number (0 for none), its line, its `<lastmod>` and its file, separated
//! by tabs (tabs and line ends inside them made spaces).
//!
//! Without `--emit`, a CSV row per entry: `url,file,line,lastmod`, then
//! the added fields; with it, each URL kept, one a line.

use std::io::{self, Read, Write};
use std::sync::Mutex;

use super::worker::{push_value, RecordWorker, Value};
use super::Records;
use crate::batch::{Batch, Chunk, Chunks, Sink, Stats};
use crate::sitemap::{Entry, Problem, Sitemap, SitemapSet, SitemapSource};

/// The entries of a sitemap set, as chunks of lines. An error ends the
/// chunks, after those of the entries read before it, and is kept in
/// `error`: the run writes every chunk before it returns the error.
struct EntryChunks<'s, 'e> {
    set: SitemapSet<'s>,
    chunk_size: usize,
    error: &'e mut Option<io::Error>,
    /// Where the children not found go at the end.
    missing: &'e Mutex<Vec<String>>,
    done: bool,
}

impl EntryChunks<'_, '_> {
    /// No entry follows: the children not found are handed on.
    fn end(&mut self) {
        self.done = true;
        if let Ok(mut missing) = self.missing.lock() {
            *missing = self.set.missing().to_vec();
        }
    }
}

impl Chunks<'static> for EntryChunks<'_, '_> {
    fn next_chunk(
        &mut self,
        spare: Option<Vec<u8>>,
    ) -> io::Result<Option<Chunk<'static>>> {
        let mut buf = spare.unwrap_or_default();
        buf.clear();
        while !self.done && buf.len() < self.chunk_size {
            match self.set.next_entry() {
                Ok(Some(entry)) => push_entry(&mut buf, &entry),
                Ok(None) => self.end(),
                Err(err) => {
                    *self.error = Some(err);
                    self.end();
                }
            }
        }
        Ok((!buf.is_empty()).then_some(Chunk::Owned(buf)))
    }

    fn cut(&self) -> Stats {
        Stats::default()
    }

    fn chunk_size(&self) -> usize {
        self.chunk_size
    }

    fn at_end(&self) -> bool {
        self.done
    }
}

/// Appends `text` as one field of an entry's line.
fn push_field(buf: &mut Vec<u8>, text: &[u8]) {
    let start = buf.len();
    buf.extend_from_slice(text);
    for b in &mut buf[start..] {
        if matches!(*b, b'\t' | b'\n' | b'\r') {
            *b = b' ';
        }
    }
}

/// Appends an entry's line.
fn push_entry(buf: &mut Vec<u8>, entry: &Entry) {
    push_field(buf, entry.url.as_bytes());
    let problem = entry.problem.map_or(0, |p| p as u8);
    // Writing to a vector cannot fail.
    let _ = write!(buf, "\t{problem}\t{}\t", entry.line);
    push_field(buf, entry.lastmod.as_deref().unwrap_or("").as_bytes());
    buf.push(b'\t');
    push_field(buf, entry.file.as_bytes());
    buf.push(b'\n');
}

impl<'m> Records<'m> {
    /// Runs every entry of the sitemap or llms.txt `rdr` (compressed or
    /// not; its name, index directory and origin from
    /// [`Records::sitemap_source`]): without `--emit`, a CSV header
    /// `url,file,line,lastmod` and the added fields, then a row per
    /// entry; with it, the URLs kept, one a line. An error (malformed XML,
    /// an HTML page, a failed read) comes after the rows of the entries
    /// read before it.
    pub fn run_sitemap<R: Read, S: Sink>(
        &self,
        batch: &Batch,
        rdr: R,
        mut sink: S,
    ) -> io::Result<Stats> {
        let fallback = SitemapSource::default();
        let source = self.sitemap.unwrap_or(&fallback);
        let root = Sitemap::open(rdr, &source.name, &source.options)?;
        let set =
            SitemapSet::new(root, source.dir.as_deref(), &source.options);
        if self.emit.is_none() {
            let mut out = b"url,file,line,lastmod".to_vec();
            let mut quoter = csv_core::WriterBuilder::new().build();
            for name in &self.columns {
                push_value(&mut out, &mut quoter, b',', name.as_bytes());
            }
            out.push(b'\n');
            sink.chunk(&out, &Stats::default())?;
        }
        let mut error = None;
        let chunks = EntryChunks {
            set,
            chunk_size: batch.chunk_size_of(None),
            error: &mut error,
            missing: source.missing_cell(),
            done: false,
        };
        let new_worker = || RecordWorker::new(self, 0);
        let stats = batch.run_chunks(chunks, new_worker, sink);
        match error {
            Some(err) => Err(err),
            None => stats,
        }
    }
}

impl RecordWorker<'_, '_> {
    /// Judges and writes an entry's line (see the module's doc).
    pub(super) fn sitemap_line(
        &mut self,
        record: &[u8],
        stats: &mut Stats,
        out: &mut Vec<u8>,
    ) {
        let line = record.strip_suffix(b"\n").unwrap_or(record);
        let mut fields = line.splitn(5, |&b| b == b'\t');
        let mut next = || fields.next().unwrap_or(b"");
        let (url, problem, number, lastmod, file) =
            (next(), next(), next(), next(), next());
        let problem = std::str::from_utf8(problem)
            .ok()
            .and_then(|p| p.parse().ok())
            .and_then(Problem::from_number);
        let judged_url = match problem {
            Some(p) => Err(p.reason()),
            None => Ok(url),
        };
        let index = stats.lines();
        let judged = self.judge(judged_url, index, stats);
        if let Some(want) = self.records.emit {
            if problem.is_none() && judged == Some(want) {
                out.extend_from_slice(url);
                out.push(b'\n');
                stats.kept += 1;
            }
            return;
        }
        let q = &mut self.quoter;
        crate::output::push_csv_field(q, out, url);
        push_value(out, q, b',', file);
        push_value(out, q, b',', number);
        push_value(out, q, b',', lastmod);
        self.fill_values(problem.is_none());
        for value in self.values.clone() {
            let q = &mut self.quoter;
            match value.resolve(&self.texts) {
                Value::Text(t) => push_value(out, q, b',', t),
                Value::Number(n) => {
                    push_value(out, q, b',', n.to_string().as_bytes())
                }
                Value::Nothing | Value::Copied(..) => out.push(b','),
            }
        }
        let why = problem.map_or("", Problem::reason);
        push_value(out, &mut self.quoter, b',', why.as_bytes());
        out.push(b'\n');
    }
}

/*!
Records: URLs inside the lines of structured files (JSON Lines, CSV, TSV,
CDXJ, access logs) and inside WARC records, judged, and written back in
their own format with the verdicts added, or kept or dropped unchanged.

[`Records`] says which format, where the URL is and what to write. A run
cuts the input into chunks of whole records (where its parser ends them:
`chunks.rs`), judges the chunks on the [`Batch`]'s threads and hands
them to the sink in input order, as the pipeline of bare URL lines does.
WARC files are read one record after another (see [`Records::run_warc`]).

Every record gets a row. A record without a URL (a line that is not
JSON, a missing field, a `null`, a number) is a *bad record*: its verdict
is `unknown`, the `robots_error` field says why, and [`Stats`] counts it
and remembers the first.

The records are judged by matchers of one robots.txt ([`Records::new`])
or, in crawl-log mode, each by its own origin's robots.txt and fetch
([`Records::crawl`]).
*/

use std::io::{self, Read};

use crate::batch::{Batch, ChunkWorker, Sink, Stats};
use crate::crawl::{
    all_allowed, CrawlJudge, CrawlReason, CrawlScratch, CrawlVerdict,
};
use crate::dialect::Dialect;
use crate::matcher::{Matcher, MatcherBuilder, Scratch, Verdict};
use crate::output::{push_csv_field, push_json_string, push_tsv_field};
use crate::robots::Robots;
use crate::usage::{Category, Usage, UsagePrefs};
use chunks::{invalid, Framing, RecordChunks};

mod access_log;
mod chunks;
mod json;
mod own;
mod parquet;
mod tally;
mod warc;
mod warc_emit;

pub use own::DEFAULT_OWN_CACHE_BYTES;
use own::{OwnMatchers, OwnScratch};

pub use chunks::MAX_RECORD_BYTES;

/// The format of the records.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum RecordFormat {
    /// One JSON object per line; the URL at a dotted path of fields.
    Jsonl,
    /// RFC 4180 CSV with a header; the URL in a named column.
    Csv,
    /// Tab-separated values with a header, no quoting.
    Tsv,
    /// Common Crawl's index lines: `surt timestamp {json}`, the URL in the
    /// JSON's `url` field.
    Cdxj,
    /// Web server access logs in the combined log format: the path of the
    /// request line, judged for the agent of the User-Agent field.
    AccessLog,
    /// WARC files: every record with a `WARC-Target-URI`.
    Warc,
    /// Parquet files: the URL in a named column (a dotted path into struct
    /// columns), read and written by row groups.
    Parquet,
}

impl RecordFormat {
    /// The format's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            RecordFormat::Jsonl => "jsonl",
            RecordFormat::Csv => "csv",
            RecordFormat::Tsv => "tsv",
            RecordFormat::Cdxj => "cdxj",
            RecordFormat::AccessLog => "access-log",
            RecordFormat::Warc => "warc",
            RecordFormat::Parquet => "parquet",
        }
    }
}

/// Where a record's URL is, which agents judge it, and what a run writes.
#[derive(Debug)]
pub struct Records<'m> {
    format: RecordFormat,
    /// The dotted path of the URL's JSON field, or the CSV column's name.
    url_field: Vec<String>,
    /// `Some(true)`: only the records every agent may fetch, unchanged.
    emit: Option<bool>,
    explain: bool,
    matchers: &'m [Matcher],
    agents: Vec<String>,
    /// Access logs: what each line's own agent is judged by.
    per_line: Option<OwnMatchers<'m>>,
    /// Crawl-log mode: each record judged by its origin's robots.txt
    /// (`matchers` is empty then).
    crawl: Option<&'m CrawlJudge>,
    /// With `--usage`: per agent (`usage[i]` for `matchers[i]`), the
    /// usage lines whose preferences follow its verdict fields; for access
    /// logs, empty: each line's agent's are selected as its matcher is
    /// compiled.
    usage: Option<Vec<Usage>>,
    /// The names of the fields added to each record, `robots_error` last.
    columns: Vec<String>,
    /// With `-c`: each agent's verdicts counted (see `tally.rs`).
    tally: Option<&'m crate::output::Counts>,
}

/// The name of the field that says why a record is bad.
const ERROR: &str = "robots_error";

/// The usage fields, one per [`Category`] in the order of
/// [`Category::ALL`]: `robots_` and the category's name with `_` for `-`,
/// as the other added fields are named.
pub const USAGE_FIELDS: [&str; 3] =
    ["robots_train_ai", "robots_search", "robots_ai_input"];

/// The fields of the lines that decided each usage preference.
pub const USAGE_LINE_FIELDS: [&str; 3] =
    ["robots_train_ai_line", "robots_search_line", "robots_ai_input_line"];

/// Whether the added field `name` holds a line number (`robots_line` and
/// the usage lines, with or without their `.<agent>`).
fn is_line_field(name: &str) -> bool {
    let base = name.split('.').next().unwrap_or(name);
    base == "robots_line" || USAGE_LINE_FIELDS.contains(&base)
}

/// The verdict of a bad record.
const UNKNOWN: &[u8] = b"unknown";

impl<'m> Records<'m> {
    /// Records of `format`, judged by `matchers` (`agents[i]` naming the
    /// agent of `matchers[i]`), the URL in the field or column `url`.
    pub fn new(
        format: RecordFormat,
        matchers: &'m [Matcher],
        agents: &[String],
    ) -> Records<'m> {
        let mut records = Records {
            format,
            url_field: vec!["url".to_string()],
            emit: None,
            explain: false,
            matchers,
            agents: agents.to_vec(),
            per_line: None,
            crawl: None,
            usage: None,
            columns: vec![],
            tally: None,
        };
        records.columns = records.columns();
        records
    }

    /// Records of `format` in crawl-log mode: each judged for `judge`'s
    /// agents by the robots.txt and fetch of its URL's own origin. The
    /// fields per agent are `robots_verdict` and `robots_reason` (as
    /// `robots-batch crawl` words it), and with explanations
    /// `robots_origin` (the origin or host whose fetch decided),
    /// `robots_line` and `robots_rule`. Access logs, whose paths have no
    /// origin, are not for this mode.
    pub fn crawl(format: RecordFormat, judge: &'m CrawlJudge) -> Records<'m> {
        let mut records = Records::new(format, &[], judge.agents());
        records.crawl = Some(judge);
        records.columns = records.columns();
        records
    }

    /// The format of the records.
    pub fn format(&self) -> RecordFormat {
        self.format
    }

    /// The URL's field: a dotted path of JSON field names (`meta.url`),
    /// or a CSV or TSV column's name (dots and all). Default `url`.
    pub fn url_field(&mut self, name: &str) -> &mut Records<'m> {
        self.url_field = match self.format {
            RecordFormat::Jsonl | RecordFormat::Parquet => {
                name.split('.').map(String::from).collect()
            }
            _ => vec![name.to_string()],
        };
        self
    }

    /// Writes only the records with this verdict (`true`: those every
    /// agent may fetch), unchanged; bad records match neither.
    pub fn emit(&mut self, allowed: Option<bool>) -> &mut Records<'m> {
        self.emit = allowed;
        self
    }

    /// Adds each verdict's line, rule, group and reason.
    pub fn explain(&mut self, yes: bool) -> &mut Records<'m> {
        self.explain = yes;
        self.columns = self.columns();
        self
    }

    /// Adds each agent's AI usage preferences after its verdict fields
    /// (`usage[i]` for the agent of `matchers[i]`; for access logs an
    /// empty list, each line's agent's being selected under the robots.txt
    /// of [`Records::per_line_agents`]): `robots_train_ai`,
    /// `robots_search` and `robots_ai_input`, each `allowed`, `disallowed`
    /// or `unknown`, no value where the verdict is `disallowed` or the
    /// record is bad; with explanations, then the deciding line of each,
    /// `robots_train_ai_line`... (no value when unknown).
    pub fn usage(&mut self, usage: Vec<Usage>) -> &mut Records<'m> {
        self.usage = Some(usage);
        self.columns = self.columns();
        self
    }

    /// Access logs: judges each line for the agent of its own User-Agent
    /// field (see the README) under `robots`, rather than for the
    /// matchers' agents. Agents that select the same groups share one
    /// matcher, kept within [`DEFAULT_OWN_CACHE_BYTES`] (see
    /// [`Records::own_cache_bytes`]).
    pub fn per_line_agents(
        &mut self,
        robots: &'m Robots,
        dialect: Dialect,
        builder: MatcherBuilder,
    ) -> &mut Records<'m> {
        let budget = DEFAULT_OWN_CACHE_BYTES;
        self.per_line =
            Some(OwnMatchers::new(robots, dialect, builder, budget));
        self.columns = self.columns();
        self
    }

    /// Access logs: keeps at most `bytes` of the rules and matchers of the
    /// groups the lines' agents select (as allocated); the oldest go
    /// first, and are selected again when needed.
    pub fn own_cache_bytes(&mut self, bytes: usize) -> &mut Records<'m> {
        if let Some(own) = self.per_line.as_mut() {
            own.set_budget(bytes);
        }
        self
    }

    /// The names of the added fields: `robots_agent` (access logs), then
    /// per agent `robots_verdict` and with explanations `robots_line`,
    /// `robots_rule`, `robots_group` and `robots_reason`, with usage
    /// [`USAGE_FIELDS`] (and with explanations [`USAGE_LINE_FIELDS`]), each
    /// followed by `.<agent>` when there are several agents, then
    /// `robots_error`.
    pub fn added_fields(&self) -> &[String] {
        &self.columns
    }

    fn columns(&self) -> Vec<String> {
        let mut names = vec![];
        let mut per_agent = vec!["robots_verdict"];
        if self.crawl.is_some() {
            per_agent.push("robots_reason");
            if self.explain {
                per_agent.extend([
                    "robots_origin",
                    "robots_line",
                    "robots_rule",
                ]);
            }
        } else if self.explain {
            per_agent.extend([
                "robots_line",
                "robots_rule",
                "robots_group",
                "robots_reason",
            ]);
        }
        if self.usage.is_some() {
            per_agent.extend(USAGE_FIELDS);
            if self.explain {
                per_agent.extend(USAGE_LINE_FIELDS);
            }
        }
        if self.per_line.is_some() {
            names.push("robots_agent".to_string());
            names.extend(per_agent.iter().map(|n| n.to_string()));
        } else if self.agents.len() == 1 {
            names.extend(per_agent.iter().map(|n| n.to_string()));
        } else {
            for agent in &self.agents {
                names.extend(per_agent.iter().map(|n| format!("{n}.{agent}")));
            }
        }
        names.push(ERROR.to_string());
        names
    }

    /// Runs every record read from `rdr` (decompressed already): a CSV or
    /// TSV header first goes to the sink on its own, with the added
    /// columns. An error of the input (no URL column in the header, a
    /// record over [`MAX_RECORD_BYTES`]) is an error of kind
    /// `InvalidData`. For WARC files, see [`Records::run_warc`].
    pub fn run<R: Read, S: Sink>(
        &self,
        batch: &Batch,
        rdr: R,
        sink: S,
    ) -> io::Result<Stats> {
        self.run_sized(batch, rdr, None, sink)
    }

    /// [`Records::run`] on an input of `len` bytes when that is known (a
    /// file read as it is, not decompressed): a short one is cut into
    /// chunks as [`BatchBuilder::file_chunks`](crate::BatchBuilder::file_chunks)
    /// says for a file.
    pub fn run_sized<R: Read, S: Sink>(
        &self,
        batch: &Batch,
        rdr: R,
        len: Option<u64>,
        mut sink: S,
    ) -> io::Result<Stats> {
        let (framing, delimiter) =
            match self.format {
                RecordFormat::Csv => (Framing::Csv(b','), b','),
                RecordFormat::Tsv => (Framing::Tsv, b'\t'),
                RecordFormat::Warc => return self.run_warc(rdr, sink),
                RecordFormat::Parquet => return Err(invalid(
                    "Parquet is read from a file (see Records::run_parquet)"
                        .to_string(),
                )),
                _ => (Framing::Lines, 0),
            };
        let chunk_size = batch.chunk_size_of(len);
        let mut chunks = RecordChunks::new(rdr, chunk_size, framing);
        let (mut column, mut width) = (0, 0);
        if delimiter != 0 {
            let header = chunks.first_record()?;
            let (index, out) = self.header(&header, delimiter)?;
            (column, width) = index;
            sink.chunk(&out, &Stats::default())?;
        }
        let new_worker = || {
            let mut worker = RecordWorker::new(self, delimiter);
            (worker.column, worker.width) = (column, width);
            worker
        };
        batch.run_chunks(chunks, new_worker, sink)
    }

    /// The URL column's index in a CSV or TSV header (its bytes with the
    /// line end), and the header to write.
    fn header(
        &self,
        header: &[u8],
        delimiter: u8,
    ) -> io::Result<((usize, usize), Vec<u8>)> {
        let names = split_record(header, delimiter, self.format);
        let width = names.len();
        let want = self.url_field[0].as_bytes();
        let Some(index) = names.iter().position(|n| n == want) else {
            let shown: Vec<String> = names
                .iter()
                .map(|n| String::from_utf8_lossy(n).into_owned())
                .collect();
            return Err(invalid(format!(
                "no column {:?} in the header (its columns: {}); name the \
                 URL's with --url-column",
                self.url_field[0],
                shown.join(", ")
            )));
        };
        if let Some(name) = names
            .iter()
            .find(|n| self.columns.iter().any(|c| c.as_bytes() == *n))
        {
            return Err(invalid(format!(
                "the header already has a column {:?}, one that robots-batch \
                 adds (is this its own output?)",
                String::from_utf8_lossy(name)
            )));
        }
        let mut out = vec![];
        if self.emit.is_some() {
            out.extend_from_slice(header);
            if !header.ends_with(b"\n") {
                out.push(b'\n');
            }
            return Ok(((index, width), out));
        }
        out.extend_from_slice(trim_line_end(header));
        let mut quoter = csv_core::WriterBuilder::new().build();
        for name in &self.columns {
            push_value(&mut out, &mut quoter, delimiter, name.as_bytes());
        }
        out.push(b'\n');
        Ok(((index, width), out))
    }
}

/// `line` without its `\n` or `\r\n`.
fn trim_line_end(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// The fields of one CSV or TSV record (with or without its line end).
fn split_record(
    record: &[u8],
    delimiter: u8,
    format: RecordFormat,
) -> Vec<Vec<u8>> {
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .quoting(format == RecordFormat::Csv)
        .from_reader(record);
    let mut fields = csv::ByteRecord::new();
    match rdr.read_byte_record(&mut fields) {
        Ok(true) => fields.iter().map(<[u8]>::to_vec).collect(),
        _ => vec![],
    }
}

/// The URL of a TSV record (with or without its line end): its field
/// `column` of `width`.
fn tsv_url(
    record: &[u8],
    column: usize,
    width: usize,
) -> Result<&[u8], &'static str> {
    let mut fields = trim_line_end(record).split(|&b| b == b'\t');
    let url = fields.nth(column).ok_or(WIDTH)?;
    match column + 1 + fields.count() == width {
        true => Ok(url),
        false => Err(WIDTH),
    }
}

/// Appends one CSV or TSV field, after its delimiter.
fn push_value(
    out: &mut Vec<u8>,
    quoter: &mut csv_core::Writer,
    delimiter: u8,
    value: &[u8],
) {
    out.push(delimiter);
    if delimiter == b'\t' {
        push_tsv_field(out, value);
    } else {
        push_csv_field(quoter, out, value);
    }
}

/// A value of an added field.
#[derive(Clone, Copy, Debug)]
enum Value<'a> {
    Text(&'a [u8]),
    Number(u32),
    /// No value (an explanation without a rule): empty, `null` or `-`.
    Nothing,
    /// Text copied into the worker's `texts`, at this range (a rule of
    /// matchers that a crawl-log judge may drop).
    Copied(usize, usize),
}

impl<'a> Value<'a> {
    /// The value, with a copied text found in `texts`.
    fn resolve(self, texts: &'a [u8]) -> Value<'a> {
        match self {
            Value::Copied(s, e) => Value::Text(&texts[s..e]),
            v => v,
        }
    }
}

/// A worker thread's state: judges and writes the records of a chunk.
struct RecordWorker<'r, 'm> {
    records: &'r Records<'m>,
    /// The URL's column (CSV, TSV).
    column: usize,
    /// The number of columns of the header (CSV, TSV).
    width: usize,
    /// The CSV or TSV delimiter; 0 for the other formats.
    delimiter: u8,
    scratches: Vec<Scratch>,
    verdicts: Vec<Verdict>,
    values: Vec<Value<'m>>,
    /// Access logs: the group of the line just judged.
    own: OwnScratch,
    quoter: csv_core::Writer,
    /// Crawl-log mode: the judge's scratch and the verdicts just given.
    crawl: Option<CrawlScratch>,
    crawl_verdicts: Vec<CrawlVerdict>,
    /// The texts of [`Value::Copied`] values.
    texts: Vec<u8>,
    usage: WorkerUsage,
    /// With `-c`: `[allowed, disallowed, unknown]` per agent.
    tally: Vec<u64>,
}

impl<'r, 'm> RecordWorker<'r, 'm> {
    /// A worker for `records`, `delimiter` separating CSV or TSV fields
    /// (0 for the other formats).
    fn new(records: &'r Records<'m>, delimiter: u8) -> RecordWorker<'r, 'm> {
        RecordWorker {
            records,
            column: 0,
            width: 0,
            delimiter,
            scratches: records.matchers.iter().map(Matcher::scratch).collect(),
            verdicts: vec![],
            values: vec![],
            own: OwnScratch::default(),
            quoter: csv_core::WriterBuilder::new().build(),
            crawl: records.crawl.map(CrawlJudge::scratch),
            crawl_verdicts: vec![],
            texts: vec![],
            usage: WorkerUsage::default(),
            tally: vec![],
        }
    }
}

/// A worker thread's state for the usage fields.
#[derive(Debug, Default)]
struct WorkerUsage {
    /// The path of the record just judged, extracted and normalised.
    path: Vec<u8>,
    /// Per agent, the preferences for the record just judged (`None`
    /// where the agent may not fetch it).
    prefs: Vec<Option<UsagePrefs>>,
}

impl ChunkWorker for RecordWorker<'_, '_> {
    fn run(
        &mut self,
        chunk: &[u8],
        _last: bool,
        out: &mut Vec<u8>,
    ) -> io::Result<Stats> {
        out.clear();
        let mut stats = Stats::of_bytes(chunk.len());
        if self.records.format == RecordFormat::Tsv {
            for record in chunks::tsv_records(chunk) {
                let url = tsv_url(record, self.column, self.width);
                self.one(record, url, &mut stats, out);
            }
        } else if self.delimiter != 0 {
            let mut rdr = csv::ReaderBuilder::new()
                .has_headers(false)
                .flexible(true)
                .delimiter(self.delimiter)
                .from_reader(chunk);
            let mut fields = csv::ByteRecord::new();
            // Each record's start, and its URL or why it has none; a
            // record's bytes run to the next one's start (blank lines
            // are no records: they go with the record before them).
            let mut found: Vec<(usize, Result<Vec<u8>, &'static str>)> =
                vec![];
            while rdr
                .read_byte_record(&mut fields)
                .map_err(|e| invalid(format!("CSV: {e}")))?
            {
                let mut start = match found.is_empty() {
                    true => 0,
                    false => {
                        fields.position().map_or(0, |p| p.byte() as usize)
                    }
                };
                // After a `\r\n`, csv places the next record at the
                // `\n`: line ends belong to the record before.
                while matches!(chunk.get(start), Some(b'\r' | b'\n')) {
                    start += 1;
                }
                let url = if fields.len() != self.width {
                    Err(WIDTH)
                } else {
                    fields.get(self.column).map(<[u8]>::to_vec).ok_or(WIDTH)
                };
                found.push((start, url));
            }
            for i in 0..found.len() {
                let end = found.get(i + 1).map_or(chunk.len(), |f| f.0);
                let (start, ref url) = found[i];
                let url = url.as_deref().map_err(|&why| why);
                self.one(&chunk[start..end], url, &mut stats, out);
            }
        } else {
            let mut start = 0;
            while start < chunk.len() {
                let end = memchr::memchr(b'\n', &chunk[start..])
                    .map_or(chunk.len(), |i| start + i + 1);
                let record = &chunk[start..end];
                self.line(record, &mut stats, out);
                start = end;
            }
        }
        Ok(stats)
    }
}

/// A CSV or TSV record whose fields the header does not name.
const WIDTH: &str = "not as many fields as the header";
/// A CDXJ line without its JSON.
const NO_CDXJ_JSON: &str = "no JSON after the SURT key and timestamp";

impl<'m> RecordWorker<'_, 'm> {
    /// Judges and writes a line of the line formats (with its line end).
    fn line(&mut self, record: &[u8], stats: &mut Stats, out: &mut Vec<u8>) {
        let text = trim_line_end(record);
        let added = &self.records.columns;
        match self.records.format {
            RecordFormat::Jsonl => {
                let found = json::find(text, &self.records.url_field, added);
                self.json(record, b"", text, found, stats, out);
            }
            RecordFormat::Cdxj => {
                // `surt timestamp {json}`: the JSON starts at the third
                // field.
                let split = nth_space(text, 2);
                let (prefix, json) = text.split_at(split);
                let found = if json.is_empty() {
                    Err(NO_CDXJ_JSON)
                } else {
                    json::find(json, &self.records.url_field, added)
                };
                self.json(record, prefix, json, found, stats, out);
            }
            RecordFormat::AccessLog => {
                let parsed = access_log::parse(text);
                let agent = match parsed {
                    Ok((_, Some(ua))) => access_log::agent(ua),
                    _ => "*".to_string(),
                };
                let url = parsed.map(|(target, _)| target);
                self.access_line(record, text, &agent, url, stats, out);
            }
            _ => {}
        }
    }

    /// Judges a JSON record (after `prefix`, for CDXJ) and writes it.
    fn json(
        &mut self,
        record: &[u8],
        prefix: &[u8],
        text: &[u8],
        found: Result<json::Found<'_>, &'static str>,
        stats: &mut Stats,
        out: &mut Vec<u8>,
    ) {
        let (url, fields) = match found {
            Ok(f) if f.clash => (Err(CLASH), None),
            Ok(f) => (f.url, Some(f.fields)),
            Err(why) => (Err(why), None),
        };
        let url = url.as_deref().map(str::as_bytes).map_err(|&why| why);
        let number = stats.lines();
        let judged = self.judge(url, number, stats);
        if let Err(why) = url {
            if self.records.emit.is_some() {
                return;
            }
            match fields {
                // An object: the fields go in before its closing brace.
                Some(fields) => {
                    let close = last_brace(text);
                    out.extend_from_slice(prefix);
                    out.extend_from_slice(&text[..close]);
                    self.push_json_fields(out, fields, Some(why));
                    out.extend_from_slice(&text[close..]);
                }
                // Anything else is kept whole, as a string.
                None => {
                    out.extend_from_slice(prefix);
                    if !prefix.is_empty() && !prefix.ends_with(b" ") {
                        out.push(b' ');
                    }
                    out.extend_from_slice(b"{\"robots_record\":");
                    push_json_string(out, text);
                    self.push_json_fields(out, true, Some(why));
                    out.push(b'}');
                }
            }
            out.push(b'\n');
            return;
        }
        if let Some(want) = self.records.emit {
            if judged == Some(want) {
                push_record(out, record);
                stats.kept += 1;
            }
            return;
        }
        let close = last_brace(text);
        out.extend_from_slice(prefix);
        out.extend_from_slice(&text[..close]);
        self.push_json_fields(out, fields.unwrap_or(true), None);
        out.extend_from_slice(&text[close..]);
        out.push(b'\n');
    }

    /// Judges and writes one CSV or TSV record (its bytes up to the next
    /// record's).
    fn one(
        &mut self,
        record: &[u8],
        url: Result<&[u8], &'static str>,
        stats: &mut Stats,
        out: &mut Vec<u8>,
    ) {
        let number = stats.lines();
        let judged = self.judge(url, number, stats);
        if let Some(want) = self.records.emit {
            if judged == Some(want) {
                push_record(out, record);
                stats.kept += 1;
            }
            return;
        }
        // Blank lines after a record are no records: they are dropped
        // with its line end.
        let mut text = record;
        while let Some(rest) =
            text.strip_suffix(b"\n").or_else(|| text.strip_suffix(b"\r"))
        {
            text = rest;
        }
        out.extend_from_slice(text);
        let error = url.err();
        self.fill_values(url.is_ok());
        for i in 0..self.values.len() {
            let value = self.values[i].resolve(&self.texts);
            match value {
                Value::Text(t) => {
                    push_value(out, &mut self.quoter, self.delimiter, t)
                }
                Value::Number(n) => push_value(
                    out,
                    &mut self.quoter,
                    self.delimiter,
                    n.to_string().as_bytes(),
                ),
                // Copied texts are resolved above.
                Value::Nothing | Value::Copied(..) => out.push(self.delimiter),
            }
        }
        push_value(
            out,
            &mut self.quoter,
            self.delimiter,
            error.unwrap_or_default().as_bytes(),
        );
        out.push(b'\n');
    }

    /// Judges and writes one access log line for its own agent.
    fn access_line(
        &mut self,
        record: &[u8],
        text: &[u8],
        agent: &str,
        url: Result<&[u8], &'static str>,
        stats: &mut Stats,
        out: &mut Vec<u8>,
    ) {
        let number = stats.lines();
        stats.count_line();
        let verdict = match url {
            Ok(url) => Some(self.own_verdict(agent, url)),
            Err(why) => {
                stats.count_bad(number, why);
                None
            }
        };
        stats.count_verdict(verdict.as_ref().map(|v| v.0.is_allowed()));
        if let Some(want) = self.records.emit {
            if verdict.as_ref().is_some_and(|v| v.0.is_allowed() == want) {
                push_record(out, record);
                stats.kept += 1;
            }
            return;
        }
        let prefs = match (&verdict, url) {
            (Some((v, _)), Ok(url)) => self.own_prefs(url, *v),
            _ => None,
        };
        out.extend_from_slice(text);
        push_log_field(out, b"robots_agent", agent.as_bytes());
        match verdict {
            Some((verdict, explanation)) => {
                push_log_field(
                    out,
                    b"robots_verdict",
                    verdict.name().as_bytes(),
                );
                if let Some([line, rule, group, reason]) = explanation {
                    push_log_field(out, b"robots_line", line.as_bytes());
                    push_log_field(out, b"robots_rule", rule.as_bytes());
                    push_log_field(out, b"robots_group", group.as_bytes());
                    push_log_field(out, b"robots_reason", reason.as_bytes());
                }
                self.push_usage_log_fields(out, prefs);
            }
            None => {
                push_log_field(out, b"robots_verdict", UNKNOWN);
                push_log_field(
                    out,
                    ERROR.as_bytes(),
                    url.err().unwrap_or_default().as_bytes(),
                );
            }
        }
        out.push(b'\n');
    }

    /// With usage, appends an access log line's usage fields: empty
    /// values where the agent may not fetch the URL (`prefs` is `None`).
    fn push_usage_log_fields(
        &self,
        out: &mut Vec<u8>,
        prefs: Option<UsagePrefs>,
    ) {
        if self.records.usage.is_none() {
            return;
        }
        for (category, name) in Category::ALL.into_iter().zip(USAGE_FIELDS) {
            let value = prefs.map_or("", |p| p.get(category).name());
            push_log_field(out, name.as_bytes(), value.as_bytes());
        }
        if self.records.explain {
            let names = Category::ALL.into_iter().zip(USAGE_LINE_FIELDS);
            for (category, name) in names {
                let line = prefs.and_then(|p| p.line(category));
                let value = line.map_or(String::new(), |n| n.to_string());
                push_log_field(out, name.as_bytes(), value.as_bytes());
            }
        }
    }

    /// The verdict of the matcher of the group `agent` selects, and its
    /// explanation when asked for.
    fn own_verdict(
        &mut self,
        agent: &str,
        url: &[u8],
    ) -> (Verdict, Option<[String; 4]>) {
        let Some(own) = self.records.per_line.as_ref() else {
            unreachable!("access logs are judged per line");
        };
        let usage = self.records.usage.is_some();
        let verdict = own.verdict(agent, url, usage, &mut self.own);
        let explanation = match self.own.matcher() {
            Some(m) if self.records.explain => Some(explain(m, verdict)),
            _ => None,
        };
        (verdict, explanation)
    }

    /// Judges `url` (`Err`: a bad record, `number` in its chunk) for every
    /// matcher, counts the record, and returns whether every agent may
    /// fetch it (`None` for a bad record, and in crawl-log mode for a
    /// verdict that is unknown).
    fn judge(
        &mut self,
        url: Result<&[u8], &'static str>,
        number: u64,
        stats: &mut Stats,
    ) -> Option<bool> {
        if let Some(judge) = self.records.crawl {
            return self.judge_crawl(judge, url, number, stats);
        }
        stats.count_line();
        self.verdicts.clear();
        match url {
            Ok(url) => {
                let pairs =
                    self.records.matchers.iter().zip(&mut self.scratches);
                for (m, scratch) in pairs {
                    let verdict = m.verdict(url, scratch);
                    stats.count_verdict(Some(verdict.is_allowed()));
                    self.verdicts.push(verdict);
                }
                for i in 0..self.verdicts.len() {
                    self.count(i, Some(self.verdicts[i].is_allowed()));
                }
                self.judge_usage(url);
                Some(self.verdicts.iter().all(|v| v.is_allowed()))
            }
            Err(why) => {
                stats.count_bad(number, why);
                for i in 0..self.records.matchers.len() {
                    stats.count_verdict(None);
                    self.count(i, None);
                }
                None
            }
        }
    }

    /// [`RecordWorker::judge`] in crawl-log mode: `Some(true)` when every
    /// agent may fetch the URL, `Some(false)` when one may not, `None`
    /// when a verdict is unknown (or the record is bad).
    fn judge_crawl(
        &mut self,
        judge: &CrawlJudge,
        url: Result<&[u8], &'static str>,
        number: u64,
        stats: &mut Stats,
    ) -> Option<bool> {
        stats.count_line();
        self.crawl_verdicts.clear();
        let url = match url {
            Ok(url) => url,
            Err(why) => {
                stats.count_bad(number, why);
                for _ in judge.agents() {
                    stats.count_verdict(None);
                }
                return None;
            }
        };
        let Some(scratch) = self.crawl.as_mut() else {
            unreachable!("a crawl-log worker has a crawl scratch");
        };
        judge.verdicts(url, scratch, &mut self.crawl_verdicts);
        for v in &self.crawl_verdicts {
            stats.count_verdict(v.allowed());
        }
        let all = all_allowed(&self.crawl_verdicts);
        stats.undecided += u64::from(all.is_none());
        all
    }

    /// The values of the verdict fields (all but `robots_error`) of the
    /// record just judged: from its verdicts when `judged` (it had a URL),
    /// else `unknown`.
    fn fill_values(&mut self, judged: bool) {
        self.values.clear();
        if let Some(judge) = self.records.crawl {
            return self.fill_crawl_values(judge, judged);
        }
        let matchers: &'m [Matcher] = self.records.matchers;
        for (i, m) in matchers.iter().enumerate() {
            if !judged {
                self.values.push(Value::Text(UNKNOWN));
                if self.records.explain {
                    self.values.extend([Value::Nothing; 4]);
                }
                self.push_usage_values(None);
                continue;
            }
            let verdict = self.verdicts[i];
            self.values.push(Value::Text(verdict.name().as_bytes()));
            if self.records.explain {
                let why = m.explain(verdict.reason());
                let rule = why.rule();
                self.values.extend([
                    rule.map_or(Value::Nothing, |r| Value::Number(r.line())),
                    rule.map_or(Value::Nothing, |r| Value::Text(r.text())),
                    why.group().map_or(Value::Nothing, Value::Text),
                    Value::Text(why.reason().name().as_bytes()),
                ]);
            }
            self.push_usage_values(self.usage.prefs.get(i).copied().flatten());
        }
    }

    /// [`RecordWorker::fill_values`] in crawl-log mode, from
    /// `self.crawl_verdicts`.
    fn fill_crawl_values(&mut self, judge: &'m CrawlJudge, judged: bool) {
        self.texts.clear();
        let explain = self.records.explain;
        for a in 0..judge.agents().len() {
            let Some(&v) = self.crawl_verdicts.get(a).filter(|_| judged)
            else {
                self.values.push(Value::Text(UNKNOWN));
                let nothing = if explain { 4 } else { 1 };
                self.values
                    .extend(std::iter::repeat_n(Value::Nothing, nothing));
                continue;
            };
            self.values.push(Value::Text(v.name().as_bytes()));
            self.values.push(Value::Text(v.reason().name().as_bytes()));
            if !explain {
                continue;
            }
            self.values.push(
                judge
                    .robots_of(v)
                    .map_or(Value::Nothing, |o| Value::Text(o.as_bytes())),
            );
            let rules =
                self.crawl.as_ref().and_then(CrawlScratch::current_rules);
            let rule = match (v.reason(), rules.and_then(|r| r.get(a))) {
                (CrawlReason::Robots(reason), Some(r)) => reason.rule(r),
                _ => None,
            };
            match rule {
                // The rule's text belongs to matchers that the judge may
                // drop: it is copied.
                Some(rule) => {
                    let s = self.texts.len();
                    self.texts.extend_from_slice(rule.text());
                    self.values.push(Value::Number(rule.line()));
                    self.values.push(Value::Copied(s, self.texts.len()));
                }
                None => self.values.extend([Value::Nothing; 2]),
            }
        }
    }

    /// With usage, finds each agent's preferences for `url`, just judged
    /// (into `self.verdicts`): its path is extracted and normalised as
    /// the line mode's table does it, so that both agree.
    fn judge_usage(&mut self, url: &[u8]) {
        let records = self.records;
        let Some(ref usages) = records.usage else { return };
        let state = &mut self.usage;
        state.prefs.clear();
        let first = usages.first().map(Usage::dialect);
        let path = first.map(|d| d.path(url, &mut state.path));
        let mut other = vec![];
        for (u, v) in usages.iter().zip(&self.verdicts) {
            if !v.is_allowed() {
                state.prefs.push(None);
                continue;
            }
            let path = match path {
                Some(path) if Some(u.dialect()) == first => path,
                _ => u.dialect().path(url, &mut other),
            };
            state.prefs.push(Some(u.prefs(path)));
        }
    }

    /// With usage, appends one agent's usage values: its preferences
    /// (`None`: it may not fetch the URL, or the record is bad) and with
    /// explanations their deciding lines.
    fn push_usage_values(&mut self, prefs: Option<UsagePrefs>) {
        if self.records.usage.is_none() {
            return;
        }
        for category in Category::ALL {
            self.values.push(match prefs {
                Some(p) => Value::Text(p.get(category).name().as_bytes()),
                None => Value::Nothing,
            });
        }
        if self.records.explain {
            for category in Category::ALL {
                let line = prefs.and_then(|p| p.line(category));
                self.values.push(line.map_or(Value::Nothing, Value::Number));
            }
        }
    }

    /// Access logs with usage: the preferences of the line's own agent
    /// for `url`, just judged (`None` when it may not fetch it), from the
    /// usage lines of its group.
    fn own_prefs(
        &mut self,
        url: &[u8],
        verdict: Verdict,
    ) -> Option<UsagePrefs> {
        self.records.usage.as_ref()?;
        if !verdict.is_allowed() {
            return None;
        }
        let usage = self.own.usage()?;
        let path = usage.dialect().path(url, &mut self.usage.path);
        Some(usage.prefs(path))
    }

    /// Appends the added fields to a JSON object (`fields`: it has some
    /// already) from the verdicts just given; `error` for a bad record.
    fn push_json_fields(
        &mut self,
        out: &mut Vec<u8>,
        fields: bool,
        error: Option<&str>,
    ) {
        self.fill_values(error.is_none());
        let names = &self.records.columns;
        let mut first = !fields;
        for (name, value) in names.iter().zip(&self.values) {
            if !first {
                out.push(b',');
            }
            first = false;
            push_json_string(out, name.as_bytes());
            out.push(b':');
            match value.resolve(&self.texts) {
                Value::Text(t) => push_json_string(out, t),
                Value::Number(n) => {
                    out.extend_from_slice(n.to_string().as_bytes())
                }
                // Copied texts are resolved above.
                Value::Nothing | Value::Copied(..) => {
                    out.extend_from_slice(b"null")
                }
            }
        }
        if let Some(why) = error {
            if !first {
                out.push(b',');
            }
            push_json_string(out, ERROR.as_bytes());
            out.push(b':');
            push_json_string(out, why.as_bytes());
        }
    }
}

/// A field named like one robots-batch adds.
const CLASH: &str = "has a field named like one robots-batch adds";

/// The texts of the explanation fields: line number, rule, group, reason.
fn explain(m: &Matcher, verdict: Verdict) -> [String; 4] {
    let why = m.explain(verdict.reason());
    let rule = why.rule();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    [
        rule.map_or(String::new(), |r| r.line().to_string()),
        rule.map_or(String::new(), |r| text(r.text())),
        why.group().map_or(String::new(), text),
        why.reason().name().to_string(),
    ]
}

/// Appends a record as read, with a line end if it had none.
fn push_record(out: &mut Vec<u8>, record: &[u8]) {
    out.extend_from_slice(record);
    if !record.ends_with(b"\n") {
        out.push(b'\n');
    }
}

/// Appends ` name="value"` to a log line, escaping `"` and `\` as Apache
/// does in its own quoted fields.
fn push_log_field(out: &mut Vec<u8>, name: &[u8], value: &[u8]) {
    out.push(b' ');
    out.extend_from_slice(name);
    out.extend_from_slice(b"=\"");
    for &b in value {
        if b == b'"' || b == b'\\' {
            out.push(b'\\');
        }
        out.push(b);
    }
    out.push(b'"');
}

/// The offset of the last `}` of a JSON object's text (its length if it
/// has none).
fn last_brace(text: &[u8]) -> usize {
    memchr::memrchr(b'}', text).unwrap_or(text.len())
}

/// The offset after the `n`th space-separated field of `line` (and the
/// spaces after it).
fn nth_space(line: &[u8], n: usize) -> usize {
    let mut pos = 0;
    for _ in 0..n {
        match memchr::memchr(b' ', &line[pos..]) {
            Some(i) => pos += i + 1,
            None => return line.len(),
        }
        while line.get(pos) == Some(&b' ') {
            pos += 1;
        }
    }
    pos
}

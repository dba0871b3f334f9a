//! The record worker: judges the records of a chunk (their URLs found by
//! format), and writes each back with its verdicts, or keeps or drops it.

use std::io;

use super::chunks::invalid;
use super::own::OwnScratch;
use super::{access_log, chunks, json};
use super::{RecordFormat, Records, ERROR, UNKNOWN};
use super::{USAGE_FIELDS, USAGE_LINE_FIELDS};
use crate::batch::{ChunkWorker, Stats};
use crate::crawl::{
    all_allowed, CrawlJudge, CrawlReason, CrawlScratch, CrawlVerdict,
};
use crate::matcher::{Matcher, Scratch, Verdict};
use crate::output::{push_csv_field, push_json_string, push_tsv_field};
use crate::time::Timestamp;
use crate::usage::{Category, Usage, UsagePrefs};

/// `line` without its `\n` or `\r\n`.
pub(super) fn trim_line_end(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// The fields of one CSV or TSV record (with or without its line end).
pub(super) fn split_record(
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
pub(super) fn tsv_url(
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
pub(super) fn push_value(
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
pub(super) enum Value<'a> {
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
    pub(super) fn resolve(self, texts: &'a [u8]) -> Value<'a> {
        match self {
            Value::Copied(s, e) => Value::Text(&texts[s..e]),
            v => v,
        }
    }
}

/// A worker thread's state: judges and writes the records of a chunk.
pub(super) struct RecordWorker<'r, 'm> {
    pub(super) records: &'r Records<'m>,
    /// The URL's column (CSV, TSV).
    pub(super) column: usize,
    /// The number of columns of the header (CSV, TSV).
    pub(super) width: usize,
    /// The CSV or TSV delimiter; 0 for the other formats.
    pub(super) delimiter: u8,
    pub(super) scratches: Vec<Scratch>,
    pub(super) verdicts: Vec<Verdict>,
    pub(super) values: Vec<Value<'m>>,
    /// Access logs: the group of the line just judged.
    pub(super) own: OwnScratch,
    pub(super) quoter: csv_core::Writer,
    /// Crawl-log mode: the judge's scratch and the verdicts just given.
    pub(super) crawl: Option<CrawlScratch>,
    pub(super) crawl_verdicts: Vec<CrawlVerdict>,
    /// The texts of [`Value::Copied`] values.
    pub(super) texts: Vec<u8>,
    pub(super) usage: WorkerUsage,
    /// With `-c`: `[allowed, disallowed, unknown]` per agent.
    pub(super) tally: Vec<u64>,
    /// The CSV or TSV column of the fetch time (see
    /// [`Records::at_fetch_time`]).
    pub(super) time_column: usize,
    /// The fetch time of the record about to be judged, when the records
    /// are judged at theirs.
    pub(super) at: Option<Timestamp>,
}

impl<'r, 'm> RecordWorker<'r, 'm> {
    /// A worker for `records`, `delimiter` separating CSV or TSV fields
    /// (0 for the other formats).
    pub(super) fn new(
        records: &'r Records<'m>,
        delimiter: u8,
    ) -> RecordWorker<'r, 'm> {
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
            time_column: 0,
            at: None,
        }
    }
}

/// A worker thread's state for the usage fields.
#[derive(Debug, Default)]
pub(super) struct WorkerUsage {
    /// The path of the record just judged, extracted and normalised.
    pub(super) path: Vec<u8>,
    /// Per agent, the preferences for the record just judged (`None`
    /// where the agent may not fetch it).
    pub(super) prefs: Vec<Option<UsagePrefs>>,
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
                let (column, width) = (self.time_column, self.width);
                let url = self.timed(url, || {
                    let field = tsv_url(record, column, width)?;
                    field_time(field)
                });
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
            #[allow(clippy::type_complexity)]
            let mut found: Vec<(
                usize,
                Result<Vec<u8>, &'static str>,
                Result<Timestamp, &'static str>,
            )> = vec![];
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
                let time = match self.is_timed() {
                    true => fields
                        .get(self.time_column)
                        .ok_or(WIDTH)
                        .and_then(field_time),
                    false => Err(WIDTH),
                };
                found.push((start, url, time));
            }
            for i in 0..found.len() {
                let end = found.get(i + 1).map_or(chunk.len(), |f| f.0);
                let (start, ref url, time) = found[i];
                let url = url.as_deref().map_err(|&why| why);
                let url = self.timed(url, || time);
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

/// The time of a CDXJ line's `surt timestamp ` prefix.
fn cdxj_time(prefix: &[u8]) -> Result<Timestamp, &'static str> {
    let mut fields = prefix.split(|&b| b == b' ').filter(|f| !f.is_empty());
    let stamp = fields.nth(1).ok_or(NO_CDXJ_TIME)?;
    let stamp = std::str::from_utf8(stamp).map_err(|_| NO_CDXJ_TIME)?;
    Timestamp::parse(stamp).ok_or(NO_CDXJ_TIME)
}

/// A CDXJ line whose second field is no timestamp.
pub(super) const NO_CDXJ_TIME: &str = "the CDXJ timestamp is not a date";

/// The fetch time in a CSV or TSV field.
pub(super) fn field_time(field: &[u8]) -> Result<Timestamp, &'static str> {
    let text = std::str::from_utf8(field).map_err(|_| json::NOT_TIME)?;
    match text.trim() {
        "" => Err(json::NO_TIME),
        text => Timestamp::parse(text).ok_or(json::NOT_TIME),
    }
}

/// A CSV or TSV record whose fields the header does not name.
pub(super) const WIDTH: &str = "not as many fields as the header";
/// A CDXJ line without its JSON.
pub(super) const NO_CDXJ_JSON: &str =
    "no JSON after the SURT key and timestamp";

impl<'m> RecordWorker<'_, 'm> {
    /// When records are judged at their fetch time, keeps `time` for the
    /// record about to be judged, and makes one without a time a bad
    /// record: `url` becomes why.
    pub(super) fn timed<'u>(
        &mut self,
        url: Result<&'u [u8], &'static str>,
        time: impl FnOnce() -> Result<Timestamp, &'static str>,
    ) -> Result<&'u [u8], &'static str> {
        if self.records.time_field.is_none() {
            return url;
        }
        self.at = None;
        let url = url?;
        let at = time()?;
        self.at = Some(at);
        Ok(url)
    }

    /// Whether records are judged at their fetch time.
    pub(super) fn is_timed(&self) -> bool {
        self.records.time_field.is_some()
    }

    /// Judges and writes a line of the line formats (with its line end).
    pub(super) fn line(
        &mut self,
        record: &[u8],
        stats: &mut Stats,
        out: &mut Vec<u8>,
    ) {
        let text = trim_line_end(record);
        let added = &self.records.columns;
        match self.records.format {
            RecordFormat::Jsonl => {
                let time = self.records.time_field.as_deref().unwrap_or(&[]);
                let found = json::find_timed(
                    text,
                    &self.records.url_field,
                    time,
                    added,
                );
                let time =
                    found.as_ref().map_or(Err(json::NO_TIME), |f| f.time);
                self.json(record, b"", text, found, time, stats, out);
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
                let time = cdxj_time(prefix);
                self.json(record, prefix, json, found, time, stats, out);
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
            RecordFormat::Sitemap | RecordFormat::LlmsTxt => {
                self.sitemap_line(record, stats, out);
            }
            _ => {}
        }
    }

    /// Judges a JSON record (after `prefix`, for CDXJ), fetched at
    /// `time` if it says, and writes it.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn json(
        &mut self,
        record: &[u8],
        prefix: &[u8],
        text: &[u8],
        found: Result<json::Found<'_>, &'static str>,
        time: Result<Timestamp, &'static str>,
        stats: &mut Stats,
        out: &mut Vec<u8>,
    ) {
        let (url, fields) = match found {
            Ok(f) if f.clash => (Err(CLASH), None),
            Ok(f) => (f.url, Some(f.fields)),
            Err(why) => (Err(why), None),
        };
        let url = url.as_deref().map(str::as_bytes).map_err(|&why| why);
        let url = self.timed(url, || time);
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
    pub(super) fn one(
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
    pub(super) fn access_line(
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
    pub(super) fn push_usage_log_fields(
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
    pub(super) fn own_verdict(
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
    pub(super) fn judge(
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
    pub(super) fn judge_crawl(
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
                for i in 0..judge.agents().len() {
                    stats.count_verdict(None);
                    self.count(i, None);
                }
                return None;
            }
        };
        let Some(scratch) = self.crawl.as_mut() else {
            unreachable!("a crawl-log worker has a crawl scratch");
        };
        match (self.records.time_field.is_some(), self.at) {
            (true, Some(at)) => {
                judge.verdicts_at(url, at, scratch, &mut self.crawl_verdicts)
            }
            _ => judge.verdicts(url, scratch, &mut self.crawl_verdicts),
        }
        for i in 0..self.crawl_verdicts.len() {
            let allowed = self.crawl_verdicts[i].allowed();
            stats.count_verdict(allowed);
            self.count(i, allowed);
        }
        let all = all_allowed(&self.crawl_verdicts);
        stats.undecided += u64::from(all.is_none());
        all
    }

    /// The values of the verdict fields (all but `robots_error`) of the
    /// record just judged: from its verdicts when `judged` (it had a URL),
    /// else `unknown`.
    pub(super) fn fill_values(&mut self, judged: bool) {
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
    pub(super) fn fill_crawl_values(
        &mut self,
        judge: &'m CrawlJudge,
        judged: bool,
    ) {
        self.texts.clear();
        let explain = self.records.explain;
        for a in 0..judge.agents().len() {
            let Some(&v) = self.crawl_verdicts.get(a).filter(|_| judged)
            else {
                self.values.push(Value::Text(UNKNOWN));
                let nothing = if explain { 5 } else { 1 };
                self.values
                    .extend(std::iter::repeat_n(Value::Nothing, nothing));
                continue;
            };
            self.values.push(Value::Text(v.name().as_bytes()));
            let reason = judge.reason_name(v, self.at);
            self.values.push(Value::Text(reason.as_bytes()));
            if !explain {
                continue;
            }
            self.values.push(
                judge
                    .robots_of(v)
                    .map_or(Value::Nothing, |o| Value::Text(o.as_bytes())),
            );
            // The capture's date, copied as the rule's text is.
            match judge.capture_time(v) {
                Some(t) => {
                    let s = self.texts.len();
                    self.texts.extend_from_slice(t.to_string().as_bytes());
                    self.values.push(Value::Copied(s, self.texts.len()));
                }
                None => self.values.push(Value::Nothing),
            }
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
    pub(super) fn judge_usage(&mut self, url: &[u8]) {
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
    pub(super) fn push_usage_values(&mut self, prefs: Option<UsagePrefs>) {
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
    pub(super) fn own_prefs(
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
    pub(super) fn push_json_fields(
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
pub(super) const CLASH: &str = "has a field named like one robots-batch adds";

/// The texts of the explanation fields: line number, rule, group, reason.
pub(super) fn explain(m: &Matcher, verdict: Verdict) -> [String; 4] {
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
pub(super) fn push_record(out: &mut Vec<u8>, record: &[u8]) {
    out.extend_from_slice(record);
    if !record.ends_with(b"\n") {
        out.push(b'\n');
    }
}

/// Appends ` name="value"` to a log line, escaping `"` and `\` as Apache
/// does in its own quoted fields.
pub(super) fn push_log_field(out: &mut Vec<u8>, name: &[u8], value: &[u8]) {
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
pub(super) fn last_brace(text: &[u8]) -> usize {
    memchr::memrchr(b'}', text).unwrap_or(text.len())
}

/// The offset after the `n`th space-separated field of `line` (and the
/// spaces after it).
pub(super) fn nth_space(line: &[u8], n: usize) -> usize {
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

/*!
Output formats: how a line and its verdicts become bytes.

[`CsvRender`] writes RFC 4180 CSV (quoting as the csv crate does): one record per line,
the line's bytes exactly as read in the first field (quoted only when they
hold a comma, a quote, a CR or an LF; invalid UTF-8 and NUL bytes pass
through untouched), then one verdict (`allowed` or `disallowed`) per
matcher. It is the fastest renderer, and the command's default.

A [`Table`] renders the general case: several agents side by side
([`Layout::Wide`]) or one row per URL and agent ([`Layout::Long`]), the
reasons for each verdict ([`TableBuilder::explain`]), as CSV, TSV or JSON
lines ([`Format`]). Everything that does not depend on the URL (each
agent's cells, each rule's explanation) is rendered once when the table
is built, so that a row costs the URL's bytes and a few copies.

An [`EmitRender`] prints only the lines with one verdict, for pipelines,
and a [`CountRender`] only counts verdicts per matcher.
*/

use std::fmt;
use std::io;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::batch::{PlainLine, Render};
use crate::matcher::{Explanation, Matcher, Reason, Verdict};
use crate::rules::Rule;
use crate::url::block::{ShortLine, BLOCK};

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

    #[inline]
    fn field(&mut self, field: &[u8]) {
        push_csv_field(&mut self.quoter, &mut self.buf, field);
    }

    /// The verdict fields after a row's URL, and the row's end.
    ///
    /// Each field is copied as one fixed 16-byte block and the buffer cut
    /// back to the field's length: a copy of a known size is two moves, a
    /// copy of the field's own length a call to `memcpy`.
    #[inline]
    fn end_row(&mut self, verdicts: &[Verdict]) {
        for &verdict in verdicts {
            let field = VerdictField::of(verdict, false);
            let at = self.buf.len();
            self.buf.extend_from_slice(&field.block);
            self.buf.truncate(at + field.len);
        }
        self.buf.push(b'\n');
    }

    /// The row of a plain short line, from its block.
    ///
    /// The URL is copied as one fixed-size block and the buffer cut back,
    /// as the verdict fields are (see `end_row`): a copy of the URL's own
    /// length would be a call to `memcpy`. See docs/DESIGN.md, "The
    /// 64-byte block for short lines".
    #[inline]
    fn short_row(&mut self, line: ShortLine<'_>, verdicts: &[Verdict]) {
        let [verdict] = verdicts else {
            let at = self.buf.len();
            self.buf.extend_from_slice(line.block());
            self.buf.truncate(at + line.len());
            self.end_row(verdicts);
            return;
        };
        // The row of one verdict, the common case, is written with one
        // check for room and one update of the length: pushes would each
        // reload and store the buffer's length.
        let field = VerdictField::of(*verdict, true);
        let (at, n) = (self.buf.len(), line.len());
        let room = BLOCK + field.block.len();
        self.buf.reserve(room);
        // SAFETY: `reserve` made room for `room` bytes past `at`; the
        // copies write a block from `at` and a field block from `at + n`,
        // with `n` below `BLOCK` (every `ShortLine` is, as its
        // constructor checks), so both stay inside it, and neither source
        // overlaps the buffer. The length then covers the line and the
        // field, which the copies just wrote.
        unsafe {
            let dst = self.buf.as_mut_ptr().add(at);
            std::ptr::copy_nonoverlapping(line.block().as_ptr(), dst, BLOCK);
            std::ptr::copy_nonoverlapping(
                field.block.as_ptr(),
                dst.add(n),
                field.block.len(),
            );
            self.buf.set_len(at + n + field.len);
        }
    }
}

/// A verdict's CSV field, `,` and its name, in a block of a fixed size.
struct VerdictField {
    block: [u8; 16],
    /// The bytes of `block` that are the field.
    len: usize,
}

/// Each verdict's field, by whether it allows; then the same with the
/// row's end.
static VERDICT_FIELDS: [[VerdictField; 2]; 2] = [
    [VerdictField::new(false), VerdictField::new(true)],
    [VerdictField::last(false), VerdictField::last(true)],
];

impl VerdictField {
    /// The field of `verdict`, with the row's end after it when `last`.
    #[inline]
    fn of(verdict: Verdict, last: bool) -> &'static VerdictField {
        &VERDICT_FIELDS[usize::from(last)][usize::from(verdict.is_allowed())]
    }

    const fn new(allowed: bool) -> VerdictField {
        let name = Verdict::name_of(allowed).as_bytes();
        let mut block = [0u8; 16];
        block[0] = b',';
        let mut i = 0;
        while i < name.len() {
            block[1 + i] = name[i];
            i += 1;
        }
        VerdictField { block, len: 1 + name.len() }
    }

    /// The field, then the row's end.
    const fn last(allowed: bool) -> VerdictField {
        let VerdictField { mut block, len } = VerdictField::new(allowed);
        block[len] = b'\n';
        VerdictField { block, len: len + 1 }
    }
}

impl Render for CsvRender {
    #[inline]
    fn line(&mut self, url: &[u8], verdicts: &[Verdict]) -> io::Result<()> {
        self.field(url);
        self.end_row(verdicts);
        Ok(())
    }

    #[inline]
    fn plain_line(
        &mut self,
        line: PlainLine<'_>,
        verdicts: &[Verdict],
    ) -> io::Result<()> {
        match line.short() {
            Some(short) => self.short_row(short, verdicts),
            None => {
                self.buf.extend_from_slice(line.as_bytes());
                self.end_row(verdicts);
            }
        }
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

/// The syntax of a [`Table`]'s rows.
#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum Format {
    /// RFC 4180 CSV: fields holding a comma, a quote, a CR or an LF are
    /// quoted, other bytes pass through untouched. The default.
    #[default]
    Csv,
    /// Tab-separated values: a tab, a CR, an LF or a backslash inside a
    /// field is written `\t`, `\r`, `\n` or `\\`; other bytes pass
    /// through untouched.
    Tsv,
    /// One JSON object per line. JSON strings are Unicode: bytes that are
    /// not UTF-8 are written as U+FFFD.
    Jsonl,
}

/// How a [`Table`] lays out the verdicts of several agents.
#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum Layout {
    /// One verdict column named `verdict` (for one agent; with several it
    /// is [`Layout::Wide`]). The default.
    #[default]
    Single,
    /// One row per URL, one column per agent, named after it.
    Wide,
    /// One row per URL and agent: `url,agent,verdict`, the agents in the
    /// order given.
    Long,
}

/// Builds a [`Table`].
#[derive(Clone, Debug, Default)]
pub struct TableBuilder {
    format: Format,
    layout: Layout,
    explain: bool,
}

impl TableBuilder {
    /// CSV, [`Layout::Single`], no explanations.
    pub fn new() -> TableBuilder {
        TableBuilder::default()
    }

    /// The rows' syntax (default [`Format::Csv`]).
    pub fn format(&mut self, format: Format) -> &mut TableBuilder {
        self.format = format;
        self
    }

    /// The layout (default [`Layout::Single`]).
    pub fn layout(&mut self, layout: Layout) -> &mut TableBuilder {
        self.layout = layout;
        self
    }

    /// Whether each verdict comes with its reason (default no): the
    /// deciding rule's `line` number and its `rule` text as written, the
    /// `group` it came from (the agent token as the robots.txt wrote it, or
    /// `*`; empty when no group applies) and the `reason` (see
    /// [`Reason::name`]). It costs one more copy per verdict: every
    /// explanation is rendered when the table is built.
    pub fn explain(&mut self, yes: bool) -> &mut TableBuilder {
        self.explain = yes;
        self
    }

    /// Renders, once, everything the rows need: `agents[i]` names the
    /// agent of `matchers[i]`.
    pub fn build(&self, agents: &[&str], matchers: &[Matcher]) -> Table {
        assert_eq!(agents.len(), matchers.len(), "one agent per matcher");
        let format = self.format;
        let layout = match self.layout {
            Layout::Single if matchers.len() > 1 => Layout::Wide,
            layout => layout,
        };
        let explain = self.explain;
        // The columns of each agent's part of a row.
        let mut columns = vec![];
        if layout == Layout::Long {
            columns.push(Column::Agent);
        }
        columns.push(Column::Verdict);
        if explain {
            columns.extend(EXPLAINED);
        }
        let rows = Rows { format, columns };
        let header = match layout {
            Layout::Single | Layout::Long => rows.header(),
            Layout::Wide => {
                let mut names = vec!["url".to_string()];
                for agent in agents {
                    names.push(agent.to_string());
                    if explain {
                        names.extend(
                            EXPLAINED
                                .iter()
                                .map(|c| format!("{agent}.{}", c.name())),
                        );
                    }
                }
                header_of(format, names.iter().map(String::as_str))
            }
        };

        let (row_start, url_end, row_end): (&[u8], &[u8], &[u8]) =
            match (format, layout) {
                (Format::Jsonl, Layout::Wide) => {
                    (b"{\"url\":", b",\"verdicts\":{", b"}}\n")
                }
                (Format::Jsonl, _) => (b"{\"url\":", b"", b"}\n"),
                _ => (b"", b"", b"\n"),
            };
        let cells = matchers
            .iter()
            .zip(agents)
            .enumerate()
            .map(|(i, (m, agent))| {
                // The verdicts in the order of `Table::cell`'s keys;
                // without explanations only whether each allows counts.
                let keys: Vec<(bool, Reason)> =
                    if explain {
                        let mut keys = vec![
                            (true, Reason::NoMatchingRule),
                            (true, Reason::NoGroup),
                            (true, Reason::ImplicitRobotsTxt),
                        ];
                        keys.extend(m.rules().iter().enumerate().map(
                            |(k, r)| (r.is_allow(), Reason::Rule(k as u32)),
                        ));
                        keys
                    } else {
                        vec![
                            (true, Reason::NoMatchingRule),
                            (false, Reason::NoMatchingRule),
                        ]
                    };
                keys.into_iter()
                    .map(|(allowed, reason)| {
                        let why = m.explain(reason);
                        let cell = Cell::explained(agent, allowed, why);
                        render_cell(&rows, layout, i == 0, &cell)
                    })
                    .collect()
            })
            .collect();
        Table {
            format,
            long: layout == Layout::Long,
            explain,
            header,
            row_start: row_start.to_vec(),
            url_end: url_end.to_vec(),
            row_end: row_end.to_vec(),
            cells,
        }
    }
}

/// Renders one agent's part of a table's rows: everything after the URL
/// (and the row's `url_end`) that belongs to that agent.
fn render_cell(
    rows: &Rows,
    layout: Layout,
    first: bool,
    cell: &Cell<'_>,
) -> Vec<u8> {
    let mut out = vec![];
    if (rows.format, layout) != (Format::Jsonl, Layout::Wide) {
        rows.push_cell(&mut out, cell);
        return out;
    }
    // A member of the row's `verdicts`: `"agent":"verdict"`, or with the
    // explanation `"agent":{"verdict":...}`.
    if !first {
        out.push(b',');
    }
    push_json_string(&mut out, cell.agent.as_bytes());
    out.push(b':');
    if rows.columns != [Column::Verdict] {
        rows.push_object(&mut out, cell);
    } else {
        push_json_string(&mut out, cell.verdict.as_bytes());
    }
    out
}

/// A column of a row, after its URL. Every table, and crawl mode's rows,
/// are made of these, so that each value is written one way in each
/// [`Format`] (by [`Cell::push`]).
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub(crate) enum Column {
    /// The agent's name.
    Agent,
    /// `allowed`, `disallowed` or (crawl mode) `unknown`.
    Verdict,
    /// The deciding rule's line number.
    Line,
    /// The deciding rule as written.
    Rule,
    /// The group the rules came from.
    Group,
    /// The reason's name.
    Reason,
    /// Crawl mode: the origin or host whose fetch decided.
    Robots,
}

impl Column {
    /// The column's name in headers, and its member's name in JSON
    /// objects (there a literal in [`Cell::push`]).
    fn name(self) -> &'static str {
        match self {
            Column::Agent => "agent",
            Column::Verdict => "verdict",
            Column::Line => "line",
            Column::Rule => "rule",
            Column::Group => "group",
            Column::Reason => "reason",
            Column::Robots => "robots",
        }
    }
}

/// The columns that `--explain` adds after each verdict of a table.
const EXPLAINED: [Column; 4] =
    [Column::Line, Column::Rule, Column::Group, Column::Reason];

/// One agent's part of a row: the value of each [`Column`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cell<'a> {
    pub(crate) agent: &'a str,
    pub(crate) verdict: &'static str,
    pub(crate) reason: &'static str,
    pub(crate) line: Option<u32>,
    pub(crate) rule: Option<&'a [u8]>,
    pub(crate) group: Option<&'a [u8]>,
    pub(crate) robots: Option<&'a str>,
}

impl<'a> Cell<'a> {
    /// A matcher's verdict for `agent`, allowed or not, and why.
    fn explained(
        agent: &'a str,
        allowed: bool,
        why: Explanation<'a>,
    ) -> Cell<'a> {
        Cell {
            agent,
            verdict: Verdict::name_of(allowed),
            reason: why.reason().name(),
            line: why.rule().map(Rule::line),
            rule: why.rule().map(Rule::text),
            group: why.group(),
            robots: None,
        }
    }

    /// Appends `column`: a separator, or for JSON the member's name
    /// (`,"name":`), then the value as `format` writes it: text as a field
    /// or a JSON string, a name (a plain word) and a number as they are,
    /// the name in quotes for JSON, and a missing value as an empty field
    /// or `null`.
    #[inline]
    fn push(&self, format: Format, out: &mut Vec<u8>, column: Column) {
        let jsonl = format == Format::Jsonl;
        // Each member's name is a literal, so that its copy is of a known
        // size rather than a call.
        let text = match column {
            Column::Agent => {
                start_column(format, out, b",\"agent\":");
                Some(self.agent.as_bytes())
            }
            Column::Rule => {
                start_column(format, out, b",\"rule\":");
                self.rule
            }
            Column::Group => {
                start_column(format, out, b",\"group\":");
                self.group
            }
            Column::Robots => {
                start_column(format, out, b",\"robots\":");
                self.robots.map(str::as_bytes)
            }
            Column::Verdict | Column::Reason => {
                let name = if column == Column::Verdict {
                    start_column(format, out, b",\"verdict\":");
                    self.verdict
                } else {
                    start_column(format, out, b",\"reason\":");
                    self.reason
                };
                if jsonl {
                    out.push(b'"');
                }
                out.extend_from_slice(name.as_bytes());
                if jsonl {
                    out.push(b'"');
                }
                return;
            }
            Column::Line => {
                start_column(format, out, b",\"line\":");
                match self.line {
                    Some(n) => push_number(out, n),
                    None if jsonl => out.extend_from_slice(b"null"),
                    None => {}
                }
                return;
            }
        };
        match text {
            Some(text) if jsonl => push_json_string(out, text),
            Some(text) => push_field(format, out, text),
            None if jsonl => out.extend_from_slice(b"null"),
            None => {}
        }
    }
}

/// Starts a column: its separator, or for JSON its `member` of the row's
/// object.
#[inline]
fn start_column<const N: usize>(
    format: Format,
    out: &mut Vec<u8>,
    member: &[u8; N],
) {
    if format == Format::Jsonl {
        out.extend_from_slice(member);
    } else {
        out.push(separator(format));
    }
}

/// Rows of one verdict each: the URL, then a [`Cell`]'s `columns`.
#[derive(Clone, Debug)]
pub(crate) struct Rows {
    format: Format,
    columns: Vec<Column>,
}

impl Rows {
    /// The header line: `url` and the columns' names (empty for JSON
    /// Lines, which has none).
    pub(crate) fn header(&self) -> Vec<u8> {
        let names = self.columns.iter().map(|c| c.name());
        header_of(self.format, std::iter::once("url").chain(names))
    }

    /// Appends `cell`'s columns: each after a separator, or each as a
    /// member `,"name":value` of the row's JSON object.
    #[inline]
    fn push_cell(&self, out: &mut Vec<u8>, cell: &Cell<'_>) {
        for &column in &self.columns {
            cell.push(self.format, out, column);
        }
    }

    /// JSON Lines: appends `cell`'s columns as an object of their own.
    fn push_object(&self, out: &mut Vec<u8>, cell: &Cell<'_>) {
        debug_assert_eq!(self.format, Format::Jsonl);
        out.push(b'{');
        let at = out.len();
        self.push_cell(out, cell);
        // The first member's comma.
        out.remove(at);
        out.push(b'}');
    }
}

/// Crawl mode's rows, one per URL and agent: `url,verdict,reason`, with
/// `agent` after the URL when there are several agents, and with
/// `explain` the deciding fetch and rule, `robots,line,rule`.
///
/// A row's agent, verdict and reason (its head) take few values: each head
/// is rendered the first time it comes and copied after, as a table's
/// cells are. The URL and the explanation are rendered per row.
#[derive(Clone, Debug)]
pub(crate) struct CrawlRows {
    head: Rows,
    tail: Rows,
    /// The heads rendered so far, by their callers' keys (empty: not yet).
    heads: Vec<Vec<u8>>,
}

impl CrawlRows {
    /// Rows in `format`, with an `agent` column for `several` agents.
    pub(crate) fn new(format: Format, several: bool, explain: bool) -> Self {
        let mut head = vec![];
        if several {
            head.push(Column::Agent);
        }
        head.extend([Column::Verdict, Column::Reason]);
        let mut tail = vec![];
        if explain {
            tail.extend([Column::Robots, Column::Line, Column::Rule]);
        }
        CrawlRows {
            head: Rows { format, columns: head },
            tail: Rows { format, columns: tail },
            heads: vec![],
        }
    }

    /// The header line (empty for JSON Lines, which has none).
    pub(crate) fn header(&self) -> Vec<u8> {
        let columns = self.head.columns.iter().chain(&self.tail.columns);
        let names = columns.map(|c| c.name());
        header_of(self.head.format, std::iter::once("url").chain(names))
    }

    /// Appends the rows of `url`, one for each agent `a` below `agents`,
    /// each made of `cell(a)`. `key(a)` stands for that cell's head: the
    /// same small number (heads are kept in a vector) for the same agent,
    /// verdict and reason. `cell` is called only when a head is new or the
    /// rows explain. The URL is written as a field once, then copied.
    pub(crate) fn push_rows<'c>(
        &mut self,
        out: &mut Vec<u8>,
        url: &[u8],
        agents: usize,
        key: impl Fn(usize) -> usize,
        cell: impl Fn(usize) -> Cell<'c>,
    ) {
        let format = self.head.format;
        let jsonl = format == Format::Jsonl;
        let explain = !self.tail.columns.is_empty();
        let mut field = 0..0;
        for a in 0..agents {
            if jsonl {
                out.extend_from_slice(b"{\"url\":");
            }
            if a == 0 {
                let at = out.len();
                if jsonl {
                    push_json_string(out, url);
                } else {
                    push_field(format, out, url);
                }
                field = at..out.len();
            } else {
                out.extend_from_within(field.clone());
            }
            let key = key(a);
            if key >= self.heads.len() {
                self.heads.resize(key + 1, vec![]);
            }
            let head = &mut self.heads[key];
            if head.is_empty() || explain {
                let cell = cell(a);
                if head.is_empty() {
                    self.head.push_cell(head, &cell);
                }
                out.extend_from_slice(head);
                self.tail.push_cell(out, &cell);
            } else {
                out.extend_from_slice(head);
            }
            if jsonl {
                out.extend_from_slice(b"}\n");
            } else {
                out.push(b'\n');
            }
        }
    }
}

/// Appends `n` in decimal.
fn push_number(out: &mut Vec<u8>, mut n: u32) {
    let mut digits = [0u8; 10];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

/// A header line of `names` (empty for JSON Lines, which has none).
fn header_of<'n>(
    format: Format,
    names: impl IntoIterator<Item = &'n str>,
) -> Vec<u8> {
    let mut header = vec![];
    if format == Format::Jsonl {
        return header;
    }
    for (i, name) in names.into_iter().enumerate() {
        if i > 0 {
            header.push(separator(format));
        }
        push_field(format, &mut header, name.as_bytes());
    }
    header.push(b'\n');
    header
}

/// The explanation in words, as `check --explain` prints it: `line 3:
/// Disallow: /x; group *`, `no matching rule; group *`, `no group
/// applies` or `/robots.txt is always allowed`. Bytes that are not UTF-8
/// show as U+FFFD.
impl fmt::Display for Explanation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let group = String::from_utf8_lossy(self.group().unwrap_or_default());
        match (self.reason(), self.rule()) {
            (_, Some(rule)) => write!(
                f,
                "line {}: {}; group {group}",
                rule.line(),
                String::from_utf8_lossy(rule.text())
            ),
            // Only an index that is not the matcher's names no rule.
            (Reason::Rule(k), None) => write!(f, "rule {k}; group {group}"),
            (Reason::NoMatchingRule, None) => {
                write!(f, "no matching rule; group {group}")
            }
            (Reason::NoGroup, None) => f.write_str("no group applies"),
            (Reason::ImplicitRobotsTxt, None) => {
                f.write_str("/robots.txt is always allowed")
            }
        }
    }
}

pub(crate) fn separator(format: Format) -> u8 {
    if format == Format::Tsv {
        b'\t'
    } else {
        b','
    }
}

/// Appends `field` to `out` as `format` writes a field (CSV and TSV only).
pub(crate) fn push_field(format: Format, out: &mut Vec<u8>, field: &[u8]) {
    match format {
        // A csv-core writer builds a table when it is made, so it is made
        // only for the rare field that needs quotes (the same bytes
        // csv-core's default writer quotes for).
        Format::Csv => {
            if memchr::memchr3(b',', b'"', b'\n', field).is_none()
                && memchr::memchr(b'\r', field).is_none()
            {
                out.extend_from_slice(field);
            } else {
                push_csv_field(&mut csv_core::Writer::new(), out, field)
            }
        }
        Format::Tsv => push_tsv_field(out, field),
        Format::Jsonl => push_json_string(out, field),
    }
}

/// Appends `field`, quoted when csv-core says it needs quotes (it holds a
/// comma, a quote, a CR or an LF).
#[inline]
fn push_csv_field(
    quoter: &mut csv_core::Writer,
    buf: &mut Vec<u8>,
    field: &[u8],
) {
    // Almost every URL needs no quotes: copying it is cheaper than the csv
    // writer's byte-at-a-time state machine, and looking for the bytes that
    // need quotes eight at a time cheaper than its byte-at-a-time check.
    if !may_need_quotes(field) || !quoter.should_quote(field) {
        buf.extend_from_slice(field);
        return;
    }
    // Room for the worst case: every byte a doubled quote, the two
    // enclosing quotes and the delimiter that closes the field.
    let start = buf.len();
    buf.resize(start + 2 * field.len() + 3, 0);
    let room = &mut buf[start..];
    let (_, nin, n) = quoter.field(field, room);
    let (_, m) = quoter.delimiter(&mut room[n..]);
    debug_assert_eq!(nin, field.len());
    debug_assert_eq!(room[n + m - 1], b',');
    // The caller writes the delimiter, as for a plain field.
    buf.truncate(start + n + m - 1);
}

/// Whether `field` holds a byte that makes csv-core quote a field with the
/// default settings: a comma, a quote, a CR or an LF.
#[inline]
fn may_need_quotes(field: &[u8]) -> bool {
    use crate::swar::{equal, word};

    let mut words = field.chunks_exact(8);
    for w in &mut words {
        let w = word(w);
        if equal(w, b',') | equal(w, b'"') | equal(w, b'\r') | equal(w, b'\n')
            != 0
        {
            return true;
        }
    }
    words.remainder().iter().any(|&b| matches!(b, b',' | b'"' | b'\r' | b'\n'))
}

/// Appends `field` with its tabs, CRs, LFs and backslashes escaped.
#[inline]
fn push_tsv_field(buf: &mut Vec<u8>, field: &[u8]) {
    if memchr::memchr3(b'\t', b'\r', b'\\', field).is_none()
        && memchr::memchr(b'\n', field).is_none()
    {
        buf.extend_from_slice(field);
        return;
    }
    for &b in field {
        match b {
            b'\t' => buf.extend_from_slice(b"\\t"),
            b'\r' => buf.extend_from_slice(b"\\r"),
            b'\n' => buf.extend_from_slice(b"\\n"),
            b'\\' => buf.extend_from_slice(b"\\\\"),
            _ => buf.push(b),
        }
    }
}

/// Appends `bytes` as a JSON string; bytes that are not UTF-8 become
/// U+FFFD.
pub(crate) fn push_json_string(buf: &mut Vec<u8>, bytes: &[u8]) {
    buf.push(b'"');
    for chunk in bytes.utf8_chunks() {
        let valid = chunk.valid().as_bytes();
        let mut start = 0;
        for (i, &b) in valid.iter().enumerate() {
            let escape: &[u8] = match b {
                b'"' => b"\\\"",
                b'\\' => b"\\\\",
                b'\n' => b"\\n",
                b'\r' => b"\\r",
                b'\t' => b"\\t",
                0..=0x1F | 0x7F => b"",
                _ => continue,
            };
            buf.extend_from_slice(&valid[start..i]);
            if escape.is_empty() {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                buf.extend_from_slice(b"\\u00");
                buf.push(HEX[usize::from(b >> 4)]);
                buf.push(HEX[usize::from(b & 15)]);
            } else {
                buf.extend_from_slice(escape);
            }
            start = i + 1;
        }
        buf.extend_from_slice(&valid[start..]);
        if !chunk.invalid().is_empty() {
            buf.extend_from_slice("\u{FFFD}".as_bytes());
        }
    }
    buf.push(b'"');
}

/// The rendered parts of a table's rows: built once by [`TableBuilder`],
/// shared by every worker's [`TableRender`].
#[derive(Clone, Debug)]
pub struct Table {
    format: Format,
    long: bool,
    explain: bool,
    header: Vec<u8>,
    row_start: Vec<u8>,
    url_end: Vec<u8>,
    row_end: Vec<u8>,
    /// Per matcher, its cells: without explanations `[allowed,
    /// disallowed]`; with them `[no-matching-rule, no-group,
    /// implicit-robots-txt, rule 0, rule 1, ...]`.
    cells: Vec<Vec<Vec<u8>>>,
}

impl Table {
    /// The header line (empty for JSON lines, which need none).
    pub fn header(&self) -> &[u8] {
        &self.header
    }

    /// A renderer of rows, one per worker thread.
    pub fn render(&self) -> TableRender<'_> {
        TableRender {
            table: self,
            buf: vec![],
            url: vec![],
            quoter: csv_core::Writer::new(),
        }
    }

    #[inline]
    fn cell(&self, i: usize, verdict: Verdict) -> &[u8] {
        let key = if self.explain {
            match verdict.reason() {
                Reason::NoMatchingRule => 0,
                Reason::NoGroup => 1,
                Reason::ImplicitRobotsTxt => 2,
                Reason::Rule(k) => 3 + k as usize,
            }
        } else {
            usize::from(!verdict.is_allowed())
        };
        &self.cells[i][key]
    }
}

/// Renders the rows of a [`Table`].
#[derive(Debug)]
pub struct TableRender<'a> {
    table: &'a Table,
    buf: Vec<u8>,
    /// The URL as a field, for the long layout's repeated rows.
    url: Vec<u8>,
    quoter: csv_core::Writer,
}

impl Render for TableRender<'_> {
    #[inline]
    fn line(&mut self, url: &[u8], verdicts: &[Verdict]) -> io::Result<()> {
        let t = self.table;
        self.url.clear();
        match t.format {
            Format::Csv => {
                push_csv_field(&mut self.quoter, &mut self.url, url)
            }
            Format::Tsv => push_tsv_field(&mut self.url, url),
            Format::Jsonl => push_json_string(&mut self.url, url),
        }
        if t.long {
            for (i, &v) in verdicts.iter().enumerate() {
                self.buf.extend_from_slice(&t.row_start);
                self.buf.extend_from_slice(&self.url);
                self.buf.extend_from_slice(t.cell(i, v));
                self.buf.extend_from_slice(&t.row_end);
            }
            return Ok(());
        }
        self.buf.extend_from_slice(&t.row_start);
        self.buf.extend_from_slice(&self.url);
        self.buf.extend_from_slice(&t.url_end);
        for (i, &v) in verdicts.iter().enumerate() {
            self.buf.extend_from_slice(t.cell(i, v));
        }
        self.buf.extend_from_slice(&t.row_end);
        Ok(())
    }

    fn finish(&mut self, out: &mut Vec<u8>) -> io::Result<()> {
        out.clear();
        std::mem::swap(out, &mut self.buf);
        Ok(())
    }
}

/// Renders only the lines whose verdict is the one wanted, each as read
/// and followed by `\n`: a line is allowed when every matcher allows it,
/// disallowed when any disallows it.
#[derive(Debug)]
pub struct EmitRender {
    allowed: bool,
    buf: Vec<u8>,
}

impl EmitRender {
    /// Emits the allowed lines when `allowed`, else the disallowed ones.
    pub fn new(allowed: bool) -> EmitRender {
        EmitRender { allowed, buf: vec![] }
    }
}

impl Render for EmitRender {
    #[inline]
    fn line(&mut self, url: &[u8], verdicts: &[Verdict]) -> io::Result<()> {
        let allowed = verdicts.iter().all(|v| v.is_allowed());
        if allowed == self.allowed {
            self.buf.extend_from_slice(url);
            self.buf.push(b'\n');
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut Vec<u8>) -> io::Result<()> {
        out.clear();
        std::mem::swap(out, &mut self.buf);
        Ok(())
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    /// A cell with every value, some of them needing quotes.
    fn full_cell(agent: &str) -> Cell<'_> {
        Cell {
            agent,
            verdict: "disallowed",
            reason: "rule",
            line: Some(12),
            rule: Some(b"Disallow: /x,\"y\""),
            group: Some(b"*"),
            robots: Some("https://a.com"),
        }
    }

    /// Each column starts with its separator, or in JSON with its own
    /// name as a member: the names the headers show.
    #[test]
    fn columns_start_with_their_names() {
        let cell = full_cell("a");
        let columns = [
            Column::Agent,
            Column::Verdict,
            Column::Line,
            Column::Rule,
            Column::Group,
            Column::Reason,
            Column::Robots,
        ];
        for column in columns {
            let mut out = vec![];
            cell.push(Format::Jsonl, &mut out, column);
            let member = format!(",\"{}\":", column.name());
            assert!(out.starts_with(member.as_bytes()), "{column:?}");
            for (format, sep) in [(Format::Csv, b','), (Format::Tsv, b'\t')] {
                out.clear();
                cell.push(format, &mut out, column);
                assert_eq!(out[0], sep, "{column:?}");
            }
        }
    }

    /// Crawl rows copy each head after its first rendering, and the URL
    /// for every agent after the first: the rows are those rendered anew.
    #[test]
    fn crawl_rows_copy_what_they_render() {
        let unknown = Cell {
            verdict: "unknown",
            reason: "no-host",
            line: None,
            rule: None,
            robots: None,
            ..full_cell("b")
        };
        let cells = [full_cell("a"), unknown];
        let url = b"/u,\"v\"";
        for format in [Format::Csv, Format::Tsv, Format::Jsonl] {
            for explain in [false, true] {
                let mut rows = CrawlRows::new(format, true, explain);
                let mut twice = vec![];
                for _ in 0..2 {
                    rows.push_rows(&mut twice, url, 2, |a| a, |a| cells[a]);
                }
                let mut once = vec![];
                let mut fresh = CrawlRows::new(format, true, explain);
                fresh.push_rows(&mut once, url, 2, |a| a, |a| cells[a]);
                assert_eq!(twice, [&once[..], &once[..]].concat());
            }
        }
        let mut out = CrawlRows::new(Format::Csv, true, true).header();
        let mut rows = CrawlRows::new(Format::Csv, true, true);
        rows.push_rows(&mut out, url, 2, |a| a, |a| cells[a]);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "url,agent,verdict,reason,robots,line,rule\n\
             \"/u,\"\"v\"\"\",a,disallowed,rule,https://a.com,12,\
             \"Disallow: /x,\"\"y\"\"\"\n\
             \"/u,\"\"v\"\"\",b,unknown,no-host,,,\n"
        );
        let mut out = vec![];
        let mut rows = CrawlRows::new(Format::Jsonl, false, true);
        rows.push_rows(&mut out, url, 1, |_| 0, |_| cells[1]);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"url\":\"/u,\\\"v\\\"\",\"verdict\":\"unknown\",\
             \"reason\":\"no-host\",\"robots\":null,\"line\":null,\
             \"rule\":null}\n"
        );
    }

    /// The word-at-a-time check finds what csv-core would quote for, at
    /// every position of words and remainders, for every byte.
    #[test]
    fn quote_check_agrees_with_csv_core() {
        let quoter = csv_core::Writer::new();
        let mut checked = 0;
        for b in 0..=255u8 {
            for len in [1, 7, 8, 9, 16, 23] {
                for at in 0..len {
                    let mut field = vec![b'a'; len];
                    field[at] = b;
                    assert_eq!(
                        may_need_quotes(&field),
                        quoter.should_quote(&field),
                        "byte {b} at {at} of {len}"
                    );
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 256 * (1 + 7 + 8 + 9 + 16 + 23));
        assert!(!may_need_quotes(b""));
    }

    /// A plain line's row is the same whichever way it comes: from its
    /// block or its bytes, with one verdict or several, and it is
    /// the row the csv crate writes.
    #[test]
    fn rows_from_blocks_are_the_rows_of_lines() {
        let robots = crate::Robots::parse(b"User-agent: *\nDisallow: /d\n");
        let m = crate::Matcher::new(&robots, "a", crate::Dialect::Rfc9309);
        let mut scratch = m.scratch();
        let mut verdict = |allowed: bool| {
            let url: &[u8] = if allowed { b"/a" } else { b"/d" };
            let v = m.verdict(url, &mut scratch);
            assert_eq!(v.is_allowed(), allowed);
            v
        };
        let input: Vec<u8> =
            (0..2 * BLOCK).map(|i| b'a' + i as u8 % 26).collect();
        // (A row always has a verdict: there is always a matcher.)
        let lists: [&[Verdict]; 4] = [
            &[verdict(true)],
            &[verdict(false)],
            &[verdict(true), verdict(false)],
            &[verdict(false), verdict(false), verdict(true)],
        ];
        for len in 0..BLOCK {
            let url = &input[..len];
            let short = ShortLine::new(&input, 0, len).unwrap();
            for verdicts in lists {
                let (mut by_block, mut by_line) =
                    (CsvRender::new(), CsvRender::new());
                // Rows already in the buffer stay as they were.
                by_block.line(b"x", verdicts).unwrap();
                by_line.line(b"x", verdicts).unwrap();
                by_block.short_row(short, verdicts);
                by_line.line(url, verdicts).unwrap();
                let mut wtr = csv::Writer::from_writer(vec![]);
                for u in [&b"x"[..], url] {
                    let mut record = vec![u.to_vec()];
                    record.extend(
                        verdicts.iter().map(|v| v.name().as_bytes().to_vec()),
                    );
                    wtr.write_record(&record).unwrap();
                }
                let want = wtr.into_inner().unwrap();
                assert_eq!(by_block.buf, want, "{len} {verdicts:?}");
                assert_eq!(by_line.buf, want, "{len} {verdicts:?}");
            }
        }
    }
}

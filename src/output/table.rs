//! Tables: several agents' verdicts side by side or one row each, with
//! their reasons.

use std::io;

use super::fields::{push_csv_field, push_json_string, push_tsv_field};
use super::format::{Format, Layout};
use super::rows::{
    header_of, push_usage, usage_names, Cell, Column, Rows, EXPLAINED,
};
use crate::batch::Render;
use crate::matcher::{Matcher, Reason, Verdict};
use crate::usage::{Usage, UsagePrefs};

/// Builds a [`Table`].
#[derive(Clone, Debug, Default)]
pub struct TableBuilder {
    format: Format,
    layout: Layout,
    explain: bool,
    usage: Option<Vec<Usage>>,
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

    /// Adds the AI usage preferences of each agent (`usage[i]` for the
    /// agent of `matchers[i]`; default none): after each verdict (and its
    /// explanation), a column per [`Category`](crate::usage::Category),
    /// `train-ai`, `search` and `ai-input`, each `allowed`, `disallowed`
    /// or `unknown`, and empty (`null` in JSON) when the URL may not be
    /// fetched; with [`TableBuilder::explain`], then the deciding line of
    /// each (`train-ai-line`...). It costs, per URL, the path's extraction
    /// and a match of each agent's few usage lines.
    pub fn usage(&mut self, usage: Vec<Usage>) -> &mut TableBuilder {
        self.usage = Some(usage);
        self
    }

    /// Renders, once, everything the rows need: `agents[i]` names the
    /// agent of `matchers[i]`.
    pub fn build(&self, agents: &[&str], matchers: &[Matcher]) -> Table {
        assert_eq!(agents.len(), matchers.len(), "one agent per matcher");
        if let Some(ref usage) = self.usage {
            assert_eq!(usage.len(), matchers.len(), "one usage per matcher");
        }
        let with_usage = self.usage.is_some();
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
        let usage_names =
            if with_usage { usage_names(explain) } else { vec![] };
        let header = match layout {
            Layout::Single | Layout::Long => {
                let names = rows.columns.iter().map(|c| c.name());
                let names = names.chain(usage_names.iter().copied());
                header_of(format, std::iter::once("url").chain(names))
            }
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
                    names.extend(
                        usage_names.iter().map(|n| format!("{agent}.{n}")),
                    );
                }
                header_of(format, names.iter().map(String::as_str))
            }
        };
        // JSON's wide rows hold each agent's part as an object; with usage
        // its members follow the pre-rendered ones, so the object is closed
        // after them.
        let open_object =
            with_usage && (format, layout) == (Format::Jsonl, Layout::Wide);

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
                        keys.extend(m.rules().enumerate().map(|(k, r)| {
                            (r.is_allow(), Reason::Rule(k as u32))
                        }));
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
                        let mut out = render_cell(
                            &rows,
                            layout,
                            i == 0,
                            &cell,
                            open_object,
                        );
                        if open_object {
                            out.pop();
                        }
                        out
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
            usage: self.usage.clone().map(|usages| TableUsage {
                usages,
                explain,
                open_object,
            }),
        }
    }
}

/// What a table needs to add the usage columns to its rows.
#[derive(Clone, Debug)]
struct TableUsage {
    /// One per matcher.
    usages: Vec<Usage>,
    /// Whether the deciding lines are written too.
    explain: bool,
    /// Whether each agent's pre-rendered part is an object left open.
    open_object: bool,
}

/// Renders one agent's part of a table's rows: everything after the URL
/// (and the row's `url_end`) that belongs to that agent.
fn render_cell(
    rows: &Rows,
    layout: Layout,
    first: bool,
    cell: &Cell<'_>,
    object: bool,
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
    if object || rows.columns != [Column::Verdict] {
        rows.push_object(&mut out, cell);
    } else {
        push_json_string(&mut out, cell.verdict.as_bytes());
    }
    out
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
    usage: Option<TableUsage>,
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
            path: vec![],
            prefs: vec![],
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
    /// With usage: the line's path, and each agent's preferences (`None`
    /// when it may not fetch the URL).
    path: Vec<u8>,
    prefs: Vec<Option<UsagePrefs>>,
}

impl TableRender<'_> {
    /// Finds each agent's usage preferences for `url`, when the table has
    /// usage columns.
    fn find_prefs(&mut self, url: &[u8], verdicts: &[Verdict]) {
        let Some(ref usage) = self.table.usage else { return };
        self.prefs.clear();
        // The path is found once per row for the first agent's dialect,
        // which in the command is every agent's.
        let mut buf = std::mem::take(&mut self.path);
        let first = usage.usages.first().map(Usage::dialect);
        let path = first.map(|d| d.path(url, &mut buf)).unwrap_or_default();
        let mut other = vec![];
        for (u, v) in usage.usages.iter().zip(verdicts) {
            if !v.is_allowed() {
                self.prefs.push(None);
                continue;
            }
            let path = if Some(u.dialect()) == first {
                path
            } else {
                u.dialect().path(url, &mut other)
            };
            self.prefs.push(Some(u.prefs(path)));
        }
        self.path = buf;
    }

    /// Appends agent `i`'s usage columns, if the table has them.
    #[inline]
    fn push_usage(&mut self, i: usize) {
        let t = self.table;
        if let Some(ref usage) = t.usage {
            let prefs = self.prefs[i].as_ref();
            push_usage(t.format, &mut self.buf, prefs, usage.explain);
            if usage.open_object {
                self.buf.push(b'}');
            }
        }
    }
}

impl Render for TableRender<'_> {
    #[inline]
    fn line(&mut self, url: &[u8], verdicts: &[Verdict]) -> io::Result<()> {
        let t = self.table;
        self.find_prefs(url, verdicts);
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
                self.push_usage(i);
                self.buf.extend_from_slice(&t.row_end);
            }
            return Ok(());
        }
        self.buf.extend_from_slice(&t.row_start);
        self.buf.extend_from_slice(&self.url);
        self.buf.extend_from_slice(&t.url_end);
        for (i, &v) in verdicts.iter().enumerate() {
            self.buf.extend_from_slice(t.cell(i, v));
            self.push_usage(i);
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

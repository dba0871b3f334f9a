//! Tables: several agents' verdicts side by side or one row each, with
//! their reasons.

use std::io;

use super::fields::{push_csv_field, push_json_string, push_tsv_field};
use super::format::{Format, Layout};
use super::rows::{header_of, Cell, Column, Rows, EXPLAINED};
use crate::batch::Render;
use crate::matcher::{Matcher, Reason, Verdict};

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

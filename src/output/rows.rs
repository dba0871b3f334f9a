//! Columns, cells and rows: the parts of a table's rows and of crawl
//! mode's rows.

use super::fields::{push_field, push_json_string, push_number, separator};
use super::format::Format;
use crate::matcher::{Explanation, Verdict};
use crate::time::Timestamp;
use crate::usage::{Category, UsagePrefs};

/// A column of a row, after its URL. Every table, and crawl mode's rows,
/// are made of these, so that each value is written one way in each
/// [`Format`] (by [`Cell::push`]).
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub(super) enum Column {
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
    /// Crawl mode: when the capture that decided was made.
    Capture,
}

impl Column {
    /// The column's name in headers, and its member's name in JSON
    /// objects (there a literal in [`Cell::push`]).
    pub(super) fn name(self) -> &'static str {
        match self {
            Column::Agent => "agent",
            Column::Verdict => "verdict",
            Column::Line => "line",
            Column::Rule => "rule",
            Column::Group => "group",
            Column::Reason => "reason",
            Column::Robots => "robots",
            Column::Capture => "capture",
        }
    }
}

/// The columns that `--explain` adds after each verdict of a table.
pub(super) const EXPLAINED: [Column; 4] =
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
    pub(crate) capture: Option<Timestamp>,
}

impl<'a> Cell<'a> {
    /// A matcher's verdict for `agent`, allowed or not, and why.
    pub(super) fn explained(
        agent: &'a str,
        allowed: bool,
        why: Explanation<'a>,
    ) -> Cell<'a> {
        Cell {
            agent,
            verdict: Verdict::name_of(allowed),
            reason: why.reason().name(),
            line: why.rule().map(|r| r.line()),
            rule: why.rule().map(|r| r.text()),
            group: why.group(),
            robots: None,
            capture: None,
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
            Column::Capture => {
                start_column(format, out, b",\"capture\":");
                // RFC 3339 needs neither quotes nor escapes.
                match self.capture {
                    Some(t) if jsonl => {
                        out.extend_from_slice(format!("\"{t}\"").as_bytes())
                    }
                    Some(t) => out.extend_from_slice(t.to_string().as_bytes()),
                    None if jsonl => out.extend_from_slice(b"null"),
                    None => {}
                }
                return;
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

/// The names of the deciding-line columns of the usage preferences, in
/// the order of [`Category::ALL`].
const USAGE_LINE_NAMES: [&str; 3] =
    ["train-ai-line", "search-line", "ai-input-line"];

/// The names of the usage columns (`--usage`): one per category, then
/// with `explain` the deciding line of each (`train-ai-line`...).
pub(super) fn usage_names(explain: bool) -> Vec<&'static str> {
    let mut names: Vec<&str> =
        Category::ALL.iter().map(|c| c.name()).collect();
    if explain {
        names.extend(USAGE_LINE_NAMES);
    }
    names
}

/// Appends the usage columns of one agent: each category's preference,
/// then with `explain` each deciding line; all empty (`null` in JSON) for
/// a URL that may not be fetched (`prefs` is `None`), which has no
/// preferences.
#[inline]
pub(super) fn push_usage(
    format: Format,
    out: &mut Vec<u8>,
    prefs: Option<&UsagePrefs>,
    explain: bool,
) {
    let jsonl = format == Format::Jsonl;
    for category in Category::ALL {
        start_usage_column(format, out, category.name());
        match prefs {
            Some(p) => {
                let name = p.get(category).name().as_bytes();
                if jsonl {
                    out.push(b'"');
                    out.extend_from_slice(name);
                    out.push(b'"');
                } else {
                    out.extend_from_slice(name);
                }
            }
            None if jsonl => out.extend_from_slice(b"null"),
            None => {}
        }
    }
    if !explain {
        return;
    }
    for (category, name) in Category::ALL.into_iter().zip(USAGE_LINE_NAMES) {
        start_usage_column(format, out, name);
        match prefs.and_then(|p| p.line(category)) {
            Some(n) => push_number(out, n),
            None if jsonl => out.extend_from_slice(b"null"),
            None => {}
        }
    }
}

/// Starts a usage column: its separator, or for JSON its member's name.
#[inline]
fn start_usage_column(format: Format, out: &mut Vec<u8>, name: &str) {
    if format == Format::Jsonl {
        out.extend_from_slice(b",\"");
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b"\":");
    } else {
        out.push(separator(format));
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
pub(super) struct Rows {
    pub(super) format: Format,
    pub(super) columns: Vec<Column>,
}

impl Rows {
    /// Appends `cell`'s columns: each after a separator, or each as a
    /// member `,"name":value` of the row's JSON object.
    #[inline]
    pub(super) fn push_cell(&self, out: &mut Vec<u8>, cell: &Cell<'_>) {
        for &column in &self.columns {
            cell.push(self.format, out, column);
        }
    }

    /// JSON Lines: appends `cell`'s columns as an object of their own.
    pub(super) fn push_object(&self, out: &mut Vec<u8>, cell: &Cell<'_>) {
        debug_assert_eq!(self.format, Format::Jsonl);
        out.push(b'{');
        let at = out.len();
        self.push_cell(out, cell);
        // The first member's comma.
        out.remove(at);
        out.push(b'}');
    }
}

/// A header line of `names` (empty for JSON Lines, which has none).
pub(super) fn header_of<'n>(
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

/// A cell with every value, some of them needing quotes (for tests).
#[cfg(test)]
pub(super) fn full_cell(agent: &str) -> Cell<'_> {
    Cell {
        agent,
        verdict: "disallowed",
        reason: "rule",
        line: Some(12),
        rule: Some(b"Disallow: /x,\"y\""),
        group: Some(b"*"),
        robots: Some("https://a.com"),
        capture: Some(Timestamp::from_seconds(1_717_243_200)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            Column::Capture,
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
}

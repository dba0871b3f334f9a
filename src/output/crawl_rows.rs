//! Crawl mode's rows: a verdict and its reason per URL and agent, with
//! the deciding fetch and rule when explained.

use super::fields::{push_field, push_json_string, push_plain_field};
use super::format::Format;
use super::rows::{header_of, Cell, Column, Rows};

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
    /// rows explain. The URL is written as a field once, then copied;
    /// `plain` says its bytes are plain (see
    /// [`PlainLine`](crate::PlainLine)), so that it is copied without
    /// looking for bytes to quote or escape.
    // Inlined into the crawl worker's loop over a chunk's lines: left to
    // itself, the compiler stopped inlining it after unrelated changes, at
    // a cost visible per row.
    #[inline]
    pub(crate) fn push_rows<'c>(
        &mut self,
        out: &mut Vec<u8>,
        url: &[u8],
        plain: bool,
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
                if plain {
                    push_plain_field(format, out, url);
                } else if jsonl {
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
                    rows.push_rows(
                        &mut twice,
                        url,
                        false,
                        2,
                        |a| a,
                        |a| cells[a],
                    );
                }
                let mut once = vec![];
                let mut fresh = CrawlRows::new(format, true, explain);
                fresh.push_rows(&mut once, url, false, 2, |a| a, |a| cells[a]);
                assert_eq!(twice, [&once[..], &once[..]].concat());
            }
        }
        let mut out = CrawlRows::new(Format::Csv, true, true).header();
        let mut rows = CrawlRows::new(Format::Csv, true, true);
        rows.push_rows(&mut out, url, false, 2, |a| a, |a| cells[a]);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "url,agent,verdict,reason,robots,line,rule\n\
             \"/u,\"\"v\"\"\",a,disallowed,rule,https://a.com,12,\
             \"Disallow: /x,\"\"y\"\"\"\n\
             \"/u,\"\"v\"\"\",b,unknown,no-host,,,\n"
        );
        let mut out = vec![];
        let mut rows = CrawlRows::new(Format::Jsonl, false, true);
        rows.push_rows(&mut out, url, false, 1, |_| 0, |_| cells[1]);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"url\":\"/u,\\\"v\\\"\",\"verdict\":\"unknown\",\
             \"reason\":\"no-host\",\"robots\":null,\"line\":null,\
             \"rule\":null}\n"
        );
    }
}

//! Crawl mode's rows: a verdict and its reason per URL and agent, with
//! the deciding fetch and rule when explained.

use super::fields::{push_field, push_json_string, push_plain_field};
use super::format::{Format, Layout};
use super::rows::{header_of, push_usage, usage_names, Cell, Column, Rows};
use crate::usage::UsagePrefs;

/// Crawl mode's rows. Long (the default with several agents): one row
/// per URL and agent, `url,agent,verdict,reason`; single (one agent):
/// `url,verdict,reason`; wide: one row per URL, each agent's verdict and
/// reason in columns named `<agent>` and `<agent>.reason` (JSON Lines:
/// `"verdicts":{"<agent>":{"verdict":...,"reason":...}}`). With `explain`
/// each verdict is followed by the deciding fetch, the date of its
/// capture and the rule, `robots,capture,line,rule`, and with `usage` by the usage preferences.
///
/// A verdict's agent, verdict and reason (its head) take few values: each
/// head is rendered the first time it comes and copied after, as a table's
/// cells are. The URL, the explanation and the preferences are rendered
/// per row.
#[derive(Clone, Debug)]
pub(crate) struct CrawlRows {
    layout: Layout,
    head: Rows,
    tail: Rows,
    usage: bool,
    /// Wide rows: the header's names of every agent's columns.
    agents: Vec<String>,
    /// The heads rendered so far, by their callers' keys (empty: not yet).
    heads: Vec<Vec<u8>>,
}

impl CrawlRows {
    /// Rows of `agents`' verdicts in `format` and `layout` (`Single` with
    /// several agents is `Long`).
    pub(crate) fn new(
        format: Format,
        layout: Layout,
        agents: &[String],
        explain: bool,
        usage: bool,
    ) -> Self {
        let layout = match layout {
            Layout::Single if agents.len() > 1 => Layout::Long,
            layout => layout,
        };
        let mut head = vec![];
        if layout == Layout::Long {
            head.push(Column::Agent);
        }
        head.extend([Column::Verdict, Column::Reason]);
        let mut tail = vec![];
        if explain {
            tail.extend([
                Column::Robots,
                Column::Capture,
                Column::Line,
                Column::Rule,
            ]);
        }
        CrawlRows {
            layout,
            head: Rows { format, columns: head },
            tail: Rows { format, columns: tail },
            usage,
            agents: agents.to_vec(),
            heads: vec![],
        }
    }

    /// The header line (empty for JSON Lines, which has none).
    pub(crate) fn header(&self) -> Vec<u8> {
        let format = self.head.format;
        let explain = !self.tail.columns.is_empty();
        let usage = match self.usage {
            true => usage_names(explain),
            false => vec![],
        };
        let columns = self.head.columns.iter().chain(&self.tail.columns);
        if self.layout != Layout::Wide {
            let names = columns.map(|c| c.name()).chain(usage);
            return header_of(format, std::iter::once("url").chain(names));
        }
        let mut names = vec!["url".to_string()];
        for agent in &self.agents {
            for column in columns.clone() {
                names.push(match column {
                    Column::Verdict => agent.clone(),
                    other => format!("{agent}.{}", other.name()),
                });
            }
            names.extend(usage.iter().map(|n| format!("{agent}.{n}")));
        }
        header_of(format, names.iter().map(String::as_str))
    }

    /// Appends the rows of `url` (one, or one per agent) for each agent
    /// `a` below `agents`, each verdict made of `cell(a)` and, with usage,
    /// `prefs(a)`. `key(a)` stands for that cell's head: the same small
    /// number (heads are kept in a vector) for the same agent, verdict
    /// and reason. `cell` is called only when a head is new or the rows
    /// explain. The URL is written as a field once, then copied; `plain`
    /// says its bytes are plain (see [`PlainLine`](crate::PlainLine)), so
    /// that it is copied without looking for bytes to quote or escape.
    // Inlined into the crawl worker's loop over a chunk's lines: left to
    // itself, the compiler stopped inlining it after unrelated changes, at
    // a cost visible per row.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn push_rows<'c>(
        &mut self,
        out: &mut Vec<u8>,
        url: &[u8],
        plain: bool,
        agents: usize,
        key: impl Fn(usize) -> usize,
        cell: impl Fn(usize) -> Cell<'c>,
        prefs: impl Fn(usize) -> Option<UsagePrefs>,
    ) {
        let format = self.head.format;
        let jsonl = format == Format::Jsonl;
        let wide = self.layout == Layout::Wide;
        let explain = !self.tail.columns.is_empty();
        let mut field = 0..0;
        for a in 0..agents {
            if a == 0 || !wide {
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
                if wide && jsonl {
                    out.extend_from_slice(b",\"verdicts\":{");
                }
            }
            let key = key(a);
            if key >= self.heads.len() {
                self.heads.resize(key + 1, vec![]);
            }
            let head = &mut self.heads[key];
            if head.is_empty() || explain {
                let cell = cell(a);
                if head.is_empty() {
                    push_head(self.layout, &self.head, head, &cell, a);
                }
                out.extend_from_slice(head);
                self.tail.push_cell(out, &cell);
            } else {
                out.extend_from_slice(head);
            }
            if self.usage {
                push_usage(format, out, prefs(a).as_ref(), explain);
            }
            if wide && jsonl {
                out.push(b'}');
            }
            if !wide || a + 1 == agents {
                out.extend_from_slice(match (jsonl, wide) {
                    (true, true) => b"}}\n",
                    (true, false) => b"}\n",
                    (false, _) => b"\n",
                });
            }
        }
    }
}

/// Renders the head of agent `a`'s verdict `cell` into `head`: the
/// columns of `rows`, and in a wide JSON row the start of the agent's
/// object.
fn push_head(
    layout: Layout,
    rows: &Rows,
    head: &mut Vec<u8>,
    cell: &Cell<'_>,
    a: usize,
) {
    if layout != Layout::Wide || rows.format != Format::Jsonl {
        rows.push_cell(head, cell);
        return;
    }
    if a > 0 {
        head.push(b',');
    }
    push_json_string(head, cell.agent.as_bytes());
    head.extend_from_slice(b":{");
    let at = head.len();
    rows.push_cell(head, cell);
    // The object's first member has no comma before it.
    head.remove(at);
}

#[cfg(test)]
mod tests {
    use super::super::rows::full_cell;
    use super::*;

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
            capture: None,
            ..full_cell("b")
        };
        let cells = [full_cell("a"), unknown];
        let agents = ["a".to_string(), "b".to_string()];
        let url = b"/u,\"v\"";
        for format in [Format::Csv, Format::Tsv, Format::Jsonl] {
            for explain in [false, true] {
                let mut rows = CrawlRows::new(
                    format,
                    Layout::Long,
                    &agents,
                    explain,
                    false,
                );
                let mut twice = vec![];
                for _ in 0..2 {
                    rows.push_rows(
                        &mut twice,
                        url,
                        false,
                        2,
                        |a| a,
                        |a| cells[a],
                        |_| None,
                    );
                }
                let mut once = vec![];
                let mut fresh = CrawlRows::new(
                    format,
                    Layout::Long,
                    &agents,
                    explain,
                    false,
                );
                fresh.push_rows(
                    &mut once,
                    url,
                    false,
                    2,
                    |a| a,
                    |a| cells[a],
                    |_| None,
                );
                assert_eq!(twice, [&once[..], &once[..]].concat());
            }
        }
        let mut out =
            CrawlRows::new(Format::Csv, Layout::Long, &agents, true, false)
                .header();
        let mut rows =
            CrawlRows::new(Format::Csv, Layout::Long, &agents, true, false);
        rows.push_rows(&mut out, url, false, 2, |a| a, |a| cells[a], |_| None);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "url,agent,verdict,reason,robots,capture,line,rule\n\
             \"/u,\"\"v\"\"\",a,disallowed,rule,https://a.com,\
             2024-06-01T12:00:00Z,12,\"Disallow: /x,\"\"y\"\"\"\n\
             \"/u,\"\"v\"\"\",b,unknown,no-host,,,,\n"
        );
        let mut out = vec![];
        let mut rows = CrawlRows::new(
            Format::Jsonl,
            Layout::Single,
            &agents[..1],
            true,
            false,
        );
        rows.push_rows(&mut out, url, false, 1, |_| 0, |_| cells[1], |_| None);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"url\":\"/u,\\\"v\\\"\",\"verdict\":\"unknown\",\
             \"reason\":\"no-host\",\"robots\":null,\"capture\":null,\"line\":null,\
             \"rule\":null}\n"
        );
    }
}

//! The syntaxes (CSV, TSV, JSON Lines) and layouts of a table's rows.

/// The syntax of a [`Table`](super::Table)'s rows.
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

/// How a [`Table`](super::Table) lays out the verdicts of several agents.
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

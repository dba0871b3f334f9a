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
and a [`CountRender`] only counts verdicts per matcher. [`Columns`]
writes rows of other named fields (a survey's) in the same formats.
*/

mod columns;
mod count;
mod crawl_rows;
mod csv;
mod emit;
mod explain;
mod fields;
mod format;
mod rows;
mod table;

pub use self::columns::{Columns, Field};
pub(crate) use self::count::slot;
pub use self::count::{CountRender, Counts, TallyRender};
pub(crate) use self::crawl_rows::CrawlRows;
pub use self::csv::CsvRender;
pub use self::emit::EmitRender;
pub(crate) use self::fields::{
    push_csv_field, push_json_string, push_tsv_field,
};
pub use self::format::{Format, Layout};
pub(crate) use self::rows::Cell;
pub use self::table::{Table, TableBuilder, TableRender};

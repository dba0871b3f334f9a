//! robots-batch's test suite: one binary, many modules (ripgrep's layout).

#[macro_use]
mod macros;
mod util;

mod access_logs;
mod audit;
mod captures;
mod cli;
mod conformance;
mod crawl;
mod datatxt;
mod diff;
mod differential;
mod dirty;
mod history;
mod hostile;
mod inputs;
mod memory;
mod readme;
mod record_quirks;
mod records;
mod shared_flags;
mod sitemaps;
mod survey;
mod usage;
mod warc;

//! robots-batch's test suite: one binary, many modules (ripgrep's layout).

#[macro_use]
mod macros;
mod util;

mod audit;
mod cli;
mod conformance;
mod crawl;
mod datatxt;
mod differential;
mod dirty;
mod hostile;
mod memory;
mod readme;
mod records;
mod survey;
mod usage;
mod warc;

//! robots-batch's test suite: one binary, many modules (ripgrep's layout).

mod conformance;
mod differential;

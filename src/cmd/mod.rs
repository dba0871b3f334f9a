//! The commands, one module each: `check` is the default, which prints a
//! verdict for every line of a file of URLs (N.B. its module predates the
//! subcommand of the same name); `single` is the `check` subcommand, the
//! verdicts of a few URLs given as arguments; `lint` reports what to fix
//! in a robots.txt; `crawl` judges a crawl log, each URL by its own
//! origin's robots.txt.

pub mod check;
pub mod crawl;
pub mod lint;
pub mod single;

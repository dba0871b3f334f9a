//! The commands, one module each: `default` is the default command, which
//! prints a verdict for every line of a file of URLs; `check` is the
//! subcommand of that name, the verdicts of a few URLs given as arguments;
//! `lint` reports what to fix in a robots.txt; `crawl` judges a crawl log,
//! each URL by its own origin's robots.txt; `survey` says, per site and
//! agent, how much a robots.txt disallows (`history`, with `--history`,
//! how that changed over dated captures); `diff` says what changes
//! between two robots.txt of one site; `agents` lists the built-in AI
//! crawlers.

pub mod agents;
pub mod check;
pub mod crawl;
pub mod default;
pub mod diff;
pub mod history;
pub mod lint;
mod shared;
pub mod survey;

//! robots-batch decides, for millions of URLs at a time, whether a crawler may
//! fetch them under a site's robots.txt.
//!
//! # Overview
//!
//! A robots.txt is parsed once ([`Robots`]); for one agent and one
//! [`Dialect`] the applicable groups are selected and merged ([`RuleSet`]);
//! the rules are compiled into one automaton ([`Matcher`]) whose pattern IDs
//! carry the rules' priorities, so that a single pass over a URL's path yields
//! its [`Verdict`].
//!
//! # Glossary
//!
//! The documentation uses each of these words in one sense (the same as
//! docs/DESIGN.md):
//!
//! * **agent**: the product token a crawler is judged as (`GPTBot`; see
//!   [`product_token`]).
//! * **group**: the lines of a robots.txt under one or more `User-agent`
//!   lines; selecting the groups for an agent is the first step of every
//!   verdict ([`GroupMatch`] says which apply).
//! * **rule**: one `Allow` or `Disallow` line of a selected group, with its
//!   pattern (`/b/*_pgn=`); a [`Rule`].
//! * **dialect**: one of four ways of reading a robots.txt: which groups
//!   apply, how patterns and paths are normalised, and which rule wins; a
//!   [`Dialect`].
//! * **path**: what rules are matched against: the part of a URL after its
//!   authority, up to the fragment, normalised for the dialect
//!   ([`Dialect::path`]).
//! * **verdict**: allowed or disallowed (or, in crawl-log mode, unknown),
//!   with the rule or reason that decided it; a [`Verdict`], in crawl-log
//!   mode a [`crawl::CrawlVerdict`].
//! * **usage preference**: what a `Content-Usage` or `Content-Signal`
//!   line says about how fetched content may be used (`train-ai`,
//!   `search`, `ai-input`): allowed, disallowed or unknown, beside the
//!   verdict and never changing it; a [`Usage`] and its [`UsagePrefs`].
//! * **origin**: scheme, host and port; in crawl-log mode, what a
//!   robots.txt is fetched for; a [`crawl::Origin`].
//!
//! # Example
//!
//! ```
//! use robots_batch::{Dialect, Matcher, Robots};
//!
//! let robots = Robots::parse(b"\
//! User-agent: *
//! Disallow: /private/
//! Allow: /private/press/
//! Disallow: /*.pdf$
//! ");
//! let matcher = Matcher::new(&robots, "ExampleBot", Dialect::Rfc9309);
//! let mut scratch = matcher.scratch();
//! let verdicts: Vec<&str> = [
//!     "https://example.com/",
//!     "https://example.com/private/plans",
//!     "https://example.com/private/press/release",
//!     "https://example.com/docs/report.pdf",
//!     "https://example.com/docs/report.pdf?download=1",
//! ]
//! .iter()
//! .map(|url| matcher.verdict(url.as_bytes(), &mut scratch).name())
//! .collect();
//! assert_eq!(
//!     verdicts,
//!     ["allowed", "disallowed", "allowed", "disallowed", "allowed"],
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Engines
//!
//! [`EngineKind::Trie`] (the default) walks a trie of the rules' literal
//! prefixes along the path, finding wildcard tails with Aho-Corasick;
//! [`EngineKind::Dense`] puts every pattern in one regex-automata dense DFA
//! (split into a few when one would be too large); [`EngineKind::Lazy`] is
//! regex-automata's lazy DFA with a bounded cache, the fallback of the other
//! two when their size limits are hit; [`EngineKind::Naive`] is the plain
//! reference used by the differential tests. All give identical verdicts.
//!
//! # Crate features
//!
//! * `sample` (off by default): the `sample` module, URLs generated from a
//!   robots.txt's own patterns, which the crate's tests, benchmarks,
//!   examples and fuzz targets use. It is not part of the library's API.
//!
//! The library always includes the dense and lazy DFAs.

#![deny(missing_docs)]
#![deny(rustdoc::broken_intra_doc_links)]

pub mod agents;
mod batch;
mod cache;
mod compressed;
pub mod crawl;
mod dialect;
pub mod diff;
mod engine;
mod error;
mod group_key;
pub mod lint;
mod lowlevel;
mod matcher;
pub mod output;

pub mod record;
pub mod robots;
mod rules;
#[cfg(feature = "sample")]
pub mod sample;
pub mod sitemap;
pub mod sniff;
pub mod survey;

#[cfg(test)]
mod testing;
mod time;
mod url;
pub mod usage;

pub use crate::batch::{
    Batch, BatchBuilder, ChunkWorker, Lines, MatcherWorker, MmapChoice,
    PlainLine, Render, Sink, Stats, MAX_LINE_BYTES, MAX_THREADS,
};
pub use crate::dialect::normalize_pattern;
pub use crate::dialect::Dialect;
pub use crate::engine::EngineKind;
pub use crate::error::{Error, ErrorKind};
pub use crate::matcher::{
    Explanation, Matcher, MatcherBuilder, Reason, Scratch, Verdict,
};
pub use crate::output::{CsvRender, Format, Layout};
pub use crate::robots::{Robots, DEFAULT_MAX_ROBOTS_BYTES};
pub use crate::rules::{
    agent_warning, is_valid_product_token, product_token, GroupMatch, Rule,
    RuleSet, Rules,
};
pub use crate::time::Timestamp;
pub use crate::url::path::{extract_path, UrlPath};
pub use crate::usage::{Usage, UsagePrefs};

// The README's Rust examples compile and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

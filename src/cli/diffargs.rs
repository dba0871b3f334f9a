//! The flags of `robots-batch diff`: what changes between an old and a new
//! robots.txt of one site, as clap sees them.

use std::path::PathBuf;

use clap::Parser;
use robots_batch::{Dialect, EngineKind, Timestamp, DEFAULT_MAX_ROBOTS_BYTES};

const DIFF_AFTER_HELP: &str = "\
WHAT CHANGES:
  For each agent, the group its rules come from (a named group, `*`, or
  none), where it is selected (the user-agent lines), the rules removed
  and added, and the scope of what the rules disallow (full, partial,
  none, as `robots-batch survey` decides it). Rules are compared by their
  kind (Allow, Disallow) and their pattern as the dialect normalises it:
  a rule that only moved, or was only respelled, is no change. In
  draft1996 and orig1994, where the first matching rule in file order
  wins, kept rules in another order are a change (`reordered`).

OUTPUT:
  Without --format, a report for people: per agent,
    GPTBot: changed
      group: * (OLD:1) -> GPTBot (NEW:4)
      scope: partial -> full
      - OLD:2: Disallow: /private/
      + NEW:5: Disallow: /
  (`-` a rule of OLD that NEW lacks, `+` one NEW adds, each with its
  line), or `CCBot: unchanged (group *, scope partial)`; agents with the
  same changes share one entry (`CCBot, ClaudeBot: changed`). Then, with
  URLS, after a blank line, each URL whose verdict changes:
    https://example.com/a: allowed -> disallowed for GPTBot
      OLD: no matching rule; group *
      NEW:5: Disallow: /; group GPTBot

  --format csv, tsv or jsonl writes one table, for scripts. Without URLS,
  the changes: `agent,change,old,new,old_line,new_line`, a row per
  change: `group` (old and new group, and the first user-agent line
  selecting each), `scope`, `removed` (old: the rule as written, old_line
  its line), `added` (new, new_line), `reordered`; an agent without
  changes has no row. With URLS, the URLs whose verdict changes, in input
  order, a row per URL and agent:
  `url,agent,old,new,old_line,old_rule,old_group,old_reason,new_line,
  new_rule,new_group,new_reason` (the --explain columns of each side:
  `reason` is rule, no-matching-rule or no-group). Unchanged URLs are not
  listed; standard error says how many URLs were read and how many
  change, per agent and direction.

  URLS holds one URL per line, as the default command reads them (gzip
  and zstd decompressed; `-` reads standard input). Records (JSON Lines,
  WARC...) are not read: take their URLs out first (`jq -r .url`).

EXIT CODES:
  0  success, whether or not anything changed
  1  with --exit-code: something changed (a group, rule or scope, or a
     URL's verdict)
  2  usage or I/O error

MANY SITES:
  With robots.txt sources instead of OLD and NEW (--robots-dir [DATE=]DIR,
  --robots-index, --robots-warc, as `crawl` reads them) and two --as-of
  dates, each site's capture in effect at each date is surveyed, and the
  sites whose scope changed for an agent are listed:
  `site,agent,old,new,old_capture,new_capture` (a scope, or `-` where no
  capture was in effect yet); in the report, `site: agent old -> new`.

EXAMPLES:
  robots-batch diff -a GPTBot robots.txt robots-new.txt
  robots-batch diff --agents ai old.txt new.txt urls.txt.gz
  robots-batch diff --format csv -a '*' old.txt new.txt urls.txt > changes.csv
  robots-batch diff --exit-code -a Googlebot live.txt staged.txt sitemap-urls.txt
  robots-batch diff --robots-warc CC-2024-10.warc.gz --robots-warc CC-2025-10.warc.gz \\
    --as-of 2024-03-31 --as-of 2025-03-31 -a GPTBot,CCBot";

/// `robots-batch diff`: what changes for crawlers between two robots.txt
/// of one site.
#[derive(Debug, Parser)]
#[command(
    name = "robots-batch diff",
    bin_name = "robots-batch diff",
    version,
    about = "Compare an old and a new robots.txt of one site: per agent, \
             the group, rules and scope that change, and with a file of \
             URLs the URLs whose verdict changes, in both directions.",
    after_help = DIFF_AFTER_HELP,
    max_term_width = 100
)]
pub struct DiffArgs {
    /// The old robots.txt; `-` reads standard input. gzip and zstd files
    /// are decompressed (found by their first bytes).
    #[arg(value_name = "OLD", required_unless_present = "sources")]
    pub old: Option<PathBuf>,

    /// The new robots.txt, read as OLD is.
    #[arg(value_name = "NEW", required_unless_present = "sources")]
    pub new: Option<PathBuf>,

    /// URLs, one per line, to judge by both: those whose verdict changes
    /// are listed. `-` reads standard input; gzip and zstd inputs are
    /// decompressed.
    #[arg(value_name = "URLS")]
    pub urls: Option<PathBuf>,

    #[command(flatten)]
    pub agents: super::AgentArgs,

    /// Many sites instead of OLD and NEW: their dated captures, from
    /// these sources (as `crawl` reads them), compared at two --as-of
    /// dates.
    #[command(flatten)]
    pub sources: super::crawlargs::SourceArgs,

    /// With sources, the two dates compared (give it twice): each site's
    /// capture in effect at the first (the newest at or before it; a day
    /// alone means its end), and at the second.
    #[arg(long, value_name = "DATE", value_parser = super::crawlargs::as_of)]
    pub as_of: Vec<Timestamp>,

    /// How to read both robots.txt: rfc9309, google, draft1996 or
    /// orig1994.
    #[arg(long, value_name = "DIALECT", default_value_t = Dialect::Rfc9309)]
    pub dialect: Dialect,

    /// The matching engine for URLS: trie, dense, lazy, scan or naive (all
    /// give the same verdicts; see `robots-batch --help`).
    #[arg(long, value_name = "ENGINE", default_value_t = EngineKind::Trie)]
    pub engine: EngineKind,

    /// human (the default), or a table: csv, tsv or jsonl.
    ///
    /// csv: RFC 4180's quoting, with LF line ends. tsv: tab-separated,
    /// with tabs, CRs and backslashes in fields written `\t`, `\r` and
    /// `\\`. jsonl: one JSON object per line, empty fields `null`.
    #[arg(long, value_name = "FORMAT", default_value = "human")]
    pub format: DiffFormat,

    /// Do not print the table's header row.
    #[arg(long)]
    pub no_header: bool,

    /// Exit with 1 when something changed, as `git diff --exit-code`
    /// does; 0 when nothing did.
    #[arg(long)]
    pub exit_code: bool,

    /// Parse only the first BYTES bytes of each robots.txt; 0 means no
    /// limit.
    #[arg(
        long,
        value_name = "BYTES",
        default_value_t = DEFAULT_MAX_ROBOTS_BYTES
    )]
    pub max_robots_bytes: usize,

    #[command(flatten)]
    pub threads: super::args::ThreadArgs,
}

/// `diff --format`: the report for people, or one of the table formats
/// the other commands write (N.B. their `--format` has no `human` and
/// defaults to csv, so that flag group is not shared here).
#[derive(Clone, Copy, Debug, Eq, PartialEq, clap::ValueEnum)]
pub enum DiffFormat {
    /// Lines for people.
    Human,
    /// RFC 4180 CSV.
    Csv,
    /// Tab-separated values.
    Tsv,
    /// JSON lines.
    Jsonl,
}

impl DiffFormat {
    /// The table's format, `None` for the report for people.
    pub fn table(self) -> Option<robots_batch::Format> {
        match self {
            DiffFormat::Human => None,
            DiffFormat::Csv => Some(robots_batch::Format::Csv),
            DiffFormat::Tsv => Some(robots_batch::Format::Tsv),
            DiffFormat::Jsonl => Some(robots_batch::Format::Jsonl),
        }
    }
}

//! The flags of `robots-batch survey`: one row per site and agent over many
//! robots.txt files, as clap sees them.

use clap::Parser;
use robots_batch::survey::classify::Classifier;
use robots_batch::Dialect;

use super::crawlargs::{PolicyArgs, SourceArgs};

const SURVEY_AFTER_HELP: &str = "\
SOURCES AND FETCH RESULTS:
  robots.txt files given by name (`<host>.txt` names its host, any other
  name is the site's name as it is), and as in `robots-batch crawl` (see
  its --help): --robots-dir, --robots-index and --robots-warc, combined; a
  fetch that gave no robots.txt counts as
  --on-4xx, --on-401-403 and --on-5xx say. A site is an origin of an index
  or WARC file, or a host of a directory. Directory entries that are not
  <host>.txt files are reported on standard error, one line each, and
  skipped; a <host>.txt that cannot be read is reported too, and still
  gets its rows.

OUTPUT:
  CSV (or --format tsv/jsonl) on standard output, one row per site and
  agent, sites sorted by name:
  `site,agent,fetch,group,scope,rules,note`.
  fetch: ok (a robots.txt was read, after redirects if any), status-4xx,
  status-5xx, redirect-limit, redirect-missing, unreadable (a directory
  file that could not be read). group: named (a group names the agent),
  star (only the `*` groups apply), none (no group applies, or no
  robots.txt). scope: full (every path but the implicit /robots.txt is
  disallowed), partial, none (no path is), unknown; decided exactly for
  the dialect, with work bounded by the size of the agent's patterns; a
  fetch without a robots.txt is full or none as the policy says. rules:
  the allow and disallow lines that apply to the agent. With --usage,
  then: train-ai, search, ai-input, each allowed, disallowed or unknown at
  `/` (empty where `/` may not be fetched). note: empty, or proof-bound
  where the scope's proof stopped at its bound (the scope is unknown).

  --classify cc-disallow-all or dpi classes each robots.txt as that study's
  code does (group, scope and rules are its reading; a fetch without a
  robots.txt is judged by the policy, as always) and adds `exact-scope`,
  the exact scope, before `note`: `site,agent,fetch,group,scope,rules,
  exact-scope,note`. The rules of each: docs/SURVEY.md, Reproducing
  published figures.

  --summary prints instead, per agent, `agent,group,sites,full,partial,
  none,unknown`: a row for all the sites (group `all`), then one per group
  kind. With --usage, then, per category, how many of those sites allow
  it and how many disallow it at `/`: `train-ai-allowed,
  train-ai-disallowed, search-allowed, ...`. With --classify other than
  exact, then `differs`: how many of those sites' scope is not the exact
  one.

EXAMPLES:
  robots-batch survey --robots-dir robots/ --agents ai > survey.csv
  robots-batch survey --agents ai robots.txt
  robots-batch survey --robots-dir robots/ -a GPTBot --summary
  robots-batch survey --robots-dir robots/ -a CCBot --classify cc-disallow-all
  robots-batch survey --robots-warc CC-MAIN-robotstxt.warc.gz --agents ai:data-scrapers";

/// `robots-batch survey`: how much of each site a robots.txt keeps each
/// agent from.
#[derive(Debug, Parser)]
#[command(
    name = "robots-batch survey",
    bin_name = "robots-batch survey",
    version,
    about = "Survey many robots.txt at once: one row per site and agent, \
             with the fetch result, the group that applies and the scope \
             of what it disallows (full, partial, none).",
    after_help = SURVEY_AFTER_HELP,
    max_term_width = 100
)]
pub struct SurveyArgs {
    /// robots.txt files, each the robots.txt of the site its name gives:
    /// `<host>.txt` as in --robots-dir, any other name (`robots.txt`) the
    /// site's name as it is; with or instead of the sources below.
    #[arg(value_name = "ROBOTS")]
    pub files: Vec<std::path::PathBuf>,

    #[command(flatten)]
    pub sources: SourceArgs,

    #[command(flatten)]
    pub agents: super::AgentArgs,

    /// How to read each robots.txt: rfc9309, google, draft1996 or
    /// orig1994.
    #[arg(long, value_name = "DIALECT", default_value_t = Dialect::Rfc9309)]
    pub dialect: Dialect,

    #[command(flatten)]
    pub policy: PolicyArgs,

    /// Print counts per agent, group kind and scope instead of rows.
    #[arg(long)]
    pub summary: bool,

    /// How to class each agent's rules: exact (the exact scope), or as a
    /// published study counts, to reproduce its figures: cc-disallow-all
    /// (Common Crawl's robotstxt-experiments) or dpi (Consent in Crisis).
    /// Other than exact, rows get an `exact-scope` column and --summary a
    /// `differs` count.
    #[arg(long, value_name = "CLASSIFIER", default_value_t = Classifier::Exact)]
    pub classify: Classifier,

    /// Add the usage preferences at `/` (train-ai, search, ai-input) from
    /// Content-Usage and Content-Signal lines, as the default command's
    /// --usage reads them.
    #[arg(long)]
    pub usage: bool,

    #[command(flatten)]
    pub syntax: super::args::SyntaxArgs,

    #[command(flatten)]
    pub history: super::HistoryArgs,

    #[command(flatten)]
    pub threads: super::args::ThreadArgs,
}

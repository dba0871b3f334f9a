//! The flags of the subcommands, `check` and `lint`, as clap sees them.

use std::path::PathBuf;

use clap::Parser;
use robots_batch::{Dialect, DEFAULT_MAX_ROBOTS_BYTES};

const CHECK_AFTER_HELP: &str = "\
OUTPUT:
  One line per URL on standard output: the verdict (`allowed` or
  `disallowed`, padded to one width) and the URL; with --explain, the reason
  after it: the deciding rule's line number and text and the group it came
  from, `no matching rule`, `no group applies`, or `/robots.txt is always
  allowed`. With --usage, an allowed URL's AI usage preferences follow the
  URL: `train-ai=..., search=..., ai-input=...`, each `allowed`,
  `disallowed` or `unknown` (a disallowed URL has none); with --explain too,
  the reason names the line that decided each known preference.
  With several agents (-a repeated or separated by commas, --agents-file,
  --agents ai), one line per agent and URL, agent by agent, the agent
  between the verdict and the URL.

EXIT CODES:
  0  every URL is allowed
  1  at least one URL is disallowed
  2  usage or I/O error

GOOGLE'S COMPLIANCE RUNNER:
  google/robotstxt-spec-test calls `<parser> <robots> <url> <agent>` and
  reads the exit code (0 allowed, 1 disallowed, its defaults). --spec-test
  takes the arguments in that order:

    mvn exec:java -Dexec.mainClass=com.google.search.robotstxt.spec.Main \\
      -Dexec.args=\"--command='robots-batch check --spec-test \\
      --dialect google %robots% %url% %user-agent%'\"

EXAMPLES:
  robots-batch check robots.txt https://example.com/private/x
  robots-batch check -a GPTBot --explain robots.txt /press/ /cart/
  robots-batch check -a GPTBot --usage --explain robots.txt /press/
  robots-batch check --agents ai:data-scrapers robots.txt /press/
  robots-batch check robots.txt --sitemaps sitemap.xml.gz
  robots-batch check --spec-test robots.txt https://example.com/x FooBot";

/// `robots-batch check`: the verdicts of a few URLs given as arguments.
#[derive(Debug, Parser)]
#[command(
    name = "robots-batch check",
    bin_name = "robots-batch check",
    version,
    about = "Print the verdicts of a few URLs given on the command line; \
             exit 0 when all are allowed, 1 when any is disallowed.",
    after_help = CHECK_AFTER_HELP,
    max_term_width = 100
)]
pub struct CheckArgs {
    /// The robots.txt file; `-` reads standard input. gzip and zstd files
    /// are decompressed (found by their first bytes).
    #[arg(value_name = "ROBOTS")]
    pub robots: PathBuf,

    /// The URLs (with --spec-test: one URL, then the agent).
    #[arg(value_name = "URL", required_unless_present = "sitemaps")]
    pub urls: Vec<String>,

    /// Also judge every URL these sitemaps (XML, text, gzip) or llms.txt
    /// files list, after the URLs given; an entry without a URL prints
    /// `unknown` and why.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub sitemaps: Vec<PathBuf>,

    #[command(flatten)]
    pub sitemap: super::args::SitemapFlags,

    #[command(flatten)]
    pub agents: super::AgentArgs,

    /// How to read the robots.txt: rfc9309, google, draft1996 or orig1994.
    #[arg(long, value_name = "DIALECT", default_value_t = Dialect::Rfc9309)]
    pub dialect: Dialect,

    /// Say why: the deciding rule's line and text and its group.
    #[arg(long)]
    pub explain: bool,

    /// Add the AI usage preferences of each allowed URL (train-ai, search,
    /// ai-input), from its Content-Usage and Content-Signal lines.
    #[arg(long)]
    pub usage: bool,

    /// Take the arguments as Google's robotstxt-spec-test runner gives
    /// them: ROBOTS URL AGENT.
    #[arg(long, conflicts_with_all = ["agent", "agents_file", "lists"])]
    pub spec_test: bool,

    /// Parse only the first BYTES bytes of the robots.txt; 0 means no limit.
    #[arg(
        long,
        value_name = "BYTES",
        default_value_t = DEFAULT_MAX_ROBOTS_BYTES
    )]
    pub max_robots_bytes: usize,
}

const LINT_AFTER_HELP: &str = "\
OUTPUT:
  Human-readable by default: one line per finding, `ROBOTS:LINE: CODE:
  message`, then the groups (line, user-agents, number of rules), the
  sitemaps and the crawl-delays. --format json prints one JSON object with
  `findings` (line, code, message), `groups`, `sitemaps` and
  `crawl_delays`.

  Codes: typo, missing-colon, unparseable, rule-outside-group,
  invalid-token, shadowed-rule, non-standard-directive, unknown-directive,
  line-too-long, bom, html, over-parse-limit.

  With --sitemaps, the findings of the sitemaps follow, each
  `FILE:LINE: CODE: message` (FILE the robots.txt for its Sitemap: lines):
  listed-disallowed (a URL listed that an agent may not fetch, with the
  deciding line), bad-entry (an entry without a URL), sitemap-disallowed
  (a Sitemap: URL an agent may not fetch), sitemap-other-host (a Sitemap:
  URL on a host other than --origin's, or without it the first Sitemap:
  line's). In JSON, `sitemap_findings` (file, line, code, agent, url,
  rule_line, rule, message).

EXIT CODES:
  0  nothing to fix
  1  at least one finding
  2  usage or I/O error

EXAMPLES:
  robots-batch lint robots.txt
  robots-batch lint --format json robots.txt | jq '.findings[]'
  robots-batch lint robots.txt --sitemaps sitemap.xml.gz llms.txt
  robots-batch lint --agents ai --sitemap-dir site/ robots.txt --sitemaps site/sitemap_index.xml";

/// `robots-batch lint`: what a site owner should fix in a robots.txt.
#[derive(Debug, Parser)]
#[command(
    name = "robots-batch lint",
    bin_name = "robots-batch lint",
    version,
    about = "Report what to fix in a robots.txt, each finding with its line \
             number, and list its groups, sitemaps and crawl-delays.",
    after_help = LINT_AFTER_HELP,
    max_term_width = 100
)]
pub struct LintArgs {
    /// The robots.txt file; `-` reads standard input. gzip and zstd files
    /// are decompressed (found by their first bytes).
    #[arg(value_name = "ROBOTS")]
    pub robots: PathBuf,

    /// human (the default) or json.
    #[arg(long, value_name = "FORMAT", default_value = "human")]
    pub format: LintFormat,

    /// Also read these sitemaps (XML, text, gzip) or llms.txt files, the
    /// local copies of what the Sitemap: lines list, and report each URL
    /// listed that an agent may not fetch.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub sitemaps: Vec<PathBuf>,

    #[command(flatten)]
    pub agents: super::AgentArgs,

    #[command(flatten)]
    pub sitemap: super::args::SitemapFlags,

    /// Which dialect decides whether a rule can ever decide.
    #[arg(long, value_name = "DIALECT", default_value_t = Dialect::Rfc9309)]
    pub dialect: Dialect,

    /// Parse only the first BYTES bytes of the robots.txt; 0 means no limit.
    #[arg(
        long,
        value_name = "BYTES",
        default_value_t = DEFAULT_MAX_ROBOTS_BYTES
    )]
    pub max_robots_bytes: usize,
}

/// `lint --format`.
#[derive(Clone, Copy, Debug, Eq, PartialEq, clap::ValueEnum)]
pub enum LintFormat {
    /// Lines for people.
    Human,
    /// One JSON object.
    Json,
}

const AGENTS_AFTER_HELP: &str = "\
OUTPUT:
  CSV on standard output:
  `name,token,google_reads,category,operator,function`, one row per entry
  of ai.robots.txt's list (embedded; see scripts/refresh-ai-agents).
  token: the product token `--agents ai` judges (empty: left out, see
  below). google_reads: what Google's parser and RFC 9309 read from a
  robots.txt line `User-agent: <name>`. function: the list's own words
  for what the crawler does; category: the group it names or describes,
  one of data-scrapers, data-providers, search-crawlers, assistants,
  agents, coding-agents, undocumented and other. With --categories:
  `category,entries,description`, every category.

  A name that is not a product token (letters, `-` and `_`) is judged by
  its leading token when the rest is a version, a word or a domain suffix
  (`Kangaroo Bot` as `Kangaroo`, `iaskspider/2.0` as `iaskspider`); where
  a digit cuts a word (`AI2Bot`, read by Google as `AI`), the token would
  be another word, and the entry is left out of --agents ai.

EXAMPLES:
  robots-batch agents | grep -i openai
  robots-batch agents ai:data-scrapers
  robots-batch agents --categories";

/// `robots-batch agents`: the built-in AI crawler list.
#[derive(Debug, Parser)]
#[command(
    name = "robots-batch agents",
    bin_name = "robots-batch agents",
    version,
    about = "List the AI crawlers that --agents ai judges (ai.robots.txt's \
             list), with their tokens, categories and operators.",
    after_help = AGENTS_AFTER_HELP,
    max_term_width = 100
)]
pub struct AgentsArgs {
    /// `ai` (the default) or `ai:CATEGORY`.
    #[arg(
        value_name = "LIST",
        default_value = "ai",
        value_parser = super::agentargs::parse_agent_list
    )]
    pub list: super::agentargs::AgentList,

    /// Print the categories and how many entries each has.
    #[arg(long)]
    pub categories: bool,
}

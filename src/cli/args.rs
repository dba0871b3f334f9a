//! The command line as clap sees it: flags, their help, validation only.
//!
//! This is ripgrep's "low args" layer: it mirrors the flags one to one and
//! owns nothing built. [`Config`](crate::cli::Config) turns it into the
//! objects a run needs.

use std::path::PathBuf;

use clap::{Parser, ValueEnum};
use robots_batch::{
    Dialect, EngineKind, DEFAULT_MAX_ROBOTS_BYTES, MAX_THREADS,
};

const ABOUT: &str = "\
Decide, for a file of URLs, which ones a crawler may fetch under a robots.txt.";

const LONG_ABOUT: &str = "\
Decide, for a file of URLs, which ones a crawler may fetch under a robots.txt.

robots-batch parses ROBOTS once, selects the groups that apply to the agent
in the chosen dialect, compiles their rules into one automaton, and gives
every line of URLS a verdict, using every core.";

const AFTER_HELP: &str = "\
OUTPUT:
  CSV (RFC 4180's quoting, LF line ends) on standard output: a header
  `url,verdict`, then exactly one row per input line, in input order, empty
  and malformed lines included.
  `url` is the line's bytes exactly as read, without its line terminator
  (`\\n` or `\\r\\n`); it is quoted when it holds a comma, a quote or a line
  break, and invalid UTF-8 or NUL bytes pass through untouched. `verdict` is
  `allowed` or `disallowed`. The path of each line is found as Google's
  reference parser finds it: `https://host/p?q`, `//host/p?q`, `host/p?q`
  and `/p?q` all give `/p?q`. The last line may lack its newline.
  Warnings and errors go to standard error, one line each.

EXIT CODES:
  0  success, warnings about the input included (a robots.txt over the parse
     limit, an agent that is empty or not a product token); also when
     standard output is closed early, as by `| head`
  2  usage error (unknown flag or value) or I/O error (missing or
     unreadable file, a directory given as a file)

  With --emit, the exit code is grep's: 0 when a URL was printed, 1 when
  none was, 2 on error.

SUBCOMMANDS:
  robots-batch check [-a AGENT,...] [--agents ai] [--explain] ROBOTS URL...
     the verdicts of a few URLs; exit 0 when all are allowed, 1 when any is
     disallowed; `check --spec-test ROBOTS URL AGENT` is the argument order
     of Google's robotstxt-spec-test runner (see `robots-batch check -h`)
  robots-batch lint [--format human|json] ROBOTS
     what a site owner should fix, each finding with its line number, and
     the file's groups, sitemaps and crawl-delays; exit 1 when there are
     findings (see `robots-batch lint -h`)
  robots-batch crawl (--robots-dir DIR | --robots-index FILE |
                      --robots-warc FILE)... [-a AGENT] URLS
     crawl-log mode: each URL judged by the robots.txt fetched from its own
     origin and by how that fetch went (see `robots-batch crawl -h`)
  robots-batch survey (--robots-dir DIR | --robots-index FILE |
                       --robots-warc FILE)... [-a AGENT] [--summary]
     one row per site and agent over many robots.txt files: the fetch
     result, the group that applies and how much of the site it disallows
     (see `robots-batch survey -h`)
  robots-batch diff [-a AGENT,...] [--agents ai] OLD NEW [URLS]
     what changes for each agent when a site replaces its robots.txt: the
     group, the rules removed and added, the scope, and the URLs whose
     verdict changes, both ways (see `robots-batch diff -h`)
  robots-batch agents [ai | ai:CATEGORY] [--categories]
     the AI crawlers that --agents ai judges (ai.robots.txt's list), with
     their tokens, categories and operators
  robots-batch generate man|bash|zsh|fish|elvish|powershell
     a man page or shell completions, from the same definitions as --help
  robots-batch help [check | lint | crawl | survey | diff | agents |
                     generate]
     this help, or a subcommand's

EXAMPLES:
  robots-batch robots.txt urls.txt > verdicts.csv
  robots-batch -a Googlebot --dialect google robots.txt urls.txt
  zcat urls.txt.gz | robots-batch --stats robots.txt - | head
  robots-batch -a GPTBot,CCBot -a ClaudeBot robots.txt urls.txt
  robots-batch --agents ai --layout long --explain robots.txt urls.txt
  robots-batch -a GPTBot --usage robots.txt urls.txt
  robots-batch --emit allowed -a MyBot robots.txt crawl.log | wc -l";

/// The command line.
#[derive(Debug, Parser)]
#[command(
    name = "robots-batch",
    version,
    about = ABOUT,
    long_about = LONG_ABOUT,
    after_help = AFTER_HELP,
    max_term_width = 100
)]
pub struct Args {
    /// The robots.txt file; `-` reads standard input. gzip and zstd files
    /// are decompressed (found by their first bytes).
    #[arg(value_name = "ROBOTS")]
    pub robots: PathBuf,

    /// The URLs, one per line; `-` reads standard input. gzip and zstd
    /// inputs are decompressed as they are read (found by their first
    /// bytes, not their names).
    #[arg(value_name = "URLS")]
    pub urls: PathBuf,

    #[command(flatten)]
    pub agents: super::AgentArgs,

    #[command(flatten)]
    pub output: OutputArgs,

    /// How to read the robots.txt: rfc9309, google, draft1996 or orig1994.
    ///
    /// rfc9309: RFC 9309, longest match wins, allow wins ties. google: as
    /// Google's open-source parser does. draft1996: the 1996 Internet-Draft,
    /// first matching rule in file order wins. orig1994: the 1994 standard,
    /// disallow lines and byte prefixes only.
    #[arg(long, value_name = "DIALECT", default_value_t = Dialect::Rfc9309)]
    pub dialect: Dialect,

    /// The matching engine: trie, dense, lazy, scan or naive.
    ///
    /// All give the same verdicts. trie (a trie of literal prefixes, with
    /// Aho-Corasick for wildcard tails) is the fastest and compiles in
    /// milliseconds even on 30,000 rules; dense (regex-automata dense DFAs)
    /// can take seconds to compile large wildcard sets; lazy
    /// (regex-automata's lazy DFA) is what both fall back to past their
    /// size limits; scan compiles nothing and tries the rules one by one
    /// (what crawl mode uses for an origin's first URLs); naive is the
    /// reference. dfa, the old name of trie, is accepted too.
    #[arg(long, value_name = "ENGINE", default_value_t = EngineKind::Trie)]
    pub engine: EngineKind,

    /// Access logs: keep at most MIB mebibytes of the rules and matchers of
    /// the groups the lines' agents select, counted as allocated.
    ///
    /// Agents that select the same groups of the robots.txt share one
    /// matcher, whatever their number; a group's first 1,000 URLs are
    /// judged by scanning its rules, and only then compiled. Past the
    /// budget the oldest groups are dropped and selected again when
    /// needed, and a group whose compiled matcher would not fit goes on
    /// scanning.
    #[arg(
        long,
        value_name = "MIB",
        default_value_t = robots_batch::record::DEFAULT_OWN_CACHE_BYTES >> 20
    )]
    pub cache_mib: usize,

    #[command(flatten)]
    pub threads: ThreadArgs,

    /// Parse only the first BYTES bytes of the robots.txt; 0 means no limit.
    ///
    /// A file over the limit is a warning, not an error: the rest is
    /// ignored, as a crawler that stops reading there would.
    #[arg(
        long,
        value_name = "BYTES",
        default_value_t = DEFAULT_MAX_ROBOTS_BYTES
    )]
    pub max_robots_bytes: usize,

    /// Print every robots.txt parse warning to standard error.
    ///
    /// Without it, only a file over the parse limit is reported.
    #[arg(short = 'v', long)]
    pub warnings: bool,

    #[command(flatten)]
    pub records: RecordInput,

    #[command(flatten)]
    pub report: Report,

    /// Cut the input into chunks of about BYTES bytes (for tests).
    #[arg(long, value_name = "BYTES", hide = true)]
    pub chunk_size: Option<usize>,
}

/// What the rows hold and how they are written: the flags the default
/// command and `crawl` share, with one meaning in both.
#[derive(Debug, clap::Args)]
pub struct OutputArgs {
    /// How several agents are laid out: wide or long.
    ///
    /// wide: `url,<agent1>,<agent2>,...`, one row per URL (crawl: each
    /// agent's verdict followed by `<agent>.reason`). long:
    /// `url,agent,verdict`, one row per URL and agent, the agents in order
    /// (crawl: with `reason`). Without --layout, one agent gives
    /// `url,verdict`; several are wide in the default command and long in
    /// crawl, whose rows carry a reason per agent.
    #[arg(long, value_name = "LAYOUT")]
    pub layout: Option<LayoutArg>,

    /// Add why each verdict was given.
    ///
    /// `line` and `rule` are the deciding rule's line number and its text
    /// as written (empty when no rule decided). One robots.txt adds
    /// `group`, the group the rules came from (the agent token as the
    /// robots.txt wrote it, or `*`; empty when no group applies), and
    /// `reason`: `rule`, `no-matching-rule`, `no-group` or
    /// `implicit-robots-txt` (RFC 9309 always allows /robots.txt). Crawl
    /// mode, whose rows always hold a reason, adds `robots`, the origin
    /// whose fetch decided (after redirects). With --layout wide each
    /// agent's columns are named `<agent>.line` and so on.
    #[arg(long)]
    pub explain: bool,

    /// Add the AI usage preferences of each URL: train-ai, search and
    /// ai-input.
    ///
    /// Read from the `Content-Usage` (IETF AIPREF) and `Content-Signal`
    /// (Cloudflare) lines of the groups that apply, in the rfc9309 and
    /// google dialects; they never change a verdict. Each column is
    /// `allowed`, `disallowed` or `unknown`, and empty (`null` in JSON) for
    /// a URL that may not be fetched (or, in crawl mode, whose origin has
    /// no robots.txt), which has no preferences. When both kinds of line
    /// apply, the most restrictive preference wins. With --explain,
    /// `train-ai-line`, `search-line` and `ai-input-line` name the line
    /// that decided each. With --layout wide, the columns are
    /// `<agent>.train-ai` and so on after each agent's verdict. Records
    /// (--input-format) get the fields `robots_train_ai`, `robots_search`
    /// and `robots_ai_input` (and `robots_train_ai_line`...).
    #[arg(long)]
    pub usage: bool,

    /// Print only the URLs (or records) with this verdict, one per line,
    /// as read: allowed (every agent may fetch them) or disallowed (some
    /// agent may not).
    ///
    /// For pipelines: no header, no quoting. In crawl mode an unknown
    /// verdict (and none disallowed) is in neither. The exit code is
    /// grep's: 0 when a URL was printed, 1 when none was, 2 on error.
    #[arg(
        long,
        value_name = "VERDICT",
        conflicts_with_all = ["layout", "explain", "format", "usage"]
    )]
    pub emit: Option<EmitArg>,

    /// Print only counts.
    ///
    /// With --emit, the number of URLs (or records) it would print (exit
    /// code 0 when it is not zero, 1 when it is). Without, a CSV table with
    /// the header `agent,allowed,disallowed` (crawl: and `unknown`) and a
    /// row per agent (exit code 0).
    #[arg(
        short = 'c',
        long,
        conflicts_with_all = ["layout", "explain", "format", "usage"]
    )]
    pub count: bool,

    #[command(flatten)]
    pub syntax: SyntaxArgs,
}

/// How rows are written: the flags of every command that writes rows.
#[derive(Debug, clap::Args)]
pub struct SyntaxArgs {
    /// The output's syntax: csv, tsv or jsonl [default: csv].
    ///
    /// csv: RFC 4180's quoting, with LF line ends. tsv: tab-separated,
    /// with tabs, CRs and backslashes in fields written `\t`, `\r` and
    /// `\\`. jsonl: one JSON object per line, `{"url":...,"verdict":...}`
    /// (long layout: with `"agent"`; wide layout:
    /// `"verdicts":{"<agent>":...}`), URL bytes that are not UTF-8 written
    /// as U+FFFD.
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<FormatArg>,

    /// Do not print the header row.
    #[arg(long)]
    pub no_header: bool,
}

impl SyntaxArgs {
    /// The rows' [`Format`](robots_batch::Format): csv unless told.
    pub fn format(&self) -> robots_batch::Format {
        match self.format {
            None | Some(FormatArg::Csv) => robots_batch::Format::Csv,
            Some(FormatArg::Tsv) => robots_batch::Format::Tsv,
            Some(FormatArg::Jsonl) => robots_batch::Format::Jsonl,
        }
    }
}

/// How many threads work: the flag of every command that uses several.
#[derive(Debug, clap::Args)]
pub struct ThreadArgs {
    /// Worker threads [default: all cores].
    ///
    /// 0 also means all cores; at most 1024. The output is the same for any
    /// number.
    #[arg(short = 'j', long, value_name = "N", value_parser = parse_threads)]
    pub threads: Option<usize>,
}

impl ThreadArgs {
    /// The thread count for [`BatchBuilder::threads`](robots_batch::BatchBuilder::threads): 0 for all cores.
    pub fn count(&self) -> usize {
        self.threads.unwrap_or(0)
    }
}

/// What URLS holds, and where a record's URL is: the flags the default
/// command and `crawl` share.
#[derive(Debug, clap::Args)]
pub struct RecordInput {
    /// What URLS holds: lines, jsonl, csv, tsv, cdxj, access-log, warc,
    /// parquet, sitemap or llms-txt [default: found from the content].
    ///
    /// lines: one URL per line. jsonl: a JSON object per line, the URL in
    /// --url-field. csv, tsv: a header, then records, the URL in the column
    /// named by --url-column. cdxj: Common Crawl's index lines (`surt
    /// timestamp {json}`). access-log: the combined log format, each line
    /// judged for its own User-Agent (not in crawl mode): its product token
    /// (`CCBot/2.0 (...)` is CCBot), or in a browser-like one (`Mozilla/`,
    /// `Opera`) the first word that names a crawler, else `*`. A word names
    /// a crawler when its name (up to a `/`), cut at every character that
    /// is not an ASCII letter, has a part ending in bot, crawler, crawl,
    /// spider or slurp (Googlebot, AdsBot-Google, MJ12bot, Baiduspider), or
    /// when it is a known AI crawler's token (ChatGPT-User); holding one
    /// is not enough (robots-proxy, Botanical-Garden-App are not crawlers).
    /// warc: every record with a WARC-Target-URI. parquet: the URL in
    /// --url-column (a dotted path into struct columns). sitemap: an XML
    /// sitemap's every <loc> (urlset; a sitemapindex's children with
    /// --sitemap-dir), or a text sitemap's lines. llms-txt: every Markdown
    /// link's target. Both come out as CSV rows `url,file,line,lastmod`
    /// and the verdict fields, or with --emit as the URLs kept. Without
    /// the flag, an input (decompressed) starting with `WARC/1.` is warc,
    /// `PAR1` parquet, `{` jsonl, `<` sitemap, a `# ` heading with Markdown
    /// links llms-txt; anything else is lines, or with --url-column csv
    /// (tsv when its header has tabs and no commas).
    /// Records come out in their own format with the `robots_*` fields
    /// added (WARC: a CSV row per record), or with --emit unchanged.
    #[arg(long, value_name = "FORMAT")]
    pub input_format: Option<InputFormatArg>,

    /// The URL's field in JSON records: a name, or a dotted path into
    /// nested objects (`meta.source.url`) [default: url].
    #[arg(long, value_name = "PATH")]
    pub url_field: Option<String>,

    /// The URL's column in CSV, TSV and Parquet records, by its name
    /// (Parquet: a dotted path into struct columns) [default: url].
    #[arg(long, value_name = "NAME", conflicts_with = "url_field")]
    pub url_column: Option<String>,

    #[command(flatten)]
    pub sitemap: SitemapFlags,
}

/// How sitemaps and llms.txt are read: the flags the default command,
/// `crawl`, `check` and `lint` share.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct SitemapFlags {
    /// Read the children a sitemap index lists from DIR: each child
    /// `https://host/a/b.xml.gz` is DIR/a/b.xml.gz, else DIR/b.xml.gz. A
    /// child not found there is reported and gets a row (unknown), and
    /// the run goes on. Without it, an index's children are judged as
    /// URLs.
    #[arg(long, value_name = "DIR")]
    pub sitemap_dir: Option<PathBuf>,

    /// The site's origin (`https://example.com`): an llms.txt's relative
    /// links are made absolute against it (without it they are paths from
    /// the root), and lint compares the hosts of Sitemap: lines with it.
    #[arg(long, value_name = "URL")]
    pub origin: Option<String>,
}

impl SitemapFlags {
    /// The source of a sitemap run over the input `name`.
    pub fn source(&self, name: &str) -> robots_batch::sitemap::SitemapSource {
        let options = robots_batch::sitemap::SitemapOptions {
            origin: self.origin.clone(),
            ..Default::default()
        };
        robots_batch::sitemap::SitemapSource::new(
            name,
            self.sitemap_dir.clone(),
            options,
        )
    }
}

impl RecordInput {
    /// The URL's field or column, if one was named.
    pub fn url_field(&self) -> Option<&str> {
        self.url_field.as_deref().or(self.url_column.as_deref())
    }

    /// The flag that named the URL's field or column, if one did.
    pub fn url_flag(&self) -> Option<&'static str> {
        match (&self.url_field, &self.url_column) {
            (Some(_), _) => Some("--url-field"),
            (None, Some(_)) => Some("--url-column"),
            (None, None) => None,
        }
    }
}

/// `--input-format`.
#[derive(Clone, Copy, Debug, Eq, PartialEq, ValueEnum)]
pub enum InputFormatArg {
    /// One URL per line.
    Lines,
    /// JSON Lines.
    Jsonl,
    /// CSV with a header.
    Csv,
    /// TSV with a header.
    Tsv,
    /// Common Crawl's CDXJ index.
    Cdxj,
    /// Combined log format.
    AccessLog,
    /// WARC files.
    Warc,
    /// Parquet files.
    Parquet,
    /// XML or text sitemaps.
    Sitemap,
    /// llms.txt.
    LlmsTxt,
}

impl InputFormatArg {
    /// The records' format, `None` for lines of URLs.
    pub fn record_format(self) -> Option<robots_batch::record::RecordFormat> {
        use robots_batch::record::RecordFormat;
        Some(match self {
            InputFormatArg::Lines => return None,
            InputFormatArg::Jsonl => RecordFormat::Jsonl,
            InputFormatArg::Csv => RecordFormat::Csv,
            InputFormatArg::Tsv => RecordFormat::Tsv,
            InputFormatArg::Cdxj => RecordFormat::Cdxj,
            InputFormatArg::AccessLog => RecordFormat::AccessLog,
            InputFormatArg::Warc => RecordFormat::Warc,
            InputFormatArg::Parquet => RecordFormat::Parquet,
            InputFormatArg::Sitemap => RecordFormat::Sitemap,
            InputFormatArg::LlmsTxt => RecordFormat::LlmsTxt,
        })
    }
}

/// `--compress`.
#[derive(Clone, Copy, Debug, Eq, PartialEq, ValueEnum)]
pub enum CompressArg {
    /// gzip.
    Gzip,
    /// zstd.
    Zstd,
}

/// `--layout`.
#[derive(Clone, Copy, Debug, Eq, PartialEq, ValueEnum)]
pub enum LayoutArg {
    /// One row per URL, one column per agent.
    Wide,
    /// One row per URL and agent.
    Long,
}

impl From<LayoutArg> for robots_batch::Layout {
    fn from(layout: LayoutArg) -> robots_batch::Layout {
        match layout {
            LayoutArg::Wide => robots_batch::Layout::Wide,
            LayoutArg::Long => robots_batch::Layout::Long,
        }
    }
}

/// `--emit`.
#[derive(Clone, Copy, Debug, Eq, PartialEq, ValueEnum)]
pub enum EmitArg {
    /// The URLs every agent may fetch.
    Allowed,
    /// The URLs some agent may not fetch.
    Disallowed,
}

/// Where a run's rows go and what it says of itself on standard error:
/// the flags the default command and `crawl` share.
#[derive(Debug, clap::Args)]
pub struct Report {
    /// Write the rows to FILE instead of standard output.
    ///
    /// FILE is created or truncated once the inputs are open; it may not be
    /// one of them. A name ending in `.gz` or `.zst` is written compressed.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Compress the output: gzip or zstd [default: by the extension of
    /// -o FILE, `.gz` or `.zst`; none on standard output].
    #[arg(long, value_name = "FORMAT")]
    pub compress: Option<CompressArg>,

    /// When to show a progress bar on standard error: auto, always or
    /// never.
    ///
    /// A bar appears once a run has taken a second, and only on a terminal.
    /// auto (the default): when standard error is a terminal and standard
    /// output is not (rows scrolling past would tear the bar); always:
    /// whenever standard error is a terminal; never: not at all.
    #[arg(long, value_name = "WHEN", default_value = "auto")]
    pub progress: ProgressWhen,

    /// Print counts and throughput to standard error at the end, as text
    /// (`--stats`) or as one JSON object (`--stats=json`).
    ///
    /// Lines, bytes, seconds, URLs/s and MB/s, and each agent's allowed and
    /// disallowed verdicts.
    #[arg(
        long,
        value_name = "FORMAT",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "human"
    )]
    pub stats: Option<StatsFormat>,
}

/// `--progress`.
#[derive(Clone, Copy, Debug, Eq, PartialEq, ValueEnum)]
pub enum ProgressWhen {
    /// When standard error is a terminal and standard output is not.
    Auto,
    /// Whenever standard error is a terminal.
    Always,
    /// Never.
    Never,
}

/// `--stats`.
#[derive(Clone, Copy, Debug, Eq, PartialEq, ValueEnum)]
pub enum StatsFormat {
    /// Lines of text.
    Human,
    /// One JSON object.
    Json,
}

/// `--format`.
#[derive(Clone, Copy, Debug, Eq, PartialEq, ValueEnum)]
pub enum FormatArg {
    /// RFC 4180 CSV.
    Csv,
    /// Tab-separated values.
    Tsv,
    /// JSON lines.
    Jsonl,
}

/// `-j`: a thread count up to [`MAX_THREADS`].
pub(crate) fn parse_threads(value: &str) -> Result<usize, String> {
    let n: usize = value
        .parse()
        .map_err(|_| format!("{value:?} is not a number of threads"))?;
    if n > MAX_THREADS {
        return Err(format!("at most {MAX_THREADS} threads (0: all cores)"));
    }
    Ok(n)
}

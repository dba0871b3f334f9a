//! The flags of `robots-batch crawl`, the crawl-log mode, as clap sees them.

use std::path::PathBuf;

use clap::{Parser, ValueEnum};
use robots_batch::crawl::{Assume, BeforeFirst, Capture, FetchPolicy};
use robots_batch::{Dialect, EngineKind, Timestamp, DEFAULT_MAX_ROBOTS_BYTES};

use super::args::{RecordInput, Report};

const CRAWL_AFTER_HELP: &str = "\
ROBOTS.TXT SOURCES (at least one; all may be combined):
  --robots-dir [DATE=]DIR
                        DIR/<host>.txt is the robots.txt of <host> (no
                        port), fetched with status 200, for every scheme and
                        port of that host. Hosts of file names, URLs and
                        fetches are read as the WHATWG URL standard reads
                        them (IDNA to ASCII, any case, percent-encoding, IP
                        address forms), trailing dots dropped: bücher.de,
                        BÜCHER.de. and xn--bcher-kva.de are one host. The
                        directory is listed when the run starts; a file is
                        read when the first URL of its host is judged (so a
                        small log reads only its own hosts' files), and one
                        that cannot be read then counts as no fetch, with a
                        line on standard error at the end. DATE= dates the
                        directory's captures (2024-06-01=june/).
  --robots-index FILE   JSON Lines, gzip allowed: {\"url\": \"https://h/robots.txt\",
                        \"status\": 200, \"body\": \"...\"}; \"body_base64\" for
                        bytes that are not UTF-8, \"location\" for redirects,
                        \"status\" 0 or absent for unreachable, \"date\" (RFC
                        3339, 14 digits or seconds) for when. By origin.
  --robots-warc FILE    WARC response records (.warc, or .warc.gz with any
                        number of gzip members): origin from WARC-Target-URI,
                        status and Location from the HTTP response, body
                        decoded (chunked; gzip, deflate, br, zstd), dated by
                        WARC-Date.
  A fetch by origin (index, WARC) takes precedence over a directory file.
  Only a fetch of /robots.txt is its origin's robots.txt; a capture of
  another URL counts only where a redirect leads to it (the others are
  counted on standard error). Of each body, only --max-robots-bytes are
  kept; WARC header lines over 64 KiB are an error.

CAPTURES IN TIME:
  An origin may have several captures (several dated directories, WARC
  files of several crawls, index lines with dates), given in any order.
  The newest judges (of two undated ones, the later given); --as-of DATE
  takes for every origin the newest at or before DATE; --at-fetch-time
  takes for each record the newest at or before its own fetch time. A URL
  older than every capture of its origin is judged by the earliest
  (reason `...;before-first`) or, with --before-first unknown, is unknown
  (before-first). Two dated captures of one origin at the same instant:
  the later given wins, with a warning.

FETCH RESULTS (RFC 9309 section 2.3.1, the defaults):
  2xx        the body is the robots.txt
  3xx        Location, resolved against the URL fetched (RFC 3986), is
             followed within the given fetches, up to --max-redirects
             hops; the rules found apply to the original origin. Too many
             hops or a loop: allowed (redirect-limit); a target without a
             fetch, or no Location: allowed (redirect-missing)
  4xx        allowed (--on-4xx); 401 and 403 apart (--on-401-403)
  5xx, 429   disallowed (--on-5xx), as is a host that did not answer
             (status 0) or a 2xx body whose Content-Encoding cannot be
             undone (counted on standard error)
  no fetch   unknown (--on-missing)
  not a URL  unknown (no-host): a line that is not an absolute http(s) URL

OUTPUT:
  CSV (or --format tsv/jsonl) on standard output, one row per input line
  and agent, in input order: `url,verdict,reason` with one agent,
  `url,agent,verdict,reason` with several. verdict: allowed, disallowed or
  unknown. reason: rule, no-matching-rule, no-group, implicit-robots-txt
  (the robots.txt decided), status-4xx, status-5xx, redirect-limit,
  redirect-missing, no-robots, no-host, before-first. --explain adds
  `robots` (the origin or host whose fetch decided), `capture` (when that
  fetch was made, if dated), `line` and `rule` (the deciding rule's line
  number and text).

RECORDS:
  --input-format jsonl, csv, tsv, cdxj, warc or parquet (detected for
  WARC, Parquet and JSON Lines, as in the default command) reads records
  whose URL is in a field (--url-field, --url-column) and writes each back
  in its own format with `robots_verdict` and `robots_reason` added per
  agent (`.<agent>` after the name with several), with --explain also
  `robots_origin`, `robots_capture`, `robots_line` and `robots_rule`, then
  `robots_error` (a record without a URL, or without a fetch time under
  --at-fetch-time). Access logs hold paths, not URLs: they are
  not for crawl mode.

FILTERING:
  --emit allowed writes the lines or records that every agent may fetch,
  unchanged; --emit disallowed those that some agent may not. A line or
  record with an unknown verdict (no fetch, not a URL) is in neither.

EXIT CODES:
  0  success (with --emit: something was written); 1  --emit wrote
  nothing; 2  usage or I/O error (an unreadable or malformed source names
  the file and, for an index, the line)

EXAMPLES:
  robots-batch crawl --robots-dir robots/ crawl.log > verdicts.csv
  robots-batch crawl --robots-warc CC-robotstxt-00000.warc.gz -a CCBot urls.txt
  robots-batch crawl --robots-index fetches.jsonl.gz --on-401-403 disallow \\
    --explain -a GPTBot,ClaudeBot urls.txt";

/// `robots-batch crawl`: URLs of many hosts, each judged by its own
/// origin's robots.txt and by how that fetch went.
#[derive(Debug, Parser)]
#[command(
    name = "robots-batch crawl",
    bin_name = "robots-batch crawl",
    version,
    about = "Judge a crawl log: each URL by the robots.txt fetched from its \
             own origin, and by how that fetch went.",
    after_help = CRAWL_AFTER_HELP,
    max_term_width = 100
)]
pub struct CrawlArgs {
    /// The URLs, one per line; `-` reads standard input.
    #[arg(value_name = "URLS")]
    pub urls: PathBuf,

    #[command(flatten)]
    pub sources: SourceArgs,

    #[command(flatten)]
    pub agents: super::AgentArgs,

    /// How to read each robots.txt: rfc9309, google, draft1996 or
    /// orig1994.
    #[arg(long, value_name = "DIALECT", default_value_t = Dialect::Rfc9309)]
    pub dialect: Dialect,

    /// The matching engine: trie, dense, lazy, scan or naive.
    ///
    /// dfa, the old name of trie, is accepted too.
    #[arg(long, value_name = "ENGINE", default_value_t = EngineKind::Trie)]
    pub engine: EngineKind,

    #[command(flatten)]
    pub policy: PolicyArgs,

    #[command(flatten)]
    pub time: TimeArgs,

    /// Verdict for a URL whose origin has no fetch: allow, disallow or
    /// unknown.
    #[arg(long, value_name = "VERDICT", default_value = "unknown")]
    pub on_missing: MissingArg,

    /// Keep at most MIB mebibytes of rules and matchers, counted as
    /// allocated (on average about 8 KiB per distinct robots.txt while its
    /// rules are scanned, 17 KiB once compiled); older ones are dropped
    /// and built again when needed, which costs dearly when the log's
    /// hosts come in random order. A log grouped by host keeps few: the
    /// rules of an origin whose URLs came together, between other
    /// origins', are let go after them. The run's other memory is the
    /// input in flight and about 500 bytes per file of --robots-dir.
    #[arg(long, value_name = "MIB", default_value_t = 1024)]
    pub cache_mib: usize,

    /// Judge each origin's first N URLs by scanning its rules one by one,
    /// and compile them (with --engine) only when the origin has more: most
    /// hosts of a crawl log have too few URLs to repay a compilation. 0
    /// compiles at once. The verdicts are the same either way.
    #[arg(
        long,
        value_name = "N",
        default_value_t = robots_batch::crawl::DEFAULT_COMPILE_AFTER
    )]
    pub compile_after: usize,

    #[command(flatten)]
    pub output: super::args::OutputArgs,

    #[command(flatten)]
    pub threads: super::args::ThreadArgs,

    #[command(flatten)]
    pub report: Report,

    #[command(flatten)]
    pub records: RecordInput,

    /// Cut the input into chunks of about BYTES bytes (for tests).
    #[arg(long, value_name = "BYTES", hide = true)]
    pub chunk_size: Option<usize>,
}

/// Where the robots.txt files of `crawl` and `survey` come from.
#[derive(Debug, clap::Args)]
// Not required by clap: `survey` takes robots.txt files instead; each
// command says when it has no source at all.
#[group(id = "sources", multiple = true)]
pub struct SourceArgs {
    /// A directory of `<host>.txt` robots.txt files; `DATE=DIR` dates
    /// its files' captures (`2024-06-01=snapshots/june/`).
    #[arg(long, value_name = "[DATE=]DIR", value_parser = dated_dir)]
    pub robots_dir: Vec<DatedDir>,

    /// A JSON Lines index of robots.txt fetches (gzip allowed; `-` reads
    /// standard input).
    #[arg(long, value_name = "FILE")]
    pub robots_index: Vec<PathBuf>,

    /// A WARC file of robots.txt responses (.warc or .warc.gz).
    #[arg(long, value_name = "FILE")]
    pub robots_warc: Vec<PathBuf>,
}

/// A `--robots-dir` value: a directory, and the date of its captures.
#[derive(Clone, Debug)]
pub struct DatedDir {
    pub date: Option<Timestamp>,
    pub dir: PathBuf,
}

/// `DATE=DIR` when what comes before the first `=` is a date, else a
/// directory (whose name may hold a `=`).
fn dated_dir(value: &str) -> Result<DatedDir, String> {
    if let Some((date, dir)) = value.split_once('=') {
        if let Some(date) = Timestamp::parse(date) {
            return Ok(DatedDir { date: Some(date), dir: dir.into() });
        }
    }
    Ok(DatedDir { date: None, dir: value.into() })
}

/// Which of an origin's dated captures judges a URL (`crawl`).
#[derive(Debug, clap::Args)]
pub struct TimeArgs {
    /// Judge every URL by the newest capture of its origin at or before
    /// DATE (a day alone, 2024-06-01, means its end; RFC 3339 and 14-digit
    /// timestamps are read too). Without it or --at-fetch-time, the newest
    /// capture judges.
    #[arg(long, value_name = "DATE", value_parser = as_of, conflicts_with = "at_fetch_time")]
    pub as_of: Option<Timestamp>,

    /// Judge each record's URL by the newest capture of its origin at or
    /// before the record's own fetch time: WARC-Date, the CDXJ timestamp,
    /// the access log's date, or --time-field. A record whose time cannot
    /// be read is unknown (no-time).
    #[arg(long)]
    pub at_fetch_time: bool,

    /// With --at-fetch-time, the field of JSON Lines, CSV, TSV or Parquet
    /// records that holds the fetch time: RFC 3339 or a 14-digit
    /// timestamp, an Arrow timestamp, or whole seconds since 1970.
    #[arg(long, value_name = "NAME", requires = "at_fetch_time")]
    pub time_field: Option<String>,

    /// What a URL fetched before its origin's earliest capture gets:
    /// `earliest` (that capture judges it; its reason says
    /// `;before-first`) or `unknown` (reason `before-first`).
    #[arg(long, value_name = "POLICY", default_value = "earliest")]
    pub before_first: BeforeFirstArg,
}

/// `--as-of`'s value.
pub(crate) fn as_of(value: &str) -> Result<Timestamp, String> {
    Timestamp::parse_as_of(value).ok_or_else(|| {
        format!("not a date: {value:?} (2024-06-01, 2024-06-01T12:00:00Z or 20240601120000)")
    })
}

impl TimeArgs {
    /// The capture choice of these flags.
    pub fn capture(&self) -> Capture {
        match (self.as_of, self.at_fetch_time) {
            (Some(t), _) => Capture::AsOf(t),
            (None, true) => Capture::AtFetchTime,
            (None, false) => Capture::Newest,
        }
    }

    /// `--before-first`.
    pub fn before_first(&self) -> BeforeFirst {
        match self.before_first {
            BeforeFirstArg::Earliest => BeforeFirst::Earliest,
            BeforeFirstArg::Unknown => BeforeFirst::Unknown,
        }
    }
}

/// `--before-first`.
#[derive(Clone, Copy, Debug, Eq, PartialEq, ValueEnum)]
pub enum BeforeFirstArg {
    /// The earliest capture judges.
    Earliest,
    /// The verdict `unknown`.
    Unknown,
}

impl SourceArgs {
    /// Whether any source was given.
    pub fn any(&self) -> bool {
        !self.robots_dir.is_empty()
            || !self.robots_index.is_empty()
            || !self.robots_warc.is_empty()
    }
}

/// How `crawl` and `survey` read a fetch that gave no robots.txt, and how
/// much of one they parse.
#[derive(Debug, clap::Args)]
pub struct PolicyArgs {
    /// Verdict on every URL of an origin whose fetch gave a 4xx other than
    /// 401 and 403.
    #[arg(long, value_name = "VERDICT", default_value = "allow")]
    pub on_4xx: AssumeArg,

    /// Verdict for a 401 or 403 fetch.
    #[arg(long, value_name = "VERDICT", default_value = "allow")]
    pub on_401_403: AssumeArg,

    /// Verdict for a 5xx or 429 fetch, or a host that did not answer.
    #[arg(long, value_name = "VERDICT", default_value = "disallow")]
    pub on_5xx: AssumeArg,

    /// The most redirects followed from one fetch (at most 100); a loop
    /// ends the chain at once.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 5,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new()
            .range(0..=robots_batch::crawl::MAX_REDIRECTS as u64)
    )]
    pub max_redirects: usize,

    /// Parse only the first BYTES bytes of each robots.txt; 0 means no
    /// limit.
    #[arg(
        long,
        value_name = "BYTES",
        default_value_t = DEFAULT_MAX_ROBOTS_BYTES
    )]
    pub max_robots_bytes: usize,
}

impl PolicyArgs {
    /// The fetch policy these flags give, with `on_missing` and a cache of
    /// `cache_bytes`.
    pub fn policy(
        &self,
        on_missing: Option<Assume>,
        cache_bytes: usize,
    ) -> FetchPolicy {
        let assume = |a: AssumeArg| match a {
            AssumeArg::Allow => Assume::Allow,
            AssumeArg::Disallow => Assume::Disallow,
        };
        FetchPolicy {
            on_4xx: assume(self.on_4xx),
            on_401_403: assume(self.on_401_403),
            on_5xx: assume(self.on_5xx),
            on_missing,
            max_redirects: self.max_redirects,
            max_robots_bytes: self.max_robots_bytes,
            cache_bytes,
            ..FetchPolicy::default()
        }
    }
}

/// `--on-4xx`, `--on-401-403`, `--on-5xx`.
#[derive(Clone, Copy, Debug, Eq, PartialEq, ValueEnum)]
pub enum AssumeArg {
    /// Every URL of the origin is allowed.
    Allow,
    /// Every URL of the origin is disallowed.
    Disallow,
}

/// `--on-missing`.
#[derive(Clone, Copy, Debug, Eq, PartialEq, ValueEnum)]
pub enum MissingArg {
    /// Allowed.
    Allow,
    /// Disallowed.
    Disallow,
    /// The verdict `unknown`.
    Unknown,
}

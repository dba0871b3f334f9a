/*!
Records: URLs inside the lines of structured files (JSON Lines, CSV, TSV,
CDXJ, access logs) and inside WARC records, judged, and written back in
their own format with the verdicts added, or kept or dropped unchanged.

[`Records`] says which format, where the URL is and what to write. A run
cuts the input into chunks of whole records (where its parser ends them:
`chunks.rs`), judges the chunks on the [`Batch`](crate::Batch)'s threads and hands
them to the sink in input order, as the pipeline of bare URL lines does.
WARC files are read one record after another (see [`Records::run_warc`]);
sitemaps and llms.txt entry after entry, in chunks of their own
([`Records::run_sitemap`]).

Every record gets a row. A record without a URL (a line that is not
JSON, a missing field, a `null`, a number) is a *bad record*: its verdict
is `unknown`, the `robots_error` field says why, and [`Stats`](crate::Stats) counts it
and remembers the first.

The records are judged by matchers of one robots.txt ([`Records::new`])
or, in crawl-log mode, each by its own origin's robots.txt and fetch
([`Records::crawl`]).
*/

use crate::crawl::CrawlJudge;
use crate::dialect::Dialect;
use crate::matcher::{Matcher, MatcherBuilder};
use crate::robots::Robots;
use crate::usage::Usage;
use chunks::invalid;

mod access_log;
mod arrow_time;
mod chunks;
mod json;
mod own;
mod parquet;
mod run;
mod sitemap;
mod tally;
mod warc;
mod warc_emit;
mod worker;

use own::OwnMatchers;
pub use own::DEFAULT_OWN_CACHE_BYTES;

pub use arrow_time::arrow_times;
pub use chunks::MAX_RECORD_BYTES;

/// The format of the records.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum RecordFormat {
    /// One JSON object per line; the URL at a dotted path of fields.
    Jsonl,
    /// RFC 4180 CSV with a header; the URL in a named column.
    Csv,
    /// Tab-separated values with a header, no quoting.
    Tsv,
    /// Common Crawl's index lines: `surt timestamp {json}`, the URL in the
    /// JSON's `url` field.
    Cdxj,
    /// Web server access logs in the combined log format: the path of the
    /// request line, judged for the agent of the User-Agent field.
    AccessLog,
    /// WARC files: every record with a `WARC-Target-URI`.
    Warc,
    /// Parquet files: the URL in a named column (a dotted path into struct
    /// columns), read and written by row groups.
    Parquet,
    /// Sitemaps: XML (`urlset`, `sitemapindex`) or text, every URL listed
    /// (see [`crate::sitemap`]).
    Sitemap,
    /// llms.txt: every Markdown link's target.
    LlmsTxt,
}

impl RecordFormat {
    /// The format's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            RecordFormat::Jsonl => "jsonl",
            RecordFormat::Csv => "csv",
            RecordFormat::Tsv => "tsv",
            RecordFormat::Cdxj => "cdxj",
            RecordFormat::AccessLog => "access-log",
            RecordFormat::Warc => "warc",
            RecordFormat::Parquet => "parquet",
            RecordFormat::Sitemap => "sitemap",
            RecordFormat::LlmsTxt => "llms-txt",
        }
    }
}

/// Where a record's URL is, which agents judge it, and what a run writes.
#[derive(Debug)]
pub struct Records<'m> {
    format: RecordFormat,
    /// The dotted path of the URL's JSON field, or the CSV column's name.
    url_field: Vec<String>,
    /// `Some(true)`: only the records every agent may fetch, unchanged.
    emit: Option<bool>,
    explain: bool,
    matchers: &'m [Matcher],
    agents: Vec<String>,
    /// Access logs: what each line's own agent is judged by.
    per_line: Option<OwnMatchers<'m>>,
    /// Crawl-log mode: each record judged by its origin's robots.txt
    /// (`matchers` is empty then).
    crawl: Option<&'m CrawlJudge>,
    /// With `--usage`: per agent (`usage[i]` for `matchers[i]`), the
    /// usage lines whose preferences follow its verdict fields; for access
    /// logs, empty: each line's agent's are selected as its matcher is
    /// compiled.
    usage: Option<Vec<Usage>>,
    /// The names of the fields added to each record, `robots_error` last.
    columns: Vec<String>,
    /// With `-c`: each agent's verdicts counted (see `tally.rs`).
    tally: Option<&'m crate::output::Counts>,
    /// Crawl-log mode at fetch time: the path of the field or the name of
    /// the column that holds each record's fetch time (empty for WARC and
    /// CDXJ, whose records carry theirs); `None`: no time is read.
    time_field: Option<Vec<String>>,
    /// Sitemaps and llms.txt: the input's name, index directory and
    /// origin.
    sitemap: Option<&'m crate::sitemap::SitemapSource>,
}

/// The name of the field that says why a record is bad.
const ERROR: &str = "robots_error";

/// The usage fields, one per [`Category`](crate::usage::Category) in the order of
/// [`Category::ALL`](crate::usage::Category::ALL): `robots_` and the category's name with `_` for `-`,
/// as the other added fields are named.
pub const USAGE_FIELDS: [&str; 3] =
    ["robots_train_ai", "robots_search", "robots_ai_input"];

/// The fields of the lines that decided each usage preference.
pub const USAGE_LINE_FIELDS: [&str; 3] =
    ["robots_train_ai_line", "robots_search_line", "robots_ai_input_line"];

/// Whether the added field `name` holds a line number (`robots_line` and
/// the usage lines, with or without their `.<agent>`).
fn is_line_field(name: &str) -> bool {
    let base = name.split('.').next().unwrap_or(name);
    base == "robots_line" || USAGE_LINE_FIELDS.contains(&base)
}

/// The verdict of a bad record.
const UNKNOWN: &[u8] = b"unknown";

impl<'m> Records<'m> {
    /// Records of `format`, judged by `matchers` (`agents[i]` naming the
    /// agent of `matchers[i]`), the URL in the field or column `url`.
    pub fn new(
        format: RecordFormat,
        matchers: &'m [Matcher],
        agents: &[String],
    ) -> Records<'m> {
        let mut records = Records {
            format,
            url_field: vec!["url".to_string()],
            emit: None,
            explain: false,
            matchers,
            agents: agents.to_vec(),
            per_line: None,
            crawl: None,
            usage: None,
            columns: vec![],
            tally: None,
            time_field: None,
            sitemap: None,
        };
        records.columns = records.columns();
        records
    }

    /// Records of `format` in crawl-log mode: each judged for `judge`'s
    /// agents by the robots.txt and fetch of its URL's own origin. The
    /// fields per agent are `robots_verdict` and `robots_reason` (as
    /// `robots-batch crawl` words it), and with explanations
    /// `robots_origin` (the origin or host whose fetch decided),
    /// `robots_line` and `robots_rule`. Access logs, whose paths have no
    /// origin, are not for this mode.
    pub fn crawl(format: RecordFormat, judge: &'m CrawlJudge) -> Records<'m> {
        let mut records = Records::new(format, &[], judge.agents());
        records.crawl = Some(judge);
        records.columns = records.columns();
        records
    }

    /// The format of the records.
    pub fn format(&self) -> RecordFormat {
        self.format
    }

    /// The URL's field: a dotted path of JSON field names (`meta.url`),
    /// or a CSV or TSV column's name (dots and all). Default `url`.
    pub fn url_field(&mut self, name: &str) -> &mut Records<'m> {
        self.url_field = match self.format {
            RecordFormat::Jsonl | RecordFormat::Parquet => {
                name.split('.').map(String::from).collect()
            }
            _ => vec![name.to_string()],
        };
        self
    }

    /// In crawl-log mode, judges each record by the captures in effect at
    /// its own fetch time ([`CrawlJudge::verdicts_at`]): WARC-Date, the
    /// CDXJ timestamp, or the field or column `field` (a dotted path for
    /// JSON Lines and Parquet) of the other formats. A record whose time
    /// cannot be read is a bad record, judged unknown.
    pub fn at_fetch_time(&mut self, field: Option<&str>) -> &mut Records<'m> {
        self.time_field = Some(match (self.format, field) {
            (RecordFormat::Warc | RecordFormat::Cdxj, _) | (_, None) => vec![],
            (RecordFormat::Jsonl | RecordFormat::Parquet, Some(f)) => {
                f.split('.').map(String::from).collect()
            }
            (_, Some(f)) => vec![f.to_string()],
        });
        self
    }

    /// Why the records cannot be judged at their fetch time as set up:
    /// a format whose time is in a field named by none.
    pub fn time_problem(&self) -> Option<String> {
        let field = self.time_field.as_ref()?;
        let own =
            matches!(self.format, RecordFormat::Warc | RecordFormat::Cdxj);
        (field.is_empty() && !own).then(|| {
            format!(
                "{} records carry no fetch time of their own: name its field \
                 with --time-field",
                self.format.name()
            )
        })
    }

    /// Writes only the records with this verdict (`true`: those every
    /// agent may fetch), unchanged; bad records match neither.
    pub fn emit(&mut self, allowed: Option<bool>) -> &mut Records<'m> {
        self.emit = allowed;
        self
    }

    /// Sitemaps and llms.txt: the input's name, where an index's children
    /// are, and the origin of relative links.
    pub fn sitemap_source(
        &mut self,
        source: &'m crate::sitemap::SitemapSource,
    ) -> &mut Records<'m> {
        self.sitemap = Some(source);
        self
    }

    /// Adds each verdict's line, rule, group and reason.
    pub fn explain(&mut self, yes: bool) -> &mut Records<'m> {
        self.explain = yes;
        self.columns = self.columns();
        self
    }

    /// Adds each agent's AI usage preferences after its verdict fields
    /// (`usage[i]` for the agent of `matchers[i]`; for access logs an
    /// empty list, each line's agent's being selected under the robots.txt
    /// of [`Records::per_line_agents`]): `robots_train_ai`,
    /// `robots_search` and `robots_ai_input`, each `allowed`, `disallowed`
    /// or `unknown`, no value where the verdict is `disallowed` or the
    /// record is bad; with explanations, then the deciding line of each,
    /// `robots_train_ai_line`... (no value when unknown).
    pub fn usage(&mut self, usage: Vec<Usage>) -> &mut Records<'m> {
        self.usage = Some(usage);
        self.columns = self.columns();
        self
    }

    /// Access logs: judges each line for the agent of its own User-Agent
    /// field (see the README) under `robots`, rather than for the
    /// matchers' agents. Agents that select the same groups share one
    /// matcher, kept within [`DEFAULT_OWN_CACHE_BYTES`] (see
    /// [`Records::own_cache_bytes`]).
    pub fn per_line_agents(
        &mut self,
        robots: &'m Robots,
        dialect: Dialect,
        builder: MatcherBuilder,
    ) -> &mut Records<'m> {
        let budget = DEFAULT_OWN_CACHE_BYTES;
        self.per_line =
            Some(OwnMatchers::new(robots, dialect, builder, budget));
        self.columns = self.columns();
        self
    }

    /// Access logs: keeps at most `bytes` of the rules and matchers of the
    /// groups the lines' agents select (as allocated); the oldest go
    /// first, and are selected again when needed.
    pub fn own_cache_bytes(&mut self, bytes: usize) -> &mut Records<'m> {
        if let Some(own) = self.per_line.as_mut() {
            own.set_budget(bytes);
        }
        self
    }

    /// The names of the added fields: `robots_agent` (access logs), then
    /// per agent `robots_verdict` and with explanations `robots_line`,
    /// `robots_rule`, `robots_group` and `robots_reason`, with usage
    /// [`USAGE_FIELDS`] (and with explanations [`USAGE_LINE_FIELDS`]), each
    /// followed by `.<agent>` when there are several agents, then
    /// `robots_error`.
    pub fn added_fields(&self) -> &[String] {
        &self.columns
    }

    fn columns(&self) -> Vec<String> {
        let mut names = vec![];
        let mut per_agent = vec!["robots_verdict"];
        if self.crawl.is_some() {
            per_agent.push("robots_reason");
            if self.explain {
                per_agent.extend([
                    "robots_origin",
                    "robots_capture",
                    "robots_line",
                    "robots_rule",
                ]);
            }
        } else if self.explain {
            per_agent.extend([
                "robots_line",
                "robots_rule",
                "robots_group",
                "robots_reason",
            ]);
        }
        if self.usage.is_some() {
            per_agent.extend(USAGE_FIELDS);
            if self.explain {
                per_agent.extend(USAGE_LINE_FIELDS);
            }
        }
        if self.per_line.is_some() {
            names.push("robots_agent".to_string());
            names.extend(per_agent.iter().map(|n| n.to_string()));
        } else if self.agents.len() == 1 {
            names.extend(per_agent.iter().map(|n| n.to_string()));
        } else {
            for agent in &self.agents {
                names.extend(per_agent.iter().map(|n| format!("{n}.{agent}")));
            }
        }
        names.push(ERROR.to_string());
        names
    }
}

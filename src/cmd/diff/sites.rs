//! `robots-batch diff --robots-dir ... --as-of D1 --as-of D2`: the sites
//! whose scope for an agent changed between two dates, over many sites'
//! dated captures.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Context;
use robots_batch::crawl::{Capture, CrawlJudge, FetchPolicy};
use robots_batch::diff::{site_changes, SiteChange};
use robots_batch::output::{Columns, Field};
use robots_batch::survey::Scope;
use robots_batch::{BatchBuilder, MatcherBuilder, Timestamp};

use crate::cli::{read_fetches, warn_agent, DiffArgs};

/// The columns of the table.
const COLUMNS: [&str; 6] =
    ["site", "agent", "old", "new", "old_capture", "new_capture"];

/// Compares every site's capture in effect at the two dates.
pub fn run(args: DiffArgs) -> anyhow::Result<ExitCode> {
    if args.old.is_some() || args.urls.is_some() {
        anyhow::bail!(
            "give either OLD and NEW (one site) or robots.txt sources with \
             two --as-of dates (many sites), not both"
        );
    }
    let [old, new] = args.as_of[..] else {
        anyhow::bail!(
            "comparing many sites needs two dates: --as-of OLD --as-of NEW \
             ({} given)",
            args.as_of.len()
        );
    };
    let agents = args.agents.resolve()?;
    for agent in &agents {
        warn_agent(agent, args.dialect);
    }
    let mut batch = BatchBuilder::new();
    batch.threads(args.threads.count());
    let batch = batch.build().context("failed to start worker threads")?;
    let mut skipped = vec![];
    let fetches = batch.install(|| {
        read_fetches(&args.sources, args.max_robots_bytes, Some(&mut skipped))
    })?;
    for s in &skipped {
        message!("{}: skipped: {}", s.path.display(), s.why);
    }
    // Every capture is kept: each site is judged at two dates.
    let policy = FetchPolicy {
        capture: Capture::AtFetchTime,
        max_robots_bytes: args.max_robots_bytes,
        ..FetchPolicy::default()
    };
    let judge = CrawlJudge::new(
        fetches,
        policy,
        MatcherBuilder::new(),
        &agents,
        args.dialect,
    );
    let found = batch.install(|| site_changes(&judge, old, new));
    let mut out = io::BufWriter::new(io::stdout().lock());
    let text = match args.format.table() {
        None => found.changes.iter().flat_map(|c| line(&agents, c)).collect(),
        Some(format) => {
            let columns = Columns::new(format, &COLUMNS);
            let mut rows = match args.no_header {
                true => vec![],
                false => columns.header(),
            };
            for c in &found.changes {
                push_row(&columns, &mut rows, &agents, c);
            }
            rows
        }
    };
    out.write_all(&text).context("failed to write output")?;
    out.flush().context("failed to write output")?;
    let mut sites: Vec<&str> =
        found.changes.iter().map(|c| c.site.as_str()).collect();
    sites.dedup();
    message!(
        "{} of {} sites change scope between {old} and {new} ({} rows)",
        sites.len(),
        found.sites,
        found.changes.len()
    );
    for error in judge.fetches().unreadable() {
        message!("{error}");
    }
    Ok(match args.exit_code && !found.changes.is_empty() {
        true => ExitCode::from(1),
        false => ExitCode::SUCCESS,
    })
}

fn scope_name(scope: Option<Scope>) -> &'static str {
    scope.map_or("-", Scope::name)
}

fn date(t: Option<Timestamp>) -> String {
    t.map_or(String::new(), |t| t.to_string())
}

/// `a.com: GPTBot none -> full (2024-01-01T00:00:00Z -> ...)`.
fn line(agents: &[String], c: &SiteChange) -> Vec<u8> {
    let (from, to) = (date(c.old_capture), date(c.new_capture));
    let when = match (from.is_empty(), to.is_empty()) {
        (true, true) => String::new(),
        _ => format!(" (captures {} -> {})", or_dash(&from), or_dash(&to)),
    };
    format!(
        "{}: {} {} -> {}{when}\n",
        c.site,
        agents[c.agent],
        scope_name(c.old),
        scope_name(c.new)
    )
    .into_bytes()
}

fn or_dash(s: &str) -> &str {
    if s.is_empty() {
        "-"
    } else {
        s
    }
}

fn push_row(
    columns: &Columns,
    out: &mut Vec<u8>,
    agents: &[String],
    c: &SiteChange,
) {
    let (from, to) = (date(c.old_capture), date(c.new_capture));
    fn text(s: &str) -> Field<'_> {
        match s.is_empty() {
            true => Field::Null,
            false => Field::Text(s.as_bytes()),
        }
    }
    let fields = [
        Field::Text(c.site.as_bytes()),
        Field::Text(agents[c.agent].as_bytes()),
        Field::Text(scope_name(c.old).as_bytes()),
        Field::Text(scope_name(c.new).as_bytes()),
        text(&from),
        text(&to),
    ];
    columns.push(out, &fields);
}

//! `robots-batch survey --history`: per period and agent, how many sites
//! had a capture in effect and how they blocked the agent, over dated
//! captures; the sites that changed, and a chart of the shares.

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use robots_batch::crawl::{Capture, CrawlJudge, FetchPolicy};
use robots_batch::output::{Columns, Field};
use robots_batch::survey::history::{history, History, HistoryOptions};
use robots_batch::survey::plot::plot_svg;
use robots_batch::survey::Scope;
use robots_batch::{Format, MatcherBuilder};

use crate::cli::{warn_agent, SurveyArgs};

/// The columns of the rows: each count, then its share of `sites`.
const COLUMNS: [&str; 11] = [
    "period",
    "agent",
    "sites",
    "full",
    "partial",
    "none",
    "unknown",
    "full_share",
    "partial_share",
    "none_share",
    "unknown_share",
];

const SCOPES: [Scope; 4] =
    [Scope::Full, Scope::Partial, Scope::None, Scope::Unknown];

/// Reads the sources and writes the history of their dated captures.
pub fn run(args: SurveyArgs) -> anyhow::Result<ExitCode> {
    let opts = &args.history;
    for (flag, path) in
        [("--transitions", &opts.transitions), ("--plot", &opts.plot)]
    {
        if path.as_ref().is_some_and(|p| p.as_os_str() == "-") {
            anyhow::bail!(
                "{flag} needs a file: standard output holds the rows"
            );
        }
    }
    if !args.sources.any() && args.files.is_empty() {
        anyhow::bail!(
            "nothing to survey: --history needs dated captures, from \
             --robots-dir DATE=DIR, --robots-index (with \"date\") or \
             --robots-warc"
        );
    }
    if !args.files.is_empty() {
        anyhow::bail!(
            "--history needs dated captures: robots.txt files given by name \
             have no date (use --robots-dir DATE=DIR)"
        );
    }
    let (batch, fetches) = super::shared::read_sources(&args)?;
    let agents = args.agents.resolve()?;
    for agent in &agents {
        warn_agent(agent, args.dialect);
    }
    // Any choice but the newest keeps every capture's body; redirects of
    // a capture lead to the target's capture nearest in time.
    let policy = FetchPolicy {
        capture: Capture::AtFetchTime,
        ..args.policy.policy(None, 0)
    };
    let judge = CrawlJudge::new(
        fetches,
        policy,
        MatcherBuilder::new(),
        &agents,
        args.dialect,
    );
    let same = judge.fetches().same_instant();
    if same > 0 {
        message!(
            "{same} captures of a site at the same instant as a later one \
             of the input: the later one is kept"
        );
    }
    let options = HistoryOptions {
        period: opts.period.period(),
        carry_forward: opts.carry_forward,
    };
    let found = batch.install(|| history(&judge, options))?;
    if found.undated > 0 {
        message!(
            "{} undated captures left out: a history counts dated ones only",
            found.undated
        );
    }
    if found.labels.is_empty() {
        anyhow::bail!(
            "no dated capture: give directories with dates (--robots-dir \
             DATE=DIR), index lines with \"date\", or WARC files"
        );
    }
    for error in judge.fetches().unreadable() {
        message!("{error}");
    }
    if found.proof_bound > 0 {
        message!(
            "{} robots.txt bodies: the scope's proof stopped at its bound \
             for some agent, whose scope is then unknown",
            found.proof_bound
        );
    }
    let format = args.syntax.format();
    let header = !args.syntax.no_header;
    let mut stdout = io::BufWriter::new(io::stdout().lock());
    stdout
        .write_all(&rows(&found, format, header))
        .and_then(|()| stdout.flush())
        .context("failed to write output")?;
    if let Some(path) = &opts.transitions {
        let name = |i: usize| judge.fetches().get(i).map_or("", |(n, _)| n);
        let out = transitions(&found, format, header, name);
        write_file(path, &out)?;
    }
    if let Some(path) = &opts.plot {
        let svg = plot_svg(&found)?;
        write_file(path, svg.as_bytes())?;
    }
    // The process ends next: freeing every capture one by one is a visible
    // part of a history of many sites.
    std::mem::forget(judge);
    Ok(ExitCode::SUCCESS)
}

/// `period,agent,sites,full,partial,none,unknown` and the shares, per
/// period then agent.
fn rows(found: &History, format: Format, header: bool) -> Vec<u8> {
    let columns = Columns::new(format, &COLUMNS);
    let mut out = if header { columns.header() } else { vec![] };
    let mut fields = Vec::with_capacity(COLUMNS.len());
    for (k, label) in found.labels.iter().enumerate() {
        for (a, agent) in found.agents.iter().enumerate() {
            let c = found.counts(k, a);
            fields.clear();
            fields.extend([
                Field::Text(label.as_bytes()),
                Field::Text(agent.as_bytes()),
                Field::Number(c.sites()),
            ]);
            fields.extend(SCOPES.map(|s| Field::Number(c.get(s))));
            fields.extend(SCOPES.map(|s| Field::Share(c.get(s), c.sites())));
            columns.push(&mut out, &fields);
        }
    }
    out
}

/// `period,agent,site,from,to`, one row per transition.
fn transitions<'a>(
    found: &History,
    format: Format,
    header: bool,
    name: impl Fn(usize) -> &'a str,
) -> Vec<u8> {
    let columns =
        Columns::new(format, &["period", "agent", "site", "from", "to"]);
    let mut out = if header { columns.header() } else { vec![] };
    for t in &found.transitions {
        let fields = [
            Field::Text(found.labels[t.period].as_bytes()),
            Field::Text(found.agents[t.agent].as_bytes()),
            Field::Text(name(t.site).as_bytes()),
            Field::Text(t.from.name().as_bytes()),
            Field::Text(t.to.name().as_bytes()),
        ];
        columns.push(&mut out, &fields);
    }
    out
}

fn write_file(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    std::fs::write(path, bytes)
        .with_context(|| format!("failed to write {}", path.display()))
}

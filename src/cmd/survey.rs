//! `robots-batch survey`: one row per site and agent over many robots.txt,
//! saying how the fetch went, which group applies and how much of the site
//! it disallows.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Context;
use rayon::prelude::*;
use robots_batch::crawl::{CrawlJudge, Skipped};
use robots_batch::survey::{survey, AgentScope, GroupKind, Scope};
use robots_batch::{
    BatchBuilder, Columns, Dialect, Field, Format, MatcherBuilder, Robots,
};

use super::crawl::read_fetches;
use crate::cli::args::FormatArg;
use crate::cli::{resolve_agents, warn_agent, SurveyArgs};

/// Sites surveyed at a time: their rows are rendered in parallel and
/// written in order, so that memory stays bounded however many sites and
/// agents there are.
const SITES_PER_CHUNK: usize = 1024;

/// One site's survey: the fetch's outcome and a line per agent.
struct SiteSurvey {
    fetch: &'static str,
    agents: Vec<AgentScope>,
}

/// Reads the sources, then surveys every site for every agent.
pub fn run(args: SurveyArgs) -> anyhow::Result<ExitCode> {
    let stdin = args
        .sources
        .robots_index
        .iter()
        .chain(args.agents_file.as_ref())
        .filter(|path| path.as_os_str() == "-")
        .count();
    if stdin > 1 {
        anyhow::bail!(
            "only one of --agents-file and the --robots-index files can be \
             standard input (-)"
        );
    }
    let mut batch = BatchBuilder::new();
    batch.threads(args.threads.unwrap_or(0));
    let batch = batch.build().context("failed to start worker threads")?;
    let max_bytes = args.policy.max_robots_bytes;
    let mut skipped = vec![];
    let fetches = batch.install(|| {
        read_fetches(&args.sources, max_bytes, Some(&mut skipped))
    })?;
    for s in &skipped {
        message!("{}: skipped: {}", s.path.display(), s.why);
    }
    let agents = resolve_agents(
        &args.agent,
        args.agents_file.as_deref(),
        &args.agents,
    )?;
    for agent in &agents {
        warn_agent(agent, args.dialect);
    }
    let policy = args.policy.policy(None, 0);
    let judge = CrawlJudge::new(
        fetches,
        policy,
        MatcherBuilder::new(),
        &agents,
        args.dialect,
    );
    let format = match args.format {
        None | Some(FormatArg::Csv) => Format::Csv,
        Some(FormatArg::Tsv) => Format::Tsv,
        Some(FormatArg::Jsonl) => Format::Jsonl,
    };
    // By name, so that a directory's rows do not depend on the order its
    // file system lists it in.
    let mut sites: Vec<usize> = judge.sites().collect();
    let name = |i: usize| judge.fetches().get(i).map_or("", |(n, _)| n);
    sites.sort_by(|&a, &b| name(a).cmp(name(b)));
    let mut unreadable: Vec<&Skipped> =
        skipped.iter().filter(|s| s.host.is_some()).collect();
    unreadable.sort_by(|a, b| a.host.cmp(&b.host));
    let mut stdout = io::BufWriter::new(io::stdout().lock());
    let mut summary = Summary::new(agents.len());
    // Columns are only ever appended, so that scripts reading them by
    // position keep working: the usage preferences at `/` go after `rules`.
    let columns = Columns::new(
        format,
        &["site", "agent", "fetch", "group", "scope", "rules"],
    );
    if !args.no_header && !args.summary {
        stdout
            .write_all(&columns.header())
            .context("failed to write output")?;
    }
    let survey_site = |&i: &usize| -> SiteSurvey {
        site_survey(&judge, i, &agents, args.dialect, max_bytes)
    };
    for chunk in sites.chunks(SITES_PER_CHUNK) {
        let surveys: Vec<SiteSurvey> =
            batch.install(|| chunk.par_iter().map(survey_site).collect());
        for (&i, s) in chunk.iter().zip(&surveys) {
            if args.summary {
                summary.add(&s.agents);
                continue;
            }
            let mut out = vec![];
            push_rows(&columns, &mut out, name(i), &agents, s);
            stdout.write_all(&out).context("failed to write output")?;
        }
    }
    for s in unreadable {
        let host = s.host.as_deref().unwrap_or("");
        let unknown = AgentScope {
            group: GroupKind::None,
            scope: Scope::Unknown,
            rules: 0,
        };
        let site = SiteSurvey {
            fetch: "unreadable",
            agents: vec![unknown; agents.len()],
        };
        if args.summary {
            summary.add(&site.agents);
        } else {
            let mut out = vec![];
            push_rows(&columns, &mut out, host, &agents, &site);
            stdout.write_all(&out).context("failed to write output")?;
        }
    }
    if args.summary {
        let out = summary.render(format, &agents, !args.no_header);
        stdout.write_all(&out).context("failed to write output")?;
    }
    stdout.flush().context("failed to write output")?;
    // The process ends next: freeing every site's fetch one by one is a
    // visible part of a survey of many sites.
    std::mem::forget(judge);
    Ok(ExitCode::SUCCESS)
}

/// The survey of the site at `index`.
fn site_survey(
    judge: &CrawlJudge,
    index: usize,
    agents: &[String],
    dialect: Dialect,
    max_bytes: usize,
) -> SiteSurvey {
    match judge.resolution(index) {
        Ok(fetch) => {
            let body =
                judge.fetches().get(fetch).map_or(&[][..], |f| &f.1.body);
            let robots = Robots::parse_with_limit(body, max_bytes);
            SiteSurvey {
                fetch: "ok",
                agents: survey(&robots, agents, dialect),
            }
        }
        Err(verdict) => {
            let scope = match verdict.allowed() {
                Some(true) => Scope::None,
                Some(false) => Scope::Full,
                None => Scope::Unknown,
            };
            let one = AgentScope { group: GroupKind::None, scope, rules: 0 };
            SiteSurvey {
                fetch: verdict.reason().name(),
                agents: vec![one; agents.len()],
            }
        }
    }
}

fn push_rows(
    columns: &Columns,
    out: &mut Vec<u8>,
    site: &str,
    agents: &[String],
    s: &SiteSurvey,
) {
    for (agent, a) in agents.iter().zip(&s.agents) {
        columns.push(
            out,
            &[
                Field::Text(site.as_bytes()),
                Field::Text(agent.as_bytes()),
                Field::Text(s.fetch.as_bytes()),
                Field::Text(a.group.name().as_bytes()),
                Field::Text(a.scope.name().as_bytes()),
                Field::Number(a.rules as u64),
            ],
        );
    }
}

const GROUPS: [GroupKind; 3] =
    [GroupKind::Named, GroupKind::Star, GroupKind::None];
const SCOPES: [Scope; 4] =
    [Scope::Full, Scope::Partial, Scope::None, Scope::Unknown];

/// Sites counted per agent, group kind and scope.
struct Summary {
    counts: Vec<[[u64; 4]; 3]>,
}

impl Summary {
    fn new(agents: usize) -> Summary {
        Summary { counts: vec![[[0; 4]; 3]; agents] }
    }

    fn add(&mut self, agents: &[AgentScope]) {
        for (c, a) in self.counts.iter_mut().zip(agents) {
            let g = GROUPS.iter().position(|&g| g == a.group).unwrap_or(2);
            let s = SCOPES.iter().position(|&s| s == a.scope).unwrap_or(3);
            c[g][s] += 1;
        }
    }

    /// `agent,group,sites,full,partial,none,unknown`: per agent a row for
    /// all sites, then one per group kind.
    fn render(
        &self,
        format: Format,
        agents: &[String],
        header: bool,
    ) -> Vec<u8> {
        let columns = Columns::new(
            format,
            &["agent", "group", "sites", "full", "partial", "none", "unknown"],
        );
        let mut out = if header { columns.header() } else { vec![] };
        for (agent, c) in agents.iter().zip(&self.counts) {
            let mut all = [0u64; 4];
            for g in c {
                for (t, n) in all.iter_mut().zip(g) {
                    *t += n;
                }
            }
            let rows = std::iter::once(("all", all))
                .chain(GROUPS.iter().zip(c).map(|(g, n)| (g.name(), *n)));
            for (group, n) in rows {
                let sites: u64 = n.iter().sum();
                columns.push(
                    &mut out,
                    &[
                        Field::Text(agent.as_bytes()),
                        Field::Text(group.as_bytes()),
                        Field::Number(sites),
                        Field::Number(n[0]),
                        Field::Number(n[1]),
                        Field::Number(n[2]),
                        Field::Number(n[3]),
                    ],
                );
            }
        }
        out
    }
}

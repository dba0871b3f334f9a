//! `robots-batch survey`: one row per site and agent over many robots.txt,
//! saying how the fetch went, which group applies and how much of the site
//! it disallows.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Context;
use rayon::prelude::*;
use robots_batch::crawl::{CrawlJudge, Fetch};
use robots_batch::survey::classify::{Classified, Classifier};
use robots_batch::survey::{
    survey, usage_at_root, AgentScope, GroupKind, Scope,
};
use robots_batch::{
    output::Columns, output::Field, Dialect, Format, MatcherBuilder, Robots,
};
use robots_batch::{usage::Category, usage::Preference, UsagePrefs};

use crate::cli::{warn_agent, SurveyArgs};

/// Sites surveyed at a time: their rows are rendered in parallel and
/// written in order, so that memory stays bounded however many sites and
/// agents there are.
const SITES_PER_CHUNK: usize = 1024;

/// One site's survey: the fetch's outcome and a line per agent.
struct SiteSurvey {
    fetch: &'static str,
    agents: Vec<AgentScope>,
    /// With `--usage`, each agent's preferences at `/` (`None` where it
    /// may not fetch `/`); else empty.
    usage: Vec<Option<UsagePrefs>>,
    /// With `--classify` other than exact, each agent's class by it; else
    /// empty (the exact scope is the class).
    classified: Vec<Classified>,
}

impl SiteSurvey {
    /// Agent `i`'s group, scope and rules as the classifier reads them.
    fn class(&self, i: usize) -> (GroupKind, Scope, usize) {
        match self.classified.get(i) {
            Some(c) => (c.group, c.scope, c.rules),
            None => {
                let a = &self.agents[i];
                (a.group, a.scope, a.rules)
            }
        }
    }
}

/// Reads the sources, then surveys every site for every agent.
pub fn run(args: SurveyArgs) -> anyhow::Result<ExitCode> {
    if args.history.history {
        return super::history::run(args);
    }
    if args.files.is_empty() && !args.sources.any() {
        anyhow::bail!(
            "nothing to survey: give robots.txt files, or --robots-dir, \
             --robots-index or --robots-warc (see robots-batch survey -h)"
        );
    }
    let (batch, mut fetches) = super::shared::read_sources(&args)?;
    for path in &args.files {
        let body = std::fs::read(path)
            .with_context(|| format!("failed to read {}", path.display()))?;
        let fetch = Fetch { status: 200, body, location: None, date: None };
        fetches.insert_host(&site_of(path), fetch);
    }
    let agents = args.agents.resolve()?;
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
    let format = args.syntax.format();
    // By name, so that a directory's rows do not depend on the order its
    // file system lists it in.
    let mut sites: Vec<usize> = judge.sites().collect();
    let name = |i: usize| judge.fetches().get(i).map_or("", |(n, _)| n);
    sites.sort_by(|&a, &b| name(a).cmp(name(b)));
    let mut stdout = io::BufWriter::new(io::stdout().lock());
    let mut summary = Summary::new(agents.len());
    // Columns are only ever appended, so that scripts reading them by
    // position keep working: the usage preferences at `/` go after `rules`,
    // then the exact scope beside another classifier's, then `note`.
    let classify = args.classify;
    let mut names = vec!["site", "agent", "fetch", "group", "scope", "rules"];
    if args.usage {
        names.extend(Category::ALL.map(Category::name));
    }
    if classify != Classifier::Exact {
        names.push("exact-scope");
    }
    names.push("note");
    let columns = Columns::new(format, &names);
    if !args.syntax.no_header && !args.summary {
        stdout
            .write_all(&columns.header())
            .context("failed to write output")?;
    }
    let how = How {
        dialect: args.dialect,
        max_bytes: args.policy.max_robots_bytes,
        usage: args.usage,
        classify,
    };
    let survey_site =
        |&i: &usize| -> SiteSurvey { site_survey(&judge, i, &agents, &how) };
    let mut bound_hit = 0;
    for chunk in sites.chunks(SITES_PER_CHUNK) {
        let surveys: Vec<SiteSurvey> =
            batch.install(|| chunk.par_iter().map(survey_site).collect());
        for (&i, s) in chunk.iter().zip(&surveys) {
            bound_hit += s.agents.iter().filter(|a| a.bound_hit).count();
            if args.summary {
                summary.add(s);
                continue;
            }
            let mut out = vec![];
            let classified = classify != Classifier::Exact;
            push_rows(&columns, &mut out, name(i), &agents, s, classified);
            stdout.write_all(&out).context("failed to write output")?;
        }
    }
    if args.summary {
        let out = summary.render(
            format,
            &agents,
            !args.syntax.no_header,
            args.usage,
            classify != Classifier::Exact,
        );
        stdout.write_all(&out).context("failed to write output")?;
    }
    stdout.flush().context("failed to write output")?;
    for error in judge.fetches().unreadable() {
        message!("{error}");
    }
    // A summary has no note column: the count is the only trace of them.
    if bound_hit > 0 {
        message!(
            "{bound_hit} rows: the scope's proof stopped at its bound, so \
             the scope is unknown (note `{PROOF_BOUND}`)"
        );
    }
    // The process ends next: freeing every site's fetch one by one is a
    // visible part of a survey of many sites.
    std::mem::forget(judge);
    Ok(ExitCode::SUCCESS)
}

/// How each site is surveyed: the survey's flags.
struct How {
    dialect: Dialect,
    max_bytes: usize,
    /// Whether to add the usage preferences at `/`.
    usage: bool,
    classify: Classifier,
}

/// The survey of the site at `index`.
fn site_survey(
    judge: &CrawlJudge,
    index: usize,
    agents: &[String],
    how: &How,
) -> SiteSurvey {
    let dialect = how.dialect;
    // Where no robots.txt was read, no usage line applies: each agent that
    // may fetch `/` has every preference unknown. Every classifier takes
    // the fetch policy's word.
    let without_robots = |fetch, scope: AgentScope| SiteSurvey {
        fetch,
        agents: vec![scope; agents.len()],
        usage: if how.usage {
            vec![scope.root_allowed.then(UsagePrefs::default); agents.len()]
        } else {
            vec![]
        },
        classified: vec![],
    };
    let verdict = match judge.resolution(index) {
        Ok(fetch) => match judge.fetches().body(fetch) {
            Some(body) => {
                let robots = Robots::parse_with_limit(&body, how.max_bytes);
                let scopes = survey(&robots, agents, dialect);
                let usage = if how.usage {
                    usage_at_root(&robots, agents, dialect, &scopes)
                } else {
                    vec![]
                };
                // The studies read the whole body, as they fetched it.
                let classified = match how.classify {
                    Classifier::Exact => vec![],
                    c => c.classify(&body, &robots, agents, dialect),
                };
                return SiteSurvey {
                    fetch: "ok",
                    agents: scopes,
                    usage,
                    classified,
                };
            }
            // A directory's file that could not be read: nothing is known
            // of the site.
            None => {
                let unknown = AgentScope {
                    group: GroupKind::None,
                    scope: Scope::Unknown,
                    rules: 0,
                    root_allowed: false,
                    bound_hit: false,
                };
                return without_robots("unreadable", unknown);
            }
        },
        Err(verdict) => verdict,
    };
    let scope = match verdict.allowed() {
        Some(true) => Scope::None,
        Some(false) => Scope::Full,
        None => Scope::Unknown,
    };
    let one = AgentScope {
        group: GroupKind::None,
        scope,
        rules: 0,
        root_allowed: verdict.allowed() == Some(true),
        bound_hit: false,
    };
    without_robots(verdict.reason().name(), one)
}

/// The rows of one site, with the exact scope too where `classified`.
fn push_rows(
    columns: &Columns,
    out: &mut Vec<u8>,
    site: &str,
    agents: &[String],
    s: &SiteSurvey,
    classified: bool,
) {
    let mut fields = Vec::with_capacity(11);
    for (i, (agent, a)) in agents.iter().zip(&s.agents).enumerate() {
        let (group, scope, rules) = s.class(i);
        fields.clear();
        fields.extend([
            Field::Text(site.as_bytes()),
            Field::Text(agent.as_bytes()),
            Field::Text(s.fetch.as_bytes()),
            Field::Text(group.name().as_bytes()),
            Field::Text(scope.name().as_bytes()),
            Field::Number(rules as u64),
        ]);
        if let Some(prefs) = s.usage.get(i) {
            fields.extend(Category::ALL.map(|c| match prefs {
                Some(prefs) => Field::Text(prefs.get(c).name().as_bytes()),
                None => Field::Null,
            }));
        }
        if classified {
            fields.push(Field::Text(a.scope.name().as_bytes()));
        }
        fields.push(match a.bound_hit {
            true => Field::Text(PROOF_BOUND.as_bytes()),
            false => Field::Null,
        });
        columns.push(out, &fields);
    }
}

/// The `note` of a row whose scope is unknown because its proof stopped at
/// its bound.
const PROOF_BOUND: &str = "proof-bound";

const GROUPS: [GroupKind; 3] =
    [GroupKind::Named, GroupKind::Star, GroupKind::None];
const SCOPES: [Scope; 4] =
    [Scope::Full, Scope::Partial, Scope::None, Scope::Unknown];

/// Counts of one agent's sites of one group kind: per scope, then per
/// usage category the sites allowing and disallowing it at `/`, then the
/// sites whose class is not the exact scope.
#[derive(Clone, Copy, Default)]
struct Counts {
    scopes: [u64; 4],
    usage: [[u64; 2]; 3],
    differs: u64,
}

impl Counts {
    fn add(&mut self, other: &Counts) {
        for (t, n) in self.scopes.iter_mut().zip(other.scopes) {
            *t += n;
        }
        for (t, n) in
            self.usage.iter_mut().flatten().zip(other.usage.iter().flatten())
        {
            *t += n;
        }
        self.differs += other.differs;
    }
}

/// Sites counted per agent and group kind.
struct Summary {
    counts: Vec<[Counts; 3]>,
}

impl Summary {
    fn new(agents: usize) -> Summary {
        Summary { counts: vec![[Counts::default(); 3]; agents] }
    }

    fn add(&mut self, site: &SiteSurvey) {
        for (i, (c, a)) in self.counts.iter_mut().zip(&site.agents).enumerate()
        {
            let (group, scope, _) = site.class(i);
            let g = GROUPS.iter().position(|&g| g == group).unwrap_or(2);
            let s = SCOPES.iter().position(|&s| s == scope).unwrap_or(3);
            c[g].scopes[s] += 1;
            c[g].differs += u64::from(scope != a.scope);
            let Some(Some(prefs)) = site.usage.get(i) else { continue };
            for (n, category) in c[g].usage.iter_mut().zip(Category::ALL) {
                match prefs.get(category) {
                    Preference::Allowed => n[0] += 1,
                    Preference::Disallowed => n[1] += 1,
                    Preference::Unknown => {}
                }
            }
        }
    }

    /// `agent,group,sites,full,partial,none,unknown` (and with `usage`,
    /// `train-ai-allowed,train-ai-disallowed,...`, then with `differs`,
    /// `differs`): per agent a row for all sites, then one per group kind.
    fn render(
        &self,
        format: Format,
        agents: &[String],
        header: bool,
        usage: bool,
        differs: bool,
    ) -> Vec<u8> {
        let mut names: Vec<String> =
            ["agent", "group", "sites", "full", "partial", "none", "unknown"]
                .map(String::from)
                .into();
        if usage {
            for category in Category::ALL {
                for pref in [Preference::Allowed, Preference::Disallowed] {
                    names.push(format!("{}-{}", category.name(), pref.name()));
                }
            }
        }
        if differs {
            names.push("differs".to_string());
        }
        let columns = Columns::new(format, &names);
        let mut out = if header { columns.header() } else { vec![] };
        let mut fields = Vec::with_capacity(names.len());
        for (agent, c) in agents.iter().zip(&self.counts) {
            let mut all = Counts::default();
            for g in c {
                all.add(g);
            }
            let rows = std::iter::once(("all", all))
                .chain(GROUPS.iter().zip(c).map(|(g, n)| (g.name(), *n)));
            for (group, n) in rows {
                fields.clear();
                fields.extend([
                    Field::Text(agent.as_bytes()),
                    Field::Text(group.as_bytes()),
                    Field::Number(n.scopes.iter().sum()),
                ]);
                fields.extend(n.scopes.map(Field::Number));
                if usage {
                    fields.extend(
                        n.usage.iter().flatten().map(|&k| Field::Number(k)),
                    );
                }
                if differs {
                    fields.push(Field::Number(n.differs));
                }
                columns.push(&mut out, &fields);
            }
        }
        out
    }
}

/// The site a robots.txt file given by name stands for: `<host>.txt`
/// names its host, as in a --robots-dir; any other name is the site's
/// name as it is (`robots.txt`).
fn site_of(path: &std::path::Path) -> String {
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    match name.strip_suffix(".txt") {
        Some(host) if host.contains('.') => host.to_string(),
        _ => name,
    }
}

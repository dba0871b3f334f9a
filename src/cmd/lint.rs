//! `robots-batch lint ROBOTS`: what a site owner should fix, for people
//! or, with `--format json`, for tools; with `--sitemaps`, also the URLs
//! the site lists that its robots.txt disallows.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Context;
use robots_batch::sitemap::{host_of, Audit, AuditFinding};
use robots_batch::sitemap::{Sitemap, SitemapSet};
use robots_batch::{lint::Directive, lint::Lint};
use serde_json::json;

use crate::cli::{read_robots, LintArgs, LintFormat};

/// Prints the report; exit code 1 when it has findings.
pub fn run(args: LintArgs) -> anyhow::Result<ExitCode> {
    let robots = read_robots(&args.robots, args.max_robots_bytes)?;
    let lint = Lint::new(&robots, args.dialect);
    let name = args.robots.display().to_string();
    let audit = match args.sitemaps.is_empty() {
        true => None,
        false => Some(audit(&args, &robots, &lint)?),
    };
    let text = match args.format {
        LintFormat::Human => human(&name, &lint, audit.as_deref()),
        LintFormat::Json => json(&name, &lint, audit.as_deref()),
    };
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .context("failed to write output")?;
    let audited = audit.as_ref().is_some_and(|a| !a.is_empty());
    Ok(if lint.findings.is_empty() && !audited {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn agents(agents: &[Vec<u8>]) -> String {
    agents.iter().map(|a| lossy(a)).collect::<Vec<_>>().join(", ")
}

/// The findings of the `Sitemap:` lines and of the sitemaps given, for
/// the agents asked.
fn audit(
    args: &LintArgs,
    robots: &robots_batch::Robots,
    lint: &Lint,
) -> anyhow::Result<Vec<AuditFinding>> {
    let agents = args.agents.resolve()?;
    let audit = Audit::new(robots, &agents, args.dialect);
    let host = match args.sitemap.origin.as_deref() {
        Some(origin) => Some(host_of(origin).unwrap_or(origin).to_string()),
        None => lint
            .sitemaps
            .first()
            .and_then(|d| host_of(&lossy(&d.value)).map(str::to_string)),
    };
    let mut found = vec![];
    for d in &lint.sitemaps {
        let url = lossy(&d.value);
        found.extend(audit.sitemap_line(d.line, &url, host.as_deref()));
    }
    let source = args.sitemap.source("");
    for path in &args.sitemaps {
        let name = path.display().to_string();
        let file = std::fs::File::open(path)
            .with_context(|| format!("failed to open {name}"))?;
        let read = |err| {
            anyhow::Error::new(err).context(format!("failed to read {name}"))
        };
        let root =
            Sitemap::open(file, &name, &source.options).map_err(read)?;
        let mut set =
            SitemapSet::new(root, source.dir.as_deref(), &source.options);
        while let Some(entry) = set.next_entry().map_err(read)? {
            found.extend(audit.entry(&entry));
        }
        if let Some(first) = set.missing().first() {
            message!("{name}: a child sitemap not found: {first}");
        }
    }
    Ok(found)
}

fn human(name: &str, lint: &Lint, audit: Option<&[AuditFinding]>) -> String {
    let mut s = String::new();
    for f in &lint.findings {
        s += &format!("{name}:{}: {}: {}\n", f.line, f.code, f.message);
    }
    let audit = audit.unwrap_or_default();
    for f in audit {
        let file = if f.file.is_empty() { name } else { &f.file };
        s += &format!("{file}:{}: {}: {}\n", f.line, f.code, f.message);
    }
    s += &format!("{} findings\n", lint.findings.len() + audit.len());
    s += &format!("groups: {}\n", lint.groups.len());
    for g in &lint.groups {
        let rules = if g.rules == 1 { "rule" } else { "rules" };
        s += &format!(
            "  line {}: {} ({} {rules})\n",
            g.line,
            agents(&g.agents),
            g.rules
        );
    }
    s += &format!("sitemaps: {}\n", lint.sitemaps.len());
    for r in &lint.sitemaps {
        s += &format!("  line {}: {}\n", r.line, lossy(&r.value));
    }
    s += &format!("crawl-delays: {}\n", lint.crawl_delays.len());
    for r in &lint.crawl_delays {
        s += &format!(
            "  line {}: {} (group {})\n",
            r.line,
            lossy(&r.value),
            agents(&r.agents)
        );
    }
    s
}

fn json(name: &str, lint: &Lint, audit: Option<&[AuditFinding]>) -> String {
    let directive = |r: &Directive| {
        json!({
            "line": r.line,
            "value": lossy(&r.value),
            "agents": r.agents.iter().map(|a| lossy(a)).collect::<Vec<_>>(),
        })
    };
    let report = json!({
        "file": name,
        "findings": lint.findings.iter().map(|f| json!({
            "line": f.line,
            "code": f.code,
            "message": f.message,
        })).collect::<Vec<_>>(),
        "groups": lint.groups.iter().map(|g| json!({
            "line": g.line,
            "agents": g.agents.iter().map(|a| lossy(a)).collect::<Vec<_>>(),
            "rules": g.rules,
        })).collect::<Vec<_>>(),
        "sitemaps": lint.sitemaps.iter().map(directive).collect::<Vec<_>>(),
        "crawl_delays":
            lint.crawl_delays.iter().map(directive).collect::<Vec<_>>(),
    });
    let mut report = report;
    if let Some(audit) = audit {
        report["sitemap_findings"] = audit
            .iter()
            .map(|f| {
                json!({
                    "file": if f.file.is_empty() { name } else { &f.file },
                    "line": f.line,
                    "code": f.code,
                    "agent": f.agent,
                    "url": f.url,
                    "rule_line": f.rule.as_ref().map(|r| r.0),
                    "rule": f.rule.as_ref().map(|r| &r.1),
                    "message": f.message,
                })
            })
            .collect();
    }
    format!("{report}\n")
}

//! `robots-batch lint ROBOTS`: what a site owner should fix, for people
//! or, with `--format json`, for tools.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Context;
use robots_batch::{lint::Directive, lint::Lint};
use serde_json::json;

use crate::cli::{read_robots, LintArgs, LintFormat};

/// Prints the report; exit code 1 when it has findings.
pub fn run(args: LintArgs) -> anyhow::Result<ExitCode> {
    let robots = read_robots(&args.robots, args.max_robots_bytes)?;
    let lint = Lint::new(&robots, args.dialect);
    let name = args.robots.display().to_string();
    let text = match args.format {
        LintFormat::Human => human(&name, &lint),
        LintFormat::Json => json(&name, &lint),
    };
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .context("failed to write output")?;
    Ok(if lint.findings.is_empty() {
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

fn human(name: &str, lint: &Lint) -> String {
    let mut s = String::new();
    for f in &lint.findings {
        s += &format!("{name}:{}: {}: {}\n", f.line, f.code, f.message);
    }
    s += &format!("{} findings\n", lint.findings.len());
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

fn json(name: &str, lint: &Lint) -> String {
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
    format!("{report}\n")
}

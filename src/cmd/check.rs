//! `robots-batch check ROBOTS URL...`: the verdicts of a few URLs given on
//! the command line, for people and for scripts that read the exit code
//! (0: every URL allowed, 1: some URL disallowed).

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Context;
use robots_batch::sitemap::{Problem, Sitemap, SitemapSet};
use robots_batch::{robots::WarningKind, usage::Category, Matcher, Usage};

use crate::cli::{read_robots, warn_agent, warn_not_robots_txt, CheckArgs};

/// Prints the verdict of each URL, in the order given.
pub fn run(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let (agents, urls): (Vec<String>, &[String]) = if args.spec_test {
        match args.urls.as_slice() {
            [url, agent] => (vec![agent.clone()], std::slice::from_ref(url)),
            _ => anyhow::bail!(
                "--spec-test takes exactly ROBOTS URL AGENT ({} arguments \
                 after ROBOTS given)",
                args.urls.len()
            ),
        }
    } else {
        (args.agents.resolve()?, &args.urls)
    };
    let listed = listed(urls, &args)?;
    let robots = read_robots(&args.robots, args.max_robots_bytes)?;
    warn_not_robots_txt(&args.robots, &robots);
    for warning in robots.warnings() {
        if matches!(warning.kind, WarningKind::OverParseLimit { .. }) {
            message!("{}: {}", args.robots.display(), warning);
        }
    }
    // With several agents, each line names its agent after the verdict,
    // padded so that the URLs line up.
    let width = match agents.len() {
        1 => None,
        _ => agents.iter().map(String::len).max(),
    };
    let mut buf = vec![];
    let mut out = io::stdout().lock();
    let mut all_allowed = true;
    for agent in &agents {
        warn_agent(agent, args.dialect);
        let matcher = Matcher::new(&robots, agent, args.dialect);
        let usage =
            args.usage.then(|| Usage::select(&robots, agent, args.dialect));
        let mut scratch = matcher.scratch();
        for (url, problem) in listed.iter().map(|(u, p)| (u, *p)) {
            if let Some(problem) = problem {
                all_allowed = false;
                let mut line = format!("{:<10} ", "unknown");
                if let Some(width) = width {
                    line.push_str(&format!("{agent:<width$} "));
                }
                line.push_str(&format!("{url} ({})", problem.reason()));
                writeln!(out, "{line}").context("failed to write output")?;
                continue;
            }
            let verdict = matcher.verdict(url.as_bytes(), &mut scratch);
            all_allowed &= verdict.is_allowed();
            let mut line = format!("{:<10} ", verdict.name());
            if let Some(width) = width {
                line.push_str(&format!("{agent:<width$} "));
            }
            line.push_str(url);
            let prefs =
                usage.as_ref().filter(|_| verdict.is_allowed()).map(|u| {
                    (u, u.prefs(u.dialect().path(url.as_bytes(), &mut buf)))
                });
            if let Some((_, prefs)) = prefs {
                for (i, c) in Category::ALL.into_iter().enumerate() {
                    let sep = if i == 0 { " " } else { ", " };
                    line.push_str(&format!(
                        "{sep}{}={}",
                        c.name(),
                        prefs.get(c).name()
                    ));
                }
            }
            if args.explain {
                let why = matcher.explain(verdict.reason());
                line.push_str(&format!(" ({why}"));
                if let Some((u, prefs)) = prefs {
                    for c in Category::ALL {
                        let Some(rule) =
                            prefs.line(c).and_then(|n| u.line_at(n))
                        else {
                            continue;
                        };
                        line.push_str(&format!(
                            "; {} from line {}: {}",
                            c.name(),
                            rule.line(),
                            String::from_utf8_lossy(rule.text())
                        ));
                    }
                }
                line.push(')');
            }
            writeln!(out, "{line}").context("failed to write output")?;
        }
    }
    out.flush().context("failed to write output")?;
    Ok(if all_allowed { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// The URLs to judge: those given, then those the sitemaps list, each
/// with why it has no URL to judge, if it has none.
fn listed(
    urls: &[String],
    args: &CheckArgs,
) -> anyhow::Result<Vec<(String, Option<Problem>)>> {
    let mut listed: Vec<_> = urls.iter().map(|u| (u.clone(), None)).collect();
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
            listed.push((entry.url, entry.problem));
        }
        if let Some(first) = set.missing().first() {
            message!("{name}: a child sitemap not found: {first}");
        }
    }
    Ok(listed)
}

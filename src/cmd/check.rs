//! `robots-batch check ROBOTS URL...`: the verdicts of a few URLs given on
//! the command line, for people and for scripts that read the exit code
//! (0: every URL allowed, 1: some URL disallowed).

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Context;
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
        for url in urls {
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

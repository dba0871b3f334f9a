//! `robots-batch diff OLD NEW [URLS]`: what changes for each agent when a
//! site replaces its robots.txt, as a report for people or a table; the
//! URLs whose verdict changes are judged in `urls`.

mod sites;
mod urls;

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use robots_batch::diff::{diff_rules, AgentDiff, Selection, VerdictDiff};
use robots_batch::output::{Columns, Field};
use robots_batch::robots::WarningKind;
use robots_batch::{GroupMatch, MatcherBuilder, Robots};

use crate::cli::{read_robots, warn_agent, warn_not_robots_txt, DiffArgs};

/// The two files' names in the report: as given, standard input as
/// `<stdin>`.
struct Names {
    old: String,
    new: String,
}

/// Compares the two files for every agent, then judges the URLs, if any.
pub fn run(args: DiffArgs) -> anyhow::Result<ExitCode> {
    if args.sources.any() {
        return sites::run(args);
    }
    let (Some(old_path), Some(new_path)) = (&args.old, &args.new) else {
        anyhow::bail!("give OLD and NEW, or robots.txt sources (see -h)");
    };
    if !args.as_of.is_empty() {
        anyhow::bail!(
            "--as-of picks the captures of robots.txt sources \
             (--robots-dir, --robots-index, --robots-warc), not of OLD and NEW"
        );
    }
    let stdin = [Some(old_path), Some(new_path), args.urls.as_ref()]
        .into_iter()
        .flatten()
        .filter(|path| path.as_os_str() == "-")
        .count()
        + usize::from(
            args.agents
                .agents_file
                .as_ref()
                .is_some_and(|p| p.as_os_str() == "-"),
        );
    if stdin > 1 {
        anyhow::bail!(
            "only one of OLD, NEW, URLS and --agents-file can be standard \
             input (-)"
        );
    }
    let agents = args.agents.resolve()?;
    let old = read(old_path, args.max_robots_bytes)?;
    let new = read(new_path, args.max_robots_bytes)?;
    for agent in &agents {
        warn_agent(agent, args.dialect);
    }
    // URLS is opened before anything is written, so that an error leaves
    // standard output empty.
    let urls = args.urls.as_deref().map(urls::open).transpose()?;
    let names = Names { old: name(old_path), new: name(new_path) };
    let diffs = diff_rules(&old, &new, &agents, args.dialect);
    let rules_changed = diffs.iter().any(AgentDiff::is_changed);
    let table = args.format.table();
    let mut out = io::BufWriter::new(io::stdout().lock());
    let report = match table {
        None => human(&names, &diffs).into_bytes(),
        Some(_) if urls.is_some() => vec![],
        Some(format) => {
            let columns = Columns::new(format, &RULE_COLUMNS);
            let mut rows = match args.no_header {
                true => vec![],
                false => columns.header(),
            };
            for diff in &diffs {
                rule_rows(&columns, &mut rows, diff);
            }
            rows
        }
    };
    out.write_all(&report).context("failed to write output")?;
    let mut urls_changed = false;
    if let Some(urls) = urls {
        let mut builder = MatcherBuilder::new();
        builder.engine(args.engine);
        let verdicts =
            VerdictDiff::new(&builder, &old, &new, &agents, args.dialect);
        let run = urls::Run {
            diff: &verdicts,
            names: (&names.old, &names.new),
            table,
            header: !args.no_header,
            threads: args.threads.count(),
        };
        urls_changed = urls::run(&run, urls, &mut out)?;
    }
    out.flush().context("failed to write output")?;
    let changed = rules_changed || urls_changed;
    Ok(if args.exit_code && changed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Reads a robots.txt, with the warnings the other commands give about it.
fn read(path: &Path, limit: usize) -> anyhow::Result<Robots> {
    let robots = read_robots(path, limit)?;
    warn_not_robots_txt(path, &robots);
    for warning in robots.warnings() {
        if matches!(warning.kind, WarningKind::OverParseLimit { .. }) {
            message!("{}: {}", name(path), warning);
        }
    }
    Ok(robots)
}

fn name(path: &Path) -> String {
    match path.as_os_str() == "-" {
        true => "<stdin>".to_string(),
        false => path.display().to_string(),
    }
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A group's name in the report: the agent token as the file wrote it,
/// `*`, or `none`.
fn group_name(group: &GroupMatch) -> String {
    match group {
        GroupMatch::None => "none".to_string(),
        group => lossy(group.name()),
    }
}

/// The group of `side` with the user-agent lines that select it in the
/// file `file`: `* (old.txt:1,7)`, or `none`.
fn group_at(side: &Selection, file: &str) -> String {
    let name = group_name(&side.group);
    if side.agent_lines.is_empty() {
        return name;
    }
    let lines: Vec<String> =
        side.agent_lines.iter().map(u32::to_string).collect();
    format!("{name} ({file}:{})", lines.join(","))
}

/// The report for people: per agent, what changed, each rule with its
/// file and line. Agents whose changes are the same (all those the `*`
/// groups judge, most often) share one entry, named by them all.
fn human(names: &Names, diffs: &[AgentDiff]) -> String {
    let mut s = String::new();
    let mut shown = vec![false; diffs.len()];
    for (i, d) in diffs.iter().enumerate() {
        if shown[i] {
            continue;
        }
        let mut agents = vec![d.agent.as_str()];
        for (j, other) in diffs.iter().enumerate().skip(i + 1) {
            if !shown[j] && same_changes(d, other) {
                shown[j] = true;
                agents.push(&other.agent);
            }
        }
        let agents = agents.join(", ");
        if !d.is_changed() {
            s += &format!(
                "{agents}: unchanged (group {}, scope {})\n",
                group_name(&d.old.group),
                d.old.scope.name()
            );
            continue;
        }
        s += &format!("{agents}: changed\n");
        s += &changes(names, d);
    }
    s
}

/// Whether two agents' diffs say the same but for the agent.
fn same_changes(a: &AgentDiff, b: &AgentDiff) -> bool {
    a.old == b.old
        && a.new == b.new
        && a.removed == b.removed
        && a.added == b.added
        && a.reordered == b.reordered
}

/// An agent's changes in the report, a line each.
fn changes(names: &Names, d: &AgentDiff) -> String {
    let mut s = String::new();
    if d.group_changed() {
        s += &format!(
            "  group: {} -> {}\n",
            group_at(&d.old, &names.old),
            group_at(&d.new, &names.new)
        );
    } else {
        s += &format!("  group: {} (unchanged)\n", group_name(&d.old.group));
    }
    if d.scope_changed() {
        s += &format!(
            "  scope: {} -> {}\n",
            d.old.scope.name(),
            d.new.scope.name()
        );
    } else {
        s += &format!("  scope: {} (unchanged)\n", d.old.scope.name());
    }
    for r in d.removed.iter() {
        s += &format!("  - {}:{}: {}\n", names.old, r.line, lossy(&r.text));
    }
    for r in d.added.iter() {
        s += &format!("  + {}:{}: {}\n", names.new, r.line, lossy(&r.text));
    }
    if d.reordered {
        s += "  reordered: the rules both keep come in another order, and \
              the first that matches decides\n";
    }
    s
}

/// The columns of the table of changes (without URLS).
const RULE_COLUMNS: [&str; 6] =
    ["agent", "change", "old", "new", "old_line", "new_line"];

/// The rows of one agent's changes: its group, its scope, each rule
/// removed and added, and a reordering.
fn rule_rows(columns: &Columns, out: &mut Vec<u8>, d: &AgentDiff) {
    let agent = Field::Text(d.agent.as_bytes());
    fn group(side: &Selection) -> Field<'_> {
        match side.group {
            GroupMatch::None => Field::Null,
            ref group => Field::Text(group.name()),
        }
    }
    let first = |side: &Selection| {
        side.agent_lines
            .first()
            .map_or(Field::Null, |&n| Field::Number(n.into()))
    };
    if d.group_changed() {
        let row = [
            agent,
            Field::Text(b"group"),
            group(&d.old),
            group(&d.new),
            first(&d.old),
            first(&d.new),
        ];
        columns.push(out, &row);
    }
    if d.scope_changed() {
        let row = [
            agent,
            Field::Text(b"scope"),
            Field::Text(d.old.scope.name().as_bytes()),
            Field::Text(d.new.scope.name().as_bytes()),
            Field::Null,
            Field::Null,
        ];
        columns.push(out, &row);
    }
    for r in d.removed.iter() {
        let row = [
            agent,
            Field::Text(b"removed"),
            Field::Text(&r.text),
            Field::Null,
            Field::Number(r.line.into()),
            Field::Null,
        ];
        columns.push(out, &row);
    }
    for r in d.added.iter() {
        let row = [
            agent,
            Field::Text(b"added"),
            Field::Null,
            Field::Text(&r.text),
            Field::Null,
            Field::Number(r.line.into()),
        ];
        columns.push(out, &row);
    }
    if d.reordered {
        let mut row = [Field::Null; 6];
        row[..2].copy_from_slice(&[agent, Field::Text(b"reordered")]);
        columns.push(out, &row);
    }
}

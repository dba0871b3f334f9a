//! `diff`'s URLS: every line judged by each agent's old and new rules on
//! the batch's threads, the URLs whose verdict changes written in input
//! order, and how many there were said on standard error.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::Context;
use robots_batch::diff::{VerdictChange, VerdictDiff};
use robots_batch::output::{Columns, Field};
use robots_batch::{
    BatchBuilder, Explanation, Format, Render, Stats, Verdict,
};

use crate::cli::args::InputFormatArg;
use crate::cli::Input;
use crate::cmd::shared::{
    format_name, input_format, open_file, open_source_after, run_error,
    warn_cut_lines,
};

/// What a run over URLS needs.
pub(crate) struct Run<'a> {
    pub diff: &'a VerdictDiff,
    /// The old and the new file's names in the report.
    pub names: (&'a str, &'a str),
    /// The table's format, `None` for the report for people.
    pub table: Option<Format>,
    pub header: bool,
    /// Worker threads (0: all cores).
    pub threads: usize,
}

/// The columns of the table of URLs: each side's verdict and the
/// default command's `--explain` columns.
const URL_COLUMNS: [&str; 12] = [
    "url",
    "agent",
    "old",
    "new",
    "old_line",
    "old_rule",
    "old_group",
    "old_reason",
    "new_line",
    "new_rule",
    "new_group",
    "new_reason",
];

/// URLS, open and found to hold lines: what can go wrong with it before
/// anything is written.
pub(crate) struct Opened {
    name: String,
    file: Option<File>,
    /// The first bytes of standard input, read already (to find its
    /// format).
    read: Vec<u8>,
}

/// Opens the file of URLs at `path` (`-`: standard input), refusing
/// records and directories.
pub(crate) fn open(path: &Path) -> anyhow::Result<Opened> {
    let input = match path.as_os_str() == "-" {
        true => Input::Stdin,
        false => Input::Path(path.to_path_buf()),
    };
    let name = input.name();
    let (format, read) = input_format(None, None, &input)?;
    if format != InputFormatArg::Lines {
        anyhow::bail!(
            "{name} looks like {} records; diff reads one URL per line: take \
             the URLs out first (JSON Lines: `jq -r .url`)",
            format_name(format)
        );
    }
    let file = open_file(&input)?;
    if file.as_ref().is_some_and(|f| f.metadata().is_ok_and(|m| m.is_dir())) {
        let err = io::Error::from(io::ErrorKind::IsADirectory);
        return Err(err).context(format!("failed to read {name}"));
    }
    Ok(Opened { name, file, read })
}

/// Judges every line of `urls` by both files and writes the URLs whose
/// verdict changes to `out`; true when there was one.
pub(crate) fn run(
    run: &Run<'_>,
    urls: Opened,
    out: &mut dyn Write,
) -> anyhow::Result<bool> {
    let Opened { name, file, read } = urls;
    let mut batch = BatchBuilder::new();
    batch.threads(run.threads);
    let batch = batch.build().context("failed to start worker threads")?;
    let (source, _) =
        open_source_after(&batch, file.as_ref(), &name, read, true)?;
    let columns = run.table.map(|format| Columns::new(format, &URL_COLUMNS));
    if let (Some(columns), true) = (&columns, run.header) {
        out.write_all(&columns.header()).context("failed to write output")?;
    }
    let tally = Tally::new(run.diff.agents().len());
    let mut write_failed = false;
    // The report's URLs come after a blank line, below the agents'.
    let mut first = columns.is_none();
    let sink = |rendered: &[u8], _: &Stats| -> io::Result<()> {
        if rendered.is_empty() {
            return Ok(());
        }
        let blank: &[u8] =
            if std::mem::take(&mut first) { b"\n" } else { b"" };
        out.write_all(blank)
            .and_then(|()| out.write_all(rendered))
            .inspect_err(|_| write_failed = true)
    };
    let new_render = || UrlRender {
        run,
        columns: columns.clone(),
        out: vec![],
        urls: 0,
        agents: vec![[0; 2]; run.diff.agents().len()],
        tally: &tally,
        entries: vec![],
    };
    let stats = source
        .run(run.diff.matchers(), new_render, None, sink)
        .map_err(|err| run_error(err, write_failed, &name))?;
    // The counts come after every row, even with both streams on one
    // terminal or file.
    out.flush().context("failed to write output")?;
    warn_cut_lines(&stats);
    tally.report(run.diff.agents(), stats.lines());
    Ok(tally.urls.load(Ordering::Relaxed) > 0)
}

/// The changes counted over all the workers: URLs that change for some
/// agent, and per agent those now disallowed and those now allowed.
struct Tally {
    urls: AtomicU64,
    agents: Vec<[AtomicU64; 2]>,
}

impl Tally {
    fn new(agents: usize) -> Tally {
        let agents = (0..agents).map(|_| Default::default()).collect();
        Tally { urls: AtomicU64::new(0), agents }
    }

    /// Says on standard error how many of the `lines` URLs change, and
    /// for each agent with changes, how many each way.
    fn report(&self, agents: &[String], lines: u64) {
        let load = |n: &AtomicU64| n.load(Ordering::Relaxed);
        let each: Vec<(&String, u64, u64)> = agents
            .iter()
            .zip(&self.agents)
            .map(|(a, [d, al])| (a, load(d), load(al)))
            .filter(|&(_, d, a)| d + a > 0)
            .collect();
        let urls = load(&self.urls);
        let plural = |n: u64, one: &'static str, many: &'static str| {
            if n == 1 {
                one
            } else {
                many
            }
        };
        message!(
            "{urls} of {lines} {} {} verdict for {} of {} {}",
            plural(lines, "URL", "URLs"),
            plural(urls, "changes", "change"),
            each.len(),
            agents.len(),
            plural(agents.len() as u64, "agent", "agents"),
        );
        // Agents with the same counts share a line: an audit of the AI
        // crawlers has a hundred, most of them judged by the `*` groups.
        let mut lines: Vec<(u64, u64, Vec<&str>)> = vec![];
        for (agent, d, a) in each {
            match lines.iter_mut().find(|l| (l.0, l.1) == (d, a)) {
                Some(line) => line.2.push(agent),
                None => lines.push((d, a, vec![agent])),
            }
        }
        for (now_disallowed, now_allowed, agents) in lines {
            message!(
                "{}: {now_disallowed} allowed -> disallowed, {now_allowed} \
                 disallowed -> allowed",
                agents.join(", ")
            );
        }
    }
}

/// A worker's renderer: the rows of the URLs whose verdict changes, and
/// their counts until the chunk ends.
struct UrlRender<'a> {
    run: &'a Run<'a>,
    columns: Option<Columns>,
    out: Vec<u8>,
    urls: u64,
    /// Per agent: now disallowed, now allowed.
    agents: Vec<[u64; 2]>,
    tally: &'a Tally,
    /// The report's entries for the line at hand: verdicts, why, and the
    /// agents whose change that is.
    entries: Vec<(String, String, Vec<String>)>,
}

impl Render for UrlRender<'_> {
    fn line(&mut self, url: &[u8], verdicts: &[Verdict]) -> io::Result<()> {
        let mut changed = false;
        for change in self.run.diff.changes(verdicts) {
            changed = true;
            let now_allowed = usize::from(change.new.is_allowed());
            self.agents[change.agent][now_allowed] += 1;
            match self.columns {
                Some(ref columns) => {
                    let agent = &self.run.diff.agents()[change.agent];
                    row(columns, &mut self.out, url, agent, &change)
                }
                None => self.human(&change),
            }
        }
        if changed && self.columns.is_none() {
            self.write_human(url);
        }
        self.urls += u64::from(changed);
        Ok(())
    }

    fn finish(&mut self, out: &mut Vec<u8>) -> io::Result<()> {
        std::mem::swap(out, &mut self.out);
        let add = |n: &AtomicU64, k: &mut u64| {
            n.fetch_add(std::mem::take(k), Ordering::Relaxed);
        };
        add(&self.tally.urls, &mut self.urls);
        for (n, k) in self.tally.agents.iter().zip(&mut self.agents) {
            add(&n[0], &mut k[0]);
            add(&n[1], &mut k[1]);
        }
        Ok(())
    }
}

impl UrlRender<'_> {
    /// Adds an agent's change of the line to the report's entries: a new
    /// entry, or the agent's name added to one that says the same.
    fn human(&mut self, c: &VerdictChange<'_>) {
        let (old, new) = self.run.names;
        let text = format!("{} -> {}", c.old.name(), c.new.name(),);
        let why = format!(
            "  {}\n  {}\n",
            why(old, &c.old_why),
            why(new, &c.new_why)
        );
        let agent = self.run.diff.agents()[c.agent].as_str();
        match self.entries.iter_mut().find(|e| e.0 == text && e.1 == why) {
            Some(entry) => entry.2.push(agent.to_string()),
            None => self.entries.push((text, why, vec![agent.to_string()])),
        }
    }

    /// Writes the report's entries for the line `url`: the URL, the
    /// verdicts and the agents, then why on each side.
    fn write_human(&mut self, url: &[u8]) {
        let url = String::from_utf8_lossy(url);
        for (verdicts, why, agents) in self.entries.drain(..) {
            let text =
                format!("{url}: {verdicts} for {}\n{why}", agents.join(", "));
            self.out.extend_from_slice(text.as_bytes());
        }
    }
}

/// Why a verdict, at its file: `new.txt:5: Disallow: /; group GPTBot`, or
/// `old.txt: no matching rule; group *`.
fn why(file: &str, e: &Explanation<'_>) -> String {
    match e.rule() {
        Some(rule) => format!(
            "{file}:{}: {}; group {}",
            rule.line(),
            String::from_utf8_lossy(rule.text()),
            String::from_utf8_lossy(e.group().unwrap_or_default())
        ),
        None => format!("{file}: {e}"),
    }
}

/// A row of the table of URLs.
fn row(
    columns: &Columns,
    out: &mut Vec<u8>,
    url: &[u8],
    agent: &str,
    c: &VerdictChange<'_>,
) {
    let mut fields = vec![
        Field::Text(url),
        Field::Text(agent.as_bytes()),
        Field::Text(c.old.name().as_bytes()),
        Field::Text(c.new.name().as_bytes()),
    ];
    fields.extend(explained(&c.old_why));
    fields.extend(explained(&c.new_why));
    columns.push(out, &fields);
}

/// The `--explain` columns of one side: line, rule, group and reason.
fn explained<'e>(e: &Explanation<'e>) -> [Field<'e>; 4] {
    let rule = e.rule();
    [
        rule.map_or(Field::Null, |r| Field::Number(r.line().into())),
        rule.map_or(Field::Null, |r| Field::Text(r.text())),
        e.group().map_or(Field::Null, Field::Text),
        Field::Text(e.reason().name().as_bytes()),
    ]
}

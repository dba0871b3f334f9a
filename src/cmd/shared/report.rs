//! What the commands report: progress on long runs, the counts of a run,
//! `-c`'s table, and errors named after the input or the output.

use std::fmt::Write as FmtWrite;
use std::io::{self, IsTerminal};
use std::time::{Duration, Instant};

use indicatif::{
    HumanBytes, HumanDuration, ProgressBar, ProgressDrawTarget, ProgressState,
    ProgressStyle,
};
use robots_batch::{output::Counts, Stats, MAX_LINE_BYTES};

use crate::cli::{ProgressWhen, StatsFormat};

/// The table of `-c`: each agent's allowed and disallowed verdicts (and
/// with `unknown`, crawl mode's unknown ones), as CSV, with its header
/// when `header`.
pub(crate) fn count_table(
    agents: &[String],
    counts: &Counts,
    header: bool,
    unknown: bool,
) -> anyhow::Result<Vec<u8>> {
    let mut wtr = csv::Writer::from_writer(vec![]);
    let names = ["agent", "allowed", "disallowed", "unknown"];
    let width = if unknown { 4 } else { 3 };
    if header {
        wtr.write_record(&names[..width])?;
    }
    for (i, agent) in agents.iter().enumerate() {
        let row = [
            agent.clone(),
            counts.allowed(i).to_string(),
            counts.disallowed(i).to_string(),
            counts.unknown(i).to_string(),
        ];
        wtr.write_record(&row[..width])?;
    }
    Ok(wtr.into_inner().map_err(|e| e.into_error())?)
}

/// What `-c` with `--emit` writes: the number of lines or records kept.
pub(crate) fn kept_count(stats: &Stats) -> Vec<u8> {
    format!("{}\n", stats.kept_records()).into_bytes()
}

/// The error of a run over `name`: writing the output failed (the sink
/// said so with `write_failed`), or reading the input did.
pub(crate) fn run_error(
    err: io::Error,
    write_failed: bool,
    name: &str,
) -> anyhow::Error {
    let context = if write_failed {
        "failed to write output".to_string()
    } else {
        format!("failed to read {name}")
    };
    anyhow::Error::new(err).context(context)
}

/// Says on standard error how many lines were cut at the line limit.
pub(crate) fn warn_cut_lines(stats: &Stats) {
    match stats.cut_lines() {
        0 => {}
        1 => message!(
            "1 line longer than {MAX_LINE_BYTES} bytes: its row holds, and \
             was judged on, its first {MAX_LINE_BYTES} bytes"
        ),
        n => message!(
            "{n} lines longer than {MAX_LINE_BYTES} bytes: their rows hold, \
             and were judged on, their first {MAX_LINE_BYTES} bytes"
        ),
    }
}

/// Prints the counts of a run and its throughput to standard error: one
/// line of text, or one JSON object. `per_agent`, with several agents,
/// gives each agent's counts; without it the run's totals are the one
/// agent's.
pub(crate) fn print_stats(
    format: StatsFormat,
    stats: &Stats,
    elapsed: Duration,
    per_agent: Option<(&[String], &Counts)>,
) {
    let secs = elapsed.as_secs_f64().max(1e-9);
    let agents: Vec<(&str, u64, u64, u64)> =
        per_agent.map_or(vec![], |(a, c)| {
            let each = a.iter().enumerate();
            each.map(|(i, a)| {
                (a.as_str(), c.allowed(i), c.disallowed(i), c.unknown(i))
            })
            .collect()
        });
    if format == StatsFormat::Json {
        let mut object = serde_json::json!({
            "lines": stats.lines(),
            "bytes": stats.bytes(),
            "seconds": elapsed.as_secs_f64(),
            "urls_per_second": stats.lines() as f64 / secs,
            "mb_per_second": stats.bytes() as f64 / secs / 1e6,
            "allowed": stats.allowed(),
            "disallowed": stats.disallowed(),
            "unknown": stats.unknown(),
            "cut_lines": stats.cut_lines(),
        });
        if stats.bad_records() > 0 {
            object["bad_records"] = stats.bad_records().into();
        }
        if per_agent.is_some() {
            let agents =
                agents.iter().map(|&(agent, allowed, disallowed, unknown)| {
                    serde_json::json!({
                        "agent": agent,
                        "allowed": allowed,
                        "disallowed": disallowed,
                        "unknown": unknown,
                    })
                });
            object["agents"] = agents.collect();
        }
        crate::cli::message_line_raw(format_args!("{object}"));
        return;
    }
    let counts = match (per_agent, stats.unknown()) {
        (Some(_), _) => String::new(),
        (None, 0) => {
            format!(
                "{} allowed, {} disallowed, ",
                stats.allowed(),
                stats.disallowed()
            )
        }
        (None, n) => format!(
            "{} allowed, {} disallowed, {n} unknown, ",
            stats.allowed(),
            stats.disallowed()
        ),
    };
    let counts = match stats.bad_records() {
        0 => counts,
        n => format!("{counts}{n} bad records, "),
    };
    message!(
        "{} lines, {counts}{} bytes in {:.3} s ({:.0} URLs/s, {:.2} MB/s)",
        stats.lines(),
        stats.bytes(),
        elapsed.as_secs_f64(),
        stats.lines() as f64 / secs,
        stats.bytes() as f64 / secs / 1e6,
    );
    for (agent, allowed, disallowed, unknown) in agents {
        let unknown = match unknown {
            0 => String::new(),
            n => format!(", {n} unknown"),
        };
        message!(
            "  {agent}: {allowed} allowed, {disallowed} disallowed{unknown}"
        );
    }
}

/// A progress bar on standard error, for long runs only: it appears after
/// a second, and only when standard error is a terminal and standard
/// output is not (rows scrolling past would tear the bar, and the bar the
/// rows). A bar of bytes for files, a spinner for streams.
pub(crate) struct Progress {
    start: Instant,
    enabled: bool,
    total: Option<u64>,
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar for a run that started at `start` over `total` bytes (a
    /// spinner when unknown), `rows_to_terminal` when the rows go to the
    /// terminal too.
    pub(crate) fn new(
        start: Instant,
        total: Option<u64>,
        when: ProgressWhen,
        rows_to_terminal: bool,
    ) -> Progress {
        let enabled = match when {
            ProgressWhen::Auto => {
                io::stderr().is_terminal() && !rows_to_terminal
            }
            ProgressWhen::Always => io::stderr().is_terminal(),
            ProgressWhen::Never => false,
        };
        Progress { start, enabled, total, bar: None }
    }

    pub(crate) fn update(&mut self, bytes: u64) {
        if !self.enabled {
            return;
        }
        if self.bar.is_none() {
            if self.start.elapsed() < Duration::from_secs(1) {
                return;
            }
            self.bar = Some(self.make_bar());
        }
        if let Some(ref bar) = self.bar {
            bar.set_position(bytes);
        }
    }

    fn make_bar(&self) -> ProgressBar {
        let target = ProgressDrawTarget::stderr();
        let (bar, template) = match self.total {
            Some(len) => (
                ProgressBar::with_draw_target(Some(len), target),
                "{bar:40} {bytes}/{total_bytes} ({rate}, ETA {left})",
            ),
            None => (
                ProgressBar::with_draw_target(None, target),
                "{spinner} {bytes} read ({rate})",
            ),
        };
        // The rate is the run's average since it started: the bar appears
        // a second late, so indicatif's own estimate would first see a
        // second's bytes arrive at once.
        let start = self.start;
        let rate = move |state: &ProgressState| {
            state.pos() as f64 / start.elapsed().as_secs_f64().max(1e-3)
        };
        let style = ProgressStyle::with_template(template).map(|style| {
            style
                .with_key(
                    "rate",
                    move |s: &ProgressState, w: &mut dyn FmtWrite| {
                        let _ = write!(w, "{}/s", HumanBytes(rate(s) as u64));
                    },
                )
                .with_key(
                    "left",
                    move |s: &ProgressState, w: &mut dyn FmtWrite| {
                        let left =
                            s.len().unwrap_or(0).saturating_sub(s.pos());
                        let secs = left as f64 / rate(s).max(1.0);
                        let left = Duration::from_secs_f64(secs.min(1e9));
                        let _ = write!(w, "{:#}", HumanDuration(left));
                    },
                )
        });
        if let Ok(style) = style {
            bar.set_style(style);
        }
        bar
    }

    pub(crate) fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// Says how many records were bad, and prints the counts when asked.
pub(crate) fn finish(
    name: &str,
    stats: &Stats,
    emit: Option<bool>,
    format: Option<StatsFormat>,
    start: Instant,
) {
    if let Some((number, why)) = stats.first_bad_record() {
        let bad = stats.bad_records();
        let all = match bad {
            1 => "the only bad record".to_string(),
            n => format!("the first of {n} bad records"),
        };
        message!(
            "{name}: record {number}: {why} ({all}, each judged unknown{})",
            if emit.is_some() { " and left out" } else { "" }
        );
    }
    if let Some(format) = format {
        print_stats(format, stats, start.elapsed(), None);
    }
}

/// With `--emit`, says on standard error how many of the `what` (`lines`,
/// `records`) of `name` were left out for want of the verdict asked for:
/// unknown verdicts (`crawl`: naming `--on-missing`) and bad records, with
/// those of the other verdict; nothing when the others were all.
pub(crate) fn report_dropped(
    name: &str,
    what: &str,
    stats: &Stats,
    emit: Option<bool>,
    crawl: bool,
) {
    let Some(allowed) = emit else { return };
    let (undecided, bad) = (stats.undecided(), stats.bad_records());
    if undecided == 0 && bad == 0 {
        return;
    }
    let (wanted, other) = match allowed {
        true => ("allowed", "disallowed"),
        false => ("disallowed", "allowed"),
    };
    let (all, kept) = (stats.lines(), stats.kept_records());
    let rest = all.saturating_sub(kept + undecided + bad);
    let mut why = vec![format!("{rest} {other}")];
    if undecided > 0 {
        let fix = match crawl {
            true => {
                " (no robots.txt known for their host, which --on-missing \
                 allow or disallow decides, or no host)"
            }
            false => "",
        };
        why.push(format!("{undecided} unknown{fix}"));
    }
    if bad > 0 {
        why.push(format!("{bad} bad {what} (no URL)"));
    }
    message!(
        "{name}: --emit {wanted} kept {kept} of {all} {what}, left out {}: {}",
        all - kept.min(all),
        why.join(", ")
    );
}

/// Says which children of a sitemap index were not found in
/// `--sitemap-dir` (each has a row of its own, unknown).
pub(crate) fn report_missing(
    name: &str,
    source: &robots_batch::sitemap::SitemapSource,
) {
    let missing = source.missing();
    let Some(first) = missing.first() else { return };
    let more = match missing.len() {
        1 => String::new(),
        n => format!(" (the first of {n})"),
    };
    message!("{name}: a child sitemap not found{more}: {first}");
}

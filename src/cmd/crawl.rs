//! `robots-batch crawl`: a crawl log's URLs, each judged by the robots.txt
//! fetched from its own origin.

use std::io::{self, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use robots_batch::crawl::{CrawlJudge, CrawlWorker};
use robots_batch::record::{RecordFormat, Records};
use robots_batch::{output::Counts, Stats};

use super::shared::{
    count_table, finish, input_format, kept_count, open_file,
    open_source_after, print_stats, report_dropped, report_missing, run_error,
    run_records, warn_cut_lines, Endpoints, Progress,
};
use crate::cli::{open_output, output_compression, CrawlConfig};

/// Judges every line (or record) of the input.
pub fn run(config: CrawlConfig) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    let (format, read) =
        input_format(config.input_format, config.url_flag, &config.input)?;
    let result = match format.record_format() {
        Some(format) => judge_records(&config, format, read, start),
        None if config.at_fetch_time.is_some() => Err(anyhow::anyhow!(
            "--at-fetch-time needs each URL's fetch time, which lines of \
             URLs do not hold: give records (--input-format jsonl, csv, \
             tsv, parquet with --time-field; warc; cdxj), or judge them \
             --as-of a date"
        )),
        None => run_lines(&config, read, start),
    };
    report_judge(&config.judge);
    // The process ends next, so the judge is not freed: freeing the fetches
    // and matchers of every host one by one is a visible part of a run over
    // many hosts.
    std::mem::forget(config);
    result
}

/// Judges every line of the input, a URL each.
fn run_lines(
    config: &CrawlConfig,
    read: Vec<u8>,
    start: Instant,
) -> anyhow::Result<ExitCode> {
    let (judge, rows) = (&config.judge, config.rows);
    let name = config.input.name();
    let file = open_file(&config.input)?;
    let (source, total) =
        open_source_after(&config.batch, file.as_ref(), &name, read, false)?;
    let rows_to_terminal =
        config.output_file.is_none() && io::stdout().is_terminal();
    let inputs: Vec<&Path> =
        config.inputs.iter().map(|p| p.as_path()).collect();
    let mut stdout = open_output(
        config.output_file.as_deref(),
        output_compression(config.output_file.as_deref(), config.compress),
        &inputs,
    )?;
    let new_worker = || {
        CrawlWorker::new(judge, rows.format, rows.explain)
            .layout(rows.layout)
            .usage(rows.usage)
            .emit(rows.emit)
    };
    if rows.header && rows.emit.is_none() && !rows.count {
        let header = new_worker().header();
        stdout.write_all(&header).context("failed to write output")?;
    }
    let mut progress =
        Progress::new(start, total, config.progress, rows_to_terminal);
    let mut write_failed = false;
    let sink = |rendered: &[u8], total: &Stats| -> io::Result<()> {
        if let Err(err) = stdout.write_all(rendered) {
            write_failed = true;
            return Err(err);
        }
        progress.update(total.bytes());
        Ok(())
    };
    let agents = judge.agents();
    // -c and --stats with several agents count each agent's verdicts.
    let tally = rows.count || (config.stats.is_some() && agents.len() > 1);
    let counts = Counts::new(agents.len());
    let new_worker = || {
        let worker = new_worker();
        let worker = if tally { worker.tally(&counts) } else { worker };
        match rows.count {
            true => worker.count_only(),
            false => worker,
        }
    };
    let result = source.run_workers(new_worker, sink);
    progress.finish();
    let stats = result.map_err(|err| run_error(err, write_failed, &name))?;
    warn_cut_lines(&stats);
    if rows.count {
        let counted = match rows.emit {
            Some(_) => kept_count(&stats),
            None => count_table(agents, &counts, rows.header, true)?,
        };
        stdout.write_all(&counted).context("failed to write output")?;
    }
    stdout.flush().context("failed to write output")?;
    if !rows.count {
        report_dropped(&name, "lines", &stats, rows.emit, true);
    }
    if let Some(format) = config.stats {
        let several = agents.len() > 1;
        let per_agent = several.then_some((agents, &counts));
        print_stats(format, &stats, start.elapsed(), per_agent);
    }
    Ok(exit_code(rows.emit, &stats))
}

/// With --emit, grep's exit code: 1 when no line or record had the
/// verdict.
fn exit_code(emit: Option<bool>, stats: &Stats) -> ExitCode {
    match emit {
        Some(_) if stats.kept_records() == 0 => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    }
}

/// What the judge met on the way: files it could not read (a message),
/// and how many origins' rules it let go after their run (a debug log).
fn report_judge(judge: &CrawlJudge) {
    let (let_go, met_again) = judge.let_go();
    log::debug!(
        "{let_go} origins' rules let go after their run, {met_again} of \
         them met again"
    );
    let unreadable = judge.fetches().unreadable();
    if let Some(first) = unreadable.first() {
        message!(
            "{} robots.txt files could not be read, their hosts taken as \
             having none (--on-missing): {first}{}",
            unreadable.len(),
            if unreadable.len() > 1 { ", ..." } else { "" }
        );
    }
}

/// Judges the records of the input (`--input-format` other than lines),
/// each by its URL's own origin, and writes them back in their format.
fn judge_records(
    config: &CrawlConfig,
    format: RecordFormat,
    read: Vec<u8>,
    start: Instant,
) -> anyhow::Result<ExitCode> {
    let (judge, rows) = (&config.judge, config.rows);
    let name = config.input.name();
    if format == RecordFormat::AccessLog {
        anyhow::bail!(
            "an access log holds one site's paths, not URLs: judge it with \
             the default command and that site's robots.txt"
        );
    }
    if rows.format_given || rows.layout_given {
        anyhow::bail!(
            "--format and --layout apply to lines of URLs; {name} is read as \
             {} records, written back in their own format",
            format.name()
        );
    }
    if rows.usage {
        anyhow::bail!(
            "--usage in crawl mode applies to lines of URLs; {name} is read \
             as {} records",
            format.name()
        );
    }
    let counts = Counts::new(judge.agents().len());
    let source = config.sitemap.source(&name);
    let mut records = Records::crawl(format, judge);
    records.sitemap_source(&source);
    if let Some(ref field) = config.url_field {
        records.url_field(field);
    }
    if let Some(ref field) = config.at_fetch_time {
        records.at_fetch_time(field.as_deref());
    }
    // -c alone judges the records as --emit does, which writes the least,
    // and writes none of them.
    let only_counts = rows.count && rows.emit.is_none();
    records.emit(if only_counts { Some(true) } else { rows.emit });
    records.explain(rows.explain);
    if only_counts {
        records.tally(&counts);
    }
    let agents = judge.agents();
    let table = |_: &Stats| count_table(agents, &counts, rows.header, true);
    let kept = |stats: &Stats| Ok(kept_count(stats));
    let target = Endpoints {
        input: &config.input,
        read,
        output: config.output_file.as_deref(),
        compress: config.compress,
        inputs: config.inputs.iter().map(|p| p.as_path()).collect(),
        count: match (rows.count, rows.emit) {
            (false, _) => None,
            (true, None) => Some(&table),
            (true, Some(_)) => Some(&kept),
        },
    };
    let stats = run_records(&records, &config.batch, target, rows.emit);
    report_missing(&name, &source);
    let stats = stats?;
    finish(&name, &stats, rows.emit, config.stats, start);
    report_dropped(&name, "records", &stats, rows.emit, true);
    Ok(exit_code(rows.emit, &stats))
}

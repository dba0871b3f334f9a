//! The default command: a verdict for every URL line, as CSV on standard
//! output, in input order.

mod records;

use std::io::{self, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use robots_batch::{output::Counts, output::EmitRender, CsvRender, Stats};

use super::shared::{
    count_table, input_format, open_file, open_source_after, print_stats,
    run_error, warn_cut_lines, Progress,
};
use crate::cli::args::InputFormatArg;
use crate::cli::{open_output, output_compression, Config, Output};

/// The default command: the input's format found (or given), lines of
/// URLs are judged here, records in [`records::run`].
pub fn run(config: Config) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    let rf = &config.records;
    let (format, read) = input_format(rf.format, rf.url_flag, &config.input)?;
    match format {
        InputFormatArg::Lines => run_lines(config, read),
        format => records::run(config, format, read, start),
    }
}

/// Prints the verdicts of every line of the input; `read` are the first
/// bytes of standard input, read already (to find its format).
fn run_lines(config: Config, read: Vec<u8>) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    log::debug!("agents {:?}, input {}", config.agents, config.input.name());
    let name = config.input.name();
    let file = open_file(&config.input)?;
    let (source, total) =
        open_source_after(&config.batch, file.as_ref(), &name, read, true)?;
    // Each rendered chunk is one `write_all`, so rows are never torn.
    let inputs = [Some(config.robots.as_path()), config.input.path()];
    let inputs: Vec<&Path> = inputs.into_iter().flatten().collect();
    let rows_to_terminal =
        config.output_file.is_none() && io::stdout().is_terminal();
    let mut stdout = open_output(
        config.output_file.as_deref(),
        output_compression(config.output_file.as_deref(), config.compress),
        &inputs,
    )?;
    let header: &[u8] = match config.output {
        Output::Plain => &CsvRender::header(),
        Output::Table(ref table) => table.header(),
        Output::Emit(_) | Output::CountEmit(_) | Output::Count => b"",
    };
    if config.header && !header.is_empty() {
        stdout.write_all(header).context("failed to write output")?;
    }
    let mut progress =
        Progress::new(start, total, config.progress, rows_to_terminal);
    let mut write_failed = false;
    // Lines written (only counted for --emit, whose rows are lines).
    let mut emitted = 0u64;
    let count_lines = matches!(config.output, Output::CountEmit(_));
    let mut sink = |rendered: &[u8], total: &Stats| -> io::Result<()> {
        if count_lines {
            emitted += memchr::memchr_iter(b'\n', rendered).count() as u64;
        } else if !rendered.is_empty() {
            emitted += 1;
            if let Err(err) = stdout.write_all(rendered) {
                write_failed = true;
                return Err(err);
            }
        }
        progress.update(total.bytes());
        Ok(())
    };
    let counts = Counts::new(config.matchers.len());
    // --stats with several agents counts each agent's verdicts (-c counts
    // them anyway); with one, the run's totals are the agent's.
    let several = config.stats.is_some() && config.matchers.len() > 1;
    let tally = (several && !matches!(config.output, Output::Count))
        .then_some(&counts);
    let matchers = &config.matchers;
    let result = match config.output {
        Output::Plain => {
            source.run(matchers, CsvRender::new, tally, &mut sink)
        }
        Output::Table(ref table) => {
            source.run(matchers, || table.render(), tally, &mut sink)
        }
        Output::Emit(allowed) | Output::CountEmit(allowed) => {
            let new_render = || EmitRender::new(allowed);
            source.run(matchers, new_render, tally, &mut sink)
        }
        Output::Count => {
            source.run(matchers, || counts.render(), None, &mut sink)
        }
    };
    progress.finish();
    let stats = result.map_err(|err| run_error(err, write_failed, &name))?;
    warn_cut_lines(&stats);
    let code = match config.output {
        Output::Plain | Output::Table(_) => ExitCode::SUCCESS,
        Output::Emit(_) => grep_code(emitted > 0),
        Output::CountEmit(_) => {
            writeln!(stdout, "{emitted}").context("failed to write output")?;
            grep_code(emitted > 0)
        }
        Output::Count => {
            let table =
                count_table(&config.agents, &counts, config.header, false)?;
            stdout.write_all(&table).context("failed to write output")?;
            ExitCode::SUCCESS
        }
    };
    stdout.flush().context("failed to write output")?;
    if let Some(format) = config.stats {
        let per_agent = several.then_some((&config.agents[..], &counts));
        print_stats(format, &stats, start.elapsed(), per_agent);
    }
    Ok(code)
}

/// grep's exit code: 0 when something matched, 1 when nothing did.
fn grep_code(matched: bool) -> ExitCode {
    if matched {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

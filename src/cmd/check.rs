//! The default command: a verdict for every URL line, as CSV on standard
//! output, in input order.

use std::fs::File;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use robots_batch::{CsvRender, Stats};

use crate::cli::{Config, Input};

/// Prints the verdicts of every line of the input.
pub fn run(config: Config) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    log::debug!("agents {:?}, input {}", config.agents, config.input.name());
    // N.B. Standard output is a `LineWriter`; rendered chunks are large, so
    // nearly every write goes straight to the file descriptor. Each chunk
    // is one `write_all`, so rows are never torn.
    let mut stdout = io::stdout().lock();
    let name = config.input.name();
    let file = match config.input {
        Input::Stdin => None,
        Input::Path(ref path) => Some(
            File::open(path)
                .with_context(|| format!("failed to open {name}"))?,
        ),
    };
    let metadata = file.as_ref().and_then(|file| file.metadata().ok());
    if metadata.as_ref().is_some_and(|md| md.is_dir()) {
        // Reading would fail anyway; failing before the header keeps
        // standard output empty.
        let err = io::Error::from(io::ErrorKind::IsADirectory);
        return Err(err).context(format!("failed to read {name}"));
    }
    // The progress bar's length: a regular file's size.
    let total = metadata.filter(|md| md.is_file()).map(|md| md.len());
    if config.header {
        stdout
            .write_all(&CsvRender::header())
            .context("failed to write output")?;
    }
    let mut progress = Progress::new(start, total);
    let mut write_failed = false;
    let mut sink = |rendered: &[u8], total: &Stats| -> io::Result<()> {
        if let Err(err) = stdout.write_all(rendered) {
            write_failed = true;
            return Err(err);
        }
        progress.update(total.bytes());
        Ok(())
    };
    let (batch, matchers) = (&config.batch, &config.matchers);
    let result = match file {
        None => {
            let stdin = io::stdin().lock();
            batch.run_reader(matchers, stdin, CsvRender::new, &mut sink)
        }
        Some(ref file) => {
            batch.run_file(matchers, file, CsvRender::new, &mut sink)
        }
    };
    progress.finish();
    let stats = result.map_err(|err| {
        let context = if write_failed {
            "failed to write output".to_string()
        } else {
            format!("failed to read {name}")
        };
        anyhow::Error::new(err).context(context)
    })?;
    stdout.flush().context("failed to write output")?;
    if config.stats {
        print_stats(&stats, start.elapsed());
    }
    Ok(ExitCode::SUCCESS)
}

fn print_stats(stats: &Stats, elapsed: Duration) {
    let secs = elapsed.as_secs_f64().max(1e-9);
    message!(
        "{} lines, {} allowed, {} disallowed, {} bytes in {:.3} s \
         ({:.0} URLs/s, {:.2} MB/s)",
        stats.lines(),
        stats.allowed(),
        stats.disallowed(),
        stats.bytes(),
        elapsed.as_secs_f64(),
        stats.lines() as f64 / secs,
        stats.bytes() as f64 / secs / 1e6,
    );
}

/// A progress bar on standard error, for long runs only: it appears after
/// a second, and only when standard error is a terminal and standard
/// output is not (rows scrolling past would tear the bar, and the bar the
/// rows). A bar of bytes for files, a spinner for streams.
struct Progress {
    start: Instant,
    enabled: bool,
    total: Option<u64>,
    bar: Option<ProgressBar>,
}

impl Progress {
    fn new(start: Instant, total: Option<u64>) -> Progress {
        let enabled =
            io::stderr().is_terminal() && !io::stdout().is_terminal();
        Progress { start, enabled, total, bar: None }
    }

    fn update(&mut self, bytes: u64) {
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
                "{bar:40} {bytes}/{total_bytes} ({bytes_per_sec}, ETA {eta})",
            ),
            None => (
                ProgressBar::with_draw_target(None, target),
                "{spinner} {bytes} read ({bytes_per_sec})",
            ),
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        bar
    }

    fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

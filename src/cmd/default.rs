//! The default command: a verdict for every URL line, as CSV on standard
//! output, in input order.

use std::fmt::Write as FmtWrite;
use std::fs::File;
use std::io::{self, IsTerminal, Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::{
    HumanBytes, HumanDuration, ProgressBar, ProgressDrawTarget, ProgressState,
    ProgressStyle,
};
use robots_batch::crawl::CrawlWorker;
use robots_batch::sniff::{self, SNIFF_BYTES};
use robots_batch::{
    Batch, Counts, CsvRender, EmitRender, Lines, Matcher, MatcherWorker,
    Render, Sink, Stats, TallyRender, MAX_LINE_BYTES,
};

use super::hints::HINT_BYTES;
use crate::cli::{
    decoded_head, open_output, output_compression, read_head, Compression,
    Config, Input, Output, ProgressWhen, StatsFormat,
};

/// Prints the verdicts of every line of the input; `read` are the first
/// bytes of standard input, read already (to find its format).
pub fn run(config: Config, read: Vec<u8>) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    log::debug!("agents {:?}, input {}", config.agents, config.input.name());
    let name = config.input.name();
    let file = match config.input {
        Input::Stdin => None,
        Input::Path(ref path) => Some(
            File::open(path)
                .with_context(|| format!("failed to open {name}"))?,
        ),
    };
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
            let table = count_table(&config.agents, &counts, config.header)?;
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

/// The table of `-c`: each agent's allowed and disallowed verdicts, as
/// CSV, with its header when `header`.
pub(crate) fn count_table(
    agents: &[String],
    counts: &Counts,
    header: bool,
) -> anyhow::Result<Vec<u8>> {
    let mut wtr = csv::Writer::from_writer(vec![]);
    if header {
        wtr.write_record(["agent", "allowed", "disallowed"])?;
    }
    for (i, agent) in agents.iter().enumerate() {
        wtr.write_record([
            agent.clone(),
            counts.allowed(i).to_string(),
            counts.disallowed(i).to_string(),
        ])?;
    }
    Ok(wtr.into_inner().map_err(|e| e.into_error())?)
}

/// grep's exit code: 0 when something matched, 1 when nothing did.
fn grep_code(matched: bool) -> ExitCode {
    if matched {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Opens the URLs of `file` (standard input when `None`, named `name` in
/// errors) as a [`Source`], with the length of its progress bar: a regular
/// file's size (the bar counts decompressed bytes, so a compressed file gets
/// a spinner). A directory is refused here, before anything is written, so
/// that standard output stays empty. `read` are the first bytes of
/// standard input, read already to find the input's format; `one_robots`:
/// the URLs are judged by one robots.txt (not in crawl mode).
pub(crate) fn open_source_after<'a>(
    batch: &'a Batch,
    file: Option<&'a File>,
    name: &str,
    read: Vec<u8>,
    one_robots: bool,
) -> anyhow::Result<(Source<'a>, Option<u64>)> {
    let metadata = file.and_then(|file| file.metadata().ok());
    if metadata.as_ref().is_some_and(|md| md.is_dir()) {
        let err = io::Error::from(io::ErrorKind::IsADirectory);
        return Err(err).context(format!("failed to read {name}"));
    }
    let source = Source::open(batch, file, read)
        .with_context(|| format!("failed to read {name}"))?;
    if file.is_some() {
        crate::cli::exit_on_sigbus(name);
    }
    if source.robots_txt {
        message!(
            "{name}: looks like a robots.txt, not a list of URLs (were the \
             robots.txt and the URLs given the other way round?)"
        );
    } else {
        super::hints::lines_hints(name, &source.head, one_robots);
    }
    let total = metadata
        .filter(|md| md.is_file() && source.compression.is_none())
        .map(|md| md.len());
    Ok((source, total))
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

/// The URLs of a run: an open file to map or read, or a stream (standard
/// input, a pipe given by name, or the decompressed bytes of either).
pub(crate) struct Source<'a> {
    batch: &'a Batch,
    /// How the input is compressed, if it is.
    pub(crate) compression: Option<Compression>,
    /// Whether its first bytes look like a robots.txt rather than URLs.
    robots_txt: bool,
    /// Its first bytes, decompressed, for the hints on what it holds.
    head: Vec<u8>,
    urls: Lines<'a>,
}

impl<'a> Source<'a> {
    /// Looks at the input's first bytes: gzip and zstd inputs are
    /// decompressed as they are read, anything else is read as it is.
    /// `read` are the first bytes of standard input, read already.
    pub(crate) fn open(
        batch: &'a Batch,
        file: Option<&'a File>,
        read: Vec<u8>,
    ) -> io::Result<Self> {
        // Enough for the compression's magic bytes and for a guess at
        // what the input holds.
        let mut head = vec![0u8; SNIFF_BYTES.max(HINT_BYTES)];
        let (urls, compression, n) = match file {
            Some(mut file) => {
                let n = read_head(&mut file, &mut head)?;
                let compression = Compression::sniff(&head[..n]);
                // A regular file is read again from its start (and may be
                // memory-mapped); a pipe given by name cannot seek, so
                // its first bytes are put back in front of it.
                let rewound = file.seek(SeekFrom::Start(0)).is_ok();
                let urls = match (compression, rewound) {
                    (None, true) => Lines::File(file),
                    (Some(c), true) => Lines::Reader(c.decoder(file)?),
                    (c, false) => {
                        let rdr = io::Cursor::new(head.clone()).take(n as u64);
                        let rdr = Box::new(rdr.chain(file));
                        match c {
                            None => Lines::Reader(rdr),
                            Some(c) => Lines::Reader(c.decoder(rdr)?),
                        }
                    }
                };
                (urls, compression, n)
            }
            None => {
                let mut stdin =
                    io::Cursor::new(read).chain(io::stdin().lock());
                let n = read_head(&mut stdin, &mut head)?;
                let compression = Compression::sniff(&head[..n]);
                let rdr =
                    io::Cursor::new(head.clone()).take(n as u64).chain(stdin);
                let urls = match compression {
                    None => Lines::Reader(Box::new(rdr)),
                    Some(c) => Lines::Reader(c.decoder(rdr)?),
                };
                (urls, compression, n)
            }
        };
        if let Some(c) = compression {
            log::debug!("URL input is {c:?}-compressed");
        }
        let robots_txt =
            compression.is_none() && sniff::looks_like_robots_txt(&head[..n]);
        let head = decoded_head(&head[..n], compression, HINT_BYTES);
        Ok(Source { batch, compression, robots_txt, head, urls })
    }

    /// Runs every URL through the matchers, rendering with `new_render`,
    /// and counting each matcher's verdicts into `tally` when given.
    fn run<R, F, S>(
        self,
        matchers: &[Matcher],
        new_render: F,
        tally: Option<&Counts>,
        sink: S,
    ) -> io::Result<Stats>
    where
        R: Render,
        F: Fn() -> R + Sync,
        S: Sink,
    {
        match tally {
            Some(counts) => {
                let new_render = || TallyRender::new(counts, new_render());
                self.run_untallied(matchers, new_render, sink)
            }
            None => self.run_untallied(matchers, new_render, sink),
        }
    }

    fn run_untallied<R, F, S>(
        self,
        matchers: &[Matcher],
        new_render: F,
        sink: S,
    ) -> io::Result<Stats>
    where
        R: Render,
        F: Fn() -> R + Sync,
        S: Sink,
    {
        let new_worker = || MatcherWorker::new(matchers, new_render());
        self.batch.run(self.urls, new_worker, sink)
    }

    /// Runs every URL through crawl-log workers made by `new_worker`.
    pub(crate) fn run_crawl<'j, F, S>(
        self,
        new_worker: F,
        sink: S,
    ) -> io::Result<Stats>
    where
        F: Fn() -> CrawlWorker<'j> + Sync,
        S: Sink,
    {
        self.batch.run(self.urls, new_worker, sink)
    }
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

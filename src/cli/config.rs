//! The objects a run needs, built from the flags: ripgrep's "high args".

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use robots_batch::{
    agent_warning, output::Table, output::TableBuilder, robots::WarningKind,
    sniff, Batch, BatchBuilder, Dialect, Format, Layout, Matcher,
    MatcherBuilder, MmapChoice, Robots, Usage,
};

use crate::cli::args::{
    CompressArg, EmitArg, InputFormatArg, ProgressWhen, SitemapFlags,
    StatsFormat,
};
use crate::cli::input::{read_head, Compression};
use crate::cli::Args;

/// What the run prints.
#[derive(Debug)]
pub enum Output {
    /// `url,verdict` CSV for one agent: the fast path.
    Plain,
    /// Any other table: several agents, explanations, TSV or JSON lines.
    Table(Table),
    /// Only the URLs with a verdict (`true`: allowed by every agent).
    Emit(bool),
    /// Only the number of URLs with a verdict.
    CountEmit(bool),
    /// Only the counts of each verdict per agent.
    Count,
}

/// Where the URLs come from.
#[derive(Debug)]
pub enum Input {
    /// Standard input (`-`).
    Stdin,
    /// A file, by the path given on the command line.
    Path(PathBuf),
}

impl Input {
    /// The input's name in messages.
    pub fn name(&self) -> String {
        match *self {
            Input::Stdin => "<stdin>".to_string(),
            Input::Path(ref path) => path.display().to_string(),
        }
    }

    /// The input's path, if it is a file.
    pub fn path(&self) -> Option<&Path> {
        match *self {
            Input::Stdin => None,
            Input::Path(ref path) => Some(path),
        }
    }
}

/// Everything a run needs, built and validated.
#[derive(Debug)]
pub struct Config {
    /// One compiled matcher per agent, in the order given.
    pub matchers: Vec<Matcher>,
    /// The agents, in the order given.
    pub agents: Vec<String>,
    /// The worker pool and its chunking.
    pub batch: Batch,
    /// The URLs.
    pub input: Input,
    /// What to print.
    pub output: Output,
    /// Print the header.
    pub header: bool,
    /// When to show a progress bar.
    pub progress: ProgressWhen,
    /// Where the rows go: this file, or standard output.
    pub output_file: Option<PathBuf>,
    /// The robots.txt's path (`-`: standard input), which the rows may not
    /// overwrite.
    pub robots: PathBuf,
    /// Print counts and throughput at the end, in this form.
    pub stats: Option<StatsFormat>,
    /// Compress the rows so (by -o FILE's extension when not given).
    pub compress: Option<CompressArg>,
    /// What the input holds, and how records are judged.
    pub records: RecordArgs,
}

/// What the input holds (`--input-format`), where a record's URL is, and
/// what judging records per line needs.
#[derive(Debug)]
pub struct RecordArgs {
    /// `None`: found from the input's first bytes.
    pub format: Option<InputFormatArg>,
    /// `--url-field` or `--url-column`.
    pub url_field: Option<String>,
    /// Which of the two was given.
    pub url_flag: Option<&'static str>,
    /// `--sitemap-dir` and `--origin`.
    pub sitemap: SitemapFlags,
    /// `--explain`.
    pub explain: bool,
    /// `--usage`: each agent's usage preferences follow its verdict.
    pub usage: bool,
    /// `--format` or `--layout` was given: they apply to lines only.
    pub table_flags: bool,
    /// `-a`, `--agents` or `--agents-file` was given (access logs judge
    /// each line's own agent).
    pub agent_flags: bool,
    /// The robots.txt, its dialect and the engine, to compile the matchers
    /// of the agents met in access logs.
    pub robots: Robots,
    pub dialect: Dialect,
    pub builder: MatcherBuilder,
    /// `--cache-mib` in bytes: the budget of an access log's matchers.
    pub cache_bytes: usize,
}

impl Config {
    /// Reads and parses the robots.txt, compiles it for each agent, and
    /// starts the worker pool. Warnings about the input are printed here.
    pub fn from_args(args: Args) -> anyhow::Result<Config> {
        let paths = [Some(&args.robots), Some(&args.urls)];
        let stdin = paths
            .into_iter()
            .chain([args.agents.agents_file.as_ref()])
            .filter(|path| path.is_some_and(|p| p.as_os_str() == "-"))
            .count();
        if stdin > 1 {
            anyhow::bail!(
                "only one of ROBOTS, URLS and --agents-file can be standard \
                 input (-)"
            );
        }
        let robots = read_robots(&args.robots, args.max_robots_bytes)?;
        warn_not_robots_txt(&args.robots, &robots);
        for warning in robots.warnings() {
            let over =
                matches!(warning.kind, WarningKind::OverParseLimit { .. });
            if over || args.warnings {
                message!("{}: {}", args.robots.display(), warning);
            }
        }

        let agents = agents(&args)?;
        for agent in &agents {
            warn_agent(agent, args.dialect);
        }
        let mut builder = MatcherBuilder::new();
        builder.engine(args.engine);
        let records = RecordArgs {
            format: args.records.input_format,
            url_field: args.records.url_field().map(String::from),
            url_flag: args.records.url_flag(),
            sitemap: args.records.sitemap.clone(),
            explain: args.output.explain,
            usage: args.output.usage,
            table_flags: args.output.syntax.format.is_some()
                || args.output.layout.is_some(),
            agent_flags: args.agents.given(),
            robots: robots.clone(),
            dialect: args.dialect,
            builder: builder.clone(),
            cache_bytes: args.cache_mib.saturating_mul(1 << 20),
        };
        let matchers: Vec<Matcher> = agents
            .iter()
            .map(|agent| {
                let matcher = builder.build(&robots, agent, args.dialect);
                log::debug!(
                    "agent {agent:?}: {} rules, {} ({} bytes)",
                    matcher.rules().len(),
                    matcher.strategy(),
                    matcher.memory_usage()
                );
                matcher
            })
            .collect();

        let mut batch = BatchBuilder::new();
        batch.threads(args.threads.count());
        if let Some(bytes) = args.chunk_size {
            batch.chunk_size(bytes);
        }
        // SAFETY: the URL file is mapped only while this process reads it.
        // If another process truncates it meanwhile, reading the lost pages
        // raises SIGBUS and ends the process; if it rewrites it, some rows
        // may come from the new contents. Like ripgrep, we accept this for
        // a command-line tool: the speed is worth it, and the user owns the
        // file. Standard input and pipes are never mapped.
        batch.memory_map(unsafe { MmapChoice::auto() });
        let batch = batch.build().context("failed to start worker threads")?;

        let output = match (args.output.emit, args.output.count) {
            (Some(emit), count) => {
                let allowed = emit == EmitArg::Allowed;
                if count {
                    Output::CountEmit(allowed)
                } else {
                    Output::Emit(allowed)
                }
            }
            (None, true) => Output::Count,
            (None, false) => {
                let format = args.output.syntax.format();
                let layout = match args.output.layout {
                    None => Layout::Single,
                    Some(layout) => layout.into(),
                };
                if agents.len() == 1
                    && format == Format::Csv
                    && layout == Layout::Single
                    && !args.output.explain
                    && !args.output.usage
                {
                    Output::Plain
                } else {
                    let names: Vec<&str> =
                        agents.iter().map(String::as_str).collect();
                    let mut table = TableBuilder::new();
                    table
                        .format(format)
                        .layout(layout)
                        .explain(args.output.explain);
                    if args.output.usage {
                        table.usage(
                            agents
                                .iter()
                                .map(|a| {
                                    Usage::select(&robots, a, args.dialect)
                                })
                                .collect(),
                        );
                    }
                    Output::Table(table.build(&names, &matchers))
                }
            }
        };

        let input = if args.urls.as_os_str() == "-" {
            Input::Stdin
        } else {
            Input::Path(args.urls)
        };
        Ok(Config {
            matchers,
            agents,
            batch,
            input,
            output,
            header: !args.output.syntax.no_header,
            progress: args.report.progress,
            output_file: args.report.output,
            robots: args.robots,
            stats: args.report.stats,
            compress: args.report.compress,
            records,
        })
    }
}

/// The agents to judge: those of `-a`, then of `--agents-file`, then of
/// `--agents`, each once (compared case-insensitively, as groups are); `*`
/// when none is given.
fn agents(args: &Args) -> anyhow::Result<Vec<String>> {
    args.agents.resolve()
}

/// Reads and parses the robots.txt at `path` (`-`: standard input),
/// decompressing gzip and zstd as URL inputs are, and holding no more than
/// `limit` bytes of it (0: no limit).
pub fn read_robots(path: &Path, limit: usize) -> anyhow::Result<Robots> {
    let name = path.display();
    let read = |rdr: &mut dyn Read| -> io::Result<Robots> {
        let mut head = [0u8; 4];
        let n = read_head(rdr, &mut head)?;
        let rdr = io::Cursor::new(head).take(n as u64).chain(rdr);
        match Compression::sniff(&head[..n]) {
            None => Robots::read_with_limit(rdr, limit),
            Some(c) => {
                log::debug!("robots.txt {name} is {c:?}-compressed");
                Robots::read_with_limit(c.decoder(rdr)?, limit)
            }
        }
    };
    let robots = if path.as_os_str() == "-" {
        read(&mut io::stdin().lock())
    } else {
        let mut file = File::open(path)
            .with_context(|| format!("failed to open {name}"))?;
        read(&mut file)
    };
    robots.with_context(|| format!("failed to read {name}"))
}

/// Warns when the robots.txt at `path` looks like no robots.txt at all: an
/// HTML page or binary bytes, in which crawlers find no rules.
pub fn warn_not_robots_txt(path: &Path, robots: &Robots) {
    let name = path.display();
    if sniff::looks_like_html(robots.bytes()) {
        message!(
            "{name}: looks like an HTML page, not a robots.txt (an error page \
             served with status 200?): crawlers find no rules in it"
        );
    } else if sniff::looks_binary(robots.bytes()) {
        message!(
            "{name}: looks like binary data, not a robots.txt: crawlers find \
             no rules in it"
        );
    }
}

/// Where the rows go: `path` (created or truncated), or standard output
/// when there is none or it is `-`. A path that names one of `inputs` is
/// refused: truncating it would lose what is still to be read.
pub fn open_output(
    path: Option<&Path>,
    compress: Option<CompressArg>,
    inputs: &[&Path],
) -> anyhow::Result<Box<dyn Write>> {
    let Some(path) = path.filter(|p| p.as_os_str() != "-") else {
        // N.B. Standard output is a `LineWriter`; rendered chunks are
        // large, so nearly every write goes straight to the descriptor.
        return compressed(Box::new(io::stdout().lock()), compress);
    };

    if let Ok(out) = path.canonicalize() {
        let same =
            |input: &&&Path| input.canonicalize().is_ok_and(|i| i == out);
        if let Some(input) = inputs.iter().find(same) {
            anyhow::bail!(
                "-o {} is an input ({}): it would be overwritten",
                path.display(),
                input.display()
            );
        }
    }
    let file = File::create(path)
        .with_context(|| format!("failed to create {}", path.display()))?;
    compressed(Box::new(io::BufWriter::new(file)), compress)
}

/// How the rows are compressed: as `--compress` says, else by the
/// extension of `-o FILE` (`.gz`, `.zst`), else not at all.
pub fn output_compression(
    path: Option<&Path>,
    compress: Option<CompressArg>,
) -> Option<CompressArg> {
    let ext = path.and_then(|p| p.extension()).and_then(|e| e.to_str());
    compress.or(match ext {
        Some("gz") => Some(CompressArg::Gzip),
        Some("zst") => Some(CompressArg::Zstd),
        _ => None,
    })
}

/// `out`, compressed as asked. The compressors finish their streams when
/// dropped, at the end of a run.
fn compressed(
    out: Box<dyn Write>,
    compress: Option<CompressArg>,
) -> anyhow::Result<Box<dyn Write>> {
    Ok(match compress {
        None => out,
        Some(CompressArg::Gzip) => Box::new(flate2::write::GzEncoder::new(
            out,
            flate2::Compression::default(),
        )),
        Some(CompressArg::Zstd) => Box::new(
            zstd::stream::write::Encoder::new(out, 0)
                .context("failed to start the zstd compressor")?
                .auto_finish(),
        ),
    })
}

/// Warns about an agent that is empty or cannot match a group by name as
/// given (see [`agent_warning`]).
pub fn warn_agent(agent: &str, dialect: Dialect) {
    if let Some(warning) = agent_warning(agent, dialect) {
        message!("{warning}");
    }
}

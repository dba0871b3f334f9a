//! `robots-batch crawl`: a crawl log's URLs, each judged by the robots.txt
//! fetched from its own origin.

use std::fs::File;
use std::io::{self, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use robots_batch::crawl::{
    Assume, CrawlJudge, CrawlWorker, FetchSet, Skipped,
};
use robots_batch::record::{RecordFormat, Records};
use robots_batch::{
    Batch, BatchBuilder, Counts, Format, MatcherBuilder, Stats,
};

use super::shared::{
    finish, input_format, open_source_after, print_stats, report_dropped,
    run_error, run_records as run_target, warn_cut_lines, Progress, Target,
};
use crate::cli::args::{EmitArg, InputFormatArg};
use crate::cli::Input;
use crate::cli::{
    open_output, output_compression, CrawlArgs, MissingArg, SourceArgs,
};

/// Reads the fetches of every source, in the order directories, indexes,
/// WARC files. With `skipped`, the entries of a directory that cannot be
/// used are put there rather than ending the run.
pub fn read_fetches(
    sources: &SourceArgs,
    max_robots_bytes: usize,
    mut skipped: Option<&mut Vec<Skipped>>,
) -> anyhow::Result<FetchSet> {
    let mut fetches = FetchSet::new();
    fetches.parse_limit(max_robots_bytes);
    for dir in &sources.robots_dir {
        let n = match skipped {
            Some(ref mut s) => fetches.read_dir_skipping(dir, s)?,
            None => fetches.read_dir(dir)?,
        };
        log::debug!("{n} robots.txt files in {}", dir.display());
    }
    for index in &sources.robots_index {
        let n = if index.as_os_str() == "-" {
            fetches.read_index_from(io::stdin().lock(), index)?
        } else {
            fetches.read_index(index)?
        };
        log::debug!("{n} fetches in {}", index.display());
    }
    for warc in &sources.robots_warc {
        let n = fetches.read_warc(warc)?;
        log::debug!("{n} responses in {}", warc.display());
    }
    Ok(fetches)
}

/// The input bytes in flight: four times the default command's, so that
/// a chunk (judged sorted by origin) holds four times the URLs, and more
/// of an origin's URLs in a log of mixed hosts meet in one chunk and share
/// its matchers while they are in the cache.
const IN_FLIGHT_BYTES: usize = 32 << 20;

/// The input bytes in flight for a URL file of at least
/// [`LARGE_INPUT`] bytes: twice [`IN_FLIGHT_BYTES`], so chunks of twice
/// the size, which in a log of many hosts in random order meet each
/// origin's URLs twice as often, while a file this large still makes
/// many chunks for every thread (a smaller one would leave threads idle).
const LARGE_IN_FLIGHT_BYTES: usize = 64 << 20;

/// A URL file is cut into at least this many chunks for each thread (see
/// [`BatchBuilder::file_chunks`]), so that a short log keeps them all busy;
/// no more, since a smaller chunk holds fewer of each origin's URLs.
const FILE_CHUNKS_PER_THREAD: usize = 1;

/// A URL file at least this long gets [`LARGE_IN_FLIGHT_BYTES`].
const LARGE_INPUT: u64 = 256 << 20;

/// The input bytes in flight for the URL file at `urls`: its length is
/// known before it is read (not a pipe's; a file that cannot be read
/// fails later, where it is opened).
fn in_flight_bytes(urls: &Path) -> usize {
    let large = urls.as_os_str() != "-"
        && std::fs::metadata(urls)
            .is_ok_and(|m| m.is_file() && m.len() >= LARGE_INPUT);
    match large {
        true => LARGE_IN_FLIGHT_BYTES,
        false => IN_FLIGHT_BYTES,
    }
}

/// Reads the fetches, then judges every line of the input.
pub fn run(args: CrawlArgs) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    if !args.sources.any() {
        anyhow::bail!(
            "no robots.txt source: give --robots-dir, --robots-index or \
             --robots-warc (see robots-batch crawl -h)"
        );
    }
    let stdin = std::iter::once(&args.urls)
        .chain(&args.sources.robots_index)
        .chain(args.agents.agents_file.as_ref())
        .filter(|path| path.as_os_str() == "-")
        .count();
    if stdin > 1 {
        anyhow::bail!(
            "only one of URLS, --agents-file and the --robots-index files \
             can be standard input (-)"
        );
    }
    let mut batch = BatchBuilder::new();
    batch.threads(args.threads.unwrap_or(0));
    batch.in_flight_bytes(in_flight_bytes(&args.urls));
    batch.file_chunks(FILE_CHUNKS_PER_THREAD);
    if let Some(bytes) = args.chunk_size {
        batch.chunk_size(bytes);
    }
    let batch = batch.build().context("failed to start worker threads")?;
    // The files of a directory are read on the batch's threads.
    let fetches = batch.install(|| {
        read_fetches(&args.sources, args.policy.max_robots_bytes, None)
    })?;
    let agents = args.agents.resolve()?;
    for agent in &agents {
        crate::cli::warn_agent(agent, args.dialect);
    }
    let on_missing = match args.on_missing {
        MissingArg::Allow => Some(Assume::Allow),
        MissingArg::Disallow => Some(Assume::Disallow),
        MissingArg::Unknown => None,
    };
    let policy =
        args.policy.policy(on_missing, args.cache_mib.saturating_mul(1 << 20));
    let mut builder = MatcherBuilder::new();
    builder.engine(args.engine);
    let judge =
        CrawlJudge::new(fetches, policy, builder, &agents, args.dialect)
            .compile_after(args.compile_after);
    // Not an error: Common Crawl's robots.txt WARCs hold the pages that
    // some redirects lead to, and other sources may hold any capture.
    let undecodable = judge.fetches().undecodable();
    if undecodable > 0 {
        message!(
            "{undecodable} robots.txt bodies with a Content-Encoding that \
             cannot be undone: taken as fetches that got no answer"
        );
    }
    let unused = judge.unused_captures();
    if unused > 0 {
        message!(
            "{unused} captures of other URLs than /robots.txt skipped: no \
             redirect from a robots.txt leads to them"
        );
    }
    let format = match args.format {
        None | Some(crate::cli::args::FormatArg::Csv) => Format::Csv,
        Some(crate::cli::args::FormatArg::Tsv) => Format::Tsv,
        Some(crate::cli::args::FormatArg::Jsonl) => Format::Jsonl,
    };

    let input = if args.urls.as_os_str() == "-" {
        Input::Stdin
    } else {
        Input::Path(args.urls.clone())
    };
    let (input_format, read) = input_format(
        args.records.input_format,
        args.records.url_flag(),
        &input,
    )?;
    if input_format != InputFormatArg::Lines {
        let result = run_records(
            &args,
            &judge,
            &batch,
            input,
            input_format,
            read,
            start,
        );
        report_judge(&judge);
        std::mem::forget(judge);
        return result;
    }
    let emit = args.emit.map(|e| e == EmitArg::Allowed);
    let name = input.name();
    let file = match input {
        Input::Stdin => None,
        Input::Path(ref path) => Some(
            File::open(path)
                .with_context(|| format!("failed to open {name}"))?,
        ),
    };
    let (source, total) =
        open_source_after(&batch, file.as_ref(), &name, read, false)?;

    let sources =
        args.sources.robots_index.iter().chain(&args.sources.robots_warc);
    let inputs: Vec<&Path> = std::iter::once(&args.urls)
        .chain(sources)
        .map(|p| p.as_path())
        .collect();
    let rows_to_terminal =
        args.report.output.is_none() && io::stdout().is_terminal();
    let mut stdout = open_output(
        args.report.output.as_deref(),
        output_compression(
            args.report.output.as_deref(),
            args.report.compress,
        ),
        &inputs,
    )?;
    if !args.no_header && emit.is_none() {
        let header = CrawlWorker::header(&judge, format, args.explain);
        stdout.write_all(&header).context("failed to write output")?;
    }
    let mut progress =
        Progress::new(start, total, args.report.progress, rows_to_terminal);
    let mut write_failed = false;
    let sink = |rendered: &[u8], total: &Stats| -> io::Result<()> {
        if let Err(err) = stdout.write_all(rendered) {
            write_failed = true;
            return Err(err);
        }
        progress.update(total.bytes());
        Ok(())
    };
    let agents = judge.agents().to_vec();
    let several = args.report.stats.is_some() && agents.len() > 1;
    let counts = Counts::new(agents.len());
    let new_worker = || {
        let worker = CrawlWorker::new(&judge, format, args.explain).emit(emit);
        if several {
            worker.tally(&counts)
        } else {
            worker
        }
    };
    let result = source.run_crawl(new_worker, sink);
    report_judge(&judge);
    // The process ends next, so the judge is not freed: freeing the fetches
    // and matchers of every host one by one is a visible part of a run over
    // many hosts.
    std::mem::forget(judge);
    progress.finish();
    let stats = result.map_err(|err| run_error(err, write_failed, &name))?;
    warn_cut_lines(&stats);
    stdout.flush().context("failed to write output")?;
    report_dropped(&name, "lines", &stats, emit, true);
    if let Some(format) = args.report.stats {
        let per_agent = several.then_some((&agents[..], &counts));
        print_stats(format, &stats, start.elapsed(), per_agent);
    }
    // With --emit, grep's exit code: 1 when no line had the verdict.
    Ok(match emit {
        Some(_) if stats.kept_records() == 0 => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    })
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
fn run_records(
    args: &CrawlArgs,
    judge: &CrawlJudge,
    batch: &Batch,
    input: Input,
    format: InputFormatArg,
    read: Vec<u8>,
    start: Instant,
) -> anyhow::Result<ExitCode> {
    let name = input.name();
    let emit = args.emit.map(|e| e == EmitArg::Allowed);
    let format = match format {
        InputFormatArg::Jsonl => RecordFormat::Jsonl,
        InputFormatArg::Csv => RecordFormat::Csv,
        InputFormatArg::Tsv => RecordFormat::Tsv,
        InputFormatArg::Cdxj => RecordFormat::Cdxj,
        InputFormatArg::Warc => RecordFormat::Warc,
        InputFormatArg::Parquet => RecordFormat::Parquet,
        InputFormatArg::AccessLog => anyhow::bail!(
            "an access log holds one site's paths, not URLs: judge it with \
             the default command and that site's robots.txt"
        ),
        InputFormatArg::Lines => unreachable!("lines are not records"),
    };
    if args.format.is_some() {
        anyhow::bail!(
            "--format applies to lines of URLs; {name} is read as {} \
             records, written back in their own format",
            format.name()
        );
    }
    let mut records = Records::crawl(format, judge);
    if let Some(field) = args.records.url_field() {
        records.url_field(field);
    }
    records.emit(emit).explain(args.explain);
    let sources =
        args.sources.robots_index.iter().chain(&args.sources.robots_warc);
    let target = Target {
        input: &input,
        read,
        output: args.report.output.as_deref(),
        compress: args.report.compress,
        inputs: std::iter::once(&args.urls)
            .chain(sources)
            .map(|p| p.as_path())
            .collect(),
        count: None,
    };
    let stats = run_target(&records, batch, target, emit)?;
    finish(&name, &stats, emit, args.report.stats, start);
    report_dropped(&name, "records", &stats, emit, true);
    Ok(match emit {
        Some(_) if stats.kept_records() == 0 => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A URL file of `LARGE_INPUT` bytes or more gets the larger chunks;
    /// a shorter one, standard input, or a missing file, the usual ones.
    #[test]
    fn large_url_files_get_more_bytes_in_flight() {
        let path = std::env::temp_dir()
            .join(format!("robots-batch-large-{}.log", std::process::id()));
        let file = std::fs::File::create(&path).unwrap();
        // Sparse: no bytes are written.
        file.set_len(LARGE_INPUT).unwrap();
        assert_eq!(in_flight_bytes(&path), LARGE_IN_FLIGHT_BYTES);
        file.set_len(LARGE_INPUT - 1).unwrap();
        assert_eq!(in_flight_bytes(&path), IN_FLIGHT_BYTES);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(in_flight_bytes(&path), IN_FLIGHT_BYTES);
        assert_eq!(in_flight_bytes(Path::new("-")), IN_FLIGHT_BYTES);
    }
}

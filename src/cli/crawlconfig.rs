//! The objects a `crawl` run needs, built from its flags: the judge of
//! every fetch, the worker pool, and what the rows hold.

use std::io;
use std::path::{Path, PathBuf};

use anyhow::Context;
use robots_batch::crawl::{
    Assume, CrawlJudge, FetchPolicy, FetchSet, Skipped,
};
use robots_batch::{Batch, BatchBuilder, Format, Layout, MatcherBuilder};

use super::args::{
    CompressArg, EmitArg, InputFormatArg, ProgressWhen, SitemapFlags,
    StatsFormat,
};
use super::config::{warn_agent, Input};
use super::crawlargs::{CrawlArgs, DatedDir, MissingArg, SourceArgs};

/// Everything a `crawl` run needs, built and validated.
#[derive(Debug)]
pub struct CrawlConfig {
    /// Every fetch, and the agents' verdicts from them.
    pub judge: CrawlJudge,
    /// The worker pool and its chunking.
    pub batch: Batch,
    /// The URLs.
    pub input: Input,
    /// The files read (URLs, indexes, WARC files), which the output may
    /// not be.
    pub inputs: Vec<PathBuf>,
    /// What the rows hold and how they are written.
    pub rows: CrawlRowsConfig,
    /// `--input-format`, `None`: found from the input's first bytes.
    pub input_format: Option<InputFormatArg>,
    /// `--url-field` or `--url-column`, and which of the two was given.
    pub url_field: Option<String>,
    pub url_flag: Option<&'static str>,
    /// `--at-fetch-time`, with `--time-field` when given.
    pub at_fetch_time: Option<Option<String>>,
    /// `--sitemap-dir` and `--origin`.
    pub sitemap: SitemapFlags,
    /// Where the rows go: this file, or standard output.
    pub output_file: Option<PathBuf>,
    /// Compress the rows so (by -o FILE's extension when not given).
    pub compress: Option<CompressArg>,
    /// When to show a progress bar.
    pub progress: ProgressWhen,
    /// Print counts and throughput at the end, in this form.
    pub stats: Option<StatsFormat>,
}

/// What `crawl`'s rows hold (see [`CrawlWorker`](robots_batch::crawl::CrawlWorker)).
#[derive(Clone, Copy, Debug)]
pub struct CrawlRowsConfig {
    pub format: Format,
    /// `--format` was given: it applies to lines only.
    pub format_given: bool,
    pub layout: Layout,
    /// `--layout` was given: it applies to lines only.
    pub layout_given: bool,
    pub explain: bool,
    pub usage: bool,
    pub header: bool,
    /// `--emit`: `Some(true)` for the URLs every agent may fetch.
    pub emit: Option<bool>,
    /// `-c`: only counts.
    pub count: bool,
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
    for DatedDir { date, dir } in &sources.robots_dir {
        let n = match (skipped.as_mut(), date) {
            (Some(s), Some(date)) => fetches.read_dated_dir(dir, *date, s)?,
            (None, Some(date)) => {
                fetches.read_dated_dir(dir, *date, &mut vec![])?
            }
            (Some(s), None) => fetches.read_dir_skipping(dir, s)?,
            (None, None) => fetches.read_dir(dir)?,
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

impl CrawlConfig {
    /// Validates `args`, reads every fetch and builds the judge.
    pub fn from_args(args: CrawlArgs) -> anyhow::Result<CrawlConfig> {
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
                "only one of URLS, --agents-file and the --robots-index \
                 files can be standard input (-)"
            );
        }
        let mut batch = BatchBuilder::new();
        batch.threads(args.threads.count());
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
            warn_agent(agent, args.dialect);
        }
        let on_missing = match args.on_missing {
            MissingArg::Allow => Some(Assume::Allow),
            MissingArg::Disallow => Some(Assume::Disallow),
            MissingArg::Unknown => None,
        };
        let cache_bytes = args.cache_mib.saturating_mul(1 << 20);
        let policy = FetchPolicy {
            capture: args.time.capture(),
            before_first: args.time.before_first(),
            ..args.policy.policy(on_missing, cache_bytes)
        };
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
        let same = judge.fetches().same_instant();
        if same > 0 {
            message!(
                "{same} captures of an origin at the same instant as a later \
                 one of the input: the later one is kept"
            );
        }
        let unused = judge.unused_captures();
        if unused > 0 {
            message!(
                "{unused} captures of other URLs than /robots.txt skipped: \
                 no redirect from a robots.txt leads to them"
            );
        }
        let output = &args.output;
        let rows = CrawlRowsConfig {
            format: output.syntax.format(),
            format_given: output.syntax.format.is_some(),
            layout: output.layout.map_or(Layout::Single, Layout::from),
            layout_given: output.layout.is_some(),
            explain: output.explain,
            usage: output.usage,
            header: !output.syntax.no_header,
            emit: output.emit.map(|e| e == EmitArg::Allowed),
            count: output.count,
        };
        let input = match args.urls.as_os_str() == "-" {
            true => Input::Stdin,
            false => Input::Path(args.urls.clone()),
        };
        let sources =
            args.sources.robots_index.iter().chain(&args.sources.robots_warc);
        let inputs =
            std::iter::once(&args.urls).chain(sources).cloned().collect();
        Ok(CrawlConfig {
            judge,
            batch,
            input,
            inputs,
            rows,
            input_format: args.records.input_format,
            url_field: args.records.url_field().map(str::to_string),
            url_flag: args.records.url_flag(),
            at_fetch_time: args
                .time
                .at_fetch_time
                .then(|| args.time.time_field.clone()),
            sitemap: args.records.sitemap.clone(),
            output_file: args.report.output,
            compress: args.report.compress,
            progress: args.report.progress,
            stats: args.report.stats,
        })
    }
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

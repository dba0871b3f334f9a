//! The commands' inputs: URL lines opened (decompressed when they are
//! compressed), the format of records found from their first bytes, and
//! records run from their input to their output.

use std::fs::File;
use std::io::{self, BufRead, Read, Seek, SeekFrom, Write};
use std::path::Path;

use anyhow::Context;
use robots_batch::output::{Counts, TallyRender};
use robots_batch::record::{RecordFormat, Records};
use robots_batch::sniff::{self, SNIFF_BYTES};
use robots_batch::{
    Batch, ChunkWorker, Lines, Matcher, MatcherWorker, Render, Sink, Stats,
};

use super::hints::HINT_BYTES;
use super::report::*;
use crate::cli::args::{CompressArg, InputFormatArg};
use crate::cli::{
    decoded_head, open_output, output_compression, read_head, Compression,
    Input,
};

/// The file of `input`, open, or `None` for standard input.
pub(crate) fn open_file(input: &Input) -> anyhow::Result<Option<File>> {
    match input {
        Input::Stdin => Ok(None),
        Input::Path(path) => File::open(path)
            .map(Some)
            .with_context(|| format!("failed to open {}", input.name())),
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
    pub(crate) fn run<R, F, S>(
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
            Some(counts) => self.run_workers(
                || {
                    MatcherWorker::new(
                        matchers,
                        TallyRender::new(counts, new_render()),
                    )
                },
                sink,
            ),
            None => self.run_workers(
                || MatcherWorker::new(matchers, new_render()),
                sink,
            ),
        }
    }

    /// Runs every URL through the workers `new_worker` makes, one per
    /// thread (crawl mode's, or [`Source::run`]'s over matchers).
    pub(crate) fn run_workers<W, F, S>(
        self,
        new_worker: F,
        sink: S,
    ) -> io::Result<Stats>
    where
        W: ChunkWorker,
        F: Fn() -> W + Sync,
        S: Sink,
    {
        self.batch.run(self.urls, new_worker, sink)
    }
}

/// How much of the input is looked at to find its format.
pub(crate) const DETECT_BYTES: usize = 64 << 10;

/// The format of `input`: `given`, or found from its first bytes (see
/// [`detect`]). A URL's field or column named by `url_flag` makes what
/// would be lines records (`--url-column`: CSV, or TSV when the header has
/// tabs and no commas; `--url-field`: CSV or TSV when the input looks so),
/// and is an error where no record has one; of standard input, the bytes
/// read to find out are returned, to be read again.
pub(crate) fn input_format(
    given: Option<InputFormatArg>,
    url_flag: Option<&str>,
    input: &Input,
) -> anyhow::Result<(InputFormatArg, Vec<u8>)> {
    let (format, read, head) = match given {
        Some(format) => (format, vec![], vec![]),
        None => detect(input)?,
    };
    let Some(flag) = url_flag else { return Ok((format, read)) };
    let name = input.name();
    let delimiter = match (given, format) {
        (None, InputFormatArg::Lines) => sniff::looks_like_csv(&head),
        _ => None,
    };
    let implied = match (delimiter, flag) {
        (Some(b'\t'), _) => Some(InputFormatArg::Tsv),
        (Some(_), _) => Some(InputFormatArg::Csv),
        (None, "--url-column") => {
            let header = head.split(|&b| b == b'\n').next().unwrap_or(&[]);
            let tsv = header.contains(&b'\t') && !header.contains(&b',');
            Some(if tsv { InputFormatArg::Tsv } else { InputFormatArg::Csv })
        }
        (None, _) => None,
    };
    match format {
        InputFormatArg::Lines if given.is_none() => match implied {
            Some(format) => {
                log::debug!("{name}: read as {format:?} records, for {flag}");
                Ok((format, read))
            }
            None => anyhow::bail!(
                "{flag} names the URL's field in JSON records, and {name} \
                 does not start with `{{`: give --input-format (jsonl, cdxj, \
                 csv, tsv)"
            ),
        },
        InputFormatArg::Lines
        | InputFormatArg::Warc
        | InputFormatArg::AccessLog
        | InputFormatArg::Sitemap
        | InputFormatArg::LlmsTxt => {
            let how = match given {
                Some(_) => "given",
                None => "found from its first bytes",
            };
            anyhow::bail!(
                "{flag} names the URL's field or column in JSON Lines, CSV, \
                 TSV, CDXJ or Parquet records; {name} is read as {} ({how}), \
                 which has none",
                format_name(format)
            )
        }
        _ => Ok((format, read)),
    }
}

/// The name of `format` on the command line.
pub(crate) fn format_name(format: InputFormatArg) -> &'static str {
    match format {
        InputFormatArg::Lines => "lines",
        InputFormatArg::Warc => "warc",
        InputFormatArg::AccessLog => "access-log",
        InputFormatArg::Jsonl => "jsonl",
        InputFormatArg::Csv => "csv",
        InputFormatArg::Tsv => "tsv",
        InputFormatArg::Cdxj => "cdxj",
        InputFormatArg::Parquet => "parquet",
        InputFormatArg::Sitemap => "sitemap",
        InputFormatArg::LlmsTxt => "llms-txt",
    }
}

/// The format of `input` from its first bytes (decompressed): `WARC/1.`
/// is warc, `PAR1` parquet, `{` jsonl, `<` sitemap (an HTML page too, for
/// the sitemap reader to name it), an llms.txt llms-txt, anything else
/// lines. Of standard
/// input, the bytes read to find out are returned, to be read again; and
/// the first bytes, decompressed.
pub(crate) fn detect(
    input: &Input,
) -> anyhow::Result<(InputFormatArg, Vec<u8>, Vec<u8>)> {
    let name = input.name();
    let mut raw = vec![0u8; DETECT_BYTES];
    let n = match input {
        Input::Stdin => read_head(&mut io::stdin().lock(), &mut raw),
        Input::Path(path) => match File::open(path) {
            Ok(mut file) if file.metadata().is_ok_and(|m| m.is_file()) => {
                read_head(&mut file, &mut raw)
            }
            // A missing file, a directory or a pipe is left to the
            // ordinary reading of lines, which says what is wrong.
            _ => return Ok((InputFormatArg::Lines, vec![], vec![])),
        },
    }
    .with_context(|| format!("failed to read {name}"))?;
    raw.truncate(n);
    let head = decoded_head(&raw, Compression::sniff(&raw), DETECT_BYTES);
    let text = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&head);
    let text = text.trim_ascii_start();
    let format = if text.starts_with(b"WARC/1.") {
        InputFormatArg::Warc
    } else if head.starts_with(b"PAR1") {
        InputFormatArg::Parquet
    } else if text.starts_with(b"{") {
        InputFormatArg::Jsonl
    } else if text.starts_with(b"<") {
        InputFormatArg::Sitemap
    } else if sniff::looks_like_llms_txt(&head) {
        InputFormatArg::LlmsTxt
    } else {
        InputFormatArg::Lines
    };
    log::debug!("{name}: input format {format:?}, from its first bytes");
    let read = match input {
        Input::Stdin => raw,
        Input::Path(_) => vec![],
    };
    Ok((format, read, head))
}

/// Where the records of a run come from and where they go.
pub(crate) struct Endpoints<'a> {
    pub input: &'a Input,
    /// The first bytes of standard input, read already.
    pub read: Vec<u8>,
    /// `-o FILE`.
    pub output: Option<&'a Path>,
    pub compress: Option<CompressArg>,
    /// The files read, which the output may not be.
    pub inputs: Vec<&'a Path>,
    /// With `-c`: what to write in place of the records, once counted.
    pub count: Option<&'a Count<'a>>,
}

/// What `-c` writes: made from the run's counts.
pub(crate) type Count<'a> = dyn Fn(&Stats) -> anyhow::Result<Vec<u8>> + 'a;

/// Runs `records` over the target's input and writes them to its output:
/// the run of the default command and of `crawl` alike.
pub(crate) fn run_records(
    records: &Records<'_>,
    batch: &Batch,
    target: Endpoints<'_>,
    emit: Option<bool>,
) -> anyhow::Result<Stats> {
    let name = target.input.name();
    if records.format() == RecordFormat::Parquet {
        return run_parquet(records, target);
    }
    // A regular file's length, for the chunk size of a short one.
    let mut len = None;
    let raw: Box<dyn Read> = match *target.input {
        Input::Stdin => {
            Box::new(io::Cursor::new(target.read).chain(io::stdin().lock()))
        }
        Input::Path(ref path) => {
            let file = File::open(path)
                .with_context(|| format!("failed to open {name}"))?;
            let md = file.metadata();
            if md.as_ref().is_ok_and(|m| m.is_dir()) {
                let err = io::Error::from(io::ErrorKind::IsADirectory);
                return Err(err).context(format!("failed to read {name}"));
            }
            len = md.ok().filter(|m| m.is_file()).map(|m| m.len());
            Box::new(file)
        }
    };
    // WARC files are decompressed by the record reader, which keeps gzip
    // members whole; the other formats are decompressed here.
    let mut compress = output_compression(target.output, target.compress);
    let rdr = if records.format() == RecordFormat::Warc {
        let mut raw = io::BufReader::new(raw);
        let gzip = raw.fill_buf().is_ok_and(|b| b.starts_with(b"\x1f\x8b"));
        // The records of a gzip-compressed WARC come out in gzip members
        // of their own, which another gzip stream would only wrap.
        if emit.is_some() && gzip && compress == Some(CompressArg::Gzip) {
            compress = None;
        }
        Box::new(raw)
    } else {
        let (rdr, inflated) = decompressed(raw)
            .with_context(|| format!("failed to read {name}"))?;
        if inflated {
            len = None;
        }
        rdr
    };
    let mut out = open_output(target.output, compress, &target.inputs)?;
    let mut write_failed = false;
    let count = target.count;
    let sink = |rendered: &[u8], _: &Stats| match count {
        Some(_) => Ok(()),
        None => out.write_all(rendered).inspect_err(|_| write_failed = true),
    };
    let result = records.run_sized(batch, rdr, len, sink);
    let stats = result.map_err(|err| run_error(err, write_failed, &name))?;
    if let Some(count) = count {
        out.write_all(&count(&stats)?).context("failed to write output")?;
    }
    out.flush().context("failed to write output")?;
    Ok(stats)
}

/// Runs the rows of a Parquet file, which is read from its end: standard
/// input, or a file compressed with gzip or zstd, is first copied
/// (decompressed) to a temporary file.
pub(crate) fn run_parquet(
    records: &Records<'_>,
    target: Endpoints<'_>,
) -> anyhow::Result<Stats> {
    let name = target.input.name();
    let (file, spooled) = match *target.input {
        Input::Stdin => {
            let stdin = io::Cursor::new(target.read).chain(io::stdin().lock());
            let (mut rdr, _) = decompressed(Box::new(stdin))
                .with_context(|| format!("failed to read {name}"))?;
            let spooled = spool_parquet(&mut rdr, &name)?;
            (spooled.file.try_clone()?, Some(spooled))
        }
        Input::Path(ref path) => {
            let file = File::open(path)
                .with_context(|| format!("failed to open {name}"))?;
            let (mut rdr, inflated) = decompressed(Box::new(file))
                .with_context(|| format!("failed to read {name}"))?;
            match inflated {
                false => (File::open(path)?, None),
                true => {
                    let spooled = spool_parquet(&mut rdr, &name)?;
                    (spooled.file.try_clone()?, Some(spooled))
                }
            }
        }
    };
    let compress = output_compression(target.output, target.compress);
    let mut out = open_output(target.output, compress, &target.inputs)?;
    let mut write_failed = false;
    let count = target.count;
    let sink = |rendered: &[u8], _: &Stats| match count {
        Some(_) => Ok(()),
        None => out.write_all(rendered).inspect_err(|_| write_failed = true),
    };
    let result = records.run_parquet(file, sink);
    let stats = result.map_err(|err| run_error(err, write_failed, &name))?;
    if let Some(count) = count {
        out.write_all(&count(&stats)?).context("failed to write output")?;
    }
    out.flush().context("failed to write output")?;
    drop(spooled);
    Ok(stats)
}

/// Copies the Parquet bytes of `rdr` (the input `name`, decompressed) to
/// a temporary file, saying where it failed to.
pub(crate) fn spool_parquet(
    rdr: &mut dyn Read,
    name: &str,
) -> anyhow::Result<super::spool::Spooled> {
    super::spool::spool(rdr).with_context(|| {
        format!(
            "failed to copy the Parquet rows of {name} to a temporary file \
             in {} (Parquet is read from its end; set TMPDIR to a disk with \
             room for the file decompressed, or decompress it first)",
            std::env::temp_dir().display()
        )
    })
}

/// `raw`, decompressed when its first bytes say gzip or zstd.
pub(crate) fn decompressed(
    mut raw: Box<dyn Read>,
) -> io::Result<(Box<dyn Read>, bool)> {
    let mut head = [0u8; 4];
    let n = read_head(&mut raw, &mut head)?;
    let rdr: Box<dyn Read> =
        Box::new(io::Cursor::new(head).take(n as u64).chain(raw));
    match Compression::sniff(&head[..n]) {
        None => Ok((rdr, false)),
        Some(c) => Ok((c.decoder(rdr)?, true)),
    }
}

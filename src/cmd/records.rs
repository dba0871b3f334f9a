//! The default command on records (`--input-format` other than `lines`):
//! JSON Lines, CSV, TSV, CDXJ, access logs and WARC files, written back in
//! their own format with the verdicts added, or filtered with `--emit`.

use std::fs::File;
use std::io::{self, BufRead, Read, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use robots_batch::record::{RecordFormat, Records};
use robots_batch::{Batch, Stats, Usage};

use super::default::{print_stats, run_error};
use crate::cli::args::{CompressArg, InputFormatArg};
use crate::cli::{
    open_output, output_compression, read_head, Compression, Config, Input,
    Output, StatsFormat,
};

/// The default command: the input's format found (or given), lines of
/// URLs go to [`default::run`](super::default::run), records are run here.
pub fn dispatch(config: Config) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    let (format, read) = match config.records.format {
        Some(format) => (format, vec![]),
        None => detect(&config.input)?,
    };
    match format {
        InputFormatArg::Lines => super::default::run(config, read),
        format => run(config, format, read, start),
    }
}

/// How much of the input is looked at to find its format.
const DETECT_BYTES: usize = 64 << 10;

/// The format of `input` from its first bytes (decompressed): `WARC/1.`
/// is warc, `{` is jsonl, anything else lines. Of standard input, the
/// bytes read to find out are returned, to be read again.
pub(crate) fn detect(
    input: &Input,
) -> anyhow::Result<(InputFormatArg, Vec<u8>)> {
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
            _ => return Ok((InputFormatArg::Lines, vec![])),
        },
    }
    .with_context(|| format!("failed to read {name}"))?;
    raw.truncate(n);
    let head = decoded_head(&raw);
    let text = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&head);
    let text = text.trim_ascii_start();
    let format = if text.starts_with(b"WARC/1.") {
        InputFormatArg::Warc
    } else if raw.starts_with(b"PAR1") {
        InputFormatArg::Parquet
    } else if text.starts_with(b"{") {
        InputFormatArg::Jsonl
    } else {
        InputFormatArg::Lines
    };
    log::debug!("{name}: input format {format:?}, from its first bytes");
    let read = match input {
        Input::Stdin => raw,
        Input::Path(_) => vec![],
    };
    Ok((format, read))
}

/// The first bytes of `raw` once decompressed (as many as a partial
/// stream gives).
fn decoded_head(raw: &[u8]) -> Vec<u8> {
    let Some(c) = Compression::sniff(raw) else { return raw.to_vec() };
    let Ok(mut dec) = c.decoder(raw) else { return vec![] };
    let mut head = vec![0u8; 4096];
    let mut n = 0;
    while n < head.len() {
        match dec.read(&mut head[n..]) {
            Ok(0) | Err(_) => break,
            Ok(k) => n += k,
        }
    }
    head.truncate(n);
    head
}

/// Runs the records of the input, of `format`; `read` are the first
/// bytes of standard input, read already.
pub fn run(
    config: Config,
    format: InputFormatArg,
    read: Vec<u8>,
    start: Instant,
) -> anyhow::Result<ExitCode> {
    let format = match format {
        InputFormatArg::Lines => unreachable!("lines are not records"),
        InputFormatArg::Jsonl => RecordFormat::Jsonl,
        InputFormatArg::Csv => RecordFormat::Csv,
        InputFormatArg::Tsv => RecordFormat::Tsv,
        InputFormatArg::Cdxj => RecordFormat::Cdxj,
        InputFormatArg::AccessLog => RecordFormat::AccessLog,
        InputFormatArg::Warc => RecordFormat::Warc,
        InputFormatArg::Parquet => RecordFormat::Parquet,
    };
    let name = config.input.name();
    let rf = &config.records;
    if rf.table_flags {
        anyhow::bail!(
            "--format, --layout and -c apply to lines of URLs; {name} is read \
             as {} records, written back in their own format",
            format.name()
        );
    }
    if format == RecordFormat::AccessLog && rf.agent_flags {
        anyhow::bail!(
            "an access log is judged, line by line, for the agent of each \
             line's User-Agent: -a, --agents and --agents-file do not apply"
        );
    }
    let emit = match config.output {
        Output::Emit(allowed) => Some(allowed),
        Output::CountEmit(_) | Output::Count => {
            anyhow::bail!("-c does not apply to records")
        }
        Output::Plain | Output::Table(_) => None,
    };
    let mut records = Records::new(format, &config.matchers, &config.agents);
    if let Some(ref field) = rf.url_field {
        records.url_field(field);
    }
    records.emit(emit).explain(rf.explain);
    if format == RecordFormat::AccessLog {
        records
            .per_line_agents(&rf.robots, rf.dialect, rf.builder.clone())
            .own_cache_bytes(rf.cache_bytes);
    }
    if rf.usage {
        // An access log's agents are known line by line: their usage
        // lines are selected as each is met.
        let usage = match format {
            RecordFormat::AccessLog => vec![],
            _ => config
                .agents
                .iter()
                .map(|a| Usage::select(&rf.robots, a, rf.dialect))
                .collect(),
        };
        records.usage(usage);
    }
    let inputs = [Some(config.robots.as_path()), config.input.path()];
    let target = Target {
        input: &config.input,
        read,
        output: config.output_file.as_deref(),
        compress: config.compress,
        inputs: inputs.into_iter().flatten().collect(),
    };
    let stats = run_records(&records, &config.batch, target, emit)?;
    finish(&name, &stats, emit, config.stats, start);
    // With --emit, grep's exit code: 1 when no record had the verdict.
    Ok(match emit {
        Some(_) if stats.kept_records() == 0 => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    })
}

/// Where the records of a run come from and where they go.
pub(crate) struct Target<'a> {
    pub input: &'a Input,
    /// The first bytes of standard input, read already.
    pub read: Vec<u8>,
    /// `-o FILE`.
    pub output: Option<&'a Path>,
    pub compress: Option<CompressArg>,
    /// The files read, which the output may not be.
    pub inputs: Vec<&'a Path>,
}

/// Runs `records` over the target's input and writes them to its output:
/// the run of the default command and of `crawl` alike.
pub(crate) fn run_records(
    records: &Records<'_>,
    batch: &Batch,
    target: Target<'_>,
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
    let sink = |rendered: &[u8], _: &Stats| {
        out.write_all(rendered).inspect_err(|_| write_failed = true)
    };
    let result = records.run_sized(batch, rdr, len, sink);
    let stats = result.map_err(|err| run_error(err, write_failed, &name))?;
    out.flush().context("failed to write output")?;
    Ok(stats)
}

/// Runs the rows of a Parquet file, which is read from its end, so never
/// from standard input.
fn run_parquet(
    records: &Records<'_>,
    target: Target<'_>,
) -> anyhow::Result<Stats> {
    let name = target.input.name();
    let Input::Path(ref path) = *target.input else {
        anyhow::bail!(
            "Parquet is read from a file, not from standard input (its \
             footer, at its end, says where its rows are)"
        );
    };
    let file =
        File::open(path).with_context(|| format!("failed to open {name}"))?;
    let compress = output_compression(target.output, target.compress);
    let mut out = open_output(target.output, compress, &target.inputs)?;
    let mut write_failed = false;
    let sink = |rendered: &[u8], _: &Stats| {
        out.write_all(rendered).inspect_err(|_| write_failed = true)
    };
    let result = records.run_parquet(file, sink);
    let stats = result.map_err(|err| run_error(err, write_failed, &name))?;
    out.flush().context("failed to write output")?;
    Ok(stats)
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

/// `raw`, decompressed when its first bytes say gzip or zstd.
fn decompressed(mut raw: Box<dyn Read>) -> io::Result<(Box<dyn Read>, bool)> {
    let mut head = [0u8; 4];
    let n = read_head(&mut raw, &mut head)?;
    let rdr: Box<dyn Read> =
        Box::new(io::Cursor::new(head).take(n as u64).chain(raw));
    match Compression::sniff(&head[..n]) {
        None => Ok((rdr, false)),
        Some(c) => Ok((c.decoder(rdr)?, true)),
    }
}

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
use robots_batch::{sniff, Batch, Counts, Stats, Usage};

use super::default::{count_table, print_stats, run_error};
use crate::cli::args::{CompressArg, InputFormatArg};
use crate::cli::{
    decoded_head, open_output, output_compression, read_head, Compression,
    Config, Input, Output, StatsFormat,
};

/// The default command: the input's format found (or given), lines of
/// URLs go to [`default::run`](super::default::run), records are run here.
pub fn dispatch(config: Config) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    let rf = &config.records;
    let (format, read) = input_format(rf.format, rf.url_flag, &config.input)?;
    match format {
        InputFormatArg::Lines => super::default::run(config, read),
        format => run(config, format, read, start),
    }
}

/// How much of the input is looked at to find its format.
const DETECT_BYTES: usize = 64 << 10;

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
        | InputFormatArg::AccessLog => {
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
fn format_name(format: InputFormatArg) -> &'static str {
    match format {
        InputFormatArg::Lines => "lines",
        InputFormatArg::Warc => "warc",
        InputFormatArg::AccessLog => "access-log",
        InputFormatArg::Jsonl => "jsonl",
        InputFormatArg::Csv => "csv",
        InputFormatArg::Tsv => "tsv",
        InputFormatArg::Cdxj => "cdxj",
        InputFormatArg::Parquet => "parquet",
    }
}

/// The format of `input` from its first bytes (decompressed): `WARC/1.`
/// is warc, `PAR1` parquet, `{` jsonl, anything else lines. Of standard
/// input, the bytes read to find out are returned, to be read again; and
/// the first bytes, decompressed.
fn detect(
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
            "--format and --layout apply to lines of URLs; {name} is read as \
             {} records, written back in their own format",
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
        Output::Emit(allowed) | Output::CountEmit(allowed) => Some(allowed),
        Output::Count if format == RecordFormat::AccessLog => anyhow::bail!(
            "-c alone counts the verdicts of the agents given, and an access \
             log's lines are each judged for their own: count the lines of \
             one verdict with -c and --emit"
        ),
        Output::Count | Output::Plain | Output::Table(_) => None,
    };
    let counts = Counts::new(config.matchers.len());
    let mut records = Records::new(format, &config.matchers, &config.agents);
    if let Some(ref field) = rf.url_field {
        records.url_field(field);
    }
    // -c alone judges the records as --emit does, which writes the least,
    // and writes none of them.
    let count = matches!(config.output, Output::Count);
    records.emit(if count { Some(true) } else { emit }).explain(rf.explain);
    if count {
        records.tally(&counts);
    }
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
    let header = config.header;
    let table = |_: &Stats| count_table(&config.agents, &counts, header);
    let kept =
        |stats: &Stats| Ok(format!("{}\n", stats.kept_records()).into());
    let target = Target {
        input: &config.input,
        read,
        output: config.output_file.as_deref(),
        compress: config.compress,
        inputs: inputs.into_iter().flatten().collect(),
        count: match config.output {
            Output::Count => Some(&table),
            Output::CountEmit(_) => Some(&kept),
            _ => None,
        },
    };
    let stats = run_records(&records, &config.batch, target, emit)?;
    finish(&name, &stats, emit, config.stats, start);
    report_dropped(&name, "records", &stats, emit, false);
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
fn run_parquet(
    records: &Records<'_>,
    target: Target<'_>,
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
fn spool_parquet(
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

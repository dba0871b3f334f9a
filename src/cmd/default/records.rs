//! The default command on records (`--input-format` other than `lines`):
//! JSON Lines, CSV, TSV, CDXJ, access logs and WARC files, written back in
//! their own format with the verdicts added, or filtered with `--emit`;
//! sitemaps and llms.txt as CSV rows, or their URLs kept.

use std::process::ExitCode;
use std::time::Instant;

use robots_batch::record::{RecordFormat, Records};
use robots_batch::{output::Counts, Stats, Usage};

use crate::cli::args::InputFormatArg;
use crate::cli::{Config, Output};
use crate::cmd::shared::{
    count_table, finish, kept_count, report_dropped, report_missing,
    run_records, Endpoints,
};

/// Runs the records of the input, of `format`; `read` are the first
/// bytes of standard input, read already.
pub fn run(
    config: Config,
    format: InputFormatArg,
    read: Vec<u8>,
    start: Instant,
) -> anyhow::Result<ExitCode> {
    let Some(format) = format.record_format() else {
        unreachable!("lines are not records")
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
    let source = rf.sitemap.source(&name);
    let mut records = Records::new(format, &config.matchers, &config.agents);
    records.sitemap_source(&source);
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
    let table =
        |_: &Stats| count_table(&config.agents, &counts, header, false);
    let kept = |stats: &Stats| Ok(kept_count(stats));
    let target = Endpoints {
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
    let stats = run_records(&records, &config.batch, target, emit);
    report_missing(&name, &source);
    let stats = stats?;
    finish(&name, &stats, emit, config.stats, start);
    report_dropped(&name, "records", &stats, emit, false);
    // With --emit, grep's exit code: 1 when no record had the verdict.
    Ok(match emit {
        Some(_) if stats.kept_records() == 0 => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    })
}

//! The `robots-batch` command: parse the flags, run, map errors to exit
//! codes. Everything else lives in `cli` (flags and configuration), `cmd`
//! (what a command does) and the library.

use std::io;
use std::process::ExitCode;

#[macro_use]
mod cli;
mod cmd;

// A crawl log's new origins allocate their rules and matchers in many small
// pieces, which mimalloc serves in far less (mostly system) time than glibc.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // Strategy choices (threads, mmap, engine fallbacks) are logged at debug
    // level: RUST_LOG=debug shows them.
    let _ =
        env_logger::Builder::from_env(env_logger::Env::default()).try_init();
    let args = match cli::parse() {
        Ok(args) => args,
        Err(code) => return code,
    };
    match run(args) {
        Ok(code) => code,
        // A closed standard output (`| head`) is how a reader says "enough":
        // stop quietly, successfully, as ripgrep does.
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            message!("{err:#}");
            ExitCode::from(2)
        }
    }
}

fn run(command: cli::Command) -> anyhow::Result<ExitCode> {
    match command {
        cli::Command::Run(args) => {
            cmd::default::run(cli::Config::from_args(args)?)
        }
        cli::Command::Check(args) => cmd::check::run(args),
        cli::Command::Lint(args) => cmd::lint::run(args),
        cli::Command::Crawl(args) => {
            cmd::crawl::run(cli::CrawlConfig::from_args(args)?)
        }
        cli::Command::Survey(args) => cmd::survey::run(args),
        cli::Command::Diff(args) => cmd::diff::run(args),
        cli::Command::Agents(args) => cmd::agents::run(args),
        cli::Command::Generate(args) => {
            use std::io::Write;
            let bytes = cli::generate(args.kind)?;
            let mut stdout = io::stdout().lock();
            stdout.write_all(&bytes).and_then(|()| stdout.flush())?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// True when any error in the chain is a broken pipe. `csv::Error` hides
/// its `io::Error` (it has no `source`), and `io::Error`'s `source` skips
/// the error it wraps, so both are looked into.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    fn io_is_broken_pipe(err: &io::Error) -> bool {
        err.kind() == io::ErrorKind::BrokenPipe
            || err
                .get_ref()
                .and_then(|inner| inner.downcast_ref::<csv::Error>())
                .is_some_and(csv_is_broken_pipe)
    }
    fn csv_is_broken_pipe(err: &csv::Error) -> bool {
        matches!(err.kind(), csv::ErrorKind::Io(e) if io_is_broken_pipe(e))
    }
    err.chain().any(|cause| {
        if let Some(err) = cause.downcast_ref::<io::Error>() {
            io_is_broken_pipe(err)
        } else if let Some(err) = cause.downcast_ref::<csv::Error>() {
            csv_is_broken_pipe(err)
        } else {
            false
        }
    })
}

//! Everything the binary knows about its command line: flags (`args` and
//! the flag groups the commands share), the objects built from them
//! (`config` for the default command, `crawlconfig` for `crawl`), and how
//! messages reach standard error (`messages`). The commands get those
//! configs; `check`, `lint`, `survey` and `agents` still read their parsed
//! flags, and the flags' value enums (`InputFormatArg`, `EmitArg`...) are
//! plain enums that clap also parses.

use std::process::ExitCode;

use clap::Parser;

#[macro_use]
mod messages;
mod agentargs;
pub mod args;
mod config;
mod crawlargs;
mod crawlconfig;
mod diffargs;
mod generate;
mod historyargs;
mod input;
mod sigbus;
mod subargs;
mod surveyargs;

pub use self::agentargs::AgentArgs;
pub use self::args::{Args, ProgressWhen, StatsFormat};
pub use self::config::{
    open_output, output_compression, read_robots, warn_agent,
    warn_not_robots_txt, Config, Input, Output,
};
pub use self::crawlargs::CrawlArgs;
pub use self::crawlconfig::{read_fetches, CrawlConfig};
pub use self::diffargs::DiffArgs;
pub use self::generate::{generate, GenerateArgs};
pub use self::historyargs::HistoryArgs;
pub use self::input::{decoded_head, read_head, Compression};
pub use self::messages::{message_line, message_line_raw};
pub use self::sigbus::exit_on_sigbus;
pub use self::subargs::{AgentsArgs, CheckArgs, LintArgs, LintFormat};
pub use self::surveyargs::SurveyArgs;

/// What the command line asks for.
#[derive(Debug)]
pub enum Command {
    /// The default: a verdict for every line of a file of URLs.
    Run(Args),
    /// `check`: the verdicts of a few URLs given as arguments.
    Check(CheckArgs),
    /// `lint`: what to fix in a robots.txt.
    Lint(LintArgs),
    /// `crawl`: URLs of many hosts, each judged by its own robots.txt.
    Crawl(CrawlArgs),
    /// `survey`: one row per site and agent over many robots.txt.
    Survey(SurveyArgs),
    /// `diff`: what changes between two robots.txt of one site.
    Diff(DiffArgs),
    /// `agents`: the built-in AI crawler list.
    Agents(AgentsArgs),
    /// `generate`: shell completions or a man page.
    Generate(GenerateArgs),
}

/// Parses the command line. `--help` and `--version` print and give
/// `Err(0)`; a usage error prints one line, `robots-batch: ...`, and gives
/// `Err(2)`.
///
/// N.B. A first argument `check`, `lint`, `crawl`, `survey`, `diff`,
/// `agents`, `generate` or `help` names
/// the subcommand (clap's subcommands would make ROBOTS and URLS of the
/// default command optional in the help); a robots.txt file named `check`
/// is given as `./check`.
pub fn parse() -> Result<Command, ExitCode> {
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    parse_argv(&argv)
}

fn parse_argv(argv: &[std::ffi::OsString]) -> Result<Command, ExitCode> {
    match argv.get(1).and_then(|arg| arg.to_str()) {
        Some("help") => {
            // `help SUBCOMMAND` is `SUBCOMMAND --help`; `help` alone, or
            // with anything else, the main help.
            let sub = argv.get(2).and_then(|arg| arg.to_str());
            let sub = sub.filter(|s| {
                [
                    "check", "lint", "crawl", "survey", "diff", "agents",
                    "generate",
                ]
                .contains(s)
            });
            let mut help: Vec<std::ffi::OsString> = vec![argv[0].clone()];
            help.extend(sub.map(Into::into));
            help.push("--help".into());
            parse_argv(&help)
        }
        Some("check") => parse_as::<CheckArgs>(&argv[1..]).map(Command::Check),
        Some("lint") => parse_as::<LintArgs>(&argv[1..]).map(Command::Lint),
        Some("crawl") => parse_as::<CrawlArgs>(&argv[1..]).map(Command::Crawl),
        Some("survey") => {
            parse_as::<SurveyArgs>(&argv[1..]).map(Command::Survey)
        }
        Some("diff") => parse_as::<DiffArgs>(&argv[1..]).map(Command::Diff),
        Some("agents") => {
            parse_as::<AgentsArgs>(&argv[1..]).map(Command::Agents)
        }
        Some("generate") => {
            parse_as::<GenerateArgs>(&argv[1..]).map(Command::Generate)
        }
        _ => parse_as::<Args>(argv).map(Command::Run),
    }
}

fn parse_as<T: Parser>(argv: &[std::ffi::OsString]) -> Result<T, ExitCode> {
    match T::try_parse_from(argv) {
        Ok(args) => Ok(args),
        Err(err) if !err.use_stderr() => {
            // --help and --version: clap prints to standard output.
            let _ = err.print();
            Err(ExitCode::SUCCESS)
        }
        Err(err) => {
            message!("{} (see --help)", one_line(&err.to_string()));
            Err(ExitCode::from(2))
        }
    }
}

/// clap's error text on one line: its first paragraph without the
/// `error: ` prefix, with the lines of that paragraph joined.
fn one_line(text: &str) -> String {
    let text = text.strip_prefix("error: ").unwrap_or(text);
    let para = text.split("\n\n").next().unwrap_or(text);
    para.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::one_line;

    #[test]
    fn clap_errors_fit_on_one_line() {
        assert_eq!(
            one_line(
                "error: the following required arguments were not \
                 provided:\n  <URLS>\n\nUsage: robots-batch <ROBOTS> \
                 <URLS>\n\nFor more information, try '--help'.\n"
            ),
            "the following required arguments were not provided: <URLS>"
        );
    }
}

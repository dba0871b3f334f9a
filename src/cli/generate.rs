//! `robots-batch generate KIND`: shell completions and a man page, made from
//! the same clap definitions as the flags, so that they never drift.

use clap::{CommandFactory, Parser, ValueEnum};
use clap_complete::Shell;

use super::args::Args;
use super::crawlargs::CrawlArgs;
use super::subargs::{AgentsArgs, CheckArgs, LintArgs};
use super::surveyargs::SurveyArgs;

/// Print shell completions or a man page for robots-batch.
#[derive(Debug, Parser)]
#[command(
    name = "robots-batch generate",
    after_help = "EXAMPLES:\n  robots-batch generate bash > \
                  /etc/bash_completion.d/robots-batch\n  robots-batch \
                  generate man > /usr/local/share/man/man1/robots-batch.1"
)]
pub struct GenerateArgs {
    /// What to print: man (a roff man page), or the completions of bash,
    /// zsh, fish, elvish or powershell.
    #[arg(value_name = "KIND")]
    pub kind: Generated,
}

/// What `generate` prints.
#[derive(Clone, Copy, Debug, Eq, PartialEq, ValueEnum)]
pub enum Generated {
    /// A man page (roff).
    Man,
    /// bash completions.
    Bash,
    /// zsh completions.
    Zsh,
    /// fish completions.
    Fish,
    /// elvish completions.
    Elvish,
    /// PowerShell completions.
    Powershell,
}

/// The whole command line as one clap command: the default command's flags
/// with `check`, `lint`, `crawl`, `survey` and `agents` as its subcommands. The parser keeps
/// them apart (see [`super::parse`]); completions and the man page want
/// them together.
fn full_command() -> clap::Command {
    Args::command()
        .name("robots-batch")
        .subcommand(CheckArgs::command().name("check"))
        .subcommand(LintArgs::command().name("lint"))
        .subcommand(CrawlArgs::command().name("crawl"))
        .subcommand(SurveyArgs::command().name("survey"))
        .subcommand(AgentsArgs::command().name("agents"))
        .subcommand(GenerateArgs::command().name("generate"))
}

/// The bytes of `kind` for the whole command line.
pub fn generate(kind: Generated) -> std::io::Result<Vec<u8>> {
    let mut command = full_command();
    let mut out = vec![];
    let shell = match kind {
        Generated::Man => {
            clap_mangen::Man::new(command).render(&mut out)?;
            return Ok(out);
        }
        Generated::Bash => Shell::Bash,
        Generated::Zsh => Shell::Zsh,
        Generated::Fish => Shell::Fish,
        Generated::Elvish => Shell::Elvish,
        Generated::Powershell => Shell::PowerShell,
    };
    clap_complete::generate(shell, &mut command, "robots-batch", &mut out);
    Ok(out)
}

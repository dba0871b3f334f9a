//! Everything the binary knows about its command line: flags (`args`), the
//! objects built from them (`config`), and how messages reach standard
//! error (`messages`). No clap type leaves this module.

use std::process::ExitCode;

use clap::Parser;

#[macro_use]
mod messages;
pub mod args;
mod config;

pub use self::args::Args;
pub use self::config::{Config, Input, Output};
pub use self::messages::emit;

/// Parses the command line. `--help` and `--version` print and give
/// `Err(0)`; a usage error prints one line, `robots-batch: ...`, and gives
/// `Err(2)`.
pub fn parse() -> Result<Args, ExitCode> {
    match Args::try_parse() {
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

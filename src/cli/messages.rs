//! Messages to standard error: warnings about the input, and the final
//! error.
//!
//! Each message is one line, `robots-batch: ...`, written with standard
//! output locked, so that a message never lands in the middle of a CSV row
//! when both go to a terminal. Failing to write a message (a closed
//! standard error) is ignored, as ripgrep does: there is nowhere left to
//! report it.

use std::fmt;
use std::io::{self, Write};

/// Prints one message line to standard error.
macro_rules! message {
    ($($tt:tt)*) => {
        $crate::cli::message_line(format_args!($($tt)*))
    };
}

/// Writes `robots-batch: {args}` and a newline to standard error.
pub fn message_line(args: fmt::Arguments<'_>) {
    message_line_raw(format_args!("robots-batch: {args}"));
}

/// Writes `{args}` and a newline to standard error, without the prefix:
/// for a line that tools read, such as `--stats=json`.
pub fn message_line_raw(args: fmt::Arguments<'_>) {
    // N.B. The stdout lock is reentrant, so this is safe to call while the
    // same thread holds it.
    let _stdout = io::stdout().lock();
    let mut stderr = io::stderr().lock();
    let _ = writeln!(stderr, "{args}");
}

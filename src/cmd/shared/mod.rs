//! Plumbing that the commands share: opening inputs, running records from
//! input to output, progress and reports. The commands use one another
//! only through this module.

mod hints;
mod input;
mod report;
mod sources;
mod spool;

pub(crate) use self::input::{
    format_name, input_format, open_file, open_source_after, run_records,
    Endpoints,
};
pub(crate) use self::report::{
    count_table, finish, kept_count, print_stats, report_dropped,
    report_missing, run_error, warn_cut_lines, Progress,
};
pub(crate) use self::sources::read_sources;

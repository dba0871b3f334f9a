//! The flags of `robots-batch survey --history`: how blocking changed over
//! dated captures, as clap sees them.

use std::path::PathBuf;

use clap::ValueEnum;
use robots_batch::survey::history::Period;

/// `survey --history` and its flags.
#[derive(Debug, clap::Args)]
#[command(next_help_heading = "History (dated captures)")]
pub struct HistoryArgs {
    /// Count, per period and agent, the sites with a capture in effect and
    /// how many block the agent fully, partly or not at all:
    /// `period,agent,sites,full,partial,none,unknown` and each count's
    /// share of `sites` (`full_share`...). In each period a site is its
    /// newest capture made before the period ends, if made at most
    /// --carry-forward months before the period begins; undated captures
    /// are left out.
    #[arg(long, conflicts_with_all = ["summary", "usage"])]
    pub history: bool,

    /// The periods of --history: month (calendar months, UTC), year, or
    /// crawl (one per day on which captures were made: each dated
    /// directory, or crawl dated so).
    #[arg(
        long,
        value_name = "PERIOD",
        default_value = "month",
        requires = "history"
    )]
    pub period: PeriodArg,

    /// With --history, how many months a capture stays in effect when no
    /// later capture of its site replaces it; 0: only in the period it was
    /// made in.
    #[arg(
        long,
        value_name = "MONTHS",
        default_value_t = 12,
        requires = "history",
        value_parser = clap::value_parser!(u32).range(0..=12_000)
    )]
    pub carry_forward: u32,

    /// With --history, write the sites whose scope for an agent changed
    /// from one period to the next to FILE: `period,agent,site,from,to`,
    /// in the format of the rows.
    #[arg(long, value_name = "FILE", requires = "history")]
    pub transitions: Option<PathBuf>,

    /// With --history, draw the share of sites that block each agent
    /// fully, per period, one line per agent (at most 12), as an SVG chart
    /// into FILE.
    #[arg(long, value_name = "FILE", requires = "history")]
    pub plot: Option<PathBuf>,
}

/// `--period`.
#[derive(Clone, Copy, Debug, Eq, PartialEq, ValueEnum)]
pub enum PeriodArg {
    /// Calendar months.
    Month,
    /// Calendar years.
    Year,
    /// One per day with captures.
    Crawl,
}

impl PeriodArg {
    /// The library's period.
    pub fn period(self) -> Period {
        match self {
            PeriodArg::Month => Period::Month,
            PeriodArg::Year => Period::Year,
            PeriodArg::Crawl => Period::Crawl,
        }
    }
}

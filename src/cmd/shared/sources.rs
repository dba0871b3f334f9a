//! The robots.txt sources of a survey read once, for `survey` and
//! `survey --history` alike.

use anyhow::Context;
use robots_batch::crawl::FetchSet;
use robots_batch::{Batch, BatchBuilder};

use crate::cli::{read_fetches, SurveyArgs};

/// The worker pool and the fetches of `args`' sources (not its files),
/// with the entries of a directory passed over said on stderr: what
/// `survey` and `survey --history` read alike.
pub(crate) fn read_sources(
    args: &SurveyArgs,
) -> anyhow::Result<(Batch, FetchSet)> {
    let stdin = args
        .sources
        .robots_index
        .iter()
        .chain(args.agents.agents_file.as_ref())
        .filter(|path| path.as_os_str() == "-")
        .count();
    if stdin > 1 {
        anyhow::bail!(
            "only one of --agents-file and the --robots-index files can be \
             standard input (-)"
        );
    }
    let mut batch = BatchBuilder::new();
    batch.threads(args.threads.count());
    let batch = batch.build().context("failed to start worker threads")?;
    let max_bytes = args.policy.max_robots_bytes;
    let mut skipped = vec![];
    let fetches = batch.install(|| {
        read_fetches(&args.sources, max_bytes, Some(&mut skipped))
    })?;
    for s in &skipped {
        message!("{}: skipped: {}", s.path.display(), s.why);
    }
    Ok((batch, fetches))
}

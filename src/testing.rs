//! What the crate's tests share.

use crate::crawl::{CrawlJudge, Fetch, FetchPolicy, FetchSet};
use crate::{Dialect, MatcherBuilder};

/// A xorshift64 generator from `seed`: the random inputs of the tests,
/// the same on every run, so that a failure can be replayed.
pub(crate) fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// A set of hosts that each served its body with status 200.
pub(crate) fn served<H: AsRef<str>>(
    bodies: impl IntoIterator<Item = (H, Vec<u8>)>,
) -> FetchSet {
    let mut set = FetchSet::new();
    for (host, body) in bodies {
        let fetch = Fetch { status: 200, body, ..Fetch::default() };
        set.insert_host(host.as_ref(), fetch);
    }
    set
}

/// A judge of `set` for `agents`, with the default policy and builder, in
/// the default dialect.
pub(crate) fn judge_of(set: FetchSet, agents: &[&str]) -> CrawlJudge {
    let agents: Vec<String> = agents.iter().map(|a| a.to_string()).collect();
    CrawlJudge::new(
        set,
        FetchPolicy::default(),
        MatcherBuilder::new(),
        &agents,
        Dialect::Rfc9309,
    )
}

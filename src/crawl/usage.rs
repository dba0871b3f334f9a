//! Crawl mode's usage preferences: each URL's, from the robots.txt that
//! decided its verdict, read once per fetch by each worker.

use std::collections::HashMap;

use super::judge::CrawlJudge;
use super::verdict::{CrawlReason, CrawlVerdict};
use crate::robots::Robots;
use crate::usage::{Usage, UsagePrefs};

/// The most fetches whose preferences a worker keeps: past it they are
/// all let go, for a log over many hosts would otherwise keep one entry
/// per host (usage lines are few, so reading one again costs a parse).
const MOST_FETCHES: usize = 4096;

/// A worker's usage preferences by fetch: one [`Usage`] per agent of the
/// judge, selected from the fetch's robots.txt when a URL of it is first
/// asked about.
#[derive(Debug, Default)]
pub(crate) struct FetchUsage {
    by_fetch: HashMap<usize, Vec<Usage>>,
    path: Vec<u8>,
}

impl FetchUsage {
    /// The preferences of agent `a`'s `verdict` on `url`: those of the
    /// robots.txt that allowed it, or `None` when the URL may not be
    /// fetched or no robots.txt decided (a fetch status, no fetch).
    pub(crate) fn prefs(
        &mut self,
        judge: &CrawlJudge,
        a: usize,
        verdict: CrawlVerdict,
        url: &[u8],
    ) -> Option<UsagePrefs> {
        if verdict.allowed() != Some(true) {
            return None;
        }
        let CrawlReason::Robots(_) = verdict.reason() else { return None };
        let fetch = verdict.fetch()?;
        if !self.by_fetch.contains_key(&fetch) {
            if self.by_fetch.len() >= MOST_FETCHES {
                self.by_fetch.clear();
            }
            let body = judge.fetches().body(fetch).unwrap_or_default();
            let limit = judge.policy().max_robots_bytes;
            let robots = Robots::parse_with_limit(&body, limit);
            let usages = judge
                .agents()
                .iter()
                .map(|agent| Usage::select(&robots, agent, judge.dialect()))
                .collect();
            self.by_fetch.insert(fetch, usages);
        }
        let usage = self.by_fetch.get(&fetch)?.get(a)?;
        let path = usage.dialect().path(url, &mut self.path);
        Some(usage.prefs(path))
    }
}

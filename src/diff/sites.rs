//! Many sites between two dates: per site and agent, the scope of the
//! capture in effect at each date, and the sites whose scope changed (two
//! crawls' robots.txt, or a year of snapshots, compared).

use rayon::prelude::*;

use crate::crawl::CrawlJudge;
use crate::robots::Robots;
use crate::survey::{survey, Scope};
use crate::time::Timestamp;

/// One site's change of scope for one agent between two dates.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct SiteChange {
    /// The site: its origin, or its host for a directory's file.
    pub site: String,
    /// The agent's index in the judge's agents.
    pub agent: usize,
    /// The scope at the first date; `None` where no capture was in effect.
    pub old: Option<Scope>,
    /// The scope at the second date; `None` where no capture was in effect.
    pub new: Option<Scope>,
    /// When the capture in effect at the first date was made.
    pub old_capture: Option<Timestamp>,
    /// When the capture in effect at the second date was made.
    pub new_capture: Option<Timestamp>,
}

/// What [`site_changes`] found: the changes, and how many sites it read.
#[derive(Clone, Debug, Default)]
pub struct SiteChanges {
    /// The changes, by site name, then agent.
    pub changes: Vec<SiteChange>,
    /// How many sites had a capture in effect at either date.
    pub sites: usize,
}

/// The scopes, for `judge`'s agents, of every site of `judge`'s fetches
/// at `old` and at `new` (the capture in effect at each: the newest at or
/// before it; none before a site's first capture), and the changes
/// between them. A site whose two dates find the same capture, or two
/// captures with one body, has no change and costs no parse. Fetches that
/// gave no robots.txt count as the judge's policy says (a 4xx: scope
/// `none`; a 5xx: `full`). Sites are compared on the current rayon pool.
pub fn site_changes(
    judge: &CrawlJudge,
    old: Timestamp,
    new: Timestamp,
) -> SiteChanges {
    let fetches = judge.fetches();
    let sites: Vec<usize> = judge.sites().collect();
    let at = |site: usize, t: Timestamp| {
        let picked = fetches.capture_at(site, t);
        (!picked.before_first).then_some(picked.index)
    };
    let per_site: Vec<(bool, Vec<SiteChange>)> = sites
        .par_iter()
        .map(|&site| {
            let (a, b) = (at(site, old), at(site, new));
            let any = a.is_some() || b.is_some();
            if a == b || same_body(judge, a, b) {
                return (any, vec![]);
            }
            let (before, after) = (scopes(judge, a), scopes(judge, b));
            let name = fetches.get(site).map_or("", |(n, _)| n);
            let changes = (0..judge.agents().len())
                .filter(|&i| before[i] != after[i])
                .map(|i| SiteChange {
                    site: name.to_string(),
                    agent: i,
                    old: before[i],
                    new: after[i],
                    old_capture: a.and_then(|a| fetches.time(a)),
                    new_capture: b.and_then(|b| fetches.time(b)),
                })
                .collect();
            (any, changes)
        })
        .collect();
    let mut out = SiteChanges::default();
    for (any, changes) in per_site {
        out.sites += usize::from(any);
        out.changes.extend(changes);
    }
    out.changes.sort_by(|x, y| (&x.site, x.agent).cmp(&(&y.site, y.agent)));
    out
}

/// Whether the captures at `a` and `b` both resolve to robots.txt bodies
/// that are equal byte for byte (most captures of a site are).
fn same_body(judge: &CrawlJudge, a: Option<usize>, b: Option<usize>) -> bool {
    let (Some(a), Some(b)) = (a, b) else { return false };
    let (Ok(a), Ok(b)) = (judge.resolution(a), judge.resolution(b)) else {
        return false;
    };
    let fetches = judge.fetches();
    a == b
        || matches!((fetches.body(a), fetches.body(b)), (Some(x), Some(y)) if x == y)
}

/// The scope per agent of the capture at `index` (`None` everywhere for
/// no capture).
fn scopes(judge: &CrawlJudge, index: Option<usize>) -> Vec<Option<Scope>> {
    let n = judge.agents().len();
    let Some(index) = index else { return vec![None; n] };
    match judge.resolution(index) {
        Ok(fetch) => match judge.fetches().body(fetch) {
            Some(body) => {
                let limit = judge.policy().max_robots_bytes;
                let robots = Robots::parse_with_limit(&body, limit);
                survey(&robots, judge.agents(), judge.dialect())
                    .into_iter()
                    .map(|s| Some(s.scope))
                    .collect()
            }
            None => vec![Some(Scope::Unknown); n],
        },
        Err(verdict) => {
            let scope = match verdict.allowed() {
                Some(true) => Scope::None,
                Some(false) => Scope::Full,
                None => Scope::Unknown,
            };
            vec![Some(scope); n]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crawl::{Capture, Fetch, FetchPolicy, FetchSet};
    use crate::{Dialect, MatcherBuilder};

    fn fetch(date: &str, body: &str) -> Fetch {
        Fetch {
            status: 200,
            body: body.as_bytes().to_vec(),
            date: Some(date.to_string()),
            ..Fetch::default()
        }
    }

    #[test]
    fn changes_between_two_dates() {
        let mut set = FetchSet::new();
        set.insert_host(
            "a.com",
            fetch("2024-01-01", "User-agent: *\nAllow: /\n"),
        );
        set.insert_host(
            "a.com",
            fetch("2024-06-01", "User-agent: GPTBot\nDisallow: /\n"),
        );
        // Same body twice: no change, whatever the dates.
        set.insert_host(
            "b.com",
            fetch("2024-01-01", "User-agent: *\nDisallow: /x\n"),
        );
        set.insert_host(
            "b.com",
            fetch("2024-06-01", "User-agent: *\nDisallow: /x\n"),
        );
        // First captured between the dates.
        set.insert_host(
            "c.com",
            fetch("2024-03-01", "User-agent: *\nDisallow: /\n"),
        );
        let policy = FetchPolicy {
            capture: Capture::AtFetchTime,
            ..FetchPolicy::default()
        };
        let agents = ["GPTBot".to_string(), "CCBot".to_string()];
        let judge = CrawlJudge::new(
            set,
            policy,
            MatcherBuilder::new(),
            &agents,
            Dialect::Rfc9309,
        );
        let t = |s| Timestamp::parse(s).unwrap();
        let found = site_changes(&judge, t("2024-02-01"), t("2024-07-01"));
        assert_eq!(found.sites, 3);
        let rows: Vec<String> = found
            .changes
            .iter()
            .map(|c| {
                let name = |s: Option<Scope>| s.map_or("-", Scope::name);
                format!(
                    "{} {} {} {}",
                    c.site,
                    agents[c.agent],
                    name(c.old),
                    name(c.new)
                )
            })
            .collect();
        assert_eq!(
            rows,
            [
                "a.com GPTBot none full",
                "c.com GPTBot - full",
                "c.com CCBot - full",
            ]
        );
        // Both dates before every capture: nothing in effect, no change.
        let none = site_changes(&judge, t("2020-01-01"), t("2021-01-01"));
        assert!(none.changes.is_empty());
        assert_eq!(none.sites, 0);
    }
}

//! Many URLs judged at once, grouped by the matchers they need: the way a
//! crawl log's chunk (and a Python batch) is judged, so that URLs of one
//! origin are judged together even when the input mixes hosts.

use super::hash::HashMap;
use super::judge::{CrawlJudge, CrawlScratch, CrawlVerdict, Located};
use super::origin::{raw_authority, same_authority};
use crate::rules::RuleSet;
use std::sync::Arc;

/// URLs are judged in input order when they come in runs of this many
/// URLs needing the same matchers on average, else sorted by the matchers
/// they need.
const SORT_BELOW_RUN: usize = 4;

/// The most authorities remembered where the verdicts come from; past it,
/// all are forgotten and remembering starts again.
const MAX_REMEMBERED: usize = 1 << 16;

/// Per-thread state of [`CrawlJudge`]'s grouped judging (see
/// [`GroupedScratch::judge`]), kept from one batch of URLs to the next.
#[derive(Debug)]
pub struct GroupedScratch {
    scratch: CrawlScratch,
    key: Vec<u8>,
    /// Where the verdicts of a URL come from, by its raw authority: input
    /// in random host order parses each origin once per thread, not once
    /// per URL.
    remembered: HashMap<Box<[u8]>, Located>,
    /// Per URL of the batch: where its verdicts come from (`None` for no
    /// URL).
    located: Vec<Option<Located>>,
    /// URL indexes in judging order.
    order: Vec<u32>,
    /// The sort keys of `order`.
    keys: Vec<u64>,
    one: Vec<CrawlVerdict>,
}

impl GroupedScratch {
    /// Fresh state for judging with `judge`.
    pub fn new(judge: &CrawlJudge) -> GroupedScratch {
        GroupedScratch {
            scratch: judge.scratch(),
            key: vec![],
            remembered: HashMap::default(),
            located: vec![],
            order: vec![],
            keys: vec![],
            one: vec![],
        }
    }

    /// Judges the URLs `url(0)` to `url(n - 1)` (`None`: no URL, skipped)
    /// and calls `each` once per URL with its index, its verdicts (one per
    /// agent) and the rule sets that gave verdicts from rules (for
    /// explanations), in an order of the judge's choosing: every URL is
    /// first located (its origin and fetch, compiling nothing), then URLs
    /// are judged grouped by the matchers they need, unless they come in
    /// runs already, so that a batch of mixed hosts changes matchers once
    /// per origin rather than once per URL. More URLs than a `u32` counts
    /// are judged in several windows.
    pub fn judge<'u, U, F>(
        &mut self,
        judge: &CrawlJudge,
        n: usize,
        url: U,
        mut each: F,
    ) where
        U: Fn(usize) -> Option<&'u [u8]>,
        F: FnMut(usize, &[CrawlVerdict], Option<&[Arc<RuleSet>]>),
    {
        const WINDOW: usize = u32::MAX as usize;
        for base in (0..n).step_by(WINDOW) {
            let url = |i: usize| url(base + i);
            self.locate_all(judge, (n - base).min(WINDOW), &url);
            self.sort_when_mixed();
            let rules_of = |i: u32| match self.located[i as usize] {
                Some(Located::Rules { compiled, .. }) => Some(compiled),
                _ => None,
            };
            for (k, &i) in self.order.iter().enumerate() {
                // Whether the next URL judged needs the same rules.
                let more = self.order.get(k + 1).is_some_and(|&j| {
                    rules_of(j).is_some() && rules_of(j) == rules_of(i)
                });
                let i = i as usize;
                let (Some(located), Some(url)) = (self.located[i], url(i))
                else {
                    continue;
                };
                judge.judge_located(
                    url,
                    located,
                    more,
                    &mut self.scratch,
                    &mut self.one,
                );
                each(base + i, &self.one, self.scratch.current_rules());
            }
        }
    }

    /// Locates every URL; a URL with the authority of the one before
    /// (inputs tend to keep a host's URLs together) is located alike.
    fn locate_all<'u, U>(&mut self, judge: &CrawlJudge, n: usize, url: &U)
    where
        U: Fn(usize) -> Option<&'u [u8]>,
    {
        self.located.clear();
        let (key, remembered) = (&mut self.key, &mut self.remembered);
        let mut last: Option<(&[u8], Located)> = None;
        for i in 0..n {
            let Some(line) = url(i) else {
                self.located.push(None);
                continue;
            };
            let located = match last {
                Some((authority, located))
                    if same_authority(line, authority) =>
                {
                    located
                }
                _ => match raw_authority(line) {
                    Some(authority) => {
                        let located = match remembered.get(authority) {
                            Some(&located) => located,
                            None => {
                                let (located, _) = judge.locate(line, key);
                                if remembered.len() >= MAX_REMEMBERED {
                                    remembered.clear();
                                }
                                remembered.insert(authority.into(), located);
                                located
                            }
                        };
                        last = Some((authority, located));
                        located
                    }
                    None => {
                        let (located, end) = judge.locate(line, key);
                        last = (end > 0).then(|| (&line[..end], located));
                        located
                    }
                },
            };
            self.located.push(Some(located));
        }
    }

    /// Sets the judging order: input order when the URLs that need one
    /// set of matchers come in runs already (judging them so changes
    /// matchers about as seldom as sorting would, without the sort's
    /// cost), else sorted by the matchers they need.
    fn sort_when_mixed(&mut self) {
        let located = &self.located;
        self.order.clear();
        self.order.extend(0..located.len() as u32);
        let mut changes = 0;
        let mut current = None;
        for l in located.iter().flatten() {
            if let Located::Rules { compiled, .. } = *l {
                if current != Some(compiled) {
                    changes += 1;
                    current = Some(compiled);
                }
            }
        }
        if changes * SORT_BELOW_RUN <= located.len() {
            return;
        }
        // One integer per URL, its group above its index, sorts faster
        // than indexes compared through the URLs.
        let group = |l: &Option<Located>| match *l {
            Some(Located::Rules { compiled, .. }) => compiled + 1,
            _ => 0,
        };
        self.keys.clear();
        self.keys.extend(self.order.iter().map(|&i| {
            let group = group(&located[i as usize]);
            (group.min(u32::MAX as usize) as u64) << 32 | u64::from(i)
        }));
        self.keys.sort_unstable();
        self.order.clear();
        self.order.extend(self.keys.iter().map(|&k| k as u32));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crawl::{Fetch, FetchPolicy, FetchSet};
    use crate::{Dialect, MatcherBuilder};

    /// A judge of `set` for `agents`, with the default policy and builder.
    fn judge(set: FetchSet, agents: &[&str]) -> CrawlJudge {
        let agents: Vec<String> =
            agents.iter().map(|a| a.to_string()).collect();
        CrawlJudge::new(
            set,
            FetchPolicy::default(),
            MatcherBuilder::new(),
            &agents,
            Dialect::Rfc9309,
        )
    }

    /// An origin whose next URL follows in the batch has its matchers
    /// built at its first; an origin with one URL in the batch is judged
    /// by its rules alone, and gets matchers when it comes back.
    #[test]
    fn matchers_are_built_when_an_origins_urls_follow() {
        let mut set = FetchSet::new();
        for host in ["a.com", "b.com"] {
            let body = b"User-agent: *\nDisallow: /a\nAllow: /a/b\n".to_vec();
            // Unequal bodies, so that the hosts share no matchers.
            let body = [body, host.as_bytes().to_vec()].concat();
            set.insert_host(
                host,
                Fetch { status: 200, body, ..Fetch::default() },
            );
        }
        let judge = judge(set, &["x"]);
        let built = |host: &str| {
            let url = format!("https://{host}/");
            let Located::Rules { compiled, .. } =
                judge.locate(url.as_bytes(), &mut vec![]).0
            else {
                panic!("{host} has rules");
            };
            judge.matchers(compiled).map(|m| m[0].strategy())
        };
        let urls =
            ["https://a.com/a", "https://b.com/a/b", "https://a.com/a/b"];
        let mut grouped = GroupedScratch::new(&judge);
        let mut got = vec![];
        grouped.judge(
            &judge,
            urls.len(),
            |i| Some(urls[i].as_bytes()),
            |_, one, _| {
                got.push(one[0].allowed());
            },
        );
        // The batch is judged sorted by origin: a.com's URLs follow each
        // other, b.com's one is alone.
        assert_eq!(got, [Some(false), Some(true), Some(true)]);
        assert_eq!((built("a.com"), built("b.com")), (Some("scan"), None));
        let urls = ["https://b.com/a", "https://b.com/c"];
        grouped.judge(
            &judge,
            urls.len(),
            |i| Some(urls[i].as_bytes()),
            |_, _, _| {},
        );
        assert_eq!(built("b.com"), Some("scan"));
    }

    /// Grouped judging gives every URL the verdicts that judging it alone
    /// gives, once each, whatever the order of hosts; absent URLs are
    /// skipped.
    #[test]
    fn grouped_verdicts_equal_one_by_one() {
        let mut set = FetchSet::new();
        for (host, body) in [
            ("a.com", "User-agent: *\nDisallow: /a\n"),
            ("b.com", "User-agent: *\nAllow: /a\nDisallow: /\n"),
            ("c.com", "User-agent: x\nDisallow: /\n"),
        ] {
            let fetch = Fetch {
                status: 200,
                body: body.as_bytes().to_vec(),
                ..Fetch::default()
            };
            set.insert_host(host, fetch);
        }
        set.insert_host("d.com", Fetch { status: 503, ..Fetch::default() });
        let judge = judge(set, &["x", "y"]);
        let mut urls: Vec<Option<String>> = vec![];
        for i in 0..60 {
            let host = ["a.com", "b.com", "c.com", "d.com", "e.com"][i % 5];
            let path = ["/a", "/b", "/", "/a/b"][i % 4];
            urls.push(Some(format!("https://{host}{path}")));
            if i % 7 == 0 {
                urls.push(None);
                urls.push(Some("not a url".to_string()));
            }
        }
        let mut alone = judge.scratch();
        let mut want = vec![];
        for url in &urls {
            want.push(url.as_ref().map(|u| {
                let mut out = vec![];
                judge.verdicts(u.as_bytes(), &mut alone, &mut out);
                out
            }));
        }
        let mut grouped = GroupedScratch::new(&judge);
        // Twice, so that remembered authorities serve the second batch.
        for _ in 0..2 {
            let mut got = vec![None; urls.len()];
            let url = |i: usize| urls[i].as_deref().map(str::as_bytes);
            grouped.judge(&judge, urls.len(), url, |i, one, _| {
                assert!(got[i].is_none(), "URL {i} judged twice");
                got[i] = Some(one.to_vec());
            });
            assert_eq!(got, want);
        }
    }
}

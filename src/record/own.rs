//! Access logs: the matchers of the groups that the lines' own agents
//! select. A site's visitors choose their User-Agent strings, so a log may
//! name any number of agents; a robots.txt has few groups. Agents that
//! select the same group share one matcher, which every thread shares
//! too, and the matchers are kept within a budget of bytes. A group's
//! first URLs are judged by scanning its rules, which compiles nothing:
//! only a group with many URLs is compiled.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::cache::{Cache, Weighed};
use crate::dialect::Dialect;
use crate::engine::EngineKind;
use crate::group_key::GroupKeys;
use crate::matcher::{Matcher, MatcherBuilder, Scratch, Verdict};
use crate::robots::Robots;
use crate::rules::RuleSet;
use crate::usage::Usage;

/// The default budget of an access log's rules and matchers.
pub const DEFAULT_OWN_CACHE_BYTES: usize = 256 << 20;

/// How many URLs of a group are judged by scanning its rules before they
/// are compiled with the builder's engine: crawl mode's default (see
/// [`DEFAULT_COMPILE_AFTER`](crate::crawl::DEFAULT_COMPILE_AFTER), measured
/// there), for the trade is the same.
const COMPILE_AFTER: usize = crate::crawl::DEFAULT_COMPILE_AFTER;

/// The most bytes of agent names a thread keeps the keys of, where
/// finding a key searches the robots.txt (the older dialects).
const MAX_KNOWN_BYTES: usize = 1 << 20;

/// The matchers of the groups an access log's agents select, shared by
/// all threads; each brings its own [`OwnScratch`].
#[derive(Debug)]
pub(crate) struct OwnMatchers<'m> {
    robots: &'m Robots,
    dialect: Dialect,
    builder: MatcherBuilder,
    keys: GroupKeys,
    cache: Mutex<Cache<usize, Group>>,
}

/// One group's matcher (and usage lines, with `--usage`).
#[derive(Debug)]
pub(crate) struct Group {
    rules: Arc<RuleSet>,
    matcher: Matcher,
    usage: Option<Arc<Usage>>,
    /// While the matcher scans: the URLs it judged, and whether a thread
    /// has started compiling.
    scanned: Option<(AtomicUsize, AtomicBool)>,
    bytes: usize,
}

impl Group {
    fn new(
        rules: Arc<RuleSet>,
        matcher: Matcher,
        usage: Option<Arc<Usage>>,
        scans: bool,
    ) -> Group {
        let bytes = std::mem::size_of::<Group>()
            + std::mem::size_of::<RuleSet>()
            + rules.memory_usage()
            + matcher.heap_bytes()
            + usage
                .as_ref()
                .map_or(0, |u| std::mem::size_of::<Usage>() + u.heap_bytes());
        let scanned = scans.then(Default::default);
        Group { rules, matcher, usage, scanned, bytes }
    }
}

impl Weighed for Group {
    fn bytes(&self) -> usize {
        self.bytes
    }

    fn stage(&self) -> u8 {
        u8::from(self.scanned.is_none())
    }
}

/// A thread's state: the group of the line just judged, the scratch of
/// its matcher, and in the older dialects the keys of the agents met.
#[derive(Debug, Default)]
pub(crate) struct OwnScratch {
    current: Option<(usize, Arc<Group>)>,
    scratch: Option<Scratch>,
    known: HashMap<Box<str>, usize>,
    known_bytes: usize,
}

impl OwnScratch {
    /// The matcher of the verdict just given.
    pub(crate) fn matcher(&self) -> Option<&Matcher> {
        self.current.as_ref().map(|(_, g)| &g.matcher)
    }

    /// The usage lines of the agent just judged (with usage).
    pub(crate) fn usage(&self) -> Option<&Usage> {
        self.current.as_ref().and_then(|(_, g)| g.usage.as_deref())
    }
}

impl<'m> OwnMatchers<'m> {
    pub(crate) fn new(
        robots: &'m Robots,
        dialect: Dialect,
        builder: MatcherBuilder,
        budget: usize,
    ) -> OwnMatchers<'m> {
        OwnMatchers {
            keys: GroupKeys::new(robots, dialect),
            robots,
            dialect,
            builder,
            cache: Mutex::new(Cache::new(budget, false)),
        }
    }

    /// Keeps at most `bytes` of rules and matchers from now on.
    pub(crate) fn set_budget(&mut self, bytes: usize) {
        let cache = self.cache.get_mut().unwrap_or_else(|e| e.into_inner());
        *cache = Cache::new(bytes, false);
    }

    /// The verdict for `url` of the group `agent` selects; the group's
    /// matcher (and with `usage` its usage lines) stay in `s` for the
    /// explanation and preferences.
    pub(crate) fn verdict(
        &self,
        agent: &str,
        url: &[u8],
        usage: bool,
        s: &mut OwnScratch,
    ) -> Verdict {
        let key = self.key(agent, s);
        let group = self.group(key, agent, usage, s);
        let scratch = match s.scratch.as_mut() {
            Some(scratch) => scratch,
            None => s.scratch.insert(group.matcher.scratch()),
        };
        let verdict = group.matcher.verdict(url, scratch);
        if let Some((urls, compiling)) = &group.scanned {
            let n = urls.fetch_add(1, Ordering::Relaxed) + 1;
            if n >= COMPILE_AFTER && !compiling.swap(true, Ordering::Relaxed) {
                self.compile(key, &group);
            }
        }
        verdict
    }

    /// `agent`'s key, remembered where finding it searches.
    fn key(&self, agent: &str, s: &mut OwnScratch) -> usize {
        if !self.keys.searches() {
            return self.keys.key(agent);
        }
        if let Some(&key) = s.known.get(agent) {
            return key;
        }
        let key = self.keys.key(agent);
        if s.known_bytes + agent.len() > MAX_KNOWN_BYTES {
            s.known.clear();
            s.known_bytes = 0;
        }
        s.known_bytes += agent.len();
        s.known.insert(agent.into(), key);
        key
    }

    /// The group of `key` (selected for `agent`, which has that key), made
    /// current in `s`: the thread's own while it stays compiled, else the
    /// cache's, else selected now and added to the cache.
    fn group(
        &self,
        key: usize,
        agent: &str,
        usage: bool,
        s: &mut OwnScratch,
    ) -> Arc<Group> {
        if let Some((k, ref g)) = s.current {
            if k == key && g.scanned.is_none() {
                return Arc::clone(g);
            }
        }
        let cached = self.lock().map.get(&key).cloned();
        let group = match (cached, &s.current) {
            (Some(g), _) => g,
            // Evicted while this thread judged with it.
            (None, Some((k, g))) if *k == key => Arc::clone(g),
            (None, _) => {
                let g = Arc::new(self.select(agent, usage));
                self.lock().insert(key, Arc::clone(&g));
                g
            }
        };
        let same =
            s.current.as_ref().is_some_and(|(_, g)| Arc::ptr_eq(g, &group));
        if !same {
            if let Some(scratch) = s.scratch.as_mut() {
                group.matcher.renew_scratch(scratch);
            }
            s.current = Some((key, Arc::clone(&group)));
        }
        group
    }

    /// Selects `agent`'s group and builds a matcher that scans its rules
    /// (one compiled at once when the builder's engine compiles nothing).
    fn select(&self, agent: &str, usage: bool) -> Group {
        let rules =
            Arc::new(RuleSet::select(self.robots, agent, self.dialect));
        let usage = usage.then(|| {
            Arc::new(Usage::select(self.robots, agent, self.dialect))
        });
        let scans_only = matches!(
            self.builder.engine_kind(),
            EngineKind::Scan | EngineKind::Naive
        );
        if scans_only {
            let matcher = self.builder.build_shared(Arc::clone(&rules));
            return Group::new(rules, matcher, usage, false);
        }
        let mut scan = self.builder.clone();
        scan.engine(EngineKind::Scan);
        let matcher = scan.build_shared(Arc::clone(&rules));
        Group::new(rules, matcher, usage, true)
    }

    /// Compiles a scanning group and puts it in the cache in its place,
    /// unless it is past the budget: then the group goes on scanning.
    fn compile(&self, key: usize, group: &Group) {
        let matcher = self.builder.build_shared(Arc::clone(&group.rules));
        let rules = Arc::clone(&group.rules);
        let compiled = Group::new(rules, matcher, group.usage.clone(), false);
        let mut cache = self.lock();
        if compiled.bytes <= cache.budget() {
            cache.insert(key, Arc::new(compiled));
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Cache<usize, Group>> {
        // N.B. Every update leaves the cache consistent, so a panic while
        // the lock was held does not matter.
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::group_key::UNNAMED;

    /// Thousands of agents over a few groups (one named by two tokens,
    /// in any case), in every dialect, with room for every group and for
    /// none (each line selects again): every verdict, explanation and
    /// usage preference is the one the agent's own matcher gives, through
    /// the compilation of the `*` group past [`COMPILE_AFTER`] URLs; with
    /// room, the cache holds a group per key, not per agent.
    #[test]
    fn agents_share_the_matchers_of_the_groups_they_select() {
        let body = "User-agent: a\nDisallow: /a\n\nUser-agent: B\n\
                    User-agent: c\nAllow: /a\nDisallow: /\n\n\
                    User-agent: *\nDisallow: /*.php$\n\
                    Content-Usage: train-ai=n\n";
        let robots = Robots::parse(body.as_bytes());
        let mut agents: Vec<String> =
            ["a", "A", "b", "c", "C", "", "*", "x"].map(String::from).into();
        // Distinct product tokens, letters only.
        agents.extend((0..3_000u32).map(|i| {
            let s: String = (0..4)
                .map(|k| (b'a' + ((i >> (4 * k)) & 15) as u8) as char)
                .collect();
            format!("Agent-{s}bot")
        }));
        let paths = ["/a", "/a/x.php", "/b", "/x.php", "/robots.txt", "/"];
        for dialect in Dialect::ALL {
            let own_matchers: Vec<(Matcher, Usage)> = agents
                .iter()
                .map(|a| {
                    let m = Matcher::new(&robots, a, dialect);
                    (m, Usage::select(&robots, a, dialect))
                })
                .collect();
            for budget in [usize::MAX, 0] {
                let builder = MatcherBuilder::new();
                let own = OwnMatchers::new(&robots, dialect, builder, budget);
                let mut s = OwnScratch::default();
                let mut path_buf = vec![];
                for i in 0..3 * COMPILE_AFTER {
                    let a = i % agents.len();
                    let (agent, path) = (&agents[a], paths[i % paths.len()]);
                    let v = own.verdict(agent, path.as_bytes(), true, &mut s);
                    let (m, usage) = &own_matchers[a];
                    let want = m.verdict(path.as_bytes(), &mut m.scratch());
                    let case =
                        format!("{dialect:?} {budget} {agent:?} {path}");
                    assert_eq!(v, want, "{case}");
                    let got = s.matcher().unwrap().explain(v.reason());
                    assert_eq!(got, m.explain(want.reason()), "{case}");
                    let p = dialect.path(path.as_bytes(), &mut path_buf);
                    let prefs = s.usage().unwrap().prefs(p);
                    assert_eq!(prefs, usage.prefs(p), "{case}");
                }
                let cache = own.lock();
                if budget == 0 {
                    assert!(cache.map.is_empty());
                    continue;
                }
                // A key per user-agent line (in the older dialects `*`
                // too) and one for the agents that none names.
                let keys = cache.map.len();
                assert!(keys <= 5, "{dialect:?}: {keys}");
                let star = cache.map.get(&UNNAMED).unwrap();
                assert!(star.scanned.is_none(), "{dialect:?}: compiled");
                assert_ne!(star.matcher.strategy(), "scan");
            }
        }
    }
}

//! The caches of crawl mode's matchers: a judge's own, by fetch, and the
//! one shared across judges, by robots.txt body and settings.

use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::{Arc, Mutex, RwLock};

use crate::cache::{Cache, Weighed};
use crate::dialect::Dialect;
use crate::lowlevel::prefetch::{prefetch, Hints, Region};
use crate::matcher::{Matcher, MatcherBuilder};
use crate::rules::RuleSet;
use smallvec::SmallVec;

/// A judge's matchers by fetch index, bounded in bytes: every thread reads
/// a fetch's from its own slot, for an origin changes as often as a log's
/// lines do; the cache's one lock is taken only to add matchers (each is
/// built once) and to evict the oldest.
///
/// A slot is a read-write lock held only to clone or replace its entry:
/// its reads are two atomic operations on the slot's own memory, and its
/// writes, made under the cache's lock, touch nothing else. (A slot that
/// readers share without any lock, as `arc-swap`'s, costs each write a
/// walk over every thread's record of what it is reading, which at sixteen
/// threads kept the cache's lock held long enough for the others to queue
/// on it.)
#[derive(Debug)]
pub(super) struct JudgeCache {
    pub(super) slots: Box<[Slot]>,
    pub(super) cache: Mutex<Cache<usize, Entry>>,
}

/// A fetch's entry in the judge's cache, and where the entry's memory lies
/// (see [`Entry::regions`]), in one cache line: a log in random host order
/// meets each fetch's entry afresh, and one prefetch of its slot then lets
/// the entry, its matchers and their own memory be asked for together
/// rather than one pointer after another.
#[derive(Debug, Default)]
#[repr(align(64))]
pub(super) struct Slot {
    pub(super) entry: RwLock<Option<Arc<Entry>>>,
    pub(super) hints: Hints<SLOT_HINTS>,
}

/// The regions a slot's hints hold: as many as fill its cache line.
pub(super) const SLOT_HINTS: usize = 5;

impl JudgeCache {
    pub(super) fn new(fetches: usize, budget: usize) -> JudgeCache {
        JudgeCache {
            slots: (0..fetches).map(|_| Slot::default()).collect(),
            cache: Mutex::new(Cache::new(budget, true)),
        }
    }

    pub(super) fn get(&self, index: usize) -> Option<Arc<Entry>> {
        // N.B. No thread panics while holding a slot's lock (it only
        // clones or replaces an `Arc`), so a poisoned one is sound.
        let slot = self.slots.get(index)?;
        slot.entry.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Asks for the memory of the slot at `index`.
    pub(super) fn prefetch_slot(&self, index: usize) {
        if let Some(slot) = self.slots.get(index) {
            prefetch(std::slice::from_ref(slot));
        }
    }

    /// Asks for the memory of the entry at `index`, as its slot's hints
    /// say where it lies.
    pub(super) fn prefetch_entry(&self, index: usize) {
        if let Some(slot) = self.slots.get(index) {
            slot.hints.prefetch();
        }
    }

    /// Adds `entry` as [`Cache::insert`] does, and makes the slots agree
    /// with the cache.
    pub(super) fn insert(&self, index: usize, entry: Arc<Entry>) {
        // N.B. A thread that panicked while holding the lock leaves the
        // cache consistent (every update is one insert or remove).
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        let evicted: Vec<Option<Arc<Entry>>> = cache
            .insert(index, entry)
            .into_iter()
            .filter_map(|gone| self.slots.get(gone))
            .map(|slot| slot.set(None))
            .collect();
        let replaced = self
            .slots
            .get(index)
            .and_then(|slot| slot.set(cache.map.get(&index).cloned()));
        // The entries evicted or replaced are freed once the lock is let
        // go: an origin's rules and matchers are many small allocations,
        // and every thread adding matchers waits on this lock.
        drop(cache);
        drop((evicted, replaced));
    }
}

impl Slot {
    /// Puts `entry` in the slot, with its hints, and returns what it
    /// held.
    pub(super) fn set(&self, entry: Option<Arc<Entry>>) -> Option<Arc<Entry>> {
        self.hints
            .set(entry.as_deref().map(Entry::regions).unwrap_or_default());
        let mut held = self.entry.write().unwrap_or_else(|e| e.into_inner());
        std::mem::replace(&mut *held, entry)
    }
}

/// The bytes of an `Arc`'s counts, which lie before its value.
pub(super) const ARC_COUNTS: usize = 2 * std::mem::size_of::<usize>();

/// The heap bytes of an `Arc` of `n` values of `T` (the values' own heap
/// apart).
pub(super) fn arc_of<T>(n: usize) -> usize {
    ARC_COUNTS + n * std::mem::size_of::<T>()
}

/// Compiled matchers kept across [`CrawlJudge`](super::CrawlJudge)s (see
/// [`CrawlJudge::with_shared_cache`](super::CrawlJudge::with_shared_cache)), keyed by the robots.txt body and by
/// everything else they depend on (agents, dialect, parse limit, engine and
/// its limits), so that equal bodies of different origins share them.
/// Bounded in bytes (bodies, rules and matchers, as allocated): the oldest
/// insertions go first.
#[derive(Debug)]
pub struct MatcherCache {
    pub(super) inner: Mutex<Cache<SharedKey, Entry>>,
}

/// Everything besides the body that a fetch's matchers depend on. The
/// builder is compared whole, so that a setting added to it joins the key.
#[derive(Debug, Eq, Hash, PartialEq)]
pub(super) struct Settings {
    pub(super) agents: Vec<String>,
    pub(super) dialect: Dialect,
    pub(super) max_robots_bytes: usize,
    pub(super) builder: MatcherBuilder,
}

/// The key of a fetch's matchers in a [`MatcherCache`]: the judge's
/// settings (shared by all its keys) and the robots.txt body.
#[derive(Clone, Debug, Eq, Hash, PartialEq)]
pub(super) struct SharedKey {
    pub(super) settings: Arc<Settings>,
    pub(super) body: Arc<[u8]>,
}

/// A fetch's rules and matchers (one of each per agent) and the bytes
/// they account for.
#[derive(Clone, Debug)]
pub(super) struct Entry {
    pub(super) rules: Arc<[Arc<RuleSet>]>,
    /// None while the origin has had one URL, which the rules judge
    /// alone.
    pub(super) matchers: Option<Arc<[Matcher]>>,
    /// The heap bytes the entry holds: itself, its rules, its matchers and
    /// its count, each in its `Arc` (what a cache's budget is spent on).
    pub(super) bytes: usize,
    /// While the matchers are not compiled: the URLs judged so far,
    /// counted by every thread that uses them.
    pub(super) scanned: Option<Arc<Scanned>>,
    /// Per agent, which of the distinct rule sets is its own: agents that
    /// select the same groups share one set, one matcher and one verdict
    /// (see [`Distinct`]).
    pub(super) distinct: Distinct,
}

/// The distinct rule sets of an entry's agents: the agents whose sets are
/// one `Arc` share it. Most agents of an audit select the same groups (the
/// `*` ones), so a URL costs one verdict per distinct set, not per agent.
#[derive(Clone, Debug, Default)]
pub(super) struct Distinct {
    /// Per agent, the index of its set among the distinct ones.
    pub(super) of_agent: Box<[u32]>,
    /// Per distinct set, the first agent that has it.
    pub(super) first: Box<[u32]>,
}

impl Distinct {
    /// The distinct sets of `rules` (one per agent), by identity.
    pub(super) fn of(rules: &[Arc<RuleSet>]) -> Distinct {
        let mut of_agent = Vec::with_capacity(rules.len());
        let mut first: Vec<u32> = vec![];
        for (i, r) in rules.iter().enumerate() {
            let same =
                first.iter().position(|&f| Arc::ptr_eq(&rules[f as usize], r));
            of_agent.push(match same {
                Some(d) => d as u32,
                None => {
                    first.push(i as u32);
                    (first.len() - 1) as u32
                }
            });
        }
        Distinct { of_agent: of_agent.into(), first: first.into() }
    }

    /// Whether every agent has a set of its own.
    pub(super) fn is_identity(&self) -> bool {
        self.first.len() == self.of_agent.len()
    }
}

impl Entry {
    /// A fetch's rules, one set per agent, before any matcher is built;
    /// `scanned` counts its URLs.
    pub(super) fn new(
        rules: Arc<[Arc<RuleSet>]>,
        scanned: Option<Arc<Scanned>>,
    ) -> Entry {
        let distinct = Distinct::of(&rules);
        Entry::counted(rules, distinct, None, scanned)
    }

    /// The entry's rules with `matchers` (one per distinct set), counted
    /// by `scanned` while they scan.
    pub(super) fn with_matchers(
        &self,
        matchers: Option<Arc<[Matcher]>>,
        scanned: Option<Arc<Scanned>>,
    ) -> Entry {
        let rules = Arc::clone(&self.rules);
        Entry::counted(rules, self.distinct.clone(), matchers, scanned)
    }

    /// An entry and the heap bytes it holds.
    fn counted(
        rules: Arc<[Arc<RuleSet>]>,
        distinct: Distinct,
        matchers: Option<Arc<[Matcher]>>,
        scanned: Option<Arc<Scanned>>,
    ) -> Entry {
        let sets = distinct
            .first
            .iter()
            .map(|&i| arc_of::<RuleSet>(1) + rules[i as usize].memory_usage());
        let built = matchers.as_deref().unwrap_or_default();
        let bytes = arc_of::<Entry>(1)
            + arc_of::<Arc<RuleSet>>(rules.len())
            + 2 * std::mem::size_of::<u32>() * rules.len()
            + sets.sum::<usize>()
            + matchers.as_ref().map_or(0, |m| arc_of::<Matcher>(m.len()))
            + built.iter().map(Matcher::heap_bytes).sum::<usize>()
            + scanned.as_ref().map_or(0, |_| arc_of::<Scanned>(1));
        Entry { rules, matchers, bytes, scanned, distinct }
    }

    /// Where the entry's memory lies, in the order a verdict reads it:
    /// the entry, its matchers, its count of URLs, and what the first
    /// matcher reads past itself.
    pub(super) fn regions(&self) -> SmallVec<[Region; 8]> {
        // Each region starts at its `Arc`'s counts, which a clone writes.
        // In place, not on the heap: the slots are set under the cache's
        // lock, which every thread adding matchers waits on.
        let mut out: SmallVec<[Region; 8]> =
            smallvec::smallvec![Region::with_before(
                std::slice::from_ref(self),
                ARC_COUNTS
            )];
        if let Some(ref matchers) = self.matchers {
            out.push(Region::with_before(matchers, ARC_COUNTS));
        }
        if let Some(ref scanned) = self.scanned {
            out.push(Region::with_before(
                std::slice::from_ref(&**scanned),
                ARC_COUNTS,
            ));
        }
        if let Some(first) = self.matchers.as_deref().and_then(<[_]>::first) {
            first.regions(&mut |r| out.push(r));
        }
        out
    }

    /// The entry's rules without its matchers, counted as before.
    pub(super) fn rules_only(&self) -> Entry {
        self.with_matchers(None, self.scanned.clone())
    }

    /// Whether the matchers are compiled with the builder's engine.
    pub(super) fn is_compiled(&self) -> bool {
        self.stage() == 2
    }

    /// How far the entry has come: rules, scanning matchers, compiled
    /// ones.
    pub(super) fn stage(&self) -> u8 {
        match (&self.matchers, &self.scanned) {
            (None, _) => 0,
            (Some(_), Some(_)) => 1,
            (Some(_), None) => 2,
        }
    }
}

impl Weighed for Entry {
    fn bytes(&self) -> usize {
        self.bytes
    }

    fn stage(&self) -> u8 {
        Entry::stage(self)
    }
}

/// The count of URLs that scanning matchers judged, and whether a thread
/// has started compiling them.
#[derive(Debug, Default)]
pub(super) struct Scanned {
    pub(super) urls: AtomicUsize,
    pub(super) compiling: AtomicBool,
}

impl MatcherCache {
    /// An empty cache that keeps at most `bytes` of bodies and matchers.
    pub fn new(bytes: usize) -> MatcherCache {
        MatcherCache { inner: Mutex::new(Cache::new(bytes, false)) }
    }

    /// How many sets of matchers the cache holds.
    pub fn len(&self) -> usize {
        self.lock().map.len()
    }

    /// Whether the cache is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes the cache accounts for (bodies and matchers).
    pub fn memory_usage(&self) -> usize {
        self.lock().bytes
    }

    pub(super) fn get(&self, key: &SharedKey) -> Option<Arc<Entry>> {
        self.lock().map.get(key).cloned()
    }

    /// Keeps `entry` under `key`, without scanning matchers: each judge
    /// builds its own as cheaply, and the budget goes to rules and
    /// compiled matchers.
    pub(super) fn insert(&self, key: SharedKey, entry: &Entry) {
        let kept = match entry.stage() {
            1 => entry.rules_only(),
            _ => entry.clone(),
        };
        let body = arc_of::<u8>(key.body.len());
        let entry = Entry { bytes: kept.bytes + body, ..kept };
        self.lock().insert(key, Arc::new(entry));
    }

    pub(super) fn lock(
        &self,
    ) -> std::sync::MutexGuard<'_, Cache<SharedKey, Entry>> {
        // N.B. Every update leaves the cache consistent, so a panic while
        // the lock was held does not matter.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }
}

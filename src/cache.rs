//! Rules and matchers kept by key within a budget of bytes: crawl mode's
//! per-origin and shared caches, and the groups an access log's agents
//! select.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

/// What a [`Cache`] keeps: its heap bytes as allocated (what the budget is
/// spent on), and how far it has come (rules, matchers that scan,
/// compiled ones), so that an entry is replaced only by one further on.
pub(crate) trait Weighed {
    fn bytes(&self) -> usize;
    fn stage(&self) -> u8;
}

/// Compiled matchers by key (a fetch index, a body and settings, a group),
/// bounded in bytes: the oldest insertions go first. A set larger than
/// the whole budget is kept alone (a judge's cache: it is the one in use)
/// or not at all (the shared caches, which must stay within their budget).
#[derive(Debug)]
pub(crate) struct Cache<K, V> {
    pub(crate) map: HashMap<K, Arc<V>, ahash::RandomState>,
    order: VecDeque<K>,
    pub(crate) bytes: usize,
    budget: usize,
    keep_oversized: bool,
    /// How many entries were stored, new or in place of another.
    #[cfg(test)]
    pub(crate) stored: usize,
}

impl<K: Clone + Eq + std::hash::Hash, V: Weighed> Cache<K, V> {
    pub(crate) fn new(budget: usize, keep_oversized: bool) -> Cache<K, V> {
        Cache {
            map: HashMap::default(),
            order: VecDeque::new(),
            bytes: 0,
            budget,
            keep_oversized,
            #[cfg(test)]
            stored: 0,
        }
    }

    /// The most bytes it keeps.
    pub(crate) fn budget(&self) -> usize {
        self.budget
    }

    /// Inserts `entry`, unless the key holds an entry as far on already:
    /// matchers replace rules, compiled ones scanning ones (the key keeps
    /// its age). Returns the keys evicted to make room.
    pub(crate) fn insert(&mut self, key: K, entry: Arc<V>) -> Vec<K> {
        if let Some(old) = self.map.get_mut(&key) {
            if old.stage() < entry.stage() {
                self.bytes = self.bytes - old.bytes() + entry.bytes();
                *old = entry;
                #[cfg(test)]
                {
                    self.stored += 1;
                }
                return self.evict();
            }
            return vec![];
        }
        if entry.bytes() > self.budget && !self.keep_oversized {
            return vec![];
        }
        self.bytes += entry.bytes();
        self.map.insert(key.clone(), entry);
        #[cfg(test)]
        {
            self.stored += 1;
        }
        self.order.push_back(key);
        // The new entry is the youngest: it goes last, if at all.
        self.evict()
    }

    /// Evicts the oldest entries while over budget (but for the last one,
    /// when oversized ones are kept), and returns their keys.
    fn evict(&mut self) -> Vec<K> {
        let mut gone = vec![];
        while self.bytes > self.budget
            && (self.map.len() > 1 || !self.keep_oversized)
        {
            let Some(old) = self.order.pop_front() else { break };
            if let Some(e) = self.map.remove(&old) {
                self.bytes -= e.bytes();
            }
            gone.push(old);
        }
        gone
    }
}

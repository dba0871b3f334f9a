//! The per-thread state a walk writes to: where it notes what it found
//! and what it has checked, kept between paths only so that no path
//! allocates.

use super::aho_corasick::State;

/// Per-thread state of the trie engine: the tails and groups a path's
/// walk found, to be searched after it, and which multi-literal tails the
/// path has already checked, so that each is checked at most once.
#[derive(Clone, Debug, Default)]
pub(crate) struct TrieScratch {
    /// The tails a trie walk met, with where their rest of the path
    /// starts, to be searched once the walk is done, when they are more
    /// than [`Met`](super::walk::Met) holds.
    pub(super) pending: Vec<(u32, u32)>,
    /// Per tail of more than one literal, the path that last checked it.
    pub(super) stamps: Vec<u32>,
    /// The path count: the stamp of a tail checked for this path.
    pub(super) generation: u32,
    /// Whether this path has been counted yet: it is counted the first
    /// time it checks a tail, which few paths do, so that the others pay
    /// nothing.
    pub(super) stamped: bool,
    /// The Aho-Corasick match states a tail search has reported.
    pub(super) visited: Visited,
    /// The groups of tails found, to be searched once the walk is done,
    /// each with where its search starts in the path.
    pub(super) groups: Vec<(u32, usize)>,
    /// Where in the path the rest that the current search walks starts.
    pub(super) base: usize,
}

/// A set of Aho-Corasick states, cleared per tail search.
///
/// A search reaches a handful of match states, where a linear search of
/// a short list beats hashing; hostile tails can make it reach thousands,
/// and then a hash set keeps the search linear.
#[derive(Clone, Debug, Default)]
pub(super) struct Visited {
    few: Vec<State>,
    many: std::collections::HashSet<State>,
}

impl Visited {
    /// Up to this many states are kept in the list.
    const FEW: usize = 16;

    pub(super) fn clear(&mut self) {
        self.few.clear();
        if !self.many.is_empty() {
            self.many.clear();
        }
    }

    /// Takes `sid` out of the set.
    pub(super) fn remove(&mut self, sid: State) {
        self.few.retain(|&s| s != sid);
        self.many.remove(&sid);
    }

    /// True when `sid` was not in the set yet.
    ///
    /// The short list inline, the hash set apart in a call the walk
    /// (nearly) never makes, as both together made a call of every look.
    #[inline]
    pub(super) fn insert(&mut self, sid: State) -> bool {
        if !self.many.is_empty() || self.few.len() == Visited::FEW {
            return self.insert_many(sid);
        }
        if self.few.contains(&sid) {
            return false;
        }
        self.few.push(sid);
        true
    }

    /// [`Visited::insert`] once the list is full: into the hash set.
    #[cold]
    #[inline(never)]
    fn insert_many(&mut self, sid: State) -> bool {
        if self.many.is_empty() {
            if self.few.contains(&sid) {
                return false;
            }
            self.many.extend(self.few.drain(..));
        }
        self.many.insert(sid)
    }
}

impl TrieScratch {
    /// Counts a path: every tail is unchecked again.
    fn next_path(&mut self) {
        if self.generation == u32::MAX {
            self.stamps.fill(0);
            self.generation = 0;
        }
        self.generation += 1;
    }

    /// True the first time a slot is seen for this path.
    pub(super) fn first_visit(&mut self, slot: u32) -> bool {
        if !self.stamped {
            self.stamped = true;
            self.next_path();
        }
        let slot = slot as usize;
        if slot >= self.stamps.len() {
            // 0 is no path's count.
            self.stamps.resize(slot + 1, 0);
        }
        let stamp = &mut self.stamps[slot];
        let first = *stamp != self.generation;
        *stamp = self.generation;
        first
    }
}

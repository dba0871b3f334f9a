//! Walking a path: the trie first, then the tails met on the way, deepest
//! first, and only those that can still beat the best rule found (see
//! docs/DESIGN.md, "Tail automata").

use super::scratch::TrieScratch;
use super::TrieEngine;
use crate::engine::pattern::NONE;

impl TrieEngine {
    /// The lowest tag of a pattern that matches `path`, or `NONE`.
    ///
    /// The trie is walked first; the tails met on the way are only
    /// searched after, deepest first, and only those that can still beat
    /// the best literal rule found: most paths that match a rule match a
    /// long literal one, and then a short wildcard rule near the root
    /// (`/*.pdf$`) costs nothing.
    #[inline]
    pub(crate) fn find(&self, path: &[u8], scratch: &mut TrieScratch) -> u32 {
        let mut met = Met::default();
        let Some(best) = self.walk_trie(path, &mut met) else {
            return self.find_many(path, scratch);
        };
        if met.len == 0 {
            return best;
        }
        self.search_tails(path, &met.few[..met.len], best, scratch)
    }

    /// [`TrieEngine::find`] for a path that meets more nodes with tails
    /// than [`Met`] holds: the list of them in the scratch.
    #[cold]
    #[inline(never)]
    fn find_many(&self, path: &[u8], scratch: &mut TrieScratch) -> u32 {
        let mut pending = std::mem::take(&mut scratch.pending);
        pending.clear();
        let best = self
            .walk_trie(path, &mut pending)
            .expect("a vector takes every tail");
        let best = self.search_tails(path, &pending, best, scratch);
        scratch.pending = pending;
        best
    }

    /// The best of `best` and the tails `met` (as a trie walk of `path`
    /// met them), searched deepest first.
    #[inline]
    fn search_tails(
        &self,
        path: &[u8],
        met: &[(u32, u32)],
        mut best: u32,
        scratch: &mut TrieScratch,
    ) -> u32 {
        scratch.stamped = false;
        let mut i = met.len();
        while i > 0 {
            i -= 1;
            let (tail, pos) = met[i];
            let tails = &self.tails[tail as usize];
            let from = (pos - tails.reach) as usize;
            scratch.base = from;
            best = tails.find_from(&path[from..], best, scratch);
            // The tails of the nodes above that this node's automaton
            // holds too: they were met just before it.
            i -= tails.covers as usize;
        }
        if !scratch.groups.is_empty() {
            best = self.search_groups(path, best, scratch);
        }
        best
    }

    /// The best of `best` and the groups of tails whose first literal the
    /// searches found (and the groups those lead to), each searched from
    /// where its literal ends, once per path.
    #[cold]
    #[inline(never)]
    fn search_groups(
        &self,
        path: &[u8],
        mut best: u32,
        scratch: &mut TrieScratch,
    ) -> u32 {
        while let Some((tails, at)) = scratch.groups.pop() {
            scratch.base = at;
            best = self.tails[tails as usize].find_from(
                &path[at..],
                best,
                scratch,
            );
        }
        best
    }

    /// The best literal pattern (prefix, or prefix and `$`) that matches
    /// `path`, noting in `met` the tails met on the way; `None` when `met`
    /// has no room for them.
    #[inline]
    fn walk_trie<M: MetTails>(&self, path: &[u8], met: &mut M) -> Option<u32> {
        let mut best = NONE;
        let (mut node, mut pos) = match self.lead {
            Some((byte, next)) if path.first() == Some(&byte) => {
                (&self.nodes[next as usize], 1)
            }
            _ => (&self.nodes[0], 0),
        };
        loop {
            if best <= node.bound {
                return Some(best);
            }
            best = best.min(node.tag);
            if pos == path.len() {
                best = best.min(node.tag_end);
            }
            if node.tail != NONE && !met.note(node.tail, pos as u32) {
                return None;
            }
            if node.skip_len > 0 {
                let start = node.link as usize;
                let chain = &self.skip_bytes
                    [start..start + usize::from(node.skip_len)];
                if !path[pos..].starts_with(chain) {
                    return Some(best);
                }
                pos += usize::from(node.skip_len);
                node = &self.nodes[node.first_child as usize];
                continue;
            }
            let Some(&b) = path.get(pos) else {
                return Some(best);
            };
            match self.child(node, b) {
                Some(c) => node = &self.nodes[c],
                None => return Some(best),
            }
            pos += 1;
        }
    }
}

/// Where a trie walk notes the nodes with tails it meets, and where their
/// rest of the path starts.
pub(super) trait MetTails {
    /// Notes a node's `tail` met at `pos`; false when there is no room.
    fn note(&mut self, tail: u32, pos: u32) -> bool;
}

/// The nodes with tails that a trie walk met, when they are few: on the
/// stack, as most paths meet one or two, where a vector of the scratch
/// would be taken out and put back around the search (its borrow) and
/// checked for room at each push.
#[derive(Default)]
pub(super) struct Met {
    few: [(u32, u32); Met::FEW],
    len: usize,
}

impl Met {
    pub(super) const FEW: usize = 8;
}

impl MetTails for Met {
    #[inline(always)]
    fn note(&mut self, tail: u32, pos: u32) -> bool {
        let Some(slot) = self.few.get_mut(self.len) else {
            return false;
        };
        *slot = (tail, pos);
        self.len += 1;
        true
    }
}

/// The nodes with tails of a path that meets more than [`Met::FEW`].
impl MetTails for Vec<(u32, u32)> {
    fn note(&mut self, tail: u32, pos: u32) -> bool {
        self.push((tail, pos));
        true
    }
}

//! The fallback engine: regex-automata's lazy (hybrid) DFA, whose states are
//! built while paths are scanned and kept in a bounded per-thread cache.
//!
//! It is used when the dense DFA would exceed its size limits (many
//! wildcard rules make determinization blow up) and on request. When the
//! cache fills it is cleared and rebuilt, so memory stays bounded whatever
//! the rules; the cost is time, never a wrong verdict.

use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::hybrid::LazyStateID;
use regex_automata::nfa::thompson::NFA;
use regex_automata::util::start;
use regex_automata::{Anchored, MatchKind};

use super::limits::Limits;
use super::pattern::NONE;

#[derive(Clone, Debug)]
pub(crate) struct LazyEngine {
    dfa: DFA,
}

impl LazyEngine {
    pub(crate) fn new(
        nfa: &NFA,
        limits: &Limits,
    ) -> Result<LazyEngine, String> {
        let dfa = DFA::builder()
            .configure(
                DFA::config()
                    .match_kind(MatchKind::All)
                    .byte_classes(true)
                    .cache_capacity(limits.lazy_cache_bytes)
                    // A cache too small for even a few states is still used
                    // (it clears more often) rather than refused.
                    .skip_cache_capacity_check(true)
                    // Never give up: a slow scan beats a lost verdict.
                    .minimum_cache_clear_count(None),
            )
            .build_from_nfa(nfa.clone())
            .map_err(|e| e.to_string())?;
        Ok(LazyEngine { dfa })
    }

    pub(crate) fn new_cache(&self) -> Cache {
        self.dfa.create_cache()
    }

    /// Heap bytes of the DFA and of the NFA it determinizes, which it
    /// keeps (not of the states it builds while it searches: those lie
    /// in each search's cache).
    pub(crate) fn memory_usage(&self) -> usize {
        self.dfa.memory_usage() + self.dfa.get_nfa().memory_usage()
    }

    fn min_pattern(&self, cache: &Cache, id: LazyStateID) -> u32 {
        (0..self.dfa.match_len(cache, id))
            .map(|i| self.dfa.match_pattern(cache, id, i).as_u32())
            .min()
            .unwrap_or(NONE)
    }

    pub(crate) fn find(&self, path: &[u8], cache: &mut Cache) -> u32 {
        let config = start::Config::new().anchored(Anchored::Yes);
        // The start state and every transition can only fail on quit bytes
        // or when the cache gives up; neither is configured, so an error
        // here is a bug, and "no match" would be a wrong verdict: panic.
        let mut s =
            self.dfa.start_state(cache, &config).expect("lazy DFA start");
        let mut best = NONE;
        for &b in path {
            s = self.dfa.next_state(cache, s, b).expect("lazy DFA transition");
            if s.is_tagged() {
                if s.is_dead() {
                    return best;
                }
                if s.is_match() {
                    best = best.min(self.min_pattern(cache, s));
                    if best == 0 {
                        return best;
                    }
                }
            }
        }
        let s =
            self.dfa.next_eoi_state(cache, s).expect("lazy DFA end of input");
        if s.is_match() {
            best = best.min(self.min_pattern(cache, s));
        }
        best
    }
}

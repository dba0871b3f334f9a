//! Which origins' rules a judge lets go after their run of URLs, rather
//! than keep in its cache: in a log grouped by host, an origin whose URLs
//! came together is seldom met again, and keeping its rules only spreads
//! the run over fresh memory.
//!
//! A batch says when an origin's run looks like its last (see
//! [`GroupedScratch`](super::GroupedScratch)): a run between two others in
//! a batch judged in input order, or any run of the input's last batch
//! when no other is judged after it or beside it. The judge then builds
//! its rules and matchers without adding them to its cache. Guessing
//! wrong costs a build: an origin met again after it was let go is kept
//! from then on, so each robots.txt is built at most once more than it
//! would have been; and once more than one in eight of the origins let go
//! have been met again (past the first few), the log is not grouped after
//! all and nothing more is let go.

use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};

/// An origin's rules have been kept, or not yet built.
const HELD: u8 = 0;
/// An origin's rules were let go after its run.
const LET_GO: u8 = 1;
/// An origin's rules were met again after they were let go: kept now.
const KEEP: u8 = 2;

/// Up to this many origins met again after they were let go, rules go on
/// being let go whatever their share: a few hosts' URLs in two places of
/// a grouped log say nothing of the whole.
const FEW_MET_AGAIN: usize = 32;

/// One in this many origins let go may be met again before the judge
/// stops letting any go.
const MET_AGAIN_SHARE: usize = 8;

/// Per fetch, whether its rules were let go; and how many were, and met
/// again.
#[derive(Debug)]
pub(super) struct Passing {
    states: Box<[AtomicU8]>,
    let_go: AtomicUsize,
    met_again: AtomicUsize,
}

impl Passing {
    /// Nothing let go, for `fetches` fetches.
    pub(super) fn new(fetches: usize) -> Passing {
        Passing {
            states: (0..fetches).map(|_| AtomicU8::new(HELD)).collect(),
            let_go: AtomicUsize::new(0),
            met_again: AtomicUsize::new(0),
        }
    }

    /// Whether the rules of the fetch at `index`, just built, are let go
    /// rather than kept: only when the batch says their run is `passing`,
    /// they were not met again after being let go before, and the log
    /// has not shown itself to be other than grouped. Rules built again
    /// after they were let go are counted as met again, and kept.
    pub(super) fn lets_go(&self, index: usize, passing: bool) -> bool {
        let Some(state) = self.states.get(index) else { return false };
        // Each update is one atomic operation: two threads that build the
        // same origin's rules at once may both count it, which only moves
        // the shares a little.
        match state.load(Ordering::Relaxed) {
            LET_GO => {
                state.store(KEEP, Ordering::Relaxed);
                self.met_again.fetch_add(1, Ordering::Relaxed);
                false
            }
            KEEP => false,
            _ if !passing || !self.grouped() => false,
            _ => {
                state.store(LET_GO, Ordering::Relaxed);
                self.let_go.fetch_add(1, Ordering::Relaxed);
                true
            }
        }
    }

    /// Whether the log still looks grouped by host: few of the origins let
    /// go have been met again.
    fn grouped(&self) -> bool {
        let met_again = self.met_again.load(Ordering::Relaxed);
        let let_go = self.let_go.load(Ordering::Relaxed);
        met_again <= FEW_MET_AGAIN
            || met_again.saturating_mul(MET_AGAIN_SHARE) <= let_go
    }

    /// How many origins' rules were let go, and how many of those were
    /// met again.
    pub(super) fn counts(&self) -> (usize, usize) {
        (
            self.let_go.load(Ordering::Relaxed),
            self.met_again.load(Ordering::Relaxed),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rules let go once and met again are kept from then on.
    #[test]
    fn rules_met_again_are_kept() {
        let passing = Passing::new(2);
        assert!(!passing.lets_go(0, false), "not passing: kept");
        assert!(passing.lets_go(1, true));
        assert_eq!(passing.counts(), (1, 0));
        // Built again: met again, kept, and kept for good.
        assert!(!passing.lets_go(1, true));
        assert!(!passing.lets_go(1, true));
        assert_eq!(passing.counts(), (1, 1));
        // An index past the fetches is never let go.
        assert!(!passing.lets_go(2, true));
    }

    /// Once more than one in eight origins let go are met again (past the
    /// first few), nothing more is let go; below that share, rules go on
    /// being let go.
    #[test]
    fn a_log_not_grouped_stops_the_letting_go() {
        let n = 1_000;
        let passing = Passing::new(n);
        // 400 let go, 40 of them met again: one in ten, still grouped.
        for i in 0..400 {
            assert!(passing.lets_go(i, true), "origin {i}");
        }
        for i in 0..40 {
            assert!(!passing.lets_go(i, true));
        }
        assert!(passing.lets_go(400, true));
        assert_eq!(passing.counts(), (401, 40));
        // 20 more met again: 60 of 401, past one in eight.
        for i in 40..60 {
            assert!(!passing.lets_go(i, true));
        }
        assert_eq!(passing.counts(), (401, 60));
        for i in 401..n {
            assert!(!passing.lets_go(i, true), "origin {i}");
        }
        assert_eq!(passing.counts(), (401, 60));
    }

    /// The first few origins met again stop nothing, whatever their share.
    #[test]
    fn a_few_met_again_stop_nothing() {
        let passing = Passing::new(100);
        for i in 0..FEW_MET_AGAIN {
            assert!(passing.lets_go(i, true));
            assert!(!passing.lets_go(i, true));
        }
        assert_eq!(passing.counts(), (FEW_MET_AGAIN, FEW_MET_AGAIN));
        assert!(passing.lets_go(FEW_MET_AGAIN, true));
        assert!(!passing.lets_go(FEW_MET_AGAIN, true));
        assert!(!passing.lets_go(FEW_MET_AGAIN + 1, true), "33 of 33");
    }
}

//! Automata over priority-tagged patterns.
//!
//! This module knows nothing of dialects, groups or URLs. It receives a list
//! of patterns whose index is their priority tag (0 is the most important)
//! and answers one question per path: the lowest index of a pattern that
//! matches a prefix of the path. The rule layer orders the patterns so that
//! this index is the verdict: by length and allow-first for the
//! longest-match dialects, by file position for the first-match ones.

mod dense;
mod lazy;
mod limits;
mod naive;
mod nfa;
mod pattern;
mod scan;
mod trie;

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, ErrorKind};
use crate::lowlevel::prefetch::Region;

pub(crate) use self::dense::DenseEngine;
pub(crate) use self::lazy::LazyEngine;
pub(crate) use self::limits::Limits;
#[cfg(test)]
pub(crate) use self::naive::glob_matches_prefix;
pub(crate) use self::naive::NaiveEngine;
#[cfg(test)]
pub(crate) use self::naive::NaiveScratch;
pub(crate) use self::pattern::{Pattern, Syntax, NONE};
pub(crate) use self::scan::ScanEngine;
pub(crate) use self::trie::{TrieEngine, TrieScratch};

/// The priority tags of `patterns`: their indexes.
fn ids(patterns: &[Pattern]) -> Vec<u32> {
    (0..patterns.len() as u32).collect()
}

/// Which matching strategy a [`Matcher`](crate::Matcher) uses.
#[derive(Clone, Copy, Debug, Default, Eq, Hash, PartialEq)]
#[non_exhaustive]
pub enum EngineKind {
    /// The plain reference: every rule is tried with a linear-time
    /// position-set match, the highest priority wins. Obviously correct,
    /// slow on large rule sets; the yardstick of the differential tests.
    Naive,
    /// The default: a trie of the rules' literal prefixes (up to their
    /// first `*`) walked once along the path. The wildcard tails of
    /// the rules that start at a node are found by Aho-Corasick over their
    /// distinct first literals; tails that share their first literal are
    /// a group, whose own automaton over their next literals is searched
    /// from where that literal ends, and a lone tail's other literals are
    /// checked in order by substring finders. Repeated rules are kept
    /// once. Each node knows the best rule still reachable below it, so a
    /// scan stops as soon as no better rule can match. Compiles in time
    /// and memory linear in the rules' bytes.
    ///
    /// Its name was `dfa` once, and `"dfa"` still parses as this engine.
    #[default]
    Trie,
    /// Every pattern in one dense DFA (regex-automata), split into a few
    /// DFAs when one would exceed the size limits, else the lazy DFA. Slower
    /// to compile than `trie`; kept to compare strategies.
    Dense,
    /// All patterns in one lazy (hybrid) DFA with a bounded cache: states
    /// are built as paths need them. Compiles in microseconds.
    Lazy,
    /// Compiles nothing: each path is tried against the rules one by one,
    /// in priority order, the literal prefix compared in place and the
    /// wildcard literals searched for in order. For rule sets that judge
    /// a few paths: the crawl-log mode judges each origin's first URLs so
    /// and compiles `trie` only for the origins with more.
    Scan,
}

impl EngineKind {
    /// Every engine, the default first.
    pub const ALL: [EngineKind; 5] = [
        EngineKind::Trie,
        EngineKind::Dense,
        EngineKind::Lazy,
        EngineKind::Scan,
        EngineKind::Naive,
    ];

    /// The engine's name as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Naive => "naive",
            EngineKind::Trie => "trie",
            EngineKind::Dense => "dense",
            EngineKind::Lazy => "lazy",
            EngineKind::Scan => "scan",
        }
    }
}

impl fmt::Display for EngineKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for EngineKind {
    type Err = Error;

    /// An engine's name in any case, or `dfa`, the old name of `trie`
    /// (kept so that scripts written for it go on working).
    fn from_str(s: &str) -> Result<EngineKind, Error> {
        if s.eq_ignore_ascii_case("dfa") {
            return Ok(EngineKind::Trie);
        }
        EngineKind::ALL
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| Error::new(ErrorKind::UnknownEngine(s.to_string())))
    }
}

/// A compiled engine.
#[derive(Clone, Debug)]
pub(crate) enum Engine {
    /// No pattern at all: nothing ever matches.
    Empty,
    Naive(NaiveEngine),
    Scan(ScanEngine),
    Trie(Box<TrieEngine>),
    Dense(Box<DenseEngine>),
    Lazy(Box<LazyEngine>),
}

/// Per-thread mutable state an engine needs while it scans.
#[derive(Clone, Debug, Default)]
pub(crate) struct EngineScratch {
    lazy: Option<regex_automata::hybrid::dfa::Cache>,
    naive: naive::NaiveScratch,
    trie: TrieScratch,
}

impl Engine {
    /// Compiles `patterns` (index = priority tag) with the chosen strategy.
    pub(crate) fn build(
        kind: EngineKind,
        patterns: &[Pattern],
        limits: &Limits,
    ) -> Engine {
        if patterns.is_empty() {
            return Engine::Empty;
        }
        match kind {
            EngineKind::Naive => Engine::Naive(NaiveEngine::new(patterns)),
            EngineKind::Scan => Engine::Scan(ScanEngine::new(patterns)),
            EngineKind::Trie => match TrieEngine::new(patterns) {
                Ok(e) => Engine::Trie(Box::new(e)),
                Err(why) => {
                    log::debug!("no trie ({why})");
                    Engine::lazy(patterns, limits)
                }
            },
            EngineKind::Dense => {
                match DenseEngine::new(patterns, &ids(patterns), limits) {
                    Ok(set) => Engine::Dense(Box::new(set)),
                    Err(why) => {
                        log::debug!("dense DFAs over their limits ({why})");
                        Engine::lazy(patterns, limits)
                    }
                }
            }
            EngineKind::Lazy => Engine::lazy(patterns, limits),
        }
    }

    fn lazy(patterns: &[Pattern], limits: &Limits) -> Engine {
        let lazy = nfa::build(patterns, limits)
            .and_then(|nfa| LazyEngine::new(&nfa, limits));
        match lazy {
            Ok(lazy) => Engine::Lazy(Box::new(lazy)),
            Err(why) => {
                // Past the NFA limit no automaton is bounded: the reference
                // engine is, linear in the path for each rule.
                log::debug!("no lazy DFA ({why}); using the naive engine");
                Engine::Naive(NaiveEngine::new(patterns))
            }
        }
    }

    /// The strategy actually in use (after any fallback).
    pub(crate) fn strategy(&self) -> &'static str {
        match self {
            Engine::Empty => "empty",
            Engine::Naive(_) => "naive",
            Engine::Scan(_) => "scan",
            Engine::Trie(_) => "trie",
            Engine::Dense(e) if e.len() == 1 => "dense-dfa",
            Engine::Dense(_) => "dense-dfa-split",
            Engine::Lazy(_) => "lazy-dfa",
        }
    }

    /// Heap bytes of the compiled automaton (a boxed engine's box
    /// included).
    pub(crate) fn memory_usage(&self) -> usize {
        fn boxed<T>(_: &T) -> usize {
            std::mem::size_of::<T>()
        }
        match self {
            Engine::Empty => 0,
            Engine::Naive(e) => e.memory_usage(),
            Engine::Scan(e) => e.memory_usage(),
            Engine::Trie(e) => boxed(&**e) + e.memory_usage(),
            Engine::Dense(e) => boxed(&**e) + e.memory_usage(),
            Engine::Lazy(e) => boxed(&**e) + e.memory_usage(),
        }
    }

    /// The memory a search reads first, for a prefetch (the engines that
    /// scan patterns only: a compiled engine serves URLs enough to keep
    /// its own memory in cache).
    pub(crate) fn regions(&self, each: &mut dyn FnMut(Region)) {
        match self {
            Engine::Naive(e) => e.regions(each),
            Engine::Scan(e) => e.regions(each),
            _ => {}
        }
    }

    pub(crate) fn new_scratch(&self) -> EngineScratch {
        EngineScratch {
            lazy: match self {
                Engine::Lazy(e) => Some(e.new_cache()),
                _ => None,
            },
            naive: naive::NaiveScratch::default(),
            trie: TrieScratch::default(),
        }
    }

    /// Makes `scratch`, used with another engine before, ready for this
    /// one. The naive and trie buffers hold nothing from one path to the
    /// next that another engine could misread (the trie's stamps only
    /// grow), so they are kept; a lazy DFA's cache belongs to its own
    /// automaton, so it is dropped, to be made again at its first use.
    pub(crate) fn renew_scratch(&self, scratch: &mut EngineScratch) {
        scratch.lazy = None;
    }

    /// The lowest index of a pattern that matches a prefix of `path`.
    #[inline]
    pub(crate) fn find(
        &self,
        path: &[u8],
        scratch: &mut EngineScratch,
    ) -> Option<u32> {
        let id = match self {
            Engine::Empty => NONE,
            Engine::Naive(e) => e.find(path, &mut scratch.naive),
            Engine::Scan(e) => e.find(path),
            Engine::Trie(e) => e.find(path, &mut scratch.trie),
            Engine::Dense(e) => e.find_from(path, NONE),
            Engine::Lazy(e) => {
                let cache = scratch.lazy.get_or_insert_with(|| e.new_cache());
                e.find(path, cache)
            }
        };
        (id != NONE).then_some(id)
    }
}

#[cfg(test)]
mod tests {
    use super::EngineKind;

    #[test]
    fn names_parse_back_and_dfa_is_the_trie() {
        for kind in EngineKind::ALL {
            assert_eq!(kind.name().parse::<EngineKind>().unwrap(), kind);
            assert_eq!(kind.to_string(), kind.name());
        }
        for old in ["dfa", "DFA", "Dfa"] {
            assert_eq!(old.parse::<EngineKind>().unwrap(), EngineKind::Trie);
        }
        assert_eq!(EngineKind::default(), EngineKind::Trie);
        assert!("dfas".parse::<EngineKind>().is_err());
    }
}

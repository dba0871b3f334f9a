//! How much memory compiling one rule set may take.

/// Size limits of compilation. Every one is bounded: a hostile robots.txt
/// can make compilation give up on the dense DFA, never run unbounded.
#[derive(Clone, Copy, Debug, Eq, Hash, PartialEq)]
pub(crate) struct Limits {
    pub(crate) nfa_bytes: usize,
    pub(crate) dense_bytes: usize,
    pub(crate) determinize_bytes: usize,
    pub(crate) lazy_cache_bytes: usize,
    /// The most dense DFAs one rule set may be split into.
    pub(crate) max_parts: usize,
}

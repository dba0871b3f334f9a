//! The default engine: a DFA over the patterns' literal prefixes (a trie),
//! with the wildcard tails of the patterns found by Aho-Corasick automata
//! (over their first literals, see [`aho_corasick`]) that hang
//! off the trie nodes where their prefixes end.
//!
//! Most robots.txt rules are literal prefixes (`Disallow: /cgi-bin/`), and
//! even wildcard rules almost always start with one (`/b/*_pgn=`). A trie
//! is the minimal DFA of a set of literal prefixes: it compiles in
//! microseconds, takes memory proportional to the rules' bytes, and a scan
//! stops at the first byte where the path leaves every prefix. Only the
//! tails after a pattern's first `*` need a real determinization, and only
//! together with the other tails of the same prefix, so one path runs at
//! most the tail automata of the prefixes it actually has (and fewer: a
//! node's automaton may hold the few tails of the nodes just above it).
//!
//! Every node knows the lowest priority tag in its subtree (its `bound`):
//! a scan that has already found a better rule stops as soon as it reaches
//! a node whose bound cannot beat it.

mod aho_corasick;
mod build;
mod layout;
mod scratch;
mod tails;
#[cfg(test)]
mod tests;
mod walk;

use self::layout::Node;
pub(crate) use self::scratch::TrieScratch;
use self::tails::Tails;

#[derive(Clone, Debug)]
pub(crate) struct TrieEngine {
    nodes: Vec<Node>,
    skip_bytes: Vec<u8>,
    /// Per wide node, one more than the rank of each byte's child among
    /// the node's children, or 0 when the byte has none.
    wide: Vec<[u8; 256]>,
    tails: Vec<Tails>,
    /// When the root holds no pattern and every pattern starts with one
    /// byte (`/`, in every robots.txt), that byte and the node after it:
    /// a path that starts with it starts there.
    ///
    /// PERF: the root's visit, a chain of one byte, was a call to
    /// `memcmp` on every path.
    lead: Option<(u8, u32)>,
}

impl TrieEngine {
    pub(crate) fn memory_usage(&self) -> usize {
        self.nodes.len() * std::mem::size_of::<Node>()
            + self.skip_bytes.len()
            + self.wide.len() * 256
            + self.tails.iter().map(|t| t.memory_usage()).sum::<usize>()
    }
}

//! The `trie` engine, the default: a trie of the patterns' literal
//! prefixes, walked once along the path, with the wildcard tails of the
//! patterns searched by Aho-Corasick automata that hang off the nodes
//! where their prefixes end.
//!
//! Most robots.txt rules are literal prefixes (`Disallow: /cgi-bin/`), and
//! even wildcard rules almost always start with one (`/b/*_pgn=`). A trie
//! is the minimal DFA of a set of literal prefixes: it compiles in
//! microseconds, takes memory proportional to the rules' bytes, and a walk
//! stops at the first byte where the path leaves every prefix. Only the
//! tails after a pattern's first `*` need an automaton, and only together
//! with the other tails of the same prefix, so one path runs at most the
//! tail automata of the prefixes it actually has (and fewer: a node's
//! automaton may hold the few tails of the nodes just above it).
//!
//! Every node knows the lowest priority tag in its subtree (its `bound`):
//! a walk that has already found a better rule stops as soon as it reaches
//! a node whose bound cannot beat it.
//!
//! The parts, in the order a pattern meets them:
//!
//! * [`build`]: the patterns into a trie, their tags and tails on the
//!   nodes where their prefixes end;
//! * [`layout`]: the nodes as a walk reads them, chains compressed,
//!   breadth first, a node's children found in the node;
//! * [`tails`]: the wildcard tails of a node, and their search;
//! * [`aho_corasick`]: the automata over the tails' first literals;
//! * [`walk`]: one path, the trie first, then the tails met on the way;
//! * [`scratch`]: what a walk writes, one per thread.
//!
//! Why each is built as it is, and the measurements that chose it, are in
//! docs/DESIGN.md ("The prefix trie and its layout", "Tail automata").

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

/// The compiled trie of one rule set (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct TrieEngine {
    /// Breadth first, the root first (see [`Node`]).
    nodes: Vec<Node>,
    /// The bytes of every compressed chain.
    skip_bytes: Vec<u8>,
    /// Per wide node, one more than the rank of each byte's child among
    /// the node's children, or 0 when the byte has none.
    wide: Vec<[u8; 256]>,
    /// The tail automata, each node's at its [`Node::tail`].
    tails: Vec<Tails>,
    /// When the root holds no pattern and every pattern starts with one
    /// byte (`/`, in every robots.txt), that byte and the node after it:
    /// a path that starts with it starts there, so that no path pays for
    /// the root's visit (a chain of one byte compared by `memcmp`).
    lead: Option<(u8, u32)>,
}

impl TrieEngine {
    pub(crate) fn memory_usage(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.skip_bytes.capacity()
            + self.wide.capacity() * 256
            + self.tails.capacity() * std::mem::size_of::<Tails>()
            + self.tails.iter().map(|t| t.memory_usage()).sum::<usize>()
    }
}

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

use memchr::memmem;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet, VecDeque};

use self::aho_corasick::{Firsts, FirstsDfa, Sparse, State};
use super::pattern::{follows, split, Pattern, Rest, Syntax, NONE};
use crate::swar::equal;

/// A node of the trie as a scan reads it.
///
/// A node's children are consecutive nodes, so a child is found by its
/// rank among them, with no list of child indexes to read in between.
///
/// PERF: 32 bytes, aligned, so that no node straddles two cache lines
/// (they were 44 bytes, and each child was found through one more load).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
struct Node {
    /// The first child, or, when the node starts a chain, the node at
    /// the chain's end.
    first_child: u32,
    child_len: u16,
    /// When the node has one child and a chain of childless-but-one nodes
    /// without patterns follows, the chain's length: a scan compares its
    /// bytes at once (at most `u16::MAX`; a longer chain goes on from a
    /// node of its own).
    skip_len: u16,
    /// Lowest tag of a pattern that is exactly this node's prefix.
    emit: u32,
    /// Lowest tag of a pattern that is this prefix followed by `$`.
    emit_end: u32,
    /// Index into `tails`, or `NONE`.
    tail: u32,
    /// Lowest tag of any pattern at or below this node.
    bound: u32,
    /// How a scan goes on from the node, by its kind:
    /// - one that starts a chain (`skip_len` above 0): where the chain's
    ///   bytes start in `skip_bytes`;
    /// - one with up to [`NARROW`] children: the children's bytes, the
    ///   first child's in the lowest byte, zeros after;
    /// - one with more (and fewer than 256): its index in `wide`;
    /// - one with all 256: nothing, a child's rank is its byte.
    ///
    /// PERF: a narrow node's child is found in the node itself, with no
    /// load from a list of bytes and no loop whose end the predictor
    /// guesses wrong.
    link: u64,
}

/// A node of the trie while chains are found: its children anywhere.
#[derive(Clone, Debug)]
struct TrieNode {
    /// Children: the range of `child_bytes`/`child_nodes` that is this
    /// node's, sorted by byte.
    first_child: u32,
    child_len: u32,
    emit: u32,
    emit_end: u32,
    tail: u32,
    bound: u32,
    /// The chain this node starts, if any (`skip_len` > 0): its bytes in
    /// `skip_bytes` and the node at its end.
    skip_start: u32,
    skip_len: u32,
    skip_to: u32,
}

/// The trie while chains are found, before its nodes are laid out for
/// scans.
struct Trie {
    nodes: Vec<TrieNode>,
    child_bytes: Vec<u8>,
    child_nodes: Vec<u32>,
    skip_bytes: Vec<u8>,
}

/// Nodes with up to this many children find a byte's child among their
/// bytes, held in the node as one word; wider ones (the root and the
/// first levels of most files) by a table from byte to child.
///
/// PERF: a binary search over the 30-odd children below amazon.com's `/`
/// was a fifth of its matching time (7.6 M paths/s with it, 9.3 M with
/// the table). A 256-bit bitmap and a rank take an eighth of the memory,
/// but without the `popcnt` instruction (not in the baseline x86-64
/// target) counting bits is slow: 8.1 M paths/s.
const NARROW: usize = 8;

#[derive(Clone, Debug)]
pub(crate) struct PrefixEngine {
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

/// A node while the trie is being built.
#[derive(Default)]
struct TmpNode {
    children: Vec<(u8, u32)>,
    emit: u32,
    emit_end: u32,
    tails: Vec<(u32, Pattern<'static>)>,
    /// The node's parent (the root is its own), the byte that leads to it
    /// from there, and its depth: the length of its prefix.
    parent: u32,
    byte: u8,
    depth: u32,
}

impl PrefixEngine {
    pub(crate) fn new(patterns: &[Pattern]) -> Result<PrefixEngine, String> {
        let mut tmp =
            vec![TmpNode { emit: NONE, emit_end: NONE, ..Default::default() }];
        // The tails already at each node: a tail met again (a rule
        // repeated, or spelt with more stars) can never beat the first,
        // whose tag is lower, so it is left out; hostile files repeat one
        // rule tens of thousands of times.
        let mut seen: HashSet<(usize, Vec<u8>)> = HashSet::new();
        for (id, p) in patterns.iter().enumerate() {
            let id = id as u32;
            let (prefix, rest) = split(p);
            let mut node = 0usize;
            for &b in prefix {
                let found = tmp[node].children.iter().find(|c| c.0 == b);
                node = match found {
                    Some(&(_, child)) => child as usize,
                    None => {
                        let child = tmp.len();
                        let depth = tmp[node].depth + 1;
                        tmp.push(TmpNode {
                            emit: NONE,
                            emit_end: NONE,
                            parent: node as u32,
                            byte: b,
                            depth,
                            ..Default::default()
                        });
                        tmp[node].children.push((b, child as u32));
                        child
                    }
                };
            }
            let n = &mut tmp[node];
            match rest {
                Rest::Nothing => n.emit = n.emit.min(id),
                Rest::End => n.emit_end = n.emit_end.min(id),
                Rest::Tail(tail) => {
                    let tail = tail.into_owned();
                    if seen.insert((node, tail.clone())) {
                        n.tails.push((
                            id,
                            Pattern {
                                bytes: Cow::Owned(tail),
                                syntax: Syntax::Glob,
                            },
                        ));
                    }
                }
            }
        }
        let mut trie = Trie {
            nodes: Vec::with_capacity(tmp.len()),
            child_bytes: vec![],
            child_nodes: vec![],
            skip_bytes: vec![],
        };
        let mut tails = vec![];
        let mut slots = 0;
        let mut hoist_budget = MERGE_BUDGET;
        for i in 0..tmp.len() {
            let tail = if tmp[i].tails.is_empty() {
                NONE
            } else {
                let hoisted = hoisted_tails(&tmp, i, &mut hoist_budget);
                Tails::build(hoisted, &mut tails, &mut slots)?
            };
            let t = &mut tmp[i];
            t.children.sort_unstable();
            trie.nodes.push(TrieNode {
                first_child: trie.child_bytes.len() as u32,
                child_len: t.children.len() as u32,
                emit: t.emit,
                emit_end: t.emit_end,
                tail,
                bound: NONE,
                skip_start: 0,
                skip_len: 0,
                skip_to: 0,
            });
            for &(b, c) in &t.children {
                trie.child_bytes.push(b);
                trie.child_nodes.push(c);
            }
        }
        // Children come after their parents, so one backward pass settles
        // every bound.
        for i in (0..trie.nodes.len()).rev() {
            let n = &trie.nodes[i];
            // The node's own tails: its automaton may hold upper ones.
            let own = tmp[i].tails.iter().map(|t| t.0).min().unwrap_or(NONE);
            let mut bound = n.emit.min(n.emit_end).min(own);
            let children =
                n.first_child as usize..(n.first_child + n.child_len) as usize;
            for &c in &trie.child_nodes[children] {
                bound = bound.min(trie.nodes[c as usize].bound);
            }
            trie.nodes[i].bound = bound;
        }
        trie.compress_chains();
        Ok(trie.lay_out(tails))
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.nodes.len() * std::mem::size_of::<Node>()
            + self.skip_bytes.len()
            + self.wide.len() * 256
            + self.tails.iter().map(|t| t.memory_usage()).sum::<usize>()
    }

    #[inline]
    fn child(&self, node: &Node, byte: u8) -> Option<usize> {
        let len = usize::from(node.child_len);
        let rank = if len <= NARROW {
            // The first byte equal to `byte` is the child; the zeros past
            // the children are ruled out by `len`.
            let i = equal(node.link, byte).trailing_zeros() as usize / 8;
            if i >= len {
                return None;
            }
            i
        } else if len < 256 {
            let rank = self.wide[node.link as usize][usize::from(byte)];
            usize::from(rank.checked_sub(1)?)
        } else {
            usize::from(byte)
        };
        Some(node.first_child as usize + rank)
    }

    /// The lowest tag of a pattern that matches `path`, or `NONE`.
    ///
    /// The trie is walked first; the tails met on the way are only
    /// searched after, deepest first, and only those that can still beat
    /// the best literal rule found: most paths that match a rule match a
    /// long literal one, and then a short wildcard rule near the root
    /// (amazon.com's `*/gcrnsts`) costs nothing.
    #[inline]
    pub(crate) fn find(&self, path: &[u8], cache: &mut PrefixCache) -> u32 {
        let mut met = Met::default();
        let Some(best) = self.walk_trie(path, &mut met) else {
            return self.find_many(path, cache);
        };
        if met.len == 0 {
            return best;
        }
        self.search_tails(path, &met.few[..met.len], best, cache)
    }

    /// [`PrefixEngine::find`] for a path that meets more nodes with tails
    /// than [`Met`] holds: the list of them in the cache.
    #[cold]
    #[inline(never)]
    fn find_many(&self, path: &[u8], cache: &mut PrefixCache) -> u32 {
        let mut pending = std::mem::take(&mut cache.pending);
        pending.clear();
        let best = self
            .walk_trie(path, &mut pending)
            .expect("a vector takes every tail");
        let best = self.search_tails(path, &pending, best, cache);
        cache.pending = pending;
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
        cache: &mut PrefixCache,
    ) -> u32 {
        cache.stamped = false;
        let mut i = met.len();
        while i > 0 {
            i -= 1;
            let (tail, pos) = met[i];
            let tails = &self.tails[tail as usize];
            let from = (pos - tails.reach) as usize;
            cache.base = from;
            best = tails.find_from(&path[from..], best, cache);
            // The tails of the nodes above that this node's automaton
            // holds too: they were met just before it.
            i -= tails.covers as usize;
        }
        if !cache.groups.is_empty() {
            best = self.search_groups(path, best, cache);
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
        cache: &mut PrefixCache,
    ) -> u32 {
        while let Some((tails, at)) = cache.groups.pop() {
            cache.base = at;
            best =
                self.tails[tails as usize].find_from(&path[at..], best, cache);
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
            best = best.min(node.emit);
            if pos == path.len() {
                best = best.min(node.emit_end);
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

impl Trie {
    /// Gives every node that a scan can stand on and that starts a chain
    /// of single-child nodes without patterns the chain's bytes, so a scan
    /// crosses the chain with one comparison.
    fn compress_chains(&mut self) {
        let has_payload = |n: &TrieNode| {
            n.emit != NONE || n.emit_end != NONE || n.tail != NONE
        };
        let mut stack = vec![0u32];
        while let Some(i) = stack.pop() {
            let n = &self.nodes[i as usize];
            let first = n.first_child as usize;
            if n.child_len != 1 {
                stack.extend(
                    &self.child_nodes[first..first + n.child_len as usize],
                );
                continue;
            }
            let start = self.skip_bytes.len();
            self.skip_bytes.push(self.child_bytes[first]);
            let mut to = self.child_nodes[first];
            loop {
                let c = &self.nodes[to as usize];
                let full =
                    self.skip_bytes.len() - start == usize::from(u16::MAX);
                if has_payload(c) || c.child_len != 1 || full {
                    break;
                }
                let f = c.first_child as usize;
                self.skip_bytes.push(self.child_bytes[f]);
                to = self.child_nodes[f];
            }
            let n = &mut self.nodes[i as usize];
            n.skip_start = start as u32;
            n.skip_len = (self.skip_bytes.len() - start) as u32;
            n.skip_to = to;
            stack.push(to);
        }
    }

    /// The nodes a scan can stand on, laid out for it: breadth first, so
    /// that a node's children are consecutive.
    ///
    /// The nodes inside a compressed chain are crossed by one comparison
    /// and never visited, and in most robots.txt files they are most of
    /// the trie (a rule's bytes after the last place it branches from the
    /// others): they are left out.
    ///
    /// PERF: in crawl mode, where thousands of robots.txt files stay
    /// compiled at once, this is what bounds how many fit in the cache.
    fn lay_out(self, tails: Vec<Tails>) -> PrefixEngine {
        // Each kept node's new index, and the kept nodes in that order,
        // with the byte that leads to each.
        let mut index = vec![NONE; self.nodes.len()];
        let mut order: Vec<(u32, u8)> = vec![(0, 0)];
        index[0] = 0;
        let mut at = 0;
        while at < order.len() {
            let n = &self.nodes[order[at].0 as usize];
            at += 1;
            let first = n.first_child as usize;
            let (next, bytes) = if n.skip_len > 0 {
                // The byte is never read: a chain's end has no siblings.
                (std::slice::from_ref(&n.skip_to), &[0][..])
            } else {
                let range = first..first + n.child_len as usize;
                (&self.child_nodes[range.clone()], &self.child_bytes[range])
            };
            for (&c, &b) in next.iter().zip(bytes) {
                debug_assert_eq!(index[c as usize], NONE, "a tree");
                index[c as usize] = order.len() as u32;
                order.push((c, b));
            }
        }
        // Per kept node, the byte that leads to it: a node's children's
        // bytes are a range of this, sorted.
        let child_bytes: Vec<u8> = order.iter().map(|&(_, b)| b).collect();
        let mut engine = PrefixEngine {
            nodes: Vec::with_capacity(order.len()),
            skip_bytes: self.skip_bytes,
            wide: vec![],
            tails,
            lead: None,
        };
        for &(old, _) in &order {
            let n = &self.nodes[old as usize];
            let (first_child, child_len) = if n.skip_len > 0 {
                (index[n.skip_to as usize], 0)
            } else if n.child_len > 0 {
                let first = self.child_nodes[n.first_child as usize];
                (index[first as usize], n.child_len as u16)
            } else {
                (0, 0)
            };
            let lo = first_child as usize;
            let bytes = &child_bytes[lo..lo + usize::from(child_len)];
            let link = if n.skip_len > 0 {
                u64::from(n.skip_start)
            } else if bytes.len() <= NARROW {
                bytes.iter().rev().fold(0, |link, &b| link << 8 | u64::from(b))
            } else if bytes.len() < 256 {
                let mut table = [0u8; 256];
                for (i, &b) in bytes.iter().enumerate() {
                    table[usize::from(b)] = i as u8 + 1;
                }
                engine.wide.push(table);
                (engine.wide.len() - 1) as u64
            } else {
                // All 256 children, sorted: a child's rank is its byte.
                debug_assert!(bytes
                    .iter()
                    .enumerate()
                    .all(|(i, &b)| i == usize::from(b)));
                0
            };
            engine.nodes.push(Node {
                first_child,
                child_len,
                skip_len: n.skip_len as u16,
                emit: n.emit,
                emit_end: n.emit_end,
                tail: n.tail,
                bound: n.bound,
                link,
            });
        }
        let root = &engine.nodes[0];
        let bare =
            root.emit == NONE && root.emit_end == NONE && root.tail == NONE;
        if bare && root.skip_len == 1 {
            let byte = engine.skip_bytes[root.link as usize];
            engine.lead = Some((byte, root.first_child));
        }
        engine
    }
}

/// The wildcard tails of the patterns that share one literal prefix.
///
/// After canonicalisation a tail is `*S1*S2...*Sk`, maybe followed by `$`,
/// with every `Si` a non-empty literal. It matches the rest of the path
/// when `S1` occurs in it and the other literals follow in order (the last
/// one ending the path when there is a `$`); taking the leftmost occurrence
/// of each literal in turn is enough, since it leaves the most room for
/// the next. So one Aho-Corasick automaton over the `S1` of every tail
/// finds the candidates in one pass, a one-literal tail is decided by the
/// hit itself, and a longer one is checked once per path with prebuilt
/// substring finders; longer ones that share `S1` are a group, an
/// automaton of the same kind over their `*S2...` (see [`Tails::new`]).
///
/// N.B. Determinizing these tails instead (as the `dense` engine does)
/// blows up: each multi-star tail doubles the states of every other, and
/// each single-star one keeps its `.*` loop in every state. ebay.com's
/// tails took 25 s to fail a 16 MiB limit that way; this takes
/// milliseconds and memory proportional to the rules' bytes.
///
/// A node's automaton also holds the tails of the nodes just above it on
/// the way from the root (see [`hoisted_tails`]), so that a path that
/// meets both walks one automaton, not two.
#[derive(Clone, Debug)]
struct Tails {
    /// Over each tail's first literal; `None` when there are so few tails
    /// that checking each one with its own finders is cheaper than
    /// starting an overlapping Aho-Corasick search.
    ac: Option<Ac>,
    /// Per Aho-Corasick pattern (a distinct first literal, per offset
    /// and kind of tail, see [`Tails::new`]); per tail, in tag order, when
    /// `ac` is `None`.
    entries: Vec<TailEntry>,
    /// What a match state's report needs of its entry, in the order of
    /// [`Firsts::match_slot`].
    reports: Vec<Report>,
    min_id: u32,
    /// How far above the node the search starts: the depth of the node
    /// minus that of the highest node whose tails are held here.
    reach: u32,
    /// How many nodes above this one have their tails held here: the
    /// nodes with tails that a scan met just before this one.
    covers: u32,
    /// Where a walk starts: the state after the `reach` bytes every search
    /// starts with, and how many they are; or the start state and 0 when
    /// those bytes pass a match state.
    ///
    /// PERF: ebay.com's paths below `/b/` walk the automaton that holds
    /// the tails of `/` too from `b/`: two bytes of about fifteen, in a
    /// walk whose every byte waits on the previous one's load.
    lead: (State, usize),
}

/// A tail entry as the walk first looks at it, when the automaton reports
/// the entry's first literal.
///
/// PERF: read from a list in the automaton's own order of reports, these
/// take one load after the match state's range where the entry took two
/// (its index, then the entry), and four fit a cache line.
#[derive(Clone, Copy, Debug)]
struct Report {
    /// As in [`TailEntry`].
    id: u32,
    min_end: u32,
    /// The entry's index when the tail has more literals to check, else
    /// `NONE`.
    more: u32,
    /// Whether the tail ends with `$`.
    end: bool,
}

impl Report {
    fn of(entries: &[TailEntry], index: usize) -> Report {
        let e = &entries[index];
        Report {
            id: e.id,
            min_end: e.min_end,
            more: if e.literals.len() <= 1 && e.sub == NONE {
                NONE
            } else {
                index as u32
            },
            end: e.end,
        }
    }
}

/// The tails an automaton holds: its node's own and, when it has enough
/// to need Aho-Corasick, those of the nodes above it, each with where its
/// rest of the path starts.
struct Hoisted {
    /// `(tag, canonical tail, offset)`: the tail must match from
    /// `offset` bytes after where the search starts.
    tails: Vec<(u32, Pattern<'static>, u32)>,
    /// The last bytes of the node's prefix, from the highest node whose
    /// tails are held: the first bytes of every search, known in advance
    /// (their number is the reach).
    reached: Vec<u8>,
    covers: u32,
}

/// The tails that node `node` of `tmp` searches for.
///
/// Most paths below a node with many tails (ebay.com's 295 under `/b/`)
/// also pass a node with a few (its 8 under `/`), and then the path is
/// walked twice, the second walk a chain of dependent loads as long as
/// the first. Here the few ride along in the many's automaton: the search
/// starts at the upper node, and a first literal of a lower node's tail
/// counts only where it starts inside that node's rest of the path
/// (checked from where the literal ends, see [`Tails::consider`]).
///
/// PERF: on ebay.com's 2 M generated URLs (scripts/bench), with its 8
/// tails under `/` held by the 295 under `/b/`, one thread went from 0.335
/// to 0.312 s; verdicts identical.
///
/// N.B. Only nodes close above (by [`MAX_REACH`] bytes) with few tails
/// (up to [`MERGE_MAX`]) are taken, up to [`MERGE_BUDGET`] copies in the
/// whole trie, so that a hostile file cannot multiply its tails; and a
/// node's upper nodes are taken in order up from it, stopping at the
/// first one that cannot be, since the scan skips exactly the last
/// `covers` nodes it met.
fn hoisted_tails(tmp: &[TmpNode], node: usize, budget: &mut usize) -> Hoisted {
    let depth = tmp[node].depth;
    let mut groups = vec![(depth, &tmp[node].tails)];
    if tmp[node].tails.len() > DIRECT_TAILS {
        let mut up = node;
        while up != 0 {
            up = tmp[up].parent as usize;
            let t = &tmp[up];
            if t.tails.is_empty() {
                continue;
            }
            let n = t.tails.len();
            if depth - t.depth > MAX_REACH || n > MERGE_MAX || n > *budget {
                break;
            }
            *budget -= n;
            groups.push((t.depth, &t.tails));
        }
    }
    let top = groups.last().map_or(depth, |g| g.0);
    let mut reached = vec![];
    let mut at = node;
    while tmp[at].depth > top {
        reached.push(tmp[at].byte);
        at = tmp[at].parent as usize;
    }
    reached.reverse();
    let tails = groups
        .iter()
        .flat_map(|&(d, tails)| {
            tails.iter().map(move |(id, p)| (*id, p.clone(), d - top))
        })
        .collect();
    Hoisted { tails, reached, covers: groups.len() as u32 - 1 }
}

/// How far above a node (in bytes of prefix) the tails it holds can be.
const MAX_REACH: u32 = 16;

/// How many tails a node above can have for a node below to hold them.
const MERGE_MAX: usize = 64;

/// How many copies of tails the nodes of one trie can hold in all.
const MERGE_BUDGET: usize = 4096;

/// The Aho-Corasick automaton over the first literals of a node's tails:
/// a DFA for modest literal sets, its states in 16 bits when they fit,
/// else the sparse automaton. Walked by hand (see [`Tails::find_from`]), with
/// static dispatch.
// N.B. One per node with tails, in a vector: a box would cost each
// search one more load.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
enum Ac {
    Dfa16(FirstsDfa<u16>),
    Sparse(Sparse),
}

impl Ac {
    fn memory_usage(&self) -> usize {
        match self {
            Ac::Dfa16(a) => a.memory_usage(),
            Ac::Sparse(a) => a.memory_usage(),
        }
    }
}

/// Up to this many tails at one node are checked one by one.
///
/// PERF: on amazon.com, whose root holds the one tail `*/gcrnsts`, a
/// memmem search is about three times cheaper per path than setting up
/// and running an overlapping Aho-Corasick search for the same literal.
const DIRECT_TAILS: usize = 2;

/// Up to this many bytes of first literals get an Aho-Corasick DFA (when
/// its states fit 16 bits; else the sparse automaton walks).
///
/// PERF: a table of 32-bit states is at least 256 KiB (more than 65,535
/// cells): dreamstime.com's 750 rules `/*/*-<word>.html` are a group whose
/// table took 1.9 MB, for 30 KB of rules. The sparse automaton takes a
/// tenth of that, and its paths still cost a tenth of what checking each
/// tail's literals one by one cost.
const AC_DFA_BYTES: usize = 16 * 1024;

#[derive(Clone, Debug)]
struct TailEntry {
    /// The pattern's priority tag.
    id: u32,
    /// The least end, from where the search starts, of an occurrence of
    /// the first literal that counts: for the tails of the automaton's
    /// own node, the reach plus the literal's length (with a reach of 0,
    /// every occurrence counts).
    min_end: u32,
    /// Whether the tail ends with `$`.
    end: bool,
    /// The first literal, then the others, and the tail's slot in the
    /// per-scan "already checked" stamps (which one-literal tails do not
    /// use). Empty when the automaton finds the one literal there is to
    /// find (a one-literal tail's, a group's).
    literals: Vec<memmem::Finder<'static>>,
    slot: u32,
    /// When the entry stands for a group of tails that share their first
    /// literal, the index of the group's automaton (over the rest of each
    /// tail), which the scan searches from where the literal ends; its
    /// `literals` are then the first alone. Else `NONE`.
    sub: u32,
}

impl TailEntry {
    /// The literals after the first.
    fn more(&self) -> &[memmem::Finder<'static>] {
        &self.literals[1..]
    }
}

/// Where a trie walk notes the nodes with tails it meets, and where their
/// rest of the path starts.
trait MetTails {
    /// Notes a node's `tail` met at `pos`; false when there is no room.
    fn note(&mut self, tail: u32, pos: u32) -> bool;
}

/// The nodes with tails that a trie walk met, when they are few: on the
/// stack.
///
/// PERF: in a vector of the cache, taken out and put back around the
/// search (its borrow), with a capacity check at each push, they took 20
/// instructions a URL on ebay.com's paths, which meet one or two.
#[derive(Default)]
struct Met {
    few: [(u32, u32); Met::FEW],
    len: usize,
}

impl Met {
    const FEW: usize = 8;
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

/// Per-thread state of the trie engine: which multi-literal tails a scan
/// has already checked, so each is checked at most once per path.
#[derive(Clone, Debug, Default)]
pub(crate) struct PrefixCache {
    /// The tails a trie walk met, with where their rest of the path
    /// starts, to be searched once the walk is done, when they are more
    /// than [`Met`] holds.
    pending: Vec<(u32, u32)>,
    /// Per tail of more than one literal, the scan that last checked it.
    stamps: Vec<u32>,
    /// The scan count: the stamp of a tail checked in this scan.
    generation: u32,
    /// Whether this scan has been counted yet.
    ///
    /// PERF: counted the first time a tail is checked, which few scans
    /// do, rather than at the start of every one: 12 instructions a URL on
    /// ebay.com.
    stamped: bool,
    /// The Aho-Corasick match states a tail search has reported.
    visited: Visited,
    /// The groups of tails found, to be searched once the walk is done,
    /// each with where its search starts in the path.
    groups: Vec<(u32, usize)>,
    /// Where in the path the rest that the current search walks starts.
    base: usize,
}

/// A set of Aho-Corasick states, cleared per tail search.
///
/// PERF: a search reaches a handful of match states, where a linear
/// search of a short list beats hashing; hostile tails can make it reach
/// thousands, and then a hash set keeps the search linear.
#[derive(Clone, Debug, Default)]
struct Visited {
    few: Vec<State>,
    many: std::collections::HashSet<State>,
}

impl Visited {
    /// Up to this many states are kept in the list.
    const FEW: usize = 16;

    fn clear(&mut self) {
        self.few.clear();
        if !self.many.is_empty() {
            self.many.clear();
        }
    }

    /// Takes `sid` out of the set.
    fn remove(&mut self, sid: State) {
        self.few.retain(|&s| s != sid);
        self.many.remove(&sid);
    }

    /// True when `sid` was not in the set yet.
    ///
    /// PERF: the short list inline, the hash set apart: as one call this
    /// was 1.7% of ebay.com's time.
    #[inline]
    fn insert(&mut self, sid: State) -> bool {
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

impl PrefixCache {
    /// Counts a scan: every tail is unchecked again.
    fn next_scan(&mut self) {
        if self.generation == u32::MAX {
            self.stamps.fill(0);
            self.generation = 0;
        }
        self.generation += 1;
    }

    /// True the first time a slot is seen in this scan.
    fn first_visit(&mut self, slot: u32) -> bool {
        if !self.stamped {
            self.stamped = true;
            self.next_scan();
        }
        let slot = slot as usize;
        if slot >= self.stamps.len() {
            // 0 is no scan's count.
            self.stamps.resize(slot + 1, 0);
        }
        let stamp = &mut self.stamps[slot];
        let first = *stamp != self.generation;
        *stamp = self.generation;
        first
    }
}

impl Tails {
    /// Builds the automaton of a node's tails into `all`, and after it
    /// those of the groups its tails lead to (see [`Tails::new`]); the
    /// node's index in `all`.
    ///
    /// N.B. A queue, not recursion: tails that share literal after
    /// literal (`*a*a*a…*b`, `*a*a*a…*c`) nest a group per literal.
    fn build(
        hoisted: Hoisted,
        all: &mut Vec<Tails>,
        slots: &mut u32,
    ) -> Result<u32, String> {
        let first = all.len() as u32;
        let mut queue = VecDeque::from([hoisted]);
        while let Some(hoisted) = queue.pop_front() {
            // The groups queued so far take the indexes after this one.
            let next = (all.len() + 1 + queue.len()) as u32;
            let (tails, groups) = Tails::new(hoisted, slots, next)?;
            all.push(tails);
            queue.extend(groups);
        }
        Ok(first)
    }

    /// Each tail starts with `*`. Returns the automaton and the groups it
    /// leads to, which are to take the indexes from `next` on.
    ///
    /// The automaton's patterns are the distinct first literals (per
    /// offset, and per kind of tail: one literal, one literal and `$`,
    /// more). Tails of more literals that share their first are a group:
    /// one pattern, whose hit searches the group's own automaton over
    /// their second literals from there. So a first literal that a
    /// hundred thousand tails share is one pattern, and a path checks each
    /// group once, however many tails it holds, where it checked every
    /// tail's further literals one by one.
    fn new(
        hoisted: Hoisted,
        slots: &mut u32,
        next: u32,
    ) -> Result<(Tails, Vec<Hoisted>), String> {
        let Hoisted { mut tails, reached, covers } = hoisted;
        let reach = reached.len() as u32;
        let direct = tails.len() <= DIRECT_TAILS;
        if direct {
            debug_assert_eq!(covers, 0, "only automata hold upper tails");
            tails.sort_by_key(|&(id, _, _)| id);
        }
        let mut entries = vec![];
        let mut groups: Vec<Hoisted> = vec![];
        // Per (first literal, offset, kind), its entry; per entry, the
        // first of its tails.
        let mut keys: HashMap<(&[u8], u32, u8), usize> = HashMap::new();
        let mut first_tail: Vec<usize> = vec![];
        // Per entry, its first literal.
        let mut firsts: Vec<&[u8]> = vec![];
        for (t, (id, p, offset)) in tails.iter().enumerate() {
            let (literals, end) = tail_literals(&p.bytes);
            let kind = match (literals.len(), end) {
                (1, false) => 0,
                (1, true) => 1,
                _ => 2,
            };
            let key = (literals[0], *offset, kind);
            let known = if direct { None } else { keys.get(&key).copied() };
            if let Some(at) = known {
                let e: &mut TailEntry = &mut entries[at];
                e.id = e.id.min(*id);
                if kind == 2 {
                    if e.sub == NONE {
                        // The entry's tail becomes the group's first.
                        let (id0, ref p0, _) = tails[first_tail[at]];
                        e.literals.clear();
                        e.end = false;
                        e.sub = next + groups.len() as u32;
                        groups.push(Hoisted {
                            tails: vec![(id0, after_first(p0), 0)],
                            reached: vec![],
                            covers: 0,
                        });
                    }
                    let group = &mut groups[(e.sub - next) as usize];
                    group.tails.push((*id, after_first(p), 0));
                }
                continue;
            }
            let slot = if direct || literals.len() == 1 {
                0
            } else {
                *slots += 1;
                *slots - 1
            };
            let min_end = offset + literals[0].len() as u32;
            firsts.push(literals[0]);
            // The automaton finds the first literal: finders only for
            // what else is checked.
            let literals = if direct || literals.len() > 1 {
                literals
                    .iter()
                    .map(|l| memmem::Finder::new(l).into_owned())
                    .collect()
            } else {
                vec![]
            };
            keys.insert(key, entries.len());
            first_tail.push(t);
            entries.push(TailEntry {
                id: *id,
                min_end,
                end,
                literals,
                slot,
                sub: NONE,
            });
        }
        let ac = if direct {
            None
        } else {
            let firsts = firsts.iter().copied();
            let bytes: usize = firsts.clone().map(<[u8]>::len).sum();
            // PERF: a full DFA scans about twice as fast as a sparse
            // automaton on ebay.com's 1,250 wildcard tails; its size grows
            // with states times byte classes, so only for modest literal
            // sets.
            let sparse = Sparse::new(firsts.clone());
            let ac = if bytes <= AC_DFA_BYTES {
                match FirstsDfa::new(&sparse, firsts) {
                    Some(table) => Ac::Dfa16(table),
                    None => Ac::Sparse(sparse),
                }
            } else {
                Ac::Sparse(sparse)
            };
            Some(ac)
        };
        // In the order of `Firsts::match_slot`.
        let order = match &ac {
            Some(Ac::Dfa16(a)) => Some(a.report_order()),
            Some(Ac::Sparse(_)) | None => None,
        };
        let reports = match order {
            Some(order) => order
                .iter()
                .map(|&i| Report::of(&entries, i as usize))
                .collect(),
            None => {
                (0..entries.len()).map(|i| Report::of(&entries, i)).collect()
            }
        };
        let min_id = entries.iter().map(|e| e.id).min().unwrap_or(NONE);
        let lead = match &ac {
            Some(Ac::Dfa16(a)) => lead(a, &reached),
            Some(Ac::Sparse(a)) => lead(a, &reached),
            None => (0, 0),
        };
        let tails =
            Tails { ac, entries, reports, min_id, reach, covers, lead };
        Ok((tails, groups))
    }

    fn memory_usage(&self) -> usize {
        self.ac.as_ref().map_or(0, |ac| ac.memory_usage())
            + self.reports.len() * std::mem::size_of::<Report>()
            + self
                .entries
                .iter()
                .map(|e| {
                    std::mem::size_of::<TailEntry>()
                        + e.literals
                            .iter()
                            .map(|f| f.needle().len() + 64)
                            .sum::<usize>()
                })
                .sum::<usize>()
    }

    #[inline]
    fn find_from(
        &self,
        rest: &[u8],
        best: u32,
        cache: &mut PrefixCache,
    ) -> u32 {
        if best <= self.min_id {
            return best;
        }
        let Some(ref ac) = self.ac else {
            for e in &self.entries {
                if e.id >= best {
                    break;
                }
                if follows(rest, 0, e.literals.iter(), e.end) {
                    return e.id;
                }
            }
            return best;
        };
        match ac {
            Ac::Dfa16(a) => self.walk(a, rest, best, cache),
            Ac::Sparse(a) => self.walk(a, rest, best, cache),
        }
    }

    /// The best tail that matches `rest`, by one walk of the Aho-Corasick
    /// automaton `ac` over it.
    ///
    /// An overlapping search would report every first literal at every
    /// position where it ends: on hostile tails (`*a`, `*aa`, ... over a
    /// path of `a`s) that is the path's length times the number of tails.
    /// But a state always reports the same literals, and the first time a
    /// literal is reported is its leftmost occurrence, which is all a tail
    /// needs (its other literals then get the most room). So each match
    /// state's literals are looked at the first time the walk reaches it:
    /// the work is the path's length plus, at most, every state's
    /// literals once. The one exception is a one-literal tail ending with
    /// `$`, which needs the literal at the very end: the last state's
    /// literals are looked at again for those.
    ///
    /// With the tails of a lower node held (a reach above 0), a state can
    /// report a lower tail's literal that starts too early to count; the
    /// state is then looked at again when next reached. An occurrence
    /// that starts too early starts within the reach, so that happens at
    /// most reach times per literal.
    ///
    /// PERF: not inlined, so that the loop keeps its pointers in
    /// registers (inlined into the scan it reloaded three from the stack
    /// at every byte): ebay.com, 2 M URLs, 0.294 -> 0.289 s.
    #[inline(never)]
    fn walk<A: Firsts>(
        &self,
        ac: &A,
        rest: &[u8],
        mut best: u32,
        cache: &mut PrefixCache,
    ) -> u32 {
        cache.visited.clear();
        let (mut sid, mut end) = self.lead;
        debug_assert!(end <= rest.len());
        // N.B. One index, both the byte's place and (after it) the end
        // of a literal: with `enumerate` the loop kept a pointer and a
        // count.
        while end < rest.len() {
            sid = ac.next(sid, rest[end]);
            end += 1;
            if ac.is_match(sid) && cache.visited.insert(sid) {
                let settled;
                (best, settled) =
                    self.consider(ac, sid, rest, end, best, cache);
                if best <= self.min_id {
                    return best;
                }
                if !settled {
                    cache.visited.remove(sid);
                }
            }
        }
        if ac.is_match(sid) {
            // Only the `$` one-literal tails can gain here; the others
            // were looked at the first time this state was reached.
            best = self.consider(ac, sid, rest, rest.len(), best, cache).0;
        }
        best
    }

    /// The best of `best` and the tails whose first literal the state
    /// `sid` reports, the literal ending at `end`; and whether the state
    /// is settled: whether every tail it reports was looked at (a literal
    /// that starts before its tail's rest of the path is not).
    #[inline(always)]
    fn consider<A: Firsts>(
        &self,
        ac: &A,
        sid: State,
        rest: &[u8],
        end: usize,
        mut best: u32,
        cache: &mut PrefixCache,
    ) -> (u32, bool) {
        let mut settled = true;
        for k in 0..ac.match_len(sid) {
            let r = self.reports[ac.match_slot(sid, k)];
            if r.id >= best {
                continue;
            }
            if end < r.min_end as usize {
                settled = false;
                continue;
            }
            let hit = if r.more == NONE {
                !r.end || end == rest.len()
            } else {
                self.more_follow(r.more, rest, end, cache)
            };
            if hit {
                best = r.id;
            }
        }
        (best, settled)
    }

    /// Whether the other literals of tail `entry`, whose first ends at
    /// `end`, follow in `rest`, if this scan has not checked them yet.
    ///
    /// PERF: apart, so that [`Tails::consider`] makes no call of its own
    /// in the common case (every tail of one literal) and can be part of
    /// the walk: with this search inside, it was a call that saved six
    /// registers and spilled five more around the search. ebay.com, 200k
    /// URLs, -j1: 1,120.6 -> 1,100.0 instructions a URL; 2 M URLs, best of
    /// 15 interleaved runs 0.2317 -> 0.2266 s.
    #[cold]
    #[inline(never)]
    fn more_follow(
        &self,
        entry: u32,
        rest: &[u8],
        end: usize,
        cache: &mut PrefixCache,
    ) -> bool {
        let e = &self.entries[entry as usize];
        if !cache.first_visit(e.slot) {
            return false;
        }
        if e.sub != NONE {
            // Searched once this walk is done (see `search_groups`).
            cache.groups.push((e.sub, cache.base + end));
            return false;
        }
        follows(rest, end, e.more().iter(), e.end)
    }
}

/// The literals of a canonical tail (which starts with `*`) and whether
/// it ends with `$`.
///
/// N.B. A canonical tail's literals are non-empty but for one case: a
/// final empty literal after a literal `$` (`*a$*`), which any rest
/// matches; it is dropped, so that a tail's first literal is never empty.
fn tail_literals(tail: &[u8]) -> (Vec<&[u8]>, bool) {
    let (body, end) = match tail.split_last() {
        Some((b'$', body)) => (body, true),
        _ => (tail, false),
    };
    let mut literals: Vec<&[u8]> = body[1..].split(|&b| b == b'*').collect();
    if !end && literals.len() > 1 && literals.last() == Some(&&b""[..]) {
        literals.pop();
    }
    (literals, end)
}

/// A tail of more than one literal without its first: `*S2…`, canonical.
fn after_first(tail: &Pattern) -> Pattern<'static> {
    let star = memchr::memchr(b'*', &tail.bytes[1..])
        .expect("a tail of more than one literal has a second star");
    Pattern {
        bytes: Cow::Owned(tail.bytes[1 + star..].to_vec()),
        syntax: Syntax::Glob,
    }
}

/// The state of `ac` after `bytes` from its start, and their number;
/// or its start and 0 when a match state comes on the way.
fn lead<A: Firsts>(ac: &A, bytes: &[u8]) -> (State, usize) {
    let mut sid = ac.start();
    for &b in bytes {
        sid = ac.next(sid, b);
        if ac.is_match(sid) {
            return (ac.start(), 0);
        }
    }
    (sid, bytes.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine finds what the naive engine finds on every path.
    fn assert_agrees_with_naive(
        engine: &PrefixEngine,
        naive: &super::super::NaiveEngine,
        patterns: &[Pattern],
        paths: impl Iterator<Item = Vec<u8>>,
    ) {
        let (mut cache, mut naive_cache) = Default::default();
        for path in paths {
            assert_eq!(
                engine.find(&path, &mut cache),
                naive.find(&path, &mut naive_cache),
                "{:?} on {:?}",
                String::from_utf8_lossy(&path),
                patterns
                    .iter()
                    .map(|p| String::from_utf8_lossy(&p.bytes))
                    .collect::<Vec<_>>(),
            );
        }
    }

    /// Each of `patterns` as a glob pattern.
    fn globs(patterns: &[Vec<u8>]) -> Vec<Pattern<'_>> {
        patterns
            .iter()
            .map(|p| Pattern { bytes: Cow::Borrowed(p), syntax: Syntax::Glob })
            .collect()
    }

    fn engine(patterns: &[&str]) -> PrefixEngine {
        let patterns: Vec<Pattern> = patterns
            .iter()
            .map(|p| Pattern {
                bytes: Cow::Borrowed(p.as_bytes()),
                syntax: Syntax::Glob,
            })
            .collect();
        PrefixEngine::new(&patterns).unwrap()
    }

    /// A path that starts with the root's one-byte chain skips the root
    /// only when the root holds no pattern: a tail of its own (`*b`) or
    /// `$` alone is still found.
    #[test]
    fn the_lead_skips_only_a_bare_root() {
        let sets: [&[&str]; 4] = [
            &["/x", "/y"],
            &["*b", "/x", "/y"],
            &["*b", "*c", "*/", "/x", "/y", "/b/*c", "/b/*d", "/b/*e"],
            &["$", "/x", "/y"],
        ];
        for patterns in sets {
            let e = engine(patterns);
            assert_eq!(e.lead.is_some(), patterns.len() == 2, "{patterns:?}");
            let bytes: Vec<Vec<u8>> =
                patterns.iter().map(|p| p.as_bytes().to_vec()).collect();
            let naive = super::super::NaiveEngine::new(&globs(&bytes));
            let (mut cache, mut naive_cache) = Default::default();
            for path in ["", "/", "/b", "/x", "/y", "/b/c", "/b/z", "b", "x/"]
            {
                assert_eq!(
                    e.find(path.as_bytes(), &mut cache),
                    naive.find(path.as_bytes(), &mut naive_cache),
                    "{path:?} on {patterns:?}"
                );
            }
        }
    }

    /// Nodes of every width, narrow (children in the node's word), wide
    /// (a table) and full (all 256 bytes), against every byte, `\0`
    /// included (the padding of a narrow node's word): the child found is
    /// the naive engine's.
    #[test]
    fn children_of_every_width_agree_with_naive() {
        for width in (0..=NARROW + 2).chain([200, 255, 256]) {
            // Children spread over the byte values, `\0` among them only
            // in the widest, each a pattern of its own plus a deeper one,
            // so the child is a node with patterns and children.
            let mut p: Vec<Vec<u8>> = vec![];
            for k in 0..width {
                let b = ((k * 97 + 1) % 256) as u8;
                p.push(vec![b'/', b]);
                p.push(vec![b'/', b, b'z']);
            }
            p.push(b"/".to_vec());
            let patterns = globs(&p);
            let engine = PrefixEngine::new(&patterns).unwrap();
            let naive = super::super::NaiveEngine::new(&patterns);
            let (mut cache, mut naive_cache) = Default::default();
            for b in 0..=255u8 {
                for path in [vec![b'/', b], vec![b'/', b, b'z']] {
                    assert_eq!(
                        engine.find(&path, &mut cache),
                        naive.find(&path, &mut naive_cache),
                        "width {width}, path {path:?}"
                    );
                }
            }
        }
    }

    /// Chains of up to 11 bytes: a path that leaves a chain at any byte,
    /// or ends inside it, matches only what the naive engine matches.
    #[test]
    fn chains_of_every_length_agree_with_naive() {
        let long = b"/abcdefghijkl";
        for len in 1..long.len() {
            // `/x` makes `/` branch, so the chain below `/a` is the
            // pattern's last `len - 1` bytes.
            let p = [long[..=len].to_vec(), b"/x".to_vec()];
            let patterns = globs(&p);
            let engine = PrefixEngine::new(&patterns).unwrap();
            let naive = super::super::NaiveEngine::new(&patterns);
            let (mut cache, mut naive_cache) = Default::default();
            let mut paths = vec![];
            for cut in 0..=long.len() {
                paths.push(long[..cut].to_vec());
                for at in 1..cut {
                    let mut wrong = long[..cut].to_vec();
                    wrong[at] ^= 0x20;
                    paths.push(wrong);
                }
            }
            for path in &paths {
                assert_eq!(
                    engine.find(path, &mut cache),
                    naive.find(path, &mut naive_cache),
                    "{:?} against {:?}",
                    String::from_utf8_lossy(path),
                    String::from_utf8_lossy(&p[0]),
                );
            }
        }
    }

    /// Nodes close below one another, each with enough tails for an
    /// automaton, whose first literals often start inside the prefixes
    /// (`b/`, `/x`): the automata that hold the tails of the nodes above
    /// must find what separate searches find, no more.
    #[test]
    fn hoisted_tails_agree_with_naive() {
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move |n: usize| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng % n as u64) as usize
        };
        let prefixes = ["", "/", "/b", "/b/", "/b/x", "/b/xb/", "/bb"];
        let alphabet = b"/bx$*";
        let mut hoisted = 0;
        for _ in 0..3_000 {
            let mut patterns = vec![];
            for _ in 0..1 + next(14) {
                let mut p = prefixes[next(prefixes.len())].as_bytes().to_vec();
                p.push(b'*');
                for _ in 0..1 + next(5) {
                    p.push(alphabet[next(alphabet.len())]);
                }
                patterns.push(p);
            }
            let patterns = globs(&patterns);
            let engine = PrefixEngine::new(&patterns).unwrap();
            hoisted += engine.tails.iter().filter(|t| t.covers > 0).count();
            let naive = super::super::NaiveEngine::new(&patterns);
            let paths = (0..40).map(|_| -> Vec<u8> {
                (0..next(12)).map(|_| alphabet[next(4)]).collect()
            });
            assert_agrees_with_naive(&engine, &naive, &patterns, paths);
        }
        // The test means something only if automata hold upper tails.
        assert!(hoisted > 1_000, "{hoisted}");
    }

    /// Tails that share their first literals, nested groups deep, with
    /// `$` ends and literal `$`s, repeated and spelt with extra stars,
    /// under nodes whose automata also hold upper tails: the groups find
    /// what the naive engine finds.
    #[test]
    fn groups_of_tails_agree_with_naive() {
        let mut rng = 0x5851_F42D_4C95_7F2Du64;
        let mut next = move |n: usize| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng % n as u64) as usize
        };
        let prefixes = ["", "/", "/b", "/b/"];
        let words = ["a", "b", "ab", "ba", "a$", "/"];
        let (mut groups, mut nested) = (0, 0);
        for _ in 0..600 {
            let mut patterns = vec![];
            for _ in 0..3 + next(40) {
                let mut p = prefixes[next(prefixes.len())].as_bytes().to_vec();
                for _ in 0..1 + next(4) {
                    p.extend_from_slice(if next(8) == 0 {
                        b"**"
                    } else {
                        b"*"
                    });
                    p.extend_from_slice(words[next(words.len())].as_bytes());
                }
                match next(4) {
                    0 => p.push(b'$'),
                    1 => p.push(b'*'),
                    _ => {}
                }
                patterns.push(p);
            }
            let patterns = globs(&patterns);
            let engine = PrefixEngine::new(&patterns).unwrap();
            let subs = engine
                .tails
                .iter()
                .flat_map(|t| &t.entries)
                .filter(|e| e.sub != NONE)
                .count();
            groups += subs;
            nested += usize::from(subs > 1);
            let naive = super::super::NaiveEngine::new(&patterns);
            let paths = (0..60).map(|_| -> Vec<u8> {
                (0..next(14)).map(|_| b"ab/$"[next(4)]).collect()
            });
            assert_agrees_with_naive(&engine, &naive, &patterns, paths);
        }
        // The test means something only if there are groups, and groups
        // within groups.
        assert!(groups > 1_000 && nested > 100, "{groups} {nested}");
    }

    /// Repeated tails are kept once, and tails that share their first
    /// literal are one pattern of their node's automaton: ten thousand
    /// rules `*a`, or `/a*b*c<i>`, build small automata.
    #[test]
    fn repeated_and_shared_first_literals_build_one_pattern() {
        let same: Vec<Vec<u8>> = vec![b"*a".to_vec(); 10_000];
        let e = PrefixEngine::new(&globs(&same)).unwrap();
        assert_eq!(e.tails.len(), 1);
        assert_eq!(e.tails[0].entries.len(), 1);
        let mut cache = PrefixCache::default();
        assert_eq!(e.find(b"/xa", &mut cache), 0);
        let distinct: Vec<Vec<u8>> =
            (0..10_000).map(|i| format!("/a*b*c{i}").into_bytes()).collect();
        let e = PrefixEngine::new(&globs(&distinct)).unwrap();
        // The node's automaton holds `b` once; the group's, every `c<i>`.
        assert_eq!(e.tails.len(), 2);
        assert_eq!(e.tails[0].entries.len(), 1);
        assert_eq!(e.tails[1].entries.len(), 10_000);
        // `c9` comes first, and is in `c9999`.
        assert_eq!(e.find(b"/a/b/c9999", &mut cache), 9);
        assert_eq!(e.find(b"/a/b/c0", &mut cache), 0);
        assert_eq!(e.find(b"/a/c1/b", &mut cache), NONE);
    }

    /// A path that meets more nodes with tails than [`Met`] holds is
    /// searched from the cache's list of them, and finds what the naive
    /// engine finds, with nodes whose automata hold upper tails among
    /// them.
    #[test]
    fn paths_meeting_many_tails_agree_with_naive() {
        // Tails at every depth of `/aaa…`: one at most depths, three (an
        // automaton, which takes the upper ones) at every fifth.
        let mut p: Vec<Vec<u8>> = vec![];
        for depth in 1..=24 {
            let prefix = [b"/".as_slice(), &vec![b'a'; depth]].concat();
            let ends: &[&[u8]] =
                if depth % 5 == 0 { &[b"x", b"y$", b"a*z"] } else { &[b"q"] };
            for end in ends {
                p.push([&prefix[..], b"*", end].concat());
            }
        }
        // Longest first, as priority tags order them: the deepest tail
        // that matches is the answer.
        p.reverse();
        let patterns = globs(&p);
        let engine = PrefixEngine::new(&patterns).unwrap();
        assert!(engine.tails.iter().any(|t| t.covers > 0));
        let naive = super::super::NaiveEngine::new(&patterns);
        let (mut cache, mut naive_cache) = Default::default();
        let mut many = 0;
        for len in 0..30 {
            for end in [&b""[..], b"x", b"y", b"q", b"az", b"ya"] {
                let path = [&b"/"[..], &vec![b'a'; len], end].concat();
                assert_eq!(
                    engine.find(&path, &mut cache),
                    naive.find(&path, &mut naive_cache),
                    "{:?}",
                    String::from_utf8_lossy(&path)
                );
                if len > Met::FEW {
                    many += usize::from(cache.pending.len() > Met::FEW);
                }
            }
        }
        // The long paths took the cache's list.
        assert!(many > 0);
    }

    /// First literals past [`AC_DFA_BYTES`] take the sparse automaton, and
    /// so do too many states over a wide alphabet for 16 bits: each kind
    /// of automaton finds what the naive engine finds, with multi-literal
    /// and `$` tails among the rest.
    #[test]
    fn every_kind_of_automaton_agrees_with_naive() {
        const ALPHABET: &[u8] =
            b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~";
        let word = |i: usize, len: usize| -> Vec<u8> {
            let mut x = (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    ALPHABET[(x % ALPHABET.len() as u64) as usize]
                })
                .collect()
        };
        for (count, len, kind) in
            [(400, 50, "sparse"), (1200, 13, "sparse"), (40, 6, "dfa16")]
        {
            let patterns: Vec<Vec<u8>> = (0..count)
                .map(|i| {
                    let mut p = b"/p*".to_vec();
                    p.extend(word(i, len));
                    match i % 3 {
                        0 => {}
                        1 => {
                            p.push(b'*');
                            p.extend(word(i + 1, 2));
                        }
                        _ => p.push(b'$'),
                    }
                    p
                })
                .collect();
            let patterns = globs(&patterns);
            let engine = PrefixEngine::new(&patterns).unwrap();
            let got = match engine.tails[0].ac {
                Some(Ac::Sparse(_)) => "sparse",
                Some(Ac::Dfa16(_)) => "dfa16",
                None => "direct",
            };
            assert_eq!(got, kind);
            let naive = super::super::NaiveEngine::new(&patterns);
            let (mut cache, mut naive_cache) = Default::default();
            let mut matched = 0;
            for p in patterns.iter().step_by(5) {
                // The pattern's bytes as a path, cut short, and followed
                // by more.
                let full: Vec<u8> = p
                    .bytes
                    .iter()
                    .copied()
                    .filter(|&b| b != b'*' && b != b'$')
                    .collect();
                let short = full[..full.len() - 1].to_vec();
                let long = [&full[..], b"zz"].concat();
                for path in [full, short, long] {
                    let want = naive.find(&path, &mut naive_cache);
                    matched += usize::from(want != NONE);
                    assert_eq!(
                        engine.find(&path, &mut cache),
                        want,
                        "{kind}: {:?}",
                        String::from_utf8_lossy(&path)
                    );
                }
            }
            assert!(matched > count / 5, "{kind}: {matched}");
        }
    }

    /// Multi-literal tails are checked once per scan by stamps; when the
    /// scan count wraps, every stamp is cleared, so no tail is taken for
    /// checked by a stamp from four billion scans ago.
    #[test]
    fn stamps_survive_the_scan_count_wrapping() {
        // Enough tails under `/` for an automaton, two with two literals
        // (and different first ones: tails that share it are a group,
        // with one stamp).
        let mut p: Vec<String> = (0..12).map(|i| format!("/*q{i}")).collect();
        p.push("/*a*b".into());
        p.push("/*x*c".into());
        let p: Vec<&str> = p.iter().map(String::as_str).collect();
        let e = engine(&p);
        let mut cache = PrefixCache::default();
        // Both two-literal tails checked: a stamp each.
        assert_eq!(e.find(b"/xaxc", &mut cache), 13);
        assert_eq!(cache.stamps.len(), 2);
        for path in [&b"/xaxb"[..], b"/xaxc", b"/xa", b"/q3"] {
            let want = e.find(path, &mut cache);
            for start in [u32::MAX - 2, u32::MAX - 1, u32::MAX] {
                let mut c = cache.clone();
                c.generation = start;
                // Stamps that a stale scan count would read as "checked".
                c.stamps.iter_mut().for_each(|s| *s = 1);
                for _ in 0..4 {
                    assert_eq!(e.find(path, &mut c), want, "{path:?} {start}");
                }
            }
        }
        assert_eq!(e.find(b"/xaxb", &mut cache), 12);
        assert_eq!(e.find(b"/xaxc", &mut cache), 13);
    }

    /// A chain longer than a node can note goes on from a node of its own,
    /// and is still crossed whole.
    #[test]
    fn chains_past_u16_go_on_from_a_node() {
        let long: Vec<u8> =
            (0..140_000u32).map(|i| b"abcdefgh"[i as usize % 8]).collect();
        let mut pattern = b"/".to_vec();
        pattern.extend_from_slice(&long);
        let e = engine(&[std::str::from_utf8(&pattern).unwrap(), "/x"]);
        // The root, `/` (where the rules branch), `/a` and `/x`, the two
        // nodes where the chain goes on, and its end.
        assert_eq!(e.nodes.len(), 7);
        let mut cache = PrefixCache::default();
        assert_eq!(e.find(&pattern, &mut cache), 0);
        let mut longer = pattern.clone();
        longer.push(b'z');
        assert_eq!(e.find(&longer, &mut cache), 0);
        assert_eq!(e.find(&pattern[..pattern.len() - 1], &mut cache), NONE);
        for at in [1, 65_535, 65_536, 65_537, 131_071, 131_072, 139_999] {
            let mut wrong = pattern.clone();
            wrong[at] = b'z';
            assert_eq!(e.find(&wrong, &mut cache), NONE, "{at}");
        }
    }

    #[test]
    fn chains_keep_no_nodes_of_their_own() {
        let long = format!("/{}", "a".repeat(5000));
        let other = format!("/b{}", "c".repeat(3000));
        let e = engine(&[&long, &other, "/b"]);
        // The root, `/` (where the rules branch), `/a` and `/b` (its
        // children), and the ends of the two chains: the 8,000 bytes of
        // the chains are bytes to compare, not nodes.
        assert_eq!(e.nodes.len(), 6);
        assert!(e.memory_usage() < 8_000 + 1_000, "{}", e.memory_usage());
        let mut cache = PrefixCache::default();
        assert_eq!(e.find(long.as_bytes(), &mut cache), 0);
        assert_eq!(e.find(format!("{long}x").as_bytes(), &mut cache), 0);
        assert_eq!(e.find(&long.as_bytes()[..4000], &mut cache), NONE);
        assert_eq!(e.find(other.as_bytes(), &mut cache), 1);
        assert_eq!(e.find(b"/bcc", &mut cache), 2);
        assert_eq!(e.find(b"/x", &mut cache), NONE);
    }
}

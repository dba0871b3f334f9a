//! Compiling the patterns into the trie: a node per byte of prefix, each
//! pattern's tag or tail on the node where its prefix ends, each node's
//! tail automaton and bound; then [`layout`](super::layout) lays it out.

use std::borrow::Cow;
use std::collections::HashSet;

use super::layout::{Trie, TrieNode};
use super::tails::{Hoisted, Tails, DIRECT_TAILS};
use super::TrieEngine;
use crate::engine::pattern::{split, Pattern, Rest, Syntax, NONE};

/// A node while the trie is being built: its children in a list, its
/// tails as patterns, and the way back up that hoisting tails needs.
#[derive(Default)]
pub(super) struct TmpNode {
    children: Vec<(u8, u32)>,
    tag: u32,
    tag_end: u32,
    tails: Vec<(u32, Pattern<'static>)>,
    /// The node's parent (the root is its own), the byte that leads to it
    /// from there, and its depth: the length of its prefix.
    parent: u32,
    byte: u8,
    depth: u32,
}

impl TrieEngine {
    /// Compiles `patterns`, whose index is their priority tag.
    pub(crate) fn new(patterns: &[Pattern]) -> Result<TrieEngine, String> {
        let mut tmp =
            vec![TmpNode { tag: NONE, tag_end: NONE, ..Default::default() }];
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
                            tag: NONE,
                            tag_end: NONE,
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
                Rest::Nothing => n.tag = n.tag.min(id),
                Rest::End => n.tag_end = n.tag_end.min(id),
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
                tag: t.tag,
                tag_end: t.tag_end,
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
            let mut bound = n.tag.min(n.tag_end).min(own);
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
}

/// The tails that node `node` of `tmp` searches for: its own and, when
/// it has enough for an automaton, those of the nodes just above it.
///
/// A path below a node with many tails (`/b/*...`) mostly also passes a
/// node with a few (`/*...`), and would be walked once for each, every
/// walk a chain of dependent loads. So the few ride along in the many's
/// automaton, which is walked once: the search starts at the upper node,
/// and a first literal of a lower node's tail counts only where it starts
/// inside that node's rest of the path (checked from where the literal
/// ends, see `Tails::consider`). See docs/DESIGN.md, "Tail automata".
///
/// N.B. Only nodes close above (by [`MAX_REACH`] bytes) with few tails
/// (up to [`MERGE_MAX`]) are taken, up to [`MERGE_BUDGET`] copies in the
/// whole trie, so that a hostile file cannot multiply its tails; and a
/// node's upper nodes are taken in order up from it, stopping at the
/// first one that cannot be, since the walk skips exactly the last
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

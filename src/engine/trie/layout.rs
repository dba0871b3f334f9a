//! The trie's nodes as a walk reads them, and how they are laid out:
//! chains compressed, breadth first, a node's children found in the node.
//!
//! A walk is a chain of dependent loads, a node's for each byte, so the
//! layout serves the loads: see docs/DESIGN.md, "The prefix trie and its
//! layout".

use super::tails::Tails;
use super::TrieEngine;
use crate::engine::pattern::NONE;
use crate::lowlevel::swar::equal;

/// A node of the trie as a walk reads it.
///
/// A node's children are consecutive nodes, so a child is found by its
/// rank among them, with no list of child indexes to load in between; and
/// a node is 32 bytes, aligned, so that none straddles two cache lines.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
pub(super) struct Node {
    /// The first child, or, when the node starts a chain, the node at
    /// the chain's end.
    pub(super) first_child: u32,
    pub(super) child_len: u16,
    /// When the node has one child and a chain of childless-but-one nodes
    /// without patterns follows, the chain's length: a walk compares its
    /// bytes at once (at most `u16::MAX`; a longer chain goes on from a
    /// node of its own).
    pub(super) skip_len: u16,
    /// Lowest tag of a pattern that is exactly this node's prefix.
    pub(super) tag: u32,
    /// Lowest tag of a pattern that is this prefix followed by `$`.
    pub(super) tag_end: u32,
    /// Index into `tails`, or `NONE`.
    pub(super) tail: u32,
    /// Lowest tag of any pattern at or below this node.
    pub(super) bound: u32,
    /// How a walk goes on from the node, by its kind:
    /// - one that starts a chain (`skip_len` above 0): where the chain's
    ///   bytes start in `skip_bytes`;
    /// - one with up to [`NARROW`] children: the children's bytes, the
    ///   first child's in the lowest byte, zeros after;
    /// - one with more (and fewer than 256): its index in `wide`;
    /// - one with all 256: nothing, a child's rank is its byte.
    ///
    /// So a narrow node's child is found in the node itself, with no load
    /// from a list of bytes and no loop whose end the predictor guesses
    /// wrong.
    pub(super) link: u64,
}

/// A node of the trie while chains are found: its children anywhere.
#[derive(Clone, Debug)]
pub(super) struct TrieNode {
    /// Children: the range of `child_bytes`/`child_nodes` that is this
    /// node's, sorted by byte.
    pub(super) first_child: u32,
    pub(super) child_len: u32,
    pub(super) tag: u32,
    pub(super) tag_end: u32,
    pub(super) tail: u32,
    pub(super) bound: u32,
    /// The chain this node starts, if any (`skip_len` > 0): its bytes in
    /// `skip_bytes` and the node at its end.
    pub(super) skip_start: u32,
    pub(super) skip_len: u32,
    pub(super) skip_to: u32,
}

/// The trie while chains are found, before its nodes are laid out for
/// walks.
pub(super) struct Trie {
    pub(super) nodes: Vec<TrieNode>,
    pub(super) child_bytes: Vec<u8>,
    pub(super) child_nodes: Vec<u32>,
    pub(super) skip_bytes: Vec<u8>,
}

/// Nodes with up to this many children find a byte's child among their
/// bytes, held in the node as one word; wider ones (the root and the
/// first levels of most files) by a table from byte to child: one load,
/// where a binary search over a few dozen children is a loop the
/// predictor cannot learn, and a bitmap with a rank would count bits
/// slowly without `popcnt` (not in the baseline x86-64 target). The
/// figures are in docs/PERFORMANCE.md.
pub(super) const NARROW: usize = 8;

impl TrieEngine {
    /// The index of `node`'s child for `byte`, found as the node's kind
    /// says (see [`Node::link`]).
    #[inline]
    pub(super) fn child(&self, node: &Node, byte: u8) -> Option<usize> {
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
}

impl Trie {
    /// Gives every node that a walk can stand on and that starts a chain
    /// of single-child nodes without patterns the chain's bytes, so a walk
    /// crosses the chain with one comparison.
    pub(super) fn compress_chains(&mut self) {
        let has_payload = |n: &TrieNode| {
            n.tag != NONE || n.tag_end != NONE || n.tail != NONE
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

    /// The nodes a walk can stand on, laid out for it: breadth first, so
    /// that a node's children are consecutive.
    ///
    /// The nodes inside a compressed chain are crossed by one comparison
    /// and never visited, and in most robots.txt files they are most of
    /// the trie (a rule's bytes after the last place it branches from the
    /// others): they are left out, which is what bounds how many compiled
    /// files crawl mode's cache holds.
    pub(super) fn lay_out(self, tails: Vec<Tails>) -> TrieEngine {
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
        let mut engine = TrieEngine {
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
                tag: n.tag,
                tag_end: n.tag_end,
                tail: n.tail,
                bound: n.bound,
                link,
            });
        }
        let root = &engine.nodes[0];
        let bare =
            root.tag == NONE && root.tag_end == NONE && root.tail == NONE;
        if bare && root.skip_len == 1 {
            let byte = engine.skip_bytes[root.link as usize];
            engine.lead = Some((byte, root.first_child));
        }
        // Grown as the trie was built: the room to spare would stay with
        // the engine as long as a cache keeps it.
        engine.skip_bytes.shrink_to_fit();
        engine.wide.shrink_to_fit();
        engine.tails.shrink_to_fit();
        engine
    }
}

//! The default engine: a DFA over the patterns' literal prefixes (a trie),
//! with the wildcard tails of the patterns compiled into dense DFAs that
//! hang off the trie nodes where their prefixes end.
//!
//! Most robots.txt rules are literal prefixes (`Disallow: /cgi-bin/`), and
//! even wildcard rules almost always start with one (`/b/*_pgn=`). A trie
//! is the minimal DFA of a set of literal prefixes: it compiles in
//! microseconds, takes memory proportional to the rules' bytes, and a scan
//! stops at the first byte where the path leaves every prefix. Only the
//! tails after a pattern's first `*` need a real determinization, and only
//! together with the other tails of the same prefix, so one path runs at
//! most the tail automata of the prefixes it actually has.
//!
//! Every node knows the lowest priority tag in its subtree (its `bound`):
//! a scan that has already found a better rule stops as soon as it reaches
//! a node whose bound cannot beat it.

use aho_corasick::{AhoCorasick, MatchKind};

use super::dense::DenseSet;
use super::{Limits, Pattern, Syntax, NONE};

#[derive(Clone, Debug)]
struct Node {
    /// Children: the range of `child_bytes`/`child_nodes` that is this
    /// node's, sorted by byte.
    first_child: u32,
    child_len: u32,
    /// Lowest tag of a pattern that is exactly this node's prefix.
    emit: u32,
    /// Lowest tag of a pattern that is this prefix followed by `$`.
    emit_end: u32,
    /// Index into `tails`, or `NONE`.
    tail: u32,
    /// Lowest tag of any pattern at or below this node.
    bound: u32,
    /// When the node has one child and a chain of childless-but-one nodes
    /// without patterns follows, the chain's bytes (`skip_bytes` range)
    /// and the node at its end: a scan compares them at once.
    skip_start: u32,
    skip_len: u32,
    skip_to: u32,
}

#[derive(Clone, Debug)]
pub(crate) struct PrefixEngine {
    nodes: Vec<Node>,
    child_bytes: Vec<u8>,
    child_nodes: Vec<u32>,
    skip_bytes: Vec<u8>,
    tails: Vec<Tails>,
}

/// A node while the trie is being built.
#[derive(Default)]
struct TmpNode {
    children: Vec<(u8, u32)>,
    emit: u32,
    emit_end: u32,
    tails: Vec<(u32, Pattern)>,
}

impl PrefixEngine {
    pub(crate) fn new(
        patterns: &[Pattern],
        limits: &Limits,
    ) -> Result<PrefixEngine, String> {
        let mut tmp =
            vec![TmpNode { emit: NONE, emit_end: NONE, ..Default::default() }];
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
                        tmp.push(TmpNode {
                            emit: NONE,
                            emit_end: NONE,
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
                Rest::Tail(tail) => n.tails.push((
                    id,
                    Pattern { bytes: tail.to_vec(), syntax: Syntax::Glob },
                )),
            }
        }
        let mut engine = PrefixEngine {
            nodes: Vec::with_capacity(tmp.len()),
            child_bytes: vec![],
            child_nodes: vec![],
            skip_bytes: vec![],
            tails: vec![],
        };
        for t in &mut tmp {
            t.children.sort_unstable();
            let tail = if t.tails.is_empty() {
                NONE
            } else {
                // Tags were pushed in ascending order.
                engine
                    .tails
                    .push(Tails::new(std::mem::take(&mut t.tails), limits)?);
                (engine.tails.len() - 1) as u32
            };
            engine.nodes.push(Node {
                first_child: engine.child_bytes.len() as u32,
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
                engine.child_bytes.push(b);
                engine.child_nodes.push(c);
            }
        }
        // Children come after their parents, so one backward pass settles
        // every bound.
        for i in (0..engine.nodes.len()).rev() {
            let n = &engine.nodes[i];
            let mut bound = n.emit.min(n.emit_end);
            if n.tail != NONE {
                bound = bound.min(engine.tails[n.tail as usize].min_id());
            }
            let children =
                n.first_child as usize..(n.first_child + n.child_len) as usize;
            for &c in &engine.child_nodes[children] {
                bound = bound.min(engine.nodes[c as usize].bound);
            }
            engine.nodes[i].bound = bound;
        }
        engine.compress_chains();
        Ok(engine)
    }

    /// Gives every node that a scan can stand on and that starts a chain
    /// of single-child nodes without patterns the chain's bytes, so a scan
    /// crosses the chain with one comparison.
    fn compress_chains(&mut self) {
        let has_payload =
            |n: &Node| n.emit != NONE || n.emit_end != NONE || n.tail != NONE;
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
                if has_payload(c) || c.child_len != 1 {
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

    pub(crate) fn memory_usage(&self) -> usize {
        self.nodes.len() * std::mem::size_of::<Node>()
            + self.child_bytes.len() * 5
            + self.skip_bytes.len()
            + self.tails.iter().map(|t| t.memory_usage()).sum::<usize>()
    }

    /// The number of tail automata behind the trie.
    pub(crate) fn tail_len(&self) -> usize {
        self.tails.len()
    }

    #[inline]
    fn child(&self, node: &Node, byte: u8) -> Option<u32> {
        let lo = node.first_child as usize;
        let bytes = &self.child_bytes[lo..lo + node.child_len as usize];
        // Most nodes have one child; a few (near the root) have many.
        let i = if bytes.len() <= 8 {
            bytes.iter().position(|&b| b == byte)?
        } else {
            bytes.binary_search(&byte).ok()?
        };
        Some(self.child_nodes[lo + i])
    }

    #[inline]
    pub(crate) fn find(&self, path: &[u8]) -> u32 {
        let mut best = NONE;
        let mut node = &self.nodes[0];
        let mut pos = 0;
        loop {
            if best <= node.bound {
                return best;
            }
            best = best.min(node.emit);
            if pos == path.len() {
                best = best.min(node.emit_end);
            }
            if node.tail != NONE {
                best = self.tails[node.tail as usize]
                    .find_from(&path[pos..], best);
            }
            if node.skip_len > 0 {
                let start = node.skip_start as usize;
                let chain =
                    &self.skip_bytes[start..start + node.skip_len as usize];
                if !path[pos..].starts_with(chain) {
                    return best;
                }
                pos += chain.len();
                node = &self.nodes[node.skip_to as usize];
                continue;
            }
            let Some(&b) = path.get(pos) else {
                return best;
            };
            match self.child(node, b) {
                Some(c) => node = &self.nodes[c as usize],
                None => return best,
            }
            pos += 1;
        }
    }
}

enum Rest<'a> {
    /// The pattern is its prefix: it matches every path that starts so.
    Nothing,
    /// The pattern is its prefix and `$`: only the prefix itself matches.
    End,
    /// The pattern goes on with a wildcard tail (starting with `*`) that
    /// must match a prefix of what follows.
    Tail(&'a [u8]),
}

/// A pattern's literal prefix (up to its first `*`) and what follows.
fn split(p: &Pattern) -> (&[u8], Rest<'_>) {
    if p.syntax == Syntax::Literal {
        return (&p.bytes, Rest::Nothing);
    }
    let Some(star) = memchr::memchr(b'*', &p.bytes) else {
        return match p.bytes.split_last() {
            Some((b'$', prefix)) => (prefix, Rest::End),
            _ => (&p.bytes, Rest::Nothing),
        };
    };
    let (prefix, tail) = p.bytes.split_at(star);
    // A tail of stars alone, or stars and `$`, matches whatever follows.
    let trivial = match tail.split_last() {
        Some((b'$', stars)) => stars.iter().all(|&b| b == b'*'),
        _ => tail.iter().all(|&b| b == b'*'),
    };
    if trivial {
        (prefix, Rest::Nothing)
    } else {
        (prefix, Rest::Tail(tail))
    }
}

/// The wildcard tails of the patterns that share one literal prefix.
///
/// A tail with a single `*` in front (`*L`, or `*L$`) matches when `L`
/// occurs anywhere in the rest of the path (or ends it): that is a job for
/// Aho-Corasick, which handles thousands of such literals without the
/// blow-up they cause in a determinizer that must carry every pattern's
/// `.*` loop in every state. Tails with more stars go to dense DFAs.
#[derive(Clone, Debug)]
struct Tails {
    contains: Option<Contains>,
    dense: Option<DenseSet>,
    min_id: u32,
}

#[derive(Clone, Debug)]
struct Contains {
    ac: AhoCorasick,
    /// Per Aho-Corasick pattern: its priority tag and whether it must end
    /// the path.
    tags: Vec<(u32, bool)>,
    min_id: u32,
}

impl Tails {
    /// `tails` are `(tag, tail)` in ascending tag order; each tail starts
    /// with `*`.
    fn new(
        tails: Vec<(u32, Pattern)>,
        limits: &Limits,
    ) -> Result<Tails, String> {
        let min_id = tails.first().map_or(NONE, |t| t.0);
        let mut literals: Vec<Vec<u8>> = vec![];
        let mut tags = vec![];
        let mut dense_ids = vec![];
        let mut dense_pats = vec![];
        for (id, p) in tails {
            let body = p.bytes.trim_ascii_start_stars();
            let (lit, end) = match body.split_last() {
                Some((b'$', lit)) => (lit, true),
                _ => (body, false),
            };
            if !lit.contains(&b'*') {
                literals.push(lit.to_vec());
                tags.push((id, end));
            } else {
                dense_ids.push(id);
                dense_pats.push(p);
            }
        }
        let contains = if literals.is_empty() {
            None
        } else {
            let ac = AhoCorasick::builder()
                .match_kind(MatchKind::Standard)
                .build(&literals)
                .map_err(|e| e.to_string())?;
            let min_id = tags.iter().map(|t| t.0).min().unwrap_or(NONE);
            Some(Contains { ac, tags, min_id })
        };
        let dense = if dense_pats.is_empty() {
            None
        } else {
            Some(DenseSet::new(&dense_pats, &dense_ids, limits)?)
        };
        Ok(Tails { contains, dense, min_id })
    }

    fn min_id(&self) -> u32 {
        self.min_id
    }

    fn memory_usage(&self) -> usize {
        self.contains
            .as_ref()
            .map_or(0, |c| c.ac.memory_usage() + c.tags.len() * 8)
            + self.dense.as_ref().map_or(0, |d| d.memory_usage())
    }

    #[inline]
    fn find_from(&self, rest: &[u8], mut best: u32) -> u32 {
        if let Some(ref c) = self.contains {
            if c.min_id < best {
                for m in c.ac.find_overlapping_iter(rest) {
                    let (id, end) = c.tags[m.pattern().as_usize()];
                    if id < best && (!end || m.end() == rest.len()) {
                        best = id;
                    }
                }
            }
        }
        if let Some(ref d) = self.dense {
            best = d.find_from(rest, best);
        }
        best
    }
}

/// Strips the leading `*`s of a tail.
trait TrimStars {
    fn trim_ascii_start_stars(&self) -> &[u8];
}

impl TrimStars for Vec<u8> {
    fn trim_ascii_start_stars(&self) -> &[u8] {
        let n = self.iter().take_while(|&&b| b == b'*').count();
        &self[n..]
    }
}

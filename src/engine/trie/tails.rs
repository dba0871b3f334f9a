//! The wildcard tails of a node's patterns, and how a path is searched
//! for them: one Aho-Corasick walk over the path for their first
//! literals, their other literals checked once per path. Why, and what
//! each refinement bought, is in docs/DESIGN.md, "Tail automata".

use memchr::memmem;
use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};

use super::aho_corasick::{Automaton, Dfa, Sparse, State};
use super::scratch::TrieScratch;
use crate::engine::pattern::{follows, Pattern, Syntax, NONE};

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
/// each single-star one keeps its `.*` loop in every state. This takes
/// time and memory proportional to the rules' bytes.
///
/// A node's automaton also holds the tails of the nodes just above it on
/// the way from the root (see `hoisted_tails` in [`build`](super::build)),
/// so that a path that meets both walks one automaton, not two.
#[derive(Clone, Debug)]
pub(super) struct Tails {
    /// Over each tail's first literal; `None` when there are so few tails
    /// that checking each one with its own finders is cheaper than
    /// starting an overlapping Aho-Corasick search.
    pub(super) ac: Option<Ac>,
    /// Per Aho-Corasick pattern (a distinct first literal, per offset
    /// and kind of tail, see [`Tails::new`]); per tail, in tag order, when
    /// `ac` is `None`.
    pub(super) entries: Vec<TailEntry>,
    /// What a match state's report needs of its entry, in the order of
    /// [`Automaton::match_slot`].
    reports: Vec<Report>,
    min_id: u32,
    /// How far above the node the search starts: the depth of the node
    /// minus that of the highest node whose tails are held here.
    pub(super) reach: u32,
    /// How many nodes above this one have their tails held here: the
    /// nodes with tails that a walk met just before this one.
    pub(super) covers: u32,
    /// Where a walk starts: the state after the `reach` bytes every search
    /// starts with, and how many they are; or the start state and 0 when
    /// those bytes pass a match state. Those bytes are the same for every
    /// path, and each byte of a walk waits on the previous one's load, so
    /// they are walked once, here (`b/` when the automaton below `/b/`
    /// holds the tails of `/`).
    lead: (State, usize),
}

/// A tail entry as the walk first looks at it, when the automaton reports
/// the entry's first literal.
///
/// Kept in a list in the automaton's own order of reports, so that one
/// load after the match state's range finds it (not the entry's index,
/// then the entry), and small, so that four fit a cache line.
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
pub(super) struct Hoisted {
    /// `(tag, canonical tail, offset)`: the tail must match from
    /// `offset` bytes after where the search starts.
    pub(super) tails: Vec<(u32, Pattern<'static>, u32)>,
    /// The last bytes of the node's prefix, from the highest node whose
    /// tails are held: the first bytes of every search, known in advance
    /// (their number is the reach).
    pub(super) reached: Vec<u8>,
    pub(super) covers: u32,
}

/// The Aho-Corasick automaton over the first literals of a node's tails:
/// a DFA for modest literal sets, its states in 16 bits when they fit,
/// else the sparse automaton. Walked by hand (see [`Tails::find_from`]), with
/// static dispatch.
// N.B. One per node with tails, in a vector: a box would cost each
// search one more load.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub(super) enum Ac {
    Dfa16(Dfa<u16>),
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

/// Up to this many tails at one node are checked one by one: for a
/// literal or two, a memmem search costs a path less than setting up and
/// running an overlapping Aho-Corasick search (the figures are in
/// docs/PERFORMANCE.md).
pub(super) const DIRECT_TAILS: usize = 2;

/// Up to this many bytes of first literals get an Aho-Corasick DFA (when
/// its states fit 16 bits; else the sparse automaton walks).
///
/// A table's size is its states times its byte classes: past this, or
/// past 16 bits, it would take megabytes for kilobytes of rules (a table
/// of 32-bit states is at least 256 KiB), where the sparse automaton
/// takes far less and still walks fast (docs/PERFORMANCE.md).
pub(super) const AC_DFA_BYTES: usize = 16 * 1024;

#[derive(Clone, Debug)]
pub(super) struct TailEntry {
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
    /// per-path "already checked" stamps (which one-literal tails do not
    /// use). Empty when the automaton finds the one literal there is to
    /// find (a one-literal tail's, a group's).
    literals: Vec<memmem::Finder<'static>>,
    slot: u32,
    /// When the entry stands for a group of tails that share their first
    /// literal, the index of the group's automaton (over the rest of each
    /// tail), which the walk searches from where the literal ends; its
    /// `literals` are then the first alone. Else `NONE`.
    pub(super) sub: u32,
}

impl TailEntry {
    /// The literals after the first.
    fn more(&self) -> &[memmem::Finder<'static>] {
        &self.literals[1..]
    }
}

impl Tails {
    /// Builds the automaton of a node's tails into `all`, and after it
    /// those of the groups its tails lead to (see [`Tails::new`]); the
    /// node's index in `all`.
    ///
    /// N.B. A queue, not recursion: tails that share literal after
    /// literal (`*a*a*a…*b`, `*a*a*a…*c`) nest a group per literal.
    pub(super) fn build(
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
            // A table walks a path faster than the sparse automaton (one
            // load a byte, no failure links), but its size grows with
            // states times byte classes: only for modest literal sets.
            let sparse = Sparse::new(firsts.clone());
            let ac = if bytes <= AC_DFA_BYTES {
                match Dfa::new(&sparse, firsts) {
                    Some(table) => Ac::Dfa16(table),
                    None => Ac::Sparse(sparse),
                }
            } else {
                Ac::Sparse(sparse)
            };
            Some(ac)
        };
        // In the order of `Automaton::match_slot`.
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

    /// Heap bytes, beyond the `Tails` itself.
    pub(super) fn memory_usage(&self) -> usize {
        let finder = std::mem::size_of::<memmem::Finder<'static>>();
        self.ac.as_ref().map_or(0, |ac| ac.memory_usage())
            + self.reports.capacity() * std::mem::size_of::<Report>()
            + self.entries.capacity() * std::mem::size_of::<TailEntry>()
            + self
                .entries
                .iter()
                .map(|e| {
                    e.literals.capacity() * finder
                        + e.literals
                            .iter()
                            .map(|f| f.needle().len())
                            .sum::<usize>()
                })
                .sum::<usize>()
    }

    #[inline]
    pub(super) fn find_from(
        &self,
        rest: &[u8],
        best: u32,
        scratch: &mut TrieScratch,
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
            Ac::Dfa16(a) => self.walk(a, rest, best, scratch),
            Ac::Sparse(a) => self.walk(a, rest, best, scratch),
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
    /// Not inlined, so that the loop keeps its pointers in registers:
    /// inlined into the trie's walk, it reloaded some from the stack at
    /// every byte.
    #[inline(never)]
    fn walk<A: Automaton>(
        &self,
        ac: &A,
        rest: &[u8],
        mut best: u32,
        scratch: &mut TrieScratch,
    ) -> u32 {
        scratch.visited.clear();
        let (mut sid, mut end) = self.lead;
        debug_assert!(end <= rest.len());
        // N.B. One index, both the byte's place and (after it) the end
        // of a literal: with `enumerate` the loop kept a pointer and a
        // count.
        while end < rest.len() {
            sid = ac.next(sid, rest[end]);
            end += 1;
            if ac.is_match(sid) && scratch.visited.insert(sid) {
                let settled;
                (best, settled) =
                    self.consider(ac, sid, rest, end, best, scratch);
                if best <= self.min_id {
                    return best;
                }
                if !settled {
                    scratch.visited.remove(sid);
                }
            }
        }
        if ac.is_match(sid) {
            // Only the `$` one-literal tails can gain here; the others
            // were looked at the first time this state was reached.
            best = self.consider(ac, sid, rest, rest.len(), best, scratch).0;
        }
        best
    }

    /// The best of `best` and the tails whose first literal the state
    /// `sid` reports, the literal ending at `end`; and whether the state
    /// is settled: whether every tail it reports was looked at (a literal
    /// that starts before its tail's rest of the path is not).
    ///
    /// Always inlined: a part of the walk's loop, which the compiler
    /// otherwise leaves a call (docs/PERFORMANCE.md).
    #[inline(always)]
    fn consider<A: Automaton>(
        &self,
        ac: &A,
        sid: State,
        rest: &[u8],
        end: usize,
        mut best: u32,
        scratch: &mut TrieScratch,
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
                self.more_follow(r.more, rest, end, scratch)
            };
            if hit {
                best = r.id;
            }
        }
        (best, settled)
    }

    /// Whether the other literals of tail `entry`, whose first ends at
    /// `end`, follow in `rest`, if this path has not checked them yet.
    ///
    /// Apart, so that [`Tails::consider`] makes no call of its own in the
    /// common case (every tail of one literal) and can be part of the
    /// walk: with this search inside, it was a call that saved and
    /// restored registers around every look at a match state.
    #[cold]
    #[inline(never)]
    fn more_follow(
        &self,
        entry: u32,
        rest: &[u8],
        end: usize,
        scratch: &mut TrieScratch,
    ) -> bool {
        let e = &self.entries[entry as usize];
        if !scratch.first_visit(e.slot) {
            return false;
        }
        if e.sub != NONE {
            // Searched once this walk is done (see `search_groups`).
            scratch.groups.push((e.sub, scratch.base + end));
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
fn lead<A: Automaton>(ac: &A, bytes: &[u8]) -> (State, usize) {
    let mut sid = ac.start();
    for &b in bytes {
        sid = ac.next(sid, b);
        if ac.is_match(sid) {
            return (ac.start(), 0);
        }
    }
    (sid, bytes.len())
}

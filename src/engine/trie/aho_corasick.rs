//! The Aho-Corasick automata over the first literals of a trie node's
//! wildcard tails, laid out for the tail walk of the [`trie`](super)
//! engine (see docs/DESIGN.md, "Tail automata").
//!
//! The Aho-Corasick automaton is built here ([`Sparse`]): a trie of the
//! literals, its states numbered breadth first, with failure links and
//! each state's reports. The `aho-corasick` crate's builder moves its
//! match states to the front by pairwise swaps and then follows each
//! swap cycle once per state of it: one trie state above a hundred
//! thousand literals (`c0`...`c99999`, the second literals of a hostile
//! file's tails) made that a cycle of a hundred thousand, and the build
//! quadratic. This one takes time linear in the literals' bytes plus the
//! reports.
//!
//! The walk is one chain of dependent loads, a state's next state for
//! each byte of the path, and it stalls on every load that misses the
//! first-level cache. For modest literal sets, this module follows every
//! state's transitions, failure links included, into a table of the
//! narrowest integer that holds them (16 bits for the few hundred states
//! of a large real file's tails: half the cache lines of a 32-bit DFA),
//! with the match states first, so that a match is one comparison, and
//! with each match state's literals in one flat list, read with one
//! lookup. Larger sets walk the sparse automaton itself.

use std::collections::HashMap;

/// A state: the offset of its row in the table.
///
/// A `usize`, so that the walk uses the loaded cell as an index as it
/// is, with no extension between one load and the next.
pub(super) type State = usize;

/// The walk's view of an automaton over first literals.
pub(super) trait Automaton {
    /// The state before any byte.
    fn start(&self) -> State;
    /// The state after `byte`.
    fn next(&self, sid: State, byte: u8) -> State;
    /// Whether `sid` reports literals (that end at the byte just read).
    fn is_match(&self, sid: State) -> bool;
    /// How many literals `sid` reports.
    fn match_len(&self, sid: State) -> usize;
    /// Where the `k`th literal `sid` reports is: its place in
    /// [`Dfa::report_order`] for a table, its index among the
    /// literals for the [`Sparse`] automaton.
    fn match_slot(&self, sid: State, k: usize) -> usize;
}

/// The integers a table can hold states in.
pub(super) trait StateInt: Copy + std::fmt::Debug {
    const MAX: usize;
    /// `value`, which is at most `MAX`.
    fn new(value: usize) -> Self;
    fn get(self) -> State;
}

impl StateInt for u16 {
    const MAX: usize = u16::MAX as usize;
    fn new(value: usize) -> u16 {
        value as u16
    }
    #[inline(always)]
    fn get(self) -> State {
        State::from(self)
    }
}

impl StateInt for u32 {
    const MAX: usize = u32::MAX as usize;
    fn new(value: usize) -> u32 {
        value as u32
    }
    #[inline(always)]
    fn get(self) -> State {
        self as State
    }
}

/// An Aho-Corasick DFA as one table of rows, one row per state and one
/// cell per byte class, each cell the offset of the next state's row.
#[derive(Clone, Debug)]
pub(super) struct Dfa<S> {
    table: Vec<S>,
    /// The class of each byte: bytes that every state sends to the same
    /// state share a class.
    classes: [u8; 256],
    /// Cells per row: the number of classes (at least 2).
    stride: u32,
    /// `2^64 / stride`, rounded up: see [`rank_of`].
    reciprocal: u64,
    start: State,
    /// The rows of match states come first: those below this offset.
    match_end: State,
    /// Per match state (its offset over the stride), its range of
    /// `patterns`.
    ranges: Vec<(u32, u32)>,
    patterns: Vec<u32>,
}

impl<S: StateInt> Dfa<S> {
    /// The table of `ac`, the automaton over `literals`, or `None` when
    /// its states do not fit `S`.
    pub(super) fn new<'a>(
        ac: &Sparse,
        literals: impl Iterator<Item = &'a [u8]>,
    ) -> Option<Dfa<S>> {
        // A byte in no literal takes every state where any other such
        // byte does: they share a class; every other byte is its own.
        let mut used = [false; 256];
        for literal in literals {
            for &b in literal {
                used[usize::from(b)] = true;
            }
        }
        let mut classes = [0u8; 256];
        let mut members = vec![];
        let unused = used.iter().position(|&u| !u);
        if let Some(b) = unused {
            members.push(b as u8);
        }
        for (b, class) in classes.iter_mut().enumerate() {
            if used[b] {
                *class = members.len() as u8;
                members.push(b as u8);
            }
        }
        if members.len() == 1 {
            // A second column, which no byte takes: `rank_of` divides by
            // the stride with a reciprocal, which needs a stride of 2 or
            // more.
            members.push(members[0]);
        }
        let stride = members.len();
        let states = ac.len();
        if (states - 1) * stride > S::MAX {
            return None;
        }
        // Every state's next state for each class: its child, else its
        // failure state's next (settled already: the states are breadth
        // first, a failure state shallower than its state).
        let mut rows: Vec<u32> = Vec::with_capacity(states * stride);
        for sid in 0..states {
            for (class, &b) in members.iter().enumerate() {
                let next = match ac.child(sid, b) {
                    Some(c) => c as u32,
                    None if sid == 0 => 0,
                    None => rows[ac.fail(sid) * stride + class],
                };
                rows.push(next);
            }
        }
        // Match states first, each group in breadth-first order.
        let mut order: Vec<usize> = (0..states).collect();
        order.sort_by_key(|&i| !ac.is_match(i));
        let mut rank = vec![0; states];
        for (r, &i) in order.iter().enumerate() {
            rank[i] = r;
        }
        let mut table = Vec::with_capacity(rows.len());
        let mut ranges = vec![];
        let mut patterns = vec![];
        for &i in &order {
            let row = &rows[i * stride..(i + 1) * stride];
            table.extend(
                row.iter().map(|&n| S::new(rank[n as usize] * stride)),
            );
            if ac.is_match(i) {
                let first = patterns.len() as u32;
                patterns.extend(
                    (0..ac.match_len(i)).map(|k| ac.match_slot(i, k) as u32),
                );
                ranges.push((first, patterns.len() as u32 - first));
            }
        }
        Some(Dfa {
            table,
            classes,
            stride: stride as u32,
            reciprocal: u64::MAX / stride as u64 + 1,
            start: rank[0] * stride,
            match_end: ranges.len() * stride,
            ranges,
            patterns,
        })
    }

    pub(super) fn memory_usage(&self) -> usize {
        self.table.capacity() * std::mem::size_of::<S>()
            + self.ranges.capacity() * 8
            + self.patterns.capacity() * 4
    }

    #[inline(always)]
    fn range(&self, sid: State) -> (u32, u32) {
        let rank = rank_of(sid, self.reciprocal);
        debug_assert_eq!(rank, sid / self.stride as usize);
        self.ranges[rank]
    }

    /// The pattern index of every report, each match state's next to one
    /// another: [`Automaton::match_slot`] is a place in this list.
    pub(super) fn report_order(&self) -> &[u32] {
        &self.patterns
    }
}

impl<S: StateInt> Automaton for Dfa<S> {
    #[inline(always)]
    fn start(&self) -> State {
        self.start
    }

    #[inline(always)]
    fn next(&self, sid: State, byte: u8) -> State {
        let class = usize::from(self.classes[usize::from(byte)]);
        // The class's column is added apart from the state, so that the
        // load of the next state waits on the state alone, not on an
        // addition after it: each byte of the walk waits on that load.
        debug_assert!(sid + class < self.table.len());
        // SAFETY: `sid` is a state (the start, or a cell of the table),
        // and every state is the offset of a row of `stride` cells: the
        // table builder writes only `rank * stride` with `rank` below the
        // number of rows. `class` is below `stride`. So the cell is in
        // the table.
        unsafe { self.table.as_ptr().add(class).add(sid).read() }.get()
    }

    #[inline(always)]
    fn is_match(&self, sid: State) -> bool {
        sid < self.match_end
    }

    #[inline(always)]
    fn match_len(&self, sid: State) -> usize {
        self.range(sid).1 as usize
    }

    #[inline(always)]
    fn match_slot(&self, sid: State, k: usize) -> usize {
        self.range(sid).0 as usize + k
    }
}

/// The rank of state `sid` (its offset over the stride), with the
/// stride's `reciprocal` (`u64::MAX / stride + 1`, for a stride of 2 or
/// more): exact for every offset below 2^32 (Lemire, Kaser and Kurz,
/// "Faster remainder by direct computation", 2019).
///
/// Most paths reach a match state, and a division would make each of
/// them wait many cycles for its reports.
#[inline(always)]
fn rank_of(sid: State, reciprocal: u64) -> usize {
    debug_assert!(sid <= u32::MAX as usize);
    ((sid as u128 * u128::from(reciprocal)) >> 64) as usize
}

/// An Aho-Corasick automaton over literals that reports every literal
/// ending at each byte: a trie with failure links, its states numbered
/// breadth first (the root is 0), each state's reports its own literals
/// then its failure state's.
#[derive(Clone, Debug)]
pub(super) struct Sparse {
    /// Per state, where its edges start in `edge_bytes`/`edge_to` (sorted
    /// by byte), and one more entry, the end.
    first_edge: Vec<u32>,
    edge_bytes: Vec<u8>,
    edge_to: Vec<u32>,
    /// Per state, the state of its longest proper suffix in the trie.
    fail: Vec<u32>,
    /// Per state, where its reports start in `reports`, and the end.
    first_report: Vec<u32>,
    /// Literal indexes.
    reports: Vec<u32>,
}

impl Sparse {
    /// The automaton over `literals` (each reported by its index).
    pub(super) fn new<'a>(literals: impl Iterator<Item = &'a [u8]>) -> Sparse {
        // The trie, its states numbered as made.
        let mut child: HashMap<(u32, u8), u32> = HashMap::new();
        let mut made = 1u32;
        let mut ends: Vec<(u32, u32)> = vec![];
        for (i, literal) in literals.enumerate() {
            let mut sid = 0;
            for &b in literal {
                sid = *child.entry((sid, b)).or_insert_with(|| {
                    made += 1;
                    made - 1
                });
            }
            ends.push((sid, i as u32));
        }
        let n = made as usize;
        let mut edges: Vec<(u32, u8, u32)> =
            child.into_iter().map(|((s, b), c)| (s, b, c)).collect();
        edges.sort_unstable();
        let mut start = vec![0u32; n + 1];
        for &(s, _, _) in &edges {
            start[s as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        // Breadth-first numbering: a state's failure state, shallower,
        // comes before it.
        let mut order = vec![0u32];
        let mut new_of = vec![0u32; n];
        let mut at = 0;
        while at < order.len() {
            let old = order[at] as usize;
            at += 1;
            for &(_, _, c) in
                &edges[start[old] as usize..start[old + 1] as usize]
            {
                new_of[c as usize] = order.len() as u32;
                order.push(c);
            }
        }
        let mut ac = Sparse {
            first_edge: Vec::with_capacity(n + 1),
            edge_bytes: Vec::with_capacity(edges.len()),
            edge_to: Vec::with_capacity(edges.len()),
            fail: vec![0; n],
            first_report: Vec::with_capacity(n + 1),
            reports: vec![],
        };
        for &old in &order {
            let old = old as usize;
            ac.first_edge.push(ac.edge_bytes.len() as u32);
            for &(_, b, c) in
                &edges[start[old] as usize..start[old + 1] as usize]
            {
                ac.edge_bytes.push(b);
                ac.edge_to.push(new_of[c as usize]);
            }
        }
        ac.first_edge.push(ac.edge_bytes.len() as u32);
        // Failure links, breadth first.
        for sid in 0..n {
            for e in
                ac.first_edge[sid] as usize..ac.first_edge[sid + 1] as usize
            {
                let (b, c) = (ac.edge_bytes[e], ac.edge_to[e] as usize);
                ac.fail[c] = if sid == 0 {
                    0
                } else {
                    let mut f = ac.fail[sid] as usize;
                    loop {
                        if let Some(x) = ac.child(f, b) {
                            break x as u32;
                        }
                        if f == 0 {
                            break 0;
                        }
                        f = ac.fail[f] as usize;
                    }
                };
            }
        }
        // Reports: a state's own literals, in order, then its failure
        // state's (settled already).
        let mut own: Vec<(u32, u32)> =
            ends.iter().map(|&(s, i)| (new_of[s as usize], i)).collect();
        own.sort_unstable();
        let mut next_own = 0;
        for sid in 0..n {
            ac.first_report.push(ac.reports.len() as u32);
            while own.get(next_own).is_some_and(|o| o.0 as usize == sid) {
                ac.reports.push(own[next_own].1);
                next_own += 1;
            }
            if sid != 0 {
                let f = ac.fail[sid] as usize;
                let (lo, hi) = (ac.first_report[f], ac.first_report[f + 1]);
                ac.reports.extend_from_within(lo as usize..hi as usize);
            }
        }
        ac.first_report.push(ac.reports.len() as u32);
        ac
    }

    /// The number of states.
    pub(super) fn len(&self) -> usize {
        self.fail.len()
    }

    /// The trie's child of `sid` for `byte`.
    #[inline(always)]
    pub(super) fn child(&self, sid: State, byte: u8) -> Option<State> {
        let lo = self.first_edge[sid] as usize;
        let hi = self.first_edge[sid + 1] as usize;
        let at = self.edge_bytes[lo..hi].binary_search(&byte).ok()?;
        Some(self.edge_to[lo + at] as State)
    }

    fn fail(&self, sid: State) -> State {
        self.fail[sid] as State
    }

    pub(super) fn memory_usage(&self) -> usize {
        (self.first_edge.capacity()
            + self.edge_to.capacity()
            + self.fail.capacity()
            + self.first_report.capacity()
            + self.reports.capacity())
            * 4
            + self.edge_bytes.capacity()
    }
}

/// The sparse automaton itself, for literal sets too large for a table.
///
/// Its `next`, a loop over failure links, is always inlined into the
/// walk: the compiler otherwise leaves it a call for every byte.
impl Automaton for Sparse {
    #[inline(always)]
    fn start(&self) -> State {
        0
    }

    #[inline(always)]
    fn next(&self, mut sid: State, byte: u8) -> State {
        loop {
            if let Some(c) = self.child(sid, byte) {
                return c;
            }
            if sid == 0 {
                return 0;
            }
            sid = self.fail(sid);
        }
    }

    #[inline(always)]
    fn is_match(&self, sid: State) -> bool {
        self.first_report[sid] != self.first_report[sid + 1]
    }

    #[inline(always)]
    fn match_len(&self, sid: State) -> usize {
        (self.first_report[sid + 1] - self.first_report[sid]) as usize
    }

    #[inline(always)]
    fn match_slot(&self, sid: State, k: usize) -> usize {
        self.reports[self.first_report[sid] as usize + k] as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aho_corasick::automaton::Automaton as _;
    use aho_corasick::{dfa, Anchored, MatchKind};

    /// The reciprocal's quotient is the division's, for every stride a
    /// table can have, around each multiple and up to 2^32 - 1.
    #[test]
    fn ranks_by_reciprocal_are_quotients() {
        for stride in 2..=257usize {
            let reciprocal = u64::MAX / stride as u64 + 1;
            let mut offsets: Vec<usize> = (0..4 * stride).collect();
            for k in [1_000, 65_535, 1 << 20, (1 << 32) - 1] {
                let m = k / stride * stride;
                offsets.extend([m.saturating_sub(1), m, m + 1, k]);
            }
            for sid in offsets.into_iter().filter(|&s| s <= u32::MAX as usize)
            {
                assert_eq!(
                    rank_of(sid, reciprocal),
                    sid / stride,
                    "{sid} / {stride}"
                );
            }
        }
    }

    /// The sparse automaton and its table walk exactly as the crate's
    /// DFA does: the same match states reached at the same bytes,
    /// reporting the same literals in the same order.
    fn agree<S: StateInt>(literals: &[&[u8]], hays: &[&[u8]]) {
        let ac = dfa::DFA::builder()
            .match_kind(MatchKind::Standard)
            .build(literals)
            .unwrap();
        let sparse = Sparse::new(literals.iter().copied());
        let table = Dfa::<S>::new(&sparse, literals.iter().copied()).unwrap();
        // What `next` relies on: every cell starts a row.
        let stride = table.stride as usize;
        assert!(table.table.iter().all(|c| {
            let at = c.get();
            at % stride == 0 && at + stride <= table.table.len()
        }));
        for hay in hays {
            let mut want = ac.start_state(Anchored::No).unwrap();
            let mut got = table.start();
            let mut walked = sparse.start();
            for &b in *hay {
                want = ac.next_state(Anchored::No, want, b);
                got = table.next(got, b);
                walked = sparse.next(walked, b);
                assert_eq!(table.is_match(got), ac.is_match(want));
                assert_eq!(sparse.is_match(walked), ac.is_match(want));
                if ac.is_match(want) {
                    let w: Vec<usize> = (0..ac.match_len(want))
                        .map(|k| ac.match_pattern(want, k).as_usize())
                        .collect();
                    let g: Vec<usize> = (0..table.match_len(got))
                        .map(|k| {
                            table.report_order()[table.match_slot(got, k)]
                                as usize
                        })
                        .collect();
                    let s: Vec<usize> = (0..sparse.match_len(walked))
                        .map(|k| sparse.match_slot(walked, k))
                        .collect();
                    assert_eq!(g, w, "{:?}", String::from_utf8_lossy(hay));
                    assert_eq!(s, w, "{:?}", String::from_utf8_lossy(hay));
                }
            }
        }
    }

    #[test]
    fn tables_walk_as_the_crate_does() {
        let literals: &[&[u8]] = &[
            b"/bn_71",
            b"/bn_72",
            b"_kw",
            b"rt=nc",
            b"n_7",
            b"\xC3\xA9",
            b"k",
        ];
        let hays: &[&[u8]] = &[
            b"",
            b"/b/x/bn_7122?_kw=rt=nc",
            b"/bn_/bn_71/bn_72n_7k\xC3\xA9\xC3",
            b"rt=n_kwrt=ncc",
        ];
        agree::<u16>(literals, hays);
        agree::<u32>(literals, hays);
    }

    #[test]
    fn too_many_states_for_the_cell_is_none() {
        // 10,000 literals of five digits: 11,112 states (the root, then
        // 1, 10, 100, 1,000 and 10,000 at each depth) of 11 classes
        // do not fit 16 bits.
        let literals: Vec<Vec<u8>> =
            (0..10_000u32).map(|i| format!("{i:05}").into_bytes()).collect();
        let bytes = || literals.iter().map(|l| &l[..]);
        let ac = Sparse::new(bytes());
        assert!(Dfa::<u16>::new(&ac, bytes()).is_none());
        let table = Dfa::<u32>::new(&ac, bytes()).unwrap();
        assert_eq!(table.stride, 11);
        assert_eq!(table.table.len(), 11_112 * 11);
    }
}

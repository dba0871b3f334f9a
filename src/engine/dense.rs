//! The `dense` engine: dense DFAs over the patterns, each flattened into
//! a table that also knows, per state, the best pattern still reachable.
//!
//! regex-automata determinizes the NFA (anchored, `MatchKind::All`, byte
//! classes, bounded by size limits). We then walk the DFA once from its
//! start state and copy it into our own table, adding two numbers per state:
//!
//! * `tag`: the lowest pattern ID among the matches the state reports
//!   (regex-automata reports a match one byte late, on the state entered
//!   after the match's last byte; the end-of-input transition reports
//!   matches that end at the end of the path);
//! * `bound`: the lowest pattern ID that any continuation of the path from
//!   this state could still report.
//!
//! A scan keeps the best (lowest) ID seen so far and stops as soon as it is
//! no worse than the state's bound: the dead state's bound is "none", so the
//! scan of a path that can no longer match stops there, and a path that has
//! matched its best possible rule stops at once. Each byte costs two loads.

use std::collections::{BinaryHeap, HashMap};

use regex_automata::dfa::{dense, Automaton, StartKind};
use regex_automata::nfa::thompson::NFA;
use regex_automata::util::primitives::StateID;
use regex_automata::util::start;
use regex_automata::{Anchored, MatchKind};

use super::limits::Limits;
use super::pattern::{Pattern, NONE};

#[derive(Clone, Copy, Debug)]
struct StateInfo {
    /// Lowest pattern ID reported on entering this state.
    tag: u32,
    /// Lowest pattern ID reachable after this state.
    bound: u32,
}

/// One dense DFA over a set of patterns, flattened.
#[derive(Clone, Debug)]
pub(crate) struct DenseDfa {
    /// Byte to equivalence class.
    classes: [u8; 256],
    /// log2 of the row length (the number of classes, rounded up to a power
    /// of two), so a state's row starts at `index << stride2`.
    stride2: u32,
    /// Row-major transitions; each entry is the next state's row start.
    trans: Vec<u32>,
    /// Per state (indexed by `row start >> stride2`).
    info: Vec<StateInfo>,
    /// Per state: the lowest pattern ID reported at the end of the path.
    eoi: Vec<u32>,
    /// The start state's row start.
    start: u32,
}

impl DenseDfa {
    /// Determinizes `nfa`, whose pattern `i` has priority tag `ids[i]`.
    pub(crate) fn new(
        nfa: &NFA,
        ids: &[u32],
        limits: &Limits,
    ) -> Result<DenseDfa, String> {
        let dfa = dense::Builder::new()
            .configure(
                dense::Config::new()
                    .match_kind(MatchKind::All)
                    .start_kind(StartKind::Anchored)
                    .byte_classes(true)
                    .minimize(false)
                    .dfa_size_limit(Some(limits.dense_bytes))
                    .determinize_size_limit(Some(limits.determinize_bytes)),
            )
            .build_from_nfa(nfa)
            .map_err(|e| e.to_string())?;
        DenseDfa::flatten(&dfa, ids, limits.dense_bytes)
    }

    /// Copies the states reachable from the anchored start state into our
    /// table and computes each state's bound.
    fn flatten(
        dfa: &dense::DFA<Vec<u32>>,
        ids: &[u32],
        size_limit: usize,
    ) -> Result<DenseDfa, String> {
        let byte_classes = dfa.byte_classes();
        let mut classes = [0u8; 256];
        let mut reps: Vec<u8> = vec![];
        for b in 0..=255u8 {
            let c = byte_classes.get(b);
            classes[b as usize] = c;
            if usize::from(c) == reps.len() {
                reps.push(b);
            }
        }
        let stride2 = reps.len().next_power_of_two().trailing_zeros();
        let stride = 1usize << stride2;

        let start = dfa
            .start_state(&start::Config::new().anchored(Anchored::Yes))
            .map_err(|e| e.to_string())?;
        // Our state 0 is the dead state; regex-automata's dead state (and
        // any quit state, of which there are none) maps to it.
        let mut index: HashMap<StateID, u32> = HashMap::new();
        let mut order: Vec<StateID> = vec![StateID::ZERO];
        let mut trans: Vec<u32> = vec![0; stride];
        let mut info = vec![StateInfo { tag: NONE, bound: NONE }];
        let mut eoi = vec![NONE];
        let mut lookup = |id: StateID,
                          order: &mut Vec<StateID>,
                          trans: &mut Vec<u32>,
                          info: &mut Vec<StateInfo>|
         -> Result<u32, String> {
            if dfa.is_dead_state(id) || dfa.is_quit_state(id) {
                return Ok(0);
            }
            if let Some(&i) = index.get(&id) {
                return Ok(i);
            }
            let i = order.len() as u32;
            if (order.len() + 1) * stride * 4 > size_limit {
                return Err(format!("flattened DFA over {size_limit} bytes"));
            }
            index.insert(id, i);
            order.push(id);
            trans.extend(std::iter::repeat_n(0, stride));
            info.push(StateInfo {
                tag: min_pattern(dfa, id, ids),
                bound: NONE,
            });
            Ok(i)
        };
        let start_index = lookup(start, &mut order, &mut trans, &mut info)?;
        let mut next = 1;
        while next < order.len() {
            let id = order[next];
            for (class, &rep) in reps.iter().enumerate() {
                let to = lookup(
                    dfa.next_state(id, rep),
                    &mut order,
                    &mut trans,
                    &mut info,
                )?;
                trans[(next << stride2) + class] = to << stride2;
            }
            eoi.push(min_pattern(dfa, dfa.next_eoi_state(id), ids));
            next += 1;
        }
        let bounds = bounds(&trans, &info, &eoi, stride2, reps.len());
        for (state, bound) in info.iter_mut().zip(bounds) {
            state.bound = bound;
        }
        Ok(DenseDfa {
            classes,
            stride2,
            trans,
            info,
            eoi,
            start: start_index << stride2,
        })
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.trans.capacity() * 4
            + self.info.capacity() * std::mem::size_of::<StateInfo>()
            + self.eoi.capacity() * 4
    }

    /// The lowest pattern ID that matches a prefix of `path`, or `best` if
    /// that is lower (a better match found by another automaton).
    #[inline]
    pub(crate) fn find_from(&self, path: &[u8], best: u32) -> u32 {
        let mut s = self.start;
        let start = self.info[(s >> self.stride2) as usize];
        let mut best = best.min(start.tag);
        if best <= start.bound {
            return best;
        }
        for &b in path {
            // Indexing is checked: every entry of `trans` is a valid row
            // start by construction, so the checks never fail, and they
            // cost little next to the loads.
            s = self.trans
                [(s as usize) + usize::from(self.classes[usize::from(b)])];
            let info = self.info[(s >> self.stride2) as usize];
            best = best.min(info.tag);
            if best <= info.bound {
                return best;
            }
        }
        best.min(self.eoi[(s >> self.stride2) as usize])
    }
}

/// The lowest priority tag among the patterns a state reports, or `NONE`.
fn min_pattern(dfa: &dense::DFA<Vec<u32>>, id: StateID, ids: &[u32]) -> u32 {
    if !dfa.is_match_state(id) {
        return NONE;
    }
    (0..dfa.match_len(id))
        .map(|i| ids[dfa.match_pattern(id, i).as_usize()])
        .min()
        .unwrap_or(NONE)
}

/// For each state, the lowest pattern ID reachable after it: through the
/// end-of-input transition or by entering a reporting state. Computed like
/// a shortest path on the reversed graph, lowest values settled first.
fn bounds(
    trans: &[u32],
    info: &[StateInfo],
    eoi: &[u32],
    stride2: u32,
    nclasses: usize,
) -> Vec<u32> {
    let n = info.len();
    let mut preds: Vec<Vec<u32>> = vec![vec![]; n];
    let mut bound = vec![NONE; n];
    for s in 1..n {
        let row = &trans[s << stride2..(s << stride2) + nclasses];
        let mut b = eoi[s];
        for &to in row {
            let t = (to >> stride2) as usize;
            b = b.min(info[t].tag);
            let p = preds[t].last().copied();
            if p != Some(s as u32) {
                preds[t].push(s as u32);
            }
        }
        bound[s] = b;
    }
    let mut heap: BinaryHeap<std::cmp::Reverse<(u32, u32)>> = (1..n)
        .filter(|&s| bound[s] != NONE)
        .map(|s| std::cmp::Reverse((bound[s], s as u32)))
        .collect();
    while let Some(std::cmp::Reverse((b, t))) = heap.pop() {
        if b > bound[t as usize] {
            continue;
        }
        for &p in &preds[t as usize] {
            if b < bound[p as usize] {
                bound[p as usize] = b;
                heap.push(std::cmp::Reverse((b, p)));
            }
        }
    }
    bound
}

/// Dense DFAs over sets of patterns, together answering for all of them.
///
/// One DFA over every pattern is best, but some wildcard rules make
/// determinization blow up: each pattern with two or more `*` adds states
/// that multiply with every other such pattern's, so a real file with
/// hundreds of them would not build in reasonable time or memory (see
/// docs/DESIGN.md, "The prefix trie and its layout"). So patterns with at
/// most one `*` (which together stay the size of an Aho-Corasick automaton)
/// are kept apart from those with more, and a set that still goes over the
/// limits is split in two by priority and each half tried again. A scan
/// runs every part, passing on the best ID found so far: a part whose
/// patterns all rank below it is skipped, and inside a part the per-state
/// bound stops the scan early.
#[derive(Clone, Debug)]
pub(crate) struct DenseEngine {
    /// `(lowest priority tag of the part, its DFA)`.
    parts: Vec<(u32, DenseDfa)>,
}

impl DenseEngine {
    /// Builds the parts for `patterns`, whose priority tags are `ids`
    /// (ascending). Fails (the caller falls back to the lazy DFA) when more
    /// than `max_parts` parts would be needed.
    pub(crate) fn new(
        patterns: &[Pattern],
        ids: &[u32],
        limits: &Limits,
    ) -> Result<DenseEngine, String> {
        let (simple, multi): (Vec<usize>, Vec<usize>) =
            (0..patterns.len()).partition(|&i| star_count(&patterns[i]) <= 1);
        let mut parts = vec![];
        let mut attempts = 0;
        for class in [simple, multi] {
            // Ranges of `class` still to build, the most important on top.
            let mut todo = vec![(0, class.len())];
            while let Some((lo, hi)) = todo.pop() {
                if lo == hi {
                    continue;
                }
                attempts += 1;
                if parts.len() >= limits.max_parts
                    || attempts > limits.max_parts * 4
                {
                    return Err(format!(
                        "more than {} dense parts needed",
                        limits.max_parts
                    ));
                }
                let members = &class[lo..hi];
                let pats: Vec<Pattern> =
                    members.iter().map(|&i| patterns[i].clone()).collect();
                let tags: Vec<u32> = members.iter().map(|&i| ids[i]).collect();
                let nfa = super::nfa::build(&pats, limits)?;
                match DenseDfa::new(&nfa, &tags, limits) {
                    Ok(dfa) => parts.push((tags[0], dfa)),
                    Err(why) if hi - lo == 1 => return Err(why),
                    Err(why) => {
                        log::debug!(
                            "{} patterns: {why}; splitting in two",
                            hi - lo
                        );
                        let mid = lo + (hi - lo) / 2;
                        todo.push((mid, hi));
                        todo.push((lo, mid));
                    }
                }
            }
        }
        parts.sort_by_key(|p| p.0);
        Ok(DenseEngine { parts })
    }

    pub(crate) fn len(&self) -> usize {
        self.parts.len()
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.parts.capacity() * std::mem::size_of::<(u32, DenseDfa)>()
            + self.parts.iter().map(|(_, d)| d.memory_usage()).sum::<usize>()
    }

    /// The lowest tag of a pattern that matches a prefix of `path`, or
    /// `best` if that is lower.
    #[inline]
    pub(crate) fn find_from(&self, path: &[u8], mut best: u32) -> u32 {
        for (lo, dfa) in &self.parts {
            if best < *lo {
                break;
            }
            best = dfa.find_from(path, best);
        }
        best
    }
}

fn star_count(p: &Pattern) -> usize {
    match p.syntax {
        super::Syntax::Glob => p.bytes.iter().filter(|&&b| b == b'*').count(),
        super::Syntax::Literal => 0,
    }
}

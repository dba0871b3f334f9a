//! Surveys: how much of a site a robots.txt keeps an agent from, the measure
//! of studies that count sites rather than URLs.
//!
//! The [`Scope`] of an agent's rules is `full` when every path but the
//! implicit `/robots.txt` (which RFC 9309 and the 1996 draft always allow) is
//! disallowed, `none` when no path is, and `partial` otherwise. It is decided
//! exactly, from the rules in the order the matcher tries them (see
//! [`scope`]), not from the rules' text: `Disallow: /` with `Allow: /public`
//! is partial, `Disallow: /*` is full, `Disallow: /$` alone is partial.
//! The proof's work is bounded by the size of the patterns ([`scope_work`]);
//! where it runs out, the scope is `unknown` and the finding says so.
//!
//! ```
//! use robots_batch::survey::{scope, Scope};
//! use robots_batch::{Dialect, Robots, RuleSet};
//!
//! let robots = Robots::parse(b"User-agent: *\nDisallow: /\nAllow: /public\n");
//! let rules = RuleSet::select(&robots, "GPTBot", Dialect::Rfc9309);
//! let found = scope(&rules);
//! assert_eq!(found.scope, Scope::Partial);
//! assert_eq!(found.allowed.as_deref(), Some(&b"/public"[..]));
//! assert_eq!(found.disallowed.as_deref(), Some(&b"/"[..]));
//! ```

mod budget;
pub mod classify;
pub mod history;
mod period;
pub mod plot;
mod prune;

use std::collections::{HashMap, VecDeque};

use crate::dialect::Dialect;
use crate::engine::Syntax;
use crate::matcher::prioritized;
use crate::robots::{LineKind, Robots};
use crate::rules::{GroupMatch, RuleSet};
use crate::usage::{Usage, UsagePrefs};
use budget::Budget;
use prune::Pat;

pub use budget::{
    scope_work, MAX_SCOPE_WORK, MIN_SCOPE_WORK, SCOPE_WORK_PER_BYTE,
};

/// How much of a site an agent's rules disallow.
#[derive(Clone, Copy, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
pub enum Scope {
    /// Every path but the implicit `/robots.txt` is disallowed.
    Full,
    /// Some paths are disallowed and some allowed.
    Partial,
    /// No path is disallowed.
    None,
    /// Not decided: the proof ran out of work ([`scope_work`]; the finding's
    /// `bound_hit` says so), or, in a survey, no robots.txt was read and the
    /// fetch policy says nothing.
    Unknown,
}

impl Scope {
    /// `full`, `partial`, `none` or `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            Scope::Full => "full",
            Scope::Partial => "partial",
            Scope::None => "none",
            Scope::Unknown => "unknown",
        }
    }
}

/// Which group an agent's rules come from, in a survey's terms.
#[derive(Clone, Copy, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
pub enum GroupKind {
    /// A group names the agent.
    Named,
    /// No group names it; the `*` groups apply.
    Star,
    /// No group applies (or there is no robots.txt).
    None,
}

impl GroupKind {
    /// `named`, `star` or `none`.
    pub fn name(self) -> &'static str {
        match self {
            GroupKind::Named => "named",
            GroupKind::Star => "star",
            GroupKind::None => "none",
        }
    }

    /// The kind of a rule set's group. In the older standards the agent
    /// `*` finds the `*` record by name: that is `star` too.
    pub fn of(group: &GroupMatch) -> GroupKind {
        match group {
            GroupMatch::Agent(name) if name.as_slice() == b"*" => {
                GroupKind::Star
            }
            GroupMatch::Agent(_) => GroupKind::Named,
            GroupMatch::Star => GroupKind::Star,
            GroupMatch::None => GroupKind::None,
        }
    }
}

/// A [`Scope`] with the paths that show it: one the rules allow and one
/// they disallow, where there are such paths (the implicit `/robots.txt`
/// never counts). Paths are as the dialect normalises them.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct ScopeFinding {
    /// The scope.
    pub scope: Scope,
    /// A path the rules allow (none when the scope is full or unknown).
    pub allowed: Option<Vec<u8>>,
    /// A path the rules disallow (none when the scope is none or unknown).
    pub disallowed: Option<Vec<u8>>,
    /// Whether the rules allow `/`.
    pub root_allowed: bool,
    /// Whether the proof stopped at its bound, [`scope_work`] units of
    /// work, which leaves the scope unknown.
    pub bound_hit: bool,
}

/// The scope of `rules`: whether some path is allowed and some disallowed.
///
/// The verdict on a path is the first matching pattern's, in the order the
/// matcher tries them (longest first, allow first at equal length, for RFC
/// 9309 and Google; file order for the older standards), else allowed; the
/// implicit `/robots.txt` is left out. Paths that would show the scope are
/// tried first (`/` and each pattern written out, with and without a byte
/// after it); when they show only one side, the product of the patterns'
/// automata is explored, over the bytes the patterns name and one byte they
/// do not (all other bytes lead every pattern alike), which proves that the
/// other side has no path at all. Before that, patterns that never decide
/// (an earlier one matches wherever they do, as `Disallow: /*a*b*$` does
/// where `Allow: /*a*b$` does) are left out, as each would multiply the
/// states. All of it spends at most [`scope_work`] of the patterns' bytes
/// units of work: beyond, the scope is [`Scope::Unknown`], with
/// `bound_hit`.
pub fn scope(rules: &RuleSet) -> ScopeFinding {
    scope_within(rules, None)
}

/// [`scope`] with `work` units of work, or [`scope_work`]'s.
fn scope_within(rules: &RuleSet, work: Option<u64>) -> ScopeFinding {
    let mut auto = Automaton::new(rules);
    if !auto.pats.iter().any(|p| !p.allow) {
        return ScopeFinding {
            scope: Scope::None,
            allowed: Some(b"/".to_vec()),
            disallowed: None,
            root_allowed: true,
            bound_hit: false,
        };
    }
    let mut budget = Budget::new(work.unwrap_or(scope_work(auto.bytes())));
    // `/` first: it is allowed or disallowed, and only candidates written
    // from patterns of the other kind can show the other side.
    let first = auto.step(&auto.start(), b'/');
    budget.spend(auto.pats.len() as u64 + 1);
    let root = auto.verdict(&first);
    let root_allowed = root != Some(false);
    let (mut allowed, mut disallowed) = (None, None);
    match root {
        Some(true) | None => allowed = Some(b"/".to_vec()),
        Some(false) => disallowed = Some(b"/".to_vec()),
    }
    let want_allowed = allowed.is_none();
    // The candidates are a guess: they get a quarter of the work, and the
    // search, which proves, the rest.
    let mut guess = budget.split(4);
    for path in auto.candidates(want_allowed) {
        let Some(verdict) = auto.judge(&first, &path[1..], &mut guess) else {
            break;
        };
        if verdict == Some(want_allowed) {
            if want_allowed {
                allowed = Some(path);
            } else {
                disallowed = Some(path);
            }
            return ScopeFinding {
                scope: Scope::Partial,
                allowed,
                disallowed,
                root_allowed,
                bound_hit: false,
            };
        }
    }
    budget.refund(guess);
    auto.prune(want_allowed, &mut budget);
    // The states number the patterns: they are renumbered once pruned.
    let first = auto.step(&auto.start(), b'/');
    match auto.search(first, want_allowed, &mut budget) {
        Search::Found(path) => {
            if want_allowed {
                allowed = Some(path);
            } else {
                disallowed = Some(path);
            }
            ScopeFinding {
                scope: Scope::Partial,
                allowed,
                disallowed,
                root_allowed,
                bound_hit: false,
            }
        }
        Search::Absent => ScopeFinding {
            scope: if want_allowed { Scope::Full } else { Scope::None },
            allowed,
            disallowed,
            root_allowed,
            bound_hit: false,
        },
        Search::TooBig => ScopeFinding {
            scope: Scope::Unknown,
            allowed: None,
            disallowed: None,
            root_allowed,
            bound_hit: true,
        },
    }
}

/// One agent's line of a survey of a robots.txt.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct AgentScope {
    /// Where the agent's rules come from.
    pub group: GroupKind,
    /// How much they disallow.
    pub scope: Scope,
    /// How many allow and disallow lines apply to the agent (empty ones
    /// included).
    pub rules: usize,
    /// Whether the agent may fetch `/`: usage preferences are only stated
    /// for paths that may be fetched.
    pub root_allowed: bool,
    /// Whether the scope is unknown because its proof stopped at its bound
    /// ([`scope_work`]).
    pub bound_hit: bool,
}

/// The survey of one robots.txt: an [`AgentScope`] per agent, in order.
///
/// Agents whose rules are the same (in RFC 9309 and Google, every agent
/// that no group names gets the `*` groups) share one decision.
pub fn survey(
    robots: &Robots,
    agents: &[String],
    dialect: Dialect,
) -> Vec<AgentScope> {
    let tokens = group_tokens(robots, dialect);
    let mut star: Option<AgentScope> = None;
    let mut seen: Vec<(RuleSet, AgentScope)> = vec![];
    let mut out = Vec::with_capacity(agents.len());
    for agent in agents {
        let unnamed = is_unnamed(&tokens, agent);
        if unnamed {
            if let Some(s) = star {
                out.push(s);
                continue;
            }
        }
        let rules = RuleSet::select(robots, agent, dialect);
        let known = seen.iter().find(|(r, _)| {
            r.group() == rules.group() && r.rules().eq(rules.rules())
        });
        let found = match known {
            Some((_, s)) => *s,
            None => {
                let found = scope(&rules);
                let s = AgentScope {
                    group: GroupKind::of(rules.group()),
                    scope: found.scope,
                    rules: rules.rules().len(),
                    root_allowed: found.root_allowed,
                    bound_hit: found.bound_hit,
                };
                seen.push((rules, s));
                s
            }
        };
        if unnamed {
            star = Some(found);
        }
        out.push(found);
    }
    out
}

/// The usage preferences at `/` of each agent of a [`survey`] (`scopes`, in
/// the same order): `None` for an agent that may not fetch `/`, as
/// preferences are only stated for paths that may be fetched.
pub fn usage_at_root(
    robots: &Robots,
    agents: &[String],
    dialect: Dialect,
    scopes: &[AgentScope],
) -> Vec<Option<UsagePrefs>> {
    // Most files have no usage line: every preference is unknown.
    let any = robots.lines().iter().any(|l| l.kind().is_usage());
    let tokens = if any { group_tokens(robots, dialect) } else { None };
    let mut star: Option<UsagePrefs> = None;
    let mut out = Vec::with_capacity(agents.len());
    for (agent, s) in agents.iter().zip(scopes) {
        if !s.root_allowed {
            out.push(None);
            continue;
        }
        if !any {
            out.push(Some(UsagePrefs::default()));
            continue;
        }
        let unnamed = is_unnamed(&tokens, agent);
        let prefs = match star {
            Some(prefs) if unnamed => prefs,
            _ => Usage::select(robots, agent, dialect).prefs(b"/"),
        };
        if unnamed {
            star = Some(prefs);
        }
        out.push(Some(prefs));
    }
    out
}

/// The tokens of a file's `User-agent` lines, as RFC 9309 and Google read
/// them (`None` for the older standards). There, a group names an agent
/// only by its exact token, so an agent that none of them is gets what
/// `*` gets; the older standards search substrings and must select.
fn group_tokens(robots: &Robots, dialect: Dialect) -> Option<Vec<&[u8]>> {
    dialect.is_longest_match().then(|| {
        robots
            .lines()
            .iter()
            .filter(|l| l.kind() == LineKind::UserAgent)
            .map(|l| {
                let v = robots.value(l);
                let n = v
                    .iter()
                    .take_while(|&&b| {
                        b.is_ascii_alphabetic() || b == b'_' || b == b'-'
                    })
                    .count();
                &v[..n]
            })
            .collect()
    })
}

/// Whether no group names `agent`, by the file's [`group_tokens`].
fn is_unnamed(tokens: &Option<Vec<&[u8]>>, agent: &str) -> bool {
    tokens.as_ref().is_some_and(|t| {
        !t.iter().any(|tok| tok.eq_ignore_ascii_case(agent.as_bytes()))
    })
}

/// The patterns of a rule set, in priority order, run side by side.
#[derive(Debug)]
struct Automaton {
    pats: Vec<Pat>,
    /// Whether `/robots.txt` is always allowed.
    implicit: bool,
}

/// Where the patterns stand after some bytes of a path.
///
/// Only what can still decide is kept: once a pattern without `$` has
/// matched a prefix, it decides every longer path unless a pattern before
/// it in priority order matches too, so the patterns after it are dropped.
#[derive(Clone, Debug, Eq, Hash, PartialEq)]
struct State {
    /// The live (pattern, position) pairs, sorted, none of a pattern after
    /// `matched`.
    threads: Vec<(u32, u32)>,
    /// The first pattern without `$`, in priority order, that matched a
    /// prefix of the path.
    matched: Option<u32>,
    /// How many bytes of `/robots.txt` the path is so far; `u8::MAX` once
    /// it is something else.
    robots: u8,
}

const ROBOTS_TXT: &[u8] = b"/robots.txt";

enum Search {
    Found(Vec<u8>),
    Absent,
    TooBig,
}

impl Automaton {
    fn new(rules: &RuleSet) -> Automaton {
        let (patterns, pattern_rule) = prioritized(rules);
        // Every path starts with `/`: a pattern that starts with another
        // byte matches none (`Disallow: www.a.com/x`), and is left out.
        let (patterns, pattern_rule): (Vec<_>, Vec<_>) = patterns
            .into_iter()
            .zip(pattern_rule)
            .filter(|(p, _)| {
                let wild = p.syntax == Syntax::Glob && p.bytes[0] == b'*';
                p.bytes[0] == b'/' || wild
            })
            .unzip();
        let pats: Vec<Pat> = patterns
            .iter()
            .zip(&pattern_rule)
            .map(|(p, &(_, allow))| {
                let (body, anchored) = match (p.syntax, p.bytes.split_last()) {
                    (Syntax::Glob, Some((b'$', body))) => (body, true),
                    _ => (&p.bytes[..], false),
                };
                let glob = p.syntax == Syntax::Glob;
                let toks = body
                    .iter()
                    .map(|&b| if glob && b == b'*' { None } else { Some(b) })
                    .collect();
                Pat { toks, anchored, allow }
            })
            .collect();
        let implicit =
            matches!(rules.dialect(), Dialect::Rfc9309 | Dialect::Draft1996);
        Automaton { pats, implicit }
    }

    /// The size of the patterns, which the proof's work is bounded by.
    fn bytes(&self) -> usize {
        self.pats.iter().map(|p| p.toks.len() + 1).sum()
    }

    /// Leaves out the patterns that never decide ([`prune::dead`]): those
    /// that could show a path `want_allowed` first (so that the search sees
    /// none it need not), then those with a `*`, which multiply the states.
    fn prune(&mut self, want_allowed: bool, budget: &mut Budget) {
        let rank = |p: &Pat| match p.allow == want_allowed {
            true => 2,
            false => u8::from(p.toks.contains(&None)),
        };
        // Half of what is left, so that the search has the rest.
        let mut share = budget.split(2);
        let dead = prune::dead(&self.pats, rank, &mut share);
        budget.refund(share);
        if dead.is_empty() {
            return;
        }
        let mut k = 0;
        let mut i = 0;
        self.pats.retain(|_| {
            let keep = dead.get(k) != Some(&i);
            k += usize::from(!keep);
            i += 1;
            keep
        });
    }

    /// The verdict on the path `/` then `rest`, from `first`, the state
    /// after `/`, as the matcher gives it: the first pattern that matches
    /// decides, else it is allowed; `Some(None)` for the implicit
    /// `/robots.txt`. `None` when `budget`, a unit per thread stepped, runs
    /// out first.
    fn judge(
        &self,
        first: &State,
        rest: &[u8],
        budget: &mut Budget,
    ) -> Option<Option<bool>> {
        let mut state = None;
        for &b in rest {
            let now = state.as_ref().unwrap_or(first);
            if !budget.spend(now.threads.len() as u64 + 1) {
                return None;
            }
            state = Some(self.step(now, b));
        }
        Some(self.verdict(state.as_ref().unwrap_or(first)))
    }

    /// The state before the path's first byte.
    fn start(&self) -> State {
        let mut raw = vec![];
        for i in 0..self.pats.len() {
            self.push_closed(i as u32, 0, &mut raw);
        }
        self.settle(raw, None, 0)
    }

    /// Pushes (pattern, position) and, past each `*` there, the next.
    fn push_closed(&self, i: u32, mut j: u32, out: &mut Vec<(u32, u32)>) {
        let toks = &self.pats[i as usize].toks;
        out.push((i, j));
        while toks.get(j as usize) == Some(&None) {
            j += 1;
            out.push((i, j));
        }
    }

    /// Sorts the threads, records the first full match of a pattern
    /// without `$`, and drops what can no longer decide.
    fn settle(
        &self,
        mut raw: Vec<(u32, u32)>,
        mut matched: Option<u32>,
        robots: u8,
    ) -> State {
        raw.sort_unstable();
        raw.dedup();
        for &(i, j) in &raw {
            let p = &self.pats[i as usize];
            if !p.anchored && j as usize == p.toks.len() {
                matched = Some(matched.map_or(i, |m| m.min(i)));
            }
        }
        if let Some(m) = matched {
            raw.retain(|&(i, _)| i < m);
        }
        State { threads: raw, matched, robots }
    }

    fn step(&self, state: &State, byte: u8) -> State {
        let robots = match ROBOTS_TXT.get(usize::from(state.robots)) {
            Some(&b) if b == byte => state.robots + 1,
            _ => u8::MAX,
        };
        let mut raw = Vec::with_capacity(state.threads.len());
        for &(i, j) in &state.threads {
            match self.pats[i as usize].toks.get(j as usize) {
                Some(None) => self.push_closed(i, j, &mut raw),
                Some(Some(b)) if *b == byte => {
                    self.push_closed(i, j + 1, &mut raw)
                }
                _ => {}
            }
        }
        self.settle(raw, state.matched, robots)
    }

    /// `Some(allowed)` for the path that led to `state`, or `None` for the
    /// implicit `/robots.txt`, which shows no scope.
    fn verdict(&self, state: &State) -> Option<bool> {
        if self.implicit && usize::from(state.robots) == ROBOTS_TXT.len() {
            return None;
        }
        let anchored = state.threads.iter().find(|&&(i, j)| {
            let p = &self.pats[i as usize];
            p.anchored && j as usize == p.toks.len()
        });
        let first = match (anchored.map(|t| t.0), state.matched) {
            (Some(a), Some(m)) => Some(a.min(m)),
            (a, m) => a.or(m),
        };
        Some(first.is_none_or(|i| self.pats[i as usize].allow))
    }

    /// Paths likely to be allowed (`allow`) or disallowed: each pattern of
    /// that kind written out (`*` as nothing or as a byte no pattern
    /// names), alone and with that byte after it.
    fn candidates(&self, allow: bool) -> impl Iterator<Item = Vec<u8>> + '_ {
        let free = self.free_byte().unwrap_or(b'/');
        let pats = self.pats.iter().filter(move |p| p.allow == allow);
        pats.flat_map(move |p| {
            [None, Some(free)].into_iter().flat_map(move |star| {
                let mut path = vec![];
                for t in &p.toks {
                    match (t, star) {
                        (Some(b), _) => path.push(*b),
                        (None, Some(f)) => path.push(f),
                        (None, None) => {}
                    }
                }
                if path.first() != Some(&b'/') {
                    path.insert(0, b'/');
                }
                let mut longer = path.clone();
                longer.push(free);
                [path, longer]
            })
        })
    }

    /// The bytes the patterns (and the implicit `/robots.txt`) name.
    fn named_bytes(&self) -> [bool; 256] {
        let mut named = [false; 256];
        for p in &self.pats {
            for b in p.toks.iter().flatten() {
                named[usize::from(*b)] = true;
            }
        }
        if self.implicit {
            for &b in ROBOTS_TXT {
                named[usize::from(b)] = true;
            }
        }
        named[usize::from(b'/')] = true;
        named
    }

    /// A printable byte that no pattern names, which stands for all such
    /// bytes.
    fn free_byte(&self) -> Option<u8> {
        let named = self.named_bytes();
        (b'!'..=b'~').find(|&b| !named[usize::from(b)] && b != b'%')
    }

    /// Whether no path that starts with the one that led to `state` can be
    /// allowed (`want_allowed`) or disallowed. A longer path is decided by
    /// the first pattern, in priority order, among the one that matched
    /// already and those still live; so a disallowed one needs a live
    /// disallow pattern unless the matched one disallows, and an allowed
    /// one, when the matched pattern disallows, needs a live allow pattern.
    fn hopeless(&self, state: &State, want_allowed: bool) -> bool {
        let live = |allow: bool| {
            state
                .threads
                .iter()
                .any(|&(i, _)| self.pats[i as usize].allow == allow)
        };
        let matched = state.matched.map(|m| self.pats[m as usize].allow);
        if want_allowed {
            matched == Some(false) && !live(true)
        } else {
            matched != Some(false) && !live(false)
        }
    }

    /// Explores every path (breadth first, from `/`, whose state is
    /// `first`) for one that is allowed (`want_allowed`) or disallowed,
    /// spending a unit of `budget` per thread stepped and two per thread
    /// kept, with a few per state.
    fn search(
        &self,
        first: State,
        want_allowed: bool,
        budget: &mut Budget,
    ) -> Search {
        let named = self.named_bytes();
        let mut alphabet: Vec<u8> =
            (0..=255u8).filter(|&b| named[usize::from(b)]).collect();
        alphabet.extend(self.free_byte());
        let cost = |s: &State| s.threads.len() as u64 + 1;
        if !budget.spend(cost(&first) * 2 + 4) {
            return Search::TooBig;
        }
        // Each state's way in, by its number: the state it came from and
        // the byte, so that a path is written out only once found.
        let mut from: Vec<(u32, u8)> = vec![(u32::MAX, b'/')];
        let mut seen: HashMap<State, u32> = HashMap::new();
        let mut queue: VecDeque<(State, u32)> = VecDeque::new();
        seen.insert(first.clone(), 0);
        queue.push_back((first, 0));
        while let Some((state, node)) = queue.pop_front() {
            if self.verdict(&state) == Some(want_allowed) {
                return Search::Found(path_to(&from, node));
            }
            if self.hopeless(&state, want_allowed) {
                continue;
            }
            for &b in &alphabet {
                let next = self.step(&state, b);
                if !budget.spend(cost(&state) + cost(&next)) {
                    return Search::TooBig;
                }
                if seen.contains_key(&next) {
                    continue;
                }
                if !budget.spend(cost(&next) * 2 + 4) {
                    return Search::TooBig;
                }
                let id = from.len() as u32;
                from.push((node, b));
                seen.insert(next.clone(), id);
                queue.push_back((next, id));
            }
        }
        Search::Absent
    }
}

/// The path that led to state `node` of a search.
fn path_to(from: &[(u32, u8)], mut node: u32) -> Vec<u8> {
    let mut path = vec![];
    while let Some(&(back, b)) = from.get(node as usize) {
        path.push(b);
        node = back;
    }
    path.reverse();
    path
}

#[cfg(test)]
mod tests;

//! A rule set compiled for one agent, and the verdicts it gives.

use crate::dialect::Dialect;
use crate::engine::{
    Engine, EngineKind, EngineScratch, Limits, Pattern, Syntax,
};
use crate::lowlevel::prefetch::Region;
use crate::robots::{Robots, MAX_LINE_LEN};
use crate::rules::{GroupMatch, Rule, RuleSet, Rules};
use crate::url::lines::UrlLine;
use std::borrow::Cow;
use std::sync::Arc;

/// Why a URL got its verdict.
#[derive(Clone, Copy, Debug, Eq, Hash, PartialEq)]
pub enum Reason {
    /// A rule decided; the index is into [`Matcher::rules`].
    Rule(u32),
    /// A group applies but none of its rules matched the path.
    NoMatchingRule,
    /// No group of the robots.txt applies to the agent.
    NoGroup,
    /// The path is `/robots.txt`, which RFC 9309 and the 1996 draft always
    /// allow.
    ImplicitRobotsTxt,
}

impl Reason {
    /// The rule of `rules` that decided, for [`Reason::Rule`] (`rules` are
    /// those of the matcher that gave the reason).
    pub fn rule(self, rules: &RuleSet) -> Option<Rule<'_>> {
        match self {
            Reason::Rule(k) => rules.rule(k as usize),
            _ => None,
        }
    }

    /// The reason's name in reports: `rule`, `no-matching-rule`,
    /// `no-group` or `implicit-robots-txt`.
    pub fn name(self) -> &'static str {
        match self {
            Reason::Rule(_) => "rule",
            Reason::NoMatchingRule => "no-matching-rule",
            Reason::NoGroup => "no-group",
            Reason::ImplicitRobotsTxt => "implicit-robots-txt",
        }
    }
}

/// Whether a URL may be fetched, and why.
#[derive(Clone, Copy, Debug, Eq, Hash, PartialEq)]
pub struct Verdict {
    allowed: bool,
    reason: Reason,
}

impl Verdict {
    /// True when the URL may be fetched.
    pub fn is_allowed(self) -> bool {
        self.allowed
    }

    /// `allowed` or `disallowed`.
    pub fn name(self) -> &'static str {
        Verdict::name_of(self.allowed)
    }

    /// The name of the verdict that allows or not, for tables built at
    /// compile time.
    pub(crate) const fn name_of(allowed: bool) -> &'static str {
        if allowed {
            "allowed"
        } else {
            "disallowed"
        }
    }

    /// Why.
    pub fn reason(self) -> Reason {
        self.reason
    }
}

/// Why a verdict is what it is, from the matcher that gave it: the
/// deciding rule, the group the rules came from, and the reason. Made by
/// [`Matcher::explain`]; the output formats render it (`--explain`), and
/// its `Display` is the sentence that `check --explain` prints.
///
/// ```
/// use robots_batch::{Dialect, Matcher, Robots};
///
/// let robots = Robots::parse(b"User-agent: *\nDisallow: /private\n");
/// let matcher = Matcher::new(&robots, "ExampleBot", Dialect::Rfc9309);
/// let verdict = matcher.verdict(b"/private/x", &mut matcher.scratch());
/// let why = matcher.explain(verdict.reason());
/// assert_eq!(why.rule().map(|r| r.line()), Some(2));
/// assert_eq!(why.group(), Some(&b"*"[..]));
/// assert_eq!(why.to_string(), "line 2: Disallow: /private; group *");
/// ```
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct Explanation<'a> {
    rule: Option<Rule<'a>>,
    group: Option<&'a [u8]>,
    reason: Reason,
}

impl<'a> Explanation<'a> {
    /// The rule that decided (its [`Rule::line`] and [`Rule::text`]), when
    /// the reason is [`Reason::Rule`].
    pub fn rule(&self) -> Option<Rule<'a>> {
        self.rule
    }

    /// The group the rules came from, as [`GroupMatch::name`] shows it;
    /// `None` when no group applies.
    pub fn group(&self) -> Option<&'a [u8]> {
        self.group
    }

    /// The reason.
    pub fn reason(&self) -> Reason {
        self.reason
    }
}

/// Per-thread scratch space for [`Matcher::verdict`]: make one per thread
/// with [`Matcher::scratch`] and reuse it, so that no verdict allocates.
#[derive(Clone, Debug)]
pub struct Scratch {
    path: Vec<u8>,
    engine: EngineScratch,
}

/// Builds [`Matcher`]s. Every limit is bounded by default.
#[derive(Clone, Debug, Eq, Hash, PartialEq)]
pub struct MatcherBuilder {
    engine: EngineKind,
    limits: Limits,
}

impl Default for MatcherBuilder {
    fn default() -> MatcherBuilder {
        MatcherBuilder::new()
    }
}

impl MatcherBuilder {
    /// A builder with the default engine ([`EngineKind::Trie`]) and limits.
    pub fn new() -> MatcherBuilder {
        MatcherBuilder {
            engine: EngineKind::Trie,
            limits: Limits {
                nfa_bytes: 64 << 20,
                dense_bytes: 8 << 20,
                determinize_bytes: 1 << 20,
                lazy_cache_bytes: 8 << 20,
                max_parts: 16,
            },
        }
    }

    /// The matching strategy (default [`EngineKind::Trie`]).
    pub fn engine(&mut self, engine: EngineKind) -> &mut MatcherBuilder {
        self.engine = engine;
        self
    }

    /// The matching strategy it builds with.
    pub fn engine_kind(&self) -> EngineKind {
        self.engine
    }

    /// The most heap the dense DFA may take, in bytes (default 8 MiB).
    /// Past it, and past the determinization limit, the `dense` engine splits
    /// its rules, then falls back to the lazy DFA. Small limits compile
    /// faster on hostile rules.
    pub fn dense_size_limit(&mut self, bytes: usize) -> &mut MatcherBuilder {
        self.limits.dense_bytes = bytes;
        self
    }

    /// The most scratch memory determinization may use, in bytes (default
    /// 1 MiB). It bounds the time a dense compile can take before it gives
    /// up.
    pub fn determinize_size_limit(
        &mut self,
        bytes: usize,
    ) -> &mut MatcherBuilder {
        self.limits.determinize_bytes = bytes;
        self
    }

    /// The lazy DFA's cache capacity per thread, in bytes (default 8 MiB).
    pub fn lazy_cache_capacity(
        &mut self,
        bytes: usize,
    ) -> &mut MatcherBuilder {
        self.limits.lazy_cache_bytes = bytes;
        self
    }

    /// The most heap the NFA that both DFAs start from may take (default
    /// 64 MiB). Past it the rules are matched by the naive engine.
    pub fn nfa_size_limit(&mut self, bytes: usize) -> &mut MatcherBuilder {
        self.limits.nfa_bytes = bytes;
        self
    }

    /// Selects the rules of `robots` for `agent` in `dialect` and compiles
    /// them.
    pub fn build(
        &self,
        robots: &Robots,
        agent: &str,
        dialect: Dialect,
    ) -> Matcher {
        self.build_rules(RuleSet::select(robots, agent, dialect))
    }

    /// Compiles an already selected rule set.
    pub fn build_rules(&self, rules: RuleSet) -> Matcher {
        self.build_shared(Arc::new(rules))
    }

    /// Compiles a rule set that others share (crawl mode judges an
    /// origin's first URL with its rules before it builds a matcher).
    pub(crate) fn build_shared(&self, rules: Arc<RuleSet>) -> Matcher {
        let (patterns, pattern_rule) = prioritized(&rules);
        let engine = Engine::build(self.engine, &patterns, &self.limits);
        log::debug!(
            "{} patterns for group {:?} compiled to {} ({} bytes)",
            patterns.len(),
            String::from_utf8_lossy(rules.group().name()),
            engine.strategy(),
            engine.memory_usage()
        );
        drop(patterns);
        let unruled = Unruled::of(&rules);
        Matcher { rules, unruled, engine, pattern_rule }
    }
}

/// The patterns of `rules` in the order they are tried, the first that
/// matches a path deciding it, and for each its rule's index and whether
/// it allows. Empty patterns, which never decide, are left out; Google's
/// reading adds the directory of an allowed `index.htm...`.
pub(crate) fn prioritized(
    rules: &RuleSet,
) -> (Vec<Pattern<'_>>, Vec<(u32, bool)>) {
    let dialect = rules.dialect();
    let syntax = Syntax::of(dialect);
    // (pattern length, allows, rule index, pattern)
    let mut tagged: Vec<(usize, bool, u32, Cow<'_, [u8]>)> =
        Vec::with_capacity(rules.rules().len());
    each_pattern(rules, |i, allow, pattern| {
        tagged.push((pattern.len(), allow, i, pattern));
    });
    // The patterns' places in `tagged` (the low bits), in priority order.
    let mut order: Vec<u64> = tagged
        .iter()
        .enumerate()
        .map(|(place, t)| priority(dialect, t.0, t.1, place))
        .collect();
    if dialect.is_longest_match() {
        sort_priorities(&mut order);
    }
    let place = |k: &u64| (k & PLACES) as usize;
    let pattern_rule = order
        .iter()
        .map(|k| {
            let (_, allow, rule, _) = &tagged[place(k)];
            (*rule, *allow)
        })
        .collect();
    let patterns: Vec<Pattern> = order
        .iter()
        .map(|k| Pattern {
            bytes: std::mem::take(&mut tagged[place(k)].3),
            syntax,
        })
        .collect();
    (patterns, pattern_rule)
}

/// Google's reference library reads `Allow: /d/index.htm...` as also
/// allowing `/d/` itself: the pattern up to its last `/`, anchored.
fn google_index_directory(pattern: &[u8]) -> Option<Vec<u8>> {
    let slash = pattern.iter().rposition(|&b| b == b'/')?;
    if !pattern[slash..].starts_with(b"/index.htm") {
        return None;
    }
    let mut dir = pattern[..=slash].to_vec();
    dir.push(b'$');
    Some(dir)
}

/// Calls `f` with each pattern of `rules` that can decide a path, in file
/// order: its rule's index, whether it allows, and its bytes. Empty
/// patterns, which never decide, are left out; Google's reading adds the
/// directory of an allowed `index.htm...` after the rule's own pattern.
fn each_pattern<'r>(
    rules: &'r RuleSet,
    mut f: impl FnMut(u32, bool, Cow<'r, [u8]>),
) {
    let google = rules.dialect() == Dialect::Google;
    for (i, rule) in rules.rules().enumerate() {
        if rule.pattern().is_empty() {
            continue;
        }
        f(i as u32, rule.is_allow(), Cow::Borrowed(rule.pattern()));
        if google && rule.is_allow() {
            if let Some(dir) = google_index_directory(rule.pattern()) {
                f(i as u32, true, Cow::Owned(dir));
            }
        }
    }
}

/// A pattern's place in priority order, the lowest first, with `place`
/// (its place among [`each_pattern`]'s patterns) in the low 47 bits.
///
/// For longest-match dialects: longest first, allow before disallow at
/// equal length, then file order so that explanations name the first such
/// line (a rule's patterns come in file order). The keys are packed into
/// one integer, as sorting tuples costs more, and crawl mode sorts once for
/// every host of a log; 64 bits hold them (see [`MAX_PATTERN_LEN`]), and
/// sort faster than 128. For the others, file order.
fn priority(dialect: Dialect, len: usize, allow: bool, place: usize) -> u64 {
    debug_assert!(len <= MAX_PATTERN_LEN && place as u64 <= PLACES);
    let place = place as u64;
    if !dialect.is_longest_match() {
        return place;
    }
    let shorter = u64::from(!(len as u16));
    let disallow = u64::from(!allow);
    place | shorter << 48 | disallow << 47
}

/// Sorts priority keys made in place order (see [`priority`]).
///
/// Above their places, keys differ only in a pattern's length and whether
/// it allows, which take few values in a file: the keys are counted into
/// those classes rather than compared (keys of one class stay in place
/// order), for crawl mode builds matchers for every host of a log.
fn sort_priorities(order: &mut Vec<u64>) {
    let class = |k: u64| (k >> 47) as usize;
    let (Some(first), Some(last)) = (
        order.iter().map(|&k| class(k)).min(),
        order.iter().map(|&k| class(k)).max(),
    ) else {
        return;
    };
    // With few keys, or many classes a key, comparing costs less.
    let span = last - first + 1;
    if order.len() < 16 || span > 2 * order.len() {
        order.sort_unstable();
        return;
    }
    // Where each class starts, then each key put at its class's next.
    let mut next = vec![0u32; span + 1];
    for &k in order.iter() {
        next[class(k) - first + 1] += 1;
    }
    for c in 1..=span {
        next[c] += next[c - 1];
    }
    let mut sorted = vec![0; order.len()];
    for &k in order.iter() {
        let at = &mut next[class(k) - first];
        sorted[*at as usize] = k;
        *at += 1;
    }
    *order = sorted;
}

/// Longer than any pattern a rule can have: a pattern comes from its
/// line's first `MAX_LINE_LEN` bytes, each normalised to at most three
/// (`%XX`). It fits the 16 bits [`priority`] gives a pattern's length.
const MAX_PATTERN_LEN: usize = 3 * MAX_LINE_LEN + 1;
const _: () = assert!(MAX_PATTERN_LEN <= u16::MAX as usize);

/// The low bits of a priority key, a pattern's place: more patterns than
/// any file that fits in memory holds.
const PLACES: u64 = (1 << 47) - 1;

impl RuleSet {
    /// The verdict that a matcher built from these rules gives for `path`
    /// (extracted and normalised with [`Dialect::path`] in their dialect),
    /// found without building one: each pattern is tried in file order,
    /// and the first in priority order among those that match decides.
    ///
    /// For a path or two, this costs less than building a matcher (crawl
    /// mode judges an origin's first URL so: most origins of a log have
    /// one or a few); for more, build one.
    ///
    /// ```
    /// use robots_batch::{Dialect, Matcher, Robots, RuleSet};
    ///
    /// let robots = Robots::parse(b"User-agent: *\nDisallow: /a\nAllow: /a/b\n");
    /// let rules = RuleSet::select(&robots, "FooBot", Dialect::Rfc9309);
    /// let mut buf = vec![];
    /// let path = Dialect::Rfc9309.path(b"https://e.com/a/b?c", &mut buf);
    /// let m = Matcher::new(&robots, "FooBot", Dialect::Rfc9309);
    /// assert_eq!(rules.verdict_path(path), m.verdict_path(path, &mut m.scratch()));
    /// assert!(rules.verdict_path(path).is_allowed());
    /// ```
    pub fn verdict_path(&self, path: &[u8]) -> Verdict {
        if let Some(v) = Unruled::of(self).verdict(path) {
            return v;
        }
        let dialect = self.dialect();
        let syntax = Syntax::of(dialect);
        let (mut place, mut path_set) = (0, None);
        // (priority, rule index, allows) of the best match so far
        let mut best: Option<(u64, u32, bool)> = None;
        each_pattern(self, |i, allow, bytes| {
            let key = priority(dialect, bytes.len(), allow, place);
            place += 1;
            if best.is_some_and(|(b, ..)| b < key) {
                return;
            }
            if (Pattern { bytes, syntax }).matches_prefix(path, &mut path_set)
            {
                best = Some((key, i, allow));
            }
        });
        match best {
            None => Verdict { allowed: true, reason: Reason::NoMatchingRule },
            Some((_, rule, allowed)) => {
                Verdict { allowed, reason: Reason::Rule(rule) }
            }
        }
    }
}

/// What decides a path before any rule does: the dialect (whose implicit
/// `/robots.txt` RFC 9309 and the 1996 draft allow) and whether an agent's
/// group was found.
#[derive(Clone, Copy, Debug)]
struct Unruled {
    dialect: Dialect,
    no_group: bool,
}

impl Unruled {
    fn of(rules: &RuleSet) -> Unruled {
        Unruled {
            dialect: rules.dialect(),
            no_group: *rules.group() == GroupMatch::None,
        }
    }

    /// The verdict for `path` when no rule can decide it.
    #[inline]
    fn verdict(self, path: &[u8]) -> Option<Verdict> {
        if matches!(self.dialect, Dialect::Rfc9309 | Dialect::Draft1996)
            && path == b"/robots.txt"
        {
            return Some(Verdict {
                allowed: true,
                reason: Reason::ImplicitRobotsTxt,
            });
        }
        if self.no_group {
            return Some(Verdict { allowed: true, reason: Reason::NoGroup });
        }
        None
    }
}

/// The rules that apply to one agent, compiled: give it URLs, get verdicts.
///
/// A `Matcher` is immutable and `Sync`: share one between threads, and give
/// each thread its own [`Scratch`].
#[derive(Clone, Debug)]
pub struct Matcher {
    rules: Arc<RuleSet>,
    /// Read from `rules` once, so that a verdict reads the matcher and
    /// not the rules: a crawl log in random host order meets each
    /// matcher afresh, and the rules are one more load from memory.
    unruled: Unruled,
    engine: Engine,
    /// For each engine pattern ID, the index of its rule and whether the
    /// rule allows.
    ///
    /// The verdict is read here rather than from the rule, which is
    /// several times larger and, in a group of hundreds of rules, often
    /// not in the cache.
    pattern_rule: Vec<(u32, bool)>,
}

impl Matcher {
    /// Parses nothing: compiles `robots` for `agent` in `dialect` with the
    /// default builder.
    pub fn new(robots: &Robots, agent: &str, dialect: Dialect) -> Matcher {
        MatcherBuilder::new().build(robots, agent, dialect)
    }

    /// Scratch space for [`Matcher::verdict`], one per thread.
    pub fn scratch(&self) -> Scratch {
        Scratch {
            path: Vec::with_capacity(256),
            engine: self.engine.new_scratch(),
        }
    }

    /// Makes `scratch`, made for another matcher, ready for this one,
    /// keeping its buffers: a thread that moves from one matcher to the
    /// next (a crawl log's origins) allocates nothing.
    pub fn renew_scratch(&self, scratch: &mut Scratch) {
        self.engine.renew_scratch(&mut scratch.engine);
    }

    /// The dialect the matcher was compiled for.
    pub fn dialect(&self) -> Dialect {
        self.unruled.dialect
    }

    /// The group the rules come from.
    pub fn group(&self) -> &GroupMatch {
        self.rules.group()
    }

    /// The rules that apply, in file order ([`Reason::Rule`] indexes them).
    pub fn rules(&self) -> Rules<'_> {
        self.rules.rules()
    }

    /// Why this matcher gave a verdict for `reason`: the rule it names,
    /// and the group, whatever the reason (every verdict of a matcher
    /// comes from the same group).
    pub fn explain(&self, reason: Reason) -> Explanation<'_> {
        let rule = reason.rule(&self.rules);
        let group = match self.group() {
            GroupMatch::None => None,
            group => Some(group.name()),
        };
        Explanation { rule, group, reason }
    }

    /// True when `other` gives the same verdict as this matcher for every
    /// path, with the same reasons: the same dialect, the same rules from
    /// the same lines, and a group for both or neither. The groups' names
    /// may differ (two agents named by one group).
    pub fn has_same_rules(&self, other: &Matcher) -> bool {
        self.dialect() == other.dialect()
            && (*self.group() == GroupMatch::None)
                == (*other.group() == GroupMatch::None)
            && self.strategy() == other.strategy()
            && self.rules().eq(other.rules())
    }

    /// The strategy in use after any fallback: `empty`, `naive`, `scan`,
    /// `trie`, `dense-dfa`, `dense-dfa-split` or `lazy-dfa`.
    pub fn strategy(&self) -> &'static str {
        self.engine.strategy()
    }

    /// Heap bytes of the compiled automaton.
    pub fn memory_usage(&self) -> usize {
        self.engine.memory_usage()
    }

    /// Heap bytes the matcher holds besides its rules (which matchers
    /// built from one rule set share): the automaton
    /// ([`Matcher::memory_usage`]) and the table from its patterns to the
    /// rules. What keeping a matcher costs, with
    /// [`RuleSet::memory_usage`] for its rules.
    pub fn heap_bytes(&self) -> usize {
        let table = std::mem::size_of::<(u32, bool)>();
        self.engine.memory_usage() + self.pattern_rule.capacity() * table
    }

    /// The memory a verdict reads past the matcher itself, for a
    /// prefetch.
    pub(crate) fn regions(&self, each: &mut dyn FnMut(Region)) {
        self.engine.regions(each);
        each(Region::of(&self.pattern_rule));
    }

    /// The verdict for one URL line (an absolute URL, or a path, or
    /// anything: every line gets a verdict).
    #[inline]
    pub fn verdict(&self, url: &[u8], scratch: &mut Scratch) -> Verdict {
        let Scratch { path, engine } = scratch;
        let path = self.unruled.dialect.path(url, path);
        self.decide(path, engine)
    }

    /// The verdict for a line whose path
    /// [`UrlLines`](crate::url::lines::UrlLines) found.
    #[inline]
    pub(crate) fn verdict_scanned(
        &self,
        line: &UrlLine<'_>,
        scratch: &mut Scratch,
    ) -> Verdict {
        let Scratch { path, engine } = scratch;
        let path = self
            .unruled
            .dialect
            .path_of(line.path, line.flags, line.short, path);
        self.decide(path, engine)
    }

    /// The verdict for a path already extracted and normalised with
    /// [`Dialect::path`] in this matcher's dialect.
    ///
    /// Matchers that share a dialect share the path of a URL: with several
    /// agents, extract it once and give it to each of them. The verdict is
    /// the one [`Matcher::verdict`] gives for the URL.
    ///
    /// ```
    /// use robots_batch::{Dialect, Matcher, Robots};
    ///
    /// let robots = Robots::parse(b"User-agent: a\nDisallow: /x\n");
    /// let a = Matcher::new(&robots, "a", Dialect::Rfc9309);
    /// let b = Matcher::new(&robots, "b", Dialect::Rfc9309);
    /// let (mut sa, mut sb) = (a.scratch(), b.scratch());
    /// let mut buf = vec![];
    /// let path = Dialect::Rfc9309.path(b"https://e.com/x?y", &mut buf);
    /// assert!(!a.verdict_path(path, &mut sa).is_allowed());
    /// assert!(b.verdict_path(path, &mut sb).is_allowed());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn verdict_path(&self, path: &[u8], scratch: &mut Scratch) -> Verdict {
        self.decide(path, &mut scratch.engine)
    }

    /// Where a matcher decides a verdict, from the matched path
    /// ([`RuleSet::verdict_path`] decides on the same terms without one).
    #[inline]
    fn decide(&self, path: &[u8], engine: &mut EngineScratch) -> Verdict {
        if let Some(v) = self.unruled.verdict(path) {
            return v;
        }
        match self.engine.find(path, engine) {
            None => Verdict { allowed: true, reason: Reason::NoMatchingRule },
            Some(id) => {
                let (rule, allowed) = self.pattern_rule[id as usize];
                Verdict { allowed, reason: Reason::Rule(rule) }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counted_priorities_come_in_the_order_compared_ones_do() {
        // Sets of keys in place order, few and many, of lengths close
        // together (counted) and far apart (compared), every one put
        // where sorting the keys puts it.
        let mut rng = crate::testing::xorshift(0x2545_F491_4F6C_DD1D);
        for n in [0, 1, 2, 15, 16, 17, 40, 200, 3_000] {
            for max_len in [1, 8, 60, 1_000, MAX_PATTERN_LEN] {
                let keys: Vec<u64> = (0..n)
                    .map(|place| {
                        let len = (rng() % max_len as u64) as usize;
                        priority(Dialect::Google, len, rng() & 1 == 0, place)
                    })
                    .collect();
                let mut counted = keys.clone();
                sort_priorities(&mut counted);
                let mut compared = keys;
                compared.sort_unstable();
                assert_eq!(counted, compared, "{n} keys up to {max_len}");
            }
        }
    }

    /// The bound the priority keys count on: a line of `MAX_LINE_LEN`
    /// bytes, its value one byte repeated (for every byte), selected in
    /// every dialect, allowed (so that Google adds a directory pattern
    /// where the value names `index.htm`) and disallowed; and such
    /// patterns put in priority order, longest first, among short ones.
    #[test]
    fn no_pattern_is_longer_than_the_priority_keys_hold() {
        let mut longest = 0;
        for b in 0..=255u8 {
            for key in ["Allow", "Disallow"] {
                let mut line = format!("{key}: /index.htm").into_bytes();
                line.resize(MAX_LINE_LEN, b);
                let mut body = b"User-agent: *\nAllow: /\n".to_vec();
                body.extend_from_slice(&line);
                body.extend_from_slice(b"\nDisallow: /index.htm/x\n");
                // Longer than a byte counts.
                body.extend_from_slice(b"Disallow: /index.htm/");
                body.extend_from_slice(&[b'y'; 250]);
                let robots = Robots::parse(&body);
                for dialect in Dialect::ALL {
                    let rules = RuleSet::select(&robots, "a", dialect);
                    each_pattern(&rules, |_, _, pattern| {
                        longest = longest.max(pattern.len());
                    });
                    if dialect.is_longest_match() {
                        let (patterns, _) = prioritized(&rules);
                        let lens: Vec<usize> =
                            patterns.iter().map(|p| p.bytes.len()).collect();
                        assert!(
                            lens.windows(2).all(|w| w[0] >= w[1]),
                            "{dialect:?} {b}: {lens:?}"
                        );
                    }
                }
            }
        }
        assert!(longest > 2 * MAX_LINE_LEN, "{longest}");
        assert!(longest < MAX_PATTERN_LEN, "{longest}");
    }

    /// The verdict found without building a matcher is the built
    /// matcher's, reason and deciding rule included, in every dialect:
    /// random files whose rules tie in length (allow against disallow, and
    /// equal patterns on several lines), hold wildcards, anchors, empty
    /// values and Google's `index.html` directories, for agents that name a
    /// group, fall back to `*`, or find none, and for `/robots.txt`.
    #[test]
    fn rule_set_verdicts_are_the_built_matchers() {
        let mut rng = crate::testing::xorshift(0x9E37_79B9_7F4A_7C15u64);
        let mut next = move |n: usize| (rng() % n as u64) as usize;
        let pieces = ["/", "a", "b", "*", "$", "/index.html", "%2F", "é"];
        let pattern = |next: &mut dyn FnMut(usize) -> usize| {
            let n = next(5);
            (0..n).map(|_| pieces[next(pieces.len())]).collect::<String>()
        };
        let mut scan = MatcherBuilder::new();
        scan.engine(EngineKind::Scan);
        let builders = [MatcherBuilder::new(), scan];
        let mut buf = vec![];
        for _ in 0..400 {
            let mut body = String::new();
            for _ in 0..1 + next(3) {
                let agent = ["*", "foo", "bar"][next(3)];
                body.push_str(&format!("User-agent: {agent}\n"));
                for _ in 0..next(8) {
                    let key = ["Allow", "Disallow"][next(2)];
                    let value = pattern(&mut next);
                    // Some values repeat the one before, others' lengths.
                    body.push_str(&format!("{key}: /{value}\n"));
                }
            }
            let robots = Robots::parse(body.as_bytes());
            // And the path that RFC 9309 and the 1996 draft allow whatever
            // the rules, which the matcher tells from its own copy of the
            // rules' dialect.
            let mut paths: Vec<String> =
                (0..12).map(|_| format!("/{}", pattern(&mut next))).collect();
            paths.push("/robots.txt".into());
            for dialect in [
                Dialect::Rfc9309,
                Dialect::Google,
                Dialect::Draft1996,
                Dialect::Orig1994,
            ] {
                for agent in ["foo", "baz"] {
                    for builder in &builders {
                        let m = builder.build(&robots, agent, dialect);
                        let mut scratch = m.scratch();
                        for path in paths.iter().map(|p| p.as_bytes()) {
                            let path = dialect.path(path, &mut buf);
                            assert_eq!(
                                m.rules.verdict_path(path),
                                m.verdict_path(path, &mut scratch),
                                "{dialect:?} {agent} {:?}\n{body}",
                                String::from_utf8_lossy(path),
                            );
                        }
                    }
                }
            }
        }
    }
}

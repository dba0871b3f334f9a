//! The Content-Usage lines of a [`Usage`](crate::Usage), indexed by path
//! as a matcher indexes Allow and Disallow rules: by the engine that gives
//! verdicts, over the lines' patterns in priority order.
//!
//! A path's preference for one category is that of the lines whose
//! patterns match it the longest, the most restrictive winning among
//! them, the first in file order naming the line. So, per category, the
//! patterns are ordered longest first, then by what they state for the
//! category (disallow, allow, nothing), then in file order: the first that
//! matches a path, which the engine finds, decides its preference and its
//! line. The two AIPREF categories order the lines differently, so each
//! has its own engine; one in which no line states anything needs none.

use std::borrow::Cow;
use std::cmp::Reverse;

use super::prefs::{Category, Preference, UsageLine, UsagePrefs};
use crate::dialect::Dialect;
use crate::engine::{
    Engine, EngineScratch, Pattern, ScanEngine, Syntax, TrieEngine,
};

/// The AIPREF categories, which Content-Usage lines state, in the order of
/// [`PathIndex`]'s engines.
const CATEGORIES: [Category; 2] = [Category::TrainAi, Category::Search];

/// The Content-Usage lines of one agent, ready to give a path's
/// preferences in time that does not grow with their number (see the
/// module docs).
#[derive(Clone, Debug)]
pub(crate) struct PathIndex {
    /// Per category, its engine over the lines with a path, or `None` when
    /// the category's preference is the same for every path (then it is
    /// `unpathed`'s).
    engines: [Option<Ranked>; 2],
    /// The lines without a path, combined: they match every path with a
    /// length of 0, so they decide where no line with a path matches.
    unpathed: UsagePrefs,
}

/// One category's engine and, per pattern (in the engine's priority
/// order), the preference its line states and the line.
#[derive(Clone, Debug)]
struct Ranked {
    engine: Engine,
    outcomes: Vec<(Preference, u32)>,
}

impl PathIndex {
    /// Indexes `lines`, the Content-Usage lines of one agent in file
    /// order, their patterns normalised in `dialect`.
    pub(crate) fn new(lines: &[UsageLine], dialect: Dialect) -> PathIndex {
        let mut unpathed = UsagePrefs::default();
        let mut pathed: Vec<(&[u8], &UsageLine)> = vec![];
        for line in lines {
            match line.pattern() {
                // A path is never empty (it starts with `/`); an empty one
                // would match every path with a length of 0 all the same.
                Some(p) if !p.is_empty() => pathed.push((p, line)),
                _ => unpathed.combine(line.prefs()),
            }
        }
        let syntax = Syntax::of(dialect);
        let engines = CATEGORIES.map(|category| {
            let states =
                |l: &UsageLine| l.prefs().get(category) != Preference::Unknown;
            let needed = !pathed.is_empty()
                && (unpathed.get(category) != Preference::Unknown
                    || pathed.iter().any(|&(_, l)| states(l)));
            needed.then(|| Ranked::new(&pathed, category, syntax))
        });
        PathIndex { engines, unpathed }
    }

    /// The preferences the lines give `path` (normalised in the dialect
    /// of the lines' patterns).
    pub(crate) fn prefs(&self, path: &[u8]) -> UsagePrefs {
        let mut prefs = UsagePrefs::default();
        // A scratch per call, as the callers share the index between
        // threads: the trie's allocates only when a path meets many
        // wildcard tails, and no engine here needs a per-thread cache.
        let mut scratch = EngineScratch::default();
        for (category, ranked) in CATEGORIES.into_iter().zip(&self.engines) {
            let found = ranked.as_ref().and_then(|r| {
                let id = r.engine.find(path, &mut scratch)?;
                Some(r.outcomes[id as usize])
            });
            // No line with a path matches, or none states anything for
            // the category: the lines without a path decide.
            let (pref, line) = found.unwrap_or_else(|| {
                let line = self.unpathed.line(category).unwrap_or_default();
                (self.unpathed.get(category), line)
            });
            prefs.set(category, pref, line);
        }
        prefs
    }
}

impl Ranked {
    /// The engine of `category` over `pathed`, the lines with a path in
    /// file order.
    fn new(
        pathed: &[(&[u8], &UsageLine)],
        category: Category,
        syntax: Syntax,
    ) -> Ranked {
        let rank = |l: &UsageLine| match l.prefs().get(category) {
            Preference::Disallowed => 2,
            Preference::Allowed => 1,
            Preference::Unknown => 0,
        };
        let mut order: Vec<usize> = (0..pathed.len()).collect();
        // Stable: equal keys stay in file order.
        order.sort_by_key(|&i| {
            let (pattern, line) = pathed[i];
            (Reverse(pattern.len()), Reverse(rank(line)))
        });
        let patterns: Vec<Pattern> = order
            .iter()
            .map(|&i| Pattern { bytes: Cow::Borrowed(pathed[i].0), syntax })
            .collect();
        let outcomes = order
            .iter()
            .map(|&i| {
                let line = pathed[i].1;
                (line.prefs().get(category), line.line())
            })
            .collect();
        let engine = match TrieEngine::new(&patterns) {
            Ok(trie) => Engine::Trie(Box::new(trie)),
            Err(why) => {
                // The scan is linear in the lines per path but bounded,
                // and needs no per-thread cache, which `prefs` cannot keep.
                log::debug!("no trie for the usage lines ({why})");
                Engine::Scan(ScanEngine::new(&patterns))
            }
        };
        Ranked { engine, outcomes }
    }
}

#[cfg(test)]
mod tests {
    use super::super::prefs::{UsagePrefs, UsageSource};
    use crate::{Dialect, Robots, Usage};

    /// The preferences as the lines give them tried one by one: those
    /// whose patterns match the longest combined (the reference engine's
    /// glob deciding a match), then the signals.
    fn tried_one_by_one(usage: &Usage, path: &[u8]) -> UsagePrefs {
        let mut scratch = Default::default();
        let mut best: Option<(usize, UsagePrefs)> = None;
        let mut signals = UsagePrefs::default();
        for line in usage.lines() {
            if line.source() == UsageSource::ContentSignal {
                signals.combine(line.prefs());
                continue;
            }
            let pattern = line.pattern().unwrap_or_default();
            if !crate::engine::glob_matches_prefix(pattern, path, &mut scratch)
            {
                continue;
            }
            match best {
                Some((l, _)) if l > pattern.len() => {}
                Some((l, ref mut p)) if l == pattern.len() => {
                    p.combine(line.prefs())
                }
                _ => best = Some((pattern.len(), *line.prefs())),
            }
        }
        let mut prefs = best.map(|(_, p)| p).unwrap_or_default();
        prefs.combine(&signals);
        prefs
    }

    /// The index agrees with the lines tried one by one, preferences and
    /// deciding lines, on random sets of up to 40 lines over a small
    /// alphabet: equally long matches, identical paths, wildcards, anchors,
    /// lines without a path, and preferences for one category or both.
    #[test]
    fn index_agrees_with_the_lines_tried_one_by_one() {
        let prefs = [
            "train-ai=y",
            "train-ai=n",
            "search=y",
            "search=n",
            "train-ai=n, search=y",
            "train-ai=y, search=n",
            "train-ai=y, search=y",
            "other=n",
            "TRAIN-AI=n",
        ];
        let mut rng = crate::testing::xorshift(0x9E37_79B9_7F4A_7C15);
        let mut checked = 0;
        for _ in 0..2_000 {
            let mut robots = String::from("User-agent: *\nAllow: /\n");
            for _ in 0..1 + rng() % 40 {
                robots.push_str("Content-Usage: ");
                if !rng().is_multiple_of(5) {
                    robots.push('/');
                    for _ in 0..rng() % 4 {
                        robots.push(['a', 'b', '*', '/'][rng() as usize % 4]);
                    }
                    if rng().is_multiple_of(6) {
                        robots.push('$');
                    }
                    robots.push(' ');
                }
                robots.push_str(prefs[rng() as usize % prefs.len()]);
                robots.push('\n');
            }
            if rng().is_multiple_of(4) {
                robots.push_str("Content-Signal: ai-train=yes, search=no\n");
            }
            let parsed = Robots::parse(robots.as_bytes());
            for dialect in [Dialect::Rfc9309, Dialect::Google] {
                let usage = Usage::select(&parsed, "bot", dialect);
                for _ in 0..20 {
                    let mut path = b"/".to_vec();
                    for _ in 0..rng() % 6 {
                        path.push([b'a', b'b', b'/'][rng() as usize % 3]);
                    }
                    assert_eq!(
                        usage.prefs(&path),
                        tried_one_by_one(&usage, &path),
                        "{dialect}: {robots:?} {:?}",
                        String::from_utf8_lossy(&path)
                    );
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 80_000);
    }
}

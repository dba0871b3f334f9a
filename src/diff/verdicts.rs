//! The URLs whose verdict changes: each agent's rules compiled from the old
//! and the new robots.txt, and the verdicts of the two compared.

use crate::dialect::Dialect;
use crate::matcher::{Explanation, Matcher, MatcherBuilder, Scratch, Verdict};
use crate::robots::Robots;
use crate::rules::RuleSet;

/// The matchers of each agent in an old and a new robots.txt, to find the
/// URLs whose verdict changes and say why.
///
/// Each distinct rule set is compiled once: the agents the `*` groups
/// judge share a matcher, and an agent whose rules did not change has
/// one matcher for both files. A [`Batch`](crate::Batch) judges a file of
/// URLs by [`VerdictDiff::matchers`] on every core, with a
/// [`MatcherWorker`](crate::MatcherWorker), and a
/// [`Render`](crate::Render) hands each line's verdicts to
/// [`VerdictDiff::changes`].
///
/// ```
/// use robots_batch::diff::VerdictDiff;
/// use robots_batch::{Dialect, MatcherBuilder, Robots};
///
/// let old = Robots::parse(b"User-agent: *\nDisallow: /a\n");
/// let new = Robots::parse(b"User-agent: *\nDisallow: /b\n");
/// let diff = VerdictDiff::new(
///     &MatcherBuilder::new(), &old, &new, &["GPTBot"], Dialect::Rfc9309,
/// );
/// let mut scratch = diff.scratch();
/// let changes = diff.changes_of(b"https://example.com/a/1", &mut scratch);
/// assert_eq!(changes.len(), 1);
/// assert_eq!(changes[0].old.name(), "disallowed");
/// assert_eq!(changes[0].old_why.to_string(), "line 2: Disallow: /a; group *");
/// assert_eq!(changes[0].new_why.to_string(), "no matching rule; group *");
/// assert!(diff.changes_of(b"/c", &mut scratch).is_empty());
/// ```
#[derive(Clone, Debug)]
pub struct VerdictDiff {
    agents: Vec<String>,
    dialect: Dialect,
    /// Each distinct rule set of either file, compiled.
    matchers: Vec<Matcher>,
    /// For each agent, the indices of its old and its new matcher.
    slots: Vec<(usize, usize)>,
}

/// An agent's verdict on a URL that is not the same under the new
/// robots.txt as under the old.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct VerdictChange<'d> {
    /// The agent's index in [`VerdictDiff::agents`].
    pub agent: usize,
    /// The verdict under the old robots.txt.
    pub old: Verdict,
    /// The verdict under the new robots.txt.
    pub new: Verdict,
    /// Why the old verdict: its rule (a line of the old file) or reason,
    /// and group.
    pub old_why: Explanation<'d>,
    /// Why the new verdict: its rule (a line of the new file) or reason,
    /// and group.
    pub new_why: Explanation<'d>,
}

impl VerdictDiff {
    /// Compiles the rules `old` and `new` give each of `agents` in
    /// `dialect` with `builder`.
    pub fn new<S: AsRef<str>>(
        builder: &MatcherBuilder,
        old: &Robots,
        new: &Robots,
        agents: &[S],
        dialect: Dialect,
    ) -> VerdictDiff {
        let agents: Vec<String> =
            agents.iter().map(|a| a.as_ref().to_string()).collect();
        let mut matchers: Vec<Matcher> = vec![];
        let mut slot = |robots: &Robots, agent: &str| {
            let rules = RuleSet::select(robots, agent, dialect);
            let same = |m: &Matcher| {
                m.group() == rules.group()
                    && m.rules().len() == rules.len()
                    && m.rules().eq(rules.rules())
            };
            matchers.iter().position(same).unwrap_or_else(|| {
                matchers.push(builder.build_rules(rules));
                matchers.len() - 1
            })
        };
        let slots = agents
            .iter()
            .map(|agent| (slot(old, agent), slot(new, agent)))
            .collect();
        VerdictDiff { agents, dialect, matchers, slots }
    }

    /// The agents, in the order given.
    pub fn agents(&self) -> &[String] {
        &self.agents
    }

    /// The distinct rule sets of both files, compiled: the verdicts
    /// [`VerdictDiff::changes`] takes are theirs, in this order.
    pub fn matchers(&self) -> &[Matcher] {
        &self.matchers
    }

    /// The agents whose verdict changes, in the agents' order, from one
    /// URL's `verdicts` by [`VerdictDiff::matchers`] (in their order).
    pub fn changes<'d, 'v>(
        &'d self,
        verdicts: &'v [Verdict],
    ) -> impl Iterator<Item = VerdictChange<'d>> + 'v
    where
        'd: 'v,
    {
        // A short slice (not one verdict per matcher) gives no change.
        let complete = verdicts.len() >= self.matchers.len();
        let slots = if complete { &self.slots[..] } else { &[] };
        slots.iter().enumerate().filter_map(move |(agent, &(o, n))| {
            let (old, new) = (verdicts[o], verdicts[n]);
            (old.is_allowed() != new.is_allowed()).then_some(())?;
            Some(VerdictChange {
                agent,
                old,
                new,
                old_why: self.matchers[o].explain(old.reason()),
                new_why: self.matchers[n].explain(new.reason()),
            })
        })
    }

    /// Scratch space for [`VerdictDiff::changes_of`], one per thread.
    pub fn scratch(&self) -> Vec<Scratch> {
        self.matchers.iter().map(Matcher::scratch).collect()
    }

    /// The agents whose verdict on `url` changes: for a URL or a few (a
    /// file of them is judged faster by a [`Batch`](crate::Batch) over
    /// [`VerdictDiff::matchers`]).
    pub fn changes_of(
        &self,
        url: &[u8],
        scratch: &mut [Scratch],
    ) -> Vec<VerdictChange<'_>> {
        let mut buf = vec![];
        let path = self.dialect.path(url, &mut buf);
        let verdicts: Vec<Verdict> = self
            .matchers
            .iter()
            .zip(scratch.iter_mut())
            .map(|(m, s)| m.verdict_path(path, s))
            .collect();
        self.changes(&verdicts).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matcher::Reason;

    /// Both directions, each with its deciding rule or reason on either
    /// side, and the agents in their order.
    #[test]
    fn changes_both_ways_with_their_reasons() {
        let old = Robots::parse(b"User-agent: *\nDisallow: /a\n");
        let new = Robots::parse(
            b"User-agent: *\nDisallow: /b\n\nUser-agent: GPTBot\nDisallow: /\n",
        );
        let diff = VerdictDiff::new(
            &MatcherBuilder::new(),
            &old,
            &new,
            &["CCBot", "GPTBot"],
            Dialect::Rfc9309,
        );
        // CCBot's old rules are GPTBot's: three distinct sets.
        assert_eq!(diff.matchers().len(), 3);
        let mut scratch = diff.scratch();
        let shown = |url: &[u8], scratch: &mut Vec<Scratch>| {
            let changes = diff.changes_of(url, scratch);
            changes
                .iter()
                .map(|c| {
                    format!(
                        "{} {}->{} ({}) -> ({})",
                        diff.agents()[c.agent],
                        c.old.name(),
                        c.new.name(),
                        c.old_why,
                        c.new_why
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(
            shown(b"https://e.com/a", &mut scratch),
            ["CCBot disallowed->allowed (line 2: Disallow: /a; group *) \
                 -> (no matching rule; group *)",]
        );
        assert_eq!(
            shown(b"/b", &mut scratch),
            [
                "CCBot allowed->disallowed (no matching rule; group *) -> \
                 (line 2: Disallow: /b; group *)",
                "GPTBot allowed->disallowed (no matching rule; group *) -> \
                 (line 5: Disallow: /; group GPTBot)",
            ]
        );
        // Disallowed before and after, by other rules: no change.
        assert!(diff.changes_of(b"/a", &mut scratch)[1..].is_empty());
        assert!(shown(b"/robots.txt", &mut scratch).is_empty());
        let change = diff.changes_of(b"/c", &mut scratch)[0];
        assert_eq!(change.agent, 1);
        assert_eq!(change.old.reason(), Reason::NoMatchingRule);
        assert_eq!(change.new.reason(), Reason::Rule(0));
    }

    /// A short slice of verdicts (not one per matcher) gives no change and
    /// no panic.
    #[test]
    fn too_few_verdicts_give_no_change() {
        let r = Robots::parse(b"User-agent: *\nDisallow: /\n");
        let e = Robots::parse(b"");
        let diff = VerdictDiff::new(
            &MatcherBuilder::new(),
            &r,
            &e,
            &["a", "b"],
            Dialect::Google,
        );
        let mut scratch = diff.scratch();
        let all = diff.changes_of(b"/x", &mut scratch);
        assert_eq!(all.len(), 2);
        // One set for both agents in each file: two matchers.
        assert_eq!(diff.matchers().len(), 2);
        let v = [all[0].old];
        assert_eq!(diff.changes(&v).count(), 0);
        assert_eq!(diff.changes(&[]).count(), 0);
    }
}

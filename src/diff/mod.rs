/*!
What changes for a crawler when a site replaces its robots.txt: per agent,
the group that applies, the rules removed and added, and the scope, before
and after; and, with [`VerdictDiff`], the URLs whose verdict changes. Over
many sites' dated captures, [`site_changes`] finds the sites whose scope
for an agent changed between two dates.

Rules are compared by what they say, not where they are: the rules of the
agent's groups in the old file and in the new are two multisets of
(allow or disallow, pattern as the dialect normalises it), and only what is
in one and not the other is reported, each rule with its line in its own
file. A rule that only moved, or whose spelling changed without changing
its pattern (`disallow:/a` for `Disallow: /a`), is no change. In
`draft1996` and `orig1994` the first matching rule in file order decides,
so there the rules both files keep coming in another order is a change of
its own ([`AgentDiff::reordered`]).

```
use robots_batch::diff::diff_rules;
use robots_batch::survey::Scope;
use robots_batch::{Dialect, Robots};

let old = Robots::parse(b"User-agent: *\nDisallow: /cart/\n");
let new = Robots::parse(b"User-agent: *\nDisallow: /cart/\n\n\
                          User-agent: GPTBot\nDisallow: /\n");
let diffs = diff_rules(&old, &new, &["GPTBot", "CCBot"], Dialect::Rfc9309);
let gpt = &diffs[0];
assert!(gpt.group_changed());
assert_eq!((gpt.old.scope, gpt.new.scope), (Scope::Partial, Scope::Full));
assert_eq!(gpt.old.agent_lines, [1]);
assert_eq!(gpt.new.agent_lines, [4]);
assert_eq!(gpt.removed[0].text, b"Disallow: /cart/");
assert_eq!((gpt.added[0].line, &gpt.added[0].pattern[..]), (5, &b"/"[..]));
assert!(!diffs[1].is_changed());
```
*/

mod sites;
mod verdicts;

use std::collections::HashMap;
use std::sync::Arc;

use crate::dialect::Dialect;
use crate::robots::Robots;
use crate::rules::{agent_lines, GroupMatch, Rule, RuleSet};
use crate::survey::{scope, Scope};

pub use sites::{site_changes, SiteChange, SiteChanges};
pub use verdicts::{VerdictChange, VerdictDiff};

/// What one robots.txt gives an agent: the group its rules come from,
/// where that group is selected, how many rules apply and their scope.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Selection {
    /// The group the rules come from (see [`RuleSet::group`]).
    pub group: GroupMatch,
    /// The user-agent lines that select the group, counting from 1: those
    /// naming the agent, or the `*` ones (in `draft1996` and `orig1994`,
    /// the line that chose the record); empty when no group applies.
    pub agent_lines: Vec<u32>,
    /// How many allow and disallow lines apply, empty ones included.
    pub rules: usize,
    /// How much of the site the rules disallow, as
    /// [`survey::scope`](crate::survey::scope) decides it.
    pub scope: Scope,
}

/// An allow or disallow line that one file applies to the agent and the
/// other does not.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct RuleChange {
    /// Its line in its own file (the old one for a removed rule, the new
    /// one for an added rule), counting from 1.
    pub line: u32,
    /// True for an allow rule.
    pub allow: bool,
    /// Its pattern as the dialect normalises it: what is compared.
    pub pattern: Vec<u8>,
    /// The line as written, without its line end.
    pub text: Vec<u8>,
}

impl RuleChange {
    fn of(rule: Rule<'_>) -> RuleChange {
        RuleChange {
            line: rule.line(),
            allow: rule.is_allow(),
            pattern: rule.pattern().to_vec(),
            text: rule.text().to_vec(),
        }
    }
}

/// What changed for one agent between an old and a new robots.txt.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct AgentDiff {
    /// The agent, as given.
    pub agent: String,
    /// What the old file gives it.
    pub old: Selection,
    /// What the new file gives it.
    pub new: Selection,
    /// The rules of the old file that the new one does not have, in the
    /// old file's order (a rule written twice and kept once: its second).
    /// Shared by the agents [`diff_rules`] finds the same rules for, so
    /// that a hundred agents of the `*` groups hold them once.
    pub removed: Arc<[RuleChange]>,
    /// The rules of the new file that the old one does not have, in the
    /// new file's order (shared as `removed` is).
    pub added: Arc<[RuleChange]>,
    /// In the first-match dialects (`draft1996`, `orig1994`): the rules
    /// both files have come in another order, which can change verdicts.
    /// Always false in `rfc9309` and `google`, where order never matters.
    pub reordered: bool,
}

impl AgentDiff {
    /// Compares what `old` and `new` give `agent` in `dialect`.
    pub fn new(
        old: &Robots,
        new: &Robots,
        agent: &str,
        dialect: Dialect,
    ) -> AgentDiff {
        let sets = (
            RuleSet::select(old, agent, dialect),
            RuleSet::select(new, agent, dialect),
        );
        AgentDiff::of_sets((old, new), &sets, agent, dialect)
    }

    /// Compares the rule sets `sets` that `files` give `agent`.
    fn of_sets(
        files: (&Robots, &Robots),
        sets: &(RuleSet, RuleSet),
        agent: &str,
        dialect: Dialect,
    ) -> AgentDiff {
        let (old, new) = sets;
        let (removed, added, reordered) =
            compare(old, new, !dialect.is_longest_match());
        let old_scope = scope(old).scope;
        // The scope follows from the rules alone: the same rules in the
        // same order have the same scope, and its proof costs the most.
        let same = removed.is_empty() && added.is_empty() && !reordered;
        let new_scope = if same { old_scope } else { scope(new).scope };
        let selection = |rules: &RuleSet, scope: Scope| Selection {
            group: rules.group().clone(),
            agent_lines: vec![],
            rules: rules.len(),
            scope,
        };
        let mut diff = AgentDiff {
            agent: String::new(),
            old: selection(old, old_scope),
            new: selection(new, new_scope),
            removed: removed.into(),
            added: added.into(),
            reordered,
        };
        diff.set_agent(files, agent, dialect);
        diff
    }

    /// Makes this the diff of `agent`, whose rules in `files` are those it
    /// was made from: its name and the lines that select its groups.
    fn set_agent(
        &mut self,
        files: (&Robots, &Robots),
        agent: &str,
        dialect: Dialect,
    ) {
        self.agent = agent.to_string();
        self.old.agent_lines = agent_lines(files.0, agent, dialect);
        self.new.agent_lines = agent_lines(files.1, agent, dialect);
    }

    /// Whether the agent's rules come from another group: a named group
    /// instead of `*`, `*` instead of none, one named otherwise (as
    /// [`GroupMatch::Agent`] names it, compared case-insensitively). The
    /// same group on other lines is not a change.
    pub fn group_changed(&self) -> bool {
        match (&self.old.group, &self.new.group) {
            (GroupMatch::Agent(a), GroupMatch::Agent(b)) => {
                !a.eq_ignore_ascii_case(b)
            }
            (a, b) => a != b,
        }
    }

    /// Whether the scope differs.
    pub fn scope_changed(&self) -> bool {
        self.old.scope != self.new.scope
    }

    /// Whether a rule was removed or added, or (first-match dialects) the
    /// rules were reordered.
    pub fn rules_changed(&self) -> bool {
        !self.removed.is_empty() || !self.added.is_empty() || self.reordered
    }

    /// Whether anything changed for the agent: group, rules or scope.
    pub fn is_changed(&self) -> bool {
        self.group_changed() || self.rules_changed() || self.scope_changed()
    }
}

/// Compares what `old` and `new` give each of `agents` in `dialect`: one
/// [`AgentDiff`] per agent, in the order given.
///
/// Agents that get the same rules from both files (in an audit of the AI
/// crawlers, most: those the `*` groups judge) share one comparison and
/// one proof of each scope, the costly part on a file of thousands of
/// rules.
pub fn diff_rules<S: AsRef<str>>(
    old: &Robots,
    new: &Robots,
    agents: &[S],
    dialect: Dialect,
) -> Vec<AgentDiff> {
    // Each distinct pair of rule sets, with the index of its first diff.
    let mut distinct: Vec<((RuleSet, RuleSet), usize)> = vec![];
    let mut diffs: Vec<AgentDiff> = Vec::with_capacity(agents.len());
    for agent in agents {
        let agent = agent.as_ref();
        let sets = (
            RuleSet::select(old, agent, dialect),
            RuleSet::select(new, agent, dialect),
        );
        let seen = distinct
            .iter()
            .find(|((o, n), _)| same_set(o, &sets.0) && same_set(n, &sets.1));
        let diff = match seen {
            Some(&(_, i)) => {
                let mut diff = diffs[i].clone();
                diff.set_agent((old, new), agent, dialect);
                diff
            }
            None => {
                let diff =
                    AgentDiff::of_sets((old, new), &sets, agent, dialect);
                distinct.push((sets, diffs.len()));
                diff
            }
        };
        diffs.push(diff);
    }
    diffs
}

/// Whether two rule sets of one file and dialect are the same: the same
/// group, the same rules from the same lines.
pub(crate) fn same_set(a: &RuleSet, b: &RuleSet) -> bool {
    a.group() == b.group() && a.len() == b.len() && a.rules().eq(b.rules())
}

/// The rules of `old` not in `new` and of `new` not in `old`, as multisets
/// of (allows, pattern): the k-th copy of a rule in `old` is kept by the
/// k-th in `new`. With `ordered`, also whether the kept rules come in
/// another order in `new`.
fn compare(
    old: &RuleSet,
    new: &RuleSet,
    ordered: bool,
) -> (Vec<RuleChange>, Vec<RuleChange>, bool) {
    // For each rule of `new`, its indices in file order, taken from the
    // front as the copies in `old` keep them.
    let mut in_new: HashMap<(bool, &[u8]), std::collections::VecDeque<usize>> =
        HashMap::with_capacity(new.len());
    for (i, rule) in new.rules().enumerate() {
        let key = (rule.is_allow(), rule.pattern());
        in_new.entry(key).or_default().push_back(i);
    }
    let mut kept = vec![false; new.len()];
    let mut removed = vec![];
    let mut reordered = false;
    let mut last_kept: Option<usize> = None;
    for rule in old.rules() {
        let key = (rule.is_allow(), rule.pattern());
        match in_new.get_mut(&key).and_then(|at| at.pop_front()) {
            Some(j) => {
                kept[j] = true;
                reordered |= ordered && last_kept.is_some_and(|k| k > j);
                last_kept = Some(j);
            }
            None => removed.push(RuleChange::of(rule)),
        }
    }
    let added = new
        .rules()
        .zip(&kept)
        .filter(|(_, &kept)| !kept)
        .map(|(rule, _)| RuleChange::of(rule))
        .collect();
    (removed, added, reordered)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diff(old: &str, new: &str, agent: &str, d: Dialect) -> AgentDiff {
        let (old, new) =
            (Robots::parse(old.as_bytes()), Robots::parse(new.as_bytes()));
        AgentDiff::new(&old, &new, agent, d)
    }

    fn lines(changes: &[RuleChange]) -> Vec<(u32, &str)> {
        changes
            .iter()
            .map(|c| (c.line, std::str::from_utf8(&c.text).unwrap()))
            .collect()
    }

    #[test]
    fn moved_and_respelled_rules_are_no_change() {
        let old = "User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /c\n";
        let new = "# moved\nUser-agent: *\nallow:/a/b # kept\n\
                   Disallow: /c\ndisallow : /a\n";
        for d in [Dialect::Rfc9309, Dialect::Google] {
            let diff = diff(old, new, "GPTBot", d);
            assert!(!diff.is_changed(), "{d}: {diff:?}");
            assert_eq!(diff.old.agent_lines, [1]);
            assert_eq!(diff.new.agent_lines, [2]);
            assert_eq!((diff.old.rules, diff.new.rules), (3, 3));
        }
    }

    #[test]
    fn first_match_dialects_see_a_new_order() {
        let old = "User-agent: *\nDisallow: /a\nAllow: /a/b\n";
        let new = "User-agent: *\nAllow: /a/b\nDisallow: /a\n";
        let d = diff(old, new, "x", Dialect::Draft1996);
        assert!(d.reordered && d.rules_changed());
        assert!(d.removed.is_empty() && d.added.is_empty());
        // In 1994 there are no allow lines: one rule, no order to change.
        assert!(!diff(old, new, "x", Dialect::Orig1994).is_changed());
        assert!(!diff(old, new, "x", Dialect::Rfc9309).is_changed());
    }

    #[test]
    fn removed_and_added_rules_with_their_own_lines() {
        let old = "User-agent: *\nDisallow: /a\nDisallow: /a\nDisallow: /b\n";
        let new = "User-agent: *\nDisallow: /b\nDisallow: /a\n\
                   Allow: /b/c\nDisallow: /d\n";
        let d = diff(old, new, "x", Dialect::Rfc9309);
        // The second copy of /a goes, the first stays.
        assert_eq!(lines(&d.removed), [(3, "Disallow: /a")]);
        assert_eq!(lines(&d.added), [(4, "Allow: /b/c"), (5, "Disallow: /d")]);
        assert!(d.added[0].allow && !d.added[1].allow);
        assert!(!d.group_changed() && !d.scope_changed() && d.is_changed());
        assert_eq!(
            (d.old.scope, d.new.scope),
            (Scope::Partial, Scope::Partial)
        );
    }

    #[test]
    fn an_agent_that_gets_a_group_of_its_own() {
        let old = "User-agent: *\nDisallow: /private\n";
        let new = "User-agent: *\nDisallow: /private\n\n\
                   User-agent: gptbot\nDisallow: /\n";
        let d = diff(old, new, "GPTBot", Dialect::Rfc9309);
        assert_eq!(d.old.group, GroupMatch::Star);
        assert_eq!(d.new.group, GroupMatch::Agent(b"gptbot".to_vec()));
        assert!(d.group_changed() && d.scope_changed());
        assert_eq!((d.old.scope, d.new.scope), (Scope::Partial, Scope::Full));
        assert_eq!(lines(&d.removed), [(2, "Disallow: /private")]);
        assert_eq!(lines(&d.added), [(5, "Disallow: /")]);
        // Another agent keeps the `*` group: nothing changed for it.
        assert!(!diff(old, new, "CCBot", Dialect::Rfc9309).is_changed());
        // A group named in another case is the same group.
        let again = diff(
            new,
            &new.replace("gptbot", "GPTBot"),
            "GPTBot",
            Dialect::Rfc9309,
        );
        assert!(!again.group_changed() && !again.is_changed());
    }

    #[test]
    fn no_group_to_a_group() {
        let d = diff("", "User-agent: *\nDisallow: /\n", "a", Dialect::Google);
        assert_eq!(
            (d.old.group.clone(), d.new.group.clone()),
            (GroupMatch::None, GroupMatch::Star)
        );
        assert!(d.old.agent_lines.is_empty());
        assert_eq!((d.old.scope, d.new.scope), (Scope::None, Scope::Full));
        assert!(d.group_changed());
    }

    /// Agents with the same rules share a comparison: each still gets
    /// what it would get alone, its own name and lines included.
    #[test]
    fn shared_comparisons_are_each_agents_own() {
        let old = Robots::parse(
            b"User-agent: *\nDisallow: /a\n\nUser-agent: a\n\
              User-agent: b\nDisallow: /b\n",
        );
        let new = Robots::parse(
            b"User-agent: *\nDisallow: /c\n\nUser-agent: b\n\
              User-agent: a\nDisallow: /b\n",
        );
        let agents = ["x", "a", "y", "b", "A"];
        for d in Dialect::ALL {
            let shared = diff_rules(&old, &new, &agents, d);
            let own: Vec<AgentDiff> = agents
                .iter()
                .map(|a| AgentDiff::new(&old, &new, a, d))
                .collect();
            assert_eq!(shared, own, "{d}");
        }
        let diffs = diff_rules(&old, &new, &agents, Dialect::Rfc9309);
        assert!(Arc::ptr_eq(&diffs[0].removed, &diffs[2].removed));
        assert!(Arc::ptr_eq(&diffs[1].added, &diffs[4].added));
        assert_eq!(diffs[3].new.agent_lines, [4]);
        assert_eq!(diffs[1].new.agent_lines, [5]);
    }

    #[test]
    fn diff_rules_keeps_the_agents_order() {
        let old = Robots::parse(b"User-agent: a\nDisallow: /\n");
        let new = Robots::parse(b"User-agent: b\nDisallow: /\n");
        let diffs = diff_rules(&old, &new, &["b", "a", "c"], Dialect::Rfc9309);
        let agents: Vec<&str> =
            diffs.iter().map(|d| d.agent.as_str()).collect();
        assert_eq!(agents, ["b", "a", "c"]);
        let changed: Vec<bool> =
            diffs.iter().map(AgentDiff::is_changed).collect();
        assert_eq!(changed, [true, true, false]);
    }
}

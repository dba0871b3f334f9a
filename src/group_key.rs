//! Which selection an agent gets, found without selecting: agents with
//! equal keys select the same rules, group and usage lines, so that the
//! many agents of an access log share the matchers of the few groups of a
//! robots.txt.

use std::collections::HashMap;

use crate::dialect::Dialect;
use crate::robots::{is_space, LineKind, Robots};
use crate::rules::is_token_byte;

/// The key of the agents that no group names: the `*` groups apply to
/// them, or none does.
pub(crate) const UNNAMED: usize = 0;

/// The keys of a robots.txt's groups in one dialect, as
/// [`RuleSet::select`](crate::RuleSet::select) chooses them.
#[derive(Debug)]
pub(crate) struct GroupKeys {
    /// RFC 9309 and Google: each product token a user-agent line names,
    /// in lower case (they compare so), and its key.
    tokens: HashMap<Vec<u8>, usize, ahash::RandomState>,
    /// The older dialects: every user-agent line, by index, its value in
    /// lower case, in file order (records follow one another, so the first
    /// line whose value holds an agent's name is the one selection finds).
    values: Vec<(usize, Vec<u8>)>,
    longest_match: bool,
}

impl GroupKeys {
    pub(crate) fn new(robots: &Robots, dialect: Dialect) -> GroupKeys {
        let mut keys = GroupKeys {
            tokens: HashMap::default(),
            values: vec![],
            longest_match: dialect.is_longest_match(),
        };
        let agents = robots.lines().iter().enumerate();
        for (i, line) in
            agents.filter(|(_, l)| l.kind() == LineKind::UserAgent)
        {
            let value = robots.value(line);
            if keys.longest_match {
                let n =
                    value.iter().take_while(|&&b| is_token_byte(b)).count();
                if n > 0 {
                    let next = keys.tokens.len() + 1;
                    let token = value[..n].to_ascii_lowercase();
                    keys.tokens.entry(token).or_insert(next);
                }
            } else {
                keys.values.push((i, value.to_ascii_lowercase()));
            }
        }
        keys
    }

    /// The key of `agent`'s selection: [`UNNAMED`] when no group names it,
    /// else one that only the agents naming the same group share. Costs a
    /// hash lookup in RFC 9309 and Google's reading; a search through
    /// every user-agent value in the older dialects.
    pub(crate) fn key(&self, agent: &str) -> usize {
        if self.longest_match {
            let lower = agent.to_ascii_lowercase();
            return self
                .tokens
                .get(lower.as_bytes())
                .copied()
                .unwrap_or(UNNAMED);
        }
        let agent = agent.as_bytes();
        let n =
            agent.iter().take_while(|&&b| b != b'/' && !is_space(b)).count();
        let name = agent[..n].to_ascii_lowercase();
        if name.is_empty() {
            return UNNAMED;
        }
        self.values
            .iter()
            .find(|(_, value)| {
                value.len() >= name.len()
                    && value.windows(name.len()).any(|w| w == name.as_slice())
            })
            .map_or(UNNAMED, |&(i, _)| i + 1)
    }

    /// Whether [`GroupKeys::key`] searches rather than looks up, so that
    /// its callers keep the keys they found.
    pub(crate) fn searches(&self) -> bool {
        !self.longest_match
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RuleSet;
    use crate::usage::Usage;

    /// Random files of groups naming a few agents (in both cases, some
    /// more than once, some as parts of longer names), with and without
    /// `*` groups and usage lines: in every dialect, agents of one key
    /// select the same rules from the same lines, the same group and the
    /// same usage lines, and in RFC 9309 and Google's reading agents that
    /// name different groups get different keys.
    #[test]
    fn agents_of_one_key_select_alike() {
        let mut rng = crate::testing::xorshift(0x0DDB_1A5E_5BAD_5EED);
        let mut next = move |n: usize| (rng() % n as u64) as usize;
        let names = ["foo", "FOO", "bar", "foobar", "*", "baz/1.0", "*x"];
        let agents = [
            "foo", "Foo", "FOO", "bar", "foobar", "FooBar", "baz", "qux", "*",
            "", "oo", "foo/2.0", "x",
        ];
        for _ in 0..300 {
            let mut body = String::new();
            for _ in 0..1 + next(4) {
                for _ in 0..1 + next(2) {
                    let name = names[next(names.len())];
                    body.push_str(&format!("User-agent: {name}\n"));
                }
                if next(3) == 0 {
                    body.push_str("Content-Usage: train-ai=n\n");
                }
                for _ in 0..next(3) {
                    body.push_str(&format!("Disallow: /{}\n", next(50)));
                }
                if next(2) == 0 {
                    body.push('\n');
                }
            }
            let robots = Robots::parse(body.as_bytes());
            for dialect in Dialect::ALL {
                let keys = GroupKeys::new(&robots, dialect);
                let mut seen: HashMap<usize, (String, Vec<u8>)> =
                    HashMap::new();
                for agent in agents {
                    let rules = RuleSet::select(&robots, agent, dialect);
                    let usage = Usage::select(&robots, agent, dialect);
                    let lines: Vec<u32> =
                        rules.rules().map(|r| r.line()).collect();
                    let usage: Vec<u32> =
                        usage.lines().map(|l| l.line()).collect();
                    let got = format!("{lines:?} {usage:?}");
                    let group = rules.group().name().to_vec();
                    let key = keys.key(agent);
                    match seen.get(&key) {
                        Some(first) => assert_eq!(
                            first,
                            &(got, group),
                            "{dialect:?} {agent:?} key {key}\n{body}"
                        ),
                        None => {
                            seen.insert(key, (got, group));
                        }
                    }
                }
                let (foo, bar) = (keys.key("foo"), keys.key("bar"));
                // (In the older dialects `foobar` holds both names.)
                if dialect.is_longest_match()
                    && foo != UNNAMED
                    && bar != UNNAMED
                {
                    assert_ne!(foo, bar, "{dialect:?}\n{body}");
                }
            }
        }
    }
}

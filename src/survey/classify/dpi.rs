//! The Data Provenance Initiative's classes of an agent's rules (Consent
//! in Crisis): all, some or none, leaving out every rule with a `?`.
//!
//! Reproduces, with its quirks, `parse_robots_txt` and `interpret_agent`
//! of `src/web_analysis/parse_robots.py` and the agent lookup of
//! `compute_url_date_agent_status` in `src/web_analysis/robots_util.py`,
//! in <https://github.com/Data-Provenance-Initiative/Data-Provenance-Collection>.

use std::collections::HashMap;

use super::python::{splitlines, strip};
use crate::survey::{GroupKind, Scope};

/// Each agent's group, class and rule count, in the order of `agents`.
pub(super) fn classes(
    body: &[u8],
    agents: &[String],
) -> Vec<(GroupKind, Scope, usize)> {
    let text = String::from_utf8_lossy(body);
    let parsed = Parsed::new(&text);
    agents.iter().map(|agent| parsed.class_for(agent)).collect()
}

/// One agent's rules: its `Allow` and `Disallow` values, in file order.
#[derive(Default)]
struct Rules {
    allow: Vec<String>,
    disallow: Vec<String>,
}

/// `parse_robots_txt`'s reading of a file: the rules of each agent, by its
/// name in lower case.
struct Parsed {
    agents: HashMap<String, Rules>,
}

impl Parsed {
    /// Reads a file as `parse_robots_txt` does.
    ///
    /// Lines are Python's `splitlines`; each is cut at its first `#` and
    /// stripped, and blank ones are skipped. A line is a directive when it
    /// starts, in any case, `user-agent:`, `allow:`, `disallow:`,
    /// `crawl-delay:` or `sitemap:` (no space before the colon); its value
    /// is the rest, stripped. Agents are one by their name in lower case.
    /// Until the file's first allow, disallow, crawl-delay or sitemap line,
    /// every `User-agent` line adds its agent to those the rules go to;
    /// after it, each `User-agent` line replaces them (so in later groups
    /// only the last `User-agent` line before the rules gets them). An
    /// agent listed twice before the first rule gets each rule twice.
    fn new(text: &str) -> Parsed {
        let mut agents: HashMap<String, Rules> = HashMap::new();
        let mut current: Vec<String> = vec![];
        let mut seen_rule = false;
        for raw in splitlines(text) {
            let line = strip(raw.split('#').next().unwrap_or(""));
            if line.is_empty() {
                continue;
            }
            let value = |name: &str| {
                let head = line.get(..name.len())?;
                head.eq_ignore_ascii_case(name)
                    .then(|| strip(&line[name.len()..]))
            };
            if let Some(agent) = value("user-agent:") {
                let agent = agent.to_lowercase();
                agents.entry(agent.clone()).or_default();
                if seen_rule {
                    current.clear();
                }
                current.push(agent);
            } else if let Some((allow, v)) = value("allow:")
                .map(|v| (true, v))
                .or_else(|| value("disallow:").map(|v| (false, v)))
            {
                seen_rule = true;
                for agent in &current {
                    let Some(rules) = agents.get_mut(agent) else { continue };
                    match allow {
                        true => rules.allow.push(v.to_string()),
                        false => rules.disallow.push(v.to_string()),
                    }
                }
            } else if value("crawl-delay:").is_some()
                || value("sitemap:").is_some()
            {
                seen_rule = true;
            }
        }
        Parsed { agents }
    }

    /// The lookup of `compute_url_date_agent_status`: the agent's own rules
    /// when a `User-agent` line names it (its whole value, any case), else
    /// `*`'s, else none.
    fn class_for(&self, agent: &str) -> (GroupKind, Scope, usize) {
        let count = |r: &Rules| r.allow.len() + r.disallow.len();
        if agent != "*" {
            if let Some(rules) = self.agents.get(&agent.to_lowercase()) {
                return (GroupKind::Named, interpret(rules), count(rules));
            }
        }
        match self.agents.get("*") {
            Some(rules) => (GroupKind::Star, interpret(rules), count(rules)),
            None => (GroupKind::None, Scope::None, 0),
        }
    }
}

/// `interpret_agent`: with the values that hold a `?` left out, "none"
/// when no disallow is left, or only an empty one, or the allows are the
/// disallows (the same values in the same order); else "all" when a
/// disallow is `/` and no allow is left; else "some".
fn interpret(rules: &Rules) -> Scope {
    let kept = |values: &[String]| -> Vec<String> {
        values.iter().filter(|v| !v.contains('?')).cloned().collect()
    };
    let (allow, disallow) = (kept(&rules.allow), kept(&rules.disallow));
    if disallow.is_empty() || disallow == [""] || allow == disallow {
        Scope::None
    } else if disallow.iter().any(|v| strip(v) == "/") && allow.is_empty() {
        Scope::Full
    } else {
        Scope::Partial
    }
}

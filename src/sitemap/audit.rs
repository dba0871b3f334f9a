//! A site's own audit (`lint --sitemaps`): the URLs its sitemaps list
//! that its robots.txt disallows, each with the deciding line, and the
//! `Sitemap:` lines that are disallowed themselves or name another host.

use crate::matcher::Matcher;
use crate::robots::Robots;
use crate::Dialect;

use super::entry::Entry;

/// One thing to fix that a sitemap and the robots.txt show together.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct AuditFinding {
    /// Where: the sitemap's file (empty for the robots.txt itself).
    pub file: String,
    /// The line there (of the robots.txt's `Sitemap:` line, or of the
    /// entry in its sitemap).
    pub line: u64,
    /// `listed-disallowed`, `bad-entry`, `sitemap-disallowed` or
    /// `sitemap-other-host`.
    pub code: &'static str,
    /// The agent judged (empty where no agent is).
    pub agent: String,
    /// The URL listed.
    pub url: String,
    /// The deciding rule's line and text, for a disallowed URL.
    pub rule: Option<(u32, String)>,
    /// What is wrong, in words.
    pub message: String,
}

/// The robots.txt's matchers, one per agent, for an audit.
#[derive(Debug)]
pub struct Audit {
    agents: Vec<String>,
    matchers: Vec<Matcher>,
}

impl Audit {
    /// An audit of `robots` for `agents` under `dialect`.
    pub fn new(robots: &Robots, agents: &[String], dialect: Dialect) -> Audit {
        let matchers =
            agents.iter().map(|a| Matcher::new(robots, a, dialect)).collect();
        Audit { agents: agents.to_vec(), matchers }
    }

    /// The agents that disallow `url`, each with the deciding rule.
    fn disallowing(&self, url: &str) -> Vec<(&str, Option<(u32, String)>)> {
        let mut out = vec![];
        for (agent, m) in self.agents.iter().zip(&self.matchers) {
            let verdict = m.verdict(url.as_bytes(), &mut m.scratch());
            if verdict.is_allowed() {
                continue;
            }
            let rule = m.explain(verdict.reason()).rule().map(|r| {
                (r.line(), String::from_utf8_lossy(r.text()).into_owned())
            });
            out.push((agent.as_str(), rule));
        }
        out
    }

    /// The findings of one entry of a sitemap: a finding per agent that
    /// disallows its URL, or one for an entry without a URL.
    pub fn entry(&self, entry: &Entry) -> Vec<AuditFinding> {
        if let Some(problem) = entry.problem {
            return vec![AuditFinding {
                file: entry.file.clone(),
                line: entry.line,
                code: "bad-entry",
                agent: String::new(),
                url: entry.url.clone(),
                rule: None,
                message: format!("{:?}: {}", entry.url, problem.reason()),
            }];
        }
        self.disallowing(&entry.url)
            .into_iter()
            .map(|(agent, rule)| AuditFinding {
                file: entry.file.clone(),
                line: entry.line,
                code: "listed-disallowed",
                agent: agent.to_string(),
                url: entry.url.clone(),
                message: format!(
                    "{} is listed, and disallowed for {agent}{}",
                    entry.url,
                    by_rule(&rule)
                ),
                rule,
            })
            .collect()
    }

    /// The findings of the robots.txt's `Sitemap:` line `line`, `url`:
    /// disallowed for an agent, or on a host other than `host`.
    pub fn sitemap_line(
        &self,
        line: u32,
        url: &str,
        host: Option<&str>,
    ) -> Vec<AuditFinding> {
        let mut out: Vec<AuditFinding> = self
            .disallowing(url)
            .into_iter()
            .map(|(agent, rule)| AuditFinding {
                file: String::new(),
                line: u64::from(line),
                code: "sitemap-disallowed",
                agent: agent.to_string(),
                url: url.to_string(),
                message: format!(
                    "the sitemap {url} is disallowed for {agent}{}",
                    by_rule(&rule)
                ),
                rule,
            })
            .collect();
        let own = host_of(url);
        if let (Some(own), Some(host)) = (own, host) {
            if !own.eq_ignore_ascii_case(host) {
                out.push(AuditFinding {
                    file: String::new(),
                    line: u64::from(line),
                    code: "sitemap-other-host",
                    agent: String::new(),
                    url: url.to_string(),
                    rule: None,
                    message: format!(
                        "the sitemap {url} is on {own}, not on the \
                         robots.txt's host {host}"
                    ),
                });
            }
        }
        out
    }
}

/// ` by line N: RULE`, or nothing without a rule.
fn by_rule(rule: &Option<(u32, String)>) -> String {
    match rule {
        Some((line, text)) => format!(" by line {line}: {text}"),
        None => String::new(),
    }
}

/// The host of an absolute URL (without user or port), if it has one.
pub fn host_of(url: &str) -> Option<&str> {
    let rest = &url[url.find("://")? + 3..];
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit('@').next()?;
    let host = match host.rfind(':') {
        Some(i) if !host.ends_with(']') => &host[..i],
        _ => host,
    };
    (!host.is_empty()).then_some(host)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_with_their_rules() {
        let robots = Robots::parse(
            b"User-agent: *\nDisallow: /p/\nUser-agent: B\nDisallow: /\n",
        );
        let agents = ["*".to_string(), "B".to_string()];
        let audit = Audit::new(&robots, &agents, Dialect::Rfc9309);
        let found =
            audit.sitemap_line(9, "https://c.org/p/s.xml", Some("a.com"));
        let codes: Vec<_> = found
            .iter()
            .map(|f| (f.code, f.agent.as_str(), f.rule.clone()))
            .collect();
        assert_eq!(
            codes,
            [
                ("sitemap-disallowed", "*", Some((2, "Disallow: /p/".into()))),
                ("sitemap-disallowed", "B", Some((4, "Disallow: /".into()))),
                ("sitemap-other-host", "", None),
            ]
        );
        assert_eq!(host_of("https://u@A.com:8080/x"), Some("A.com"));
        assert_eq!(host_of("/x"), None);
    }
}

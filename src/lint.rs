//! What a site owner should fix in a robots.txt: a report of findings,
//! each with its line number, and an inventory of the file's groups,
//! sitemaps and crawl-delays.

use std::collections::HashMap;

use crate::dialect::Dialect;
use crate::robots::{LineKind, Robots, WarningKind};
use crate::rules::{is_group_rule, product_token, Rule, RuleSet};
use crate::usage::{read_statement, signal_entries, split_content_usage};

/// One thing to fix, or to know, about a robots.txt.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Finding {
    /// The line it is about, counting from 1 (0 for the whole file).
    pub line: u32,
    /// A short stable name: `typo`, `missing-colon`, `unparseable`,
    /// `rule-outside-group`, `invalid-token`, `shadowed-rule`,
    /// `non-standard-directive`, `unknown-directive`, `line-too-long`,
    /// `bom`, `html`, `over-parse-limit`, or about AI usage preferences
    /// `usage-outside-group`, `usage-unparseable`, `usage-old-label` and
    /// `signal-value`.
    pub code: &'static str,
    /// What is wrong and what it means, in words.
    pub message: String,
}

/// A group of the robots.txt as RFC 9309 delimits them (in the `rfc9309`
/// dialect, with Content-Usage lines among its rules, as the verdicts read
/// them).
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct GroupInfo {
    /// The line of its first user-agent line.
    pub line: u32,
    /// Its user-agent values, as written.
    pub agents: Vec<Vec<u8>>,
    /// How many allow and disallow lines it holds.
    pub rules: usize,
}

/// A line that is neither a rule nor a `User-agent` line and that lint
/// lists: a sitemap or a crawl-delay.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Directive {
    /// Its line.
    pub line: u32,
    /// Its value, as written.
    pub value: Vec<u8>,
    /// The user-agents of the group it is in (empty outside groups).
    pub agents: Vec<Vec<u8>>,
}

/// The lint report of a robots.txt. Build one with [`Lint::new`].
#[derive(Clone, Debug)]
pub struct Lint {
    /// The findings, by line.
    pub findings: Vec<Finding>,
    /// The groups, in file order.
    pub groups: Vec<GroupInfo>,
    /// The sitemap lines.
    pub sitemaps: Vec<Directive>,
    /// The crawl-delay lines.
    pub crawl_delays: Vec<Directive>,
}

/// Keys that some crawlers read but RFC 9309 does not define, and what
/// is known about them.
const NON_STANDARD: &[(&str, &str)] = &[
    (
        "crawl-delay",
        "crawl-delay is not part of RFC 9309 (section 2.2.4 lets crawlers \
         read records it does not define); Google ignores it, Bing and \
         Yandex read it as seconds between fetches",
    ),
    (
        "host",
        "host is a Yandex extension (no longer used by Yandex either), not \
         part of RFC 9309; other crawlers ignore it",
    ),
    (
        "clean-param",
        "clean-param is a Yandex extension, not part of RFC 9309; other \
         crawlers ignore it",
    ),
    (
        "noindex",
        "noindex was never part of any robots.txt standard, and Google \
         stopped honouring it in 2019; use a robots meta tag or an \
         X-Robots-Tag header",
    ),
    (
        "request-rate",
        "request-rate is not part of RFC 9309; almost no crawler reads it",
    ),
    (
        "visit-time",
        "visit-time is not part of RFC 9309; almost no crawler reads it",
    ),
];

impl Lint {
    /// Lints `robots`. Rules that can never decide are found as `dialect`
    /// decides (for `rfc9309` and `google`, longest match; for the older
    /// dialects, first match in file order).
    pub fn new(robots: &Robots, dialect: Dialect) -> Lint {
        let mut findings = vec![];
        for w in robots.warnings() {
            let (code, message) = match w.kind {
                WarningKind::TypoAccepted { ref key, read_as } => (
                    "typo",
                    format!(
                        "key {:?} is accepted as {read_as:?}, but not by \
                         every crawler: spell it {read_as:?}",
                        String::from_utf8_lossy(key)
                    ),
                ),
                WarningKind::MissingColon => (
                    "missing-colon",
                    "no colon after the key: read as if there were one, \
                     but not by every crawler"
                        .to_string(),
                ),
                WarningKind::Unparseable => (
                    "unparseable",
                    "not a `key: value` line: ignored".to_string(),
                ),
                WarningKind::LineTooLong { len } => (
                    "line-too-long",
                    format!(
                        "line of {len} bytes: only the first {} count",
                        crate::robots::MAX_LINE_LEN
                    ),
                ),
                WarningKind::OverParseLimit { len, limit } => (
                    "over-parse-limit",
                    format!(
                        "file of {len} bytes: crawlers may read only the \
                         first {limit} (RFC 9309 asks for at least 500 KiB)"
                    ),
                ),
                // Found below, with the rule's text.
                WarningKind::RuleOutsideGroup => continue,
                // N.B. Kinds added later are reported as they print.
                #[allow(unreachable_patterns)]
                _ => ("warning", w.to_string()),
            };
            findings.push(Finding { line: w.line, code, message });
        }
        if let Some(f) = html(robots.bytes()) {
            findings.push(f);
        }
        findings.extend(boms(robots));

        let mut groups: Vec<GroupInfo> = vec![];
        let mut sitemaps = vec![];
        let mut crawl_delays = vec![];
        let mut seen_rule = false;
        for line in robots.lines() {
            let n = line.number();
            let value = robots.value(line);
            let current = |groups: &Vec<GroupInfo>| {
                groups.last().map(|g| g.agents.clone()).unwrap_or_default()
            };
            match line.kind() {
                LineKind::UserAgent => {
                    if seen_rule || groups.is_empty() {
                        groups.push(GroupInfo {
                            line: n,
                            agents: vec![],
                            rules: 0,
                        });
                        seen_rule = false;
                    }
                    if let Some(g) = groups.last_mut() {
                        g.agents.push(value.to_vec());
                    }
                    findings.extend(token_finding(n, value));
                }
                LineKind::Allow | LineKind::Disallow => {
                    seen_rule = true;
                    match groups.last_mut() {
                        Some(g) => g.rules += 1,
                        None => findings.push(Finding {
                            line: n,
                            code: "rule-outside-group",
                            message: "rule before any user-agent line: it \
                                      belongs to no group and is ignored"
                                .to_string(),
                        }),
                    }
                }
                LineKind::ContentUsage | LineKind::ContentSignal => {
                    // In `rfc9309` a Content-Usage line is a rule of its
                    // group, as the verdicts read it.
                    seen_rule |= is_group_rule(line.kind(), dialect);
                    findings.extend(usage_findings(
                        n,
                        line.kind(),
                        value,
                        groups.is_empty(),
                    ));
                }
                LineKind::Sitemap => sitemaps.push(Directive {
                    line: n,
                    value: value.to_vec(),
                    agents: vec![],
                }),
                LineKind::Other => {
                    let key = robots.key(line).to_ascii_lowercase();
                    if key == b"crawl-delay" {
                        crawl_delays.push(Directive {
                            line: n,
                            value: value.to_vec(),
                            agents: current(&groups),
                        });
                    }
                    let known = NON_STANDARD
                        .iter()
                        .find(|(k, _)| k.as_bytes() == key.as_slice());
                    findings.push(match known {
                        Some(&(_, what)) => Finding {
                            line: n,
                            code: "non-standard-directive",
                            message: what.to_string(),
                        },
                        None => Finding {
                            line: n,
                            code: "unknown-directive",
                            message: format!(
                                "unknown key {:?}: ignored by RFC 9309 \
                                 crawlers (section 2.2.4)",
                                String::from_utf8_lossy(robots.key(line))
                            ),
                        },
                    });
                }
                _ => {}
            }
        }
        findings.extend(shadowed(robots, dialect));
        findings.sort_by_key(|f| f.line);
        findings.dedup();
        Lint { findings, groups, sitemaps, crawl_delays }
    }
}

/// Labels of earlier AIPREF vocabulary drafts, which the current one
/// (vocab-07: `train-ai` and `search`) no longer knows.
const OLD_LABELS: &[&str] = &[
    "tdm",
    "ai",
    "genai",
    "inference",
    "all",
    "train-genai",
    "ai-use",
    "bots",
    "ai-output",
];

/// What is wrong with a Content-Usage or Content-Signal line: outside
/// any group, a dictionary that does not parse, labels of earlier drafts,
/// signal values other than `yes` and `no`.
fn usage_findings(
    line: u32,
    kind: LineKind,
    value: &[u8],
    outside: bool,
) -> Vec<Finding> {
    let mut findings = vec![];
    let mut push =
        |code, message: String| findings.push(Finding { line, code, message });
    if kind == LineKind::ContentSignal {
        if outside {
            push(
                "usage-outside-group",
                "Content-Signal before any user-agent line: robots-batch \
                 applies it to every agent, but a reader that follows RFC \
                 9309's groups may ignore it; put it in the `User-agent: *` \
                 group"
                    .to_string(),
            );
        }
        for entry in signal_entries(value) {
            if !matches!(entry.value, Some(b"yes" | b"no")) {
                push(
                    "signal-value",
                    format!(
                        "Content-Signal entry {:?}: only `yes` and `no` are \
                         values; its preference is unknown",
                        String::from_utf8_lossy(&entry.key_value())
                    ),
                );
            }
        }
        return findings;
    }
    if outside {
        push(
            "usage-outside-group",
            "Content-Usage before any user-agent line: it belongs to no \
             group and is ignored (it is a group's line, like Allow and \
             Disallow)"
                .to_string(),
        );
    }
    let (_, preference) = split_content_usage(value);
    let statement = read_statement(preference);
    if !statement.parsed {
        push(
            "usage-unparseable",
            format!(
                "Content-Usage preference {:?} is not a Structured Field \
                 Dictionary (RFC 9651; keys are lower case, as in \
                 `train-ai=n, search=y`): every preference is unknown",
                String::from_utf8_lossy(preference)
            ),
        );
    }
    for key in &statement.keys {
        if OLD_LABELS.contains(&key.as_str()) {
            push(
                "usage-old-label",
                format!(
                    "Content-Usage label {key:?} is from an earlier AIPREF \
                     draft and means nothing now: the labels are `train-ai` \
                     and `search`"
                ),
            );
        }
    }
    findings
}

/// A user-agent value that is not `*` and not a product token.
fn token_finding(line: u32, value: &[u8]) -> Option<Finding> {
    if value.first() == Some(&b'*') {
        return None;
    }
    let text = String::from_utf8_lossy(value);
    let token = product_token(&text);
    if token.len() == text.len() && !token.is_empty() {
        return None;
    }
    let message = if token.is_empty() {
        format!(
            "user-agent {text:?} is not a product token (letters, '-' and \
             '_'): it names no crawler"
        )
    } else {
        format!(
            "user-agent {text:?} is not a product token (letters, '-' and \
             '_'): RFC 9309 crawlers read it as {token:?}"
        )
    };
    Some(Finding { line, code: "invalid-token", message })
}

/// The form of a pattern that decides which paths it matches: trailing
/// `*`s, and a `*$` at the end, change nothing.
fn canonical(pattern: &[u8]) -> &[u8] {
    let mut p = pattern;
    loop {
        if let Some(rest) = p.strip_suffix(b"*") {
            p = rest;
        } else if let Some(rest) = p.strip_suffix(b"*$") {
            p = rest;
        } else {
            return p;
        }
    }
}

/// Rules that can never decide, in every group's merged rule set.
fn shadowed(robots: &Robots, dialect: Dialect) -> Vec<Finding> {
    // Every token named by a group, and `*`: each selects a rule set.
    let mut tokens: Vec<String> = vec!["*".to_string()];
    for line in robots.lines() {
        if line.kind() == LineKind::UserAgent {
            let value = String::from_utf8_lossy(robots.value(line));
            let token = if dialect.is_longest_match() {
                product_token(&value).to_string()
            } else {
                value.split(['/', ' ', '\t']).next().unwrap_or("").to_string()
            };
            if !token.is_empty() && !tokens.contains(&token) {
                tokens.push(token);
            }
        }
    }
    let mut findings = vec![];
    for token in &tokens {
        let set = RuleSet::select(robots, token, dialect);
        let rules: Vec<Rule> = set.rules().collect();
        let winners = if dialect.is_longest_match() {
            longest_match_winners(&rules)
        } else {
            first_match_winners(&rules)
        };
        for (r, winner) in rules.iter().zip(winners) {
            let Some(s) = winner.map(|j| &rules[j]) else {
                continue;
            };
            let how = if s.pattern() == r.pattern()
                && s.is_allow() == r.is_allow()
            {
                "is the same rule"
            } else if dialect.is_longest_match() {
                "matches the same paths and always wins"
            } else {
                "comes first and matches every path this one matches"
            };
            findings.push(Finding {
                line: r.line(),
                code: "shadowed-rule",
                message: format!(
                    "{:?} can never decide: line {} ({:?}) {how}",
                    String::from_utf8_lossy(r.text()),
                    s.line(),
                    String::from_utf8_lossy(s.text()),
                ),
            });
        }
    }
    findings
}

/// Longest match: per rule, the first rule in file order that decides
/// every path it matches, if any.
///
/// Such a rule has the same canonical pattern and comes before it in the
/// order that decides (longer, then allow, then file order). So the rules
/// are sorted by canonical pattern and that order, and a rule's winner is
/// the least index among those before it in its run: n log n, where
/// comparing every pair was quadratic in hostile files (tens of thousands
/// of copies of one rule).
fn longest_match_winners(rules: &[Rule]) -> Vec<Option<usize>> {
    let mut order: Vec<usize> =
        (0..rules.len()).filter(|&i| !rules[i].pattern().is_empty()).collect();
    order.sort_by(|&i, &j| {
        let (r, s) = (&rules[i], &rules[j]);
        canonical(r.pattern())
            .cmp(canonical(s.pattern()))
            .then(s.pattern().len().cmp(&r.pattern().len()))
            .then(s.is_allow().cmp(&r.is_allow()))
            .then(i.cmp(&j))
    });
    let mut winners = vec![None; rules.len()];
    let mut least: Option<usize> = None;
    for (k, &i) in order.iter().enumerate() {
        let same_run = k > 0
            && canonical(rules[order[k - 1]].pattern())
                == canonical(rules[i].pattern());
        if !same_run {
            least = None;
        }
        winners[i] = least;
        least = Some(least.map_or(i, |l| l.min(i)));
    }
    winners
}

/// First match: per rule, the first earlier rule whose pattern is a
/// prefix of its pattern, if any, found by one walk of a trie of the
/// patterns (each node with the first rule that ends there): linear in
/// the patterns' bytes.
fn first_match_winners(rules: &[Rule]) -> Vec<Option<usize>> {
    let mut children: HashMap<(usize, u8), usize> = HashMap::new();
    // Per node, the first rule whose pattern ends there.
    let mut first: Vec<Option<usize>> = vec![None];
    for (i, r) in rules.iter().enumerate() {
        if r.pattern().is_empty() {
            continue;
        }
        let mut node = 0;
        for &b in r.pattern() {
            let fresh = first.len();
            node = *children.entry((node, b)).or_insert(fresh);
            if node == fresh {
                first.push(None);
            }
        }
        first[node].get_or_insert(i);
    }
    rules
        .iter()
        .enumerate()
        .map(|(i, r)| {
            if r.pattern().is_empty() {
                return None;
            }
            // The first rule ending at any node on the way: earlier than
            // this one, or this one itself (then none is earlier).
            let mut node = 0;
            let mut best: Option<usize> = None;
            for &b in r.pattern() {
                node = children[&(node, b)];
                best = match (best, first[node]) {
                    (Some(x), Some(y)) => Some(x.min(y)),
                    (x, y) => x.or(y),
                };
            }
            best.filter(|&j| j < i)
        })
        .collect()
}

/// A byte-order mark anywhere but at the start of the file.
fn boms(robots: &Robots) -> Vec<Finding> {
    let bytes = robots.bytes();
    let mut findings = vec![];
    for line in robots.lines() {
        let text = robots.text(line);
        let at = memchr::memmem::find(text, b"\xEF\xBB\xBF");
        let offset = text.as_ptr() as usize - bytes.as_ptr() as usize;
        if at.is_some_and(|at| offset + at > 0) {
            findings.push(Finding {
                line: line.number(),
                code: "bom",
                message: "byte-order mark inside the file (two files \
                          joined?): it is part of the line, so the line's \
                          key is not recognised"
                    .to_string(),
            });
        }
    }
    findings
}

/// An HTML page served as robots.txt.
fn html(bytes: &[u8]) -> Option<Finding> {
    crate::sniff::looks_like_html(bytes).then(|| Finding {
        line: 1,
        code: "html",
        message: "this is an HTML page, not a robots.txt (an error page \
                  served with status 200?): crawlers find no rules in it"
            .to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The winners found by sorting and by the trie are those of
    /// comparing every pair, on random small rule sets full of repeats,
    /// prefixes and trailing stars.
    #[test]
    fn winners_agree_with_every_pair() {
        let mut rng = crate::testing::xorshift(0x9E37_79B9_7F4A_7C15u64);
        let mut next = move |n: usize| (rng() % n as u64) as usize;
        let mut found = 0;
        for _ in 0..2_000 {
            let mut text = String::from("User-agent: *\n");
            for _ in 0..next(12) {
                text += if next(2) == 0 { "Allow: " } else { "Disallow: " };
                for _ in 0..next(4) {
                    text.push(['/', 'a', '*', '$'][next(4)]);
                }
                text.push('\n');
            }
            let robots = Robots::parse(text.as_bytes());
            for dialect in Dialect::ALL {
                let set = RuleSet::select(&robots, "*", dialect);
                let rules: Vec<Rule> = set.rules().collect();
                let got = if dialect.is_longest_match() {
                    longest_match_winners(&rules)
                } else {
                    first_match_winners(&rules)
                };
                let want: Vec<Option<usize>> = rules
                    .iter()
                    .enumerate()
                    .map(|(i, r)| {
                        if r.pattern().is_empty() {
                            return None;
                        }
                        (0..rules.len()).find(|&j| {
                            let s = &rules[j];
                            j != i
                                && !s.pattern().is_empty()
                                && beats(dialect, s, j, r, i)
                        })
                    })
                    .collect();
                assert_eq!(got, want, "{dialect}: {text:?}");
                found += want.iter().flatten().count();
            }
        }
        assert!(found > 2_000, "{found}");
    }

    /// True when rule `s` (index `j`) decides every path that rule `r`
    /// (index `i`) matches: the definition the winners follow.
    fn beats(
        dialect: Dialect,
        s: &Rule,
        j: usize,
        r: &Rule,
        i: usize,
    ) -> bool {
        if dialect.is_longest_match() {
            if canonical(s.pattern()) != canonical(r.pattern()) {
                return false;
            }
            let (ls, lr) = (s.pattern().len(), r.pattern().len());
            ls > lr
                || (ls == lr && s.is_allow() && !r.is_allow())
                || (ls == lr && s.is_allow() == r.is_allow() && j < i)
        } else {
            j < i && r.pattern().starts_with(s.pattern())
        }
    }

    #[test]
    fn canonical_patterns() {
        assert_eq!(canonical(b"/a**"), b"/a");
        assert_eq!(canonical(b"/a*$"), b"/a");
        assert_eq!(canonical(b"/a$"), b"/a$");
    }
}

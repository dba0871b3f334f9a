//! Group selection: which rules of a robots.txt apply to an agent, in a
//! dialect (contract sections 2, 5 and 6).

use crate::dialect::Dialect;
use crate::dialect::{normalizing_keeps, push_normalized_pattern};
use crate::robots::{is_space, LineKind, Robots};
use std::ops::Range;

/// One allow or disallow rule that applies to the agent, as its
/// [`RuleSet`] holds it.
#[derive(Clone, Copy, Eq, PartialEq)]
pub struct Rule<'s> {
    line: u32,
    allow: bool,
    pattern: &'s [u8],
    text: &'s [u8],
}

impl<'s> Rule<'s> {
    /// The robots.txt line the rule comes from, counting from 1.
    pub fn line(&self) -> u32 {
        self.line
    }

    /// True for an allow rule, false for a disallow rule.
    pub fn is_allow(&self) -> bool {
        self.allow
    }

    /// The rule's pattern after the dialect's normalisation. For `rfc9309`
    /// and `google` its length in bytes is the rule's priority.
    pub fn pattern(&self) -> &'s [u8] {
        self.pattern
    }

    /// The line as written in the robots.txt, without its line end.
    pub fn text(&self) -> &'s [u8] {
        self.text
    }
}

impl std::fmt::Debug for Rule<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rule")
            .field("line", &self.line)
            .field("allow", &self.allow)
            .field("pattern", &String::from_utf8_lossy(self.pattern()))
            .field("text", &String::from_utf8_lossy(self.text()))
            .finish()
    }
}

/// Where a rule's bytes are in its set's: the text, and the pattern, which
/// is part of the text when normalising left the value as it was.
///
/// Offsets take 32 bits (a set's bytes are bounded to fit them, see
/// [`MAX_SET_BYTES`]): crawl mode keeps the rules of every host it meets,
/// and these places were half of a set's memory in 64 bits.
#[derive(Clone, Copy, Debug)]
struct RuleAt {
    text: Span,
    pattern: Span,
    line: u32,
    allow: bool,
}

/// A range of a rule set's bytes.
#[derive(Clone, Copy, Debug)]
struct Span {
    start: u32,
    end: u32,
}

impl Span {
    /// The span of `range`, which lies within a set's bytes.
    fn of(range: Range<usize>) -> Span {
        // Both ends fit: a set's bytes are at most MAX_SET_BYTES.
        Span { start: range.start as u32, end: range.end as u32 }
    }

    fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// The most bytes a rule set's texts and patterns take: the rules after
/// those that reach it are left out (only a robots.txt of gigabytes, read
/// with no `--max-robots-bytes`, has so many).
const MAX_SET_BYTES: usize = u32::MAX as usize;

/// Which group of the robots.txt the rules of a [`RuleSet`] come from.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum GroupMatch {
    /// One or more groups name the agent (the token as the first of them
    /// wrote it; for the older dialects, the record's user-agent value).
    Agent(Vec<u8>),
    /// No group names the agent; the `*` groups apply.
    Star,
    /// No group applies: nothing is disallowed.
    None,
}

impl GroupMatch {
    /// The group's name as reports show it: the agent token, `*`, or empty.
    pub fn name(&self) -> &[u8] {
        match self {
            GroupMatch::Agent(name) => name,
            GroupMatch::Star => b"*",
            GroupMatch::None => b"",
        }
    }
}

/// The rules of a robots.txt that apply to one agent in one dialect, merged
/// from every applicable group, in file order.
#[derive(Clone, Debug)]
pub struct RuleSet {
    dialect: Dialect,
    group: GroupMatch,
    /// Every rule's text and pattern in one allocation: crawl mode keeps
    /// the rules of every host it meets, and a vector per rule cost more
    /// memory and time than the rules themselves.
    bytes: Vec<u8>,
    rules: Vec<RuleAt>,
}

impl RuleSet {
    /// Selects the rules of `robots` that apply to `agent` under `dialect`.
    ///
    /// For `rfc9309` and `google`, `agent` is a product token compared
    /// exactly and case-insensitively with each group's token; `*` (or an
    /// empty agent) names no group. For `draft1996` and `orig1994` its name
    /// token (up to the first `/` or white space) is searched for as a
    /// case-insensitive substring of each record's user-agent values.
    ///
    /// A set's rule texts and patterns take at most 4 GiB: the rules past
    /// that are left out.
    pub fn select(robots: &Robots, agent: &str, dialect: Dialect) -> RuleSet {
        RuleSet::select_within(robots, agent, dialect, MAX_SET_BYTES)
    }

    /// [`RuleSet::select`], keeping the rules whose texts and patterns fit
    /// in `max_bytes` (at most [`MAX_SET_BYTES`]).
    fn select_within(
        robots: &Robots,
        agent: &str,
        dialect: Dialect,
        max_bytes: usize,
    ) -> RuleSet {
        let (group, wanted) = if dialect.is_longest_match() {
            select_group_lines(
                robots,
                agent.as_bytes(),
                dialect,
                LineKind::is_rule,
            )
        } else {
            let (group, rules, _) = select_record(robots, agent.as_bytes());
            (group, rules)
        };
        let lines = robots.lines();
        let mut rules = Vec::with_capacity(wanted.len());
        let size: usize =
            wanted.iter().map(|&i| robots.text(&lines[i]).len()).sum();
        let mut bytes = Vec::with_capacity(size);
        let mut pattern = vec![];
        for i in wanted {
            let line = &lines[i];
            let allow = line.kind() == LineKind::Allow;
            if allow && dialect == Dialect::Orig1994 {
                // The 1994 standard knows no allow lines.
                continue;
            }
            let (value, text) = (robots.value(line), robots.text(line));
            let kept = normalizing_keeps(dialect, value) || {
                pattern.clear();
                push_normalized_pattern(dialect, value, &mut pattern);
                pattern == value
            };
            let adds = text.len() + if kept { 0 } else { pattern.len() };
            if bytes.len() + adds > max_bytes.min(MAX_SET_BYTES) {
                break;
            }
            let at = bytes.len();
            bytes.extend_from_slice(text);
            let pattern = if kept {
                let within = robots.value_in_text(line);
                at + within.start..at + within.end
            } else {
                let p = bytes.len();
                bytes.extend_from_slice(&pattern);
                p..bytes.len()
            };
            rules.push(RuleAt {
                text: Span::of(at..at + text.len()),
                pattern: Span::of(pattern),
                line: line.number(),
                allow,
            });
        }
        RuleSet { dialect, group, bytes, rules }
    }

    /// The dialect the rules were selected and normalised for.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The group the rules come from.
    pub fn group(&self) -> &GroupMatch {
        &self.group
    }

    /// The applicable rules, in file order (empty patterns included; they
    /// never decide a verdict).
    pub fn rules(&self) -> Rules<'_> {
        Rules { set: self, at: self.rules.iter() }
    }

    /// The rule at `index` of [`RuleSet::rules`].
    pub fn rule(&self, index: usize) -> Option<Rule<'_>> {
        self.rules.get(index).map(|at| self.rule_at(at))
    }

    /// How many rules apply.
    pub fn len(&self) -> usize {
        self.rules.len()
    }

    /// Whether no rule applies.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// Heap bytes the rule set holds (its rules' texts and patterns, their
    /// places, the group's name), as allocated: what keeping it costs
    /// beyond its own fixed size.
    pub fn memory_usage(&self) -> usize {
        let name = match &self.group {
            GroupMatch::Agent(name) => name.capacity(),
            GroupMatch::Star | GroupMatch::None => 0,
        };
        self.bytes.capacity()
            + self.rules.capacity() * std::mem::size_of::<RuleAt>()
            + name
    }

    fn rule_at(&self, at: &RuleAt) -> Rule<'_> {
        Rule {
            line: at.line,
            allow: at.allow,
            pattern: &self.bytes[at.pattern.range()],
            text: &self.bytes[at.text.range()],
        }
    }
}

/// The rules of a [`RuleSet`], in file order: see [`RuleSet::rules`].
#[derive(Clone, Debug)]
pub struct Rules<'s> {
    set: &'s RuleSet,
    at: std::slice::Iter<'s, RuleAt>,
}

impl<'s> Iterator for Rules<'s> {
    type Item = Rule<'s>;

    fn next(&mut self) -> Option<Rule<'s>> {
        self.at.next().map(|at| self.set.rule_at(at))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.at.size_hint()
    }
}

impl ExactSizeIterator for Rules<'_> {}

impl<'s> DoubleEndedIterator for Rules<'s> {
    fn next_back(&mut self) -> Option<Rule<'s>> {
        self.at.next_back().map(|at| self.set.rule_at(at))
    }
}

/// A product token's characters (RFC 9309 section 2.2.1).
pub(crate) fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'-'
}

/// True when `agent` is a valid product token: one or more of
/// `[A-Za-z_-]`. Only such an agent can match a group by name.
pub fn is_valid_product_token(agent: &str) -> bool {
    !agent.is_empty() && agent.bytes().all(is_token_byte)
}

/// The product token an agent string most likely means: its longest
/// prefix of `[A-Za-z_-]` (`FooBot/1.0` gives `FooBot`).
pub fn product_token(agent: &str) -> &str {
    let n = agent.bytes().take_while(|&b| is_token_byte(b)).count();
    &agent[..n]
}

/// What is wrong with `agent` under `dialect`, if anything: the warning
/// the command prints on standard error and the Python API raises as a
/// `UserWarning`.
///
/// An empty agent names no group in any dialect, so only the `*` groups
/// apply (as in Google's library; in `draft1996` and `orig1994` an empty
/// name would be contained in every record's value, and the `*` record is
/// taken instead). RFC 9309 and Google compare product tokens exactly, so
/// an agent that is not one (`FooBot/1.0`) can match no group by name; the
/// older standards take its name token (up to a `/` or a space) and look
/// for it as a substring, so `FigTree/0.1 Robot` is their normal form.
///
/// ```
/// use robots_batch::{agent_warning, Dialect};
///
/// assert!(agent_warning("FooBot", Dialect::Rfc9309).is_none());
/// assert!(agent_warning("*", Dialect::Google).is_none());
/// let w = agent_warning("FooBot/1.0", Dialect::Rfc9309).unwrap();
/// assert!(w.contains("did you mean \"FooBot\"?"));
/// assert!(agent_warning("FooBot/1.0", Dialect::Draft1996).is_none());
/// assert!(agent_warning("", Dialect::Orig1994).unwrap().contains("empty"));
/// ```
pub fn agent_warning(agent: &str, dialect: Dialect) -> Option<String> {
    if agent.is_empty() {
        return Some(
            "the agent is empty: it names no group, so only the `*` groups \
             apply"
                .to_string(),
        );
    }
    let exact = dialect.is_longest_match();
    if !exact || agent == "*" || is_valid_product_token(agent) {
        return None;
    }
    let start = format!(
        "agent {agent:?} is not a valid product token (letters, '-' and '_' \
         only), so it may match no group"
    );
    Some(match product_token(agent) {
        "" => start,
        token => format!("{start}; did you mean {token:?}?"),
    })
}

/// Whether a line of `kind` is a rule of its group in `dialect`, so that a
/// user-agent line after it starts a new group: allow and disallow lines,
/// and in `rfc9309` `content-usage` lines too, which the AIPREF attachment
/// draft adds to RFC 9309's rules (`rule =/ content-usage`); Google's
/// parser reads them as unknown keys, which end nothing.
pub(crate) fn is_group_rule(kind: LineKind, dialect: Dialect) -> bool {
    kind.is_rule()
        || (kind == LineKind::ContentUsage && dialect == Dialect::Rfc9309)
}

/// RFC 9309 and Google: groups end where a user-agent line follows a rule
/// ([`is_group_rule`]); the groups naming the agent are merged, else the
/// `*` groups. The lines of those groups whose kind is `wanted` are
/// returned, by index.
///
/// The same lines end a group whatever is `wanted`, so that the usage
/// lines ([`Usage`](crate::Usage)) come from the groups the verdict's
/// rules come from.
pub(crate) fn select_group_lines(
    robots: &Robots,
    agent: &[u8],
    dialect: Dialect,
    wanted: impl Fn(LineKind) -> bool,
) -> (GroupMatch, Vec<usize>) {
    // Room for every line: grown by doubling from empty, the lists cost
    // more than the selection itself.
    let lines = robots.lines().len();
    let mut specific = Vec::with_capacity(lines);
    let mut star = Vec::with_capacity(lines);
    let mut name: Option<Vec<u8>> = None;
    let (mut in_specific, mut in_star) = (false, false);
    let mut seen_agent = false;
    let mut seen_rule = false;
    let mut any_star = false;
    // Wanted lines that are not rules, met before the group's first rule:
    // more user-agent lines may still join the group, so they are given to
    // it once its agents are all known (at its first rule, or at the end).
    let mut pending: Vec<usize> = vec![];
    let give = |pending: &mut Vec<usize>,
                to: (bool, bool),
                specific: &mut Vec<usize>,
                star: &mut Vec<usize>| match to {
        (true, _) => specific.append(pending),
        (false, true) => star.append(pending),
        (false, false) => pending.clear(),
    };
    for (i, line) in robots.lines().iter().enumerate() {
        match line.kind() {
            LineKind::UserAgent => {
                if seen_rule {
                    in_specific = false;
                    in_star = false;
                    seen_rule = false;
                }
                seen_agent = true;
                let value = robots.value(line);
                if is_star(value) {
                    in_star = true;
                    any_star = true;
                } else {
                    let n = value
                        .iter()
                        .take_while(|&&b| is_token_byte(b))
                        .count();
                    let token = &value[..n];
                    if !token.is_empty() && token.eq_ignore_ascii_case(agent) {
                        in_specific = true;
                        name.get_or_insert_with(|| token.to_vec());
                    }
                }
            }
            kind if seen_agent
                && (is_group_rule(kind, dialect) || wanted(kind)) =>
            {
                if is_group_rule(kind, dialect) && !seen_rule {
                    seen_rule = true;
                    let to = (in_specific, in_star);
                    give(&mut pending, to, &mut specific, &mut star);
                }
                if !wanted(kind) {
                    continue;
                }
                if !seen_rule {
                    pending.push(i);
                } else if in_specific {
                    specific.push(i);
                } else if in_star {
                    star.push(i);
                }
            }
            _ => {}
        }
    }
    give(&mut pending, (in_specific, in_star), &mut specific, &mut star);
    match name {
        Some(name) => (GroupMatch::Agent(name), specific),
        None if any_star => (GroupMatch::Star, star),
        None => (GroupMatch::None, vec![]),
    }
}

/// A user-agent value names every crawler when it is `*`, alone or
/// followed by white space and anything (Google's reading).
fn is_star(value: &[u8]) -> bool {
    value.first() == Some(&b'*') && value.get(1).is_none_or(|&b| is_space(b))
}

/// The 1996 draft and the 1994 standard: records end at empty lines too;
/// the first record with a user-agent value containing the agent's name
/// token applies, else the first record whose value is `*`. Its rule
/// lines are returned by index, and the index of the user-agent line that
/// chose it.
fn select_record(
    robots: &Robots,
    agent: &[u8],
) -> (GroupMatch, Vec<usize>, Option<usize>) {
    let n = agent.iter().take_while(|&&b| b != b'/' && !is_space(b)).count();
    let token = agent[..n].to_ascii_lowercase();
    // Each record: its user-agent lines and its rule lines.
    let mut records: Vec<(Vec<usize>, Vec<usize>)> = vec![];
    let mut open = false;
    let mut seen_rule = false;
    for (i, line) in robots.lines().iter().enumerate() {
        match line.kind() {
            LineKind::Empty => open = false,
            LineKind::UserAgent => {
                if !open || seen_rule {
                    records.push((vec![], vec![]));
                    open = true;
                    seen_rule = false;
                }
                records.last_mut().unwrap().0.push(i);
            }
            LineKind::Allow | LineKind::Disallow if open => {
                seen_rule = true;
                records.last_mut().unwrap().1.push(i);
            }
            _ => {}
        }
    }
    let value = |i: usize| robots.value(&robots.lines()[i]);
    let contains = |hay: &[u8]| {
        !token.is_empty()
            && hay.len() >= token.len()
            && hay.windows(token.len()).any(|w| w.eq_ignore_ascii_case(&token))
    };
    for (agents, rules) in &records {
        if let Some(&a) = agents.iter().find(|&&a| contains(value(a))) {
            let group = GroupMatch::Agent(value(a).to_vec());
            return (group, rules.clone(), Some(a));
        }
    }
    for (agents, rules) in &records {
        if let Some(&a) = agents.iter().find(|&&a| value(a) == b"*") {
            return (GroupMatch::Star, rules.clone(), Some(a));
        }
    }
    (GroupMatch::None, vec![], None)
}

/// The user-agent lines through which [`RuleSet::select`] finds the groups
/// of `agent` in `dialect`, counting from 1: for `rfc9309` and `google`,
/// every line naming the agent, or when none does every `*` line; for
/// `draft1996` and `orig1994`, the line that chose the one record. Empty
/// when no group applies.
pub(crate) fn agent_lines(
    robots: &Robots,
    agent: &str,
    dialect: Dialect,
) -> Vec<u32> {
    let lines = robots.lines();
    if !dialect.is_longest_match() {
        let (_, _, chosen) = select_record(robots, agent.as_bytes());
        return chosen.map(|i| lines[i].number()).into_iter().collect();
    }
    // The same tests as `select_group_lines`: a group names the agent when
    // one of its user-agent lines' token is the agent's.
    let (mut named, mut star) = (vec![], vec![]);
    for line in lines.iter().filter(|l| l.kind() == LineKind::UserAgent) {
        let value = robots.value(line);
        let n = value.iter().take_while(|&&b| is_token_byte(b)).count();
        if is_star(value) {
            star.push(line.number());
        } else if n > 0 && value[..n].eq_ignore_ascii_case(agent.as_bytes()) {
            named.push(line.number());
        }
    }
    if named.is_empty() {
        star
    } else {
        named
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(robots: &str, agent: &str, d: Dialect) -> (GroupMatch, Vec<u32>) {
        let r = Robots::parse(robots.as_bytes());
        let set = RuleSet::select(&r, agent, d);
        (set.group().clone(), set.rules().map(|r| r.line()).collect())
    }

    #[test]
    fn rules_keep_pattern_and_text() {
        let robots = "User-agent: *\nDisallow: /caf\u{e9} # old\n";
        let r = Robots::parse(robots.as_bytes());
        let set = RuleSet::select(&r, "a", Dialect::Rfc9309);
        let rule = set.rule(0).unwrap();
        assert_eq!(rule.pattern(), b"/caf%C3%A9");
        assert_eq!(rule.text(), "Disallow: /caf\u{e9} # old".as_bytes());
        let shown = format!("{rule:?}");
        assert!(shown.contains(r#"pattern: "/caf%C3%A9""#), "{shown}");
        assert!(shown.contains("text: \"Disallow: /caf\u{e9} # old\""));
    }

    #[test]
    fn rules_past_the_bytes_a_set_may_hold_are_left_out() {
        // Each rule takes its text, and a normalised pattern when the
        // value changes: "Disallow: /a" 12 bytes, "Allow: /\u{e9}" 10 +
        // "/%C3%A9" 7.
        let robots =
            "User-agent: *\nDisallow: /a\nAllow: /\u{e9}\nDisallow: /b\n";
        let r = Robots::parse(robots.as_bytes());
        let kept = |max: usize| {
            let set = RuleSet::select_within(&r, "a", Dialect::Google, max);
            set.rules().map(|r| r.line()).collect::<Vec<_>>()
        };
        assert_eq!(kept(usize::MAX), [2, 3, 4]);
        assert_eq!(kept(12 + 17 + 12), [2, 3, 4]);
        // The rule that would pass the bound ends the set, even where a
        // later, shorter one would fit.
        assert_eq!(kept(12 + 17 + 11), [2, 3]);
        assert_eq!(kept(12 + 16), [2]);
        assert_eq!(kept(11), Vec::<u32>::new());
        let set = RuleSet::select_within(&r, "a", Dialect::Google, 12 + 17);
        assert_eq!(set.rule(1).map(|r| r.pattern()), Some(&b"/%C3%A9"[..]));
    }

    #[test]
    fn a_rule_takes_24_bytes_of_its_set_besides_its_own() {
        assert_eq!(std::mem::size_of::<RuleAt>(), 24);
    }

    #[test]
    fn rules_of_a_line_too_long_keep_the_whole_text() {
        use crate::robots::MAX_LINE_LEN;
        // A line past MAX_LINE_LEN, its value all bytes that normalising
        // writes as three: the rule's text is the whole line, its pattern
        // the value as far as the line's first MAX_LINE_LEN bytes, and the
        // rule after it keeps its own bytes.
        let value = "\u{e9}".repeat(MAX_LINE_LEN);
        let robots = format!(
            "User-agent: *\nDisallow: /{value}\nAllow: /\u{e9}t\u{e9}\n"
        );
        let r = Robots::parse(robots.as_bytes());
        let line =
            &robots.as_bytes()[14..14 + "Disallow: /".len() + value.len()];
        for dialect in [Dialect::Rfc9309, Dialect::Google] {
            let set = RuleSet::select(&r, "a", dialect);
            let long = set.rule(0).unwrap();
            assert!(
                long.text() == line,
                "text of {} bytes",
                long.text().len()
            );
            let mut want = b"/".to_vec();
            for &b in &line["Disallow: /".len()..MAX_LINE_LEN] {
                want.extend(format!("%{b:02X}").bytes());
            }
            assert!(
                long.pattern() == &want[..],
                "{dialect:?}: pattern of {} bytes, {} wanted",
                long.pattern().len(),
                want.len()
            );
            let next = set.rule(1).unwrap();
            assert_eq!(next.pattern(), b"/%C3%A9t%C3%A9");
            assert_eq!(next.text(), "Allow: /\u{e9}t\u{e9}".as_bytes());
            assert!(next.is_allow());
            assert_eq!(next.line(), 3);
        }
    }

    /// Rules whose pattern is their value as written and rules whose
    /// pattern was normalised, mixed, each keep their own line, text and
    /// pattern, in order from either end.
    #[test]
    fn rules_with_and_without_normalised_patterns() {
        let robots = "User-agent: *\nDisallow: /a%2fb\n  allow :/x # c\n\
                      Disallow: /\u{e9}t\u{e9}\nDisallow:\nAllow: /y$\n";
        let r = Robots::parse(robots.as_bytes());
        let set = RuleSet::select(&r, "a", Dialect::Google);
        let got: Vec<_> = set
            .rules()
            .map(|r| (r.line(), r.is_allow(), r.pattern(), r.text()))
            .collect();
        let want: Vec<(u32, bool, &[u8], &[u8])> = vec![
            (2, false, b"/a%2Fb", b"Disallow: /a%2fb"),
            (3, true, b"/x", b"  allow :/x # c"),
            (
                4,
                false,
                b"/%C3%A9t%C3%A9",
                "Disallow: /\u{e9}t\u{e9}".as_bytes(),
            ),
            (5, false, b"", b"Disallow:"),
            (6, true, b"/y$", b"Allow: /y$"),
        ];
        assert_eq!(got, want);
        assert_eq!((set.len(), set.is_empty()), (5, false));
        assert_eq!(set.rules().len(), 5);
        let back: Vec<u32> = set.rules().rev().map(|r| r.line()).collect();
        assert_eq!(back, [6, 5, 4, 3, 2]);
        assert_eq!(set.rule(4).map(|r| r.text()), Some(&b"Allow: /y$"[..]));
        assert!(set.rule(5).is_none());
        let orig = RuleSet::select(&r, "a", Dialect::Orig1994);
        let lines: Vec<u32> = orig.rules().map(|r| r.line()).collect();
        assert_eq!(lines, [2, 4, 5], "1994 knows no allow lines");
    }

    #[test]
    fn groups_merge_and_star_fallback() {
        let robots =
            "User-agent: a\nDisallow: /x\n\nUser-agent: *\nDisallow: /y\n\
                      User-agent: A/1.0\nAllow: /z\n";
        let (g, l) = lines(robots, "a", Dialect::Rfc9309);
        assert_eq!(g, GroupMatch::Agent(b"a".to_vec()));
        assert_eq!(l, vec![2, 7]);
        let (g, l) = lines(robots, "q", Dialect::Rfc9309);
        assert_eq!(g, GroupMatch::Star);
        assert_eq!(l, vec![5]);
        let (g, l) =
            lines("User-agent: b\nDisallow: /\n", "q", Dialect::Google);
        assert_eq!((g, l), (GroupMatch::None, vec![]));
    }

    #[test]
    fn matching_group_without_rules() {
        let (g, l) = lines(
            "User-agent: a\nUser-agent: *\nDisallow: /\n",
            "a",
            Dialect::Rfc9309,
        );
        assert_eq!(g, GroupMatch::Agent(b"a".to_vec()));
        assert_eq!(l, vec![3]);
        let (g, l) = lines(
            "User-agent: a\n\nUser-agent: b\nDisallow: /\n",
            "a",
            Dialect::Rfc9309,
        );
        assert_eq!(g, GroupMatch::Agent(b"a".to_vec()));
        assert_eq!(l, vec![4]);
    }

    #[test]
    fn old_records_end_at_empty_lines() {
        let robots = "User-agent: my-foobot-crawler\nDisallow: /x\n\nUser-agent: *\nDisallow: /y\n";
        assert_eq!(lines(robots, "FooBot/2.0", Dialect::Draft1996).1, vec![2]);
        assert_eq!(lines(robots, "other", Dialect::Draft1996).1, vec![5]);
        let (g, l) = lines(
            "User-agent: a\n\nUser-agent: b\nDisallow: /\n",
            "a",
            Dialect::Draft1996,
        );
        assert_eq!((g, l), (GroupMatch::Agent(b"a".to_vec()), vec![]));
    }

    /// The user-agent lines that select an agent's groups are those
    /// naming it, else the `*` ones, else none; in the older standards,
    /// the line that chose the one record.
    #[test]
    fn agent_lines_name_the_groups_selected() {
        let robots = Robots::parse(
            b"User-agent: *\nDisallow: /a\n\nUser-agent: GPTBot/1.0\n\
              User-agent: other\nDisallow: /b\n\nUser-agent: gptbot\n\
              Allow: /c\nUser-agent: * # all\nDisallow: /d\n",
        );
        let at = |agent, d| agent_lines(&robots, agent, d);
        assert_eq!(at("GPTBot", Dialect::Rfc9309), [4, 8]);
        assert_eq!(at("CCBot", Dialect::Google), [1, 10]);
        assert_eq!(at("*", Dialect::Rfc9309), [1, 10]);
        assert_eq!(at("GPTBot", Dialect::Draft1996), [4]);
        assert_eq!(at("CCBot", Dialect::Orig1994), [1]);
        let none = Robots::parse(b"User-agent: a\nDisallow: /\n");
        assert!(agent_lines(&none, "b", Dialect::Rfc9309).is_empty());
        assert!(agent_lines(&none, "b", Dialect::Draft1996).is_empty());
        // Each agrees with the selection: its lines hold the group's name.
        for d in Dialect::ALL {
            let set = RuleSet::select(&robots, "GPTBot", d);
            let first = at("GPTBot", d)[0] as usize;
            let value = robots.value(&robots.lines()[first - 1]);
            let n = set.group().name().len();
            assert!(value[..n].eq_ignore_ascii_case(set.group().name()));
        }
    }

    #[test]
    fn product_tokens() {
        assert!(is_valid_product_token("Foo_Bar-baz"));
        assert!(!is_valid_product_token("FooBot/1.0"));
        assert!(!is_valid_product_token(""));
        assert_eq!(product_token("FooBot/1.0"), "FooBot");
        assert_eq!(product_token("MJ12bot"), "MJ");
    }
}

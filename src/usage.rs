//! AI usage preferences: what a robots.txt says about how the content of a
//! path may be *used*, beside whether it may be fetched.
//!
//! Two kinds of line state them: `Content-Usage` (the IETF AIPREF
//! attachment draft; a line of a group, which the draft calls a rule,
//! with an optional path and an RFC 9651 Structured Field Dictionary,
//! `train-ai=n, search=y`) and
//! `Content-Signal` (Cloudflare's Content Signals Policy, `search=yes,
//! ai-train=no, ai-input=yes`, for the whole site). Neither changes a
//! verdict. The lines are taken from the groups the verdict's rules come
//! from ([`RuleSet`](crate::RuleSet)'s selection), in the `rfc9309` and
//! `google` dialects; the older dialects know no such lines.

use crate::dialect::{push_normalized_pattern, Dialect};
use crate::robots::{LineKind, Robots};
use crate::rules::{select_group_lines, GroupMatch};
use crate::usage_index::PathIndex;

/// A category of use that the usage columns report.
#[derive(Clone, Copy, Debug, Eq, Hash, PartialEq)]
pub enum Category {
    /// AI model training: AIPREF's `train-ai`, Content-Signal's
    /// `ai-train`.
    TrainAi,
    /// Search: AIPREF's and Content-Signal's `search`.
    Search,
    /// Use as live input to AI answers: Content-Signal's `ai-input`, which
    /// has no AIPREF label.
    AiInput,
}

impl Category {
    /// Every category, in the order of the usage columns.
    pub const ALL: [Category; 3] =
        [Category::TrainAi, Category::Search, Category::AiInput];

    /// The category's name in reports (the column's name): `train-ai`,
    /// `search` or `ai-input`.
    pub fn name(self) -> &'static str {
        match self {
            Category::TrainAi => "train-ai",
            Category::Search => "search",
            Category::AiInput => "ai-input",
        }
    }

    /// The AIPREF label of the category, if it has one (vocab-07 has
    /// `train-ai` and `search`).
    fn aipref_label(self) -> Option<&'static str> {
        match self {
            Category::TrainAi => Some("train-ai"),
            Category::Search => Some("search"),
            Category::AiInput => None,
        }
    }

    /// The Content-Signal key of the category.
    fn signal_key(self) -> &'static [u8] {
        match self {
            Category::TrainAi => b"ai-train",
            Category::Search => b"search",
            Category::AiInput => b"ai-input",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// The preference for one category of use.
#[derive(Clone, Copy, Debug, Default, Eq, Hash, PartialEq)]
pub enum Preference {
    /// The use is allowed (`y`, `yes`).
    Allowed,
    /// The use is disallowed (`n`, `no`).
    Disallowed,
    /// Nothing (understood) was said.
    #[default]
    Unknown,
}

impl Preference {
    /// `allowed`, `disallowed` or `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            Preference::Allowed => "allowed",
            Preference::Disallowed => "disallowed",
            Preference::Unknown => "unknown",
        }
    }
}

/// The preference for every category, as one line states it or as the
/// lines that apply to a path combine, with the line that decided each.
#[derive(Clone, Copy, Debug, Default, Eq, Hash, PartialEq)]
pub struct UsagePrefs {
    prefs: [Preference; 3],
    lines: [Option<u32>; 3],
}

impl UsagePrefs {
    /// The preference for `category`.
    pub fn get(&self, category: Category) -> Preference {
        self.prefs[category.index()]
    }

    /// The line that decided the preference for `category`: the first line
    /// in file order that states the winning preference; `None` when the
    /// preference is unknown.
    pub fn line(&self, category: Category) -> Option<u32> {
        self.lines[category.index()]
    }

    /// Combines `other` into these preferences, per category, the most
    /// restrictive winning (AIPREF vocab, "Combining Preferences"): any
    /// disallow gives disallowed, else any allow gives allowed, else
    /// unknown. Of two lines stating the winner, the first in file order
    /// decides.
    pub(crate) fn combine(&mut self, other: &UsagePrefs) {
        for i in 0..3 {
            let (a, b) = (self.prefs[i], other.prefs[i]);
            let rank = |p: Preference| match p {
                Preference::Disallowed => 2,
                Preference::Allowed => 1,
                Preference::Unknown => 0,
            };
            if rank(b) > rank(a) {
                self.prefs[i] = b;
                self.lines[i] = other.lines[i];
            } else if rank(b) == rank(a) && b != Preference::Unknown {
                self.lines[i] = match (self.lines[i], other.lines[i]) {
                    (Some(x), Some(y)) => Some(x.min(y)),
                    (x, y) => x.or(y),
                };
            }
        }
    }

    /// Sets the preference for `category` as `line` states it (no line
    /// when it is unknown).
    pub(crate) fn set(
        &mut self,
        category: Category,
        pref: Preference,
        line: u32,
    ) {
        self.prefs[category.index()] = pref;
        self.lines[category.index()] =
            (pref != Preference::Unknown).then_some(line);
    }
}

/// The kind of line a [`UsageLine`] comes from.
#[derive(Clone, Copy, Debug, Eq, Hash, PartialEq)]
pub enum UsageSource {
    /// A `Content-Usage` line (IETF AIPREF).
    ContentUsage,
    /// A `Content-Signal` line (Cloudflare's Content Signals Policy).
    ContentSignal,
}

/// One `Content-Usage` or `Content-Signal` line that applies to the agent
/// (a *line*, not a *rule*: rules are Allow and Disallow lines, which
/// decide verdicts).
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct UsageLine {
    line: u32,
    source: UsageSource,
    /// The path pattern after the dialect's normalisation; `None` when
    /// the line has none (every Content-Signal line).
    pattern: Option<Vec<u8>>,
    prefs: UsagePrefs,
    text: Vec<u8>,
}

impl UsageLine {
    /// The robots.txt line, counting from 1.
    pub fn line(&self) -> u32 {
        self.line
    }

    /// Which kind of line it is.
    pub fn source(&self) -> UsageSource {
        self.source
    }

    /// The path pattern after the dialect's normalisation (as a rule's),
    /// `None` when the line gives none: then it applies to every path,
    /// with a length of 0.
    pub fn pattern(&self) -> Option<&[u8]> {
        self.pattern.as_deref()
    }

    /// The preferences the line states.
    pub fn prefs(&self) -> &UsagePrefs {
        &self.prefs
    }

    /// The line as written, without its line end.
    pub fn text(&self) -> &[u8] {
        &self.text
    }
}

/// What one preference (a Content-Usage line's dictionary) says.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub(crate) struct Statement {
    /// The preference per AIPREF category (train-ai, search).
    pub(crate) prefs: [Preference; 2],
    /// Whether the dictionary parsed.
    pub(crate) parsed: bool,
    /// The dictionary's keys, in order, repeated ones once.
    pub(crate) keys: Vec<String>,
}

/// Reads a Content-Usage statement of preference: an RFC 9651 Dictionary,
/// processed as AIPREF vocab section 6.4 says. A key's value (its last one,
/// parameters ignored) allows for the Token `y`, disallows for the Token
/// `n`; anything else, a missing key, or a dictionary that does not parse
/// (upper-case keys included) leaves the category unknown.
pub(crate) fn read_statement(bytes: &[u8]) -> Statement {
    // The dictionary parser is sfv's: RFC 9651's algorithm is linear in
    // its input, and the input is at most one line's MAX_LINE_LEN bytes.
    let Ok(dict) = sfv::Parser::new(bytes).parse::<sfv::Dictionary>() else {
        return Statement::default();
    };
    let mut statement = Statement {
        parsed: true,
        keys: dict.keys().map(|k| k.as_str().to_string()).collect(),
        ..Statement::default()
    };
    for (i, category) in
        [Category::TrainAi, Category::Search].iter().enumerate()
    {
        let Some(label) = category.aipref_label() else { continue };
        let token = match dict.get(label) {
            Some(sfv::ListEntry::Item(item)) => item.bare_item.as_token(),
            _ => None,
        };
        statement.prefs[i] = match token.map(|t| t.as_str()) {
            Some("y") => Preference::Allowed,
            Some("n") => Preference::Disallowed,
            _ => Preference::Unknown,
        };
    }
    statement
}

/// A Content-Usage value split as the attachment draft says: a value that
/// starts with `/` has a path up to the first SP or HTAB, and the
/// preference after the white space; any other value is all preference.
pub(crate) fn split_content_usage(value: &[u8]) -> (Option<&[u8]>, &[u8]) {
    if value.first() != Some(&b'/') {
        return (None, value);
    }
    let end = value
        .iter()
        .position(|&b| b == b' ' || b == b'\t')
        .unwrap_or(value.len());
    let rest = &value[end..];
    let start = rest
        .iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(rest.len());
    (Some(&value[..end]), &rest[start..])
}

/// One `key=value` entry of a Content-Signal line, trimmed.
pub(crate) struct SignalEntry<'a> {
    pub(crate) key: &'a [u8],
    pub(crate) value: Option<&'a [u8]>,
}

impl SignalEntry<'_> {
    /// The entry as `key=value` (or `key` alone), trimmed.
    pub(crate) fn key_value(&self) -> Vec<u8> {
        let mut out = self.key.to_vec();
        if let Some(value) = self.value {
            out.push(b'=');
            out.extend_from_slice(value);
        }
        out
    }
}

/// The entries of a Content-Signal value: comma-separated `key=value`
/// pairs, each trimmed of white space. The format has no grammar (no
/// ABNF), so it is split by hand rather than parsed as a Structured
/// Field, which would drop a whole line for one odd entry.
pub(crate) fn signal_entries(
    value: &[u8],
) -> impl Iterator<Item = SignalEntry<'_>> {
    value.split(|&b| b == b',').filter_map(|entry| {
        let entry = trim(entry);
        if entry.is_empty() {
            return None;
        }
        Some(match entry.iter().position(|&b| b == b'=') {
            Some(i) => SignalEntry {
                key: trim(&entry[..i]),
                value: Some(trim(&entry[i + 1..])),
            },
            None => SignalEntry { key: entry, value: None },
        })
    })
}

/// `s` without its leading and trailing SP and HTAB.
fn trim(mut s: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', rest @ ..] = s {
        s = rest;
    }
    while let [rest @ .., b' ' | b'\t'] = s {
        s = rest;
    }
    s
}

/// The preferences a Content-Signal value states: `yes` allows, `no`
/// disallows, for the keys `ai-train`, `search` and `ai-input`; a
/// repeated key keeps its last value; other keys and values are unknown.
fn read_signal(value: &[u8], line: u32) -> UsagePrefs {
    let mut prefs = UsagePrefs::default();
    for entry in signal_entries(value) {
        let Some(category) =
            Category::ALL.into_iter().find(|c| c.signal_key() == entry.key)
        else {
            continue;
        };
        let pref = match entry.value {
            Some(b"yes") => Preference::Allowed,
            Some(b"no") => Preference::Disallowed,
            _ => Preference::Unknown,
        };
        prefs.set(category, pref, line);
    }
    prefs
}

/// The usage preferences of a robots.txt for one agent in one dialect:
/// the `Content-Usage` and `Content-Signal` lines of the groups that apply
/// (the groups of [`RuleSet::select`](crate::RuleSet::select)), and the
/// `Content-Signal` lines before any group, which apply to every agent.
///
/// For a path that may be fetched, [`Usage::prefs`] combines them: the
/// Content-Usage lines whose path matches the longest (as Allow and
/// Disallow match: by the bytes of the normalised pattern, `*` and `$`
/// included; a line without a path matches every path with a length of
/// 0), and every Content-Signal line, the most restrictive preference
/// winning per category. A path that may not be fetched has no
/// preferences; that is the caller's to check.
///
/// ```
/// use robots_batch::{Category, Dialect, Preference, Robots, Usage};
///
/// let robots = Robots::parse(b"\
/// User-Agent: *
/// Allow: /
/// Content-Usage: train-ai=n
/// Content-Usage: /ai-ok/ train-ai=y
/// Content-Signal: search=yes, ai-input=no
/// ");
/// let usage = Usage::select(&robots, "ExampleBot", Dialect::Rfc9309);
/// let prefs = usage.prefs(b"/ai-ok/test");
/// assert_eq!(prefs.get(Category::TrainAi), Preference::Allowed);
/// assert_eq!(prefs.line(Category::TrainAi), Some(4));
/// assert_eq!(prefs.get(Category::Search), Preference::Allowed);
/// assert_eq!(prefs.get(Category::AiInput), Preference::Disallowed);
/// let prefs = usage.prefs(b"/test");
/// assert_eq!(prefs.get(Category::TrainAi), Preference::Disallowed);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Usage {
    dialect: Dialect,
    group: GroupMatch,
    /// The Content-Usage lines, in file order.
    paths: Vec<UsageLine>,
    /// The Content-Usage lines, indexed by path.
    index: PathIndex,
    /// The Content-Signal lines (before any group, then of the groups),
    /// in file order.
    signals: Vec<UsageLine>,
    /// The signals combined: they hold for every path.
    signal_prefs: UsagePrefs,
}

impl Usage {
    /// Selects the usage lines of `robots` that apply to `agent` under
    /// `dialect` (none for `draft1996` and `orig1994`, which know no such
    /// lines: every preference is unknown there).
    pub fn select(robots: &Robots, agent: &str, dialect: Dialect) -> Usage {
        let mut usage = Usage {
            dialect,
            group: GroupMatch::None,
            paths: vec![],
            index: PathIndex::new(&[], dialect),
            signals: vec![],
            signal_prefs: UsagePrefs::default(),
        };
        if !dialect.is_longest_match() {
            return usage;
        }
        let lines = robots.lines();
        // A Content-Signal line before the first group states the site's
        // preferences for every agent; a Content-Usage line there belongs
        // to no group and is ignored, as a rule there is.
        let first_agent = lines
            .iter()
            .position(|l| l.kind() == LineKind::UserAgent)
            .unwrap_or(lines.len());
        let outside = (0..first_agent)
            .filter(|&i| lines[i].kind() == LineKind::ContentSignal);
        let (group, inside) = select_group_lines(
            robots,
            agent.as_bytes(),
            dialect,
            LineKind::is_usage,
        );
        usage.group = group;
        for i in outside.chain(inside) {
            let line = &lines[i];
            let (value, text) = (robots.value(line), robots.text(line));
            let number = line.number();
            if line.kind() == LineKind::ContentSignal {
                let prefs = read_signal(value, number);
                usage.signal_prefs.combine(&prefs);
                usage.signals.push(UsageLine {
                    line: number,
                    source: UsageSource::ContentSignal,
                    pattern: None,
                    prefs,
                    text: text.to_vec(),
                });
                continue;
            }
            let (path, preference) = split_content_usage(value);
            let pattern = path.map(|p| {
                let mut out = Vec::with_capacity(p.len());
                push_normalized_pattern(dialect, p, &mut out);
                out
            });
            let statement = read_statement(preference);
            let mut prefs = UsagePrefs::default();
            for (i, category) in
                [Category::TrainAi, Category::Search].into_iter().enumerate()
            {
                prefs.set(category, statement.prefs[i], number);
            }
            usage.paths.push(UsageLine {
                line: number,
                source: UsageSource::ContentUsage,
                pattern,
                prefs,
                text: text.to_vec(),
            });
        }
        usage.index = PathIndex::new(&usage.paths, dialect);
        usage
    }

    /// The dialect the lines were selected and normalised for.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The group the lines come from (the verdict's group).
    pub fn group(&self) -> &GroupMatch {
        &self.group
    }

    /// The usage lines that apply: the Content-Signal lines, then the
    /// Content-Usage lines, each in file order.
    pub fn lines(&self) -> impl Iterator<Item = &UsageLine> {
        self.signals.iter().chain(&self.paths)
    }

    /// The usage line at robots.txt line `number`, if one applies.
    pub fn line_at(&self, number: u32) -> Option<&UsageLine> {
        self.lines().find(|l| l.line == number)
    }

    /// Heap bytes the lines hold, as allocated: what keeping them costs
    /// (an access log keeps those of each group its agents select).
    pub(crate) fn heap_bytes(&self) -> usize {
        let own = |l: &UsageLine| {
            l.text.capacity() + l.pattern.as_ref().map_or(0, Vec::capacity)
        };
        let group = match &self.group {
            GroupMatch::Agent(name) => name.capacity(),
            GroupMatch::Star | GroupMatch::None => 0,
        };
        let slots = self.paths.capacity() + self.signals.capacity();
        slots * std::mem::size_of::<UsageLine>()
            + self.lines().map(own).sum::<usize>()
            + group
    }

    /// True when no usage line applies: every preference is unknown.
    pub fn is_empty(&self) -> bool {
        self.paths.is_empty() && self.signals.is_empty()
    }

    /// The preferences for a path that may be fetched, extracted and
    /// normalised with [`Dialect::path`] in this dialect.
    ///
    /// The Content-Usage lines are indexed by path as a
    /// [`Matcher`](crate::Matcher)'s rules are, so a path costs about the
    /// same however many there are.
    pub fn prefs(&self, path: &[u8]) -> UsagePrefs {
        let mut prefs = self.index.prefs(path);
        prefs.combine(&self.signal_prefs);
        prefs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_usage_values_split_at_the_path() {
        assert_eq!(
            split_content_usage(b"train-ai=n"),
            (None, &b"train-ai=n"[..])
        );
        assert_eq!(
            split_content_usage(b"/a b\t train-ai=n"),
            (Some(&b"/a"[..]), &b"b\t train-ai=n"[..])
        );
        assert_eq!(
            split_content_usage(b"/ai-ok/\t train-ai=y"),
            (Some(&b"/ai-ok/"[..]), &b"train-ai=y"[..])
        );
        assert_eq!(split_content_usage(b"/x"), (Some(&b"/x"[..]), &b""[..]));
    }
}

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
mod index;
mod prefs;

use index::PathIndex;
pub use prefs::{Category, Preference, UsageLine, UsagePrefs, UsageSource};

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
/// use robots_batch::usage::{Category, Preference};
/// use robots_batch::{Dialect, Robots, Usage};
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

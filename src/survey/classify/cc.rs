//! Common Crawl's classes of an agent's rules: "disallow-all" only for
//! exactly one `Disallow: /`.
//!
//! Two steps of <https://github.com/commoncrawl/robotstxt-experiments>,
//! reproduced with their quirks:
//!
//! 1. `src/cc-pyspark/robotstxt_statistics.py` with `--extract_rulesets`
//!    reads each robots.txt into rules per `User-agent` value.
//! 2. `src/jupyter/metrics-top-k-sample.ipynb` classes each value's rules
//!    (`classify_robotstxt_rules`) and counts a site for an agent by its
//!    own value, else by `*`'s.

use std::collections::BTreeMap;

use super::python::{collapse_spaces, is_ascii_space, strip_bytes};
use crate::survey::{GroupKind, Scope};

/// The directives the job's pattern knows, in its order.
const DIRECTIVES: [&[u8]; 8] = [
    b"user-agent",
    b"disallow",
    b"allow",
    b"crawl-delay",
    b"sitemap",
    b"clean-param",
    b"host",
    b"noindex",
];

/// Each agent's group, class and rule count, in the order of `agents`.
pub(super) fn classes(
    body: &[u8],
    agents: &[String],
) -> Vec<(GroupKind, Scope, usize)> {
    let rulesets = rulesets(body);
    agents.iter().map(|agent| class_for(&rulesets, agent)).collect()
}

/// Rules per `User-agent` value, by value (sorted, as the job's JSON is):
/// `(allow, value)` pairs, in file order. A value that got no rule is
/// absent.
type Rulesets = BTreeMap<String, Vec<(bool, String)>>;

/// The job's rulesets of a robots.txt.
///
/// Lines end at `\n` only (the job reads lines so, and leaves `\r` as a
/// TODO). A byte-order mark is dropped from the first line, and a first
/// line that starts `<html` or `<!DOCTYPE html` (any case) means the body
/// is HTML: no rules. A line is a directive when it matches
/// `^\s*(user-agent|disallow|allow|...)\s*:\s*([^\r#]*)`, any case; its
/// value is what follows, up to a `\r` or `#`, stripped, with each run of
/// spaces made one. Rules (allow and disallow lines) go to the set of
/// agents of the `User-agent` lines before them; a `User-agent` line after
/// the file's first rule starts a new set (the job never resets that
/// flag, so in later groups only the last `User-agent` line before the
/// rules gets them).
fn rulesets(body: &[u8]) -> Rulesets {
    let mut rulesets = Rulesets::new();
    let mut active: Vec<String> = vec![];
    let mut in_block = false;
    let mut lines = body.split_inclusive(|&b| b == b'\n').peekable();
    if let Some(first) = lines.peek() {
        let first = first.strip_prefix(b"\xef\xbb\xbf").unwrap_or(first);
        if is_html(first) {
            return rulesets;
        }
    }
    for (n, line) in lines.enumerate() {
        let line = match n {
            0 => line.strip_prefix(b"\xef\xbb\xbf").unwrap_or(line),
            _ => line,
        };
        let Some((directive, value)) = directive(line) else { continue };
        match directive {
            b"user-agent" => {
                if in_block {
                    active.clear();
                }
                if !active.contains(&value) {
                    active.push(value);
                }
            }
            b"allow" | b"disallow" => {
                in_block = true;
                let allow = directive == b"allow";
                for agent in &active {
                    let rules = rulesets.entry(agent.clone()).or_default();
                    rules.push((allow, value.clone()));
                }
            }
            _ => {}
        }
    }
    rulesets
}

/// Whether a first line matches `^(?:<html|<!DOCTYPE html)\b`, any case.
fn is_html(line: &[u8]) -> bool {
    [&b"<html"[..], b"<!doctype html"].iter().any(|start| {
        line.len() >= start.len()
            && line[..start.len()].eq_ignore_ascii_case(start)
            && !line
                .get(start.len())
                .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_')
    })
}

/// The directive (one of [`DIRECTIVES`]) and value of a line, or `None`
/// for a comment, an empty line or another line.
fn directive(line: &[u8]) -> Option<(&'static [u8], String)> {
    let start = line.iter().position(|&b| !is_ascii_space(b))?;
    let rest = &line[start..];
    if rest[0] == b'#' {
        return None;
    }
    let (name, after) = DIRECTIVES.iter().find_map(|&name| {
        let head = rest.get(..name.len())?;
        if !head.eq_ignore_ascii_case(name) {
            return None;
        }
        let after = &rest[name.len()..];
        let colon = after.iter().position(|&b| !is_ascii_space(b))?;
        (after[colon] == b':').then_some((name, &after[colon + 1..]))
    })?;
    let from = after.iter().position(|&b| !is_ascii_space(b));
    let value = from.map_or(&b""[..], |from| {
        let v = &after[from..];
        let to = v.iter().position(|&b| b == b'\r' || b == b'#');
        &v[..to.unwrap_or(v.len())]
    });
    let value = String::from_utf8_lossy(strip_bytes(value));
    Some((name, collapse_spaces(&value)))
}

/// An agent's group, class and rule count: the rules of the values that are
/// its name in any case (the first, in sorted order, where the file spells
/// it several ways: the notebook counts the site once per spelling), else
/// `*`'s; with neither, the site is "allow-all" if the file has any rule,
/// and not counted (unknown) if it has none.
fn class_for(rulesets: &Rulesets, agent: &str) -> (GroupKind, Scope, usize) {
    let lower = agent.to_lowercase();
    let named = match agent {
        "*" => None,
        _ => rulesets.iter().find(|(ua, _)| ua.to_lowercase() == lower),
    };
    if let Some((_, rules)) = named {
        return (GroupKind::Named, class(rules), rules.len());
    }
    if let Some(rules) = rulesets.get("*") {
        return (GroupKind::Star, class(rules), rules.len());
    }
    match rulesets.is_empty() {
        true => (GroupKind::None, Scope::Unknown, 0),
        false => (GroupKind::None, Scope::None, 0),
    }
}

/// `classify_robotstxt_rules`: "disallow-all" (full) for exactly one
/// `Disallow: /`, "allow-all" (none) for exactly one `Allow: /`,
/// `Allow: *`, `Allow: /*`, `Allow:` or `Disallow:`, "allow-part"
/// (partial) for anything else, two rules that say the same included.
fn class(rules: &[(bool, String)]) -> Scope {
    match rules {
        [(false, v)] if v == "/" => Scope::Full,
        [(true, v)] if matches!(v.as_str(), "/" | "*" | "/*" | "") => {
            Scope::None
        }
        [(false, v)] if v.is_empty() => Scope::None,
        _ => Scope::Partial,
    }
}

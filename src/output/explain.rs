//! An explanation in words, as `check --explain` prints it.

use std::fmt;

use crate::matcher::{Explanation, Reason};

/// The explanation in words, as `check --explain` prints it: `line 3:
/// Disallow: /x; group *`, `no matching rule; group *`, `no group
/// applies` or `/robots.txt is always allowed`. Bytes that are not UTF-8
/// show as U+FFFD.
impl fmt::Display for Explanation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let group = String::from_utf8_lossy(self.group().unwrap_or_default());
        match (self.reason(), self.rule()) {
            (_, Some(rule)) => write!(
                f,
                "line {}: {}; group {group}",
                rule.line(),
                String::from_utf8_lossy(rule.text())
            ),
            // Only an index that is not the matcher's names no rule.
            (Reason::Rule(k), None) => write!(f, "rule {k}; group {group}"),
            (Reason::NoMatchingRule, None) => {
                write!(f, "no matching rule; group {group}")
            }
            (Reason::NoGroup, None) => f.write_str("no group applies"),
            (Reason::ImplicitRobotsTxt, None) => {
                f.write_str("/robots.txt is always allowed")
            }
        }
    }
}

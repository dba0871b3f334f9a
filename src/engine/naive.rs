//! The reference engine: every pattern tried on its own, in priority order.
//!
//! It is the yardstick of the differential tests, so it is written to be
//! obviously right rather than fast: a glob pattern is simulated with the
//! set of pattern positions reachable after each byte of the path, which is
//! linear in the path for a fixed pattern whatever the pattern holds.

use super::pattern::{Pattern, Syntax, NONE};
use crate::lowlevel::prefetch::Region;

#[derive(Clone, Debug)]
pub(crate) struct NaiveEngine {
    patterns: Vec<Pattern<'static>>,
}

/// Reused position sets, so a scan allocates only when a longer pattern
/// than any before comes along.
#[derive(Clone, Debug, Default)]
pub(crate) struct NaiveScratch {
    cur: Vec<bool>,
    next: Vec<bool>,
}

impl NaiveEngine {
    pub(crate) fn new(patterns: &[Pattern]) -> NaiveEngine {
        NaiveEngine {
            patterns: patterns
                .iter()
                .map(|p| p.clone().into_owned())
                .collect(),
        }
    }

    /// The memory a search reads first.
    pub(crate) fn regions(&self, each: &mut dyn FnMut(Region)) {
        each(Region::of(&self.patterns));
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.patterns.iter().map(|p| p.bytes.len()).sum::<usize>()
            + self.patterns.len() * std::mem::size_of::<Pattern>()
    }

    /// The first pattern (in priority order) that matches a prefix of `path`.
    pub(crate) fn find(&self, path: &[u8], scratch: &mut NaiveScratch) -> u32 {
        for (id, p) in self.patterns.iter().enumerate() {
            let hit = match p.syntax {
                Syntax::Literal => path.starts_with(&p.bytes),
                Syntax::Glob => glob_matches_prefix(&p.bytes, path, scratch),
            };
            if hit {
                return id as u32;
            }
        }
        NONE
    }
}

/// Whether the glob `pattern` matches a prefix of `path` (the whole of it
/// when the pattern ends in `$`).
pub(crate) fn glob_matches_prefix(
    pattern: &[u8],
    path: &[u8],
    scratch: &mut NaiveScratch,
) -> bool {
    let (body, anchored) = match pattern.split_last() {
        Some((b'$', body)) => (body, true),
        _ => (pattern, false),
    };
    let m = body.len();
    // Position j means "body[..j] has matched the bytes read so far".
    let NaiveScratch { cur, next } = scratch;
    cur.clear();
    cur.resize(m + 1, false);
    next.clear();
    next.resize(m + 1, false);
    cur[0] = true;
    close_over_stars(body, cur);
    for &byte in path {
        if !anchored && cur[m] {
            return true;
        }
        next.iter_mut().for_each(|x| *x = false);
        let mut alive = false;
        for j in 0..m {
            if !cur[j] {
                continue;
            }
            if body[j] == b'*' {
                next[j] = true;
                alive = true;
            } else if body[j] == byte {
                next[j + 1] = true;
                alive = true;
            }
        }
        if !alive {
            return false;
        }
        close_over_stars(body, next);
        std::mem::swap(cur, next);
    }
    cur[m]
}

/// A `*` may match nothing: whoever stands before it also stands after it.
fn close_over_stars(body: &[u8], set: &mut [bool]) {
    for j in 0..body.len() {
        if set[j] && body[j] == b'*' {
            set[j + 1] = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(pattern: &str, path: &str) -> bool {
        glob_matches_prefix(
            pattern.as_bytes(),
            path.as_bytes(),
            &mut NaiveScratch::default(),
        )
    }

    #[test]
    fn globs() {
        assert!(m("/", "/x"));
        assert!(m("/a*b", "/axxb/c"));
        assert!(!m("/a*b", "/axx"));
        assert!(m("*.gif$", "/x.gif.gif"));
        assert!(!m("*.gif$", "/x.gif?y"));
        assert!(m("/a$", "/a"));
        assert!(!m("/a$", "/ab"));
        assert!(m("/a$b", "/a$b"));
        assert!(m("**", "/"));
        assert!(m("/*", "/"));
        assert!(!m("$", "/"));
    }
}

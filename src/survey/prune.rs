//! Patterns that never decide a path: every path they match, an earlier
//! pattern in priority order matches too.
//!
//! `Allow: /*a*b*c$` after `Disallow: /*a*b*c*$` (longer, so tried first)
//! is such a pattern. Hundreds of them make the product of the patterns'
//! automata exponential, though each is dead on its own; removing them
//! first leaves the search only the patterns that can decide.

use std::collections::HashMap;

use super::budget::Budget;

/// A pattern as a glob over path bytes (defined here, below the proof
/// that uses it, so that the survey's modules import downward only).
#[derive(Debug)]
pub(super) struct Pat {
    /// `None` stands for `*`.
    pub(super) toks: Vec<Option<u8>>,
    pub(super) anchored: bool,
    pub(super) allow: bool,
}

/// The places of the patterns in `pats` (in priority order) that an
/// earlier pattern covers, by [`covers`], sorted; `rank` says which to try
/// (0 for none) and, higher first, in what order. Stops, with what it found
/// so far, when `budget` runs out.
pub(super) fn dead(
    pats: &[Pat],
    rank: impl Fn(&Pat) -> u8,
    budget: &mut Budget,
) -> Vec<usize> {
    let globs: Vec<Vec<Option<u8>>> = pats.iter().map(glob).collect();
    let mut order: Vec<usize> =
        (0..pats.len()).filter(|&k| rank(&pats[k]) > 0).collect();
    order.sort_by_key(|&k| std::cmp::Reverse(rank(&pats[k])));
    let mut dead = vec![false; pats.len()];
    // Most covers are the pattern itself, or a prefix of it then `*`
    // (`/*c*d*x*$` of `/*c*d*x$`): looked up first, in time linear in the
    // patterns' size.
    let mut same: HashMap<&[Option<u8>], usize> = HashMap::new();
    let mut open: HashMap<&[Option<u8>], usize> = HashMap::new();
    for (j, g) in globs.iter().enumerate() {
        same.entry(g).or_insert(j);
        if let Some((None, body)) = g.split_last() {
            open.entry(body).or_insert(j);
        }
    }
    for &k in &order {
        let g = &globs[k];
        if !budget.spend((g.len() * (g.len() + 1)) as u64 + 1) {
            return sorted(dead);
        }
        let earlier = |j: Option<&usize>| j.is_some_and(|&j| j < k);
        dead[k] = earlier(same.get(g.as_slice()))
            || (1..=g.len()).any(|cut| earlier(open.get(&g[..cut])));
    }
    let sets: Vec<[u64; 4]> = globs.iter().map(|g| byte_set(g)).collect();
    for &k in &order {
        if dead[k] {
            continue;
        }
        for j in 0..k {
            // A pattern covers another only if it names none of the bytes
            // the other does not.
            if !budget.spend(1) {
                return sorted(dead);
            }
            if sets[j].iter().zip(&sets[k]).any(|(q, p)| q & !p != 0) {
                continue;
            }
            match covers(&globs[j], &globs[k], budget) {
                Some(true) => {
                    dead[k] = true;
                    break;
                }
                Some(false) => {}
                None => return sorted(dead),
            }
        }
    }
    sorted(dead)
}

fn sorted(dead: Vec<bool>) -> Vec<usize> {
    dead.iter().enumerate().filter(|(_, &d)| d).map(|(k, _)| k).collect()
}

/// The pattern as a glob that matches whole paths: one without `$` matches
/// any path that starts with what it matches, as if it ended in `*`.
fn glob(p: &Pat) -> Vec<Option<u8>> {
    let mut g = Vec::with_capacity(p.toks.len() + 2);
    // Every path starts with `/`: a leading `*` that is not followed by one
    // takes it in, so `*a` matches what `/*a` does.
    if p.toks.first() == Some(&None)
        && p.toks.iter().find(|t| t.is_some()) != Some(&Some(b'/'))
    {
        g.push(Some(b'/'));
    }
    for &t in &p.toks {
        // `**` matches what `*` does.
        if t.is_none() && g.last() == Some(&None) {
            continue;
        }
        g.push(t);
    }
    if !p.anchored && g.last() != Some(&None) {
        g.push(None);
    }
    g
}

fn byte_set(glob: &[Option<u8>]) -> [u64; 4] {
    let mut set = [0u64; 4];
    for b in glob.iter().flatten() {
        set[usize::from(b / 64)] |= 1 << (b % 64);
    }
    set
}

/// Whether every path `p` matches, `q` matches too (both as [`glob`]s);
/// `None` when `budget` runs out first.
///
/// It is so when `q` matches `p` read as a string in which each `*` of `p`
/// is a symbol that only a `*` of `q` can take in: whatever a path puts in
/// place of `p`'s wildcards, `q`'s take it in too. That is sufficient, not
/// necessary (`/*` covers `*a`, but only because every path starts with
/// `/`), and it is decided greedily, as a glob matches a string: on a
/// mismatch the last `*` of `q` takes in one symbol more.
fn covers(
    q: &[Option<u8>],
    p: &[Option<u8>],
    budget: &mut Budget,
) -> Option<bool> {
    let (mut i, mut j) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while j < p.len() {
        if !budget.spend(1) {
            return None;
        }
        match q.get(i) {
            Some(None) => {
                star = Some((i, j));
                i += 1;
            }
            Some(Some(b)) if p[j] == Some(*b) => {
                i += 1;
                j += 1;
            }
            _ => match star {
                Some((s, t)) => {
                    star = Some((s, t + 1));
                    i = s + 1;
                    j = t + 1;
                }
                None => return Some(false),
            },
        }
    }
    Some(q[i..].iter().all(Option::is_none))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pat(s: &str) -> Pat {
        let (body, anchored) = match s.strip_suffix('$') {
            Some(body) => (body, true),
            None => (s, false),
        };
        let toks = body
            .bytes()
            .map(|b| if b == b'*' { None } else { Some(b) })
            .collect();
        Pat { toks, anchored, allow: true }
    }

    fn cov(q: &str, p: &str) -> bool {
        let mut budget = Budget::new(1 << 20);
        covers(&glob(&pat(q)), &glob(&pat(p)), &mut budget).unwrap()
    }

    #[test]
    fn coverage() {
        for (q, p) in [
            ("/*c*d*x*$", "/*c*d*x$"),
            ("/*c*d*x*", "/*c*d*x$"),
            ("/*c*d*x", "/*c*d*x"),
            ("/", "/*a"),
            ("/*", "/a$"),
            ("/a", "/ab*c"),
            ("/*a", "/x*yab$"),
            ("/*a*", "/a*a$"),
            ("/a$", "/a$"),
            ("/**a", "/*a"),
            ("/a*$", "/a"),
            ("/*a", "*a$"),
            ("/*", "*"),
            ("*a", "/*a"),
        ] {
            assert!(cov(q, p), "{q} covers {p}");
        }
        for (q, p) in [
            // Equal length: `/*c*d*x` matches `/cdx` and the rest.
            ("/*c*d*x$", "/*c*d*x"),
            ("/a$", "/a"),
            ("/ab", "/a*b"),
            ("/*a*b", "/*b*a"),
            ("/*x$", "/*x*y$"),
            ("/a", "/"),
            // `*/a` matches `/a`, which `/*/a` does not.
            ("/*/a", "*/a"),
        ] {
            assert!(!cov(q, p), "{q} does not cover {p}");
        }
    }

    #[test]
    fn dead_patterns() {
        // `/*a*b$` by `/*b$`, pair by pair; `/*c*d$` by `/*c*$`, a prefix of
        // it then `*`, looked up.
        let pats: Vec<Pat> =
            ["/*c*$", "/*b$", "/*a*b$", "/*c*d$", "/*d$", "/"].map(pat).into();
        let mut budget = Budget::new(1 << 20);
        assert_eq!(dead(&pats, |_| 1, &mut budget), [2, 3]);
        // Out of work: what was found so far.
        let mut budget = Budget::new(3);
        assert_eq!(dead(&pats, |_| 1, &mut budget), [] as [usize; 0]);
        // Only those ranked are tried.
        let mut budget = Budget::new(1 << 20);
        let rank =
            |p: &Pat| u8::from(p.toks.len() == 5 && p.toks[2] == Some(b'c'));
        assert_eq!(dead(&pats, rank, &mut budget), [3]);
    }
}

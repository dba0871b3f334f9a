//! The engine against the naive one, concept by concept.

use std::borrow::Cow;

use super::layout::NARROW;
use super::tails::Ac;
use super::walk::Met;
use super::*;
use crate::engine::pattern::{Pattern, Syntax, NONE};

/// The engine finds what the naive engine finds on every path.
fn assert_agrees_with_naive(
    engine: &TrieEngine,
    naive: &super::super::NaiveEngine,
    patterns: &[Pattern],
    paths: impl Iterator<Item = Vec<u8>>,
) {
    let (mut scratch, mut naive_cache) = Default::default();
    for path in paths {
        assert_eq!(
            engine.find(&path, &mut scratch),
            naive.find(&path, &mut naive_cache),
            "{:?} on {:?}",
            String::from_utf8_lossy(&path),
            patterns
                .iter()
                .map(|p| String::from_utf8_lossy(&p.bytes))
                .collect::<Vec<_>>(),
        );
    }
}

/// Each of `patterns` as a glob pattern.
fn globs(patterns: &[Vec<u8>]) -> Vec<Pattern<'_>> {
    patterns
        .iter()
        .map(|p| Pattern { bytes: Cow::Borrowed(p), syntax: Syntax::Glob })
        .collect()
}

fn engine(patterns: &[&str]) -> TrieEngine {
    let patterns: Vec<Pattern> = patterns
        .iter()
        .map(|p| Pattern {
            bytes: Cow::Borrowed(p.as_bytes()),
            syntax: Syntax::Glob,
        })
        .collect();
    TrieEngine::new(&patterns).unwrap()
}

/// A path that starts with the root's one-byte chain skips the root
/// only when the root holds no pattern: a tail of its own (`*b`) or
/// `$` alone is still found.
#[test]
fn the_lead_skips_only_a_bare_root() {
    let sets: [&[&str]; 4] = [
        &["/x", "/y"],
        &["*b", "/x", "/y"],
        &["*b", "*c", "*/", "/x", "/y", "/b/*c", "/b/*d", "/b/*e"],
        &["$", "/x", "/y"],
    ];
    for patterns in sets {
        let e = engine(patterns);
        assert_eq!(e.lead.is_some(), patterns.len() == 2, "{patterns:?}");
        let bytes: Vec<Vec<u8>> =
            patterns.iter().map(|p| p.as_bytes().to_vec()).collect();
        let naive = super::super::NaiveEngine::new(&globs(&bytes));
        let (mut scratch, mut naive_cache) = Default::default();
        for path in ["", "/", "/b", "/x", "/y", "/b/c", "/b/z", "b", "x/"] {
            assert_eq!(
                e.find(path.as_bytes(), &mut scratch),
                naive.find(path.as_bytes(), &mut naive_cache),
                "{path:?} on {patterns:?}"
            );
        }
    }
}

/// Nodes of every width, narrow (children in the node's word), wide
/// (a table) and full (all 256 bytes), against every byte, `\0`
/// included (the padding of a narrow node's word): the child found is
/// the naive engine's.
#[test]
fn children_of_every_width_agree_with_naive() {
    for width in (0..=NARROW + 2).chain([200, 255, 256]) {
        // Children spread over the byte values, `\0` among them only
        // in the widest, each a pattern of its own plus a deeper one,
        // so the child is a node with patterns and children.
        let mut p: Vec<Vec<u8>> = vec![];
        for k in 0..width {
            let b = ((k * 97 + 1) % 256) as u8;
            p.push(vec![b'/', b]);
            p.push(vec![b'/', b, b'z']);
        }
        p.push(b"/".to_vec());
        let patterns = globs(&p);
        let engine = TrieEngine::new(&patterns).unwrap();
        let naive = super::super::NaiveEngine::new(&patterns);
        let (mut scratch, mut naive_cache) = Default::default();
        for b in 0..=255u8 {
            for path in [vec![b'/', b], vec![b'/', b, b'z']] {
                assert_eq!(
                    engine.find(&path, &mut scratch),
                    naive.find(&path, &mut naive_cache),
                    "width {width}, path {path:?}"
                );
            }
        }
    }
}

/// Chains of up to 11 bytes: a path that leaves a chain at any byte,
/// or ends inside it, matches only what the naive engine matches.
#[test]
fn chains_of_every_length_agree_with_naive() {
    let long = b"/abcdefghijkl";
    for len in 1..long.len() {
        // `/x` makes `/` branch, so the chain below `/a` is the
        // pattern's last `len - 1` bytes.
        let p = [long[..=len].to_vec(), b"/x".to_vec()];
        let patterns = globs(&p);
        let engine = TrieEngine::new(&patterns).unwrap();
        let naive = super::super::NaiveEngine::new(&patterns);
        let (mut scratch, mut naive_cache) = Default::default();
        let mut paths = vec![];
        for cut in 0..=long.len() {
            paths.push(long[..cut].to_vec());
            for at in 1..cut {
                let mut wrong = long[..cut].to_vec();
                wrong[at] ^= 0x20;
                paths.push(wrong);
            }
        }
        for path in &paths {
            assert_eq!(
                engine.find(path, &mut scratch),
                naive.find(path, &mut naive_cache),
                "{:?} against {:?}",
                String::from_utf8_lossy(path),
                String::from_utf8_lossy(&p[0]),
            );
        }
    }
}

/// Nodes close below one another, each with enough tails for an
/// automaton, whose first literals often start inside the prefixes
/// (`b/`, `/x`): the automata that hold the tails of the nodes above
/// must find what separate searches find, no more.
#[test]
fn hoisted_tails_agree_with_naive() {
    let mut rng = crate::testing::xorshift(0x2545_F491_4F6C_DD1Du64);
    let mut next = move |n: usize| (rng() % n as u64) as usize;
    let prefixes = ["", "/", "/b", "/b/", "/b/x", "/b/xb/", "/bb"];
    let alphabet = b"/bx$*";
    let mut hoisted = 0;
    for _ in 0..3_000 {
        let mut patterns = vec![];
        for _ in 0..1 + next(14) {
            let mut p = prefixes[next(prefixes.len())].as_bytes().to_vec();
            p.push(b'*');
            for _ in 0..1 + next(5) {
                p.push(alphabet[next(alphabet.len())]);
            }
            patterns.push(p);
        }
        let patterns = globs(&patterns);
        let engine = TrieEngine::new(&patterns).unwrap();
        hoisted += engine.tails.iter().filter(|t| t.covers > 0).count();
        let naive = super::super::NaiveEngine::new(&patterns);
        let paths = (0..40).map(|_| -> Vec<u8> {
            (0..next(12)).map(|_| alphabet[next(4)]).collect()
        });
        assert_agrees_with_naive(&engine, &naive, &patterns, paths);
    }
    // The test means something only if automata hold upper tails.
    assert!(hoisted > 1_000, "{hoisted}");
}

/// Tails that share their first literals, nested groups deep, with
/// `$` ends and literal `$`s, repeated and spelt with extra stars,
/// under nodes whose automata also hold upper tails: the groups find
/// what the naive engine finds.
#[test]
fn groups_of_tails_agree_with_naive() {
    let mut rng = crate::testing::xorshift(0x5851_F42D_4C95_7F2Du64);
    let mut next = move |n: usize| (rng() % n as u64) as usize;
    let prefixes = ["", "/", "/b", "/b/"];
    let words = ["a", "b", "ab", "ba", "a$", "/"];
    let (mut groups, mut nested) = (0, 0);
    for _ in 0..600 {
        let mut patterns = vec![];
        for _ in 0..3 + next(40) {
            let mut p = prefixes[next(prefixes.len())].as_bytes().to_vec();
            for _ in 0..1 + next(4) {
                p.extend_from_slice(if next(8) == 0 { b"**" } else { b"*" });
                p.extend_from_slice(words[next(words.len())].as_bytes());
            }
            match next(4) {
                0 => p.push(b'$'),
                1 => p.push(b'*'),
                _ => {}
            }
            patterns.push(p);
        }
        let patterns = globs(&patterns);
        let engine = TrieEngine::new(&patterns).unwrap();
        let subs = engine
            .tails
            .iter()
            .flat_map(|t| &t.entries)
            .filter(|e| e.sub != NONE)
            .count();
        groups += subs;
        nested += usize::from(subs > 1);
        let naive = super::super::NaiveEngine::new(&patterns);
        let paths = (0..60).map(|_| -> Vec<u8> {
            (0..next(14)).map(|_| b"ab/$"[next(4)]).collect()
        });
        assert_agrees_with_naive(&engine, &naive, &patterns, paths);
    }
    // The test means something only if there are groups, and groups
    // within groups.
    assert!(groups > 1_000 && nested > 100, "{groups} {nested}");
}

/// Repeated tails are kept once, and tails that share their first
/// literal are one pattern of their node's automaton: ten thousand
/// rules `*a`, or `/a*b*c<i>`, build small automata.
#[test]
fn repeated_and_shared_first_literals_build_one_pattern() {
    let same: Vec<Vec<u8>> = vec![b"*a".to_vec(); 10_000];
    let e = TrieEngine::new(&globs(&same)).unwrap();
    assert_eq!(e.tails.len(), 1);
    assert_eq!(e.tails[0].entries.len(), 1);
    let mut scratch = TrieScratch::default();
    assert_eq!(e.find(b"/xa", &mut scratch), 0);
    let distinct: Vec<Vec<u8>> =
        (0..10_000).map(|i| format!("/a*b*c{i}").into_bytes()).collect();
    let e = TrieEngine::new(&globs(&distinct)).unwrap();
    // The node's automaton holds `b` once; the group's, every `c<i>`.
    assert_eq!(e.tails.len(), 2);
    assert_eq!(e.tails[0].entries.len(), 1);
    assert_eq!(e.tails[1].entries.len(), 10_000);
    // `c9` comes first, and is in `c9999`.
    assert_eq!(e.find(b"/a/b/c9999", &mut scratch), 9);
    assert_eq!(e.find(b"/a/b/c0", &mut scratch), 0);
    assert_eq!(e.find(b"/a/c1/b", &mut scratch), NONE);
}

/// A path that meets more nodes with tails than [`Met`] holds is
/// searched from the scratch's list of them, and finds what the naive
/// engine finds, with nodes whose automata hold upper tails among
/// them.
#[test]
fn paths_meeting_many_tails_agree_with_naive() {
    // Tails at every depth of `/aaa…`: one at most depths, three (an
    // automaton, which takes the upper ones) at every fifth.
    let mut p: Vec<Vec<u8>> = vec![];
    for depth in 1..=24 {
        let prefix = [b"/".as_slice(), &vec![b'a'; depth]].concat();
        let ends: &[&[u8]] =
            if depth % 5 == 0 { &[b"x", b"y$", b"a*z"] } else { &[b"q"] };
        for end in ends {
            p.push([&prefix[..], b"*", end].concat());
        }
    }
    // Longest first, as priority tags order them: the deepest tail
    // that matches is the answer.
    p.reverse();
    let patterns = globs(&p);
    let engine = TrieEngine::new(&patterns).unwrap();
    assert!(engine.tails.iter().any(|t| t.covers > 0));
    let naive = super::super::NaiveEngine::new(&patterns);
    let (mut scratch, mut naive_cache) = Default::default();
    let mut many = 0;
    for len in 0..30 {
        for end in [&b""[..], b"x", b"y", b"q", b"az", b"ya"] {
            let path = [&b"/"[..], &vec![b'a'; len], end].concat();
            assert_eq!(
                engine.find(&path, &mut scratch),
                naive.find(&path, &mut naive_cache),
                "{:?}",
                String::from_utf8_lossy(&path)
            );
            if len > Met::FEW {
                many += usize::from(scratch.pending.len() > Met::FEW);
            }
        }
    }
    // The long paths took the scratch's list.
    assert!(many > 0);
}

/// First literals past [`AC_DFA_BYTES`] take the sparse automaton, and
/// so do too many states over a wide alphabet for 16 bits: each kind
/// of automaton finds what the naive engine finds, with multi-literal
/// and `$` tails among the rest.
#[test]
fn every_kind_of_automaton_agrees_with_naive() {
    const ALPHABET: &[u8] =
        b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~";
    let word = |i: usize, len: usize| -> Vec<u8> {
        let mut x = (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                ALPHABET[(x % ALPHABET.len() as u64) as usize]
            })
            .collect()
    };
    for (count, len, kind) in
        [(400, 50, "sparse"), (1200, 13, "sparse"), (40, 6, "dfa16")]
    {
        let patterns: Vec<Vec<u8>> = (0..count)
            .map(|i| {
                let mut p = b"/p*".to_vec();
                p.extend(word(i, len));
                match i % 3 {
                    0 => {}
                    1 => {
                        p.push(b'*');
                        p.extend(word(i + 1, 2));
                    }
                    _ => p.push(b'$'),
                }
                p
            })
            .collect();
        let patterns = globs(&patterns);
        let engine = TrieEngine::new(&patterns).unwrap();
        let got = match engine.tails[0].ac {
            Some(Ac::Sparse(_)) => "sparse",
            Some(Ac::Dfa16(_)) => "dfa16",
            None => "direct",
        };
        assert_eq!(got, kind);
        let naive = super::super::NaiveEngine::new(&patterns);
        let (mut scratch, mut naive_cache) = Default::default();
        let mut matched = 0;
        for p in patterns.iter().step_by(5) {
            // The pattern's bytes as a path, cut short, and followed
            // by more.
            let full: Vec<u8> = p
                .bytes
                .iter()
                .copied()
                .filter(|&b| b != b'*' && b != b'$')
                .collect();
            let short = full[..full.len() - 1].to_vec();
            let long = [&full[..], b"zz"].concat();
            for path in [full, short, long] {
                let want = naive.find(&path, &mut naive_cache);
                matched += usize::from(want != NONE);
                assert_eq!(
                    engine.find(&path, &mut scratch),
                    want,
                    "{kind}: {:?}",
                    String::from_utf8_lossy(&path)
                );
            }
        }
        assert!(matched > count / 5, "{kind}: {matched}");
    }
}

/// Multi-literal tails are checked once per path by stamps; when the
/// path count wraps, every stamp is cleared, so no tail is taken for
/// checked by a stamp from four billion paths ago.
#[test]
fn stamps_survive_the_path_count_wrapping() {
    // Enough tails under `/` for an automaton, two with two literals
    // (and different first ones: tails that share it are a group,
    // with one stamp).
    let mut p: Vec<String> = (0..12).map(|i| format!("/*q{i}")).collect();
    p.push("/*a*b".into());
    p.push("/*x*c".into());
    let p: Vec<&str> = p.iter().map(String::as_str).collect();
    let e = engine(&p);
    let mut scratch = TrieScratch::default();
    // Both two-literal tails checked: a stamp each.
    assert_eq!(e.find(b"/xaxc", &mut scratch), 13);
    assert_eq!(scratch.stamps.len(), 2);
    for path in [&b"/xaxb"[..], b"/xaxc", b"/xa", b"/q3"] {
        let want = e.find(path, &mut scratch);
        for start in [u32::MAX - 2, u32::MAX - 1, u32::MAX] {
            let mut c = scratch.clone();
            c.generation = start;
            // Stamps that a stale path count would read as "checked".
            c.stamps.iter_mut().for_each(|s| *s = 1);
            for _ in 0..4 {
                assert_eq!(e.find(path, &mut c), want, "{path:?} {start}");
            }
        }
    }
    assert_eq!(e.find(b"/xaxb", &mut scratch), 12);
    assert_eq!(e.find(b"/xaxc", &mut scratch), 13);
}

/// A chain longer than a node can note goes on from a node of its own,
/// and is still crossed whole.
#[test]
fn chains_past_u16_go_on_from_a_node() {
    let long: Vec<u8> =
        (0..140_000u32).map(|i| b"abcdefgh"[i as usize % 8]).collect();
    let mut pattern = b"/".to_vec();
    pattern.extend_from_slice(&long);
    let e = engine(&[std::str::from_utf8(&pattern).unwrap(), "/x"]);
    // The root, `/` (where the rules branch), `/a` and `/x`, the two
    // nodes where the chain goes on, and its end.
    assert_eq!(e.nodes.len(), 7);
    let mut scratch = TrieScratch::default();
    assert_eq!(e.find(&pattern, &mut scratch), 0);
    let mut longer = pattern.clone();
    longer.push(b'z');
    assert_eq!(e.find(&longer, &mut scratch), 0);
    assert_eq!(e.find(&pattern[..pattern.len() - 1], &mut scratch), NONE);
    for at in [1, 65_535, 65_536, 65_537, 131_071, 131_072, 139_999] {
        let mut wrong = pattern.clone();
        wrong[at] = b'z';
        assert_eq!(e.find(&wrong, &mut scratch), NONE, "{at}");
    }
}

#[test]
fn chains_keep_no_nodes_of_their_own() {
    let long = format!("/{}", "a".repeat(5000));
    let other = format!("/b{}", "c".repeat(3000));
    let e = engine(&[&long, &other, "/b"]);
    // The root, `/` (where the rules branch), `/a` and `/b` (its
    // children), and the ends of the two chains: the 8,000 bytes of
    // the chains are bytes to compare, not nodes.
    assert_eq!(e.nodes.len(), 6);
    assert!(e.memory_usage() < 8_000 + 1_000, "{}", e.memory_usage());
    let mut scratch = TrieScratch::default();
    assert_eq!(e.find(long.as_bytes(), &mut scratch), 0);
    assert_eq!(e.find(format!("{long}x").as_bytes(), &mut scratch), 0);
    assert_eq!(e.find(&long.as_bytes()[..4000], &mut scratch), NONE);
    assert_eq!(e.find(other.as_bytes(), &mut scratch), 1);
    assert_eq!(e.find(b"/bcc", &mut scratch), 2);
    assert_eq!(e.find(b"/x", &mut scratch), NONE);
}

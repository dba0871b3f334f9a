//! Patterns to one Thompson NFA, the input of both DFA engines.
//!
//! The patterns are turned into regex syntax trees directly, never into
//! regex strings, so no byte of a robots.txt is ever read as regex syntax.

use regex_automata::nfa::thompson::{self, WhichCaptures, NFA};
use regex_syntax::hir::{Class, ClassBytes, ClassBytesRange, Hir, Look};

use super::limits::Limits;
use super::pattern::Pattern;

/// `*`: any run of bytes, including `/` and none at all.
fn any_bytes() -> Hir {
    let any =
        Hir::class(Class::Bytes(ClassBytes::new([ClassBytesRange::new(
            0, 255,
        )])));
    Hir::repetition(regex_syntax::hir::Repetition {
        min: 0,
        max: None,
        greedy: true,
        sub: Box::new(any),
    })
}

/// The syntax tree of one pattern: its pieces joined by `.*`, then the end
/// anchor if it has one. The DFA is anchored at the start of the path and
/// reports every match end, so a prefix match needs no trailing `.*`.
pub(crate) fn hir(pattern: &Pattern) -> Hir {
    let (pieces, anchored) = pattern.pieces();
    let mut parts = Vec::with_capacity(pieces.len() * 2 + 1);
    for (i, piece) in pieces.iter().enumerate() {
        if i > 0 {
            parts.push(any_bytes());
        }
        if !piece.is_empty() {
            parts.push(Hir::literal(*piece));
        }
    }
    if anchored {
        parts.push(Hir::look(Look::End));
    }
    Hir::concat(parts)
}

pub(crate) fn build(
    patterns: &[Pattern],
    limits: &Limits,
) -> Result<NFA, String> {
    let hirs: Vec<Hir> = patterns.iter().map(hir).collect();
    thompson::Compiler::new()
        .configure(
            thompson::Config::new()
                .nfa_size_limit(Some(limits.nfa_bytes))
                .which_captures(WhichCaptures::None)
                .shrink(false),
        )
        .build_many_from_hir(&hirs)
        .map_err(|e| e.to_string())
}

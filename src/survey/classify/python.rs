//! Python's string functions, as the studies' code calls them on a
//! robots.txt: what counts as a space, `strip`, `splitlines`, and `\s+`.

/// Whether Python's `str.isspace` holds for `c` (and so `\s` in a `str`
/// regex): Rust's whitespace and the separators U+001C to U+001F.
pub(super) fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// `s.strip()`.
pub(super) fn strip(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// Whether `b` is a space to `bytes.strip()`, and to `\s` in a `bytes`
/// regex with `re.ASCII`.
pub(super) fn is_ascii_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// `b.strip()` of bytes.
pub(super) fn strip_bytes(b: &[u8]) -> &[u8] {
    let start = b.iter().position(|&c| !is_ascii_space(c)).unwrap_or(b.len());
    let end =
        b.iter().rposition(|&c| !is_ascii_space(c)).map_or(start, |e| e + 1);
    &b[start..end]
}

/// `re.sub(r'\s+', ' ', s)`.
pub(super) fn collapse_spaces(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_space = false;
    for c in s.chars() {
        if is_space(c) {
            if !in_space {
                out.push(' ');
            }
            in_space = true;
        } else {
            out.push(c);
            in_space = false;
        }
    }
    out
}

/// `s.splitlines()`: lines end at `\n`, `\r`, `\r\n`, `\v`, `\f`, U+001C
/// to U+001E, U+0085, U+2028 and U+2029, and a last line without an end
/// counts when it is not empty.
pub(super) fn splitlines(s: &str) -> impl Iterator<Item = &str> {
    let mut rest = s;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let ends = |c: char| {
            matches!(
                c,
                '\n' | '\r' | '\u{b}' | '\u{c}' | '\u{1c}'
                    ..='\u{1e}' | '\u{85}' | '\u{2028}' | '\u{2029}'
            )
        };
        let Some((at, c)) = rest.char_indices().find(|&(_, c)| ends(c)) else {
            let line = rest;
            rest = "";
            return Some(line);
        };
        let line = &rest[..at];
        let mut next = at + c.len_utf8();
        if c == '\r' && rest[next..].starts_with('\n') {
            next += 1;
        }
        rest = &rest[next..];
        Some(line)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitlines_as_python() {
        // "a\r\nb\rc\n\nd\x1ce\u2028f".splitlines() in Python.
        let got: Vec<&str> =
            splitlines("a\r\nb\rc\n\nd\u{1c}e\u{2028}f\n").collect();
        assert_eq!(got, ["a", "b", "c", "", "d", "e", "f"]);
        assert_eq!(splitlines("").count(), 0);
        assert_eq!(splitlines("x").collect::<Vec<_>>(), ["x"]);
    }

    #[test]
    fn strip_and_collapse_as_python() {
        assert_eq!(strip("\u{1f} a b\u{a0}\t"), "a b");
        assert_eq!(strip_bytes(b" \x0b/x\r\n"), b"/x");
        assert_eq!(strip_bytes(b" \r\n"), b"");
        assert_eq!(collapse_spaces("a \t b\u{3000}c"), "a b c");
    }
}

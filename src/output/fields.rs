//! Fields as each format writes them: separators, CSV and TSV quoting,
//! JSON strings and numbers.

use super::format::Format;

pub(super) fn separator(format: Format) -> u8 {
    if format == Format::Tsv {
        b'\t'
    } else {
        b','
    }
}

/// Appends `field`, whose bytes are plain (from 0x20 to 0x7E, none of
/// `,`, `"` and `\`, as a [`PlainLine`](crate::PlainLine)'s are), to
/// `out` as `format` writes a field or a JSON string: no format quotes or
/// escapes such bytes, so they are copied without a look.
pub(super) fn push_plain_field(
    format: Format,
    out: &mut Vec<u8>,
    field: &[u8],
) {
    debug_assert!(field
        .iter()
        .all(|&b| (0x20..0x7F).contains(&b) && !b",\"\\".contains(&b)));
    match format {
        Format::Csv | Format::Tsv => out.extend_from_slice(field),
        Format::Jsonl => {
            out.reserve(field.len() + 2);
            out.push(b'"');
            out.extend_from_slice(field);
            out.push(b'"');
        }
    }
}

/// Appends `field` to `out` as `format` writes a field (CSV and TSV only).
pub(super) fn push_field(format: Format, out: &mut Vec<u8>, field: &[u8]) {
    match format {
        // A csv-core writer builds a table when it is made, so it is made
        // only for the rare field that needs quotes (the same bytes
        // csv-core's default writer quotes for).
        Format::Csv => {
            if !may_need_quotes(field) {
                out.extend_from_slice(field);
            } else {
                push_csv_field(&mut csv_core::Writer::new(), out, field)
            }
        }
        Format::Tsv => push_tsv_field(out, field),
        Format::Jsonl => push_json_string(out, field),
    }
}

/// Appends `field`, quoted when csv-core says it needs quotes (it holds a
/// comma, a quote, a CR or an LF).
#[inline]
pub(crate) fn push_csv_field(
    quoter: &mut csv_core::Writer,
    buf: &mut Vec<u8>,
    field: &[u8],
) {
    // Almost every URL needs no quotes: copying it is cheaper than the csv
    // writer's byte-at-a-time state machine, and looking for the bytes that
    // need quotes eight at a time cheaper than its byte-at-a-time check.
    if !may_need_quotes(field) || !quoter.should_quote(field) {
        buf.extend_from_slice(field);
        return;
    }
    // Room for the worst case: every byte a doubled quote, the two
    // enclosing quotes and the delimiter that closes the field.
    let start = buf.len();
    buf.resize(start + 2 * field.len() + 3, 0);
    let room = &mut buf[start..];
    let (_, nin, n) = quoter.field(field, room);
    let (_, m) = quoter.delimiter(&mut room[n..]);
    debug_assert_eq!(nin, field.len());
    debug_assert_eq!(room[n + m - 1], b',');
    // The caller writes the delimiter, as for a plain field.
    buf.truncate(start + n + m - 1);
}

/// Whether `field` holds a byte that makes csv-core quote a field with the
/// default settings: a comma, a quote, a CR or an LF.
#[inline]
fn may_need_quotes(field: &[u8]) -> bool {
    use crate::lowlevel::swar::{equal, word};

    let mut words = field.chunks_exact(8);
    for w in &mut words {
        let w = word(w);
        if equal(w, b',') | equal(w, b'"') | equal(w, b'\r') | equal(w, b'\n')
            != 0
        {
            return true;
        }
    }
    words.remainder().iter().any(|&b| matches!(b, b',' | b'"' | b'\r' | b'\n'))
}

/// Appends `field` with its tabs, CRs, LFs and backslashes escaped.
#[inline]
pub(crate) fn push_tsv_field(buf: &mut Vec<u8>, field: &[u8]) {
    if memchr::memchr3(b'\t', b'\r', b'\\', field).is_none()
        && memchr::memchr(b'\n', field).is_none()
    {
        buf.extend_from_slice(field);
        return;
    }
    for &b in field {
        match b {
            b'\t' => buf.extend_from_slice(b"\\t"),
            b'\r' => buf.extend_from_slice(b"\\r"),
            b'\n' => buf.extend_from_slice(b"\\n"),
            b'\\' => buf.extend_from_slice(b"\\\\"),
            _ => buf.push(b),
        }
    }
}

/// Appends `bytes` as a JSON string; bytes that are not UTF-8 become
/// U+FFFD.
pub(crate) fn push_json_string(buf: &mut Vec<u8>, bytes: &[u8]) {
    // Most strings (field names, verdicts, preferences, most URLs) are
    // printable ASCII with nothing to escape: one check, one copy, rather
    // than the byte-by-byte walk below.
    // A fold without early exit, which the compiler vectorises.
    let plain = bytes.iter().fold(true, |ok, &b| {
        ok & (0x20..0x7F).contains(&b) & (b != b'"') & (b != b'\\')
    });
    if plain {
        buf.reserve(bytes.len() + 2);
        buf.push(b'"');
        buf.extend_from_slice(bytes);
        buf.push(b'"');
        return;
    }
    buf.push(b'"');
    for chunk in bytes.utf8_chunks() {
        let valid = chunk.valid().as_bytes();
        let mut start = 0;
        for (i, &b) in valid.iter().enumerate() {
            let escape: &[u8] = match b {
                b'"' => b"\\\"",
                b'\\' => b"\\\\",
                b'\n' => b"\\n",
                b'\r' => b"\\r",
                b'\t' => b"\\t",
                0..=0x1F | 0x7F => b"",
                _ => continue,
            };
            buf.extend_from_slice(&valid[start..i]);
            if escape.is_empty() {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                buf.extend_from_slice(b"\\u00");
                buf.push(HEX[usize::from(b >> 4)]);
                buf.push(HEX[usize::from(b & 15)]);
            } else {
                buf.extend_from_slice(escape);
            }
            start = i + 1;
        }
        buf.extend_from_slice(&valid[start..]);
        if !chunk.invalid().is_empty() {
            buf.extend_from_slice("\u{FFFD}".as_bytes());
        }
    }
    buf.push(b'"');
}

/// Appends `n` in decimal.
pub(super) fn push_number(out: &mut Vec<u8>, mut n: u32) {
    let mut digits = [0u8; 10];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time check finds what csv-core would quote for, at
    /// every position of words and remainders, for every byte.
    #[test]
    fn quote_check_agrees_with_csv_core() {
        let quoter = csv_core::Writer::new();
        let mut checked = 0;
        for b in 0..=255u8 {
            for len in [1, 7, 8, 9, 16, 23] {
                for at in 0..len {
                    let mut field = vec![b'a'; len];
                    field[at] = b;
                    assert_eq!(
                        may_need_quotes(&field),
                        quoter.should_quote(&field),
                        "byte {b} at {at} of {len}"
                    );
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 256 * (1 + 7 + 8 + 9 + 16 + 23));
        assert!(!may_need_quotes(b""));
    }

    /// A plain field is written as each format writes it after a look.
    #[test]
    fn plain_fields_are_written_as_looked_at() {
        for field in [&b""[..], b"https://a.com/p?q=1&r=~x", b" !#$%'()*+-./"]
        {
            for format in [Format::Csv, Format::Tsv, Format::Jsonl] {
                let mut want = vec![];
                match format {
                    Format::Jsonl => push_json_string(&mut want, field),
                    _ => push_field(format, &mut want, field),
                }
                let mut got = b"x".to_vec();
                push_plain_field(format, &mut got, field);
                assert_eq!(got[1..], want, "{format:?}");
            }
        }
    }

    /// Every JSON string written, by the plain copy or by the escaping
    /// walk, reads back (with serde_json) as the bytes given, those that
    /// are not UTF-8 as U+FFFD.
    #[test]
    fn json_strings_read_back() {
        let alphabet = [
            b'a', b' ', b'~', b'"', b'\\', b'\n', 0x1F, 0x7F, 0xC3, 0xA9, 0xFF,
        ];
        let mut plain = 0;
        for len in 0..=4u32 {
            for n in 0..alphabet.len().pow(len) {
                let bytes: Vec<u8> = (0..len)
                    .map(|k| {
                        alphabet[n / alphabet.len().pow(k) % alphabet.len()]
                    })
                    .collect();
                let mut out = vec![];
                push_json_string(&mut out, &bytes);
                let back: String = serde_json::from_slice(&out).unwrap();
                assert_eq!(back, String::from_utf8_lossy(&bytes), "{bytes:?}");
                if out.len() == bytes.len() + 2
                    && bytes.iter().all(u8::is_ascii)
                {
                    plain += 1;
                }
            }
        }
        assert!(plain > 100, "{plain}");
        let mut out = vec![];
        push_json_string(&mut out, b"a\x7f\x01\"");
        assert_eq!(out, b"\"a\\u007f\\u0001\\\"\"");
    }
}

//! Reading a robots.txt file: bytes in, lines out.
//!
//! This module knows bytes and lines and nothing of URLs or dialects. It
//! follows section 1 of the contract (`SEMANTICS.md`), which is the line
//! reader of Google's reference library: every byte sequence parses, the
//! unparseable lines are kept (and reported) rather than rejected.

use crate::lowlevel::swar::LineMarks;
use std::io::{self, Read};
use std::ops::Range;

/// The longest part of a line that counts, in bytes. The rest of the line
/// is ignored (the line still ends where it ends). This is the line buffer
/// of Google's reference library (`2083 * 8 - 1`).
pub const MAX_LINE_LEN: usize = 16_663;

/// The default parse limit: 500 KiB, the minimum RFC 9309 (section 2.5)
/// asks crawlers to parse.
pub const DEFAULT_MAX_ROBOTS_BYTES: usize = 512_000;

/// What a line of robots.txt is.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum LineKind {
    /// A `user-agent` line (or one of its accepted spellings).
    UserAgent,
    /// An `allow` line.
    Allow,
    /// A `disallow` line (or one of its accepted typos).
    Disallow,
    /// A `sitemap` line.
    Sitemap,
    /// A `content-usage` line: AI usage preferences for a path (the IETF
    /// AIPREF attachment draft), whose value runs past a NUL. The
    /// `rfc9309` dialect reads it as a rule of its group, so that a
    /// user-agent line after it starts a new group; it never decides a
    /// verdict. See [`Usage`](crate::Usage).
    ContentUsage,
    /// A `content-signal` line: AI usage preferences for the whole site
    /// (Cloudflare's Content Signals Policy). It never changes groups or
    /// verdicts; see [`Usage`](crate::Usage).
    ContentSignal,
    /// Any other `key: value` record (crawl-delay, host, clean-param...).
    /// It never changes groups or verdicts.
    Other,
    /// A line that is empty after trimming and had no comment.
    Empty,
    /// A line that holds only a comment.
    Comment,
    /// A line that has content but no usable `key: value` shape.
    Unparseable,
}

impl LineKind {
    /// True for `allow` and `disallow` lines.
    pub fn is_rule(self) -> bool {
        matches!(self, LineKind::Allow | LineKind::Disallow)
    }

    /// True for `content-usage` and `content-signal` lines.
    pub fn is_usage(self) -> bool {
        matches!(self, LineKind::ContentUsage | LineKind::ContentSignal)
    }
}

/// One line of a robots.txt file.
#[derive(Clone, Debug)]
pub struct Line {
    number: u32,
    kind: LineKind,
    text: Range<usize>,
    key: Range<usize>,
    value: Range<usize>,
}

impl Line {
    /// The line's number, counting from 1.
    pub fn number(&self) -> u32 {
        self.number
    }

    /// What the line is.
    pub fn kind(&self) -> LineKind {
        self.kind
    }
}

/// Something in a robots.txt that robots-batch accepted but that a reader
/// of the file may want to know about.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Warning {
    /// The line the warning is about (0 for the whole file).
    pub line: u32,
    /// What happened.
    pub kind: WarningKind,
}

/// The kinds of [`Warning`].
#[derive(Clone, Debug, Eq, PartialEq)]
#[non_exhaustive]
pub enum WarningKind {
    /// A key was recognised by one of the accepted misspellings or by
    /// prefix (`dissallow`, `useragent`, `Disallowing`).
    TypoAccepted {
        /// The key as written.
        key: Vec<u8>,
        /// The key it was read as.
        read_as: &'static str,
    },
    /// The line has no colon; the white space between its two words was
    /// taken as one.
    MissingColon,
    /// The line is longer than [`MAX_LINE_LEN`] bytes; the rest was ignored.
    LineTooLong {
        /// The line's full length in bytes.
        len: usize,
    },
    /// An allow or disallow line before any user-agent line: it belongs to
    /// no group and is ignored.
    RuleOutsideGroup,
    /// The file is longer than the parse limit; the rest was not parsed.
    OverParseLimit {
        /// The file's length in bytes.
        len: usize,
        /// The limit in bytes.
        limit: usize,
    },
    /// A line with content that is neither a comment nor a `key: value`.
    Unparseable,
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: ", self.line)?;
        }
        match self.kind {
            WarningKind::TypoAccepted { ref key, read_as } => write!(
                f,
                "key {:?} read as {:?}",
                String::from_utf8_lossy(key),
                read_as
            ),
            WarningKind::MissingColon => {
                write!(f, "no colon after the key; white space taken as one")
            }
            WarningKind::LineTooLong { len } => write!(
                f,
                "line of {} bytes; only the first {} count",
                len, MAX_LINE_LEN
            ),
            WarningKind::RuleOutsideGroup => {
                write!(f, "rule before any user-agent line is ignored")
            }
            WarningKind::OverParseLimit { len, limit } => write!(
                f,
                "file of {} bytes is over the parse limit; only the first {} \
                 bytes were parsed",
                len, limit
            ),
            WarningKind::Unparseable => {
                write!(f, "line is not a `key: value` record; ignored")
            }
        }
    }
}

/// A parsed robots.txt: its bytes, its lines and the warnings it gave.
///
/// Parsing never fails. Group selection for an agent happens later, per
/// dialect (see [`RuleSet`](crate::RuleSet)).
#[derive(Clone, Debug)]
pub struct Robots {
    bytes: Vec<u8>,
    lines: Vec<Line>,
    warnings: Vec<Warning>,
}

impl Robots {
    /// Parses the whole of `bytes` (no parse limit).
    pub fn parse(bytes: &[u8]) -> Robots {
        Robots::parse_with_limit(bytes, 0)
    }

    /// Parses the first `limit` bytes of `bytes` (0 means no limit). Going
    /// over the limit adds a [`WarningKind::OverParseLimit`] warning; the
    /// file is cut at exactly `limit` bytes, as a fetcher that stops reading
    /// there would.
    pub fn parse_with_limit(bytes: &[u8], limit: usize) -> Robots {
        let kept =
            if limit > 0 { bytes.len().min(limit) } else { bytes.len() };
        Robots::parse_cut(bytes[..kept].to_vec(), bytes.len(), limit)
    }

    /// Parses `bytes` as [`Robots::parse_with_limit`] does, keeping the
    /// vector rather than a copy of it (a body read for the parse alone
    /// is then not copied again).
    pub fn parse_vec_with_limit(mut bytes: Vec<u8>, limit: usize) -> Robots {
        let len = bytes.len();
        if limit > 0 && len > limit {
            bytes.truncate(limit);
            bytes.shrink_to_fit();
        }
        Robots::parse_cut(bytes, len, limit)
    }

    /// Parses `body`, the first bytes of a file of `len` bytes cut at
    /// `limit` (0: not cut).
    fn parse_cut(body: Vec<u8>, len: usize, limit: usize) -> Robots {
        let mut warnings = vec![];
        if limit > 0 && len > limit {
            warnings.push(Warning {
                line: 0,
                kind: WarningKind::OverParseLimit { len, limit },
            });
        }
        let mut robots = Robots { bytes: body, lines: vec![], warnings };
        robots.read_lines();
        robots
    }

    /// Reads and parses the first `limit` bytes of `rdr` (0 means no
    /// limit), holding no more than that: the rest is read past, only to
    /// be counted for the [`WarningKind::OverParseLimit`] warning. For a
    /// stream that may inflate without bound, as a decompressed one.
    ///
    /// ```
    /// use robots_batch::robots::WarningKind;
    /// use robots_batch::Robots;
    ///
    /// let body = format!("User-agent: *\nDisallow: /a\n{}", "#".repeat(100));
    /// let robots = Robots::read_with_limit(body.as_bytes(), 26).unwrap();
    /// assert_eq!(robots.bytes(), b"User-agent: *\nDisallow: /a");
    /// assert!(matches!(
    ///     robots.warnings()[0].kind,
    ///     WarningKind::OverParseLimit { len: 127, limit: 26 }
    /// ));
    /// ```
    pub fn read_with_limit<R: Read>(
        mut rdr: R,
        limit: usize,
    ) -> io::Result<Robots> {
        let mut bytes = vec![];
        if limit == 0 {
            rdr.read_to_end(&mut bytes)?;
            return Ok(Robots::parse_vec_with_limit(bytes, 0));
        }
        rdr.by_ref().take(limit as u64).read_to_end(&mut bytes)?;
        let rest = io::copy(&mut rdr, &mut io::sink())?;
        let kept = bytes.len();
        let mut robots = Robots::parse_vec_with_limit(bytes, limit);
        if rest > 0 {
            let len = usize::try_from(rest)
                .map_or(usize::MAX, |rest| rest.saturating_add(kept));
            let kind = WarningKind::OverParseLimit { len, limit };
            robots.warnings.insert(0, Warning { line: 0, kind });
        }
        Ok(robots)
    }

    /// The bytes that were parsed (the file, cut at the parse limit).
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Every line of the file, in order.
    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    /// Warnings about the file, in line order (the parse limit first).
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// The line as written, without its line end.
    pub fn text(&self, line: &Line) -> &[u8] {
        &self.bytes[line.text.clone()]
    }

    /// The line's key, trimmed (empty for empty, comment and unparseable
    /// lines).
    pub fn key(&self, line: &Line) -> &[u8] {
        &self.bytes[line.key.clone()]
    }

    /// The line's value, trimmed, without its comment.
    pub fn value(&self, line: &Line) -> &[u8] {
        &self.bytes[line.value.clone()]
    }

    /// Where the line's value is in its text ([`Robots::text`]).
    pub(crate) fn value_in_text(&self, line: &Line) -> Range<usize> {
        let start = line.value.start - line.text.start;
        start..start + line.value.len()
    }

    /// The values of every sitemap line, in order.
    pub fn sitemaps(&self) -> impl Iterator<Item = &[u8]> + '_ {
        self.lines
            .iter()
            .filter(|l| l.kind == LineKind::Sitemap)
            .map(|l| self.value(l))
    }

    fn read_lines(&mut self) {
        let bytes = &self.bytes;
        // A byte-order mark, or any leading part of one, is skipped.
        let mut start = 0;
        while start < 3 && bytes.get(start) == Some(&b"\xEF\xBB\xBF"[start]) {
            start += 1;
        }
        let mut number = 0u32;
        let mut marks = vec![];
        crate::lowlevel::swar::line_marks(bytes, &mut marks);
        // Sized by the line ends the marks count (a `\r\n` counts twice):
        // growing the vector as lines come cost more than the count.
        let ends: usize =
            marks.iter().map(|m| m.ends.count_ones() as usize).sum();
        let mut lines = Vec::with_capacity(ends + 1);
        let mut warnings = vec![];
        while start < bytes.len() {
            let scan = scan_line(bytes, &marks, start);
            number = number.saturating_add(1);
            lines.push(read_line(bytes, &scan, number, &mut warnings));
            start = scan.end;
            if bytes.get(start) == Some(&b'\r') {
                start += 1;
                if bytes.get(start) == Some(&b'\n') {
                    start += 1;
                }
            } else if bytes.get(start) == Some(&b'\n') {
                start += 1;
            }
        }
        self.lines = lines;
        self.warnings.extend(warnings);
    }
}

/// ASCII white space as the reference library trims it.
pub(crate) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\x0B' | b'\x0C' | b'\r' | b'\n')
}

fn trim(bytes: &[u8], r: Range<usize>) -> Range<usize> {
    trim_end(bytes, trim_start(bytes, r))
}

fn trim_start(bytes: &[u8], mut r: Range<usize>) -> Range<usize> {
    while r.start < r.end && is_space(bytes[r.start]) {
        r.start += 1;
    }
    r
}

fn trim_end(bytes: &[u8], mut r: Range<usize>) -> Range<usize> {
    while r.end > r.start && is_space(bytes[r.end - 1]) {
        r.end -= 1;
    }
    r
}

fn read_line(
    bytes: &[u8],
    scan: &LineScan,
    number: u32,
    warnings: &mut Vec<Warning>,
) -> Line {
    let text = scan.start..scan.end;
    let (mut i, mut comment, mut colon) =
        (scan.stop, scan.comment, scan.colon);
    if text.len() > MAX_LINE_LEN {
        warnings.push(Warning {
            line: number,
            kind: WarningKind::LineTooLong { len: text.len() },
        });
        // Only the line's first bytes count: a stop or colon past them
        // is not there.
        let cut = text.start + MAX_LINE_LEN;
        if i >= cut {
            (i, comment) = (cut, false);
        }
        colon = colon.filter(|&c| c < i);
    }
    let content = trim(bytes, text.start..i);
    let mut line = Line {
        number,
        kind: LineKind::Empty,
        text,
        key: content.start..content.start,
        value: content.end..content.end,
    };
    if content.is_empty() {
        if comment {
            line.kind = LineKind::Comment;
        }
        return line;
    }
    let s = &bytes[content.clone()];
    let mut missing_colon = false;
    let sep = match colon {
        Some(i) => Some((i - content.start, i - content.start + 1)),
        None => {
            // Some people forget the colon: white space is accepted in its
            // place when the line is exactly two words.
            match s.iter().position(|&b| b == b' ' || b == b'\t') {
                Some(i) => {
                    let j = i + s[i..]
                        .iter()
                        .take_while(|&&b| b == b' ' || b == b'\t')
                        .count();
                    if s[j..].iter().any(|&b| b == b' ' || b == b'\t') {
                        None
                    } else {
                        missing_colon = true;
                        Some((i, j))
                    }
                }
                None => None,
            }
        }
    };
    let Some((k, v)) = sep else {
        line.kind = LineKind::Unparseable;
        warnings
            .push(Warning { line: number, kind: WarningKind::Unparseable });
        return line;
    };
    // The content is trimmed: the key needs it at its end only, the value
    // at its start only.
    let key = trim_end(bytes, content.start..content.start + k);
    if key.is_empty() {
        line.kind = LineKind::Unparseable;
        warnings
            .push(Warning { line: number, kind: WarningKind::Unparseable });
        return line;
    }
    if missing_colon {
        warnings
            .push(Warning { line: number, kind: WarningKind::MissingColon });
    }
    line.key = key.clone();
    line.value = trim_start(bytes, content.start + v..content.end);
    let (kind, read_as) = classify_key(&bytes[key]);
    line.kind = kind;
    if kind == LineKind::ContentUsage && i < line.text.end && bytes[i] == 0 {
        // The AIPREF attachment draft's value runs to CR, LF or `#`: a NUL
        // in it is one of its bytes (the dictionary then fails to parse).
        let start = line.value.start;
        line.value = content_usage_value(bytes, start, &line.text, i);
    }
    if let Some((read_as, false)) = read_as {
        warnings.push(Warning {
            line: number,
            kind: WarningKind::TypoAccepted {
                key: bytes[line.key.clone()].to_vec(),
                read_as,
            },
        });
    }
    line
}

/// The value of a Content-Usage line whose useful part a NUL at `nul`
/// ended: from `start` on, it runs past the NUL to the line's first `#`
/// after it, or to its end, within its first [`MAX_LINE_LEN`] bytes,
/// trimmed.
fn content_usage_value(
    bytes: &[u8],
    start: usize,
    text: &Range<usize>,
    nul: usize,
) -> Range<usize> {
    let end = text.end.min(text.start + MAX_LINE_LEN);
    let end = memchr::memchr(b'#', &bytes[nul..end]).map_or(end, |i| nul + i);
    trim(bytes, start..end)
}

/// A line found by [`scan_line`]: where it starts and ends (before its
/// line end), where its useful part ends (at a NUL, or a `#` that starts
/// a comment, else at its end), whether a comment ends it, and its first
/// colon before that.
struct LineScan {
    start: usize,
    end: usize,
    stop: usize,
    comment: bool,
    colon: Option<usize>,
}

/// Scans the line that starts at `start` in `bytes`, whose marks
/// ([`line_marks`](crate::lowlevel::swar::line_marks)) are `marks`: its end, then
/// its first stop before that, then its first colon before the stop,
/// each the next set bit of its mask. Lines are short and many: marking
/// the whole file sixteen bytes at a time, then a few bit operations per
/// line, costs less than a pass over each line a word at a time.
fn scan_line(bytes: &[u8], marks: &[LineMarks], start: usize) -> LineScan {
    let end = next_mark(marks, |m| m.ends, start, bytes.len());
    let stop = next_mark(marks, |m| m.stops, start, end);
    let colon = next_mark(marks, |m| m.colons, start, stop);
    LineScan {
        start,
        end,
        stop,
        comment: stop < end && bytes[stop] == b'#',
        colon: (colon < stop).then_some(colon),
    }
}

/// Where the first byte at or after `from` marked in `pick`'s mask is,
/// or `limit` when none is before it.
#[inline]
fn next_mark(
    marks: &[LineMarks],
    pick: impl Fn(&LineMarks) -> u64,
    from: usize,
    limit: usize,
) -> usize {
    if from >= limit {
        return limit;
    }
    let mut block = from / 64;
    let mut mask = pick(&marks[block]) & (u64::MAX << (from % 64));
    while mask == 0 {
        block += 1;
        if block * 64 >= limit {
            return limit;
        }
        mask = pick(&marks[block]);
    }
    (block * 64 + mask.trailing_zeros() as usize).min(limit)
}

/// Keys are recognised case-insensitively by prefix, in this order:
/// (prefix in lower case, kind, canonical key).
const KEYS: &[(&str, LineKind, &str)] = &[
    ("user-agent", LineKind::UserAgent, "user-agent"),
    ("useragent", LineKind::UserAgent, "user-agent"),
    ("user agent", LineKind::UserAgent, "user-agent"),
    ("allow", LineKind::Allow, "allow"),
    ("disallow", LineKind::Disallow, "disallow"),
    ("dissallow", LineKind::Disallow, "disallow"),
    ("dissalow", LineKind::Disallow, "disallow"),
    ("disalow", LineKind::Disallow, "disallow"),
    ("diasllow", LineKind::Disallow, "disallow"),
    ("disallaw", LineKind::Disallow, "disallow"),
    ("sitemap", LineKind::Sitemap, "sitemap"),
    ("site-map", LineKind::Sitemap, "sitemap"),
];

/// For each prefix of [`KEYS`], its first 8 bytes (fewer when shorter,
/// zeros after them) as a little-endian word, the mask of those bytes, and
/// `0x20` in each byte that is a letter: a key's first word, or-ed with the
/// letters and masked, equals the prefix's exactly when its first bytes
/// are the prefix's in any case (a letter's two cases differ by `0x20`
/// alone; `-` and ` ` must be themselves).
const KEY_WORDS: [(u64, u64, u64); KEYS.len()] = {
    let mut out = [(0, 0, 0); KEYS.len()];
    let mut k = 0;
    while k < KEYS.len() {
        let prefix = KEYS[k].0.as_bytes();
        let mut i = 0;
        while i < prefix.len() && i < 8 {
            let b = prefix[i] as u64;
            out[k].0 |= b << (8 * i);
            out[k].1 |= 0xFF << (8 * i);
            if prefix[i].is_ascii_lowercase() {
                out[k].2 |= 0x20 << (8 * i);
            }
            i += 1;
        }
        k += 1;
    }
    out
};

/// For each entry of [`KEYS`], whether its prefix is its canonical key
/// itself (not a typo of it): computed once, as a line's key is read.
const KEY_IS_CANONICAL: [bool; KEYS.len()] = {
    let mut out = [false; KEYS.len()];
    let mut k = 0;
    while k < KEYS.len() {
        let (prefix, canonical) = (KEYS[k].0.as_bytes(), KEYS[k].2.as_bytes());
        let mut same = prefix.len() == canonical.len();
        let mut i = 0;
        while same && i < prefix.len() {
            same = prefix[i] == canonical[i];
            i += 1;
        }
        out[k] = same;
        k += 1;
    }
    out
};

/// For each byte, the entries of [`KEYS`] whose prefix starts with it
/// (as `start..end`; none for most bytes): the table keeps a letter's
/// prefixes together, which a compile-time check holds it to.
const KEYS_BY_FIRST: [(u8, u8); 256] = {
    let mut out = [(0u8, 0u8); 256];
    let mut k = 0;
    while k < KEYS.len() {
        let first = KEYS[k].0.as_bytes()[0] as usize;
        let (start, end) = out[first];
        if start == end {
            out[first] = (k as u8, k as u8 + 1);
        } else {
            assert!(
                end as usize == k,
                "KEYS keeps a letter's prefixes together"
            );
            out[first].1 += 1;
        }
        k += 1;
    }
    out
};

/// The kind of a line by its key and, for a recognised key, the canonical
/// key it is read as and whether the key is exactly that (else it is a
/// typo, accepted).
fn classify_key(key: &[u8]) -> (LineKind, Option<(&'static str, bool)>) {
    // This runs for every line, so only the keys that start with the key's
    // first letter are tried, their first 8 bytes at once.
    let first = key.first().map_or(0, u8::to_ascii_lowercase);
    let (head, _) = crate::lowlevel::swar::word_and_mask(key);
    let (start, end) = KEYS_BY_FIRST[usize::from(first)];
    for k in usize::from(start)..usize::from(end) {
        let ((prefix, kind, canonical), (word, mask, letters)) =
            (KEYS[k], KEY_WORDS[k]);
        let prefix = prefix.as_bytes();
        if key.len() < prefix.len() {
            continue;
        }
        if (head | letters) & mask != word {
            continue;
        }
        let same = key[8.min(prefix.len())..prefix.len()]
            .iter()
            .zip(&prefix[8.min(prefix.len())..])
            .all(|(&k, &p)| k.to_ascii_lowercase() == p);
        if same {
            let exact = key.len() == canonical.len() && KEY_IS_CANONICAL[k];
            return (kind, Some((canonical, exact)));
        }
    }
    // The usage keys are newer than the typos the table accepts: they are
    // read only as spelt, in any case.
    if first == b'c' {
        if key.eq_ignore_ascii_case(b"content-usage") {
            return (LineKind::ContentUsage, None);
        }
        if key.eq_ignore_ascii_case(b"content-signal") {
            return (LineKind::ContentSignal, None);
        }
    }
    (LineKind::Other, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_line_agrees_with_a_plain_loop() {
        // (end, stop, comment, colon) of the line at `start`, a byte at a
        // time.
        fn plain(
            bytes: &[u8],
            start: usize,
        ) -> (usize, usize, bool, Option<usize>) {
            let end = bytes[start..]
                .iter()
                .position(|&b| b == b'\n' || b == b'\r')
                .map_or(bytes.len(), |i| start + i);
            let mut colon = None;
            for (i, &b) in bytes.iter().enumerate().take(end).skip(start) {
                match b {
                    b'#' => return (end, i, true, colon),
                    0 => return (end, i, false, colon),
                    b':' if colon.is_none() => colon = Some(i),
                    _ => {}
                }
            }
            (end, end, false, colon)
        }
        // Every line of up to 20 bytes with at most three special bytes
        // (`#`, NUL, `:`, line ends, and bytes one off them) at any
        // positions, after two bytes or none, with more lines after it
        // or none.
        let specials =
            [b'#', 0, b':', b'\n', b'\r', b';', 0x80 | b'#', 1, b'\x0b'];
        let n = specials.len();
        let mut count = 0;
        let mut marks = vec![];
        // A head that puts the line across the first 64 bytes' end.
        let long_head = [&b"k:"[..], &[b'v'; 50], b"\n"].concat();
        for len in 0..=20 {
            for a in 0..=len {
                for b in a..=len {
                    for c in b..=len {
                        for s in 0..n * n {
                            let mut line = vec![b'x'; len];
                            let (p, q) = (s % n, s / n);
                            for (at, byte) in
                                [(a, p), (b, q), (c, (p + q) % n)]
                            {
                                if at < len {
                                    line[at] = specials[byte];
                                }
                            }
                            for (head, tail) in [
                                (&b""[..], &b""[..]),
                                (b"a:", b"\nb#:\r\n"),
                                (&long_head[..], b"\n"),
                            ] {
                                let bytes = [head, &line, tail].concat();
                                crate::lowlevel::swar::line_marks(
                                    &bytes, &mut marks,
                                );
                                let scan =
                                    scan_line(&bytes, &marks, head.len());
                                let got = (
                                    scan.end,
                                    scan.stop,
                                    scan.comment,
                                    scan.colon,
                                );
                                assert_eq!(
                                    got,
                                    plain(&bytes, head.len()),
                                    "{bytes:?}"
                                );
                                count += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(count > 300_000);
        // Long lines, across several blocks of marks, with a few special
        // bytes anywhere.
        let mut rng = crate::testing::xorshift(0x5851_F42D_4C95_7F2Du64);
        for _ in 0..20_000 {
            let len = (rng() % 300) as usize;
            let mut bytes = vec![b'x'; len];
            for _ in 0..rng() % 4 {
                let r = rng();
                if len > 0 {
                    bytes[r as usize % len] = specials[(r >> 32) as usize % n];
                }
            }
            crate::lowlevel::swar::line_marks(&bytes, &mut marks);
            let mut start = 0;
            while start < len {
                let scan = scan_line(&bytes, &marks, start);
                let got = (scan.end, scan.stop, scan.comment, scan.colon);
                assert_eq!(got, plain(&bytes, start), "{bytes:?} {start}");
                start = scan.end + 1;
            }
        }
    }

    fn kinds(robots: &Robots) -> Vec<LineKind> {
        robots.lines().iter().map(|l| l.kind()).collect()
    }

    #[test]
    fn line_ends_and_kinds() {
        let r = Robots::parse(
            b"User-agent: *\r\nDisallow: /a\rAllow: /b\n\n# c\nSitemap: x\nfoo",
        );
        use LineKind::*;
        assert_eq!(
            kinds(&r),
            vec![
                UserAgent,
                Disallow,
                Allow,
                Empty,
                Comment,
                Sitemap,
                Unparseable
            ]
        );
        assert_eq!(r.value(&r.lines()[1]), b"/a");
        assert_eq!(r.lines()[6].number(), 7);
        assert_eq!(r.sitemaps().collect::<Vec<_>>(), vec![&b"x"[..]]);
    }

    #[test]
    fn missing_colon_two_words_only() {
        let r = Robots::parse(b"Disallow /tmp\nDisallow /tmp /x\n");
        assert_eq!(r.lines()[0].kind(), LineKind::Disallow);
        assert_eq!(r.value(&r.lines()[0]), b"/tmp");
        assert_eq!(r.lines()[1].kind(), LineKind::Unparseable);
        assert!(r
            .warnings()
            .iter()
            .any(|w| w.kind == WarningKind::MissingColon));
    }

    #[test]
    fn typos_and_prefixes() {
        let r = Robots::parse(b"useragent: a\ndissalow: /x\nDisallowing: /\n");
        assert_eq!(
            kinds(&r),
            vec![LineKind::UserAgent, LineKind::Disallow, LineKind::Disallow]
        );
        let typos = r
            .warnings()
            .iter()
            .filter(|w| matches!(w.kind, WarningKind::TypoAccepted { .. }))
            .count();
        assert_eq!(typos, 3);
    }

    #[test]
    fn key_classification_agrees_with_the_plain_table_walk() {
        // The rule as written first: the first prefix of the table that
        // the key starts with, case-insensitively, and a typo unless the
        // whole key is the canonical spelling.
        fn plain(key: &[u8]) -> (LineKind, Option<(&'static str, bool)>) {
            for &(prefix, kind, canonical) in KEYS {
                if key.len() >= prefix.len()
                    && key[..prefix.len()]
                        .eq_ignore_ascii_case(prefix.as_bytes())
                {
                    let exact = key.eq_ignore_ascii_case(canonical.as_bytes());
                    return (kind, Some((canonical, exact)));
                }
            }
            if key.eq_ignore_ascii_case(b"content-usage") {
                return (LineKind::ContentUsage, None);
            }
            if key.eq_ignore_ascii_case(b"content-signal") {
                return (LineKind::ContentSignal, None);
            }
            (LineKind::Other, None)
        }
        let mut keys: Vec<Vec<u8>> = vec![b"".to_vec(), b"x".to_vec()];
        for &(prefix, _, canonical) in KEYS {
            for word in [prefix, canonical] {
                for cut in 0..=word.len() {
                    for tail in ["", "s", "-", " x", ":"] {
                        let key = format!("{}{tail}", &word[..cut]);
                        keys.push(key.clone().into_bytes());
                        keys.push(key.to_ascii_uppercase().into_bytes());
                        // Every other letter in upper case.
                        let mixed: String = key
                            .chars()
                            .enumerate()
                            .map(|(i, c)| {
                                if i % 2 == 0 {
                                    c.to_ascii_uppercase()
                                } else {
                                    c
                                }
                            })
                            .collect();
                        keys.push(mixed.into_bytes());
                    }
                }
                // Each byte of the word flipped in its 0x20 bit, which
                // changes only a letter's case, and in its 0x01 bit.
                for at in 0..word.len() {
                    for bit in [0x20, 0x01] {
                        let mut key = word.as_bytes().to_vec();
                        key[at] ^= bit;
                        keys.push(key);
                    }
                }
            }
        }
        for key in ["content-usage", "Content-Signal", "CONTENT-USAGE"] {
            for cut in 0..=key.len() {
                keys.push(key.as_bytes()[..cut].to_vec());
            }
            keys.push(format!("{key}s").into_bytes());
        }
        // Bytes that lower-case to a key's letters only in other tables.
        keys.push(b"\xC4llow".to_vec());
        keys.push(b"Us\xE9r-agent".to_vec());
        for key in &keys {
            assert_eq!(classify_key(key), plain(key), "{key:?}");
        }
        assert!(keys.len() > 1_000);
    }

    #[test]
    fn bom_nul_comment_and_long_line() {
        let mut body =
            b"\xEF\xBBUser-agent: *\nDisallow: /a\0/b\nDisallow: /c#d\n"
                .to_vec();
        body.extend(b"Disallow: /");
        body.extend(std::iter::repeat_n(b'x', MAX_LINE_LEN));
        let r = Robots::parse(&body);
        assert_eq!(r.lines()[0].kind(), LineKind::UserAgent);
        assert_eq!(r.value(&r.lines()[1]), b"/a");
        assert_eq!(r.value(&r.lines()[2]), b"/c");
        assert_eq!(
            r.value(&r.lines()[3]).len(),
            MAX_LINE_LEN - "Disallow: ".len()
        );
        assert!(matches!(
            r.warnings()[0].kind,
            WarningKind::LineTooLong { .. }
        ));
    }

    /// A stop or colon past a long line's first `MAX_LINE_LEN` bytes is
    /// not seen, one at exactly that offset neither.
    #[test]
    fn what_a_long_line_holds_past_its_useful_part() {
        let max = MAX_LINE_LEN;
        let line = |head: &str, fill: u8, n: usize, tail: &str| {
            let mut l = head.as_bytes().to_vec();
            l.extend(std::iter::repeat_n(fill, n));
            l.extend(tail.as_bytes());
            l.extend(b"\nAllow: /b\n");
            let r = Robots::parse(&l);
            // The next line is read whole whatever the long one held.
            assert_eq!(r.lines()[1].kind(), LineKind::Allow);
            assert_eq!(r.value(&r.lines()[1]), b"/b");
            r
        };
        // A comment and a colon after the cut.
        let r = line("Disallow: /", b'x', max, "#c:");
        assert_eq!(r.lines()[0].kind(), LineKind::Disallow);
        assert_eq!(r.value(&r.lines()[0]).len(), max - "Disallow: ".len());
        let r = line("", b'x', max, ": /a");
        assert_eq!(r.lines()[0].kind(), LineKind::Unparseable);
        // A `#` at exactly the cut, after white space only: an empty
        // line, not a comment.
        let r = line("", b' ', max, "# c");
        assert_eq!(r.lines()[0].kind(), LineKind::Empty);
        let r = line("", b' ', max - 1, "# c");
        assert_eq!(r.lines()[0].kind(), LineKind::Comment);
        // A colon just before the cut counts, one at it does not.
        let r = line("Disallow", b' ', max - "Disallow".len() - 1, ":/a");
        assert_eq!(r.lines()[0].kind(), LineKind::Disallow);
        assert_eq!(r.value(&r.lines()[0]), b"");
        let r = line("Disallow", b' ', max - "Disallow".len(), ":/a");
        assert_eq!(r.lines()[0].kind(), LineKind::Unparseable);
    }

    #[test]
    fn parse_limit_cuts_and_warns() {
        let r =
            Robots::parse_with_limit(b"User-agent: *\nDisallow: /abc\n", 26);
        assert_eq!(r.bytes().len(), 26);
        assert_eq!(r.value(&r.lines()[1]), b"/a");
        assert!(matches!(
            r.warnings()[0].kind,
            WarningKind::OverParseLimit { len: 29, limit: 26 }
        ));
    }

    /// A parse that keeps its vector gives what a parse of a copy does,
    /// at, under and over the limit.
    #[test]
    fn parse_of_a_vector_is_a_parse_of_its_bytes() {
        let body = b"User-agent: *\nDisallow: /abc # x\r\nAllow: /b\n";
        for limit in [0, 1, 14, 26, body.len() - 1, body.len(), 100] {
            let copied = Robots::parse_with_limit(body, limit);
            let kept = Robots::parse_vec_with_limit(body.to_vec(), limit);
            assert_eq!(kept.bytes(), copied.bytes(), "limit {limit}");
            assert_eq!(kept.warnings(), copied.warnings(), "limit {limit}");
            let lines = |r: &Robots| -> Vec<_> {
                r.lines()
                    .iter()
                    .map(|l| (l.number(), l.kind(), r.text(l).to_vec()))
                    .collect()
            };
            assert_eq!(lines(&kept), lines(&copied), "limit {limit}");
        }
    }
}

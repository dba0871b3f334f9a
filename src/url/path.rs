//! From a URL line to the string that rules are matched against, and the
//! normalisers of patterns and paths (contract section 3); which one each
//! dialect applies is chosen in `dialect.rs`.

use crate::lowlevel::swar::first_of;
use crate::url::block::BLOCK;

/// The path, params and query of a URL line, as a slice of it: the part
/// from the first `/`, `?` or `;` after the authority to the first `#`.
///
/// `slash` is true when a `/` must be put in front of `rest` (the line's
/// path starts with `?` or `;`, or it has no path at all, in which case
/// `rest` is empty and the path is `/`).
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct UrlPath<'a> {
    /// Whether the path is `/` followed by `rest`.
    pub slash: bool,
    /// The path's bytes, as they stand in the line.
    pub rest: &'a [u8],
}

impl UrlPath<'_> {
    /// The path as an owned byte string (for tests and diagnostics; the hot
    /// path never builds one).
    pub fn to_vec(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(self.rest.len() + 1);
        if self.slash {
            v.push(b'/');
        }
        v.extend_from_slice(self.rest);
        v
    }
}

/// Extracts the path, params and query of one URL line (section 3.2; this
/// is `GetPathParamsQuery` of Google's reference library).
///
/// ```
/// use robots_batch::extract_path;
/// assert_eq!(extract_path(b"http://a.com?x").to_vec(), b"/?x");
/// assert_eq!(extract_path(b"example.com/a").to_vec(), b"/a");
/// assert_eq!(extract_path(b"/a/b#c").to_vec(), b"/a/b");
/// assert_eq!(extract_path(b"").to_vec(), b"/");
/// ```
pub fn extract_path(url: &[u8]) -> UrlPath<'_> {
    scan_path(url).0
}

/// [`extract_path`], also telling which special bytes the path holds (an
/// OR of the `SPECIAL_*` flags), in the same pass that looks for its end.
#[inline]
pub(crate) fn scan_path(url: &[u8]) -> (UrlPath<'_>, u8) {
    const ROOT: UrlPath<'static> = UrlPath { slash: true, rest: b"" };
    let hay = url.strip_prefix(b"//").unwrap_or(url);
    let Some(path_start) = path_start(hay) else {
        return (ROOT, 0);
    };
    // One pass finds the fragment and the bytes normalisation cares about:
    // URLs are short, so a table is cheaper than several memchr calls.
    let mut flags = 0;
    let mut end = hay.len();
    for (i, &b) in hay[path_start..].iter().enumerate() {
        let f = SPECIAL[usize::from(b)];
        if f & SPECIAL_HASH != 0 {
            end = path_start + i;
            break;
        }
        flags |= f;
    }
    let rest = &hay[path_start..end];
    (UrlPath { slash: rest[0] != b'/', rest }, flags)
}

/// A `#`: the fragment starts.
const SPECIAL_HASH: u8 = 1;
/// A `%`: an escape may need decoding.
pub(crate) const SPECIAL_PERCENT: u8 = 2;
/// A `*`, `$` or a byte >= 0x80: RFC 9309 spells it differently.
pub(crate) const SPECIAL_RFC9309: u8 = 4;

static SPECIAL: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0x80;
    while b < 256 {
        t[b] = SPECIAL_RFC9309;
        b += 1;
    }
    t[b'#' as usize] = SPECIAL_HASH;
    t[b'%' as usize] = SPECIAL_PERCENT;
    t[b'*' as usize] = SPECIAL_RFC9309;
    t[b'$' as usize] = SPECIAL_RFC9309;
    t
};

/// Where the path of `hay` (a line without its leading `//`) starts, or
/// `None` when the path is `/`: there is no `/`, `?` or `;` after the
/// scheme, or a `#` comes first.
#[inline]
fn path_start(hay: &[u8]) -> Option<usize> {
    // Most lines are http(s) URLs, whose scheme needs no search, and whose
    // authority is short: a table finds its end (or a `#`) in one pass,
    // which costs less than two `memchr` calls.
    let authority = if hay.starts_with(b"https://") {
        8
    } else if hay.starts_with(b"http://") {
        7
    } else {
        return path_start_general(hay);
    };
    let i = hay[authority..]
        .iter()
        .position(|&b| AUTHORITY_END[usize::from(b)])?;
    (hay[authority + i] != b'#').then_some(authority + i)
}

/// [`path_start`] for any line.
pub(crate) fn path_start_general(hay: &[u8]) -> Option<usize> {
    let early = find_path_start(hay)?;
    // A `://` ends a scheme only if no `/`, `?` or `;` comes before it, so
    // it can only sit at the first of them: its `/` is that first one.
    let start = if early > 0
        && hay[early - 1] == b':'
        && hay.get(early..early + 2) == Some(b"//")
    {
        early + 2 + find_path_start(&hay[early + 2..])?
    } else {
        early
    };
    match memchr::memchr(b'#', &hay[..start]) {
        Some(_) => None,
        None => Some(start),
    }
}

/// The bytes that end an authority: the path's start or the fragment's.
static AUTHORITY_END: [bool; 256] = {
    let mut t = [false; 256];
    t[b'/' as usize] = true;
    t[b'?' as usize] = true;
    t[b';' as usize] = true;
    t[b'#' as usize] = true;
    t
};

fn find_path_start(hay: &[u8]) -> Option<usize> {
    memchr::memchr3(b'/', b'?', b';', hay)
}

/// The ASCII bytes of a path that RFC 9309 normalisation may rewrite; it
/// may rewrite every byte at or above 0x80 too.
const RFC9309_STOPS: [u8; 3] = [b'%', b'*', b'$'];

/// The bytes of a path that RFC 9309 normalisation may rewrite.
pub(crate) static RFC9309_SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0x80;
    while b < 256 {
        t[b] = true;
        b += 1;
    }
    let mut i = 0;
    while i < RFC9309_STOPS.len() {
        t[RFC9309_STOPS[i] as usize] = true;
        i += 1;
    }
    t
};

/// The path of a [`ShortLine`](crate::url::block::ShortLine), with where its special bytes are: what
/// the line reader knows of most URLs (see
/// [`UrlLine`](crate::url::lines::UrlLine)).
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub(crate) struct ShortPath<'a> {
    /// The line's block.
    pub(crate) block: &'a [u8; BLOCK],
    /// Where the path starts in `block`.
    pub(crate) at: usize,
    /// Bit `i` is set when byte `at + i` is one that RFC 9309
    /// normalisation may rewrite (`%`, `*`, `$` and bytes at or above
    /// 0x80), and only then.
    pub(crate) specials: u64,
}

/// [`normalize_rfc9309`] of a path, a byte at a time.
///
/// Escapes and bytes at or above 0x80 are common in paths; for those, the
/// general function's searches for runs to copy and its escape checks cost
/// more than one pass with a table over a path, which is short.
pub(crate) fn normalize_rfc9309_path(bytes: &[u8], out: &mut Vec<u8>) {
    // Room for every byte escaped, and two more for the three bytes
    // written at once by `normalize_special`.
    let start = out.len();
    out.resize(start + 3 * bytes.len() + 2, 0);
    let buf = &mut out[start..];
    let mut j = 0;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        buf[j] = b;
        if !RFC9309_SPECIAL[usize::from(b)] {
            i += 1;
            j += 1;
            continue;
        }
        let (read, written) = normalize_special(bytes, i, &mut buf[j..]);
        i += read;
        j += written;
    }
    out.truncate(start + j);
}

/// Bytes of `buf` that [`normalize_rfc9309_short`] writes in: a '/', the
/// bytes of a path shorter than a block each escaped, and a block more
/// for the last copy's overrun.
const SHORT_ROOM: usize = 4 * BLOCK;

/// [`normalize_rfc9309_path`] of a short path (`path`, which is the bytes
/// `short` points at), with a `/` in front when `slash`: written in the
/// first bytes of `buf`, whose length may be set to [`SHORT_ROOM`] and is
/// otherwise left as it is.
///
/// The path's bytes are copied a block at a time, from a copy of the line's
/// block with room after it: once at first, and again after each special
/// byte, from where the byte's form ends. A copy runs past the path, and
/// the next one, or the returned length, puts the end right.
///
/// The bytes are copied whole, not run by run and then byte by byte up to
/// the path's end, because where each run ends is a branch no predictor
/// learns (URLs have every length); and the room is kept between paths
/// rather than zeroed for each. See docs/DESIGN.md, "The 64-byte block for
/// short lines".
pub(crate) fn normalize_rfc9309_short<'b>(
    path: &[u8],
    slash: bool,
    short: ShortPath<'_>,
    buf: &'b mut Vec<u8>,
) -> &'b [u8] {
    let end = short.at + path.len();
    debug_assert!(end < BLOCK && short.block[short.at..end] == *path);
    let mut src = [0u8; 2 * BLOCK];
    src[..BLOCK].copy_from_slice(short.block);
    // What follows the path in the line (a fragment, the next line) must
    // not complete an escape at its end.
    src[end] = 0;
    src[end + 1] = 0;
    if buf.len() < SHORT_ROOM {
        buf.resize(SHORT_ROOM, 0);
    }
    let dst = &mut buf[..SHORT_ROOM];
    dst[0] = b'/';
    let (mut i, mut j) = (short.at, usize::from(slash));
    dst[j..j + BLOCK].copy_from_slice(&src[i..i + BLOCK]);
    let mut specials = short.specials;
    while specials != 0 {
        let at = short.at + specials.trailing_zeros() as usize;
        debug_assert!(RFC9309_SPECIAL[usize::from(src[at])]);
        j += at - i;
        let (read, written) = normalize_special(&src, at, &mut dst[j..]);
        i = at + read;
        j += written;
        dst[j..j + BLOCK].copy_from_slice(&src[i..i + BLOCK]);
        // Bits below `i`: the escape's digits, and the ones just done.
        specials &= u64::MAX << (i - short.at);
    }
    &buf[..j + end - i]
}

/// Writes the RFC 9309 form of the special byte `bytes[i]` (see
/// [`RFC9309_SPECIAL`]) at the start of `buf`, which has room for three
/// bytes, and returns how many bytes of `bytes` it stands for and how many
/// of `buf` its form takes.
#[inline(always)]
fn normalize_special(
    bytes: &[u8],
    i: usize,
    buf: &mut [u8],
) -> (usize, usize) {
    let b = bytes[i];
    // A path with escapes mixes letters, digits and escapes that stay or go
    // in no order a predictor learns; deciding each with a branch costs
    // more than the rest of the work. So an escape's value comes from a
    // table, and both outcomes (the byte itself, or `%XX`) are written
    // before the length is chosen.
    let (e, len) = if b == b'%' {
        let hi = HEX_DIGIT[usize::from(*bytes.get(i + 1).unwrap_or(&0))];
        let lo = HEX_DIGIT[usize::from(*bytes.get(i + 2).unwrap_or(&0))];
        if hi | lo >= 16 {
            // Not an escape: the `%` stays.
            buf[0] = b'%';
            return (1, 1);
        }
        (hi << 4 | lo, 3)
    } else {
        // Bytes >= 0x80, `*` and `$`.
        (b, 1)
    };
    let keep = UNRESERVED[usize::from(e)];
    buf[0] = if keep { e } else { b'%' };
    buf[1] = HEX[usize::from(e >> 4)];
    buf[2] = HEX[usize::from(e & 15)];
    (len, if keep { 1 } else { 3 })
}

/// Each byte's value as a hex digit, or 16 when it is not one.
static HEX_DIGIT: [u8; 256] = {
    let mut t = [16u8; 256];
    let mut b = 0;
    while b < 256 {
        if let Some(v) = hex_val(b as u8) {
            t[b] = v;
        }
        b += 1;
    }
    t
};

/// Whether each byte is unreserved (RFC 3986): an escape of one is
/// decoded.
static UNRESERVED: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = is_unreserved(b as u8);
        b += 1;
    }
    t
};

#[derive(Clone, Copy, Eq, PartialEq)]
pub(crate) enum Role {
    Pattern,
    Path,
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

fn push_escape(out: &mut Vec<u8>, b: u8) {
    out.extend_from_slice(&[
        b'%',
        HEX[usize::from(b >> 4)],
        HEX[usize::from(b & 15)],
    ]);
}

const fn hex_val(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// The byte of a `%XX` escape starting at `bytes[i]`, if there is one.
fn escape_at(bytes: &[u8], i: usize) -> Option<u8> {
    if bytes[i] != b'%' || i + 2 >= bytes.len() {
        return None;
    }
    Some(hex_val(bytes[i + 1])? << 4 | hex_val(bytes[i + 2])?)
}

const fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// Google's `MaybeEscapePattern`: bytes >= 0x80 become `%XX`, the hex
/// digits of existing escapes are upper-cased, nothing else changes.
pub(crate) fn escape_google(pattern: &[u8], out: &mut Vec<u8>) {
    let mut i = 0;
    while i < pattern.len() {
        // Copy the run of bytes that stay as they are in one go.
        let run = plain_run(&pattern[i..], [b'%']);
        out.extend_from_slice(&pattern[i..i + run]);
        i += run;
        if i == pattern.len() {
            break;
        }
        let b = pattern[i];
        if let Some(e) = escape_at(pattern, i) {
            push_escape(out, e);
            i += 3;
            continue;
        }
        if b >= 0x80 {
            push_escape(out, b);
        } else {
            out.push(b);
        }
        i += 1;
    }
}

/// The length of the run at the start of `bytes` before its first byte in
/// `stops` or at or above 0x80: what the normalisers copy as it is, found
/// eight bytes at a time (crawl mode normalises every selected pattern of
/// every host).
fn plain_run<const N: usize>(bytes: &[u8], stops: [u8; N]) -> usize {
    first_of(bytes, stops, true)
}

/// Whether [`escape_google`] gives `pattern` back as it is: it has no `%`
/// and no byte at or above 0x80.
pub(crate) fn google_keeps(pattern: &[u8]) -> bool {
    plain_run(pattern, [b'%']) == pattern.len()
}

/// Whether [`normalize_rfc9309`] surely gives `bytes` back as they are: they
/// have no `%`, `*` or `$` and no byte at or above 0x80.
pub(crate) fn rfc9309_keeps(bytes: &[u8]) -> bool {
    plain_run(bytes, RFC9309_STOPS) == bytes.len()
}

/// RFC 9309 section 2.2.2: bytes >= 0x80 become `%XX`, escapes of
/// unreserved characters are decoded, other escapes get upper-case hex. In
/// a path `*` and `$` are spelled `%2A` and `%24` (section 2.2.3); in a
/// pattern `*` stays the wildcard and only a final `$` stays the anchor.
pub(crate) fn normalize_rfc9309(bytes: &[u8], role: Role, out: &mut Vec<u8>) {
    let mut i = 0;
    while i < bytes.len() {
        // Copy the run of bytes that stay as they are in one go.
        let run = plain_run(&bytes[i..], RFC9309_STOPS);
        out.extend_from_slice(&bytes[i..i + run]);
        i += run;
        if i == bytes.len() {
            break;
        }
        let b = bytes[i];
        if let Some(e) = escape_at(bytes, i) {
            if is_unreserved(e) {
                out.push(e);
            } else {
                push_escape(out, e);
            }
            i += 3;
            continue;
        }
        match b {
            0x80..=0xFF => push_escape(out, b),
            b'*' if role == Role::Path => push_escape(out, b),
            b'$' if role == Role::Path || i + 1 < bytes.len() => {
                push_escape(out, b)
            }
            _ => out.push(b),
        }
        i += 1;
    }
}

/// The 1996 draft (section 3.2.2 of its text): every `%XX` is decoded
/// except `%2F`, which stays `%2F` and never equals `/`.
///
/// The draft compares octets, so an encoded slash must not equal the
/// three octets `%`, `2`, `F` that `%252F` decodes to. To keep a string
/// comparison exact, `%` itself stays encoded: `%25` stays `%25`, and a
/// `%` that starts no escape becomes `%25` (so `/100%` and `/100%25`
/// still compare equal, as their octets do).
pub(crate) fn decode_draft1996(bytes: &[u8], out: &mut Vec<u8>) {
    let mut i = 0;
    while i < bytes.len() {
        match escape_at(bytes, i) {
            Some(b'/') => {
                out.extend_from_slice(b"%2F");
                i += 3;
            }
            Some(b'%') => {
                out.extend_from_slice(b"%25");
                i += 3;
            }
            None if bytes[i] == b'%' => {
                out.extend_from_slice(b"%25");
                i += 1;
            }
            Some(e) => {
                out.push(e);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::{normalize_path, normalize_pattern, Dialect};

    #[test]
    fn plain_run_stops_where_a_byte_loop_does() {
        // Runs of up to 20 bytes, mostly bytes that stay, so that the
        // first stop falls at every offset of a word or nowhere.
        let mut next = crate::testing::xorshift(0x2545_f491_4f6c_dd1du64);
        let alphabet = [b'a', b'/', b'$', b'*', b'%', 0x80, 0xA5, 0xFF];
        for _ in 0..50_000 {
            let len = (next() % 21) as usize;
            let bytes: Vec<u8> = (0..len)
                .map(|_| match next() % 16 {
                    r @ 0..=3 => alphabet[4 + r as usize],
                    r => alphabet[(r % 4) as usize],
                })
                .collect();
            let google = bytes
                .iter()
                .position(|&b| b == b'%' || b >= 0x80)
                .unwrap_or(len);
            assert_eq!(plain_run(&bytes, [b'%']), google, "{bytes:?}");
            let rfc9309 = bytes
                .iter()
                .position(|&b| RFC9309_SPECIAL[usize::from(b)])
                .unwrap_or(len);
            let got = plain_run(&bytes, RFC9309_STOPS);
            assert_eq!(got, rfc9309, "{bytes:?}");
        }
    }

    #[test]
    fn paths() {
        let cases: &[(&str, &str)] = &[
            ("", "/"),
            ("http://www.example.com", "/"),
            ("http://www.example.com/a/b?c=http://d.e/", "/a/b?c=http://d.e/"),
            ("example.com?a", "/?a"),
            ("example.com/a;b#c", "/a;b"),
            ("//a/b/c", "/b/c"),
            ("a/b", "/b"),
            ("a", "/"),
            ("http://x.com#a/b", "/"),
            ("http://x.com;p", "/;p"),
            ("https://x.com?q#f", "/?q"),
            ("https://x.com#", "/"),
            ("https://", "/"),
            ("https:///a", "/a"),
        ];
        for &(url, want) in cases {
            assert_eq!(
                extract_path(url.as_bytes()).to_vec(),
                want.as_bytes(),
                "{url}"
            );
        }
    }

    /// The http(s) shortcut of `path_start` finds what the general
    /// search finds, on every line built from the bytes that matter.
    #[test]
    fn http_shortcut_agrees_with_the_general_search() {
        let schemes = ["http://", "https://", "https:/", "http:", ""];
        let bytes = [b'a', b'/', b'?', b';', b'#', b':'];
        let mut lines = 0;
        for scheme in schemes {
            // Every rest of up to 4 of the bytes, as base-6 digits.
            for n in 0..6usize.pow(4) {
                for len in 0..=4 {
                    let mut line = scheme.as_bytes().to_vec();
                    let mut k = n;
                    for _ in 0..len {
                        line.push(bytes[k % 6]);
                        k /= 6;
                    }
                    assert_eq!(
                        path_start(&line),
                        path_start_general(&line),
                        "{:?}",
                        String::from_utf8_lossy(&line)
                    );
                    lines += 1;
                }
            }
        }
        assert_eq!(lines, 5 * 1296 * 5);
    }

    fn norm(d: Dialect, p: &str) -> String {
        String::from_utf8(normalize_pattern(d, p.as_bytes())).unwrap()
    }

    fn norm_path(d: Dialect, p: &str) -> String {
        let mut out = vec![];
        normalize_path(d, p.as_bytes(), &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn google_escapes_patterns_only() {
        assert_eq!(norm(Dialect::Google, "á"), "%C3%A1");
        assert_eq!(norm(Dialect::Google, "%aa"), "%AA");
        assert_eq!(norm(Dialect::Google, "/%7e*$"), "/%7E*$");
        assert_eq!(norm(Dialect::Google, "/%a"), "/%a");
        assert_eq!(norm_path(Dialect::Google, "/a*$%7e"), "/a*$%7e");
    }

    /// Google's pattern escaping, which copies runs of plain bytes at
    /// once, agrees with a byte-at-a-time reading of `MaybeEscapePattern`
    /// on every string of up to five bytes over an alphabet of the bytes
    /// it treats apart.
    #[test]
    fn google_escape_agrees_with_a_byte_loop() {
        fn plain(p: &[u8]) -> Vec<u8> {
            let mut out = vec![];
            let mut i = 0;
            while i < p.len() {
                let hex = |b: u8| b.is_ascii_hexdigit();
                if p[i] == b'%'
                    && i + 2 < p.len()
                    && hex(p[i + 1])
                    && hex(p[i + 2])
                {
                    out.push(b'%');
                    out.push(p[i + 1].to_ascii_uppercase());
                    out.push(p[i + 2].to_ascii_uppercase());
                    i += 3;
                } else if p[i] >= 0x80 {
                    out.extend_from_slice(format!("%{:02X}", p[i]).as_bytes());
                    i += 1;
                } else {
                    out.push(p[i]);
                    i += 1;
                }
            }
            out
        }
        let alphabet = b"%aF9g/\x80\xff";
        let mut p = vec![];
        for len in 0..=5u32 {
            for mut n in 0..alphabet.len().pow(len) {
                p.clear();
                for _ in 0..len {
                    p.push(alphabet[n % alphabet.len()]);
                    n /= alphabet.len();
                }
                let mut out = vec![];
                escape_google(&p, &mut out);
                assert_eq!(out, plain(&p), "{p:?}");
            }
        }
    }

    /// The one-pass path normalisers give what the general one does.
    #[test]
    fn rfc9309_path_pass_agrees() {
        let alphabet = b"%%%2aAfFgG09*$/~-._\x80\xff\xc3\xa9z";
        let mut rng = crate::testing::xorshift(0x2545_f491_4f6c_dd1du64);
        for len in 0..200_000 {
            let mut r = rng();
            // Mostly short paths, where every mix is likely; some up to
            // the longest the short pass takes.
            let n = if len % 4 == 0 { len % BLOCK } else { len % 12 };
            let path: Vec<u8> = (0..n)
                .map(|_| {
                    r = r.rotate_right(5) ^ 0x9E37_79B9_7F4A_7C15;
                    alphabet[(r % alphabet.len() as u64) as usize]
                })
                .collect();
            let (mut fast, mut general) = (vec![b'x'], vec![b'x']);
            normalize_rfc9309_path(&path, &mut fast);
            normalize_rfc9309(&path, Role::Path, &mut general);
            assert_eq!(fast, general, "{:?}", String::from_utf8_lossy(&path));
            // The short pass, with the path somewhere in a line's block
            // among bytes that could complete an escape at its end.
            let at = (r % (BLOCK - n) as u64) as usize;
            let mut block = [b'4'; BLOCK];
            block[at..at + n].copy_from_slice(&path);
            let specials = path.iter().enumerate().fold(0, |m, (i, &b)| {
                m | u64::from(RFC9309_SPECIAL[usize::from(b)]) << i
            });
            let short = ShortPath { block: &block, at, specials };
            let slash = len % 3 == 0;
            let mut buf = vec![b'x'; len % 300];
            let got = normalize_rfc9309_short(&path, slash, short, &mut buf);
            let mut want = if slash { vec![b'/'] } else { vec![] };
            normalize_rfc9309(&path, Role::Path, &mut want);
            assert_eq!(got, want, "{:?}", String::from_utf8_lossy(&path));
        }
    }

    #[test]
    fn rfc9309_normalises_both() {
        assert_eq!(norm(Dialect::Rfc9309, "/%7euser/*.gif$"), "/~user/*.gif$");
        assert_eq!(norm(Dialect::Rfc9309, "/a$b"), "/a%24b");
        assert_eq!(norm(Dialect::Rfc9309, "/caf\u{e9}%2f"), "/caf%C3%A9%2F");
        assert_eq!(norm_path(Dialect::Rfc9309, "/a*b$%61%"), "/a%2Ab%24a%");
    }

    #[test]
    fn draft1996_decodes_all_but_slash() {
        assert_eq!(norm(Dialect::Draft1996, "/%7ejoe/%2f%41"), "/~joe/%2FA");
        assert_eq!(norm_path(Dialect::Draft1996, "/a%2fb"), "/a%2Fb");
    }

    #[test]
    fn draft1996_keeps_percent_apart_from_escaped_slash() {
        // `%252F` is the octets `%2F`, not an encoded slash.
        assert_eq!(norm_path(Dialect::Draft1996, "/a%252Fb"), "/a%252Fb");
        assert_eq!(norm(Dialect::Draft1996, "/a%25%32%46b"), "/a%252Fb");
        assert_ne!(
            norm_path(Dialect::Draft1996, "/a%252Fb"),
            norm(Dialect::Draft1996, "/a%2Fb"),
        );
        // A bare `%` is the same octet as `%25`.
        assert_eq!(norm_path(Dialect::Draft1996, "/100%"), "/100%25");
        assert_eq!(norm(Dialect::Draft1996, "/100%25"), "/100%25");
        assert_eq!(norm_path(Dialect::Draft1996, "/%zz%4"), "/%25zz%254");
    }
}

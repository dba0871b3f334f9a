//! The four ways of reading robots.txt that robots-batch knows.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, ErrorKind};
use crate::url::path::{
    decode_draft1996, escape_google, google_keeps, normalize_rfc9309,
    normalize_rfc9309_path, normalize_rfc9309_short, rfc9309_keeps, scan_path,
    Role, ShortPath, UrlPath, SPECIAL_PERCENT, SPECIAL_RFC9309,
};

/// A way of reading robots.txt: which groups apply, how patterns and paths
/// are normalised, and which rule decides.
#[derive(Clone, Copy, Debug, Default, Eq, Hash, PartialEq)]
pub enum Dialect {
    /// RFC 9309 (2022): longest match wins, allow wins ties, patterns and
    /// paths percent-normalised alike. The default.
    #[default]
    Rfc9309,
    /// Google's open-source reference library, bit for bit: as RFC 9309 but
    /// patterns are only escaped, paths are used as they are, and
    /// `index.htm*` allows its directory.
    Google,
    /// The 1996 Internet-Draft "A Method for Web Robots Control" (also the
    /// grammar of data.txt): records end at empty lines, the first record
    /// naming the agent as a substring applies, the first matching rule in
    /// file order decides.
    Draft1996,
    /// The 1994 "Standard for Robot Exclusion": disallow lines only, byte
    /// prefixes, nothing decoded.
    Orig1994,
}

impl Dialect {
    /// Every dialect, the default first.
    pub const ALL: [Dialect; 4] = [
        Dialect::Rfc9309,
        Dialect::Google,
        Dialect::Draft1996,
        Dialect::Orig1994,
    ];

    /// The dialect's name as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Rfc9309 => "rfc9309",
            Dialect::Google => "google",
            Dialect::Draft1996 => "draft1996",
            Dialect::Orig1994 => "orig1994",
        }
    }

    /// True when the longest matching rule decides (RFC 9309 and Google);
    /// false when the first one in file order does (the older standards).
    pub fn is_longest_match(self) -> bool {
        matches!(self, Dialect::Rfc9309 | Dialect::Google)
    }

    /// True when `*` and a final `$` in a pattern are special.
    pub fn has_wildcards(self) -> bool {
        self.is_longest_match()
    }

    /// The path of a URL line as this dialect matches it: extracted as
    /// [`extract_path`](crate::extract_path) does, then normalised like
    /// the patterns. `buf` is used only when the path must be rewritten;
    /// otherwise the result borrows from `url`, and nothing is copied.
    ///
    /// ```
    /// use robots_batch::Dialect;
    ///
    /// let mut buf = vec![];
    /// let path = Dialect::Rfc9309.path(b"https://a.com/%7Ex#y", &mut buf);
    /// assert_eq!(path, b"/~x");
    /// assert_eq!(Dialect::Google.path(b"a.com?q", &mut buf), b"/?q");
    /// ```
    #[inline]
    pub fn path<'a>(self, url: &'a [u8], buf: &'a mut Vec<u8>) -> &'a [u8] {
        let (path, flags) = scan_path(url);
        self.path_of(path, flags, None, buf)
    }

    /// [`Dialect::path`] from the path of a URL line as [`scan_path`] (or
    /// [`UrlLines`](crate::url::lines::UrlLines)) finds it: which kinds of
    /// special bytes the path holds (`flags`) and, for a short one, where
    /// they are (see [`ShortPath`]).
    #[inline]
    pub(crate) fn path_of<'a>(
        self,
        path: UrlPath<'a>,
        flags: u8,
        short: Option<ShortPath<'_>>,
        buf: &'a mut Vec<u8>,
    ) -> &'a [u8] {
        if !path.slash && !needs_normalizing(self, flags) {
            return path.rest;
        }
        if let (Dialect::Rfc9309, Some(short)) = (self, short) {
            return normalize_rfc9309_short(path.rest, path.slash, short, buf);
        }
        buf.clear();
        if path.slash {
            buf.push(b'/');
        }
        normalize_path(self, path.rest, buf);
        buf
    }
}

/// Whether a path whose special bytes are `flags` (see [`scan_path`])
/// needs rewriting in `dialect` before it can be matched.
#[inline]
pub(crate) fn needs_normalizing(dialect: Dialect, flags: u8) -> bool {
    match dialect {
        Dialect::Google | Dialect::Orig1994 => false,
        Dialect::Rfc9309 => flags & (SPECIAL_PERCENT | SPECIAL_RFC9309) != 0,
        Dialect::Draft1996 => flags & SPECIAL_PERCENT != 0,
    }
}

/// Appends the normalised form of a URL path's bytes to `out`.
pub(crate) fn normalize_path(
    dialect: Dialect,
    path: &[u8],
    out: &mut Vec<u8>,
) {
    match dialect {
        Dialect::Google | Dialect::Orig1994 => out.extend_from_slice(path),
        Dialect::Rfc9309 => normalize_rfc9309_path(path, out),
        Dialect::Draft1996 => decode_draft1996(path, out),
    }
}

/// The form a rule's pattern takes in `dialect` before it is compiled.
/// For RFC 9309 and Google its length is the rule's priority.
pub fn normalize_pattern(dialect: Dialect, pattern: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(pattern.len());
    push_normalized_pattern(dialect, pattern, &mut out);
    out
}

/// Whether [`normalize_pattern`] surely gives `pattern` back as it is, by
/// a test cheaper than normalising: most rules' values are plain ASCII,
/// and a host's rules are normalised when it is first met. (A `false` may
/// still be a pattern that normalising keeps.)
pub(crate) fn normalizing_keeps(dialect: Dialect, pattern: &[u8]) -> bool {
    match dialect {
        Dialect::Google => google_keeps(pattern),
        Dialect::Rfc9309 => rfc9309_keeps(pattern),
        Dialect::Draft1996 => memchr::memchr(b'%', pattern).is_none(),
        Dialect::Orig1994 => true,
    }
}

/// Appends [`normalize_pattern`]'s result to `out`.
pub(crate) fn push_normalized_pattern(
    dialect: Dialect,
    pattern: &[u8],
    out: &mut Vec<u8>,
) {
    match dialect {
        Dialect::Google => escape_google(pattern, out),
        Dialect::Rfc9309 => normalize_rfc9309(pattern, Role::Pattern, out),
        Dialect::Draft1996 => decode_draft1996(pattern, out),
        Dialect::Orig1994 => out.extend_from_slice(pattern),
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Dialect {
    type Err = Error;

    fn from_str(s: &str) -> Result<Dialect, Error> {
        Dialect::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                Error::new(ErrorKind::UnknownDialect(s.to_string()))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `normalizing_keeps` says so only of patterns that normalising
    /// gives back as they are, and says so of plain ones.
    #[test]
    fn normalizing_keeps_only_what_normalising_keeps() {
        let mut next = crate::testing::xorshift(0x2545_f491_4f6c_dd1d);
        let alphabet = b"/a-Z.%2fF5*$?\x80\xc3\xa9";
        let mut kept = [0usize; 4];
        for _ in 0..20_000 {
            let len = (next() % 24) as usize;
            let pattern: Vec<u8> = (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect();
            for (k, d) in Dialect::ALL.into_iter().enumerate() {
                if normalizing_keeps(d, &pattern) {
                    kept[k] += 1;
                    let normal = normalize_pattern(d, &pattern);
                    assert_eq!(normal, pattern, "{d}: {pattern:?}");
                }
            }
        }
        assert!(kept.iter().all(|&n| n > 500), "{kept:?}");
        for d in Dialect::ALL {
            assert!(normalizing_keeps(d, b"/a/b-c.html?x=1"), "{d}");
        }
        assert!(!normalizing_keeps(Dialect::Google, "/\u{e9}".as_bytes()));
        assert!(!normalizing_keeps(Dialect::Rfc9309, b"/a*"));
        assert!(!normalizing_keeps(Dialect::Draft1996, b"/%41"));
    }
}

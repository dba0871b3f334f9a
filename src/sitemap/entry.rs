//! What a sitemap lists: entries, their problems, and how they are read.

use std::io;

/// The longest XML event (a tag, a text between tags, a comment, a DTD)
/// read whole; a longer text is cut and its entry is bad, longer markup
/// is an error. A sitemap's URL has at most 2,048 characters.
pub const DEFAULT_MAX_EVENT_BYTES: usize = 1 << 20;

/// How deep XML elements may nest (a sitemap needs three levels).
pub const MAX_DEPTH: usize = 64;

/// What a sitemap input is, from its first bytes.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum SitemapKind {
    /// An XML sitemap: `urlset` or `sitemapindex`.
    Xml,
    /// A text sitemap: one URL a line.
    Text,
    /// An llms.txt: Markdown whose link targets are the URLs.
    LlmsTxt,
}

/// Whether an entry is a page's URL or a child sitemap's.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum EntryKind {
    /// A `<url>` of a `urlset`, a text sitemap's line, an llms.txt link.
    Url,
    /// A `<sitemap>` of a `sitemapindex`.
    Sitemap,
}

/// Why an entry has no URL to judge.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
#[repr(u8)]
pub enum Problem {
    /// A `<url>` or `<sitemap>` without a `<loc>`.
    NoLoc = 1,
    /// Not an absolute `http` or `https` URL.
    NotHttp,
    /// White space or control characters inside the URL.
    Space,
    /// A reference to an entity that XML does not define itself.
    Entity,
    /// A `<loc>` (or a text line) over the event limit.
    TooLong,
    /// A child sitemap that is not in the directory given.
    MissingChild,
    /// A child sitemap read already, or nested too deep.
    ChildSkipped,
}

impl Problem {
    /// Every problem, in the order of their numbers.
    pub const ALL: [Problem; 7] = [
        Problem::NoLoc,
        Problem::NotHttp,
        Problem::Space,
        Problem::Entity,
        Problem::TooLong,
        Problem::MissingChild,
        Problem::ChildSkipped,
    ];

    /// The problem numbered `n`, if one is.
    pub fn from_number(n: u8) -> Option<Problem> {
        Problem::ALL.into_iter().find(|p| *p as u8 == n)
    }

    /// The problem in words, as a bad record's `robots_error`.
    pub fn reason(self) -> &'static str {
        match self {
            Problem::NoLoc => "no <loc> in the entry",
            Problem::NotHttp => "not an absolute http or https URL",
            Problem::Space => "white space or control characters in the URL",
            Problem::Entity => {
                "an entity reference XML does not define (DTD entities are \
                 not expanded)"
            }
            Problem::TooLong => {
                "longer than an XML text or line may be (1 MiB)"
            }
            Problem::MissingChild => {
                "child sitemap not found in --sitemap-dir (by its URL's path \
                 or file name)"
            }
            Problem::ChildSkipped => {
                "child sitemap read already, or nested too deep"
            }
        }
    }
}

/// One URL a sitemap or llms.txt lists, with where it was listed.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Entry {
    /// The URL as listed (entities and character references resolved;
    /// an llms.txt's relative link made absolute). Empty when too long.
    pub url: String,
    /// The file it was read from, as named to the reader.
    pub file: String,
    /// The line of its `<loc>` (of its link, of its text line), from 1.
    pub line: u64,
    /// Its `<lastmod>`, where it has one.
    pub lastmod: Option<String>,
    /// A page's URL or a child sitemap's.
    pub kind: EntryKind,
    /// Why it has no URL to judge, if it has none.
    pub problem: Option<Problem>,
}

/// How a [`Sitemap`](super::Sitemap) reads: the limits, and the origin relative links are
/// made absolute against.
#[derive(Clone, Debug)]
pub struct SitemapOptions {
    /// The site's origin (`https://example.com`): an llms.txt's relative
    /// links are made absolute against it; without one they are kept as
    /// paths from the root (`/docs/a.md`).
    pub origin: Option<String>,
    /// See [`DEFAULT_MAX_EVENT_BYTES`].
    pub max_event_bytes: usize,
}

impl Default for SitemapOptions {
    fn default() -> SitemapOptions {
        SitemapOptions {
            origin: None,
            max_event_bytes: DEFAULT_MAX_EVENT_BYTES,
        }
    }
}

/// Bad data, not a failed read.
pub(super) fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

/// Why `url` (trimmed already) is no absolute http or https URL, if it
/// is not one: a scheme, a host, and no white space or control bytes.
pub fn check_url(url: &str) -> Option<Problem> {
    let bytes = url.as_bytes();
    let rest = strip_prefix_ci(bytes, b"https://")
        .or_else(|| strip_prefix_ci(bytes, b"http://"));
    let host = rest.and_then(|r| r.first());
    if matches!(host, None | Some(b'/' | b'?' | b'#')) {
        return Some(Problem::NotHttp);
    }
    bytes.iter().any(|&b| b <= b' ' || b == 0x7f).then_some(Problem::Space)
}

/// `bytes` after `prefix`, compared without case.
fn strip_prefix_ci<'a>(bytes: &'a [u8], prefix: &[u8]) -> Option<&'a [u8]> {
    let head = bytes.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix).then(|| &bytes[prefix.len()..])
}

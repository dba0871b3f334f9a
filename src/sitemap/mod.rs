/*!
Sitemaps and llms.txt: the URLs a site lists, each with where it was
listed (file, line, and a sitemap's `<lastmod>`).

[`Sitemap`] reads one input, streaming: an XML sitemap (`urlset`, whose
`<url>`s are the entries, or `sitemapindex`, whose `<sitemap>`s name
child sitemaps), a text sitemap (one URL a line) or an llms.txt (the
targets of its Markdown links, made absolute against the site's origin
when they are relative). [`SitemapSet`] reads a root sitemap and, with a
directory to look in, the children of its index from local files.

Hostile input stays in bounded memory: entities are never expanded
(a reference to one a DTD declares makes its entry bad, not bigger), an
XML event (a tag, a text, a DTD) longer than [`DEFAULT_MAX_EVENT_BYTES`]
is cut (a text) or an error (markup), and elements may nest only
[`MAX_DEPTH`] deep. Malformed XML is an error with its byte offset, after
the entries read before it.
*/

use std::io::{self, BufRead, Read};

mod index;
mod text;
mod xml;

pub use index::SitemapSet;

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

/// How a [`Sitemap`] reads: the limits, and the origin relative links are
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

/// The entries of one input, read as they come.
pub struct Sitemap<'r> {
    inner: Inner<'r>,
}

enum Inner<'r> {
    Xml(Box<xml::XmlEntries<'r>>),
    Lines(text::LineEntries<'r>),
}

impl std::fmt::Debug for Sitemap<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sitemap").finish_non_exhaustive()
    }
}

impl<'r> Sitemap<'r> {
    /// Reads `rdr` (gzip- or zstd-compressed or not), named `file` in the
    /// entries, as an XML sitemap when it starts with `<` (after a byte
    /// order mark and white space), as an llms.txt when it looks like one
    /// (see [`crate::sniff::looks_like_llms_txt`]), else as a text
    /// sitemap. An HTML page is an error of kind `InvalidData` that says
    /// so.
    pub fn open<R: Read + 'r>(
        rdr: R,
        file: &str,
        options: &SitemapOptions,
    ) -> io::Result<Sitemap<'r>> {
        let mut rdr = crate::compressed::decompressed(rdr)?;
        let mut head = vec![0u8; crate::sniff::SNIFF_BYTES];
        let n = crate::sniff::read_head(&mut rdr, &mut head)?;
        head.truncate(n);
        let rdr = io::Cursor::new(head.clone()).chain(rdr);
        let rdr = io::BufReader::with_capacity(1 << 16, rdr);
        let head = &head[..];
        if crate::sniff::looks_like_html(head) {
            return Err(invalid(format!(
                "{file} is an HTML page, not a sitemap (a web page served \
                 in its place?)"
            )));
        }
        let rdr: Box<dyn BufRead + 'r> = Box::new(rdr);
        let inner =
            match kind_of(head) {
                SitemapKind::Xml => Inner::Xml(Box::new(
                    xml::XmlEntries::new(rdr, file, options.max_event_bytes),
                )),
                kind => Inner::Lines(text::LineEntries::new(
                    rdr,
                    file,
                    kind == SitemapKind::LlmsTxt,
                    options,
                )),
            };
        Ok(Sitemap { inner })
    }

    /// The next entry, `None` at the end. An error (malformed XML, a
    /// failed read) ends the entries.
    pub fn next_entry(&mut self) -> io::Result<Option<Entry>> {
        match &mut self.inner {
            Inner::Xml(x) => x.next_entry(),
            Inner::Lines(l) => l.next_entry(),
        }
    }
}

/// What an input starting with `head` (decompressed) is.
pub fn kind_of(head: &[u8]) -> SitemapKind {
    let text = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    if text.trim_ascii_start().starts_with(b"<") {
        SitemapKind::Xml
    } else if crate::sniff::looks_like_llms_txt(head) {
        SitemapKind::LlmsTxt
    } else {
        SitemapKind::Text
    }
}

/// Bad data, not a failed read.
fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

/// Why `url` (trimmed already) is no absolute http or https URL, if it
/// is not one: a scheme, a host, and no white space or control bytes.
pub fn check_url(url: &str) -> Option<Problem> {
    let bytes = url.as_bytes();
    if bytes.iter().any(|&b| b <= b' ' || b == 0x7f) {
        return Some(Problem::Space);
    }
    let rest = strip_prefix_ci(bytes, b"https://")
        .or_else(|| strip_prefix_ci(bytes, b"http://"));
    match rest {
        Some(rest)
            if !matches!(rest.first(), None | Some(b'/' | b'?' | b'#')) =>
        {
            None
        }
        _ => Some(Problem::NotHttp),
    }
}

/// `bytes` after `prefix`, compared without case.
fn strip_prefix_ci<'a>(bytes: &'a [u8], prefix: &[u8]) -> Option<&'a [u8]> {
    let head = bytes.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix).then(|| &bytes[prefix.len()..])
}

#[cfg(test)]
mod tests;

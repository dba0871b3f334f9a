//! One sitemap input read entry by entry: XML, text or llms.txt, told
//! from its first bytes.

use std::io::{self, BufRead, Read};

use super::entry::{invalid, Entry, SitemapKind, SitemapOptions};
use super::text::LineEntries;
use super::xml::XmlEntries;

/// The entries of one input, read as they come.
pub struct Sitemap<'r> {
    inner: Inner<'r>,
}

enum Inner<'r> {
    Xml(Box<XmlEntries<'r>>),
    Lines(LineEntries<'r>),
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
        let inner = match kind_of(head) {
            SitemapKind::Xml => Inner::Xml(Box::new(XmlEntries::new(
                rdr,
                file,
                options.max_event_bytes,
            ))),
            kind => Inner::Lines(LineEntries::new(
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
